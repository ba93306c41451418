// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink requests and replies of sparkperf-ctl (user/nl.c) without a socket:
 * requests are built and inspected, kernel answers are built here with libnl
 * (nla_put_*, nla_nest_start) and fed to the parsers and to the reply state
 * machine. Also the formatters and the error report lines.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "lib/err.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


static void put_gid(struct nl_msg *msg, uint32_t index, uint8_t type, const char *addr)
{
	struct nlattr *gid = nla_nest_start(msg, SPARKPERF_A_PORT_GID);
	uint8_t raw[16];

	ck_assert_int_eq(inet_pton(AF_INET6, addr, raw), 1);
	ck_assert_ptr_nonnull(gid);
	ck_assert_int_eq(nla_put_u32(msg, SPARKPERF_A_GID_INDEX, index), 0);
	ck_assert_int_eq(nla_put_u8(msg, SPARKPERF_A_GID_TYPE, type), 0);
	ck_assert_int_eq(nla_put(msg, SPARKPERF_A_GID_GID, 16, raw), 0);
	nla_nest_end(msg, gid);
}

/* The device header attributes, in the order the module sends them. */
static void put_dev_head(struct nl_msg *msg, uint32_t index, const char *name)
{
	ck_assert_int_eq(nla_put_u32(msg, SPARKPERF_A_DEV_INDEX, index), 0);
	ck_assert_int_eq(nla_put_string(msg, SPARKPERF_A_DEV_NAME, name), 0);
}

/*
 * rxe0 (index 3): port 1 RoCE on eth0 with three GIDs; port 2 InfiniBand
 * without any netdev attribute. Unknown attributes (a newer module) are
 * sprinkled in and must be ignored.
 */
static void put_rxe0(struct nl_msg *msg)
{
	struct nlattr *ports, *port, *gids;

	put_dev_head(msg, 3, "rxe0");
	/* nla_put_u64_64bit() may put a pad attribute first */
	ck_assert_int_eq(nla_put(msg, SPARKPERF_A_DEV_PAD, 0, NULL), 0);
	ck_assert_int_eq(nla_put_u64(msg, SPARKPERF_A_DEV_NODE_GUID, 0x505400fffe123456ULL), 0);
	ck_assert_int_eq(nla_put_s32(msg, SPARKPERF_A_DEV_NUMA_NODE, -1), 0);
	ck_assert_int_eq(nla_put_string(msg, SPARKPERF_A_DEV_PARENT, "0000:00:02.0"), 0);
	ck_assert_int_eq(nla_put_u32(msg, SPARKPERF_A_DEV_MAX + 7, 0xdead), 0);

	ports = nla_nest_start(msg, SPARKPERF_A_DEV_PORTS);
	port = nla_nest_start(msg, SPARKPERF_A_DEV_PORT);
	nla_put_u32(msg, SPARKPERF_A_PORT_NUM, 1);
	nla_put_u8(msg, SPARKPERF_A_PORT_STATE, SPARKPERF_PORT_ACTIVE);
	nla_put_u8(msg, SPARKPERF_A_PORT_PHYS_STATE, SPARKPERF_PHYS_LINK_UP);
	nla_put_u8(msg, SPARKPERF_A_PORT_LINK_LAYER, SPARKPERF_LINK_LAYER_ETHERNET);
	nla_put_u32(msg, SPARKPERF_A_PORT_ACTIVE_MTU, 1024);
	nla_put_u32(msg, SPARKPERF_A_PORT_MAX_MTU, 4096);
	nla_put_u8(msg, SPARKPERF_A_PORT_ACTIVE_SPEED, SPARKPERF_SPEED_EDR);
	nla_put_u8(msg, SPARKPERF_A_PORT_ACTIVE_WIDTH, 4);
	nla_put_u32(msg, SPARKPERF_A_PORT_RATE, 100000);
	nla_put_u32(msg, SPARKPERF_A_PORT_NETDEV_IFINDEX, 2);
	nla_put_string(msg, SPARKPERF_A_PORT_NETDEV_NAME, "eth0");
	nla_put_u32(msg, SPARKPERF_A_PORT_NETDEV_MTU, 1500);
	nla_put_u8(msg, SPARKPERF_A_PORT_NETDEV_OPERSTATE, IF_OPER_UP);
	nla_put_u32(msg, SPARKPERF_A_PORT_MAX + 3, 1);
	gids = nla_nest_start(msg, SPARKPERF_A_PORT_GIDS);
	put_gid(msg, 0, SPARKPERF_GID_TYPE_ROCE_V1, "fe80::5054:ff:fe12:3456");
	put_gid(msg, 1, SPARKPERF_GID_TYPE_ROCE_V2, "::ffff:10.0.2.15");
	put_gid(msg, 5, SPARKPERF_GID_TYPE_ROCE_V2, "::ffff:192.168.200.12");
	nla_nest_end(msg, gids);
	nla_nest_end(msg, port);

	port = nla_nest_start(msg, SPARKPERF_A_DEV_PORT);
	nla_put_u32(msg, SPARKPERF_A_PORT_NUM, 2);
	nla_put_u8(msg, SPARKPERF_A_PORT_STATE, SPARKPERF_PORT_DOWN);
	nla_put_u8(msg, SPARKPERF_A_PORT_PHYS_STATE, SPARKPERF_PHYS_POLLING);
	nla_put_u8(msg, SPARKPERF_A_PORT_LINK_LAYER, SPARKPERF_LINK_LAYER_INFINIBAND);
	nla_put_u32(msg, SPARKPERF_A_PORT_ACTIVE_MTU, 4096);
	nla_put_u32(msg, SPARKPERF_A_PORT_MAX_MTU, 4096);
	nla_put_u8(msg, SPARKPERF_A_PORT_ACTIVE_SPEED, SPARKPERF_SPEED_NDR);
	nla_put_u8(msg, SPARKPERF_A_PORT_ACTIVE_WIDTH, 2);
	nla_put_u32(msg, SPARKPERF_A_PORT_RATE, 200000);
	gids = nla_nest_start(msg, SPARKPERF_A_PORT_GIDS);
	put_gid(msg, 0, SPARKPERF_GID_TYPE_IB, "fe80::2:c903:f:1234");
	nla_nest_end(msg, gids);
	nla_nest_end(msg, port);
	nla_nest_end(msg, ports);
}

