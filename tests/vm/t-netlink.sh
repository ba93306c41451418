#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
#
# The contract's validation, from the kernel side: hand-made requests that
# sparkperf-ctl would never send must be refused with the documented errno
# and an extended ACK naming the problem.
set -u
. "$SP_REPO/tests/vm/lib.sh"

nlraw="$SP_REPO/tests/vm/nlraw.py"
long=$(printf 'x%.0s' $(seq 1 80))
# enum sparkperf_cmd and enum sparkperf_dev_attr values
INFO_GET=1 DEV_GET=2 DEV_NEW=3 A_DEV_INDEX=2 A_DEV_NAME=3

# expect FILTER ARGS...: nlraw's answer to ARGS satisfies the jq FILTER
expect() {
	filter=$1
	shift
	answer=$("$nlraw" "$@") || return 1
	echo "$answer"
	echo "$answer" | jq -e "$filter" >/dev/null
}

sp_test "INFO_GET answers" \
	expect '.errno == 0 and .replies == 1' $INFO_GET
sp_test "DEV_GET dump answers" \
	expect '.errno == 0 and .replies >= 1' $DEV_GET --flags 0x300
sp_test "DEV_GET by name answers" \
	expect '.errno == 0 and .replies == 1' $DEV_GET "$A_DEV_NAME:str:$SP_VM_RDMA_DEV"
sp_test "DEV_GET without a name: EINVAL naming the missing attribute" \
	expect ".errno == 22 and .miss_type == $A_DEV_NAME" $DEV_GET
sp_test "DEV_GET of an unknown name: ENODEV with a message at the name" \
	expect '.errno == 19 and .msg == "no RDMA device with this name" and .offset == 20' \
	$DEV_GET "$A_DEV_NAME:str:nosuchdev"
sp_test "an 80-byte name: EINVAL at the attribute, with a message" \
	expect '.errno == 22 and .offset == 20 and (.msg | length) > 0' \
	$DEV_GET "$A_DEV_NAME:str:$long"
sp_test "a name without its NUL: EINVAL at the attribute" \
	expect '.errno == 22 and .offset == 20' $DEV_GET "$A_DEV_NAME:raw:rxe0"
sp_test "an attribute outside the command's policy: EINVAL at it" \
	expect '.errno == 22 and .offset == 32 and (.msg | length) > 0' \
	$DEV_GET "$A_DEV_NAME:str:rxe0" "$A_DEV_INDEX:u32:1"
sp_test "an unknown attribute type: EINVAL at it" \
	expect '.errno == 22 and .offset == 32' \
	$DEV_GET "$A_DEV_NAME:str:rxe0" "99:u32:1"
sp_test "a non-zero reserved header byte: EINVAL" \
	expect '.errno == 22' $DEV_GET "$A_DEV_NAME:str:rxe0" --reserved 1
sp_test "INFO_GET takes no attributes: EINVAL" \
	expect '.errno == 22' $INFO_GET "1:u32:1"
sp_test "an event command sent as a request: EOPNOTSUPP" \
	expect '.errno == 95' $DEV_NEW
# The multicast permission fallback of kernels without
# GENL_MCAST_CAP_NET_ADMIN (compat.h), built forced by make vm-kmod. Root
# joins the progress and trace groups, nobody must not; but a kernel that
# has the flag (the module says which it uses) checks only it in
# genl_bind(), not GENL_UNS_ADMIN_PERM, so nobody's refusal is testable on a
# kernel without it alone.
tmp=$(mktemp -d)
fallback=$SP_REPO/build/kmod-fallback/$(uname -r)/kmod/sparkperf.ko
# The log is read past its length then, never cleared: the kernel verdict
# reads it whole at the end, and earlier tests' reasons are kept in it.
mcgrp_flag() {	# KO: the flag the module KO says it uses
	rmmod sparkperf 2>/dev/null
	mcgrp_from=$(dmesg | wc -l)
	insmod "$1" dyndbg=+p || return 1
	dmesg | tail -n +"$((mcgrp_from + 1))" |
		sed -n 's/.*multicast groups need CAP_NET_ADMIN through //p'
}
native=$(mcgrp_flag "$(modinfo -n sparkperf)")
flag=$(mcgrp_flag "$fallback")
sp_diag "multicast permission: $native; forced fallback: $flag"
[ "$flag" = GENL_UNS_ADMIN_PERM ]
sp_ok "the fallback requires CAP_NET_ADMIN through GENL_UNS_ADMIN_PERM"
sp_test "the fallback build: root joins the progress group" \
	expect '.errno == 0' $INFO_GET --progress
sp_test "the fallback build: root joins the trace group" \
	expect '.errno == 0' $INFO_GET --watch
if [ "$native" = GENL_MCAST_CAP_NET_ADMIN ]; then
	sp_skip "the fallback build: nobody cannot join the groups" \
		"this kernel checks GENL_MCAST_CAP_NET_ADMIN only"
elif sp_as_nobody "$nlraw" info --watch >"$tmp/out" 2>&1 ||
	sp_as_nobody "$nlraw" info --progress >>"$tmp/out" 2>&1; then
	sp_fail "the fallback build: nobody cannot join the groups" \
		"$(cat "$tmp/out")"
else
	sp_pass "the fallback build: nobody cannot join the groups"
fi
rmmod sparkperf && modprobe sparkperf dyndbg=+p
sp_ok "the normal module reloads"
rm -rf "$tmp"

sp_plan_done
