// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl tune: host tuning for Spark-to-Spark links, with a snapshot
 * before every change and an exact revert. knobs.c knows the knobs and does
 * the changes; this file gathers what the planner needs, talks DCB through
 * nl.c, keeps the snapshots and reports.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "checklist.h"
#include "lib/cmd.h"
#include "lib/err.h"
#include "host.h"
#include "hostnl.h"
#include "knobs.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "tuneprint.h"
#include "snapshot.h"
#include "version.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define STATE_DIR "/var/lib/sparkperf"
#define MAX_DEVS 16

static const char tune_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] tune show [ profile PROFILE ] [ dev NETDEV[,NETDEV...] ]\n"
	"                 [ irq CPULIST ] [ pfc PRIOS ] [ persist ] [ root DIR ]\n"
	"       sparkperf-ctl [ OPTIONS ] tune check [ profile PROFILE ] [ dev NETDEV[,NETDEV...] ]\n"
	"                 [ irq CPULIST ] [ pfc PRIOS ] [ persist ] [ root DIR ]\n"
	"       sparkperf-ctl [ OPTIONS ] tune apply [ profile PROFILE ] [ dev NETDEV[,NETDEV...] ]\n"
	"                 [ irq CPULIST ] [ pfc PRIOS ] [ persist ] [ root DIR ]\n"
	"       sparkperf-ctl [ OPTIONS ] tune revert [ SNAPSHOT ] [ root DIR ]\n"
	"       sparkperf-ctl tune help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       PROFILE := { throughput | latency }, default throughput\n"
	"       NETDEV := a network device; default: the netdevs of the RDMA ports\n"
	"       CPULIST := CPUs for the netdevs' interrupts (0-9,12); without irq they stay\n"
	"       PRIOS := priorities to enable PFC on (3 or 3,4), or none; without pfc it stays\n"
	"       persist := also write /etc/sysctl.d/90-sparkperf.conf and\n"
	"                  /etc/netplan/90-sparkperf.yaml, which revert removes\n"
	"       DIR := every file under DIR instead of / (an image, a test tree)\n"
	"       SNAPSHOT := a snapshot file; default the newest in DIR" STATE_DIR "\n"
	"apply writes a snapshot first and changes all or nothing; revert restores it.\n"
	"The default command is show.\n";

struct tune_args {
	struct sp_tune_opts opts;
	char devs[MAX_DEVS][SP_IFNAME_MAX];
	char root[PATH_MAX];		/* "" for the running system */
	const char *snapshot;		/* revert */
};

/* "root DIR": an existing directory, canonical; "/" is the running system. */
static int parse_root(const char *dir, char *root)
{
	char real[PATH_MAX];
	struct stat st;

	if (!realpath(dir, real) || stat(real, &st) || !S_ISDIR(st.st_mode))
		return sp_usage_error("tune", "Invalid root: '%s' (an existing directory)", dir);
	snprintf(root, PATH_MAX, "%s", strcmp(real, "/") ? real : "");
	return SP_EXIT_OK;
}

static int parse_devs(const struct sp_list *list, struct tune_args *a)
{
	size_t i;

	if (list->n > MAX_DEVS)
		return sp_usage_error("tune", "Too many netdevs: %zu (at most %d)", list->n,
				      MAX_DEVS);
	for (i = 0; i < list->n; i++) {
		if (!sp_netdev_name_valid(list->items[i]))
			return sp_usage_error("tune", "Invalid netdev name: '%s'", list->items[i]);
		snprintf(a->devs[i], SP_IFNAME_MAX, "%s", list->items[i]);
	}
	a->opts.devs = a->devs;
	a->opts.n_devs = list->n;
	return SP_EXIT_OK;
}

