// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl trace: counter traces. "trace record" starts a kernel
 * sampler on the counters of some ports, follows its batches on the
 * "trace" group (catching up from the ring when messages are lost) until
 * its duration or Ctrl-C, and reports per stream the achieved period and
 * read costs and per counter the increase and rates; "output FILE" writes
 * every sample as CSV or JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/tracenl.h"
#include "lib/parse.h"
#include "lib/show.h"
#include "lib/print.h"
#include "lib/traceprint.h"
#include "lib/run.h"
#include "lib/tracerun.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* After the duration, how long to wait for the trace's end before asking. */
#define TRACE_END_GRACE_MS 2000
/* After a STOP, how long to wait for the END message. */
#define TRACE_STOP_WAIT_MS 2000

static const char trace_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] trace record dev DEV[,DEV...]\n"
	"               [ counters GLOB[,GLOB...] ] [ period TIME ] [ netdev-period TIME ]\n"
	"               [ ethtool-period TIME ] [ rdma-period TIME ] [ duration TIME ]\n"
	"               [ output FILE ] [ buffer SIZE ]\n"
	"       sparkperf-ctl [ OPTIONS ] trace show\n"
	"       sparkperf-ctl trace stop id ID\n"
	"       sparkperf-ctl trace help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       DEV := a netdev or an RDMA device (an RDMA device brings its ports'\n"
	"              netdevs, a netdev its RDMA device port); at most 8 targets\n"
	"       GLOB := [SOURCE:]PATTERN, SOURCE := { netdev | ethtool | rdma }; default:\n"
	"               every netdev and rdma counter, and from ethtool *_phy, *_bytes,\n"
	"               *_packets, *vport_rdma*, *pause*, *discard*, *_marked,\n"
	"               rx_out_of_buffer, outbound_pci*\n"
	"       TIME := a duration (100us, 1ms, 0.5, 10s); period sets every source, a\n"
	"               source whose minimum is higher gets its minimum (netdev 100us,\n"
	"               ethtool and rdma 1ms); defaults netdev 1ms, ethtool and rdma 10ms\n"
	"       duration: until Ctrl-C without it, at most 24h\n"
	"       FILE := every sample, FILE.csv (a row per counter and sample) or FILE.json\n"
	"               (one document: configuration, name tables, samples, report)\n"
	"       SIZE := bytes of the kernel's sample ring (64K..256M, default 8M)\n"
	"       ID := a trace's id (see 'sparkperf-ctl trace show')\n"
	"The default command is show.\n";

/* ---- trace show, trace stop --------------------------------------------------- */

static void json_stream_info(json_object *o, const void *item)
{
	const struct sp_stream *st = item;

	sp_json_stream_head(o, st);
	sp_json_add(o, "period_us", json_object_new_int64(st->period_us));
	sp_json_add(o, "version", json_object_new_int64(st->version));
	sp_json_add(o, "truncated", json_object_new_boolean(st->truncated));
	sp_json_add(o, "samples", sp_json_u64(st->samples));
	sp_json_add(o, "missed", sp_json_u64(st->missed));
	sp_json_add(o, "read_sum_ns", sp_json_u64(st->read_ns_sum));
	sp_json_add(o, "read_max_ns", sp_json_u64(st->read_ns_max));
	sp_json_add(o, "late_max_ns", sp_json_u64(st->late_ns_max));
	sp_json_add(o, "names", sp_json_counter_names(st->names, st->n_names));
}

static void json_trace(json_object *o, const void *item)
{
	const struct sp_trace *t = item;

	sp_json_trace_head(o, t);
	sp_json_add(o, "duration_ms", t->has_duration ? json_object_new_int64(t->duration_ms) : NULL);
	sp_json_add(o, "buffer_bytes", json_object_new_int64(t->buffer_bytes));
	sp_json_add(o, "batch_ms", json_object_new_int64(t->batch_ms));
	sp_json_add(o, "cpu_ns", t->has_cpu ? sp_json_u64(t->cpu_ns) : NULL);
	sp_json_add(o, "slots", json_object_new_int64(t->slots));
	sp_json_add(o, "seq_next", sp_json_u64(t->seq_next));
	sp_json_add(o, "seq_oldest", sp_json_u64(t->seq_oldest));
	sp_json_add(o, "streams", sp_json_objects(t->streams, t->n_streams, sizeof(*t->streams),
						  json_stream_info));
}

