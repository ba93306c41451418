// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's messages that tune and check read (nl.h): "ip route get"
 * over rtnetlink, and a netdev's link modes over the "ethtool" generic
 * netlink family, on the core's requests and transactions (nlcore.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.h"
#include "nlcore.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- routes ------------------------------------------------------------ */

int sp_nl_route_get_msg(const struct sp_addr *dst, struct nl_msg **out)
{
	struct rtmsg *rtm;
	int ret;

	if (!dst || (dst->len != 4 && dst->len != 16))
		return -EINVAL;
	ret = sp_rtnl_req(RTM_GETROUTE, NLM_F_ACK, sizeof(*rtm), (void **)&rtm, out);
	if (ret)
		return ret;
	rtm->rtm_family = dst->len == 4 ? AF_INET : AF_INET6;
	rtm->rtm_dst_len = (unsigned char)(dst->len * 8);
	if (nla_put(*out, RTA_DST, dst->len, dst->raw) < 0)
		return sp_nl_req_fail(out);
	return 0;
}

static const struct field route_fields[] = {
	FIELD(struct sp_route, RTA_OIF, F_U32, oif),
	FIELD_HAS(struct sp_route, RTA_GATEWAY, F_ADDR, gateway, has_gateway),
	FIELD_HAS(struct sp_route, RTA_PREFSRC, F_ADDR, prefsrc, has_prefsrc),
};

int sp_nl_parse_route(struct nlmsghdr *nlh, struct sp_route *r, const char **why)
{
	struct nlattr *tb[RTA_MAX + 1], *mx[RTAX_MAX + 1];
	struct rtmsg *rtm;
	int ret;

	memset(r, 0, sizeof(*r));
	if (nlmsg_parse(nlh, sizeof(*rtm), tb, RTA_MAX, NULL) < 0)
		return sp_nl_bad(why, "route header");
	rtm = nlmsg_data(nlh);
	r->type = rtm->rtm_type;
	ret = sp_nl_get_fields(tb, route_fields, ARRAY_SIZE(route_fields), r, why);
	if (ret || !tb[RTA_METRICS])
		return ret;
	if (nla_parse_nested(mx, RTAX_MAX, tb[RTA_METRICS], NULL) < 0)
		return sp_nl_bad(why, "RTA_METRICS");
	if (mx[RTAX_MTU] && sp_nl_get_u32(mx[RTAX_MTU], &r->mtu))
		return sp_nl_bad(why, "RTAX_MTU");
	return 0;
}

static int parse_route_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_route(nlh, dst, why);
}

int sp_nl_route_get(struct sp_nl *rt, const struct sp_addr *dst, struct sp_route *r)
{
	struct nl_msg *msg;
	int ret = sp_nl_route_get_msg(dst, &msg);

	return sp_nl_transact_parse(rt, ret, msg, RTM_NEWROUTE, parse_route_cb, r);
}

/* ---- ethtool link modes ------------------------------------------------ */

int sp_nl_link_modes_msg(int family, const char *dev, struct nl_msg **out)
{
	struct nlattr *hdr;
	struct nl_msg *msg;

	*out = NULL;
	if (!dev || !*dev || strlen(dev) >= SP_IFNAME_MAX)
		return -EINVAL;
	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	*out = msg;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | NLM_F_ACK,
			 ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_GENL_VERSION))
		return sp_nl_req_fail(out);
	hdr = nla_nest_start(msg, ETHTOOL_A_LINKMODES_HEADER);
	if (!hdr || nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, dev) < 0)
		return sp_nl_req_fail(out);
	nla_nest_end(msg, hdr);
	return 0;
}

/*
 * The names of a verbose bit set ("200000baseCR4/Full"), each calling fn:
 * all the bits listed, which for a set with a mask are those of the mask.
 */
