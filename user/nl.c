// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink client for the "sparkperf" family (libnl-genl-3).
 *
 * Every request is answered by an ACK, an NLMSG_ERROR (with extended ACK
 * TLVs: the socket sets NETLINK_EXT_ACK and NETLINK_CAP_ACK) or, for dumps,
 * NLMSG_DONE, whose payload carries the dump's errno. sp_nl_transact() owns
 * that loop; the rest of this file builds requests and parses replies.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "nl.h"

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
	int ret = req_new(family, SPARKPERF_CMD_SERVER_STOP, NLM_F_ACK, out);

	if (ret)
		return ret;
	if (has_id && nla_put_u32(*out, SPARKPERF_A_SERVER_ID, id) < 0)
		return put_failed(out);
	return 0;
}

int sp_nl_server_get_msg(int family, struct nl_msg **out)
{
	return req_new(family, SPARKPERF_CMD_SERVER_GET, NLM_F_DUMP, out);
}

int sp_nl_lat_run_msg(int family, const struct sp_lat_config *c, struct nl_msg **out)
{
	struct nl_msg *m;
	int ret;

	*out = NULL;
	if (!addr_valid(&c->peer) || (c->has_iters && c->has_duration))
		return -EINVAL;
	if (c->has_dev && (!c->dev[0] || strnlen(c->dev, sizeof(c->dev)) >= sizeof(c->dev)))
		return -EINVAL;
	ret = req_new(family, SPARKPERF_CMD_LAT_RUN, NLM_F_ACK, out);
	if (ret)
		return ret;
	m = *out;
	if (nla_put(m, SPARKPERF_A_LAT_PEER, c->peer.len, c->peer.raw) < 0 ||
	    (c->has_port && nla_put_u16(m, SPARKPERF_A_LAT_PORT, c->port) < 0) ||
	    (c->has_dev && nla_put_string(m, SPARKPERF_A_LAT_DEV, c->dev) < 0) ||
	    (c->has_op && nla_put_u8(m, SPARKPERF_A_LAT_OP, c->op) < 0) ||
	    (c->has_size && nla_put_u32(m, SPARKPERF_A_LAT_SIZE, c->size) < 0) ||
	    (c->has_iters && nla_put_u64(m, SPARKPERF_A_LAT_ITERS, c->iters) < 0) ||
	    (c->has_duration &&
	     nla_put_u32(m, SPARKPERF_A_LAT_DURATION_MS, c->duration_ms) < 0) ||
	    (c->has_warmup && nla_put_u32(m, SPARKPERF_A_LAT_WARMUP, c->warmup) < 0) ||
	    (c->has_cpu && nla_put_u32(m, SPARKPERF_A_LAT_CPU, c->cpu) < 0) ||
	    (c->has_samples_max &&
	     nla_put_u32(m, SPARKPERF_A_LAT_SAMPLES_MAX, c->samples_max) < 0) ||
	    (c->has_interval &&
	     nla_put_u32(m, SPARKPERF_A_LAT_INTERVAL_MS, c->interval_ms) < 0))
		return put_failed(out);
	return 0;
}

int sp_nl_lat_stop_msg(int family, uint32_t id, struct nl_msg **out)
{
	int ret = req_new(family, SPARKPERF_CMD_LAT_STOP, NLM_F_ACK, out);

	if (ret)
		return ret;
	if (nla_put_u32(*out, SPARKPERF_A_LAT_ID, id) < 0)
		return put_failed(out);
	return 0;
}

int sp_nl_lat_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	int ret = req_new(family, SPARKPERF_CMD_LAT_GET, has_id ? NLM_F_ACK : NLM_F_DUMP, out);

	if (ret)
		return ret;
	if (has_id && nla_put_u32(*out, SPARKPERF_A_LAT_ID, id) < 0)
		return put_failed(out);
	return 0;
}

