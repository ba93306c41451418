// SPDX-License-Identifier: GPL-2.0
/* The plan: every knob the options manage, read, and its target decided. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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
	else if (ret && !sp_io_is_dir(io, dir))
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
		sp_io_names_free(devs, n);
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
	sp_io_names_free(devs, n);
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
		if (!sp_io_is_dir(c->io, path)) {
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
		if (!sp_io_read_line(c->io, avail_path, &avail) && !sp_knob_word_in(value, avail)) {
			snprintf(k->where, sizeof(k->where), "%s", path);
			skip(k, "%s is not among the available governors (%s)", value, avail);
			ret = decide(k, value);
		} else {
			ret = line_knob(c->io, k, path, value);
		}
		free(avail);
	}
	sp_io_names_free(names, n);
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
		sp_io_names_free(irqs, n);
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
		if (!sp_io_is_dir(c->io, RDMA_CM_CONFIGFS)) {
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
	content = sysctl ? sp_persist_sysctl_conf(c->p, c->o->profile)
			 : sp_persist_netplan(c->p, c->o->profile);
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

static void knob_free(struct sp_knob *k)
{
	sp_change_free(&k->ch);
	free(k->recommended);
}

void sp_plan_free(struct sp_plan *plan)
{
	SP_ARRAY_RELEASE(plan->knobs, plan->n, knob_free);
	memset(plan, 0, sizeof(*plan));
}
