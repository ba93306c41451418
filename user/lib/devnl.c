// SPDX-License-Identifier: GPL-2.0
/*
 * The sparkperf family's own messages (nl.h): INFO_GET, DEV_GET (one
 * device or a dump) and the device events of the "events" group, built and
 * parsed with the attribute tables of nlcore.h.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.h"
#include "nlcore.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- request builders ------------------------------------------------- */

int sp_nl_info_get_msg(int family, struct nl_msg **out)
{
	return sp_nl_req(family, SPARKPERF_CMD_INFO_GET, NLM_F_ACK, out);
}

int sp_nl_dev_get_msg(int family, const char *name, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (name && (!*name || strlen(name) >= SPARKPERF_DEV_NAME_MAX))
		return -EINVAL;
	ret = sp_nl_req(family, SPARKPERF_CMD_DEV_GET, name ? NLM_F_ACK : NLM_F_DUMP, out);
	if (ret)
		return ret;
	if (name && nla_put_string(*out, SPARKPERF_A_DEV_NAME, name) < 0)
		return sp_nl_req_fail(out);
	return 0;
}

/* ---- reply parsers ---------------------------------------------------- */

static const struct field gid_fields[] = {
	FIELD_REQ(struct sp_gid, SPARKPERF_A_GID_INDEX, F_U32, index),
	FIELD(struct sp_gid, SPARKPERF_A_GID_TYPE, F_U8, type),
};

static int get_gid(struct nlattr *attr, void *dst, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_GID_MAX + 1];
	struct sp_gid *gid = dst;
	int ret;

	ret = sp_nl_parse_nested(attr, tb, SPARKPERF_A_GID_MAX, "SPARKPERF_A_PORT_GID", gid_fields,
				 ARRAY_SIZE(gid_fields), gid, why);
	if (ret)
		return ret;
	if (!tb[SPARKPERF_A_GID_GID] || nla_len(tb[SPARKPERF_A_GID_GID]) != SP_GID_LEN)
		return sp_nl_bad(why, "SPARKPERF_A_GID_GID");
	memcpy(gid->raw, nla_data(tb[SPARKPERF_A_GID_GID]), SP_GID_LEN);
	return 0;
}

static const struct field port_fields[] = {
	FIELD_REQ(struct sp_port, SPARKPERF_A_PORT_NUM, F_U32, num),
	FIELD(struct sp_port, SPARKPERF_A_PORT_STATE, F_U8, state),
	FIELD(struct sp_port, SPARKPERF_A_PORT_PHYS_STATE, F_U8, phys_state),
	FIELD(struct sp_port, SPARKPERF_A_PORT_LINK_LAYER, F_U8, link_layer),
	FIELD(struct sp_port, SPARKPERF_A_PORT_ACTIVE_MTU, F_U32, active_mtu),
	FIELD(struct sp_port, SPARKPERF_A_PORT_MAX_MTU, F_U32, max_mtu),
	FIELD(struct sp_port, SPARKPERF_A_PORT_ACTIVE_SPEED, F_U8, active_speed),
	FIELD(struct sp_port, SPARKPERF_A_PORT_ACTIVE_WIDTH, F_U8, active_width),
	FIELD(struct sp_port, SPARKPERF_A_PORT_RATE, F_U32, rate_mbps),
	/* either says that the port has a netdev */
	FIELD_HAS(struct sp_port, SPARKPERF_A_PORT_NETDEV_IFINDEX, F_U32, netdev_ifindex,
		  has_netdev),
	FIELD_HAS(struct sp_port, SPARKPERF_A_PORT_NETDEV_NAME, F_STR, netdev_name, has_netdev),
	FIELD(struct sp_port, SPARKPERF_A_PORT_NETDEV_MTU, F_U32, netdev_mtu),
	FIELD(struct sp_port, SPARKPERF_A_PORT_NETDEV_OPERSTATE, F_U8, netdev_operstate),
	FIELD_ARRAY(struct sp_port, SPARKPERF_A_PORT_GIDS, SPARKPERF_A_PORT_GID, get_gid, gids,
		    n_gids),
};

static int get_port(struct nlattr *attr, void *dst, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_PORT_MAX + 1];

	return sp_nl_parse_nested(attr, tb, SPARKPERF_A_PORT_MAX, "SPARKPERF_A_DEV_PORT",
				  port_fields, ARRAY_SIZE(port_fields), dst, why);
}

