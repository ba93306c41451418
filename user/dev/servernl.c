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

void sp_server_list_free(struct sp_server_list *list)
{
	if (!list)
		return;
	free(list->servers);
	memset(list, 0, sizeof(*list));
}

int sp_server_list_add(struct sp_server_list *list, const struct sp_server *srv)
{
	return sp_array_add(&list->servers, &list->n, &list->cap, sizeof(*srv), srv);
}

int sp_nl_server_start_msg(int family, const struct sp_addr *addr, bool has_port,
			   uint16_t port, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (addr && addr->len && !sp_nl_addr_valid(addr))
		return -EINVAL;
	if (has_port && !port)
		return -EINVAL;
	ret = sp_nl_req(family, SPARKPERF_CMD_SERVER_START, NLM_F_ACK, out);
	if (ret)
		return ret;
	if (addr && addr->len &&
	    nla_put(*out, SPARKPERF_A_SERVER_ADDR, addr->len, addr->raw) < 0)
		return sp_nl_req_fail(out);
	if (has_port && nla_put_u16(*out, SPARKPERF_A_SERVER_PORT, port) < 0)
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

#define SV(a, k, m) FIELD(struct sp_server, SPARKPERF_A_SERVER_##a, k, m)
static const struct field server_fields[] = {
	FIELD_REQ(struct sp_server, SPARKPERF_A_SERVER_ID, F_U32, id),
	SV(ADDR, F_ADDR, addr),
	FIELD_REQ(struct sp_server, SPARKPERF_A_SERVER_PORT, F_U16, port),
	SV(ACTIVE, F_U32, active),
	SV(SERVED, F_U64, served),
};
#undef SV

static const struct sp_nl_reply server_reply =
	SP_NL_REPLY(struct sp_server, SPARKPERF_A_SERVER_MAX, server_fields);

int sp_nl_parse_server(struct nlmsghdr *nlh, struct sp_server *srv, const char **why)
{
	return sp_nl_parse_reply(nlh, &server_reply, srv, why);
}

int sp_nl_server_start(struct sp_nl *nl, const struct sp_addr *addr, bool has_port,
		       uint16_t port, struct sp_server *srv)
{
	struct nl_msg *msg;
	int ret = sp_nl_server_start_msg(nl->family, addr, has_port, port, &msg);

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
	return sp_nl_dump_list(nl, sp_nl_server_get_msg, SPARKPERF_CMD_SERVER_GET, server_add,
			       list, server_reset, "server list");
}
