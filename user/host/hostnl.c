// SPDX-License-Identifier: GPL-2.0
/*
 * The host's rtnetlink requests that only tune and check make: a netdev's
 * DCB (IEEE PFC and DSCP APP entries, DCB_CMD_IEEE_GET/SET/DEL) and its
 * neighbour entries, on the core's requests and transactions (lib/nlcore.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "hostnl.h"
#include "lib/nlcore.h"

static int dcb_req(uint16_t type, uint8_t cmd, const char *dev, struct nl_msg **out)
{
	struct dcbmsg *d;
	int ret;

	if (!dev || !*dev || strlen(dev) >= SP_IFNAME_MAX)
		return -EINVAL;
	ret = sp_rtnl_req(type, NLM_F_ACK, sizeof(*d), (void **)&d, out);
	if (ret)
		return ret;
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	if (nla_put_string(*out, DCB_ATTR_IFNAME, dev) < 0)
		return sp_nl_req_fail(out);
	return 0;
}

int sp_nl_dcb_get_msg(const char *dev, struct nl_msg **out)
{
	return dcb_req(RTM_GETDCB, DCB_CMD_IEEE_GET, dev, out);
}

int sp_nl_dcb_set_msg(const char *dev, bool del, const struct ieee_pfc *pfc,
		      const struct sp_dscp_map *dscp, struct nl_msg **out)
{
	struct nlattr *ieee, *table;
	size_t i;
	int ret;

	ret = dcb_req(RTM_SETDCB, del ? DCB_CMD_IEEE_DEL : DCB_CMD_IEEE_SET, dev, out);
	if (ret)
		return ret;
	ieee = nla_nest_start(*out, DCB_ATTR_IEEE);
	if (!ieee || (pfc && !del && nla_put(*out, DCB_ATTR_IEEE_PFC, sizeof(*pfc), pfc) < 0))
		return sp_nl_req_fail(out);
	if (dscp) {
		table = nla_nest_start(*out, DCB_ATTR_IEEE_APP_TABLE);
		if (!table)
			return sp_nl_req_fail(out);
		for (i = 0; i < SP_DSCP_COUNT; i++) {
			struct dcb_app app = {
				.selector = IEEE_8021QAZ_APP_SEL_DSCP,
				.priority = dscp->prio[i],
				.protocol = (uint16_t)i,
			};

			if (dscp->has[i] &&
			    nla_put(*out, DCB_ATTR_IEEE_APP, sizeof(app), &app) < 0)
				return sp_nl_req_fail(out);
		}
		nla_nest_end(*out, table);
	}
	nla_nest_end(*out, ieee);
	return 0;
}

int sp_nl_parse_dcb(struct nlmsghdr *nlh, struct sp_dcb *dcb, const char **why)
{
	struct nlattr *tb[DCB_ATTR_MAX + 1], *ieee[DCB_ATTR_IEEE_MAX + 1], *pos;
	int rem;

	memset(dcb, 0, sizeof(*dcb));
	if (nlmsg_parse(nlh, sizeof(struct dcbmsg), tb, DCB_ATTR_MAX, NULL) < 0)
		return sp_nl_bad(why, "DCB header");
	if (!tb[DCB_ATTR_IEEE] ||
	    nla_parse_nested(ieee, DCB_ATTR_IEEE_MAX, tb[DCB_ATTR_IEEE], NULL) < 0)
		return sp_nl_bad(why, "DCB_ATTR_IEEE");
	if (ieee[DCB_ATTR_IEEE_PFC]) {
		/* an older kernel's struct may be shorter: the rest stays zero */
		size_t len = (size_t)nla_len(ieee[DCB_ATTR_IEEE_PFC]);

		memcpy(&dcb->pfc, nla_data(ieee[DCB_ATTR_IEEE_PFC]),
		       len < sizeof(dcb->pfc) ? len : sizeof(dcb->pfc));
		dcb->has_pfc = true;
	}
	if (!ieee[DCB_ATTR_IEEE_APP_TABLE])
		return 0;
	nla_for_each_nested(pos, ieee[DCB_ATTR_IEEE_APP_TABLE], rem) {
		const struct dcb_app *app;

		if (nla_type(pos) != DCB_ATTR_IEEE_APP)
			continue;
		if (nla_len(pos) < (int)sizeof(*app))
			return sp_nl_bad(why, "DCB_ATTR_IEEE_APP");
		app = nla_data(pos);
		if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= SP_DSCP_COUNT)
			continue;
		dcb->dscp.has[app->protocol] = true;
		dcb->dscp.prio[app->protocol] = app->priority & 7;
	}
	return 0;
}

/* The status a DCB SET or DEL reply carries (the kernel answers 0 to the request). */
int sp_nl_parse_dcb_status(struct nlmsghdr *nlh, int *status, const char **why)
{
	struct nlattr *tb[DCB_ATTR_MAX + 1];

	if (nlmsg_parse(nlh, sizeof(struct dcbmsg), tb, DCB_ATTR_MAX, NULL) < 0)
		return sp_nl_bad(why, "DCB header");
	if (!tb[DCB_ATTR_IEEE] || nla_len(tb[DCB_ATTR_IEEE]) != 1)
		return sp_nl_bad(why, "DCB_ATTR_IEEE status");
	/* the driver's negative errno, cut to a u8 by dcbnl */
	*status = (int8_t)nla_get_u8(tb[DCB_ATTR_IEEE]);
	return 0;
}

