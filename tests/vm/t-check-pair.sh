#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: pair
# vm-timeout: 360
#
# The preflight doctor between the two "Sparks": it passes while the MTUs
# match; when spark2 drops eth0 to MTU 1500, spark1's jumbo probe to it fails
# naming eth0 (the reply comes back in 1500-byte fragments), and spark2's
# own MTU check fails naming eth0, each naming the cause of its RoCE MTU;
# with the MTU back, both pass again. On the way: soft-RoCE's halves (no PCI
# function, one driver), their GID indexes against an empty
# NCCL_IB_GID_INDEX and a pinned one, nccl env from the other VM's -j dev,
# and on spark1 a GID index moved by an address and caught.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
peers=$SP_VM_PEER,$SP_VM_PEER2
dev=$SP_VM_NETDEV
# the GID indexes are remembered here, not in the VM's /var/lib/sparkperf
export SPARKPERF_STATE_DIR=$tmp/state

sparkperf-ctl -j check peer "$peers" >"$tmp/ok.json"
sp_ok "$SP_VM_NAME: check peer $peers passes"
sp_check 1 "$SP_VM_NAME: jumbo probes to both halves of the peer pass" \
	'[.[] | select(.name | startswith("jumbo ")) | .status] == ["pass", "pass"]'
sp_check 1 "$SP_VM_NAME: the RoCE v2 GIDs of both addresses are there" \
	'[.[] | select(.name | startswith("gid ")) | .status] == ["pass", "pass"]'
sp_check 1 "$SP_VM_NAME: route and neighbour of each peer" \
	'[.[] | select(.name | test("^(route|neigh) ")) | .status] | length == 4 and
	 all(. == "pass")'
sp_check 1 "$SP_VM_NAME: soft-RoCE has no PCI function: both pcie items are skips" \
	'[.[] | select(.name | startswith("pcie ")) | .status] == ["skip", "skip"]'
sp_check 1 "$SP_VM_NAME: each half's RoCE v2 IPv4 GID index is known, not the link-local 0" \
	'[.[] | select(.name | startswith("gid-index ")) | select(.status == "pass") |
	  .facts.gid_index] | length == 2 and all(. > 0)'
sp_check 1 "$SP_VM_NAME: the first check remembers the GID indexes" \
	'.[] | select(.name == "gid-drift") | .status == "pass" and
	 (.detail | startswith("remembered for the next check"))'
sp_check 1 "$SP_VM_NAME: both halves' netdevs run one driver" \
	'[.[] | select(.name | startswith("firmware ")) | .status] == ["pass", "pass"]'
sp_checks "$tmp/ok.json"
gid=$(jq -r ".[] | select(.name == \"gid-index $SP_VM_RDMA_DEV/1 ($dev)\") | .facts.gid_index" \
	"$tmp/ok.json")

# a compose file's empty value: index 0, the link-local GID
NCCL_IB_GID_INDEX='' sparkperf-ctl -j check >"$tmp/trap.json"
[ $? -eq 1 ]
sp_ok "$SP_VM_NAME: check exits 1 with NCCL_IB_GID_INDEX set and empty"
sp_check 1 "$SP_VM_NAME: both halves name the link-local trap" \
	'[.[] | select(.name | startswith("gid-index ")) | .status == "fail" and
	  (.detail | test("is empty, which parses as 0, the link-local trap"))] == [true, true]'
sp_check 1 "$SP_VM_NAME: the second check finds the GID indexes as they were" \
	'.[] | select(.name == "gid-drift") | .detail | startswith("as at the previous check")'
sp_checks "$tmp/trap.json"
NCCL_IB_GID_INDEX=$gid sparkperf-ctl -j check gid-index "$gid" >"$tmp/pinned.json"
sp_check 1 "$SP_VM_NAME: pinned to $gid, the GID index of $SP_VM_RDMA_DEV passes" \
	".[] | select(.name == \"gid-index $SP_VM_RDMA_DEV/1 ($dev)\") | .status == \"pass\""
sp_checks "$tmp/pinned.json"

# nccl env, with the other VM's devices from its -j dev; spark2 lists its
# halves in another order (eth0's device re-added as rxe2, after rxe1), as
# two hosts whose netdevs came up in another order do
if sp_is_b; then
	sp_test "spark2: $SP_VM_RDMA_DEV re-added as rxe2, listed after $SP_VM_RDMA_DEV2" \
		sh -c "rdma link delete $SP_VM_RDMA_DEV && rdma link add rxe2 type rxe netdev $dev"
	sp_wait_for "ip -br addr show dev $dev | grep -q $SP_VM_ADDR" 10
fi
sparkperf-ctl -j dev >"$SP_SHARED/t-check-pair-$SP_VM_NAME-dev.json"
sp_ok "$SP_VM_NAME: dev -j for the other VM's nccl env"
sp_barrier devs-shared
other=spark2
sp_is_b && other=spark1
sparkperf-ctl -j nccl env peer-file "$SP_SHARED/t-check-pair-$other-dev.json" >"$tmp/nccl.json"
sp_ok "$SP_VM_NAME: nccl env with $other's devices"
sp_diag "$(jq -c '[.hosts[] | {hca, subnets: [.halves[].subnet]}]' "$tmp/nccl.json")"
sp_check 1 "$SP_VM_NAME: both hosts list both halves, position by position on one subnet" \
	'(.hosts | length) == 2 and all(.hosts[]; (.hca | length) == 2) and
	 ([.hosts[] | [.halves[].subnet]] | .[0] == .[1]) and
	 ([.hosts[0].halves[].subnet] | sort) == ["192.168.200.0/24", "192.168.201.0/24"]'