static int parse_args(int argc, char **argv, struct tune_args *a)
{
	const char *profile = NULL, *root = NULL;
	struct sp_list devs = { 0 };
	struct sp_cpuset cpus;
	struct sp_kv kv[] = {
		{ .key = "profile", .type = SP_KV_STRING, .dst = &profile },
		{ .key = "dev", .what = "netdev list", .type = SP_KV_LIST, .dst = &devs },
		{ .key = "irq", .what = "CPU list", .type = SP_KV_STRING, .dst = &a->opts.irq_cpus },
		{ .key = "pfc", .what = "PFC priorities", .type = SP_KV_STRING, .dst = &a->opts.pfc },
		{ .key = "persist", .type = SP_KV_FLAG, .dst = &a->opts.persist },
		{ .key = "root", .type = SP_KV_STRING, .dst = &root },
	};
	char err[256];
	uint8_t mask;
	int ret;

	memset(a, 0, sizeof(*a));
	ret = sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err));
	if (ret) {
		sp_list_free(&devs);
		return sp_usage_error("tune", "%s", err);
	}
	if (profile && sp_parse_profile(profile, &a->opts.profile))
		ret = sp_usage_error("tune", "Invalid profile: '%s' (throughput or latency)",
				     profile);
	if (!ret && kv[1].seen)
		ret = parse_devs(&devs, a);
	sp_list_free(&devs);
	if (!ret && a->opts.irq_cpus && sp_parse_cpulist(a->opts.irq_cpus, &cpus))
		ret = sp_usage_error("tune", "Invalid CPU list: '%s' (e.g. 0-9,12)",
				     a->opts.irq_cpus);
	if (!ret && a->opts.pfc && sp_pfc_parse(a->opts.pfc, &mask))
		ret = sp_usage_error("tune", "Invalid PFC priorities: '%s' (0..7, e.g. 3 or 3,4, "
				     "or none)", a->opts.pfc);
	if (!ret && root)
		ret = parse_root(root, a->root);
	return ret;
}

/* ---- DCB through hostnl.c, for the knobs ---------------------------------------- */

struct tune_io {
	struct sp_knob_io io;
	struct sp_nl rt;
	bool rt_open;
};

static int rtnl(struct tune_io *t)
{
	int ret;

	if (t->rt_open)
		return 0;
	ret = sp_rtnl_open(&t->rt);
	t->rt_open = !ret;
	return ret;
}

/* The kernel's reason, when it gave one, for the knob's message. */
static int dcb_error(struct sp_knob_io *io, struct tune_io *t, int ret)
{
	if (t->rt.err.has_msg)
		snprintf(io->msg, sizeof(io->msg), "%s", t->rt.err.msg);
	return ret;
}

/* The DCB state of dev, on the rtnetlink socket opened on first use. */
static int dcb_get(struct sp_knob_io *io, const char *dev, struct sp_dcb *dcb)
{
	struct tune_io *t = io->priv;
	int ret = rtnl(t);

	if (!ret)
		ret = sp_nl_dcb_get(&t->rt, dev, dcb);
	return ret ? dcb_error(io, t, ret) : 0;
}

static int dcb_read(struct sp_knob_io *io, const char *dev, enum sp_access what, char **value)
{
	char buf[32];
	struct sp_dcb dcb;
	int ret = dcb_get(io, dev, &dcb);

	if (ret)
		return ret;
	if (what == SP_ACCESS_DSCP) {
		*value = sp_dscp_map_format(&dcb.dscp);
	} else {
		if (!dcb.has_pfc)
			return -EOPNOTSUPP;
		sp_pfc_format(dcb.pfc.pfc_en, buf, sizeof(buf));
		*value = strdup(buf);
	}
	return *value ? 0 : -ENOMEM;
}

