// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics of sparkperf-ctl (user/stats.c): mean and the exact standard
 * deviation from (count, sum, 128-bit sum of squares), on sequences whose
 * answers are known in closed form, and against a two-pass computation.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/stats.h"

typedef unsigned __int128 u128;

struct sums {
	uint64_t count;
	uint64_t sum;
	u128 sumsq;
};

static void sums_add(struct sums *s, uint64_t v)
{
	s->count++;
	s->sum += v;
	s->sumsq += (u128)v * v;
}

static long double stdev_of(const struct sums *s)
{
	return sp_stats_stdev(s->count, s->sum, (uint64_t)(s->sumsq >> 64), (uint64_t)s->sumsq);
}

static long double var_of(const struct sums *s)
{
	return sp_stats_variance(s->count, s->sum, (uint64_t)(s->sumsq >> 64),
				 (uint64_t)s->sumsq);
}

/* |got - want| <= rel * |want| (or <= rel when want is 0) */
static void assert_close(long double got, long double want, long double rel)
{
	long double tol = want == 0 ? rel : fabsl(want) * rel;

	ck_assert_msg(fabsl(got - want) <= tol, "got %.12Lg, want %.12Lg", got, want);
}

START_TEST(test_one_to_n)
{
	static const uint64_t ns[] = { 1, 2, 3, 10, 1000, 100000 };
	size_t i;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct sums s = { 0 };
		long double n = (long double)ns[i];
		uint64_t v;

		for (v = 1; v <= ns[i]; v++)
			sums_add(&s, v);
		ck_assert_uint_eq(s.sum, ns[i] * (ns[i] + 1) / 2);
		assert_close(sp_stats_mean(s.count, s.sum), (n + 1) / 2, 1e-15L);
		/* population variance of 1..n: (n^2 - 1) / 12 */
		assert_close(var_of(&s), (n * n - 1) / 12, 1e-12L);
		assert_close(stdev_of(&s), sqrtl((n * n - 1) / 12), 1e-12L);
	}
}
END_TEST

START_TEST(test_constant)
{
	static const uint64_t values[] = { 0, 1, 1470, 999999937, 4000000000ULL };
	size_t i, k;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct sums s = { 0 };

		for (k = 0; k < 12345; k++)
			sums_add(&s, values[i]);
		ck_assert(sp_stats_mean(s.count, s.sum) == (long double)values[i]);
		/* exactly zero: no rounding noise from the cancellation */
		ck_assert(var_of(&s) == 0);
		ck_assert(stdev_of(&s) == 0);
	}
}
END_TEST

START_TEST(test_two_points)
{
	struct sums s = { 0 };

	sums_add(&s, 1000);
	sums_add(&s, 3000);
	ck_assert(sp_stats_mean(s.count, s.sum) == 2000);
	ck_assert(var_of(&s) == 1000000);
	ck_assert(stdev_of(&s) == 1000);

	/* a single sample */
	memset(&s, 0, sizeof(s));
	sums_add(&s, 1471);
	ck_assert(sp_stats_mean(s.count, s.sum) == 1471);
	ck_assert(stdev_of(&s) == 0);

	/* 1 and 2: variance 1/4, a remainder in sum^2 / count */
	memset(&s, 0, sizeof(s));
	sums_add(&s, 1);
	sums_add(&s, 2);
	ck_assert(var_of(&s) == 0.25L);
	ck_assert(stdev_of(&s) == 0.5L);

	/* 1, 2, 2: mean 5/3, variance 2/9 */
	sums_add(&s, 2);
	assert_close(var_of(&s), 2.0L / 9, 1e-15L);
}
END_TEST

/*
 * Round trips of about a second: the sum of squares is about 1e24, far past
 * 2^64, and the variance is tiny next to it. A double computation of
 * sumsq/n - mean^2 would return noise of the order of 1e18 * 2^-52 = 200.
 */
