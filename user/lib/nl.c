// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink client for the "sparkperf" family (libnl-genl-3); at the
 * end, the kernel's rtnetlink (routes) and "ethtool" family
 * for tune and check, through the same transaction loop.
 *
 * Every request is answered by an ACK, an NLMSG_ERROR (with extended ACK
 * TLVs: the socket sets NETLINK_EXT_ACK and NETLINK_CAP_ACK) or, for dumps,
 * NLMSG_DONE, whose payload carries the dump's errno. sp_nl_transact() owns
 * that loop; the rest of this file builds requests and parses replies.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "nl.h"
#include "nlcore.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A dump interrupted by a concurrent change is restarted this many times. */
#define SP_NL_DUMP_RETRIES 3

/* libnl's NLE_* codes back to errno values. */
static int nlerr_to_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return 0;
	case NLE_INTR:
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_MSGSIZE:
	case NLE_MSG_TOOSHORT:
	case NLE_MSG_TRUNC:
		return -EMSGSIZE;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_NOATTR:
		return -ENOMSG;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_PERM:
		return -EPERM;
	case NLE_NODEV:
		return -ENODEV;
	default:
		return -EIO;
	}
}

static void set_local_err(struct sp_nl *nl, int error, const char *fmt, ...)
{
	va_list ap;

	memset(&nl->err, 0, sizeof(nl->err));
	nl->err.error = error;
	nl->err.local = true;
	nl->err.has_msg = true;
	va_start(ap, fmt);
	vsnprintf(nl->err.msg, sizeof(nl->err.msg), fmt, ap);
	va_end(ap);
}

/* ---- request builders ------------------------------------------------- */

static int req_new(int family, uint8_t cmd, int flags, struct nl_msg **out)
{
	struct nl_msg *msg = nlmsg_alloc();

	*out = NULL;
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
			 NLM_F_REQUEST | flags, cmd, SPARKPERF_GENL_VERSION)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	*out = msg;
	return 0;
}

int sp_nl_info_get_msg(int family, struct nl_msg **out)
{
	return req_new(family, SPARKPERF_CMD_INFO_GET, NLM_F_ACK, out);
}

