// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "knobs.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const profile_names[SP_PROFILE_COUNT] = {
	[SP_PROFILE_THROUGHPUT] = "throughput",
	[SP_PROFILE_LATENCY] = "latency",
};

const char *sp_profile_name(enum sp_profile p)
{
	return (unsigned int)p < SP_PROFILE_COUNT ? profile_names[p] : "unknown";
}

int sp_parse_profile(const char *s, enum sp_profile *p)
{
	size_t i;

	for (i = 0; s && i < SP_PROFILE_COUNT; i++) {
		if (!strcmp(s, profile_names[i])) {
			*p = (enum sp_profile)i;
			return 0;
		}
	}
	return -EINVAL;
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
	  "bandwidth-delay product of a 200 Gbit/s flow (iperf3, NCCL sockets, NFS)" },
	{ SP_KNOB_SYSCTL, "net.core.wmem_max", SP_CMP_AT_LEAST, THROUGHPUT("67108864"), NULL,
	  false, SP_SEV_WARN,
	  "Largest send buffer a socket may ask for, as for the receive side" },
	{ SP_KNOB_SYSCTL, "net.ipv4.tcp_rmem", SP_CMP_AT_LEAST,
	  THROUGHPUT("4096 87380 67108864"), NULL, false, SP_SEV_WARN,
	  "TCP receive autotuning may grow a socket to 64 MiB, so that one stream "
	  "can fill a 100 Gbit/s half-port" },
	{ SP_KNOB_SYSCTL, "net.ipv4.tcp_wmem", SP_CMP_AT_LEAST,
	  THROUGHPUT("4096 65536 67108864"), NULL, false, SP_SEV_WARN,
	  "TCP send autotuning, as for the receive side" },
	{ SP_KNOB_SYSCTL, "net.core.netdev_max_backlog", SP_CMP_AT_LEAST,
	  THROUGHPUT("250000"), NULL, false, SP_SEV_WARN,
	  "Packets queued per CPU before the stack drops them: room for 200 Gbit/s "
	  "bursts (mlnx-tools sysctl_perf_tuning)" },
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

#define MEMLOCK_CONF "/etc/security/limits.d/90-sparkperf.conf"
#define SYSCTL_CONF "/etc/sysctl.d/90-sparkperf.conf"
#define NETPLAN_DIR "/etc/netplan"
#define NETPLAN_CONF NETPLAN_DIR "/90-sparkperf.yaml"
#define RDMA_CM_CONFIGFS "/sys/kernel/config/rdma_cm"
#define CPUFREQ_DIR "/sys/devices/system/cpu/cpufreq"

static const char memlock_conf[] =
	"# Written by sparkperf-ctl tune apply, removed by sparkperf-ctl tune revert.\n"
	"# RDMA pins the memory it registers: no limit for any user (new sessions).\n"
	"*\tsoft\tmemlock\tunlimited\n"
	"*\thard\tmemlock\tunlimited\n";

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

static bool word_in(const char *word, const char *list)
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
		return strlen(current) < sizeof(word) && word_in(word, accept ? accept : recommended);
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

/* ---- the file operations ------------------------------------------------------ */

