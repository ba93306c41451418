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
#include <linux/sparkperf.h>

#include "lib/model.h"
#include "lib/nl.h"

/* What SERVER_START asks for; has_*, n_allow 0: the module's defaults. */
struct sp_server_cfg {
	struct sp_addr addr;		/* len 0: any address */
	bool has_port;
	uint16_t port;
	bool has_conns_max, has_threads_max, has_bytes_max;
	uint32_t conns_max, threads_max;
	uint64_t bytes_max;
	size_t n_allow;
	struct sp_net allow[SPARKPERF_SERVER_ALLOW_MAX];
};

struct sp_server {
	uint32_t id;
	struct sp_addr addr;		/* len 0: listening on any address */
	uint16_t port;
	uint32_t active;		/* connections being served now */
	uint64_t served;		/* connections served since start */
	uint64_t rejected;		/* connection requests rejected */
	/* the budgets, and what the connections hold of them now */
	uint32_t conns_max, threads_max, threads;
	uint64_t bytes_max, bytes;
	struct sp_net *allow;		/* n_allow; none: every peer */
	size_t n_allow;
};

struct sp_server_list {
	struct sp_server *servers;
	size_t n;
	size_t cap;
};

void sp_server_free(struct sp_server *srv);
void sp_server_list_free(struct sp_server_list *list);
int sp_server_list_add(struct sp_server_list *list, const struct sp_server *srv);

int sp_nl_server_start_msg(int family, const struct sp_server_cfg *cfg, struct nl_msg **out);
/* has_id false: every server. */
int sp_nl_server_stop_msg(int family, bool has_id, uint32_t id, struct nl_msg **out);
/* A dump. */
int sp_nl_server_get_msg(int family, struct nl_msg **out);
/* SERVER_GET (also the reply to SERVER_START). */
int sp_nl_parse_server(struct nlmsghdr *nlh, struct sp_server *srv, const char **why);

/* SERVER_START: the new server in *srv (sp_server_free() it). */
int sp_nl_server_start(struct sp_nl *nl, const struct sp_server_cfg *cfg, struct sp_server *srv);
int sp_nl_server_stop(struct sp_nl *nl, bool has_id, uint32_t id);
/* The dump is retried up to 3 times if interrupted. */
int sp_nl_server_get(struct sp_nl *nl, struct sp_server_list *list);

#endif
