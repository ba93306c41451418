// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink routes and ethtool link modes (check, the trace runner, watch):
 * requests as built, and canned replies as parsed.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/ethtool_netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/genl/genl.h>

#include "lib/nl.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct nl_msg *rtnl_new(uint16_t type, const void *hdr, size_t len)
{
	struct nl_msg *m = nlmsg_alloc_simple(type, 0);

	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(nlmsg_append(m, (void *)hdr, len, NLMSG_ALIGNTO), 0);
	return m;
}

START_TEST(test_route)
{
	struct rtmsg rtm = { .rtm_family = AF_INET, .rtm_type = RTN_UNICAST };
	struct sp_addr dst = { .len = 4 }, src;
	struct nlattr *tb[RTA_MAX + 1], *mx;
	struct nl_msg *req, *m;
	struct sp_route r;

	inet_pton(AF_INET, "192.168.200.13", dst.raw);
	ck_assert_int_eq(sp_nl_route_get_msg(&dst, &req), 0);
	ck_assert_int_eq(nlmsg_hdr(req)->nlmsg_type, RTM_GETROUTE);
	ck_assert_int_eq(((struct rtmsg *)nlmsg_data(nlmsg_hdr(req)))->rtm_dst_len, 32);
	ck_assert_int_eq(nlmsg_parse(nlmsg_hdr(req), sizeof(rtm), tb, RTA_MAX, NULL), 0);
	ck_assert_int_eq(memcmp(nla_data(tb[RTA_DST]), dst.raw, 4), 0);
	nlmsg_free(req);

	src.len = 4;
	inet_pton(AF_INET, "192.168.200.12", src.raw);
	m = rtnl_new(RTM_NEWROUTE, &rtm, sizeof(rtm));
	nla_put_u32(m, RTA_OIF, 2);
	nla_put(m, RTA_PREFSRC, 4, src.raw);
	mx = nla_nest_start(m, RTA_METRICS);
	nla_put_u32(m, RTAX_MTU, 1500);
	nla_nest_end(m, mx);
	ck_assert_int_eq(sp_nl_parse_route(nlmsg_hdr(m), &r, NULL), 0);
	ck_assert_uint_eq(r.type, RTN_UNICAST);
	ck_assert_uint_eq(r.oif, 2);
	ck_assert(!r.has_gateway);
	ck_assert(r.has_prefsrc);
	ck_assert_int_eq(memcmp(r.prefsrc.raw, src.raw, 4), 0);
	ck_assert_uint_eq(r.mtu, 1500);
	nlmsg_free(m);
}
END_TEST

/* A verbose bit set of named bits, each with BIT_VALUE when value. */
static void put_bitset(struct nl_msg *m, int type, const char *const *names, size_t n)
{
	struct nlattr *set = nla_nest_start(m, type), *bits, *bit;
	size_t i;

	nla_put_u32(m, ETHTOOL_A_BITSET_SIZE, 100);
	bits = nla_nest_start(m, ETHTOOL_A_BITSET_BITS);
	for (i = 0; i < n; i++) {
		bit = nla_nest_start(m, ETHTOOL_A_BITSET_BITS_BIT);
		nla_put_u32(m, ETHTOOL_A_BITSET_BIT_INDEX, (uint32_t)i);
		nla_put_string(m, ETHTOOL_A_BITSET_BIT_NAME, names[i]);
		nla_nest_end(m, bit);
	}
	nla_nest_end(m, bits);
	nla_nest_end(m, set);
}

static struct nl_msg *link_modes_reply(uint32_t speed, const char *const *ours, size_t n_ours,
				       const char *const *peer, size_t n_peer)
{
	struct nl_msg *m = genl_new(ETHTOOL_MSG_LINKMODES_GET_REPLY, 0);

	nla_put_u32(m, ETHTOOL_A_LINKMODES_SPEED, speed);
	put_bitset(m, ETHTOOL_A_LINKMODES_OURS, ours, n_ours);
	if (peer)
		put_bitset(m, ETHTOOL_A_LINKMODES_PEER, peer, n_peer);
	return m;
}

START_TEST(test_link_modes)
{
	static const char *const ours[] = {
		"100000baseCR2/Full", "200000baseCR4/Full", "400000baseCR4/Full", "Autoneg",
	};
	static const char *const peer[] = { "100000baseCR2/Full", "200000baseCR4/Full" };
	struct nlattr *tb[ETHTOOL_A_LINKMODES_MAX + 1], *hdr[ETHTOOL_A_HEADER_MAX + 1];
	struct sp_link_modes lm;
	struct nl_msg *req, *m;

	ck_assert_int_eq(sp_nl_link_modes_msg(FAMILY, "enp1s0f0np0", &req), 0);
	ck_assert_int_eq(genlmsg_parse(nlmsg_hdr(req), 0, tb, ETHTOOL_A_LINKMODES_MAX, NULL), 0);
	ck_assert_int_eq(nla_parse_nested(hdr, ETHTOOL_A_HEADER_MAX,
					  tb[ETHTOOL_A_LINKMODES_HEADER], NULL), 0);
	ck_assert_str_eq(nla_get_string(hdr[ETHTOOL_A_HEADER_DEV_NAME]), "enp1s0f0np0");
	/* verbose bit sets: names, not a compact mask */
	ck_assert_ptr_null(hdr[ETHTOOL_A_HEADER_FLAGS]);
	nlmsg_free(req);

	/* no partner modes: the fastest of ours */
	m = link_modes_reply(100000, ours, ARRAY_SIZE(ours), NULL, 0);
	ck_assert_int_eq(sp_nl_parse_link_modes(nlmsg_hdr(m), &lm, NULL), 0);
	ck_assert(lm.has_speed);
	ck_assert_uint_eq(lm.speed_mbps, 100000);
	ck_assert_uint_eq(lm.max_mbps, 400000);
	ck_assert_str_eq(lm.max_mode, "400000baseCR4/Full");
	nlmsg_free(m);

	/* with a partner: the fastest both can do */
	m = link_modes_reply(100000, ours, ARRAY_SIZE(ours), peer, ARRAY_SIZE(peer));
	ck_assert_int_eq(sp_nl_parse_link_modes(nlmsg_hdr(m), &lm, NULL), 0);
	ck_assert_uint_eq(lm.max_mbps, 200000);
	ck_assert_str_eq(lm.max_mode, "200000baseCR4/Full");
	nlmsg_free(m);

	/* a virtual NIC: unknown speed, no modes */
	m = link_modes_reply(UINT32_MAX, NULL, 0, NULL, 0);
	ck_assert_int_eq(sp_nl_parse_link_modes(nlmsg_hdr(m), &lm, NULL), 0);
	ck_assert(!lm.has_speed);
	ck_assert_uint_eq(lm.max_mbps, 0);
	nlmsg_free(m);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rtnl");
	TCase *tc = tcase_create("rtnl");

	tcase_add_test(tc, test_route);
	tcase_add_test(tc, test_link_modes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
