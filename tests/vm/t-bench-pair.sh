#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-timeout: 300
#
# sparkperf-ctl bench for real between the two "Sparks": spark2 starts the
# servers (bench's "server none"), spark1 runs bench perftest (one link, then
# both devices side by side) and bench iperf3, then the same tools directly.
# What bench reports must be what the tool printed in that run, read here
# with awk and jq, not with bench's parser; the separate direct runs are
# parsed too, and their rates only logged: two runs under emulation differ
# by more than any bound a test could hold. Small volumes: soft-RoCE under
# emulation moves 10 to 20 MB/s.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
iters=300
pt_opts=(-i 1 -F --report_gbits -s 65536 -n "$iters")

# listening PORT: a TCP listener on it (servers are started in the background)
listening() {
	sp_wait_for "ss -Hltn 'sport = :$1' | grep -q ." 30
}

# pt_server DEV PORT: an ib_write_bw server for one run, in the background
pt_server() {
	timeout 120 ib_write_bw -d "$1" -p "$2" "${pt_opts[@]}" >"$tmp/server.$1.$2" 2>&1 &
	listening "$2"
	sp_ok "spark2: ib_write_bw server on $1 port $2"
}

# ip_server: an iperf3 server for one test, in the background
ip_server() {
	timeout 120 iperf3 -s -1 -B "$SP_VM_ADDR" -p 5201 >"$tmp/iperf3-server" 2>&1 &
	listening 5201
	sp_ok "spark2: iperf3 server on $SP_VM_ADDR port 5201"
}

# same A B: two rates, one of them as printed with 2 decimals, are the same
same() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(b > 0 && d < 0.006 && d > -0.006) }'
}

# printed_bw FILE: ib_write_bw's BW average column, Gbit/s (--report_gbits)
printed_bw() {
	awk -v s=65536 -v n="$iters" '$1 == s && $2 == n { print $4 }' "$1"
}

# round NAME SERVERS RUN: spark2 starts its servers, spark1 runs; both wait for the end
round() {
	if sp_is_b; then
		"$2"
		sp_barrier "$1-up" || sp_fail "barrier $1-up"
		sp_barrier "$1-done" || sp_fail "barrier $1-done"
		wait
	else
		if sp_barrier "$1-up"; then
			"$3"
		else
			sp_fail "$1" "spark2's servers never came up"
		fi
		sp_barrier "$1-done" || sp_fail "barrier $1-done"
	fi
}

servers_one() { pt_server "$SP_VM_RDMA_DEV" 12000; }
servers_two() {
	pt_server "$SP_VM_RDMA_DEV" 12000
	pt_server "$SP_VM_RDMA_DEV2" 12001
}

bench_one() {
	sp_test "spark1: bench perftest write_bw over $SP_VM_RDMA_DEV, traced" \
		sh -c "sparkperf-ctl -j bench perftest peer $SP_VM_PEER dev $SP_VM_RDMA_DEV \
			size 65536 iters $iters trace out $tmp/one >$tmp/one.json"
	sp_diag "$(jq -c '{verdict: .verdict.status, gbit: .results[0].bw_average_gbit_per_s,
		cmd: .commands[1].command_line}' "$tmp/one.json")"
	jq -e --arg d "$SP_VM_RDMA_DEV" --argjson n "$iters" '.verdict.status == "ok" and
		.commands[0].role == "manual" and .commands[1].exit_status == 0 and
		.results[0].device == $d and .results[0].unit_reported == "Gbit/s" and
		.results[0].rows[0].bytes == 65536 and .results[0].rows[0].iterations == $n and
		.results[0].bw_average_gbit_per_s > 0' "$tmp/one.json" >/dev/null
	sp_ok "spark1: bench perftest document: one result, the exact command, verdict ok"
	# soft-RoCE sends its packets through the netdev: both counters see them,
	# traced by the module (root, module loaded), not read from sysfs
	sp_diag "$(jq -c '{source: .counters_source, streams: [.trace.streams[] |
		{source, target, period_p50_ns, missed, moved: [.counters[] |
		{(.name): .delta}] | add}]}' "$tmp/one.json")"
	jq -e --arg d "$SP_VM_RDMA_DEV" --arg nd "$SP_VM_NETDEV" --argjson n "$iters" '
		.counters_source == "kernel trace" and .counters == null and
		.trace.state == "stopped" and
		([.trace.streams[] | select(.source == "rdma" and .target == $d) | .counters[] |
		  select(.name == "sent_pkts") | .delta][0] >= $n) and
		([.trace.streams[] | select(.source == "netdev" and .target == $nd) | .counters[] |
		  select(.name == "tx_bytes") | .delta][0] >= $n * 65536)' "$tmp/one.json" >/dev/null
	sp_ok "spark1: kernel trace: $SP_VM_RDMA_DEV sent_pkts and $SP_VM_NETDEV tx_bytes grew by the run"
	a=$(jq -r '.results[0].bw_average_gbit_per_s' "$tmp/one.json")
	b=$(printed_bw "$(jq -r '.results[0].source' "$tmp/one.json")")
	sp_diag "bench perftest: reported $a Gbit/s, ib_write_bw printed ${b:-nothing}"
	same "$a" "$b"
	sp_ok "spark1: bench perftest reports the BW average that its ib_write_bw printed"
}