/* root + path; -ENAMETOOLONG */
static int full_path(const struct sp_knob_io *io, const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", io->root, path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int files_read(struct sp_knob_io *io, const char *path, char **data, unsigned int *mode)
{
	char full[4096], chunk[4096];
	size_t len = 0;
	struct stat st;
	char *buf = NULL;
	FILE *m;
	ssize_t got;
	int fd, ret;

	*data = NULL;
	ret = full_path(io, path, full, sizeof(full));
	if (ret)
		return ret;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	m = open_memstream(&buf, &len);
	if (!m) {
		close(fd);
		return -ENOMEM;
	}
	/* procfs and sysfs report a size of 4096 or 0: read to the end */
	while ((got = read(fd, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)got, m);
	ret = got < 0 ? -errno : 0;
	close(fd);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(buf);
		return ret;
	}
	*data = buf;
	if (mode)
		*mode = st.st_mode & 07777;
	return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, data, len);
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A new file beside the old one, renamed over it: readers see one or the other. */
static int replace_file(const char *full, const char *data, unsigned int mode)
{
	char tmp[4096 + 16];
	int fd, ret;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.spXXXXXX", full) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, data, strlen(data));
	if (!ret && fchmod(fd, mode))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, full))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int files_write(struct sp_knob_io *io, const char *path, const char *data, bool replace,
		       unsigned int mode)
{
	char full[4096];
	ssize_t n;
	int fd, ret;

	ret = full_path(io, path, full, sizeof(full));
	if (ret)
		return ret;
	if (replace)
		return replace_file(full, data, mode);
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one write(2): procfs and sysfs take a value from one call */
	n = write(fd, data, strlen(data));
	ret = n < 0 ? -errno : (size_t)n != strlen(data) ? -EIO : 0;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int files_remove(struct sp_knob_io *io, const char *path)
{
	char full[4096];
	int ret = full_path(io, path, full, sizeof(full));

	if (ret)
		return ret;
	return unlink(full) && errno != ENOENT ? -errno : 0;
}

static int files_mkdir(struct sp_knob_io *io, const char *path)
{
	char full[4096];
	int ret = full_path(io, path, full, sizeof(full));

	if (ret)
		return ret;
	return mkdir(full, 0755) ? -errno : 0;
}

static int files_rmdir(struct sp_knob_io *io, const char *path)
{
	char full[4096];
	int ret = full_path(io, path, full, sizeof(full));

	if (ret)
		return ret;
	return rmdir(full) ? -errno : 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static int files_list(struct sp_knob_io *io, const char *path, char ***names, size_t *n)
{
	char full[4096], **v = NULL, **grown;
	size_t cap = 0, count = 0;
	struct dirent *e;
	DIR *d;
	int ret = full_path(io, path, full, sizeof(full));

	*names = NULL;
	*n = 0;
	if (ret)
		return ret;
	d = opendir(full);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			v = grown;
		}
		v[count] = strdup(e->d_name);
		if (!v[count]) {
			ret = -ENOMEM;
			break;
		}
		count++;
	}
	closedir(d);
	if (ret) {
		free_names(v, count);
		return ret;
	}
	if (count)
		qsort(v, count, sizeof(*v), cmp_names);
	*names = v;
	*n = count;
	return 0;
}

void sp_knob_io_files(struct sp_knob_io *io, const char *root)
{
	memset(io, 0, sizeof(*io));
	io->root = root ? root : "";
	io->read = files_read;
	io->write = files_write;
	io->remove = files_remove;
	io->mkdir = files_mkdir;
	io->rmdir = files_rmdir;
	io->list = files_list;
}

int sp_io_read_line(struct sp_knob_io *io, const char *path, char **value)
{
	size_t len;
	int ret = io->read(io, path, value, NULL);

	if (ret)
		return ret;
	len = strlen(*value);
	if (len && (*value)[len - 1] == '\n')
		(*value)[len - 1] = '\0';
	return 0;
}

static bool io_is_dir(struct sp_knob_io *io, const char *path)
{
	char **names;
	size_t n;

	if (io->list(io, path, &names, &n))
		return false;
	free_names(names, n);
	return true;
}

/* ---- changes ----------------------------------------------------------------- */

static const char *const access_names[] = {
	[SP_ACCESS_LINE] = "line",
	[SP_ACCESS_CONFIGFS] = "configfs",
	[SP_ACCESS_FILE] = "file",
	[SP_ACCESS_DSCP] = "dscp",
	[SP_ACCESS_PFC] = "pfc",
};

const char *sp_access_name(enum sp_access a)
{
	return (size_t)a < ARRAY_SIZE(access_names) ? access_names[a] : "unknown";
}

int sp_parse_access(const char *s, enum sp_access *a)
{
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(access_names); i++) {
		if (!strcmp(s, access_names[i])) {
			*a = (enum sp_access)i;
			return 0;
		}
	}
	return -EINVAL;
}

void sp_change_free(struct sp_change *c)
{
	free(c->before);
	free(c->after);
	c->before = NULL;
	c->after = NULL;
}

int sp_change_copy(struct sp_change *dst, const struct sp_change *src)
{
	*dst = *src;
	dst->before = src->before ? strdup(src->before) : NULL;
	dst->after = src->after ? strdup(src->after) : NULL;
	if ((src->before && !dst->before) || (src->after && !dst->after)) {
		sp_change_free(dst);
		return -ENOMEM;
	}
	return 0;
}

static int write_line(struct sp_knob_io *io, const char *path, const char *value)
{
	char *line;
	int ret;

	if (asprintf(&line, "%s\n", value) < 0)
		return -ENOMEM;
	ret = io->write(io, path, line, false, 0);
	free(line);
	return ret;
}

/*
 * Writes one side of a change: the after value (apply) or the before value
 * (undo, revert). A failure leaves a "<where>: <reason>" line in msg.
 */