int sp_nl_lat_samples_msg(int family, uint32_t id, struct nl_msg **out)
{
	int ret = req_new(family, SPARKPERF_CMD_LAT_SAMPLES, NLM_F_DUMP, out);

	if (ret)
		return ret;
	if (nla_put_u32(*out, SPARKPERF_A_LAT_ID, id) < 0)
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

/* Optional attribute that sets a has_* flag. */
#define OPT_HAS(getter, tb, type, dst, has) \
	do { \
		if ((tb)[type]) { \
			if (getter((tb)[type], dst)) \
				return bad(why, #type); \
			(has) = true; \
		} \
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

int sp_nl_parse_lat_id(struct nlmsghdr *nlh, uint32_t *id, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_LAT_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_u32, tb, SPARKPERF_A_LAT_ID, id);
	return 0;
}

static int get_interval(struct nlattr *attr, struct sp_lat_interval *iv, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_INTERVAL_MAX + 1];

	memset(iv, 0, sizeof(*iv));
	if (nla_parse_nested(tb, SPARKPERF_A_INTERVAL_MAX, attr, NULL) < 0)
		return bad(why, "SPARKPERF_A_LAT_INTERVAL");
	REQ(get_u64, tb, SPARKPERF_A_INTERVAL_END_NS, &iv->end_ns);
	REQ(get_u64, tb, SPARKPERF_A_INTERVAL_COUNT, &iv->count);
	OPT(get_u64, tb, SPARKPERF_A_INTERVAL_P50_NS, &iv->p50_ns);
	OPT(get_u64, tb, SPARKPERF_A_INTERVAL_P99_NS, &iv->p99_ns);
	OPT(get_u64, tb, SPARKPERF_A_INTERVAL_MAX_NS, &iv->max_ns);
	return 0;
}

static int get_lat_config(struct nlattr **tb, struct sp_lat_config *c, const char **why)
{
	OPT(get_addr, tb, SPARKPERF_A_LAT_PEER, &c->peer);
	OPT_HAS(get_u16, tb, SPARKPERF_A_LAT_PORT, &c->port, c->has_port);
	OPT_HAS(get_str_devname, tb, SPARKPERF_A_LAT_DEV, c->dev, c->has_dev);
	OPT_HAS(get_u8, tb, SPARKPERF_A_LAT_OP, &c->op, c->has_op);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_SIZE, &c->size, c->has_size);
	OPT_HAS(get_u64, tb, SPARKPERF_A_LAT_ITERS, &c->iters, c->has_iters);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_DURATION_MS, &c->duration_ms, c->has_duration);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_WARMUP, &c->warmup, c->has_warmup);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_CPU, &c->cpu, c->has_cpu);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_SAMPLES_MAX, &c->samples_max, c->has_samples_max);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_INTERVAL_MS, &c->interval_ms, c->has_interval);
	return 0;
}

int sp_nl_parse_lat(struct nlmsghdr *nlh, struct sp_lat *lat, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1], *pos;
	size_t n;
	int rem, ret;

	memset(lat, 0, sizeof(*lat));
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_LAT_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_u32, tb, SPARKPERF_A_LAT_ID, &lat->id);
	ret = get_lat_config(tb, &lat->cfg, why);
	if (ret)
		return ret;
	REQ(get_u8, tb, SPARKPERF_A_LAT_STATE, &lat->state);
	OPT_HAS(get_s32, tb, SPARKPERF_A_LAT_ERROR, &lat->error, lat->has_error);
	OPT_HAS(get_str_errmsg, tb, SPARKPERF_A_LAT_ERROR_MSG, lat->error_msg,
		lat->has_error_msg);
	OPT(get_u64, tb, SPARKPERF_A_LAT_WARMUP_DONE, &lat->warmup_done);
	OPT(get_u64, tb, SPARKPERF_A_LAT_COUNT, &lat->count);
	OPT(get_u64, tb, SPARKPERF_A_LAT_ELAPSED_NS, &lat->elapsed_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_YIELDS, &lat->yields);
	OPT(get_u64, tb, SPARKPERF_A_LAT_RT_YIELDS, &lat->rt_yields);
	OPT_HAS(get_u32, tb, SPARKPERF_A_LAT_CLOCK_RES_NS, &lat->clock_res_ns,
		lat->has_clock_res);
	OPT(get_u64, tb, SPARKPERF_A_LAT_MIN_NS, &lat->min_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_MAX_NS, &lat->max_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_SUM_NS, &lat->sum_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_SUMSQ_HI, &lat->sumsq_hi);
	OPT(get_u64, tb, SPARKPERF_A_LAT_SUMSQ_LO, &lat->sumsq_lo);
	OPT(get_u64, tb, SPARKPERF_A_LAT_P50_NS, &lat->p50_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_P90_NS, &lat->p90_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_P99_NS, &lat->p99_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_P999_NS, &lat->p999_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_P9999_NS, &lat->p9999_ns);
	OPT(get_u64, tb, SPARKPERF_A_LAT_P99999_NS, &lat->p99999_ns);

	if (!tb[SPARKPERF_A_LAT_INTERVALS])
		return 0;
	n = count_nested(tb[SPARKPERF_A_LAT_INTERVALS], SPARKPERF_A_LAT_INTERVALS_ENTRY);
	if (!n)
		return 0;
	lat->intervals = calloc(n, sizeof(*lat->intervals));
	if (!lat->intervals)
		return -ENOMEM;
	nla_for_each_nested(pos, tb[SPARKPERF_A_LAT_INTERVALS], rem) {
		if (nla_type(pos) != SPARKPERF_A_LAT_INTERVALS_ENTRY)
			continue;
		ret = get_interval(pos, &lat->intervals[lat->n_intervals], why);
		if (ret)
			return ret;
		lat->n_intervals++;
	}
	return 0;
}

