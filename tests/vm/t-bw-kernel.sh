#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-timeout: 300
#
# Bandwidth sessions from the kernel side, driven by nlraw.py over soft-RoCE
# loopback (the VM's own address), whatever the CLI sends: the policies'
# refusals with their extended ACKs, results that hold together (bytes,
# messages, the interval series, progress messages), BW_STOP mid-run, a
# stopped server under a running session, and lat and bw ids kept apart.
set -u
. "$SP_REPO/tests/vm/lib.sh"

nlraw="$SP_REPO/tests/vm/nlraw.py"
addr=$SP_VM_ADDR
tmp=$(mktemp -d)
MiB=1048576

"$nlraw" server-start >"$tmp/out"
sp_check 1 "a server" '.errno == 0'
sp_checks "$tmp/out"

# Refusals: out of range is ERANGE, the rest EINVAL. Offsets: the first
# attribute (the 8-byte peer) is at 20, the next at 28, the one after at 36.
"$nlraw" bw-run peer:ip:"$addr" size:u32:0 -- \
	bw-run peer:ip:"$addr" size:u32:$((8 * MiB + 1)) -- \
	bw-run peer:ip:"$addr" qps:u32:0 -- \
	bw-run peer:ip:"$addr" qps:u32:65 -- \
	bw-run peer:ip:"$addr" threads:u32:17 -- \
	bw-run peer:ip:"$addr" depth:u32:0 -- \
	bw-run peer:ip:"$addr" depth:u32:1025 -- \
	bw-run peer:ip:"$addr" interval_ms:u32:9 -- \
	bw-run peer:ip:"$addr" op:u8:4 -- \
	bw-run peer:ip:"$addr" iters:u64:0 -- \
	bw-run peer:ip:"$addr" qps:u32:2 threads:u32:3 -- \
	bw-run peer:ip:"$addr" depth:u32:8 signal:u32:9 -- \
	bw-run peer:ip:"$addr" iters:u64:10 duration_ms:u32:10 -- \
	bw-run peer:ip:"$addr" op:u8:3 bidir:flag:1 -- \
	bw-run peer:ip:"$addr" size:u32:$((8 * MiB)) qps:u32:64 -- \
	bw-run peer:ip:"$addr" start_at_ns:u64:0xffffffffffffff -- \
	bw-run peer:ip:"$addr" dev:str:nosuchdev -- \
	bw-run size:u32:2 -- \
	bw-get id:u32:999999 -- \
	bw-stop -- \
	bw-progress >"$tmp/out"
sp_check 1 "size 0: ERANGE at SIZE" '.errno == 34 and .offset == 28'
sp_check 2 "size above 8 MiB: ERANGE at SIZE" '.errno == 34 and .offset == 28'
sp_check 3 "0 QPs: ERANGE at QPS" '.errno == 34 and .offset == 28'
sp_check 4 "65 QPs: ERANGE at QPS" '.errno == 34 and .offset == 28'
sp_check 5 "17 threads: ERANGE at THREADS" '.errno == 34 and .offset == 28'
sp_check 6 "depth 0: ERANGE at DEPTH" '.errno == 34 and .offset == 28'
sp_check 7 "depth 1025: ERANGE at DEPTH" '.errno == 34 and .offset == 28'
sp_check 8 "an interval of 9 ms: ERANGE" '.errno == 34 and .offset == 28'
sp_check 9 "an unknown op: ERANGE at OP" '.errno == 34 and .offset == 28'
sp_check 10 "0 iterations: ERANGE at ITERS" '.errno == 34 and .offset == 28'
sp_check 11 "more threads than QPs: EINVAL at THREADS, with a message" \
	'.errno == 22 and .offset == 36 and (.msg | length) > 0'
sp_check 12 "signal above depth: EINVAL at SIGNAL, with a message" \
	'.errno == 22 and .offset == 36 and (.msg | length) > 0'
sp_check 13 "iterations and duration: EINVAL at DURATION_MS" \
	'.errno == 22 and .offset == 40 and (.msg | length) > 0'
sp_check 14 "bidirectional read: EINVAL, with the reason" \
	'.errno == 22 and (.msg | test("bidirectional"))'
sp_check 15 "64 QPs of 8 MiB: E2BIG, naming the cap" \
	'.errno == 7 and (.msg | length) > 0'
sp_check 16 "a start time years ahead: ERANGE at START_AT_NS" \
	'.errno == 34 and .offset == 28'
sp_check 17 "an unknown RDMA device: ENODEV at DEV" \
	'.errno == 19 and .offset == 28 and .msg == "no RDMA device with this name"'
sp_check 18 "no peer: EINVAL naming PEER as missing" '.errno == 22 and .miss_type == 3'
sp_check 19 "BW_GET of an unknown session: ENOENT at ID" \
	'.errno == 2 and .offset == 20 and (.msg | length) > 0'
sp_check 20 "BW_STOP without an id: EINVAL naming ID as missing" \
	'.errno == 22 and .miss_type == 2'
sp_check 21 "BW_PROGRESS sent as a request: EOPNOTSUPP" '.errno == 95'
sp_checks "$tmp/out"

