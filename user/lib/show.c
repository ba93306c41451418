// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchrun.h"
#include "parse.h"
#include "show.h"
#include "tracelog.h"

/* ---- version ------------------------------------------------------------ */

int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status)
{
	if (sp_print_is_json()) {
		json_object *obj = json_object_new_object(), *mod = NULL;

		if (!obj)
			return -ENOMEM;
		sp_json_add(obj, "version", json_object_new_string(cli_version));
		if (info) {
			mod = json_object_new_object();
			if (mod) {
				sp_json_add(mod, "version", json_object_new_string(info->version));
				sp_json_add(mod, "kernel", info->kernel[0] ?
				    json_object_new_string(info->kernel) : NULL);
				sp_json_add(mod, "devices", info->has_devices ?
				    json_object_new_int64(info->devices) : NULL);
			}
		}
		sp_json_add(obj, "module", mod);
		if (!info)
			sp_json_add(obj, "module_status", sp_json_str_or_null(module_status));
		return sp_print_json(obj);
	}

	sp_print_text("sparkperf-ctl %s\n", cli_version);
	if (!info) {
		sp_print_text("module: %s\n", module_status ? module_status : "unknown");
		return 0;
	}
	sp_print_text("module: %s", info->version);
	if (info->kernel[0] && info->has_devices)
		sp_print_text(" (kernel %s, %u RDMA device%s)", info->kernel,
			      info->devices, info->devices == 1 ? "" : "s");
	else if (info->kernel[0])
		sp_print_text(" (kernel %s)", info->kernel);
	sp_print_text("\n");
	return 0;
}

/* ---- bench -------------------------------------------------------------- */

static json_object *jnum_if(bool has, double v)
{
	return has ? sp_json_num(v) : NULL;
}

static json_object *jstrv(char *const *v, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++)
		json_object_array_add(arr, json_object_new_string(v[i]));
	return arr;
}

static size_t strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

/* dir/name as one string, NULL without a name */
static json_object *jpath(const char *dir, const char *name)
{
	char *p;
	json_object *o;

	if (!name)
		return NULL;
	p = sp_xprintf("%s/%s", dir ? dir : ".", name);
	o = p ? json_object_new_string(p) : NULL;
	free(p);
	return o;
}

static json_object *json_bench_cmd(const struct sp_bench_cmd *c, const char *dir, bool dry_run)
{
	json_object *o = json_object_new_object();
	const struct sp_bench_exec *x = &c->x;
	char *line = sp_bench_cmdline(c);

	if (!o || !line) {
		json_object_put(o);
		free(line);
		return NULL;
	}
	sp_json_add(o, "name", json_object_new_string(c->name));
	sp_json_add(o, "role", json_object_new_string(sp_bench_role_str(c->role)));
	sp_json_add(o, "host", sp_json_str_or_null(c->host));
	sp_json_add(o, "argv", jstrv(c->argv, strv_len(c->argv)));
	sp_json_add(o, "env", jstrv(c->env, strv_len(c->env)));
	sp_json_add(o, "command_line", json_object_new_string(line));
	free(line);
	sp_json_add(o, "stdout", c->role == SP_BENCH_ROLE_MANUAL ? NULL : jpath(dir, c->stdout_name));
	sp_json_add(o, "stderr", c->role == SP_BENCH_ROLE_MANUAL ? NULL : jpath(dir, c->stderr_name));
	sp_json_add(o, "json_file", jpath(dir, c->json_name));
	if (dry_run)
		return o;
	sp_json_add(o, "ran", json_object_new_boolean(x->ran));
	sp_json_add(o, "exit_status", x->ran && x->exit_status != SP_BENCH_EXIT_UNKNOWN ?
	    json_object_new_int(x->exit_status) : NULL);
	sp_json_add(o, "signal", x->signal ? json_object_new_int(x->signal) : NULL);
	sp_json_add(o, "timed_out", json_object_new_boolean(x->timed_out));
	sp_json_add(o, "exec_error", sp_json_str_or_null(x->exec_error));
	sp_json_add(o, "elapsed_s", x->ran ? sp_json_fixed(x->elapsed_s, 3) : NULL);
	return o;
}

/* perftest */

static void json_pt_bw_value(json_object *row, const char *what, enum sp_perftest_unit unit,
			     double v)
{
	char key[48];

	snprintf(key, sizeof(key), "%s_gbit_per_s", what);
	sp_json_add(row, key, sp_json_num(sp_perftest_gbit_per_s(unit, v)));
	if (unit == SP_PERFTEST_UNIT_GBIT)
		return;
	snprintf(key, sizeof(key), unit == SP_PERFTEST_UNIT_MIB ? "%s_mib_per_s" :
		 "%s_unknown_unit", what);
	sp_json_add(row, key, sp_json_num(v));
}