int sp_nl_dev_get_msg(int family, const char *name, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (name && (!*name || strlen(name) >= SPARKPERF_DEV_NAME_MAX))
		return -EINVAL;
	ret = req_new(family, SPARKPERF_CMD_DEV_GET, name ? NLM_F_ACK : NLM_F_DUMP, out);
	if (ret)
		return ret;
	if (name && nla_put_string(*out, SPARKPERF_A_DEV_NAME, name) < 0) {
		nlmsg_free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int put_failed(struct nl_msg **out)
{
	nlmsg_free(*out);
	*out = NULL;
	return -ENOMEM;
}

/* cmd with flags, and the u32 attribute attr = id when has_id. */
static int id_msg(int family, uint8_t cmd, int flags, int attr, bool has_id, uint32_t id,
		  struct nl_msg **out)
{
	int ret = req_new(family, cmd, flags, out);

	if (ret)
		return ret;
	if (has_id && nla_put_u32(*out, attr, id) < 0)
		return put_failed(out);
	return 0;
}

/* ---- reply parsers ---------------------------------------------------- */

static int bad(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -EBADMSG;
}

static int get_u8(const struct nlattr *a, uint8_t *v)
{
	if (nla_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = nla_get_u8(a);
	return 0;
}

static int get_u16(const struct nlattr *a, uint16_t *v)
{
	if (nla_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = nla_get_u16(a);
	return 0;
}

static int get_u32(const struct nlattr *a, uint32_t *v)
{
	if (nla_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = nla_get_u32(a);
	return 0;
}

static int get_s32(const struct nlattr *a, int32_t *v)
{
	if (nla_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = nla_get_s32(a);
	return 0;
}

static int get_u64(const struct nlattr *a, uint64_t *v)
{
	if (nla_len(a) != sizeof(*v))
		return -EBADMSG;
	*v = nla_get_u64(a);
	return 0;
}

/* A NUL-terminated string that fits in buf, NUL included. */
static int get_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = nla_data(a), *nul;
	int len = nla_len(a);

	nul = len > 0 ? memchr(s, '\0', (size_t)len) : NULL;
	if (!nul || (size_t)(nul - s) >= size)
		return -EBADMSG;
	memcpy(buf, s, (size_t)(nul - s) + 1);
	return 0;
}

/* A NUL-terminated string, cut to fit in buf. */
static int get_str_cut(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = nla_data(a);
	int len = nla_len(a);
	size_t n;

	if (len <= 0 || !memchr(s, '\0', (size_t)len))
		return -EBADMSG;
	n = strlen(s);
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

static int get_str_errmsg(const struct nlattr *a, char *buf)
{
	return get_str_cut(a, buf, SP_LAT_ERRMSG_MAX);
}

static int get_addr(const struct nlattr *a, struct sp_addr *addr)
{
	int len = nla_len(a);

	if (len != 4 && len != 16)
		return -EBADMSG;
	memset(addr, 0, sizeof(*addr));
	addr->len = (uint8_t)len;
	memcpy(addr->raw, nla_data(a), (size_t)len);
	return 0;
}

#define STR_GETTER(name, size) \
	static int name(const struct nlattr *a, char *buf) \
	{ \
		return get_str(a, buf, size); \
	}
STR_GETTER(get_str_devname, SPARKPERF_DEV_NAME_MAX)
STR_GETTER(get_str_ifname, SP_IFNAME_MAX)
STR_GETTER(get_str_parent, SP_PARENT_MAX)
STR_GETTER(get_str_version, sizeof(((struct sp_info *)0)->version))
STR_GETTER(get_str_kernel, sizeof(((struct sp_info *)0)->kernel))

/* Optional attribute: absent is fine, present must be well formed. */
#define OPT(getter, tb, type, dst) \
	do { \
		if ((tb)[type] && getter((tb)[type], dst)) \
			return bad(why, #type); \
	} while (0)

/* Required attribute. */
#define REQ(getter, tb, type, dst) \
	do { \
		if (!(tb)[type] || getter((tb)[type], dst)) \
			return bad(why, #type); \
	} while (0)

static size_t count_nested(struct nlattr *nest, int type)
{
	struct nlattr *pos;
	size_t n = 0;
	int rem;

	nla_for_each_nested(pos, nest, rem)
		if (nla_type(pos) == type)
			n++;
	return n;
}

static int get_gid(struct nlattr *attr, struct sp_gid *gid, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_GID_MAX + 1];

	if (nla_parse_nested(tb, SPARKPERF_A_GID_MAX, attr, NULL) < 0)
		return bad(why, "SPARKPERF_A_PORT_GID");
	REQ(get_u32, tb, SPARKPERF_A_GID_INDEX, &gid->index);
	OPT(get_u8, tb, SPARKPERF_A_GID_TYPE, &gid->type);
	if (!tb[SPARKPERF_A_GID_GID] || nla_len(tb[SPARKPERF_A_GID_GID]) != SP_GID_LEN)
		return bad(why, "SPARKPERF_A_GID_GID");
	memcpy(gid->raw, nla_data(tb[SPARKPERF_A_GID_GID]), SP_GID_LEN);
	return 0;
}

static int get_port(struct nlattr *attr, struct sp_port *p, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_PORT_MAX + 1], *pos;
	size_t n;
	int rem, ret;

	if (nla_parse_nested(tb, SPARKPERF_A_PORT_MAX, attr, NULL) < 0)
		return bad(why, "SPARKPERF_A_DEV_PORT");
	REQ(get_u32, tb, SPARKPERF_A_PORT_NUM, &p->num);
	OPT(get_u8, tb, SPARKPERF_A_PORT_STATE, &p->state);
	OPT(get_u8, tb, SPARKPERF_A_PORT_PHYS_STATE, &p->phys_state);
	OPT(get_u8, tb, SPARKPERF_A_PORT_LINK_LAYER, &p->link_layer);
	OPT(get_u32, tb, SPARKPERF_A_PORT_ACTIVE_MTU, &p->active_mtu);
	OPT(get_u32, tb, SPARKPERF_A_PORT_MAX_MTU, &p->max_mtu);
	OPT(get_u8, tb, SPARKPERF_A_PORT_ACTIVE_SPEED, &p->active_speed);
	OPT(get_u8, tb, SPARKPERF_A_PORT_ACTIVE_WIDTH, &p->active_width);
	OPT(get_u32, tb, SPARKPERF_A_PORT_RATE, &p->rate_mbps);
	OPT(get_u32, tb, SPARKPERF_A_PORT_NETDEV_IFINDEX, &p->netdev_ifindex);
	OPT(get_str_ifname, tb, SPARKPERF_A_PORT_NETDEV_NAME, p->netdev_name);
	OPT(get_u32, tb, SPARKPERF_A_PORT_NETDEV_MTU, &p->netdev_mtu);
	OPT(get_u8, tb, SPARKPERF_A_PORT_NETDEV_OPERSTATE, &p->netdev_operstate);
	p->has_netdev = tb[SPARKPERF_A_PORT_NETDEV_IFINDEX] || tb[SPARKPERF_A_PORT_NETDEV_NAME];

	if (!tb[SPARKPERF_A_PORT_GIDS])
		return 0;
	n = count_nested(tb[SPARKPERF_A_PORT_GIDS], SPARKPERF_A_PORT_GID);
	if (!n)
		return 0;
	p->gids = calloc(n, sizeof(*p->gids));
	if (!p->gids)
		return -ENOMEM;
	nla_for_each_nested(pos, tb[SPARKPERF_A_PORT_GIDS], rem) {
		if (nla_type(pos) != SPARKPERF_A_PORT_GID)
			continue;
		ret = get_gid(pos, &p->gids[p->n_gids], why);
		if (ret)
			return ret;
		p->n_gids++;
	}
	return 0;
}

int sp_nl_parse_dev(struct nlmsghdr *nlh, struct sp_dev *dev, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_DEV_MAX + 1], *pos;
	size_t n;
	int rem, ret;

	memset(dev, 0, sizeof(*dev));
	dev->numa_node = -1;
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_DEV_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_u32, tb, SPARKPERF_A_DEV_INDEX, &dev->index);
	REQ(get_str_devname, tb, SPARKPERF_A_DEV_NAME, dev->name);
	OPT(get_u64, tb, SPARKPERF_A_DEV_NODE_GUID, &dev->node_guid);
	OPT(get_s32, tb, SPARKPERF_A_DEV_NUMA_NODE, &dev->numa_node);
	OPT(get_str_parent, tb, SPARKPERF_A_DEV_PARENT, dev->parent);
	dev->has_parent = tb[SPARKPERF_A_DEV_PARENT] != NULL;

	if (!tb[SPARKPERF_A_DEV_PORTS])
		return 0;
	n = count_nested(tb[SPARKPERF_A_DEV_PORTS], SPARKPERF_A_DEV_PORT);
	if (!n)
		return 0;
	dev->ports = calloc(n, sizeof(*dev->ports));
	if (!dev->ports)
		return -ENOMEM;
	nla_for_each_nested(pos, tb[SPARKPERF_A_DEV_PORTS], rem) {
		if (nla_type(pos) != SPARKPERF_A_DEV_PORT)
			continue;
		/* counted first, so that sp_dev_free() frees its GIDs */
		ret = get_port(pos, &dev->ports[dev->n_ports++], why);
		if (ret)
			return ret;
	}
	return 0;
}

int sp_nl_parse_event(struct nlmsghdr *nlh, struct sp_dev_event *ev, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_DEV_MAX + 1];
	struct genlmsghdr *ghdr;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->dev.numa_node = -1;
	if (!genlmsg_valid_hdr(nlh, 0))
		return bad(why, "truncated message");
	ghdr = nlmsg_data(nlh);
	switch (ghdr->cmd) {
	case SPARKPERF_CMD_DEV_NEW:
		ev->type = SP_DEV_EVENT_NEW;
		break;
	case SPARKPERF_CMD_DEV_CHANGE:
		ev->type = SP_DEV_EVENT_CHANGE;
		break;
	case SPARKPERF_CMD_DEV_DEL:
		ev->type = SP_DEV_EVENT_DEL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	ret = sp_nl_parse_dev(nlh, &ev->dev, why);
	if (ret)
		return ret;
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_DEV_MAX, NULL) < 0)
		return bad(why, "truncated message");
	OPT(get_u32, tb, SPARKPERF_A_DEV_EVENT_PORT, &ev->port);
	ev->has_port = tb[SPARKPERF_A_DEV_EVENT_PORT] != NULL;
	return 0;
}

/* The attributes of a table that tb holds into dst; see struct field. */
static int get_fields(struct nlattr **tb, const struct field *f, size_t n, void *dst,
		      const char **why)
{
	char *base = dst;
	int ret = 0;

	for (; n; n--, f++) {
		struct nlattr *a = tb[f->type];
		void *p = base + f->off;

		if (!a) {
			if (f->required)
				return bad(why, f->name);
			continue;
		}
		switch (f->kind) {
		case F_U8:
			ret = get_u8(a, p);
			break;
		case F_U16:
			ret = get_u16(a, p);
			break;
		case F_U32:
			ret = get_u32(a, p);
			break;
		case F_U64:
			ret = get_u64(a, p);
			break;
		case F_S32:
			ret = get_s32(a, p);
			break;
		case F_FLAG:
			*(bool *)p = true;
			break;
		case F_ADDR:
			ret = get_addr(a, p);
			break;
		case F_DEVNAME:
			ret = get_str_devname(a, p);
			break;
		case F_ERRMSG:
			ret = get_str_errmsg(a, p);
			break;
		}
		if (ret)
			return bad(why, f->name);
		if (f->has)
			*(bool *)(base + f->has - 1) = true;
	}
	return 0;
}

int sp_nl_parse_info(struct nlmsghdr *nlh, struct sp_info *info, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_INFO_MAX + 1];

	memset(info, 0, sizeof(*info));
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_INFO_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_str_version, tb, SPARKPERF_A_INFO_VERSION, info->version);
	OPT(get_str_kernel, tb, SPARKPERF_A_INFO_KERNEL, info->kernel);
	OPT(get_u32, tb, SPARKPERF_A_INFO_DEVICES, &info->devices);
	info->has_devices = tb[SPARKPERF_A_INFO_DEVICES] != NULL;
	return 0;
}

