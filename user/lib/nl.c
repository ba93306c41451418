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

static bool addr_valid(const struct sp_addr *a)
{
	return a->len == 4 || a->len == 16;
}

int sp_nl_server_start_msg(int family, const struct sp_addr *addr, bool has_port,
			   uint16_t port, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (addr && addr->len && !addr_valid(addr))
		return -EINVAL;
	if (has_port && !port)
		return -EINVAL;
	ret = req_new(family, SPARKPERF_CMD_SERVER_START, NLM_F_ACK, out);
	if (ret)
		return ret;
	if (addr && addr->len &&
	    nla_put(*out, SPARKPERF_A_SERVER_ADDR, addr->len, addr->raw) < 0)
		return put_failed(out);
	if (has_port && nla_put_u16(*out, SPARKPERF_A_SERVER_PORT, port) < 0)
		return put_failed(out);
	return 0;
}

int sp_nl_server_stop_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return id_msg(family, SPARKPERF_CMD_SERVER_STOP, NLM_F_ACK, SPARKPERF_A_SERVER_ID, has_id,
		      id, out);
}

int sp_nl_server_get_msg(int family, struct nl_msg **out)
{
	return req_new(family, SPARKPERF_CMD_SERVER_GET, NLM_F_DUMP, out);
}

#define LC(a, k, m, h) FIELD_HAS(struct sp_lat_config, SPARKPERF_A_LAT_##a, k, m, h)
static const struct field lat_config_fields[] = {
	FIELD(struct sp_lat_config, SPARKPERF_A_LAT_PEER, F_ADDR, peer),
	LC(PORT, F_U16, port, has_port),
	LC(DEV, F_DEVNAME, dev, has_dev),
	LC(OP, F_U8, op, has_op),
	LC(SIZE, F_U32, size, has_size),
	LC(ITERS, F_U64, iters, has_iters),
	LC(DURATION_MS, F_U32, duration_ms, has_duration),
	LC(WARMUP, F_U32, warmup, has_warmup),
	LC(CPU, F_U32, cpu, has_cpu),
	LC(SAMPLES_MAX, F_U32, samples_max, has_samples_max),
	LC(INTERVAL_MS, F_U32, interval_ms, has_interval),
};
#undef LC

#define BC(a, k, m, h) FIELD_HAS(struct sp_bw_config, SPARKPERF_A_BW_##a, k, m, h)
static const struct field bw_config_fields[] = {
	FIELD(struct sp_bw_config, SPARKPERF_A_BW_PEER, F_ADDR, peer),
	BC(PORT, F_U16, port, has_port),
	BC(DEV, F_DEVNAME, dev, has_dev),
	BC(OP, F_U8, op, has_op),
	BC(SIZE, F_U32, size, has_size),
	BC(QPS, F_U32, qps, has_qps),
	BC(THREADS, F_U32, threads, has_threads),
	BC(DEPTH, F_U32, depth, has_depth),
	BC(SIGNAL, F_U32, signal, has_signal),
	BC(ITERS, F_U64, iters, has_iters),
	BC(DURATION_MS, F_U32, duration_ms, has_duration),
	FIELD(struct sp_bw_config, SPARKPERF_A_BW_BIDIR, F_FLAG, bidir),
	FIELD(struct sp_bw_config, SPARKPERF_A_BW_VALIDATE, F_FLAG, validate),
	BC(INTERVAL_MS, F_U32, interval_ms, has_interval),
	BC(START_AT_NS, F_U64, start_at_ns, has_start_at),
};
#undef BC

