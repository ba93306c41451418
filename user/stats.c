// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>

#include "stats.h"

typedef unsigned __int128 u128;

long double sp_stats_mean(uint64_t count, uint64_t sum)
{
	if (!count)
		return 0;
	return (long double)sum / (long double)count;
}

long double sp_stats_variance(uint64_t count, uint64_t sum,
			      uint64_t sumsq_hi, uint64_t sumsq_lo)
{
	u128 sumsq = ((u128)sumsq_hi << 64) | sumsq_lo;
	u128 sq = (u128)sum * sum;	/* < 2^128: exact */
	u128 q, r, d;

	if (!count)
		return 0;
	q = sq / count;
	r = sq % count;
	/* sumsq >= sum^2 / count for any real data (Cauchy-Schwarz) */
	if (sumsq < q || (sumsq == q && r))
		return 0;
	d = sumsq - q;
	/* variance = (d - r / count) / count, with 0 <= r / count < 1 <= d when r > 0 */
	return ((long double)d - (long double)r / (long double)count) / (long double)count;
}

long double sp_stats_stdev(uint64_t count, uint64_t sum,
			   uint64_t sumsq_hi, uint64_t sumsq_lo)
{
	return sqrtl(sp_stats_variance(count, sum, sumsq_hi, sumsq_lo));
}

double sp_stats_one_way(double rtt_ns)
{
	return rtt_ns / 2;
}

double sp_stats_ns_to_us(double ns)
{
	return ns / 1000;
}

char *sp_stats_u128_str(uint64_t hi, uint64_t lo, char *buf, size_t len)
{
	u128 v = ((u128)hi << 64) | lo;
	char tmp[SP_U128_STRLEN];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	if (!len)
		return buf;
	if (n >= len) {
		snprintf(buf, len, "?");
		return buf;
	}
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return buf;
}
