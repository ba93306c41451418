#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-smoke: yes
# vm-timeout: 180
#
# Smoke test of the VM itself: soft-RoCE rxe0 is up and perftest runs over
# loopback to the VM's own address (never anything else).
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

dev=$SP_VM_RDMA_DEV
port=18515

sp_test "rdma link lists $dev ACTIVE on $SP_VM_NETDEV" \
	bash -c "rdma link show | tee /dev/stderr | grep -q '^link $dev/1 state ACTIVE .*netdev $SP_VM_NETDEV'"

sp_test "ibv_devinfo -d $dev shows PORT_ACTIVE" \
	bash -c "ibv_devinfo -d $dev | tee /dev/stderr | grep -q 'state:[[:space:]]*PORT_ACTIVE'"

# ib_write_lat, server in the background, client to our own address.
log=$(mktemp)
timeout 60 ib_write_lat -d "$dev" -F -n 200 -p "$port" >"$log" 2>&1 &
srv=$!
if sp_wait_for "ss -Hltn 'sport = :$port' | grep -q ." 20; then
	out=$(timeout 60 ib_write_lat -d "$dev" -F -n 200 -p "$port" "$SP_VM_ADDR" 2>&1)
	crc=$?
else
	out="server did not listen on port $port"
	crc=1
fi
wait "$srv"
src=$?
if ((crc == 0 && src == 0)) && grep -qE '^[[:space:]]*2[[:space:]]+200' <<<"$out"; then
	sp_pass "ib_write_lat loopback to $SP_VM_ADDR"
	sp_diag "$(grep -E '^[[:space:]]*#bytes|^[[:space:]]*2[[:space:]]+200' <<<"$out" | tr -s ' ')"
else
	sp_fail "ib_write_lat loopback to $SP_VM_ADDR" "client exit $crc, server exit $src
$out
--- server:
$(cat "$log")"
fi
rm -f "$log"

sp_plan_done
