// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl bw: bandwidth sessions. "bw run" starts one kernel session
 * per peer (or per peer and device: the two halves of a Spark port), all
 * at once and, with several, told to start sending at the same moment;
 * one such run per message size of a sweep. It follows them on the
 * "progress" group (BW_GET as a safety net) and prints what they measured,
 * also after Ctrl-C.
 *
 * A session lives as long as the netlink socket that started it (see
 * lat.c), so each session of a run has its own socket, closed once its
 * results are read; the control socket of sp_run follows them all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "sessionnl.h"
#include "sessrun.h"
#include "lib/parse.h"
#include "lib/show.h"
#include "bwprint.h"
#include "stats.h"
#include "lib/tracerun.h"
#include "lib/wait.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Sessions of one run: one per peer address. */
#define BW_SESSIONS_MAX SPARKPERF_SESSIONS_MAX

/* Several sessions are told to start sending this long after they are asked for. */
#define BW_START_DELAY_NS 1000000000ULL


static const char bw_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] bw show [ ID ]\n"
	"       sparkperf-ctl [ OPTIONS ] bw run peer ADDR[,ADDR...] [ dev DEV[,DEV...] ]\n"
	"               [ port PORT ] [ op OP ] [ size SIZE ] [ qps N ] [ threads N ]\n"
	"               [ depth N ] [ signal N ] [ iters N | duration TIME ] [ bidir ]\n"
	"               [ validate ] [ interval MS ] [ trace TRACE ]\n"
	"       sparkperf-ctl [ OPTIONS ] bw stop [ ID ]\n"
	"       sparkperf-ctl bw help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       ADDR := the IPv4 or IPv6 address of a sparkperf server; several: one\n"
	"               session each, all started together\n"
	"       DEV := the RDMA device the route to the peer must use; one per ADDR\n"
	"       PORT := 1..65535, default 18520\n"
	"       OP := { write | send | read }\n"
	"       SIZE := bytes per message (K = 1024, M = 1048576), 1..8M, default 64K;\n"
	"               A..B sweeps: A, each power of two between, B, one run each\n"
	"       N := qps 1..64 (default 1); threads 1..16, at most qps (default 1);\n"
	"            depth 1..1024 work requests per QP (default 128); signal: a\n"
	"            completion every 1..depth (default 16), and at least one per\n"
	"            256 KiB sent; iters: messages per QP, 1..1000000000000 (default\n"
	"            5000)\n"
	"       TIME := seconds (0.5, 10) or with a unit (ms, s, m, h), whole ms, up to 1h\n"
	"       MS := length of one interval of the series, 10..60000 ms, default 100\n"
	"       ID := a session id; stop without one stops every bandwidth session\n"
	"       TRACE := { on | off }: on traces the counters of the RDMA devices and their\n"
	"               netdevs during each run and reports their deltas and rates (also:\n"
	"               the global option --trace)\n"
	"Rates are of payload: Gbit/s = 10^9 bit/s, MB/s = 10^6 byte/s.\n"
	"The default command is show.\n";

/* ---- bw show, bw stop ---------------------------------------------------- */

/* bw show: what is asked, printed (still on the socket: errors alike). */
static int show(struct sp_nl *nl, bool has_id, uint32_t id)
{
	struct sp_bw_list list = { 0 };
	struct sp_bw bw = { 0 };
	int ret = has_id ? sp_nl_bw_get(nl, id, &bw) : sp_nl_bw_list(nl, &list);

	if (!ret)
		ret = has_id ? sp_print_bw(&bw) : sp_print_bws(list.bws, list.n);
	sp_bw_free(&bw);
	sp_bw_list_free(&list);
	return ret;
}