int sp_nl_parse_error(const struct nlmsghdr *nlh, struct sp_nl_err *err)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	const char *data, *end;
	size_t off;

	memset(err, 0, sizeof(*err));
	if (nlh->nlmsg_len < NLMSG_HDRLEN)
		return -EBADMSG;
	data = (const char *)NLMSG_DATA(nlh);
	end = (const char *)nlh + nlh->nlmsg_len;

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = (const struct nlmsgerr *)data;

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
			return -EBADMSG;
		err->error = e->error;
		off = sizeof(*e);
		/* the request is echoed unless capped (NETLINK_CAP_ACK) */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (e->msg.nlmsg_len < NLMSG_HDRLEN)
				return -EBADMSG;
			off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
		}
	} else if (nlh->nlmsg_type == NLMSG_DONE) {
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
			return 0;
		memcpy(&err->error, data, sizeof(int));
		off = NLMSG_ALIGN(sizeof(int));
	} else {
		return -EINVAL;
	}

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= (size_t)(end - data))
		return 0;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)(data + off),
		      (int)((size_t)(end - data) - off), NULL) < 0)
		return -EBADMSG;

	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0) {
		const char *s = nla_data(tb[NLMSGERR_ATTR_MSG]);
		size_t len = strnlen(s, (size_t)nla_len(tb[NLMSGERR_ATTR_MSG]));

		if (len >= sizeof(err->msg))
			len = sizeof(err->msg) - 1;
		memcpy(err->msg, s, len);
		err->msg[len] = '\0';
		/* some kernel messages end in a newline */
		while (len && (err->msg[len - 1] == '\n' || err->msg[len - 1] == ' '))
			err->msg[--len] = '\0';
		err->has_msg = len > 0;
	}
	if (tb[NLMSGERR_ATTR_OFFS] && !get_u32(tb[NLMSGERR_ATTR_OFFS], &err->offs))
		err->has_offs = true;
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    !get_u32(tb[NLMSGERR_ATTR_MISS_TYPE], &err->miss_type))
		err->has_miss_type = true;
	if (tb[NLMSGERR_ATTR_MISS_NEST] &&
	    !get_u32(tb[NLMSGERR_ATTR_MISS_NEST], &err->miss_nest))
		err->has_miss_nest = true;
	return 0;
}

#define N(x) [x] = #x
static const char *const dev_attr_names[] = {
	N(SPARKPERF_A_DEV_PAD),
	N(SPARKPERF_A_DEV_INDEX),
	N(SPARKPERF_A_DEV_NAME),
	N(SPARKPERF_A_DEV_NODE_GUID),
	N(SPARKPERF_A_DEV_NUMA_NODE),
	N(SPARKPERF_A_DEV_PARENT),
	N(SPARKPERF_A_DEV_PORTS),
	N(SPARKPERF_A_DEV_EVENT_PORT),
};

static const char *const info_attr_names[] = {
	N(SPARKPERF_A_INFO_VERSION),
	N(SPARKPERF_A_INFO_KERNEL),
	N(SPARKPERF_A_INFO_DEVICES),
};

static const char *const server_attr_names[] = {
	N(SPARKPERF_A_SERVER_PAD),
	N(SPARKPERF_A_SERVER_ID),
	N(SPARKPERF_A_SERVER_ADDR),
	N(SPARKPERF_A_SERVER_PORT),
	N(SPARKPERF_A_SERVER_ACTIVE),
	N(SPARKPERF_A_SERVER_SERVED),
};

