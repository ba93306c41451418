// SPDX-License-Identifier: GPL-2.0
/*
 * The NCCL environment of a set of hosts (bench/ncclplan.c): halves paired
 * by subnet whatever order each host lists them in, the GID index only when
 * it holds everywhere, NCCL_IB_MERGE_NICS where two halves share a port,
 * ring cabling, and what is left out and why.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "bench/ncclplan.h"
#include "testutil.h"

#define FIXTURES "../fixtures/nccl-env/"

/* A half of host h: ip NULL for none, prefix 0 for not known (-j dev). */
static void half(struct sp_halves *h, const char *dev, const char *parent, bool active,
		 const char *ip, uint8_t prefix, uint32_t gid)
{
	struct sp_half x = { .port = 1, .active = active, .has_ipv4 = ip != NULL,
			     .prefix = prefix, .gid_index = gid };

	snprintf(x.dev, sizeof(x.dev), "%s", dev);
	/* a Spark's netdev names: roceP2p1s0f0 -> enP2p1s0f0np0 */
	snprintf(x.netdev, sizeof(x.netdev), "en%snp%c", dev + 4, dev[strlen(dev) - 1]);
	snprintf(x.parent, sizeof(x.parent), "%s", parent);
	if (ip)
		ck_assert_int_eq(inet_pton(AF_INET, ip, &x.addr), 1);
	ck_assert_int_eq(sp_array_add(&h->v, &h->n, &h->cap, sizeof(x), &x), 0);
}

/* spark1 as this host sees itself: prefixes known. */
static void spark1(struct sp_halves *h)
{
	snprintf(h->host, sizeof(h->host), "spark1");
	half(h, "rocep1s0f0", "0000:01:00.0", true, "192.168.200.12", 24, 3);
	half(h, "rocep1s0f1", "0000:01:00.1", false, NULL, 0, 0);
	half(h, "roceP2p1s0f0", "0002:01:00.0", true, "192.168.201.12", 24, 3);
	half(h, "roceP2p1s0f1", "0002:01:00.1", false, NULL, 0, 0);
}

static const char *value(const struct sp_nccl_plan *p, size_t host, const char *name)
{
	const struct sp_nccl_var *v = sp_nccl_var(&p->hosts[host], name);

	return !v ? "(none)" : v->set ? v->value : v->comment;
}

static void free_hosts(struct sp_halves *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sp_halves_free(&h[i]);
}

/*
 * spark2 (its -j dev, made by the CLI) lists roceP2p1s0f0 first: its list
 * still starts with the half on spark1's first subnet.
 */
START_TEST(test_pairs_by_subnet)
{
	struct sp_halves h[2] = { 0 };
	struct sp_nccl_plan p;
	char err[256];

	spark1(&h[0]);
	ck_assert_int_eq(sp_halves_read_file(FIXTURES "spark2-dev.json", &h[1], err, sizeof(err)),
			 0);
	ck_assert_str_eq(h[1].v[0].dev, "roceP2p1s0f0");
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "rocep1s0f0,roceP2p1s0f0");
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_HCA"), "rocep1s0f0,roceP2p1s0f0");
	ck_assert_str_eq(value(&p, 0, "NCCL_SOCKET_IFNAME"), "enp1s0f0np0");
	ck_assert_str_eq(value(&p, 1, "NCCL_SOCKET_IFNAME"), "enp1s0f0np0");
	/* position by position, one subnet */
	ck_assert_uint_eq(p.hosts[0].subnet[1].s_addr, p.hosts[1].subnet[1].s_addr);
	ck_assert_str_eq(inet_ntoa(p.hosts[1].subnet[1]), "192.168.201.0");
	/* -j dev has no prefixes: spark1's subnets hold spark2's addresses, nothing assumed */
	ck_assert_uint_eq(p.n_notes, 0);
	ck_assert(!p.ring);
	sp_nccl_plan_free(&p);
	free_hosts(h, 2);
}
END_TEST

/* Cabled across: spark2's rocep1s0f0 is on 201. Names differ, subnets pair. */
START_TEST(test_pairs_crossed)
{
	struct sp_halves h[2] = { 0 };
	struct sp_nccl_plan p;

	spark1(&h[0]);
	snprintf(h[1].host, sizeof(h[1].host), "spark2");
	half(&h[1], "rocep1s0f0", "0000:01:00.0", true, "192.168.201.13", 24, 3);
	half(&h[1], "roceP2p1s0f0", "0002:01:00.0", true, "192.168.200.13", 24, 3);
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "rocep1s0f0,roceP2p1s0f0");
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_HCA"), "roceP2p1s0f0,rocep1s0f0");
	ck_assert_str_eq(value(&p, 1, "NCCL_SOCKET_IFNAME"), "enP2p1s0f0np0");
	/* mpirun -x cannot give them */
	ck_assert(!sp_nccl_hosts_alike(&p.hosts[0], &p.hosts[1]));
	sp_nccl_plan_free(&p);
	free_hosts(h, 2);
}
END_TEST