/* bw stop: that session, or every one that still runs, as the dump lists them. */
static int stop(struct sp_nl *nl, bool has_id, uint32_t id)
{
	struct sp_bw_list list;
	size_t i;
	int ret;

	if (has_id)
		return sp_nl_bw_stop(nl, id);
	ret = sp_nl_bw_list(nl, &list);
	for (i = 0; !ret && i < list.n; i++) {
		if (sp_lat_state_final(list.bws[i].state))
			continue;
		ret = sp_nl_bw_stop(nl, list.bws[i].id);
		if (ret == -ENOENT)
			ret = 0;	/* ended meanwhile */
	}
	sp_bw_list_free(&list);
	return ret;
}

/* "bw show|stop [ ID ]": fn on a socket of its own; errors reported. */
static int by_id(const char *cmd, int argc, char **argv,
		 int (*fn)(struct sp_nl *nl, bool has_id, uint32_t id))
{
	uint32_t id = 0;
	int ret;

	if (sp_no_more_args("bw", bw_usage, 1, argc, argv, &ret))
		return ret;
	if (argc == 1 && sp_parse_u32(argv[0], 0, UINT32_MAX, &id))
		return sp_usage_error("bw", "Invalid session id: '%s'", argv[0]);
	return SP_REQUEST("bw", cmd, nl, fn(&nl, argc == 1, id));
}

static int bw_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return by_id("show", argc, argv, show);
}

static int bw_stop(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return by_id("stop", argc, argv, stop);
}

/* ---- bw run: arguments --------------------------------------------------- */

struct run_args {
	struct sp_bw_config cfg;	/* as requested; peer, dev, size set per session */
	struct sp_addr peers[BW_SESSIONS_MAX];
	size_t n_peers;			/* sessions per run */
	char devs[BW_SESSIONS_MAX][SPARKPERF_DEV_NAME_MAX];
	size_t n_devs;			/* 0 or n_peers */
	uint64_t sizes[SP_SWEEP_MAX];
	size_t n_sizes;			/* 0: the kernel's default size */
	bool trace;			/* "trace on" */
};

enum {
	K_PEER, K_DEV, K_PORT, K_OP, K_SIZE, K_QPS, K_THREADS, K_DEPTH, K_SIGNAL, K_ITERS,
	K_DURATION, K_BIDIR, K_VALIDATE, K_INTERVAL, K_TRACE, K_N
};

