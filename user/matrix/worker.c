// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <json-c/json.h>
#include <sys/wait.h>

#include "mxargs.h"
#include "report.h"
#include "schedule.h"
#include "topology.h"
#include "worker.h"
#include "lib/halves.h"
#include "lib/nl.h"
#include "lib/print.h"
#include "lib/selfrun.h"
#include "lib/spawn.h"
#include "version.h"

/*
 * The tests' shapes, as a user repeats one by hand: the probe, a few
 * round trips; latency, a second of them; bandwidth, 4 QPs of SIZE writes
 * for DURATION (check's probe's shape).
 */
#define PROBE_ARGS "size 64 iters 20"
#define LAT_ARGS "size 64 duration 1"
#define BW_ARGS_FMT "size %s qps 4 duration %u"
/* A run's connection and teardown on top of its length, under emulation too. */
#define RUN_GRACE_MS 60000
#define SERVER_TIMEOUT_MS 30000

const char sp_mx_worker_usage[] =
	"Usage: sparkperf-matrix [ tests TEST[,TEST] ] [ size SIZE ] [ duration SECS ]\n"
	"                        [ pattern { pairs | all | incast } ] [ ctl PATH ]\n"
	"Started one per host by mpirun or srun (sparkperf-ctl matrix runs mpirun);\n"
	"rank 0 prints progress on stderr and the result, JSON, on stdout, which\n"
	"'sparkperf-ctl matrix show FILE' prints as tables. PATH: sparkperf-ctl, by\n"
	"default the one beside this program.\n";

int sp_mx_worker_args(int argc, char **argv, struct sp_mx_worker_cfg *cfg, char *err, size_t len)
{
	struct sp_mx_test_args a;
	const char *ctl = NULL;
	struct sp_kv kv[] = {
		SP_MX_TEST_KV(&a),
		{ "ctl", "sparkperf-ctl path", SP_KV_STRING, 0, 0, &ctl, false },
	};
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	sp_mx_test_args_init(&a);
	ret = sp_parse_kv(argc, argv, kv, sizeof(kv) / sizeof(kv[0]), err, len);
	if (!ret)
		ret = sp_mx_config_make(&a, &cfg->run, err, len);
	sp_list_free(&a.tests);
	if (ret)
		return ret;
	if (ctl)
		snprintf(cfg->ctl, sizeof(cfg->ctl), "%s", ctl);
	else if (sp_mx_sibling("sparkperf-ctl", cfg->ctl, sizeof(cfg->ctl)))
		return sp_invalid(err, len, "cannot find sparkperf-ctl beside this program: give "
				  "ctl PATH");
	return 0;
}

/* ---- this rank's host ------------------------------------------------------------- */

/* Its halves that can be tested: ACTIVE, with an IPv4 RoCE v2 GID. */
static void discover(struct sp_mx_host *me)
{
	struct sp_halves h = { 0 };
	struct sp_mx_half *x;
	struct sp_nl_err e;
	size_t i;
	int ret = sp_halves_this_host(&h, &e);

	/* a longer node name is cut: it only names the host */
	snprintf(me->name, sizeof(me->name), "%.*s", (int)sizeof(me->name) - 1, h.host);
	if (ret)
		snprintf(me->error, sizeof(me->error), "cannot read its halves: %.*s",
			 (int)sizeof(me->error) - 32,
			 ret == -ENOENT ? "the sparkperf module is not loaded" :
			 e.has_msg ? e.msg : strerror(-ret));
	for (i = 0; !ret && i < h.n && me->n_halves < SP_MX_HALVES_MAX; i++) {
		if (!h.v[i].active || !h.v[i].has_ipv4)
			continue;
		x = &me->halves[me->n_halves++];
		snprintf(x->dev, sizeof(x->dev), "%s", h.v[i].dev);
		snprintf(x->netdev, sizeof(x->netdev), "%s", h.v[i].netdev);
		x->addr = h.v[i].addr;
		x->prefix = h.v[i].prefix;
		x->port = (int8_t)sp_mx_netdev_port(x->netdev);
	}
	if (!ret && !me->n_halves)
		snprintf(me->error, sizeof(me->error),
			 "no ACTIVE RDMA port with an IPv4 RoCE v2 GID");
	sp_halves_free(&h);
}