static json_object *json_pt_rows(const struct sp_perftest *p)
{
	json_object *arr = json_object_new_array(), *r;
	size_t i;

	for (i = 0; arr && i < p->n_bw; i++) {
		const struct sp_perftest_bw_row *b = &p->bw[i];

		r = json_object_new_object();
		if (!r)
			continue;
		sp_json_add(r, "bytes", sp_json_u64(b->bytes));
		sp_json_add(r, "iterations", sp_json_u64(b->iterations));
		json_pt_bw_value(r, "bw_peak", p->unit, b->peak);
		json_pt_bw_value(r, "bw_average", p->unit, b->average);
		sp_json_add(r, "msg_rate_mpps", sp_json_num(b->msg_rate_mpps));
		json_object_array_add(arr, r);
	}
	for (i = 0; arr && i < p->n_lat; i++) {
		const struct sp_perftest_lat_row *l = &p->lat[i];

		r = json_object_new_object();
		if (!r)
			continue;
		sp_json_add(r, "bytes", sp_json_u64(l->bytes));
		sp_json_add(r, "iterations", sp_json_u64(l->iterations));
		sp_json_add(r, "t_min_us", jnum_if(l->full, l->t_min_us));
		sp_json_add(r, "t_max_us", jnum_if(l->full, l->t_max_us));
		sp_json_add(r, "t_typical_us", jnum_if(l->full, l->t_typical_us));
		sp_json_add(r, "t_avg_us", sp_json_num(l->t_avg_us));
		sp_json_add(r, "t_stdev_us", jnum_if(l->full, l->t_stdev_us));
		sp_json_add(r, "p99_us", jnum_if(l->full, l->p99_us));
		sp_json_add(r, "p99_9_us", jnum_if(l->full, l->p99_9_us));
		sp_json_add(r, "tps", jnum_if(!l->full, l->tps));
		json_object_array_add(arr, r);
	}
	return arr;
}

static void json_perftest(json_object *o, const struct sp_perftest *p)
{
	json_object *cnt = json_object_new_object();
	uint64_t bytes;
	double avg;
	bool bw = sp_perftest_bw_average(p, &bytes, &avg);
	size_t i;

	sp_json_add(o, "format", json_object_new_string(p->json ? "json" : "text"));
	sp_json_add(o, "test", sp_json_str_or_null(p->test[0] ? p->test : NULL));
	sp_json_add(o, "device", sp_json_str_or_null(p->device[0] ? p->device : NULL));
	sp_json_add(o, "server_side", json_object_new_boolean(p->server_side));
	sp_json_add(o, "qps", p->qps ? sp_json_u64(p->qps) : NULL);
	sp_json_add(o, "mtu_bytes", p->mtu ? sp_json_u64(p->mtu) : NULL);
	sp_json_add(o, "link_type", sp_json_str_or_null(p->link_type[0] ? p->link_type : NULL));
	sp_json_add(o, "kind", sp_json_str_or_null(p->kind == SP_PERFTEST_BW ? "bw" :
				    p->kind == SP_PERFTEST_LAT ? "lat" : NULL));
	sp_json_add(o, "unit_reported", sp_json_str_or_null(p->n_bw ? sp_perftest_unit_str(p->unit) : NULL));
	sp_json_add(o, "latency", sp_json_str_or_null(!p->n_lat ? NULL : sp_perftest_lat_one_way(p) ?
				       "one_way" : "round_trip"));
	sp_json_add(o, "rows", json_pt_rows(p));
	sp_json_add(o, "size_bytes", bw ? sp_json_u64(bytes) : NULL);
	sp_json_add(o, "bw_average_gbit_per_s", bw ? sp_json_num(sp_perftest_gbit_per_s(p->unit, avg)) : NULL);
	for (i = 0; cnt && i < p->n_counters; i++)
		sp_json_add(cnt, p->counters[i].name, sp_json_u64(p->counters[i].delta));
	sp_json_add(o, "counters", cnt);
	sp_json_add(o, "errors", jstrv(p->errors.v, p->errors.n));
	sp_json_add(o, "warnings", jstrv(p->warnings.v, p->warnings.n));
}

/* iperf3 */

static json_object *json_ip_end(const struct sp_iperf3_end *e)
{
	json_object *o;

	if (!e->has)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	sp_json_add(o, "bytes", sp_json_u64(e->bytes));
	sp_json_add(o, "seconds", sp_json_num(e->seconds));
	sp_json_add(o, "bits_per_second", sp_json_num(e->bits_per_second));
	sp_json_add(o, "retransmits", e->has_retransmits ? sp_json_u64(e->retransmits) : NULL);
	return o;
}

