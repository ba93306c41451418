// SPDX-License-Identifier: GPL-2.0
/*
 * lat's results: text rows under a header, JSON objects, lat show, the
 * progress line, and the raw samples as CSV.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "lib/tracelog.h"
#include "latprint.h"
#include "stats.h"

/* ---- latency: numbers --------------------------------------------------- */

/* usec with three decimals (ns resolution) */
static void fmt_usec(char *buf, size_t len, long double ns)
{
	snprintf(buf, len, "%.3Lf", ns / 1000);
}

static long double lat_mean(const struct sp_lat *l)
{
	return sp_stats_mean(l->count, l->sum_ns);
}

static long double lat_stdev(const struct sp_lat *l)
{
	return sp_stats_stdev(l->count, l->sum_ns, l->sumsq_hi, l->sumsq_lo);
}

/* ---- latency: text ------------------------------------------------------ */

enum {
	LC_BYTES, LC_ITERS, LC_WARMUP, LC_MIN, LC_P50, LC_P90, LC_P99, LC_P999,
	LC_P9999, LC_P99999, LC_MAX, LC_AVG, LC_STDEV, LC_OW_P50, LC_OW_AVG, LC_N
};

static const struct sp_fixed_col lat_col[LC_N] = {
	[LC_BYTES] = { "#bytes", 7 },
	[LC_ITERS] = { "#iterations", 11 },
	[LC_WARMUP] = { "#warmup", 7 },
	[LC_MIN] = { "rtt_min[usec]", 0 },
	[LC_P50] = { "rtt_p50[usec]", 0 },
	[LC_P90] = { "rtt_p90[usec]", 0 },
	[LC_P99] = { "rtt_p99[usec]", 0 },
	[LC_P999] = { "rtt_p99.9[usec]", 0 },
	[LC_P9999] = { "rtt_p99.99[usec]", 0 },
	[LC_P99999] = { "rtt_p99.999[usec]", 0 },
	[LC_MAX] = { "rtt_max[usec]", 0 },
	[LC_AVG] = { "rtt_avg[usec]", 0 },
	[LC_STDEV] = { "rtt_stdev[usec]", 0 },
	[LC_OW_P50] = { "oneway_p50[usec]", 0 },
	[LC_OW_AVG] = { "oneway_avg[usec]", 0 },
};

const char *const sp_lat_completion_names[] = {
	[SPARKPERF_LAT_COMPLETION_RECV] = "recv",
	[SPARKPERF_LAT_COMPLETION_LAST_BYTE] = "last-byte",
	[SPARKPERF_LAT_COMPLETION_READ] = "read",
};
const size_t sp_n_lat_completion_names = SPARKPERF_LAT_COMPLETION_MAX + 1;

static const char *completion_str(const struct sp_lat_config *c)
{
	return sp_enum_str(sp_lat_completion_names, sp_n_lat_completion_names, c->completion,
			   "unknown");
}

/* How a round trip ended, in words: what a result can be compared with. */
static const char *completion_text(const struct sp_lat_config *c)
{
	switch (c->completion) {
	case SPARKPERF_LAT_COMPLETION_RECV:
		return c->op == SPARKPERF_LAT_OP_WRITE ?
		       "receive completion of the echo's RDMA WRITE with immediate" :
		       "receive completion of the echo's SEND";
	case SPARKPERF_LAT_COMPLETION_LAST_BYTE:
		return "last byte of the echo polled (as ib_write_lat; early where the NIC "
		       "writes out of order, e.g. mlx5 relaxed ordering)";
	case SPARKPERF_LAT_COMPLETION_READ:
		return "completion of the RDMA READ";
	default:
		return "unknown";
	}
}

int sp_print_lat_header(const struct sp_lat *lat, const struct sp_env *env)
{
	const struct sp_lat_config *c = &lat->cfg;
	char peer[SP_ADDR_STRLEN];
	FILE *f = sp_print_file();

	fprintf(f, "RDMA %s latency: peer %s port %u", sp_lat_op_str(c->op),
		sp_fmt_addr(&c->peer, peer, sizeof(peer)), c->port);
	if (c->has_dev)
		fprintf(f, ", device %s", c->dev);
	if (c->has_cpu)
		fprintf(f, ", CPU %u", c->cpu);
	fprintf(f, "\n");
	if (c->has_duration)
		fprintf(f, "Run: %u ms", c->duration_ms);
	else if (c->has_iters)
		fprintf(f, "Run: %" PRIu64 " iterations", c->iters);
	else
		fprintf(f, "Run: default iterations");
	if (c->has_warmup)
		fprintf(f, " after %u warm-up iterations", c->warmup);
	fprintf(f, "\n");
	if (c->has_completion)
		fprintf(f, "Round trip ends: %s\n", completion_text(c));
	fprintf(f, "Clock: %s", env && env->clock_source ? env->clock_source : "unknown");
	if (lat->has_clock_res)
		fprintf(f, ", resolution %u ns", lat->clock_res_ns);
	fprintf(f, "\n");
	fprintf(f, "Times in usec: rtt_* are round trip times (RTT), oneway_* are RTT/2;\n"
		"percentiles from a histogram (within 0.4%%), min, max, avg and stdev exact\n");
	sp_print_fixed(lat_col, LC_N, NULL, NULL);
	return 0;
}

