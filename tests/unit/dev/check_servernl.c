// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink messages of the server object (dev/servernl.c) without a socket:
 * requests built and inspected attribute by attribute, canned replies
 * parsed.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "dev/servernl.h"
#include "lib/parse.h"
#include "testutil.h"

static struct sp_addr addr4(const char *s)
{
	struct sp_addr a;

	ck_assert_int_eq(sp_parse_addr(s, &a), 0);
	ck_assert_uint_eq(a.len, 4);
	return a;
}

/* ---- request building --------------------------------------------------- */

START_TEST(test_build_server)
{
	struct nlattr *tb[SPARKPERF_A_SERVER_MAX + 1], *net[SPARKPERF_A_NET_MAX + 1], *pos;
	struct sp_server_cfg cfg = { .addr = addr4("192.168.200.13"), .has_port = true,
				     .port = 18600 }, none = { 0 };
	static const uint8_t raw[4] = { 192, 168, 200, 13 }, net10[4] = { 10 };
	struct nl_msg *msg;
	int rem, nets = 0;

	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &cfg, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_START, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 2);
	assert_attr(tb, SPARKPERF_A_SERVER_ADDR, 4);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_SERVER_ADDR]), raw, 4);
	assert_attr(tb, SPARKPERF_A_SERVER_PORT, 2);
	ck_assert_uint_eq(nla_get_u16(tb[SPARKPERF_A_SERVER_PORT]), 18600);
	nlmsg_free(msg);

	/* budgets and an allow list of two networks */
	cfg.has_conns_max = cfg.has_threads_max = cfg.has_bytes_max = true;
	cfg.conns_max = 4;
	cfg.threads_max = 0;
	cfg.bytes_max = 16 << 20;
	ck_assert_int_eq(sp_parse_net("10.0.0.0/8", &cfg.allow[0]), 0);
	ck_assert_int_eq(sp_parse_net("fd00::/64", &cfg.allow[1]), 0);
	cfg.n_allow = 2;
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &cfg, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_START, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 6);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_SERVER_CONNS_MAX]), 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_SERVER_THREADS_MAX]), 0);
	ck_assert_uint_eq(nla_get_u64(tb[SPARKPERF_A_SERVER_BYTES_MAX]), 16 << 20);
	nla_for_each_nested(pos, tb[SPARKPERF_A_SERVER_ALLOW], rem) {
		ck_assert_int_eq(nla_type(pos), SPARKPERF_A_ALLOW_NET);
		ck_assert_int_eq(nla_parse_nested(net, SPARKPERF_A_NET_MAX, pos, NULL), 0);
		ck_assert_uint_eq(nla_get_u8(net[SPARKPERF_A_NET_PREFIX]), nets ? 64 : 8);
		ck_assert_int_eq(nla_len(net[SPARKPERF_A_NET_ADDR]), nets ? 16 : 4);
		if (!nets)
			ck_assert_mem_eq(nla_data(net[SPARKPERF_A_NET_ADDR]), net10, 4);
		nets++;
	}
	ck_assert_int_eq(nets, 2);
	nlmsg_free(msg);
	cfg.allow[0].prefix = 33;
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &cfg, &msg), -EINVAL);

	/* any address, default port: no attributes at all */
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &none, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_START, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 0);
	nlmsg_free(msg);
	none.has_port = true;
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &none, &msg), -EINVAL);

	ck_assert_int_eq(sp_nl_server_stop_msg(FAMILY, true, 3, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_STOP, NLM_F_ACK);
	assert_attr(tb, SPARKPERF_A_SERVER_ID, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_SERVER_ID]), 3);
	nlmsg_free(msg);
	ck_assert_int_eq(sp_nl_server_stop_msg(FAMILY, false, 0, &msg), 0);
	ck_assert_int_eq(count_attrs(msg), 0);
	nlmsg_free(msg);

	ck_assert_int_eq(sp_nl_server_get_msg(FAMILY, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_GET, NLM_F_DUMP);
	ck_assert_int_eq(count_attrs(msg), 0);
	nlmsg_free(msg);
}
END_TEST

/* ---- canned replies ----------------------------------------------------- */