static void json_iperf3(json_object *o, const struct sp_iperf3 *r)
{
	json_object *arr = json_object_new_array(), *s;
	double gbps;
	size_t i;

	sp_json_add(o, "format", json_object_new_string(r->json ? "json" : "text"));
	sp_json_add(o, "version", sp_json_str_or_null(r->version[0] ? r->version : NULL));
	sp_json_add(o, "server_side", json_object_new_boolean(r->server_side));
	sp_json_add(o, "error", sp_json_str_or_null(r->error));
	sp_json_add(o, "streams_requested", r->num_streams ? sp_json_u64(r->num_streams) : NULL);
	sp_json_add(o, "duration_s", r->duration_s > 0 ? sp_json_num(r->duration_s) : NULL);
	for (i = 0; arr && i < r->n_streams; i++) {
		s = json_object_new_object();
		if (!s)
			continue;
		sp_json_add(s, "socket", json_object_new_int64(r->streams[i].socket));
		sp_json_add(s, "sender", json_ip_end(&r->streams[i].sender));
		sp_json_add(s, "receiver", json_ip_end(&r->streams[i].receiver));
		json_object_array_add(arr, s);
	}
	sp_json_add(o, "streams", arr);
	sp_json_add(o, "sum_sent", json_ip_end(&r->sum_sent));
	sp_json_add(o, "sum_received", json_ip_end(&r->sum_received));
	sp_json_add(o, "gbit_per_s", sp_iperf3_gbit_per_s(r, &gbps) ? sp_json_num(gbps) : NULL);
	sp_json_add(o, "cpu_host_percent", jnum_if(r->has_cpu, r->cpu_host_percent));
	sp_json_add(o, "cpu_remote_percent", jnum_if(r->has_cpu, r->cpu_remote_percent));
	sp_json_add(o, "congestion", sp_json_str_or_null(r->congestion[0] ? r->congestion : NULL));
}

/* nccl-tests */

static json_object *json_nccl_half(const struct sp_nccl_half *h)
{
	json_object *o;

	if (!h->has)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	sp_json_add(o, "time_us", sp_json_num(h->time_us));
	sp_json_add(o, "algbw_gb_per_s", sp_json_num(h->algbw_gb_per_s));
	sp_json_add(o, "busbw_gb_per_s", sp_json_num(h->busbw_gb_per_s));
	sp_json_add(o, "busbw_gbit_per_s", sp_json_num(h->busbw_gb_per_s * 8));
	sp_json_add(o, "wrong", jnum_if(h->has_wrong, h->wrong));
	return o;
}

static json_object *json_nccl_rows(const struct sp_nccl *n)
{
	json_object *arr = json_object_new_array(), *r;
	size_t i;

	for (i = 0; arr && i < n->n_rows; i++) {
		const struct sp_nccl_row *x = &n->rows[i];

		r = json_object_new_object();
		if (!r)
			continue;
		sp_json_add(r, "size_bytes", sp_json_u64(x->size_bytes));
		sp_json_add(r, "count", sp_json_u64(x->count));
		sp_json_add(r, "type", json_object_new_string(x->type));
		sp_json_add(r, "redop", sp_json_str_or_null(x->redop[0] ? x->redop : NULL));
		sp_json_add(r, "root", x->has_root ? json_object_new_int64(x->root) : NULL);
		sp_json_add(r, "out_of_place", json_nccl_half(&x->out_of_place));
		sp_json_add(r, "in_place", json_nccl_half(&x->in_place));
		json_object_array_add(arr, r);
	}
	return arr;
}

static json_object *json_nccl_summary(const struct sp_nccl *n)
{
	struct sp_nccl_summary s;
	json_object *o;

	sp_nccl_summarize(n, &s);
	if (!s.valid)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	sp_json_add(o, "size_bytes", sp_json_u64(s.size_bytes));
	sp_json_add(o, "algbw_gb_per_s", sp_json_num(s.algbw_gb_per_s));
	sp_json_add(o, "busbw_gb_per_s", sp_json_num(s.busbw_gb_per_s));
	sp_json_add(o, "per_direction_gbit_per_s", sp_json_num(s.per_direction_gbit_per_s));
	sp_json_add(o, "peak_busbw_gb_per_s", sp_json_num(s.peak_busbw_gb_per_s));
	sp_json_add(o, "ranks", s.ranks ? sp_json_u64(s.ranks) : NULL);
	sp_json_add(o, "hosts", s.hosts ? sp_json_u64(s.hosts) : NULL);
	return o;
}

