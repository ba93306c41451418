# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Kernel-verdict helpers, sourced by tests/vm/stage2 (inside the guest) and by
# tests/vm/t-harness.sh (on the host, against synthetic logs). Each sp_judge_*
# function prints one reason per line on stdout and nothing when clean.

# Kernel messages that mean the kernel is in trouble.
SP_SPLAT_RE='BUG:|WARNING:|Oops|general protection|Call Trace|list_(add|del) corruption|refcount_t:|slab error|Poison overwritten|Redzone|INFO: task .* blocked|soft lockup|rcu_.* detected stall|UBSAN|KASAN|ODEBUG|double free|kernel BUG|Kernel panic'
# Taint bits we accept: O (12, out-of-tree module) and E (13, unsigned module).
SP_TAINT_OK=$(((1 << 12) | (1 << 13)))

# sp_taint_flags VALUE: the taint letters set in VALUE, e.g. "O E".
sp_taint_flags() {
	local v=$1 letters=PFSRMBUDAWCIOELKXTN i out=
	for ((i = 0; i < ${#letters}; i++)); do
		((v & (1 << i))) && out+="${letters:i:1}(bit $i) "
	done
	((v >> ${#letters})) && out+="unknown-high-bits "
	printf '%s\n' "${out% }"
}

# sp_judge_taint VALUE [WHEN]
sp_judge_taint() {
	local v=$1 when=${2:-}
	if ((v & ~SP_TAINT_OK)); then
		echo "kernel tainted${when:+ $when}: $v = $(sp_taint_flags "$v")"
	fi
}

# sp_judge_splats DMESG-FILE: the first few splat lines.
sp_judge_splats() {
	local lines n
	lines=$(grep -E -- "$SP_SPLAT_RE" "$1") || return 0
	n=$(printf '%s\n' "$lines" | wc -l)
	printf '%s\n' "$lines" | head -n 3 | sed 's/^/kernel splat: /'
	((n > 3)) && echo "kernel splat: ... $((n - 3)) more matching lines in dmesg"
	return 0
}

# sp_judge_balance DMESG-FILE: every "sparkperf: TYPE NAME created" needs a
# later "sparkperf: TYPE NAME destroyed".
sp_judge_balance() {
	sed -n -E 's/.*sparkperf: ([^ ]+) ([^ ]+) (created|destroyed)[[:space:]]*$/\1 \2 \3/p' "$1" |
		awk '
		$3 == "created" { live[$1 " " $2]++; order[++n] = $1 " " $2 }
		$3 == "destroyed" {
			k = $1 " " $2
			if (live[k] > 0) live[k]--
			else printf "object destroyed but never created: %s\n", k
		}
		END {
			left = 0
			for (i = 1; i <= n; i++) {
				k = order[i]
				if (live[k] > 0 && !(k in seen)) {
					seen[k] = 1
					if (++left <= 5)
						printf "object leaked (created, never destroyed): %s\n", k
				}
			}
			if (left > 5) printf "object leaked: ... %d more\n", left - 5
		}'
}

# sp_judge_kmemleak REPORT-FILE: kmemleak's unreferenced objects (a debug
# kernel's /sys/kernel/debug/kmemleak after a scan), with the first one's
# backtrace frames, which name the allocator.
sp_judge_kmemleak() {
	local n first
	n=$(grep -c '^unreferenced object' "$1")
	((n)) || return 0
	first=$(awk '/^unreferenced object/ { k++ } k == 1 && /\[<[0-9a-f]+>\]/ && f++ < 6 { sub(/.*\] /, ""); printf "%s ", $0 }' "$1")
	echo "kmemleak: $n unreferenced object(s); first allocated at: ${first% }"
}
