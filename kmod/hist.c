// SPDX-License-Identifier: GPL-2.0
/*
 * Log-linear latency histogram: exact below 2^SUB_BITS ns, then
 * 2^(SUB_BITS - 1) buckets per power of two, so a bucket is at most 1/128
 * of its values wide; with 40 bits it spans 18 minutes in 35 KiB.
 */

#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "hist.h"

#define SP_HIST_HALF (1U << (SPARKPERF_HIST_SUB_BITS - 1))

void sp_hist_reset(struct sp_hist *hist)
{
	memset(hist, 0, sizeof(*hist));
	hist->min = ~0ULL;
}

/*
 * @to, zeroed, becomes a copy of @from: the buckets from its minimum's to
 * its maximum's only, the others being zero, so that a copy under a lock
 * costs what the run has spread over, not 35 KiB.
 */
void sp_hist_copy(struct sp_hist *to, const struct sp_hist *from)
{
	unsigned int first, last;

	to->count = from->count;
	to->min = from->min;
	to->max = from->max;
	to->sum = from->sum;
	to->sumsq = from->sumsq;
	if (!from->count)
		return;
	first = sp_hist_bucket(from->min);
	last = sp_hist_bucket(from->max);
	memcpy(&to->buckets[first], &from->buckets[first],
	       (last - first + 1) * sizeof(from->buckets[0]));
}

__u64 sp_hist_bucket_low(unsigned int bucket)
{
	unsigned int shift;

	if (bucket < 2 * SP_HIST_HALF)
		return bucket;
	shift = bucket / SP_HIST_HALF - 1;
	return (__u64)(bucket - shift * SP_HIST_HALF) << shift;
}

__u64 sp_hist_bucket_high(unsigned int bucket)
{
	if (bucket >= SPARKPERF_HIST_BUCKETS - 1)
		return ~0ULL;
	return sp_hist_bucket_low(bucket + 1) - 1;
}

/*
 * The nearest-rank percentile num/den (99999/100000 for p99.999): the middle
 * of the bucket holding the ceil(count * num / den)-th smallest value,
 * clamped to the true extremes.
 */
__u64 sp_hist_percentile(const struct sp_hist *hist, __u64 num, __u64 den)
{
	__u64 rank, seen = 0, low, high, mid;
	unsigned int bucket;

	if (!hist->count)
		return 0;
	rank = (hist->count * num + den - 1) / den;
	if (!rank)
		rank = 1;

	for (bucket = 0; bucket < SPARKPERF_HIST_BUCKETS; bucket++) {
		seen += hist->buckets[bucket];
		if (seen >= rank)
			break;
	}
	if (bucket >= SPARKPERF_HIST_BUCKETS)
		return hist->max;

	low = sp_hist_bucket_low(bucket);
	high = sp_hist_bucket_high(bucket);
	if (low < hist->min)
		low = hist->min;
	if (high > hist->max)
		high = hist->max;
	mid = low + (high - low) / 2;
	return mid;
}
