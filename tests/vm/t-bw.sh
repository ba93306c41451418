#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-timeout: 480
#
# Kernel-driven bandwidth over soft-RoCE loopback (the VM's own address),
# through sparkperf-ctl: every op with 1 and 4 QPs at 64 KiB and 4 MiB with
# exact byte counts, the interval series, validation, bidirectional runs,
# the bytes against the soft-RoCE device's own packet counter, the end of a
# connection (the side that ends it waits for the peer's answer), and the
# fault paths: Ctrl-C, SIGKILL of the CLI, removal of the RDMA device and
# rmmod in the middle of a run.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
addr=$SP_VM_ADDR
dev=$SP_VM_RDMA_DEV


sessions() { sparkperf-ctl -j bw show | jq length; }
no_session() { [ "$(sessions)" = 0 ]; }
one_session() { [ "$(sessions)" = 1 ]; }

# The session of a one-size, one-session run.
session() { jq '.[0].sessions[0]' "$1"; }

# run OP SIZE QPS ITERS [ARGS...]: exact counts and rates that hold together
run_ok() {
	local op=$1 size=$2 qps=$3 iters=$4 j=$tmp/run.$1.$2.$3.json
	shift 4
	sparkperf-ctl -j bw run peer "$addr" op "$op" size "$size" qps "$qps" \
		iters "$iters" "$@" >"$j" || return 1
	session "$j" | jq -c '{state, dev, tx_bytes, tx_msgs, elapsed_ns,
		gbit_per_s, cpu_ns, validate_errors}'
	session "$j" | jq -e --argjson s "$size" --argjson q "$qps" \
		--argjson n "$iters" --arg d "$dev" '
		.state == "done" and .dev == $d and .size_bytes == $s and
		.qps == $q and .tx_msgs == $q * $n and .tx_bytes == $q * $n * $s and
		.bytes == .tx_bytes + .rx_bytes and .elapsed_ns > 0 and
		.gbit_per_s > 0 and
		((.gbit_per_s - .bytes * 8 / .elapsed_ns) | fabs) <=
			0.001 * .gbit_per_s and
		.cpu_ns > 0 and ([.intervals[].bytes] | add) == .bytes' >/dev/null
}

# soft-RoCE counts the packets it sends; a message of SIZE bytes is at
# least ceil(SIZE / RoCE path MTU) packets (1024 B over eth0's MTU 1500)
packets_match() {
	local before after sent pmtu n=40 size=65536 data
	pmtu=$(sparkperf-ctl -j dev show "$dev" | jq '[.. | .active_mtu_bytes? // empty][0]')
	data=$((n * ((size + pmtu - 1) / pmtu)))
	before=$(rdma -j statistic show link "$dev/1" | jq '.[0].sent_pkts')
	sparkperf-ctl -j bw run peer "$addr" op write size "$size" iters "$n" \
		>"$tmp/pk.json" || return 1
	after=$(rdma -j statistic show link "$dev/1" | jq '.[0].sent_pkts')
	sent=$((after - before))
	# loopback: the device sends the data packets and their ACKs, plus the
	# handful of connection set-up and end-of-run messages
	echo "sent_pkts +$sent for $n x $size B: $data data packets of at most $pmtu B"
	[ "$sent" -ge "$data" ] && [ "$sent" -le $((2 * data + 64)) ]
}

duration_mode() {
	sparkperf-ctl -j bw run peer "$addr" size 65536 qps 2 threads 2 \
		duration 3 interval 250 >"$tmp/d.json" || return 1
	session "$tmp/d.json" | jq -c '{state, elapsed_ns, tx_bytes,
		n: (.intervals | length), interval_stats}'
	session "$tmp/d.json" | jq -e '.state == "done" and
		.elapsed_ns >= 2900000000 and .elapsed_ns < 6000000000 and
		(.intervals | length) >= 10 and .threads == 2 and
		.interval_stats.min_gbit_per_s <= .interval_stats.p50_gbit_per_s and
		.interval_stats.p50_gbit_per_s <= .interval_stats.max_gbit_per_s and
		([.intervals[].bytes] | add) == .bytes' >/dev/null
}

