// SPDX-License-Identifier: GPL-2.0
/* The knob table, the profiles, and the pure value helpers the planner uses. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const profile_names[SP_PROFILE_COUNT] = {
	[SP_PROFILE_THROUGHPUT] = "throughput",
	[SP_PROFILE_LATENCY] = "latency",
};

const char *sp_profile_name(enum sp_profile p)
{
	return sp_enum_str(profile_names, SP_PROFILE_COUNT, p, "unknown");
}

int sp_parse_profile(const char *s, enum sp_profile *p)
{
	unsigned int v;
	int ret = sp_enum_parse(profile_names, SP_PROFILE_COUNT, s, &v);

	if (!ret)
		*p = (enum sp_profile)v;
	return ret;
}

/* ---- the knob table ------------------------------------------------------- */

#define BOTH(v) { v, v }
#define THROUGHPUT(v) { v, NULL }
#define LATENCY(v) { NULL, v }

/*
 * Start values from the research notes (docs/research/counters_tuning_switch.md
 * 2.1 and 5.3): measure, keep what helps. Sysctls with SP_CMP_AT_LEAST only
 * ever raise a value, so a host tuned further than this keeps its tuning.
 */
const struct sp_knob_spec sp_knob_specs[] = {
	{ SP_KNOB_SYSCTL, "net.core.rmem_max", SP_CMP_AT_LEAST, THROUGHPUT("67108864"), NULL,
	  false, SP_SEV_WARN,
	  "Largest receive buffer a socket may ask for: 64 MiB is well above the "
	  "bandwidth-delay product of a 200 Gbit/s flow (iperf3, NCCL sockets, NFS), "
	  "over twice it even at 1 ms; the 512 MiB of the catharsis.net.au Spark "
	  "benchmark would only let one socket hold more of the memory the GPU shares, "
	  "for a tuning that gained it 2% (a larger value is kept)" },
	{ SP_KNOB_SYSCTL, "net.core.wmem_max", SP_CMP_AT_LEAST, THROUGHPUT("67108864"), NULL,
	  false, SP_SEV_WARN,
	  "Largest send buffer a socket may ask for, 64 MiB as for the receive side "
	  "(not the 512 MiB of the catharsis.net.au Spark benchmark)" },
	{ SP_KNOB_SYSCTL, "net.ipv4.tcp_rmem", SP_CMP_AT_LEAST,
	  THROUGHPUT("4096 87380 67108864"), NULL, false, SP_SEV_WARN,
	  "TCP receive autotuning may grow a socket to 64 MiB, so that one stream "
	  "can fill a 100 Gbit/s half-port; the 128 MiB of the catharsis.net.au Spark "
	  "benchmark is five times its own 25 MB bandwidth-delay product" },
	{ SP_KNOB_SYSCTL, "net.ipv4.tcp_wmem", SP_CMP_AT_LEAST,
	  THROUGHPUT("4096 65536 67108864"), NULL, false, SP_SEV_WARN,
	  "TCP send autotuning, 64 MiB as for the receive side (not the 128 MiB of "
	  "the catharsis.net.au Spark benchmark)" },
	{ SP_KNOB_SYSCTL, "net.core.netdev_max_backlog", SP_CMP_AT_LEAST,
	  THROUGHPUT("250000"), NULL, false, SP_SEV_WARN,
	  "Packets queued per CPU before the stack drops them: room for 200 Gbit/s "
	  "bursts, the value of NVIDIA's mlnx-tools sysctl_perf_tuning for ConnectX "
	  "(the catharsis.net.au Spark benchmark's 300000 was not measured against it)" },
	{ SP_KNOB_SYSCTL, "net.core.busy_read", SP_CMP_AT_LEAST, LATENCY("50"), NULL,
	  false, SP_SEV_WARN,
	  "Socket reads busy-poll the NIC queue for 50 us before sleeping "
	  "(tuned network-latency)" },
	{ SP_KNOB_SYSCTL, "net.core.busy_poll", SP_CMP_AT_LEAST, LATENCY("50"), NULL,
	  false, SP_SEV_WARN,
	  "poll() and select() busy-poll for 50 us (tuned network-latency)" },
	{ SP_KNOB_SYSCTL, "kernel.numa_balancing", SP_CMP_EQUAL, LATENCY("0"), NULL,
	  false, SP_SEV_WARN,
	  "No automatic NUMA page migration under a running measurement "
	  "(tuned network-latency)" },
	{ SP_KNOB_SYSCTL, "net.ipv4.conf.all.arp_ignore", SP_CMP_ONE_OF, BOTH("1"), "1 2",
	  true, SP_SEV_FAIL,
	  "Answer ARP only on the netdev that owns the address, so that each RoCE "
	  "netdev keeps its own MAC in the peer's neighbour table" },
	{ SP_KNOB_SYSCTL, "net.ipv4.conf.all.arp_announce", SP_CMP_EQUAL, BOTH("2"), NULL,
	  true, SP_SEV_FAIL,
	  "ARP requests carry the outgoing netdev's own address, never one of "
	  "another netdev on the same subnet" },
	{ SP_KNOB_SYSCTL, "net.ipv4.conf.all.rp_filter", SP_CMP_ONE_OF, BOTH("2"), "2 0",
	  true, SP_SEV_FAIL,
	  "Loose reverse-path filter: strict mode (1) silently drops RoCE v2 packets "
	  "that arrive on the other netdev of the subnet" },
	{ SP_KNOB_MTU, "mtu", SP_CMP_EQUAL, BOTH("9000"), NULL, false, SP_SEV_WARN,
	  "Jumbo frames: RoCE MTU 4096 instead of 1024 and fewer packets per byte; "
	  "both ends and every switch port on the path must carry them" },
	{ SP_KNOB_ROCE_MTU, "roce-mtu", SP_CMP_AT_LEAST, BOTH("4096"), NULL, false,
	  SP_SEV_WARN,
	  "Follows the netdev MTU: the largest of 256..4096 bytes that fits in the "
	  "MTU less 96 bytes of RoCE v2 headers, 4096 from MTU 4192 up" },
	{ SP_KNOB_GOVERNOR, "governor", SP_CMP_EQUAL, BOTH("performance"), NULL, false,
	  SP_SEV_WARN,
	  "CPUs at full clock: no frequency ramp-up in the middle of a measurement "
	  "(mlnx_tune HIGH_THROUGHPUT, tuned)" },
	{ SP_KNOB_IRQ, "irq", SP_CMP_CPUS, BOTH(NULL), NULL, false, SP_SEV_WARN,
	  "The NIC's interrupts on the CPUs given with irq (irqbalance may move "
	  "them again: stop it to keep them)" },
	{ SP_KNOB_ROCE_TOS, "roce-tos", SP_CMP_EQUAL, BOTH("106"), NULL, false,
	  SP_SEV_WARN,
	  "Type of service of rdma_cm connections: DSCP 26 (priority 3 by the "
	  "default DSCP map) with ECN capable transport, as NCCL_IB_TC=106" },
	{ SP_KNOB_DSCP, "dscp-prio", SP_CMP_SUPERSET, BOTH("26:3 48:6"), NULL, false,
	  SP_SEV_WARN,
	  "Trust DSCP: RoCE (DSCP 26) on priority 3, congestion notifications "
	  "(DSCP 48) on 6; on mlx5 the first DSCP entry switches the port to DSCP trust" },
	{ SP_KNOB_PFC, "pfc", SP_CMP_EQUAL, BOTH(NULL), NULL, false, SP_SEV_WARN,
	  "Pause frames on the priorities given with pfc: only where the switch "
	  "(or the peer, back to back) does PFC on them too" },
	{ SP_KNOB_MEMLOCK, "memlock", SP_CMP_EQUAL, BOTH("unlimited"), NULL, false,
	  SP_SEV_WARN,
	  "RDMA pins the memory it registers: without a memlock limit, programs of "
	  "other users than root (ib_write_bw, NCCL) register what they need" },
	{ SP_KNOB_SYSCTL_CONF, "sysctl.d", SP_CMP_EQUAL, BOTH("written"), NULL, false,
	  SP_SEV_WARN, "The sysctls above at every boot (persist)" },
	{ SP_KNOB_NETPLAN, "netplan", SP_CMP_EQUAL, BOTH("written"), NULL, false,
	  SP_SEV_WARN, "The MTUs above at every boot, merged by netplan (persist)" },
};

