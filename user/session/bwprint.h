/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printers of bw: results as text rows or JSON, bw show, the progress
 * line.
 */
#ifndef SPARKPERF_CTL_SESSION_BWPRINT_H
#define SPARKPERF_CTL_SESSION_BWPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "lib/print.h"
#include "lib/traceprint.h"

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

#endif
