// SPDX-License-Identifier: GPL-2.0
/*
 * The host's rtnetlink for tune and check: DCB and neighbour requests as
 * built, and canned replies as parsed.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/dcbnl.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "host/hostnl.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct nl_msg *rtnl_new(uint16_t type, const void *hdr, size_t len)
{
	struct nl_msg *m = nlmsg_alloc_simple(type, 0);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(nlmsg_append(m, (void *)hdr, len, NLMSG_ALIGNTO), 0);
	return m;
}

START_TEST(test_dcb_get)
{
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = DCB_CMD_IEEE_GET };
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08, .delay = 7 };
	struct dcb_app apps[] = {
		{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 3, .protocol = 26 },
		{ .selector = IEEE_8021QAZ_APP_SEL_ETHERTYPE, .priority = 5, .protocol = 0x8915 },
		{ .selector = IEEE_8021QAZ_APP_SEL_DSCP, .priority = 6, .protocol = 48 },
	};
	struct nlattr *ieee, *table, *tb[DCB_ATTR_MAX + 1];
	struct nl_msg *req, *m;
	struct sp_dcb dcb;
	size_t i;

	ck_assert_int_eq(sp_nl_dcb_get_msg("enp1s0f0np0", &req), 0);
	ck_assert_int_eq(nlmsg_hdr(req)->nlmsg_type, RTM_GETDCB);
	ck_assert(nlmsg_hdr(req)->nlmsg_flags & NLM_F_ACK);
	ck_assert_int_eq(((struct dcbmsg *)nlmsg_data(nlmsg_hdr(req)))->cmd, DCB_CMD_IEEE_GET);
	ck_assert_int_eq(nlmsg_parse(nlmsg_hdr(req), sizeof(d), tb, DCB_ATTR_MAX, NULL), 0);
	ck_assert_str_eq(nla_get_string(tb[DCB_ATTR_IFNAME]), "enp1s0f0np0");
	nlmsg_free(req);
	ck_assert_int_eq(sp_nl_dcb_get_msg("a-name-that-is-too-long", &req), -EINVAL);

	m = rtnl_new(RTM_GETDCB, &d, sizeof(d));
	nla_put_string(m, DCB_ATTR_IFNAME, "enp1s0f0np0");
	ieee = nla_nest_start(m, DCB_ATTR_IEEE);
	nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	table = nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE);
	for (i = 0; i < ARRAY_SIZE(apps); i++)
		nla_put(m, DCB_ATTR_IEEE_APP, sizeof(apps[i]), &apps[i]);
	nla_nest_end(m, table);
	nla_nest_end(m, ieee);
	ck_assert_int_eq(sp_nl_parse_dcb(nlmsg_hdr(m), &dcb, NULL), 0);
	ck_assert(dcb.has_pfc);
	ck_assert_uint_eq(dcb.pfc.pfc_en, 0x08);
	ck_assert_uint_eq(dcb.pfc.delay, 7);
	/* DSCP entries only */
	for (i = 0; i < SP_DSCP_COUNT; i++)
		ck_assert_int_eq(dcb.dscp.has[i], i == 26 || i == 48);
	ck_assert_uint_eq(dcb.dscp.prio[26], 3);
	ck_assert_uint_eq(dcb.dscp.prio[48], 6);
	nlmsg_free(m);

	/* no DCB_ATTR_IEEE: malformed */
	m = rtnl_new(RTM_GETDCB, &d, sizeof(d));
	ck_assert_int_eq(sp_nl_parse_dcb(nlmsg_hdr(m), &dcb, NULL), -EBADMSG);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_dcb_set)
{
	struct nlattr *tb[DCB_ATTR_MAX + 1], *ieee[DCB_ATTR_IEEE_MAX + 1], *pos;
	struct sp_dscp_map map = { 0 };
	struct ieee_pfc pfc = { .pfc_en = 0x08 };
	struct dcbmsg d = { .cmd = DCB_CMD_IEEE_SET };
	const struct dcb_app *app;
	struct nl_msg *req, *m;
	int rem, n = 0, status;

	map.has[26] = map.has[48] = true;
	map.prio[26] = 3;
	map.prio[48] = 6;
	ck_assert_int_eq(sp_nl_dcb_set_msg("eth0", false, &pfc, &map, &req), 0);
	ck_assert_int_eq(nlmsg_hdr(req)->nlmsg_type, RTM_SETDCB);
	ck_assert_int_eq(((struct dcbmsg *)nlmsg_data(nlmsg_hdr(req)))->cmd, DCB_CMD_IEEE_SET);
	ck_assert_int_eq(nlmsg_parse(nlmsg_hdr(req), sizeof(d), tb, DCB_ATTR_MAX, NULL), 0);
	ck_assert_int_eq(nla_parse_nested(ieee, DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE], NULL), 0);
	ck_assert_int_eq(nla_len(ieee[DCB_ATTR_IEEE_PFC]), sizeof(pfc));
	ck_assert_uint_eq(((struct ieee_pfc *)nla_data(ieee[DCB_ATTR_IEEE_PFC]))->pfc_en, 0x08);
	nla_for_each_nested(pos, ieee[DCB_ATTR_IEEE_APP_TABLE], rem) {
		app = nla_data(pos);
		ck_assert_int_eq(app->selector, IEEE_8021QAZ_APP_SEL_DSCP);
		ck_assert_uint_eq(app->priority, app->protocol == 26 ? 3 : 6);
		n++;
	}
	ck_assert_int_eq(n, 2);
	nlmsg_free(req);

	/* a DEL carries the entries, never the PFC object */
	ck_assert_int_eq(sp_nl_dcb_set_msg("eth0", true, &pfc, &map, &req), 0);
	ck_assert_int_eq(((struct dcbmsg *)nlmsg_data(nlmsg_hdr(req)))->cmd, DCB_CMD_IEEE_DEL);
	ck_assert_int_eq(nlmsg_parse(nlmsg_hdr(req), sizeof(d), tb, DCB_ATTR_MAX, NULL), 0);
	ck_assert_int_eq(nla_parse_nested(ieee, DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE], NULL), 0);
	ck_assert_ptr_null(ieee[DCB_ATTR_IEEE_PFC]);
	nlmsg_free(req);

	/* the driver's -EINVAL, cut to a u8 by dcbnl */
	m = rtnl_new(RTM_SETDCB, &d, sizeof(d));
	nla_put_u8(m, DCB_ATTR_IEEE, (uint8_t)-EINVAL);
	ck_assert_int_eq(sp_nl_parse_dcb_status(nlmsg_hdr(m), &status, NULL), 0);
	ck_assert_int_eq(status, -EINVAL);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_neigh)
{
	struct ndmsg ndm = { .ndm_family = AF_INET, .ndm_ifindex = 3,
			     .ndm_state = NUD_REACHABLE };
	static const uint8_t mac[6] = { 0x52, 0x54, 0, 0x53, 0x50, 0x13 };
	struct sp_addr dst = { .len = 4 }, got;
	struct nl_msg *req, *m;
	struct sp_neigh n;
	uint32_t ifindex;

	ck_assert_int_eq(sp_nl_neigh_dump_msg(AF_INET, &req), 0);
	ck_assert(nlmsg_hdr(req)->nlmsg_flags & NLM_F_DUMP);
	ck_assert_int_eq(((struct ndmsg *)nlmsg_data(nlmsg_hdr(req)))->ndm_family, AF_INET);
	nlmsg_free(req);

	inet_pton(AF_INET, "192.168.200.13", dst.raw);
	m = rtnl_new(RTM_NEWNEIGH, &ndm, sizeof(ndm));
	nla_put(m, NDA_DST, 4, dst.raw);
	nla_put(m, NDA_LLADDR, sizeof(mac), mac);
	ck_assert_int_eq(sp_nl_parse_neigh(nlmsg_hdr(m), &ifindex, &got, &n, NULL), 0);
	ck_assert_uint_eq(ifindex, 3);
	ck_assert_uint_eq(n.state, NUD_REACHABLE);
	ck_assert_uint_eq(n.lladdr_len, 6);
	ck_assert_int_eq(memcmp(n.lladdr, mac, 6), 0);
	ck_assert_int_eq(memcmp(got.raw, dst.raw, 4), 0);
	nlmsg_free(m);
	/* no address: malformed */
	m = rtnl_new(RTM_NEWNEIGH, &ndm, sizeof(ndm));
	ck_assert_int_eq(sp_nl_parse_neigh(nlmsg_hdr(m), &ifindex, &got, &n, NULL), -EBADMSG);
	nlmsg_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("hostnl");
	TCase *tc = tcase_create("hostnl");

	tcase_add_test(tc, test_dcb_get);
	tcase_add_test(tc, test_dcb_set);
	tcase_add_test(tc, test_neigh);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