static int put_fields(struct nl_msg *m, const struct field *f, size_t n, const void *src)
{
	const char *base = src;
	int ret = 0;

	for (; n && ret >= 0; n--, f++) {
		const void *p = base + f->off;
		const struct sp_addr *a = p;

		if (f->has && !*(const bool *)(base + f->has - 1))
			continue;
		switch (f->kind) {
		case F_U8:
			ret = nla_put_u8(m, f->type, *(const uint8_t *)p);
			break;
		case F_U16:
			ret = nla_put_u16(m, f->type, *(const uint16_t *)p);
			break;
		case F_U32:
			ret = nla_put_u32(m, f->type, *(const uint32_t *)p);
			break;
		case F_U64:
			ret = nla_put_u64(m, f->type, *(const uint64_t *)p);
			break;
		case F_S32:
			ret = nla_put_s32(m, f->type, *(const int32_t *)p);
			break;
		case F_FLAG:
			if (*(const bool *)p)
				ret = nla_put_flag(m, f->type);
			break;
		case F_ADDR:
			if (a->len)
				ret = nla_put(m, f->type, a->len, a->raw);
			break;
		case F_DEVNAME:
		case F_ERRMSG:
			ret = nla_put_string(m, f->type, p);
			break;
		}
	}
	return ret < 0 ? -ENOMEM : 0;
}

/*
 * A LAT_RUN or BW_RUN: the peer (required), not both iterations and a
 * duration, a device name that fits.
 */
static int run_msg(int family, uint8_t cmd, const struct field *f, size_t n, const void *cfg,
		   const struct sp_addr *peer, bool iters_and_duration, bool has_dev,
		   const char *dev, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (!addr_valid(peer) || iters_and_duration)
		return -EINVAL;
	if (has_dev && (!dev[0] || strnlen(dev, SPARKPERF_DEV_NAME_MAX) >= SPARKPERF_DEV_NAME_MAX))
		return -EINVAL;
	ret = req_new(family, cmd, NLM_F_ACK, out);
	if (ret)
		return ret;
	if (put_fields(*out, f, n, cfg))
		return put_failed(out);
	return 0;
}

int sp_nl_lat_run_msg(int family, const struct sp_lat_config *c, struct nl_msg **out)
{
	return run_msg(family, SPARKPERF_CMD_LAT_RUN, lat_config_fields,
		       ARRAY_SIZE(lat_config_fields), c, &c->peer, c->has_iters && c->has_duration,
		       c->has_dev, c->dev, out);
}

int sp_nl_bw_run_msg(int family, const struct sp_bw_config *c, struct nl_msg **out)
{
	return run_msg(family, SPARKPERF_CMD_BW_RUN, bw_config_fields,
		       ARRAY_SIZE(bw_config_fields), c, &c->peer, c->has_iters && c->has_duration,
		       c->has_dev, c->dev, out);
}

int sp_nl_lat_stop_msg(int family, uint32_t id, struct nl_msg **out)
{
	return id_msg(family, SPARKPERF_CMD_LAT_STOP, NLM_F_ACK, SPARKPERF_A_LAT_ID, true, id, out);
}

int sp_nl_lat_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return id_msg(family, SPARKPERF_CMD_LAT_GET, has_id ? NLM_F_ACK : NLM_F_DUMP,
		      SPARKPERF_A_LAT_ID, has_id, id, out);
}

int sp_nl_lat_samples_msg(int family, uint32_t id, struct nl_msg **out)
{
	return id_msg(family, SPARKPERF_CMD_LAT_SAMPLES, NLM_F_DUMP, SPARKPERF_A_LAT_ID, true,
		      id, out);
}

int sp_nl_bw_stop_msg(int family, uint32_t id, struct nl_msg **out)
{
	return id_msg(family, SPARKPERF_CMD_BW_STOP, NLM_F_ACK, SPARKPERF_A_BW_ID, true, id, out);
}

int sp_nl_bw_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return id_msg(family, SPARKPERF_CMD_BW_GET, has_id ? NLM_F_ACK : NLM_F_DUMP,
		      SPARKPERF_A_BW_ID, has_id, id, out);
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

int sp_nl_parse_server(struct nlmsghdr *nlh, struct sp_server *srv, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_SERVER_MAX + 1];

	memset(srv, 0, sizeof(*srv));
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_SERVER_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_u32, tb, SPARKPERF_A_SERVER_ID, &srv->id);
	OPT(get_addr, tb, SPARKPERF_A_SERVER_ADDR, &srv->addr);
	REQ(get_u16, tb, SPARKPERF_A_SERVER_PORT, &srv->port);
	OPT(get_u32, tb, SPARKPERF_A_SERVER_ACTIVE, &srv->active);
	OPT(get_u64, tb, SPARKPERF_A_SERVER_SERVED, &srv->served);
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

