// SPDX-License-Identifier: GPL-2.0
/*
 * A bench's document as JSON: the commands, each result in its tool's
 * shape, what they add up to, the counters and the verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchprint.h"
#include "lib/print.h"
#include "lib/print.h"
#include "lib/traceprint.h"

static json_object *jnum_if(bool has, double v)
{
	return has ? sp_json_num(v) : NULL;
}

static json_object *jstr_item(const void *items, size_t i)
{
	return json_object_new_string(((char *const *)items)[i]);
}

static json_object *jstrv(char *const *v, size_t n)
{
	return sp_json_array(v, n, jstr_item);
}

/*
 * An object that fill() gives its members; NULL when it could not be
 * made. The builders below only name the members.
 */
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

/* A dry run's command has a run's keys too (not run: ran false), so both are one shape. */
static json_object *json_bench_cmd(const struct sp_bench_cmd *c, const char *dir)
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
	sp_json_add(o, "ran", json_object_new_boolean(x->ran));
	sp_json_add(o, "exit_status", x->ran && x->exit_status != SP_BENCH_EXIT_UNKNOWN ?
	    json_object_new_int(x->exit_status) : NULL);
	sp_json_add(o, "signal", x->signal ? json_object_new_int(x->signal) : NULL);
	sp_json_add(o, "timed_out", json_object_new_boolean(x->timed_out));
	sp_json_add(o, "exec_error", sp_json_str_or_null(x->exec_error));
	sp_json_add(o, "stderr_tail", sp_json_str_or_null(x->stderr_tail));
	sp_json_add(o, "elapsed_s", x->ran ? sp_json_fixed(x->elapsed_s, 3) : NULL);
	return o;
}

/* perftest */

/*
 * In another unit than Gbit/s, the number as perftest printed it too, in the
 * unit the result's unit_reported names.
 */
static void json_pt_bw_value(json_object *row, const char *what, enum sp_perftest_unit unit,
			     double v)
{
	char key[48];

	snprintf(key, sizeof(key), "%s_gbit_per_s", what);
	sp_json_add(row, key, sp_json_num(sp_perftest_gbit_per_s(unit, v)));
	if (unit == SP_PERFTEST_UNIT_GBIT)
		return;
	snprintf(key, sizeof(key), "%s_reported", what);
	sp_json_add(row, key, sp_json_num(v));
}

static json_object *json_pt_bw_row(const struct sp_perftest *p, const struct sp_perftest_bw_row *b)
{
	json_object *r = json_object_new_object();

	if (!r)
		return NULL;
	sp_json_add(r, "bytes", sp_json_u64(b->bytes));
	sp_json_add(r, "iterations", sp_json_u64(b->iterations));
	json_pt_bw_value(r, "bw_peak", p->unit, b->peak);
	json_pt_bw_value(r, "bw_average", p->unit, b->average);
	sp_json_add(r, "msgs_per_s", sp_json_num(b->msg_rate_mpps * 1e6));
	return r;
}

static void json_pt_lat_row(json_object *r, const void *item)
{
	const struct sp_perftest_lat_row *l = item;

	sp_json_add(r, "bytes", sp_json_u64(l->bytes));
	sp_json_add(r, "iterations", sp_json_u64(l->iterations));
	sp_json_add(r, "t_min_us", jnum_if(l->full, l->t_min_us));
	sp_json_add(r, "t_max_us", jnum_if(l->full, l->t_max_us));
	sp_json_add(r, "t_typical_us", jnum_if(l->full, l->t_typical_us));
	sp_json_add(r, "t_avg_us", sp_json_num(l->t_avg_us));
	sp_json_add(r, "t_stdev_us", jnum_if(l->full, l->t_stdev_us));
	sp_json_add(r, "p99_us", jnum_if(l->full, l->p99_us));
	sp_json_add(r, "p99_9_us", jnum_if(l->full, l->p99_9_us));
	sp_json_add(r, "transactions_per_s", jnum_if(!l->full, l->tps));
}

