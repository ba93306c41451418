// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <net/if.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "parse.h"
#include "traceprint.h"
#include "tracerun.h"

const char *const sp_default_globs[] = {
	"netdev:*",
	"rdma:*",
	"ethtool:*_phy",
	"ethtool:*_bytes",
	"ethtool:*_packets",
	"ethtool:*vport_rdma*",
	"ethtool:*pause*",
	"ethtool:*discard*",
	"ethtool:*_marked",
	"ethtool:rx_out_of_buffer",
	"ethtool:outbound_pci*",
};

const size_t sp_n_default_globs = sizeof(sp_default_globs) / sizeof(sp_default_globs[0]);

/* ---- ports and targets ------------------------------------------------------ */

static bool pair_eq(const struct sp_port_pair *a, const struct sp_port_pair *b)
{
	return a->has_netdev == b->has_netdev && a->has_rdma == b->has_rdma &&
	       (!a->has_netdev || !strcmp(a->netdev, b->netdev)) &&
	       (!a->has_rdma || (!strcmp(a->rdma, b->rdma) && a->port == b->port));
}

static int pair_add(struct sp_port_pair *pairs, size_t max, size_t *n,
		    const struct sp_port_pair *p)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (pair_eq(&pairs[i], p))
			return 0;
	if (*n >= max)
		return -ENOSPC;
	pairs[(*n)++] = *p;
	return 0;
}

static void pair_of_port(const struct sp_dev *d, const struct sp_port *pt,
			 struct sp_port_pair *p)
{
	memset(p, 0, sizeof(*p));
	p->has_rdma = true;
	snprintf(p->rdma, sizeof(p->rdma), "%s", d->name);
	p->port = pt->num;
	p->rate_mbps = pt->rate_mbps;
	if (pt->has_netdev && pt->netdev_name[0]) {
		p->has_netdev = true;
		snprintf(p->netdev, sizeof(p->netdev), "%s", pt->netdev_name);
	}
}

int sp_port_pairs_add(const struct sp_dev_list *devs, const char *name,
		      struct sp_port_pair *pairs, size_t max, size_t *n)
{
	struct sp_port_pair p;
	bool found = false;
	size_t i, k;
	int ret;

	for (i = 0; i < devs->n; i++) {
		const struct sp_dev *d = &devs->devs[i];

		if (strcmp(d->name, name))
			continue;
		for (k = 0; k < d->n_ports; k++) {
			pair_of_port(d, &d->ports[k], &p);
			ret = pair_add(pairs, max, n, &p);
			if (ret)
				return ret;
		}
		if (d->n_ports)
			return 0;
		memset(&p, 0, sizeof(p));
		p.has_rdma = true;
		p.port = 1;
		snprintf(p.rdma, sizeof(p.rdma), "%s", d->name);
		return pair_add(pairs, max, n, &p);
	}
	for (i = 0; i < devs->n; i++)
		for (k = 0; k < devs->devs[i].n_ports; k++) {
			const struct sp_port *pt = &devs->devs[i].ports[k];

			if (!pt->has_netdev || strcmp(pt->netdev_name, name))
				continue;
			pair_of_port(&devs->devs[i], pt, &p);
			ret = pair_add(pairs, max, n, &p);
			if (ret)
				return ret;
			found = true;
		}
	if (found)
		return 0;
	memset(&p, 0, sizeof(p));
	p.has_netdev = true;
	snprintf(p.netdev, sizeof(p.netdev), "%s", name);
	return pair_add(pairs, max, n, &p);
}

static int target_add(struct sp_trace_target *t, size_t max, size_t *n, bool rdma,
		      const char *name, uint32_t port)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (t[i].rdma == rdma && !strcmp(t[i].name, name) && t[i].port == port)
			return 0;
	if (*n >= max)
		return -ENOSPC;
	memset(&t[*n], 0, sizeof(t[*n]));
	t[*n].rdma = rdma;
	t[*n].port = port;
	snprintf(t[*n].name, sizeof(t[*n].name), "%s", name);
	(*n)++;
	return 0;
}

int sp_port_pairs_targets(const struct sp_port_pair *pairs, size_t n,
			  struct sp_trace_target *targets, size_t max, size_t *n_targets)
{
	size_t i;
	int ret = 0;

