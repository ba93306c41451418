#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-timeout: 420
#
# Kernel-driven latency over soft-RoCE loopback (the VM's own address):
# every op at sizes up to past 64 KiB, honest statistics, a sanity check
# against ib_write_lat in the same VM, and the fault paths: Ctrl-C, SIGKILL
# of the CLI, removal of the RDMA device and rmmod in the middle of a run.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
addr=$SP_VM_ADDR


sessions() { sparkperf-ctl -j lat show | jq length; }
no_session() { [ "$(sessions)" = 0 ]; }
one_session() { [ "$(sessions)" = 1 ]; }

server_listed() {
	sparkperf-ctl -j server show | tee /dev/stderr |
		jq -e '[.[] | select(.port == 18520)] | length == 1'
}

# run OP SIZE ITERS WARMUP: one session; statistics that must hold
run_ok() {
	local j=$tmp/run.$1.$2.json
	sparkperf-ctl -j lat run peer "$addr" op "$1" size "$2" iters "$3" \
		warmup "$4" >"$j" || return 1
	jq -c '.[0] | {state, count, warmup_count, rtt_min_ns, rtt_p50_ns,
		rtt_p99_ns, rtt_max_ns, dev, cpu}' "$j"
	jq -e --argjson n "$3" --argjson w "$4" --argjson s "$2" '.[0] |
		.state == "done" and .count == $n and .warmup_count == $w and
		.size_bytes == $s and .rtt_min_ns > 0 and
		.rtt_min_ns <= .rtt_p50_ns and .rtt_p50_ns <= .rtt_p90_ns and
		.rtt_p90_ns <= .rtt_p99_ns and .rtt_p99_ns <= .rtt_p99_9_ns and
		.rtt_p99_9_ns <= .rtt_max_ns and
		.rtt_avg_ns >= .rtt_min_ns and .rtt_avg_ns <= .rtt_max_ns and
		.one_way_p50_ns * 2 == .rtt_p50_ns and .rtt_stdev_ns >= 0' "$j" >/dev/null
}

# How a write round trip ended, in the text and in the JSON: on the receive
# completion of a WRITE with immediate by default, on the polled last byte
# when asked (as ib_write_lat).
completion_reported() {
	sparkperf-ctl lat run peer "$addr" size 4096 iters 50 >"$tmp/c.txt" &&
	sparkperf-ctl -j lat run peer "$addr" size 4096 iters 50 \
		completion last-byte >"$tmp/c.json" || return 1
	grep '^Round trip ends' "$tmp/c.txt"
	jq -c '.[0] | {state, count, completion: .config.completion}' "$tmp/c.json"
	grep -q '^Round trip ends: receive completion of the echo.s RDMA WRITE with immediate$' \
		"$tmp/c.txt" &&
	jq -e '.[0] | .state == "done" and .count == 50 and
		.config.completion == "last-byte"' "$tmp/c.json" >/dev/null
}

samples_saved() {
	sparkperf-ctl -j lat run peer "$addr" size 64 iters 300 warmup 10 \
		samples "$tmp/samples.csv" >"$tmp/s.json" || return 1
	head -n 3 "$tmp/samples.csv"
	[ "$(head -n 1 "$tmp/samples.csv")" = "iteration,start_ns,rtt_ns" ] &&
	[ "$(($(wc -l <"$tmp/samples.csv") - 1))" -eq 300 ] &&
	awk -F, -v min="$(jq '.[0].rtt_min_ns' "$tmp/s.json")" \
		-v max="$(jq '.[0].rtt_max_ns' "$tmp/s.json")" \
		'NR > 1 && ($3 < min || $3 > max || $1 != NR - 2) { bad++ }
		 END { exit bad > 0 }' "$tmp/samples.csv"
}

duration_mode() {
	sparkperf-ctl -j lat run peer "$addr" duration 3 interval 1000 \
		>"$tmp/d.json" || return 1
	jq -c '.[0] | {state, count, elapsed_ns, intervals}' "$tmp/d.json"
	jq -e '.[0] | .state == "done" and .count > 0 and
		.elapsed_ns > 2000000000 and (.intervals | length) >= 2 and
		all(.intervals[]; .count > 0 and .p50_ns <= .max_ns)' "$tmp/d.json" >/dev/null
}

size_sweep() {
	sparkperf-ctl -j lat run peer "$addr" size 2..8 iters 50 >"$tmp/sw.json" ||
		return 1
	jq -e '[.[].size_bytes] == [2, 4, 8] and all(.[]; .count == 50)' "$tmp/sw.json"
}