static void assert_gid(const struct sp_gid *g, uint32_t index, uint8_t type, const char *addr)
{
	uint8_t raw[16];

	ck_assert_int_eq(inet_pton(AF_INET6, addr, raw), 1);
	ck_assert_uint_eq(g->index, index);
	ck_assert_uint_eq(g->type, type);
	ck_assert_mem_eq(g->raw, raw, 16);
}

static void assert_rxe0(const struct sp_dev *d)
{
	const struct sp_port *p;

	ck_assert_uint_eq(d->index, 3);
	ck_assert_str_eq(d->name, "rxe0");
	ck_assert_uint_eq(d->node_guid, 0x505400fffe123456ULL);
	ck_assert_int_eq(d->numa_node, -1);
	ck_assert(d->has_parent);
	ck_assert_str_eq(d->parent, "0000:00:02.0");
	ck_assert_uint_eq(d->n_ports, 2);

	p = &d->ports[0];
	ck_assert_uint_eq(p->num, 1);
	ck_assert_uint_eq(p->state, SPARKPERF_PORT_ACTIVE);
	ck_assert_uint_eq(p->phys_state, SPARKPERF_PHYS_LINK_UP);
	ck_assert_uint_eq(p->link_layer, SPARKPERF_LINK_LAYER_ETHERNET);
	ck_assert_uint_eq(p->active_mtu, 1024);
	ck_assert_uint_eq(p->max_mtu, 4096);
	ck_assert_uint_eq(p->active_speed, SPARKPERF_SPEED_EDR);
	ck_assert_uint_eq(p->active_width, 4);
	ck_assert_uint_eq(p->rate_mbps, 100000);
	ck_assert(p->has_netdev);
	ck_assert_uint_eq(p->netdev_ifindex, 2);
	ck_assert_str_eq(p->netdev_name, "eth0");
	ck_assert_uint_eq(p->netdev_mtu, 1500);
	ck_assert_uint_eq(p->netdev_operstate, IF_OPER_UP);
	ck_assert_uint_eq(p->n_gids, 3);
	assert_gid(&p->gids[0], 0, SPARKPERF_GID_TYPE_ROCE_V1, "fe80::5054:ff:fe12:3456");
	assert_gid(&p->gids[1], 1, SPARKPERF_GID_TYPE_ROCE_V2, "::ffff:10.0.2.15");
	assert_gid(&p->gids[2], 5, SPARKPERF_GID_TYPE_ROCE_V2, "::ffff:192.168.200.12");

	p = &d->ports[1];
	ck_assert_uint_eq(p->num, 2);
	ck_assert_uint_eq(p->state, SPARKPERF_PORT_DOWN);
	ck_assert_uint_eq(p->phys_state, SPARKPERF_PHYS_POLLING);
	ck_assert_uint_eq(p->link_layer, SPARKPERF_LINK_LAYER_INFINIBAND);
	ck_assert_uint_eq(p->active_speed, SPARKPERF_SPEED_NDR);
	ck_assert_uint_eq(p->active_width, 2);
	ck_assert_uint_eq(p->rate_mbps, 200000);
	ck_assert(!p->has_netdev);
	ck_assert_str_eq(p->netdev_name, "");
	ck_assert_uint_eq(p->n_gids, 1);
	assert_gid(&p->gids[0], 0, SPARKPERF_GID_TYPE_IB, "fe80::2:c903:f:1234");
}

/* ---- request building --------------------------------------------------- */

