// SPDX-License-Identifier: GPL-2.0
/*
 * The tuning knobs: the profile tables, the comparisons and targets, the
 * plan read from a fake tree in a temporary directory, and the changes:
 * apply, its undo when step N fails (for every N: nothing changed after),
 * and revert back to the same bytes.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "host/knobs.h"
#include "lib/parse.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the profile tables ------------------------------------------------------ */

static const struct sp_knob_spec *sysctl(const char *name)
{
	size_t i;

	for (i = 0; i < sp_knob_n_specs; i++)
		if (sp_knob_specs[i].kind == SP_KNOB_SYSCTL && !strcmp(sp_knob_specs[i].name, name))
			return &sp_knob_specs[i];
	ck_abort_msg("no sysctl %s", name);
	return NULL;
}

START_TEST(test_profiles)
{
	static const struct {
		const char *name;
		const char *throughput, *latency;
	} want[] = {
		{ "net.core.rmem_max", "67108864", NULL },
		{ "net.core.wmem_max", "67108864", NULL },
		{ "net.ipv4.tcp_rmem", "4096 87380 67108864", NULL },
		{ "net.ipv4.tcp_wmem", "4096 65536 67108864", NULL },
		{ "net.core.netdev_max_backlog", "250000", NULL },
		{ "net.core.busy_read", NULL, "50" },
		{ "net.core.busy_poll", NULL, "50" },
		{ "kernel.numa_balancing", NULL, "0" },
		{ "net.ipv4.conf.all.arp_ignore", "1", "1" },
		{ "net.ipv4.conf.all.arp_announce", "2", "2" },
		{ "net.ipv4.conf.all.rp_filter", "2", "2" },
	};
	enum sp_profile p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const struct sp_knob_spec *s = sysctl(want[i].name);
		const char *t = s->value[SP_PROFILE_THROUGHPUT], *l = s->value[SP_PROFILE_LATENCY];

		ck_assert_msg(t == want[i].throughput || !strcmp(t, want[i].throughput), "%s",
			      want[i].name);
		ck_assert_msg(l == want[i].latency || !strcmp(l, want[i].latency), "%s",
			      want[i].name);
		/* the multi-NIC ones are the ones that break RoCE */
		ck_assert_int_eq(s->multi_nic, strstr(s->name, ".conf.all.") != NULL);
		ck_assert_int_eq(s->severity, s->multi_nic ? SP_SEV_FAIL : SP_SEV_WARN);
	}
	ck_assert_str_eq(sp_knob_spec_of(SP_KNOB_MTU)->value[SP_PROFILE_THROUGHPUT], "9000");
	ck_assert_str_eq(sp_knob_spec_of(SP_KNOB_MTU)->value[SP_PROFILE_LATENCY], "9000");
	ck_assert_str_eq(sp_knob_spec_of(SP_KNOB_GOVERNOR)->value[SP_PROFILE_LATENCY],
			 "performance");
	ck_assert_str_eq(sp_knob_spec_of(SP_KNOB_ROCE_TOS)->value[SP_PROFILE_THROUGHPUT], "106");
	ck_assert_str_eq(sp_knob_spec_of(SP_KNOB_DSCP)->value[SP_PROFILE_THROUGHPUT],
			 "26:3 48:6");
	/* IRQs and PFC only on request: no value in any profile */
	ck_assert_ptr_null(sp_knob_spec_of(SP_KNOB_IRQ)->value[SP_PROFILE_THROUGHPUT]);
	ck_assert_ptr_null(sp_knob_spec_of(SP_KNOB_PFC)->value[SP_PROFILE_LATENCY]);

	for (i = 0; i < sp_knob_n_specs; i++) {
		const struct sp_knob_spec *s = &sp_knob_specs[i];

		ck_assert_msg(s->reason && strlen(s->reason) > 20, "%s has no reason", s->name);
		ck_assert_msg((s->cmp == SP_CMP_ONE_OF) == (s->accept != NULL), "%s", s->name);
		/* a recommended value is one that satisfies itself */
		for (p = 0; p < SP_PROFILE_COUNT; p++)
			ck_assert_msg(!s->value[p] || sp_knob_satisfied(s->cmp, s->accept,
									s->value[p], s->value[p]),
				      "%s", s->name);
	}
	ck_assert_int_eq(sp_parse_profile("latency", &p), 0);
	ck_assert_int_eq(p, SP_PROFILE_LATENCY);
	ck_assert_str_eq(sp_profile_name(SP_PROFILE_THROUGHPUT), "throughput");
	ck_assert_int_eq(sp_parse_profile("fast", &p), -EINVAL);
}
END_TEST

