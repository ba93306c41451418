# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the matrix tests (t-matrix-*.sh), which run in the N-VM mode
# (vm-run --hosts): every VM sets up sshd and Open MPI (sp_mpi_setup), then
# spark1 runs sparkperf-ctl matrix over all of them through mpirun, as a
# user does, and checks what a user reads. Its bandwidth runs are 2 s of
# 64 KiB writes: everything is emulated, and the concurrent pairs of a
# round overlap unevenly (one in its bandwidth run while the other is still
# in its latency run), which over 1 s made one healthy result half the
# median of its half (0.04 against 0.085 Gbit/s, a ring), nearly an outlier.
#
#   mx_setup              every VM: sp_mpi_setup, all wait for each other,
#                         then spark1 reaches each VM by name over ssh;
#                         the test ends there, skipped, without Open MPI
#   mx_run NAME [ARG...]  spark1: the matrix of every VM (ARGs before
#                         mpirun's); in $mx_dir: NAME.json (its -j
#                         output), NAME.rc (its exit status), NAME.err
#                         (the progress), NAME.txt (matrix show of the
#                         JSON: the tables), NAME.png (heatmap), NAME.csv
#   mx_check_healthy NAME WHY  the run of healthy links exited 0, or 1
#                         with outliers its only findings (below)
#   mx_check_measured NAME    every pair of halves the cabling links was
#                         tested each way, each with a latency p50 and p99
#                         and a bandwidth, without error, and no other
#                         pair; every host ran its rank (its own halves)
#   mx_check_files NAME   the heatmap is a PNG, the CSV a row per result
#   mx_done TIMEOUT       every VM: wait for spark1 to be done
#   mx_last               the name of the last VM (sparkN)

# shellcheck source=tests/vm/lib.sh
. "$SP_REPO/tests/vm/lib.sh"

