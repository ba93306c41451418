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

# The "progress" and "trace" groups need CAP_NET_ADMIN to join (nlraw.py's
# --progress and --watch join them; a refusal is a PermissionError).
# join GROUP...: nlraw.py joins each and exits 0
join() {
	for g in "$@"; do
		"$nlraw" info "--$g" || return 1
	done
}
# no_join GROUP...: as nobody, joining each is refused
no_join() {
	for g in "$@"; do
		out=$(sp_as_nobody "$nlraw" info "--$g" 2>&1) && {
			echo "nobody joined with --$g: $out"
			return 1
		}
		echo "$out" | grep -q PermissionError || { echo "$out"; return 1; }
	done
}
# groups_flags: the flags the loaded module guards the groups with
groups_flags() {
	dmesg | sed -n 's/.*sparkperf: multicast groups need flags \(0x[0-9a-f]*\)$/\1/p' |
		tail -n 1
}
sp_test "the progress and trace groups: joined with CAP_NET_ADMIN" \
	join progress watch
sp_test "... refused without it" no_join progress watch
flags_are() { [ "$(groups_flags)" = "$1" ]; }
sp_test "... guarded by GENL_MCAST_CAP_NET_ADMIN (0x1) on this kernel" \
	flags_are 0x1

# Kernels without GENL_MCAST_CAP_NET_ADMIN: the test build of the module
# takes compat.h's fallback, which must be the flag their genl_bind tests
# (GENL_UNS_ADMIN_PERM, 0x10), not GENL_ADMIN_PERM (0x1, never tested
# there). This kernel tests GENL_MCAST_CAP_NET_ADMIN, whose bit is that of
# GENL_ADMIN_PERM, so joining shows nothing about the fallback here: the
# check is of the flag, the joins are diagnostics.
fallback=$SP_REPO/build/kmod-fallback/$(uname -r)/kmod/sparkperf.ko
if [ -f "$fallback" ] && rmmod sparkperf && insmod "$fallback" dyndbg=+p; then
	flags=$(groups_flags)
	if [ "$flags" = 0x10 ]; then
		sp_pass "fallback build: the groups need GENL_UNS_ADMIN_PERM (0x10)"
	else
		sp_fail "fallback build: the groups need GENL_UNS_ADMIN_PERM (0x10)" \
			"they need ${flags:-nothing logged}"
	fi
	if no_join progress watch >/dev/null 2>&1; then
		sp_diag "fallback build on $(uname -r): nobody refused"
	else
		sp_diag "fallback build on $(uname -r): nobody may join (this genl_bind ignores $flags)"
	fi
	rmmod sparkperf
else
	sp_fail "fallback build: loaded" "$fallback (make vm-kmod builds it)"
fi
[ -d /sys/module/sparkperf ] || modprobe sparkperf dyndbg=+p
sp_test "the module built as usual is back" join progress
sp_plan_done