START_TEST(test_build_dump)
{
	struct nl_msg *msg = NULL;
	struct nlmsghdr *nlh;
	struct genlmsghdr *ghdr;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, NULL, &msg), 0);
	nlh = nlmsg_hdr(msg);
	ck_assert_uint_eq(nlh->nlmsg_type, FAMILY);
	ck_assert_uint_eq(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
	ck_assert_uint_eq(nlh->nlmsg_len, NLMSG_HDRLEN + GENL_HDRLEN);
	ghdr = nlmsg_data(nlh);
	ck_assert_uint_eq(ghdr->cmd, SPARKPERF_CMD_DEV_GET);
	ck_assert_uint_eq(ghdr->version, SPARKPERF_GENL_VERSION);
	ck_assert_uint_eq(ghdr->reserved, 0);
	ck_assert_int_eq(genlmsg_attrlen(ghdr, 0), 0);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_build_doit)
{
	struct nlattr *tb[SPARKPERF_A_DEV_MAX + 1];
	struct nl_msg *msg = NULL;
	struct nlmsghdr *nlh;
	struct genlmsghdr *ghdr;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, "rxe0", &msg), 0);
	nlh = nlmsg_hdr(msg);
	ck_assert_uint_eq(nlh->nlmsg_type, FAMILY);
	ck_assert_uint_eq(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	ck_assert(!(nlh->nlmsg_flags & NLM_F_DUMP));
	ghdr = nlmsg_data(nlh);
	ck_assert_uint_eq(ghdr->cmd, SPARKPERF_CMD_DEV_GET);
	ck_assert_uint_eq(ghdr->version, SPARKPERF_GENL_VERSION);
	/* exactly one attribute: the NUL-terminated name */
	ck_assert_int_eq(genlmsg_attrlen(ghdr, 0), NLA_ALIGN(NLA_HDRLEN + 5));
	ck_assert_int_eq(genlmsg_parse(nlh, 0, tb, SPARKPERF_A_DEV_MAX, NULL), 0);
	ck_assert_ptr_nonnull(tb[SPARKPERF_A_DEV_NAME]);
	ck_assert_int_eq(nla_len(tb[SPARKPERF_A_DEV_NAME]), 5);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_DEV_NAME]), "rxe0", 5);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_build_errors)
{
	char name[SPARKPERF_DEV_NAME_MAX + 1];
	struct nl_msg *msg = (struct nl_msg *)1;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, "", &msg), -EINVAL);
	ck_assert_ptr_null(msg);
	memset(name, 'x', sizeof(name));
	name[SPARKPERF_DEV_NAME_MAX] = '\0';	/* 64 characters: one too many */
	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, name, &msg), -EINVAL);
	name[SPARKPERF_DEV_NAME_MAX - 1] = '\0';	/* 63 is the longest */
	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, name, &msg), 0);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_build_info)
{
	struct nl_msg *msg = NULL;
	struct nlmsghdr *nlh;
	struct genlmsghdr *ghdr;

	ck_assert_int_eq(sp_nl_info_get_msg(FAMILY, &msg), 0);
	nlh = nlmsg_hdr(msg);
	ck_assert_uint_eq(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	ghdr = nlmsg_data(nlh);
	ck_assert_uint_eq(ghdr->cmd, SPARKPERF_CMD_INFO_GET);
	ck_assert_uint_eq(ghdr->version, SPARKPERF_GENL_VERSION);
	ck_assert_int_eq(genlmsg_attrlen(ghdr, 0), 0);
	nlmsg_free(msg);
}
END_TEST

/* ---- reply parsing ------------------------------------------------------ */

START_TEST(test_parse_dev)
{
	struct nl_msg *msg = genl_new(SPARKPERF_CMD_DEV_GET, NLM_F_MULTI);
	const char *why = NULL;
	struct sp_dev d;

	put_rxe0(msg);
	ck_assert_int_eq(sp_nl_parse_dev(nlmsg_hdr(msg), &d, &why), 0);
	ck_assert_ptr_null(why);
	assert_rxe0(&d);
	sp_dev_free(&d);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_parse_dev_minimal)
{
	struct nl_msg *msg = genl_new(SPARKPERF_CMD_DEV_GET, 0);
	struct sp_dev d;

	put_dev_head(msg, 9, "mlx5_0");
	ck_assert_int_eq(sp_nl_parse_dev(nlmsg_hdr(msg), &d, NULL), 0);
	ck_assert_uint_eq(d.index, 9);
	ck_assert_str_eq(d.name, "mlx5_0");
	ck_assert_int_eq(d.numa_node, -1);	/* unknown unless told */
	ck_assert(!d.has_parent);
	ck_assert_uint_eq(d.n_ports, 0);
	ck_assert_ptr_null(d.ports);
	sp_dev_free(&d);
	nlmsg_free(msg);
}
END_TEST

/* Each case: a message the parser must reject, and the attribute it names. */
enum bad_case {
	BAD_NO_INDEX, BAD_INDEX_U16, BAD_NAME_NO_NUL, BAD_NAME_TOO_LONG, BAD_GUID_U32,
	BAD_PORT_NO_NUM, BAD_PORT_STATE_U32, BAD_GID_SHORT, BAD_GID_NO_INDEX,
	BAD_IFNAME_TOO_LONG, BAD_NUMA_U8, BAD_MAX
};

static const char *const bad_why[BAD_MAX] = {
	[BAD_NO_INDEX] = "SPARKPERF_A_DEV_INDEX",
	[BAD_INDEX_U16] = "SPARKPERF_A_DEV_INDEX",
	[BAD_NAME_NO_NUL] = "SPARKPERF_A_DEV_NAME",
	[BAD_NAME_TOO_LONG] = "SPARKPERF_A_DEV_NAME",
	[BAD_GUID_U32] = "SPARKPERF_A_DEV_NODE_GUID",
	[BAD_PORT_NO_NUM] = "SPARKPERF_A_PORT_NUM",
	[BAD_PORT_STATE_U32] = "SPARKPERF_A_PORT_STATE",
	[BAD_GID_SHORT] = "SPARKPERF_A_GID_GID",
	[BAD_GID_NO_INDEX] = "SPARKPERF_A_GID_INDEX",
	[BAD_IFNAME_TOO_LONG] = "SPARKPERF_A_PORT_NETDEV_NAME",
	[BAD_NUMA_U8] = "SPARKPERF_A_DEV_NUMA_NODE",
};

START_TEST(test_parse_dev_malformed)
{
	struct nl_msg *msg = genl_new(SPARKPERF_CMD_DEV_GET, 0);
	struct nlattr *ports, *port, *gids, *gid;
	char longname[SPARKPERF_DEV_NAME_MAX + 1];
	const char *why = NULL;
	uint8_t raw[15] = { 0 };
	struct sp_dev d;
	int c = _i;

	memset(longname, 'x', sizeof(longname));
	longname[SPARKPERF_DEV_NAME_MAX] = '\0';
	if (c != BAD_NO_INDEX && c != BAD_INDEX_U16)
		nla_put_u32(msg, SPARKPERF_A_DEV_INDEX, 1);
	if (c == BAD_INDEX_U16)
		nla_put_u16(msg, SPARKPERF_A_DEV_INDEX, 1);
	if (c == BAD_NAME_NO_NUL)
		nla_put(msg, SPARKPERF_A_DEV_NAME, 4, "rxe0");
	else if (c == BAD_NAME_TOO_LONG)
		nla_put_string(msg, SPARKPERF_A_DEV_NAME, longname);
	else
		nla_put_string(msg, SPARKPERF_A_DEV_NAME, "rxe0");
	if (c == BAD_GUID_U32)
		nla_put_u32(msg, SPARKPERF_A_DEV_NODE_GUID, 1);
	if (c == BAD_NUMA_U8)
		nla_put_u8(msg, SPARKPERF_A_DEV_NUMA_NODE, 1);

	ports = nla_nest_start(msg, SPARKPERF_A_DEV_PORTS);
	port = nla_nest_start(msg, SPARKPERF_A_DEV_PORT);
	if (c != BAD_PORT_NO_NUM)
		nla_put_u32(msg, SPARKPERF_A_PORT_NUM, 1);
	if (c == BAD_PORT_STATE_U32)
		nla_put_u32(msg, SPARKPERF_A_PORT_STATE, SPARKPERF_PORT_ACTIVE);
	if (c == BAD_IFNAME_TOO_LONG)
		nla_put_string(msg, SPARKPERF_A_PORT_NETDEV_NAME, "sixteen_chars_xx");
	gids = nla_nest_start(msg, SPARKPERF_A_PORT_GIDS);
	gid = nla_nest_start(msg, SPARKPERF_A_PORT_GID);
	if (c != BAD_GID_NO_INDEX)
		nla_put_u32(msg, SPARKPERF_A_GID_INDEX, 0);
	if (c == BAD_GID_SHORT)
		nla_put(msg, SPARKPERF_A_GID_GID, sizeof(raw), raw);
	else
		nla_put(msg, SPARKPERF_A_GID_GID, 16, "0123456789abcdef");
	nla_nest_end(msg, gid);
	nla_nest_end(msg, gids);
	nla_nest_end(msg, port);
	nla_nest_end(msg, ports);

	ck_assert_int_eq(sp_nl_parse_dev(nlmsg_hdr(msg), &d, &why), -EBADMSG);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, bad_why[c]);
	sp_dev_free(&d);	/* also after a failure: no leak (valgrind) */
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_parse_truncated)
{
	struct nl_msg *msg = nlmsg_alloc_simple(FAMILY, 0);
	struct sp_dev d;

	/* a message too short for a generic netlink header */
	ck_assert_int_eq(sp_nl_parse_dev(nlmsg_hdr(msg), &d, NULL), -EBADMSG);
	sp_dev_free(&d);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_parse_info)
{
	struct nl_msg *msg = genl_new(SPARKPERF_CMD_INFO_GET, 0);
	struct sp_info info;
	const char *why = NULL;

	nla_put_string(msg, SPARKPERF_A_INFO_VERSION, "0.1.0");
	nla_put_string(msg, SPARKPERF_A_INFO_KERNEL, "6.1.0-18-amd64");
	nla_put_u32(msg, SPARKPERF_A_INFO_DEVICES, 2);
	ck_assert_int_eq(sp_nl_parse_info(nlmsg_hdr(msg), &info, &why), 0);
	ck_assert_str_eq(info.version, "0.1.0");
	ck_assert_str_eq(info.kernel, "6.1.0-18-amd64");
	ck_assert(info.has_devices);
	ck_assert_uint_eq(info.devices, 2);
	nlmsg_free(msg);

	msg = genl_new(SPARKPERF_CMD_INFO_GET, 0);
	nla_put_u32(msg, SPARKPERF_A_INFO_DEVICES, 2);
	ck_assert_int_eq(sp_nl_parse_info(nlmsg_hdr(msg), &info, &why), -EBADMSG);
	ck_assert_str_eq(why, "SPARKPERF_A_INFO_VERSION");
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_parse_events)
{
	struct nl_msg *msg = genl_new(SPARKPERF_CMD_DEV_CHANGE, 0);
	struct sp_dev_event ev;

	put_rxe0(msg);
	nla_put_u32(msg, SPARKPERF_A_DEV_EVENT_PORT, 2);
	ck_assert_int_eq(sp_nl_parse_event(nlmsg_hdr(msg), &ev, NULL), 0);
	ck_assert_int_eq(ev.type, SP_DEV_EVENT_CHANGE);
	ck_assert(ev.has_port);
	ck_assert_uint_eq(ev.port, 2);
	assert_rxe0(&ev.dev);
	sp_dev_free(&ev.dev);
	nlmsg_free(msg);

	msg = genl_new(SPARKPERF_CMD_DEV_NEW, 0);
	put_rxe0(msg);
	ck_assert_int_eq(sp_nl_parse_event(nlmsg_hdr(msg), &ev, NULL), 0);
	ck_assert_int_eq(ev.type, SP_DEV_EVENT_NEW);
	ck_assert(!ev.has_port);
	assert_rxe0(&ev.dev);
	sp_dev_free(&ev.dev);
	nlmsg_free(msg);

	msg = genl_new(SPARKPERF_CMD_DEV_DEL, 0);
	put_dev_head(msg, 3, "rxe0");
	ck_assert_int_eq(sp_nl_parse_event(nlmsg_hdr(msg), &ev, NULL), 0);
	ck_assert_int_eq(ev.type, SP_DEV_EVENT_DEL);
	ck_assert_uint_eq(ev.dev.index, 3);
	ck_assert_str_eq(ev.dev.name, "rxe0");
	ck_assert_uint_eq(ev.dev.n_ports, 0);
	sp_dev_free(&ev.dev);
	nlmsg_free(msg);

	/* a reply is not an event */
	msg = genl_new(SPARKPERF_CMD_DEV_GET, 0);
	put_dev_head(msg, 3, "rxe0");
	ck_assert_int_eq(sp_nl_parse_event(nlmsg_hdr(msg), &ev, NULL), -EOPNOTSUPP);
	sp_dev_free(&ev.dev);
	nlmsg_free(msg);
}
END_TEST

