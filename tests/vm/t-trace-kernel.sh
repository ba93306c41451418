#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-timeout: 300
#
# Counters and traces from the kernel side, driven by nlraw.py: the
# policies' refusals with their extended ACKs, one read of eth0's and
# rxe0's counters against sysfs, a trace of both (sample counts, periods,
# timestamps, missed deadlines, the ring dump and the multicast batches),
# the closing read of a trace stopped or run to its end, a ring too small
# for its cursor, a name table that changes, and the ends
# a trace can meet: its netdev unregistered, its RDMA device removed, its
# socket closed by SIGKILL, rmmod. Python starts slowly under emulation,
# so each nlraw.py run sends many requests ("--").
set -u
. "$SP_REPO/tests/vm/lib.sh"

nlraw="$SP_REPO/tests/vm/nlraw.py"
tmp=$(mktemp -d)
dev=$SP_VM_NETDEV
rdev=$SP_VM_RDMA_DEV
hw=/sys/class/infiniband/$rdev/ports/1/hw_counters

# dmesg_count WHAT: how many "sparkperf: WHAT" lines the kernel logged
dmesg_count() { dmesg | grep -c "sparkperf: $1\$"; }
# balanced: every trace created so far was destroyed
balanced() {
	[ "$(dmesg_count "trace [0-9]* created")" = \
		"$(dmesg_count "trace [0-9]* destroyed")" ]
}
no_thread() { ! pgrep '^sparkperf-t' >/dev/null; }

# A veth pair with 16 queues each: 145 ethtool statistics, fewer after
# "ethtool -L"; the RDMA removal test puts soft-RoCE on its peer.
modprobe veth 2>/dev/null
ip link add sptv0 numtxqueues 16 numrxqueues 16 type veth peer name sptv1 \
	numtxqueues 16 numrxqueues 16
ip link set sptv0 up
ip link set sptv1 up

# Refusals. Offsets: the first attribute is at 20; TARGETS with one
# netdev=eth0 spans 20..40, so a GLOB after it is at 44; inside TARGETS
# the first TARGET is at 24 and its first attribute at 28.
"$nlraw" trace-start netdev_period_us:u32:0 --target netdev="$dev" -- \
	trace-start netdev_period_us:u32:99 --target netdev="$dev" -- \
	trace-start ethtool_period_us:u32:0 --target netdev="$dev" -- \
	trace-start ethtool_period_us:u32:999 --target netdev="$dev" -- \
	trace-start rdma_period_us:u32:0 --target rdma="$rdev" -- \
	trace-start rdma_period_us:u32:999 --target rdma="$rdev" -- \
	trace-start duration_ms:u32:86400001 --target netdev="$dev" -- \
	trace-start buffer_bytes:u32:65535 --target netdev="$dev" -- \
	trace-start buffer_bytes:u32:268435457 --target netdev="$dev" -- \
	trace-start --target netdev="$dev" --glob '[abc' -- \
	trace-start --target netdev="$dev" --glob 'a b' -- \
	trace-start --target netdev="$dev" --glob 'bogus:x' -- \
	trace-start --target netdev=nosuch0 -- \
	trace-start --target rdma=nosuchdev -- \
	trace-start --target rdma="$rdev",port=2 -- \
	trace-start --target netdev="$dev",rdma="$rdev" -- \
	trace-start --target '' -- \
	trace-start duration_ms:u32:10 -- \
	trace-start --target netdev="$dev" --glob 'nomatch*' -- \
	trace-start --target netdev="$dev" --target netdev="$dev" \
	--target netdev="$dev" --target netdev="$dev" --target netdev="$dev" \
	--target netdev="$dev" --target netdev="$dev" --target netdev="$dev" \
	--target netdev="$dev" -- \
	trace-start buffer_bytes:u32:65536 --target netdev=sptv0 -- \
	trace-table -- \
	trace-end -- \
	trace-get id:u32:999999 -- \
	trace-stop -- \
	counters-get -- \
	counters-get --target rdma="$rdev" --glob 'netdev:*' >"$tmp/out"
sp_check 1 "netdev period 0: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 2 "netdev period 99 us: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 3 "ethtool period 0: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 4 "ethtool period 999 us: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 5 "rdma period 0: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 6 "rdma period 999 us: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 7 "a duration over a day: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 8 "a buffer under 64 KiB: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 9 "a buffer over 256 MiB: ERANGE at it" '.errno == 34 and .offset == 20'
sp_check 10 "glob \"[abc\": EINVAL at it, saying why" \
	'.errno == 22 and .offset == 44 and (.msg | test("glob"))'
