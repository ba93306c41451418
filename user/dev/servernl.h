/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The server object's netlink messages: SERVER_START, SERVER_STOP and
 * SERVER_GET, their builders, the reply parser and the transactions (the
 * conventions of lib/nl.h).
 */
#ifndef SPARKPERF_CTL_DEV_SERVERNL_H
#define SPARKPERF_CTL_DEV_SERVERNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/msg.h>

#include "lib/model.h"
#include "lib/nl.h"

struct sp_server {
	uint32_t id;
	struct sp_addr addr;		/* len 0: listening on any address */
	uint16_t port;
	uint32_t active;		/* connections being served now */
	uint64_t served;		/* connections served since start */
};

struct sp_server_list {
	struct sp_server *servers;
	size_t n;
	size_t cap;
};

void sp_server_list_free(struct sp_server_list *list);
int sp_server_list_add(struct sp_server_list *list, const struct sp_server *srv);

/* addr NULL or of len 0: any address; has_port false: the default port. */
int sp_nl_server_start_msg(int family, const struct sp_addr *addr, bool has_port,
			   uint16_t port, struct nl_msg **out);
/* has_id false: every server. */
int sp_nl_server_stop_msg(int family, bool has_id, uint32_t id, struct nl_msg **out);
/* A dump. */
int sp_nl_server_get_msg(int family, struct nl_msg **out);
/* SERVER_GET (also the reply to SERVER_START). */
int sp_nl_parse_server(struct nlmsghdr *nlh, struct sp_server *srv, const char **why);

/* SERVER_START: the new server in *srv. */
int sp_nl_server_start(struct sp_nl *nl, const struct sp_addr *addr, bool has_port,
		       uint16_t port, struct sp_server *srv);
int sp_nl_server_stop(struct sp_nl *nl, bool has_id, uint32_t id);
/* The dump is retried up to 3 times if interrupted. */
int sp_nl_server_get(struct sp_nl *nl, struct sp_server_list *list);

#endif