const size_t sp_knob_n_specs = ARRAY_SIZE(sp_knob_specs);

const struct sp_knob_spec *sp_knob_spec_of(enum sp_knob_kind kind)
{
	size_t i;

	for (i = 0; i < sp_knob_n_specs; i++)
		if (sp_knob_specs[i].kind == kind)
			return &sp_knob_specs[i];
	return NULL;
}

/* ---- value helpers ---------------------------------------------------------- */

/* The blank-separated words of s, at most max of them, into words[]; their count. */
static size_t split_words(const char *s, char words[][32], size_t max)
{
	size_t n = 0, len;

	while (*s) {
		s += strspn(s, " \t\n");
		len = strcspn(s, " \t\n");
		if (!len)
			break;
		if (n < max)
			snprintf(words[n], sizeof(words[n]), "%.*s", (int)len, s);
		n++;
		s += len;
	}
	return n;
}

#define MAX_WORDS 8

static bool numbers_at_least(const char *recommended, const char *current)
{
	char want[MAX_WORDS][32], have[MAX_WORDS][32];
	size_t nw = split_words(recommended, want, MAX_WORDS);
	size_t nh = split_words(current, have, MAX_WORDS);
	uint64_t w, h;
	size_t i;

	if (nw != nh || nw > MAX_WORDS)
		return false;
	for (i = 0; i < nw; i++) {
		if (sp_parse_u64(want[i], 0, UINT64_MAX, &w) ||
		    sp_parse_u64(have[i], 0, UINT64_MAX, &h) || h < w)
			return false;
	}
	return true;
}