/* ---- comparisons, targets, value formats ------------------------------------- */

/* Is current as recommended under cmp, and (target set) what apply writes. */
static const struct {
	enum sp_knob_cmp cmp;
	const char *accept;
	const char *recommended;
	const char *current;
	bool satisfied;
	const char *target;
} satisfied_cases[] = {
	/* raised, never lowered */
	{ SP_CMP_AT_LEAST, NULL, "4096 87380 67108864", "4096\t131072\t6291456", false,
	  "4096 131072 67108864" },
	{ SP_CMP_AT_LEAST, NULL, "67108864", "536870912", true, NULL },
	{ SP_CMP_AT_LEAST, NULL, "67108864", "x", false, NULL },
	{ SP_CMP_AT_LEAST, NULL, "1 2 3", "1 2", false, NULL },
	{ SP_CMP_AT_LEAST, NULL, "250000", "1000", false, "250000" },
	{ SP_CMP_ONE_OF, "2 0", "2", "0", true, NULL },
	{ SP_CMP_ONE_OF, "2 0", "2", "1", false, NULL },
	{ SP_CMP_EQUAL, NULL, "performance", "performance", true, NULL },
	{ SP_CMP_EQUAL, NULL, "performance", "schedutil", false, NULL },
	{ SP_CMP_EQUAL, NULL, "9000", NULL, false, NULL },
	{ SP_CMP_CPUS, NULL, "0,1,2", "0-2", true, NULL },
	{ SP_CMP_CPUS, NULL, "0", "0-1", false, NULL },
	{ SP_CMP_SUPERSET, NULL, "26:3 48:6", "0:0 26:3 48:6", true, NULL },
	{ SP_CMP_SUPERSET, NULL, "26:3 48:6", "26:4 48:6", false, NULL },
	{ SP_CMP_SUPERSET, NULL, "26:3 48:6", "10:1 26:4", false, "10:1 26:3 48:6" },
};

START_TEST(test_satisfied_and_target)
{
	char *t;

	ck_assert_int_eq(sp_knob_satisfied(satisfied_cases[_i].cmp, satisfied_cases[_i].accept,
					   satisfied_cases[_i].recommended,
					   satisfied_cases[_i].current),
			 satisfied_cases[_i].satisfied);
	if (!satisfied_cases[_i].target)
		return;
	t = sp_knob_target(satisfied_cases[_i].cmp, satisfied_cases[_i].recommended,
			   satisfied_cases[_i].current);
	ck_assert_str_eq(t, satisfied_cases[_i].target);
	free(t);
}
END_TEST

START_TEST(test_roce_mtu)
{
	ck_assert_uint_eq(sp_roce_mtu_for(9000), 4096);
	ck_assert_uint_eq(sp_roce_mtu_for(4192), 4096);
	ck_assert_uint_eq(sp_roce_mtu_for(4191), 2048);
	ck_assert_uint_eq(sp_roce_mtu_for(1500), 1024);
	ck_assert_uint_eq(sp_roce_mtu_for(352), 256);
	ck_assert_uint_eq(sp_roce_mtu_for(351), 0);
	ck_assert_uint_eq(sp_roce_mtu_for(0), 0);
}
END_TEST

