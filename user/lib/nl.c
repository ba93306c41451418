// SPDX-License-Identifier: GPL-2.0
/*
 * The socket and transaction half of the netlink core (nl.h, nlcore.h):
 * the sockets (the sparkperf family, the kernel's "ethtool" family and
 * rtnetlink), the answer to a request as a state machine, the transactions
 * built on it and the multicast groups' readers.
 *
 * Every request is answered by an ACK, an NLMSG_ERROR (with extended ACK
 * TLVs: the socket sets NETLINK_EXT_ACK and NETLINK_CAP_ACK) or, for dumps,
 * NLMSG_DONE, whose payload carries the dump's errno. sp_nl_transact() owns
 * that loop. The messages themselves are built and parsed elsewhere: the
 * device and info messages in devnl.c, routes and link modes in rtnl.c, each
 * subsystem's in its own folder, on the tables of nlattr.c.
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

/* A dump interrupted by a concurrent change is restarted this many times. */
#define SP_NL_DUMP_RETRIES 3

const int sp_nl_dump_retries = SP_NL_DUMP_RETRIES;

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

static const char *who(const struct sp_nl *nl)
{
	return nl->who ? nl->who : "the sparkperf module";
}

void sp_nl_set_err(struct sp_nl *nl, int error, const char *msg)
{
	set_local_err(nl, error, "%s", msg);
}

void sp_nl_malformed(struct sp_nl *nl, int error, const char *why)
{
	set_local_err(nl, error, "malformed reply from %s (%s)", who(nl), why);
}

/* ---- errors ------------------------------------------------------------ */

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
	if (tb[NLMSGERR_ATTR_OFFS] && !sp_nl_get_u32(tb[NLMSGERR_ATTR_OFFS], &err->offs))
		err->has_offs = true;
	if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
	    !sp_nl_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE], &err->miss_type))
		err->has_miss_type = true;
	if (tb[NLMSGERR_ATTR_MISS_NEST] &&
	    !sp_nl_get_u32(tb[NLMSGERR_ATTR_MISS_NEST], &err->miss_nest))
		err->has_miss_nest = true;
	return 0;
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

/* ---- transactions ------------------------------------------------------ */

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

/* A request answered by one reply message of reply_cmd, then the ACK. */
struct one_ctx {
	struct sp_nl *nl;
	sp_nl_parse_fn parse;
	const struct sp_nl_reply *reply;	/* instead of parse() */
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
	if (c->reply)
		ret = sp_nl_parse_reply(nlh, c->reply, c->dst, &why);
	else
		ret = c->parse(nlh, c->dst, &why);
	if (ret == -EBADMSG)
		sp_nl_malformed(c->nl, ret, why);
	c->got = !ret;
	return ret;
}

static int transact_one(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			struct one_ctx *c)
{
	if (ret)
		return ret;
	ret = sp_nl_transact(nl, msg, reply_cmd, one_valid, c);
	if (!ret && !c->got) {
		set_local_err(nl, -EPROTO, "%s sent no reply", who(nl));
		ret = -EPROTO;
	}
	return ret;
}

int sp_nl_transact_ack(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t cmd)
{
	return ret ? ret : sp_nl_transact(nl, msg, cmd, NULL, NULL);
}

int sp_nl_transact_parse(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			 sp_nl_parse_fn parse, void *dst)
{
	struct one_ctx c = { .nl = nl, .parse = parse, .dst = dst };

	return transact_one(nl, ret, msg, reply_cmd, &c);
}

int sp_nl_transact_reply(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			 const struct sp_nl_reply *r, void *dst)
{
	struct one_ctx c = { .nl = nl, .reply = r, .dst = dst };

	return transact_one(nl, ret, msg, reply_cmd, &c);
}

/* Replies of reply_cmd, each read by each(). */
struct each_ctx {
	struct sp_nl *nl;
	sp_nl_parse_fn each;
	void *arg;
};

static int each_valid(struct nlmsghdr *nlh, void *arg)
{
	struct each_ctx *c = arg;
	const char *why = "?";
	int ret = c->each(nlh, c->arg, &why);

	if (ret == -EBADMSG)
		sp_nl_malformed(c->nl, ret, why);
	return ret;
}

int sp_nl_transact_each(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			sp_nl_parse_fn each, void *arg, const char *intr)
{
	struct each_ctx c = { .nl = nl, .each = each, .arg = arg };

	if (ret)
		return ret;
	ret = sp_nl_transact(nl, msg, reply_cmd, each_valid, &c);
	if (ret == -EINTR && intr && !nl->err.has_msg)
		sp_nl_set_err(nl, ret, intr);
	return ret;
}

int sp_nl_dump_list(struct sp_nl *nl, int (*build)(int family, struct nl_msg **out),
		    uint8_t reply_cmd, sp_nl_parse_fn add, void *list, void (*reset)(void *list),
		    const char *what)
{
	struct nl_msg *msg;
	int ret, attempt;

	for (attempt = 0;; attempt++) {
		ret = build(nl->family, &msg);
		if (ret)
			return ret;
		ret = sp_nl_transact_each(nl, 0, msg, reply_cmd, add, list, NULL);
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

/* ---- multicast groups --------------------------------------------------- */

int sp_nl_mcast_open(struct sp_nl *nl, const char *group, struct nl_sock **out)
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
	return sp_nl_mcast_open(nl, SPARKPERF_MCGRP_EVENTS, &nl->ev_sk);
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
	return sp_nl_mcast_open(nl, SPARKPERF_MCGRP_PROGRESS, &nl->pr_sk);
}

int sp_nl_progress_fd(const struct sp_nl *nl)
{
	return nl->pr_sk ? nl_socket_get_fd(nl->pr_sk) : -1;
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
