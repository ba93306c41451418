#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-timeout: 240
#
# The preflight doctor between the two "Sparks": it passes while the MTUs
# match; when spark2 drops eth0 to MTU 1500, spark1's jumbo probe to it fails
# naming eth0 (the reply comes back in 1500-byte fragments), and spark2's
# own MTU check fails naming eth0; with the MTU back, both pass again.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
peers=$SP_VM_PEER,$SP_VM_PEER2
dev=$SP_VM_NETDEV

sparkperf-ctl -j check peer "$peers" >"$tmp/ok.json"
sp_ok "$SP_VM_NAME: check peer $peers passes"
sp_check 1 "$SP_VM_NAME: jumbo probes to both halves of the peer pass" \
	'[.[] | select(.name | startswith("jumbo ")) | .status] == ["pass", "pass"]'
sp_check 1 "$SP_VM_NAME: the RoCE v2 GIDs of both addresses are there" \
	'[.[] | select(.name | startswith("gid ")) | .status] == ["pass", "pass"]'
sp_check 1 "$SP_VM_NAME: route and neighbour of each peer" \
	'[.[] | select(.name | test("^(route|neigh) ")) | .status] | length == 4 and
	 all(. == "pass")'
sp_checks "$tmp/ok.json"
sp_barrier checked

if sp_is_b; then
	sp_test "spark2: $dev to MTU 1500" ip link set dev "$dev" mtu 1500
fi
sp_barrier mtu-1500

if sp_is_a; then
	sparkperf-ctl check peer "$SP_VM_PEER" >"$tmp/fail.txt"
	rc=$?
	sp_diag "$(grep -A1 '^fail' "$tmp/fail.txt")"
	[ "$rc" -eq 1 ]
	sp_ok "spark1: check peer $SP_VM_PEER exits 1"
	sparkperf-ctl -j check peer "$SP_VM_PEER" >"$tmp/fail.json"
	sp_check 1 "spark1: the one failing item is the jumbo probe via $dev, MTU 1500" \
		"[.[] | select(.status == \"fail\")] | length == 1 and
		 .[0].name == \"jumbo $SP_VM_PEER\" and (.[0].detail | test(\"via $dev\")) and
		 (.[0].detail | test(\"MTU is 1500\")) and (.[0].fix | test(\"MTU\"))"
	sp_checks "$tmp/fail.json"
fi
if sp_is_b; then
	sparkperf-ctl -j check >"$tmp/fail.json"
	[ $? -eq 1 ]
	sp_ok "spark2: check exits 1"
	sp_check 1 "spark2: the mtu item fails, naming $dev 1500" \
		"[.[] | select(.status == \"fail\")] | length == 1 and .[0].name == \"mtu\" and
		 (.[0].detail | test(\"$dev 1500\"))"
	sp_checks "$tmp/fail.json"
fi
sp_barrier checked-1500

if sp_is_b; then
	sp_test "spark2: $dev back to MTU 9000" ip link set dev "$dev" mtu 9000
fi
sp_barrier mtu-9000
sparkperf-ctl -j check peer "$peers" >"$tmp/again.json"
sp_ok "$SP_VM_NAME: check peer $peers passes again"
# the tests after this one find the RoCE MTU as it was
sp_check 1 "$SP_VM_NAME: the RoCE MTU of $SP_VM_RDMA_DEV followed back to 4096" \
	".[] | select(.name == \"roce-mtu $SP_VM_RDMA_DEV/1\") | .status == \"pass\""
sp_checks "$tmp/again.json"

rm -rf "$tmp"
sp_plan_done
