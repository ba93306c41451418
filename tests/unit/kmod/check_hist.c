// SPDX-License-Identifier: GPL-2.0
/*
 * The module's latency histogram (kmod/hist.c, pure code built here in
 * userspace): its bucket layout, and its percentiles against brute-force
 * nearest-rank percentiles of the same data, for several distributions.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define N_SAMPLES 200000

/* xorshift64*: reproducible pseudo-random numbers */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

/* uniform in (0, 1] */
static double rnd01(void)
{
	return ((rnd() >> 11) + 1) * (1.0 / 9007199254740992.0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

enum dist {
	D_SMALL,	/* 0 .. 300 ns: the exact buckets and the first log ones */
	D_NORMALISH,	/* ~1.5 us, narrow: a typical RDMA round trip */
	D_LOGNORMAL,	/* a long right tail */
	D_PARETO,	/* heavy tail, alpha 1.1: up to seconds */
	D_BIMODAL,	/* 2 us and 80 us (a yield, an interrupt) */
	D_CONSTANT,
	D_HUGE,		/* around and past 2^40 ns: the last bucket */
	D_MAX
};

static uint64_t draw(enum dist d)
{
	double x;

	switch (d) {
	case D_SMALL:
		return rnd() % 301;
	case D_NORMALISH:
		/* sum of uniforms: approximately normal, mean 1500, sd ~ 29 */
		return 1400 + rnd() % 51 + rnd() % 51 + rnd() % 51 + rnd() % 51;
	case D_LOGNORMAL:
		x = sqrt(-2 * log(rnd01())) * cos(6.283185307179586 * rnd01());
		return (uint64_t)(2000 * exp(0.8 * x));
	case D_PARETO:
		return (uint64_t)(1000 / pow(rnd01(), 1 / 1.1));
	case D_BIMODAL:
		return rnd() % 10 ? 2000 + rnd() % 100 : 80000 + rnd() % 5000;
	case D_CONSTANT:
		return 1471;
	case D_HUGE:
		return (1ULL << 39) + rnd() % (1ULL << 41);
	default:
		return 0;
	}
}

static const struct {
	uint64_t num, den;
} pcts[] = {
	{ 0, 1 }, { 1, 100 }, { 10, 100 }, { 50, 100 }, { 90, 100 }, { 99, 100 },
	{ 999, 1000 }, { 9999, 10000 }, { 99999, 100000 }, { 999999, 1000000 },
	{ 1, 1 },
};

START_TEST(test_percentiles)
{
	static uint64_t v[N_SAMPLES];
	struct sp_hist *h = malloc(sizeof(*h));
	enum dist d = (enum dist)_i;
	uint64_t sum = 0, min = UINT64_MAX, max = 0;
	unsigned __int128 sumsq = 0;
	size_t i;

	ck_assert_ptr_nonnull(h);
	rnd_state = 0x9e3779b97f4a7c15ULL + (uint64_t)d;
	sp_hist_reset(h);
	for (i = 0; i < N_SAMPLES; i++) {
		v[i] = draw(d);
		sp_hist_add(h, v[i]);
		sum += v[i];
		sumsq += (unsigned __int128)v[i] * v[i];
		if (v[i] < min)
			min = v[i];
		if (v[i] > max)
			max = v[i];
	}
	ck_assert_uint_eq(h->count, N_SAMPLES);
	/* The copy of the used buckets into a zeroed one is the whole. */
	{
		struct sp_hist *c = calloc(1, sizeof(*c));

		ck_assert_ptr_nonnull(c);
		sp_hist_copy(c, h);
		ck_assert(memcmp(c, h, sizeof(*c)) == 0);
		free(c);
	}
	ck_assert_uint_eq(h->min, min);
	ck_assert_uint_eq(h->max, max);
	ck_assert_uint_eq(h->sum, sum);
	ck_assert(h->sumsq == sumsq);

	qsort(v, N_SAMPLES, sizeof(v[0]), cmp_u64);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		/* nearest rank: the ceil(n * p)-th smallest, at least the first */
		uint64_t rank = (N_SAMPLES * pcts[i].num + pcts[i].den - 1) / pcts[i].den;
		uint64_t exact, got, low, high;
		unsigned int b;

		if (!rank)
			rank = 1;
		exact = v[rank - 1];
		got = sp_hist_percentile(h, pcts[i].num, pcts[i].den);
		b = sp_hist_bucket(exact);
		low = sp_hist_bucket_low(b);
		high = sp_hist_bucket_high(b);
		ck_assert_msg(got >= low && got <= high,
			      "dist %d p%llu/%llu: exact %llu in bucket %u [%llu, %llu], got %llu",
			      (int)d, (unsigned long long)pcts[i].num,
			      (unsigned long long)pcts[i].den, (unsigned long long)exact, b,
			      (unsigned long long)low, (unsigned long long)high,
			      (unsigned long long)got);
		/* never outside the true extremes */
		ck_assert(got >= min && got <= max);
		/* within half a bucket: < 0.4% of the value past the exact buckets */
		if (b < SPARKPERF_HIST_BUCKETS - 1 && exact >= (1ULL << SPARKPERF_HIST_SUB_BITS)) {
			uint64_t err = got > exact ? got - exact : exact - got;

			ck_assert_msg(err * 256 <= exact + 256, "dist %d: %llu vs %llu", (int)d,
				      (unsigned long long)got, (unsigned long long)exact);
		}
		/* exact below 2^SUB_BITS ns */
		if (exact < (1ULL << SPARKPERF_HIST_SUB_BITS))
			ck_assert_uint_eq(got, exact);
	}
	free(h);
}
END_TEST

START_TEST(test_bucket_layout)
{
	unsigned int b;

	ck_assert_uint_eq(sp_hist_bucket_low(0), 0);
	for (b = 0; b < SPARKPERF_HIST_BUCKETS; b++) {
		uint64_t low = sp_hist_bucket_low(b), high = sp_hist_bucket_high(b);

		ck_assert_msg(low <= high, "bucket %u: [%llu, %llu]", b,
			      (unsigned long long)low, (unsigned long long)high);
		ck_assert_msg(sp_hist_bucket(low) == b, "low of bucket %u maps to %u", b,
			      sp_hist_bucket(low));
		ck_assert_msg(sp_hist_bucket(high) == b, "high of bucket %u maps to %u", b,
			      sp_hist_bucket(high));
		if (low > 0)
			ck_assert_uint_eq(sp_hist_bucket(low - 1), b - 1);
		if (b + 1 < SPARKPERF_HIST_BUCKETS) {
			/* contiguous, and at most 1/128 of its values wide */
			ck_assert_uint_eq(sp_hist_bucket_low(b + 1), high + 1);
			if (low >= (1ULL << SPARKPERF_HIST_SUB_BITS))
				ck_assert((high - low + 1) * 128 <= low);
			else
				ck_assert_uint_eq(high, low);
		}
	}
	/*
	 * The buckets tile [0, 2^MAX_BITS) exactly; values of 2^MAX_BITS and
	 * more share the top bucket, [2^MAX_BITS - 2^(MAX_BITS - SUB_BITS), inf).
	 */
	ck_assert_uint_eq(sp_hist_bucket_high(SPARKPERF_HIST_BUCKETS - 1), UINT64_MAX);
	ck_assert_uint_eq(sp_hist_bucket_low(SPARKPERF_HIST_BUCKETS - 1),
			  (1ULL << SPARKPERF_HIST_MAX_BITS) -
			  (1ULL << (SPARKPERF_HIST_MAX_BITS - SPARKPERF_HIST_SUB_BITS)));
	ck_assert_uint_eq(sp_hist_bucket(UINT64_MAX), SPARKPERF_HIST_BUCKETS - 1);
	ck_assert_uint_eq(sp_hist_bucket(1ULL << SPARKPERF_HIST_MAX_BITS),
			  SPARKPERF_HIST_BUCKETS - 1);
	ck_assert_uint_eq(sp_hist_bucket((1ULL << SPARKPERF_HIST_MAX_BITS) - 1),
			  SPARKPERF_HIST_BUCKETS - 1);
}
END_TEST

START_TEST(test_empty_and_one)
{
	struct sp_hist *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	sp_hist_reset(h);
	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(sp_hist_percentile(h, 50, 100), 0);
	sp_hist_add(h, 123456789);
	/* one sample: every percentile is it (clamped to min and max) */
	ck_assert_uint_eq(sp_hist_percentile(h, 0, 1), 123456789);
	ck_assert_uint_eq(sp_hist_percentile(h, 50, 100), 123456789);
	ck_assert_uint_eq(sp_hist_percentile(h, 99999, 100000), 123456789);
	ck_assert_uint_eq(sp_hist_percentile(h, 1, 1), 123456789);
	free(h);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("layout");

	tcase_add_test(tc, test_bucket_layout);
	tcase_add_test(tc, test_empty_and_one);
	suite_add_tcase(s, tc);

	tc = tcase_create("percentiles");
	tcase_set_timeout(tc, 60);	/* valgrind */
	tcase_add_loop_test(tc, test_percentiles, 0, D_MAX);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hist_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