int sp_nl_parse_lat_progress(struct nlmsghdr *nlh, struct sp_lat_progress *p,
			     const char **why)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1];
	struct genlmsghdr *ghdr;
	int ret;

	memset(p, 0, sizeof(*p));
	if (!genlmsg_valid_hdr(nlh, 0))
		return bad(why, "truncated message");
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != SPARKPERF_CMD_LAT_PROGRESS)
		return -EOPNOTSUPP;
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_LAT_MAX, NULL) < 0)
		return bad(why, "truncated message");
	REQ(get_u32, tb, SPARKPERF_A_LAT_ID, &p->id);
	REQ(get_u8, tb, SPARKPERF_A_LAT_STATE, &p->state);
	OPT(get_u64, tb, SPARKPERF_A_LAT_COUNT, &p->count);
	OPT(get_u64, tb, SPARKPERF_A_LAT_WARMUP_DONE, &p->warmup_done);
	if (tb[SPARKPERF_A_LAT_INTERVAL]) {
		ret = get_interval(tb[SPARKPERF_A_LAT_INTERVAL], &p->interval, why);
		if (ret)
			return ret;
		p->has_interval = true;
	}
	return 0;
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
	default:
		return NULL;
	}
	return type < n ? names[type] : NULL;
}

/* ---- the socket ------------------------------------------------------- */

int sp_nl_open(struct sp_nl *nl)
{
	int one = 1, fd, ret;

	memset(nl, 0, sizeof(*nl));
	nl->family = -1;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = nlerr_to_errno(ret);
		goto fail;
	}
	fd = nl_socket_get_fd(nl->sk);
	/* NETLINK_CAP_ACK: Linux 4.3, NETLINK_EXT_ACK: 4.12; older kernels just say less */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	/* The controller request-loads the module for an unknown family. */
	ret = genl_ctrl_resolve(nl->sk, SPARKPERF_GENL_NAME);
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

void sp_nl_close(struct sp_nl *nl)
{
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

	if (x->error || nlh->nlmsg_type != x->family)
		return;
	if (!genlmsg_valid_hdr(nlh, 0)) {
		x->error = -EBADMSG;
		return;
	}
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != x->reply_cmd)
		return;
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

static int one_valid(struct nlmsghdr *nlh, void *arg)
{
	struct one_ctx *c = arg;
	const char *why = "?";
	int ret;

	if (c->got)
		return 0;	/* a second reply: only the first counts */
	ret = c->parse(nlh, c->dst, &why);
	if (ret == -EBADMSG)
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
	c->got = !ret;
	return ret;
}

