#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-smoke: yes
# vm-timeout: 420
#
# Counter traces between the two "Sparks": spark1's bandwidth runs with
# `trace on`, whose netdev byte deltas must carry the payload the session
# moved (sp_roce_bytes_ok), spark2's own trace of its receiving side during
# one of them, and `watch` on both halves (rxe0/eth0, rxe1/eth1) during a
# run over both links.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)

# delta FILE SOURCE TARGET COUNTER: a counter's delta in a trace report
# (0 when it did not change)
delta() {
	jq --arg s "$2" --arg t "$3" --arg c "$4" '[.streams[] |
		select(.source == $s and .target == $t) | .counters[] |
		select(.name == $c) | .delta] | first // 0' "$1"
}

# traced_run OP SIZE QPS ITERS: `bw run ... trace on`; eth0's bytes in the
# data direction (TX for write and send, RX for read) and rxe0's packets
# in the trace carry the session's payload.
traced_run() {
	local op=$1 size=$2 qps=$3 iters=$4 j=$tmp/$1.json ctr=tx_bytes
	local pctr=sent_pkts moved pkts sent payload extra
	[ "$op" = read ] && ctr=rx_bytes pctr=rcvd_pkts
	sparkperf-ctl -j bw run peer "$SP_VM_PEER" op "$op" size "$size" \
		qps "$qps" iters "$iters" trace on >"$j" 2>"$tmp/err" || {
		cat "$tmp/err"
		return 1
	}
	jq '.[0].trace' "$j" >"$tmp/$op.trace.json"
	moved=$(delta "$tmp/$op.trace.json" netdev "$SP_VM_NETDEV" "$ctr")
	sent=$(delta "$tmp/$op.trace.json" rdma "$SP_VM_RDMA_DEV" "$pctr")
	payload=$((qps * iters * size))
	pkts=$((qps * iters * ((size + SP_ROCE_PMTU - 1) / SP_ROCE_PMTU)))
	extra=$((sent - pkts))
	[ "$extra" -ge 0 ] || extra=0
	echo "trace: $SP_VM_NETDEV $ctr +$moved, $SP_VM_RDMA_DEV $pctr +$sent" \
		"for $payload B of payload in $pkts packets"
	jq -e --argjson b "$payload" '.[0] | .sessions[0].state == "done" and
		.sessions[0].tx_bytes == $b and .trace.state == "stopped" and
		.trace.samples_lost == 0' "$j" >/dev/null &&
	[ "$sent" -ge "$pkts" ] && sp_roce_bytes_ok "$moved" "$payload" "$pkts" "$extra"
}

# spark2 traces its eth0 while spark1 writes 4 MiB x 2 QPs x 4 to it.
PEER_PAYLOAD=$((4194304 * 2 * 4))
PEER_PKTS=$((PEER_PAYLOAD / SP_ROCE_PMTU))

receiver_trace_start() {
	sparkperf-ctl -j trace record dev "$SP_VM_RDMA_DEV" counters \
		"netdev:rx_bytes,rdma:rcvd_pkts" period 10ms duration 300 \
		>"$tmp/rx.json" 2>"$tmp/rx.err" &
	echo $! >"$tmp/rx.pid"
	sp_wait_for "[ \"\$(sparkperf-ctl -j trace show | jq length)\" = 1 ]" 20
}

