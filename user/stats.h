/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics of round trip times, from what the module reports: pure
 * functions, no I/O. Times are in nanoseconds unless a name says otherwise.
 */
#ifndef SPARKPERF_CTL_STATS_H
#define SPARKPERF_CTL_STATS_H

#include <stddef.h>
#include <stdint.h>

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

#endif
