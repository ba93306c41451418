# SPDX-License-Identifier: GPL-2.0
#
# sparkperf: kernel module (kmod/), CLI (user/), tests (tests/).
#
#   make            module + CLI (module against KERNELDIR)
#   make check      everything a contributor must pass (installs deps)
#   make pkg-check  the packages built, checked, installed in VMs (6.1, 7.3)
#   make demo       two QEMU VMs as a virtual Spark pair
#   make matrix-check  sparkperf-ctl matrix over real mpirun in four VMs,
#                   switched and cabled as a ring
#   make debug-check  the VM suite on a KASAN/lockdep/kmemleak kernel
#   make deb        Debian packages in build/deb/ (sparkperf-dkms, sparkperf-ctl
#                   for this machine and for arm64), lintian-clean
#   make deb-check  make deb, then the packages' contents and metadata
#   make deb-vm-check  make deb, then apt install, DKMS and apt purge of the
#                   packages in a VM on 6.1 and 7.3 (KVER=... for one)
#
# KERNELDIR selects the kernel headers for the module: by default those of
# the running kernel, or Debian's packaged headers (the VM kernel) when the
# running kernel has none.

VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
# KVER picks the VMs' kernel: a release or a series of scripts/kernel-pkgs
# (7.3, 6.12-rt, 7.3-arm64); by default the Debian kernel whose headers are
# installed, whose headers also serve style and dkms-check.
export KVER
VM_KVER = $(shell KVER=$(KVER) scripts/kver)
HOST_KVER = $(shell KVER= scripts/kver)
HOST_KERNELDIR = /usr/src/linux-headers-$(HOST_KVER)
RUNNING_KERNELDIR := /lib/modules/$(shell uname -r)/build
KERNELDIR ?= $(if $(wildcard $(RUNNING_KERNELDIR)),$(RUNNING_KERNELDIR),$(HOST_KERNELDIR))

PREFIX ?= /usr/local
DESTDIR ?=

# WERROR=1 turns every compiler warning into an error (make check sets it).
ifeq ($(WERROR),1)
KMOD_FLAGS := KCFLAGS=-Werror
USER_FLAGS := WERROR=1
endif

all: kmod user

kmod:
	$(MAKE) -C kmod KERNELDIR=$(KERNELDIR) $(KMOD_FLAGS)

user:
	$(MAKE) -C user $(USER_FLAGS)

deps:
	scripts/install-deps

unit: user
	$(MAKE) -C tests/unit $(USER_FLAGS) run