static int transact_one(struct sp_nl *nl, struct nl_msg *msg, uint8_t reply_cmd,
			int (*parse)(struct nlmsghdr *, void *, const char **), void *dst)
{
	struct one_ctx c = { .nl = nl, .parse = parse, .dst = dst };
	int ret = sp_nl_transact(nl, msg, reply_cmd, one_valid, &c);

	if (!ret && !c.got) {
		set_local_err(nl, -EPROTO, "the sparkperf module sent no reply");
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

int sp_nl_server_start(struct sp_nl *nl, const struct sp_addr *addr, bool has_port,
		       uint16_t port, struct sp_server *srv)
{
	struct nl_msg *msg;
	int ret;

	ret = sp_nl_server_start_msg(nl->family, addr, has_port, port, &msg);
	if (ret)
		return ret;
	return transact_one(nl, msg, SPARKPERF_CMD_SERVER_GET, parse_server_cb, srv);
}

int sp_nl_server_stop(struct sp_nl *nl, bool has_id, uint32_t id)
{
	struct nl_msg *msg;
	int ret;

	ret = sp_nl_server_stop_msg(nl->family, has_id, id, &msg);
	if (ret)
		return ret;
	return sp_nl_transact(nl, msg, SPARKPERF_CMD_SERVER_STOP, NULL, NULL);
}

struct server_ctx {
	struct sp_nl *nl;
	struct sp_server_list *list;
};

static int server_valid(struct nlmsghdr *nlh, void *arg)
{
	struct server_ctx *c = arg;
	const char *why = "?";
	struct sp_server srv;
	int ret;

	ret = sp_nl_parse_server(nlh, &srv, &why);
	if (ret) {
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
		return ret;
	}
	return sp_server_list_add(c->list, &srv);
}

int sp_nl_server_get(struct sp_nl *nl, struct sp_server_list *list)
{
	struct server_ctx c = { .nl = nl, .list = list };
	struct nl_msg *msg;
	int ret, attempt;

	memset(list, 0, sizeof(*list));
	for (attempt = 0;; attempt++) {
		ret = sp_nl_server_get_msg(nl->family, &msg);
		if (ret)
			return ret;
		ret = sp_nl_transact(nl, msg, SPARKPERF_CMD_SERVER_GET, server_valid, &c);
		if (ret != -EINTR || attempt == SP_NL_DUMP_RETRIES)
			break;
		sp_server_list_free(list);
	}
	if (ret == -EINTR && !nl->err.has_msg)
		set_local_err(nl, ret, "the server list kept changing during %d dumps in a row",
			      SP_NL_DUMP_RETRIES + 1);
	if (ret)
		sp_server_list_free(list);
	return ret;
}

int sp_nl_lat_run(struct sp_nl *nl, const struct sp_lat_config *cfg, uint32_t *id)
{
	struct nl_msg *msg;
	int ret;

	ret = sp_nl_lat_run_msg(nl->family, cfg, &msg);
	if (ret)
		return ret;
	return transact_one(nl, msg, SPARKPERF_CMD_LAT_RUN, parse_lat_id_cb, id);
}

int sp_nl_lat_stop(struct sp_nl *nl, uint32_t id)
{
	struct nl_msg *msg;
	int ret;

	ret = sp_nl_lat_stop_msg(nl->family, id, &msg);
	if (ret)
		return ret;
	return sp_nl_transact(nl, msg, SPARKPERF_CMD_LAT_STOP, NULL, NULL);
}

int sp_nl_lat_get(struct sp_nl *nl, uint32_t id, struct sp_lat *lat)
{
	struct nl_msg *msg;
	int ret;

	memset(lat, 0, sizeof(*lat));
	ret = sp_nl_lat_get_msg(nl->family, true, id, &msg);
	if (ret)
		return ret;
	ret = transact_one(nl, msg, SPARKPERF_CMD_LAT_GET, parse_lat_cb, lat);
	if (ret)
		sp_lat_free(lat);
	return ret;
}

struct lat_list_ctx {
	struct sp_nl *nl;
	struct sp_lat_list *list;
};

static int lat_list_valid(struct nlmsghdr *nlh, void *arg)
{
	struct lat_list_ctx *c = arg;
	const char *why = "?";
	struct sp_lat lat;
	int ret;

	ret = sp_nl_parse_lat(nlh, &lat, &why);
	if (!ret)
		ret = sp_lat_list_add(c->list, &lat);
	else if (ret == -EBADMSG)
		set_local_err(c->nl, ret, "malformed reply from the sparkperf module (%s)", why);
	sp_lat_free(&lat);
	return ret;
}

int sp_nl_lat_list(struct sp_nl *nl, struct sp_lat_list *list)
{
	struct lat_list_ctx c = { .nl = nl, .list = list };
	struct nl_msg *msg;
	int ret, attempt;

	memset(list, 0, sizeof(*list));
	for (attempt = 0;; attempt++) {
		ret = sp_nl_lat_get_msg(nl->family, false, 0, &msg);
		if (ret)
			return ret;
		ret = sp_nl_transact(nl, msg, SPARKPERF_CMD_LAT_GET, lat_list_valid, &c);
		if (ret != -EINTR || attempt == SP_NL_DUMP_RETRIES)
			break;
		sp_lat_list_free(list);
	}
	if (ret == -EINTR && !nl->err.has_msg)
		set_local_err(nl, ret, "the session list kept changing during %d dumps in a row",
			      SP_NL_DUMP_RETRIES + 1);
	if (ret)
		sp_lat_list_free(list);
	return ret;
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

/* Feeds every pending datagram of sk to feed(); see sp_nl_events_recv(). */
static int mcast_recv(struct sp_nl *nl, struct nl_sock *sk,
		      int (*feed)(struct sp_nl *nl, void *buf, size_t len, void *ctx),
		      void *ctx)
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
			stop = feed(nl, buf, (size_t)n, ctx);
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

int sp_nl_events_feed(struct sp_nl *nl, void *buf, size_t len,
		      sp_nl_event_fn fn, void *arg)
{
	struct nlmsghdr *nlh = buf;
	int rem = len > INT32_MAX ? INT32_MAX : (int)len;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		struct sp_dev_event ev;
		int ret, stop = 0;

		if (nlh->nlmsg_type != nl->family)
			continue;
		ret = sp_nl_parse_event(nlh, &ev, NULL);
		if (!ret)
			stop = fn(&ev, arg);
		else if (ret != -EOPNOTSUPP)
			nl->bad_events++;
		sp_dev_free(&ev.dev);
		if (stop)
			return 1;
	}
	return 0;
}

struct feed_ctx {
	sp_nl_event_fn ev_fn;
	sp_nl_progress_fn pr_fn;
	void *arg;
};

static int events_feed_cb(struct sp_nl *nl, void *buf, size_t len, void *ctx)
{
	struct feed_ctx *c = ctx;

	return sp_nl_events_feed(nl, buf, len, c->ev_fn, c->arg);
}

int sp_nl_events_recv(struct sp_nl *nl, sp_nl_event_fn fn, void *arg)
{
	struct feed_ctx c = { .ev_fn = fn, .arg = arg };

	return mcast_recv(nl, nl->ev_sk, events_feed_cb, &c);
}

int sp_nl_progress_open(struct sp_nl *nl)
{
	return mcast_open(nl, SPARKPERF_MCGRP_PROGRESS, &nl->pr_sk);
}

int sp_nl_progress_fd(const struct sp_nl *nl)
{
	return nl->pr_sk ? nl_socket_get_fd(nl->pr_sk) : -1;
}

int sp_nl_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			sp_nl_progress_fn fn, void *arg)
{
	struct nlmsghdr *nlh = buf;
	int rem = len > INT32_MAX ? INT32_MAX : (int)len;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		struct sp_lat_progress p;
		int ret;

		if (nlh->nlmsg_type != nl->family)
			continue;
		ret = sp_nl_parse_lat_progress(nlh, &p, NULL);
		if (!ret) {
			if (fn(&p, arg))
				return 1;
		} else if (ret != -EOPNOTSUPP) {
			nl->bad_progress++;
		}
	}
	return 0;
}

static int progress_feed_cb(struct sp_nl *nl, void *buf, size_t len, void *ctx)
{
	struct feed_ctx *c = ctx;

	return sp_nl_progress_feed(nl, buf, len, c->pr_fn, c->arg);
}

int sp_nl_progress_recv(struct sp_nl *nl, sp_nl_progress_fn fn, void *arg)
{
	struct feed_ctx c = { .pr_fn = fn, .arg = arg };

	return mcast_recv(nl, nl->pr_sk, progress_feed_cb, &c);
}
