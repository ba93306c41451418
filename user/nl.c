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
	if (nl->ev_sk)
		nl_socket_free(nl->ev_sk);
	if (nl->sk)
		nl_socket_free(nl->sk);
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

int sp_nl_events_open(struct sp_nl *nl)
{
	int grp, ret;

	grp = genl_ctrl_resolve_grp(nl->sk, SPARKPERF_GENL_NAME, SPARKPERF_MCGRP_EVENTS);
	if (grp < 0) {
		ret = nlerr_to_errno(grp);
		set_local_err(nl, ret, "the sparkperf module has no \"%s\" multicast group",
			      SPARKPERF_MCGRP_EVENTS);
		return ret;
	}
	nl->ev_sk = nl_socket_alloc();
	if (!nl->ev_sk)
		return nl->err.error = -ENOMEM;
	nl_socket_disable_seq_check(nl->ev_sk);
	nl_socket_disable_auto_ack(nl->ev_sk);
	ret = genl_connect(nl->ev_sk);
	if (!ret)
		ret = nl_socket_set_buffer_size(nl->ev_sk, 1 << 20, 0);
	if (!ret)
		ret = nl_socket_add_membership(nl->ev_sk, grp);
	if (!ret)
		ret = nl_socket_set_nonblocking(nl->ev_sk);
	if (ret < 0) {
		nl_socket_free(nl->ev_sk);
		nl->ev_sk = NULL;
		return nl->err.error = nlerr_to_errno(ret);
	}
	return 0;
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

int sp_nl_events_recv(struct sp_nl *nl, sp_nl_event_fn fn, void *arg)
{
	if (!nl->ev_sk)
		return -EBADF;
	for (;;) {
		struct sockaddr_nl who;
		unsigned char *buf = NULL;
		int n = nl_recv(nl->ev_sk, &who, &buf, NULL), stop = 0;

		if (n == -NLE_AGAIN)
			return 0;
		if (n == -NLE_NOMEM)
			return -ENOBUFS;	/* recvmsg(): ENOBUFS, events dropped */
		if (n <= 0) {
			free(buf);
			return n ? nlerr_to_errno(n) : -ECONNRESET;
		}
		if (who.nl_pid == 0)
			stop = sp_nl_events_feed(nl, buf, (size_t)n, fn, arg);
		free(buf);
		if (stop)
			return 1;
	}
}