START_TEST(test_dscp_pfc_cpus)
{
	struct sp_dscp_map a, b, del, add;
	struct sp_cpuset cpus;
	char buf[32], *s;
	uint8_t mask;

	ck_assert_int_eq(sp_dscp_map_parse("48:6 26:3", &a), 0);
	s = sp_dscp_map_format(&a);
	ck_assert_str_eq(s, "26:3 48:6");
	free(s);
	ck_assert_int_eq(sp_dscp_map_parse("", &b), 0);
	ck_assert_uint_eq(sp_dscp_map_count(&b), 0);
	s = sp_dscp_map_format(&b);
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert_int_eq(sp_dscp_map_parse("64:1", &b), -EINVAL);
	ck_assert_int_eq(sp_dscp_map_parse("1:8", &b), -EINVAL);
	ck_assert_int_eq(sp_dscp_map_parse("1:1 1:2", &b), -EINVAL);
	ck_assert_int_eq(sp_dscp_map_parse("26", &b), -EINVAL);

	ck_assert_int_eq(sp_dscp_map_parse("10:1 26:4", &b), 0);
	sp_dscp_map_diff(&b, &a, &del, &add);
	s = sp_dscp_map_format(&del);
	ck_assert_str_eq(s, "10:1 26:4");
	free(s);
	s = sp_dscp_map_format(&add);
	ck_assert_str_eq(s, "26:3 48:6");
	free(s);

	ck_assert_int_eq(sp_pfc_parse("3,4", &mask), 0);
	ck_assert_uint_eq(mask, 0x18);
	sp_pfc_format(mask, buf, sizeof(buf));
	ck_assert_str_eq(buf, "3,4");
	ck_assert_int_eq(sp_pfc_parse("none", &mask), 0);
	sp_pfc_format(mask, buf, sizeof(buf));
	ck_assert_str_eq(buf, "none");
	ck_assert_int_eq(sp_pfc_parse("8", &mask), -EINVAL);
	ck_assert_int_eq(sp_pfc_parse("3,3", &mask), -EINVAL);

	ck_assert_int_eq(sp_parse_cpulist("0-3,8", &cpus), 0);
	ck_assert_uint_eq(cpus.bits[0], 0x10f);
	ck_assert_int_eq(sp_parse_cpulist("4095", &cpus), 0);
	ck_assert_int_eq(sp_parse_cpulist("4096", &cpus), -ERANGE);
	ck_assert_int_eq(sp_parse_cpulist("3-1", &cpus), -EINVAL);
	ck_assert_int_eq(sp_parse_cpulist("1,", &cpus), -EINVAL);
	ck_assert_int_eq(sp_parse_cpulist("", &cpus), -EINVAL);
}
END_TEST

/* ---- a fake tree -------------------------------------------------------------- */

static char root[64];

