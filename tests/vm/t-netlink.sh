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
sp_plan_done
