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
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "cmd.h"
#include "err.h"
#include "latwait.h"
#include "nl.h"
#include "parse.h"
#include "print.h"
#include "version.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CLOCKSOURCE_PATH "/sys/devices/system/clocksource/clocksource0/current_clocksource"

/* LAT_GET polls: a safety net next to the progress group, or the only way */
#define POLL_WITH_PROGRESS_MS 5000
#define POLL_WITHOUT_PROGRESS_MS 1000
/* after LAT_STOP, how long to wait for the session to end */
#define STOP_WAIT_MS 10000

static const char lat_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] lat show\n"
	"       sparkperf-ctl [ OPTIONS ] lat run peer ADDR [ port PORT ] [ dev DEV ] [ op OP ]\n"
	"               [ size SIZE ] [ iters N | duration TIME ] [ warmup N ] [ cpu CPU ]\n"
	"               [ interval MS ] [ samples FILE ]\n"
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
	"       FILE := CSV file for the raw samples\n"
	"Times are round trips (RTT); the one-way columns are RTT/2.\n"
	"The default command is show.\n";

/* ---- lat show ----------------------------------------------------------- */

static int lat_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_lat_list list;
	struct sp_nl nl;
	int ret;

	(void)ctx;
	if (sp_help_requested(argc, argv, lat_usage))
		return SP_EXIT_OK;
	if (argc > 0)
		return sp_usage_error("lat", "Unexpected argument '%s'", argv[0]);
	ret = sp_nl_open(&nl);
	if (ret)
		return sp_report_open_error("lat", "show", ret, &nl.err);
	ret = sp_nl_lat_list(&nl, &list);
	if (ret) {
		sp_report_nl_error(stderr, "lat", "show", ret, &nl.err);
		sp_nl_close(&nl);
		return SP_EXIT_ERROR;
	}
	sp_nl_close(&nl);
	ret = sp_print_lats(list.lats, list.n);
	sp_lat_list_free(&list);
	if (ret) {
		sp_report_nl_error(stderr, "lat", "show", ret, NULL);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

/* ---- lat run: arguments ------------------------------------------------- */

struct run_args {
	struct sp_lat_config cfg;	/* as requested; size set per session */
	uint64_t sizes[SP_SWEEP_MAX];
	size_t n_sizes;			/* 0: the kernel's default size */
	const char *samples_path;
};

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	const char *peer = NULL, *dev = NULL, *op = NULL, *size = NULL;
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
	};
	uint64_t lo, hi;
	char err[256];
	int ret;

	memset(a, 0, sizeof(*a));
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err)))
		return sp_usage_error("lat", "%s", err);
	if (!peer)
		return sp_usage_error("lat", "Missing 'peer ADDR': the address of the server");
	if (sp_parse_addr(peer, &c->peer))
		return sp_usage_error("lat", "Invalid peer address: '%s' (an IPv4 or IPv6 address)",
				      peer);
	c->has_port = kv[1].seen;
	c->port = (uint16_t)port;
	if (dev) {
		if (!sp_dev_name_valid(dev))
			return sp_usage_error("lat", "Invalid device name: '%s'", dev);
		snprintf(c->dev, sizeof(c->dev), "%s", dev);
		c->has_dev = true;
	}
	if (op) {
		if (sp_parse_lat_op(op, &c->op))
			return sp_usage_error("lat", "Invalid op: '%s' (write, send or read)", op);
		c->has_op = true;
	}
	if (size) {
		ret = sp_parse_size_range(size, 1, SPARKPERF_LAT_SIZE_MAX, &lo, &hi);
		if (ret == -ERANGE)
			return sp_usage_error("lat", "Invalid size: '%s' (range 1..%d bytes)", size,
					      SPARKPERF_LAT_SIZE_MAX);
		if (ret)
			return sp_usage_error("lat", "Invalid size: '%s' (BYTES or A..B with A <= B)",
					      size);
		a->n_sizes = sp_size_sweep(lo, hi, a->sizes, ARRAY_SIZE(a->sizes));
	}
	c->has_iters = kv[5].seen;
	c->has_duration = kv[6].seen;
	if (c->has_iters && c->has_duration)
		return sp_usage_error("lat", "'iters' and 'duration' cannot be used together");
	c->has_warmup = kv[7].seen;
	c->has_cpu = kv[8].seen;
	c->has_interval = kv[9].seen;

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