sp_as_nobody "$nlraw" bw-run peer:ip:"$addr" -- \
	bw-get --dump >"$tmp/out" 2>&1
sp_check 1 "BW_RUN without CAP_NET_ADMIN: EPERM" '.errno == 1'
sp_check 2 "BW_GET without CAP_NET_ADMIN: EPERM" '.errno == 1'
sp_checks "$tmp/out"

# Runs on one socket: counts, series, progress; then a latency session and
# the two kinds of ids kept apart; then BW_STOP mid-run.
"$nlraw" bw-run peer:ip:"$addr" size:u32:65536 qps:u32:3 threads:u32:2 \
	iters:u64:300 depth:u32:32 signal:u32:8 --wait --progress -- \
	bw-run peer:ip:"$addr" op:u8:2 size:u32:4096 duration_ms:u32:1500 \
	interval_ms:u32:100 --wait -- \
	bw-run peer:ip:"$addr" op:u8:3 size:u32:$MiB qps:u32:2 iters:u64:5 \
	validate:flag:1 --wait -- \
	bw-run peer:ip:"$addr" size:u32:65536 bidir:flag:1 validate:flag:1 \
	iters:u64:200 --wait -- \
	lat-run peer:ip:"$addr" iters:u64:10 -- \
	bw-get id:u32:5 -- \
	bw-get --dump -- \
	bw-run peer:ip:"$addr" duration_ms:u32:60000 --stop-after 2 --wait \
	>"$tmp/out"
sp_check 1 "write, 3 QPs on 2 threads: exact bytes, series adds up, progress" \
	'.result.state == 2 and .result.qps == 3 and .result.threads == 2 and
	 .result.tx_msgs == 900 and .result.tx_bytes == 900 * 65536 and
	 .result.rx_bytes == 0 and .result.validate_errors == 0 and
	 .result.dev == "'"$SP_VM_RDMA_DEV"'" and .result.elapsed_ns > 0 and
	 .result.cpu_ns > 0 and .result.start_ns > 0 and
	 ([.result.intervals[].bytes] | add) == .result.tx_bytes and
	 ([.result.intervals[].count] | add) == .result.tx_msgs and
	 .progress.connecting == 1 and .progress.running == 1 and
	 .progress.done == 1'
# An interval ends at the first read after its end; the debug kernel's
# reads run late under emulation (seen: a 245 ms interval, 13 in the run),
# so its series is judged a series, not a count.
series_min=14
sp_timing_judged >/dev/null || series_min=2
sp_check 2 "send for 1.5 s: a series of 100 ms intervals, ends near the end" \
	'.result.state == 2 and .result.duration_ms == 1500 and
	 (.result.iters | not) and .result.elapsed_ns >= 1500000000 and
	 (.result.intervals | length) >= '"$series_min"' and
	 (.result.intervals[-1].end_ns <= .result.elapsed_ns + 100000000) and
	 .result.tx_msgs > 0 and .result.tx_bytes == .result.tx_msgs * 4096'
sp_check 3 "read of 1 MiB, validated: no errors" \
	'.result.state == 2 and .result.tx_bytes == 10 * 1048576 and
	 .result.validate and .result.validate_errors == 0'
sp_check 4 "bidirectional write, validated: both ways counted" \
	'.result.state == 2 and .result.bidir and .result.tx_msgs == 200 and
	 .result.rx_msgs > 0 and .result.rx_bytes == .result.rx_msgs * 65536 and
	 .result.validate_errors == 0'
sp_check 5 "a latency session next to them" '.errno == 0 and .id == 5'
sp_check 6 "BW_GET with a latency session id: ENOENT" \
	'.errno == 2 and (.msg | test("bandwidth"))'
sp_check 7 "BW_GET dump: the four bandwidth sessions of this socket" \
	'.errno == 0 and .replies == 4'
sp_check 8 "BW_STOP mid-run: stopped, what was measured stays" \
	'.result.state == 3 and .result.tx_bytes > 0 and (.result.error | not)'
sp_checks "$tmp/out"

# A server stopped under a running session: the session fails, saying so.
"$nlraw" server-start port:u16:18700 >/dev/null
"$nlraw" bw-run peer:ip:"$addr" port:u16:18700 qps:u32:2 \
	duration_ms:u32:60000 --running "$tmp/running" --wait --timeout 60 \
	>"$tmp/out" &
bg=$!
sp_wait_for "[ -e $tmp/running ]" 60
"$nlraw" server-get --dump --decode -- \
	server-stop id:u32:2 >"$tmp/stop.out"
wait $bg
sp_check 1 "server stopped mid-run: the session failed with a reason" \
	'.result.state == 4 and .result.error < 0 and
	 (.result.error_msg | length) > 0 and .result.tx_bytes > 0'
sp_checks "$tmp/out"
sp_check 1 "... it was serving the session's two QPs" \
	'[.msgs[] | select(.port == 18700)][0].active == 2'
sp_checks "$tmp/stop.out"

sp_test "server stop: no server left for the next test" sparkperf-ctl server stop

rm -rf "$tmp"
sp_plan_done
