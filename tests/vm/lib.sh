# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers for VM tests (tests/vm/t-*.sh), run by scripts/vm-run / vm-suite.
# POSIX sh (works from sh and bash):  . "$SP_REPO/tests/vm/lib.sh"
#
# Results are KTAP/TAP-style lines, counted by scripts/vm-suite:
#   ok N - DESC
#   not ok N - DESC
#   # diagnostic (a failing command's output, indented)
#
#   sp_test DESC CMD [ARGS...]   run CMD (output captured), ok if it exits 0
#   sp_ok DESC                   ok if the previous command exited 0:
#                                  grep -q rxe0 f; sp_ok "rxe0 listed"
#   sp_pass DESC / sp_fail DESC [MSG...]   record a result directly
#   sp_skip DESC REASON          "ok N - DESC # SKIP REASON"
#   sp_diag MSG...               "# MSG"
#   sp_plan_done                 checks that every JSON output of the test's
#                                sparkperf-ctl holds to its vocabulary, then
#                                prints "1..N" and "N passed, N failed";
#                                returns 1 if anything failed (use it last:
#                                  sp_plan_done; exit)
#   sp_wait_for CMD TIMEOUT [INTERVAL]  poll the shell command string CMD
#                                (eval'd) every INTERVAL s (default 0.2)
#                                until it succeeds; 1 on timeout
#   sp_barrier NAME [TIMEOUT [INTERVAL]]  pair and N-VM modes: wait until
#                                every other VM reached the same barrier of
#                                the same test (default 120 s, polling every
#                                INTERVAL s); 0 at once in single mode; 1 on
#                                timeout or on a NAME used twice in a test
#   sp_is_pair, sp_is_a, sp_is_b role tests (a = spark1, b = spark2 or, in
#                                the N-VM mode, every other VM)
#   sp_mpi_setup                 N-VM mode: sshd and Open MPI as users have
#                                them (below), in every VM
#   sp_ssh HOST CMD...           ssh as Open MPI does, after sp_mpi_setup
#   sp_as_nobody CMD [ARGS...]   run CMD as nobody, without any capability
#   sp_check N DESC FILTER       queue a check: line N of the next sp_checks
#                                file must satisfy the jq FILTER
#   sp_checks FILE               evaluate the queued checks against the JSON
#                                lines of FILE (one jq run for them all: jq
#                                starts slowly under emulation)
#
# Environment from vm-run: SP_VM_NAME (vm|spark1|spark2|...), SP_VM_ROLE
# (single|a|b), SP_VM_ADDR, SP_VM_PEER, SP_VM_NETDEV, SP_VM_RDMA_DEV, SP_OUT,
# SP_SHARED, SP_REPO; with several VMs SP_VM_HOSTS and the second half's
# SP_VM_*2; in the N-VM mode (vm-run --hosts) SP_VM_CABLING, SP_VM_MGMT_*,
# SP_VM_ADDRS, SP_VM_ADDRS2 (scripts/vm-run's header says what they hold).

SP_N=0
SP_PASSED=0
SP_FAILED=0

# Every JSON document the test's sparkperf-ctl prints is kept (json-tee)
# and checked against the vocabulary sparkperf-ctl(8) documents, in
# sp_plan_done. sp_as_nobody runs the tool itself (PATH without it).
SP_PATH_TOOLS=$PATH
if sp_ctl_=$(command -v sparkperf-ctl) && [ -n "${SP_REPO:-}" ]; then
	SP_JSON_DIR=$(mktemp -d "${TMPDIR:-/tmp}/sp-json.XXXXXX")
	export SP_JSON_DIR
	mkdir "$SP_JSON_DIR/bin"
	printf '#!/bin/sh\nexec %s %s "$@"\n' "$SP_REPO/tests/vm/json-tee" \
		"$sp_ctl_" >"$SP_JSON_DIR/bin/sparkperf-ctl"
	chmod +x "$SP_JSON_DIR/bin/sparkperf-ctl"
	PATH=$SP_JSON_DIR/bin:$PATH
fi