sp_check 11 "glob \"a b\": EINVAL at it, saying why" \
	'.errno == 22 and .offset == 44 and (.msg | test("glob"))'
sp_check 12 "glob \"bogus:x\": EINVAL at it, an unknown source" \
	'.errno == 22 and .offset == 44 and (.msg | test("unknown counter source"))'
sp_check 13 "an unknown netdev: ENODEV at its name" \
	'.errno == 19 and .offset == 28 and (.msg | test("no netdev"))'
sp_check 14 "an unknown RDMA device: ENODEV at its name" \
	'.errno == 19 and .offset == 28 and (.msg | test("no RDMA device"))'
sp_check 15 "a port $rdev does not have: EINVAL at the port" \
	'.errno == 22 and .offset == 40 and (.msg | test("port"))'
sp_check 16 "a target with NETDEV and RDMA_DEV: EINVAL at the target" \
	'.errno == 22 and .offset == 24 and (.msg | test("exactly one"))'
sp_check 17 "a target with neither: EINVAL at the target" \
	'.errno == 22 and .offset == 24 and (.msg | test("exactly one"))'
sp_check 18 "no TARGETS: EINVAL naming it as missing" \
	'.errno == 22 and .miss_type == 3'
sp_check 19 "globs that select nothing: ENOENT, saying so" \
	'.errno == 2 and .msg == "the globs select no counter"'
sp_check 20 "nine targets: EINVAL at the ninth" \
	'.errno == 22 and .msg == "too many targets" and .offset == 24 + 8 * 16'
sp_check 21 "a buffer too small for 64 slots: E2BIG" \
	'.errno == 7 and (.msg | test("fewer than 64"))'
sp_check 22 "TRACE_TABLE sent as a request: EOPNOTSUPP" '.errno == 95'
sp_check 23 "TRACE_END sent as a request: EOPNOTSUPP" '.errno == 95'
sp_check 24 "TRACE_GET of an unknown trace: ENOENT at ID" \
	'.errno == 2 and .offset == 20 and .msg == "no trace with this id"'
sp_check 25 "TRACE_STOP without an id: EINVAL naming ID as missing" \
	'.errno == 22 and .miss_type == 2'
sp_check 26 "COUNTERS_GET without a target: EINVAL naming TARGET" \
	'.errno == 22 and .miss_type == 4'
sp_check 27 "COUNTERS_GET of rdma with netdev globs: ENOENT" '.errno == 2'
sp_checks "$tmp/out"

sp_as_nobody "$nlraw" trace-start --target netdev="$dev" -- \
	trace-get --dump -- \
	counters-get --target netdev="$dev" >"$tmp/out" 2>&1
sp_check 1 "TRACE_START without CAP_NET_ADMIN: EPERM" '.errno == 1'
sp_check 2 "TRACE_GET without CAP_NET_ADMIN: EPERM" '.errno == 1'
sp_check 3 "COUNTERS_GET without CAP_NET_ADMIN: works" \
	'.errno == 0 and .replies == 2'
sp_checks "$tmp/out"

if sp_as_nobody "$nlraw" info --watch >"$tmp/out" 2>&1; then
	sp_fail "joining the trace group needs CAP_NET_ADMIN" "$(cat "$tmp/out")"
else
	grep -q PermissionError "$tmp/out"
	sp_ok "joining the trace group needs CAP_NET_ADMIN"
fi

# One read against sysfs, read just before and just after.
nstat() { cat "/sys/class/net/$dev/statistics/$1"; }
b_rxb=$(nstat rx_bytes) b_txb=$(nstat tx_bytes) b_rxp=$(nstat rx_packets)
b_sent=$(cat "$hw/sent_pkts") b_rcvd=$(cat "$hw/rcvd_pkts")
"$nlraw" counters-get --target netdev="$dev" --decode -- \
	counters-get --target rdma="$rdev" --decode -- \
	counters-get --target netdev="$dev" --glob 'netdev:tx_*' \
	--glob '*_packets' --decode >"$tmp/out"
