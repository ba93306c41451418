// SPDX-License-Identifier: GPL-2.0
/*
 * A host's halves (lib/halves.h): this host's from the module's devices and
 * its addresses, another host's from its -j dev and -j check output (canned
 * in tests/fixtures/nccl-env, made by the CLI on fakenl's spark_b), and
 * which two share a physical port.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "lib/halves.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FIXTURES "../fixtures/nccl-env/"

static const char *ip(const struct sp_half *h)
{
	static char buf[INET_ADDRSTRLEN];

	return inet_ntop(AF_INET, &h->addr, buf, sizeof(buf));
}

START_TEST(test_local)
{
	struct sp_ifaddr addrs[] = {
		{ .dev = "enp1s0f0np0", .prefix = 24 },
		/* another address of the netdev: not the GID's */
		{ .dev = "enP2p1s0f0np0", .prefix = 16 },
	};
	struct sp_dev_list devs = { 0 };
	struct sp_halves h = { 0 };
	char name[SP_HALF_NAME_MAX];

	inet_pton(AF_INET, "192.168.200.12", &addrs[0].addr);
	inet_pton(AF_INET, "10.1.0.12", &addrs[1].addr);
	dev_spark1(&devs);
	/* a device without a netdev is no half */
	dev_add_half(&devs, "mlx5_9", "0000:09:00.0", "", true, 0, 4096, NULL, 0);
	devs.devs[4].ports[0].has_netdev = false;
	ck_assert_int_eq(sp_halves_local(&devs, addrs, ARRAY_SIZE(addrs), &h), 0);
	ck_assert_uint_eq(h.n, 4);
	assert_half(&h.v[0], "rocep1s0f0", "enp1s0f0np0", "0000:01:00.0", true, 3);
	ck_assert_str_eq(ip(&h.v[0]), "192.168.200.12");
	ck_assert_uint_eq(h.v[0].prefix, 24);
	/* its address is not among the host's (a GID left behind): prefix unknown */
	ck_assert_uint_eq(h.v[2].prefix, 0);
	assert_half(&h.v[1], "rocep1s0f1", "enp1s0f1np1", "0000:01:00.1", false, -1);
	ck_assert_str_eq(sp_half_name(&h.v[1], name, sizeof(name)), "rocep1s0f1/1 (enp1s0f1np1)");
	ck_assert_str_eq(inet_ntoa(sp_half_subnet(&h.v[0], 24)), "192.168.200.0");
	sp_halves_free(&h);
	sp_dev_list_free(&devs);
}
END_TEST

/* A Spark's two halves of a port: one bus, device and function, two PCI domains. */
static const struct {
	const char *a, *b;
	bool share;
} ports[] = {
	{ "0000:01:00.0", "0002:01:00.0", true },
	{ "0000:01:00.1", "0002:01:00.1", true },
	/* the two ports of one function pair: functions 0 and 1 */
	{ "0000:01:00.0", "0000:01:00.1", false },
	{ "0000:01:00.0", "0002:01:00.1", false },
	{ "0000:01:00.0", "0000:01:00.0", false },
	/* software RDMA has no PCI function */
	{ "", "", false },
	{ "0000:01:00.0", "", false },
};

START_TEST(test_share_port)
{
	struct sp_half a = { 0 }, b = { 0 };

	snprintf(a.parent, sizeof(a.parent), "%s", ports[_i].a);
	snprintf(b.parent, sizeof(b.parent), "%s", ports[_i].b);
	ck_assert_int_eq(sp_halves_share_port(&a, &b), ports[_i].share);
	ck_assert_int_eq(sp_halves_share_port(&b, &a), ports[_i].share);
}
END_TEST

