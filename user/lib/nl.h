/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink core of sparkperf-ctl (libnl-genl-3, and libnl-3 for
 * rtnetlink), and the messages that lib/ owns: the sparkperf family's info,
 * devices and device events (devnl.c), routes and ethtool link modes
 * (rtnl.c). Each subsystem builds its own objects' messages on nlcore.h
 * (dev/servernl.c, session/sessionnl.c, lib/tracenl.c, host/hostnl.c). No
 * printing.
 *
 * Three layers, so that unit tests can use the first two without a socket:
 *   - request builders: sp_nl_*_msg() return a struct nl_msg ready to send;
 *   - reply parsers: sp_nl_parse_*() turn one received message into the plain
 *     structs of model.h, or an NLMSG_ERROR / NLMSG_DONE into struct sp_nl_err;
 *   - the socket (nl.c): sp_nl_open(), sp_nl_transact() and the typed helpers.
 *
 * Errors are negative errno values. When the kernel answered with an error,
 * nl->err holds its errno and extended ACK (message, missing attribute).
 */
#ifndef SPARKPERF_CTL_NL_H
#define SPARKPERF_CTL_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/msg.h>

#include "model.h"

#define SP_NL_ERRMSG_MAX 256

struct sp_nl_err {
	int error;		/* 0 or a negative errno */
	bool local;		/* msg was written by the tool, not the kernel */
	uint8_t cmd;		/* request command, to name miss_type */
	bool has_msg;
	char msg[SP_NL_ERRMSG_MAX];
	bool has_offs;
	uint32_t offs;
	bool has_miss_type;
	uint32_t miss_type;
	bool has_miss_nest;
	uint32_t miss_nest;
};

struct sp_nl {
	struct nl_sock *sk;
	int family;
	struct nl_sock *ev_sk;		/* events group, after sp_nl_events_open */
	unsigned int bad_events;	/* malformed events skipped */
	struct nl_sock *pr_sk;		/* progress group, after sp_nl_progress_open */
	unsigned int bad_progress;	/* malformed progress messages skipped */
	struct nl_sock *tr_sk;		/* trace group, after sp_nl_trace_open */
	unsigned int bad_trace;		/* malformed trace messages skipped */
	struct sp_nl_err err;		/* the last failure */
	bool rtnl;			/* NETLINK_ROUTE: replies told by message type */
	const char *who;		/* the other end, in messages; NULL: the module */
};

/* Request builders: 0 and *out, or -EINVAL / -ENOMEM. */
int sp_nl_info_get_msg(int family, struct nl_msg **out);
/* name == NULL: dump all devices (NLM_F_DUMP), else one device (NLM_F_ACK). */
int sp_nl_dev_get_msg(int family, const char *name, struct nl_msg **out);

/*
 * Reply parsers; nlh is one complete message. The sp_dev filled in must be
 * released with sp_dev_free() (also on failure). -EBADMSG for a malformed
 * message, with a short reason in *why (may be NULL).
 */
int sp_nl_parse_info(struct nlmsghdr *nlh, struct sp_info *info, const char **why);
int sp_nl_parse_dev(struct nlmsghdr *nlh, struct sp_dev *dev, const char **why);
/* DEV_NEW / DEV_CHANGE / DEV_DEL; -EOPNOTSUPP for another command. */
int sp_nl_parse_event(struct nlmsghdr *nlh, struct sp_dev_event *ev, const char **why);
/*
 * NLMSG_ERROR (an ACK when err->error == 0) or NLMSG_DONE (whose payload may
 * carry a dump's errno); extended ACK TLVs are read when NLM_F_ACK_TLVS is
 * set, past the echoed request unless NLM_F_CAPPED. -EBADMSG if truncated.
 */
int sp_nl_parse_error(const struct nlmsghdr *nlh, struct sp_nl_err *err);

/* "SPARKPERF_A_DEV_NAME" for (SPARKPERF_CMD_DEV_GET, SPARKPERF_A_DEV_NAME); NULL if unknown. */
const char *sp_nl_attr_name(uint8_t cmd, uint32_t type);

/*
 * Connects, sets NETLINK_EXT_ACK and NETLINK_CAP_ACK, resolves the family
 * (which makes the kernel try to load the module). -ENOENT when the family
 * does not exist, i.e. the module is not loaded and could not be loaded.
 */
int sp_nl_open(struct sp_nl *nl);
void sp_nl_close(struct sp_nl *nl);

