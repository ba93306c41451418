// SPDX-License-Identifier: GPL-2.0
/*
 * The printers of a trace shared beyond trace/: its report, after "trace
 * record", "lat/bw run ... trace on" and bench, and the files of "trace
 * record output FILE".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "print.h"
#include "print.h"
#include "traceprint.h"

/* ---- pieces --------------------------------------------------------------- */

char *sp_fmt_counter_rate(char *buf, size_t len, double rate, enum sp_counter_unit unit)
{
	if (unit == SP_UNIT_BYTES)
		snprintf(buf, len, "%.3f Gbit/s", rate / 1e9);
	else
		snprintf(buf, len, "%.1f %s", rate, sp_counter_rate_unit(unit));
	return buf;
}

char *sp_fmt_stream_target(const struct sp_stream *st, char *buf, size_t len)
{
	if (st->has_port)
		snprintf(buf, len, "%s/%u", st->target, st->port);
	else
		snprintf(buf, len, "%s", st->target);
	return buf;
}

void sp_json_stream_head(json_object *o, const struct sp_stream *st)
{
	sp_json_add(o, "index", json_object_new_int64(st->index));
	sp_json_add(o, "source", json_object_new_string(sp_counter_source_str(st->source)));
	sp_json_add(o, "target", json_object_new_string(st->target));
	if (st->has_ifindex)
		sp_json_add(o, "ifindex", json_object_new_int64(st->ifindex));
	if (st->has_port)
		sp_json_add(o, "port", json_object_new_int64(st->port));
}

void sp_json_trace_head(json_object *o, const struct sp_trace *t)
{
	sp_json_add(o, "id", json_object_new_int64(t->id));
	sp_json_add(o, "state", json_object_new_string(sp_trace_state_str(t->state)));
	sp_json_add(o, "error", t->has_error || t->has_error_msg ?
	    sp_json_str_or_null(sp_session_error(t->has_error_msg, t->error_msg, t->has_error,
					  t->error)) : NULL);
	sp_json_add(o, "start_ns", sp_json_u64(t->start_ns));
	sp_json_add(o, "elapsed_ns", sp_json_u64(t->elapsed_ns));
}

/* ---- the report ------------------------------------------------------------ */

/* A rate of sp_counter_rate() in the unit that sp_counter_rate_key() names */
static json_object *json_counter_rate(double rate, enum sp_counter_unit unit)
{
	return unit == SP_UNIT_BYTES ? sp_json_gbit_per_s(rate) : sp_json_fixed(rate, 3);
}

static json_object *json_tl_counter(const struct sp_tl_counter *c)
{
	json_object *o = json_object_new_object();
	char key[64];
	double rate;

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(c->name));
	sp_json_add(o, "unit", json_object_new_string(sp_counter_unit_word(c->unit)));
	sp_json_add(o, "first", sp_json_u64(c->first));
	sp_json_add(o, "last", sp_json_u64(c->last));
	sp_json_add(o, "delta", sp_json_u64(c->delta));
	sp_json_add(o, "wraps", json_object_new_int64(c->wraps));
	sp_json_add(o, "resets", json_object_new_int64(c->resets));
	snprintf(key, sizeof(key), "mean_%s", sp_counter_rate_key(c->unit));
	sp_json_add(o, key, sp_tl_counter_mean_rate(c, &rate) ?
		    json_counter_rate(rate, c->unit) : NULL);
	snprintf(key, sizeof(key), "peak_%s", sp_counter_rate_key(c->unit));
	sp_json_add(o, key, c->has_peak ? json_counter_rate(c->peak_rate, c->unit) : NULL);
	return o;
}