static void put(const char *path, mode_t mode, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(const char *path, mode_t mode, const char *fmt, ...)
{
	char full[PATH_MAX], *slash;
	va_list ap;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(full, 0755);
		*slash = '/';
	}
	if (!fmt)
		return;
	f = fopen(full, "w");
	ck_assert_ptr_nonnull(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	chmod(full, mode);
}

/* A Spark-like host: sysctls, two RoCE netdevs, two cpufreq policies, IRQs, rdma_cm. */
static void make_tree(void)
{
	snprintf(root, sizeof(root), "/tmp/check_knobs.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("/proc/sys/net/core/rmem_max", 0644, "212992\n");
	put("/proc/sys/net/core/wmem_max", 0644, "536870912\n");
	put("/proc/sys/net/ipv4/tcp_rmem", 0644, "4096\t131072\t6291456\n");
	put("/proc/sys/net/ipv4/tcp_wmem", 0644, "4096\t16384\t4194304\n");
	put("/proc/sys/net/core/netdev_max_backlog", 0644, "1000\n");
	put("/proc/sys/net/ipv4/conf/all/arp_ignore", 0644, "0\n");
	put("/proc/sys/net/ipv4/conf/all/arp_announce", 0644, "0\n");
	put("/proc/sys/net/ipv4/conf/all/rp_filter", 0644, "1\n");
	put("/sys/class/net/enp1s0f0np0/mtu", 0644, "1500\n");
	put("/sys/class/net/enP2p1s0f0np0/mtu", 0644, "9000\n");
	put("/sys/class/net/enp1s0f0np0/device/msi_irqs/70", 0644, "msix\n");
	put("/sys/class/net/enp1s0f0np0/device/msi_irqs/71", 0644, "msix\n");
	put("/proc/irq/70/smp_affinity_list", 0644, "0-19\n");
	put("/proc/irq/71/smp_affinity_list", 0644, "0-19\n");
	put("/sys/class/infiniband/rocep1s0f0/ports/1/gid_attrs/ndevs/0", 0644, "enp1s0f0np0\n");
	put("/sys/class/infiniband/roceP2p1s0f0/ports/1/gid_attrs/ndevs/0", 0644,
	    "enP2p1s0f0np0\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", 0644, "schedutil\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors", 0644,
	    "performance schedutil\n");
	put("/sys/devices/system/cpu/cpufreq/policy10/scaling_governor", 0644, "performance\n");
	put("/sys/kernel/config/rdma_cm/rocep1s0f0/ports/1/default_roce_tos", 0644, "0\n");
	put("/etc/security/limits.d/", 0, NULL);
	put("/etc/sysctl.d/10-other.conf", 0600, "vm.swappiness = 10\n");
	put("/etc/netplan/", 0, NULL);
}

static void path_of(char *buf, const char *path)
{
	snprintf(buf, PATH_MAX, "%s%s", root, path);
}

static const struct sp_host_facts no_facts = { .roce_unknown = "not asked" };

/* In-memory DCB: the DSCP table of enp1s0f0np0; the other netdev has no DCB. */
static char dcb_dscp[64];

static int fake_dcb_read(struct sp_knob_io *io, const char *dev, enum sp_access what,
			 char **value)
{
	(void)io;
	if (strcmp(dev, "enp1s0f0np0") || what != SP_ACCESS_DSCP)
		return -EOPNOTSUPP;
	*value = strdup(dcb_dscp);
	return 0;
}

static int fake_dcb_write(struct sp_knob_io *io, const char *dev, enum sp_access what,
			  const char *value)
{
	(void)io;
	(void)what;
	ck_assert_str_eq(dev, "enp1s0f0np0");
	snprintf(dcb_dscp, sizeof(dcb_dscp), "%s", value);
	return 0;
}

/*
 * The file operations, with write number fail_at (1-based) failing, and
 * undo_fail_at too; making an rdma_cm group makes its port's value, as
 * configfs does.
 */
struct failing_io {
	struct sp_knob_io io;
	int writes;
	int fail_at;
	int undo_fail_at;
	int (*write)(struct sp_knob_io *io, const char *path, const char *data, bool replace,
		     unsigned int mode);
	int (*mkdir)(struct sp_knob_io *io, const char *path);
	int (*rmdir)(struct sp_knob_io *io, const char *path);
};

#define RDMA_CM "/sys/kernel/config/rdma_cm/"

static int configfs_mkdir(struct sp_knob_io *io, const char *path)
{
	struct failing_io *f = (struct failing_io *)io;
	char file[PATH_MAX];
	int ret = f->mkdir(io, path);

	if (!ret && !strncmp(path, RDMA_CM, strlen(RDMA_CM))) {
		snprintf(file, sizeof(file), "%s/ports/1/default_roce_tos", path);
		put(file, 0644, "0\n");
	}
	return ret;
}

static int configfs_rmdir(struct sp_knob_io *io, const char *path)
{
	struct failing_io *f = (struct failing_io *)io;
	static const char *const parts[] = { "/ports/1/default_roce_tos", "/ports/1", "/ports" };
	char full[PATH_MAX];
	size_t i;

	for (i = 0; !strncmp(path, RDMA_CM, strlen(RDMA_CM)) && i < ARRAY_SIZE(parts); i++) {
		snprintf(full, sizeof(full), "%s%s%s", root, path, parts[i]);
		remove(full);
	}
	return f->rmdir(io, path);
}

static int failing_write(struct sp_knob_io *io, const char *path, const char *data,
			 bool replace, unsigned int mode)
{
	struct failing_io *f = (struct failing_io *)io;

	f->writes++;
	if (f->writes == f->fail_at || f->writes == f->undo_fail_at)
		return -EROFS;
	return f->write(io, path, data, replace, mode);
}

static void failing_io_init(struct failing_io *f, int fail_at, int undo_fail_at)
{
	memset(f, 0, sizeof(*f));
	sp_knob_io_files(&f->io, root);
	f->write = f->io.write;
	f->io.write = failing_write;
	f->mkdir = f->io.mkdir;
	f->io.mkdir = configfs_mkdir;
	f->rmdir = f->io.rmdir;
	f->io.rmdir = configfs_rmdir;
	f->io.dcb_read = fake_dcb_read;
	f->io.dcb_write = fake_dcb_write;
	f->fail_at = fail_at;
	f->undo_fail_at = undo_fail_at;
}

static const struct sp_knob *find(const struct sp_plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->knobs[i].ch.name, name))
			return &p->knobs[i];
	ck_abort_msg("no knob %s", name);
	return NULL;
}