/* sparkperf-ctl -j server ARGS: its document, or NULL with why in err. */
static json_object *ctl_server(const char *ctl, const char *cmd, const char *id, char *err,
			       size_t len)
{
	char *argv[] = { (char *)ctl, "-j", "server", (char *)cmd, id ? "id" : NULL, (char *)id,
			 NULL };
	json_object *doc = NULL;
	struct sp_spawn s;
	int ret = sp_spawn_capture(argv, SERVER_TIMEOUT_MS, &s);

	if (ret) {
		snprintf(err, len, "cannot run sparkperf-ctl server %s: %s", cmd, strerror(-ret));
		return NULL;
	}
	if (s.exec_errno)
		snprintf(err, len, "cannot run %s: %s", ctl, strerror(s.exec_errno));
	else if (!WIFEXITED(s.status) || WEXITSTATUS(s.status))
		sp_spawn_last_line(s.err, err, len);
	else
		/* server stop prints nothing when it stopped the server */
		doc = *s.out ? json_tokener_parse(s.out) : json_object_new_object();
	if (!doc && !*err)
		snprintf(err, len, "sparkperf-ctl server %s printed no JSON", cmd);
	sp_spawn_free(&s);
	return doc;
}

/*
 * A server on this host: the one running, or one started (its id in
 * *started, to stop at the end). false with why in err.
 */
static bool server_ensure(const char *ctl, char *started, size_t started_len, char *err,
			  size_t len)
{
	json_object *doc = ctl_server(ctl, "show", NULL, err, len), *id = NULL, *srv;

	*started = '\0';
	if (!doc)
		return false;
	if (json_object_is_type(doc, json_type_array) && json_object_array_length(doc)) {
		json_object_put(doc);
		return true;
	}
	json_object_put(doc);
	doc = ctl_server(ctl, "start", NULL, err, len);
	srv = doc && json_object_is_type(doc, json_type_array) ?
	      json_object_array_get_idx(doc, 0) : doc;
	if (srv && json_object_object_get_ex(srv, "id", &id) && id)
		snprintf(started, started_len, "%s", json_object_get_string(id));
	else if (doc)
		snprintf(err, len, "sparkperf-ctl server start gave no id");
	json_object_put(doc);
	return *started;
}

/* ---- one rank's tests ------------------------------------------------------------- */

static void peer_of(const struct sp_mx_doc *d, const struct sp_mx_test *t, char *buf, size_t len)
{
	inet_ntop(AF_INET, &d->hosts[t->server].halves[t->server_half].addr, buf, len);
}

static const char *dev_of(const struct sp_mx_doc *d, const struct sp_mx_test *t)
{
	return d->hosts[t->client].halves[t->client_half].dev;
}

static void add_error(struct sp_mx_result *r, const char *test, const char *why)
{
	size_t used = strlen(r->error);

	snprintf(r->error + used, sizeof(r->error) - used, "%s%s: %s", used ? "; " : "", test, why);
}

/* A test of the pairs rounds or a probe: lat, then bw. */
static void run_pair(const struct sp_mx_worker_cfg *cfg, const struct sp_mx_doc *d,
		     struct sp_mx_result *r)
{
	char peer[SP_IPV4_STRLEN], size[SP_SIZE_STRLEN], bw_args[64];
	struct sp_selfrun run = { .prog = cfg->ctl, .peer = peer, .dev = dev_of(d, &r->t) };
	bool probe = r->t.pattern == SP_MX_PROBE;
	struct sp_selfrun_lat lat;
	struct sp_selfrun_bw bw;

	peer_of(d, &r->t, peer, sizeof(peer));
	if (probe || cfg->run.lat) {
		run.args = probe ? PROBE_ARGS : LAT_ARGS;
		run.timeout_ms = RUN_GRACE_MS;
		sp_selfrun_lat(&run, &lat);
		r->has_lat = lat.ok;
		r->one_way_p50_us = lat.rtt_p50_ns / 2e3;
		r->one_way_p99_us = lat.rtt_p99_ns / 2e3;
		if (!lat.ok)
			add_error(r, probe ? "probe" : "lat", lat.why);
	}
	if (probe || !cfg->run.bw)
		return;
	snprintf(bw_args, sizeof(bw_args), BW_ARGS_FMT,
		 sp_fmt_size(cfg->run.size_bytes, size, sizeof(size)), cfg->run.duration_s);
	run.args = bw_args;
	run.timeout_ms = cfg->run.duration_s * 1000LL + RUN_GRACE_MS;
	sp_selfrun_bw(&run, &bw);
	r->has_bw = bw.ok;
	r->gbit_per_s = bw.gbit_per_s;
	if (!bw.ok)
		add_error(r, "bw", bw.why);
}