direct_one() {
	sp_test "spark1: ib_write_bw directly over $SP_VM_RDMA_DEV" \
		sh -c "timeout 120 ib_write_bw -d $SP_VM_RDMA_DEV -p 12000 ${pt_opts[*]} \
			$SP_VM_PEER >$tmp/direct.txt 2>&1"
	sparkperf-ctl -j bench parse perftest "$tmp/direct.txt" >"$tmp/direct.json"
	a=$(jq -r '.results[0].bw_average_gbit_per_s' "$tmp/one.json")
	b=$(jq -r '.results[0].bw_average_gbit_per_s' "$tmp/direct.json")
	sp_diag "perftest write_bw 64 KiB x $iters: bench $a Gbit/s, direct $b Gbit/s"
	same "$b" "$(printed_bw "$tmp/direct.txt")"
	sp_ok "spark1: bench parse perftest reads a direct ib_write_bw's BW average"
}

bench_two() {
	sp_test "spark1: bench perftest over $SP_VM_RDMA_DEV and $SP_VM_RDMA_DEV2 at once" \
		sh -c "sparkperf-ctl -j bench perftest peer $SP_VM_PEER,$SP_VM_PEER2 \
			dev $SP_VM_RDMA_DEV,$SP_VM_RDMA_DEV2 size 65536 iters $iters \
			out $tmp/two >$tmp/two.json"
	sp_diag "$(jq -c '{verdict: .verdict.status, sum: .summary.gbit_per_s,
		parts: [.results[] | {label: .label, gbit: .bw_average_gbit_per_s}]}' \
		"$tmp/two.json")"
	jq -e --arg d1 "$SP_VM_RDMA_DEV" --arg d2 "$SP_VM_RDMA_DEV2" '.verdict.status == "ok" and
		(.results | length) == 2 and .results[0].device == $d1 and
		.results[1].device == $d2 and .summary.parts == 2 and
		(.summary.gbit_per_s - (.results[0].bw_average_gbit_per_s +
		 .results[1].bw_average_gbit_per_s) | fabs) < 1e-6' "$tmp/two.json" >/dev/null
	sp_ok "spark1: one result per device, and their sum"
}

bench_iperf3() {
	sp_test "spark1: bench iperf3, 2 streams" \
		sh -c "sparkperf-ctl -j bench iperf3 peer $SP_VM_PEER streams 2 duration 2 \
			out $tmp/ip >$tmp/ip.json"
	jq -e '.verdict.status == "ok" and .results[0].format == "json" and
		(.results[0].streams | length) == 2 and .results[0].gbit_per_s > 0 and
		.commands[1].command_line == "iperf3 -c '"$SP_VM_PEER"' -p 5201 -P 2 -t 2 -J"' \
		"$tmp/ip.json" >/dev/null
	sp_ok "spark1: bench iperf3 document: 2 streams, received rate, verdict ok"
	a=$(jq -r '.results[0].gbit_per_s' "$tmp/ip.json")
	b=$(jq -r '.end.sum_received.bits_per_second / 1e9' \
		"$(jq -r '.results[0].source' "$tmp/ip.json")")
	sp_diag "bench iperf3: reported $a Gbit/s, iperf3's JSON says $b"
	same "$a" "$b"
	sp_ok "spark1: bench iperf3 reports the received rate of its iperf3's JSON"
}

direct_iperf3() {
	sp_test "spark1: iperf3 directly, 2 streams" \
		sh -c "timeout 60 iperf3 -c $SP_VM_PEER -p 5201 -P 2 -t 2 -J >$tmp/ip-direct.json"
	a=$(jq -r '.results[0].gbit_per_s' "$tmp/ip.json")
	b=$(jq -r '.end.sum_received.bits_per_second / 1e9' "$tmp/ip-direct.json")
	sp_diag "iperf3 -P 2 -t 2: bench $a Gbit/s, direct $b Gbit/s"
	same "$(sparkperf-ctl -j bench parse iperf3 "$tmp/ip-direct.json" |
		jq -r '.results[0].gbit_per_s')" "$b"
	sp_ok "spark1: bench parse iperf3 reads a direct iperf3's received rate"
}

round perftest-one servers_one bench_one
round perftest-direct servers_one direct_one
round perftest-two servers_two bench_two
round iperf3-bench ip_server bench_iperf3
round iperf3-direct ip_server direct_iperf3

# the documents stay with the run's logs (build/vm/runs/*/spark1/out)
if sp_is_a; then
	cp "$tmp"/*.json "$SP_OUT/" 2>/dev/null
fi
rm -rf "$tmp"
sp_plan_done