# A window of 3 s of 1 MiB messages on 2 QPs, which ends with 2 x 128 MiB
# in flight: seconds of drain on soft-RoCE (the run took 8.6 to 13 s when
# it waited for them). The CLI's run, connecting and tearing down
# included, took 3.6 to 4.1 s on this VM: 2 s above the window allows for
# a loaded host and is still far below any drain.
duration_window() {
	local t0 t1 ms
	t0=$(date +%s%N)
	sparkperf-ctl -j bw run peer "$addr" size 1M qps 2 duration 3 \
		>"$tmp/w.json" || return 1
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	session "$tmp/w.json" | jq -c '{state, elapsed_ns, bytes, gbit_per_s}'
	echo "the run took $ms ms"
	{ ! sp_timing_judged || [ "$ms" -le 5000 ]; } &&
		session "$tmp/w.json" | jq -e '
		.state == "done" and .elapsed_ns == 3000000000 and .bytes > 0 and
		((.gbit_per_s - .bytes * 8 / .elapsed_ns) | fabs) <=
			0.001 * .gbit_per_s' >/dev/null
}

# The series of the same window. Bytes are counted at completions: with one
# per 16 messages of 1 MiB, nine 100 ms intervals in ten read 0 while the
# link was busy, and completions came 0.7 to 0.8 s apart. With one per
# message soft-RoCE under emulation still completes them in bursts, up to
# 0.3 s apart: intervals of 500 ms must all hold bytes. Each ends when its
# counters were read (a stamp set in advance falls exactly on the 500 ms
# grid), and the last ends the window.
duration_series() {
	sparkperf-ctl -j bw run peer "$addr" size 1M qps 2 duration 3 \
		interval 500 >"$tmp/s.json" || return 1
	session "$tmp/s.json" |
		jq -c '[.intervals[] | [.end_ns / 1e6, .bytes / 1048576]]'
	local judged=true
	sp_timing_judged || judged=false
	session "$tmp/s.json" | jq -e --argjson judged "$judged" '
		.state == "done" and
		.elapsed_ns == 3000000000 and (.intervals | length) >= 5 and
		([.intervals[].bytes] | add) == .bytes and
		([.intervals[].bytes] as $b |
		 [range($b | length) | select($b[.] > 0)] as $busy |
		 ($busy | length) > 0 and
		 (($judged | not) or all($b[$busy[0]:$busy[-1] + 1][]; . > 0))) and
		([.intervals[].end_ns] | . == sort) and
		all(.intervals[:-1][]; .end_ns % 500000000 != 0) and
		.intervals[-1].end_ns == .elapsed_ns' >/dev/null
}

validate_clean() {
	local op
	for op in write send read; do
		sparkperf-ctl -j bw run peer "$addr" op "$op" size 65536 qps 2 \
			iters 50 validate >"$tmp/v.$op.json" || return 1
		session "$tmp/v.$op.json" | jq -c '{op, state, validate, validate_errors}'
		session "$tmp/v.$op.json" | jq -e '.state == "done" and
			.validate == true and .validate_errors == 0' >/dev/null || return 1
	done
}

# debugfs's corrupt_every (kmod/fault.c) makes every N-th message of a
# validating connection arrive corrupted. With depth 4 a receiver keeps
# 13 slots and a reader 4; every 5th of 195 messages per QP lands in each
# slot at least once (5 is prime to both), and each must be counted, once.
corrupt_every=/sys/kernel/debug/sparkperf/corrupt_every
validate_catches_corruption() {
	local op every=5 iters=195 qps=2 rc=0
	echo "$every" >"$corrupt_every" || return 1
	for op in write send read; do
		sparkperf-ctl -j bw run peer "$addr" op "$op" size 4096 qps $qps \
			depth 4 iters $iters validate >"$tmp/c.$op.json" \
			2>"$tmp/c.$op.err" && { rc=1; break; }
		session "$tmp/c.$op.json" | jq -c '{op, state, validate_errors}'
		cat "$tmp/c.$op.err"
		if ! session "$tmp/c.$op.json" | jq -e --argjson n $((qps * iters / every)) \
			'.state == "done" and .validate_errors == $n' >/dev/null ||
			! grep -qx "Error: $((qps * iters / every)) messages failed validation." \
				"$tmp/c.$op.err"; then
			rc=1
			break
		fi
	done
	echo 0 >"$corrupt_every"
	return $rc
}