/* ---- NLMSG_ERROR / NLMSG_DONE ------------------------------------------- */

START_TEST(test_error_capped_extack)
{
	struct nl_msg *req, *msg;
	struct sp_nl_err e;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, "nosuchdev", &req), 0);
	msg = error_new(req, -ENODEV, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	nla_put_string(msg, NLMSGERR_ATTR_MSG, "no RDMA device with this name");
	nla_put_u32(msg, NLMSGERR_ATTR_OFFS, 20);
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), 0);
	ck_assert_int_eq(e.error, -ENODEV);
	ck_assert(e.has_msg);
	ck_assert_str_eq(e.msg, "no RDMA device with this name");
	ck_assert(e.has_offs);
	ck_assert_uint_eq(e.offs, 20);
	ck_assert(!e.has_miss_type);
	ck_assert(!e.local);
	nlmsg_free(msg);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_error_echoed_miss_type)
{
	struct nl_msg *req, *msg;
	struct sp_nl_err e;

	/* the TLVs follow the whole echoed request */
	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, "rxe0", &req), 0);
	msg = error_new(req, -EINVAL, NLM_F_ACK_TLVS);
	nla_put_u32(msg, NLMSGERR_ATTR_MISS_TYPE, SPARKPERF_A_DEV_NAME);
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), 0);
	ck_assert_int_eq(e.error, -EINVAL);
	ck_assert(!e.has_msg);
	ck_assert(e.has_miss_type);
	ck_assert_uint_eq(e.miss_type, SPARKPERF_A_DEV_NAME);
	ck_assert(!e.has_miss_nest);
	nlmsg_free(msg);

	/* without NLM_F_ACK_TLVS there is nothing to read */
	msg = error_new(req, -EINVAL, NLM_F_CAPPED);
	nla_put_string(msg, NLMSGERR_ATTR_MSG, "ignored");
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), 0);
	ck_assert_int_eq(e.error, -EINVAL);
	ck_assert(!e.has_msg);
	nlmsg_free(msg);

	/* an ACK */
	msg = error_new(req, 0, NLM_F_CAPPED);
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), 0);
	ck_assert_int_eq(e.error, 0);
	nlmsg_free(msg);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_error_done_and_truncated)
{
	struct nl_msg *msg;
	struct sp_nl_err e;
	int err = -EMSGSIZE;

	/* a dump's errno and extack in NLMSG_DONE */
	msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS);
	nlmsg_append(msg, &err, sizeof(err), NLMSG_ALIGNTO);
	nla_put_string(msg, NLMSGERR_ATTR_MSG, "device too large for a message\n");
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), 0);
	ck_assert_int_eq(e.error, -EMSGSIZE);
	ck_assert_str_eq(e.msg, "device too large for a message");
	nlmsg_free(msg);

	/* a normal end of dump */
	err = 0;
	msg = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
	nlmsg_append(msg, &err, sizeof(err), NLMSG_ALIGNTO);
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), 0);
	ck_assert_int_eq(e.error, 0);
	ck_assert(!e.has_msg);
	nlmsg_free(msg);

	/* an NLMSG_ERROR too short for struct nlmsgerr */
	msg = nlmsg_alloc_simple(NLMSG_ERROR, 0);
	nlmsg_append(msg, &err, sizeof(err), NLMSG_ALIGNTO);
	ck_assert_int_eq(sp_nl_parse_error(nlmsg_hdr(msg), &e), -EBADMSG);
	nlmsg_free(msg);
}
END_TEST

