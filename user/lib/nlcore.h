/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink core that a subsystem builds its own messages on: request
 * headers (with an id) and attribute tables that build a request and parse
 * the reply that echoes it (lib/nlattr.c); the transactions (one reply, an
 * ACK alone, a reply each, a dump into a list) and the readers of a
 * multicast group (lib/nl.c).
 */
#ifndef SPARKPERF_CTL_LIB_NLCORE_H
#define SPARKPERF_CTL_LIB_NLCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "nl.h"

/*
 * Attributes as tables: each one's type, its kind and where it lives in the
 * plain structs of the model. One table builds a request (sp_nl_put_fields)
 * and parses the reply that echoes it (sp_nl_get_fields).
 */
enum field_kind {
	F_U8, F_U16, F_U32, F_U64, F_S32,	/* integers of exactly their size */
	F_FLAG,					/* a bool: present or not */
	F_ADDR,					/* struct sp_addr, IPv4 or IPv6 */
	F_STR,					/* NUL-terminated, must fit in size */
	F_STR_CUT,				/* NUL-terminated, cut to fit in size */
	F_ARRAY,				/* nested entries, in replies only */
};

/* Reads one nested attribute a into dst: 0, -EBADMSG (with *why) or -errno. */
typedef int (*sp_nl_get_fn)(struct nlattr *a, void *dst, const char **why);

struct field {
	const char *name;	/* the attribute's name, for a malformed reply */
	int type;
	enum field_kind kind;
	bool required;		/* in a reply */
	size_t off;		/* of the value in the struct */
	size_t size;		/* of the member (a string's buffer), or of an entry */
	size_t has;		/* 1 + offset of the bool saying it is set; 0: none */
	/*
	 * F_ARRAY: the entries of type entry, each read by get() into a new
	 * array (the pointer at off) and counted in the size_t at count as
	 * read, so that the struct's release frees a partly read one.
	 */
	int entry;
	sp_nl_get_fn get;
	size_t count;
};

#define FIELD_SIZE(st, m) sizeof(((st *)0)->m)
#define FIELD(st, attr, k, m) \
	{ .name = #attr, .type = attr, .kind = k, .off = offsetof(st, m), \
	  .size = FIELD_SIZE(st, m) }
#define FIELD_REQ(st, attr, k, m) \
	{ .name = #attr, .type = attr, .kind = k, .required = true, .off = offsetof(st, m), \
	  .size = FIELD_SIZE(st, m) }
#define FIELD_HAS(st, attr, k, m, h) \
	{ .name = #attr, .type = attr, .kind = k, .off = offsetof(st, m), \
	  .size = FIELD_SIZE(st, m), .has = offsetof(st, h) + 1 }
#define FIELD_ARRAY(st, attr, entry_type, get_fn, m, n) \
	{ .name = #attr, .type = attr, .kind = F_ARRAY, .off = offsetof(st, m), \
	  .size = FIELD_SIZE(st, m[0]), .entry = entry_type, .get = get_fn, \
	  .count = offsetof(st, n) }