bidir() {
	local op
	for op in write send; do
		sparkperf-ctl -j bw run peer "$addr" op "$op" size 65536 iters 100 \
			bidir validate >"$tmp/b.$op.json" || return 1
		session "$tmp/b.$op.json" | jq -c '{op, state, tx_bytes, rx_bytes, validate_errors}'
		session "$tmp/b.$op.json" | jq -e '.state == "done" and
			.tx_bytes == 100 * 65536 and .rx_bytes > 0 and
			.bytes == .tx_bytes + .rx_bytes and .validate_errors == 0' \
			>/dev/null || return 1
	done
}

bidir_read_refused() {
	sp_one_error 1 '^Error: .*bidirectional' \
		sparkperf-ctl bw run peer "$addr" op read bidir iters 10
}

size_sweep() {
	sparkperf-ctl -j bw run peer "$addr" size 4K..16K iters 20 >"$tmp/sw.json" ||
		return 1
	jq -e '[.[].size_bytes] == [4096, 8192, 16384] and
		all(.[]; .sessions[0].tx_msgs == 20 and .sessions[0].state == "done")' \
		"$tmp/sw.json"
}

text_table() {
	sparkperf-ctl bw run peer "$addr" size 64K iters 50 >"$tmp/t.txt" || return 1
	cat "$tmp/t.txt"
	grep -q 'Gbit/s' "$tmp/t.txt" && grep -q "$dev" "$tmp/t.txt"
}

memory_cap() {
	sp_one_error 2 'above 512MiB' sparkperf-ctl bw run peer "$addr" size 8M qps 64 iters 1 &&
		no_session
}

unprivileged_refused() {
	sp_one_error 1 'not permitted' \
		sp_as_nobody sparkperf-ctl bw run peer "$addr" iters 10
}

# The side that ends a connection waits for the peer's answer before its QP
# goes (kmod/rdma.c, sp_rconn_wait_peer()): soft-RoCE warns, then touches a
# QP being freed, when a packet reaches a QP being destroyed. The module's
# debug lines give every wait, and who answered it.
answers() { grep -c "the $1 answered the disconnection in" "$2"; }

# The client, at the end of a run: one wait per QP, the server answers.
disconnect_waits() {
	local from=$(($(dmesg | wc -l) + 1))
	sparkperf-ctl bw run peer "$addr" qps 4 threads 2 iters 50 >/dev/null ||
		return 1
	dmesg | tail -n +"$from" | grep 'disconnection' >"$tmp/disc.log"
	cat "$tmp/disc.log"
	[ "$(answers server "$tmp/disc.log")" -eq 4 ] &&
		! grep -q 'did not answer' "$tmp/disc.log"
}

# The server, stopped under a run of 2 QPs: the client answers both. (Its
# session, told on one link, may end the other before that link is told:
# then the client waits too, and the server answers; both are right.)
server_stop_waits() {
	local from cli
	sparkperf-ctl bw run peer "$addr" qps 2 duration 60 >/dev/null 2>&1 &
	cli=$!
	sp_wait_for one_session 20 || return 1
	sleep 1
	from=$(($(dmesg | wc -l) + 1))
	sparkperf-ctl server stop || return 1
	wait "$cli"
	sp_wait_for no_session 10 && sparkperf-ctl server start || return 1
	dmesg | tail -n +"$from" | grep 'disconnection' >"$tmp/stop.log"
	cat "$tmp/stop.log"
	[ "$(answers client "$tmp/stop.log")" -eq 2 ] &&
		! grep -q 'did not answer' "$tmp/stop.log"
}

interrupted_keeps_results() {
	sparkperf-ctl -j bw run peer "$addr" duration 60 >"$tmp/int.json" &
	local cli=$!
	sp_wait_for one_session 20 || return 1
	sleep 3
	kill -INT "$cli"
	wait "$cli"
	local rc=$?
	session "$tmp/int.json" | jq -c '{state, tx_bytes, elapsed_ns}'
	[ $rc -eq 0 ] && session "$tmp/int.json" |
		jq -e '.state == "stopped" and .tx_bytes > 0' >/dev/null &&
		sp_wait_for no_session 10
}