a_rxb=$(nstat rx_bytes) a_txb=$(nstat tx_bytes) a_rxp=$(nstat rx_packets)
a_sent=$(cat "$hw/sent_pkts") a_rcvd=$(cat "$hw/rcvd_pkts")
hw_names=$(for f in "$hw"/*; do
	[ "${f##*/}" = lifespan ] || echo "${f##*/}"
done | LC_ALL=C sort | tr '\n' ' ')
# in_range STREAM NAME LOW HIGH: a jq condition on one value
in_range() {
	echo "(.msgs[$1].stream | .values[.names | index(\"$2\")]) as \$v |
	      \$v >= $3 and \$v <= $4"
}
sp_check 1 "$dev: a netdev and an ethtool stream, a value per name" \
	'.errno == 0 and [.msgs[].stream.source] == [1, 2] and
	 .msgs[0].stream.target == "'"$dev"'" and .msgs[0].stream.ifindex > 0 and
	 ([.msgs[].stream | (.values | length) == (.names | length) and
	   (.names | length) > 0] | all) and
	 (.msgs[0].stream.names | length) == 25 and
	 .msgs[0].stream.ts_ns > 0 and .msgs[1].stream.ts_ns > 0'
sp_check 1 "$dev rx_bytes as in sysfs" "$(in_range 0 rx_bytes "$b_rxb" "$a_rxb")"
sp_check 1 "$dev tx_bytes as in sysfs" "$(in_range 0 tx_bytes "$b_txb" "$a_txb")"
sp_check 1 "$dev rx_packets as in sysfs" \
	"$(in_range 0 rx_packets "$b_rxp" "$a_rxp")"
sp_check 2 "$rdev: the rdma stream, the names of hw_counters" \
	'.errno == 0 and .replies == 1 and .msgs[0].stream.source == 3 and
	 .msgs[0].stream.port == 1 and
	 (.msgs[0].stream.names | sort | join(" ")) + " " == "'"$hw_names"'"'
sp_check 2 "$rdev sent_pkts as in sysfs" \
	"$(in_range 0 sent_pkts "$b_sent" "$a_sent")"
sp_check 2 "$rdev rcvd_pkts as in sysfs" \
	"$(in_range 0 rcvd_pkts "$b_rcvd" "$a_rcvd")"
sp_check 3 "globs: netdev tx_*, and *_packets of both sources" \
	'.errno == 0 and
	 (.msgs[0].stream.names | all(startswith("tx_") or endswith("_packets"))) and
	 (.msgs[0].stream.names | index("rx_packets")) != null and
	 (.msgs[1].stream.names | length) > 0 and
	 (.msgs[1].stream.names | all(endswith("_packets")))'
sp_checks "$tmp/out"

# A trace of eth0 (netdev 1 ms, ethtool 10 ms) and rxe0 (10 ms), 2 s.
"$nlraw" trace-start --target netdev="$dev" --target rdma="$rdev" \
	netdev_period_us:u32:1000 ethtool_period_us:u32:10000 \
	rdma_period_us:u32:10000 duration_ms:u32:2000 \
	--decode --watch --wait-trace --trace-samples >"$tmp/out"
# per_stream I N: stream I, N grid points and the closing read, median
# period within 10 %
per_stream() {
	echo "(.result.streams[$1] | .samples + .missed == $2 + 1 and
	       .samples >= $2 * 0.6) and
	      (.samples.streams[\"$1\"] | .increasing and
	       .median_period_ns >= 0.9 * 2000000000 / $2 and
	       .median_period_ns <= 1.1 * 2000000000 / $2)"
}
sp_check 1 "a 2 s trace of $dev and $rdev: done, three streams" \
	'.errno == 0 and .result.state == 1 and
	 [.result.streams[].source] == [1, 2, 3] and
	 .result.elapsed_ns >= 2000000000 and .result.elapsed_ns < 2200000000 and
	 .result.cpu_ns > 0 and .result.seq_oldest == 0 and
	 ([.result.streams[] | .read_ns_max > 0 and .late_ns_max >= 0 and
	   .read_ns_sum >= .read_ns_max] | all)'
sp_check 1 "TRACE_START's reply has the grid's origin (START_NS), not 0" \
	'.msgs[0].start_ns > 0 and .msgs[0].start_ns == .result.start_ns'
sp_check 1 "netdev at 1 ms: 2000 deadlines, samples or missed" \
	"$(per_stream 0 2000)"
