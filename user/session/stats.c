// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void sp_stats_rates(uint64_t bytes, uint64_t msgs, uint64_t ns, struct sp_rates *r)
{
	memset(r, 0, sizeof(*r));
	if (!ns)
		return;
	r->valid = true;
	r->gbit_per_s = 8.0 * (double)bytes / (double)ns;
	r->mb_per_s = 1000.0 * (double)bytes / (double)ns;
	r->msg_per_s = 1e9 * (double)msgs / (double)ns;
}

bool sp_stats_cpu_percent(uint64_t cpu_ns, uint64_t elapsed_ns, double *percent)
{
	if (!elapsed_ns)
		return false;
	*percent = 100.0 * (double)cpu_ns / (double)elapsed_ns;
	return true;
}

bool sp_stats_interval_gbps(const struct sp_interval *iv, uint64_t start_ns, double *gbps)
{
	if (iv->end_ns <= start_ns)
		return false;
	*gbps = 8.0 * (double)iv->bytes / (double)(iv->end_ns - start_ns);
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int sp_stats_intervals(const struct sp_interval *iv, size_t n, uint64_t start_ns,
		       struct sp_ivl_stats *st)
{
	double *rates;
	size_t i;

	memset(st, 0, sizeof(*st));
	if (!n)
		return 0;
	rates = calloc(n, sizeof(*rates));
	if (!rates)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (sp_stats_interval_gbps(&iv[i], start_ns, &rates[st->n]))
			st->n++;
		start_ns = iv[i].end_ns;
	}
	if (st->n) {
		qsort(rates, st->n, sizeof(*rates), cmp_double);
		st->min = rates[0];
		st->p50 = rates[(st->n + 1) / 2 - 1];
		st->max = rates[st->n - 1];
	}
	free(rates);
	return 0;
}

size_t sp_stats_bw_first_interval(const struct sp_bw *bw, uint64_t *start_ns)
{
	*start_ns = 0;
	if (bw->n_intervals < SPARKPERF_LAT_INTERVALS_MAX)
		return 0;
	*start_ns = bw->intervals[0].end_ns;
	return 1;
}

bool sp_stats_bw_interval_gbps(const struct sp_bw *bw, size_t i, double *gbps)
{
	uint64_t start;
	size_t first = sp_stats_bw_first_interval(bw, &start);

	if (i < first || i >= bw->n_intervals)
		return false;
	return sp_stats_interval_gbps(&bw->intervals[i], i ? bw->intervals[i - 1].end_ns : 0,
				      gbps);
}

int sp_stats_bw_intervals(const struct sp_bw *bw, struct sp_ivl_stats *st)
{
	uint64_t start, period_ns;
	size_t first = sp_stats_bw_first_interval(bw, &start);
	size_t n = bw->n_intervals - first;

	/*
	 * The last interval ends with the run. A sliver of one holds a burst
	 * of completions in a few ms: one 7 ms tail of six 1 MiB messages
	 * read 6.5 Gbit/s in a run of 0.5.
	 */
	period_ns = (uint64_t)(bw->cfg.has_interval ? bw->cfg.interval_ms :
			       SPARKPERF_BW_INTERVAL_MS_DEFAULT) * 1000000;
	if (n > 1 && bw->intervals[bw->n_intervals - 1].end_ns <
		     bw->intervals[bw->n_intervals - 2].end_ns + period_ns / 2)
		n--;
	return sp_stats_intervals(bw->intervals + first, n, start, st);
}

uint64_t sp_stats_bw_bytes(const struct sp_bw *bw)
{
	return bw->tx_bytes + bw->rx_bytes;
}

uint64_t sp_stats_bw_msgs(const struct sp_bw *bw)
{
	return bw->tx_msgs + bw->rx_msgs;
}

void sp_stats_bw_rates(const struct sp_bw *bw, struct sp_rates *r)
{
	sp_stats_rates(sp_stats_bw_bytes(bw), sp_stats_bw_msgs(bw), bw->elapsed_ns, r);
}

void sp_stats_bw_aggregate(const struct sp_bw *bws, size_t n, struct sp_bw_aggregate *a)
{
	uint64_t first = 0, last = 0;
	struct sp_rates r;
	double pct;
	size_t i;

	memset(a, 0, sizeof(*a));
	a->sessions = n;
	for (i = 0; i < n; i++) {
		const struct sp_bw *b = &bws[i];

		a->bytes += sp_stats_bw_bytes(b);
		a->msgs += sp_stats_bw_msgs(b);
		sp_stats_bw_rates(b, &r);
		if (r.valid) {
			a->rates.valid = true;
			a->rates.gbit_per_s += r.gbit_per_s;
			a->rates.mb_per_s += r.mb_per_s;
			a->rates.msg_per_s += r.msg_per_s;
		}
		if (b->has_start) {
			if (!a->has_skew || b->start_ns < first)
				first = b->start_ns;
			if (!a->has_skew || b->start_ns > last)
				last = b->start_ns;
			a->has_skew = true;
		}
		if (b->has_cpu && sp_stats_cpu_percent(b->cpu_ns, b->elapsed_ns, &pct)) {
			a->has_cpu = true;
			a->cpu_percent += pct;
		}
		if (b->has_validate_errors) {
			a->has_validate_errors = true;
			a->validate_errors += b->validate_errors;
		}
	}
	a->start_skew_ns = last - first;
}