static void json_nccl(json_object *o, const struct sp_nccl *n)
{
	json_object *devs = json_object_new_array(), *sigs = json_object_new_array(), *d;
	size_t i;

	sp_json_add(o, "format", json_object_new_string(n->json ? "json" : "text"));
	sp_json_add(o, "json_version", n->json_version ? json_object_new_int(n->json_version) : NULL);
	sp_json_add(o, "nccl_tests_version", sp_json_str_or_null(n->version[0] ? n->version : NULL));
	sp_json_add(o, "nccl_version", n->nccl_version ? sp_json_u64(n->nccl_version) : NULL);
	sp_json_add(o, "collective", sp_json_str_or_null(n->collective[0] ? n->collective : NULL));
	sp_json_add(o, "threads", n->nthreads ? sp_json_u64(n->nthreads) : NULL);
	sp_json_add(o, "gpus_per_thread", n->ngpus ? sp_json_u64(n->ngpus) : NULL);
	for (i = 0; devs && i < n->n_devs; i++) {
		d = json_object_new_object();
		if (!d)
			continue;
		sp_json_add(d, "rank", json_object_new_int(n->devs[i].rank));
		sp_json_add(d, "host", json_object_new_string(n->devs[i].host));
		sp_json_add(d, "device", json_object_new_int(n->devs[i].device));
		sp_json_add(d, "bus", sp_json_str_or_null(n->devs[i].bus[0] ? n->devs[i].bus : NULL));
		sp_json_add(d, "name", sp_json_str_or_null(n->devs[i].name[0] ? n->devs[i].name : NULL));
		json_object_array_add(devs, d);
	}
	sp_json_add(o, "devices", devs);
	sp_json_add(o, "old_error_column", json_object_new_boolean(n->old_error_column));
	sp_json_add(o, "rows", json_nccl_rows(n));
	sp_json_add(o, "out_of_bounds", n->has_out_of_bounds ? sp_json_u64(n->out_of_bounds) : NULL);
	sp_json_add(o, "avg_busbw_gb_per_s", jnum_if(n->has_avg_busbw, n->avg_busbw_gb_per_s));
	sp_json_add(o, "summary", json_nccl_summary(n));
	sp_json_add(o, "network", sp_json_str_or_null(n->network[0] ? n->network : NULL));
	sp_json_add(o, "ib_devices", sp_json_str_or_null(n->ib_devices));
	sp_json_add(o, "ib_no_device", json_object_new_boolean(n->ib_no_device));
	sp_json_add(o, "usage_printed", json_object_new_boolean(n->usage));
	sp_json_add(o, "rank_exit_status", n->has_rank_exit ? json_object_new_int(n->rank_exit) : NULL);
	sp_json_add(o, "json_file", sp_json_str_or_null(n->json_file));
	for (i = 0; sigs && i < n->n_sigs; i++) {
		d = json_object_new_object();
		if (!d)
			continue;
		sp_json_add(d, "code", json_object_new_string(n->sigs[i].code));
		sp_json_add(d, "line", json_object_new_string(n->sigs[i].line));
		json_object_array_add(sigs, d);
	}
	sp_json_add(o, "failures", sigs);
	sp_json_add(o, "warnings", jstrv(n->warnings.v, n->warnings.n));
}

/* LLM benchmarks */

static void json_llm(json_object *o, const struct sp_llm *l)
{
	json_object *m = json_object_new_object();
	size_t i;

	sp_json_add(o, "kind", sp_json_str_or_null(l->kind));
	sp_json_add(o, "completed", l->has_completed ? sp_json_u64(l->completed) : NULL);
	sp_json_add(o, "failed", l->has_failed ? sp_json_u64(l->failed) : NULL);
	sp_json_add(o, "requested", l->has_requested ? sp_json_u64(l->requested) : NULL);
	for (i = 0; m && i < l->n_metrics; i++)
		sp_json_add(m, l->metrics[i].name, sp_json_num(l->metrics[i].value));
	sp_json_add(o, "metrics", m);
	sp_json_add(o, "error", sp_json_str_or_null(l->error));
}

static json_object *json_bench_result(const struct sp_bench_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "tool", json_object_new_string(sp_bench_tool_str(r->tool)));
	sp_json_add(o, "label", sp_json_str_or_null(r->label));
	sp_json_add(o, "command", r->command >= 0 ? json_object_new_int(r->command) : NULL);
	sp_json_add(o, "source", sp_json_str_or_null(r->source));
	switch (r->tool) {
	case SP_BENCH_PERFTEST:
		json_perftest(o, &r->u.perftest);
		break;
	case SP_BENCH_IPERF3:
		json_iperf3(o, &r->u.iperf3);
		break;
	case SP_BENCH_NCCL:
		json_nccl(o, &r->u.nccl);
		break;
	case SP_BENCH_NONE:
		break;
	default:
		json_llm(o, &r->u.llm);
		break;
	}
	return o;
}

/*
 * What the results add up to: the rates of pairs or clients that ran side
 * by side (perftest BW, iperf3), or the best nccl-tests run (a sweep).
 */