/* The tests of a stress round: one bw run of a session each, started together. */
static void run_stress(const struct sp_mx_worker_cfg *cfg, const struct sp_mx_doc *d,
		       struct sp_mx_result *r, size_t n)
{
	char peers[SP_SELFRUN_SESSIONS * SP_IPV4_STRLEN], devs[SP_SELFRUN_SESSIONS * 64];
	char size[SP_SIZE_STRLEN], bw_args[64], peer[SP_IPV4_STRLEN];
	struct sp_selfrun run = { .prog = cfg->ctl, .peer = peers, .dev = devs, .args = bw_args };
	size_t i, pl = 0, dl = 0;
	struct sp_selfrun_bw bw;

	/* one bw run takes as many sessions as the module does */
	for (i = SP_SELFRUN_SESSIONS; i < n; i++)
		add_error(&r[i], "bw", "not run: one bw run takes at most 64 sessions");
	if (n > SP_SELFRUN_SESSIONS)
		n = SP_SELFRUN_SESSIONS;
	for (i = 0; i < n; i++) {
		peer_of(d, &r[i].t, peer, sizeof(peer));
		pl += (size_t)snprintf(peers + pl, sizeof(peers) - pl, "%s%s", i ? "," : "", peer);
		dl += (size_t)snprintf(devs + dl, sizeof(devs) - dl, "%s%s", i ? "," : "",
				       dev_of(d, &r[i].t));
	}
	snprintf(bw_args, sizeof(bw_args), BW_ARGS_FMT,
		 sp_fmt_size(cfg->run.size_bytes, size, sizeof(size)), cfg->run.duration_s);
	run.timeout_ms = cfg->run.duration_s * 1000LL + RUN_GRACE_MS;
	sp_selfrun_bw(&run, &bw);
	for (i = 0; i < n; i++) {
		r[i].has_bw = i < bw.n && bw.session_ok[i];
		r[i].gbit_per_s = bw.session_gbit_per_s[i];
		if (!r[i].has_bw)
			add_error(&r[i], "bw", *bw.why ? bw.why : "no session");
	}
}

static void run_tests(const struct sp_mx_worker_cfg *cfg, const struct sp_mx_doc *d,
		      struct sp_mx_result *r, size_t n)
{
	size_t i;

	if (n && (r[0].t.pattern == SP_MX_ALL || r[0].t.pattern == SP_MX_INCAST)) {
		run_stress(cfg, d, r, n);
		return;
	}
	for (i = 0; i < n; i++)
		run_pair(cfg, d, &r[i]);
}

/* ---- rounds --------------------------------------------------------------------- */

/* Rank 0: a round's tests, every link of its pairs. */
static int round_tests(const struct sp_mx_link *links, size_t n_links,
		       const struct sp_mx_round *round, uint16_t num, struct sp_mx_test **out,
		       uint32_t *n)
{
	size_t cap = 0, k, i, count = 0;
	struct sp_mx_test t;
	int ret = 0;

	*out = NULL;
	for (k = 0; k < round->n && !ret; k++)
		for (i = 0; i < n_links && !ret; i++) {
			const struct sp_mx_link *l = &links[i];

			if (l->a != round->pairs[k].client || l->b != round->pairs[k].server)
				continue;
			t = (struct sp_mx_test){ l->a, l->a_half, l->b, l->b_half,
						 round->pattern, num };
			ret = sp_array_add(out, &count, &cap, sizeof(t), &t);
		}
	*n = (uint32_t)count;
	return ret;
}

static void progress_line(const struct sp_mx_doc *d, const struct sp_mx_result *r, size_t rounds,
			  FILE *f)
{
	const struct sp_mx_host *c = &d->hosts[r->t.client], *s = &d->hosts[r->t.server];

	fprintf(f, "%s %u/%zu: %s %s -> %s %s", r->t.pattern == SP_MX_PROBE ? "probe" : "round",
		r->t.round, rounds, c->name, c->halves[r->t.client_half].dev, s->name,
		s->halves[r->t.server_half].dev);
	if (r->t.pattern == SP_MX_PROBE && r->has_lat)
		fprintf(f, ": reached, one-way p50 %.2f us", r->one_way_p50_us);
	else if (r->has_lat)
		fprintf(f, ": lat one-way p50 %.2f us, p99 %.2f us", r->one_way_p50_us,
			r->one_way_p99_us);
	if (r->has_bw)
		fprintf(f, "%s bw %.2f Gbit/s", r->has_lat ? "," : ":", r->gbit_per_s);
	if (*r->error)
		fprintf(f, "%s failed: %s", r->has_lat || r->has_bw ? ";" : ":", r->error);
	fprintf(f, "\n");
	fflush(f);
}

