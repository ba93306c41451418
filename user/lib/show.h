/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The objects' printers that have not yet moved to their subsystems.
 */
#ifndef SPARKPERF_CTL_SHOW_H
#define SPARKPERF_CTL_SHOW_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "model.h"
#include "print.h"
#include "rate.h"
#include "trace/view.h"
#include "switch/switchplan.h"

/*
 * Devices: text, a table with one line per port; JSON, one array of device
 * objects (also for a single device). 0 or -ENOMEM.
 */
int sp_print_devs(const struct sp_dev *devs, size_t n);

/* One event: one text line, or one compact JSON object on one line; flushed. */
int sp_print_event(const struct sp_dev_event *ev);

/*
 * The tool's and the module's versions; info == NULL when the module could
 * not be asked, with module_status saying why (e.g. "not loaded").
 */
int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status);

/* Servers. One (server start): a line, or one JSON object. */
int sp_print_server(const struct sp_server *srv);
/* All (server show): a table, or one JSON array. */
int sp_print_servers(const struct sp_server *srvs, size_t n);

/* Where and with what a result was measured (JSON: every result). */
struct sp_env {
	const char *tool_version;
	const char *module_version;	/* NULL: unknown */
	const char *kernel_release;	/* NULL: unknown */
	const char *host;		/* NULL: unknown */
	const char *clock_source;	/* NULL: unknown */
};

/*
 * Latency results as text: a header (what was measured, how, the units and
 * the column names) printed once before the first row, then one row per
 * message size, printed as each session ends. Sessions without a measured
 * round trip have no row.
 */
int sp_print_lat_header(const struct sp_lat *lat, const struct sp_env *env);
int sp_print_lat_row(const struct sp_lat *lat);

/*
 * Latency results as JSON: one array, one object per session. req is the
 * configuration asked for (dev and cpu in "config"), NULL when unknown; env
 * NULL leaves out the environment keys.
 */
int sp_print_lat_json(const struct sp_lat *lats, size_t n, const struct sp_lat_config *req,
		      const struct sp_env *env);

/* The same, with a "trace" object per session where traces[i] is not NULL. */
struct sp_tracelog;
int sp_print_lat_json_traces(const struct sp_lat *lats, size_t n,
			     const struct sp_lat_config *req, const struct sp_env *env,
			     const struct sp_tracelog *const *traces);

/* Sessions (lat show): a table, or the JSON array above without environment. */
int sp_print_lats(const struct sp_lat *lats, size_t n);

/*
 * The progress line shown on a terminal (no newline): the session's state,
 * its count and the last interval's p50 and p99. size: bytes.
 */
char *sp_fmt_lat_progress(char *buf, size_t len, uint32_t size,
			  const struct sp_lat_progress *p,
			  const struct sp_interval *last);

/*
 * Raw samples as CSV, to a file (never stdout): the header
 * "iteration,start_ns,rtt_ns", with a leading "bytes" column when with_bytes,
 * then one line per sample; iteration = s->first + index. 0 or -errno.
 */
int sp_print_samples_csv_header(FILE *f, bool with_bytes);
int sp_print_samples_csv(FILE *f, const struct sp_lat_samples *s, bool with_bytes,
			 uint32_t bytes);

/*
 * Bandwidth results. A run is the sessions of one message size, side by
 * side (one per peer, or per peer and device).
 */
struct sp_bw_run {
	uint64_t size;			/* bytes per message */
	struct sp_bw *bws;
	size_t n;
	bool has_start_at;
	uint64_t start_at_ns;		/* the common start asked for */
	const struct sp_tracelog *trace;	/* "trace on": the counters of the run */
};

/*
 * Text: what was measured and how, the units and the column names, once
 * before the first rows (cfg: the first session's configuration, sessions:
 * how many run side by side), then for each run one row per session and,
 * with several, a "sum" row; a failed session's row ends with its error.
 * validate: with a column of validation errors.
 */
int sp_print_bw_header(const struct sp_bw_config *cfg, size_t sessions);
int sp_print_bw_rows(const struct sp_bw *bws, size_t n, bool validate);

/* JSON: one array, one object per run (sessions and their aggregate). */
int sp_print_bw_json(const struct sp_bw_run *runs, size_t n, const struct sp_env *env);

/* Sessions (bw show): the column names and a row each, or a JSON array. */
int sp_print_bws(const struct sp_bw *bws, size_t n);
/* One session (bw show ID): its row, then its intervals; JSON: an array of one. */
int sp_print_bw(const struct sp_bw *bw);

/* What the progress line of a bandwidth run says. */
struct sp_bw_line {
	uint8_t op;
	uint64_t size;			/* bytes per message */
	size_t sessions;
	size_t running;			/* sessions sending now */
	size_t ended;
	bool has_time;
	uint64_t elapsed_ns;		/* the longest series so far */
	bool has_rate;
	double gbit_per_s;		/* the last intervals of those running, added */
};

/* "bw write 64KiB: 3.2 s, 9.870 Gbit/s now, 2 sessions" (no newline) */
char *sp_fmt_bw_progress(char *buf, size_t len, const struct sp_bw_line *l);

/* ---- counters and traces ---- */

/* A rate in the unit of a counter: "9.870 Gbit/s" (bytes), "1200.0 packet/s". */
char *sp_fmt_counter_rate(char *buf, size_t len, double rate, enum sp_counter_unit unit);

