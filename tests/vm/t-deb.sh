#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: single
# vm-default: no
# vm-timeout: 1800
#
# The Debian packages of make deb, installed as a user installs them, in a
# writable root: an overlay with a tmpfs upper over the root this kernel's
# module builds in (the machine's own for 6.1, a Debian 13 root with gcc-14
# and dkms for 7.x; scripts/deb-vm-prep names it, and the headers packages,
# in build/vm/deb-<kver>.env), with this VM's kernel modules. apt reads no
# sources: it has only the two .debs and what the root has installed, so it
# has nothing to fetch, and the VM has no network off itself anyway.
#  1. apt-get install of both, the running kernel's headers present: DKMS
#     builds and installs sparkperf for it; modprobe loads that build, not
#     the tree's (which the harness loaded and this test unloads first);
#     /usr/bin/sparkperf-ctl lists the devices and runs a loopback lat run.
#  2. dpkg -i of a second kernel's headers (the same release's cloud
#     flavour): DKMS's kernel hook builds and installs the module for it.
#     Skipped when deb-vm-prep was told --no-second-kernel (make
#     pkg-check takes it on one kernel of two).
#  3. apt-get purge of both: the module is gone for both kernels, and every
#     file the packages installed, DKMS's tree and /usr/src/sparkperf-*;
#     dkms status and dpkg list no sparkperf. The harness's module is loaded
#     again at the end, for its checks and any test after this one.
# Outside the default suite (it needs make deb's packages, and DKMS
# compiling under emulation takes minutes): make pkg-check and make
# deb-vm-check run it.

# The root and what is mounted into it live in a mount namespace of the
# test's own, gone with it however it ends.
if [[ -z ${SP_DEB_NS:-} ]]; then
	export SP_DEB_NS=1
	exec unshare --mount --propagation unchanged -- bash "$0" "$@"
fi

# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

conf=$SP_REPO/build/vm/deb-$(uname -r).env
if [[ ! -f $conf ]]; then
	sp_fail "scripts/deb-vm-prep prepared $(uname -r)" \
		"no ${conf#"$SP_REPO"/}: run make deb-vm-check KVER=..."
	sp_plan_done
	exit
fi
# shellcheck source=/dev/null
. "$conf"
kver=$DEB_VM_KVER kver2=$DEB_VM_KVER2 ver=$DEB_VM_VERSION
tmp=$(mktemp -d)
base=$tmp/overlay
root=$base/root
debs=()
for d in "${DEB_VM_DEBS[@]}"; do
	debs+=("/tmp/debs/${d##*/}")
done

# apt without any source: only the files named and what is installed.
apt_opts=(-y -q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=/dev/null
	-o APT::Sandbox::User=root -o Dpkg::Use-Pty=0)

# in_root CMD...: CMD in the root, in a clean environment.
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# sp_diag for each line of stdin.
diag_lines() { sed 's/^/# /'; }

