#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-smoke: yes
# vm-timeout: 420
#
# Bandwidth between the two "Sparks": spark2 serves, spark1 runs each op
# with 1 and 4 QPs, and the bytes a session reports are held against the
# byte counters of the netdev under the soft-RoCE device; then both
# "halves" (rxe0 on eth0, rxe1 on eth1) at once, as one command.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)

stat() { cat "/sys/class/net/$1/statistics/$2"; }

rxe_pkts() { rdma -j statistic show link "$SP_VM_RDMA_DEV/1" | jq ".[0].$1"; }

# pair_run OP SIZE QPS ITERS: exact counts, and the netdev bytes in the data
# direction (spark1's TX for write and send, its RX for read) that carry
# the payload (sp_roce_bytes_ok).
pair_run() {
	local op=$1 size=$2 qps=$3 iters=$4 j=$tmp/$1.$2.$3.json ctr=tx_bytes
	local pctr=sent_pkts before after pbefore pafter moved pkts extra payload
	[ "$op" = read ] && ctr=rx_bytes pctr=rcvd_pkts
	before=$(stat eth0 "$ctr") pbefore=$(rxe_pkts "$pctr")
	sparkperf-ctl -j bw run peer "$SP_VM_PEER" op "$op" size "$size" \
		qps "$qps" iters "$iters" >"$j" || return 1
	after=$(stat eth0 "$ctr") pafter=$(rxe_pkts "$pctr")
	moved=$((after - before))
	payload=$((qps * iters * size))
	pkts=$((qps * iters * ((size + SP_ROCE_PMTU - 1) / SP_ROCE_PMTU)))
	extra=$((pafter - pbefore - pkts))
	[ "$extra" -ge 0 ] || extra=0
	jq -c '.[0].sessions[0] | {state, dev, tx_bytes, gbit_per_s}' "$j"
	echo "eth0 $ctr +$moved for $payload B of payload in $pkts packets;" \
		"$SP_VM_RDMA_DEV $pctr +$((pafter - pbefore))"
	jq -e --arg d "$SP_VM_RDMA_DEV" --argjson n $((qps * iters)) \
		--argjson b "$payload" '.[0].sessions[0] |
		.state == "done" and .dev == $d and .tx_msgs == $n and
		.tx_bytes == $b' "$j" >/dev/null &&
	sp_roce_bytes_ok "$moved" "$payload" "$pkts" "$extra"
}

bidir_pair() {
	sparkperf-ctl -j bw run peer "$SP_VM_PEER" op write size 65536 iters 50 \
		bidir validate >"$tmp/bidir.json" || return 1
	jq -c '.[0].sessions[0] | {state, tx_bytes, rx_bytes, validate_errors}' \
		"$tmp/bidir.json"
	jq -e '.[0].sessions[0] | .state == "done" and .tx_bytes == 50 * 65536 and
		.rx_bytes > 0 and .validate_errors == 0' "$tmp/bidir.json" >/dev/null
}

# Both halves: one session per device, each over its own link, and an
# aggregate that adds them up.
two_halves() {
	local b0 b1 a0 a1
	b0=$(stat eth0 tx_bytes) b1=$(stat eth1 tx_bytes)
	sparkperf-ctl -j bw run peer "$SP_VM_PEER,$SP_VM_PEER2" \
		dev "$SP_VM_RDMA_DEV,$SP_VM_RDMA_DEV2" size 1M qps 2 iters 16 \
		>"$tmp/two.json" || return 1
	a0=$(stat eth0 tx_bytes) a1=$(stat eth1 tx_bytes)
	jq -c '.[0] | {devs: [.sessions[].dev], gbit: [.sessions[].gbit_per_s],
		aggregate}' "$tmp/two.json"
	echo "eth0 tx +$((a0 - b0)), eth1 tx +$((a1 - b1))"
	jq -e --arg d0 "$SP_VM_RDMA_DEV" --arg d1 "$SP_VM_RDMA_DEV2" '.[0] |
		[.sessions[].dev] == [$d0, $d1] and
		all(.sessions[]; .state == "done" and .tx_bytes == 32 * 1048576) and
		.aggregate.sessions == 2 and
		.aggregate.bytes == ([.sessions[].bytes] | add) and
		((.aggregate.gbit_per_s - ([.sessions[].gbit_per_s] | add)) | fabs)
			<= 0.001 * .aggregate.gbit_per_s' "$tmp/two.json" >/dev/null &&
	[ $((a0 - b0)) -ge $((32 * 1048576)) ] && [ $((a1 - b1)) -ge $((32 * 1048576)) ]
}

server_idle() {
	sparkperf-ctl -j server show | tee /dev/stderr |
		jq -e '.[0].active == 0 and .[0].served > 0'
}

if sp_is_b; then
	sp_test "spark2: server start" sparkperf-ctl server start
fi
sp_barrier server-up
if sp_is_a; then
	for op in write send read; do
		sp_test "spark1 -> spark2: bw $op, 64 KiB, 1 QP; netdev bytes agree" \
			pair_run "$op" 65536 1 100
		sp_test "spark1 -> spark2: bw $op, 4 MiB, 4 QPs; netdev bytes agree" \
			pair_run "$op" 4194304 4 3
	done
	sp_test "spark1 <-> spark2: bidir write, validated" bidir_pair
	sp_test "both halves at once: rxe0 and rxe1, aggregate" two_halves
fi
sp_barrier runs-done
if sp_is_b; then
	sp_test "spark2: every connection served and closed" \
		sp_wait_for server_idle 10
	sp_test "spark2: server stop" sparkperf-ctl server stop
fi
rm -rf "$tmp"
sp_plan_done