static json_object *json_tl_stream(const struct sp_tl_stream *st, bool changed_only)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	struct sp_tl_stream_stats s;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	sp_tl_stream_stats(st, &s);
	sp_json_stream_head(o, &st->info);
	sp_json_add(o, "period_requested_us", json_object_new_int64(st->info.period_us));
	sp_json_add(o, "period_p50_ns", s.has_period ? sp_json_u64(s.period_p50_ns) : NULL);
	sp_json_add(o, "period_p99_ns", s.has_period ? sp_json_u64(s.period_p99_ns) : NULL);
	sp_json_add(o, "period_max_ns", s.has_period ? sp_json_u64(s.period_max_ns) : NULL);
	sp_json_add(o, "samples", sp_json_u64(s.samples));
	sp_json_add(o, "samples_received", sp_json_u64(st->received));
	sp_json_add(o, "missed", sp_json_u64(s.missed));
	sp_json_add(o, "read_mean_ns", s.has_read ? sp_json_fixed(s.read_mean_ns, 1) : NULL);
	sp_json_add(o, "read_max_ns", s.has_read ? sp_json_u64(s.read_max_ns) : NULL);
	sp_json_add(o, "late_max_ns", sp_json_u64(st->info.late_ns_max));
	sp_json_add(o, "table_versions", json_object_new_int64(s.versions));
	sp_json_add(o, "truncated", json_object_new_boolean(st->info.truncated));
	for (i = 0; i < st->n_counters; i++)
		if (!changed_only || st->counters[i].delta)
			json_object_array_add(arr, json_tl_counter(&st->counters[i]));
	sp_json_add(o, "counters", arr);
	return o;
}

json_object *sp_json_trace_report(const struct sp_tracelog *tl, bool all)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	const struct sp_trace *t = &tl->trace;
	double cpu;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	sp_json_trace_head(o, t);
	sp_json_add(o, "cpu_ns", t->has_cpu ? sp_json_u64(t->cpu_ns) : NULL);
	sp_json_add(o, "cpu_per_sample_ns",
		    sp_tl_cpu_per_sample(tl, &cpu) ? sp_json_fixed(cpu, 4) : NULL);
	sp_json_add(o, "samples_received", sp_json_u64(tl->received));
	sp_json_add(o, "samples_lost", sp_json_u64(tl->lost));
	sp_json_add(o, "table_changes", json_object_new_int64(tl->table_changes));
	for (i = 0; i < tl->n_streams; i++)
		json_object_array_add(arr, json_tl_stream(&tl->streams[i], !all));
	sp_json_add(o, "streams", arr);
	return o;
}

/* "1000 us" as the period of a source, or "-" */
static void fmt_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%.1f", ns / 1e3);
}

static void print_report_counters(FILE *f, const struct sp_tracelog *tl, bool all)
{
	char target[SP_TARGET_STRLEN], mean[40], peak[40];
	size_t i, k, unchanged = 0, w = 7;
	double rate;

	for (i = 0; i < tl->n_streams; i++)
		for (k = 0; k < tl->streams[i].n_counters; k++)
			if (strlen(tl->streams[i].counters[k].name) > w)
				w = strlen(tl->streams[i].counters[k].name);
	fprintf(f, "%-8s %-16s %-*s %20s %20s %16s %18s %18s\n", "SOURCE", "TARGET", (int)w,
		"COUNTER", "FIRST", "LAST", "DELTA", "MEAN_RATE", "PEAK_RATE");
	for (i = 0; i < tl->n_streams; i++) {
		const struct sp_tl_stream *st = &tl->streams[i];

		sp_fmt_stream_target(&st->info, target, sizeof(target));
		for (k = 0; k < st->n_counters; k++) {
			const struct sp_tl_counter *c = &st->counters[k];

			if (!all && !c->delta) {
				unchanged++;
				continue;
			}
			if (sp_tl_counter_mean_rate(c, &rate))
				sp_fmt_counter_rate(mean, sizeof(mean), rate, c->unit);
			else
				snprintf(mean, sizeof(mean), "-");
			if (c->has_peak)
				sp_fmt_counter_rate(peak, sizeof(peak), c->peak_rate, c->unit);
			else
				snprintf(peak, sizeof(peak), "-");
			fprintf(f, "%-8s %-16s %-*s %20" PRIu64 " %20" PRIu64 " %16" PRIu64
				" %18s %18s%s\n", sp_counter_source_str(st->info.source), target,
				(int)w, c->name, c->first, c->last, c->delta, mean, peak,
				c->wraps || c->resets ? "  (wrapped or reset)" : "");
		}
	}
	if (unchanged)
		fprintf(f, "(%zu counter%s did not change)\n", unchanged,
			unchanged == 1 ? "" : "s");
}