/* ---- lat run: signals and time ----------------------------------------- */

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_count;

static void on_signal(int sig)
{
	stop_signal = sig;
	stop_count++;
}

struct sig_state {
	struct sigaction old_int, old_term;
	sigset_t old_mask, wait_mask;
};

/* Signals are blocked except inside ppoll(): no lost wake-up. */
static void signals_catch(struct sig_state *s)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	stop_signal = 0;
	stop_count = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &s->old_int);
	sigaction(SIGTERM, &sa, &s->old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &s->old_mask);
	s->wait_mask = s->old_mask;
	sigdelset(&s->wait_mask, SIGINT);
	sigdelset(&s->wait_mask, SIGTERM);
}

static void signals_restore(struct sig_state *s)
{
	/* a signal still pending goes to on_signal(), which only records it */
	sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
	sigaction(SIGINT, &s->old_int, NULL);
	sigaction(SIGTERM, &s->old_term, NULL);
}

/* Has a signal arrived, including one still blocked? */
static bool signal_pending(const struct sig_state *s)
{
	struct timespec zero = { 0 };

	if (!stop_signal)
		ppoll(NULL, 0, &zero, &s->wait_mask);
	return stop_signal != 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- lat run: environment ----------------------------------------------- */

struct env_buf {
	struct sp_lat_env env;
	struct sp_info info;
	struct utsname uts;
	char clock[64];
};

static void env_collect(struct sp_nl *nl, struct env_buf *e)
{
	FILE *f;

	memset(e, 0, sizeof(*e));
	e->env.tool_version = SPARKPERF_CTL_VERSION;
	if (!uname(&e->uts)) {
		e->env.host = e->uts.nodename;
		e->env.kernel_release = e->uts.release;
	}
	if (!sp_nl_info_get(nl, &e->info)) {
		e->env.module_version = e->info.version;
		if (e->info.kernel[0])
			e->env.kernel_release = e->info.kernel;
	}
	f = fopen(CLOCKSOURCE_PATH, "re");
	if (f) {
		if (fgets(e->clock, sizeof(e->clock), f)) {
			e->clock[strcspn(e->clock, "\n")] = '\0';
			if (e->clock[0])
				e->env.clock_source = e->clock;
		}
		fclose(f);
	}
}

/* ---- lat run: one session ----------------------------------------------- */

struct run {
	struct run_args *args;
	struct sp_nl ctl;		/* info, progress group */
	struct sig_state sig;
	FILE *samples;
	bool tty;
};

/* The hooks of sp_lat_wait() for one session. */
struct session {
	struct run *r;
	struct sp_nl snl;		/* the session's own socket */
	uint32_t size;			/* for the progress line */
	char prefix[32];		/* "[2/24] " in a sweep */
	bool shown;			/* a progress line is on the terminal */
};

static int ops_stop(void *ctx, uint32_t id)
{
	struct session *s = ctx;

	return sp_nl_lat_stop(&s->snl, id);
}

static int ops_get(void *ctx, uint32_t id, struct sp_lat *lat)
{
	struct session *s = ctx;

	return sp_nl_lat_get(&s->snl, id, lat);
}

static int ops_wait(void *ctx, int64_t timeout_ms)
{
	struct session *s = ctx;
	int fd = sp_nl_progress_fd(&s->r->ctl);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000, .tv_nsec = (timeout_ms % 1000) * 1000000,
	};

	if (ppoll(&pfd, fd >= 0 ? 1 : 0, &ts, &s->r->sig.wait_mask) < 0)
		return errno == EINTR ? 0 : -errno;
	return fd >= 0 && (pfd.revents & POLLIN) ? 1 : 0;
}

static int ops_recv(void *ctx, sp_nl_progress_fn fn, void *arg)
{
	struct session *s = ctx;

	return sp_nl_progress_recv(&s->r->ctl, fn, arg);
}