static void plan(struct sp_knob_io *io, const struct sp_tune_opts *o,
		 const struct sp_host_facts *f, struct sp_plan *p)
{
	char err[256];

	ck_assert_int_eq(sp_plan_build(io, o, f, p, err, sizeof(err)), 0);
}

/* The plan's changes as one array, in order. */
static struct sp_change *changes_of(const struct sp_plan *p, size_t *n)
{
	struct sp_change *ch = calloc(p->n_changes + 1, sizeof(*ch));
	size_t i;

	*n = 0;
	for (i = 0; i < p->n; i++)
		if (p->knobs[i].state == SP_KNOB_CHANGE)
			ck_assert_int_eq(sp_change_copy(&ch[(*n)++], &p->knobs[i].ch), 0);
	ck_assert_uint_eq(*n, p->n_changes);
	return ch;
}

static void free_changes(struct sp_change *ch, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sp_change_free(&ch[i]);
	free(ch);
}

static void setup(void)
{
	make_tree();
	snprintf(dcb_dscp, sizeof(dcb_dscp), "%s", "");
}

static void teardown(void)
{
	tree_remove(root);
}

/* ---- the plan ---------------------------------------------------------------- */

START_TEST(test_plan)
{
	struct sp_tune_opts o = { .profile = SP_PROFILE_THROUGHPUT, .irq_cpus = "0-9" };
	struct sp_roce_mtu roce[] = { { "rocep1s0f0", 1, 1024 }, { "roceP2p1s0f0", 1, 4096 } };
	struct sp_host_facts f = {
		.shared_subnet = true, .roce_known = true, .roce = roce, .n_roce = 2,
	};
	char path[PATH_MAX];
	struct failing_io io;
	struct sp_plan p;
	const struct sp_knob *k;

	failing_io_init(&io, 0, 0);
	plan(&io.io, &o, &f, &p);

	k = find(&p, "net.core.rmem_max");
	ck_assert_int_eq(k->state, SP_KNOB_CHANGE);
	ck_assert_str_eq(k->ch.before, "212992");
	ck_assert_str_eq(k->ch.after, "67108864");
	ck_assert_str_eq(k->ch.path, "/proc/sys/net/core/rmem_max");
	ck_assert_int_eq(find(&p, "net.core.wmem_max")->state, SP_KNOB_OK);	/* 512 MiB stays */
	ck_assert_str_eq(find(&p, "net.ipv4.tcp_rmem")->ch.after, "4096 131072 67108864");
	ck_assert_str_eq(find(&p, "net.ipv4.conf.all.rp_filter")->ch.after, "2");
	ck_assert_int_eq(find(&p, "net.ipv4.conf.all.arp_ignore")->state, SP_KNOB_CHANGE);

	ck_assert_int_eq(find(&p, "mtu enp1s0f0np0")->state, SP_KNOB_CHANGE);
	ck_assert_int_eq(find(&p, "mtu enP2p1s0f0np0")->state, SP_KNOB_OK);
	k = find(&p, "roce-mtu rocep1s0f0");
	ck_assert_int_eq(k->state, SP_KNOB_OBSERVED);
	ck_assert_str_eq(k->ch.before, "1024");
	ck_assert_str_eq(k->recommended, "4096");	/* what MTU 9000 will give */
	ck_assert(!k->as_expected);
	ck_assert(find(&p, "roce-mtu roceP2p1s0f0")->as_expected);

	ck_assert_int_eq(find(&p, "governor policy0")->state, SP_KNOB_CHANGE);
	/* no list of available governors: the policy is read anyway */
	ck_assert_int_eq(find(&p, "governor policy10")->state, SP_KNOB_OK);
	ck_assert_int_eq(find(&p, "irq enp1s0f0np0 70")->state, SP_KNOB_CHANGE);
	ck_assert_int_eq(find(&p, "irq enP2p1s0f0np0")->state, SP_KNOB_SKIP);

	k = find(&p, "roce-tos rocep1s0f0");
	ck_assert_int_eq(k->state, SP_KNOB_CHANGE);
	ck_assert(!k->ch.group_made);
	ck_assert_str_eq(k->ch.before, "0");
	/* a device without a group: made to read it, removed again, made by apply */
	k = find(&p, "roce-tos roceP2p1s0f0");
	ck_assert_int_eq(k->state, SP_KNOB_CHANGE);
	ck_assert(k->ch.group_made);
	ck_assert_str_eq(k->ch.group, RDMA_CM "roceP2p1s0f0");
	path_of(path, RDMA_CM "roceP2p1s0f0");
	ck_assert_int_eq(access(path, F_OK), -1);

	k = find(&p, "dscp-prio enp1s0f0np0");
	ck_assert_int_eq(k->state, SP_KNOB_CHANGE);
	ck_assert_str_eq(k->ch.after, "26:3 48:6");
	k = find(&p, "dscp-prio enP2p1s0f0np0");
	ck_assert_int_eq(k->state, SP_KNOB_SKIP);
	ck_assert_str_eq(k->note, "not supported by enP2p1s0f0np0");

	k = find(&p, "memlock");
	ck_assert_int_eq(k->state, SP_KNOB_CHANGE);
	ck_assert(!k->ch.has_before);
	ck_assert_ptr_nonnull(strstr(k->ch.after, "memlock\tunlimited"));
	ck_assert_uint_eq(k->ch.after_mode, 0644);
	sp_plan_free(&p);

	/* no shared subnet: the multi-NIC sysctls are shown, not changed */
	f.shared_subnet = false;
	plan(&io.io, &o, &f, &p);
	k = find(&p, "net.ipv4.conf.all.rp_filter");
	ck_assert_int_eq(k->state, SP_KNOB_SKIP);
	ck_assert_str_eq(k->ch.before, "1");
	ck_assert_ptr_null(k->ch.after);
	sp_plan_free(&p);
}
END_TEST