/* The BW rows, then the latency rows. */
static json_object *json_pt_row(const void *items, size_t i)
{
	const struct sp_perftest *p = items;

	return i < p->n_bw ? json_pt_bw_row(p, &p->bw[i]) :
	       sp_json_object(json_pt_lat_row, &p->lat[i - p->n_bw]);
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
	sp_json_add(o, "unit_reported",
		    sp_json_str_or_null(p->n_bw ? sp_perftest_unit_str(p->unit) : NULL));
	sp_json_add(o, "latency", sp_json_str_or_null(!p->n_lat ? NULL : sp_perftest_lat_one_way(p) ?
				       "one_way" : "round_trip"));
	sp_json_add(o, "rows", sp_json_array(p, p->n_bw + p->n_lat, json_pt_row));
	sp_json_add(o, "size_bytes", bw ? sp_json_u64(bytes) : NULL);
	sp_json_add(o, "bw_average_gbit_per_s",
		    bw ? sp_json_num(sp_perftest_gbit_per_s(p->unit, avg)) : NULL);
	for (i = 0; cnt && i < p->n_counters; i++)
		sp_json_add(cnt, p->counters[i].name, sp_json_u64(p->counters[i].delta));
	sp_json_add(o, "counters", cnt);
	sp_json_add(o, "errors", jstrv(p->errors.v, p->errors.n));
	sp_json_add(o, "warnings", jstrv(p->warnings.v, p->warnings.n));
}

/* iperf3 */

static void json_ip_end_fill(json_object *o, const void *item)
{
	const struct sp_iperf3_end *e = item;

	sp_json_add(o, "bytes", sp_json_u64(e->bytes));
	sp_json_add(o, "duration_s", sp_json_num(e->seconds));
	sp_json_add(o, "gbit_per_s", sp_json_num(e->bits_per_second / 1e9));
	sp_json_add(o, "retransmits", e->has_retransmits ? sp_json_u64(e->retransmits) : NULL);
}

static json_object *json_ip_end(const struct sp_iperf3_end *e)
{
	return e->has ? sp_json_object(json_ip_end_fill, e) : NULL;
}

static void json_ip_stream(json_object *s, const void *item)
{
	const struct sp_iperf3_stream *st = item;

	sp_json_add(s, "socket", json_object_new_int64(st->socket));
	sp_json_add(s, "sender", json_ip_end(&st->sender));
	sp_json_add(s, "receiver", json_ip_end(&st->receiver));
}

static void json_iperf3(json_object *o, const struct sp_iperf3 *r)
{
	double gbps;

	sp_json_add(o, "format", json_object_new_string(r->json ? "json" : "text"));
	sp_json_add(o, "version", sp_json_str_or_null(r->version[0] ? r->version : NULL));
	sp_json_add(o, "server_side", json_object_new_boolean(r->server_side));
	sp_json_add(o, "error", sp_json_str_or_null(r->error));
	sp_json_add(o, "streams_requested", r->num_streams ? sp_json_u64(r->num_streams) : NULL);
	sp_json_add(o, "duration_s", r->duration_s > 0 ? sp_json_num(r->duration_s) : NULL);
	sp_json_add(o, "streams", sp_json_objects(r->streams, r->n_streams, sizeof(*r->streams),
						  json_ip_stream));
	sp_json_add(o, "sum_sent", json_ip_end(&r->sum_sent));
	sp_json_add(o, "sum_received", json_ip_end(&r->sum_received));
	sp_json_add(o, "gbit_per_s", sp_iperf3_gbit_per_s(r, &gbps) ? sp_json_num(gbps) : NULL);
	sp_json_add(o, "cpu_host_percent", jnum_if(r->has_cpu, r->cpu_host_percent));
	sp_json_add(o, "cpu_remote_percent", jnum_if(r->has_cpu, r->cpu_remote_percent));
	sp_json_add(o, "congestion", sp_json_str_or_null(r->congestion[0] ? r->congestion : NULL));
}

/* nccl-tests */

/* nccl-tests' GB/s (10^9 bytes/s) as the Gbit/s every data rate of ours is in */
static json_object *jgbit(double gb_per_s)
{
	return sp_json_num(gb_per_s * 8);
}

static void json_nccl_half_fill(json_object *o, const void *item)
{
	const struct sp_nccl_half *h = item;

	sp_json_add(o, "time_us", sp_json_num(h->time_us));
	sp_json_add(o, "algbw_gbit_per_s", jgbit(h->algbw_gb_per_s));
	sp_json_add(o, "busbw_gbit_per_s", jgbit(h->busbw_gb_per_s));
	sp_json_add(o, "wrong", jnum_if(h->has_wrong, h->wrong));
}