/*
 * counters show: SOURCE TARGET COUNTER VALUE UNIT, one line per counter
 * (nonzero: only those that are not 0); JSON, an array of one object per
 * stream whose "counters" object maps each name to its value.
 */
int sp_print_counters(const struct sp_stream *streams, size_t n, bool nonzero);

/* trace show: each trace and a line per stream; JSON, an array. */
int sp_print_traces(const struct sp_trace *traces, size_t n);

/*
 * The report of a trace: a line on the trace (state, sampler CPU per 1000
 * samples, lost samples, name table changes), a line per stream (requested
 * and achieved period, samples, missed deadlines, read times, table
 * versions), then a line per counter (first, last, delta, mean and peak
 * rate); all: also the counters that did not change. JSON: one object
 * (sp_json_trace_report), with env's keys when env is not NULL. title
 * begins the first line ("Counter").
 */
int sp_print_trace_report(const struct sp_tracelog *tl, const char *title, bool all,
			  const struct sp_env *env);
json_object *sp_json_trace_report(const struct sp_tracelog *tl, bool all);

/*
 * The writers of "trace record output FILE" (tl->keep): CSV, one row per
 * counter per sample,
 *   time_ns,seq,stream,source,target,version,counter,value,delta,rate,rate_unit
 * (time_ns since the trace's start; delta and rate since the counter's
 * previous reading, empty for its first, across wraps); JSON, one document
 * {"trace": {id, state, start_ns, elapsed_ns, config}, "streams": [{...,
 * "tables": [{"version", "names"}]}], "samples": [{"seq", "stream",
 * "version", "ts_ns", "read_ns", "values"}], "report": {...}}. 0 or -errno.
 */
int sp_print_trace_csv(FILE *f, const struct sp_tracelog *tl);
int sp_print_trace_json_file(FILE *f, const struct sp_tracelog *tl,
			     const struct sp_trace_config *cfg);

/* ---- watch ---- */

/* The live view on a terminal: home, clear, text (from sp_view_render); flushed. */
void sp_print_view_screen(const char *text);
/* One line (from sp_view_line); flushed. */
void sp_print_view_line(const char *line);

/* What the summary of watch adds per port. */
struct sp_watch_sum {
	double tx_mean_bps, rx_mean_bps;	/* bit/s over the whole watch */
	uint64_t tx_bytes, rx_bytes;		/* counted during the watch */
};

/*
 * watch -j: one compact JSON object per line, {"type": "sample" or
 * "summary", "elapsed_ns", "period_ns", "ports": [...], ...}; flushed.
 */
int sp_print_watch_json(const struct sp_view *v, const char *const *netdevs,
			const char *const *rdma_devs, const struct sp_watch_sum *sums,
			bool summary);
/* The text summary at the end of watch: mean and peak per port, the aggregate. */
int sp_print_watch_summary(const struct sp_view *v, const struct sp_watch_sum *sums);

/* JSON building blocks, shared with the tests. The caller owns the result. */
json_object *sp_json_dev(const struct sp_dev *dev);
json_object *sp_json_port(const struct sp_port *port);
json_object *sp_json_server(const struct sp_server *srv);
json_object *sp_json_lat(const struct sp_lat *lat, const struct sp_lat_config *req,
			 const struct sp_env *env);
json_object *sp_json_bw(const struct sp_bw *bw);

/*
 * Switch ports (switch show): a line naming the switch, then a table; JSON,
 * one object with "switch" and "ports".
 */
int sp_print_switch_ports(const struct sp_sw_info *sw, const struct sp_sw_port_status *ports,
			  size_t n);

/* The changes of a plan as an ITEM PROPERTY NOW WANT table (text only). */
int sp_print_switch_changes(const struct sp_sw_info *sw, const struct sp_sw_plan *p);

/*
 * switch plan: the changes, then the API sentences, the .rsc script and the
 * rollback script; JSON, one object with all of them.
 */
int sp_print_switch_plan(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			 const struct sp_sw_plan *p);

/* switch verify: what differs from d (settings and links), or "as desired". */
int sp_print_switch_verify(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			   const struct sp_sw_plan *diff, const struct sp_sw_link *links,
			   size_t n_links);

/* One step of switch apply as it happens: "STEP: DETAIL" (text only, flushed). */
void sp_print_switch_step(const char *step, const char *detail);

/* The report of switch apply: JSON only (text had its steps). */
int sp_print_switch_apply(const struct sp_sw_apply_report *r);

/* ---- tune and check ------------------------------------------------------ */

struct sp_plan;
struct sp_change;
struct sp_checklist;

/*
 * tune show: one row per knob (KNOB STATE CURRENT RECOMMENDED WHERE NOTE),
 * or a JSON array of knob objects with their full values.
 */
int sp_print_tune_plan(const struct sp_plan *plan);

/*
 * tune apply and revert: the snapshot, then "name: old -> new" per change
 * (for revert, last change first, from its after to its before value) and
 * a count; JSON: {"action","snapshot","profile","changes":[...]}. n == 0
 * says there was nothing to change (snapshot NULL).
 */
int sp_print_tune_changes(bool revert, const char *snapshot, const char *profile,
			  const struct sp_change *ch, size_t n);

/*
 * A checklist: "STATUS  NAME  DETAIL" lines, aligned, each item that did
 * not pass followed by its "fix:" line, then the counts; JSON: an array of
 * {"name","status","detail","fix"} (fix null when there is none).
 */
int sp_print_checklist(const struct sp_checklist *l);

#endif