/* What every session-like object (lat, bw, trace) is told by: its id and state. */
#define FIELDS_ID_STATE(st, prefix) \
	FIELD_REQ(st, prefix##_ID, F_U32, id), \
	FIELD_REQ(st, prefix##_STATE, F_U8, state)

/* What it reports first: its id, its state, its error and the error's message. */
#define FIELDS_STATUS(st, prefix) \
	FIELDS_ID_STATE(st, prefix), \
	FIELD_HAS(st, prefix##_ERROR, F_S32, error, has_error), \
	FIELD_HAS(st, prefix##_ERROR_MSG, F_STR_CUT, error_msg, has_error_msg)

/* A request of cmd with flags: 0 and *out, or -ENOMEM. */
int sp_nl_req(int family, uint8_t cmd, int flags, struct nl_msg **out);
/* The same with the u32 attribute attr = id when has_id. */
int sp_nl_id_req(int family, uint8_t cmd, int flags, int attr, bool has_id, uint32_t id,
		 struct nl_msg **out);
/* An rtnetlink request of type with flags, a header of hdr_len bytes (zeroed) at *hdr. */
int sp_rtnl_req(uint16_t type, int flags, size_t hdr_len, void **hdr, struct nl_msg **out);
/* An attribute did not fit: releases *out, -ENOMEM. */
int sp_nl_req_fail(struct nl_msg **out);
/* An IPv4 or IPv6 address. */
bool sp_nl_addr_valid(const struct sp_addr *a);

/* -EBADMSG, with reason in *why (why may be NULL). */
int sp_nl_bad(const char **why, const char *reason);
/* The attributes of table f that tb holds, into dst; -EBADMSG names the first bad one. */
int sp_nl_get_fields(struct nlattr **tb, const struct field *f, size_t n, void *dst,
		     const char **why);
/* A generic netlink message's attributes into tb (maxtype + 1), then table f's into dst. */
int sp_nl_parse_fields(struct nlmsghdr *nlh, struct nlattr **tb, int maxtype,
		       const struct field *f, size_t n, void *dst, const char **why);
/* The same for the nested attribute attr (named name when malformed). */
int sp_nl_parse_nested(struct nlattr *attr, struct nlattr **tb, int maxtype, const char *name,
		       const struct field *f, size_t n, void *dst, const char **why);
/*
 * A reply that one table reads whole: its attributes up to maxtype, those of
 * fields into a struct of size bytes, zeroed first.
 */
struct sp_nl_reply {
	int maxtype;
	const struct field *fields;
	size_t n;
	size_t size;
};

#define SP_NL_REPLY(st, max, f) { max, f, sizeof(f) / sizeof((f)[0]), sizeof(st) }

int sp_nl_parse_reply(struct nlmsghdr *nlh, const struct sp_nl_reply *r, void *dst,
		      const char **why);
/* The attributes of table f whose has_* src sets (all others), into m; -ENOMEM. */
int sp_nl_put_fields(struct nl_msg *m, const struct field *f, size_t n, const void *src);
/* A u32 attribute; -EBADMSG for another length. */
int sp_nl_get_u32(const struct nlattr *a, uint32_t *v);
/* A NUL-terminated string that fits in buf (size bytes, NUL included); else -EBADMSG. */
int sp_nl_get_str(const struct nlattr *a, char *buf, size_t size);
/* A NUL-terminated string, cut to fit in buf; -EBADMSG without a NUL. */
int sp_nl_get_str_cut(const struct nlattr *a, char *buf, size_t size);
/* An IPv4 or IPv6 address attribute; -EBADMSG for another length. */
int sp_nl_get_addr(const struct nlattr *a, struct sp_addr *addr);

/* The tool's own failure: nl->err is error, with msg. */
void sp_nl_set_err(struct sp_nl *nl, int error, const char *msg);
/* A malformed reply: nl->err is error, "malformed reply from <who> (<why>)". */
void sp_nl_malformed(struct sp_nl *nl, int error, const char *why);

/* Reads one reply message into dst: 0, -EBADMSG (with *why) or -errno. */
typedef int (*sp_nl_parse_fn)(struct nlmsghdr *nlh, void *dst, const char **why);
/* A request that a builder returned as ret and msg, answered by an ACK alone. */
int sp_nl_transact_ack(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t cmd);
/* The same, answered by one reply of reply_cmd that parse() reads into dst. */
int sp_nl_transact_parse(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			 sp_nl_parse_fn parse, void *dst);
/* The same, a reply that r reads into dst. */
int sp_nl_transact_reply(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			 const struct sp_nl_reply *r, void *dst);
/*
 * The same, answered by any number of replies of reply_cmd, each read by
 * each(nlh, arg, why), which may fail the request (the rest of the answer is
 * still drained). intr, when not NULL, says what an interrupted dump means.
 */
int sp_nl_transact_each(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			sp_nl_parse_fn each, void *arg, const char *intr);
/*
 * A dump built by build() into list, add() for each reply of reply_cmd,
 * restarted up to 3 times while interrupted; reset() empties the list
 * before a restart and after a failure. what names the list in the error.
 */
int sp_nl_dump_list(struct sp_nl *nl, int (*build)(int family, struct nl_msg **out),
		    uint8_t reply_cmd, sp_nl_parse_fn add, void *list, void (*reset)(void *list),
		    const char *what);

/*
 * The add() and reset() of a list of T for sp_nl_dump_list() and
 * sp_nl_transact_each(): prefix_add() parses one reply into a T, appends it
 * with add() (which takes it over) and releases what is left; prefix_reset()
 * empties the list with list_free().
 */
#define SP_NL_LIST_FNS(prefix, T, parse, add, release, list_free) \
	static int prefix##_add(struct nlmsghdr *nlh, void *list, const char **why) \
	{ \
		T item; \
		int ret = parse(nlh, &item, why); \
		\
		if (!ret) \
			ret = add(list, &item); \
		release(&item); \
		return ret; \
	} \
	static void prefix##_reset(void *list) \
	{ \
		list_free(list); \
	}

/* Joins the multicast group of the family on a new non-blocking socket, *out. */
int sp_nl_mcast_open(struct sp_nl *nl, const char *group, struct nl_sock **out);
/*
 * One message of a multicast group: 1 (stop), 0, or -errno (-EOPNOTSUPP:
 * another command, skipped; any other: malformed, counted).
 */
typedef int (*sp_nl_mcast_fn)(struct nlmsghdr *nlh, void *arg);
/* One received datagram: one() for each message of the family; 1 if one() said stop. */
int sp_nl_mcast_feed(struct sp_nl *nl, void *buf, size_t len, sp_nl_mcast_fn one, void *arg,
		     unsigned int *bad_count);
/* Every pending datagram of sk, as sp_nl_events_recv(). */
int sp_nl_mcast_recv(struct sp_nl *nl, struct nl_sock *sk, sp_nl_mcast_fn one, void *arg,
		     unsigned int *bad_count);
/* A dump that a concurrent change interrupted (-EINTR) is restarted this many times. */
extern const int sp_nl_dump_retries;

#endif
