# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the benchmarks (scripts/bench-*) share: sourced, not run.

# median: the median of the numbers on stdin, one per line
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# perftest_listening PORT: wait (up to 10 s) until a perftest server listens
perftest_listening() {
	for _ in $(seq 100); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		sleep 0.1
	done
	return 1
}