#define LR(a, k, m) FIELD(struct sp_lat, SPARKPERF_A_LAT_##a, k, m)
static const struct field lat_fields[] = {
	FIELD_REQ(struct sp_lat, SPARKPERF_A_LAT_ID, F_U32, id),
	FIELD_REQ(struct sp_lat, SPARKPERF_A_LAT_STATE, F_U8, state),
	FIELD_HAS(struct sp_lat, SPARKPERF_A_LAT_ERROR, F_S32, error, has_error),
	FIELD_HAS(struct sp_lat, SPARKPERF_A_LAT_ERROR_MSG, F_ERRMSG, error_msg, has_error_msg),
	LR(WARMUP_DONE, F_U64, warmup_done),
	LR(COUNT, F_U64, count),
	LR(ELAPSED_NS, F_U64, elapsed_ns),
	LR(YIELDS, F_U64, yields),
	LR(RT_YIELDS, F_U64, rt_yields),
	FIELD_HAS(struct sp_lat, SPARKPERF_A_LAT_CLOCK_RES_NS, F_U32, clock_res_ns, has_clock_res),
	LR(MIN_NS, F_U64, min_ns),
	LR(MAX_NS, F_U64, max_ns),
	LR(SUM_NS, F_U64, sum_ns),
	LR(SUMSQ_HI, F_U64, sumsq_hi),
	LR(SUMSQ_LO, F_U64, sumsq_lo),
	LR(P50_NS, F_U64, p50_ns),
	LR(P90_NS, F_U64, p90_ns),
	LR(P99_NS, F_U64, p99_ns),
	LR(P999_NS, F_U64, p999_ns),
	LR(P9999_NS, F_U64, p9999_ns),
	LR(P99999_NS, F_U64, p99999_ns),
};
#undef LR

#define BR(a, k, m) FIELD(struct sp_bw, SPARKPERF_A_BW_##a, k, m)
static const struct field bw_fields[] = {
	FIELD_REQ(struct sp_bw, SPARKPERF_A_BW_ID, F_U32, id),
	FIELD_REQ(struct sp_bw, SPARKPERF_A_BW_STATE, F_U8, state),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_ERROR, F_S32, error, has_error),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_ERROR_MSG, F_ERRMSG, error_msg, has_error_msg),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_START_NS, F_U64, start_ns, has_start),
	BR(ELAPSED_NS, F_U64, elapsed_ns),
	BR(TX_BYTES, F_U64, tx_bytes),
	BR(TX_MSGS, F_U64, tx_msgs),
	BR(RX_BYTES, F_U64, rx_bytes),
	BR(RX_MSGS, F_U64, rx_msgs),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_VALIDATE_ERRORS, F_U64, validate_errors,
		  has_validate_errors),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_CPU_NS, F_U64, cpu_ns, has_cpu),
};
#undef BR

static const struct field lat_progress_fields[] = {
	FIELD_REQ(struct sp_lat_progress, SPARKPERF_A_LAT_ID, F_U32, id),
	FIELD_REQ(struct sp_lat_progress, SPARKPERF_A_LAT_STATE, F_U8, state),
	FIELD(struct sp_lat_progress, SPARKPERF_A_LAT_COUNT, F_U64, count),
	FIELD(struct sp_lat_progress, SPARKPERF_A_LAT_WARMUP_DONE, F_U64, warmup_done),
};

static const struct field bw_progress_fields[] = {
	FIELD_REQ(struct sp_bw_progress, SPARKPERF_A_BW_ID, F_U32, id),
	FIELD_REQ(struct sp_bw_progress, SPARKPERF_A_BW_STATE, F_U8, state),
	FIELD(struct sp_bw_progress, SPARKPERF_A_BW_TX_BYTES, F_U64, tx_bytes),
	FIELD(struct sp_bw_progress, SPARKPERF_A_BW_RX_BYTES, F_U64, rx_bytes),
};