static const struct field dev_fields[] = {
	FIELD_REQ(struct sp_dev, SPARKPERF_A_DEV_INDEX, F_U32, index),
	FIELD_REQ(struct sp_dev, SPARKPERF_A_DEV_NAME, F_STR, name),
	FIELD(struct sp_dev, SPARKPERF_A_DEV_NODE_GUID, F_U64, node_guid),
	FIELD(struct sp_dev, SPARKPERF_A_DEV_NUMA_NODE, F_S32, numa_node),
	FIELD_HAS(struct sp_dev, SPARKPERF_A_DEV_PARENT, F_STR, parent, has_parent),
	FIELD_ARRAY(struct sp_dev, SPARKPERF_A_DEV_PORTS, SPARKPERF_A_DEV_PORT, get_port, ports,
		    n_ports),
};

static const struct field event_fields[] = {
	FIELD_HAS(struct sp_dev_event, SPARKPERF_A_DEV_EVENT_PORT, F_U32, port, has_port),
};

static const struct field info_fields[] = {
	FIELD_REQ(struct sp_info, SPARKPERF_A_INFO_VERSION, F_STR, version),
	FIELD(struct sp_info, SPARKPERF_A_INFO_KERNEL, F_STR, kernel),
	FIELD_HAS(struct sp_info, SPARKPERF_A_INFO_DEVICES, F_U32, devices, has_devices),
};

static const struct sp_nl_reply info_reply =
	SP_NL_REPLY(struct sp_info, SPARKPERF_A_INFO_MAX, info_fields);

int sp_nl_parse_dev(struct nlmsghdr *nlh, struct sp_dev *dev, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_DEV_MAX + 1];

	memset(dev, 0, sizeof(*dev));
	dev->numa_node = -1;
	return sp_nl_parse_fields(nlh, tb, SPARKPERF_A_DEV_MAX, dev_fields, ARRAY_SIZE(dev_fields),
				  dev, why);
}

int sp_nl_parse_event(struct nlmsghdr *nlh, struct sp_dev_event *ev, const char **why)
{
	static const enum sp_dev_event_type types[] = {
		[SPARKPERF_CMD_DEV_NEW] = SP_DEV_EVENT_NEW,
		[SPARKPERF_CMD_DEV_CHANGE] = SP_DEV_EVENT_CHANGE,
		[SPARKPERF_CMD_DEV_DEL] = SP_DEV_EVENT_DEL,
	};
	struct nlattr *tb[SPARKPERF_A_DEV_MAX + 1];
	struct genlmsghdr *ghdr;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->dev.numa_node = -1;
	if (!genlmsg_valid_hdr(nlh, 0))
		return sp_nl_bad(why, "truncated message");
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != SPARKPERF_CMD_DEV_NEW && ghdr->cmd != SPARKPERF_CMD_DEV_CHANGE &&
	    ghdr->cmd != SPARKPERF_CMD_DEV_DEL)
		return -EOPNOTSUPP;
	ev->type = types[ghdr->cmd];
	ret = sp_nl_parse_dev(nlh, &ev->dev, why);
	if (ret)
		return ret;
	return sp_nl_parse_fields(nlh, tb, SPARKPERF_A_DEV_MAX, event_fields,
				 ARRAY_SIZE(event_fields), ev, why);
}

int sp_nl_parse_info(struct nlmsghdr *nlh, struct sp_info *info, const char **why)
{
	return sp_nl_parse_reply(nlh, &info_reply, info, why);
}

/* ---- transactions ------------------------------------------------------ */

int sp_nl_info_get(struct sp_nl *nl, struct sp_info *info)
{
	struct nl_msg *msg;
	int ret = sp_nl_info_get_msg(nl->family, &msg);

	return sp_nl_transact_reply(nl, ret, msg, SPARKPERF_CMD_INFO_GET, &info_reply, info);
}

SP_NL_LIST_FNS(dev, struct sp_dev, sp_nl_parse_dev, sp_dev_list_add, sp_dev_free,
	       sp_dev_list_free)

static int dev_dump_msg(int family, struct nl_msg **out)
{
	return sp_nl_dev_get_msg(family, NULL, out);
}

int sp_nl_dev_get(struct sp_nl *nl, const char *name, struct sp_dev_list *list)
{
	struct nl_msg *msg;
	int ret;

	memset(list, 0, sizeof(*list));
	if (!name)
		return sp_nl_dump_list(nl, dev_dump_msg, SPARKPERF_CMD_DEV_GET, dev_add, list,
				       dev_reset, "device list");
	ret = sp_nl_dev_get_msg(nl->family, name, &msg);
	ret = sp_nl_transact_each(nl, ret, msg, SPARKPERF_CMD_DEV_GET, dev_add, list, NULL);
	if (ret)
		dev_reset(list);
	return ret;
}