receiver_trace_agrees() {
	local pid moved rcvd extra
	pid=$(cat "$tmp/rx.pid")
	# started by an earlier test: not this shell's child, so no wait
	kill -INT "$pid"
	timeout 30 tail --pid="$pid" -f /dev/null
	cat "$tmp/rx.err"
	moved=$(delta "$tmp/rx.json" netdev "$SP_VM_NETDEV" rx_bytes)
	rcvd=$(delta "$tmp/rx.json" rdma "$SP_VM_RDMA_DEV" rcvd_pkts)
	extra=$((rcvd - PEER_PKTS))
	[ "$extra" -ge 0 ] || extra=0
	jq -c '{state, elapsed_ns, samples_lost,
		streams: [.streams[] | {source, samples, missed}]}' \
		"$tmp/rx.json"
	echo "spark2 trace: $SP_VM_NETDEV rx_bytes +$moved, rcvd_pkts +$rcvd" \
		"for spark1's $PEER_PAYLOAD B in $PEER_PKTS packets"
	# one vCPU busy with soft-RoCE misses deadlines: each is accounted for
	jq -e '.state == "stopped" and .samples_lost == 0 and .elapsed_ns as $e |
		all(.streams[]; (.samples + .missed - $e / 10000000 | fabs) <= 3)' \
		"$tmp/rx.json" >/dev/null &&
	[ "$rcvd" -ge "$PEER_PKTS" ] &&
	sp_roce_bytes_ok "$moved" "$PEER_PAYLOAD" "$PEER_PKTS" "$extra"
}

# watch on both halves while one run drives both links: each port's TX
# bytes carry its session's 16 MiB, its peak is the largest rate of a
# period, and the mean over the watch agrees with its bytes.
watch_two_links() {
	sparkperf-ctl -j watch dev "$SP_VM_RDMA_DEV,$SP_VM_RDMA_DEV2" period 200ms \
		duration 300 >"$tmp/w.json" 2>"$tmp/w.err" &
	local w=$!
	sleep 1
	sparkperf-ctl -j bw run peer "$SP_VM_PEER,$SP_VM_PEER2" \
		dev "$SP_VM_RDMA_DEV,$SP_VM_RDMA_DEV2" size 1M qps 2 iters 8 \
		>"$tmp/two.json" || return 1
	sleep 0.5
	kill -INT "$w"
	wait "$w" || { cat "$tmp/w.err"; return 1; }
	jq -c 'select(.type == "summary") | .ports[] | {name, source, tx_bytes,
		tx_mean_gbit_per_s, tx_peak_gbit_per_s}' "$tmp/w.json"
	jq -s -e --arg a "$SP_VM_NETDEV" --arg b "$SP_VM_NETDEV2" '
		(.[-1] | .type == "summary" and
		 ([.ports[].netdev] == [$a, $b]) and
		 all(.ports[]; .tx_bytes >= 16 * 1048576 and
		     .tx_peak_gbit_per_s >= .tx_mean_gbit_per_s and
		     .tx_mean_gbit_per_s > 0)) and
		.[-1].ports[0].tx_peak_gbit_per_s >=
			([.[:-1][] | .ports[0].tx_gbit_per_s] | max) and
		((.[-1] | .ports[0].tx_mean_gbit_per_s * .elapsed_ns / 8 -
		  .ports[0].tx_bytes) | fabs) <= 0.05 * .[-1].ports[0].tx_bytes' \
		"$tmp/w.json" >/dev/null
}

if sp_is_b; then
	sp_test "spark2: server start" sparkperf-ctl server start
	sp_test "spark2: trace its receiving side" receiver_trace_start
fi
sp_barrier server-up
if sp_is_a; then
	sp_test "spark1 -> spark2: bw write 4 MiB x 2 QPs, trace on: eth0 bytes carry the payload" \
		traced_run write 4194304 2 4
	sp_test "spark1 <- spark2: bw read 4 MiB x 2 QPs, trace on: eth0 bytes carry the payload" \
		traced_run read 4194304 2 4
fi
sp_barrier write-done
if sp_is_b; then
	sp_test "spark2: its trace of eth0 saw spark1's write arrive" \
		receiver_trace_agrees
fi
if sp_is_a; then
	sp_test "watch both halves during a run over both links" watch_two_links
fi
sp_barrier runs-done
if sp_is_b; then
	sp_test "spark2: server stop" sparkperf-ctl server stop
fi
rm -rf "$tmp"
sp_plan_done
