#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-smoke: yes
# vm-timeout: 300
#
# Latency between the two "Sparks": spark2 serves, spark1 measures each op.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)

# pair_run OP: spark1's session against spark2's kernel listener
pair_run() {
	sparkperf-ctl -j lat run peer "$SP_VM_PEER" op "$1" size 64 iters 30 \
		warmup 5 >"$tmp/$1.json" || return 1
	jq -c '.[0] | {state, count, rtt_p50_ns, rtt_max_ns, dev}' "$tmp/$1.json"
	jq -e --arg d "$SP_VM_RDMA_DEV" '.[0] | .state == "done" and
		.count == 30 and .warmup_count == 5 and .dev == $d and
		.rtt_min_ns <= .rtt_p50_ns and .rtt_p50_ns <= .rtt_max_ns' \
		"$tmp/$1.json" >/dev/null
}

served_three() {
	sparkperf-ctl -j server show | tee /dev/stderr |
		jq -e '.[0].served == 3 and .[0].active == 0'
}

if sp_is_b; then
	sp_test "spark2: server start" sparkperf-ctl server start
fi
sp_barrier server-up
if sp_is_a; then
	for op in write send read; do
		sp_test "spark1 -> spark2: lat $op" pair_run "$op"
	done
fi
sp_barrier runs-done
if sp_is_b; then
	sp_test "spark2: served the three sessions, none left" \
		sp_wait_for served_three 10
	sp_test "spark2: server stop" sparkperf-ctl server stop
fi
rm -rf "$tmp"
sp_plan_done