# ok if every kept JSON document holds to the vocabulary.
sp_json_vocabulary() {
	[ -d "${SP_JSON_DIR:-}" ] || return 0
	# copies still being taken (json-tee) end with their tools
	sp_wait_for "! ls $SP_JSON_DIR/*.pending" 10
	sp_bad_=
	sp_n_=$(find "$SP_JSON_DIR" -name 'out.*' ! -name '*.*.*' | wc -l)
	# One jq for them all (it starts slowly under emulation); one per
	# output only to name the ones that break it.
	find "$SP_JSON_DIR" -name 'out.*' ! -name '*.*.*' -exec cat {} + |
		jq -n -e -f "$SP_REPO/tests/json-vocabulary.jq" >/dev/null 2>&1 ||
	for sp_f_ in "$SP_JSON_DIR"/out.*; do
		case $sp_f_ in *.*.*) continue ;; esac
		# cut short (a client killed mid-line): nothing to judge
		jq empty <"$sp_f_" >/dev/null 2>&1 || continue
		sp_why_=$(jq -n -e -r -f "$SP_REPO/tests/json-vocabulary.jq" \
			<"$sp_f_" 2>&1 >/dev/null) ||
			sp_bad_="$sp_bad_\$ sparkperf-ctl $(cat "$sp_f_.args")
$sp_why_
"
	done
	if [ -z "$sp_bad_" ]; then
		sp_pass "the $sp_n_ JSON outputs of sparkperf-ctl hold to its vocabulary"
	else
		sp_fail "the $sp_n_ JSON outputs of sparkperf-ctl hold to its vocabulary" "$sp_bad_"
	fi
	rm -rf "$SP_JSON_DIR"
}

sp_diag() { printf '# %s\n' "$*"; }

sp_pass() {
	SP_N=$((SP_N + 1))
	SP_PASSED=$((SP_PASSED + 1))
	printf 'ok %d - %s\n' "$SP_N" "$1"
}

sp_fail() {
	sp_desc_=$1
	shift
	SP_N=$((SP_N + 1))
	SP_FAILED=$((SP_FAILED + 1))
	printf 'not ok %d - %s\n' "$SP_N" "$sp_desc_"
	[ $# -eq 0 ] || printf '%s\n' "$*" | sed 's/^/#   /'
	return 0
}

sp_skip() {
	SP_N=$((SP_N + 1))
	SP_PASSED=$((SP_PASSED + 1))
	printf 'ok %d - %s # SKIP %s\n' "$SP_N" "$1" "${2:-}"
}

sp_ok() {
	sp_rc_=$?
	if [ "$sp_rc_" -eq 0 ]; then
		sp_pass "$1"
	else
		sp_fail "$1" "exit status $sp_rc_"
	fi
	return "$sp_rc_"
}

sp_test() {
	sp_desc_=$1
	shift
	sp_out_=$("$@" 2>&1)
	sp_rc_=$?
	if [ "$sp_rc_" -eq 0 ]; then
		sp_pass "$sp_desc_"
	else
		sp_fail "$sp_desc_" "\$ $* (exit $sp_rc_)
$sp_out_"
	fi
	return "$sp_rc_"
}

sp_plan_done() {
	sp_json_vocabulary
	printf '1..%d\n' "$SP_N"
	printf '%d passed, %d failed\n' "$SP_PASSED" "$SP_FAILED"
	[ "$SP_FAILED" -eq 0 ]
}

# CMD runs from a copy that nobody can reach: a tree cloned under /root
# (mode 0700) is out of its reach.
sp_as_nobody() (
	prog=$(PATH=$SP_PATH_TOOLS command -v "$1") || exit 127
	dir=$(mktemp -d)
	cp "$prog" "$dir/"
	chmod 0755 "$dir" "$dir/${prog##*/}"
	shift
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		--bounding-set=-all -- "$dir/${prog##*/}" "$@"
	rc=$?
	rm -rf "$dir"
	exit "$rc"
)

SP_CHECKS=${TMPDIR:-/tmp}/sp-checks.$$

sp_check() {
	printf '%s\n%s\n%s\n' "$1" "$2" "$(echo "$3" | tr '\n\t' '  ')" \
		>>"$SP_CHECKS"
}

sp_checks() {
	sp_prog_=$(awk 'NR % 3 == 1 { n = $0 } NR % 3 == 0 {
		printf "%s(try (.[%d] | %s) catch false) == true",
		       (NR > 3 ? ", " : "["), n - 1, $0 }
		END { print "] | .[]" }' "$SP_CHECKS")
	jq -s "$sp_prog_" "$1" >"$SP_CHECKS.results" 2>&1
	while read -r sp_n_ && read -r sp_desc_ && read -r sp_filter_; do
		read -r sp_result_ <&3
		if [ "$sp_result_" = true ]; then
			sp_pass "$sp_desc_"
		else
			sp_fail "$sp_desc_" "line $sp_n_: $(sed -n "${sp_n_}p" "$1")
filter: $sp_filter_"
		fi
	done <"$SP_CHECKS" 3<"$SP_CHECKS.results"
	rm -f "$SP_CHECKS" "$SP_CHECKS.results"
}

# sp_one_error STATUS PATTERN CMD...: CMD exits with STATUS (an extended
# regex over the number, such as "1|2") and says why in exactly one line
# on stderr that matches PATTERN; that line is shown and CMD's stdout is
# left in $sp_out_.
sp_one_error() {
	sp_status_=$1 sp_pat_=$2
	shift 2
	sp_out_=$("$@" 2>"$SP_CHECKS.err")
	sp_rc_=$?
	cat "$SP_CHECKS.err"
	echo "$sp_rc_" | grep -qxE "$sp_status_" &&
		[ "$(wc -l <"$SP_CHECKS.err")" -eq 1 ] &&
		grep -q -- "$sp_pat_" "$SP_CHECKS.err"
}

# Whether timing goals are judged here: a wall-clock bound, a link busy
# enough to fill every interval. Not on the debug kernel (make
# debug-check), whose checkers under emulation slow soft-RoCE some forty
# times; what it judges is the kernel's reports.
sp_timing_judged() {
	case $(uname -r) in
	*-spdebug-*) echo "# timing not judged on the debug kernel $(uname -r)"; return 1 ;;
	esac
}