static int dcb_write(struct sp_knob_io *io, const char *dev, enum sp_access what,
		     const char *value)
{
	struct sp_dscp_map want, del, add;
	struct tune_io *t = io->priv;
	struct sp_dcb dcb;
	uint8_t mask;
	int ret = dcb_get(io, dev, &dcb);

	if (ret)
		return ret;
	if (what == SP_ACCESS_PFC) {
		if (sp_pfc_parse(value, &mask))
			return -EINVAL;
		dcb.pfc.pfc_en = mask;
		return dcb_error(io, t, sp_nl_dcb_set(&t->rt, dev, false, &dcb.pfc, NULL));
	}
	if (sp_dscp_map_parse(value, &want))
		return -EINVAL;
	/* add, then delete: on mlx5 deleting the last DSCP entry turns DSCP trust off */
	sp_dscp_map_diff(&dcb.dscp, &want, &del, &add);
	if (sp_dscp_map_count(&add))
		ret = sp_nl_dcb_set(&t->rt, dev, false, NULL, &add);
	if (!ret && sp_dscp_map_count(&del))
		ret = sp_nl_dcb_set(&t->rt, dev, true, NULL, &del);
	return dcb_error(io, t, ret);
}

static void tune_io_init(struct tune_io *t, const char *root)
{
	memset(t, 0, sizeof(*t));
	sp_knob_io_files(&t->io, root);
	t->io.priv = t;
	/* DCB lives in the running kernel only, not in a tree under a root */
	if (!root[0]) {
		t->io.dcb_read = dcb_read;
		t->io.dcb_write = dcb_write;
	}
}

static void tune_io_close(struct tune_io *t)
{
	if (t->rt_open)
		sp_nl_close(&t->rt);
	t->rt_open = false;
}

/* ---- facts and plan --------------------------------------------------------------- */

struct facts {
	struct sp_host_facts f;
	struct sp_roce_mtu *roce;
	size_t n_roce, cap_roce;
};

/* The RoCE MTUs the module reports; why not, when it cannot be asked. */
static void roce_mtus(struct facts *fa)
{
	struct sp_dev_list list = { 0 };
	struct sp_roce_mtu r;
	struct sp_nl nl;
	size_t i, j;

	if (sp_nl_open(&nl)) {
		fa->f.roce_unknown = "the sparkperf module is not loaded";
		return;
	}
	if (sp_nl_dev_get(&nl, NULL, &list)) {
		fa->f.roce_unknown = "the sparkperf module did not list its devices";
		sp_nl_close(&nl);
		return;
	}
	sp_nl_close(&nl);
	for (i = 0; i < list.n; i++) {
		for (j = 0; j < list.devs[i].n_ports; j++) {
			memset(&r, 0, sizeof(r));
			snprintf(r.dev, sizeof(r.dev), "%s", list.devs[i].name);
			r.port = list.devs[i].ports[j].num;
			r.active_mtu = list.devs[i].ports[j].active_mtu;
			if (sp_array_add(&fa->roce, &fa->n_roce, &fa->cap_roce, sizeof(r), &r))
				break;
		}
	}
	sp_dev_list_free(&list);
	fa->f.roce_known = true;
	fa->f.roce = fa->roce;
	fa->f.n_roce = fa->n_roce;
}

/* Under a root directory nothing of the running host applies. */
static void gather_facts(struct facts *fa, const char *root)
{
	struct sp_ifaddr *addrs;
	bool *shared;
	size_t n;

	memset(fa, 0, sizeof(*fa));
	if (root[0]) {
		fa->f.roce_unknown = "not asked under a root directory";
		return;
	}
	fa->f.has_memlock = !sp_host_memlock(&fa->f.memlock_bytes);
	if (!sp_host_ifaddrs(&addrs, &n)) {
		shared = calloc(n ? n : 1, sizeof(*shared));
		if (shared)
			fa->f.shared_subnet = sp_subnets_shared(addrs, n, shared, fa->f.shared_what,
								sizeof(fa->f.shared_what)) > 0;
		free(shared);
		free(addrs);
	}
	roce_mtus(fa);
}

static void facts_free(struct facts *fa)
{
	free(fa->roce);
	fa->roce = NULL;
}

/*
 * Parses the arguments, opens the knobs' I/O (closed again on failure) and
 * reads every knob; on failure the message is printed and the exit status
 * returned.
 */
