// SPDX-License-Identifier: GPL-2.0
/*
 * Bandwidth arithmetic of sparkperf-ctl (user/stats.c): rates with decimal
 * prefixes, CPU time as a share of one CPU, interval rates and their min,
 * median and max (one interval, intervals of no length, a list the module
 * cut to its last SPARKPERF_LAT_INTERVALS_MAX), the aggregate of sessions
 * run side by side (started at different times, with missing reports), and
 * sizes as the tables print them.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "session/stats.h"

static void assert_near(double got, double want)
{
	ck_assert_msg(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12, "got %.12g, want %.12g",
		      got, want);
}

START_TEST(test_rates)
{
	struct sp_rates r;

	/* 1.25 GB in one second: 10 Gbit/s, 1250 MB/s (10^6, not 2^20) */
	sp_stats_rates(1250000000, 1000000, 1000000000, &r);
	ck_assert(r.valid);
	assert_near(r.gbit_per_s, 10);
	assert_near(r.mb_per_s, 1250);
	assert_near(r.msg_per_s, 1e6);
	/* gbit_per_s = bytes * 8 / ns, mb_per_s = bytes * 1000 / ns */
	sp_stats_rates(13107200, 200, 20971520, &r);
	assert_near(r.gbit_per_s, 13107200.0 * 8 / 20971520);
	assert_near(r.mb_per_s, 13107200.0 * 1000 / 20971520);
	assert_near(r.msg_per_s, 200 * 1e9 / 20971520);
	/* nothing timed: no rate */
	sp_stats_rates(100, 1, 0, &r);
	ck_assert(!r.valid);
	ck_assert(r.gbit_per_s == 0 && r.mb_per_s == 0 && r.msg_per_s == 0);
}
END_TEST

START_TEST(test_cpu_percent)
{
	double pct = -1;

	ck_assert(sp_stats_cpu_percent(500, 1000, &pct));
	assert_near(pct, 50);
	/* two threads busy all along: two CPUs */
	ck_assert(sp_stats_cpu_percent(2000000000, 1000000000, &pct));
	assert_near(pct, 200);
	ck_assert(sp_stats_cpu_percent(0, 1000, &pct));
	assert_near(pct, 0);
	pct = -1;
	ck_assert(!sp_stats_cpu_percent(5, 0, &pct));
	ck_assert(pct == -1);
}
END_TEST

START_TEST(test_interval_gbps)
{
	struct sp_interval iv = { .end_ns = 3000, .bytes = 1250 };
	double g = -1;

	ck_assert(sp_stats_interval_gbps(&iv, 2000, &g));
	assert_near(g, 10);
	ck_assert(sp_stats_interval_gbps(&iv, 0, &g));
	assert_near(g, 1250.0 * 8 / 3000);
	g = -1;
	ck_assert(!sp_stats_interval_gbps(&iv, 3000, &g));	/* no length */
	ck_assert(!sp_stats_interval_gbps(&iv, 4000, &g));	/* before its start */
	ck_assert(g == -1);
}
END_TEST

START_TEST(test_intervals_one)
{
	struct sp_interval iv = { .end_ns = 100000000, .count = 10, .bytes = 125000000 };
	struct sp_ivl_stats st;

	/* the first interval starts at 0: 1 Gbit in 0.1 s */
	ck_assert_int_eq(sp_stats_intervals(&iv, 1, 0, &st), 0);
	ck_assert_uint_eq(st.n, 1);
	assert_near(st.min, 10);
	assert_near(st.p50, 10);
	assert_near(st.max, 10);
}
END_TEST