static const char *const lat_attr_names[] = {
	N(SPARKPERF_A_LAT_PAD),
	N(SPARKPERF_A_LAT_ID),
	N(SPARKPERF_A_LAT_PEER),
	N(SPARKPERF_A_LAT_PORT),
	N(SPARKPERF_A_LAT_DEV),
	N(SPARKPERF_A_LAT_OP),
	N(SPARKPERF_A_LAT_SIZE),
	N(SPARKPERF_A_LAT_ITERS),
	N(SPARKPERF_A_LAT_DURATION_MS),
	N(SPARKPERF_A_LAT_WARMUP),
	N(SPARKPERF_A_LAT_CPU),
	N(SPARKPERF_A_LAT_SAMPLES_MAX),
	N(SPARKPERF_A_LAT_INTERVAL_MS),
	N(SPARKPERF_A_LAT_STATE),
	N(SPARKPERF_A_LAT_ERROR),
	N(SPARKPERF_A_LAT_ERROR_MSG),
	N(SPARKPERF_A_LAT_WARMUP_DONE),
	N(SPARKPERF_A_LAT_COUNT),
	N(SPARKPERF_A_LAT_ELAPSED_NS),
	N(SPARKPERF_A_LAT_YIELDS),
	N(SPARKPERF_A_LAT_RT_YIELDS),
	N(SPARKPERF_A_LAT_CLOCK_RES_NS),
	N(SPARKPERF_A_LAT_MIN_NS),
	N(SPARKPERF_A_LAT_MAX_NS),
	N(SPARKPERF_A_LAT_SUM_NS),
	N(SPARKPERF_A_LAT_SUMSQ_HI),
	N(SPARKPERF_A_LAT_SUMSQ_LO),
	N(SPARKPERF_A_LAT_P50_NS),
	N(SPARKPERF_A_LAT_P90_NS),
	N(SPARKPERF_A_LAT_P99_NS),
	N(SPARKPERF_A_LAT_P999_NS),
	N(SPARKPERF_A_LAT_P9999_NS),
	N(SPARKPERF_A_LAT_P99999_NS),
	N(SPARKPERF_A_LAT_INTERVALS),
	N(SPARKPERF_A_LAT_INTERVAL),
	N(SPARKPERF_A_SAMPLES_FIRST),
	N(SPARKPERF_A_SAMPLES_DATA),
};

static const char *const bw_attr_names[] = {
	N(SPARKPERF_A_BW_PAD),
	N(SPARKPERF_A_BW_ID),
	N(SPARKPERF_A_BW_PEER),
	N(SPARKPERF_A_BW_PORT),
	N(SPARKPERF_A_BW_DEV),
	N(SPARKPERF_A_BW_OP),
	N(SPARKPERF_A_BW_SIZE),
	N(SPARKPERF_A_BW_QPS),
	N(SPARKPERF_A_BW_THREADS),
	N(SPARKPERF_A_BW_DEPTH),
	N(SPARKPERF_A_BW_SIGNAL),
	N(SPARKPERF_A_BW_ITERS),
	N(SPARKPERF_A_BW_DURATION_MS),
	N(SPARKPERF_A_BW_BIDIR),
	N(SPARKPERF_A_BW_VALIDATE),
	N(SPARKPERF_A_BW_INTERVAL_MS),
	N(SPARKPERF_A_BW_START_AT_NS),
	N(SPARKPERF_A_BW_STATE),
	N(SPARKPERF_A_BW_ERROR),
	N(SPARKPERF_A_BW_ERROR_MSG),
	N(SPARKPERF_A_BW_START_NS),
	N(SPARKPERF_A_BW_ELAPSED_NS),
	N(SPARKPERF_A_BW_TX_BYTES),
	N(SPARKPERF_A_BW_TX_MSGS),
	N(SPARKPERF_A_BW_RX_BYTES),
	N(SPARKPERF_A_BW_RX_MSGS),
	N(SPARKPERF_A_BW_VALIDATE_ERRORS),
	N(SPARKPERF_A_BW_CPU_NS),
	N(SPARKPERF_A_BW_INTERVALS),
	N(SPARKPERF_A_BW_INTERVAL),
};

static const char *const trace_attr_names[] = {
	N(SPARKPERF_A_TRACE_PAD),
	N(SPARKPERF_A_TRACE_ID),
	N(SPARKPERF_A_TRACE_TARGETS),
	N(SPARKPERF_A_TRACE_TARGET),
	N(SPARKPERF_A_TRACE_GLOBS),
	N(SPARKPERF_A_TRACE_GLOB),
	N(SPARKPERF_A_TRACE_NETDEV_PERIOD_US),
	N(SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US),
	N(SPARKPERF_A_TRACE_RDMA_PERIOD_US),
	N(SPARKPERF_A_TRACE_DURATION_MS),
	N(SPARKPERF_A_TRACE_BUFFER_BYTES),
	N(SPARKPERF_A_TRACE_BATCH_MS),
	N(SPARKPERF_A_TRACE_STATE),
	N(SPARKPERF_A_TRACE_ERROR),
	N(SPARKPERF_A_TRACE_ERROR_MSG),
	N(SPARKPERF_A_TRACE_START_NS),
	N(SPARKPERF_A_TRACE_ELAPSED_NS),
	N(SPARKPERF_A_TRACE_SLOTS),
	N(SPARKPERF_A_TRACE_SEQ_NEXT),
	N(SPARKPERF_A_TRACE_SEQ_OLDEST),
	N(SPARKPERF_A_TRACE_STREAMS),
	N(SPARKPERF_A_TRACE_STREAM),
	N(SPARKPERF_A_TRACE_CURSOR),
	N(SPARKPERF_A_TRACE_LOST),
	N(SPARKPERF_A_TRACE_SAMPLES),
	N(SPARKPERF_A_TRACE_SAMPLE),
	N(SPARKPERF_A_TRACE_CPU_NS),
};
#undef N

const char *sp_nl_attr_name(uint8_t cmd, uint32_t type)
{
	const char *const *names;
	size_t n;

	switch (cmd) {
	case SPARKPERF_CMD_INFO_GET:
		names = info_attr_names;
		n = ARRAY_SIZE(info_attr_names);
		break;
	case SPARKPERF_CMD_DEV_GET:
		names = dev_attr_names;
		n = ARRAY_SIZE(dev_attr_names);
		break;
	case SPARKPERF_CMD_SERVER_START:
	case SPARKPERF_CMD_SERVER_STOP:
	case SPARKPERF_CMD_SERVER_GET:
		names = server_attr_names;
		n = ARRAY_SIZE(server_attr_names);
		break;
	case SPARKPERF_CMD_LAT_RUN:
	case SPARKPERF_CMD_LAT_STOP:
	case SPARKPERF_CMD_LAT_GET:
	case SPARKPERF_CMD_LAT_SAMPLES:
		names = lat_attr_names;
		n = ARRAY_SIZE(lat_attr_names);
		break;
	case SPARKPERF_CMD_BW_RUN:
	case SPARKPERF_CMD_BW_STOP:
	case SPARKPERF_CMD_BW_GET:
		names = bw_attr_names;
		n = ARRAY_SIZE(bw_attr_names);
		break;
	case SPARKPERF_CMD_COUNTERS_GET:
	case SPARKPERF_CMD_TRACE_START:
	case SPARKPERF_CMD_TRACE_STOP:
	case SPARKPERF_CMD_TRACE_GET:
	case SPARKPERF_CMD_TRACE_SAMPLES:
		names = trace_attr_names;
		n = ARRAY_SIZE(trace_attr_names);
		break;
	default:
		return NULL;
	}
	return type < n ? names[type] : NULL;
}

