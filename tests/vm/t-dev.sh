#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-smoke: yes
#
# The RDMA device registry, checked against what the RDMA tools of the same
# VM report: rdma(8) and ibv_devinfo(1).
set -u
. "$SP_REPO/tests/vm/lib.sh"

tmp=$(mktemp -d)
dev=$SP_VM_RDMA_DEV
ndev=$SP_VM_NETDEV

port_json() {	# DEV: the JSON of port 1 of DEV from sparkperf-ctl
	sparkperf-ctl -j dev show "$1" | jq -e '.[0].ports[0]'
}

module_loaded() {
	test -d /sys/module/sparkperf
}

lists_dev_on_netdev() {
	sparkperf-ctl -j dev | jq -e --arg d "$dev" --arg n "$ndev" \
		'[.[] | select(.name == $d and .ports[0].netdev == $n)] | length == 1'
}

# state, physical state and netdev as rdma(8) shows them
same_as_rdma_link() {
	want=$(rdma -j link show "$dev/1" |
		jq -r '.[0] | "\(.state) \(.physical_state) \(.netdev)"')
	got=$(port_json "$dev" |
		jq -r '"\(.state) \(.physical_state) \(.netdev)"')
	echo "rdma: $want; sparkperf-ctl: $got"
	[ -n "$want" ] && [ "$want" = "$got" ]
}

ibv_field() {	# FIELD: the value ibv_devinfo -v gives for port 1's FIELD
	ibv_devinfo -v -d "$dev" -i 1 |
		sed -n "s/^[[:space:]]*$1:[[:space:]]*\([^ ]*\).*/\1/p" | head -n 1
}

same_as_ibv_devinfo() {
	want="$(ibv_field active_mtu) $(ibv_field max_mtu) $(ibv_field link_layer) $(ibv_field node_guid)"
	got=$(sparkperf-ctl -j dev show "$dev" | jq -r '.[0] |
		"\(.ports[0].active_mtu_bytes) \(.ports[0].max_mtu_bytes) \(.ports[0].link_layer) \(.node_guid)"')
	echo "ibv_devinfo: $want; sparkperf-ctl: $got"
	[ "$want" = "$got" ]
}

same_gids_as_ibv_devinfo() {
	ibv_devinfo -v -d "$dev" -i 1 |
		sed -n 's/.*GID\[ *\([0-9]*\)\]:[[:space:]]*\([^,]*\), \(.*\)$/\1 \2 \3/p' |
		sort >"$tmp/gids.ibv"
	port_json "$dev" | jq -r '.gids[] | "\(.index) \(.gid) \(.type)"' |
		sort >"$tmp/gids.sp"
	cat "$tmp/gids.sp"
	[ -s "$tmp/gids.ibv" ] && diff "$tmp/gids.ibv" "$tmp/gids.sp"
}

has_roce_v2_gid_of_own_address() {
	port_json "$dev" | jq -e --arg g "::ffff:$SP_VM_ADDR" \
		'[.gids[] | select(.gid == $g and .type == "RoCE v2")] | length == 1'
}

netdev_matches_ip_link() {
	want=$(ip -j link show "$ndev" | jq -r '.[0] | "\(.ifindex) \(.mtu)"')
	got=$(port_json "$dev" | jq -r '"\(.netdev_ifindex) \(.netdev_mtu_bytes)"')
	echo "ip link: $want; sparkperf-ctl: $got"
	[ "$want" = "$got" ]
}

text_table_shows_port() {
	sparkperf-ctl dev | grep -E "^$dev +1 +ACTIVE .*$ndev"
}

add_second_device() {
	ip link add spveth0 type veth peer name spveth1 &&
	ip link set spveth0 up && ip link set spveth1 up &&
	rdma link add rxe1 type rxe netdev spveth0 &&
	sparkperf-ctl -j dev | jq -e '[.[] | select(.name == "rxe1" and
		.ports[0].netdev == "spveth0")] | length == 1'
}

port_down_shows() {
	ip link set spveth0 down &&
	sp_wait_for "sparkperf-ctl -j dev show rxe1 |
		jq -e '.[0].ports[0].state == \"DOWN\"'" 10
}

delete_second_device() {
	rdma link delete rxe1 &&
	sparkperf-ctl -j dev | jq -e '[.[] | select(.name == "rxe1")] | length == 0'
}

events_seen() {
	cat "$tmp/events"
	jq -se '[.[] | select(.event == "new" and .dev.name == "rxe1")] | length == 1' \
		"$tmp/events" >/dev/null &&
	jq -se '[.[] | select(.event == "change" and .dev.name == "rxe1" and
		.port == 1 and .dev.ports[0].state == "DOWN")] | length >= 1' \
		"$tmp/events" >/dev/null &&
	jq -se '[.[] | select(.event == "del" and .dev.name == "rxe1")] | length == 1' \
		"$tmp/events" >/dev/null
}


unprivileged_lists() {
	sp_as_nobody sparkperf-ctl -j dev | jq -e --arg d "$dev" \
		'[.[] | select(.name == $d)] | length == 1'
}

unknown_device_is_an_error() {
	sparkperf-ctl dev show nosuchdev >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/err"
	[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] &&
		[ "$(cat "$tmp/err")" = "Error: no RDMA device with this name." ]
}