static int64_t ops_now_ms(void *ctx)
{
	(void)ctx;
	return now_ms();
}

static unsigned int ops_signals(void *ctx)
{
	(void)ctx;
	return (unsigned int)stop_count;
}

static void ops_show(void *ctx, const struct sp_lat_watch *w)
{
	struct session *s = ctx;
	struct sp_lat_progress p = {
		.id = w->id, .state = w->state, .count = w->count,
		.warmup_done = w->warmup_done,
	};
	char line[256];

	if (!s->r->tty)
		return;
	sp_fmt_lat_progress(line, sizeof(line), s->size, &p, w->has_last ? &w->last : NULL);
	fprintf(stderr, "\r\033[K%s%s", s->prefix, line);
	fflush(stderr);
	s->shown = true;
}

static void progress_clear(struct session *s)
{
	if (s->shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
		s->shown = false;
	}
}

static const struct sp_lat_wait_ops wait_ops = {
	.stop = ops_stop,
	.get = ops_get,
	.wait = ops_wait,
	.recv = ops_recv,
	.now_ms = ops_now_ms,
	.signals = ops_signals,
	.show = ops_show,
};

static int ignore_progress(const struct sp_lat_progress *p, void *arg)
{
	(void)p;
	(void)arg;
	return 0;
}