/* spark2's halves, in its device order: both -j outputs give the same. */
static void assert_spark2(const struct sp_halves *h)
{
	ck_assert_uint_eq(h->n, 4);
	/* an IPv6 address took 2 and 3 */
	assert_half(&h->v[0], "roceP2p1s0f0", "enP2p1s0f0np0", "0002:01:00.0", true, 5);
	ck_assert_str_eq(ip(&h->v[0]), "192.168.201.13");
	ck_assert_uint_eq(h->v[0].prefix, 0);
	assert_half(&h->v[1], "roceP2p1s0f1", "enP2p1s0f1np1", "0002:01:00.1", false, -1);
	assert_half(&h->v[2], "rocep1s0f0", "enp1s0f0np0", "0000:01:00.0", true, 3);
	ck_assert_str_eq(ip(&h->v[2]), "192.168.200.13");
}

START_TEST(test_parse_dev)
{
	struct sp_halves h = { 0 };
	char err[256];

	ck_assert_int_eq(sp_halves_read_file(FIXTURES "spark2-dev.json", &h, err, sizeof(err)), 0);
	ck_assert_int_eq(h.source, SP_HALVES_FILE);
	ck_assert_str_eq(sp_halves_source_str(h.source), "file");
	ck_assert_str_eq(h.origin, FIXTURES "spark2-dev.json");
	/* -j dev does not name its host: the file does */
	ck_assert_str_eq(h.host, FIXTURES "spark2-dev.json");
	assert_spark2(&h);
	sp_halves_free(&h);
}
END_TEST

START_TEST(test_parse_check)
{
	struct sp_halves h = { 0 };
	char err[256];

	ck_assert_int_eq(sp_halves_read_file(FIXTURES "spark2-check.json", &h, err, sizeof(err)),
			 0);
	ck_assert_str_eq(h.host, "spark2");
	assert_spark2(&h);
	/* made where the netdevs were not: no firmware items to read */
	ck_assert_str_eq(h.v[0].driver, "");
	sp_halves_free(&h);
}
END_TEST

static const struct {
	const char *text;
	int ret;
	const char *err;
} bad_inputs[] = {
	{ "[]", 0, "" },
	{ "", -EINVAL, "not JSON: unexpected end of data" },
	{ "{\"name\":\"rxe0\"}", -EINVAL, "not an array (-j dev or -j check)" },
	{ "[{\"name\":\"rxe0\"}]", -EINVAL, "device 0 has no ports" },
	{ "[{\"name\":\"rxe0\",\"ports\":[{\"netdev\":\"eth0\"}]}]", -EINVAL,
	  "a device without name, or a port without port and state" },
	/* the output of an older check: items without facts give no halves */
	{ "[{\"name\":\"module\",\"status\":\"pass\",\"detail\":\"\",\"fix\":null}]", 0, "" },
};

START_TEST(test_parse_bad)
{
	struct sp_halves h = { 0 };
	char err[256] = "";

	ck_assert_int_eq(sp_halves_parse(bad_inputs[_i].text, &h, err, sizeof(err)),
			 bad_inputs[_i].ret);
	ck_assert_str_eq(err, bad_inputs[_i].err);
	ck_assert_uint_eq(h.n, 0);
	sp_halves_free(&h);
}
END_TEST

START_TEST(test_read_missing)
{
	struct sp_halves h = { 0 };
	char err[256];

	ck_assert_int_eq(sp_halves_read_file("/nonexistent/spark2.json", &h, err, sizeof(err)),
			 -ENOENT);
	ck_assert_str_eq(err, "cannot read /nonexistent/spark2.json: No such file or directory");
	ck_assert_int_eq(sp_halves_read_file("../fixtures/README.md", &h, err, sizeof(err)),
			 -EINVAL);
	ck_assert(starts_with(err, "../fixtures/README.md: not JSON: "));
	sp_halves_free(&h);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("halves");
	TCase *tc = tcase_create("halves");

	tcase_add_test(tc, test_local);
	tcase_add_loop_test(tc, test_share_port, 0, ARRAY_SIZE(ports));
	tcase_add_test(tc, test_parse_dev);
	tcase_add_test(tc, test_parse_check);
	tcase_add_loop_test(tc, test_parse_bad, 0, ARRAY_SIZE(bad_inputs));
	tcase_add_test(tc, test_read_missing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