static int read_plan(int argc, char **argv, struct tune_args *a, struct tune_io *t,
		     struct sp_plan *plan)
{
	struct facts fa;
	char err[512];
	int ret;

	ret = parse_args(argc, argv, a);
	if (ret)
		return ret;
	tune_io_init(t, a->root);
	gather_facts(&fa, a->root);
	ret = sp_plan_build(&t->io, &a->opts, &fa.f, plan, err, sizeof(err));
	facts_free(&fa);
	if (ret) {
		tune_io_close(t);
		sp_err(stderr, "%s", err);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

/* "sparkperf-ctl tune apply profile latency dev eth0 root /x": the same choices. */
static char *apply_command(const struct tune_args *a)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "sparkperf-ctl tune apply");
	if (a->opts.profile != SP_PROFILE_THROUGHPUT)
		fprintf(m, " profile %s", sp_profile_name(a->opts.profile));
	for (i = 0; i < a->opts.n_devs; i++)
		fprintf(m, "%s%s", i ? "," : " dev ", a->devs[i]);
	if (a->opts.irq_cpus)
		fprintf(m, " irq %s", a->opts.irq_cpus);
	if (a->opts.pfc)
		fprintf(m, " pfc %s", a->opts.pfc);
	if (a->opts.persist)
		fprintf(m, " persist");
	if (a->root[0])
		fprintf(m, " root %s", a->root);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- show and check --------------------------------------------------------------- */

static enum sp_check_status knob_status(const struct sp_knob *k)
{
	switch (k->state) {
	case SP_KNOB_OK:
		return SP_CHECK_PASS;
	case SP_KNOB_CHANGE:
		return k->spec->severity == SP_SEV_FAIL ? SP_CHECK_FAIL : SP_CHECK_WARN;
	case SP_KNOB_SKIP:
		return SP_CHECK_SKIP;
	case SP_KNOB_OBSERVED:
		break;
	}
	if (!k->ch.has_before)
		return SP_CHECK_SKIP;
	return k->as_expected ? SP_CHECK_PASS : SP_CHECK_WARN;
}

/* The apply command, and what does the same by hand. */
static int manual_fix(const struct sp_knob *k, const char *apply, char **fix)
{
	switch (k->spec->kind) {
	case SP_KNOB_SYSCTL:
		return asprintf(fix, "%s (or: sysctl -w %s='%s')", apply, k->ch.name, k->ch.after);
	case SP_KNOB_MTU:
		return asprintf(fix, "%s (or: ip link set dev %s mtu %s)", apply,
				strchr(k->ch.name, ' ') + 1, k->ch.after);
	default:
		return asprintf(fix, "%s (or: echo '%s' > %s)", apply, k->ch.after, k->ch.path);
	}
}

static int check_item(struct sp_checklist *l, const struct sp_knob *k, const char *apply)
{
	enum sp_check_status st = knob_status(k);
	char *fix = NULL;
	int ret;

	if (st == SP_CHECK_SKIP)
		return sp_check_add(l, st, k->ch.name, NULL, "%s", k->note[0] ? k->note : "unknown");
	if (k->state == SP_KNOB_OBSERVED)
		return sp_check_add(l, st, k->ch.name, st == SP_CHECK_PASS ? NULL :
				    "it follows the netdev MTU: check that the RDMA device "
				    "picked up the MTU (rdma link show)",
				    "%s (%s)", k->ch.before, k->where);
	if (k->ch.access == SP_ACCESS_FILE)
		return sp_check_add(l, st, k->ch.name, st == SP_CHECK_PASS ? NULL : apply,
				    "%s: %s%s%s", k->ch.path,
				    !k->ch.has_before ? "absent" :
				    st == SP_CHECK_PASS ? "as recommended" : "other content",
				    k->note[0] ? "; " : "", k->note);
	if (st == SP_CHECK_PASS)
		return sp_check_add(l, st, k->ch.name, NULL, "%s", k->ch.before);
	if (k->ch.access == SP_ACCESS_LINE && manual_fix(k, apply, &fix) < 0)
		return -ENOMEM;
	ret = sp_check_add(l, st, k->ch.name, fix ? fix : apply, "%s, recommended %s%s",
			   k->ch.before[0] ? k->ch.before : "none", k->recommended,
			   k->spec->multi_nic ? " (two netdevs share a subnet)" : "");
	free(fix);
	return ret;
}

/* The plan as a checklist; SP_EXIT_ERROR when an item fails. */
static int print_checklist(const struct tune_args *a, const struct sp_plan *plan)
{
	struct sp_checklist list = { 0 };
	char *apply = apply_command(a);
	size_t i;
	int ret = apply ? 0 : -ENOMEM;

	for (i = 0; i < plan->n && !ret; i++)
		ret = check_item(&list, &plan->knobs[i], apply);
	free(apply);
	if (!ret)
		ret = sp_print_checklist(&list);
	if (!ret && sp_check_count(&list, SP_CHECK_FAIL))
		ret = SP_EXIT_ERROR;
	sp_checklist_free(&list);
	return ret;
}

/* tune show (a table of the knobs) and tune check (a checklist). */
static int report(int argc, char **argv, bool checklist)
{
	struct tune_args a;
	struct sp_plan plan;
	struct tune_io t;
	int ret;

	if (sp_help_requested(argc, argv, tune_usage))
		return SP_EXIT_OK;
	ret = read_plan(argc, argv, &a, &t, &plan);
	if (ret)
		return ret;
	tune_io_close(&t);
	ret = checklist ? print_checklist(&a, &plan) : sp_print_tune_plan(&plan);
	sp_plan_free(&plan);
	if (ret < 0) {
		sp_err(stderr, "printing: %s", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	return ret;
}

static int tune_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return report(argc, argv, false);
}

static int tune_check(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return report(argc, argv, true);
}

/* ---- snapshots ---------------------------------------------------------------------- */

static void hostname(char *buf, size_t len)
{
	if (gethostname(buf, len))
		snprintf(buf, len, "unknown");
	buf[len - 1] = '\0';
}

/* Makes the state directory (and /var/lib under a root); true when it made it. */
static int make_state_dir(struct sp_knob_io *io, bool *made)
{
	static const char *const dirs[] = { "/var", "/var/lib", STATE_DIR };
	size_t i;
	int ret = 0;

	*made = false;
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		ret = io->mkdir(io, dirs[i]);
		if (ret == -EEXIST)
			ret = 0;
		else if (!ret && i + 1 == ARRAY_SIZE(dirs))
			*made = true;
		if (ret)
			break;
	}
	return ret;
}

/*
 * Writes the snapshot under a name no other has: one per second and
 * sequence number. The state directory keeps the user's configuration
 * files' contents: root's only.
 */
static int write_snapshot(struct sp_knob_io *io, const struct sp_snapshot *s, char *path,
			  size_t len)
{
	char name[SP_SNAPSHOT_NAME_MAX], *json, *old;
	unsigned int seq;
	int ret = -EEXIST;

	json = sp_snapshot_to_json(s);
	if (!json)
		return -ENOMEM;
	for (seq = 1; seq < 100 && ret == -EEXIST; seq++) {
		sp_snapshot_name((long long)time(NULL), seq, name, sizeof(name));
		snprintf(path, len, STATE_DIR "/%s", name);
		ret = io->read(io, path, &old, NULL);
		if (!ret) {
			free(old);
			ret = -EEXIST;
		} else if (ret == -ENOENT) {
			ret = io->write(io, path, json, true, 0600);
		}
	}
	free(json);
	return ret;
}

/* What persist leaves unwritten, and why: the changes apply lists do not show it. */
static void warn_not_persisted(const struct sp_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		const struct sp_knob *k = &plan->knobs[i];

		if (k->spec && (k->spec->kind == SP_KNOB_SYSCTL_CONF ||
				k->spec->kind == SP_KNOB_NETPLAN) && k->state == SP_KNOB_SKIP)
			fprintf(stderr, "Warning: not persisted: %s (%s): %s.\n", k->spec->name,
				k->where, k->note);
	}
}

