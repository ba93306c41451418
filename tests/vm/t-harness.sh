#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: host
#
# Self-test of the VM harness, run on the host by scripts/vm-suite.
#  1. The kernel-verdict parsers (tests/vm/judge.sh) on synthetic dmesg text.
#  2. One VM boot whose command crashes the kernel (sysrq c): vm-run must exit
#     125 and name a kernel panic and the test that was running. This
#     proves a splat cannot go unnoticed.
#     And one whose kernel cannot start stage2 (rdinit=/nonexistent): the
#     panic is named as one before sparkperf was loaded, which vm-suite
#     boots again once (an emulation fault says nothing about the module).
#     And one whose init spins before the command: stopped at the boot
#     limit, named the same way.
#  3. One more boot that fakes a WARNING and a
#     leaked object in the kernel log: vm-run must exit 125 naming both.
#  4. The N-VM mode (three VMs, switched) has no path off the machine: each
#     QEMU's NICs are unix sockets of the run and nothing else, the guests
#     have their links' routes only (no default route, none to an address
#     outside them: asked of the kernel, nothing is sent), and spark1
#     reaches every VM's address on each link with 9000-byte frames.
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=tests/vm/lib.sh
. "$repo/tests/vm/lib.sh"
# shellcheck source=tests/vm/judge.sh
. "$repo/tests/vm/judge.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- 1: parsers ----------------------------------------------------------------
cat >"$tmp/clean" <<'LOG'
[    7.1] sparkperf: session s0 created
[    7.2] sparkperf: flow f1 created
[    7.3] sparkperf: session s0 destroyed
[    7.4] sparkperf: session s0 created
[    7.5] sparkperf: session s0 destroyed
[    7.6] sparkperf: flow f1 destroyed
[    7.7] rdma_rxe: loaded
LOG
cat >"$tmp/dirty" <<'LOG'
[    7.1] sparkperf: session s0 created
[    7.2] sparkperf: flow f1 created
[    7.3] sparkperf: flow f1 destroyed
[    7.4] sparkperf: flow f2 destroyed
[    8.0] ------------[ cut here ]------------
[    8.0] WARNING: CPU: 0 PID: 1 at kmod/main.c:10 sp_init+0x10/0x20 [sparkperf]
[    8.1] list_del corruption. prev->next should be ffff..., but was ...
LOG

out=$(sp_judge_balance "$tmp/clean")
[[ -z "$out" ]]
sp_ok "balanced created/destroyed lines pass" || sp_diag "$out"
out=$(sp_judge_balance "$tmp/dirty")
grep -q 'leaked.*session s0' <<<"$out" && grep -q 'never created: flow f2' <<<"$out" &&
	! grep -q 'f1' <<<"$out"
sp_ok "a leaked object and an unmatched destroy are reported" || sp_diag "$out"
out=$(sp_judge_splats "$tmp/clean")
[[ -z "$out" ]]
sp_ok "a clean log has no splat" || sp_diag "$out"
out=$(sp_judge_splats "$tmp/dirty")
grep -q 'WARNING: CPU: 0' <<<"$out" && grep -q 'list_del corruption' <<<"$out"
sp_ok "WARNING and list corruption are splats" || sp_diag "$out"
cat >"$tmp/leak" <<'LOG'
unreferenced object 0xffff888004e1c000 (size 512):
  comm "sparkperf-ctl", pid 231, jiffies 4294893216
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace (crc 5a2b1f09):
    [<ffffffff8149d2a1>] __kmalloc_cache_noprof+0x2b1/0x3d0
    [<ffffffffc0a1b3e2>] sp_session_alloc+0x52/0x3a0 [sparkperf]
unreferenced object 0xffff888004e1d000 (size 64):
  comm "sparkperf-ctl", pid 231, jiffies 4294893216
LOG
: >"$tmp/noleak"
out=$(sp_judge_kmemleak "$tmp/leak")
grep -q '^kmemleak: 2 unreferenced object(s); first allocated at: __kmalloc_cache_noprof+0x2b1/0x3d0 sp_session_alloc+0x52/0x3a0 \[sparkperf\]$' <<<"$out" &&
	[[ -z "$(sp_judge_kmemleak "$tmp/noleak")" ]]
sp_ok "kmemleak reports are counted and name the allocator" || sp_diag "$out"
[[ -z "$(sp_judge_taint 12288)" && -n "$(sp_judge_taint $((12288 | 512)))" ]]
sp_ok "taint O+E accepted, W rejected"
[[ "$(sp_taint_flags 12800)" == "W(bit 9) O(bit 12) E(bit 13)" ]]
sp_ok "taint flags decoded" || sp_diag "$(sp_taint_flags 12800)"

