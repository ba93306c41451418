/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core of lib/nl.c that a subsystem builds its own messages on: request
 * headers, the transactions and the pieces of a reply's parser.
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

/* An rtnetlink request of type with flags, a header of hdr_len bytes (zeroed) at *hdr. */
int sp_rtnl_req(uint16_t type, int flags, size_t hdr_len, void **hdr, struct nl_msg **out);
/* An attribute did not fit: releases *out, -ENOMEM. */
int sp_nl_req_fail(struct nl_msg **out);

/* -EBADMSG, with reason in *why (why may be NULL). */
int sp_nl_bad(const char **why, const char *reason);
/* An IPv4 or IPv6 address attribute; -EBADMSG for another length. */
int sp_nl_get_addr(const struct nlattr *a, struct sp_addr *addr);

/* The tool's own failure: nl->err is error, with msg. */
void sp_nl_set_err(struct sp_nl *nl, int error, const char *msg);

/* Reads one reply message into dst: 0, -EBADMSG (with *why) or -errno. */
typedef int (*sp_nl_parse_fn)(struct nlmsghdr *nlh, void *dst, const char **why);
/*
 * A request that a builder returned as ret and msg, answered by one reply
 * of reply_cmd that parse() reads into dst.
 */
int sp_nl_transact_parse(struct sp_nl *nl, int ret, struct nl_msg *msg, uint8_t reply_cmd,
			 sp_nl_parse_fn parse, void *dst);
/* A dump that a concurrent change interrupted (-EINTR) is restarted this many times. */
extern const int sp_nl_dump_retries;

#endif
