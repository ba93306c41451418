#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-timeout: 420
#
# check's probes between the two "Sparks": spark1 runs the sparkperf
# server, spark2 checks both of spark1's halves. Healthy, each half moves
# data and answers round trips; with eth1 of spark2 shaped to 20 Mbit/s
# (tc tbf), that half's bandwidth probe fails by name, against its sibling,
# while the other passes; without a server the probes say so and measure
# nothing; "probe none" leaves them out. On the way, the registration of
# 256 MiB on each device, and its failure under a 64 KiB memlock limit.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
peers=$SP_VM_PEER,$SP_VM_PEER2
export SPARKPERF_STATE_DIR=$tmp/state
bw0="probe-bw $SP_VM_RDMA_DEV $SP_VM_PEER"
bw1="probe-bw $SP_VM_RDMA_DEV2 $SP_VM_PEER2"

# check_to NAME [ARGS...]: spark2's check of both halves into $tmp/NAME.json, its exit status kept
check_to() {
	local name=$1

	shift
	sparkperf-ctl -j check peer "$peers" "$@" >"$tmp/$name.json"
	echo $? >"$tmp/$name.rc"
	jq -c '.[] | select(.name | startswith("probe")) | {name, status, detail}' \
		"$tmp/$name.json" | while read -r l; do sp_diag "$l"; done
}

if sp_is_a; then
	sp_test "spark1: server start" sparkperf-ctl server start
fi
sp_barrier server-up

# bw_judged: whether the probes' figures can be judged here. The debug
# kernel's soft-RoCE moves about 1 MB/s, where a 2 s probe of 1 MiB writes
# on 4 QPs may complete nothing: its probes run, their figures are not
# judged, and the shaper (20 Mbit/s) would not bind.
bw_judged() {
	sp_timing_judged && return
	local d
	for d in "spark2: the healthy halves' bandwidth probes judged" \
		"spark2: the half shaped to 20 Mbit/s found by its bandwidth probe"; do
		sp_skip "$d" "soft-RoCE too slow on the debug kernel to judge bandwidth"
	done
	return 1
}

if sp_is_b; then
	check_to healthy
	if bw_judged; then
		[ "$(cat "$tmp/healthy.rc")" = 0 ]
		sp_ok "spark2: check peer $peers passes with the probes"
		sp_check 1 "spark2: a bandwidth probe per half, each a figure, none failed" \
			"[.[] | select(.name | startswith(\"probe-bw \")) | .name] ==
			 [\"$bw0\", \"$bw1\"] and all(.[] | select(.name | startswith(\"probe-bw \"));
			 (.status == \"pass\" or .status == \"warn\") and .facts.gbit_per_s > 0)"
		sp_check 1 "spark2: the halves are judged against each other (soft-RoCE has no figure)" \
			'[.[] | select(.name | startswith("probe-bw ")) | .facts.sibling_gbit_per_s > 0] ==
			 [true, true]'
		judged=true
	else
		judged=false
	fi
	sp_check 1 "spark2: a latency probe per half, p50 and p99" \
		'[.[] | select(.name | startswith("probe-lat ")) | .status == "pass" and
		  .facts.rtt_p50_ns > 0 and .facts.rtt_p99_ns >= .facts.rtt_p50_ns] == [true, true]'
	sp_check 1 "spark2: 256 MiB registered with ibv_reg_mr on each RDMA device" \
		"[.[] | select(.name | startswith(\"register \")) | .status == \"pass\" and
		  .facts.bytes == 268435456] == [true, true]"
	sp_checks "$tmp/healthy.json"

	# not root: the module's sessions are refused, and the probes say why
	sp_as_nobody sparkperf-ctl -j check peer "$peers" >"$tmp/nobody.json"
	sp_check 1 "spark2: as nobody, each probe is skipped: sessions need CAP_NET_ADMIN" \
		'[.[] | select(.name | startswith("probe-")) | .status == "skip" and
		  (.detail | test("need CAP_NET_ADMIN"))] == [true, true, true, true]'
	sp_checks "$tmp/nobody.json"

	if $judged; then
		sp_test "spark2: eth1 shaped to 20 Mbit/s" \
			tc qdisc add dev "$SP_VM_NETDEV2" root tbf rate 20mbit burst 64kb latency 2s
		check_to shaped
		tc qdisc del dev "$SP_VM_NETDEV2" root
		[ "$(cat "$tmp/shaped.rc")" = 1 ]
		sp_ok "spark2: with eth1 shaped, check exits 1"
		sp_check 1 "spark2: the shaped half's bandwidth probe fails, by name" \
			".[] | select(.name == \"$bw1\") | .status == \"fail\" and
			 .facts.netdev == \"$SP_VM_NETDEV2\""
		sp_check 1 "spark2: the other half passes" \
			".[] | select(.name == \"$bw0\") | .status == \"pass\""
		sp_check 1 "spark2: nothing else fails" \
			"[.[] | select(.status == \"fail\") | .name] == [\"$bw1\"]"
		sp_checks "$tmp/shaped.json"
	fi
fi
sp_barrier probed 400

if sp_is_a; then
	sp_test "spark1: server stop" sparkperf-ctl server stop
fi
sp_barrier server-down

if sp_is_b; then
	check_to no-server
	[ "$(cat "$tmp/no-server.rc")" = 0 ]
	sp_ok "spark2: without a server, check still passes"
	sp_check 1 "spark2: each bandwidth probe warns that no server answers" \
		'[.[] | select(.name | startswith("probe-bw ")) | .status == "warn" and
		  (.detail | test("no sparkperf server answers")) and .facts.gbit_per_s == null] ==
		 [true, true]'
	sp_checks "$tmp/no-server.json"
	check_to none probe none
	jq -e '[.[] | select(.name | startswith("probe"))] == []' "$tmp/none.json" >/dev/null
	sp_ok "spark2: probe none leaves the probes out"
	# what a user without CAP_IPC_LOCK under a 64 KiB locked-memory limit meets in NCCL
	(ulimit -l 64 && setpriv --bounding-set=-ipc_lock sparkperf-ctl -j check \
		>"$tmp/memlock.json")
	[ $? = 1 ]
	sp_ok "spark2: under a 64 KiB memlock limit, check exits 1"
	sp_check 1 "spark2: the registration fails on each device, naming the limit" \
		'[.[] | select(.name | startswith("register ")) | .status == "fail" and
		  (.detail | test("Cannot allocate memory")) and
		  (.fix | test("locked-memory limit"))] == [true, true]'
	sp_checks "$tmp/memlock.json"
	sparkperf-ctl check peer "$peers" probe fast 2>"$tmp/usage.err"
	[ $? = 2 ] && [ "$(wc -l <"$tmp/usage.err")" = 1 ] &&
		grep -q "Invalid probe: 'fast' (bw or none)" "$tmp/usage.err"
	sp_ok "spark2: probe fast: exit 2, one line"
fi

if sp_is_b; then
	cp "$tmp"/*.json "$SP_OUT/" 2>/dev/null
fi
rm -rf "$tmp"
sp_plan_done