static int change_write(struct sp_knob_io *io, const struct sp_change *c, bool before,
			char *msg, size_t len)
{
	const char *v = before ? (c->has_before ? c->before : NULL) : c->after;
	const char *where = c->path;
	int ret = 0;

	io->msg[0] = '\0';
	switch (c->access) {
	case SP_ACCESS_LINE:
		ret = v ? write_line(io, c->path, v) : -EINVAL;
		break;
	case SP_ACCESS_CONFIGFS:
		if (!before && c->group_made) {
			ret = io->mkdir(io, c->group);
			if (ret == -EEXIST)
				ret = 0;
			if (ret) {
				where = c->group;
				break;
			}
		}
		ret = v ? write_line(io, c->path, v) : -EINVAL;
		/* the group goes with the value it was made for */
		if (c->group_made && (before || ret)) {
			int r = io->rmdir(io, c->group);

			if (!ret && r && r != -ENOENT) {
				ret = r;
				where = c->group;
			}
		}
		break;
	case SP_ACCESS_FILE:
		ret = v ? io->write(io, c->path, v, true, before ? c->before_mode : c->after_mode)
			: io->remove(io, c->path);
		break;
	case SP_ACCESS_DSCP:
	case SP_ACCESS_PFC:
		ret = io->dcb_write ? io->dcb_write(io, c->path, c->access, v ? v : "")
				    : -EOPNOTSUPP;
		break;
	}
	if (ret)
		snprintf(msg, len, "%s: %s", where, io->msg[0] ? io->msg : strerror(-ret));
	return ret;
}

int sp_changes_apply(struct sp_knob_io *io, const struct sp_change *ch, size_t n,
		     struct sp_apply_report *r)
{
	char msg[sizeof(r->undo_msg)];
	size_t i, j;
	int ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		ret = change_write(io, &ch[i], false, r->msg, sizeof(r->msg));
		if (!ret) {
			r->done++;
			continue;
		}
		r->failed = true;
		r->failed_at = i;
		r->error = ret;
		/* all or nothing: back to where apply started, last change first */
		for (j = i; j-- > 0;) {
			if (!change_write(io, &ch[j], true, msg, sizeof(msg)))
				continue;
			if (!r->undo_failures++) {
				r->undo_failed_at = j;
				snprintf(r->undo_msg, sizeof(r->undo_msg), "%s", msg);
			}
		}
		return ret;
	}
	return 0;
}

int sp_changes_revert(struct sp_knob_io *io, const struct sp_change *ch, size_t n,
		      struct sp_apply_report *r)
{
	char msg[sizeof(r->msg)];
	size_t j;
	int ret;

	memset(r, 0, sizeof(*r));
	for (j = n; j-- > 0;) {
		ret = change_write(io, &ch[j], true, msg, sizeof(msg));
		if (!ret) {
			r->done++;
		} else if (!r->failed) {
			r->failed = true;
			r->failed_at = j;
			r->error = ret;
			snprintf(r->msg, sizeof(r->msg), "%s", msg);
		}
	}
	return r->error;
}

/* ---- the plan ---------------------------------------------------------------- */