# sparkperf's one-way median at most 3x ib_write_lat's typical. No lower
# bound: on 7.x in a VM ib_write_lat's typical was 13x sparkperf's (1924 us
# against 150), its userspace spinner waiting on soft-RoCE's workers.
# One round: ib_write_lat, then sparkperf, 2 B, 500 round trips each; true
# when sparkperf's one-way p50 is at most 3x ib_write_lat's typical.
near_perftest_round() {
	local pt
	timeout 120 ib_write_lat -d "$SP_VM_RDMA_DEV" -F -s 2 -n 500 -p 18515 \
		>"$tmp/pt-server.txt" 2>&1 &
	sp_wait_for "ss -Hltn 'sport = :18515' | grep -q ." 20 || return 1
	timeout 120 ib_write_lat -d "$SP_VM_RDMA_DEV" -F -s 2 -n 500 -p 18515 \
		"$addr" >"$tmp/pt.txt" 2>&1 || return 1
	wait
	pt=$(awk '$1 == 2 && $2 == 500 { print $5 }' "$tmp/pt.txt")
	sparkperf-ctl -j lat run peer "$addr" size 2 iters 500 >"$tmp/near.json" ||
		return 1
	echo "one-way p50: sparkperf $(jq '.[0].one_way_p50_ns / 1000' "$tmp/near.json") us," \
		"ib_write_lat typical $pt us"
	jq -e --argjson pt "$pt" '(.[0].one_way_p50_ns / 1000) as $sp |
		$sp > 0 and $sp <= 3 * $pt' "$tmp/near.json" >/dev/null
}

# Up to three rounds, the two tools back to back in each: a gap in the engine
# (6.12's was 5.6x) fails every round; a moment of load on the host, one.
near_perftest() {
	near_perftest_round || near_perftest_round || near_perftest_round
}

unprivileged_refused() {
	sp_one_error 1 'not permitted' \
		sp_as_nobody sparkperf-ctl lat run peer "$addr" iters 10
}

no_listener() {
	sparkperf-ctl lat run peer "$addr" port 18999 iters 10 2>"$tmp/err"
	local rc=$?
	cat "$tmp/err"
	[ $rc -eq 1 ] && grep -q '^Error: ' "$tmp/err"
}

interrupted_keeps_results() {
	sparkperf-ctl -j lat run peer "$addr" duration 60 >"$tmp/int.json" &
	local cli=$!
	sleep 4
	kill -INT "$cli"
	wait "$cli"
	local rc=$?
	jq -c '.[0] | {state, count}' "$tmp/int.json"
	[ $rc -eq 0 ] && jq -e '.[0] | .state == "stopped" and .count > 0' "$tmp/int.json" >/dev/null &&
		sp_wait_for no_session 10
}

sigkill_releases() {
	sparkperf-ctl lat run peer "$addr" duration 60 >/dev/null 2>&1 &
	local cli=$!
	sp_wait_for one_session 20 || return 1
	kill -KILL "$cli"
	wait "$cli"
	sp_wait_for no_session 10
}

# A second soft-RoCE device on a veth pair, with its own address on this VM.
device_removed_mid_run() {
	ip link add splat0 type veth peer name splat1 &&
	ip link set splat0 up && ip link set splat1 up &&
	ip addr add 10.99.0.1/24 dev splat0 &&
	rdma link add rxe9 type rxe netdev splat0 || return 1
	sp_wait_for "rdma link show rxe9/1 | grep -q ACTIVE" 20 || return 1
	sparkperf-ctl -j lat run peer 10.99.0.1 dev rxe9 duration 60 \
		>"$tmp/rm.json" 2>"$tmp/rm.err" &
	local cli=$!
	sleep 4
	rdma link delete rxe9
	timeout 30 tail --pid="$cli" -f /dev/null
	wait "$cli"
	local rc=$?
	cat "$tmp/rm.err"
	jq -c '.[0] | {state, error, count}' "$tmp/rm.json"
	[ $rc -eq 1 ] && grep -q '^Error: ' "$tmp/rm.err" &&
		sp_wait_for no_session 10
}

rmmod_mid_run() {
	sparkperf-ctl lat run peer "$addr" duration 60 >/dev/null 2>&1 &
	local cli=$!
	sp_wait_for one_session 20 || return 1
	sleep 2
	rmmod sparkperf || return 1
	timeout 30 tail --pid="$cli" -f /dev/null
	wait "$cli"
	echo "CLI exit $?"
	[ ! -d /sys/module/sparkperf ] && modprobe sparkperf dyndbg=+p
}

sp_test "server start: listed by server show" \
	bash -c 'sparkperf-ctl server start && sparkperf-ctl -j server show | jq -e "length == 1"'
sp_test "server show lists the listener on port 18520" server_listed
for op in write send read; do
	for size in 2 131072 1048576; do
		sp_test "lat $op, $size B: exact counts, ordered statistics" \
			run_ok "$op" "$size" 100 10
	done
done
sp_test "lat write 8 MiB" run_ok write 8388608 10 2
sp_test "completion: recv by default, last-byte when asked, said in the output" \
	completion_reported
sp_test "samples FILE: every measured round trip as CSV" samples_saved
sp_test "duration mode: per-second series" duration_mode
sp_test "size sweep 2..8: one result per size" size_sweep
sp_test "one-way p50 at most 3x ib_write_lat's typical" near_perftest
sp_test "without CAP_NET_ADMIN: refused, one line, exit 1" unprivileged_refused
sp_test "no listener on the port: an error, exit 1" no_listener
sp_test "Ctrl-C stops the session and still prints results" interrupted_keeps_results
sp_test "SIGKILL of the CLI releases the kernel session" sigkill_releases
sp_test "RDMA device removed mid-run: error, session gone" device_removed_mid_run
sp_test "rmmod mid-run with a server: clean" rmmod_mid_run

rm -rf "$tmp"
sp_plan_done
