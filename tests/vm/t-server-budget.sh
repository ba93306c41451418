#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-timeout: 420
#
# A server's budgets and allow list, and the host's: a connection request
# beyond one is rejected with the reason the client prints, a flood of
# clients gets nothing more than the budget, and nothing stays held.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
addr=$SP_VM_ADDR
param=/sys/module/sparkperf/parameters

server() { sparkperf-ctl -j server show | jq '.[0]'; }
# Nothing held: no connection, thread or buffer left.
released() {
	server | jq -e '.active == 0 and .threads == 0 and .buffer_bytes == 0'
}
conns_are() { [ "$(server | jq .active)" = "$1" ]; }

sparkperf-ctl server stop
sp_test "server start max-conns 2 max-threads 1 max-mem 4M" \
	sparkperf-ctl server start max-conns 2 max-threads 1 max-mem 4M
sp_test "server show: the budgets, nothing held" sh -c \
	"sparkperf-ctl -j server show | jq -e '.[0] | .max_conns == 2 and
		.max_threads == 1 and .max_buffer_bytes == 4194304 and
		.active == 0 and .allow == null'"

sp_test "within the budgets: a 1 MiB latency run" \
	sparkperf-ctl lat run peer "$addr" size 1M iters 20
sp_test "memory: 2 x 4 MiB is refused, naming the server's budget" \
	sp_one_error 1 "rejected by .*server budget: 8388608 buffer bytes more would pass 4194304" \
	sparkperf-ctl lat run peer "$addr" size 4M iters 20
sp_test "threads: a second QP's thread is refused" \
	sp_one_error 1 "rejected by .*server budget: all 1 threads in use" \
	sparkperf-ctl bw run peer "$addr" qps 2 size 4096 iters 100

# Connections: two latency reads (no thread) hold both; a third is refused.
pids=()
for i in 1 2; do
	sparkperf-ctl lat run peer "$addr" op read duration 30 >/dev/null 2>&1 &
	pids+=($!)
done
sp_test "two reads connected" sp_wait_for "conns_are 2" 60
sp_test "connections: a third is refused" \
	sp_one_error 1 "rejected by .*server budget: all 2 connections in use" \
	sparkperf-ctl lat run peer "$addr" op read iters 10
kill -INT "${pids[@]}"
wait "${pids[@]}"

# A flood: 24 clients at once against 2 connections; each one ran or was
# refused for the budget, at least one ran, and the server counted every
# refusal.
before=$(server | jq .rejected)
for i in $(seq 1 24); do
	sparkperf-ctl lat run peer "$addr" op read iters 2000 \
		>"$tmp/flood$i.out" 2>"$tmp/flood$i.err" &
done
wait
ran=0 refused=0 other=0
for i in $(seq 1 24); do
	if [ ! -s "$tmp/flood$i.err" ]; then
		ran=$((ran + 1))
	elif grep -q "server budget: all 2 connections in use" "$tmp/flood$i.err"; then
		refused=$((refused + 1))
	else
		other=$((other + 1))
		cat "$tmp/flood$i.err"
	fi
done
echo "flood of 24: $ran ran, $refused refused for the budget, $other otherwise"
sp_test "flood: each client ran or was refused for the budget" \
	test "$other" = 0 -a "$ran" -ge 1 -a $((ran + refused)) = 24
sp_test "flood: the server counted each refusal" \
	test "$(server | jq .rejected)" = $((before + refused))
sp_test "flood: nothing held afterwards" sp_wait_for released 30

# The host's budget, over all servers: the module parameters.
old=$(cat "$param/server_bytes_max")
echo 1048576 >"$param/server_bytes_max"
sp_test "host budget: refused, naming the module parameters" \
	sp_one_error 1 "rejected by .*host budget (module parameters): 2097152 buffer bytes more would pass 1048576" \
	sparkperf-ctl lat run peer "$addr" size 1M iters 20
echo "$old" >"$param/server_bytes_max"

# The answer timeout: out of its range refused and kept as it was; in it, set.
answer_timeout_range() {
	local was now v
	was=$(cat "$param/answer_timeout_ms")
	for v in 0 99 600001 5s; do
		if (echo "$v" >"$param/answer_timeout_ms") 2>/dev/null; then
			echo "answer_timeout_ms took $v"
			return 1
		fi
	done
	[ "$(cat "$param/answer_timeout_ms")" = "$was" ] || return 1
	echo 600000 >"$param/answer_timeout_ms" || return 1
	now=$(cat "$param/answer_timeout_ms")
	echo "$was" >"$param/answer_timeout_ms"
	[ "$now" = 600000 ]
}
sp_test "answer_timeout_ms: 0, 99, 600001 and 5s refused, 600000 taken" answer_timeout_range

# The allow list.
sparkperf-ctl server stop
sp_test "server start allow 10.255.0.0/16,fd00:ffff::/32" \
	sparkperf-ctl server start allow 10.255.0.0/16,fd00:ffff::/32
sp_test "a peer outside the allow list is refused, by its address" \
	sp_one_error 1 "rejected by .*$addr is not in the server's allow list" \
	sparkperf-ctl lat run peer "$addr" iters 20
sparkperf-ctl server stop
sp_test "server start allow $addr/32" \
	sparkperf-ctl server start allow "$addr/32"
sp_test "a peer in the allow list is served" \
	sparkperf-ctl lat run peer "$addr" iters 20
sp_test "server show: the allow list, the refusals, nothing held" sh -c \
	"sparkperf-ctl -j server show | jq -e --arg n '$addr/32' '.[0] |
		.allow == [\$n] and .rejected == 0 and .active == 0'"
sp_test "bad networks are refused before anything is asked" \
	sp_one_error 2 "has bits set after its prefix" \
	sparkperf-ctl server start port 18530 allow "$addr/8"
sparkperf-ctl server stop

rm -rf "$tmp"
sp_plan_done