START_TEST(test_intervals_median)
{
	/* 8, 12, 10 Gbit/s over 1000, 1000, 2000 ns */
	struct sp_interval three[] = {
		{ .end_ns = 1000, .bytes = 1000 },
		{ .end_ns = 2000, .bytes = 1500 },
		{ .end_ns = 4000, .bytes = 2500 },
	};
	/* 1, 4, 2, 3 Gbit/s from 500 ns on, 1000 ns each */
	struct sp_interval four[] = {
		{ .end_ns = 1500, .bytes = 125 },
		{ .end_ns = 2500, .bytes = 500 },
		{ .end_ns = 3500, .bytes = 250 },
		{ .end_ns = 4500, .bytes = 375 },
	};
	struct sp_ivl_stats st;

	ck_assert_int_eq(sp_stats_intervals(three, 3, 0, &st), 0);
	ck_assert_uint_eq(st.n, 3);
	assert_near(st.min, 8);
	assert_near(st.p50, 10);
	assert_near(st.max, 12);
	/* an even count: the lower middle (nearest rank) */
	ck_assert_int_eq(sp_stats_intervals(four, 4, 500, &st), 0);
	ck_assert_uint_eq(st.n, 4);
	assert_near(st.min, 1);
	assert_near(st.p50, 2);
	assert_near(st.max, 4);
}
END_TEST

START_TEST(test_intervals_no_length)
{
	/* the second ends where the first did, the last before the one before */
	struct sp_interval iv[] = {
		{ .end_ns = 1000, .bytes = 1000 },
		{ .end_ns = 1000, .bytes = 50 },
		{ .end_ns = 2000, .bytes = 2000 },
		{ .end_ns = 1500, .bytes = 1 },
	};
	struct sp_ivl_stats st;

	ck_assert_int_eq(sp_stats_intervals(iv, 4, 0, &st), 0);
	ck_assert_uint_eq(st.n, 2);
	assert_near(st.min, 8);
	assert_near(st.max, 16);
	/* none with a length: nothing to say */
	ck_assert_int_eq(sp_stats_intervals(iv, 2, 1000, &st), 0);
	ck_assert_uint_eq(st.n, 0);
	ck_assert_int_eq(sp_stats_intervals(NULL, 0, 0, &st), 0);
	ck_assert_uint_eq(st.n, 0);
}
END_TEST

/* A list cut to its last SPARKPERF_LAT_INTERVALS_MAX: the first one's start is unknown. */
START_TEST(test_bw_intervals_cut)
{
	struct sp_bw b = { 0 };
	struct sp_ivl_stats st;
	uint64_t start = 1;
	double g;
	size_t i;

	b.cfg.has_interval = true;
	b.cfg.interval_ms = 1;
	b.n_intervals = 2;
	b.intervals = calloc(SPARKPERF_LAT_INTERVALS_MAX, sizeof(*b.intervals));
	ck_assert_ptr_nonnull(b.intervals);
	b.intervals[0] = (struct sp_interval){ .end_ns = 1000000, .bytes = 1000000 };
	b.intervals[1] = (struct sp_interval){ .end_ns = 2000000, .bytes = 2000000 };
	ck_assert_uint_eq(sp_stats_bw_first_interval(&b, &start), 0);
	ck_assert_uint_eq(start, 0);
	ck_assert(sp_stats_bw_interval_gbps(&b, 0, &g));
	assert_near(g, 8);
	ck_assert(sp_stats_bw_interval_gbps(&b, 1, &g));
	assert_near(g, 16);
	ck_assert(!sp_stats_bw_interval_gbps(&b, 2, &g));
	ck_assert_int_eq(sp_stats_bw_intervals(&b, &st), 0);
	ck_assert_uint_eq(st.n, 2);

	/* 1000 kept, from 5 s on: the first only says where the second starts */
	b.n_intervals = SPARKPERF_LAT_INTERVALS_MAX;
	for (i = 0; i < b.n_intervals; i++)
		b.intervals[i] = (struct sp_interval){ .end_ns = 5000000000ULL + 1000000 * i,
						       .bytes = i ? 1250000 : 99999999 };
	ck_assert_uint_eq(sp_stats_bw_first_interval(&b, &start), 1);
	ck_assert_uint_eq(start, 5000000000ULL);
	ck_assert(!sp_stats_bw_interval_gbps(&b, 0, &g));
	ck_assert(sp_stats_bw_interval_gbps(&b, 1, &g));
	assert_near(g, 10);
	ck_assert_int_eq(sp_stats_bw_intervals(&b, &st), 0);
	ck_assert_uint_eq(st.n, SPARKPERF_LAT_INTERVALS_MAX - 1);
	assert_near(st.max, 10);
	sp_bw_free(&b);
}
END_TEST