/* ---- the reply state machine, fed canned datagrams ---------------------- */


static int collect_dev(struct nlmsghdr *nlh, void *arg)
{
	struct sp_dev_list *list = arg;
	struct sp_dev d;
	int ret = sp_nl_parse_dev(nlh, &d, NULL);

	if (!ret)
		ret = sp_dev_list_add(list, &d);
	sp_dev_free(&d);
	return ret;
}

static struct nl_msg *dev_reply(uint32_t index, const char *name, int flags)
{
	struct nl_msg *msg = genl_new(SPARKPERF_CMD_DEV_GET, NLM_F_MULTI | flags);

	put_dev_head(msg, index, name);
	return msg;
}

static struct nl_msg *dump_req(void)
{
	struct nl_msg *req;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, NULL, &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;	/* as nl_send_auto() would */
	return req;
}

START_TEST(test_xact_split_dump)
{
	struct nl_msg *req = dump_req(), *m[3];
	struct sp_dev_list list = { 0 };
	struct sp_nl_xact x;
	char buf[4096];
	size_t len;

	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	ck_assert_uint_eq(x.seq, SEQ);
	ck_assert_uint_eq(x.cmd, SPARKPERF_CMD_DEV_GET);

	/* first datagram: two devices, and a stale message of an older request */
	m[0] = dev_reply(1, "rxe0", 0);
	m[1] = dev_reply(99, "stale", 0);
	nlmsg_hdr(m[1])->nlmsg_seq = SEQ - 1;
	m[2] = dev_reply(2, "rxe1", 0);
	len = datagram(buf, sizeof(buf), m, 3);
	ck_assert(!sp_nl_xact_feed(&x, buf, len));
	ck_assert_uint_eq(list.n, 2);

	/* second datagram: a third device, then the end */
	m[0] = dev_reply(5, "mlx5_0", 0);
	m[1] = done_msg(0);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), 0);
	ck_assert_uint_eq(list.n, 3);
	ck_assert_str_eq(list.devs[0].name, "rxe0");
	ck_assert_str_eq(list.devs[1].name, "rxe1");
	ck_assert_uint_eq(list.devs[2].index, 5);
	sp_dev_list_free(&list);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_xact_dump_intr)
{
	struct nl_msg *req = dump_req(), *m[3];
	struct sp_dev_list list = { 0 };
	struct sp_nl_xact x;
	char buf[4096];
	size_t len;

	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	m[0] = dev_reply(1, "rxe0", 0);
	m[1] = dev_reply(2, "rxe1", NLM_F_DUMP_INTR);
	m[2] = done_msg(0);
	len = datagram(buf, sizeof(buf), m, 3);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert(x.intr);
	ck_assert_int_eq(sp_nl_xact_result(&x), -EINTR);	/* the caller restarts */
	sp_dev_list_free(&list);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_xact_doit_error)
{
	struct nl_msg *req, *m[1];
	struct sp_dev_list list = { 0 };
	struct sp_nl_xact x;
	char buf[4096];
	size_t len;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, "nosuchdev", &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	m[0] = error_new(req, -ENODEV, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	nla_put_string(m[0], NLMSGERR_ATTR_MSG, "no RDMA device with this name");
	len = datagram(buf, sizeof(buf), m, 1);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), -ENODEV);
	ck_assert_str_eq(x.err.msg, "no RDMA device with this name");
	ck_assert_uint_eq(x.err.cmd, SPARKPERF_CMD_DEV_GET);
	ck_assert_uint_eq(list.n, 0);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_xact_doit_reply_then_ack)
{
	struct nl_msg *req, *m[1];
	struct sp_dev_list list = { 0 };
	struct sp_nl_xact x;
	char buf[4096];
	size_t len;

	ck_assert_int_eq(sp_nl_dev_get_msg(FAMILY, "rxe0", &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	m[0] = genl_new(SPARKPERF_CMD_DEV_GET, 0);
	put_rxe0(m[0]);
	len = datagram(buf, sizeof(buf), m, 1);
	ck_assert(!sp_nl_xact_feed(&x, buf, len));	/* still waiting for the ACK */
	m[0] = error_new(req, 0, NLM_F_CAPPED);
	len = datagram(buf, sizeof(buf), m, 1);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), 0);
	ck_assert_uint_eq(list.n, 1);
	assert_rxe0(&list.devs[0]);
	sp_dev_list_free(&list);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_xact_dump_error_and_bad_reply)
{
	struct nl_msg *req = dump_req(), *m[2];
	struct sp_dev_list list = { 0 };
	struct sp_nl_xact x;
	char buf[4096];
	size_t len;

	/* the dump's errno arrives in NLMSG_DONE */
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	m[0] = dev_reply(1, "rxe0", 0);
	m[1] = done_msg(-EMSGSIZE);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), -EMSGSIZE);
	sp_dev_list_free(&list);

	/* a malformed reply fails the request, the rest is still drained */
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	m[0] = genl_new(SPARKPERF_CMD_DEV_GET, NLM_F_MULTI);
	nla_put_string(m[0], SPARKPERF_A_DEV_NAME, "no index");
	m[1] = done_msg(0);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), -EBADMSG);
	ck_assert_uint_eq(list.n, 0);

	/* a truncated datagram */
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_DEV_GET, collect_dev, &list);
	m[0] = dev_reply(1, "rxe0", 0);
	len = datagram(buf, sizeof(buf), m, 1);
	ck_assert(!sp_nl_xact_feed(&x, buf, len - 8));
	ck_assert_int_eq(sp_nl_xact_result(&x), -EBADMSG);
	sp_dev_list_free(&list);
	nlmsg_free(req);
}
END_TEST