sigkill_releases() {
	sparkperf-ctl bw run peer "$addr" qps 4 threads 2 duration 60 >/dev/null 2>&1 &
	local cli=$!
	sp_wait_for one_session 20 || return 1
	sleep 2
	kill -KILL "$cli"
	wait "$cli"
	sp_wait_for no_session 10 &&
		sp_wait_for "sparkperf-ctl -j server show | jq -e '.[0].active == 0'" 20
}

# A second soft-RoCE device on a veth pair, with its own address on this VM.
device_removed_mid_run() {
	ip link add spbw0 type veth peer name spbw1 &&
	ip link set spbw0 up && ip link set spbw1 up &&
	ip addr add 10.98.0.1/24 dev spbw0 &&
	rdma link add rxe8 type rxe netdev spbw0 || return 1
	sp_wait_for "rdma link show rxe8/1 | grep -q ACTIVE" 20 || return 1
	sparkperf-ctl -j bw run peer 10.98.0.1 dev rxe8 qps 2 duration 60 \
		>"$tmp/rm.json" 2>"$tmp/rm.err" &
	local cli=$!
	sp_wait_for one_session 20 || return 1
	sleep 2
	rdma link delete rxe8
	timeout 30 tail --pid="$cli" -f /dev/null
	wait "$cli"
	local rc=$?
	cat "$tmp/rm.err"
	session "$tmp/rm.json" | jq -c '{state, error, error_msg}'
	ip link del spbw0
	[ $rc -eq 1 ] && grep -q '^Error: ' "$tmp/rm.err" &&
		session "$tmp/rm.json" | jq -e '.state == "failed"' >/dev/null &&
		sp_wait_for no_session 10
}

rmmod_mid_run() {
	sparkperf-ctl bw run peer "$addr" qps 4 threads 2 duration 60 >/dev/null 2>&1 &
	local cli=$!
	sp_wait_for one_session 20 || return 1
	sleep 2
	rmmod sparkperf || return 1
	timeout 30 tail --pid="$cli" -f /dev/null
	wait "$cli"
	echo "CLI exit $?"
	[ ! -d /sys/module/sparkperf ] && modprobe sparkperf dyndbg=+p
}

sp_test "server start" sparkperf-ctl server start
for op in write send read; do
	for qps in 1 4; do
		sp_test "bw $op, 64 KiB, $qps QP: exact bytes, consistent rates" \
			run_ok "$op" 65536 "$qps" 200
		sp_test "bw $op, 4 MiB, $qps QP: exact bytes, consistent rates" \
			run_ok "$op" 4194304 "$qps" 8
	done
done
sp_test "bw 8 MiB messages" run_ok write 8388608 2 4 threads 2
sp_test "bw depth 1, a completion per message" run_ok send 4096 1 300 depth 1 signal 1
sp_test "soft-RoCE sent_pkts agree with the bytes moved" packets_match
sp_test "duration mode: 250 ms series with min/p50/max" duration_mode
sp_test "duration 3 s of 1 MiB on 2 QPs: on time, rate over the window" \
	duration_window
sp_test "its 500 ms series: none empty, each ended when it was read" \
	duration_series
sp_test "validate: no errors for write, send and read" validate_clean
sp_test "validate: a corrupted message in every slot, each counted, exit 1" \
	validate_catches_corruption
sp_test "bidir write and send: both directions counted" bidir
sp_test "bidir read: refused with the kernel's reason" bidir_read_refused
sp_test "size sweep 4K..16K: one run per size" size_sweep
sp_test "text output: a table with units and the device" text_table
sp_test "over the memory cap: refused, one line, no session" memory_cap
sp_test "without CAP_NET_ADMIN: refused, one line, exit 1" unprivileged_refused
sp_test "a run's end: each of 4 QPs waits for the server's answer" \
	disconnect_waits
sp_test "server stopped under a run: it waits for the client's answers" \
	server_stop_waits
sp_test "Ctrl-C stops the run and still prints results" interrupted_keeps_results
sp_test "SIGKILL of the CLI releases the session and the server's QPs" sigkill_releases
sp_test "RDMA device removed mid-run: failed, session gone" device_removed_mid_run
sp_test "rmmod mid-run with a server: clean" rmmod_mid_run

rm -rf "$tmp"
sp_plan_done