# Style and static checks: checkpatch and sparse on the module, user/'s
# layout (scripts/layout-check), one version (scripts/version-check),
# shellcheck on the scripts, groff warnings on the man pages.
SHELL_SCRIPTS = $(filter-out %.py,$(wildcard scripts/* tests/vm/* tests/switch/*))
style:
	scripts/checkpatch.sh
	scripts/layout-check
	scripts/version-check
	shellcheck -x -e SC1091 $(SHELL_SCRIPTS)
	shellcheck -s bash user/completion/sparkperf-ctl
	@out=$$(groff -ww -z -man user/man/sparkperf-ctl.8 user/man/sparkperf-matrix.8 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi
	$(MAKE) -C kmod KERNELDIR=$(HOST_KERNELDIR) $(KMOD_FLAGS) sparse

# The unit and CLI suites under AddressSanitizer and UndefinedBehaviorSanitizer
# (float-cast-overflow too; any report fails), built from a copy of the
# working tree in build/asan, so that the tree's own build stays as it is.
# Without WERROR: the instrumented build draws false -Wformat-truncation
# warnings; make unit is where warnings fail.
ASAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fsanitize=float-cast-overflow -fno-sanitize-recover=all
asan-check:
	rm -rf build/asan && mkdir -p build/asan
	git ls-files -co --exclude-standard -- dkms.conf include kmod tests/unit \
		tests/fixtures tests/json-vocabulary.jq user | \
		tar -cf - -T - | tar -xf - -C build/asan
	ASAN_OPTIONS=abort_on_error=0:detect_leaks=1:verify_asan_link_order=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(MAKE) -C build/asan/tests/unit CFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="$(ASAN_FLAGS)" run

.PHONY: asan-check

# sparkperf-ctl switch against a RouterOS API test double on 127.0.0.1.
switch-check: user
	tests/switch/run-tests user/sparkperf-ctl

.PHONY: switch-check

dkms-check:
	scripts/dkms-check $(HOST_KVER)

# The build matrix: the module, warnings as errors, against Debian's
# packaged headers of every kernel series sparkperf supports, for amd64 and
# arm64 (cross), each with the compiler its kernel was built with.
KERNELS_BUILT = 6.1 6.12 7.2 7.3
kernels-check:
	@for k in $(KERNELS_BUILT); do for a in amd64 arm64; do \
		ko=$$(scripts/kmod-build --werror $$k-$$a) || exit 1; \
		echo "kernels-check: $$(modinfo -F vermagic $$ko | cut -d' ' -f1): ok ($$(file -b $$ko | cut -d, -f2 | sed 's/^ //'))"; \
	done; done

# The VM suites boot Debian's kernel, so the module is built for it, from
# Debian's packaged headers, with its compiler (scripts/kmod-build).
# Also the build with the multicast permission fallback forced, which
# t-netlink.sh loads (compat.h: kernels without GENL_MCAST_CAP_NET_ADMIN).
vm-kmod:
	scripts/kmod-build $(if $(KMOD_FLAGS),--werror) $(VM_KVER) >/dev/null
	scripts/kmod-build $(if $(KMOD_FLAGS),--werror) --mcgrp-fallback \
		$(VM_KVER) >/dev/null

# The CLI the VMs run (and the matrix worker, sparkperf-matrix, which the
# matrix tests run): arm64 guests (KVER=7.3-arm64) get one cross-built
# against Debian's :arm64 libraries, beside the in-tree build (sparkperf-ctl
# alone: their root has no Open MPI, and the matrix tests skip there).
vm-user:
	$(MAKE) $(if $(filter %-arm64,$(VM_KVER)),arm64-user,user)

arm64-user:
	$(MAKE) -C user ctl O=$(CURDIR)/build/arm64/user CC=aarch64-linux-gnu-gcc \
		PKG_CONFIG="env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig pkg-config" \
		$(USER_FLAGS)

vm-check: vm-kmod vm-user
	scripts/vm-suite

# The subset run on every kernel of the matrix (tests marked vm-smoke).
vm-smoke: vm-kmod vm-user
	scripts/vm-suite --smoke

# The runtime matrix: the whole VM suite on the oldest and the newest
# kernel, the smoke subset on the others; one line per kernel at the end.
VM_FULL = 6.1 7.3
VM_SMOKE = 6.12 7.3-rt 7.3-arm64
vm-matrix:
	@rm -f build/vm/matrix.txt; mkdir -p build/vm; fail=0; \
	for k in $(VM_FULL:%=check:%) $(VM_SMOKE:%=smoke:%); do \
		$(MAKE) --no-print-directory vm-$${k%%:*} KVER=$${k#*:} || fail=1; \
		echo "vm-matrix: $$(KVER=$${k#*:} scripts/kver), $${k%%:*}:" \
			"$$(tail -n1 build/vm/suite.log)" >>build/vm/matrix.txt; \
	done; cat build/vm/matrix.txt; exit $$fail

# The matrix over real mpirun and ssh in four VMs (scripts/vm-run --hosts 4):
# on two switches with one VM's eth1 shaped, its outlier found, and cabled
# as a ring, its non-neighbours without a direct path
# (tests/vm/t-matrix-switched.sh, t-matrix-ring.sh). Outside make check:
# about 5 minutes on two cores (boots of 105 s and 165 s). Its fast case,
# three VMs as a triangle (t-matrix-triangle.sh, a boot of 94 s), is in
# vm-check.
MATRIX_TESTS = tests/vm/t-matrix-switched.sh tests/vm/t-matrix-ring.sh
matrix-check: vm-kmod vm-user
	scripts/vm-suite $(MATRIX_TESTS)

# Benchmarks (not tests): sparkperf against the reference tools in one VM,
# interleaved rounds, medians and ratios. The guest clock is the TSC, as on
# real hosts (the arm64 arch timer on DGX OS): without an invariant-TSC flag
# Linux picks the HPET, which emulation makes cost tens of us per read.
BENCH ?= lat bw trace
bench: deps
	$(MAKE) vm-kmod vm-user
	SPARKPERF_VM_APPEND="clocksource=tsc tsc=reliable" \
		scripts/vm-run --timeout 3000 -- sh -c 'echo "bench: kernel $$(uname -r) ($$(uname -m))"; \
			for b in $(BENCH); do scripts/bench-$$b || exit 1; done'

check: deps
	$(MAKE) WERROR=1 KERNELDIR=$(HOST_KERNELDIR) style unit switch-check dkms-check kernels-check vm-matrix

# What does not fit in make check's hour: the lat and trace suites on arm64
# (emulated, three times as slow).
ARM64_SUITES = $(wildcard tests/vm/t-lat*.sh tests/vm/t-trace*.sh)
check-all: check
	$(MAKE) WERROR=1 vm-kmod vm-user KVER=7.3-arm64
	KVER=7.3-arm64 scripts/vm-suite $(ARM64_SUITES)

# The whole VM suite on a debug kernel built once from Debian's
# linux-source-6.12 (scripts/debug-kernel: KASAN, lockdep, kmemleak,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS): any report fails a boot. Outside make
# check: its first build takes about 20 minutes on two cores, and its checkers
# slow the suite several times over.
debug-check: deps
	kver=$$(scripts/debug-kernel) && $(MAKE) WERROR=1 vm-check KVER=$$kver

demo: deps
	$(MAKE) vm-kmod vm-user
	scripts/demo

install: user
	$(MAKE) -C user PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) install install-matrix

# The Debian packages (debian/), built from a copy of the working tree
# (scripts/deb-build); lintian errors fail.
deb:
	scripts/deb-build

# What a user would check on the packages, installing nothing
# (scripts/deb-check), after make deb.
deb-check:
	scripts/deb-check

# The packages installed in a VM (tests/vm/t-deb.sh): apt install with the
# running kernel's headers, DKMS's build loaded, sparkperf-ctl from /usr/bin,
# DKMS building for a second kernel's headers, apt purge leaving nothing.
# make deb, then deb-vm-run for each kernel (KVER=... for one): its module
# and CLI for the harness, scripts/deb-vm-prep gathering on the host what
# the guest, which has no network, installs from, and the test. Each DKMS
# build is about three minutes of emulated compiling. make deb-vm-run
# KVER=... runs one again with the packages of the last make deb; on the
# kernels of DEB_VM_ONE_BUILD, without the second kernel's build.
DEB_VM_KERNELS = $(or $(KVER),6.1 7.3)
DEB_VM_ONE_BUILD =
deb-vm-check: deb
	$(MAKE) deb-vm-matrix

deb-vm-matrix:
	@rm -f build/vm/deb-matrix.txt; mkdir -p build/vm; fail=0; \
	for k in $(DEB_VM_KERNELS); do \
		rm -f build/vm/suite.log; \
		$(MAKE) --no-print-directory deb-vm-run KVER=$$k || fail=1; \
		echo "deb-vm-check: $$(KVER=$$k scripts/kver):" \
			"$$(tail -n1 build/vm/suite.log 2>/dev/null || echo 'no VM run, see above')" \
			>>build/vm/deb-matrix.txt; \
	done; cat build/vm/deb-matrix.txt; exit $$fail

deb-vm-run: vm-kmod vm-user
	scripts/deb-vm-prep $(if $(filter $(KVER),$(DEB_VM_ONE_BUILD)),--no-second-kernel)
	scripts/vm-suite tests/vm/t-deb.sh

# The package lane: the packages built without their unit tests (make unit
# runs them) and checked, then installed in a VM on 6.1 and 7.3, DKMS's
# build for a second kernel on 7.3 only (the series DGX OS moves to). About
# 15 minutes on two cores, which make check's hour has no room for: its
# gates and VM matrix took 46 minutes on the two-core machine.
pkg-check:
	DEB_BUILD_OPTIONS=nocheck scripts/deb-check
	$(MAKE) deb-vm-matrix DEB_VM_KERNELS="6.1 7.3" DEB_VM_ONE_BUILD=6.1

# Installs the module sources under /usr/src and lets DKMS build and install
# them for the running kernel (and, with AUTOINSTALL, for future ones).
dkms-install:
	scripts/dkms-sources . $(DESTDIR)/usr/src/sparkperf-$(VERSION)
	dkms install -m sparkperf -v $(VERSION)

clean:
	-$(MAKE) -C kmod KERNELDIR=$(KERNELDIR) clean
	$(MAKE) -C user clean
	$(MAKE) -C tests/unit clean
	rm -rf build

.PHONY: all kmod user deps unit style dkms-check kernels-check vm-kmod vm-user arm64-user vm-check vm-smoke vm-matrix \
	matrix-check \
	bench check check-all debug-check demo \
	install dkms-install deb deb-check deb-vm-check deb-vm-matrix deb-vm-run pkg-check clean
