// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl lat: latency sessions. "lat run" starts one kernel session
 * per message size, follows it on the "progress" group (with LAT_GET as a
 * safety net), and prints what it measured, also after Ctrl-C.
 *
 * A session lives as long as the netlink socket that started it, so each
 * session gets its own socket, closed once its results are read: a sweep
 * never holds more than one session's memory in the kernel.
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
#include "latprint.h"
#include "lib/tracerun.h"
#include "lib/wait.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char lat_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] lat show\n"
	"       sparkperf-ctl [ OPTIONS ] lat run peer ADDR [ port PORT ] [ dev DEV ] [ op OP ]\n"
	"               [ size SIZE ] [ iters N | duration TIME ] [ warmup N ] [ cpu CPU ]\n"
	"               [ interval MS ] [ completion END ] [ samples FILE ] [ trace TRACE ]\n"
	"       sparkperf-ctl lat help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       ADDR := the IPv4 or IPv6 address of a sparkperf server\n"
	"       PORT := 1..65535, default 18520\n"
	"       OP := { write | send | read }\n"
	"       SIZE := bytes (K = 1024, M = 1048576), 1..8M, default 2; A..B sweeps:\n"
	"               A, each power of two between, B, one session each\n"
	"       N := iterations, iters 1..1000000000 (default 1000), warmup 0..1000000\n"
	"       TIME := seconds (0.5, 10) or with a unit (ms, s, m, h), whole ms, up to 1h\n"
	"       MS := length of one interval of the series, 10..60000 ms, default 1000\n"
	"       END := { recv | last-byte }: how a write round trip ends; recv (the\n"
	"               default) on the receive completion of an RDMA WRITE with\n"
	"               immediate, last-byte by polling the last byte as ib_write_lat\n"
	"               does (early on NICs that write out of order, e.g. mlx5)\n"
	"       FILE := CSV file for the raw samples\n"
	"       TRACE := { on | off }: on traces the counters of the RDMA device and its\n"
	"               netdev during each run and reports their deltas and rates (also:\n"
	"               the global option --trace)\n"
	"Times are round trips (RTT); the one-way columns are RTT/2.\n"
	"The default command is show.\n";

/* ---- lat show ----------------------------------------------------------- */

SP_SHOW_FUNC(lat_show, "lat", lat_usage, struct sp_lat_list,
	     sp_nl_lat_list(&nl, &list),
	     sp_print_lats(list.lats, list.n), sp_lat_list_free(&list))

/* ---- lat run: arguments ------------------------------------------------- */

struct run_args {
	struct sp_lat_config cfg;	/* as requested; size set per session */
	uint64_t sizes[SP_SWEEP_MAX];
	size_t n_sizes;			/* 0: the kernel's default size */
	const char *samples_path;
	bool trace;			/* "trace on" */
};