static void print_report_streams(FILE *f, const struct sp_tracelog *tl)
{
	char target[SP_TARGET_STRLEN], p50[24], p99[24], rmean[24], rmax[24];
	size_t i;

	fprintf(f, "%-8s %-16s %11s %11s %11s %10s %8s %14s %13s %7s\n", "SOURCE", "TARGET",
		"PERIOD[us]", "P50[us]", "P99[us]", "SAMPLES", "MISSED", "READ_MEAN[us]",
		"READ_MAX[us]", "TABLES");
	for (i = 0; i < tl->n_streams; i++) {
		const struct sp_tl_stream *st = &tl->streams[i];
		struct sp_tl_stream_stats s;

		sp_tl_stream_stats(st, &s);
		snprintf(p50, sizeof(p50), "-");
		snprintf(p99, sizeof(p99), "-");
		snprintf(rmean, sizeof(rmean), "-");
		snprintf(rmax, sizeof(rmax), "-");
		if (s.has_period) {
			fmt_us(p50, sizeof(p50), (double)s.period_p50_ns);
			fmt_us(p99, sizeof(p99), (double)s.period_p99_ns);
		}
		if (s.has_read) {
			snprintf(rmean, sizeof(rmean), "%.3f", s.read_mean_ns / 1e3);
			snprintf(rmax, sizeof(rmax), "%.3f", (double)s.read_max_ns / 1e3);
		}
		fprintf(f, "%-8s %-16s %11u %11s %11s %10" PRIu64 " %8" PRIu64 " %14s %13s %7u%s\n",
			sp_counter_source_str(st->info.source),
			sp_fmt_stream_target(&st->info, target, sizeof(target)), st->info.period_us,
			p50, p99, s.samples, s.missed, rmean, rmax, s.versions,
			st->info.truncated ? "  (truncated)" : "");
	}
}

int sp_print_trace_report(const struct sp_tracelog *tl, const char *title, bool all,
			  const struct sp_env *env)
{
	const struct sp_trace *t = &tl->trace;
	const char *why = sp_session_error(t->has_error_msg, t->error_msg, t->has_error, t->error);
	FILE *f = sp_print_file();
	double cpu;

	if (sp_print_is_json()) {
		json_object *o = sp_json_trace_report(tl, all);

		if (o && env) {
			sp_json_add(o, "tool_version", sp_json_str_or_null(env->tool_version));
			sp_json_add(o, "module_version", sp_json_str_or_null(env->module_version));
			sp_json_add(o, "kernel_release", sp_json_str_or_null(env->kernel_release));
			sp_json_add(o, "host", sp_json_str_or_null(env->host));
			sp_json_add(o, "clock_source", sp_json_str_or_null(env->clock_source));
		}
		return sp_print_json(o);
	}
	fprintf(f, "%s trace %u: %s after %.3f s", title ? title : "Counter", t->id,
		sp_trace_state_str(t->state), (double)t->elapsed_ns / 1e9);
	if (sp_tl_cpu_per_sample(tl, &cpu))
		fprintf(f, ", sampler CPU %.1f ns per sample", cpu);
	fprintf(f, "%s%s\n", why ? ": " : "", why ? why : "");
	if (tl->lost)
		fprintf(f, "%" PRIu64 " sample%s lost (the ring overran before they were read)\n",
			tl->lost, tl->lost == 1 ? " was" : "s were");
	if (tl->table_changes)
		fprintf(f, "Counter name tables changed %u time%s during the trace: samples are "
			"named by their table version\n", tl->table_changes,
			tl->table_changes == 1 ? "" : "s");
	fprintf(f, "PERIOD: requested; P50/P99: achieved, between sample timestamps. "
		"Rates: bytes in Gbit/s (10^9 bit/s), packets in packet/s\n");
	print_report_streams(f, tl);
	fprintf(f, "\n");
	print_report_counters(f, tl, all);
	return 0;
}
/* ---- the writers ----------------------------------------------------------- */