/* ---- the socket ------------------------------------------------------- */

/* NETLINK_CAP_ACK: Linux 4.3, NETLINK_EXT_ACK: 4.12; older kernels just say less */
static void want_ext_ack(struct nl_sock *sk)
{
	int one = 1, fd = nl_socket_get_fd(sk);

	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
}

static int genl_open(struct sp_nl *nl, const char *family, const char *name)
{
	int ret;

	memset(nl, 0, sizeof(*nl));
	nl->family = -1;
	nl->who = name;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = nlerr_to_errno(ret);
		goto fail;
	}
	want_ext_ack(nl->sk);

	/* The controller request-loads the module for an unknown family. */
	ret = genl_ctrl_resolve(nl->sk, family);
	if (ret < 0) {
		ret = ret == -NLE_OBJ_NOTFOUND ? -ENOENT : nlerr_to_errno(ret);
		goto fail;
	}
	nl->family = ret;
	/* requests carry NLM_F_ACK themselves (see the builders) */
	nl_socket_disable_auto_ack(nl->sk);
	return 0;

fail:
	sp_nl_close(nl);
	nl->err.error = ret;
	return ret;
}

int sp_nl_open(struct sp_nl *nl)
{
	return genl_open(nl, SPARKPERF_GENL_NAME, NULL);
}

void sp_nl_close(struct sp_nl *nl)
{
	if (nl->tr_sk)
		nl_socket_free(nl->tr_sk);
	nl->tr_sk = NULL;
	if (nl->pr_sk)
		nl_socket_free(nl->pr_sk);
	if (nl->ev_sk)
		nl_socket_free(nl->ev_sk);
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->pr_sk = NULL;
	nl->ev_sk = NULL;
	nl->sk = NULL;
}

void sp_nl_xact_init(struct sp_nl_xact *x, int family, struct nl_msg *req,
		     uint8_t reply_cmd, sp_nl_valid_fn valid, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(req);
	struct genlmsghdr *ghdr = nlmsg_data(nlh);

	memset(x, 0, sizeof(*x));
	x->family = family;
	x->seq = nlh->nlmsg_seq;
	x->cmd = ghdr->cmd;
	x->reply_cmd = reply_cmd;
	x->valid = valid;
	x->arg = arg;
}

/* A reply of the family: valid() unless an earlier one failed. */
static void xact_reply(struct sp_nl_xact *x, struct nlmsghdr *nlh)
{
	struct genlmsghdr *ghdr;
	int ret;

	if (x->error)
		return;
	if (x->rtnl) {
		if (nlh->nlmsg_type != x->reply_cmd)
			return;
	} else {
		if (nlh->nlmsg_type != x->family)
			return;
		if (!genlmsg_valid_hdr(nlh, 0)) {
			x->error = -EBADMSG;
			return;
		}
		ghdr = nlmsg_data(nlh);
		if (ghdr->cmd != x->reply_cmd)
			return;
	}
	ret = x->valid ? x->valid(nlh, x->arg) : 0;
	if (ret < 0)
		x->error = ret;
}

/* NLMSG_ERROR (error or ACK) or NLMSG_DONE: the end of the answer. */
static void xact_end(struct sp_nl_xact *x, const struct nlmsghdr *nlh)
{
	struct sp_nl_err e;

	x->done = true;
	if (sp_nl_parse_error(nlh, &e)) {
		if (!x->error)
			x->error = -EBADMSG;
		return;
	}
	if (e.error < 0) {
		x->err = e;
		x->err.cmd = x->cmd;
	} else if (e.error > 0) {
		/* not an errno the kernel would send */
		memset(&x->err, 0, sizeof(x->err));
		x->err.error = -EPROTO;
		x->err.cmd = x->cmd;
	}
}

bool sp_nl_xact_feed(struct sp_nl_xact *x, void *buf, size_t len)
{
	struct nlmsghdr *nlh = buf;
	int rem = len > INT32_MAX ? INT32_MAX : (int)len;

	for (; !x->done && nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_seq != x->seq)
			continue;	/* left over from an earlier request */
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			x->intr = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_ERROR:
		case NLMSG_DONE:
			xact_end(x, nlh);
			break;
		case NLMSG_OVERRUN:
			x->done = true;
			if (!x->error)
				x->error = -EOVERFLOW;
			break;
		default:
			xact_reply(x, nlh);
			break;
		}
	}
	if (!x->done && rem > 0 && !x->error)
		x->error = -EBADMSG;	/* a truncated message */
	return x->done;
}

int sp_nl_xact_result(const struct sp_nl_xact *x)
{
	if (x->err.error < 0)
		return x->err.error;
	if (x->error)
		return x->error;
	if (x->intr)
		return -EINTR;
	return 0;
}

