/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear latency histogram (layout in include/uapi/linux/sparkperf.h).
 * Pure code: the unit tests build hist.c in userspace.
 */
#ifndef SP_HIST_H
#define SP_HIST_H

#include <linux/types.h>
#include <linux/sparkperf.h>

#ifdef __KERNEL__
#include <linux/bitops.h>
#else
static inline int fls64(__u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
#endif

struct sp_hist {
	__u64 count;
	__u64 min;
	__u64 max;
	__u64 sum;
	__uint128_t sumsq;
	__u64 buckets[SPARKPERF_HIST_BUCKETS];
};

static inline unsigned int sp_hist_bucket(__u64 value)
{
	unsigned int shift;

	if (value < (1ULL << SPARKPERF_HIST_SUB_BITS))
		return value;
	if (value >= (1ULL << SPARKPERF_HIST_MAX_BITS))
		return SPARKPERF_HIST_BUCKETS - 1;
	shift = fls64(value) - SPARKPERF_HIST_SUB_BITS;
	return (shift << (SPARKPERF_HIST_SUB_BITS - 1)) + (value >> shift);
}

/* The hot path: a few instructions, no branches beyond the bucket's. */
static inline void sp_hist_add(struct sp_hist *hist, __u64 value)
{
	if (value < hist->min)
		hist->min = value;
	if (value > hist->max)
		hist->max = value;
	hist->count++;
	hist->sum += value;
	hist->sumsq += (__uint128_t)value * value;
	hist->buckets[sp_hist_bucket(value)]++;
}

void sp_hist_reset(struct sp_hist *hist);
void sp_hist_copy(struct sp_hist *to, const struct sp_hist *from);
__u64 sp_hist_bucket_low(unsigned int bucket);
__u64 sp_hist_bucket_high(unsigned int bucket);
__u64 sp_hist_percentile(const struct sp_hist *hist, __u64 num, __u64 den);

#endif /* SP_HIST_H */