START_TEST(test_plan_choices)
{
	char devs[1][SP_IFNAME_MAX] = { "nosuchdev" };
	struct sp_tune_opts o = { .profile = SP_PROFILE_LATENCY, .devs = devs, .n_devs = 1 };
	struct failing_io io;
	struct sp_plan p;
	char err[256];
	size_t i;

	failing_io_init(&io, 0, 0);
	ck_assert_int_eq(sp_plan_build(&io.io, &o, &no_facts, &p, err, sizeof(err)), -ENODEV);
	ck_assert_str_eq(err, "dev nosuchdev: no such network device "
			 "(/sys/class/net/nosuchdev)");

	/* a named netdev only, the latency profile: no buffers, busy polling (absent here) */
	snprintf(devs[0], sizeof(devs[0]), "enP2p1s0f0np0");
	plan(&io.io, &o, &no_facts, &p);
	for (i = 0; i < p.n; i++) {
		ck_assert(strcmp(p.knobs[i].ch.name, "net.core.rmem_max"));
		ck_assert(strcmp(p.knobs[i].ch.name, "mtu enp1s0f0np0"));
	}
	ck_assert_int_eq(find(&p, "net.core.busy_poll")->state, SP_KNOB_SKIP);
	ck_assert_str_eq(find(&p, "net.core.busy_poll")->note,
			 "absent (/proc/sys/net/core/busy_poll)");
	ck_assert_int_eq(find(&p, "mtu enP2p1s0f0np0")->state, SP_KNOB_OK);
	ck_assert_str_eq(find(&p, "roce-mtu roceP2p1s0f0")->note, "unknown: not asked");
	sp_plan_free(&p);

	/* without DCB (under a root) the DCB knobs are skipped, with the reason */
	io.io.dcb_read = NULL;
	plan(&io.io, &o, &no_facts, &p);
	ck_assert_str_eq(find(&p, "dscp-prio enP2p1s0f0np0")->note,
			 "DCB is set over netlink: not under a root directory");
	sp_plan_free(&p);
}
END_TEST