/* The limits of the contract between keywords, which the module would refuse. */
static int check_limits(const struct run_args *a)
{
	const struct sp_bw_config *c = &a->cfg;
	uint32_t depth = c->has_depth ? c->depth : SPARKPERF_BW_DEPTH_DEFAULT;
	uint64_t size = a->n_sizes ? a->sizes[a->n_sizes - 1] : SPARKPERF_BW_SIZE_DEFAULT;
	uint64_t qps = c->has_qps ? c->qps : 1;
	char s[SP_SIZE_STRLEN], m[SP_SIZE_STRLEN], lim[SP_SIZE_STRLEN];

	if (c->has_signal && c->signal > depth)
		return sp_usage_error("bw", "Invalid signal interval: '%u' (1..depth, %u)", c->signal,
				      depth);
	/* two buffers of size bytes per QP */
	if (2 * qps * size > SPARKPERF_BW_MEM_MAX)
		return sp_usage_error("bw", "size %s and qps %" PRIu64 " need %s of buffers "
				      "(2 x qps x size), above %s", sp_fmt_size(size, s, sizeof(s)),
				      qps, sp_fmt_size(2 * qps * size, m, sizeof(m)),
				      sp_fmt_size(SPARKPERF_BW_MEM_MAX, lim, sizeof(lim)));
	return SP_EXIT_OK;
}

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	const char *peer = NULL, *dev = NULL, *op = NULL, *size = NULL, *trace = NULL;
	struct sp_bw_config *c = &a->cfg;
	uint32_t port = 0;
	struct sp_kv kv[K_N] = {
		[K_PEER] = { .key = "peer", .what = "peer address list", .type = SP_KV_STRING,
			     .dst = &peer },
		[K_DEV] = { .key = "dev", .what = "device list", .type = SP_KV_STRING, .dst = &dev },
		[K_PORT] = { .key = "port", .type = SP_KV_U32, .min = 1, .max = 65535, .dst = &port },
		[K_OP] = { .key = "op", .type = SP_KV_STRING, .dst = &op },
		[K_SIZE] = { .key = "size", .type = SP_KV_STRING, .dst = &size },
		[K_QPS] = { .key = "qps", .what = "QP count", .type = SP_KV_U32, .min = 1,
			    .max = SPARKPERF_BW_QPS_MAX, .dst = &c->qps },
		[K_THREADS] = { .key = "threads", .what = "thread count", .type = SP_KV_U32,
				.min = 1, .max = SPARKPERF_BW_THREADS_MAX, .dst = &c->threads },
		[K_DEPTH] = { .key = "depth", .type = SP_KV_U32, .min = 1,
			      .max = SPARKPERF_BW_DEPTH_MAX, .dst = &c->depth },
		[K_SIGNAL] = { .key = "signal", .what = "signal interval", .type = SP_KV_U32,
			       .min = 1, .max = SPARKPERF_BW_DEPTH_MAX, .dst = &c->signal },
		[K_ITERS] = { .key = "iters", .what = "iteration count", .type = SP_KV_U64,
			      .min = 1, .max = SPARKPERF_BW_ITERS_MAX, .dst = &c->iters },
		[K_DURATION] = { .key = "duration", .type = SP_KV_DURATION_MS, .min = 1,
				 .max = SPARKPERF_LAT_DURATION_MS_MAX, .dst = &c->duration_ms },
		[K_BIDIR] = { .key = "bidir", .type = SP_KV_FLAG, .dst = &c->bidir },
		[K_VALIDATE] = { .key = "validate", .type = SP_KV_FLAG, .dst = &c->validate },
		[K_INTERVAL] = { .key = "interval", .type = SP_KV_U32,
				 .min = SPARKPERF_LAT_INTERVAL_MS_MIN,
				 .max = SPARKPERF_LAT_INTERVAL_MS_MAX, .dst = &c->interval_ms },
		[K_TRACE] = { .key = "trace", .type = SP_KV_STRING, .dst = &trace },
	};
	char err[256];
	int ret;

	memset(a, 0, sizeof(*a));
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err)))
		return sp_usage_error("bw", "%s", err);
	if (!peer)
		return sp_usage_error("bw", "Missing 'peer ADDR[,ADDR...]': the address of the "
				      "server");
	ret = sp_run_parse_peers("bw", peer, a->peers, BW_SESSIONS_MAX, &a->n_peers);
	if (!ret && dev)
		ret = sp_session_parse_devs("bw", dev, a->devs, BW_SESSIONS_MAX, &a->n_devs);
	if (ret)
		return ret;
	if (a->n_devs && a->n_devs != a->n_peers)
		return sp_usage_error("bw", "%zu peer address%s but %zu device%s: give one device "
				      "per peer address, or no dev", a->n_peers,
				      a->n_peers == 1 ? "" : "es", a->n_devs,
				      a->n_devs == 1 ? "" : "s");
	c->has_port = kv[K_PORT].seen;
	c->port = (uint16_t)port;
	ret = sp_session_parse_op_size("bw", op, size, SPARKPERF_BW_SIZE_MAX, &c->op, &c->has_op,
				       a->sizes, &a->n_sizes);
	if (ret)
		return ret;
	c->has_qps = kv[K_QPS].seen;
	c->has_threads = kv[K_THREADS].seen;
	c->has_depth = kv[K_DEPTH].seen;
	c->has_signal = kv[K_SIGNAL].seen;
	c->has_iters = kv[K_ITERS].seen;
	c->has_duration = kv[K_DURATION].seen;
	if (c->has_iters && c->has_duration)
		return sp_usage_error("bw", "'iters' and 'duration' cannot be used together");
	c->has_interval = kv[K_INTERVAL].seen;
	ret = check_limits(a);
	if (ret)
		return ret;
	if (trace && sp_parse_on_off(trace, &a->trace))
		return sp_usage_error("bw", "Invalid trace: '%s' (on or off)", trace);
	return SP_EXIT_OK;
}