# TIMEOUT is for the stock kernels: times SP_TIME_SCALE (run-tests), as the
# tests' own limits are, where emulation or debug checkers slow the guest.
sp_wait_for() {
	sp_end_=$(($(date +%s%N) / 1000000 + ${2:-10} * ${SP_TIME_SCALE:-1} * 1000))
	until eval "$1" >/dev/null 2>&1; do
		[ "$(($(date +%s%N) / 1000000))" -lt "$sp_end_" ] || return 1
		sleep "${3:-0.2}"
	done
}

# Per RoCE v2 data packet on the wire (without FCS): Ethernet 14, IPv4 20,
# UDP 8, BTH 12, ICRC 4; the first packet of a WRITE adds a RETH (16), READ
# responses an AETH (4). The RoCE path MTU of a 9000-byte netdev is 4096.
SP_ROCE_HDR_MIN=58
SP_ROCE_HDR_MAX=78
SP_ROCE_PMTU=4096

# sp_roce_bytes_ok MOVED PAYLOAD PKTS EXTRA: whether MOVED bytes on the
# netdev carried PAYLOAD bytes in PKTS data packets: at least the payload
# plus minimal headers; at most plus maximal headers, a full packet for
# each of EXTRA packets soft-RoCE counted beyond PKTS (retransmissions),
# and 64 KiB of other traffic (connection set-up, ACKs, ARP).
sp_roce_bytes_ok() {
	[ "$1" -ge $(($2 + $3 * SP_ROCE_HDR_MIN)) ] &&
	[ "$1" -le $(($2 + $3 * SP_ROCE_HDR_MAX + \
		$4 * (SP_ROCE_PMTU + SP_ROCE_HDR_MAX) + 65536)) ]
}

sp_is_pair() { [ "${SP_VM_ROLE:-single}" != single ]; }
sp_is_a() { [ "${SP_VM_ROLE:-}" = a ]; }
sp_is_b() { [ "${SP_VM_ROLE:-}" = b ]; }

