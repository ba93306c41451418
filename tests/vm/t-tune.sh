#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-timeout: 300
#
# sparkperf-ctl tune on the VM's own kernel: show and check; an apply that
# fails half-way (a netdev that does not exist, a read-only file) changes
# nothing; apply then revert leaves every managed value as it was, byte for
# byte; persist and revert under a root directory.
#
# The host's files are read-only in the VM: the test runs in a private mount
# namespace with a writable /var/lib (the snapshots) and, once the read-only
# case is done, a writable /etc/security/limits.d.
# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

if [ -z "${SP_TUNE_NS:-}" ]; then
	SP_TUNE_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

tmp=$(mktemp -d)
state=/var/lib/sparkperf
limits=/etc/security/limits.d
dev=$SP_VM_NETDEV
# irq: the first CPU only, so that the IRQs of the netdev change too
tune_args=(irq 0)

mount -t tmpfs tmpfs /var/lib
# a second netdev in eth0's subnet: the multi-NIC sysctls are planned too
if modprobe dummy 2>/dev/null && ip link add sptune0 type dummy; then
	ip addr add "${SP_VM_ADDR%.*}.99/24" dev sptune0
	ip link set sptune0 up
	multi_nic=1
fi

# Whatever happens, the kernel goes back as it was for the next tests.
cleanup() {
	if ! no_snapshot_left; then
		sp_diag "reverting what the test left applied"
		sparkperf-ctl tune revert >/dev/null 2>&1
	fi
	[ -z "${multi_nic:-}" ] || ip link del sptune0
	rm -rf "$tmp"
}
trap cleanup EXIT

sysctls="net/core/rmem_max net/core/wmem_max net/ipv4/tcp_rmem net/ipv4/tcp_wmem
net/core/netdev_max_backlog net/core/busy_read net/core/busy_poll kernel/numa_balancing
net/ipv4/conf/all/arp_ignore net/ipv4/conf/all/arp_announce net/ipv4/conf/all/rp_filter"

# as tune finds them: on the netdev's device, or on its PCI parent (virtio)
irqs() {
	local d f
	for d in "/sys/class/net/$dev/device/msi_irqs" "/sys/class/net/$dev/device/../msi_irqs"; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			echo "${f##*/}"
		done
		return
	done
}

# Every value tune manages here, with its exact bytes.
capture() {
	local k i
	for k in $sysctls; do
		printf '%s: ' "$k"
		od -An -c "/proc/sys/$k" | tr -s ' '
	done
	printf 'mtu %s: %s\n' "$dev" "$(cat "/sys/class/net/$dev/mtu")"
	ip -o link show "$dev" | grep -o 'mtu [0-9]*'
	for i in $(irqs); do
		printf 'irq %s: %s\n' "$i" "$(cat "/proc/irq/$i/smp_affinity_list")"
	done
	echo "limits.d: $(stat -c %a "$limits")"
	find "$limits" -mindepth 1 -printf '%f %m %s\n' -exec cat {} \;
	echo "rdma_cm:"
	ls -R /sys/kernel/config/rdma_cm 2>&1
}

no_snapshot_left() {
	! compgen -G "$state/tune-*.json" >/dev/null
}

capture >"$tmp/before"

sp_test "tune show lists the MTU of $dev and the RoCE MTU that follows it" \
	bash -c "sparkperf-ctl tune show | tee /dev/stderr | grep -q '^mtu $dev ' &&
		 sparkperf-ctl tune show | grep -q '^roce-mtu $SP_VM_RDMA_DEV '"
sp_test "tune show skips DCB with the reason (virtio has none)" \
	bash -c "sparkperf-ctl -j tune show | jq -e --arg d '$dev' \
		'.[] | select(.name == \"dscp-prio \" + \$d) |
		 .state == \"skip\" and .note == \"not supported by \" + \$d'"