/*
 * What the tables need, should the module not echo it: what was asked for,
 * else the defaults of the contract.
 */
#define FILL(field, has, def) \
	do { \
		if (!got->has) { \
			got->has = true; \
			got->field = req->has ? req->field : (def); \
		} \
	} while (0)

static void fill_config(struct sp_bw_config *got, const struct sp_bw_config *req)
{
	if (!got->peer.len)
		got->peer = req->peer;
	if (!got->has_dev && req->has_dev) {
		got->has_dev = true;
		memcpy(got->dev, req->dev, sizeof(got->dev));
	}
	FILL(port, has_port, SPARKPERF_PORT_DEFAULT);
	FILL(op, has_op, SPARKPERF_LAT_OP_WRITE);
	FILL(size, has_size, SPARKPERF_BW_SIZE_DEFAULT);
	FILL(qps, has_qps, 1);
	FILL(threads, has_threads, 1);
	FILL(depth, has_depth, SPARKPERF_BW_DEPTH_DEFAULT);
	FILL(signal, has_signal,
	     got->depth < SPARKPERF_BW_SIGNAL_DEFAULT ? got->depth : SPARKPERF_BW_SIGNAL_DEFAULT);
	if (!got->has_iters && !got->has_duration) {
		if (req->has_duration)
			FILL(duration_ms, has_duration, 0);
		else
			FILL(iters, has_iters, SPARKPERF_BW_ITERS_DEFAULT);
	}
	got->bidir = got->bidir || req->bidir;
	got->validate = got->validate || req->validate;
	FILL(interval_ms, has_interval, SPARKPERF_BW_INTERVAL_MS_DEFAULT);
	FILL(start_at_ns, has_start_at, 0);
}

#undef FILL

/* ---- bw run: the sessions of one size ------------------------------------ */

struct session {
	struct sp_nl snl;		/* its own socket */
	struct sp_bw_config cfg;	/* as asked */
	/* what the progress line shows */
	bool has_last;			/* the last completed interval */
	struct sp_interval last;
	uint64_t last_start_ns;		/* its start: the end of the one before */
};

/* The hooks of sp_wait() for the sessions of a run. */
struct sweep_run {
	struct sp_run *r;		/* first, for sp_session_run_of() */
	struct session *ss;
	struct sp_wait_session *ws;
	size_t n;
	uint8_t op;
	uint64_t size;
	char prefix[32];		/* "[2/24] " in a sweep */
};

static int ops_stop(void *ctx, size_t i)
{
	struct sweep_run *w = ctx;

	return sp_nl_bw_stop(&w->ss[i].snl, w->ws[i].id);
}

/* A new last interval of session s, and where it started. */
static void set_last(struct session *s, const struct sp_interval *iv, uint64_t start_ns)
{
	s->last = *iv;
	s->last_start_ns = start_ns;
	s->has_last = true;
}

static int ops_get(void *ctx, size_t i, uint8_t *state)
{
	struct sweep_run *w = ctx;
	struct session *s = &w->ss[i];
	struct sp_bw bw;
	size_t n;
	int ret = sp_nl_bw_get(&s->snl, w->ws[i].id, &bw);

	if (ret)
		return ret;
	*state = bw.state;
	n = bw.n_intervals;
	if (n)
		set_last(s, &bw.intervals[n - 1], n > 1 ? bw.intervals[n - 2].end_ns : 0);
	sp_bw_free(&bw);
	return 0;
}

static int on_progress(const struct sp_bw_progress *p, void *arg)
{
	struct sweep_run *w = arg;
	int i = sp_wait_note(w->ws, w->n, p->id, p->state);
	struct session *s;

	if (i < 0 || !p->has_interval)
		return 0;
	s = &w->ss[i];
	set_last(s, &p->interval, s->has_last ? s->last.end_ns : 0);
	return 0;
}

static int ops_recv(void *ctx)
{
	return sp_nl_bw_progress_recv(&sp_session_run_of(ctx)->ctl, on_progress, ctx);
}