make_root() {
	mkdir -p "$base" &&
		mount -t tmpfs -o mode=0755 tmpfs "$base" &&
		mkdir "$base/upper" "$base/work" "$root" || return 1
	modprobe overlay 2>/dev/null # a module in Debian's kernels
	mount -t overlay overlay \
		-o "lowerdir=$DEB_VM_ROOT,upperdir=$base/upper,workdir=$base/work" "$root" &&
		mount -t proc proc "$root/proc" &&
		mount --rbind /sys "$root/sys" &&
		mount --rbind /dev "$root/dev" &&
		mount -t tmpfs -o mode=1777 tmpfs "$root/tmp" &&
		mount -t tmpfs -o mode=0755 tmpfs "$root/run" || return 1
	# The headers packages and the kernel's modules are in the cache,
	# which a root other than the machine's sees at the same path.
	if [[ $DEB_VM_ROOT != / ]]; then
		mkdir -p "$root$DEB_VM_CACHE" &&
			mount --bind "$DEB_VM_CACHE" "$root$DEB_VM_CACHE" || return 1
	fi
	mkdir "$root/tmp/debs" && cp "${DEB_VM_DEBS[@]}" "$root/tmp/debs/" || return 1
	if ((${#DEB_VM_HEADERS[@]})); then
		echo "dpkg -i ${DEB_VM_HEADERS[*]##*/}"
		in_root dpkg -i "${DEB_VM_HEADERS[@]}" || return 1
	fi
	# This VM's modules, as the harness gives them to its own root, but
	# without the tree's sparkperf.ko: DKMS's is to be the only one.
	local m=$root/lib/modules/$kver f kernel
	kernel=$(readlink "/lib/modules/$kver/kernel") &&
		mkdir -p "$m" && ln -sfn "$kernel" "$m/kernel" || return 1
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		[[ -e $m/$f || ! -e /lib/modules/$kver/$f ]] || cp "/lib/modules/$kver/$f" "$m/" || return 1
	done
	# Their indexes, as the kernel's package leaves them (dkms 3.2 runs
	# no depmod for a kernel without modules.dep).
	in_root depmod "$kver" || return 1
	ls -l "$m"
}

root_ready() {
	local left
	echo "kernel $(uname -r)"
	[[ $(uname -r) == "$kver" ]] || return 1
	# inside the root: build is an absolute link
	in_root ls -d "/lib/modules/$kver/build/include" || return 1
	left=$(cd "$root" && ls -d usr/src/sparkperf-* var/lib/dkms/sparkperf 2>/dev/null)
	[[ -z $left ]] || { echo "left by an earlier install: $left"; return 1; }
	! sparkperf_packages
}

unload_tree_module() {
	[[ ! -d /sys/module/sparkperf ]] || rmmod sparkperf
	[[ ! -d /sys/module/sparkperf ]]
}

# (not --no-download: apt 2.6 then refuses the local files, "Pathname to
# install is not absolute"; with no sources it has nowhere to download from)
install_packages() {
	in_root apt-get install "${apt_opts[@]}" "${debs[@]}"
}

# dkms_installed_for KVER: dkms status has sparkperf/VERSION installed for KVER.
dkms_installed_for() {
	in_root dkms status >"$tmp/status" 2>&1
	cat "$tmp/status"
	awk -F', ' -v m="sparkperf/$ver" -v k="$1" \
		'$1 == m && $2 == k && $3 ~ /: installed/ { f = 1 } END { exit !f }' "$tmp/status"
}

# sparkperf_packages: print the sparkperf packages dpkg has in another state
# than not installed (config files left included); 1 if none.
sparkperf_packages() {
	# shellcheck disable=SC2016 # dpkg-query's format
	in_root dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' 'sparkperf*' 2>/dev/null |
		grep -v ' .n'
}

# module_file: where the root's modprobe finds sparkperf, inside the root.
module_file() { in_root modinfo -k "$kver" -n sparkperf; }

# build_id FILE: the GNU build ID of a module, compressed or not.
build_id() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -dcq "$1" ;;
	*.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac >"$tmp/ko" && readelf -n "$tmp/ko" | sed -n 's/^ *Build ID: *//p'
}

# Debian's dkms installs into updates/dkms (upstream's default: extra).
dkms_module_installed() {
	local path built
	path=$(module_file) || return 1
	echo "modinfo -n sparkperf: $path"
	case $path in
	/lib/modules/"$kver"/updates/dkms/sparkperf.ko* | /usr/lib/modules/"$kver"/updates/dkms/sparkperf.ko*) ;;
	/lib/modules/"$kver"/extra/sparkperf.ko* | /usr/lib/modules/"$kver"/extra/sparkperf.ko*) ;;
	*) return 1 ;;
	esac
	built=$(find "$root/var/lib/dkms/sparkperf/$ver/$kver/" -path '*/module/sparkperf.ko*' | head -n1)
	echo "DKMS's build: ${built#"$root"}"
	[[ -n $built ]] && cmp "$root$path" "$built"
}