int sp_nl_transact(struct sp_nl *nl, struct nl_msg *msg, uint8_t reply_cmd,
		   sp_nl_valid_fn valid, void *arg)
{
	struct sp_nl_xact x;
	int ret;

	memset(&nl->err, 0, sizeof(nl->err));
	ret = nl_send_auto(nl->sk, msg);
	/* nl_send_auto() filled in the sequence number */
	sp_nl_xact_init(&x, nl->family, msg, reply_cmd, valid, arg);
	x.rtnl = nl->rtnl;
	if (x.rtnl)
		x.cmd = 0;	/* no generic netlink command to name attributes by */
	nlmsg_free(msg);
	if (ret < 0) {
		ret = nlerr_to_errno(ret);
		goto out;
	}
	ret = 0;
	while (!x.done) {
		struct sockaddr_nl who;
		unsigned char *buf = NULL;
		int n = nl_recv(nl->sk, &who, &buf, NULL);

		if (n <= 0) {
			free(buf);
			ret = n ? nlerr_to_errno(n) : -ECONNRESET;
			break;
		}
		if (who.nl_pid == 0)	/* from the kernel */
			sp_nl_xact_feed(&x, buf, (size_t)n);
		free(buf);
	}
	if (!ret)
		ret = sp_nl_xact_result(&x);
	if (x.err.error < 0)
		nl->err = x.err;
	else if (x.error == -EBADMSG && !nl->err.has_msg)
		set_local_err(nl, -EBADMSG, "malformed answer from the kernel");
out:
	if (ret && !nl->err.error)
		nl->err.error = ret;
	return ret;
}

struct info_ctx {
	struct sp_nl *nl;
	struct sp_info *info;
	bool got;
};

static int info_valid(struct nlmsghdr *nlh, void *arg)
{
	struct info_ctx *c = arg;
	const char *why = "?";
	int ret = sp_nl_parse_info(nlh, c->info, &why);

	if (ret) {
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
		return ret;
	}
	c->got = true;
	return 0;
}

int sp_nl_info_get(struct sp_nl *nl, struct sp_info *info)
{
	struct info_ctx c = { .nl = nl, .info = info };
	struct nl_msg *msg;
	int ret;

	ret = sp_nl_info_get_msg(nl->family, &msg);
	if (ret)
		return ret;
	ret = sp_nl_transact(nl, msg, SPARKPERF_CMD_INFO_GET, info_valid, &c);
	if (!ret && !c.got) {
		set_local_err(nl, -EPROTO, "the sparkperf module sent no reply");
		ret = -EPROTO;
	}
	return ret;
}

struct dev_ctx {
	struct sp_nl *nl;
	struct sp_dev_list *list;
};

static int dev_valid(struct nlmsghdr *nlh, void *arg)
{
	struct dev_ctx *c = arg;
	const char *why = "?";
	struct sp_dev dev;
	int ret;

	ret = sp_nl_parse_dev(nlh, &dev, &why);
	if (!ret)
		ret = sp_dev_list_add(c->list, &dev);
	else if (ret == -EBADMSG)
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
	sp_dev_free(&dev);
	return ret;
}

int sp_nl_dev_get(struct sp_nl *nl, const char *name, struct sp_dev_list *list)
{
	struct dev_ctx c = { .nl = nl, .list = list };
	struct nl_msg *msg;
	int ret, attempt;

	memset(list, 0, sizeof(*list));
	for (attempt = 0;; attempt++) {
		ret = sp_nl_dev_get_msg(nl->family, name, &msg);
		if (ret)
			return ret;
		ret = sp_nl_transact(nl, msg, SPARKPERF_CMD_DEV_GET, dev_valid, &c);
		if (ret != -EINTR || name || attempt == SP_NL_DUMP_RETRIES)
			break;
		sp_dev_list_free(list);
	}
	if (ret == -EINTR && !nl->err.has_msg)
		set_local_err(nl, ret, "the device list kept changing during %d dumps in a row",
			      SP_NL_DUMP_RETRIES + 1);
	if (ret)
		sp_dev_list_free(list);
	return ret;
}

/* A request answered by one reply message of reply_cmd, then the ACK. */
struct one_ctx {
	struct sp_nl *nl;
	int (*parse)(struct nlmsghdr *nlh, void *dst, const char **why);
	void *dst;
	bool got;
};

static const char *who(const struct sp_nl *nl)
{
	return nl->who ? nl->who : "the sparkperf module";
}

static int one_valid(struct nlmsghdr *nlh, void *arg)
{
	struct one_ctx *c = arg;
	const char *why = "?";
	int ret;

	if (c->got)
		return 0;	/* a second reply: only the first counts */
	ret = c->parse(nlh, c->dst, &why);
	if (ret == -EBADMSG)
		set_local_err(c->nl, ret, "malformed reply from %s (%s)", who(c->nl), why);
	c->got = !ret;
	return ret;
}

static int transact_one(struct sp_nl *nl, struct nl_msg *msg, uint8_t reply_cmd,
			int (*parse)(struct nlmsghdr *, void *, const char **), void *dst)
{
	struct one_ctx c = { .nl = nl, .parse = parse, .dst = dst };
	int ret = sp_nl_transact(nl, msg, reply_cmd, one_valid, &c);

	if (!ret && !c.got) {
		set_local_err(nl, -EPROTO, "%s sent no reply", who(nl));
		ret = -EPROTO;
	}
	return ret;
}

/* A request that a builder returned as ret and msg, answered by an ACK alone. */
static int transact_ack(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t cmd)
{
	return ret ? ret : sp_nl_transact(nl, msg, cmd, NULL, NULL);
}

/* The same, answered by one reply of reply_cmd that parse() reads into dst. */
static int transact_built(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			  int (*parse)(struct nlmsghdr *, void *, const char **), void *dst)
{
	return ret ? ret : transact_one(nl, msg, reply_cmd, parse, dst);
}

struct list_ctx {
	struct sp_nl *nl;
	/* parses one reply and appends it to list */
	int (*add)(struct nlmsghdr *nlh, void *list, const char **why);
	void *list;
};

static int list_valid(struct nlmsghdr *nlh, void *arg)
{
	struct list_ctx *c = arg;
	const char *why = "?";
	int ret = c->add(nlh, c->list, &why);

	if (ret == -EBADMSG)
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
	return ret;
}

/*
 * A dump into list, one add() per reply of reply_cmd, restarted up to
 * SP_NL_DUMP_RETRIES times while interrupted; reset() empties the list
 * before a restart and after a failure. what names the list in the error.
 */