int sp_print_lat_row(const struct sp_lat *l)
{
	char cell[LC_N][SP_CELL_MAX];
	long double mean;

	if (!l->count)
		return 0;
	mean = lat_mean(l);
	snprintf(cell[LC_BYTES], sizeof(cell[0]), "%u", l->cfg.size);
	snprintf(cell[LC_ITERS], sizeof(cell[0]), "%" PRIu64, l->count);
	snprintf(cell[LC_WARMUP], sizeof(cell[0]), "%" PRIu64, l->warmup_done);
	fmt_usec(cell[LC_MIN], sizeof(cell[0]), l->min_ns);
	fmt_usec(cell[LC_P50], sizeof(cell[0]), l->p50_ns);
	fmt_usec(cell[LC_P90], sizeof(cell[0]), l->p90_ns);
	fmt_usec(cell[LC_P99], sizeof(cell[0]), l->p99_ns);
	fmt_usec(cell[LC_P999], sizeof(cell[0]), l->p999_ns);
	fmt_usec(cell[LC_P9999], sizeof(cell[0]), l->p9999_ns);
	fmt_usec(cell[LC_P99999], sizeof(cell[0]), l->p99999_ns);
	fmt_usec(cell[LC_MAX], sizeof(cell[0]), l->max_ns);
	fmt_usec(cell[LC_AVG], sizeof(cell[0]), mean);
	fmt_usec(cell[LC_STDEV], sizeof(cell[0]), lat_stdev(l));
	fmt_usec(cell[LC_OW_P50], sizeof(cell[0]), sp_stats_one_way((double)l->p50_ns));
	fmt_usec(cell[LC_OW_AVG], sizeof(cell[0]), mean / 2);
	sp_print_fixed(lat_col, LC_N, cell, NULL);
	return 0;
}

/* ---- latency: JSON ------------------------------------------------------ */

static json_object *json_lat_config(const struct sp_lat *l, const struct sp_lat_config *req)
{
	const struct sp_lat_config *c = &l->cfg;
	json_object *obj = json_object_new_object();
	char peer[SP_ADDR_STRLEN];

	if (!obj)
		return NULL;
	sp_json_add(obj, "peer", c->peer.len ?
	    json_object_new_string(sp_fmt_addr(&c->peer, peer, sizeof(peer))) : NULL);
	sp_json_add(obj, "port", c->has_port ? json_object_new_int(c->port) : NULL);
	sp_json_add(obj, "op", c->has_op ? json_object_new_string(sp_lat_op_str(c->op)) : NULL);
	sp_json_add(obj, "size_bytes", c->has_size ? json_object_new_int64(c->size) : NULL);
	sp_json_add(obj, "iterations", c->has_iters ? sp_json_u64(c->iters) : NULL);
	sp_json_add(obj, "duration_ms", c->has_duration ? json_object_new_int64(c->duration_ms) : NULL);
	sp_json_add(obj, "warmup", c->has_warmup ? json_object_new_int64(c->warmup) : NULL);
	sp_json_add(obj, "samples_max", c->has_samples_max ?
	    json_object_new_int64(c->samples_max) : NULL);
	sp_json_add(obj, "interval_ms", c->has_interval ? json_object_new_int64(c->interval_ms) : NULL);
	sp_json_add(obj, "completion", c->has_completion ?
	    json_object_new_string(completion_str(c)) : NULL);
	/* what was asked for; the device and CPU used are outside "config" */
	sp_json_add(obj, "dev", req && req->has_dev ? json_object_new_string(req->dev) : NULL);
	sp_json_add(obj, "cpu", req && req->has_cpu ? json_object_new_int64(req->cpu) : NULL);
	return obj;
}

static void json_interval(json_object *o, const void *item)
{
	const struct sp_interval *iv = item;

	sp_json_add(o, "end_ns", sp_json_u64(iv->end_ns));
	sp_json_add(o, "count", sp_json_u64(iv->count));
	sp_json_add(o, "p50_ns", sp_json_u64(iv->p50_ns));
	sp_json_add(o, "p99_ns", sp_json_u64(iv->p99_ns));
	sp_json_add(o, "max_ns", sp_json_u64(iv->max_ns));
}