struct seen_events {
	struct sp_dev_event ev[4];
	int n;
	int stop_after;
};

static int collect_event(const struct sp_dev_event *ev, void *arg)
{
	struct seen_events *s = arg;

	/* keep the scalars only: the arrays are freed after the callback */
	s->ev[s->n] = *ev;
	s->ev[s->n].dev.ports = NULL;
	s->ev[s->n].dev.n_ports = ev->dev.n_ports;
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

START_TEST(test_events_feed)
{
	struct sp_nl nl = { .family = FAMILY };
	struct seen_events s = { .n = 0 };
	struct nl_msg *m[5];
	char buf[8192];
	size_t len;

	m[0] = genl_new(SPARKPERF_CMD_DEV_NEW, 0);
	put_rxe0(m[0]);
	m[1] = genl_new(SPARKPERF_CMD_DEV_CHANGE, 0);
	put_rxe0(m[1]);
	nla_put_u32(m[1], SPARKPERF_A_DEV_EVENT_PORT, 1);
	m[2] = genl_new(SPARKPERF_CMD_DEV_NEW, 0);	/* malformed: no name */
	nla_put_u32(m[2], SPARKPERF_A_DEV_INDEX, 4);
	m[3] = genl_new(SPARKPERF_CMD_MAX + 1, 0);	/* a newer module's event */
	put_dev_head(m[3], 3, "rxe0");
	m[4] = genl_new(SPARKPERF_CMD_DEV_DEL, 0);
	put_dev_head(m[4], 3, "rxe0");
	len = datagram(buf, sizeof(buf), m, 5);

	ck_assert_int_eq(sp_nl_events_feed(&nl, buf, len, collect_event, &s), 0);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(s.ev[0].type, SP_DEV_EVENT_NEW);
	ck_assert_uint_eq(s.ev[0].dev.n_ports, 2);
	ck_assert_int_eq(s.ev[1].type, SP_DEV_EVENT_CHANGE);
	ck_assert(s.ev[1].has_port);
	ck_assert_uint_eq(s.ev[1].port, 1);
	ck_assert_int_eq(s.ev[2].type, SP_DEV_EVENT_DEL);
	ck_assert_str_eq(s.ev[2].dev.name, "rxe0");
	ck_assert_uint_eq(nl.bad_events, 1);

	/* the callback stops the loop ("count N") */
	s.n = 0;
	s.stop_after = 2;
	ck_assert_int_eq(sp_nl_events_feed(&nl, buf, len, collect_event, &s), 1);
	ck_assert_int_eq(s.n, 2);
}
END_TEST

static char *report(int error, const struct sp_nl_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sp_report_nl_error(f, "dev", "show", error, e);
	fclose(f);
	return buf;
}

START_TEST(test_report)
{
	struct sp_nl_err e = { .error = -ENODEV, .cmd = SPARKPERF_CMD_DEV_GET,
			       .has_msg = true, .msg = "no RDMA device with this name" };
	const char *prefix, *suffix;
	char *out, *buf = NULL;
	size_t len = 0;
	FILE *f;

	out = report(-ENODEV, &e);
	ck_assert_str_eq(out, "Error: no RDMA device with this name.\n");
	free(out);

	strcpy(e.msg, "already a sentence.");
	out = report(-ENODEV, &e);
	ck_assert_str_eq(out, "Error: already a sentence.\n");
	free(out);

	e.has_miss_type = true;
	e.miss_type = SPARKPERF_A_DEV_NAME;
	out = report(-EINVAL, &e);
	ck_assert_str_eq(out, "Error: already a sentence.\n"
			 "Missing required attribute SPARKPERF_A_DEV_NAME\n");
	free(out);

	e.has_msg = false;
	out = report(-EINVAL, &e);
	ck_assert_str_eq(out, "Error: missing required attribute SPARKPERF_A_DEV_NAME.\n");
	free(out);

	e.has_miss_nest = true;
	e.miss_type = 5;
	out = report(-EINVAL, &e);
	ck_assert_str_eq(out, "Error: missing required attribute type 5 in a nested attribute.\n");
	free(out);

	out = report(-ENODEV, NULL);
	ck_assert_str_eq(out, "sparkperf-ctl: dev show: No such device\n");
	free(out);

	f = open_memstream(&buf, &len);
	sp_report_module_missing(f);
	fclose(f);
	prefix = "Error: the sparkperf kernel module is not loaded and could not be "
		 "loaded; install it from the sparkperf ";
	suffix = " sources with 'sudo make dkms-install' (see their README) and run "
		 "'sudo modprobe sparkperf'.\n";
	ck_assert(!strncmp(buf, prefix, strlen(prefix)));
	ck_assert(strlen(buf) > strlen(prefix) + strlen(suffix));
	ck_assert_str_eq(buf + strlen(buf) - strlen(suffix), suffix);
	ck_assert_uint_eq(count_lines(buf), 1);
	free(buf);
}
END_TEST

START_TEST(test_attr_names)
{
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_DEV_GET, SPARKPERF_A_DEV_NAME),
			 "SPARKPERF_A_DEV_NAME");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_DEV_GET, SPARKPERF_A_DEV_INDEX),
			 "SPARKPERF_A_DEV_INDEX");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_INFO_GET, SPARKPERF_A_INFO_VERSION),
			 "SPARKPERF_A_INFO_VERSION");
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_DEV_GET, 0));
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_DEV_GET, SPARKPERF_A_DEV_MAX + 1));
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_UNSPEC, 1));
}
END_TEST