static struct sp_knob *plan_add(struct sp_plan *p, const struct sp_knob_spec *spec,
				const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static struct sp_knob *plan_add(struct sp_plan *p, const struct sp_knob_spec *spec,
				const char *fmt, ...)
{
	struct sp_knob *k;
	va_list ap;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct sp_knob *grown = realloc(p->knobs, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		p->knobs = grown;
		p->cap = cap;
	}
	k = &p->knobs[p->n++];
	memset(k, 0, sizeof(*k));
	k->spec = spec;
	va_start(ap, fmt);
	vsnprintf(k->ch.name, sizeof(k->ch.name), fmt, ap);
	va_end(ap);
	return k;
}

static void skip(struct sp_knob *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void skip(struct sp_knob *k, const char *fmt, ...)
{
	va_list ap;

	k->state = SP_KNOB_SKIP;
	va_start(ap, fmt);
	vsnprintf(k->note, sizeof(k->note), fmt, ap);
	va_end(ap);
}

/* Sets the recommended value and, from the current one, the state and target. */
static int decide(struct sp_knob *k, const char *recommended)
{
	const struct sp_knob_spec *s = k->spec;

	k->recommended = strdup(recommended);
	if (!k->recommended)
		return -ENOMEM;
	if (k->state == SP_KNOB_SKIP)
		return 0;
	if (k->ch.access == SP_ACCESS_FILE ? k->ch.has_before && !strcmp(k->ch.before, recommended)
	    : sp_knob_satisfied(s->cmp, s->accept, recommended, k->ch.before)) {
		k->state = SP_KNOB_OK;
		return 0;
	}
	k->state = SP_KNOB_CHANGE;
	k->ch.after = k->ch.access == SP_ACCESS_FILE ? strdup(recommended)
		      : sp_knob_target(s->cmp, recommended, k->ch.before);
	return k->ch.after ? 0 : -ENOMEM;
}

/* A one-line knob read from path: skipped with the reason when it cannot be read. */
static int line_knob(struct sp_knob_io *io, struct sp_knob *k, const char *path,
		     const char *recommended)
{
	int ret;

	k->ch.access = SP_ACCESS_LINE;
	snprintf(k->ch.path, sizeof(k->ch.path), "%s", path);
	snprintf(k->where, sizeof(k->where), "%s", path);
	ret = sp_io_read_line(io, path, &k->ch.before);
	if (ret == -ENOENT)
		skip(k, "absent (%s)", path);
	else if (ret == -ENOMEM)
		return ret;
	else if (ret)
		skip(k, "cannot read %s: %s", path, strerror(-ret));
	k->ch.has_before = !ret;
	return decide(k, recommended);
}

/* A whole file that may be absent, in a directory that must exist. */
static int file_knob(struct sp_knob_io *io, struct sp_knob *k, const char *dir, const char *path,
		     const char *content, unsigned int mode)
{
	int ret;

	k->ch.access = SP_ACCESS_FILE;
	k->ch.after_mode = mode;
	snprintf(k->ch.path, sizeof(k->ch.path), "%s", path);
	snprintf(k->where, sizeof(k->where), "%s", path);
	ret = io->read(io, path, &k->ch.before, &k->ch.before_mode);
	if (ret == -ENOMEM)
		return ret;
	if (ret && ret != -ENOENT)
		skip(k, "cannot read %s: %s", path, strerror(-ret));
	else if (ret && !io_is_dir(io, dir))
		skip(k, "no %s", dir);
	k->ch.has_before = !ret;
	return decide(k, content);
}

struct rdma_link {
	char rdma[SPARKPERF_DEV_NAME_MAX];
	char netdev[SP_IFNAME_MAX];
};

/* The netdev of each RDMA device's port 1 (RoCE), from sysfs: "rxe0" -> "eth0". */
static int rdma_links(struct sp_knob_io *io, struct rdma_link **out, size_t *n_out)
{
	char **devs, path[512], *nd;
	struct rdma_link *links;
	size_t n, i, count = 0;
	int ret;

	*out = NULL;
	*n_out = 0;
	ret = io->list(io, "/sys/class/infiniband", &devs, &n);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	links = calloc(n ? n : 1, sizeof(*links));
	if (!links) {
		free_names(devs, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/0",
			 devs[i]);
		if (sp_io_read_line(io, path, &nd))
			continue;	/* not RoCE, or no netdev */
		snprintf(links[count].rdma, sizeof(links[count].rdma), "%s", devs[i]);
		snprintf(links[count].netdev, sizeof(links[count].netdev), "%s", nd);
		count++;
		free(nd);
	}
	free_names(devs, n);
	*out = links;
	*n_out = count;
	return 0;
}

struct netdev {
	char name[SP_IFNAME_MAX];
	const char *mtu_target;		/* the MTU it ends up with; NULL: unknown */
};

struct plan_ctx {
	struct sp_knob_io *io;
	const struct sp_tune_opts *o;
	const struct sp_host_facts *f;
	struct sp_plan *p;
	struct netdev *netdevs;
	size_t n_netdevs;
	struct rdma_link *links;	/* only those on a managed netdev */
	size_t n_links;
	char *err;
	size_t err_len;
};

/* Once each, in the order first seen (c->netdevs has room for all). */
static void add_netdev(struct plan_ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n_netdevs; i++)
		if (!strcmp(c->netdevs[i].name, name))
			return;
	snprintf(c->netdevs[c->n_netdevs].name, SP_IFNAME_MAX, "%s", name);
	c->n_netdevs++;
}

/* The managed netdevs (named, or those of the RDMA ports) and their RDMA devices. */
static int find_netdevs(struct plan_ctx *c)
{
	struct rdma_link *links;
	size_t n_links, i, j, max;
	char path[128];
	int ret;

	ret = rdma_links(c->io, &links, &n_links);
	if (ret)
		return ret;
	max = c->o->devs ? c->o->n_devs : n_links;
	c->netdevs = calloc(max ? max : 1, sizeof(*c->netdevs));
	if (!c->netdevs) {
		free(links);
		return -ENOMEM;
	}
	for (i = 0; c->o->devs && i < c->o->n_devs; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s", c->o->devs[i]);
		if (!io_is_dir(c->io, path)) {
			snprintf(c->err, c->err_len, "dev %s: no such network device (%s)",
				 c->o->devs[i], path);
			free(links);
			return -ENODEV;
		}
		add_netdev(c, c->o->devs[i]);
	}
	for (i = 0; !c->o->devs && i < n_links; i++)
		add_netdev(c, links[i].netdev);
	/* keep the RDMA devices of the managed netdevs only */
	for (i = 0, j = 0; i < n_links; i++) {
		size_t k;

		for (k = 0; k < c->n_netdevs; k++)
			if (!strcmp(links[i].netdev, c->netdevs[k].name))
				links[j++] = links[i];
	}
	c->links = links;
	c->n_links = j;
	return 0;
}

static int plan_sysctl(struct plan_ctx *c, const struct sp_knob_spec *s, const char *value)
{
	struct sp_knob *k = plan_add(c->p, s, "%s", s->name);
	char path[256];
	size_t i, len;
	int ret;

	if (!k)
		return -ENOMEM;
	len = (size_t)snprintf(path, sizeof(path), "/proc/sys/%s", s->name);
	for (i = strlen("/proc/sys/"); i < len; i++)
		if (path[i] == '.')
			path[i] = '/';
	ret = line_knob(c->io, k, path, value);
	if (ret || !s->multi_nic || k->state == SP_KNOB_SKIP)
		return ret;
	if (c->f->shared_subnet) {
		snprintf(k->note, sizeof(k->note), "needed: %s", c->f->shared_what);
	} else {
		free(k->ch.after);
		k->ch.after = NULL;
		skip(k, "not needed: no two netdevs share an IPv4 subnet");
	}
	return ret;
}

static int plan_mtu(struct plan_ctx *c, const struct sp_knob_spec *s, const char *value)
{
	struct sp_knob *k;
	char path[128];
	size_t i;
	int ret;

	if (!c->n_netdevs) {
		k = plan_add(c->p, s, "mtu");
		if (!k)
			return -ENOMEM;
		skip(k, "no RDMA netdevs found: name them with dev");
		return decide(k, value);
	}
	for (i = 0; i < c->n_netdevs; i++) {
		k = plan_add(c->p, s, "mtu %s", c->netdevs[i].name);
		if (!k)
			return -ENOMEM;
		snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", c->netdevs[i].name);
		ret = line_knob(c->io, k, path, value);
		if (ret)
			return ret;
		if (k->state == SP_KNOB_CHANGE)
			c->netdevs[i].mtu_target = k->ch.after;
		else if (k->state == SP_KNOB_OK)
			c->netdevs[i].mtu_target = k->ch.before;
	}
	return 0;
}

static const struct netdev *netdev_of(const struct plan_ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n_netdevs; i++)
		if (!strcmp(c->netdevs[i].name, name))
			return &c->netdevs[i];
	return NULL;
}