# The loaded module is the file modprobe found (same build ID), which is
# not the tree's build the harness loads.
dkms_module_loads() {
	local path want got tree
	in_root modprobe sparkperf dyndbg=+p || return 1
	path=$(module_file) || return 1
	want=$(build_id "$root$path")
	tree=$(build_id "$(modinfo -n sparkperf)")
	# the note: sizes, type, "GNU\0", then the 20 bytes of the ID
	got=$(od -An -v -tx1 /sys/module/sparkperf/notes/.note.gnu.build-id | tr -d ' \n' | tail -c 40)
	echo "build IDs: loaded $got, $path $want, the tree's $tree"
	[[ -n $want && $got == "$want" && $want != "$tree" ]]
}

# (dpkg -L, not dpkg -S: that reads every package's list, slow in emulation)
cli_is_the_package() {
	in_root dpkg -L sparkperf-ctl | grep -x /usr/bin/sparkperf-ctl &&
		in_root /usr/bin/sparkperf-ctl -V | tee "$tmp/version" &&
		grep -qF "$(cat /sys/module/sparkperf/version)" "$tmp/version"
}

cli_lists_devices() {
	in_root /usr/bin/sparkperf-ctl dev | tee "$tmp/dev"
	grep -qE "^$SP_VM_RDMA_DEV +1 +ACTIVE .*$SP_VM_NETDEV" "$tmp/dev"
}

cli_lat_run() {
	in_root /usr/bin/sparkperf-ctl server start &&
		in_root /usr/bin/sparkperf-ctl -j lat run peer "$SP_VM_ADDR" size 64 iters 20 \
			>"$tmp/lat.json" || return 1
	jq -c '.[0] | {state, count, rtt_p50_ns}' "$tmp/lat.json"
	jq -e '.[0].state == "done" and .[0].count == 20' "$tmp/lat.json" >/dev/null
}

# The headers package's postinst runs the kernel's header_postinst.d hooks,
# where dkms's builds the AUTOINSTALL modules for the new kernel.
second_kernel() {
	local f
	echo "dpkg -i ${DEB_VM_HEADERS2[*]##*/}"
	in_root dpkg -i "${DEB_VM_HEADERS2[@]}" || return 1
	dkms_installed_for "$kver2" || return 1
	f=$(find "$root/lib/modules/$kver2/" -name 'sparkperf.ko*' | head -n1)
	echo "installed: ${f#"$root"}"
	[[ -n $f && $(modinfo -F vermagic "$f" | cut -d' ' -f1) == "$kver2" ]]
}

unload_dkms_module() {
	# (not loaded, sparkperf-ctl would have the kernel load the tree's)
	[[ -d /sys/module/sparkperf ]] || { echo "sparkperf is not loaded"; return 1; }
	in_root /usr/bin/sparkperf-ctl server stop &&
		rmmod sparkperf && [[ ! -d /sys/module/sparkperf ]]
}

# What dpkg -L lists, noted before the purge: the files, the directories,
# and which of these other packages list too (those stay).
purge() {
	local p
	in_root dpkg -L sparkperf-dkms sparkperf-ctl >"$tmp/listed" || return 1
	: >"$tmp/files"
	: >"$tmp/dirs"
	while IFS= read -r p; do
		[[ $p == /?* && $p != /. ]] || continue
		if [[ -d $root$p && ! -L $root$p ]]; then
			echo "$p" >>"$tmp/dirs"
		else
			echo "$p" >>"$tmp/files"
		fi
	done <"$tmp/listed"
	find "$root/var/lib/dpkg/info" -name '*.list' ! -name 'sparkperf-*' -exec cat {} + |
		grep -xF -f "$tmp/dirs" | sort -u >"$tmp/shared"
	in_root apt-get purge "${apt_opts[@]}" sparkperf-dkms sparkperf-ctl
}