sp_check 1 "ethtool at 10 ms: 200 deadlines, samples or missed" \
	"$(per_stream 1 200)"
sp_check 1 "rdma at 10 ms: 200 deadlines, samples or missed" \
	"$(per_stream 2 200)"
sp_check 1 "the ring dump: every sample, in sequence, nothing lost" \
	'.samples.count == .result.seq_next and .samples.first_seq == 0 and
	 .samples.contiguous and .samples.lost == 0 and
	 ([.samples.streams[] | .versions == [1] and
	   .values_min == .values_max] | all)'
sp_check 1 "the trace group: every sample in sequence, then TRACE_END" \
	'.watch.samples == .result.seq_next and .watch.first_seq == 0 and
	 .watch.contiguous and .watch.lost == 0 and .watch.batches > 10 and
	 .watch.end.state == 1 and .watch.end.seq_next == .result.seq_next'
sp_checks "$tmp/out"

# The closing read: eth0 at 500 ms, stopped about 1.2 s in, then run for
# 1200 ms. Each ends with one more read, after its last grid point, that
# is in the ring and the last batch but serves no deadline.
# closing WHEN: the last sample, read at WHEN, is the closing one
closing() {
	echo "((.samples.streams[\"0\"].last_ts_ns - .result.start_ns) as \$last |
	       .result.elapsed_ns == \$last and
	       (.result.streams[0] | .missed == 0 and
		.samples == (\$last / 500000000 | floor) + 2) and
	       .samples.count == .result.seq_next and
	       .watch.samples == .result.seq_next and .watch.after_end == 0 and
	       .watch.end.seq_next == .result.seq_next and $1)"
}
"$nlraw" trace-start --target netdev="$dev" --glob 'netdev:*' \
	netdev_period_us:u32:500000 --watch --stop-after 1.2 --wait-trace \
	--trace-samples -- \
	trace-start --target netdev="$dev" --glob 'netdev:*' \
	netdev_period_us:u32:500000 duration_ms:u32:1200 --watch --wait-trace \
	--trace-samples >"$tmp/out"
sp_check 1 "TRACE_STOP: a closing read within 100 ms of it, in the last batch" \
	".result.state == 2 and $(closing "
	 ((.result.stop_sent_ns - .result.start_ns) as \$stop |
	  \$last > (\$stop / 500000000 | floor) * 500000000 and
	  \$last >= \$stop and \$last - \$stop < 100000000 and
	  .result.start_ns + \$last <= .result.stop_done_ns)")"
sp_check 2 "1200 ms at 500 ms: 3 grid reads and a closing read, none missed" \
	".result.state == 1 and .result.streams[0].samples == 4 and
	 $(closing "\$last >= 1200000000 and \$last < 1300000000")"
sp_checks "$tmp/out"

# A ring of 64 KiB (292 slots of 25 values) and a dump from sequence 0:
# LOST says how many it no longer holds.
"$nlraw" trace-start --target netdev="$dev" --glob 'netdev:*' \
	buffer_bytes:u32:65536 duration_ms:u32:1000 --wait-trace \
	--trace-samples --cursor 0 -- \
	trace-get --dump >"$tmp/out"
sp_check 1 "a small ring: the oldest samples lost, the rest dumped" \
	'.result.state == 1 and .result.seq_next > .result.slots and
	 .samples.lost == .result.seq_oldest and
	 .samples.first_seq == .result.seq_oldest and
	 .samples.count == .result.slots and .samples.contiguous'
sp_check 2 "TRACE_GET dump: the one trace left, this socket's" \
	'.errno == 0 and .replies == 1'
sp_checks "$tmp/out"

# TRACE_STOP mid-run: stopped, what was sampled stays readable.
"$nlraw" trace-start --target rdma="$rdev" --watch --stop-after 1 \
	--wait-trace --trace-samples >"$tmp/out"
sp_check 1 "TRACE_STOP mid-run: stopped, its samples still readable" \
	'.result.state == 2 and (.result.error | not) and
	 .result.streams[0].samples > 0 and
	 .samples.count == .result.seq_next and .watch.end.state == 2'
sp_checks "$tmp/out"

