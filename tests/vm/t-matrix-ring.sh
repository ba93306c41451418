#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-mode: hosts4-ring
# vm-timeout: 1200
# vm-default: no
#
# The matrix of four VMs cabled as a ring (each VM's eth1 to the next's
# eth0, each cable its own subnet), spark1 running sparkperf-ctl matrix
# over real mpirun and ssh (the management link): the cabling is named
# ring; the non-neighbours, spark1 and spark3, spark2 and spark4, have no
# direct path, which the tables say as "no path", not as failures; each
# cable is tested both ways, each test with a latency p50 and p99 and a
# bandwidth; exit 0, or 1 for outliers alone; the heatmap and the CSV are
# written. make matrix-check runs it.
. "$SP_REPO/tests/vm/matrix.sh"

mx_setup
if sp_is_a; then
	read -r -a h <<<"$SP_VM_HOSTS"
	n=${#h[@]} none=() json=
	for ((a = 0; a < n; a++)); do
		for ((b = a + 2; b < n; b++)); do
			((a == 0 && b == n - 1)) && continue
			none+=("${h[a]} <-> ${h[b]}")
			json+="${json:+,}{\"host_a\": \"${h[a]}\", \"host_b\": \"${h[b]}\"}"
		done
	done
	mx_run ring
	mx_check_healthy ring "no path between non-neighbours is no failure"
	sp_check 1 "ring: cabling ring, the non-neighbours without a direct path" \
		".topology.cabling == \"ring\" and .topology.mistake == null and
		 .topology.no_direct_path == [$json]"
	mx_check_measured ring
	grep -q "^matrix of $n hosts: cabling ring" "$mx_dir/ring.txt" &&
		grep -qx "no direct path: $(printf '%s, ' "${none[@]}" | sed 's/, $//')" "$mx_dir/ring.txt"
	sp_ok "ring: the text names the cabling and the pairs without a direct path"
	grep -Eq "^${h[0]} .* no path" "$mx_dir/ring.txt" && ! grep -q failed "$mx_dir/ring.txt"
	sp_ok "ring: the tables say 'no path' for them, nothing 'failed'"
	mx_check_files ring
fi
mx_done 1140
sp_plan_done