static json_object *json_lat(const struct sp_lat *l, const struct sp_lat_config *req,
			 const struct sp_env *env)
{
	json_object *obj = json_object_new_object(), *err = NULL;
	char sumsq[SP_U128_STRLEN];
	bool m = l->count > 0;
	long double mean = lat_mean(l);

	if (!obj)
		return NULL;
	if (env) {
		sp_json_add(obj, "tool_version", sp_json_str_or_null(env->tool_version));
		sp_json_add(obj, "module_version", sp_json_str_or_null(env->module_version));
		sp_json_add(obj, "kernel_release", sp_json_str_or_null(env->kernel_release));
		sp_json_add(obj, "host", sp_json_str_or_null(env->host));
		sp_json_add(obj, "clock_source", sp_json_str_or_null(env->clock_source));
	}
	sp_json_add(obj, "clock_resolution_ns", l->has_clock_res ?
	    json_object_new_int64(l->clock_res_ns) : NULL);
	sp_json_add(obj, "id", json_object_new_int64(l->id));
	sp_json_add(obj, "state", json_object_new_string(sp_lat_state_str(l->state)));
	if (l->has_error || l->has_error_msg) {
		err = json_object_new_object();
		if (err) {
			int e = l->error < 0 ? -l->error : l->error;
			const char *m = sp_session_error(l->has_error_msg, l->error_msg,
							 l->has_error, l->error);

			sp_json_add(err, "errno", l->has_error ? json_object_new_int(e) : NULL);
			sp_json_add(err, "message", json_object_new_string(m ? m : "unknown error"));
		}
	}
	sp_json_add(obj, "error", err);
	sp_json_add(obj, "config", json_lat_config(l, req));
	sp_json_add(obj, "dev", l->cfg.has_dev ? json_object_new_string(l->cfg.dev) : NULL);
	sp_json_add(obj, "cpu", l->cfg.has_cpu ? json_object_new_int64(l->cfg.cpu) : NULL);
	sp_json_add(obj, "size_bytes", l->cfg.has_size ? json_object_new_int64(l->cfg.size) : NULL);
	sp_json_add(obj, "count", sp_json_u64(l->count));
	sp_json_add(obj, "warmup_count", sp_json_u64(l->warmup_done));
	sp_json_add(obj, "elapsed_ns", sp_json_u64(l->elapsed_ns));
	sp_json_add(obj, "yields", sp_json_u64(l->yields));
	sp_json_add(obj, "round_trips_with_yield", sp_json_u64(l->rt_yields));
	sp_json_add(obj, "rtt_min_ns", m ? sp_json_u64(l->min_ns) : NULL);
	sp_json_add(obj, "rtt_p50_ns", m ? sp_json_u64(l->p50_ns) : NULL);
	sp_json_add(obj, "rtt_p90_ns", m ? sp_json_u64(l->p90_ns) : NULL);
	sp_json_add(obj, "rtt_p99_ns", m ? sp_json_u64(l->p99_ns) : NULL);
	sp_json_add(obj, "rtt_p99_9_ns", m ? sp_json_u64(l->p999_ns) : NULL);
	sp_json_add(obj, "rtt_p99_99_ns", m ? sp_json_u64(l->p9999_ns) : NULL);
	sp_json_add(obj, "rtt_p99_999_ns", m ? sp_json_u64(l->p99999_ns) : NULL);
	sp_json_add(obj, "rtt_max_ns", m ? sp_json_u64(l->max_ns) : NULL);
	sp_json_add(obj, "rtt_avg_ns", m ? sp_json_ns3(mean) : NULL);
	sp_json_add(obj, "rtt_stdev_ns", m ? sp_json_ns3(lat_stdev(l)) : NULL);
	sp_json_add(obj, "rtt_sum_ns", sp_json_u64(l->sum_ns));
	sp_json_add(obj, "rtt_sumsq_ns2", json_object_new_string(
		    sp_stats_u128_str(l->sumsq_hi, l->sumsq_lo, sumsq, sizeof(sumsq))));
	sp_json_add(obj, "one_way_p50_ns", m ? sp_json_ns3(sp_stats_one_way((double)l->p50_ns)) : NULL);
	sp_json_add(obj, "one_way_avg_ns", m ? sp_json_ns3(mean / 2) : NULL);
	sp_json_add(obj, "intervals", sp_json_objects(l->intervals, l->n_intervals,
						      sizeof(*l->intervals), json_interval));
	return obj;
}

