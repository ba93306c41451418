/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace as the CLI receives it: its streams with every version of their
 * name tables, the samples in sequence order mapped to counters by name
 * (a counter keeps its identity across table changes), and the statistics
 * of the report: achieved sampling period (median, p99), read times,
 * sampler CPU, and per counter its first and last value, the increase
 * across wraps and resets, the mean and peak rates. Pure: no I/O.
 */
#ifndef SPARKPERF_CTL_TRACELOG_H
#define SPARKPERF_CTL_TRACELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracemodel.h"
#include "rate.h"

/* One version of a stream's name table: value i is counter map[i]. */
struct sp_tl_table {
	uint32_t version;
	sp_counter_name *names;
	size_t *map;
	size_t n;
};

struct sp_tl_counter {
	char name[SP_COUNTER_NAME_MAX];
	enum sp_counter_unit unit;
	uint64_t samples;		/* readings seen */
	uint64_t first, last;		/* raw values */
	uint64_t first_ts_ns, last_ts_ns;
	uint64_t delta;			/* increase from first to last */
	unsigned int wraps, resets;
	bool has_peak;
	double peak_rate;		/* in sp_counter_rate_unit(unit), between two readings */
	bool has_rate;
	double rate;			/* between the last two readings */
};

struct sp_tl_stream {
	struct sp_stream info;		/* newest table and the kernel's statistics */
	struct sp_tl_table *tables;
	size_t n_tables;
	struct sp_tl_counter *counters;
	size_t n_counters;
	uint64_t received;		/* samples mapped to their table */
	uint64_t unmapped;		/* samples of a table version never seen */
	uint64_t *gaps_ns;		/* between successive samples' timestamps */
	size_t n_gaps, cap_gaps;
	bool has_ts;
	uint64_t first_ts_ns, last_ts_ns;
	uint64_t read_ns_sum, read_ns_max;	/* of the samples received */
};

/* A sample kept for the writers, values copied. */
struct sp_tl_sample {
	uint64_t seq;
	uint32_t stream;
	uint32_t version;
	uint64_t ts_ns;
	uint32_t read_ns;
	uint64_t *values;
	size_t n;
};

struct sp_tracelog {
	struct sp_trace trace;		/* the newest TRACE_START / GET / END answer */
	struct sp_tl_stream *streams;
	size_t n_streams;
	bool keep;			/* keep every sample (for the writers) */
	struct sp_tl_sample *samples;
	size_t n_samples, cap_samples;
	uint64_t next_seq;		/* the sequence number expected next */
	uint64_t received;
	uint64_t lost;			/* never received: gaps in the sequence, LOST */
	unsigned int table_changes;	/* TRACE_TABLE messages followed */
};

/*
 * From the TRACE_START reply (t is copied): every stream's first table.
 * keep: keep the samples too. 0 or -ENOMEM (free it either way).
 */
int sp_tl_init(struct sp_tracelog *tl, const struct sp_trace *t, bool keep);
void sp_tl_free(struct sp_tracelog *tl);

/* A new table of a stream (TRACE_TABLE); a version already known is ignored. */
int sp_tl_table(struct sp_tracelog *tl, const struct sp_stream *st);

/*
 * The newest TRACE_GET or TRACE_END answer of the trace: its state and
 * statistics (the streams' tables are not replaced, only their counts).
 */
int sp_tl_update(struct sp_tracelog *tl, const struct sp_trace *t);

/*
 * One sample. Samples come in sequence order; one below next_seq (already
 * seen) is ignored, one above counts the skipped ones as lost.
 */
int sp_tl_add(struct sp_tracelog *tl, const struct sp_trace_sample *s);

/* Samples the kernel said it no longer had (SPARKPERF_A_TRACE_LOST). */
void sp_tl_lost(struct sp_tracelog *tl, uint64_t n);

/* The table of version of stream, or NULL. */
const struct sp_tl_table *sp_tl_find_table(const struct sp_tl_stream *st, uint32_t version);
/* The stream of index, or NULL. */
const struct sp_tl_stream *sp_tl_find_stream(const struct sp_tracelog *tl, uint32_t index);

struct sp_tl_stream_stats {
	uint64_t samples;		/* the kernel's count (else those received) */
	uint64_t missed;
	bool has_period;		/* two samples at least */
	uint64_t period_p50_ns;		/* nearest rank over the gaps */
	uint64_t period_p99_ns;
	uint64_t period_max_ns;
	bool has_read;
	double read_mean_ns;
	uint64_t read_max_ns;
	unsigned int versions;		/* name tables seen */
};

void sp_tl_stream_stats(const struct sp_tl_stream *st, struct sp_tl_stream_stats *s);

/* CPU ns of the sampler per sample (all streams); false when unknown. */
bool sp_tl_cpu_per_sample(const struct sp_tracelog *tl, double *ns);

/* The mean rate of a counter over its readings; false with fewer than two. */
bool sp_tl_counter_mean_rate(const struct sp_tl_counter *c, double *rate);

/*
 * A counter's increase in its unit: port_xmit_data and port_rcv_data count
 * 4-octet words, their delta is multiplied by 4 (see rate.c).
 */
uint64_t sp_tl_scaled_delta(const char *name, uint64_t delta);

/*
 * Nearest-rank percentile (0 < p <= 100) of v[0..n-1], sorted in place;
 * 0 for n == 0.
 */
uint64_t sp_tl_percentile(uint64_t *v, size_t n, double p);

#endif
