// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl server: kernel rdma_cm listeners that serve any sparkperf
 * client. A server outlives the command that started it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "lib/show.h"
#include "servernl.h"
#include "serverprint.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char server_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] server show\n"
	"       sparkperf-ctl [ OPTIONS ] server start [ addr ADDR ] [ port PORT ]\n"
	"       sparkperf-ctl [ OPTIONS ] server stop [ id ID ]\n"
	"       sparkperf-ctl server help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       ADDR := { IPv4 or IPv6 address | any }, default any\n"
	"       PORT := 1..65535, default 18520\n"
	"The default command is show; stop without an id stops every server.\n";

SP_SHOW_FUNC(server_show, "server", server_usage, struct sp_server_list,
	     sp_nl_server_get(&nl, &list),
	     sp_print_servers(list.servers, list.n), sp_server_list_free(&list))

static int server_start(const struct sp_ctx *ctx, int argc, char **argv)
{
	const char *addr_s = NULL;
	uint32_t port = 0;
	struct sp_kv kv[] = {
		{ .key = "addr", .what = "address", .type = SP_KV_STRING, .dst = &addr_s },
		{ .key = "port", .type = SP_KV_U32, .min = 1, .max = 65535, .dst = &port },
	};
	struct sp_addr addr = { 0 };
	int ret;

	(void)ctx;
	if (sp_kv_args_end("server", server_usage, argc, argv, kv, ARRAY_SIZE(kv), &ret))
		return ret;
	if (addr_s && strcmp(addr_s, "any") && sp_parse_addr(addr_s, &addr))
		return sp_usage_error("server", "Invalid address: '%s' (an IPv4 or IPv6 address, "
				      "or any)", addr_s);

	return SP_ASK("server", "start", struct sp_server, srv, nl,
		      sp_nl_server_start(&nl, &addr, kv[1].seen, (uint16_t)port, &srv),
		      sp_print_server(&srv), (void)0);
}

static int server_stop(const struct sp_ctx *ctx, int argc, char **argv)
{
	uint32_t id = 0;
	struct sp_kv kv[] = {
		{ .key = "id", .type = SP_KV_U32, .min = 0, .max = UINT32_MAX, .dst = &id },
	};
	int ret;

	(void)ctx;
	if (sp_kv_args_end("server", server_usage, argc, argv, kv, ARRAY_SIZE(kv), &ret))
		return ret;
	return SP_REQUEST("server", "stop", nl, sp_nl_server_stop(&nl, kv[0].seen, id));
}

SP_OBJECT_MAIN(server, server_usage,
	       { "show", server_show },
	       { "start", server_start },
	       { "stop", server_stop })