/* trace show: each trace and a line per stream; JSON, an array. */
static int print_traces(const struct sp_trace *traces, size_t n)
{
	char target[SP_TARGET_STRLEN];
	FILE *f = sp_print_file();
	size_t i, k;

	if (sp_print_is_json())
		return sp_print_json(sp_json_objects(traces, n, sizeof(*traces), json_trace));
	for (i = 0; i < n; i++) {
		const struct sp_trace *t = &traces[i];
		const char *why = sp_session_error(t->has_error_msg, t->error_msg, t->has_error,
						   t->error);

		fprintf(f, "%strace %u: %s, %.3f s, %zu stream%s, ring %u slots, next seq %" PRIu64
			"%s%s\n", i ? "\n" : "", t->id, sp_trace_state_str(t->state),
			(double)t->elapsed_ns / 1e9, t->n_streams, t->n_streams == 1 ? "" : "s",
			t->slots, t->seq_next, why ? ": " : "", why ? why : "");
		fprintf(f, "  %-5s %-8s %-16s %10s %8s %10s %8s %14s %13s\n", "INDEX", "SOURCE",
			"TARGET", "PERIOD[us]", "COUNTERS", "SAMPLES", "MISSED", "READ_MEAN[us]",
			"READ_MAX[us]");
		for (k = 0; k < t->n_streams; k++) {
			const struct sp_stream *st = &t->streams[k];

			fprintf(f, "  %-5u %-8s %-16s %10u %8zu %10" PRIu64 " %8" PRIu64
				" %14.3f %13.3f\n", st->index, sp_counter_source_str(st->source),
				sp_fmt_stream_target(st, target, sizeof(target)), st->period_us,
				st->n_names, st->samples, st->missed,
				st->samples ? (double)st->read_ns_sum / (double)st->samples / 1e3 : 0,
				(double)st->read_ns_max / 1e3);
		}
	}
	return 0;
}

SP_SHOW_FUNC(trace_show, "trace", trace_usage, struct sp_trace_list,
	     sp_nl_trace_list(&nl, &list),
	     print_traces(list.traces, list.n), sp_trace_list_free(&list))

static int trace_stop(const struct sp_ctx *ctx, int argc, char **argv)
{
	uint32_t id = 0;
	struct sp_kv kv[] = {
		{ .key = "id", .what = "trace id", .type = SP_KV_U32, .max = UINT32_MAX,
		  .dst = &id },
	};
	int ret;

	(void)ctx;
	if (sp_kv_args_end("trace", trace_usage, argc, argv, kv, ARRAY_SIZE(kv), &ret))
		return ret;
	if (!kv[0].seen)
		return sp_usage_error("trace", "Missing 'id ID'");
	return SP_REQUEST("trace", "stop", nl, sp_nl_trace_stop(&nl, id));
}

/* ---- trace record: arguments ------------------------------------------------- */

struct record_args {
	struct sp_trace_config cfg;
	struct sp_port_pair pairs[SPARKPERF_TRACE_TARGETS_MAX];
	size_t n_pairs;
	const char *dev;
	struct sp_list devs;
	struct sp_list globs;		/* the user's */
	const char *output;
	bool json_output;
};