/* completion END: recv or last-byte, and last-byte with write only. */
static int parse_completion(const char *s, struct sp_lat_config *c)
{
	unsigned int v;

	if (!s)
		return SP_EXIT_OK;
	if (sp_enum_parse(sp_lat_completion_names, sp_n_lat_completion_names, s, &v) ||
	    v == SPARKPERF_LAT_COMPLETION_READ)
		return sp_usage_error("lat", "Invalid completion: '%s' (recv or last-byte)", s);
	if (v == SPARKPERF_LAT_COMPLETION_LAST_BYTE && c->has_op &&
	    c->op != SPARKPERF_LAT_OP_WRITE)
		return sp_usage_error("lat", "'completion last-byte' needs 'op write'");
	if (v == SPARKPERF_LAT_COMPLETION_RECV && c->has_op && c->op == SPARKPERF_LAT_OP_READ)
		return sp_usage_error("lat", "'op read' ends on the read's completion, not 'recv'");
	c->completion = (uint8_t)v;
	c->has_completion = true;
	return SP_EXIT_OK;
}

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	const char *peer = NULL, *dev = NULL, *op = NULL, *size = NULL, *trace = NULL;
	const char *completion = NULL;
	struct sp_lat_config *c = &a->cfg;
	uint32_t port = 0;
	struct sp_kv kv[] = {
		{ .key = "peer", .what = "peer address", .type = SP_KV_STRING, .dst = &peer },
		{ .key = "port", .type = SP_KV_U32, .min = 1, .max = 65535, .dst = &port },
		{ .key = "dev", .what = "device name", .type = SP_KV_STRING, .dst = &dev },
		{ .key = "op", .type = SP_KV_STRING, .dst = &op },
		{ .key = "size", .type = SP_KV_STRING, .dst = &size },
		{ .key = "iters", .what = "iteration count", .type = SP_KV_U64, .min = 1,
		  .max = SPARKPERF_LAT_ITERS_MAX, .dst = &c->iters },
		{ .key = "duration", .type = SP_KV_DURATION_MS, .min = 1,
		  .max = SPARKPERF_LAT_DURATION_MS_MAX, .dst = &c->duration_ms },
		{ .key = "warmup", .what = "warm-up count", .type = SP_KV_U32, .min = 0,
		  .max = SPARKPERF_LAT_WARMUP_MAX, .dst = &c->warmup },
		{ .key = "cpu", .type = SP_KV_U32, .min = 0, .max = UINT32_MAX, .dst = &c->cpu },
		{ .key = "interval", .type = SP_KV_U32, .min = SPARKPERF_LAT_INTERVAL_MS_MIN,
		  .max = SPARKPERF_LAT_INTERVAL_MS_MAX, .dst = &c->interval_ms },
		{ .key = "samples", .what = "samples file", .type = SP_KV_STRING,
		  .dst = &a->samples_path },
		{ .key = "trace", .type = SP_KV_STRING, .dst = &trace },
		{ .key = "completion", .type = SP_KV_STRING, .dst = &completion },
	};
	char err[256];
	size_t n;
	int ret;

	memset(a, 0, sizeof(*a));
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err)))
		return sp_usage_error("lat", "%s", err);
	if (!peer)
		return sp_usage_error("lat", "Missing 'peer ADDR': the address of the server");
	ret = sp_run_parse_peers("lat", peer, &c->peer, 1, &n);
	if (ret)
		return ret;
	c->has_port = kv[1].seen;
	c->port = (uint16_t)port;
	if (dev) {
		ret = sp_session_parse_devs("lat", dev, &c->dev, 1, &n);
		if (ret)
			return ret;
		c->has_dev = true;
	}
	ret = sp_session_parse_op_size("lat", op, size, SPARKPERF_LAT_SIZE_MAX, &c->op, &c->has_op,
				       a->sizes, &a->n_sizes);
	if (ret)
		return ret;
	c->has_iters = kv[5].seen;
	c->has_duration = kv[6].seen;
	if (c->has_iters && c->has_duration)
		return sp_usage_error("lat", "'iters' and 'duration' cannot be used together");
	c->has_warmup = kv[7].seen;
	c->has_cpu = kv[8].seen;
	c->has_interval = kv[9].seen;
	if (trace && sp_parse_on_off(trace, &a->trace))
		return sp_usage_error("lat", "Invalid trace: '%s' (on or off)", trace);
	ret = parse_completion(completion, c);
	if (ret)
		return ret;

	/*
	 * Raw samples are only read for a samples file: keep none otherwise,
	 * and all of them in iteration mode when they fit.
	 */
	if (!a->samples_path) {
		c->has_samples_max = true;
		c->samples_max = 0;
	} else if (c->has_iters) {
		c->has_samples_max = true;
		c->samples_max = c->iters < SPARKPERF_LAT_SAMPLES_MAX ?
				 (uint32_t)c->iters : SPARKPERF_LAT_SAMPLES_MAX;
	}
	return SP_EXIT_OK;
}

/* ---- lat run: one session ----------------------------------------------- */

/* The hooks of sp_wait() for one session. */
struct session {
	struct sp_run *r;		/* first, for sp_session_run_of() */
	struct sp_nl snl;		/* the session's own socket */
	struct sp_wait_session ws;
	/* what the progress line shows */
	uint32_t size;
	uint64_t count;
	uint64_t warmup_done;
	bool has_last;			/* the last completed interval */
	struct sp_interval last;
	char prefix[32];		/* "[2/24] " in a sweep */
};

static int ops_stop(void *ctx, size_t i)
{
	struct session *s = ctx;

	(void)i;
	return sp_nl_lat_stop(&s->snl, s->ws.id);
}

static int ops_get(void *ctx, size_t i, uint8_t *state)
{
	struct session *s = ctx;
	struct sp_lat lat;
	int ret;

	(void)i;
	ret = sp_nl_lat_get(&s->snl, s->ws.id, &lat);
	if (ret)
		return ret;
	*state = lat.state;
	s->count = lat.count;
	s->warmup_done = lat.warmup_done;
	if (lat.n_intervals) {
		s->last = lat.intervals[lat.n_intervals - 1];
		s->has_last = true;
	}
	sp_lat_free(&lat);
	return 0;
}