# sptv0_trace DURATION_MS: a watched trace of every ethtool name of sptv0
# in the background ($bg), returning once it samples
sptv0_trace() {
	rm -f "$tmp/ready-sptv0"
	"$nlraw" trace-start --target netdev=sptv0 --glob 'ethtool:*' \
		duration_ms:u32:"$1" --watch --wait-trace --ready "$tmp/ready-sptv0" \
		>"$tmp/out" &
	bg=$!
	sp_wait_for "[ -e $tmp/ready-sptv0 ]" 60
	sleep 0.5
}

# The ethtool name table changes: fewer queues, fewer statistics.
sptv0_trace 6000
sp_test "ethtool -L sptv0 rx 4 tx 4" ethtool -L sptv0 rx 4 tx 4
wait $bg
sp_check 1 "a table change: version 2, TRACE_TABLE multicast" \
	'.result.state == 1 and .result.streams[0].version == 2 and
	 (.result.streams[0].names | length) < 145 and
	 (.watch.tables | map(.version)) == [2] and
	 .watch.tables[0].names == (.result.streams[0].names | length)'
sp_checks "$tmp/out"

# The table grows (veth: 9 names per queue pair, plus 1 up to 6.x, 12 in
# 7.x). A stream of all N names at 4 pairs gets N + N / 2 + 16 slots, the
# ethtool buffers N + N / 2 + 64 names: 10 pairs overflow the slots (the
# first ones kept, TRUNCATED), 16 pairs the buffers (the trace fails,
# saying so).
n4=$(($(ethtool -S sptv0 | wc -l) - 1))
slots=$((n4 + n4 / 2 + 16)) names_max=$((n4 + n4 / 2 + 64))
sptv0_trace 20000
sp_test "ethtool -L sptv0 rx 10 tx 10" ethtool -L sptv0 rx 10 tx 10
n10=$(($(ethtool -S sptv0 | wc -l) - 1))
sleep 0.5
sp_test "ethtool -L sptv0 rx 16 tx 16" ethtool -L sptv0 rx 16 tx 16
wait $bg
sp_diag "veth names: $n4 at 4 pairs, $n10 at 10; $slots slots, buffers for $names_max"
sp_check 1 "a table beyond the slots: the first ones kept, TRUNCATED; beyond the buffers: failed, E2BIG, saying so" \
	'.watch.tables == [{"stream": 0, "version": 2, "names": '"$slots"', "truncated": true}] and
	 .result.streams[0].version == 2 and .result.streams[0].truncated and
	 (.result.streams[0].names | length) == '"$slots"' and
	 .result.state == 3 and .result.error == -7 and
	 (.result.error_msg | test("sptv0 grew from '"$n10"' to more than '"$names_max"' names")) and
	 .watch.end.state == 3'
sp_checks "$tmp/out"

# System suspend: the sampler freezes with the tasks, before the devices
# are frozen (virtio_net's freeze detaches the netdev and frees the rings
# its statistics ops read). pm_test "freezer" freezes, waits 5 s, thaws:
# a 10 s trace at 10 ms misses the 500 grid points of those 5 s.
if echo freezer >/sys/power/pm_test 2>/dev/null; then
	"$nlraw" trace-start --target netdev="$dev" --glob 'netdev:*' \
		netdev_period_us:u32:10000 duration_ms:u32:10000 --wait-trace \
		--ready "$tmp/ready-frz" >"$tmp/out" &
	bg=$!
	sp_wait_for "[ -e $tmp/ready-frz ]" 60
	sp_test "pm_test freezer: tasks frozen for 5 s and thawed" \
		sh -c 'echo freeze >/sys/power/state'
	echo none >/sys/power/pm_test
	wait $bg
	sp_check 1 "suspend: the sampler was frozen, 5 s of grid points missed" \
		'.result.state == 1 and .result.streams[0].missed >= 300 and
		 .result.streams[0].missed <= 700'
	sp_checks "$tmp/out"
else
	sp_skip "suspend: the sampler was frozen" "no /sys/power/pm_test"
fi