/* The previous reading of every counter of every stream, while writing. */
struct prev_state {
	bool *seen;
	uint64_t *value, *ts;
	size_t *base;			/* first counter index of each stream */
};

static int prev_init(struct prev_state *p, const struct sp_tracelog *tl)
{
	size_t i, n = 0;

	memset(p, 0, sizeof(*p));
	p->base = calloc(tl->n_streams + 1, sizeof(*p->base));
	if (!p->base)
		return -ENOMEM;
	for (i = 0; i < tl->n_streams; i++) {
		p->base[i] = n;
		n += tl->streams[i].n_counters;
	}
	p->seen = calloc(n + 1, sizeof(*p->seen));
	p->value = calloc(n + 1, sizeof(*p->value));
	p->ts = calloc(n + 1, sizeof(*p->ts));
	return p->seen && p->value && p->ts ? 0 : -ENOMEM;
}

static void prev_free(struct prev_state *p)
{
	free(p->seen);
	free(p->value);
	free(p->ts);
	free(p->base);
}

int sp_print_trace_csv(FILE *f, const struct sp_tracelog *tl)
{
	struct prev_state p;
	size_t i, k;
	int ret = prev_init(&p, tl);

	if (ret) {
		prev_free(&p);
		return ret;
	}
	fprintf(f, "time_ns,seq,stream,source,target,version,counter,value,delta,rate,rate_unit\n");
	for (i = 0; i < tl->n_samples; i++) {
		const struct sp_tl_sample *s = &tl->samples[i];
		const struct sp_tl_stream *st = sp_tl_find_stream(tl, s->stream);
		const struct sp_tl_table *t = st ? sp_tl_find_table(st, s->version) : NULL;
		char target[SP_TARGET_STRLEN];
		size_t si;

		if (!t)
			continue;
		si = (size_t)(st - tl->streams);
		sp_fmt_stream_target(&st->info, target, sizeof(target));
		for (k = 0; k < s->n && k < t->n; k++) {
			size_t c = p.base[si] + t->map[k];
			enum sp_counter_unit unit = st->counters[t->map[k]].unit;
			uint64_t d;

			fprintf(f, "%" PRIu64 ",%" PRIu64 ",%u,%s,%s,%u,%s,%" PRIu64 ",",
				s->ts_ns - tl->trace.start_ns, s->seq, s->stream,
				sp_counter_source_str(st->info.source), target, s->version, t->names[k],
				s->values[k]);
			if (p.seen[c] && s->ts_ns > p.ts[c]) {
				sp_counter_delta(p.value[c], s->values[k], &d);
				d = sp_tl_scaled_delta(t->names[k], d);
				fprintf(f, "%" PRIu64 ",%.3f,%s\n", d,
					sp_counter_rate(d, s->ts_ns - p.ts[c], unit),
					sp_counter_rate_unit(unit));
			} else {
				fprintf(f, ",,%s\n", sp_counter_rate_unit(unit));
			}
			p.seen[c] = true;
			p.value[c] = s->values[k];
			p.ts[c] = s->ts_ns;
		}
	}
	prev_free(&p);
	return ferror(f) ? -EIO : 0;
}

static json_object *json_string_item(const void *strs, size_t i)
{
	return json_object_new_string(((const char *const *)strs)[i]);
}

static json_object *json_name_item(const void *names, size_t i)
{
	return json_object_new_string(((const sp_counter_name *)names)[i]);
}

json_object *sp_json_counter_names(const sp_counter_name *names, size_t n)
{
	return sp_json_array(names, n, json_name_item);
}