	*n_targets = 0;
	for (i = 0; i < n && !ret; i++) {
		if (pairs[i].has_netdev)
			ret = target_add(targets, max, n_targets, false, pairs[i].netdev, 0);
		if (!ret && pairs[i].has_rdma)
			ret = target_add(targets, max, n_targets, true, pairs[i].rdma,
					 pairs[i].port);
	}
	return ret;
}

/* An RDMA device, or the netdev of one of their ports. */
static bool known_dev(const struct sp_dev_list *devs, const char *name)
{
	size_t i, k;

	for (i = 0; i < devs->n; i++) {
		if (!strcmp(devs->devs[i].name, name))
			return true;
		for (k = 0; k < devs->devs[i].n_ports; k++)
			if (devs->devs[i].ports[k].has_netdev &&
			    !strcmp(devs->devs[i].ports[k].netdev_name, name))
				return true;
	}
	return false;
}

int sp_port_names_parse(const char *object, const char *list, struct sp_list *names)
{
	size_t i;

	if (sp_parse_list(list, names))
		return sp_usage_error(object, "Invalid device list: '%s' (DEV[,DEV...])", list);
	if (sp_list_repeated(names))
		return sp_usage_error(object, "Invalid device list: '%s' ('%s' given twice)", list,
				      sp_list_repeated(names));
	for (i = 0; i < names->n; i++)
		if (!sp_dev_name_valid(names->items[i]))
			return sp_usage_error(object, "Invalid device name: '%s'", names->items[i]);
	return SP_EXIT_OK;
}

int sp_port_pairs_resolve(struct sp_nl *nl, const char *object, const char *cmd,
			  const struct sp_list *names, struct sp_port_pair *pairs, size_t max,
			  size_t *n)
{
	struct sp_dev_list devs;
	int rc = SP_EXIT_OK, ret;
	size_t i;

	*n = 0;
	ret = sp_nl_dev_get(nl, NULL, &devs);
	if (ret) {
		sp_report_nl_error(stderr, object, cmd, ret, &nl->err);
		return SP_EXIT_ERROR;
	}
	for (i = 0; i < names->n && !rc; i++) {
		if (!known_dev(&devs, names->items[i]) && !if_nametoindex(names->items[i])) {
			sp_err(stderr, "no RDMA device or netdev named '%s'", names->items[i]);
			rc = SP_EXIT_ERROR;
		} else if (sp_port_pairs_add(&devs, names->items[i], pairs, max, n)) {
			rc = sp_usage_error(object, "Too many ports: at most %zu", max);
		}
	}
	sp_dev_list_free(&devs);
	return rc;
}

/* ---- globs ------------------------------------------------------------------ */

/* The source a glob's prefix names (0: any) and its pattern. */
static const char *glob_split(const char *glob, unsigned int *source)
{
	static const struct {
		const char *prefix;
		unsigned int source;
	} prefixes[] = {
		{ "netdev:", SPARKPERF_SRC_NETDEV },
		{ "ethtool:", SPARKPERF_SRC_ETHTOOL },
		{ "rdma:", SPARKPERF_SRC_RDMA },
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(glob, prefixes[i].prefix, strlen(prefixes[i].prefix))) {
			*source = prefixes[i].source;
			return glob + strlen(prefixes[i].prefix);
		}
	*source = 0;
	return glob;
}

bool sp_glob_valid(const char *glob)
{
	unsigned int source;
	const char *p = glob_split(glob, &source);
	bool open = false;
	size_t len = strlen(p);

	if (!len || len >= SPARKPERF_GLOB_MAX)
		return false;
	for (; *p; p++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.*?![]-",
			    *p))
			return false;
		if (*p == '[')
			open = true;
		else if (*p == ']')
			open = false;
	}
	return !open;
}

bool sp_glob_matches(const char *glob, unsigned int source, const char *name)
{
	unsigned int src;
	const char *pat = glob_split(glob, &src);

	if (src && src != source)
		return false;
	return fnmatch(pat, name, 0) == 0;
}