/* ---- formatters --------------------------------------------------------- */

START_TEST(test_fmt_guid)
{
	char buf[SP_GUID_STRLEN];

	ck_assert_str_eq(sp_fmt_guid(0x505400fffe123456ULL, buf, sizeof(buf)), "5054:00ff:fe12:3456");
	ck_assert_str_eq(sp_fmt_guid(0, buf, sizeof(buf)), "0000:0000:0000:0000");
	ck_assert_str_eq(sp_fmt_guid(UINT64_MAX, buf, sizeof(buf)), "ffff:ffff:ffff:ffff");
	ck_assert_str_eq(sp_fmt_guid(0x0c42a10300112233ULL, buf, sizeof(buf)), "0c42:a103:0011:2233");
}
END_TEST

START_TEST(test_fmt_gid)
{
	static const uint8_t mapped[16] = { [10] = 0xff, [11] = 0xff, 192, 168, 200, 12 };
	static const uint8_t compat[16] = { [12] = 10, 0, 2, 15 };
	static const uint8_t ll[16] = { 0xfe, 0x80, [8] = 0x50, 0x54, 0x00, 0xff,
					0xfe, 0x12, 0x34, 0x56 };
	static const uint8_t zero[16];
	char buf[SP_GID_STRLEN], ip[SP_IPV4_STRLEN];

	ck_assert_str_eq(sp_fmt_gid(mapped, buf, sizeof(buf)), "::ffff:192.168.200.12");
	ck_assert_str_eq(sp_fmt_gid(ll, buf, sizeof(buf)), "fe80::5054:ff:fe12:3456");
	ck_assert_str_eq(sp_fmt_gid(zero, buf, sizeof(buf)), "::");

	ck_assert(sp_gid_ipv4(mapped, ip, sizeof(ip)));
	ck_assert_str_eq(ip, "192.168.200.12");
	ck_assert(!sp_gid_ipv4(ll, ip, sizeof(ip)));
	ck_assert(!sp_gid_ipv4(compat, ip, sizeof(ip)));	/* ::a.b.c.d is not mapped */
	ck_assert(!sp_gid_ipv4(zero, ip, sizeof(ip)));
}
END_TEST