static void ops_show(void *ctx)
{
	struct sweep_run *w = ctx;
	struct sp_bw_line l = { .op = w->op, .size = w->size, .sessions = w->n };
	char line[256];
	double gbps;
	size_t i;

	for (i = 0; i < w->n; i++) {
		const struct session *s = &w->ss[i];
		uint8_t state = w->ws[i].state;

		if (sp_lat_state_final(state))
			l.ended++;
		else if (state == SPARKPERF_LAT_STATE_RUNNING)
			l.running++;
		if (!s->has_last)
			continue;
		if (!l.has_time || s->last.end_ns > l.elapsed_ns)
			l.elapsed_ns = s->last.end_ns;
		l.has_time = true;
		if (state == SPARKPERF_LAT_STATE_RUNNING &&
		    sp_stats_interval_gbps(&s->last, s->last_start_ns, &gbps)) {
			l.gbit_per_s += gbps;
			l.has_rate = true;
		}
	}
	sp_fmt_bw_progress(line, sizeof(line), &l);
	sp_run_line_show(w->r, w->prefix, line);
}

static const struct sp_wait_ops wait_ops =
	SP_SESSION_WAIT_OPS(ops_stop, ops_get, ops_recv, ops_show);

static void sweep_run_free(struct sweep_run *w)
{
	size_t i;

	/* closing the sockets releases the sessions in the kernel */
	for (i = 0; w->ss && i < w->n; i++)
		sp_nl_close(&w->ss[i].snl);
	free(w->ss);
	free(w->ws);
}

/*
 * Opens a socket per session and starts them; when one is refused, those
 * already started are stopped and released. An exit status, errors
 * reported.
 */
static int start_sessions(struct sweep_run *w, const struct run_args *args, uint64_t size,
			  struct sp_bw_run *run)
{
	size_t i, started = 0;
	int ret = 0;

	for (i = 0; i < w->n && !ret; i++) {
		struct session *s = &w->ss[i];

		s->cfg = args->cfg;
		s->cfg.peer = args->peers[i];
		if (args->n_devs) {
			s->cfg.has_dev = true;
			memcpy(s->cfg.dev, args->devs[i], sizeof(s->cfg.dev));
		}
		if (size) {
			s->cfg.has_size = true;
			s->cfg.size = (uint32_t)size;
		}
		w->ws[i].state = SPARKPERF_LAT_STATE_CONNECTING;
		ret = sp_nl_open(&s->snl);
		if (ret)
			return sp_report_open_error("bw", "run", ret, &s->snl.err);
	}
	sp_session_progress_drain(w->r);
	/* together: the same start for all, a moment after the last is asked for */
	if (w->n > 1) {
		run->has_start_at = true;
		run->start_at_ns = sp_run_now_ns() + BW_START_DELAY_NS;
	}
	for (i = 0; i < w->n; i++) {
		struct session *s = &w->ss[i];

		s->cfg.has_start_at = run->has_start_at;
		s->cfg.start_at_ns = run->start_at_ns;
		ret = sp_nl_bw_run(&s->snl, &s->cfg, &w->ws[i].id);
		if (ret) {
			sp_report_nl_error(stderr, "bw", "run", ret, &s->snl.err);
			break;
		}
		started++;
	}
	if (started == w->n)
		return SP_EXIT_OK;
	for (i = 0; i < started; i++)
		sp_nl_bw_stop(&w->ss[i].snl, w->ws[i].id);
	return SP_EXIT_ERROR;
}

/*
 * The final word on session i, also after a failure: what it measured (or
 * what is known of it). 0 or the GET's error, not reported.
 */
static int collect(struct sweep_run *w, size_t i, struct sp_bw *bw)
{
	struct session *s = &w->ss[i];
	int ret = sp_nl_bw_get(&s->snl, w->ws[i].id, bw);

	if (ret) {
		bw->id = w->ws[i].id;
		bw->state = w->ws[i].state;
	}
	fill_config(&bw->cfg, &s->cfg);
	return ret;
}