int sp_globs_take(const char *object, const struct sp_list *list, const char **globs)
{
	size_t i;

	if (list->n > SPARKPERF_TRACE_GLOBS_MAX)
		return sp_usage_error(object, "Too many counter globs: %zu (at most %d)", list->n,
				      SPARKPERF_TRACE_GLOBS_MAX);
	for (i = 0; i < list->n; i++) {
		if (!sp_glob_valid(list->items[i]))
			return sp_usage_error(object, "Invalid counter glob: '%s'", list->items[i]);
		globs[i] = list->items[i];
	}
	return SP_EXIT_OK;
}

long sp_glob_unmatched(const struct sp_stream *streams, size_t n, const char *const *globs,
		       size_t n_globs)
{
	size_t g, i, k;

	for (g = 0; g < n_globs; g++) {
		bool hit = false;

		for (i = 0; i < n && !hit; i++)
			for (k = 0; k < streams[i].n_names && !hit; k++)
				hit = sp_glob_matches(globs[g], streams[i].source,
						      streams[i].names[k]);
		if (!hit)
			return (long)g;
	}
	return -1;
}

/* ---- a running trace ---------------------------------------------------------- */

int sp_tracerun_fd(const struct sp_tracerun *r)
{
	return sp_nl_trace_fd(&r->nl);
}

