// SPDX-License-Identifier: GPL-2.0
/*
 * bw's results: text rows under a header (a sum row for several
 * sessions), JSON runs, bw show, the progress line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "lib/rate.h"
#include "lib/tracelog.h"
#include "bwprint.h"
#include "stats.h"

/* ---- bandwidth: pieces -------------------------------------------------- */

static const char *bw_error(const struct sp_bw *b)
{
	return sp_session_error(b->has_error_msg, b->error_msg, b->has_error, b->error);
}

/* ---- bandwidth: JSON ---------------------------------------------------- */

static json_object *json_bw_interval(const struct sp_bw *b, size_t i)
{
	const struct sp_interval *iv = &b->intervals[i];
	json_object *obj = json_object_new_object();
	double gbps;

	if (!obj)
		return NULL;
	sp_json_add(obj, "end_ns", sp_json_u64(iv->end_ns));
	sp_json_add(obj, "bytes", sp_json_u64(iv->bytes));
	sp_json_add(obj, "msgs", sp_json_u64(iv->count));
	sp_json_add(obj, "gbit_per_s", sp_stats_bw_interval_gbps(b, i, &gbps) ? sp_json_fixed(gbps, 6) : NULL);
	return obj;
}

static json_object *json_ivl_stats(const struct sp_bw *b)
{
	json_object *obj = json_object_new_object();
	struct sp_ivl_stats st;
	bool has;

	if (!obj)
		return NULL;
	has = !sp_stats_bw_intervals(b, &st) && st.n;
	sp_json_add(obj, "min_gbit_per_s", has ? sp_json_fixed(st.min, 6) : NULL);
	sp_json_add(obj, "p50_gbit_per_s", has ? sp_json_fixed(st.p50, 6) : NULL);
	sp_json_add(obj, "max_gbit_per_s", has ? sp_json_fixed(st.max, 6) : NULL);
	return obj;
}

static json_object *json_bw(const struct sp_bw *b)
{
	const struct sp_bw_config *c = &b->cfg;
	json_object *obj = json_object_new_object(), *ivs;
	char peer[SP_ADDR_STRLEN];
	const char *err = bw_error(b);
	struct sp_rates r;
	double pct;
	size_t i;

	if (!obj)
		return NULL;
	sp_stats_bw_rates(b, &r);
	sp_json_add(obj, "id", json_object_new_int64(b->id));
	sp_json_add(obj, "peer", c->peer.len ?
	    json_object_new_string(sp_fmt_addr(&c->peer, peer, sizeof(peer))) : NULL);
	sp_json_add(obj, "port", sp_json_u32_or_null(c->has_port, c->port));
	sp_json_add(obj, "dev", c->has_dev ? json_object_new_string(c->dev) : NULL);
	sp_json_add(obj, "op", c->has_op ? json_object_new_string(sp_lat_op_str(c->op)) : NULL);
	sp_json_add(obj, "size_bytes", sp_json_u32_or_null(c->has_size, c->size));
	sp_json_add(obj, "qps", sp_json_u32_or_null(c->has_qps, c->qps));
	sp_json_add(obj, "threads", sp_json_u32_or_null(c->has_threads, c->threads));
	sp_json_add(obj, "depth", sp_json_u32_or_null(c->has_depth, c->depth));
	sp_json_add(obj, "signal", sp_json_u32_or_null(c->has_signal, c->signal));
	sp_json_add(obj, "iterations", c->has_iters ? sp_json_u64(c->iters) : NULL);
	sp_json_add(obj, "duration_ms", sp_json_u32_or_null(c->has_duration, c->duration_ms));
	sp_json_add(obj, "bidir", json_object_new_boolean(c->bidir));
	sp_json_add(obj, "validate", json_object_new_boolean(c->validate));
	sp_json_add(obj, "interval_ms", sp_json_u32_or_null(c->has_interval, c->interval_ms));
	sp_json_add(obj, "state", json_object_new_string(sp_lat_state_str(b->state)));
	sp_json_add(obj, "error", b->has_error ? json_object_new_int(b->error < 0 ? -b->error : b->error) :
	    NULL);
	sp_json_add(obj, "error_msg", sp_json_str_or_null(err));
	sp_json_add(obj, "start_ns", b->has_start ? sp_json_u64(b->start_ns) : NULL);
	sp_json_add(obj, "elapsed_ns", sp_json_u64(b->elapsed_ns));
	sp_json_add(obj, "tx_bytes", sp_json_u64(b->tx_bytes));
	sp_json_add(obj, "tx_msgs", sp_json_u64(b->tx_msgs));
	sp_json_add(obj, "rx_bytes", sp_json_u64(b->rx_bytes));
	sp_json_add(obj, "rx_msgs", sp_json_u64(b->rx_msgs));
	sp_json_add(obj, "bytes", sp_json_u64(sp_stats_bw_bytes(b)));
	sp_json_add(obj, "msgs", sp_json_u64(sp_stats_bw_msgs(b)));
	sp_json_add(obj, "gbit_per_s", r.valid ? sp_json_fixed(r.gbit_per_s, 6) : NULL);
	sp_json_add(obj, "msgs_per_s", r.valid ? sp_json_fixed(r.msg_per_s, 3) : NULL);
	sp_json_add(obj, "validate_errors", b->has_validate_errors ? sp_json_u64(b->validate_errors) : NULL);
	sp_json_add(obj, "cpu_ns", b->has_cpu ? sp_json_u64(b->cpu_ns) : NULL);
	sp_json_add(obj, "cpu_percent", b->has_cpu && sp_stats_cpu_percent(b->cpu_ns, b->elapsed_ns, &pct) ?
	    sp_json_fixed(pct, 2) : NULL);
	ivs = json_object_new_array();
	for (i = 0; ivs && i < b->n_intervals; i++)
		json_object_array_add(ivs, json_bw_interval(b, i));
	sp_json_add(obj, "intervals", ivs);
	sp_json_add(obj, "interval_stats", json_ivl_stats(b));
	return obj;
}

