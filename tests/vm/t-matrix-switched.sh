#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: hosts4-switched
# vm-timeout: 1500
# vm-default: no
#
# The matrix of four VMs on two switches (every eth0 on one, every eth1 on
# the other), spark1 running sparkperf-ctl matrix over real mpirun and ssh
# (the management link), with the last VM's eth1 shaped to 20 Mbit/s (tc
# tbf, set over ssh as a user would): the cabling is named switched; every
# pair of hosts is tested each way on both halves, each test with a latency
# p50 and p99 and a bandwidth; the shaped half's bandwidth from that host
# to each other is an outlier, named by host and half in the text, and no
# result without that half at one end is; exit 1; the heatmap and the CSV
# are written. make matrix-check runs it.
. "$SP_REPO/tests/vm/matrix.sh"

mx_setup
if sp_is_a; then
	last=$(mx_last)
	others=$(($(wc -w <<<"$SP_VM_HOSTS") - 1))
	shaped="(.client == \"$last\" and .client_half == \"rxe1\")"
	shaped_end="($shaped or (.server == \"$last\" and .server_half == \"rxe1\"))"
	sp_test "spark1: $last's eth1 shaped to 20 Mbit/s, over ssh" \
		sp_ssh "$last" tc qdisc add dev eth1 root tbf rate 20mbit burst 64kb latency 2s
	mx_run shaped
	sp_ssh "$last" tc qdisc del dev eth1 root
	[ "$(cat "$mx_dir/shaped.rc")" = 1 ]
	sp_ok "shaped: exit 1 (an outlier)"
	sp_check 1 "shaped: cabling switched, every host reaching every other" \
		'.topology.cabling == "switched" and .topology.mistake == null and
		 .topology.no_direct_path == []'
	sp_check 1 "shaped: $last rxe1's bandwidth to each other host is an outlier" \
		"[.outliers[] | select(.metric == \"bandwidth\" and $shaped)] | length == $others"
	sp_check 1 "shaped: no result without $last rxe1 at one end is an outlier" \
		"all(.outliers[]; $shaped_end) and all(.results[] | select(.outlier); $shaped_end)"
	mx_check_measured shaped
	grep -q "look at $last rxe1 (eth1)" "$mx_dir/shaped.txt" &&
		! grep 'look at' "$mx_dir/shaped.txt" | grep -v -q "$last rxe1 (eth1)"
	sp_ok "shaped: the text's outliers name $last rxe1 (eth1), each of them"
	mx_check_files shaped
fi
mx_done 1440
sp_plan_done
