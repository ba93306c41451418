#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
#
# Each "Spark" of the pair sees its soft-RoCE port on the 9000-byte link,
# with the RoCE MTU that follows from it and a RoCE v2 GID for its address.
set -u
. "$SP_REPO/tests/vm/lib.sh"

port() {
	sparkperf-ctl -j dev show "$SP_VM_RDMA_DEV" | jq -e '.[0].ports[0]'
}

jumbo_port() {
	port | jq -e --arg n "$SP_VM_NETDEV" \
		'.state == "ACTIVE" and .netdev == $n and .netdev_mtu_bytes == 9000 and
		 .netdev_operstate == "up" and .active_mtu_bytes == 4096'
}

own_gid() {
	port | jq -e --arg g "::ffff:$SP_VM_ADDR" \
		'[.gids[] | select(.gid == $g and .type == "RoCE v2")] | length == 1'
}

sp_test "$SP_VM_NAME: port active on $SP_VM_NETDEV, MTU 9000, RoCE MTU 4096" jumbo_port
sp_test "$SP_VM_NAME: RoCE v2 GID ::ffff:$SP_VM_ADDR" own_gid
sp_plan_done
