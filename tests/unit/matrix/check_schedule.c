// SPDX-License-Identifier: GPL-2.0
/*
 * matrix/schedule.c: the round-robin tournament (every pair with a path
 * once each way, no host in two tests of a round, its number of rounds),
 * pairs without a path left out, and the all and incast rounds.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/schedule.h"
#include "testutil.h"

static bool adj[SP_MX_HOSTS_MAX][SP_MX_HOSTS_MAX];

static void full_mesh(size_t n)
{
	size_t a, b;

	memset(adj, 0, sizeof(adj));
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			adj[a][b] = a != b;
}

/* A ring: each host to its two neighbours only. */
static void ring(size_t n)
{
	size_t a;

	memset(adj, 0, sizeof(adj));
	for (a = 0; a < n; a++) {
		adj[a][(a + 1) % n] = true;
		adj[(a + 1) % n][a] = true;
	}
}

static int schedule(size_t n, enum sp_mx_pattern p, struct sp_mx_schedule *s)
{
	return sp_mx_schedule(n, (const bool (*)[SP_MX_HOSTS_MAX])adj, p, s);
}

/* The pairs rounds: each allowed direction once, no host twice in a round. */
static void assert_tournament(const struct sp_mx_schedule *s, size_t n)
{
	unsigned int seen[SP_MX_HOSTS_MAX][SP_MX_HOSTS_MAX] = { { 0 } };
	bool busy[SP_MX_HOSTS_MAX];
	size_t r, k, a, b;

	for (r = 0; r < s->n; r++) {
		if (s->rounds[r].pattern != SP_MX_PAIRS)
			continue;
		ck_assert_uint_gt(s->rounds[r].n, 0);
		memset(busy, 0, sizeof(busy));
		for (k = 0; k < s->rounds[r].n; k++) {
			a = s->rounds[r].pairs[k].client;
			b = s->rounds[r].pairs[k].server;
			ck_assert_msg(!busy[a] && !busy[b], "round %zu: host %zu or %zu twice", r, a, b);
			busy[a] = busy[b] = true;
			seen[a][b]++;
		}
	}
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			ck_assert_msg(seen[a][b] == (adj[a][b] ? 1 : 0), "%zu -> %zu: %u times", a, b,
				      seen[a][b]);
}

START_TEST(test_full_mesh_counts)
{
	struct sp_mx_schedule s;
	size_t n = (size_t)_i;

	full_mesh(n);
	ck_assert_int_eq(schedule(n, SP_MX_PAIRS, &s), 0);
	assert_tournament(&s, n);
	/* circle method: n - 1 rounds (n for odd n, one host idle), each run both ways */
	ck_assert_uint_eq(s.n, n % 2 ? 2 * n : 2 * (n - 1));
	sp_mx_schedule_free(&s);
}
END_TEST

START_TEST(test_ring_no_path_left_out)
{
	struct sp_mx_schedule s;
	size_t r, k, total = 0;

	ring(6);
	ck_assert_int_eq(schedule(6, SP_MX_PAIRS, &s), 0);
	assert_tournament(&s, 6);
	for (r = 0; r < s.n; r++)
		for (k = 0; k < s.rounds[r].n; k++)
			total++;
	/* 6 links, both ways; the non-neighbours' pairs are no test */
	ck_assert_uint_eq(total, 12);
	ck_assert_uint_lt(s.n, 10);
	sp_mx_schedule_free(&s);
}
END_TEST

START_TEST(test_two_hosts_one_way)
{
	struct sp_mx_schedule s;

	memset(adj, 0, sizeof(adj));
	adj[1][0] = true;
	ck_assert_int_eq(schedule(2, SP_MX_PAIRS, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.rounds[0].n, 1);
	ck_assert_uint_eq(s.rounds[0].pairs[0].client, 1);
	ck_assert_uint_eq(s.rounds[0].pairs[0].server, 0);
	sp_mx_schedule_free(&s);
}
END_TEST

START_TEST(test_all_at_once)
{
	struct sp_mx_schedule s;
	const struct sp_mx_round *last;

	full_mesh(4);
	ck_assert_int_eq(schedule(4, SP_MX_ALL, &s), 0);
	assert_tournament(&s, 4);
	ck_assert_uint_eq(s.n, 6 + 1);
	last = &s.rounds[s.n - 1];
	ck_assert_int_eq(last->pattern, SP_MX_ALL);
	ck_assert_uint_eq(last->n, 12);
	sp_mx_schedule_free(&s);
}
END_TEST

START_TEST(test_incast)
{
	struct sp_mx_schedule s;
	size_t r, k, target;

	full_mesh(5);
	ck_assert_int_eq(schedule(5, SP_MX_INCAST, &s), 0);
	assert_tournament(&s, 5);
	ck_assert_uint_eq(s.n, 10 + 5);
	for (r = 10, target = 0; r < s.n; r++, target++) {
		ck_assert_int_eq(s.rounds[r].pattern, SP_MX_INCAST);
		ck_assert_uint_eq(s.rounds[r].n, 4);
		for (k = 0; k < 4; k++) {
			ck_assert_uint_eq(s.rounds[r].pairs[k].server, target);
			ck_assert_uint_ne(s.rounds[r].pairs[k].client, target);
		}
	}
	sp_mx_schedule_free(&s);
}
END_TEST

START_TEST(test_too_many_hosts)
{
	struct sp_mx_schedule s;

	ck_assert_int_eq(schedule(SP_MX_HOSTS_MAX + 1, SP_MX_PAIRS, &s), -EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_full_mesh_counts, 2, 9);
	tcase_add_test(tc, test_ring_no_path_left_out);
	tcase_add_test(tc, test_two_hosts_one_way);
	tcase_add_test(tc, test_all_at_once);
	tcase_add_test(tc, test_incast);
	tcase_add_test(tc, test_too_many_hosts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