/* Read-only rows: the RoCE MTU each RDMA device's port has, against what its MTU gives. */
static int plan_roce_mtu(struct plan_ctx *c, const struct sp_knob_spec *s)
{
	char rec[16], cur[16];
	size_t i, j;

	for (i = 0; i < c->n_links; i++) {
		const struct netdev *nd = netdev_of(c, c->links[i].netdev);
		struct sp_knob *k = plan_add(c->p, s, "roce-mtu %s", c->links[i].rdma);
		uint32_t mtu = 0;

		if (!k)
			return -ENOMEM;
		k->state = SP_KNOB_OBSERVED;
		snprintf(k->where, sizeof(k->where), "%s port 1 (follows mtu %s)",
			 c->links[i].rdma, c->links[i].netdev);
		if (nd && nd->mtu_target && !sp_parse_u32(nd->mtu_target, 0, UINT32_MAX, &mtu)) {
			snprintf(rec, sizeof(rec), "%u", sp_roce_mtu_for(mtu));
			k->recommended = strdup(rec);
			if (!k->recommended)
				return -ENOMEM;
		}
		if (!c->f->roce_known) {
			snprintf(k->note, sizeof(k->note), "unknown: %s",
				 c->f->roce_unknown ? c->f->roce_unknown : "not asked");
			continue;
		}
		for (j = 0; j < c->f->n_roce; j++) {
			const struct sp_roce_mtu *r = &c->f->roce[j];

			if (strcmp(r->dev, c->links[i].rdma) || r->port != 1)
				continue;
			snprintf(cur, sizeof(cur), "%u", r->active_mtu);
			k->ch.before = strdup(cur);
			if (!k->ch.before)
				return -ENOMEM;
			k->ch.has_before = true;
			k->as_expected = !k->recommended ||
					 sp_knob_satisfied(SP_CMP_AT_LEAST, NULL, k->recommended, cur);
		}
		if (!k->ch.has_before)
			snprintf(k->note, sizeof(k->note), "unknown: the module does not list %s",
				 c->links[i].rdma);
	}
	return 0;
}