/*
 * The sessions of one size (0: the kernel's default), side by side. On
 * return, run holds their results whenever they were started (run->bws is
 * then allocated), *started says so. Returns an exit status; errors are
 * reported here.
 */
static int run_size(struct sp_run *r, const struct run_args *args, uint64_t size, size_t index,
		    struct sp_bw_run *run, bool *started)
{
	struct sweep_run w = { .r = r, .n = args->n_peers };
	enum sp_wait_end end = SP_WAIT_FINAL;
	struct sp_wait_cfg wcfg;
	struct sp_bw *bws;
	int ret, rc;
	size_t i;

	*started = false;
	memset(run, 0, sizeof(*run));
	run->size = size ? size : args->cfg.has_size ? args->cfg.size : SPARKPERF_BW_SIZE_DEFAULT;
	w.op = args->cfg.has_op ? args->cfg.op : SPARKPERF_LAT_OP_WRITE;
	w.size = run->size;
	if (args->n_sizes > 1)
		snprintf(w.prefix, sizeof(w.prefix), "[%zu/%zu] ", index + 1, args->n_sizes);
	w.ss = calloc(w.n, sizeof(*w.ss));
	w.ws = calloc(w.n, sizeof(*w.ws));
	bws = calloc(w.n, sizeof(*bws));
	if (!w.ss || !w.ws || !bws) {
		sp_err(stderr, "%s", strerror(ENOMEM));
		rc = SP_EXIT_ERROR;
		goto out;
	}
	rc = start_sessions(&w, args, size, run);
	if (rc)
		goto out;
	*started = true;
	ops_show(&w);

	sp_session_wait_cfg(r, &wcfg);
	ret = sp_wait(&wait_ops, &w, &wcfg, w.ws, w.n, &end);
	sp_run_line_clear(r);
	if (ret) {
		/* which socket failed is not known: the first error that says more */
		for (i = 0; i < w.n && !w.ss[i].snl.err.error; i++)
			;
		sp_report_nl_error(stderr, "bw", "run", ret, i < w.n ? &w.ss[i].snl.err : NULL);
		rc = SP_EXIT_ERROR;
	} else if (end == SP_WAIT_GAVE_UP) {
		fprintf(stderr, "Warning: not every session stopped within %d s; "
			"printing what they measured so far.\n", SP_SESSION_STOP_WAIT_MS / 1000);
	}
	for (i = 0; i < w.n; i++) {
		ret = collect(&w, i, &bws[i]);
		if (ret && rc == SP_EXIT_OK)
			sp_report_nl_error(stderr, "bw", "run", ret, &w.ss[i].snl.err);
		if (ret)
			rc = SP_EXIT_ERROR;
	}
	run->bws = bws;
	run->n = w.n;
	bws = NULL;
out:
	free(bws);
	sweep_run_free(&w);
	return rc;
}

/* What the end of a run says on stderr: failures, stops, sessions still running. */
static void report_end(const struct sp_bw_run *run)
{
	char who[SP_ADDR_STRLEN + SPARKPERF_DEV_NAME_MAX + 32] = "", peer[SP_ADDR_STRLEN];
	size_t i;

	for (i = 0; i < run->n; i++) {
		const struct sp_bw *b = &run->bws[i];
		const char *why = sp_session_error(b->has_error_msg, b->error_msg, b->has_error,
						   b->error);

		if (run->n > 1)
			snprintf(who, sizeof(who), "session %u to %s%s%s: ", b->id,
				 sp_fmt_addr(&b->cfg.peer, peer, sizeof(peer)),
				 b->cfg.has_dev ? " on " : "", b->cfg.has_dev ? b->cfg.dev : "");
		if (b->state == SPARKPERF_LAT_STATE_FAILED)
			sp_err(stderr, "%s%s", who, why ? why : "the bandwidth session failed");
		else if (b->state == SPARKPERF_LAT_STATE_STOPPED)
			fprintf(stderr, "Session %u (%u B) stopped after %" PRIu64 " bytes.\n",
				b->id, b->cfg.size, sp_stats_bw_bytes(b));
		else if (!sp_lat_state_final(b->state))
			fprintf(stderr, "Session %u (%u B) was still %s after %" PRIu64 " bytes.\n",
				b->id, b->cfg.size, sp_lat_state_str(b->state), sp_stats_bw_bytes(b));
	}
}