/* The sessions of bws[0..n-1] as a new array. */
static json_object *json_bws(const struct sp_bw *bws, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++) {
		json_object *o = json_bw(&bws[i]);

		if (!o) {
			json_object_put(arr);
			return NULL;
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_bw_aggregate(const struct sp_bw *bws, size_t n)
{
	json_object *obj = json_object_new_object();
	struct sp_bw_aggregate a;

	if (!obj)
		return NULL;
	sp_stats_bw_aggregate(bws, n, &a);
	sp_json_add(obj, "sessions", json_object_new_int64((int64_t)a.sessions));
	sp_json_add(obj, "bytes", sp_json_u64(a.bytes));
	sp_json_add(obj, "msgs", sp_json_u64(a.msgs));
	sp_json_add(obj, "gbit_per_s", a.rates.valid ? sp_json_fixed(a.rates.gbit_per_s, 6) : NULL);
	sp_json_add(obj, "msgs_per_s", a.rates.valid ? sp_json_fixed(a.rates.msg_per_s, 3) : NULL);
	sp_json_add(obj, "start_skew_ns", a.has_skew ? sp_json_u64(a.start_skew_ns) : NULL);
	sp_json_add(obj, "cpu_percent", a.has_cpu ? sp_json_fixed(a.cpu_percent, 2) : NULL);
	sp_json_add(obj, "validate_errors", a.has_validate_errors ? sp_json_u64(a.validate_errors) : NULL);
	return obj;
}

static json_object *json_bw_run(const struct sp_bw_run *run, const struct sp_env *env)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "size_bytes", sp_json_u64(run->size));
	sp_json_add(obj, "sessions", json_bws(run->bws, run->n));
	sp_json_add(obj, "aggregate", json_bw_aggregate(run->bws, run->n));
	sp_json_add(obj, "start_at_ns", run->has_start_at ? sp_json_u64(run->start_at_ns) : NULL);
	if (run->trace)
		sp_json_add(obj, "trace", sp_json_trace_report(run->trace, false));
	if (env) {
		sp_json_add(obj, "tool_version", sp_json_str_or_null(env->tool_version));
		sp_json_add(obj, "module_version", sp_json_str_or_null(env->module_version));
		sp_json_add(obj, "kernel_release", sp_json_str_or_null(env->kernel_release));
		sp_json_add(obj, "host", sp_json_str_or_null(env->host));
	}
	return obj;
}

int sp_print_bw_json(const struct sp_bw_run *runs, size_t n, const struct sp_env *env)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++) {
		json_object *o = json_bw_run(&runs[i], env);

		if (!o) {
			json_object_put(arr);
			return -ENOMEM;
		}
		json_object_array_add(arr, o);
	}
	return sp_print_json(arr);
}