START_TEST(test_persist)
{
	struct sp_tune_opts o = { .profile = SP_PROFILE_THROUGHPUT, .persist = true };
	char path[PATH_MAX];
	struct failing_io io;
	const struct sp_knob *k;
	struct sp_plan p;

	failing_io_init(&io, 0, 0);
	plan(&io.io, &o, &no_facts, &p);
	k = find(&p, "sysctl.d");
	ck_assert_int_eq(k->state, SP_KNOB_CHANGE);
	ck_assert_str_eq(k->ch.path, "/etc/sysctl.d/90-sparkperf.conf");
	/* what runtime has after apply: raised values, the larger one kept */
	ck_assert_str_eq(k->ch.after,
			 "# Written by sparkperf-ctl tune apply persist (profile throughput),\n"
			 "# removed by sparkperf-ctl tune revert.\n"
			 "net.core.rmem_max = 67108864\n"
			 "net.core.wmem_max = 536870912\n"
			 "net.ipv4.tcp_rmem = 4096 131072 67108864\n"
			 "net.ipv4.tcp_wmem = 4096 65536 67108864\n"
			 "net.core.netdev_max_backlog = 250000\n");
	k = find(&p, "netplan");
	ck_assert_uint_eq(k->ch.after_mode, 0600);
	/* in the order of their RDMA devices' names */
	ck_assert_ptr_nonnull(strstr(k->ch.after, "  ethernets:\n"
				     "    enP2p1s0f0np0:\n      mtu: 9000\n"
				     "    enp1s0f0np0:\n      mtu: 9000\n"));
	sp_plan_free(&p);

	/* an image without /etc/netplan: not written, and said why */
	path_of(path, "/etc/netplan");
	ck_assert_int_eq(rmdir(path), 0);
	plan(&io.io, &o, &no_facts, &p);
	k = find(&p, "netplan");
	ck_assert_int_eq(k->state, SP_KNOB_SKIP);
	ck_assert_str_eq(k->note, "no /etc/netplan");
	sp_plan_free(&p);
}
END_TEST

/* ---- apply, undo, revert ------------------------------------------------------ */

static void full_plan(struct failing_io *io, struct sp_plan *p)
{
	struct sp_tune_opts o = {
		.profile = SP_PROFILE_THROUGHPUT, .irq_cpus = "0-9", .persist = true,
	};
	struct sp_host_facts f = { .shared_subnet = true };

	plan(&io->io, &o, &f, p);
}