bool sp_knob_word_in(const char *word, const char *list)
{
	char words[MAX_WORDS][32];
	size_t n = split_words(list, words, MAX_WORDS), i;

	for (i = 0; i < n && i < MAX_WORDS; i++)
		if (!strcmp(word, words[i]))
			return true;
	return false;
}

static bool same_cpus(const char *a, const char *b)
{
	struct sp_cpuset sa, sb;

	return !sp_parse_cpulist(a, &sa) && !sp_parse_cpulist(b, &sb) &&
	       !memcmp(&sa, &sb, sizeof(sa));
}

static bool dscp_superset(const char *recommended, const char *current)
{
	struct sp_dscp_map want, have;
	size_t i;

	if (sp_dscp_map_parse(recommended, &want) || sp_dscp_map_parse(current, &have))
		return false;
	for (i = 0; i < SP_DSCP_COUNT; i++)
		if (want.has[i] && (!have.has[i] || have.prio[i] != want.prio[i]))
			return false;
	return true;
}

bool sp_knob_satisfied(enum sp_knob_cmp cmp, const char *accept, const char *recommended,
		       const char *current)
{
	char word[32];

	if (!current || !recommended)
		return false;
	switch (cmp) {
	case SP_CMP_EQUAL:
		return !strcmp(current, recommended);
	case SP_CMP_AT_LEAST:
		return numbers_at_least(recommended, current);
	case SP_CMP_ONE_OF:
		snprintf(word, sizeof(word), "%s", current);
		return strlen(current) < sizeof(word) && sp_knob_word_in(word, accept ? accept : recommended);
	case SP_CMP_CPUS:
		return same_cpus(recommended, current);
	case SP_CMP_SUPERSET:
		return dscp_superset(recommended, current);
	}
	return false;
}

/* Each number the larger of the two; the recommended value if they do not pair up. */
static char *numbers_max(const char *recommended, const char *current)
{
	char want[MAX_WORDS][32], have[MAX_WORDS][32];
	size_t nw = split_words(recommended, want, MAX_WORDS);
	size_t nh = split_words(current, have, MAX_WORDS), i, len = 0;
	char buf[MAX_WORDS * 24];
	uint64_t w, h;

	if (nw != nh || nw > MAX_WORDS)
		return strdup(recommended);
	buf[0] = '\0';
	for (i = 0; i < nw; i++) {
		if (sp_parse_u64(want[i], 0, UINT64_MAX, &w))
			return strdup(recommended);
		if (sp_parse_u64(have[i], 0, UINT64_MAX, &h) || h < w)
			h = w;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%" PRIu64,
					i ? " " : "", h);
	}
	return strdup(buf);
}