static int parse_dcb_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_dcb(nlh, dst, why);
}

static int parse_dcb_status_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_dcb_status(nlh, dst, why);
}

int sp_nl_dcb_get(struct sp_nl *rt, const char *dev, struct sp_dcb *dcb)
{
	struct nl_msg *msg;
	int ret = sp_nl_dcb_get_msg(dev, &msg);

	return sp_nl_transact_parse(rt, ret, msg, RTM_GETDCB, parse_dcb_cb, dcb);
}

int sp_nl_dcb_set(struct sp_nl *rt, const char *dev, bool del, const struct ieee_pfc *pfc,
		  const struct sp_dscp_map *dscp)
{
	struct nl_msg *msg;
	int status = 0, ret = sp_nl_dcb_set_msg(dev, del, pfc, dscp, &msg);

	ret = sp_nl_transact_parse(rt, ret, msg, RTM_SETDCB, parse_dcb_status_cb, &status);
	if (!ret && status) {
		char why[SP_NL_ERRMSG_MAX];

		ret = status < 0 ? status : -EIO;
		snprintf(why, sizeof(why), "the driver of %s refused: %s", dev, strerror(-ret));
		sp_nl_set_err(rt, ret, why);
	}
	return ret;
}

int sp_nl_neigh_dump_msg(uint8_t family, struct nl_msg **out)
{
	struct ndmsg *ndm;
	int ret = sp_rtnl_req(RTM_GETNEIGH, NLM_F_DUMP, sizeof(*ndm), (void **)&ndm, out);

	if (!ret)
		ndm->ndm_family = family;
	return ret;
}

int sp_nl_parse_neigh(struct nlmsghdr *nlh, uint32_t *ifindex, struct sp_addr *dst,
		      struct sp_neigh *n, const char **why)
{
	struct nlattr *tb[NDA_MAX + 1];
	struct ndmsg *ndm;

	memset(n, 0, sizeof(*n));
	memset(dst, 0, sizeof(*dst));
	if (nlmsg_parse(nlh, sizeof(*ndm), tb, NDA_MAX, NULL) < 0)
		return sp_nl_bad(why, "neighbour header");
	ndm = nlmsg_data(nlh);
	*ifindex = (uint32_t)ndm->ndm_ifindex;
	n->state = ndm->ndm_state;
	if (!tb[NDA_DST] || sp_nl_get_addr(tb[NDA_DST], dst))
		return sp_nl_bad(why, "NDA_DST");
	if (tb[NDA_LLADDR]) {
		int len = nla_len(tb[NDA_LLADDR]);

		if (len < 0 || len > SP_LLADDR_MAX)
			return sp_nl_bad(why, "NDA_LLADDR");
		n->lladdr_len = (uint8_t)len;
		memcpy(n->lladdr, nla_data(tb[NDA_LLADDR]), (size_t)len);
	}
	return 0;
}

struct neigh_ctx {
	struct sp_nl *rt;
	uint32_t ifindex;
	const struct sp_addr *dst;
	struct sp_neigh *out;
	bool found;
};

static int neigh_valid(struct nlmsghdr *nlh, void *arg)
{
	struct neigh_ctx *c = arg;
	const char *why = "?";
	struct sp_addr dst;
	struct sp_neigh n;
	uint32_t ifindex;
	int ret = sp_nl_parse_neigh(nlh, &ifindex, &dst, &n, &why);

	if (ret) {
		char msg[SP_NL_ERRMSG_MAX];

		snprintf(msg, sizeof(msg), "malformed neighbour entry from the kernel (%s)", why);
		sp_nl_set_err(c->rt, ret, msg);
		return ret;
	}
	if (ifindex == c->ifindex && dst.len == c->dst->len &&
	    !memcmp(dst.raw, c->dst->raw, dst.len)) {
		*c->out = n;
		c->found = true;
	}
	return 0;
}

int sp_nl_neigh_get(struct sp_nl *rt, uint32_t ifindex, const struct sp_addr *dst,
		    struct sp_neigh *n)
{
	struct neigh_ctx c = { .rt = rt, .ifindex = ifindex, .dst = dst, .out = n };
	struct nl_msg *msg;
	int ret, attempt;

	for (attempt = 0;; attempt++) {
		ret = sp_nl_neigh_dump_msg(dst->len == 4 ? AF_INET : AF_INET6, &msg);
		if (ret)
			return ret;
		ret = sp_nl_transact(rt, msg, RTM_NEWNEIGH, neigh_valid, &c);
		if (ret != -EINTR || attempt == sp_nl_dump_retries)
			break;
		c.found = false;
	}
	if (!ret && !c.found)
		ret = -ENOENT;
	return ret;
}