START_TEST(test_apply_revert)
{
	struct sp_apply_report r;
	struct failing_io io;
	struct sp_change *ch;
	struct sp_plan p;
	char *before, *after, *dcb_before;
	size_t n;

	failing_io_init(&io, 0, 0);
	full_plan(&io, &p);
	ch = changes_of(&p, &n);
	sp_plan_free(&p);
	ck_assert_uint_ge(n, 15);
	before = tree_digest(root);
	dcb_before = strdup(dcb_dscp);

	ck_assert_int_eq(sp_changes_apply(&io.io, ch, n, &r), 0);
	ck_assert_uint_eq(r.done, n);
	ck_assert(!r.failed);
	ck_assert_str_eq(dcb_dscp, "26:3 48:6");
	/* applied: the plan has nothing left to change */
	full_plan(&io, &p);
	ck_assert_uint_eq(p.n_changes, 0);
	sp_plan_free(&p);

	ck_assert_int_eq(sp_changes_revert(&io.io, ch, n, &r), 0);
	ck_assert_uint_eq(r.done, n);
	after = tree_digest(root);
	ck_assert_str_eq(after, before);
	ck_assert_str_eq(dcb_dscp, dcb_before);
	free(before);
	free(after);
	free(dcb_before);
	free_changes(ch, n);
}
END_TEST

/* Whichever step fails, the tree is as before and the report names that step. */
START_TEST(test_apply_fails_at_each_step)
{
	struct sp_apply_report r;
	struct failing_io io;
	struct sp_change *ch;
	struct sp_plan p;
	char *before, *after;
	size_t n, step, writes;

	failing_io_init(&io, 0, 0);
	full_plan(&io, &p);
	ch = changes_of(&p, &n);
	sp_plan_free(&p);
	before = tree_digest(root);
	/* the knobs that go through io->write, in order */
	for (step = 1, writes = 0; writes < n; step++) {
		failing_io_init(&io, (int)step, 0);
		ck_assert_int_eq(sp_changes_apply(&io.io, ch, n, &r), -EROFS);
		ck_assert(r.failed);
		ck_assert_uint_eq(r.undo_failures, 0);
		ck_assert_uint_eq(r.done, r.failed_at);
		ck_assert_ptr_nonnull(strstr(r.msg, "Read-only file system"));
		ck_assert_ptr_nonnull(strstr(r.msg, ch[r.failed_at].path));
		after = tree_digest(root);
		ck_assert_msg(!strcmp(after, before), "failing at write %zu (%s) changed the tree",
			      step, ch[r.failed_at].name);
		ck_assert_str_eq(dcb_dscp, "");
		free(after);
		writes = r.failed_at + 1;
	}
	ck_assert_uint_ge(step, 10);
	free(before);
	free_changes(ch, n);
}
END_TEST

START_TEST(test_undo_fails)
{
	struct sp_apply_report r;
	struct failing_io io;
	struct sp_change *ch;
	struct sp_plan p;
	size_t n;

	failing_io_init(&io, 0, 0);
	full_plan(&io, &p);
	ch = changes_of(&p, &n);
	sp_plan_free(&p);
	/* writes 1..3 apply, 4 fails; the undo writes 5 (step 3), 6 (step 2), 7 (step 1) */
	failing_io_init(&io, 4, 6);
	ck_assert_int_eq(sp_changes_apply(&io.io, ch, n, &r), -EROFS);
	ck_assert_uint_eq(r.failed_at, 3);
	ck_assert_uint_eq(r.undo_failures, 1);
	ck_assert_uint_eq(r.undo_failed_at, 1);
	ck_assert_ptr_nonnull(strstr(r.undo_msg, ch[1].path));

	/* revert goes on past a failure and reports the first (the last change) */
	failing_io_init(&io, 1, 0);
	ck_assert_int_eq(sp_changes_revert(&io.io, ch, 3, &r), -EROFS);
	ck_assert_uint_eq(r.failed_at, 2);
	ck_assert_uint_eq(r.done, 2);
	free_changes(ch, n);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("knobs");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_profiles);
	tcase_add_loop_test(tc, test_satisfied_and_target, 0, ARRAY_SIZE(satisfied_cases));
	tcase_add_test(tc, test_roce_mtu);
	tcase_add_test(tc, test_dscp_pfc_cpus);
	suite_add_tcase(s, tc);
	tc = tcase_create("tree");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_plan);
	tcase_add_test(tc, test_plan_choices);
	tcase_add_test(tc, test_persist);
	tcase_add_test(tc, test_apply_revert);
	tcase_add_test(tc, test_apply_fails_at_each_step);
	tcase_add_test(tc, test_undo_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