/* ---- bandwidth: text ---------------------------------------------------- */

enum {
	BC_ID, BC_DEV, BC_PEER, BC_OP, BC_SIZE, BC_QPS, BC_THREADS, BC_STATE, BC_BYTES,
	BC_MSGS, BC_GBPS, BC_MBPS, BC_MMSGS, BC_IMIN, BC_IP50, BC_IMAX, BC_CPU, BC_VERR, BC_N
};

static const struct sp_fixed_col bw_col[BC_N] = {
	[BC_ID] = { "id", 3 },
	[BC_DEV] = { "dev", 12 },
	[BC_PEER] = { "peer", 14 },
	[BC_OP] = { "op", 5 },
	[BC_SIZE] = { "size[B]", 0 },
	[BC_QPS] = { "qps", 0 },
	[BC_THREADS] = { "threads", 0 },
	[BC_STATE] = { "state", 7 },
	[BC_BYTES] = { "bytes[B]", 11 },
	[BC_MSGS] = { "msgs", 8 },
	[BC_GBPS] = { "Gbit/s", 7 },
	[BC_MBPS] = { "MB/s", 9 },
	[BC_MMSGS] = { "Mmsg/s", 0 },
	[BC_IMIN] = { "ivl_min[Gbit/s]", 0 },
	[BC_IP50] = { "ivl_p50[Gbit/s]", 0 },
	[BC_IMAX] = { "ivl_max[Gbit/s]", 0 },
	[BC_CPU] = { "cpu[%]", 0 },
	[BC_VERR] = { "validate_errors", 0 },
};

typedef char bw_cells[BC_N][SP_CELL_MAX];

static void cell_u32(char *cell, bool has, uint32_t v)
{
	if (has)
		snprintf(cell, SP_CELL_MAX, "%u", v);
	else
		snprintf(cell, SP_CELL_MAX, "-");
}

/* The columns from bytes on, shared by the sessions and the sum. */
static void bw_tail_cells(bw_cells cell, uint64_t bytes, uint64_t msgs, const struct sp_rates *r,
			  bool has_cpu, double cpu, bool has_verr, uint64_t verr)
{
	snprintf(cell[BC_BYTES], SP_CELL_MAX, "%" PRIu64, bytes);
	snprintf(cell[BC_MSGS], SP_CELL_MAX, "%" PRIu64, msgs);
	if (r->valid) {
		snprintf(cell[BC_GBPS], SP_CELL_MAX, "%.3f", r->gbit_per_s);
		snprintf(cell[BC_MBPS], SP_CELL_MAX, "%.2f", r->mb_per_s);
		snprintf(cell[BC_MMSGS], SP_CELL_MAX, "%.3f", r->msg_per_s / 1e6);
	} else {
		snprintf(cell[BC_GBPS], SP_CELL_MAX, "-");
		snprintf(cell[BC_MBPS], SP_CELL_MAX, "-");
		snprintf(cell[BC_MMSGS], SP_CELL_MAX, "-");
	}
	if (has_cpu)
		snprintf(cell[BC_CPU], SP_CELL_MAX, "%.1f", cpu);
	else
		snprintf(cell[BC_CPU], SP_CELL_MAX, "-");
	if (has_verr)
		snprintf(cell[BC_VERR], SP_CELL_MAX, "%" PRIu64, verr);
	else
		snprintf(cell[BC_VERR], SP_CELL_MAX, "-");
}