START_TEST(test_gid_index)
{
	struct sp_halves h[2] = { 0 };
	struct sp_nccl_plan p;

	/* one index on every half of every host */
	spark1(&h[0]);
	spark1(&h[1]);
	snprintf(h[1].host, sizeof(h[1].host), "spark2");
	inet_pton(AF_INET, "192.168.200.13", &h[1].v[0].addr);
	inet_pton(AF_INET, "192.168.201.13", &h[1].v[2].addr);
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert(p.gid_stable);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_GID_INDEX"), "3");
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_GID_INDEX"), "3");
	ck_assert(sp_nccl_hosts_alike(&p.hosts[0], &p.hosts[1]));
	sp_nccl_plan_free(&p);

	/* drifted on one half of one host: leave it unset, with what was found */
	h[1].v[2].gid_index = 4;
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert(!p.gid_stable);
	ck_assert(!sp_nccl_var(&p.hosts[0], "NCCL_IB_GID_INDEX")->set);
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_GID_INDEX"), "leave it unset, NCCL finds each "
			 "HCA's RoCE v2 IPv4 GID itself: the indexes differ (spark1 rocep1s0f0 3, "
			 "roceP2p1s0f0 3; spark2 rocep1s0f0 3, roceP2p1s0f0 4)");
	sp_nccl_plan_free(&p);
	free_hosts(h, 2);
}
END_TEST

START_TEST(test_merge_nics)
{
	struct sp_halves h = { 0 };
	struct sp_nccl_plan p;

	/* both halves of port 0 */
	spark1(&h);
	ck_assert_int_eq(sp_nccl_plan_make(&h, 1, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_MERGE_NICS"), "1");
	sp_nccl_plan_free(&p);
	sp_halves_free(&h);

	/* one half of each port: nothing to merge */
	half(&h, "rocep1s0f0", "0000:01:00.0", true, "192.168.200.12", 24, 3);
	half(&h, "roceP2p1s0f1", "0002:01:00.1", true, "192.168.203.12", 24, 3);
	ck_assert_int_eq(sp_nccl_plan_make(&h, 1, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "rocep1s0f0,roceP2p1s0f1");
	ck_assert_ptr_null(sp_nccl_var(&p.hosts[0], "NCCL_IB_MERGE_NICS"));
	ck_assert_uint_eq(p.hosts[0].n_vars, 3);
	sp_nccl_plan_free(&p);
	sp_halves_free(&h);
}
END_TEST

/* A subnet without a partner on a host leaves every list, or the positions would shift. */
START_TEST(test_no_partner)
{
	struct sp_halves h[2] = { 0 };
	struct sp_nccl_plan p;

	spark1(&h[0]);
	snprintf(h[1].host, sizeof(h[1].host), "spark2");
	half(&h[1], "roceP2p1s0f0", "0002:01:00.0", false, "192.168.201.13", 24, 3);
	half(&h[1], "rocep1s0f0", "0000:01:00.0", true, "192.168.200.13", 24, 3);
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "rocep1s0f0");
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_HCA"), "rocep1s0f0");
	ck_assert_uint_eq(p.n_notes, 1);
	ck_assert_str_eq(p.notes[0], "192.168.201.0/24 is on no host's list: spark2's "
			 "roceP2p1s0f0 is not ACTIVE");
	ck_assert_ptr_null(sp_nccl_var(&p.hosts[0], "NCCL_IB_MERGE_NICS"));
	sp_nccl_plan_free(&p);

	/* not there at all */
	h[1].n = 1;
	memmove(&h[1].v[0], &h[1].v[1], sizeof(h[1].v[0]));
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert_str_eq(p.notes[0], "192.168.201.0/24 is on no host's list: spark2 has no half "
			 "in it");
	sp_nccl_plan_free(&p);
	free_hosts(h, 2);
}
END_TEST

/*
 * Three Sparks in a triangle, one port to each neighbour (a half each):
 * every subnet is on two hosts only. Subnet-aware routing pairs them.
 */
START_TEST(test_ring)
{
	struct sp_halves h[3] = { { .host = "a" }, { .host = "b" }, { .host = "c" } };
	struct sp_nccl_plan p;
	size_t i;

	half(&h[0], "rocep1s0f0", "0000:01:00.0", true, "10.0.1.1", 24, 3);	/* a-b */
	half(&h[0], "rocep1s0f1", "0000:01:00.1", true, "10.0.3.1", 24, 3);	/* c-a */
	half(&h[1], "rocep1s0f0", "0000:01:00.0", true, "10.0.2.2", 24, 3);	/* b-c */
	half(&h[1], "rocep1s0f1", "0000:01:00.1", true, "10.0.1.2", 24, 3);	/* a-b */
	half(&h[2], "rocep1s0f0", "0000:01:00.0", true, "10.0.3.3", 24, 3);	/* c-a */
	half(&h[2], "rocep1s0f1", "0000:01:00.1", true, "10.0.2.3", 24, 3);	/* b-c */
	ck_assert_int_eq(sp_nccl_plan_make(h, 3, &p), 0);
	ck_assert(p.ring);
	for (i = 0; i < 3; i++)
		ck_assert_str_eq(value(&p, i, "NCCL_IB_SUBNET_AWARE_ROUTING"), "1");
	/* each host lists all its halves, by subnet */
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "rocep1s0f0,rocep1s0f1");
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_HCA"), "rocep1s0f1,rocep1s0f0");
	ck_assert_str_eq(value(&p, 2, "NCCL_IB_HCA"), "rocep1s0f1,rocep1s0f0");
	ck_assert_str_eq(p.notes[0], "ring cabling: c has no half in 10.0.1.0/24, which other "
			 "hosts share: NCCL_IB_SUBNET_AWARE_ROUTING=1 pairs the halves by subnet, "
			 "not by position");
	sp_nccl_plan_free(&p);

	/* two hosts are never a ring: what one lacks has no partner */
	ck_assert_int_eq(sp_nccl_plan_make(h, 2, &p), 0);
	ck_assert(!p.ring);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "rocep1s0f0");
	ck_assert_str_eq(value(&p, 1, "NCCL_IB_HCA"), "rocep1s0f1");
	ck_assert_ptr_null(sp_nccl_var(&p.hosts[0], "NCCL_IB_SUBNET_AWARE_ROUTING"));
	sp_nccl_plan_free(&p);
	free_hosts(h, 3);
}
END_TEST