static int add_samples(const struct sp_trace_samples *s, void *arg)
{
	struct sp_tracerun *r = arg;
	size_t i;
	int ret;

	if (s->id != r->tl.trace.id)
		return 0;
	if (s->lost)
		sp_tl_lost(&r->tl, s->lost);
	for (i = 0; i < s->n; i++) {
		/* what LOST counted is skipped, not lost twice */
		if (s->lost && s->s[i].seq > r->tl.next_seq && i == 0)
			r->tl.next_seq = s->s[i].seq;
		ret = sp_tl_add(&r->tl, &s->s[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int sp_tracerun_drain(struct sp_tracerun *r)
{
	if (!r->started)
		return 0;
	return sp_nl_trace_samples(&r->nl, r->tl.trace.id, true, r->tl.next_seq, add_samples, r);
}

static int catch_up(struct sp_tracerun *r)
{
	r->catch_ups++;
	return sp_tracerun_drain(r);
}

static int on_event(const struct sp_trace_event *ev, void *arg)
{
	struct sp_tracerun *r = arg;
	int ret = 0;

	if (ev->id != r->tl.trace.id)
		return 0;
	switch (ev->type) {
	case SP_TRACE_EV_SAMPLES:
		r->batches++;
		/* a sample beyond the next one expected: a batch was lost, fetch it */
		if (ev->samples.n && ev->samples.s[0].seq > r->tl.next_seq && !ev->samples.lost) {
			ret = catch_up(r);
			if (ret)
				return ret;
		}
		return add_samples(&ev->samples, r);
	case SP_TRACE_EV_TABLE:
		return sp_tl_table(&r->tl, &ev->stream);
	case SP_TRACE_EV_END:
		r->ended = true;
		return sp_tl_update(&r->tl, &ev->trace);
	}
	return ret;
}

/*
 * The group dropped messages: the dump has the batches, and the trace's
 * state says whether its END was among them, which nothing would resend:
 * a trace without a duration would be followed for ever.
 */
static int catch_up_dropped(struct sp_tracerun *r)
{
	struct sp_trace t;
	int ret = catch_up(r);

	if (ret)
		return ret;
	ret = sp_nl_trace_get(&r->nl, r->tl.trace.id, &t);
	if (ret)
		return ret;
	if (sp_trace_state_final(t.state)) {
		r->ended = true;
		ret = sp_tl_update(&r->tl, &t);
	}
	sp_trace_free(&t);
	return ret;
}

struct recv_ctx {
	struct sp_tracerun *r;
	int error;
};

static int on_event_cb(const struct sp_trace_event *ev, void *arg)
{
	struct recv_ctx *c = arg;
	int ret = on_event(ev, c->r);

	if (ret) {
		c->error = ret;
		return 1;
	}
	return 0;
}

int sp_tracerun_recv(struct sp_tracerun *r)
{
	struct recv_ctx c = { .r = r };
	int ret;

	if (!r->listen)
		return 0;
	ret = sp_nl_trace_recv(&r->nl, on_event_cb, &c);
	if (c.error)
		return c.error;
	if (ret == -ENOBUFS)
		return catch_up_dropped(r);
	return ret < 0 ? ret : 0;
}

/*
 * TRACE_START on r's open socket and the log of its streams; t: what the
 * kernel answered, for the caller to free (freed here on failure). 0 or
 * -errno, nothing reported; r->started once the trace exists.
 */
static int trace_start(struct sp_tracerun *r, const struct sp_trace_config *cfg, bool keep,
		       struct sp_trace *t)
{
	int ret = sp_nl_trace_start(&r->nl, cfg, t);

	if (ret)
		return ret;
	r->started = true;
	ret = sp_tl_init(&r->tl, t, keep);
	if (ret)
		sp_trace_free(t);
	return ret;
}

/* r emptied for object's cmd, its socket opened: 0 or -errno. */
static int tracerun_open(struct sp_tracerun *r, const char *object, const char *cmd)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->object = object;
	r->cmd = cmd;
	ret = sp_nl_open(&r->nl);
	r->open = !ret;
	return ret;
}

int sp_tracerun_start(struct sp_tracerun *r, const char *object, const char *cmd,
		      const struct sp_trace_config *cfg, const char *const *user_globs,
		      size_t n_user_globs, bool keep, bool listen)
{
	struct sp_trace t;
	long bad;
	int ret;

	ret = tracerun_open(r, object, cmd);
	if (ret)
		return sp_report_open_error(object, cmd, ret, &r->nl.err);
	if (listen) {
		ret = sp_nl_trace_open(&r->nl);
		if (ret == -EPERM || ret == -EACCES) {
			sp_err(stderr, "following a trace needs CAP_NET_ADMIN (run as root)");
			return SP_EXIT_ERROR;
		}
		if (ret) {
			sp_report_nl_error(stderr, object, cmd, ret, &r->nl.err);
			return SP_EXIT_ERROR;
		}
		r->listen = true;
	}
	ret = trace_start(r, cfg, keep, &t);
	if (ret == -ENOENT && !r->started && n_user_globs == 1) {
		sp_err(stderr, "the counter glob '%s' matches no counter of the devices traced",
		       user_globs[0]);
		return SP_EXIT_ERROR;
	}
	if (ret == -ENOENT && !r->started && n_user_globs) {
		sp_err(stderr, "none of the counter globs matches a counter of the devices traced");
		return SP_EXIT_ERROR;
	}
	if (ret && !r->started) {
		sp_report_nl_error(stderr, object, cmd, ret, &r->nl.err);
		return SP_EXIT_ERROR;
	}
	if (ret) {
		sp_err(stderr, "%s", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	bad = sp_glob_unmatched(t.streams, t.n_streams, user_globs, n_user_globs);
	sp_trace_free(&t);
	if (bad >= 0) {
		sp_nl_trace_stop(&r->nl, r->tl.trace.id);
		r->ended = true;
		sp_err(stderr, "the counter glob '%s' matches no counter of the devices traced",
		       user_globs[bad]);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

int sp_tracerun_finish(struct sp_tracerun *r)
{
	struct sp_trace t;
	int ret;

	if (!r->started)
		return 0;
	if (!r->ended && !sp_trace_state_final(r->tl.trace.state)) {
		ret = sp_nl_trace_stop(&r->nl, r->tl.trace.id);
		if (ret && ret != -ENOENT)
			return ret;
	}
	/* what the group has not brought yet, straight from the ring */
	ret = sp_tracerun_recv(r);
	if (!ret)
		ret = catch_up(r);
	if (ret)
		return ret;
	ret = sp_nl_trace_get(&r->nl, r->tl.trace.id, &t);
	if (ret)
		return ret;
	ret = sp_tl_update(&r->tl, &t);
	sp_trace_free(&t);
	return ret;
}

bool sp_tracerun_failed(const struct sp_tracerun *r)
{
	const struct sp_trace *t = &r->tl.trace;
	const char *why;

	if (t->state != SPARKPERF_TRACE_STATE_FAILED)
		return false;
	why = sp_session_error(t->has_error_msg, t->error_msg, t->has_error, t->error);
	sp_err(stderr, "%s", why ? why : "the trace failed");
	return true;
}

void sp_tracerun_close(struct sp_tracerun *r)
{
	if (r->open)
		sp_nl_close(&r->nl);
	if (r->started)
		sp_tl_free(&r->tl);
	r->open = false;
	r->started = false;
}

/* ---- trace on ---------------------------------------------------------------- */

int sp_parse_on_off(const char *s, bool *on)
{
	if (!strcmp(s, "on"))
		*on = true;
	else if (!strcmp(s, "off"))
		*on = false;
	else
		return -EINVAL;
	return 0;
}

/* The RDMA port whose netdev has ifindex, as a pair; false when none. */
static bool pair_of_ifindex(const struct sp_dev_list *devs, uint32_t ifindex,
			    struct sp_port_pair *p)
{
	size_t i, k;

	for (i = 0; i < devs->n; i++)
		for (k = 0; k < devs->devs[i].n_ports; k++)
			if (devs->devs[i].ports[k].has_netdev &&
			    devs->devs[i].ports[k].netdev_ifindex == ifindex) {
				pair_of_port(&devs->devs[i], &devs->devs[i].ports[k], p);
				return true;
			}
	return false;
}

void sp_port_pair_label(const struct sp_port_pair *p, char *buf, size_t size)
{
	if (p->has_netdev && p->has_rdma)
		snprintf(buf, size, "%s (%s)", p->netdev, p->rdma);
	else if (p->has_netdev)
		snprintf(buf, size, "%s", p->netdev);
	else
		snprintf(buf, size, "%s/%u", p->rdma, p->port);
}

/* The ports a run's trace holds; those found beyond them are named. */
#define RUN_TRACE_PORTS (SPARKPERF_TRACE_TARGETS_MAX / 2)
#define RUN_PORTS_MAX 32

/* "Warning: ..." naming the ports found beyond the first RUN_TRACE_PORTS. */
static void warn_untraced(const struct sp_port_pair *found, size_t n_found, bool more)
{
	char label[SP_IFNAME_MAX + SPARKPERF_DEV_NAME_MAX + 4];
	size_t i;

	fprintf(stderr, "Warning: a trace holds at most %d ports; not traced:",
		RUN_TRACE_PORTS);
	for (i = RUN_TRACE_PORTS; i < n_found; i++) {
		sp_port_pair_label(&found[i], label, sizeof(label));
		fprintf(stderr, "%s %s", i > RUN_TRACE_PORTS ? "," : "", label);
	}
	fprintf(stderr, "%s.\n", more ? " and more" : "");
}

int sp_tracerun_for_run(struct sp_tracerun *r, const char *object, const char *cmd,
			const char *const *names, size_t n_names, const struct sp_addr *peers,
			size_t n_peers, bool all)
{
	struct sp_port_pair found[RUN_PORTS_MAX], p;
	struct sp_trace_config *cfg;
	struct sp_dev_list list;
	struct sp_trace t;
	size_t n = 0, i, k;
	struct sp_nl rt;
	bool more = false;
	int ret;

	ret = tracerun_open(r, object, cmd);
	if (ret)
		return ret;
	ret = sp_nl_dev_get(&r->nl, NULL, &list);
	if (ret)
		return ret;
	for (i = 0; i < n_names; i++)
		more |= sp_port_pairs_add(&list, names[i], found, RUN_PORTS_MAX, &n) == -ENOSPC;
	if (!n_names && n_peers && !sp_rtnl_open(&rt)) {
		for (i = 0; i < n_peers; i++) {
			struct sp_route route;

			if (!sp_nl_route_get(&rt, &peers[i], &route) && route.oif &&
			    pair_of_ifindex(&list, route.oif, &p))
				more |= pair_add(found, RUN_PORTS_MAX, &n, &p) == -ENOSPC;
		}
		sp_nl_close(&rt);
	}
	/* not told by the route (a local address): every RDMA port */
	all = all && !n;
	for (i = 0; all && i < list.n; i++)
		for (k = 0; k < list.devs[i].n_ports; k++) {
			pair_of_port(&list.devs[i], &list.devs[i].ports[k], &p);
			more |= pair_add(found, RUN_PORTS_MAX, &n, &p) == -ENOSPC;
		}
	sp_dev_list_free(&list);
	if (!n) {
		r->no_target = true;
		return -ENODEV;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return -ENOMEM;
	sp_port_pairs_targets(found, n < RUN_TRACE_PORTS ? n : RUN_TRACE_PORTS, cfg->targets,
			      SPARKPERF_TRACE_TARGETS_MAX, &cfg->n_targets);
	for (i = 0; i < sp_n_default_globs; i++)
		cfg->globs[i] = sp_default_globs[i];
	cfg->n_globs = sp_n_default_globs;
	cfg->has_netdev_period = cfg->has_ethtool_period = cfg->has_rdma_period = true;
	cfg->netdev_period_us = cfg->ethtool_period_us = cfg->rdma_period_us =
		SP_RUN_TRACE_PERIOD_US;
	cfg->has_buffer = true;
	cfg->buffer_bytes = SP_RUN_TRACE_BUFFER;
	ret = trace_start(r, cfg, false, &t);
	free(cfg);
	if (ret)
		return ret;
	sp_trace_free(&t);
	if (n > RUN_TRACE_PORTS)
		warn_untraced(found, n, more);
	return 0;
}

int sp_run_traces_init(struct sp_run_traces *rt, bool on, size_t max)
{
	memset(rt, 0, sizeof(*rt));
	rt->on = on;
	if (!on)
		return SP_EXIT_OK;
	rt->runs = calloc(max, sizeof(*rt->runs));
	rt->logs = calloc(max, sizeof(*rt->logs));
	rt->sizes = calloc(max, sizeof(*rt->sizes));
	if (!rt->runs || !rt->logs || !rt->sizes) {
		sp_run_traces_free(rt);
		sp_err(stderr, "%s", strerror(ENOMEM));
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

int sp_run_traces_begin(struct sp_run_traces *rt, const char *object, uint64_t size,
			const struct sp_addr *peers, size_t n_peers,
			const char (*devs)[SPARKPERF_DEV_NAME_MAX], size_t n_devs)
{
	struct sp_tracerun *r = &rt->runs[rt->n];
	const char **names;
	size_t i;
	int ret;

	if (!rt->on)
		return SP_EXIT_OK;
	names = calloc(n_devs ? n_devs : 1, sizeof(*names));
	if (!names) {
		sp_err(stderr, "%s", strerror(ENOMEM));
		return SP_EXIT_ERROR;
	}
	for (i = 0; i < n_devs; i++)
		names[i] = devs[i];
	ret = sp_tracerun_for_run(r, object, "run", names, n_devs, peers, n_peers, true);
	free(names);
	rt->sizes[rt->n] = size;
	rt->n++;
	if (!ret)
		return SP_EXIT_OK;
	if (!r->open)
		return sp_report_open_error(object, "run", ret, &r->nl.err);
	if (r->no_target)
		sp_err(stderr, "trace on: no RDMA device to trace");
	else
		sp_report_nl_error(stderr, object, "run", ret, &r->nl.err);
	return SP_EXIT_ERROR;
}

void sp_run_traces_end(struct sp_run_traces *rt, const char *object)
{
	struct sp_tracerun *t;
	int ret;

	if (!rt->on || !rt->n)
		return;
	t = &rt->runs[rt->n - 1];
	if (!t->started)
		return;
	ret = sp_tracerun_finish(t);
	if (ret) {
		sp_report_nl_error(stderr, object, "run", ret, &t->nl.err);
		return;
	}
	rt->logs[rt->n - 1] = &t->tl;
}

void sp_run_traces_print(const struct sp_run_traces *rt)
{
	char title[64], size[SP_SIZE_STRLEN];
	size_t i;

	for (i = 0; rt->on && i < rt->n; i++) {
		if (!rt->logs[i])
			continue;
		snprintf(title, sizeof(title), "\nCounters during the run of %s:",
			 rt->sizes[i] ? sp_fmt_size(rt->sizes[i], size, sizeof(size)) :
			 "the default size");
		sp_print_trace_report(rt->logs[i], title, false, NULL);
	}
}

void sp_run_traces_free(struct sp_run_traces *rt)
{
	size_t i;

	for (i = 0; rt->runs && i < rt->n; i++)
		sp_tracerun_close(&rt->runs[i]);
	free(rt->runs);
	free(rt->logs);
	free(rt->sizes);
	memset(rt, 0, sizeof(*rt));
}