static int on_progress(const struct sp_lat_progress *p, void *arg)
{
	struct session *s = arg;

	if (sp_wait_note(&s->ws, 1, p->id, p->state) < 0)
		return 0;	/* another session */
	s->count = p->count;
	s->warmup_done = p->warmup_done;
	if (p->has_interval) {
		s->last = p->interval;
		s->has_last = true;
	}
	return 0;
}

static int ops_recv(void *ctx)
{
	return sp_nl_lat_progress_recv(&sp_session_run_of(ctx)->ctl, on_progress, ctx);
}

static void ops_show(void *ctx)
{
	struct session *s = ctx;
	struct sp_lat_progress p = {
		.id = s->ws.id, .state = s->ws.state, .count = s->count,
		.warmup_done = s->warmup_done,
	};
	char line[256];

	sp_fmt_lat_progress(line, sizeof(line), s->size, &p, s->has_last ? &s->last : NULL);
	sp_run_line_show(s->r, s->prefix, line);
}

static const struct sp_wait_ops wait_ops =
	SP_SESSION_WAIT_OPS(ops_stop, ops_get, ops_recv, ops_show);

/*
 * What the tables need, should the module not echo it: what was asked for,
 * else the defaults of the contract.
 */
static void fill_config(struct sp_lat_config *got, const struct sp_lat_config *req)
{
	if (!got->peer.len)
		got->peer = req->peer;
	if (!got->has_port) {
		got->has_port = true;
		got->port = req->has_port ? req->port : SPARKPERF_PORT_DEFAULT;
	}
	if (!got->has_op) {
		got->has_op = true;
		got->op = req->has_op ? req->op : SPARKPERF_LAT_OP_WRITE;
	}
	if (!got->has_size) {
		got->has_size = true;
		got->size = req->has_size ? req->size : 2;
	}
}

struct samples_out {
	FILE *f;
	bool with_bytes;
	uint32_t bytes;
};

static int write_samples(const struct sp_lat_samples *s, void *arg)
{
	struct samples_out *o = arg;

	return sp_print_samples_csv(o->f, s, o->with_bytes, o->bytes);
}

/*
 * One session of the given size (0: the kernel's default). *lat is filled
 * whenever the session was started (and must then be freed), *started says
 * so. Returns an exit status; errors are reported here.
 */
static int run_session(struct sp_run *r, const struct run_args *args, FILE *samples,
		       uint64_t size, size_t index, struct sp_lat *lat, bool *started)
{
	struct sp_lat_config cfg = args->cfg;
	struct session s = { .r = r, .ws.state = SPARKPERF_LAT_STATE_CONNECTING };
	enum sp_wait_end end = SP_WAIT_FINAL;
	struct sp_wait_cfg wcfg;
	int ret, rc = SP_EXIT_OK;

	*started = false;
	memset(lat, 0, sizeof(*lat));
	if (size) {
		cfg.has_size = true;
		cfg.size = (uint32_t)size;
	}
	s.size = cfg.has_size ? cfg.size : 2;
	if (args->n_sizes > 1)
		snprintf(s.prefix, sizeof(s.prefix), "[%zu/%zu] ", index + 1, args->n_sizes);

	ret = sp_nl_open(&s.snl);
	if (ret)
		return sp_report_open_error("lat", "run", ret, &s.snl.err);
	sp_session_progress_drain(r);
	ret = sp_nl_lat_run(&s.snl, &cfg, &s.ws.id);
	if (ret) {
		sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
		sp_nl_close(&s.snl);
		return SP_EXIT_ERROR;
	}
	*started = true;
	ops_show(&s);

	sp_session_wait_cfg(r, &wcfg);
	ret = sp_wait(&wait_ops, &s, &wcfg, &s.ws, 1, &end);
	sp_run_line_clear(r);
	if (ret) {
		sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
		rc = SP_EXIT_ERROR;
	} else if (end == SP_WAIT_GAVE_UP) {
		fprintf(stderr, "Warning: session %u did not stop within %d s; "
			"printing what it measured so far.\n", s.ws.id, SP_SESSION_STOP_WAIT_MS / 1000);
	}
	/* the final word, also after a failure above: what was measured */
	ret = sp_nl_lat_get(&s.snl, s.ws.id, lat);
	if (ret) {
		if (rc == SP_EXIT_OK)
			sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
		lat->id = s.ws.id;
		lat->cfg = cfg;
		lat->state = s.ws.state;
		fill_config(&lat->cfg, &cfg);
		sp_nl_close(&s.snl);
		return SP_EXIT_ERROR;
	}
	fill_config(&lat->cfg, &cfg);
	if (samples && lat->count) {
		struct samples_out o = {
			.f = samples, .with_bytes = args->n_sizes > 1, .bytes = lat->cfg.size,
		};

		ret = sp_nl_lat_samples(&s.snl, s.ws.id, write_samples, &o);
		if (ret) {
			if (ret == -EIO && !s.snl.err.has_msg)
				sp_err(stderr, "cannot write %s", args->samples_path);
			else
				sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
			rc = SP_EXIT_ERROR;
		}
	}
	/* closing the socket releases the session in the kernel */
	sp_nl_close(&s.snl);
	return rc;
}