static int bitset_names(struct nlattr *set, void (*fn)(const char *name, void *arg), void *arg)
{
	struct nlattr *tb[ETHTOOL_A_BITSET_MAX + 1], *bit[ETHTOOL_A_BITSET_BIT_MAX + 1], *pos;
	char name[48];
	int rem;

	if (nla_parse_nested(tb, ETHTOOL_A_BITSET_MAX, set, NULL) < 0)
		return -EBADMSG;
	if (!tb[ETHTOOL_A_BITSET_BITS])
		return 0;
	nla_for_each_nested(pos, tb[ETHTOOL_A_BITSET_BITS], rem) {
		if (nla_type(pos) != ETHTOOL_A_BITSET_BITS_BIT)
			continue;
		if (nla_parse_nested(bit, ETHTOOL_A_BITSET_BIT_MAX, pos, NULL) < 0 ||
		    !bit[ETHTOOL_A_BITSET_BIT_NAME] ||
		    sp_nl_get_str_cut(bit[ETHTOOL_A_BITSET_BIT_NAME], name, sizeof(name)))
			return -EBADMSG;
		fn(name, arg);
	}
	return 0;
}

/* The speed a link mode name starts with, in Mbit/s: "200000baseCR4/Full" -> 200000. */
static uint32_t mode_mbps(const char *name)
{
	uint32_t v = 0;

	for (; *name >= '0' && *name <= '9' && v < 100000000; name++)
		v = v * 10 + (uint32_t)(*name - '0');
	return strncmp(name, "base", 4) ? 0 : v;
}

struct modes_ctx {
	struct sp_link_modes *m;
	char **peer;		/* the partner's modes, when it advertises any */
	size_t n_peer;
	bool listing_peer;
};

static void mode_seen(const char *name, void *arg)
{
	struct modes_ctx *c = arg;
	uint32_t mbps = mode_mbps(name);
	size_t i;

	if (c->listing_peer) {
		char **grown = realloc(c->peer, (c->n_peer + 1) * sizeof(*grown));

		if (grown) {
			c->peer = grown;
			c->peer[c->n_peer] = strdup(name);
			c->n_peer += c->peer[c->n_peer] != NULL;
		}
		return;
	}
	/* with a partner that advertises, only the modes it can do too */
	for (i = 0; i < c->n_peer && strcmp(c->peer[i], name); i++)
		;
	if (c->n_peer && i == c->n_peer)
		return;
	if (mbps > c->m->max_mbps) {
		c->m->max_mbps = mbps;
		snprintf(c->m->max_mode, sizeof(c->m->max_mode), "%s", name);
	}
}

int sp_nl_parse_link_modes(struct nlmsghdr *nlh, struct sp_link_modes *m, const char **why)
{
	struct nlattr *tb[ETHTOOL_A_LINKMODES_MAX + 1];
	struct modes_ctx c = { .m = m };
	size_t i;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	if (genlmsg_parse(nlh, 0, tb, ETHTOOL_A_LINKMODES_MAX, NULL) < 0)
		return sp_nl_bad(why, "link modes header");
	if (tb[ETHTOOL_A_LINKMODES_SPEED] &&
	    sp_nl_get_u32(tb[ETHTOOL_A_LINKMODES_SPEED], &m->speed_mbps))
		return sp_nl_bad(why, "ETHTOOL_A_LINKMODES_SPEED");
	/* SPEED_UNKNOWN is -1 */
	m->has_speed = tb[ETHTOOL_A_LINKMODES_SPEED] && m->speed_mbps != UINT32_MAX &&
		       m->speed_mbps;
	if (tb[ETHTOOL_A_LINKMODES_PEER]) {
		c.listing_peer = true;
		ret = bitset_names(tb[ETHTOOL_A_LINKMODES_PEER], mode_seen, &c);
		c.listing_peer = false;
	}
	if (!ret && tb[ETHTOOL_A_LINKMODES_OURS])
		ret = bitset_names(tb[ETHTOOL_A_LINKMODES_OURS], mode_seen, &c);
	for (i = 0; i < c.n_peer; i++)
		free(c.peer[i]);
	free(c.peer);
	return ret ? sp_nl_bad(why, "ETHTOOL_A_LINKMODES bit set") : 0;
}

static int parse_link_modes_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_link_modes(nlh, dst, why);
}

int sp_nl_link_modes(struct sp_nl *et, const char *dev, struct sp_link_modes *m)
{
	struct nl_msg *msg;
	int ret = sp_nl_link_modes_msg(et->family, dev, &msg);

	return sp_nl_transact_parse(et, ret, msg, ETHTOOL_MSG_LINKMODES_GET_REPLY,
			      parse_link_modes_cb, m);
}