/* The run's last interval: a sliver of one is not a rate of the series. */
START_TEST(test_bw_intervals_tail)
{
	/* 100 ms intervals of 1, 2 and 3 MiB, then a tail of 6 MiB */
	static const uint64_t mib = 1048576, ms = 1000000;
	struct sp_interval iv[] = {
		{ .end_ns = 100 * ms, .bytes = 1 * mib },
		{ .end_ns = 200 * ms, .bytes = 2 * mib },
		{ .end_ns = 300 * ms, .bytes = 3 * mib },
		{ .end_ns = 0, .bytes = 6 * mib },
	};
	struct sp_bw b = { .intervals = iv, .n_intervals = 4 };
	struct sp_ivl_stats st;
	double g;

	/* 7 ms, under half of the default 100: the series keeps it, the stats do not */
	iv[3].end_ns = 307 * ms;
	ck_assert(sp_stats_bw_interval_gbps(&b, 3, &g));
	assert_near(g, 8.0 * 6 * mib / (7 * ms));
	ck_assert_int_eq(sp_stats_bw_intervals(&b, &st), 0);
	ck_assert_uint_eq(st.n, 3);
	assert_near(st.max, 8.0 * 3 * mib / (100 * ms));
	/* half of one and more is an interval */
	iv[3].end_ns = 350 * ms;
	ck_assert_int_eq(sp_stats_bw_intervals(&b, &st), 0);
	ck_assert_uint_eq(st.n, 4);
	assert_near(st.max, 8.0 * 6 * mib / (50 * ms));
	/* against the session's own interval: 50 ms is a sliver of 250 */
	b.cfg.has_interval = true;
	b.cfg.interval_ms = 250;
	ck_assert_int_eq(sp_stats_bw_intervals(&b, &st), 0);
	ck_assert_uint_eq(st.n, 3);
	/* a run shorter than half an interval still has its one rate */
	b.n_intervals = 1;
	iv[0].end_ns = 7 * ms;
	ck_assert_int_eq(sp_stats_bw_intervals(&b, &st), 0);
	ck_assert_uint_eq(st.n, 1);
	assert_near(st.min, 8.0 * mib / (7 * ms));
}
END_TEST

static struct sp_bw session(uint64_t tx, uint64_t rx, uint64_t elapsed, uint64_t start)
{
	struct sp_bw b = {
		.tx_bytes = tx, .rx_bytes = rx, .tx_msgs = tx / 1000, .rx_msgs = rx / 1000,
		.elapsed_ns = elapsed, .has_start = true, .start_ns = start,
	};

	return b;
}

START_TEST(test_aggregate)
{
	struct sp_bw b[3];
	struct sp_bw_aggregate a;
	struct sp_rates r;

	/* 10 Gbit/s started at t, 5 Gbit/s (both ways) started 2.5 us later */
	b[0] = session(1250000000, 0, 1000000000, 7000000000ULL);
	b[1] = session(312500000, 312500000, 1000000000, 7000002500ULL);
	b[0].has_cpu = b[1].has_cpu = true;
	b[0].cpu_ns = 1000000000;
	b[1].cpu_ns = 250000000;
	b[1].has_validate_errors = true;
	b[1].validate_errors = 3;
	ck_assert_uint_eq(sp_stats_bw_bytes(&b[1]), 625000000);
	ck_assert_uint_eq(sp_stats_bw_msgs(&b[1]), 625000);
	sp_stats_bw_rates(&b[1], &r);
	assert_near(r.gbit_per_s, 5);
	sp_stats_bw_aggregate(b, 2, &a);
	ck_assert_uint_eq(a.sessions, 2);
	ck_assert_uint_eq(a.bytes, 1875000000);
	ck_assert_uint_eq(a.msgs, 1875000);
	ck_assert(a.rates.valid);
	assert_near(a.rates.gbit_per_s, 15);
	assert_near(a.rates.mb_per_s, 1875);
	assert_near(a.rates.msg_per_s, 1875000);
	ck_assert(a.has_skew);
	ck_assert_uint_eq(a.start_skew_ns, 2500);
	ck_assert(a.has_cpu);
	assert_near(a.cpu_percent, 125);
	ck_assert(a.has_validate_errors);
	ck_assert_uint_eq(a.validate_errors, 3);

	/* rates are summed, not recomputed: different lengths add up as rates */
	b[1].elapsed_ns = 500000000;
	sp_stats_bw_aggregate(b, 2, &a);
	assert_near(a.rates.gbit_per_s, 20);

	/* the later one listed first, a third that never started (failed) */
	b[2] = b[0];
	b[0] = b[1];
	b[1] = b[2];
	b[2] = session(0, 0, 0, 0);
	b[2].has_start = false;
	sp_stats_bw_aggregate(b, 3, &a);
	ck_assert_uint_eq(a.sessions, 3);
	ck_assert_uint_eq(a.start_skew_ns, 2500);
	assert_near(a.rates.gbit_per_s, 20);
}
END_TEST