struct bench_sum {
	bool valid;
	double gbit_per_s;		/* the sum */
	size_t parts;
	const struct sp_bench_result *best;	/* nccl */
	struct sp_nccl_summary best_s;
};

static void bench_sum(const struct sp_bench_doc *doc, struct bench_sum *s)
{
	struct sp_nccl_summary ns;
	uint64_t bytes;
	double v;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < doc->n_results; i++) {
		const struct sp_bench_result *r = &doc->results[i];

		if (r->tool == SP_BENCH_PERFTEST &&
		    sp_perftest_bw_average(&r->u.perftest, &bytes, &v) &&
		    isfinite(sp_perftest_gbit_per_s(r->u.perftest.unit, v))) {
			s->gbit_per_s += sp_perftest_gbit_per_s(r->u.perftest.unit, v);
			s->parts++;
		} else if (r->tool == SP_BENCH_IPERF3 && sp_iperf3_gbit_per_s(&r->u.iperf3, &v)) {
			s->gbit_per_s += v;
			s->parts++;
		} else if (r->tool == SP_BENCH_NCCL) {
			sp_nccl_summarize(&r->u.nccl, &ns);
			if (ns.valid && (!s->best || ns.busbw_gb_per_s > s->best_s.busbw_gb_per_s)) {
				s->best = r;
				s->best_s = ns;
			}
		}
	}
	s->valid = s->parts > 0 || s->best;
}

static json_object *json_bench_summary(const struct sp_bench_doc *doc)
{
	struct bench_sum s;
	json_object *o;

	bench_sum(doc, &s);
	if (!s.valid)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	if (s.parts) {
		sp_json_add(o, "gbit_per_s", sp_json_num(s.gbit_per_s));
		sp_json_add(o, "parts", sp_json_u64(s.parts));
	}
	if (s.best) {
		sp_json_add(o, "best", json_object_new_string(s.best->label));
		sp_json_add(o, "size_bytes", sp_json_u64(s.best_s.size_bytes));
		sp_json_add(o, "busbw_gb_per_s", sp_json_num(s.best_s.busbw_gb_per_s));
		sp_json_add(o, "per_direction_gbit_per_s", sp_json_num(s.best_s.per_direction_gbit_per_s));
	}
	return o;
}

/* counters */

static double bench_interval_s(const struct sp_bench_counters *c)
{
	return c->end_ns > c->start_ns ? (double)(c->end_ns - c->start_ns) / 1e9 : 0;
}

/* Bytes counters: also as Gbit/s. */
static bool bench_counter_bytes(const char *name)
{
	return strstr(name, "bytes") || sp_bench_counter_scale(name) != 1;
}

static json_object *json_bench_counter(const struct sp_bench_counter *k, double secs)
{
	json_object *o = json_object_new_object();
	uint64_t d = 0, scale = sp_bench_counter_scale(k->name);
	bool ok = sp_bench_counter_delta(k, &d);

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(k->name));
	sp_json_add(o, "delta", ok ? sp_json_u64(d) : NULL);
	sp_json_add(o, "per_s", ok && secs > 0 ? sp_json_num((double)d / secs) : NULL);
	if (bench_counter_bytes(k->name)) {
		sp_json_add(o, "bytes", ok ? sp_json_u64(d * scale) : NULL);
		sp_json_add(o, "gbit_per_s", ok && secs > 0 ? sp_json_num((double)(d * scale) * 8 / secs / 1e9) :
		    NULL);
	}
	return o;
}

static json_object *json_bench_counters(const struct sp_bench_counters *c)
{
	json_object *o = json_object_new_object(), *devs = json_object_new_array(), *d, *arr;
	double secs = bench_interval_s(c);
	size_t i, k;

	if (!o || !devs) {
		json_object_put(o);
		json_object_put(devs);
		return NULL;
	}
	sp_json_add(o, "source", json_object_new_string(c->source));
	sp_json_add(o, "interval_s", sp_json_fixed(secs, 3));
	for (i = 0; i < c->n; i++) {
		const struct sp_bench_counter_set *s = &c->sets[i];

		d = json_object_new_object();
		arr = json_object_new_array();
		if (!d || !arr) {
			json_object_put(d);
			json_object_put(arr);
			continue;
		}
		sp_json_add(d, "kind", json_object_new_string(s->kind));
		sp_json_add(d, "dev", json_object_new_string(s->dev));
		if (s->port) {
			sp_json_add(d, "port", json_object_new_int((int)s->port));
			sp_json_add(d, "netdev", sp_json_str_or_null(s->netdev));
		}
		for (k = 0; k < s->n; k++)
			json_object_array_add(arr, json_bench_counter(&s->c[k], secs));
		sp_json_add(d, "counters", arr);
		json_object_array_add(devs, d);
	}
	sp_json_add(o, "devices", devs);
	return o;
}

