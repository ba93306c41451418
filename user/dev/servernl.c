// SPDX-License-Identifier: GPL-2.0
/*
 * The server object's messages: builders, the reply parser (a table of
 * attributes) and the transactions, over lib/nlcore.h.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sparkperf.h>
#include <netlink/genl/genl.h>

#include "lib/nlcore.h"
#include "servernl.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void sp_server_free(struct sp_server *srv)
{
	free(srv->allow);
	srv->allow = NULL;
	srv->n_allow = 0;
}

void sp_server_list_free(struct sp_server_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->n; i++)
		sp_server_free(&list->servers[i]);
	free(list->servers);
	memset(list, 0, sizeof(*list));
}

int sp_server_list_add(struct sp_server_list *list, const struct sp_server *srv)
{
	return sp_array_add(&list->servers, &list->n, &list->cap, sizeof(*srv), srv);
}

/* SPARKPERF_A_SERVER_ALLOW: a network per SPARKPERF_A_ALLOW_NET. */
static int put_allow(struct nl_msg *msg, const struct sp_server_cfg *cfg)
{
	struct nlattr *list, *net;
	size_t i;

	list = nla_nest_start(msg, SPARKPERF_A_SERVER_ALLOW);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < cfg->n_allow; i++) {
		const struct sp_net *n = &cfg->allow[i];

		net = nla_nest_start(msg, SPARKPERF_A_ALLOW_NET);
		if (!net || nla_put(msg, SPARKPERF_A_NET_ADDR, n->addr.len, n->addr.raw) < 0 ||
		    nla_put_u8(msg, SPARKPERF_A_NET_PREFIX, n->prefix) < 0)
			return -EMSGSIZE;
		nla_nest_end(msg, net);
	}
	nla_nest_end(msg, list);
	return 0;
}

int sp_nl_server_start_msg(int family, const struct sp_server_cfg *cfg, struct nl_msg **out)
{
	size_t i;
	int ret;

	*out = NULL;
	if (cfg->addr.len && !sp_nl_addr_valid(&cfg->addr))
		return -EINVAL;
	if ((cfg->has_port && !cfg->port) || cfg->n_allow > SPARKPERF_SERVER_ALLOW_MAX)
		return -EINVAL;
	for (i = 0; i < cfg->n_allow; i++)
		if (!sp_nl_addr_valid(&cfg->allow[i].addr) ||
		    cfg->allow[i].prefix > cfg->allow[i].addr.len * 8)
			return -EINVAL;
	ret = sp_nl_req(family, SPARKPERF_CMD_SERVER_START, NLM_F_ACK, out);
	if (ret)
		return ret;
	if ((cfg->addr.len &&
	     nla_put(*out, SPARKPERF_A_SERVER_ADDR, cfg->addr.len, cfg->addr.raw) < 0) ||
	    (cfg->has_port && nla_put_u16(*out, SPARKPERF_A_SERVER_PORT, cfg->port) < 0) ||
	    (cfg->has_conns_max &&
	     nla_put_u32(*out, SPARKPERF_A_SERVER_CONNS_MAX, cfg->conns_max) < 0) ||
	    (cfg->has_threads_max &&
	     nla_put_u32(*out, SPARKPERF_A_SERVER_THREADS_MAX, cfg->threads_max) < 0) ||
	    (cfg->has_bytes_max &&
	     nla_put_u64(*out, SPARKPERF_A_SERVER_BYTES_MAX, cfg->bytes_max) < 0) ||
	    (cfg->n_allow && put_allow(*out, cfg)))
		return sp_nl_req_fail(out);
	return 0;
}

int sp_nl_server_stop_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return sp_nl_id_req(family, SPARKPERF_CMD_SERVER_STOP, NLM_F_ACK, SPARKPERF_A_SERVER_ID,
			    has_id, id, out);
}

int sp_nl_server_get_msg(int family, struct nl_msg **out)
{
	return sp_nl_req(family, SPARKPERF_CMD_SERVER_GET, NLM_F_DUMP, out);
}

static const struct field net_fields[] = {
	FIELD_REQ(struct sp_net, SPARKPERF_A_NET_ADDR, F_ADDR, addr),
	FIELD_REQ(struct sp_net, SPARKPERF_A_NET_PREFIX, F_U8, prefix),
};

static int get_net(struct nlattr *attr, void *dst, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_NET_MAX + 1];

	return sp_nl_parse_nested(attr, tb, SPARKPERF_A_NET_MAX, "SPARKPERF_A_ALLOW_NET",
				  net_fields, ARRAY_SIZE(net_fields), dst, why);
}

#define SV(a, k, m) FIELD(struct sp_server, SPARKPERF_A_SERVER_##a, k, m)
static const struct field server_fields[] = {
	FIELD_REQ(struct sp_server, SPARKPERF_A_SERVER_ID, F_U32, id),
	SV(ADDR, F_ADDR, addr),
	FIELD_REQ(struct sp_server, SPARKPERF_A_SERVER_PORT, F_U16, port),
	SV(ACTIVE, F_U32, active),
	SV(SERVED, F_U64, served),
	SV(REJECTED, F_U64, rejected),
	SV(CONNS_MAX, F_U32, conns_max),
	SV(THREADS_MAX, F_U32, threads_max),
	SV(BYTES_MAX, F_U64, bytes_max),
	SV(THREADS, F_U32, threads),
	SV(BYTES, F_U64, bytes),
	FIELD_ARRAY(struct sp_server, SPARKPERF_A_SERVER_ALLOW, SPARKPERF_A_ALLOW_NET, get_net,
		    allow, n_allow),
};
#undef SV

static const struct sp_nl_reply server_reply =
	SP_NL_REPLY(struct sp_server, SPARKPERF_A_SERVER_MAX, server_fields);

int sp_nl_parse_server(struct nlmsghdr *nlh, struct sp_server *srv, const char **why)
{
	return sp_nl_parse_reply(nlh, &server_reply, srv, why);
}

int sp_nl_server_start(struct sp_nl *nl, const struct sp_server_cfg *cfg, struct sp_server *srv)
{
	struct nl_msg *msg;
	int ret = sp_nl_server_start_msg(nl->family, cfg, &msg);

	return sp_nl_transact_reply(nl, ret, msg, SPARKPERF_CMD_SERVER_GET, &server_reply, srv);
}

int sp_nl_server_stop(struct sp_nl *nl, bool has_id, uint32_t id)
{
	struct nl_msg *msg;
	int ret = sp_nl_server_stop_msg(nl->family, has_id, id, &msg);

	return sp_nl_transact_ack(nl, ret, msg, SPARKPERF_CMD_SERVER_STOP);
}

static int server_add(struct nlmsghdr *nlh, void *list, const char **why)
{
	struct sp_server srv = { 0 };
	int ret = sp_nl_parse_server(nlh, &srv, why);

	if (!ret)
		ret = sp_server_list_add(list, &srv);
	if (ret)
		sp_server_free(&srv);
	return ret;
}

static void server_reset(void *list)
{
	sp_server_list_free(list);
}

int sp_nl_server_get(struct sp_nl *nl, struct sp_server_list *list)
{
	memset(list, 0, sizeof(*list));
	return sp_nl_dump_list(nl, sp_nl_server_get_msg, SPARKPERF_CMD_SERVER_GET, server_add,
			       list, server_reset, "server list");
}