static int tune_apply(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_apply_report r;
	struct sp_snapshot snap;
	char path[PATH_MAX], full[2 * PATH_MAX], host[256], created[32];
	const struct sp_change *failed;
	struct tune_args a;
	struct sp_plan plan;
	struct tune_io t;
	bool dir_made;
	time_t now;
	int ret;

	(void)ctx;
	if (sp_help_requested(argc, argv, tune_usage))
		return SP_EXIT_OK;
	ret = read_plan(argc, argv, &a, &t, &plan);
	if (ret)
		return ret;
	warn_not_persisted(&plan);
	if (!plan.n_changes) {
		sp_plan_free(&plan);
		tune_io_close(&t);
		ret = sp_print_tune_changes(false, NULL, sp_profile_name(a.opts.profile), NULL, 0);
		return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
	}

	now = time(NULL);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	hostname(host, sizeof(host));
	ret = sp_snapshot_from_plan(&snap, &plan, host, created, SPARKPERF_CTL_VERSION,
				    sp_profile_name(a.opts.profile));
	sp_plan_free(&plan);
	if (ret) {
		tune_io_close(&t);
		sp_err(stderr, "%s", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	/* nothing is changed before the values to go back to are on disk */
	ret = make_state_dir(&t.io, &dir_made);
	if (!ret)
		ret = write_snapshot(&t.io, &snap, path, sizeof(path));
	if (ret) {
		sp_err(stderr, "cannot write a snapshot in %s" STATE_DIR ": %s; nothing changed",
		       a.root, strerror(-ret));
		goto out;
	}

	ret = sp_changes_apply(&t.io, snap.changes, snap.n, &r);
	if (!ret) {
		snprintf(full, sizeof(full), "%s%s", a.root, path);
		ret = sp_print_tune_changes(false, full, snap.profile, snap.changes, snap.n);
		goto out;
	}
	failed = &snap.changes[r.failed_at];
	if (!r.undo_failures) {
		sp_err(stderr, "%s: %s; nothing changed", failed->name, r.msg);
		t.io.remove(&t.io, path);
		if (dir_made)
			t.io.rmdir(&t.io, STATE_DIR);
	} else {
		sp_err(stderr, "%s: %s; undoing the changes made before failed for %zu of them "
		       "(first %s: %s): their values before are in %s%s (sparkperf-ctl tune revert)",
		       failed->name, r.msg, r.undo_failures, snap.changes[r.undo_failed_at].name,
		       r.undo_msg, a.root, path);
	}
	ret = SP_EXIT_ERROR;
out:
	tune_io_close(&t);
	sp_snapshot_free(&snap);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* The newest snapshot not yet reverted, in path (relative to the root). */
static int newest_snapshot(struct sp_knob_io *io, char *path, size_t len)
{
	char **names;
	size_t n, i;
	int ret = io->list(io, STATE_DIR, &names, &n);

	if (ret)
		return ret == -ENOENT ? -ENOENT : ret;
	ret = -ENOENT;
	/* names sort by time: the last valid one is the newest */
	for (i = n; i-- > 0 && ret;) {
		if (!sp_snapshot_name_valid(names[i]))
			continue;
		snprintf(path, len, STATE_DIR "/%s", names[i]);
		ret = 0;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* Parses a snapshot; a message and SP_EXIT_ERROR when it is not one to revert here. */
static int load_snapshot(struct sp_knob_io *io, const char *path, struct sp_snapshot *s)
{
	char err[256], host[256], *json;
	int ret = io->read(io, path, &json, NULL);

	if (ret) {
		sp_err(stderr, "cannot read %s%s: %s", io->root, path, strerror(-ret));
		return SP_EXIT_ERROR;
	}
	ret = sp_snapshot_parse(json, s, err, sizeof(err));
	free(json);
	if (ret) {
		sp_err(stderr, "%s%s: %s", io->root, path, err);
		return SP_EXIT_ERROR;
	}
	hostname(host, sizeof(host));
	if (strcmp(s->host, host)) {
		sp_err(stderr, "%s%s was taken on %s, this is %s: not reverting it here", io->root,
		       path, s->host, host);
		sp_snapshot_free(s);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

static int tune_revert(const struct sp_ctx *ctx, int argc, char **argv)
{
	const char *root_arg = NULL, *snapshot = NULL;
	struct sp_kv kv[] = {
		{ .key = "root", .type = SP_KV_STRING, .dst = &root_arg },
	};
	char root[PATH_MAX] = "", path[PATH_MAX], full[2 * PATH_MAX], err[256];
	char reverted[2 * PATH_MAX + 16];
	struct sp_knob_io *io;
	struct sp_apply_report r;
	struct sp_snapshot snap;
	struct sp_knob_io plain;
	struct tune_io t;
	int ret;

	(void)ctx;
	if (sp_help_requested(argc, argv, tune_usage))
		return SP_EXIT_OK;
	if (argc && strcmp(argv[0], "root")) {
		snapshot = argv[0];
		argc--;
		argv++;
	}
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err)))
		return sp_usage_error("tune", "%s", err);
	if (root_arg && parse_root(root_arg, root))
		return SP_EXIT_USAGE;
	tune_io_init(&t, root);
	/* a snapshot named by a path is a file of the running system; a name is one of ours */
	sp_knob_io_files(&plain, "");
	io = snapshot && strchr(snapshot, '/') ? &plain : &t.io;
	if (snapshot && io == &t.io && !sp_snapshot_name_valid(snapshot)) {
		tune_io_close(&t);
		return sp_usage_error("tune", "Invalid snapshot: '%s' (a path, or a tune-*.json "
				      "name in %s" STATE_DIR ")", snapshot, root);
	}
	if (snapshot)
		snprintf(path, sizeof(path), "%s%s%s", io == &t.io ? STATE_DIR : "",
			 io == &t.io ? "/" : "", snapshot);
	ret = snapshot ? 0 : newest_snapshot(&t.io, path, sizeof(path));
	if (ret) {
		tune_io_close(&t);
		sp_err(stderr, "no snapshot to revert in %s" STATE_DIR "%s%s", root,
		       ret == -ENOENT ? "" : ": ", ret == -ENOENT ? "" : strerror(-ret));
		return SP_EXIT_ERROR;
	}
	ret = load_snapshot(io, path, &snap);
	if (ret) {
		tune_io_close(&t);
		return ret;
	}

	ret = sp_changes_revert(&t.io, snap.changes, snap.n, &r);
	tune_io_close(&t);
	snprintf(full, sizeof(full), "%s%s", io->root, path);
	if (ret) {
		sp_err(stderr, "%s: %s; %zu of %zu values restored, the snapshot %s stays",
		       snap.changes[r.failed_at].name, r.msg, r.done, snap.n, full);
		sp_snapshot_free(&snap);
		return SP_EXIT_ERROR;
	}
	/* kept as evidence, out of the way of the next revert */
	snprintf(reverted, sizeof(reverted), "%s.reverted", full);
	if (rename(full, reverted))
		fprintf(stderr, "Warning: reverted, but %s could not be renamed: %s\n", full,
			strerror(errno));
	ret = sp_print_tune_changes(true, full, snap.profile, snap.changes, snap.n);
	sp_snapshot_free(&snap);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

SP_OBJECT_MAIN(tune, tune_usage,
	       { "show", tune_show },
	       { "check", tune_check },
	       { "apply", tune_apply },
	       { "revert", tune_revert })
