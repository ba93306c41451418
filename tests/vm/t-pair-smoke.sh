#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-smoke: yes
# vm-timeout: 240
#
# Smoke test of the VM pair: jumbo frames reach the peer unfragmented on both
# links, the second soft-RoCE device is up, and an ib_write_bw run works
# between spark1 (client) and spark2 (server). Targets only the peer VM's
# addresses.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

dev=$SP_VM_RDMA_DEV
port=18516

sp_test "ping $SP_VM_PEER with 9000-byte frames, DF set" \
	ping -M "do" -s 8972 -c 2 -W 10 "$SP_VM_PEER"
sp_test "second link: ping $SP_VM_PEER2 on $SP_VM_NETDEV2 with 9000-byte frames" \
	ping -M "do" -s 8972 -c 2 -W 10 -I "$SP_VM_NETDEV2" "$SP_VM_PEER2"
sp_test "second link: $SP_VM_RDMA_DEV2 on $SP_VM_NETDEV2 is ACTIVE" \
	sh -c "rdma link show $SP_VM_RDMA_DEV2/1 | grep -q 'state ACTIVE.*netdev $SP_VM_NETDEV2'"

sp_barrier pair-smoke-start || sp_fail "barrier pair-smoke-start"

if sp_is_b; then
	log=$(mktemp)
	timeout 120 ib_write_bw -d "$dev" -F -n 20 -s 65536 -p "$port" >"$log" 2>&1 &
	srv=$!
	sp_wait_for "ss -Hltn 'sport = :$port' | grep -q ." 20
	sp_ok "ib_write_bw server listening on port $port"
	sp_barrier bw-server-up || sp_fail "barrier bw-server-up"
	wait "$srv"
	sp_ok "ib_write_bw server run completed" || sed 's/^/#   /' "$log"
	rm -f "$log"
else
	if sp_barrier bw-server-up; then
		sp_test "ib_write_bw client to $SP_VM_PEER" \
			timeout 120 ib_write_bw -d "$dev" -F -n 20 -s 65536 -p "$port" "$SP_VM_PEER"
	else
		sp_fail "ib_write_bw client to $SP_VM_PEER" "the server never came up"
	fi
fi
sp_barrier pair-smoke-end

sp_plan_done