# vm_run ARGS...: scripts/vm-run's output ($out) and status ($rc). A boot
# whose kernel crashed before the module was loaded (an emulation fault in
# code patching: vm-suite boots such a run again) is booted once more.
vm_run() {
	local boot
	for boot in 1 2; do
		out=$("$repo/scripts/vm-run" "$@" 2>&1)
		rc=$?
		grep -q 'crashed before sparkperf was loaded' <<<"$out" || return 0
		sp_diag "boot $boot crashed before sparkperf was loaded: $(grep -m1 'kernel: FAIL' <<<"$out")"
	done
}

# expect_fail NAME PATTERN...: vm-run exited 125 and its output matches
# every PATTERN.
expect_fail() {
	local name=$1 pattern
	shift
	for pattern; do
		((rc == 125)) && grep -q -- "$pattern" <<<"$out" && continue
		sp_fail "$name" "exit $rc
$out"
		return
	done
	sp_pass "$name"
}

# --- 2: a kernel crash is a failure ----------------------------------------------
vm_run --timeout 120 -- sh -c \
	'echo "# vm-test: t-crash.sh"; echo c >/proc/sysrq-trigger; sleep 30'
# (the test's line is printed once the module is loaded)
expect_fail "vm-run reports a kernel crash (exit 125, kernel panic, in which test)" \
	'kernel: FAIL: kernel panic: .*sysrq.*; during t-crash.sh'

# --- 2b: a crash before the module is loaded is named so (vm-suite boots again) ----
out=$(SPARKPERF_VM_APPEND="rdinit=/nonexistent" "$repo/scripts/vm-run" --timeout 120 -- true 2>&1)
rc=$?
expect_fail "vm-run names a kernel that crashed before sparkperf was loaded" \
	'kernel: FAIL: kernel panic.*crashed before sparkperf was loaded'

# --- 2c: a kernel that hangs in boot is stopped at the boot limit, named so ----
# (init a shell that spins: the kernel passes what follows -- to init)
out=$(SPARKPERF_VM_BOOT_LIMIT=20 \
	SPARKPERF_VM_APPEND='rdinit=/bin/sh -- -c "while :; do :; done"' \
	"$repo/scripts/vm-run" --timeout 300 -- true 2>&1)
rc=$?
expect_fail "vm-run stops a guest that does not boot within its limit, and names it" \
	'kernel: FAIL: no boot within 20s, .*crashed before sparkperf was loaded'

# --- 3: a logged splat and a leaked object are failures ---------------------------
vm_run --timeout 120 -- sh -c \
	'echo "sparkperf: widget w1 created" >/dev/kmsg; echo "WARNING: harness self-test" >/dev/kmsg; exit 0'
expect_fail "vm-run reports a logged WARNING and a leaked object (exit 125)" \
	'kernel splat: .*WARNING: harness self-test' 'object leaked.*widget w1'

# --- 4: the N-VM mode has no path off the machine ----------------------------------
# shellcheck disable=SC2016 # expanded in the guests
vm_run --keep --hosts 3 --timeout 420 -- sh -c '
bad=
[ -z "$(ip route show default)" ] || bad="$bad; a default route"
other=$(ip -4 route show | grep -v "proto kernel scope link")
[ -z "$other" ] || bad="$bad; a route not of a link: $other"
ip route get 192.0.2.1 >/dev/null 2>&1 && bad="$bad; a route to 192.0.2.1"
if [ "$SP_VM_NAME" = spark1 ]; then
	for a in $SP_VM_ADDRS $SP_VM_ADDRS2 $SP_VM_MGMT_ADDRS; do
		ping -c 1 -W 10 -M do -s 8972 "$a" >/dev/null || bad="$bad; no 9000-byte ping to $a"
	done
fi
echo "isolation: ${bad:-none}"
[ -z "$bad" ]'
run=$(sed -n 's/^vm-run: run directory: //p' <<<"$out")
((rc == 0)) && [[ $(grep -c '^\[spark[123]\] isolation: none$' <<<"$out") == 3 ]]
sp_ok "N-VM mode: in each guest, only its links' routes; spark1 reaches every VM on each link" ||
	sp_diag "exit $rc" "$(grep -E 'isolation|kernel:' <<<"$out")"
nics=$(cat "$run"/spark*/qemu.args 2>/dev/null | grep -A1 -x -- -netdev | grep -v -x -e -netdev -e --)
[[ $(wc -l <<<"$nics") == 9 ]] &&
	! grep -v -E "^stream,id=n[0-2],server=off,addr.type=unix,addr.path=$run/net/(mgmt|half0|half1).sock$" <<<"$nics"
sp_ok "N-VM mode: every NIC of every QEMU is a unix socket of the run's switches" ||
	sp_diag "$nics"
[[ -d $run && $run == */build/vm/runs/* ]] && rm -rf "$run"

sp_plan_done