static json_object *json_bench_verdict(const struct sp_bench_verdict *v)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array(), *p;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	sp_json_add(o, "status", json_object_new_string(sp_bench_level_str(v->level)));
	for (i = 0; i < v->n; i++) {
		p = json_object_new_object();
		if (!p)
			continue;
		sp_json_add(p, "level", json_object_new_string(sp_bench_level_str(v->problems[i].level)));
		sp_json_add(p, "code", json_object_new_string(v->problems[i].code));
		sp_json_add(p, "message", json_object_new_string(v->problems[i].message));
		sp_json_add(p, "result", v->problems[i].result >= 0 ?
		    json_object_new_int(v->problems[i].result) : NULL);
		json_object_array_add(arr, p);
	}
	sp_json_add(o, "problems", arr);
	return o;
}

static int print_bench_json(const struct sp_bench_doc *doc)
{
	json_object *o = json_object_new_object(), *cmds = json_object_new_array(), *res;
	size_t i;

	if (!o || !cmds) {
		json_object_put(o);
		json_object_put(cmds);
		return -ENOMEM;
	}
	sp_json_add(o, "bench", json_object_new_string(doc->bench));
	sp_json_add(o, "dry_run", json_object_new_boolean(doc->dry_run));
	sp_json_add(o, "tool_version", sp_json_str_or_null(doc->env ? doc->env->tool_version : NULL));
	sp_json_add(o, "module_version", sp_json_str_or_null(doc->env ? doc->env->module_version : NULL));
	sp_json_add(o, "kernel_release", sp_json_str_or_null(doc->env ? doc->env->kernel_release : NULL));
	sp_json_add(o, "host", sp_json_str_or_null(doc->env ? doc->env->host : NULL));
	sp_json_add(o, "arguments", jstrv(doc->args, doc->n_args));
	sp_json_add(o, "out_dir", sp_json_str_or_null(doc->out_dir));
	if (doc->input) {
		json_object *in = json_object_new_object();

		if (in) {
			sp_json_add(in, "file", json_object_new_string(doc->input));
			sp_json_add(in, "exit_status", doc->input_exit == SP_BENCH_EXIT_UNKNOWN ? NULL :
			    json_object_new_int(doc->input_exit));
		}
		sp_json_add(o, "input", in);
	}
	for (i = 0; doc->cmds && i < doc->cmds->n; i++)
		json_object_array_add(cmds, json_bench_cmd(&doc->cmds->v[i], doc->out_dir,
							   doc->dry_run));
	sp_json_add(o, "commands", cmds);
	if (!doc->dry_run) {
		res = json_object_new_array();
		for (i = 0; res && i < doc->n_results; i++)
			json_object_array_add(res, json_bench_result(&doc->results[i]));
		sp_json_add(o, "results", res);
		sp_json_add(o, "summary", json_bench_summary(doc));
		sp_json_add(o, "counters_source", doc->trace ? json_object_new_string("kernel trace") :
		    doc->counters ? json_object_new_string("sysfs snapshots") : NULL);
		sp_json_add(o, "trace", doc->trace ? sp_json_trace_report(doc->trace, false) : NULL);
		sp_json_add(o, "counters", doc->counters ? json_bench_counters(doc->counters) : NULL);
		sp_json_add(o, "verdict", json_bench_verdict(&doc->verdict));
	}
	return sp_print_json(o);
}

/* ---- bench: text ---- */

static void text_bench_cmd(FILE *f, const struct sp_bench_cmd *c, bool dry_run)
{
	const struct sp_bench_exec *x = &c->x;
	char *line = sp_bench_cmdline(c);

	if (c->role == SP_BENCH_ROLE_MANUAL)
		fprintf(f, "# %s: start it on %s first\n", c->name, c->host);
	else if (c->host)
		fprintf(f, "# %s: on %s over ssh\n", c->name, c->host);
	else
		fprintf(f, "# %s\n", c->name);
	fprintf(f, "%s%s\n", dry_run ? "" : "  ", line ? line : "(out of memory)");
	free(line);
	if (dry_run || c->role == SP_BENCH_ROLE_MANUAL)
		return;
	if (x->exec_error)
		fprintf(f, "  -> not started: %s\n", x->exec_error);
	else if (!x->ran)
		fprintf(f, "  -> not run\n");
	else if (x->signal)
		fprintf(f, "  -> %s by signal %d after %.1f s\n",
			x->timed_out ? "stopped at its deadline" : "ended", x->signal, x->elapsed_s);
	else
		fprintf(f, "  -> exit %d after %.1f s\n", x->exit_status, x->elapsed_s);
}