/* "TIME" as whole µs in [min_us, max_us]; a usage error names what and the range. */
static int parse_period(const char *what, const char *s, uint32_t min_us, uint32_t max_us,
			uint32_t *us)
{
	uint64_t ns;
	int ret = sp_parse_duration(s, 1000, (uint64_t)max_us * 1000, &ns);

	if (ret == -ERANGE || (!ret && ns < (uint64_t)min_us * 1000))
		return sp_usage_error("trace", "Invalid %s: '%s' (%u us .. %u s)", what, s, min_us,
				      max_us / 1000000);
	if (ret || ns % 1000)
		return sp_usage_error("trace", "Invalid %s: '%s' (a duration in whole us: "
				      "100us, 1ms, 0.5s)", what, s);
	*us = (uint32_t)(ns / 1000);
	return SP_EXIT_OK;
}

enum {
	K_DEV, K_COUNTERS, K_PERIOD, K_NETDEV_PERIOD, K_ETHTOOL_PERIOD, K_RDMA_PERIOD,
	K_DURATION, K_OUTPUT, K_BUFFER, K_N
};

/*
 * The period rules: "period P" for every source, raised to a source's
 * minimum; a source's own period replaces it and must respect the minimum.
 */
static int parse_record_args(int argc, char **argv, struct record_args *a)
{
	const char *period = NULL, *np = NULL, *ep = NULL, *rp = NULL;
	struct sp_trace_config *c = &a->cfg;
	uint64_t buffer = 0;
	struct sp_kv kv[K_N] = {
		[K_DEV] = { .key = "dev", .what = "device list", .type = SP_KV_STRING,
			    .dst = &a->dev },
		[K_COUNTERS] = { .key = "counters", .what = "counter glob list",
				 .type = SP_KV_LIST, .dst = &a->globs },
		[K_PERIOD] = { .key = "period", .type = SP_KV_STRING, .dst = &period },
		[K_NETDEV_PERIOD] = { .key = "netdev-period", .type = SP_KV_STRING, .dst = &np },
		[K_ETHTOOL_PERIOD] = { .key = "ethtool-period", .type = SP_KV_STRING,
				       .dst = &ep },
		[K_RDMA_PERIOD] = { .key = "rdma-period", .type = SP_KV_STRING, .dst = &rp },
		[K_DURATION] = { .key = "duration", .type = SP_KV_DURATION_MS, .min = 1,
				 .max = SPARKPERF_TRACE_DURATION_MS_MAX, .dst = &c->duration_ms },
		[K_OUTPUT] = { .key = "output", .what = "output file", .type = SP_KV_STRING,
			       .dst = &a->output },
		[K_BUFFER] = { .key = "buffer", .what = "buffer size", .type = SP_KV_SIZE,
			       .min = SPARKPERF_TRACE_BUFFER_MIN, .max = SPARKPERF_TRACE_BUFFER_MAX,
			       .dst = &buffer },
	};
	/* a source's own period, after "period" */
	const struct {
		const char *key;
		const char *const *arg;		/* set by sp_parse_kv() below */
		uint32_t min_us;
		uint32_t *us;
		bool *has;
	} sources[] = {
		{ "netdev-period", &np, SPARKPERF_TRACE_NETDEV_PERIOD_US_MIN, &c->netdev_period_us,
		  &c->has_netdev_period },
		{ "ethtool-period", &ep, SPARKPERF_TRACE_SLOW_PERIOD_US_MIN, &c->ethtool_period_us,
		  &c->has_ethtool_period },
		{ "rdma-period", &rp, SPARKPERF_TRACE_SLOW_PERIOD_US_MIN, &c->rdma_period_us,
		  &c->has_rdma_period },
	};
	uint32_t p = 0;
	char err[256];
	size_t i;
	int ret;

	memset(a, 0, sizeof(*a));
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err)))
		return sp_usage_error("trace", "%s", err);
	if (!a->dev)
		return sp_usage_error("trace", "Missing 'dev DEV[,DEV...]'");
	ret = sp_port_names_parse("trace", a->dev, &a->devs);
	if (ret)
		return ret;
	ret = sp_globs_take("trace", &a->globs, c->globs);
	if (ret)
		return ret;
	c->n_globs = a->globs.n;
	if (!c->n_globs) {
		for (i = 0; i < sp_n_default_globs; i++)
			c->globs[i] = sp_default_globs[i];
		c->n_globs = sp_n_default_globs;
	}
	if (period) {
		ret = parse_period("period", period, SPARKPERF_TRACE_NETDEV_PERIOD_US_MIN,
				   SPARKPERF_TRACE_PERIOD_US_MAX, &p);
		if (ret)
			return ret;
		c->has_netdev_period = c->has_ethtool_period = c->has_rdma_period = true;
		c->netdev_period_us = p;
		c->ethtool_period_us = c->rdma_period_us =
			p < SPARKPERF_TRACE_SLOW_PERIOD_US_MIN ? SPARKPERF_TRACE_SLOW_PERIOD_US_MIN : p;
	}
	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		if (!*sources[i].arg)
			continue;
		ret = parse_period(sources[i].key, *sources[i].arg, sources[i].min_us,
				   SPARKPERF_TRACE_PERIOD_US_MAX, sources[i].us);
		if (ret)
			return ret;
		*sources[i].has = true;
	}
	c->has_duration = kv[K_DURATION].seen;
	c->has_buffer = kv[K_BUFFER].seen;
	c->buffer_bytes = (uint32_t)buffer;
	if (a->output) {
		size_t len = strlen(a->output);

		if (len > 4 && !strcmp(a->output + len - 4, ".csv"))
			a->json_output = false;
		else if (len > 5 && !strcmp(a->output + len - 5, ".json"))
			a->json_output = true;
		else
			return sp_usage_error("trace", "Invalid output file: '%s' (FILE.csv or "
					      "FILE.json)", a->output);
	}
	return SP_EXIT_OK;
}