START_TEST(test_fmt_names)
{
	ck_assert_str_eq(sp_port_state_str(SPARKPERF_PORT_NOP), "NOP");
	ck_assert_str_eq(sp_port_state_str(SPARKPERF_PORT_DOWN), "DOWN");
	ck_assert_str_eq(sp_port_state_str(SPARKPERF_PORT_INIT), "INIT");
	ck_assert_str_eq(sp_port_state_str(SPARKPERF_PORT_ARMED), "ARMED");
	ck_assert_str_eq(sp_port_state_str(SPARKPERF_PORT_ACTIVE), "ACTIVE");
	ck_assert_str_eq(sp_port_state_str(SPARKPERF_PORT_ACTIVE_DEFER), "ACTIVE_DEFER");
	ck_assert_str_eq(sp_port_state_str(6), "UNKNOWN");
	ck_assert_str_eq(sp_port_state_str(255), "UNKNOWN");

	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_UNKNOWN), "UNKNOWN");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_SLEEP), "SLEEP");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_POLLING), "POLLING");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_DISABLED), "DISABLED");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_TRAINING), "TRAINING");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_LINK_UP), "LINK_UP");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_LINK_ERROR_RECOVERY),
			 "LINK_ERROR_RECOVERY");
	ck_assert_str_eq(sp_phys_state_str(SPARKPERF_PHYS_PHY_TEST), "PHY_TEST");
	ck_assert_str_eq(sp_phys_state_str(8), "UNKNOWN");

	ck_assert_str_eq(sp_link_layer_str(SPARKPERF_LINK_LAYER_ETHERNET), "Ethernet");
	ck_assert_str_eq(sp_link_layer_str(SPARKPERF_LINK_LAYER_INFINIBAND), "InfiniBand");
	ck_assert_str_eq(sp_link_layer_str(SPARKPERF_LINK_LAYER_UNSPECIFIED), "Unspecified");
	ck_assert_str_eq(sp_link_layer_str(3), "Unknown");

	ck_assert_str_eq(sp_gid_type_str(SPARKPERF_GID_TYPE_IB), "IB");
	ck_assert_str_eq(sp_gid_type_str(SPARKPERF_GID_TYPE_ROCE_V1), "RoCE v1");
	ck_assert_str_eq(sp_gid_type_str(SPARKPERF_GID_TYPE_ROCE_V2), "RoCE v2");
	ck_assert_str_eq(sp_gid_type_str(3), "unknown");

	ck_assert_ptr_null(sp_speed_str(SPARKPERF_SPEED_UNKNOWN));
	ck_assert_str_eq(sp_speed_str(SPARKPERF_SPEED_SDR), "SDR");
	ck_assert_str_eq(sp_speed_str(SPARKPERF_SPEED_FDR10), "FDR10");
	ck_assert_str_eq(sp_speed_str(SPARKPERF_SPEED_EDR), "EDR");
	ck_assert_str_eq(sp_speed_str(SPARKPERF_SPEED_NDR), "NDR");
	ck_assert_str_eq(sp_speed_str(SPARKPERF_SPEED_XDR), "XDR");
	ck_assert_ptr_null(sp_speed_str(SPARKPERF_SPEED_XDR + 1));

	ck_assert_str_eq(sp_operstate_str(IF_OPER_UP), "up");
	ck_assert_str_eq(sp_operstate_str(IF_OPER_DOWN), "down");
	ck_assert_str_eq(sp_operstate_str(IF_OPER_UNKNOWN), "unknown");
	ck_assert_str_eq(sp_operstate_str(IF_OPER_LOWERLAYERDOWN), "lowerlayerdown");
	ck_assert_str_eq(sp_operstate_str(IF_OPER_DORMANT), "dormant");
	ck_assert_str_eq(sp_operstate_str(IF_OPER_NOTPRESENT), "notpresent");
	ck_assert_str_eq(sp_operstate_str(IF_OPER_TESTING), "testing");
	ck_assert_str_eq(sp_operstate_str(7), "unknown");
}
END_TEST

START_TEST(test_fmt_rate)
{
	static const struct {
		uint32_t mbps;
		const char *gbps;
	} cases[] = {
		{ 100000, "100" }, { 2500, "2.5" }, { 53125, "53.125" }, { 14060, "14.06" },
		{ 56000, "56" }, { 10, "0.01" }, { 1, "0.001" }, { 0, "0" },
		{ 800000, "800" }, { UINT32_MAX, "4294967.295" },
	};
	char buf[SP_RATE_STRLEN];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		ck_assert_str_eq(sp_fmt_gbps(cases[i].mbps, buf, sizeof(buf)), cases[i].gbps);
	ck_assert_str_eq(sp_fmt_rate(100000, buf, sizeof(buf)), "100 Gbit/s");
	ck_assert_str_eq(sp_fmt_rate(2500, buf, sizeof(buf)), "2.5 Gbit/s");
}
END_TEST

static Suite *nlmsg_suite(void)
{
	Suite *s = suite_create("nlmsg");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_build_dump);
	tcase_add_test(tc, test_build_doit);
	tcase_add_test(tc, test_build_errors);
	tcase_add_test(tc, test_build_info);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_dev);
	tcase_add_test(tc, test_parse_dev_minimal);
	tcase_add_loop_test(tc, test_parse_dev_malformed, 0, BAD_MAX);
	tcase_add_test(tc, test_parse_truncated);
	tcase_add_test(tc, test_parse_info);
	tcase_add_test(tc, test_parse_events);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_error_capped_extack);
	tcase_add_test(tc, test_error_echoed_miss_type);
	tcase_add_test(tc, test_error_done_and_truncated);
	tcase_add_test(tc, test_report);
	tcase_add_test(tc, test_attr_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("xact");
	tcase_add_test(tc, test_xact_split_dump);
	tcase_add_test(tc, test_xact_dump_intr);
	tcase_add_test(tc, test_xact_doit_error);
	tcase_add_test(tc, test_xact_doit_reply_then_ack);
	tcase_add_test(tc, test_xact_dump_error_and_bad_reply);
	tcase_add_test(tc, test_events_feed);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_test(tc, test_fmt_guid);
	tcase_add_test(tc, test_fmt_gid);
	tcase_add_test(tc, test_fmt_names);
	tcase_add_test(tc, test_fmt_rate);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(nlmsg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