static void json_target(json_object *o, const void *item)
{
	const struct sp_trace_target *t = item;

	sp_json_add(o, t->rdma ? "rdma_dev" : "netdev", json_object_new_string(t->name));
	if (t->rdma)
		sp_json_add(o, "port", json_object_new_int64(t->port ? t->port : 1));
}

static json_object *json_trace_config(const struct sp_trace_config *c)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "targets", sp_json_objects(c->targets, c->n_targets, sizeof(*c->targets),
						  json_target));
	sp_json_add(o, "globs", sp_json_array(c->globs, c->n_globs, json_string_item));
	sp_json_add(o, "netdev_period_us", c->has_netdev_period ?
	    json_object_new_int64(c->netdev_period_us) : NULL);
	sp_json_add(o, "ethtool_period_us", c->has_ethtool_period ?
	    json_object_new_int64(c->ethtool_period_us) : NULL);
	sp_json_add(o, "rdma_period_us", c->has_rdma_period ?
	    json_object_new_int64(c->rdma_period_us) : NULL);
	sp_json_add(o, "duration_ms", c->has_duration ? json_object_new_int64(c->duration_ms) : NULL);
	sp_json_add(o, "buffer_bytes", c->has_buffer ? json_object_new_int64(c->buffer_bytes) : NULL);
	return o;
}

static void json_table(json_object *o, const void *item)
{
	const struct sp_tl_table *t = item;

	sp_json_add(o, "version", json_object_new_int64(t->version));
	sp_json_add(o, "names", sp_json_counter_names(t->names, t->n));
}

static void json_file_stream(json_object *o, const void *item)
{
	const struct sp_tl_stream *st = item;

	sp_json_stream_head(o, &st->info);
	sp_json_add(o, "period_us", json_object_new_int64(st->info.period_us));
	sp_json_add(o, "tables", sp_json_objects(st->tables, st->n_tables, sizeof(*st->tables),
						 json_table));
}

static json_object *json_u64_item(const void *values, size_t i)
{
	return sp_json_u64(((const uint64_t *)values)[i]);
}

static void json_sample(json_object *o, const void *item)
{
	const struct sp_tl_sample *s = item;

	sp_json_add(o, "seq", sp_json_u64(s->seq));
	sp_json_add(o, "stream", json_object_new_int64(s->stream));
	sp_json_add(o, "version", json_object_new_int64(s->version));
	sp_json_add(o, "ts_ns", sp_json_u64(s->ts_ns));
	sp_json_add(o, "read_ns", json_object_new_int64(s->read_ns));
	sp_json_add(o, "values", sp_json_array(s->values, s->n, json_u64_item));
}

int sp_print_trace_json_file(FILE *f, const struct sp_tracelog *tl,
			     const struct sp_trace_config *cfg)
{
	json_object *doc = json_object_new_object(), *tr = json_object_new_object();
	const char *str;

	if (!doc || !tr) {
		json_object_put(doc);
		json_object_put(tr);
		return -ENOMEM;
	}
	sp_json_add(tr, "id", json_object_new_int64(tl->trace.id));
	sp_json_add(tr, "state", json_object_new_string(sp_trace_state_str(tl->trace.state)));
	sp_json_add(tr, "start_ns", sp_json_u64(tl->trace.start_ns));
	sp_json_add(tr, "elapsed_ns", sp_json_u64(tl->trace.elapsed_ns));
	sp_json_add(tr, "config", cfg ? json_trace_config(cfg) : NULL);
	sp_json_add(doc, "trace", tr);
	sp_json_add(doc, "streams", sp_json_objects(tl->streams, tl->n_streams,
						    sizeof(*tl->streams), json_file_stream));
	sp_json_add(doc, "samples", sp_json_objects(tl->samples, tl->n_samples,
						    sizeof(*tl->samples), json_sample));
	sp_json_add(doc, "report", sp_json_trace_report(tl, true));
	str = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (str)
		fprintf(f, "%s\n", str);
	json_object_put(doc);
	if (!str)
		return -ENOMEM;
	return ferror(f) ? -EIO : 0;
}