int sp_print_lat_json(const struct sp_lat *lats, size_t n, const struct sp_lat_config *req,
		      const struct sp_env *env)
{
	return sp_print_lat_json_traces(lats, n, req, env, NULL);
}

int sp_print_lat_json_traces(const struct sp_lat *lats, size_t n,
			     const struct sp_lat_config *req, const struct sp_env *env,
			     const struct sp_tracelog *const *traces)
{
	json_object *arr = json_object_new_array();
	size_t i;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *o = json_lat(&lats[i], req, env);

		if (o && traces && traces[i])
			sp_json_add(o, "trace", sp_json_trace_report(traces[i], false));
		if (!o) {
			json_object_put(arr);
			return -ENOMEM;
		}
		json_object_array_add(arr, o);
	}
	return sp_print_json(arr);
}

static char *lat_cell(const void *rows, size_t row, size_t col)
{
	const struct sp_lat *l = (const struct sp_lat *)rows + row;
	char buf[SP_ADDR_STRLEN];

	switch (col) {
	case 0:
		return sp_xprintf("%u", l->id);
	case 1:
		return strdup(l->cfg.peer.len ? sp_fmt_addr(&l->cfg.peer, buf, sizeof(buf)) : "-");
	case 2:
		return l->cfg.has_port ? sp_xprintf("%u", l->cfg.port) : strdup("-");
	case 3:
		return strdup(l->cfg.has_dev ? l->cfg.dev : "-");
	case 4:
		return strdup(l->cfg.has_op ? sp_lat_op_str(l->cfg.op) : "-");
	case 5:
		return l->cfg.has_size ? sp_xprintf("%u", l->cfg.size) : strdup("-");
	case 6:
		return strdup(sp_lat_state_str(l->state));
	case 7:
		return sp_xprintf("%" PRIu64, l->count);
	case 8:
		if (!l->count)
			return strdup("-");
		fmt_usec(buf, sizeof(buf), l->p50_ns);
		return strdup(buf);
	default:
		if (!l->count)
			return strdup("-");
		fmt_usec(buf, sizeof(buf), l->p99_ns);
		return strdup(buf);
	}
}

int sp_print_lats(const struct sp_lat *lats, size_t n)
{
	static const char *const header[] = {
		"ID", "PEER", "PORT", "DEV", "OP", "BYTES", "STATE", "COUNT",
		"RTT_P50[usec]", "RTT_P99[usec]",
	};

	if (sp_print_is_json())
		return sp_print_lat_json(lats, n, NULL, NULL);
	return sp_print_table(header, ARRAY_SIZE(header), n, lat_cell, lats);
}

char *sp_fmt_lat_progress(char *buf, size_t len, uint32_t size,
			  const struct sp_lat_progress *p,
			  const struct sp_interval *last)
{
	char p50[32], p99[32];

	switch (p->state) {
	case SPARKPERF_LAT_STATE_CONNECTING:
		snprintf(buf, len, "%u B: connecting", size);
		break;
	case SPARKPERF_LAT_STATE_RUNNING:
		if (!p->count) {
			snprintf(buf, len, "%u B: warm-up, %" PRIu64 " iterations", size,
				 p->warmup_done);
			break;
		}
		if (!last) {
			snprintf(buf, len, "%u B: %" PRIu64 " round trips", size, p->count);
			break;
		}
		fmt_usec(p50, sizeof(p50), last->p50_ns);
		fmt_usec(p99, sizeof(p99), last->p99_ns);
		snprintf(buf, len, "%u B: %" PRIu64 " round trips; last interval: RTT p50 %s usec, "
			 "p99 %s usec", size, p->count, p50, p99);
		break;
	default:
		snprintf(buf, len, "%u B: %s, %" PRIu64 " round trips", size,
			 sp_lat_state_str(p->state), p->count);
		break;
	}
	return buf;
}


/* ---- raw samples -------------------------------------------------------- */

int sp_print_samples_csv_header(FILE *f, bool with_bytes)
{
	fprintf(f, "%siteration,start_ns,rtt_ns\n", with_bytes ? "bytes," : "");
	return ferror(f) ? -EIO : 0;
}

int sp_print_samples_csv(FILE *f, const struct sp_lat_samples *s, bool with_bytes,
			 uint32_t bytes)
{
	uint64_t start, rtt;
	size_t i;

	for (i = 0; i < s->n; i++) {
		sp_lat_samples_get(s, i, &start, &rtt);
		if (with_bytes)
			fprintf(f, "%u,", bytes);
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s->first + i, start, rtt);
	}
	return ferror(f) ? -EIO : 0;
}