mx_dir=$(mktemp -d)
mx_hosts=${SP_VM_HOSTS// /,}

mx_last() { echo "${SP_VM_HOSTS##* }"; }

mx_setup() {
	# an arm64 guest's root has neither (scripts/vm-arm64-root)
	if ! command -v mpirun >/dev/null || ! PATH=$SP_PATH_TOOLS command -v sparkperf-matrix >/dev/null; then
		sp_skip "the matrix" "no mpirun or sparkperf-matrix in this guest"
		sp_plan_done
		exit
	fi
	sp_mpi_setup
	sp_ok "$SP_VM_NAME: sshd on $SP_VM_MGMT_ADDR and Open MPI's settings" || return 1
	sp_barrier mpi-ready 300 || sp_fail "every VM's sshd up"
	sp_is_a || return 0
	local h
	for h in $SP_VM_HOSTS; do
		sp_test "spark1: ssh $h (its name on the management link)" sp_ssh "$h" true
	done
}

mx_run() {
	local name=$1 t0=$SECONDS
	shift
	sparkperf-ctl -j matrix hosts "$mx_hosts" tests lat,bw size 64K duration 2 \
		heatmap "$mx_dir/$name.png" csv "$mx_dir/$name.csv" "$@" \
		mpirun --allow-run-as-root >"$mx_dir/$name.json" 2>"$mx_dir/$name.err"
	echo $? >"$mx_dir/$name.rc"
	sp_diag "matrix $name: exit $(cat "$mx_dir/$name.rc") after $((SECONDS - t0)) s; its progress:"
	sed 's/^/#   /' "$mx_dir/$name.err"
	sparkperf-ctl matrix show "$mx_dir/$name.json" >"$mx_dir/$name.txt" 2>&1
	sed 's/^/#   /' "$mx_dir/$name.txt"
	cp "$mx_dir/$name".* "$SP_OUT/" 2>/dev/null
}

# Emulation's noise halves a healthy result now and then (seen: 0.08
# against a median of 0.16 Gbit/s, in a triangle's three results a half),
# and three VMs on two cores spread their latencies (p50s of 686 to 1380 us
# in one healthy triangle), where the rule is twice the median: on
# emulated links an outlier says nothing about the product, so a run
# whose only findings are outliers is healthy here, its outliers shown.
# The rule itself is judged by the unit tests, on fixtures.
mx_outliers_alone='.outliers != [] and all(.results[]; .error == null) and
	all(.hosts[]; .error == null)'

mx_check_healthy() {
	local f=$mx_dir/$1 rc
	rc=$(cat "$f.rc")
	if [ "$rc" = 1 ]; then
		sp_diag "matrix $1: exit 1; its outliers, emulation's timing:"
		jq -c '.outliers[]' "$f.json" 2>&1 | sed 's/^/#   /'
	fi
	[ "$rc" = 0 ] ||
		{ [ "$rc" = 1 ] && jq -e "$mx_outliers_alone" "$f.json" >/dev/null; }
	sp_ok "$1: exit 0 ($2), or 1 with outliers its only findings"
}

# The pairs of halves the cabling links, each way, as
# [client, client_half, server, server_half], sorted.
mx_expected() {
	local -a h
	local i j n
	read -r -a h <<<"$SP_VM_HOSTS"
	n=${#h[@]}
	for ((i = 0; i < n; i++)); do
		if [[ $SP_VM_CABLING == switched ]]; then
			for ((j = 0; j < n; j++)); do
				((i == j)) && continue
				printf '["%s","rxe0","%s","rxe0"]\n["%s","rxe1","%s","rxe1"]\n' \
					"${h[i]}" "${h[j]}" "${h[i]}" "${h[j]}"
			done
		else
			# a ring: eth1 (rxe1) of each to eth0 (rxe0) of the next
			j=$(((i + 1) % n))
			printf '["%s","rxe1","%s","rxe0"]\n["%s","rxe0","%s","rxe1"]\n' \
				"${h[i]}" "${h[j]}" "${h[j]}" "${h[i]}"
		fi
	done | jq -s -c 'sort'
}

mx_check_measured() {
	local f=$mx_dir/$1.json i=1 h bw='.gbit_per_s > 0'
	# the debug kernel's soft-RoCE may complete no message in a 2 s run
	sp_timing_judged || bw='.gbit_per_s >= 0'
	sp_check 1 "$1: every host ran its rank: its name and its halves' addresses" \
		"[.hosts[] | [.name, (.halves | map(.addr | sub(\"/.*\"; \"\")) | sort)]] ==
		 ([$(for h in $SP_VM_HOSTS; do
			printf '%s["%s", ["%s", "%s"]]' "$( ((i > 1)) && echo ,)" "$h" \
				"$(echo "$SP_VM_ADDRS" | cut -d' ' -f$i)" \
				"$(echo "$SP_VM_ADDRS2" | cut -d' ' -f$i)"
			i=$((i + 1))
		done)] | map([.[0], (.[1] | sort)]))"
	sp_check 1 "$1: every pair of halves the cabling links was tested, each way, and no other" \
		"[.results[] | select(.pattern == \"pairs\") |
		  [.client, .client_half, .server, .server_half]] | sort == $(mx_expected)"
	sp_check 1 "$1: each test has a one-way latency p50 and p99 (us) and a bandwidth (Gbit/s)" \
		"all(.results[]; $bw and .one_way_p50_us > 0 and
		  .one_way_p99_us >= .one_way_p50_us and .error == null)"
	sp_checks "$f"
}

mx_check_files() {
	local n
	file -b "$mx_dir/$1.png" | grep -q '^PNG image data'
	sp_ok "$1: the heatmap is a PNG ($(file -b "$mx_dir/$1.png" 2>&1 | cut -d, -f1-2))"
	n=$(jq '.results | length' "$mx_dir/$1.json")
	head -n1 "$mx_dir/$1.csv" | grep -q '^pattern,round,client,client_half,server,server_half,gbit_per_s,one_way_p50_us,one_way_p99_us,outlier,error' &&
		[ "$(($(wc -l <"$mx_dir/$1.csv") - 1))" = "$n" ]
	sp_ok "$1: the CSV has its header and a row per result ($n)"
}

# The others poll slowly: every command a guest runs takes emulated CPU
# from the measurement.
mx_done() {
	sp_barrier matrix-done "$1" 5 || sp_fail "$SP_VM_NAME: spark1 done within $1 s"
	rm -rf "$mx_dir"
}
