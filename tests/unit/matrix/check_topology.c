// SPDX-License-Identifier: GPL-2.0
/*
 * matrix/topology.c: the candidates (halves that share a subnet) and the
 * cabling named from the links: switched, direct, a triangle crossed as
 * it must be and one cabled p0 to p0 (the known mistake, named), a ring
 * whose non-neighbours have no direct path, and mixed.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/topology.h"
#include "testutil.h"

static struct sp_mx_doc *d;

static void setup(void)
{
	d = sp_mx_doc_new();
	ck_assert_ptr_nonnull(d);
}

static void teardown(void)
{
	sp_mx_doc_free(d);
}

/* Every candidate reached: the links are the candidates. */
static void classify(void)
{
	ck_assert_int_eq(sp_mx_candidates(d), 0);
	sp_mx_topology(d);
}

START_TEST(test_switched)
{
	mx_host(d, "s1", "rxe0 eth0 192.168.200.11/24", "rxe1 eth1 192.168.201.11/24", NULL);
	mx_host(d, "s2", "rxe0 eth0 192.168.200.12/24", "rxe1 eth1 192.168.201.12/24", NULL);
	mx_host(d, "s3", "rxe0 eth0 192.168.200.13/24", "rxe1 eth1 192.168.201.13/24", NULL);
	mx_host(d, "s4", "rxe0 eth0 192.168.200.14/24", "rxe1 eth1 192.168.201.14/24", NULL);
	classify();
	/* 4 hosts, 2 halves each on its subnet: 12 ordered pairs of hosts x 2 */
	ck_assert_uint_eq(d->n_links, 24);
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_SWITCHED);
	ck_assert_str_eq(sp_mx_cabling_str(d->topo.cabling), "switched");
	ck_assert(d->topo.direct[0][3] && d->topo.direct[3][0]);
	ck_assert_str_eq(d->topo.mistake, "");
}
END_TEST

START_TEST(test_direct)
{
	mx_host(d, "spark1", "rocep1s0f1 enp1s0f1np1 192.168.200.12/24", NULL);
	mx_host(d, "spark2", "rocep1s0f1 enp1s0f1np1 192.168.200.13/24", NULL);
	classify();
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_DIRECT);
}
END_TEST

/* A Spark's port p0 and p1, one half each, /30s per cable. */
#define P0(a) "rocep1s0f0 enp1s0f0np0 " a "/30"
#define P1(a) "rocep1s0f1 enp1s0f1np1 " a "/30"

START_TEST(test_ring_of_four)
{
	/* a.p1 - b.p0, b.p1 - c.p0, c.p1 - d.p0, d.p1 - a.p0 */
	mx_host(d, "a", P0("10.0.3.2"), P1("10.0.0.1"), NULL);
	mx_host(d, "b", P0("10.0.0.2"), P1("10.0.1.1"), NULL);
	mx_host(d, "c", P0("10.0.1.2"), P1("10.0.2.1"), NULL);
	mx_host(d, "d", P0("10.0.2.2"), P1("10.0.3.1"), NULL);
	classify();
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_RING);
	ck_assert(d->topo.direct[0][1] && d->topo.direct[0][3]);
	/* the non-neighbours: no direct path, which is no failure */
	ck_assert(!d->topo.direct[0][2] && !d->topo.direct[1][3]);
	ck_assert_str_eq(d->topo.mistake, "");
}
END_TEST

START_TEST(test_triangle_crossed)
{
	mx_host(d, "a", P0("10.0.2.2"), P1("10.0.0.1"), NULL);
	mx_host(d, "b", P0("10.0.0.2"), P1("10.0.1.1"), NULL);
	mx_host(d, "c", P0("10.0.1.2"), P1("10.0.2.1"), NULL);
	classify();
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_TRIANGLE);
	ck_assert_str_eq(d->topo.mistake, "");
}
END_TEST

START_TEST(test_triangle_p0_to_p0)
{
	/* a.p0 - b.p0, then a.p1 - c.p0 and b.p1 - c.p1 */
	mx_host(d, "a", P0("10.0.0.1"), P1("10.0.1.1"), NULL);
	mx_host(d, "b", P0("10.0.0.2"), P1("10.0.2.1"), NULL);
	mx_host(d, "c", P0("10.0.1.2"), P1("10.0.2.2"), NULL);
	classify();
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_TRIANGLE);
	ck_assert_str_eq(d->topo.mistake, "a p0 <-> b p0, b p1 <-> c p1: triangle cabling must "
			 "cross p0 <-> p1");
}
END_TEST

START_TEST(test_mixed)
{
	/* a line: a - b - c - d */
	mx_host(d, "a", P1("10.0.0.1"), NULL);
	mx_host(d, "b", P0("10.0.0.2"), P1("10.0.1.1"), NULL);
	mx_host(d, "c", P0("10.0.1.2"), P1("10.0.2.1"), NULL);
	mx_host(d, "d", P0("10.0.2.2"), NULL);
	classify();
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_MIXED);
	ck_assert(!d->topo.direct[0][3]);
}
END_TEST

START_TEST(test_none)
{
	mx_host(d, "a", P0("10.0.0.1"), NULL);
	mx_host(d, "b", P0("10.0.9.1"), NULL);
	classify();
	ck_assert_uint_eq(d->n_links, 0);
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_NONE);
}
END_TEST

START_TEST(test_unknown_prefix_matches_nothing)
{
	/* a -j dev's halves: no prefix, no subnet to share */
	mx_host(d, "a", "rxe0 eth0 192.168.200.11/24", NULL);
	mx_host(d, "b", "rxe0 eth0 192.168.200.12/24", NULL);
	d->hosts[1].halves[0].prefix = 0;
	classify();
	ck_assert_uint_eq(d->n_links, 0);
}
END_TEST

START_TEST(test_netdev_port)
{
	ck_assert_int_eq(sp_mx_netdev_port("enp1s0f1np1"), 1);
	ck_assert_int_eq(sp_mx_netdev_port("enP2p1s0f0np0"), 0);
	ck_assert_int_eq(sp_mx_netdev_port("eth0"), -1);
	ck_assert_int_eq(sp_mx_netdev_port("enp1s0np"), -1);
	ck_assert_int_eq(sp_mx_netdev_port("np1x"), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_switched);
	tcase_add_test(tc, test_direct);
	tcase_add_test(tc, test_ring_of_four);
	tcase_add_test(tc, test_triangle_crossed);
	tcase_add_test(tc, test_triangle_p0_to_p0);
	tcase_add_test(tc, test_mixed);
	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_unknown_prefix_matches_nothing);
	tcase_add_test(tc, test_netdev_port);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