static int plan_governor(struct plan_ctx *c, const struct sp_knob_spec *s, const char *value)
{
	char **names = NULL, path[256], avail_path[256], *avail;
	size_t n = 0, i, policies = 0;
	struct sp_knob *k;
	int listed, ret = 0;

	listed = c->io->list(c->io, CPUFREQ_DIR, &names, &n);
	for (i = 0; !listed && !ret && i < n; i++) {
		if (strncmp(names[i], "policy", 6))
			continue;
		policies++;
		k = plan_add(c->p, s, "governor %s", names[i]);
		if (!k) {
			ret = -ENOMEM;
			break;
		}
		snprintf(path, sizeof(path), CPUFREQ_DIR "/%s/scaling_governor", names[i]);
		snprintf(avail_path, sizeof(avail_path), CPUFREQ_DIR "/%s/scaling_available_governors",
			 names[i]);
		avail = NULL;
		/* without the list of available governors, writing it will tell */
		if (!sp_io_read_line(c->io, avail_path, &avail) && !word_in(value, avail)) {
			snprintf(k->where, sizeof(k->where), "%s", path);
			skip(k, "%s is not among the available governors (%s)", value, avail);
			ret = decide(k, value);
		} else {
			ret = line_knob(c->io, k, path, value);
		}
		free(avail);
	}
	free_names(names, n);
	if (ret || policies)
		return ret;
	k = plan_add(c->p, s, "governor");
	if (!k)
		return -ENOMEM;
	snprintf(k->where, sizeof(k->where), CPUFREQ_DIR);
	if (listed && listed != -ENOENT)
		skip(k, "cannot list %s: %s", CPUFREQ_DIR, strerror(-listed));
	else
		skip(k, "no cpufreq policies (%s): no frequency scaling here, as in a VM",
		     CPUFREQ_DIR);
	return decide(k, value);
}

/* The MSI IRQs of a netdev's device (a virtio netdev's are on its PCI parent). */
static int netdev_irqs(struct sp_knob_io *io, const char *dev, char ***irqs, size_t *n)
{
	static const char *const where[] = { "device/msi_irqs", "device/../msi_irqs" };
	char path[256];
	size_t i;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(where) && ret; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/%s", dev, where[i]);
		ret = io->list(io, path, irqs, n);
	}
	return ret;
}