static void text_perftest(FILE *f, const char *label, const struct sp_perftest *p)
{
	uint64_t bytes;
	double avg;
	size_t i;

	if (sp_perftest_bw_average(p, &bytes, &avg)) {
		fprintf(f, "%s: %s, %" PRIu64 " B: BW average %.3f Gbit/s", label, p->test, bytes,
			sp_perftest_gbit_per_s(p->unit, avg));
		if (p->unit != SP_PERFTEST_UNIT_GBIT)
			fprintf(f, " (reported: %.2f %s)", avg, sp_perftest_unit_str(p->unit));
		if (p->n_bw > 1)
			fprintf(f, ", the mean of the rows of that size (%zu rows)", p->n_bw);
		fputc('\n', f);
	}
	for (i = 0; i < p->n_lat; i++) {
		const struct sp_perftest_lat_row *l = &p->lat[i];

		if (l->full)
			fprintf(f, "%s: %s, %" PRIu64 " B x %" PRIu64 ": typical %.2f, avg %.2f, "
				"p99 %.2f, p99.9 %.2f, max %.2f usec (%s)\n", label, p->test,
				l->bytes, l->iterations, l->t_typical_us, l->t_avg_us, l->p99_us,
				l->p99_9_us, l->t_max_us,
				sp_perftest_lat_one_way(p) ? "one way: half the round trip" :
				"round trip");
		else
			fprintf(f, "%s: %s, %" PRIu64 " B: avg %.2f usec, %.0f transactions/s\n",
				label, p->test, l->bytes, l->t_avg_us, l->tps);
	}
}

static void text_iperf3(FILE *f, const char *label, const struct sp_iperf3 *r)
{
	double gbps;

	if (!sp_iperf3_gbit_per_s(r, &gbps))
		return;
	fprintf(f, "%s: %.3f Gbit/s %s", label, gbps, r->sum_received.has ? "received" : "sent");
	if (r->sum_sent.has && r->sum_sent.has_retransmits)
		fprintf(f, ", %" PRIu64 " retransmits", r->sum_sent.retransmits);
	if (r->n_streams)
		fprintf(f, ", %zu stream%s", r->n_streams, r->n_streams == 1 ? "" : "s");
	fputc('\n', f);
}

static void cell_half(char *cell, const struct sp_nccl_half *h, bool bus)
{
	if (!h->has)
		snprintf(cell, SP_CELL_MAX, "-");
	else
		snprintf(cell, SP_CELL_MAX, "%.2f", bus ? h->busbw_gb_per_s : h->algbw_gb_per_s);
}

enum { NC_SIZE, NC_TIME, NC_ALG, NC_BUS, NC_BUS_IP, NC_GBIT, NC_WRONG, NC_COLS };

static const struct sp_fixed_col nccl_col[NC_COLS] = {
	[NC_SIZE] = { "size[B]", 12 },
	[NC_TIME] = { "time[us]", 9 },
	[NC_ALG] = { "algbw[GB/s]", 0 },
	[NC_BUS] = { "busbw[GB/s]", 0 },
	[NC_BUS_IP] = { "in-place", 0 },
	[NC_GBIT] = { "busbw x 8[Gbit/s]", 0 },
	[NC_WRONG] = { "#wrong", 0 },
};

static void text_nccl(FILE *f, const char *label, const struct sp_nccl *n)
{
	char cell[NC_COLS][SP_CELL_MAX];
	struct sp_nccl_summary s;
	size_t i;

	sp_nccl_summarize(n, &s);
	fprintf(f, "%s: %s%s%s\n", label, n->collective[0] ? n->collective : "nccl-tests",
		n->network[0] ? ", network " : "", n->network);
	if (!n->n_rows)
		return;
	sp_print_fixed(nccl_col, NC_COLS, NULL, NULL);
	for (i = 0; i < n->n_rows; i++) {
		const struct sp_nccl_row *r = &n->rows[i];
		const struct sp_nccl_half *h = &r->out_of_place;
		bool wrong = h->has_wrong || r->in_place.has_wrong;

		snprintf(cell[NC_SIZE], SP_CELL_MAX, "%" PRIu64, r->size_bytes);
		snprintf(cell[NC_TIME], SP_CELL_MAX, "%.2f", h->time_us);
		cell_half(cell[NC_ALG], h, false);
		cell_half(cell[NC_BUS], h, true);
		cell_half(cell[NC_BUS_IP], &r->in_place, true);
		snprintf(cell[NC_GBIT], SP_CELL_MAX, "%.1f", h->busbw_gb_per_s * 8);
		snprintf(cell[NC_WRONG], SP_CELL_MAX, "%s", !wrong ? "N/A" :
			 (h->has_wrong && h->wrong > 0) ||
			 (r->in_place.has_wrong && r->in_place.wrong > 0) ? "yes" : "0");
		sp_print_fixed(nccl_col, NC_COLS, cell, NULL);
	}
	fprintf(f, "at %" PRIu64 " B: busbw %.2f GB/s = %.1f Gbit/s each way (2 ranks), peak "
		"busbw %.2f GB/s", s.size_bytes, s.busbw_gb_per_s, s.per_direction_gbit_per_s,
		s.peak_busbw_gb_per_s);
	if (n->has_avg_busbw)
		fprintf(f, ", avg busbw %.4g GB/s (all sizes)", n->avg_busbw_gb_per_s);
	fputc('\n', f);
}