static json_object *json_nccl_half(const struct sp_nccl_half *h)
{
	return h->has ? sp_json_object(json_nccl_half_fill, h) : NULL;
}

static void json_nccl_row(json_object *r, const void *item)
{
	const struct sp_nccl_row *x = item;

	sp_json_add(r, "size_bytes", sp_json_u64(x->size_bytes));
	sp_json_add(r, "count", sp_json_u64(x->count));
	sp_json_add(r, "type", json_object_new_string(x->type));
	sp_json_add(r, "redop", sp_json_str_or_null(x->redop[0] ? x->redop : NULL));
	sp_json_add(r, "root", x->has_root ? json_object_new_int64(x->root) : NULL);
	sp_json_add(r, "out_of_place", json_nccl_half(&x->out_of_place));
	sp_json_add(r, "in_place", json_nccl_half(&x->in_place));
}

static void json_nccl_dev(json_object *d, const void *item)
{
	const struct sp_nccl_dev *x = item;

	sp_json_add(d, "rank", json_object_new_int(x->rank));
	sp_json_add(d, "host", json_object_new_string(x->host));
	sp_json_add(d, "device", json_object_new_int(x->device));
	sp_json_add(d, "bus", sp_json_str_or_null(x->bus[0] ? x->bus : NULL));
	sp_json_add(d, "name", sp_json_str_or_null(x->name[0] ? x->name : NULL));
}

static void json_nccl_sig(json_object *d, const void *item)
{
	const struct sp_nccl_signature *x = item;

	sp_json_add(d, "code", json_object_new_string(x->code));
	sp_json_add(d, "line", json_object_new_string(x->line));
}

static void json_nccl_summary_fill(json_object *o, const void *item)
{
	const struct sp_nccl_summary *s = item;

	sp_json_add(o, "size_bytes", sp_json_u64(s->size_bytes));
	sp_json_add(o, "algbw_gbit_per_s", jgbit(s->algbw_gb_per_s));
	sp_json_add(o, "busbw_gbit_per_s", jgbit(s->busbw_gb_per_s));
	sp_json_add(o, "peak_busbw_gbit_per_s", jgbit(s->peak_busbw_gb_per_s));
	sp_json_add(o, "ranks", s->ranks ? sp_json_u64(s->ranks) : NULL);
	sp_json_add(o, "hosts", s->hosts ? sp_json_u64(s->hosts) : NULL);
}

static json_object *json_nccl_summary(const struct sp_nccl *n)
{
	struct sp_nccl_summary s;

	sp_nccl_summarize(n, &s);
	return s.valid ? sp_json_object(json_nccl_summary_fill, &s) : NULL;
}