#define IV(a, k, m) FIELD(struct sp_interval, SPARKPERF_A_INTERVAL_##a, k, m)
static const struct field interval_fields[] = {
	FIELD_REQ(struct sp_interval, SPARKPERF_A_INTERVAL_END_NS, F_U64, end_ns),
	IV(COUNT, F_U64, count),
	IV(P50_NS, F_U64, p50_ns),
	IV(P99_NS, F_U64, p99_ns),
	IV(MAX_NS, F_U64, max_ns),
	IV(BYTES, F_U64, bytes),
};
#undef IV

/* The larger of the two attribute spaces of sessions. */
#define SESSION_ATTR_MAX \
	(SPARKPERF_A_LAT_MAX > SPARKPERF_A_BW_MAX ? SPARKPERF_A_LAT_MAX : SPARKPERF_A_BW_MAX)

/* The u32 attribute type (named name) of a reply, as *v. */
static int parse_u32(struct nlmsghdr *nlh, int type, const char *name, uint32_t *v,
		     const char **why)
{
	struct nlattr *tb[SESSION_ATTR_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, SESSION_ATTR_MAX, NULL) < 0)
		return bad(why, "truncated message");
	if (!tb[type] || get_u32(tb[type], v))
		return bad(why, name);
	return 0;
}

int sp_nl_parse_lat_id(struct nlmsghdr *nlh, uint32_t *id, const char **why)
{
	return parse_u32(nlh, SPARKPERF_A_LAT_ID, "SPARKPERF_A_LAT_ID", id, why);
}

int sp_nl_parse_bw_id(struct nlmsghdr *nlh, uint32_t *id, const char **why)
{
	return parse_u32(nlh, SPARKPERF_A_BW_ID, "SPARKPERF_A_BW_ID", id, why);
}

/* One interval, the nested attribute attr (named name). */
static int get_interval(struct nlattr *attr, const char *name, struct sp_interval *iv,
			const char **why)
{
	struct nlattr *tb[SPARKPERF_A_INTERVAL_MAX + 1];

	memset(iv, 0, sizeof(*iv));
	if (nla_parse_nested(tb, SPARKPERF_A_INTERVAL_MAX, attr, NULL) < 0)
		return bad(why, name);
	return get_fields(tb, interval_fields, ARRAY_SIZE(interval_fields), iv, why);
}

/* The SPARKPERF_A_LAT_INTERVALS_ENTRY list of nest, into a new array. */
static int get_intervals(struct nlattr *nest, struct sp_interval **ivs, size_t *n,
			 const char **why)
{
	size_t count = count_nested(nest, SPARKPERF_A_LAT_INTERVALS_ENTRY);
	struct nlattr *pos;
	int rem, ret;

	if (!count)
		return 0;
	*ivs = calloc(count, sizeof(**ivs));
	if (!*ivs)
		return -ENOMEM;
	nla_for_each_nested(pos, nest, rem) {
		if (nla_type(pos) != SPARKPERF_A_LAT_INTERVALS_ENTRY)
			continue;
		ret = get_interval(pos, "SPARKPERF_A_LAT_INTERVALS_ENTRY", &(*ivs)[*n], why);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}

/*
 * A session (LAT_GET, BW_GET): its results (fields) into dst, its
 * configuration into cfg, the interval list attribute ivl_attr.
 */
struct session_parse {
	int maxtype;
	const struct field *fields, *config;
	size_t n_fields, n_config;
	int ivl_attr;
};

static int parse_session(struct nlmsghdr *nlh, const struct session_parse *sp, void *dst,
			 void *cfg, struct sp_interval **ivs, size_t *n, const char **why)
{
	struct nlattr *tb[SESSION_ATTR_MAX + 1];
	int ret;

	if (genlmsg_parse(nlh, 0, tb, sp->maxtype, NULL) < 0)
		return bad(why, "truncated message");
	ret = get_fields(tb, sp->fields, sp->n_fields, dst, why);
	if (!ret)
		ret = get_fields(tb, sp->config, sp->n_config, cfg, why);
	if (!ret && tb[sp->ivl_attr])
		ret = get_intervals(tb[sp->ivl_attr], ivs, n, why);
	return ret;
}

int sp_nl_parse_lat(struct nlmsghdr *nlh, struct sp_lat *lat, const char **why)
{
	static const struct session_parse sp = {
		SPARKPERF_A_LAT_MAX, lat_fields, lat_config_fields, ARRAY_SIZE(lat_fields),
		ARRAY_SIZE(lat_config_fields), SPARKPERF_A_LAT_INTERVALS,
	};

	memset(lat, 0, sizeof(*lat));
	return parse_session(nlh, &sp, lat, &lat->cfg, &lat->intervals, &lat->n_intervals, why);
}

int sp_nl_parse_bw(struct nlmsghdr *nlh, struct sp_bw *bw, const char **why)
{
	static const struct session_parse sp = {
		SPARKPERF_A_BW_MAX, bw_fields, bw_config_fields, ARRAY_SIZE(bw_fields),
		ARRAY_SIZE(bw_config_fields), SPARKPERF_A_BW_INTERVALS,
	};

	memset(bw, 0, sizeof(*bw));
	return parse_session(nlh, &sp, bw, &bw->cfg, &bw->intervals, &bw->n_intervals, why);
}

/*
 * A progress message of command cmd: its fields into dst and, when it has
 * the nested attribute ivl_attr, that interval.
 */
static int parse_progress(struct nlmsghdr *nlh, uint8_t cmd, int maxtype,
			  const struct field *f, size_t n, void *dst, int ivl_attr,
			  const char *ivl_name, bool *has_ivl, struct sp_interval *ivl,
			  const char **why)
{
	struct nlattr *tb[SESSION_ATTR_MAX + 1];
	struct genlmsghdr *ghdr;
	int ret;

	if (!genlmsg_valid_hdr(nlh, 0))
		return bad(why, "truncated message");
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != cmd)
		return -EOPNOTSUPP;
	if (genlmsg_parse(nlh, 0, tb, maxtype, NULL) < 0)
		return bad(why, "truncated message");
	ret = get_fields(tb, f, n, dst, why);
	if (ret || !tb[ivl_attr])
		return ret;
	*has_ivl = true;
	return get_interval(tb[ivl_attr], ivl_name, ivl, why);
}