static void bw_session_cells(const struct sp_bw *b, bw_cells cell)
{
	const struct sp_bw_config *c = &b->cfg;
	char peer[SP_ADDR_STRLEN];
	struct sp_ivl_stats st;
	struct sp_rates r;
	double cpu = 0;
	bool has_cpu;

	snprintf(cell[BC_ID], SP_CELL_MAX, "%u", b->id);
	snprintf(cell[BC_DEV], SP_CELL_MAX, "%s", c->has_dev ? c->dev : "-");
	snprintf(cell[BC_PEER], SP_CELL_MAX, "%s",
		 c->peer.len ? sp_fmt_addr(&c->peer, peer, sizeof(peer)) : "-");
	snprintf(cell[BC_OP], SP_CELL_MAX, "%s", c->has_op ? sp_lat_op_str(c->op) : "-");
	cell_u32(cell[BC_SIZE], c->has_size, c->size);
	cell_u32(cell[BC_QPS], c->has_qps, c->qps);
	cell_u32(cell[BC_THREADS], c->has_threads, c->threads);
	snprintf(cell[BC_STATE], SP_CELL_MAX, "%s", sp_lat_state_str(b->state));
	if (!sp_stats_bw_intervals(b, &st) && st.n) {
		snprintf(cell[BC_IMIN], SP_CELL_MAX, "%.3f", st.min);
		snprintf(cell[BC_IP50], SP_CELL_MAX, "%.3f", st.p50);
		snprintf(cell[BC_IMAX], SP_CELL_MAX, "%.3f", st.max);
	} else {
		snprintf(cell[BC_IMIN], SP_CELL_MAX, "-");
		snprintf(cell[BC_IP50], SP_CELL_MAX, "-");
		snprintf(cell[BC_IMAX], SP_CELL_MAX, "-");
	}
	sp_stats_bw_rates(b, &r);
	has_cpu = b->has_cpu && sp_stats_cpu_percent(b->cpu_ns, b->elapsed_ns, &cpu);
	bw_tail_cells(cell, sp_stats_bw_bytes(b), sp_stats_bw_msgs(b), &r, has_cpu, cpu,
		      b->has_validate_errors, b->validate_errors);
}

/* The sum row: what all the sessions share, or "-"; counts and rates added. */
static void bw_sum_cells(const struct sp_bw *bws, size_t n, const struct sp_bw_aggregate *a,
			 bw_cells cell)
{
	const struct sp_bw_config *c0 = &bws[0].cfg;
	bool same_op = c0->has_op, same_size = c0->has_size, same_state = true;
	bool has_qps = true, has_threads = true;
	uint32_t qps = 0, threads = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_bw_config *c = &bws[i].cfg;

		same_op = same_op && c->has_op && c->op == c0->op;
		same_size = same_size && c->has_size && c->size == c0->size;
		same_state = same_state && bws[i].state == bws[0].state;
		has_qps = has_qps && c->has_qps;
		has_threads = has_threads && c->has_threads;
		qps += c->qps;
		threads += c->threads;
	}
	snprintf(cell[BC_ID], SP_CELL_MAX, "sum");
	snprintf(cell[BC_DEV], SP_CELL_MAX, "-");
	snprintf(cell[BC_PEER], SP_CELL_MAX, "-");
	snprintf(cell[BC_OP], SP_CELL_MAX, "%s", same_op ? sp_lat_op_str(c0->op) : "-");
	cell_u32(cell[BC_SIZE], same_size, c0->size);
	cell_u32(cell[BC_QPS], has_qps, qps);
	cell_u32(cell[BC_THREADS], has_threads, threads);
	snprintf(cell[BC_STATE], SP_CELL_MAX, "%s",
		 same_state ? sp_lat_state_str(bws[0].state) : "-");
	snprintf(cell[BC_IMIN], SP_CELL_MAX, "-");
	snprintf(cell[BC_IP50], SP_CELL_MAX, "-");
	snprintf(cell[BC_IMAX], SP_CELL_MAX, "-");
	bw_tail_cells(cell, a->bytes, a->msgs, &a->rates, a->has_cpu, a->cpu_percent,
		      a->has_validate_errors, a->validate_errors);
}

static void print_bw_rows(const struct sp_bw *bws, size_t n, bool validate, bool sum)
{
	size_t ncols = validate ? BC_N : BC_VERR, i;
	struct sp_bw_aggregate a;
	char tail[SP_LAT_ERRMSG_MAX + 16];
	bw_cells cell;

	for (i = 0; i < n; i++) {
		const char *err = bw_error(&bws[i]);

		bw_session_cells(&bws[i], cell);
		if (bws[i].state == SPARKPERF_LAT_STATE_FAILED)
			snprintf(tail, sizeof(tail), "error: %s", err ? err : "unknown");
		sp_print_fixed(bw_col, ncols, cell,
			    bws[i].state == SPARKPERF_LAT_STATE_FAILED ? tail : NULL);
	}
	if (!sum || n < 2)
		return;
	sp_stats_bw_aggregate(bws, n, &a);
	bw_sum_cells(bws, n, &a, cell);
	if (a.has_skew)
		snprintf(tail, sizeof(tail), "start skew %.3f usec", (double)a.start_skew_ns / 1000);
	sp_print_fixed(bw_col, ncols, cell, a.has_skew ? tail : NULL);
}