static void json_nccl(json_object *o, const struct sp_nccl *n)
{
	sp_json_add(o, "format", json_object_new_string(n->json ? "json" : "text"));
	sp_json_add(o, "json_version", n->json_version ? json_object_new_int(n->json_version) : NULL);
	sp_json_add(o, "nccl_tests_version", sp_json_str_or_null(n->version[0] ? n->version : NULL));
	sp_json_add(o, "nccl_version", n->nccl_version ? sp_json_u64(n->nccl_version) : NULL);
	sp_json_add(o, "collective", sp_json_str_or_null(n->collective[0] ? n->collective : NULL));
	sp_json_add(o, "threads", n->nthreads ? sp_json_u64(n->nthreads) : NULL);
	sp_json_add(o, "gpus_per_thread", n->ngpus ? sp_json_u64(n->ngpus) : NULL);
	sp_json_add(o, "devices", sp_json_objects(n->devs, n->n_devs, sizeof(*n->devs), json_nccl_dev));
	sp_json_add(o, "old_error_column", json_object_new_boolean(n->old_error_column));
	sp_json_add(o, "rows", sp_json_objects(n->rows, n->n_rows, sizeof(*n->rows), json_nccl_row));
	sp_json_add(o, "out_of_bounds", n->has_out_of_bounds ? sp_json_u64(n->out_of_bounds) : NULL);
	sp_json_add(o, "avg_busbw_gbit_per_s",
		    n->has_avg_busbw ? jgbit(n->avg_busbw_gb_per_s) : NULL);
	sp_json_add(o, "summary", json_nccl_summary(n));
	sp_json_add(o, "network", sp_json_str_or_null(n->network[0] ? n->network : NULL));
	sp_json_add(o, "ib_devices", sp_json_str_or_null(n->ib_devices));
	sp_json_add(o, "ib_no_device", json_object_new_boolean(n->ib_no_device));
	sp_json_add(o, "usage_printed", json_object_new_boolean(n->usage));
	sp_json_add(o, "rank_exit_status", n->has_rank_exit ? json_object_new_int(n->rank_exit) : NULL);
	sp_json_add(o, "json_file", sp_json_str_or_null(n->json_file));
	sp_json_add(o, "failures", sp_json_objects(n->sigs, n->n_sigs, sizeof(*n->sigs), json_nccl_sig));
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

static void json_bench_result(json_object *o, const void *item)
{
	const struct sp_bench_result *r = item;

	sp_json_add(o, "tool", json_object_new_string(sp_bench_tool_str(r->tool)));
	sp_json_add(o, "label", sp_json_str_or_null(r->label));
	sp_json_add(o, "command_index", r->command >= 0 ? json_object_new_int(r->command) : NULL);
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
}

void sp_bench_add_up(const struct sp_bench_doc *doc, struct sp_bench_sum *s)
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

static void json_bench_summary_fill(json_object *o, const void *item)
{
	const struct sp_bench_sum *s = item;

	if (s->parts) {
		sp_json_add(o, "gbit_per_s", sp_json_num(s->gbit_per_s));
		sp_json_add(o, "parts", sp_json_u64(s->parts));
	}
	if (s->best) {
		sp_json_add(o, "best", json_object_new_string(s->best->label));
		sp_json_add(o, "size_bytes", sp_json_u64(s->best_s.size_bytes));
		sp_json_add(o, "busbw_gbit_per_s", jgbit(s->best_s.busbw_gb_per_s));
	}
}

static json_object *json_bench_summary(const struct sp_bench_doc *doc)
{
	struct sp_bench_sum s;

	sp_bench_add_up(doc, &s);
	return s.valid ? sp_json_object(json_bench_summary_fill, &s) : NULL;
}

/* counters */

/* One set's counters, over the interval of the readings. */
struct counter_items {
	const struct sp_bench_counter *c;
	double secs;
};

static json_object *json_bench_counter(const void *items, size_t i)
{
	const struct counter_items *ci = items;
	const struct sp_bench_counter *k = &ci->c[i];
	json_object *o = json_object_new_object();
	uint64_t d = 0, scale = sp_bench_counter_scale(k->name);
	bool ok = sp_bench_counter_delta(k, &d);
	double secs = ci->secs;

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(k->name));
	sp_json_add(o, "delta", ok ? sp_json_u64(d) : NULL);
	sp_json_add(o, "per_s", ok && secs > 0 ? sp_json_num((double)d / secs) : NULL);
	if (sp_bench_counter_is_bytes(k->name)) {
		sp_json_add(o, "bytes", ok ? sp_json_u64(d * scale) : NULL);
		sp_json_add(o, "gbit_per_s", ok && secs > 0 ?
			    sp_json_num(sp_bench_gbit_per_s(d * scale, secs)) : NULL);
	}
	return o;
}

static json_object *json_bench_counter_set(const void *items, size_t i)
{
	const struct sp_bench_counters *c = items;
	const struct sp_bench_counter_set *s = &c->sets[i];
	struct counter_items ci = { s->c, sp_bench_counters_interval_s(c) };
	json_object *d = json_object_new_object();

	if (!d)
		return NULL;
	sp_json_add(d, "kind", json_object_new_string(s->kind));
	sp_json_add(d, "dev", json_object_new_string(s->dev));
	if (s->port) {
		sp_json_add(d, "port", json_object_new_int((int)s->port));
		sp_json_add(d, "netdev", sp_json_str_or_null(s->netdev));
	}
	sp_json_add(d, "counters", sp_json_array(&ci, s->n, json_bench_counter));
	return d;
}