sp_check 1 "$SP_VM_NAME: spark2's eth0 half is rxe2, paired with spark1's $SP_VM_RDMA_DEV" \
	"[.hosts[] | [.halves[] | select(.subnet == \"192.168.200.0/24\") | .device]] |
	 sort == [[\"$SP_VM_RDMA_DEV\"], [\"rxe2\"]]"
sp_check 1 "$SP_VM_NAME: soft-RoCE halves share no port, and two hosts are no ring" \
	'[.hosts[].merge_nics] == [false, false] and .subnet_aware_routing == false'
sp_checks "$tmp/nccl.json"
sp_barrier checked
if sp_is_b; then
	sp_test "spark2: rxe2 back to $SP_VM_RDMA_DEV" \
		sh -c "rdma link delete rxe2 && rdma link add $SP_VM_RDMA_DEV type rxe netdev $dev"
	sp_wait_for "sparkperf-ctl -j dev | jq -e '[.[].name] == [\"$SP_VM_RDMA_DEV2\", \"$SP_VM_RDMA_DEV\"] or
		[.[].name] == [\"$SP_VM_RDMA_DEV\", \"$SP_VM_RDMA_DEV2\"]'" 10
fi

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
	sp_check 1 "spark1: RoCE MTU 4096 here, the peer or the switch named as the cause" \
		".[] | select(.name == \"roce-mtu $SP_VM_RDMA_DEV/1\") | .status == \"warn\" and
		 .facts.cause == \"peer_or_switch\" and .facts.active_mtu_bytes == 4096"
	sp_checks "$tmp/fail.json"
fi
if sp_is_b; then
	sparkperf-ctl -j check >"$tmp/fail.json"
	[ $? -eq 1 ]
	sp_ok "spark2: check exits 1"
	sp_check 1 "spark2: the mtu item fails, naming $dev 1500" \
		"[.[] | select(.status == \"fail\")] | length == 1 and .[0].name == \"mtu\" and
		 (.[0].detail | test(\"$dev 1500\"))"
	sp_check 1 "spark2: RoCE MTU 1024, this end's $dev at MTU 1500 named as the cause" \
		".[] | select(.name == \"roce-mtu $SP_VM_RDMA_DEV/1\") | .status == \"warn\" and
		 .facts.cause == \"netdev\" and .facts.active_mtu_bytes == 1024 and
		 (.detail | test(\"MTU 1500 of $dev on this end\"))"
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
sp_barrier checked-again

# spark1: an IPv6 address takes the GID slot of the IPv4 one, which comes
# back at another index, as a second address moves them on a Spark
if sp_is_a; then
	ip addr del "$SP_VM_ADDR/24" dev "$dev" &&
		ip -6 addr add fd00:200::12/64 dev "$dev" nodad &&
		ip addr add "$SP_VM_ADDR/24" dev "$dev"
	sp_ok "spark1: $SP_VM_ADDR added again after an IPv6 address on $dev"
	sparkperf-ctl -j check >"$tmp/moved.json"
	moved=$(jq -r ".[] | select(.name == \"gid-index $SP_VM_RDMA_DEV/1 ($dev)\") |
		.facts.gid_index" "$tmp/moved.json")
	if [ "$moved" != "$gid" ]; then
		sp_check 1 "spark1: the GID index of $SP_VM_RDMA_DEV moved from $gid to $moved: a warning" \
			"[.[] | select(.name == \"gid-drift $SP_VM_RDMA_DEV/1 ($dev)\") |
			  .status == \"warn\" and .facts.previous_gid_index == $gid and
			  .facts.gid_index == $moved] == [true]"
		sp_checks "$tmp/moved.json"
		NCCL_IB_GID_INDEX=$gid sparkperf-ctl -j check >"$tmp/stale.json"
		[ $? -eq 1 ]
		sp_ok "spark1: the stale NCCL_IB_GID_INDEX=$gid fails check"
		sp_check 1 "spark1: the failure names the index $SP_VM_RDMA_DEV has now, $moved" \
			".[] | select(.name == \"gid-index $SP_VM_RDMA_DEV/1 ($dev)\") |
			 .status == \"fail\" and
			 (.detail | startswith(\"RoCE v2 IPv4 GID index $moved \"))"
		sp_checks "$tmp/stale.json"
	else
		sp_skip "spark1: a moved GID index is caught" "the kernel gave index $gid again"
	fi
	ip -6 addr del fd00:200::12/64 dev "$dev" &&
		ip addr del "$SP_VM_ADDR/24" dev "$dev" &&
		ip addr add "$SP_VM_ADDR/24" dev "$dev"
	sp_ok "spark1: the addresses of $dev as they were"
fi
sp_barrier addresses-back
rm -f "$SP_SHARED/t-check-pair-$SP_VM_NAME-dev.json"

rm -rf "$tmp"
sp_plan_done