int sp_print_bw_header(const struct sp_bw_config *c, size_t sessions)
{
	FILE *f = sp_print_file();

	fprintf(f, "RDMA %s bandwidth: %zu session%s, %u QP%s and %u thread%s each, depth %u, "
		"a completion every %u messages and at least every %u KiB\n",
		sp_lat_op_str(c->op), sessions, sessions == 1 ? "" : "s started together",
		c->qps, c->qps == 1 ? "" : "s", c->threads, c->threads == 1 ? "" : "s", c->depth,
		c->signal, SPARKPERF_BW_SIGNAL_BYTES / 1024);
	if (c->has_duration)
		fprintf(f, "Run: %u ms", c->duration_ms);
	else
		fprintf(f, "Run: %" PRIu64 " messages per QP", c->iters);
	fprintf(f, ", %s%s\n", c->bidir ? "both directions" : "one direction",
		c->validate ? ", data validated" : "");
	fprintf(f, "Rates of payload (no headers): Gbit/s = 10^9 bit/s, MB/s = 10^6 byte/s, "
		"Mmsg/s = 10^6 messages/s\n");
	fprintf(f, "ivl_*: rates over the %u ms intervals (min, median, max); cpu[%%]: CPU time "
		"of the sending threads / elapsed time (100 = one CPU)\n", c->interval_ms);
	sp_print_fixed(bw_col, c->validate ? BC_N : BC_VERR, NULL, NULL);
	return 0;
}

int sp_print_bw_rows(const struct sp_bw *bws, size_t n, bool validate)
{
	print_bw_rows(bws, n, validate, true);
	return 0;
}

static bool any_validate(const struct sp_bw *bws, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (bws[i].cfg.validate)
			return true;
	return false;
}

int sp_print_bws(const struct sp_bw *bws, size_t n)
{
	bool validate = any_validate(bws, n);

	if (sp_print_is_json())
		return sp_print_json(json_bws(bws, n));
	if (!n)
		return 0;
	sp_print_fixed(bw_col, validate ? BC_N : BC_VERR, NULL, NULL);
	print_bw_rows(bws, n, validate, false);
	return 0;
}

static char *bw_interval_cell(const void *rows, size_t row, size_t col)
{
	const struct sp_bw *b = rows;
	const struct sp_interval *iv = &b->intervals[row];
	double gbps;

	switch (col) {
	case 0:
		return sp_xprintf("%zu", row + 1);
	case 1:
		return sp_xprintf("%.3f", (double)iv->end_ns / 1e6);
	case 2:
		return sp_xprintf("%" PRIu64, iv->bytes);
	case 3:
		return sp_xprintf("%" PRIu64, iv->count);
	default:
		if (!sp_stats_bw_interval_gbps(b, row, &gbps))
			return strdup("-");
		return sp_xprintf("%.3f", gbps);
	}
}

int sp_print_bw(const struct sp_bw *b)
{
	static const char *const header[] = {
		"interval", "end[ms]", "bytes[B]", "msgs", "Gbit/s",
	};

	if (sp_print_is_json())
		return sp_print_json(json_bws(b, 1));
	sp_print_bws(b, 1);
	if (!b->n_intervals)
		return 0;
	fprintf(sp_print_file(), "\n");
	return sp_print_table(header, ARRAY_SIZE(header), b->n_intervals, bw_interval_cell, b);
}

char *sp_fmt_bw_progress(char *buf, size_t len, const struct sp_bw_line *l)
{
	char size[SP_SIZE_STRLEN], state[64], ended[32] = "";

	sp_fmt_size(l->size, size, sizeof(size));
	if (l->has_time && l->has_rate)
		snprintf(state, sizeof(state), "%.1f s, %.3f Gbit/s now",
			 (double)l->elapsed_ns / 1e9, l->gbit_per_s);
	else if (l->has_time)
		snprintf(state, sizeof(state), "%.1f s", (double)l->elapsed_ns / 1e9);
	else
		snprintf(state, sizeof(state), "%s", l->running ? "running" :
			 l->ended == l->sessions ? "ended" : "connecting");
	if (l->ended && l->ended < l->sessions)
		snprintf(ended, sizeof(ended), ", %zu ended", l->ended);
	snprintf(buf, len, "bw %s %s: %s, %zu session%s%s", sp_lat_op_str(l->op), size, state,
		 l->sessions, l->sessions == 1 ? "" : "s", ended);
	return buf;
}
