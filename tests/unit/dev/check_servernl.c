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
	struct nlattr *tb[SPARKPERF_A_SERVER_MAX + 1];
	struct sp_addr a = addr4("192.168.200.13"), any = { 0 };
	static const uint8_t raw[4] = { 192, 168, 200, 13 };
	struct nl_msg *msg;

	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &a, true, 18600, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_START, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 2);
	assert_attr(tb, SPARKPERF_A_SERVER_ADDR, 4);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_SERVER_ADDR]), raw, 4);
	assert_attr(tb, SPARKPERF_A_SERVER_PORT, 2);
	ck_assert_uint_eq(nla_get_u16(tb[SPARKPERF_A_SERVER_PORT]), 18600);
	nlmsg_free(msg);

	/* any address, default port: no attributes at all */
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, &any, false, 0, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_SERVER_MAX, SPARKPERF_CMD_SERVER_START, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 0);
	nlmsg_free(msg);
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, NULL, false, 0, &msg), 0);
	ck_assert_int_eq(count_attrs(msg), 0);
	nlmsg_free(msg);
	ck_assert_int_eq(sp_nl_server_start_msg(FAMILY, NULL, true, 0, &msg), -EINVAL);

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
	struct sp_server s;
	uint8_t v6[16];

	ck_assert_int_eq(inet_pton(AF_INET6, "fd00::13", v6), 1);
	nla_put_u32(m, SPARKPERF_A_SERVER_ID, 2);
	nla_put(m, SPARKPERF_A_SERVER_ADDR, 16, v6);
	nla_put_u16(m, SPARKPERF_A_SERVER_PORT, 18521);
	nla_put_u32(m, SPARKPERF_A_SERVER_ACTIVE, 1);
	nla_put(m, SPARKPERF_A_SERVER_PAD, 0, NULL);
	nla_put_u64(m, SPARKPERF_A_SERVER_SERVED, 5000000000ULL);
	ck_assert_int_eq(sp_nl_parse_server(nlmsg_hdr(m), &s, NULL), 0);
	ck_assert_uint_eq(s.id, 2);
	ck_assert_uint_eq(s.addr.len, 16);
	ck_assert_str_eq(sp_fmt_addr(&s.addr, buf, sizeof(buf)), "fd00::13");
	ck_assert_uint_eq(s.port, 18521);
	ck_assert_uint_eq(s.active, 1);
	ck_assert_uint_eq(s.served, 5000000000ULL);
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

static Suite *servernl_suite(void)
{
	Suite *s = suite_create("servernl");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_build_server);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_server);
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