struct phase {
	struct sp_mx_comm *c;
	const struct sp_mx_worker_cfg *cfg;
	struct sp_mx_doc *d;
	FILE *progress;
	/* rank 0: the links whose tests the rounds run */
	const struct sp_mx_link *links;
	size_t n_links;
	/* rank 0: the results, kept or not by the caller */
	int (*keep)(struct sp_mx_doc *d, const struct sp_mx_result *r);
};

/* One round on every rank: its tests from rank 0, this rank's run, the results to rank 0. */
static int run_round(struct phase *p, const struct sp_mx_round *round, uint16_t num,
		     size_t rounds)
{
	struct sp_mx_comm *c = p->c;
	struct sp_mx_test *tests = NULL;
	struct sp_mx_result *mine = NULL, *all = NULL;
	size_t k = 0, per[SP_MX_HOSTS_MAX] = { 0 }, i, j, m = 0;
	uint32_t n = 0;
	int ret = 0;

	if (!c->rank)
		ret = round_tests(p->links, p->n_links, round, num, &tests, &n);
	if (!ret)
		ret = c->bcast(c, &n, sizeof(n));
	if (!ret && c->rank && n && !(tests = calloc(n, sizeof(*tests))))
		ret = -ENOMEM;
	if (!ret && n)
		ret = c->bcast(c, tests, n * sizeof(*tests));
	for (i = 0; !ret && i < n; i++)
		per[tests[i].client]++;
	for (i = 0; i < (size_t)c->size; i++)
		k = per[i] > k ? per[i] : k;
	/* every rank sends k results, its own first: gather takes one size */
	mine = calloc(k ? k : 1, sizeof(*mine));
	all = c->rank ? NULL : calloc((k ? k : 1) * (size_t)c->size, sizeof(*all));
	if (!ret && (!mine || (!c->rank && !all)))
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++)
		if (tests[i].client == c->rank)
			mine[m++].t = tests[i];
	if (!ret)
		run_tests(p->cfg, p->d, mine, m);
	if (!ret && k)
		ret = c->gather(c, mine, all, k * sizeof(*mine));
	for (i = 0; !ret && !c->rank && i < (size_t)c->size; i++)
		for (j = 0; j < per[i] && !ret; j++) {
			progress_line(p->d, &all[i * k + j], rounds, p->progress);
			ret = p->keep(p->d, &all[i * k + j]);
		}
	free(tests);
	free(mine);
	free(all);
	return ret ? ret : c->barrier(c);
}

/* Every round of s (rank 0's; the others learn their count from it). */
static int run_rounds(struct phase *p, const struct sp_mx_schedule *s, uint32_t *count)
{
	struct sp_mx_round none = { 0 };
	uint32_t n = p->c->rank ? 0 : (uint32_t)s->n, i;
	int ret = p->c->bcast(p->c, &n, sizeof(n));

	for (i = 0; !ret && i < n; i++)
		ret = run_round(p, p->c->rank ? &none : &s->rounds[i], (uint16_t)(i + 1), n);
	*count = n;
	return ret;
}

/* ---- the phases (rank 0 keeps what comes back) -------------------------------------- */

/* A probe that came back is a link; one that failed is kept as its pair's result. */
static int keep_probe(struct sp_mx_doc *d, const struct sp_mx_result *r)
{
	struct sp_mx_link l = { r->t.client, r->t.client_half, r->t.server, r->t.server_half };

	if (r->has_lat)
		return sp_array_add(&d->links, &d->n_links, &d->links_cap, sizeof(l), &l);
	return sp_array_add(&d->results, &d->n_results, &d->results_cap, sizeof(*r), r);
}

static int keep_result(struct sp_mx_doc *d, const struct sp_mx_result *r)
{
	return sp_array_add(&d->results, &d->n_results, &d->results_cap, sizeof(*r), r);
}

/* Is there a link from host a to host b? */
static void adjacency(const struct sp_mx_link *links, size_t n, bool (*adj)[SP_MX_HOSTS_MAX])
{
	size_t i;

	memset(adj, 0, sizeof(bool) * SP_MX_HOSTS_MAX * SP_MX_HOSTS_MAX);
	for (i = 0; i < n; i++)
		adj[links[i].a][links[i].b] = true;
}

/*
 * Rank 0 schedules the rounds over p->links (the others learn them round by
 * round) and keeps the results with keep.
 */