int sp_nl_parse_lat_progress(struct nlmsghdr *nlh, struct sp_lat_progress *p,
			     const char **why)
{
	memset(p, 0, sizeof(*p));
	return parse_progress(nlh, SPARKPERF_CMD_LAT_PROGRESS, SPARKPERF_A_LAT_MAX,
			      lat_progress_fields, ARRAY_SIZE(lat_progress_fields), p,
			      SPARKPERF_A_LAT_INTERVAL, "SPARKPERF_A_LAT_INTERVAL",
			      &p->has_interval, &p->interval, why);
}

int sp_nl_parse_bw_progress(struct nlmsghdr *nlh, struct sp_bw_progress *p, const char **why)
{
	memset(p, 0, sizeof(*p));
	return parse_progress(nlh, SPARKPERF_CMD_BW_PROGRESS, SPARKPERF_A_BW_MAX,
			      bw_progress_fields, ARRAY_SIZE(bw_progress_fields), p,
			      SPARKPERF_A_BW_INTERVAL, "SPARKPERF_A_BW_INTERVAL",
			      &p->has_interval, &p->interval, why);
}

int sp_nl_parse_lat_samples(struct nlmsghdr *nlh, struct sp_lat_samples *s,
			    const char **why)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1], *data;
	int len;

	memset(s, 0, sizeof(*s));
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_LAT_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_u32, tb, SPARKPERF_A_LAT_ID, &s->id);
	REQ(get_u64, tb, SPARKPERF_A_SAMPLES_FIRST, &s->first);
	data = tb[SPARKPERF_A_SAMPLES_DATA];
	len = data ? nla_len(data) : -1;
	if (len < 0 || len % (2 * sizeof(uint64_t)))
		return bad(why, "SPARKPERF_A_SAMPLES_DATA");
	s->data = nla_data(data);
	s->n = (size_t)len / (2 * sizeof(uint64_t));
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

static int parse_server_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_server(nlh, dst, why);
}

static int parse_lat_id_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_lat_id(nlh, dst, why);
}

static int parse_lat_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_lat(nlh, dst, why);
}

static int parse_bw_id_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_bw_id(nlh, dst, why);
}