static bool run_failed(const struct sp_bw_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++)
		if (run->bws[i].state == SPARKPERF_LAT_STATE_FAILED)
			return true;
	return false;
}

/* Messages that failed validation, over the run's sessions. */
static uint64_t run_corrupt(const struct sp_bw_run *run)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < run->n; i++)
		if (run->bws[i].has_validate_errors)
			n += run->bws[i].validate_errors;
	return n;
}

static bool run_measured(const struct sp_bw_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++)
		if (sp_stats_bw_bytes(&run->bws[i]))
			return true;
	return false;
}

static int bw_run(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_bw_run runs[SP_SWEEP_MAX];
	struct sp_run_traces rt = { 0 };
	struct run_args *args;
	struct sp_run r;
	size_t n_sizes, n_runs = 0, i;
	bool measured = false, header = false, started;
	int ret, rc = SP_EXIT_OK;
	uint64_t corrupt;

	if (sp_help_requested(argc, argv, bw_usage))
		return SP_EXIT_OK;
	args = malloc(sizeof(*args));
	if (!args) {
		sp_err(stderr, "%s", strerror(ENOMEM));
		return SP_EXIT_ERROR;
	}
	ret = parse_run_args(argc, argv, args);
	if (!ret)
		ret = sp_run_traces_init(&rt, args->trace || ctx->trace, SP_SWEEP_MAX);
	if (!ret)
		ret = sp_run_start(&r, "bw");
	if (ret) {
		sp_run_traces_free(&rt);
		free(args);
		return ret;
	}
	n_sizes = args->n_sizes ? args->n_sizes : 1;

	for (i = 0; i < n_sizes && !sp_run_signal_pending(&r.sig); i++) {
		struct sp_bw_run *run = &runs[n_runs];
		uint64_t size = args->n_sizes ? args->sizes[i] : 0;

		rc = sp_run_traces_begin(&rt, "bw", size, args->peers, args->n_peers,
					 (const char (*)[SPARKPERF_DEV_NAME_MAX])args->devs,
					 args->n_devs);
		if (rc)
			break;
		rc = run_size(&r, args, size, i, run, &started);
		sp_run_traces_end(&rt, "bw");
		if (!started)
			break;
		if (rt.on)
			run->trace = rt.logs[rt.n - 1];
		n_runs++;
		measured = measured || run_measured(run);
		if (!ctx->json) {
			if (!header)
				sp_print_bw_header(&run->bws[0].cfg, run->n);
			header = true;
			sp_print_bw_rows(run->bws, run->n, run->bws[0].cfg.validate);
			sp_print_flush();
		}
		report_end(run);
		corrupt = run_corrupt(run);
		if (corrupt)
			sp_err(stderr, "%" PRIu64 " messages failed validation", corrupt);
		if (run_failed(run) || corrupt)
			rc = SP_EXIT_ERROR;
		if (rc != SP_EXIT_OK)
			break;
	}
	sp_run_signals_restore(&r.sig);

	rc = sp_session_report(&rt, "bw", ctx->json, ctx->json && n_runs ?
			       sp_print_bw_json(runs, n_runs, &r.env.env) : 0, rc);
	for (i = 0; i < n_runs; i++) {
		size_t k;

		for (k = 0; k < runs[i].n; k++)
			sp_bw_free(&runs[i].bws[k]);
		free(runs[i].bws);
	}
	free(args);
	sp_run_end(&r);
	sp_run_traces_free(&rt);
	return sp_session_exit(rc, measured);
}

SP_OBJECT_MAIN(bw, bw_usage,
	       { "show", bw_show },
	       { "run", bw_run },
	       { "stop", bw_stop })