sparkperf-ctl -j tune check "${tune_args[@]}" >"$tmp/check.json"
rc=$?
sp_check 1 "tune check before apply: mtu $dev warns, and says what to run" \
	"[.[] | select(.name == \"mtu $dev\")][0] | .status == \"warn\" and
	 (.fix | startswith(\"sparkperf-ctl tune apply irq 0\"))"
if [ -n "${multi_nic:-}" ]; then
	sp_check 1 "tune check before apply: arp_ignore fails (two netdevs, one subnet)" \
		'[.[] | select(.name == "net.ipv4.conf.all.arp_ignore")][0].status == "fail"'
	[ "$rc" -eq 1 ]
	sp_ok "tune check exits 1 on a failed item"
fi
sp_checks "$tmp/check.json"

# -- an apply that fails changes nothing ---------------------------------------
sparkperf-ctl tune apply dev nosuchdev >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q '^Error: dev nosuchdev: no such network device' "$tmp/err"
sp_ok "apply dev nosuchdev fails with the netdev's name" || sp_diag "$(cat "$tmp/err")"

# limits.d is still the host's read-only directory: memlock fails half-way
sparkperf-ctl tune apply "${tune_args[@]}" >"$tmp/out" 2>"$tmp/err"
rc=$?
sp_diag "$(cat "$tmp/err")"
[ "$rc" -eq 1 ] &&
	grep -q "^Error: memlock: $limits/90-sparkperf.conf: Read-only file system; nothing changed" \
		"$tmp/err"
sp_ok "apply with a read-only file fails, naming the knob and the reason"
capture >"$tmp/after-fail"
sp_test "the failed applies changed nothing" cmp "$tmp/before" "$tmp/after-fail"
sp_test "the failed applies left no snapshot" no_snapshot_left

# -- apply, then revert -----------------------------------------------------------
mkdir "$tmp/limits" && cp -a "$limits/." "$tmp/limits/" &&
	mount -t tmpfs tmpfs "$limits" && cp -a "$tmp/limits/." "$limits/"
capture >"$tmp/before"
sp_test "apply ${tune_args[*]}" \
	bash -c "sparkperf-ctl tune apply ${tune_args[*]} | tee $tmp/apply.txt"
sp_diag "$(cat "$tmp/apply.txt")"
grep -q "^snapshot $state/tune-.*-01.json\$" "$tmp/apply.txt"
sp_ok "apply names its snapshot"
[ "$(cat "/sys/class/net/$dev/mtu")" = 9000 ]
sp_ok "$dev has MTU 9000"
sparkperf-ctl -j tune show "${tune_args[@]}" >"$tmp/show.json"
sp_check 1 "the RoCE MTU followed: 4096 on $SP_VM_RDMA_DEV" \
	".[] | select(.name == \"roce-mtu $SP_VM_RDMA_DEV\") | .current == \"4096\" and .as_expected"
sp_check 1 "after apply nothing is left to change" \
	'[.[] | select(.state == "change")] | length == 0'
sp_checks "$tmp/show.json"
sp_test "tune check passes after apply" sparkperf-ctl tune check "${tune_args[@]}"
sp_test "a second apply has nothing to change" \
	bash -c "sparkperf-ctl tune apply ${tune_args[*]} | grep -q '^Nothing to change'"
sp_test "revert" bash -c "sparkperf-ctl tune revert | tee $tmp/revert.txt"
sp_diag "$(cat "$tmp/revert.txt")"
capture >"$tmp/after"
sp_test "apply then revert: every value byte-identical" diff "$tmp/before" "$tmp/after"
sp_test "the snapshot is kept as reverted" \
	bash -c "ls $state | grep -q '^tune-.*-01.json.reverted\$'"
sparkperf-ctl tune revert >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "^Error: no snapshot to revert in $state" "$tmp/err"
sp_ok "a second revert has nothing to revert"

# -- persist and revert under a root directory -------------------------------------
tree=$tmp/tree
mkdir -p "$tree/proc/sys/net/core" "$tree/proc/sys/net/ipv4" "$tree/etc/sysctl.d" \
	"$tree/etc/netplan" "$tree/etc/security/limits.d" "$tree/sys/class/net/$dev" \
	"$tree/sys/class/infiniband/$SP_VM_RDMA_DEV/ports/1/gid_attrs/ndevs"
for k in net/core/rmem_max net/core/wmem_max net/ipv4/tcp_rmem net/ipv4/tcp_wmem \
	net/core/netdev_max_backlog; do
	cat "/proc/sys/$k" >"$tree/proc/sys/$k"
done
echo 1500 >"$tree/sys/class/net/$dev/mtu"
echo "$dev" >"$tree/sys/class/infiniband/$SP_VM_RDMA_DEV/ports/1/gid_attrs/ndevs/0"
echo '# the image'"'"'s own' >"$tree/etc/sysctl.d/10-image.conf"
tree_state() {
	(cd "$tree" && find . -path ./var -prune -o -print | LC_ALL=C sort |
		while read -r f; do stat -c '%n %a' "$f"; [ ! -f "$f" ] || md5sum <"$f"; done)
}
tree_state >"$tmp/tree-before"
sp_test "apply persist under root $tree" sparkperf-ctl tune apply persist root "$tree"
sp_test "persist wrote sysctl.d with the sysctls" \
	grep -qx 'net.core.rmem_max = 67108864' "$tree/etc/sysctl.d/90-sparkperf.conf"
sp_test "persist wrote the netplan MTU, mode 600" \
	bash -c "grep -qx '      mtu: 9000' $tree/etc/netplan/90-sparkperf.yaml &&
		 [ \$(stat -c %a $tree/etc/netplan/90-sparkperf.yaml) = 600 ]"
sp_test "the running kernel was not touched" \
	bash -c "[ \$(cat /sys/class/net/$dev/mtu) = 1500 ] && ! ls $state/tune-*.json"
snap=$(ls "$tree$state"/tune-*.json)
sed 's/"host": "[^"]*"/"host": "another-spark"/' "$snap" >"$tmp/other.json"
sparkperf-ctl tune revert "$tmp/other.json" root "$tree" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q 'was taken on another-spark, this is' "$tmp/err"
sp_ok "revert refuses a snapshot of another host"
sp_test "revert under root $tree" sparkperf-ctl tune revert root "$tree"
tree_state >"$tmp/tree-after"
sp_test "persist + revert: the tree is as before, files removed" \
	diff "$tmp/tree-before" "$tmp/tree-after"

sp_plan_done