START_TEST(test_parse_server)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_SERVER_GET, NLM_F_MULTI);
	char buf[SP_ADDR_STRLEN];
	struct nlattr *allow, *net;
	struct sp_server s;
	uint8_t v6[16];

	ck_assert_int_eq(inet_pton(AF_INET6, "fd00::13", v6), 1);
	nla_put_u32(m, SPARKPERF_A_SERVER_ID, 2);
	nla_put(m, SPARKPERF_A_SERVER_ADDR, 16, v6);
	nla_put_u16(m, SPARKPERF_A_SERVER_PORT, 18521);
	nla_put_u32(m, SPARKPERF_A_SERVER_ACTIVE, 1);
	nla_put(m, SPARKPERF_A_SERVER_PAD, 0, NULL);
	nla_put_u64(m, SPARKPERF_A_SERVER_SERVED, 5000000000ULL);
	nla_put_u64(m, SPARKPERF_A_SERVER_REJECTED, 7);
	nla_put_u32(m, SPARKPERF_A_SERVER_CONNS_MAX, 8);
	nla_put_u32(m, SPARKPERF_A_SERVER_THREADS, 1);
	nla_put_u64(m, SPARKPERF_A_SERVER_BYTES, 2 << 20);
	allow = nla_nest_start(m, SPARKPERF_A_SERVER_ALLOW);
	net = nla_nest_start(m, SPARKPERF_A_ALLOW_NET);
	nla_put(m, SPARKPERF_A_NET_ADDR, 16, v6);
	nla_put_u8(m, SPARKPERF_A_NET_PREFIX, 128);
	nla_nest_end(m, net);
	nla_nest_end(m, allow);
	ck_assert_int_eq(sp_nl_parse_server(nlmsg_hdr(m), &s, NULL), 0);
	ck_assert_uint_eq(s.id, 2);
	ck_assert_uint_eq(s.addr.len, 16);
	ck_assert_str_eq(sp_fmt_addr(&s.addr, buf, sizeof(buf)), "fd00::13");
	ck_assert_uint_eq(s.port, 18521);
	ck_assert_uint_eq(s.active, 1);
	ck_assert_uint_eq(s.served, 5000000000ULL);
	ck_assert_uint_eq(s.rejected, 7);
	ck_assert_uint_eq(s.conns_max, 8);
	ck_assert_uint_eq(s.threads, 1);
	ck_assert_uint_eq(s.bytes, 2 << 20);
	ck_assert_uint_eq(s.n_allow, 1);
	ck_assert_str_eq(sp_fmt_addr(&s.allow[0].addr, buf, sizeof(buf)), "fd00::13");
	ck_assert_uint_eq(s.allow[0].prefix, 128);
	sp_server_free(&s);
	nlmsg_free(m);

	/* listening on any address: no ADDR */
	m = genl_new(SPARKPERF_CMD_SERVER_GET, 0);
	nla_put_u32(m, SPARKPERF_A_SERVER_ID, 1);
	nla_put_u16(m, SPARKPERF_A_SERVER_PORT, 18520);
	ck_assert_int_eq(sp_nl_parse_server(nlmsg_hdr(m), &s, NULL), 0);
	ck_assert_uint_eq(s.addr.len, 0);
	ck_assert_str_eq(sp_fmt_addr(&s.addr, buf, sizeof(buf)), "any");
	ck_assert_uint_eq(s.active, 0);
	nlmsg_free(m);

	/* no port: malformed */
	m = genl_new(SPARKPERF_CMD_SERVER_GET, 0);
	nla_put_u32(m, SPARKPERF_A_SERVER_ID, 1);
	ck_assert_int_eq(sp_nl_parse_server(nlmsg_hdr(m), &s, NULL), -EBADMSG);
	nlmsg_free(m);
}
END_TEST

/* ---- networks of the allow list ---------------------------------------- */

START_TEST(test_parse_net)
{
	char buf[SP_NET_STRLEN];
	struct sp_net n;

	ck_assert_int_eq(sp_parse_net("192.168.200.0/24", &n), 0);
	ck_assert_uint_eq(n.prefix, 24);
	ck_assert_int_eq(sp_parse_net("192.168.200.13", &n), 0);
	ck_assert_uint_eq(n.prefix, 32);
	ck_assert_int_eq(sp_parse_net("fd00::13", &n), 0);
	ck_assert_uint_eq(n.prefix, 128);
	ck_assert_int_eq(sp_parse_net("0.0.0.0/0", &n), 0);
	ck_assert_uint_eq(n.prefix, 0);
	/* host bits: the network they belong to, to suggest */
	ck_assert_int_eq(sp_parse_net("192.168.200.13/20", &n), -EDOM);
	ck_assert_str_eq(sp_fmt_addr(&n.addr, buf, sizeof(buf)), "192.168.192.0");
	ck_assert_str_eq(sp_fmt_net(&n, buf, sizeof(buf)), "192.168.192.0/20");
	ck_assert_int_eq(sp_parse_net("fd00::1:2/100", &n), -EDOM);
	ck_assert_int_eq(sp_parse_net("192.168.200.0/33", &n), -EINVAL);
	ck_assert_int_eq(sp_parse_net("192.168.200.0/", &n), -EINVAL);
	ck_assert_int_eq(sp_parse_net("192.168.200.0/+8", &n), -EINVAL);
	ck_assert_int_eq(sp_parse_net("fd00::/129", &n), -EINVAL);
	ck_assert_int_eq(sp_parse_net("host/8", &n), -EINVAL);
	ck_assert_int_eq(sp_parse_net("", &n), -EINVAL);
}
END_TEST

static Suite *servernl_suite(void)
{
	Suite *s = suite_create("servernl");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_build_server);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_server);
	tcase_add_test(tc, test_parse_net);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(servernl_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