# Each VM creates SP_SHARED/.barrier-TEST-NAME-<vm>, then waits for every
# other VM's. 9p reads go to the host each time, so each VM sees the
# others' files. The files outlive the test, so they are named after it: a
# later test's barrier of the same name must not find them and pass at once.
sp_barrier() {
	sp_is_pair || return 0
	sp_bar_=$SP_SHARED/.barrier-$(basename "$0" .sh)-$1
	if [ -e "$sp_bar_-$SP_VM_NAME" ]; then
		sp_diag "barrier '$1' reached twice in $(basename "$0")"
		return 1
	fi
	: >"$sp_bar_-$SP_VM_NAME" || return 1
	sp_cond_=: sp_late_=
	for sp_peer_ in $SP_VM_HOSTS; do
		[ "$sp_peer_" != "$SP_VM_NAME" ] || continue
		sp_cond_="$sp_cond_ && { [ -e '$sp_bar_-$sp_peer_' ] || [ -e '$SP_SHARED/.spvm-exited-$sp_peer_' ]; }"
	done
	sp_wait_for "$sp_cond_" "${2:-120}" "${3:-0.2}"
	for sp_peer_ in $SP_VM_HOSTS; do
		[ "$sp_peer_" = "$SP_VM_NAME" ] || [ -e "$sp_bar_-$sp_peer_" ] ||
			sp_late_="$sp_late_ $sp_peer_"
	done
	if [ -n "$sp_late_" ]; then
		sp_diag "barrier '$1':$sp_late_ did not arrive within ${2:-120}s (or its VM stopped)"
		return 1
	fi
}

# sshd and Open MPI in an N-VM boot, as users have them: root's sshd on the
# management link with a host key of its own and one key pair for the run
# (spark1 makes it, the others take it from SP_SHARED), both in this VM's
# tmpfs (the root is read-only); ssh with that identity and no host key
# checks through its own config, which Open MPI's ssh launch takes
# (plm_rsh_args: sparkperf-ctl matrix names the agent itself); Open MPI's
# own traffic (its daemons' and the ranks' messages) over TCP on the
# management link, not over the halves under test. mpirun still needs
# --allow-run-as-root. Returns 1 when something failed, saying what.
sp_mpi_setup() {
	sp_ssh_=/run/sparkperf-ssh
	mkdir -p /run/sshd "$sp_ssh_" && chmod 0700 "$sp_ssh_" || return 1
	if sp_is_a; then
		ssh-keygen -q -t ed25519 -N '' -C "root@sparkperf-vm" -f "$sp_ssh_/id_ed25519" &&
			cp "$sp_ssh_/id_ed25519" "$SP_SHARED/ssh-id.tmp" &&
			mv "$SP_SHARED/ssh-id.tmp" "$SP_SHARED/ssh-id" || return 1
	elif sp_wait_for "[ -e '$SP_SHARED/ssh-id' ]" 120; then
		cp "$SP_SHARED/ssh-id" "$sp_ssh_/id_ed25519" && chmod 0600 "$sp_ssh_/id_ed25519" &&
			ssh-keygen -y -f "$sp_ssh_/id_ed25519" >"$sp_ssh_/id_ed25519.pub" || return 1
	else
		sp_diag "no key pair from spark1 in $SP_SHARED"
		return 1
	fi
	cp "$sp_ssh_/id_ed25519.pub" "$sp_ssh_/authorized_keys" &&
		ssh-keygen -q -t ed25519 -N '' -f "$sp_ssh_/host_ed25519" || return 1
	cat >"$sp_ssh_/sshd_config" <<-EOF
	ListenAddress $SP_VM_MGMT_ADDR
	HostKey $sp_ssh_/host_ed25519
	AuthorizedKeysFile $sp_ssh_/authorized_keys
	PidFile $sp_ssh_/sshd.pid
	PermitRootLogin prohibit-password
	# the guest's /run is world-writable (tmpfs 1777), which StrictModes refuses
	StrictModes no
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	UseDNS no
	PrintMotd no
	EOF
	cat >"$sp_ssh_/ssh_config" <<-EOF
	Host *
	  User root
	  IdentityFile $sp_ssh_/id_ed25519
	  IdentitiesOnly yes
	  StrictHostKeyChecking no
	  UserKnownHostsFile /dev/null
	  GlobalKnownHostsFile /dev/null
	  LogLevel ERROR
	EOF
	/usr/sbin/sshd -f "$sp_ssh_/sshd_config" || return 1
	export OMPI_MCA_plm_rsh_args="-F $sp_ssh_/ssh_config"
	export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp
	export OMPI_MCA_btl_tcp_if_include="$SP_VM_MGMT_NETDEV"
	export OMPI_MCA_oob_tcp_if_include="$SP_VM_MGMT_NETDEV"
}

# sp_ssh HOST CMD...: ssh as Open MPI runs it once sp_mpi_setup is done.
sp_ssh() { ssh -F /run/sparkperf-ssh/ssh_config "$@"; }