overlong_name_is_an_error() {
	name=$(printf 'x%.0s' $(seq 1 80))
	sparkperf-ctl dev show "$name" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cat "$tmp/err"
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "^Invalid device name: '$name'" "$tmp/err"
}

version_matches_module() {
	sparkperf-ctl -V | tee "$tmp/version"
	grep -qF "$(cat /sys/module/sparkperf/version)" "$tmp/version"
}

# Without the module and without a way to load it, say so; then load it
# through the generic netlink alias, as a first request on a fresh host does.
not_loaded_then_autoloaded() {
	modprobe_path=$(cat /proc/sys/kernel/modprobe)
	rmmod sparkperf || return 1
	echo /bin/false >/proc/sys/kernel/modprobe
	sparkperf-ctl dev >"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo "$modprobe_path" >/proc/sys/kernel/modprobe
	cat "$tmp/err"
	[ $rc -eq 1 ] && grep -q 'module is not loaded' "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] || return 1
	sparkperf-ctl -j dev | jq -e --arg d "$dev" \
		'[.[] | select(.name == $d)] | length == 1' && module_loaded || return 1
	# as the harness loaded it, with the lifetime lines later tests count
	rmmod sparkperf && modprobe sparkperf dyndbg=+p
}

sp_test "the module is loaded" module_loaded
sp_test "dev -j lists $dev on $ndev" lists_dev_on_netdev
sp_test "state, physical state and netdev agree with rdma link" same_as_rdma_link
sp_test "MTUs, link layer and node GUID agree with ibv_devinfo" same_as_ibv_devinfo
sp_test "GID table agrees with ibv_devinfo" same_gids_as_ibv_devinfo
sp_test "a RoCE v2 GID carries the VM's address" has_roce_v2_gid_of_own_address
sp_test "netdev ifindex and MTU agree with ip link" netdev_matches_ip_link
sp_test "the text table shows the port" text_table_shows_port

sparkperf-ctl -j dev monitor >"$tmp/events" 2>"$tmp/monitor.err" &
monitor=$!
sleep 1
sp_test "rdma link add of a second device shows it" add_second_device
sp_test "its netdev going down takes its port DOWN" port_down_shows
sp_test "rdma link delete removes it" delete_second_device
sleep 1
kill "$monitor"
wait "$monitor"
sp_test "dev monitor saw it added, its port go down, and removed" events_seen

# Device removal racing the lookups: rxe1 added and deleted in a loop
# while trace starts on it (the registry's presence check), dev lists and
# dev show run. The registry must end consistent and the kernel clean (a
# use after free shows on the debug kernel's KASAN).
removal_races_lookups() {
	(
		i=0
		while [ $i -lt 30 ]; do
			rdma link add rxe1 type rxe netdev spveth0 2>/dev/null
			rdma link delete rxe1 2>/dev/null
			i=$((i + 1))
		done
	) &
	churn=$!
	n=0
	while kill -0 "$churn" 2>/dev/null; do
		"$SP_REPO/tests/vm/nlraw.py" trace-start duration_ms:u32:50 \
			--target rdma=rxe1 >/dev/null 2>&1
		sparkperf-ctl -j dev >/dev/null 2>&1
		sparkperf-ctl -j dev show rxe1 >/dev/null 2>&1
		n=$((n + 1))
	done
	wait "$churn"
	echo "# $n rounds of lookups during 30 adds and deletes"
	[ "$n" -gt 0 ] && ! rdma link show rxe1/1 >/dev/null 2>&1 &&
		sparkperf-ctl -j dev | jq -e '[.[] | select(.name == "rxe1")] |
			length == 0' >/dev/null
}
sp_test "device removal racing trace start, dev and dev show" removal_races_lookups

# RDMA netns exclusive mode: a device is seen only from its own netns
# (rdma_dev_access_netns). rxe cannot move to another netns (no
# disassociate_ucontext) and the family answers in init_net only, so what
# the VM can check is that the caller's own device stays listed and
# readable.
exclusive_netns_keeps_own_device() {
	rdma system set netns exclusive || return 1
	sp_as_nobody sparkperf-ctl -j dev | jq -e --arg d "$dev" \
		'[.[] | select(.name == $d)] | length == 1' >/dev/null &&
		sp_as_nobody sparkperf-ctl -j dev show "$dev" >/dev/null &&
		sp_as_nobody "$SP_REPO/tests/vm/nlraw.py" counters-get \
			--target rdma="$dev" | jq -e '.errno == 0' >/dev/null
	rc=$?
	rdma system set netns shared
	return $rc
}

sp_test "an unprivileged user can list devices" unprivileged_lists
sp_test "netns exclusive mode: own device listed and readable" \
	exclusive_netns_keeps_own_device
sp_test "an unknown device name: one error line, exit 1" unknown_device_is_an_error
sp_test "an over-long device name: one usage line, exit 2" overlong_name_is_an_error
sp_test "-V shows the module's version" version_matches_module
sp_test "module not loadable: clear error; then autoloaded" not_loaded_then_autoloaded

rm -rf "$tmp"
sp_plan_done