static int dump_list(struct sp_nl *nl, int (*build)(int family, struct nl_msg **out),
		     uint8_t reply_cmd, int (*add)(struct nlmsghdr *, void *, const char **),
		     void *list, void (*reset)(void *list), const char *what)
{
	struct list_ctx c = { .nl = nl, .add = add, .list = list };
	struct nl_msg *msg;
	int ret, attempt;

	for (attempt = 0;; attempt++) {
		ret = build(nl->family, &msg);
		if (ret)
			return ret;
		ret = sp_nl_transact(nl, msg, reply_cmd, list_valid, &c);
		if (ret != -EINTR || attempt == SP_NL_DUMP_RETRIES)
			break;
		reset(list);
	}
	if (ret == -EINTR && !nl->err.has_msg)
		set_local_err(nl, ret, "the %s kept changing during %d dumps in a row", what,
			      SP_NL_DUMP_RETRIES + 1);
	if (ret)
		reset(list);
	return ret;
}

/* Joins a multicast group of the family on a new non-blocking socket. */
static int mcast_open(struct sp_nl *nl, const char *group, struct nl_sock **out)
{
	struct nl_sock *sk;
	int grp, ret;

	grp = genl_ctrl_resolve_grp(nl->sk, SPARKPERF_GENL_NAME, group);
	if (grp < 0) {
		ret = nlerr_to_errno(grp);
		set_local_err(nl, ret, "the sparkperf module has no \"%s\" multicast group",
			      group);
		return ret;
	}
	sk = nl_socket_alloc();
	if (!sk)
		return nl->err.error = -ENOMEM;
	nl_socket_disable_seq_check(sk);
	nl_socket_disable_auto_ack(sk);
	ret = genl_connect(sk);
	if (!ret)
		ret = nl_socket_set_buffer_size(sk, 1 << 20, 0);
	if (!ret)
		ret = nl_socket_add_membership(sk, grp);
	if (!ret)
		ret = nl_socket_set_nonblocking(sk);
	if (ret < 0) {
		nl_socket_free(sk);
		return nl->err.error = nlerr_to_errno(ret);
	}
	*out = sk;
	return 0;
}

/* The callbacks of a multicast socket's reader. */
struct feed_ctx {
	sp_nl_event_fn ev_fn;
	void *arg;
};

/* One message of the family: 1 (the callback said stop), 0, or -errno. */
typedef int (*feed_one_fn)(struct nlmsghdr *nlh, const struct feed_ctx *c);

/*
 * Every message of the family in one datagram to one(); malformed ones are
 * counted in *bad, those of other commands (-EOPNOTSUPP) skipped.
 */
static int feed_each(struct sp_nl *nl, void *buf, size_t len, feed_one_fn one,
		     const struct feed_ctx *c, unsigned int *bad)
{
	struct nlmsghdr *nlh = buf;
	int rem = len > INT32_MAX ? INT32_MAX : (int)len;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		int ret;

		if (nlh->nlmsg_type != nl->family)
			continue;
		ret = one(nlh, c);
		if (ret > 0)
			return 1;
		if (ret < 0 && ret != -EOPNOTSUPP)
			(*bad)++;
	}
	return 0;
}

/* Feeds every pending datagram of sk to feed_each(); see sp_nl_events_recv(). */
static int mcast_recv(struct sp_nl *nl, struct nl_sock *sk, feed_one_fn one,
		      const struct feed_ctx *c, unsigned int *bad)
{
	if (!sk)
		return -EBADF;
	for (;;) {
		struct sockaddr_nl who;
		unsigned char *buf = NULL;
		int n = nl_recv(sk, &who, &buf, NULL), stop = 0;

		if (n == -NLE_AGAIN)
			return 0;
		if (n == -NLE_NOMEM)
			return -ENOBUFS;	/* recvmsg(): ENOBUFS, messages dropped */
		if (n <= 0) {
			free(buf);
			return n ? nlerr_to_errno(n) : -ECONNRESET;
		}
		if (who.nl_pid == 0)
			stop = feed_each(nl, buf, (size_t)n, one, c, bad);
		free(buf);
		if (stop)
			return 1;
	}
}

int sp_nl_events_open(struct sp_nl *nl)
{
	return mcast_open(nl, SPARKPERF_MCGRP_EVENTS, &nl->ev_sk);
}

int sp_nl_events_fd(const struct sp_nl *nl)
{
	return nl->ev_sk ? nl_socket_get_fd(nl->ev_sk) : -1;
}

static int event_one(struct nlmsghdr *nlh, const struct feed_ctx *c)
{
	struct sp_dev_event ev;
	int ret = sp_nl_parse_event(nlh, &ev, NULL);

	if (!ret)
		ret = c->ev_fn(&ev, c->arg) != 0;
	sp_dev_free(&ev.dev);
	return ret;
}

int sp_nl_events_feed(struct sp_nl *nl, void *buf, size_t len,
		      sp_nl_event_fn fn, void *arg)
{
	struct feed_ctx c = { .ev_fn = fn, .arg = arg };

	return feed_each(nl, buf, len, event_one, &c, &nl->bad_events);
}

int sp_nl_events_recv(struct sp_nl *nl, sp_nl_event_fn fn, void *arg)
{
	struct feed_ctx c = { .ev_fn = fn, .arg = arg };

	return mcast_recv(nl, nl->ev_sk, event_one, &c, &nl->bad_events);
}

int sp_nl_progress_open(struct sp_nl *nl)
{
	return mcast_open(nl, SPARKPERF_MCGRP_PROGRESS, &nl->pr_sk);
}

int sp_nl_progress_fd(const struct sp_nl *nl)
{
	return nl->pr_sk ? nl_socket_get_fd(nl->pr_sk) : -1;
}

/* ---- rtnetlink (routes) and ethtool netlink ---------------------------- */

int sp_rtnl_open(struct sp_nl *nl)
{
	int ret;

	memset(nl, 0, sizeof(*nl));
	nl->family = -1;
	nl->rtnl = true;
	nl->who = "the kernel";
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	ret = nl_connect(nl->sk, NETLINK_ROUTE);
	if (ret < 0) {
		ret = nlerr_to_errno(ret);
		sp_nl_close(nl);
		nl->err.error = ret;
		return ret;
	}
	want_ext_ack(nl->sk);
	nl_socket_disable_auto_ack(nl->sk);
	return 0;
}

int sp_nl_open_ethtool(struct sp_nl *nl)
{
	return genl_open(nl, ETHTOOL_GENL_NAME, "the kernel's ethtool family");
}