static void text_llm(FILE *f, const char *label, const struct sp_llm *l)
{
	size_t i;

	fprintf(f, "%s (%s):", label, l->kind ? l->kind : "?");
	if (l->has_completed)
		fprintf(f, " %" PRIu64 " completed", l->completed);
	if (l->has_failed)
		fprintf(f, ", %" PRIu64 " failed", l->failed);
	if (l->has_requested)
		fprintf(f, " of %" PRIu64, l->requested);
	fputc('\n', f);
	for (i = 0; i < l->n_metrics; i++)
		fprintf(f, "  %-40s %.10g\n", l->metrics[i].name, l->metrics[i].value);
}

static void text_bench_counters(FILE *f, const struct sp_bench_counters *c)
{
	double secs = bench_interval_s(c);
	size_t i, k;
	uint64_t d;

	fprintf(f, "counters (%s, %.2f s; only those that moved):\n", c->source, secs);
	for (i = 0; i < c->n; i++) {
		const struct sp_bench_counter_set *s = &c->sets[i];

		for (k = 0; k < s->n; k++) {
			const struct sp_bench_counter *x = &s->c[k];
			uint64_t scale = sp_bench_counter_scale(x->name);

			if (!sp_bench_counter_delta(x, &d) || !d)
				continue;
			if (s->port)
				fprintf(f, "  %s/%u  %-28s +%" PRIu64, s->dev, s->port, x->name, d);
			else
				fprintf(f, "  %s  %-28s +%" PRIu64, s->dev, x->name, d);
			if (bench_counter_bytes(x->name) && secs > 0)
				fprintf(f, "  (%.3f Gbit/s)", (double)(d * scale) * 8 / secs / 1e9);
			fputc('\n', f);
		}
	}
}

static int print_bench_text(const struct sp_bench_doc *doc)
{
	FILE *f = sp_print_file();
	struct bench_sum s;
	size_t i;

	for (i = 0; doc->cmds && i < doc->cmds->n; i++)
		text_bench_cmd(f, &doc->cmds->v[i], doc->dry_run);
	if (doc->dry_run)
		return 0;
	if (doc->input) {
		fprintf(f, "%s output %s", doc->results[0].label, doc->input);
		if (doc->input_exit != SP_BENCH_EXIT_UNKNOWN)
			fprintf(f, " (exit status %d)", doc->input_exit);
		fputc('\n', f);
	}
	for (i = 0; i < doc->n_results; i++) {
		const struct sp_bench_result *r = &doc->results[i];

		switch (r->tool) {
		case SP_BENCH_PERFTEST:
			text_perftest(f, r->label, &r->u.perftest);
			break;
		case SP_BENCH_IPERF3:
			text_iperf3(f, r->label, &r->u.iperf3);
			break;
		case SP_BENCH_NCCL:
			text_nccl(f, r->label, &r->u.nccl);
			break;
		case SP_BENCH_NONE:
			break;
		default:
			text_llm(f, r->label, &r->u.llm);
			break;
		}
	}
	bench_sum(doc, &s);
	if (s.parts > 1)
		fprintf(f, "sum: %.3f Gbit/s (%zu side by side)\n", s.gbit_per_s, s.parts);
	if (doc->counters)
		text_bench_counters(f, doc->counters);
	if (doc->trace) {
		sp_print_trace_report(doc->trace, "\nCounters during the bench:", false, NULL);
		fputc('\n', f);
	}
	for (i = 0; i < doc->verdict.n; i++)
		fprintf(f, "%s: %s: %s\n", sp_bench_level_str(doc->verdict.problems[i].level),
			doc->verdict.problems[i].code, doc->verdict.problems[i].message);
	fprintf(f, "verdict: %s\n", sp_bench_level_str(doc->verdict.level));
	if (doc->out_dir && doc->cmds)
		fprintf(f, "output: %s\n", doc->out_dir);
	return 0;
}

int sp_print_bench(const struct sp_bench_doc *doc)
{
	return sp_print_is_json() ? print_bench_json(doc) : print_bench_text(doc);
}