static void report_end(const struct sp_lat *lat)
{
	if (lat->state == SPARKPERF_LAT_STATE_FAILED) {
		const char *why = sp_session_error(lat->has_error_msg, lat->error_msg,
						   lat->has_error, lat->error);

		sp_err(stderr, "%s", why ? why : "the latency session failed");
	} else if (lat->state == SPARKPERF_LAT_STATE_STOPPED) {
		fprintf(stderr, "Session %u (%u B) stopped after %" PRIu64 " round trip%s.\n",
			lat->id, lat->cfg.size, lat->count, lat->count == 1 ? "" : "s");
	} else if (!sp_lat_state_final(lat->state)) {
		fprintf(stderr, "Session %u (%u B) was still %s after %" PRIu64
			" round trips.\n", lat->id, lat->cfg.size,
			sp_lat_state_str(lat->state), lat->count);
	}
}

static int lat_run(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct run_args args;
	struct sp_run r;
	struct sp_lat lats[SP_SWEEP_MAX];
	struct sp_run_traces rt;
	FILE *samples = NULL;
	size_t n_runs, n_lats = 0, i;
	bool measured = false, header = false, started;
	int ret, rc = SP_EXIT_OK;

	if (sp_help_requested(argc, argv, lat_usage))
		return SP_EXIT_OK;
	ret = parse_run_args(argc, argv, &args);
	if (ret)
		return ret;
	n_runs = args.n_sizes ? args.n_sizes : 1;
	if (sp_run_traces_init(&rt, args.trace || ctx->trace, n_runs))
		return SP_EXIT_ERROR;

	ret = sp_run_start(&r, "lat");
	if (ret) {
		sp_run_traces_free(&rt);
		return ret;
	}
	if (args.samples_path) {
		samples = fopen(args.samples_path, "we");
		if (!samples) {
			sp_err(stderr, "cannot write %s: %s", args.samples_path, strerror(errno));
			sp_run_end(&r);
			sp_run_traces_free(&rt);
			return SP_EXIT_ERROR;
		}
		sp_print_samples_csv_header(samples, args.n_sizes > 1);
	}

	for (i = 0; i < n_runs && !sp_run_signal_pending(&r.sig); i++) {
		struct sp_lat *lat = &lats[n_lats];

		rc = sp_run_traces_begin(&rt, "lat", args.n_sizes ? args.sizes[i] : 0,
					 &args.cfg.peer, 1, args.cfg.has_dev ? &args.cfg.dev : NULL,
					 args.cfg.has_dev);
		if (rc)
			break;
		rc = run_session(&r, &args, samples, args.n_sizes ? args.sizes[i] : 0, i, lat,
				 &started);
		sp_run_traces_end(&rt, "lat");
		if (!started)
			break;
		n_lats++;
		if (lat->count)
			measured = true;
		if (!ctx->json && lat->count) {
			if (!header)
				sp_print_lat_header(lat, &r.env.env);
			header = true;
			sp_print_lat_row(lat);
			sp_print_flush();
		}
		report_end(lat);
		if (lat->state == SPARKPERF_LAT_STATE_FAILED)
			rc = SP_EXIT_ERROR;
		if (rc != SP_EXIT_OK)
			break;
	}
	sp_run_signals_restore(&r.sig);

	rc = sp_session_report(&rt, "lat", ctx->json, ctx->json && n_lats ?
			       sp_print_lat_json_traces(lats, n_lats, &args.cfg, &r.env.env,
							rt.logs) : 0, rc);
	for (i = 0; i < n_lats; i++)
		sp_lat_free(&lats[i]);
	if (samples && fclose(samples)) {
		sp_err(stderr, "cannot write %s: %s", args.samples_path, strerror(errno));
		rc = SP_EXIT_ERROR;
	}
	sp_run_end(&r);
	sp_run_traces_free(&rt);
	return sp_session_exit(rc, measured);
}

SP_OBJECT_MAIN(lat, lat_usage,
	       { "show", lat_show },
	       { "run", lat_run })
