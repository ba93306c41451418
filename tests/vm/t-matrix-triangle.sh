#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: hosts3-ring
# vm-timeout: 600
#
# make check's fast case of the matrix (t-matrix-switched.sh and
# t-matrix-ring.sh are make matrix-check's): three VMs cabled as a triangle
# (a ring of three, each VM's eth1 to the next's eth0), spark1 runs
# sparkperf-ctl matrix over real mpirun and ssh. The cabling is named
# triangle; each of the three cables is tested both ways, each test with a
# latency p50 and p99 and a bandwidth; exit 0, or 1 for outliers alone
# (emulation's timing); the heatmap and the CSV are written. The fewest
# VMs and tests that run it all end to end.
. "$SP_REPO/tests/vm/matrix.sh"

mx_setup
if sp_is_a; then
	mx_run triangle
	mx_check_healthy triangle "no failure, no outlier"
	sp_check 1 "triangle: cabling triangle, no mistake, each host reaches both others" \
		'.topology.cabling == "triangle" and .topology.mistake == null and
		 .topology.no_direct_path == []'
	mx_check_measured triangle
	mx_check_files triangle
fi
mx_done 540
sp_plan_done