static int parse_bw_cb(struct nlmsghdr *nlh, void *dst, const char **why)
{
	return sp_nl_parse_bw(nlh, dst, why);
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

int sp_nl_server_start(struct sp_nl *nl, const struct sp_addr *addr, bool has_port,
		       uint16_t port, struct sp_server *srv)
{
	struct nl_msg *msg;
	int ret = sp_nl_server_start_msg(nl->family, addr, has_port, port, &msg);

	return transact_built(nl, ret, msg, SPARKPERF_CMD_SERVER_GET, parse_server_cb, srv);
}

int sp_nl_server_stop(struct sp_nl *nl, bool has_id, uint32_t id)
{
	struct nl_msg *msg;
	int ret = sp_nl_server_stop_msg(nl->family, has_id, id, &msg);

	return transact_ack(nl, ret, msg, SPARKPERF_CMD_SERVER_STOP);
}

static int server_add(struct nlmsghdr *nlh, void *list, const char **why)
{
	struct sp_server srv;
	int ret = sp_nl_parse_server(nlh, &srv, why);

	return ret ? ret : sp_server_list_add(list, &srv);
}

static void server_reset(void *list)
{
	sp_server_list_free(list);
}

int sp_nl_server_get(struct sp_nl *nl, struct sp_server_list *list)
{
	memset(list, 0, sizeof(*list));
	return dump_list(nl, sp_nl_server_get_msg, SPARKPERF_CMD_SERVER_GET, server_add, list,
			 server_reset, "server list");
}

int sp_nl_lat_run(struct sp_nl *nl, const struct sp_lat_config *cfg, uint32_t *id)
{
	struct nl_msg *msg;
	int ret = sp_nl_lat_run_msg(nl->family, cfg, &msg);

	return transact_built(nl, ret, msg, SPARKPERF_CMD_LAT_RUN, parse_lat_id_cb, id);
}

int sp_nl_lat_stop(struct sp_nl *nl, uint32_t id)
{
	struct nl_msg *msg;
	int ret = sp_nl_lat_stop_msg(nl->family, id, &msg);

	return transact_ack(nl, ret, msg, SPARKPERF_CMD_LAT_STOP);
}

int sp_nl_lat_get(struct sp_nl *nl, uint32_t id, struct sp_lat *lat)
{
	struct nl_msg *msg;
	int ret;

	memset(lat, 0, sizeof(*lat));
	ret = sp_nl_lat_get_msg(nl->family, true, id, &msg);
	ret = transact_built(nl, ret, msg, SPARKPERF_CMD_LAT_GET, parse_lat_cb, lat);
	if (ret)
		sp_lat_free(lat);
	return ret;
}

static int lat_dump_msg(int family, struct nl_msg **out)
{
	return sp_nl_lat_get_msg(family, false, 0, out);
}

static int lat_add(struct nlmsghdr *nlh, void *list, const char **why)
{
	struct sp_lat lat;
	int ret = sp_nl_parse_lat(nlh, &lat, why);

	if (!ret)
		ret = sp_lat_list_add(list, &lat);
	sp_lat_free(&lat);
	return ret;
}

static void lat_reset(void *list)
{
	sp_lat_list_free(list);
}

int sp_nl_lat_list(struct sp_nl *nl, struct sp_lat_list *list)
{
	memset(list, 0, sizeof(*list));
	return dump_list(nl, lat_dump_msg, SPARKPERF_CMD_LAT_GET, lat_add, list, lat_reset,
			 "session list");
}

int sp_nl_bw_run(struct sp_nl *nl, const struct sp_bw_config *cfg, uint32_t *id)
{
	struct nl_msg *msg;
	int ret = sp_nl_bw_run_msg(nl->family, cfg, &msg);

	return transact_built(nl, ret, msg, SPARKPERF_CMD_BW_RUN, parse_bw_id_cb, id);
}

int sp_nl_bw_stop(struct sp_nl *nl, uint32_t id)
{
	struct nl_msg *msg;
	int ret = sp_nl_bw_stop_msg(nl->family, id, &msg);

	return transact_ack(nl, ret, msg, SPARKPERF_CMD_BW_STOP);
}

int sp_nl_bw_get(struct sp_nl *nl, uint32_t id, struct sp_bw *bw)
{
	struct nl_msg *msg;
	int ret;

	memset(bw, 0, sizeof(*bw));
	ret = sp_nl_bw_get_msg(nl->family, true, id, &msg);
	ret = transact_built(nl, ret, msg, SPARKPERF_CMD_BW_GET, parse_bw_cb, bw);
	if (ret)
		sp_bw_free(bw);
	return ret;
}

static int bw_dump_msg(int family, struct nl_msg **out)
{
	return sp_nl_bw_get_msg(family, false, 0, out);
}

static int bw_add(struct nlmsghdr *nlh, void *list, const char **why)
{
	struct sp_bw bw;
	int ret = sp_nl_parse_bw(nlh, &bw, why);

	if (!ret)
		ret = sp_bw_list_add(list, &bw);
	sp_bw_free(&bw);
	return ret;
}

static void bw_reset(void *list)
{
	sp_bw_list_free(list);
}

int sp_nl_bw_list(struct sp_nl *nl, struct sp_bw_list *list)
{
	memset(list, 0, sizeof(*list));
	return dump_list(nl, bw_dump_msg, SPARKPERF_CMD_BW_GET, bw_add, list, bw_reset,
			 "session list");
}

struct samples_ctx {
	struct sp_nl *nl;
	sp_nl_samples_fn fn;
	void *arg;
};

static int samples_valid(struct nlmsghdr *nlh, void *arg)
{
	struct samples_ctx *c = arg;
	struct sp_lat_samples s;
	const char *why = "?";
	int ret;

	ret = sp_nl_parse_lat_samples(nlh, &s, &why);
	if (ret) {
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
		return ret;
	}
	return c->fn(&s, c->arg);
}

int sp_nl_lat_samples(struct sp_nl *nl, uint32_t id, sp_nl_samples_fn fn, void *arg)
{
	struct samples_ctx c = { .nl = nl, .fn = fn, .arg = arg };
	struct nl_msg *msg;
	int ret;

	ret = sp_nl_lat_samples_msg(nl->family, id, &msg);
	if (ret)
		return ret;
	ret = sp_nl_transact(nl, msg, SPARKPERF_CMD_LAT_SAMPLES, samples_valid, &c);
	if (ret == -EINTR && !nl->err.has_msg)
		set_local_err(nl, ret, "the samples changed during the dump");
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
	sp_nl_progress_fn pr_fn;
	sp_nl_bw_progress_fn bw_fn;
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

static int lat_progress_one(struct nlmsghdr *nlh, const struct feed_ctx *c)
{
	struct sp_lat_progress p;
	int ret = sp_nl_parse_lat_progress(nlh, &p, NULL);

	return ret ? ret : c->pr_fn(&p, c->arg) != 0;
}

int sp_nl_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			sp_nl_progress_fn fn, void *arg)
{
	struct feed_ctx c = { .pr_fn = fn, .arg = arg };

	return feed_each(nl, buf, len, lat_progress_one, &c, &nl->bad_progress);
}

int sp_nl_progress_recv(struct sp_nl *nl, sp_nl_progress_fn fn, void *arg)
{
	struct feed_ctx c = { .pr_fn = fn, .arg = arg };

	return mcast_recv(nl, nl->pr_sk, lat_progress_one, &c, &nl->bad_progress);
}

static int bw_progress_one(struct nlmsghdr *nlh, const struct feed_ctx *c)
{
	struct sp_bw_progress p;
	int ret = sp_nl_parse_bw_progress(nlh, &p, NULL);

	return ret ? ret : c->bw_fn(&p, c->arg) != 0;
}

int sp_nl_bw_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			   sp_nl_bw_progress_fn fn, void *arg)
{
	struct feed_ctx c = { .bw_fn = fn, .arg = arg };

	return feed_each(nl, buf, len, bw_progress_one, &c, &nl->bad_progress);
}

int sp_nl_bw_progress_recv(struct sp_nl *nl, sp_nl_bw_progress_fn fn, void *arg)
{
	struct feed_ctx c = { .bw_fn = fn, .arg = arg };

	return mcast_recv(nl, nl->pr_sk, bw_progress_one, &c, &nl->bad_progress);
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