/* ---- trace record: the run --------------------------------------------------- */

static void show_progress(struct sp_run *r, const struct sp_tracerun *t, uint64_t start_ms)
{
	char line[160];

	snprintf(line, sizeof(line), "trace %u: %.1f s, %" PRIu64 " samples%s",
		 t->tl.trace.id, (double)(sp_run_now_ms() - (int64_t)start_ms) / 1000,
		 t->tl.received, t->tl.lost ? ", some lost" : "");
	sp_run_line_show(r, "", line);
}

/* ppoll() on the trace group, signals let in: 1 readable, 0 timeout/signal, -errno. */
static int wait_group(const struct sp_tracerun *t, const struct sp_run_sig *sig,
		      int64_t timeout_ms)
{
	struct pollfd pfd = { .fd = sp_tracerun_fd(t), .events = POLLIN };
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000, .tv_nsec = (timeout_ms % 1000) * 1000000,
	};

	if (ppoll(&pfd, 1, &ts, &sig->wait_mask) < 0)
		return errno == EINTR ? 0 : -errno;
	return pfd.revents & POLLIN ? 1 : 0;
}

/*
 * Follows the trace until it ends (duration, device removed), or a signal
 * stops it. 0 or -errno.
 */
static int follow(struct sp_run *r, struct sp_tracerun *t, const struct sp_trace_config *cfg)
{
	int64_t start = sp_run_now_ms(), deadline = 0, now;
	bool stopped = false;
	int ret;

	if (cfg->has_duration)
		deadline = start + cfg->duration_ms + TRACE_END_GRACE_MS;
	for (;;) {
		if (!stopped && sp_run_signal_pending(&r->sig)) {
			ret = sp_nl_trace_stop(&t->nl, t->tl.trace.id);
			if (ret && ret != -ENOENT)
				return ret;
			stopped = true;
			deadline = sp_run_now_ms() + TRACE_STOP_WAIT_MS;
		}
		if (t->ended)
			return 0;
		now = sp_run_now_ms();
		if (deadline && now >= deadline)
			return 0;	/* the END did not come: finish asks */
		ret = wait_group(t, &r->sig, deadline ? deadline - now : 500);
		if (ret < 0)
			return ret;
		ret = sp_tracerun_recv(t);
		if (ret)
			return ret;
		show_progress(r, t, (uint64_t)start);
	}
}

