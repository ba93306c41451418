/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics of round trip times and of bandwidth sessions, from what the
 * module reports: pure functions, no I/O. Times are in nanoseconds unless a
 * name says otherwise; rates use decimal prefixes (G = 10^9, M = 10^6).
 */
#ifndef SPARKPERF_CTL_STATS_H
#define SPARKPERF_CTL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"

/* sum / count; 0 when count is 0. */
long double sp_stats_mean(uint64_t count, uint64_t sum);

/*
 * Population variance (divided by count, as perftest does) computed exactly
 * from the count, the sum and the 128-bit sum of squares:
 *
 *	variance = (sumsq - sum^2 / count) / count
 *
 * sum^2 / count is split into an exact quotient and remainder in 128-bit
 * integers, so the cancellation between sumsq and sum^2 / count loses
 * nothing; only the last division is in long double. 0 when count is 0, or
 * when the sums are inconsistent (sumsq below sum^2 / count).
 */
long double sp_stats_variance(uint64_t count, uint64_t sum,
			      uint64_t sumsq_hi, uint64_t sumsq_lo);

/* sqrt of the above. */
long double sp_stats_stdev(uint64_t count, uint64_t sum,
			   uint64_t sumsq_hi, uint64_t sumsq_lo);

/* One-way latency: half the round trip. */
double sp_stats_one_way(double rtt_ns);

/* ns -> usec */
double sp_stats_ns_to_us(double ns);

/* A 128-bit unsigned integer in decimal: buf needs 40 bytes. Returns buf. */
#define SP_U128_STRLEN 40
char *sp_stats_u128_str(uint64_t hi, uint64_t lo, char *buf, size_t len);

/* Rates of bytes and messages moved in ns nanoseconds. */
struct sp_rates {
	bool valid;		/* ns > 0; the rates are 0 otherwise */
	double gbit_per_s;	/* 8 * bytes / ns: 10^9 bit/s */
	double mb_per_s;	/* 1000 * bytes / ns: 10^6 byte/s */
	double msg_per_s;	/* 10^9 * msgs / ns */
};

void sp_stats_rates(uint64_t bytes, uint64_t msgs, uint64_t ns, struct sp_rates *r);

/*
 * CPU time as a percentage of one CPU over the elapsed time (200: two CPUs
 * busy all along): 100 * cpu_ns / elapsed_ns. false when elapsed_ns is 0.
 */
bool sp_stats_cpu_percent(uint64_t cpu_ns, uint64_t elapsed_ns, double *percent);

/*
 * The rate of one interval that started at start_ns (the end of the one
 * before, 0 for the first of a run): 8 * bytes / (end_ns - start_ns),
 * Gbit/s. false for an interval of no length (or ending before it started).
 */
bool sp_stats_interval_gbps(const struct sp_interval *iv, uint64_t start_ns, double *gbps);

/* The rates of a series of intervals. */
struct sp_ivl_stats {
	size_t n;		/* intervals with a length; 0: min, p50, max unset */
	double min;		/* Gbit/s */
	double p50;		/* nearest rank: the ceil(n / 2)-th smallest */
	double max;
};

/*
 * Over iv[0..n-1], the first starting at start_ns, each of the others at the
 * end of the one before; intervals of no length (or of a negative one) are
 * left out. 0 or -ENOMEM.
 */
int sp_stats_intervals(const struct sp_interval *iv, size_t n, uint64_t start_ns,
		       struct sp_ivl_stats *st);

/*
 * The first interval of a bandwidth session whose start is known, and that
 * start: 0 and 0 (START_NS), unless the module kept only the last
 * SPARKPERF_LAT_INTERVALS_MAX, in which case the first kept one only gives
 * the start of the second: 1 and its end.
 */
size_t sp_stats_bw_first_interval(const struct sp_bw *bw, uint64_t *start_ns);

/* The rate of interval i of a session; false when unknown (see above). */
bool sp_stats_bw_interval_gbps(const struct sp_bw *bw, size_t i, double *gbps);

/*
 * The interval rates of a session, from sp_stats_bw_first_interval() on;
 * the last is left out when it is shorter than half the session's interval
 * and not the only one.
 */
int sp_stats_bw_intervals(const struct sp_bw *bw, struct sp_ivl_stats *st);

/* Payload both ways: TX + RX bytes and messages, their rates over elapsed_ns. */
uint64_t sp_stats_bw_bytes(const struct sp_bw *bw);
uint64_t sp_stats_bw_msgs(const struct sp_bw *bw);
void sp_stats_bw_rates(const struct sp_bw *bw, struct sp_rates *r);

/* Sessions that ran side by side, added up. */
struct sp_bw_aggregate {
	size_t sessions;
	uint64_t bytes;
	uint64_t msgs;
	struct sp_rates rates;	/* sums of the sessions' rates; valid if any is */
	bool has_skew;		/* at least one session reported its start */
	uint64_t start_skew_ns;	/* latest start - earliest start */
	bool has_cpu;		/* any session reported its CPU time */
	double cpu_percent;	/* sum, 100 = one CPU */
	bool has_validate_errors;
	uint64_t validate_errors;
};

void sp_stats_bw_aggregate(const struct sp_bw *bws, size_t n, struct sp_bw_aggregate *a);

#endif