START_TEST(test_nothing_connected)
{
	struct sp_halves h = { .host = "spark1" };
	struct sp_nccl_plan p;

	half(&h, "rocep1s0f0", "0000:01:00.0", false, "192.168.200.12", 24, 3);
	half(&h, "rxe0", "", true, NULL, 0, 0);
	ck_assert_int_eq(sp_nccl_plan_make(&h, 1, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "no connected half (ACTIVE, with an IPv4 "
			 "RoCE v2 GID): NCCL falls back to sockets");
	ck_assert(!sp_nccl_var(&p.hosts[0], "NCCL_SOCKET_IFNAME")->set);
	ck_assert(!sp_nccl_var(&p.hosts[0], "NCCL_IB_GID_INDEX")->set);
	sp_nccl_plan_free(&p);
	sp_halves_free(&h);
}
END_TEST

/* A device of two ports names each; a prefix nobody knows is assumed, and said. */
START_TEST(test_ports_and_prefixes)
{
	struct sp_halves h = { .host = "spark1" };
	struct sp_nccl_plan p;

	half(&h, "mlx5_0", "0000:01:00.0", true, "192.168.200.12", 0, 3);
	half(&h, "mlx5_0", "0000:01:00.0", true, "192.168.201.12", 0, 3);
	h.v[1].port = 2;
	ck_assert_int_eq(sp_nccl_plan_make(&h, 1, &p), 0);
	ck_assert_str_eq(value(&p, 0, "NCCL_IB_HCA"), "mlx5_0:1,mlx5_0:2");
	ck_assert_uint_eq(p.n_notes, 1);
	ck_assert_str_eq(p.notes[0], "spark1: no prefix known for 192.168.200.12, "
			 "192.168.201.12, nor another half's subnet holding it: /24 assumed");
	sp_nccl_plan_free(&p);
	sp_halves_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ncclplan");
	TCase *tc = tcase_create("ncclplan");

	tcase_add_test(tc, test_pairs_by_subnet);
	tcase_add_test(tc, test_pairs_crossed);
	tcase_add_test(tc, test_gid_index);
	tcase_add_test(tc, test_merge_nics);
	tcase_add_test(tc, test_no_partner);
	tcase_add_test(tc, test_ring);
	tcase_add_test(tc, test_nothing_connected);
	tcase_add_test(tc, test_ports_and_prefixes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