int sp_rtnl_req(uint16_t type, int flags, size_t hdr_len, void **hdr, struct nl_msg **out)
{
	struct nl_msg *msg = nlmsg_alloc_simple(type, NLM_F_REQUEST | flags);

	*out = NULL;
	if (!msg)
		return -ENOMEM;
	*hdr = nlmsg_reserve(msg, hdr_len, NLMSG_ALIGNTO);
	if (!*hdr) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	memset(*hdr, 0, hdr_len);
	*out = msg;
	return 0;
}

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
		return put_failed(out);
	return 0;
}

int sp_nl_parse_route(struct nlmsghdr *nlh, struct sp_route *r, const char **why)
{
	struct nlattr *tb[RTA_MAX + 1], *mx[RTAX_MAX + 1];
	struct rtmsg *rtm;

	memset(r, 0, sizeof(*r));
	if (nlmsg_parse(nlh, sizeof(*rtm), tb, RTA_MAX, NULL) < 0)
		return bad(why, "route header");
	rtm = nlmsg_data(nlh);
	r->type = rtm->rtm_type;
	OPT(get_u32, tb, RTA_OIF, &r->oif);
	if (tb[RTA_GATEWAY]) {
		REQ(get_addr, tb, RTA_GATEWAY, &r->gateway);
		r->has_gateway = true;
	}
	if (tb[RTA_PREFSRC]) {
		REQ(get_addr, tb, RTA_PREFSRC, &r->prefsrc);
		r->has_prefsrc = true;
	}
	if (tb[RTA_METRICS]) {
		if (nla_parse_nested(mx, RTAX_MAX, tb[RTA_METRICS], NULL) < 0)
			return bad(why, "RTA_METRICS");
		OPT(get_u32, mx, RTAX_MTU, &r->mtu);
	}
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

	return transact_built(rt, ret, msg, RTM_NEWROUTE, parse_route_cb, r);
}

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
		return put_failed(out);
	hdr = nla_nest_start(msg, ETHTOOL_A_LINKMODES_HEADER);
	if (!hdr || nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, dev) < 0)
		return put_failed(out);
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
		    get_str_cut(bit[ETHTOOL_A_BITSET_BIT_NAME], name, sizeof(name)))
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
		return bad(why, "link modes header");
	OPT(get_u32, tb, ETHTOOL_A_LINKMODES_SPEED, &m->speed_mbps);
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
	return ret ? bad(why, "ETHTOOL_A_LINKMODES bit set") : 0;
}

static int parse_link_modes_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_link_modes(nlh, dst, why);
}

int sp_nl_link_modes(struct sp_nl *et, const char *dev, struct sp_link_modes *m)
{
	struct nl_msg *msg;
	int ret = sp_nl_link_modes_msg(et->family, dev, &msg);

	return transact_built(et, ret, msg, ETHTOOL_MSG_LINKMODES_GET_REPLY,
			      parse_link_modes_cb, m);
}

/* ---- the core for the subsystems' messages (nlcore.h) -------------------- */

int sp_nl_req(int family, uint8_t cmd, int flags, struct nl_msg **out)
{
	return req_new(family, cmd, flags, out);
}

int sp_nl_id_req(int family, uint8_t cmd, int flags, int attr, bool has_id, uint32_t id,
		 struct nl_msg **out)
{
	return id_msg(family, cmd, flags, attr, has_id, id, out);
}

const int sp_nl_dump_retries = SP_NL_DUMP_RETRIES;

int sp_nl_req_fail(struct nl_msg **out)
{
	return put_failed(out);
}

bool sp_nl_addr_valid(const struct sp_addr *a)
{
	return a->len == 4 || a->len == 16;
}

int sp_nl_bad(const char **why, const char *reason)
{
	return bad(why, reason);
}

int sp_nl_get_fields(struct nlattr **tb, const struct field *f, size_t n, void *dst,
		     const char **why)
{
	return get_fields(tb, f, n, dst, why);
}

size_t sp_nl_count_nested(struct nlattr *nest, int type)
{
	return count_nested(nest, type);
}

int sp_nl_get_str(const struct nlattr *a, char *buf, size_t size)
{
	return get_str(a, buf, size);
}

int sp_nl_get_addr(const struct nlattr *a, struct sp_addr *addr)
{
	return get_addr(a, addr);
}

void sp_nl_set_err(struct sp_nl *nl, int error, const char *msg)
{
	set_local_err(nl, error, "%s", msg);
}

int sp_nl_transact_ack(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t cmd)
{
	return transact_ack(nl, ret, msg, cmd);
}

int sp_nl_transact_parse(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			 sp_nl_parse_fn parse, void *dst)
{
	return transact_built(nl, ret, msg, reply_cmd, parse, dst);
}

int sp_nl_dump_list(struct sp_nl *nl, int (*build)(int family, struct nl_msg **out),
		    uint8_t reply_cmd, sp_nl_parse_fn add, void *list, void (*reset)(void *list),
		    const char *what)
{
	return dump_list(nl, build, reply_cmd, add, list, reset, what);
}

int sp_nl_mcast_open(struct sp_nl *nl, const char *group, struct nl_sock **out)
{
	return mcast_open(nl, group, out);
}

/* A reader's one() and its argument, carried in feed_ctx.arg. */
struct mcast_ctx {
	sp_nl_mcast_fn one;
	void *arg;
};

static int mcast_one(struct nlmsghdr *nlh, const struct feed_ctx *c)
{
	const struct mcast_ctx *m = c->arg;

	return m->one(nlh, m->arg);
}

int sp_nl_mcast_feed(struct sp_nl *nl, void *buf, size_t len, sp_nl_mcast_fn one, void *arg,
		     unsigned int *bad_count)
{
	struct mcast_ctx m = { .one = one, .arg = arg };
	struct feed_ctx c = { .arg = &m };

	return feed_each(nl, buf, len, mcast_one, &c, bad_count);
}

int sp_nl_mcast_recv(struct sp_nl *nl, struct nl_sock *sk, sp_nl_mcast_fn one, void *arg,
		     unsigned int *bad_count)
{
	struct mcast_ctx m = { .one = one, .arg = arg };
	struct feed_ctx c = { .arg = &m };

	return mcast_recv(nl, sk, mcast_one, &c, bad_count);
}