/* Discards pending progress messages (of sessions that are gone). */
static void progress_drain(struct sp_nl *ctl)
{
	if (ctl->pr_sk)
		while (sp_nl_progress_recv(ctl, ignore_progress, NULL) == -ENOBUFS)
			;
}

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
static int run_session(struct run *r, uint64_t size, size_t index, struct sp_lat *lat,
		       bool *started)
{
	struct sp_lat_config cfg = r->args->cfg;
	struct session s = { .r = r };
	struct sp_lat_wait_cfg wcfg = {
		.progress = r->ctl.pr_sk != NULL,
		.poll_ms = r->ctl.pr_sk ? POLL_WITH_PROGRESS_MS : POLL_WITHOUT_PROGRESS_MS,
		.stop_wait_ms = STOP_WAIT_MS,
	};
	struct sp_lat_watch w = { .state = SPARKPERF_LAT_STATE_CONNECTING };
	enum sp_lat_wait_end end = SP_LAT_WAIT_FINAL;
	int ret, rc = SP_EXIT_OK;

	*started = false;
	memset(lat, 0, sizeof(*lat));
	if (size) {
		cfg.has_size = true;
		cfg.size = (uint32_t)size;
	}
	s.size = cfg.has_size ? cfg.size : 2;
	if (r->args->n_sizes > 1)
		snprintf(s.prefix, sizeof(s.prefix), "[%zu/%zu] ", index + 1, r->args->n_sizes);

	ret = sp_nl_open(&s.snl);
	if (ret)
		return sp_report_open_error("lat", "run", ret, &s.snl.err);
	progress_drain(&r->ctl);
	ret = sp_nl_lat_run(&s.snl, &cfg, &w.id);
	if (ret) {
		sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
		sp_nl_close(&s.snl);
		return SP_EXIT_ERROR;
	}
	*started = true;
	ops_show(&s, &w);

	ret = sp_lat_wait(&wait_ops, &s, &wcfg, &w, &end);
	progress_clear(&s);
	if (ret) {
		sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
		rc = SP_EXIT_ERROR;
	} else if (end == SP_LAT_WAIT_GAVE_UP) {
		fprintf(stderr, "Warning: session %u did not stop within %d s; "
			"printing what it measured so far.\n", w.id, STOP_WAIT_MS / 1000);
	}
	/* the final word, also after a failure above: what was measured */
	ret = sp_nl_lat_get(&s.snl, w.id, lat);
	if (ret) {
		if (rc == SP_EXIT_OK)
			sp_report_nl_error(stderr, "lat", "run", ret, &s.snl.err);
		lat->id = w.id;
		lat->cfg = cfg;
		lat->state = w.state;
		fill_config(&lat->cfg, &cfg);
		sp_nl_close(&s.snl);
		return SP_EXIT_ERROR;
	}
	fill_config(&lat->cfg, &cfg);
	if (r->samples && lat->count) {
		struct samples_out o = {
			.f = r->samples, .with_bytes = r->args->n_sizes > 1,
			.bytes = lat->cfg.size,
		};

		ret = sp_nl_lat_samples(&s.snl, w.id, write_samples, &o);
		if (ret) {
			if (ret == -EIO && !s.snl.err.has_msg)
				sp_err(stderr, "cannot write %s", r->args->samples_path);
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
		int e = lat->error < 0 ? -lat->error : lat->error;

		if (lat->has_error_msg)
			sp_err(stderr, "%s", lat->error_msg);
		else if (lat->has_error && e)
			sp_err(stderr, "%s", strerror(e));
		else
			sp_err(stderr, "the latency session failed");
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
	struct run r = { .args = &args };
	struct sp_lat lats[SP_SWEEP_MAX];
	struct env_buf env;
	size_t n_runs, n_lats = 0, i;
	bool measured = false, header = false, started;
	int ret, rc = SP_EXIT_OK;

	if (sp_help_requested(argc, argv, lat_usage))
		return SP_EXIT_OK;
	ret = parse_run_args(argc, argv, &args);
	if (ret)
		return ret;
	n_runs = args.n_sizes ? args.n_sizes : 1;

	ret = sp_nl_open(&r.ctl);
	if (ret)
		return sp_report_open_error("lat", "run", ret, &r.ctl.err);
	env_collect(&r.ctl, &env);
	/* without the group (no permission: LAT_RUN will say so), poll LAT_GET */
	if (sp_nl_progress_open(&r.ctl))
		memset(&r.ctl.err, 0, sizeof(r.ctl.err));
	if (args.samples_path) {
		r.samples = fopen(args.samples_path, "we");
		if (!r.samples) {
			sp_err(stderr, "cannot write %s: %s", args.samples_path, strerror(errno));
			sp_nl_close(&r.ctl);
			return SP_EXIT_ERROR;
		}
		sp_print_samples_csv_header(r.samples, args.n_sizes > 1);
	}
	r.tty = isatty(STDERR_FILENO);

	signals_catch(&r.sig);
	for (i = 0; i < n_runs && !signal_pending(&r.sig); i++) {
		struct sp_lat *lat = &lats[n_lats];

		rc = run_session(&r, args.n_sizes ? args.sizes[i] : 0, i, lat, &started);
		if (!started)
			break;
		n_lats++;
		if (lat->count)
			measured = true;
		if (!ctx->json && lat->count) {
			if (!header)
				sp_print_lat_header(lat, &env.env);
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
	signals_restore(&r.sig);

	if (ctx->json && n_lats) {
		ret = sp_print_lat_json(lats, n_lats, &args.cfg, &env.env);
		if (ret) {
			sp_report_nl_error(stderr, "lat", "run", ret, NULL);
			rc = SP_EXIT_ERROR;
		}
	}
	for (i = 0; i < n_lats; i++)
		sp_lat_free(&lats[i]);
	if (r.samples && fclose(r.samples)) {
		sp_err(stderr, "cannot write %s: %s", args.samples_path, strerror(errno));
		rc = SP_EXIT_ERROR;
	}
	sp_nl_close(&r.ctl);
	if (r.ctl.bad_progress)
		fprintf(stderr, "Warning: %u malformed progress message%s skipped.\n",
			r.ctl.bad_progress, r.ctl.bad_progress == 1 ? " was" : "s were");

	/* interrupted before anything was measured: as a shell reports it */
	if (rc == SP_EXIT_OK && stop_signal && !measured)
		rc = 128 + stop_signal;
	return rc;
}

static const struct sp_cmd lat_cmds[] = {
	{ "show", lat_show },
	{ "run", lat_run },
};

int sp_cmd_lat(const struct sp_ctx *ctx, int argc, char **argv)
{
	return sp_cmd_dispatch(ctx, "lat", lat_cmds, ARRAY_SIZE(lat_cmds), lat_usage,
			       argc, argv);
}