static int phase_run(struct phase *p, enum sp_mx_pattern pattern,
		     int (*keep)(struct sp_mx_doc *d, const struct sp_mx_result *r),
		     uint32_t *rounds)
{
	bool adj[SP_MX_HOSTS_MAX][SP_MX_HOSTS_MAX];
	struct sp_mx_schedule s = { 0 };
	int ret = 0;

	if (!p->c->rank) {
		adjacency(p->links, p->n_links, adj);
		ret = sp_mx_schedule(p->d->n_hosts, (const bool (*)[SP_MX_HOSTS_MAX])adj, pattern,
				     &s);
	}
	p->keep = keep;
	if (!ret)
		ret = run_rounds(p, &s, rounds);
	sp_mx_schedule_free(&s);
	return ret;
}

/* The probes of every pair of halves that share a subnet: d->links, those that came back. */
static int probe_phase(struct phase *p)
{
	struct sp_mx_doc *d = p->d;
	struct sp_mx_link *candidates = NULL;
	uint32_t rounds;
	int ret = 0;

	if (!p->c->rank) {
		ret = sp_mx_candidates(d);
		candidates = d->links;
		p->links = candidates;
		p->n_links = d->n_links;
		d->links = NULL;
		d->n_links = d->links_cap = 0;
	}
	if (!ret)
		ret = phase_run(p, SP_MX_PROBE, keep_probe, &rounds);
	free(candidates);
	return ret;
}

static int measure_phase(struct phase *p)
{
	if (!p->c->rank) {
		sp_mx_topology(p->d);
		fprintf(p->progress,
			"cabling %s: %zu of the pairs of halves reached each other%s%s\n",
			sp_mx_cabling_str(p->d->topo.cabling), p->d->n_links,
			*p->d->topo.mistake ? "; " : "", p->d->topo.mistake);
		p->links = p->d->links;
		p->n_links = p->d->n_links;
	}
	return phase_run(p, p->d->cfg.pattern, keep_result, &p->d->rounds);
}

/* ---- the run ---------------------------------------------------------------------- */

/* This rank's host, with a server running, to every rank. */
static int hosts_gather(struct sp_mx_comm *c, const struct sp_mx_worker_cfg *cfg,
			struct sp_mx_doc *d, char *started, size_t len)
{
	struct sp_mx_host me = { 0 };
	char err[SP_MX_ERROR_MAX] = "";

	if (cfg->discover)
		cfg->discover(&me, c->rank);
	else
		discover(&me);
	/* its halves stay: as a client it still tests the others */
	if (!*me.error && !server_ensure(cfg->ctl, started, len, err, sizeof(err)))
		snprintf(me.error, sizeof(me.error), "no sparkperf server: %s", err);
	d->n_hosts = (size_t)c->size;
	return c->allgather(c, &me, d->hosts, sizeof(me));
}

int sp_mx_worker_run(struct sp_mx_comm *c, const struct sp_mx_worker_cfg *cfg, FILE *out,
		     FILE *progress)
{
	struct sp_mx_doc *d = sp_mx_doc_new();
	struct phase p = { .c = c, .cfg = cfg, .d = d, .progress = progress };
	char started[32] = "", err[SP_MX_ERROR_MAX] = "";
	json_object *doc;
	int ret = d ? 0 : -ENOMEM;

	if (!ret && c->size > SP_MX_HOSTS_MAX) {
		fprintf(stderr, "sparkperf-matrix: %d ranks, at most %d (one per host)\n", c->size,
			SP_MX_HOSTS_MAX);
		sp_mx_doc_free(d);
		return 1;
	}
	if (!ret) {
		d->cfg = cfg->run;
		snprintf(d->version, sizeof(d->version), "%s", SPARKPERF_CTL_VERSION);
		ret = hosts_gather(c, cfg, d, started, sizeof(started));
	}
	/* every server up before the first probe */
	if (!ret)
		ret = c->barrier(c);
	if (!ret && !c->rank)
		fprintf(progress, "matrix of %zu hosts: probing every pair of halves that share a "
			"subnet\n", d->n_hosts);
	if (!ret)
		ret = probe_phase(&p);
	if (!ret)
		ret = measure_phase(&p);
	if (!ret && !c->rank) {
		doc = sp_mx_doc_json(d);
		sp_print_init(out, true, false);
		ret = sp_print_json(doc);
		if (!ret)
			ret = sp_print_flush();
	}
	/* the last round ended with a barrier: no test uses the server any more */
	if (*started && !ctl_server(cfg->ctl, "stop", started, err, sizeof(err)))
		fprintf(stderr, "sparkperf-matrix: %s: cannot stop server %s: %s\n",
			d->hosts[c->rank].name, started, err);
	if (ret)
		fprintf(stderr, "sparkperf-matrix: rank %d: %s\n", c->rank, strerror(-ret));
	sp_mx_doc_free(d);
	return ret ? 1 : 0;
}
