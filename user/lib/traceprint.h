/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printers of a trace that trace/, "lat/bw run ... trace on" and bench
 * share: the report of a trace (text and JSON), the files of "trace record
 * output FILE", and the pieces the trace objects' own printers are made of.
 */
#ifndef SPARKPERF_CTL_TRACEPRINT_H
#define SPARKPERF_CTL_TRACEPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "tracemodel.h"
#include "rate.h"
#include "tracelog.h"

struct sp_env;

/* Room for a stream's target: a device name, "/" and a port number. */
#define SP_TARGET_STRLEN (SPARKPERF_DEV_NAME_MAX + 16)

/* "eth0", "rxe0/1": a stream's target */
char *sp_fmt_stream_target(const struct sp_stream *st, char *buf, size_t len);

/* A rate in the unit of a counter: "9.870 Gbit/s" (bytes), "1200.0 packet/s". */
char *sp_fmt_counter_rate(char *buf, size_t len, double rate, enum sp_counter_unit unit);

/* What every JSON description of a stream starts with: index, source, target ... */
void sp_json_stream_head(json_object *o, const struct sp_stream *st);
/* What every JSON description of a trace starts with: id, state, error ... */
void sp_json_trace_head(json_object *o, const struct sp_trace *t);
/* The names of a counter table as a JSON array of strings; NULL when out of memory. */
json_object *sp_json_counter_names(const sp_counter_name *names, size_t n);

/*
 * The report of a trace: a line on the trace (state, sampler CPU per
 * sample, lost samples, name table changes), a line per stream (requested
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

#endif