START_TEST(test_aggregate_edges)
{
	struct sp_bw b[2];
	struct sp_bw_aggregate a;

	/* one session: no skew to speak of */
	b[0] = session(1000, 0, 1000, 42);
	sp_stats_bw_aggregate(b, 1, &a);
	ck_assert(a.has_skew);
	ck_assert_uint_eq(a.start_skew_ns, 0);
	assert_near(a.rates.gbit_per_s, 8);
	ck_assert(!a.has_cpu && !a.has_validate_errors);

	/* nothing timed, no start reported */
	b[0] = session(0, 0, 0, 0);
	b[1] = session(0, 0, 0, 0);
	b[0].has_start = b[1].has_start = false;
	b[1].has_cpu = true;	/* CPU time, but no elapsed time to relate it to */
	sp_stats_bw_aggregate(b, 2, &a);
	ck_assert(!a.rates.valid);
	ck_assert(!a.has_skew);
	ck_assert(!a.has_cpu);
	ck_assert_uint_eq(a.bytes, 0);

	sp_stats_bw_aggregate(NULL, 0, &a);
	ck_assert_uint_eq(a.sessions, 0);
	ck_assert(!a.rates.valid);
}
END_TEST

START_TEST(test_fmt_size)
{
	char buf[SP_SIZE_STRLEN];
	uint64_t v;

	ck_assert_str_eq(sp_fmt_size(65536, buf, sizeof(buf)), "64KiB");
	ck_assert_str_eq(sp_fmt_size(8 << 20, buf, sizeof(buf)), "8MiB");
	ck_assert_str_eq(sp_fmt_size(1ULL << 30, buf, sizeof(buf)), "1GiB");
	ck_assert_str_eq(sp_fmt_size(1536, buf, sizeof(buf)), "1536B");
	ck_assert_str_eq(sp_fmt_size(1000, buf, sizeof(buf)), "1000B");
	ck_assert_str_eq(sp_fmt_size(0, buf, sizeof(buf)), "0B");
	ck_assert_str_eq(sp_fmt_size(3 << 10, buf, sizeof(buf)), "3KiB");
	/* what it prints reads back */
	ck_assert_int_eq(sp_parse_size(sp_fmt_size(12288, buf, sizeof(buf)), 1, 1 << 30, &v), 0);
	ck_assert_uint_eq(v, 12288);
}
END_TEST

static Suite *bwstats_suite(void)
{
	Suite *s = suite_create("bwstats");
	TCase *tc = tcase_create("rates");

	tcase_add_test(tc, test_rates);
	tcase_add_test(tc, test_cpu_percent);
	tcase_add_test(tc, test_fmt_size);
	suite_add_tcase(s, tc);

	tc = tcase_create("intervals");
	tcase_add_test(tc, test_interval_gbps);
	tcase_add_test(tc, test_intervals_one);
	tcase_add_test(tc, test_intervals_median);
	tcase_add_test(tc, test_intervals_no_length);
	tcase_add_test(tc, test_bw_intervals_cut);
	tcase_add_test(tc, test_bw_intervals_tail);
	suite_add_tcase(s, tc);

	tc = tcase_create("aggregate");
	tcase_add_test(tc, test_aggregate);
	tcase_add_test(tc, test_aggregate_edges);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bwstats_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