static int plan_irq(struct plan_ctx *c, const struct sp_knob_spec *s)
{
	char **irqs, path[128];
	struct sp_knob *k;
	size_t n, i, j;
	int ret;

	for (i = 0; i < c->n_netdevs; i++) {
		ret = netdev_irqs(c->io, c->netdevs[i].name, &irqs, &n);
		if (ret == -ENOMEM)
			return ret;
		if (ret || !n) {
			k = plan_add(c->p, s, "irq %s", c->netdevs[i].name);
			if (!k)
				return -ENOMEM;
			skip(k, "no MSI interrupts found for %s", c->netdevs[i].name);
			ret = decide(k, c->o->irq_cpus);
			if (ret)
				return ret;
			continue;
		}
		for (j = 0, ret = 0; j < n && !ret; j++) {
			k = plan_add(c->p, s, "irq %s %s", c->netdevs[i].name, irqs[j]);
			snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", irqs[j]);
			ret = k ? line_knob(c->io, k, path, c->o->irq_cpus) : -ENOMEM;
		}
		free_names(irqs, n);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The default ToS rdma_cm gives a device's connections. Its configfs group
 * exists only once made: reading a device without one makes it and removes
 * it again, and apply makes it for good only to change the value.
 */
static int plan_roce_tos(struct plan_ctx *c, const struct sp_knob_spec *s, const char *value)
{
	struct sp_knob *k;
	size_t i;
	int ret, made;

	for (i = 0; i < c->n_links; i++) {
		k = plan_add(c->p, s, "roce-tos %s", c->links[i].rdma);
		if (!k)
			return -ENOMEM;
		k->ch.access = SP_ACCESS_CONFIGFS;
		snprintf(k->ch.group, sizeof(k->ch.group), RDMA_CM_CONFIGFS "/%s", c->links[i].rdma);
		snprintf(k->ch.path, sizeof(k->ch.path), "%s/ports/1/default_roce_tos",
			 k->ch.group);
		snprintf(k->where, sizeof(k->where), "%s", k->ch.path);
		if (!io_is_dir(c->io, RDMA_CM_CONFIGFS)) {
			skip(k, "no %s: mount configfs and load rdma_cm", RDMA_CM_CONFIGFS);
			ret = decide(k, value);
			if (ret)
				return ret;
			continue;
		}
		made = c->io->mkdir(c->io, k->ch.group);
		k->ch.group_made = !made;
		if (made && made != -EEXIST) {
			skip(k, "cannot make %s: %s", k->ch.group, strerror(-made));
		} else {
			ret = sp_io_read_line(c->io, k->ch.path, &k->ch.before);
			if (ret == -ENOMEM)
				return ret;
			if (ret)
				skip(k, "cannot read %s: %s", k->ch.path, strerror(-ret));
			k->ch.has_before = !ret;
		}
		if (k->ch.group_made)
			c->io->rmdir(c->io, k->ch.group);
		ret = decide(k, value);
		if (ret)
			return ret;
	}
	return 0;
}

static int plan_dcb(struct plan_ctx *c, const struct sp_knob_spec *s, const char *value)
{
	enum sp_access what = s->kind == SP_KNOB_DSCP ? SP_ACCESS_DSCP : SP_ACCESS_PFC;
	struct sp_knob *k;
	size_t i;
	int ret;

	for (i = 0; i < c->n_netdevs; i++) {
		const char *dev = c->netdevs[i].name;

		k = plan_add(c->p, s, "%s %s", s->name, dev);
		if (!k)
			return -ENOMEM;
		k->ch.access = what;
		snprintf(k->ch.path, sizeof(k->ch.path), "%s", dev);
		snprintf(k->where, sizeof(k->where), "DCB netlink, %s", dev);
		if (!c->io->dcb_read) {
			skip(k, "DCB is set over netlink: not under a root directory");
		} else {
			ret = c->io->dcb_read(c->io, dev, what, &k->ch.before);
			if (ret == -ENOMEM)
				return ret;
			if (ret == -EOPNOTSUPP)
				skip(k, "not supported by %s", dev);
			else if (ret)
				skip(k, "cannot read the DCB state of %s: %s", dev,
				     c->io->msg[0] ? c->io->msg : strerror(-ret));
			k->ch.has_before = !ret;
		}
		ret = decide(k, value);
		if (ret)
			return ret;
	}
	return 0;
}

static int plan_memlock(struct plan_ctx *c, const struct sp_knob_spec *s)
{
	struct sp_knob *k = plan_add(c->p, s, "memlock");
	char size[SP_SIZE_STRLEN];

	if (!k)
		return -ENOMEM;
	if (c->f->has_memlock && c->f->memlock_bytes == UINT64_MAX)
		snprintf(k->note, sizeof(k->note), "this session: unlimited");
	else if (c->f->has_memlock)
		snprintf(k->note, sizeof(k->note), "this session: %s (new sessions get the file's)",
			 sp_fmt_size(c->f->memlock_bytes, size, sizeof(size)));
	return file_knob(c->io, k, "/etc/security/limits.d", MEMLOCK_CONF, memlock_conf, 0644);
}

/* ---- persistent files ---------------------------------------------------------- */

/* What a knob's value is once apply has run: NULL when unknown. */
static const char *value_after(const struct sp_knob *k)
{
	switch (k->state) {
	case SP_KNOB_CHANGE:
		return k->ch.after;
	case SP_KNOB_OK:
		return k->ch.before;
	default:
		/* absent here (an image being prepared): what the profile asks */
		return k->ch.has_before ? NULL : k->recommended;
	}
}

static bool applies(const struct sp_knob *k)
{
	/* a multi-NIC sysctl that is not needed is not persisted either */
	return !(k->spec && k->spec->multi_nic && k->state == SP_KNOB_SKIP);
}

static char *persist_sysctl_conf(const struct sp_plan *plan, enum sp_profile profile)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "# Written by sparkperf-ctl tune apply persist (profile %s),\n"
		"# removed by sparkperf-ctl tune revert.\n", sp_profile_name(profile));
	for (i = 0; i < plan->n; i++) {
		const struct sp_knob *k = &plan->knobs[i];
		const char *v = value_after(k);

		if (k->spec && k->spec->kind == SP_KNOB_SYSCTL && v && applies(k))
			fprintf(m, "%s = %s\n", k->ch.name, v);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *persist_netplan(const struct sp_plan *plan, enum sp_profile profile)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);
	bool any = false;

	if (!m)
		return NULL;
	fprintf(m, "# Written by sparkperf-ctl tune apply persist (profile %s),\n"
		"# removed by sparkperf-ctl tune revert. netplan merges these MTUs\n"
		"# into the definitions of the same interfaces in other files.\n"
		"network:\n  version: 2\n", sp_profile_name(profile));
	for (i = 0; i < plan->n; i++) {
		const struct sp_knob *k = &plan->knobs[i];
		const char *v = value_after(k);

		if (!k->spec || k->spec->kind != SP_KNOB_MTU || !v || !strchr(k->ch.name, ' '))
			continue;
		if (!any)
			fprintf(m, "  ethernets:\n");
		any = true;
		fprintf(m, "    %s:\n      mtu: %s\n", strchr(k->ch.name, ' ') + 1, v);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int plan_persist(struct plan_ctx *c, const struct sp_knob_spec *s)
{
	bool sysctl = s->kind == SP_KNOB_SYSCTL_CONF;
	struct sp_knob *k = plan_add(c->p, s, "%s", s->name);
	char *content;
	int ret;

	if (!k)
		return -ENOMEM;
	if (!sysctl && !c->n_netdevs) {
		k->ch.access = SP_ACCESS_FILE;
		snprintf(k->where, sizeof(k->where), NETPLAN_CONF);
		skip(k, "no netdevs, no MTU to persist");
		return decide(k, "");
	}
	content = sysctl ? persist_sysctl_conf(c->p, c->o->profile)
			 : persist_netplan(c->p, c->o->profile);
	if (!content)
		return -ENOMEM;
	/* netplan wants its files private: they may hold secrets */
	ret = file_knob(c->io, k, sysctl ? "/etc/sysctl.d" : NETPLAN_DIR,
			sysctl ? SYSCTL_CONF : NETPLAN_CONF, content, sysctl ? 0644 : 0600);
	free(content);
	return ret;
}

static int plan_spec(struct plan_ctx *c, const struct sp_knob_spec *s)
{
	const char *value = s->value[c->o->profile];

	switch (s->kind) {
	case SP_KNOB_SYSCTL:
		return value ? plan_sysctl(c, s, value) : 0;
	case SP_KNOB_MTU:
		return plan_mtu(c, s, value);
	case SP_KNOB_ROCE_MTU:
		return plan_roce_mtu(c, s);
	case SP_KNOB_GOVERNOR:
		return plan_governor(c, s, value);
	case SP_KNOB_IRQ:
		return c->o->irq_cpus ? plan_irq(c, s) : 0;
	case SP_KNOB_ROCE_TOS:
		return plan_roce_tos(c, s, value);
	case SP_KNOB_DSCP:
		return plan_dcb(c, s, value);
	case SP_KNOB_PFC:
		return c->o->pfc ? plan_dcb(c, s, c->o->pfc) : 0;
	case SP_KNOB_MEMLOCK:
		return plan_memlock(c, s);
	case SP_KNOB_SYSCTL_CONF:
	case SP_KNOB_NETPLAN:
		return c->o->persist ? plan_persist(c, s) : 0;
	}
	return 0;
}

int sp_plan_build(struct sp_knob_io *io, const struct sp_tune_opts *o,
		  const struct sp_host_facts *f, struct sp_plan *plan, char *err, size_t len)
{
	struct plan_ctx c = {
		.io = io, .o = o, .f = f, .p = plan, .err = err, .err_len = len,
	};
	size_t i;
	int ret;

	memset(plan, 0, sizeof(*plan));
	err[0] = '\0';
	ret = find_netdevs(&c);
	for (i = 0; !ret && i < sp_knob_n_specs; i++)
		ret = plan_spec(&c, &sp_knob_specs[i]);
	for (i = 0; i < plan->n; i++)
		plan->n_changes += plan->knobs[i].state == SP_KNOB_CHANGE;
	free(c.netdevs);
	free(c.links);
	if (ret && !err[0])
		snprintf(err, len, "reading the current values: %s", strerror(-ret));
	if (ret)
		sp_plan_free(plan);
	return ret;
}

void sp_plan_free(struct sp_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		sp_change_free(&plan->knobs[i].ch);
		free(plan->knobs[i].recommended);
	}
	free(plan->knobs);
	memset(plan, 0, sizeof(*plan));
}