static void json_bench_counters(json_object *o, const void *item)
{
	const struct sp_bench_counters *c = item;

	sp_json_add(o, "source", json_object_new_string(c->source));
	sp_json_add(o, "interval_s", sp_json_fixed(sp_bench_counters_interval_s(c), 3));
	sp_json_add(o, "devices", sp_json_array(c, c->n, json_bench_counter_set));
}

static void json_bench_problem(json_object *p, const void *item)
{
	const struct sp_bench_problem *x = item;

	sp_json_add(p, "level", json_object_new_string(sp_bench_level_str(x->level)));
	sp_json_add(p, "code", json_object_new_string(x->code));
	sp_json_add(p, "message", json_object_new_string(x->message));
	sp_json_add(p, "result", x->result >= 0 ? json_object_new_int(x->result) : NULL);
}

static void json_bench_verdict(json_object *o, const void *item)
{
	const struct sp_bench_verdict *v = item;

	sp_json_add(o, "status", json_object_new_string(sp_bench_level_str(v->level)));
	sp_json_add(o, "problems", sp_json_objects(v->problems, v->n, sizeof(*v->problems),
						   json_bench_problem));
}

static json_object *json_bench_doc_cmd(const void *items, size_t i)
{
	const struct sp_bench_doc *doc = items;

	return json_bench_cmd(&doc->cmds->v[i], doc->out_dir);
}

/* A file written before the commands run: where, and what. */
static void json_bench_file(json_object *o, const void *item)
{
	const struct sp_bench_doc *doc = item;

	sp_json_add(o, "path", jpath(doc->out_dir, doc->file_name));
	sp_json_add(o, "text", json_object_new_string(doc->file_text));
}

static void json_bench_input(json_object *in, const void *item)
{
	const struct sp_bench_doc *doc = item;

	sp_json_add(in, "file", json_object_new_string(doc->input));
	sp_json_add(in, "exit_status", doc->input_exit == SP_BENCH_EXIT_UNKNOWN ? NULL :
		    json_object_new_int(doc->input_exit));
}

int sp_print_bench_json(const struct sp_bench_doc *doc)
{
	json_object *o = json_object_new_object();
	const struct sp_env *env = doc->env;

	if (!o)
		return -ENOMEM;
	sp_json_add(o, "bench", json_object_new_string(doc->bench));
	sp_json_add(o, "dry_run", json_object_new_boolean(doc->dry_run));
	sp_json_add(o, "tool_version", sp_json_str_or_null(env ? env->tool_version : NULL));
	sp_json_add(o, "module_version", sp_json_str_or_null(env ? env->module_version : NULL));
	sp_json_add(o, "kernel_release", sp_json_str_or_null(env ? env->kernel_release : NULL));
	sp_json_add(o, "host", sp_json_str_or_null(env ? env->host : NULL));
	sp_json_add(o, "arguments", jstrv(doc->args, doc->n_args));
	sp_json_add(o, "out_dir", sp_json_str_or_null(doc->out_dir));
	if (doc->hca_source)
		sp_json_add(o, "hca_source", json_object_new_string(doc->hca_source));
	if (doc->input)
		sp_json_add(o, "input", sp_json_object(json_bench_input, doc));
	if (doc->file_name)
		sp_json_add(o, "written_files", sp_json_objects(doc, 1, sizeof(*doc),
								json_bench_file));
	sp_json_add(o, "commands", sp_json_array(doc, doc->cmds ? doc->cmds->n : 0,
						 json_bench_doc_cmd));
	if (!doc->dry_run) {
		sp_json_add(o, "results", sp_json_objects(doc->results, doc->n_results,
							  sizeof(*doc->results), json_bench_result));
		sp_json_add(o, "summary", json_bench_summary(doc));
		sp_json_add(o, "counters_source", doc->trace ? json_object_new_string("kernel trace") :
		    doc->counters ? json_object_new_string("sysfs snapshots") : NULL);
		sp_json_add(o, "trace", doc->trace ? sp_json_trace_report(doc->trace, false) : NULL);
		sp_json_add(o, "counters", doc->counters ? sp_json_object(json_bench_counters, doc->counters) :
			    NULL);
		sp_json_add(o, "verdict", sp_json_object(json_bench_verdict, &doc->verdict));
	}
	return sp_print_json(o);
}