static char *dscp_union(const char *recommended, const char *current)
{
	struct sp_dscp_map want, have;
	size_t i;

	if (sp_dscp_map_parse(recommended, &want))
		return strdup(recommended);
	if (sp_dscp_map_parse(current, &have))
		memset(&have, 0, sizeof(have));
	for (i = 0; i < SP_DSCP_COUNT; i++) {
		if (want.has[i]) {
			have.has[i] = true;
			have.prio[i] = want.prio[i];
		}
	}
	return sp_dscp_map_format(&have);
}

char *sp_knob_target(enum sp_knob_cmp cmp, const char *recommended, const char *current)
{
	if (current && cmp == SP_CMP_AT_LEAST)
		return numbers_max(recommended, current);
	if (current && cmp == SP_CMP_SUPERSET)
		return dscp_union(recommended, current);
	return strdup(recommended);
}

uint32_t sp_roce_mtu_for(uint32_t netdev_mtu)
{
	/* GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4 (include/rdma/ib_addr.h) */
	const uint32_t headers = 96;
	uint32_t roce;

	if (netdev_mtu < headers + 256)
		return 0;
	for (roce = 4096; roce > netdev_mtu - headers; roce /= 2)
		;
	return roce;
}

int sp_dscp_map_parse(const char *s, struct sp_dscp_map *m)
{
	char words[SP_DSCP_COUNT + 1][32];
	size_t n = split_words(s, words, SP_DSCP_COUNT + 1), i;

	memset(m, 0, sizeof(*m));
	if (n > SP_DSCP_COUNT)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		char *colon = strchr(words[i], ':');
		uint32_t dscp, prio;

		if (!colon)
			return -EINVAL;
		*colon = '\0';
		if (sp_parse_u32(words[i], 0, SP_DSCP_COUNT - 1, &dscp) ||
		    sp_parse_u32(colon + 1, 0, 7, &prio) || m->has[dscp])
			return -EINVAL;
		m->has[dscp] = true;
		m->prio[dscp] = (uint8_t)prio;
	}
	return 0;
}

char *sp_dscp_map_format(const struct sp_dscp_map *m)
{
	char buf[SP_DSCP_COUNT * 6 + 1];
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < SP_DSCP_COUNT; i++)
		if (m->has[i])
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%zu:%u",
						len ? " " : "", i, m->prio[i]);
	return strdup(buf);
}

void sp_dscp_map_diff(const struct sp_dscp_map *from, const struct sp_dscp_map *to,
		      struct sp_dscp_map *del, struct sp_dscp_map *add)
{
	size_t i;

	memset(del, 0, sizeof(*del));
	memset(add, 0, sizeof(*add));
	for (i = 0; i < SP_DSCP_COUNT; i++) {
		bool same = from->has[i] && to->has[i] && from->prio[i] == to->prio[i];

		if (from->has[i] && !same) {
			del->has[i] = true;
			del->prio[i] = from->prio[i];
		}
		if (to->has[i] && !same) {
			add->has[i] = true;
			add->prio[i] = to->prio[i];
		}
	}
}

size_t sp_dscp_map_count(const struct sp_dscp_map *m)
{
	size_t i, n = 0;

	for (i = 0; i < SP_DSCP_COUNT; i++)
		n += m->has[i];
	return n;
}

int sp_pfc_parse(const char *s, uint8_t *mask)
{
	struct sp_list list;
	uint32_t prio;
	size_t i;
	int ret;

	*mask = 0;
	if (s && !strcmp(s, "none"))
		return 0;
	ret = sp_parse_list(s, &list);
	if (ret)
		return ret;
	for (i = 0; i < list.n && !ret; i++) {
		if (sp_parse_u32(list.items[i], 0, 7, &prio) || (*mask & (1u << prio)))
			ret = -EINVAL;
		else
			*mask |= (uint8_t)(1u << prio);
	}
	sp_list_free(&list);
	return ret;
}

void sp_pfc_format(uint8_t mask, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int p;

	if (!mask) {
		snprintf(buf, len, "none");
		return;
	}
	buf[0] = '\0';
	for (p = 0; p < 8 && used < len; p++)
		if (mask & (1u << p))
			used += (size_t)snprintf(buf + used, len - used, "%s%u",
						 used ? "," : "", p);
}
