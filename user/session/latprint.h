/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printers of lat: results as text rows or JSON, lat show, the progress
 * line, and the raw samples' CSV.
 */
#ifndef SPARKPERF_CTL_SESSION_LATPRINT_H
#define SPARKPERF_CTL_SESSION_LATPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"
#include "lib/print.h"
#include "lib/traceprint.h"

/*
 * Latency results as text: a header (what was measured, how, the units and
 * the column names) printed once before the first row, then one row per
 * message size, printed as each session ends. Sessions without a measured
 * round trip have no row.
 */
int sp_print_lat_header(const struct sp_lat *lat, const struct sp_env *env);

/*
 * enum sparkperf_lat_completion by name, as the CLI takes it and JSON
 * prints it: recv, last-byte, read.
 */
extern const char *const sp_lat_completion_names[];
extern const size_t sp_n_lat_completion_names;
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

#endif