nothing_left() {
	local p left=()
	[[ -s $tmp/listed ]] || { echo "no dpkg -L list"; return 1; }
	while IFS= read -r p; do
		[[ -e $root$p || -L $root$p ]] && left+=("$p")
	done <"$tmp/files"
	while IFS= read -r p; do
		[[ -e $root$p ]] && ! grep -qxF "$p" "$tmp/shared" && left+=("$p/")
	done <"$tmp/dirs"
	echo "dpkg -L: $(wc -l <"$tmp/files") files, $(wc -l <"$tmp/dirs") directories ($(wc -l <"$tmp/shared") listed by other packages too)"
	((${#left[@]} == 0)) || { printf 'left: %s\n' "${left[@]}"; return 1; }
}

dkms_tree_gone() {
	local k left=()
	[[ -e $root/var/lib/dkms/sparkperf ]] && left+=(/var/lib/dkms/sparkperf)
	[[ -e $root/usr/src/sparkperf-$ver ]] && left+=("/usr/src/sparkperf-$ver")
	for k in "$kver" ${kver2:+"$kver2"}; do
		mapfile -t -O "${#left[@]}" left < <(find "$root/lib/modules/$k/" -name 'sparkperf.ko*')
	done
	((${#left[@]} == 0)) || { printf 'left: %s\n' "${left[@]#"$root"}"; return 1; }
}

nothing_registered() {
	in_root dkms status >"$tmp/status" 2>&1
	echo "dkms status: $(cat "$tmp/status")"
	in_root dpkg -l 'sparkperf*'
	! grep -q sparkperf "$tmp/status" &&
		! sparkperf_packages
}

no_module_left() { ! module_file; }

harness_module_loads() {
	modprobe sparkperf dyndbg=+p && [[ -d /sys/module/sparkperf ]]
}

if ! sp_test "a writable root: overlay, tmpfs upper, over $DEB_VM_ROOT" make_root; then
	sp_plan_done
	exit
fi
sp_test "the root has $kver's headers and no sparkperf yet" root_ready
sp_test "the tree's module, loaded by the harness, unloads" unload_tree_module
sp_test "apt-get install ./sparkperf-dkms ./sparkperf-ctl, without sources" install_packages &&
	grep -E '^(Building|Sign|Installing|Loading|Done|Setting up)' <<<"$sp_out_" | diag_lines
sp_test "dkms status: sparkperf/$ver installed for $kver" dkms_installed_for "$kver"
sp_test "modprobe finds DKMS's build in the root's updates/dkms" dkms_module_installed
if sp_test "modprobe sparkperf loads DKMS's build, not the tree's" dkms_module_loads; then
	diag_lines <<<"$sp_out_"
	sp_test "/usr/bin/sparkperf-ctl is the package's; -V has the module's version" cli_is_the_package
	sp_test "sparkperf-ctl dev lists $SP_VM_RDMA_DEV ACTIVE on $SP_VM_NETDEV" cli_lists_devices
	sp_test "sparkperf-ctl server start, lat run to $SP_VM_ADDR: 20 round trips" cli_lat_run &&
		diag_lines <<<"$sp_out_"
else
	# sparkperf-ctl would have the kernel load the tree's module.
	for t in "sparkperf-ctl -V" "sparkperf-ctl dev" "sparkperf-ctl lat run"; do
		sp_skip "$t" "DKMS's module is not the one loaded"
	done
fi
if [[ -n $kver2 ]]; then
	sp_test "dpkg -i of $kver2's headers: DKMS's hook builds and installs the module for it" second_kernel &&
		grep -E "dkms|$kver2" <<<"$sp_out_" | tail -n 4 | diag_lines
else
	sp_skip "a second kernel's headers: DKMS builds for it" "deb-vm-prep --no-second-kernel"
fi
sp_test "server stop and rmmod of DKMS's module: clean" unload_dkms_module
sp_test "apt-get purge sparkperf-dkms sparkperf-ctl" purge
sp_test "every file dpkg -L listed is gone, and the directories only they had" nothing_left &&
	diag_lines <<<"$sp_out_"
sp_test "DKMS's tree, /usr/src/sparkperf-$ver, the module for both kernels: gone" dkms_tree_gone
sp_test "dkms status and dpkg -l list no sparkperf" nothing_registered
sp_test "the root's modprobe finds no sparkperf" no_module_left
sp_test "the harness's module loads again" harness_module_loads

umount -R "$base" && rm -rf --one-file-system "$tmp"
sp_plan_done