/*
 * Sends msg (consumed) and receives until the ACK, the error or the end of
 * the dump; valid() is called for each reply message of the family whose
 * command is reply_cmd, and may return a negative errno to fail the request
 * (the rest of the answer is still drained). -EINTR if the dump was
 * interrupted (NLM_F_DUMP_INTR): the caller restarts it.
 */
typedef int (*sp_nl_valid_fn)(struct nlmsghdr *nlh, void *arg);
int sp_nl_transact(struct sp_nl *nl, struct nl_msg *msg, uint8_t reply_cmd,
		   sp_nl_valid_fn valid, void *arg);

/*
 * The answer to one request, as a state machine fed one received datagram at
 * a time: sp_nl_transact() drives it from the socket, the unit tests from
 * canned buffers.
 */
struct sp_nl_xact {
	int family;
	uint32_t seq;		/* messages with another sequence number are stale */
	uint8_t cmd;		/* the request's command, to name a missing attribute */
	uint8_t reply_cmd;
	sp_nl_valid_fn valid;
	void *arg;
	bool rtnl;		/* rtnetlink: replies are messages of type reply_cmd */
	bool done;		/* ACK, error or end of dump seen */
	bool intr;		/* NLM_F_DUMP_INTR seen */
	int error;		/* from valid(), or a malformed answer */
	struct sp_nl_err err;	/* the kernel's error when err.error < 0 */
};

/* req: the request as sent (its sequence number and command are read). */
void sp_nl_xact_init(struct sp_nl_xact *x, int family, struct nl_msg *req,
		     uint8_t reply_cmd, sp_nl_valid_fn valid, void *arg);
/* One datagram of len bytes; true once the answer is complete. */
bool sp_nl_xact_feed(struct sp_nl_xact *x, void *buf, size_t len);
/* 0, the kernel's errno, valid()'s error, -EINTR (dump interrupted) or -EBADMSG. */
int sp_nl_xact_result(const struct sp_nl_xact *x);

int sp_nl_info_get(struct sp_nl *nl, struct sp_info *info);
/* name == NULL: all devices; the dump is retried up to 3 times if interrupted. */
int sp_nl_dev_get(struct sp_nl *nl, const char *name, struct sp_dev_list *list);

/* Joins the "events" group on a second, non-blocking socket. */
int sp_nl_events_open(struct sp_nl *nl);
int sp_nl_events_fd(const struct sp_nl *nl);
/*
 * Handles every pending event, calling fn for each; fn returns non-zero to
 * stop. Returns 0 (nothing more pending), 1 (stopped by fn), -ENOBUFS (the
 * socket overran and events were lost; the socket stays usable) or -errno.
 */
typedef int (*sp_nl_event_fn)(const struct sp_dev_event *ev, void *arg);
int sp_nl_events_recv(struct sp_nl *nl, sp_nl_event_fn fn, void *arg);
/*
 * One received multicast datagram (used by sp_nl_events_recv, and by the
 * tests): fn for each event of nl->family; malformed events are counted in
 * nl->bad_events and skipped, unknown commands ignored. 1 if fn said stop.
 */
int sp_nl_events_feed(struct sp_nl *nl, void *buf, size_t len,
		      sp_nl_event_fn fn, void *arg);

/*
 * The "progress" group (CAP_NET_ADMIN), on its own non-blocking socket, with
 * the same conventions as the events above; fn sees every session's
 * progress, the caller filters by id.
 */
int sp_nl_progress_open(struct sp_nl *nl);
int sp_nl_progress_fd(const struct sp_nl *nl);
/*
 * The kernel's rtnetlink (NETLINK_ROUTE) and its "ethtool" generic netlink
 * family: the same struct sp_nl, the same error reporting. Routes and link
 * modes here; host/ builds its DCB and neighbour requests on nlcore.h.
 */
int sp_rtnl_open(struct sp_nl *nl);
/* -ENOENT when the kernel has no ethtool netlink (before 5.6) */
int sp_nl_open_ethtool(struct sp_nl *nl);

/* "ip route get DST". */
int sp_nl_route_get_msg(const struct sp_addr *dst, struct nl_msg **out);
int sp_nl_parse_route(struct nlmsghdr *nlh, struct sp_route *r, const char **why);
int sp_nl_route_get(struct sp_nl *rt, const struct sp_addr *dst, struct sp_route *r);

/* ETHTOOL_MSG_LINKMODES_GET of dev, bit sets with names (not compact). */
int sp_nl_link_modes_msg(int family, const char *dev, struct nl_msg **out);
int sp_nl_parse_link_modes(struct nlmsghdr *nlh, struct sp_link_modes *m, const char **why);
int sp_nl_link_modes(struct sp_nl *et, const char *dev, struct sp_link_modes *m);

#endif