START_TEST(test_sumsq_128)
{
	struct sums s = { 0 };
	uint64_t i;

	for (i = 0; i < 1000000; i++)
		sums_add(&s, i % 2 ? 1000000000ULL : 1000000002ULL);
	ck_assert(s.sumsq >> 64);	/* the high half is in use */
	ck_assert(sp_stats_mean(s.count, s.sum) == 1000000001.0L);
	ck_assert(var_of(&s) == 1);
	ck_assert(stdev_of(&s) == 1);

	/* 1e9 + k for k = 0 .. 999: variance (1000^2 - 1) / 12 */
	memset(&s, 0, sizeof(s));
	for (i = 0; i < 1000; i++)
		sums_add(&s, 1000000000ULL + i);
	assert_close(var_of(&s), (1000.0L * 1000 - 1) / 12, 1e-12L);

	/* values past 2^32 ns (4.3 s), a count that does not divide sum^2 */
	memset(&s, 0, sizeof(s));
	sums_add(&s, 5000000000ULL);
	sums_add(&s, 5000000001ULL);
	sums_add(&s, 5000000003ULL);
	/* deviations from the mean 5e9 + 4/3: -4/3, -1/3, 5/3 -> variance 14/9 */
	assert_close(var_of(&s), 14.0L / 9, 1e-12L);
}
END_TEST

/* xorshift64*: reproducible pseudo-random numbers */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

/* Against a two-pass computation (mean first, then squared deviations). */
START_TEST(test_random_two_pass)
{
	static uint64_t v[20000];
	struct sums s = { 0 };
	long double mean, acc = 0;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		/* mostly ~1.5 us, a tail up to ~1 ms */
		v[i] = 1400 + rnd() % 200;
		if (rnd() % 100 == 0)
			v[i] += rnd() % 1000000;
		sums_add(&s, v[i]);
	}
	mean = (long double)s.sum / s.count;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		acc += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	assert_close(var_of(&s), acc / s.count, 1e-9L);
	assert_close(sp_stats_mean(s.count, s.sum), mean, 1e-15L);
}
END_TEST

START_TEST(test_degenerate)
{
	/* no samples */
	ck_assert(sp_stats_mean(0, 0) == 0);
	ck_assert(sp_stats_variance(0, 0, 0, 0) == 0);
	ck_assert(sp_stats_stdev(0, 5, 1, 1) == 0);
	/* inconsistent sums (sumsq below sum^2 / count): 0, not NaN */
	ck_assert(sp_stats_variance(2, 10, 0, 10) == 0);
	ck_assert(sp_stats_stdev(2, 10, 0, 10) == 0);
	/* sumsq == floor(sum^2 / count) with a remainder: still inconsistent */
	ck_assert(sp_stats_variance(3, 2, 0, 1) == 0);
}
END_TEST

START_TEST(test_conversions)
{
	char buf[SP_U128_STRLEN];

	ck_assert(sp_stats_one_way(3) == 1.5);
	ck_assert(sp_stats_one_way(2940) == 1470);
	ck_assert(sp_stats_ns_to_us(1500) == 1.5);
	ck_assert(sp_stats_ns_to_us(0) == 0);
	ck_assert(sp_stats_ns_to_us(sp_stats_one_way(2941)) == 1.4705);

	ck_assert_str_eq(sp_stats_u128_str(0, 0, buf, sizeof(buf)), "0");
	ck_assert_str_eq(sp_stats_u128_str(0, 1234567, buf, sizeof(buf)), "1234567");
	ck_assert_str_eq(sp_stats_u128_str(1, 0, buf, sizeof(buf)), "18446744073709551616");
	ck_assert_str_eq(sp_stats_u128_str(UINT64_MAX, UINT64_MAX, buf, sizeof(buf)),
			 "340282366920938463463374607431768211455");
	/* too small a buffer: "?", not a cut number */
	ck_assert_str_eq(sp_stats_u128_str(1, 0, buf, 5), "?");
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stdev");

	tcase_add_test(tc, test_one_to_n);
	tcase_add_test(tc, test_constant);
	tcase_add_test(tc, test_two_points);
	tcase_add_test(tc, test_sumsq_128);
	tcase_add_test(tc, test_random_two_pass);
	tcase_add_test(tc, test_degenerate);
	suite_add_tcase(s, tc);

	tc = tcase_create("units");
	tcase_add_test(tc, test_conversions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