# A traced veth removed while its ethtool statistics are read every 1 ms
# and its stats64 every 100 us, with one-shot reads racing the removal:
# the trace fails, ENODEV, naming it; every read answers or says ENODEV.
# Its TRACE_END is judged unless the watcher's socket overran (ENOBUFS: on
# the debug kernel, 3 times in this minute of 100 us samples), as a
# multicast dropped is lost to that socket (the CLI asks the state then).
# What the VM cannot show: a read on a netdev marked absent
# (netif_device_detach(): virtio_net does it only in a device freeze,
# veth and dummy never) and a driver's ethtool begin/complete (none of
# them has one); nor, on 6.1, a table that grows between the count and the
# names (every ethtool op that changes it holds rtnl, as the reads do).
ip link add sptw0 numtxqueues 8 numrxqueues 8 type veth peer name sptw1
ip link set sptw0 up
"$nlraw" trace-start --target netdev=sptw0 ethtool_period_us:u32:1000 \
	netdev_period_us:u32:100 --watch --wait-trace --ready "$tmp/ready6" \
	>"$tmp/out" &
bg=$!
sp_wait_for "[ -e $tmp/ready6 ]" 60
set --
for _ in $(seq 1 300); do
	set -- "$@" counters-get --target netdev=sptw0 --
done
"$nlraw" "$@" >"$tmp/gets" &
bg2=$!
sleep 0.3
sp_test "ip link del sptw0 (traced, read)" timeout 30 ip link del sptw0
wait $bg
wait $bg2
sp_check 1 "veth removed mid-read: failed, ENODEV, naming it, both streams read" \
	'.result.state == 3 and .result.error == -19 and
	 (.result.error_msg | test("sptw0")) and
	 ([.result.streams[].samples] | length == 2 and all(. > 0)) and
	 (.watch.end.state == 3 or (.watch.end == null and .watch.overruns > 0))'
sp_checks "$tmp/out"
sp_test "... each one-shot read answered or said ENODEV" \
	jq -se 'length == 300 and all(.errno == 0 or .errno == 19)' "$tmp/gets"

# The traced netdev is unregistered.
ip link add sptr0 type dummy
ip link set sptr0 up
"$nlraw" trace-start --target netdev=sptr0 --watch --wait-trace \
	--ready "$tmp/ready2" >"$tmp/out" &
bg=$!
sp_wait_for "[ -e $tmp/ready2 ]" 60
sp_test "ip link del sptr0 (traced)" timeout 30 ip link del sptr0
wait $bg
sp_check 1 "netdev unregistered: failed, ENODEV, naming it, TRACE_END" \
	'.result.state == 3 and .result.error == -19 and
	 (.result.error_msg | test("sptr0")) and .result.streams[0].samples > 0 and
	 .watch.end.state == 3'
sp_checks "$tmp/out"

# The traced RDMA device is removed.
rdma link add sptrx type rxe netdev sptv1
"$nlraw" trace-start --target rdma=sptrx --watch --wait-trace \
	--ready "$tmp/ready3" >"$tmp/out" &
bg=$!
sp_wait_for "[ -e $tmp/ready3 ]" 60
sp_test "rdma link delete sptrx (traced)" timeout 30 rdma link delete sptrx
wait $bg
sp_check 1 "RDMA device removed: failed, ENODEV, naming it, TRACE_END" \
	'.result.state == 3 and .result.error == -19 and
	 (.result.error_msg | test("sptrx")) and .watch.end.state == 3'
sp_checks "$tmp/out"

# The owner's socket closes: SIGKILL of the process that started a trace.
"$nlraw" trace-start --target netdev="$dev" --target rdma="$rdev" \
	--wait-trace --ready "$tmp/ready4" >/dev/null &
bg=$!
sp_wait_for "[ -e $tmp/ready4 ]" 60
kill -KILL $bg
wait $bg 2>/dev/null
sp_test "SIGKILL of its owner destroys the trace" sp_wait_for balanced 15
sp_test "... its thread has exited" sp_wait_for no_thread 15
"$nlraw" trace-get --dump >"$tmp/out"
sp_check 1 "... a new socket sees no trace" '.errno == 0 and .replies == 0'
sp_checks "$tmp/out"

# rmmod with a trace running.
"$nlraw" trace-start --target netdev="$dev" --target rdma="$rdev" \
	--target netdev=sptv0 --wait-trace --ready "$tmp/ready5" \
	>"$tmp/out" &
bg=$!
sp_wait_for "[ -e $tmp/ready5 ]" 60
sp_test "rmmod with a trace running" timeout 30 rmmod sparkperf
wait $bg
sp_test "... the trace was destroyed" balanced
modprobe sparkperf dyndbg=+p

ip link del sptv0
rm -rf "$tmp"
sp_plan_done