/*
 * The output file, opened before anything starts: a wrong path must not
 * cost a run of up to 24 h. *created: it did not exist (removed if the
 * trace never starts). NULL, the error said: exit 2.
 */
static FILE *open_output(const struct record_args *a, bool *created)
{
	FILE *f;

	*created = access(a->output, F_OK) != 0;
	f = fopen(a->output, "we");
	if (!f)
		sp_err(stderr, "cannot write %s: %s", a->output, strerror(errno));
	return f;
}

static int write_output(const struct record_args *a, FILE *f, const struct sp_tracerun *t)
{
	int ret;

	ret = a->json_output ? sp_print_trace_json_file(f, &t->tl, &a->cfg) :
	      sp_print_trace_csv(f, &t->tl);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		sp_err(stderr, "cannot write %s: %s", a->output, strerror(-ret));
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

static int trace_record(const struct sp_ctx *ctx, int argc, char **argv)
{
	bool created = false, started = false;
	struct record_args *a;
	struct sp_tracerun t;
	FILE *out = NULL;
	struct sp_run r;
	int rc, ret;

	(void)ctx;
	if (sp_help_requested(argc, argv, trace_usage))
		return SP_EXIT_OK;
	a = calloc(1, sizeof(*a));
	if (!a) {
		sp_err(stderr, "%s", strerror(ENOMEM));
		return SP_EXIT_ERROR;
	}
	rc = parse_record_args(argc, argv, a);
	if (rc)
		goto out_args;
	if (a->output) {
		out = open_output(a, &created);
		if (!out) {
			rc = SP_EXIT_USAGE;
			goto out_args;
		}
	}
	rc = sp_run_start(&r, "trace");
	if (rc)
		goto out_args;
	rc = sp_port_pairs_resolve(&r.ctl, "trace", "record", &a->devs, a->pairs,
				   ARRAY_SIZE(a->pairs), &a->n_pairs);
	if (!rc && sp_port_pairs_targets(a->pairs, a->n_pairs, a->cfg.targets,
					 SPARKPERF_TRACE_TARGETS_MAX, &a->cfg.n_targets))
		rc = sp_usage_error("trace", "Too many targets: at most %d netdevs and RDMA ports",
				    SPARKPERF_TRACE_TARGETS_MAX);
	if (rc)
		goto out_run;
	rc = sp_tracerun_start(&t, "trace", "record", &a->cfg, (const char *const *)a->globs.items,
			       a->globs.n, a->output != NULL, true);
	if (rc)
		goto out_trace;
	started = true;
	ret = follow(&r, &t, &a->cfg);
	sp_run_line_clear(&r);
	if (!ret)
		ret = sp_tracerun_finish(&t);
	if (ret) {
		sp_report_nl_error(stderr, "trace", "record", ret, &t.nl.err);
		rc = SP_EXIT_ERROR;
	}
	if (t.nl.bad_trace)
		fprintf(stderr, "Warning: %u malformed trace message%s skipped.\n",
			t.nl.bad_trace, t.nl.bad_trace == 1 ? " was" : "s were");
	ret = sp_print_trace_report(&t.tl, "Counter", false, &r.env.env);
	if (ret) {
		sp_report_nl_error(stderr, "trace", "record", ret, NULL);
		rc = SP_EXIT_ERROR;
	}
	if (out && write_output(a, out, &t))
		rc = SP_EXIT_ERROR;
	out = NULL;
	if (sp_tracerun_failed(&t))
		rc = SP_EXIT_ERROR;
out_trace:
	sp_tracerun_close(&t);
out_run:
	sp_run_end(&r);
out_args:
	if (out) {
		fclose(out);
		if (created && !started)
			unlink(a->output);
	}
	sp_list_free(&a->devs);
	sp_list_free(&a->globs);
	free(a);
	return rc;
}

SP_OBJECT_MAIN(trace, trace_usage,
	       { "show", trace_show },
	       { "record", trace_record },
	       { "stop", trace_stop })
