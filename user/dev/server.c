// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl server: kernel rdma_cm listeners that serve any sparkperf
 * client. A server outlives the command that started it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/sparkperf.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/model.h"
#include "lib/parse.h"
#include "lib/show.h"
#include "servernl.h"
#include "serverprint.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char server_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] server show\n"
	"       sparkperf-ctl [ OPTIONS ] server start [ addr ADDR ] [ port PORT ]\n"
	"                     [ allow NET[,NET...] ] [ max-conns N ] [ max-threads N ]\n"
	"                     [ max-mem SIZE ]\n"
	"       sparkperf-ctl [ OPTIONS ] server stop [ id ID ]\n"
	"       sparkperf-ctl server help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       ADDR := { IPv4 or IPv6 address | any }, default any\n"
	"       PORT := 1..65535, default 18520\n"
	"       NET := ADDR[/PREFIX], at most 16: the peers served (default every one)\n"
	"       max-conns := connections at once, 1..256 (default 256; a bw run takes one per QP)\n"
	"       max-threads := polling threads at once, 0..256 (default 256; every\n"
	"                      connection but a latency read has one)\n"
	"       max-mem := buffer memory pinned at once, 1M..64G (default 1G; a\n"
	"                  connection pins 2 x its SIZE)\n"
	"The default command is show; stop without an id stops every server. A\n"
	"connection beyond a budget, of the server or of the host (the module's\n"
	"server_*_max parameters), or from a peer outside allow, is rejected: the\n"
	"client's run fails with the server's reason.\n";

SP_SHOW_FUNC(server_show, "server", server_usage, struct sp_server_list,
	     sp_nl_server_get(&nl, &list),
	     sp_print_servers(list.servers, list.n), sp_server_list_free(&list))

/* The allow list (each item once, as parsed): networks, host bits 0. */
static int parse_allow(const struct sp_list *list, struct sp_server_cfg *cfg)
{
	char net[SP_NET_STRLEN];
	size_t i;
	int ret;

	if (list->n > SPARKPERF_SERVER_ALLOW_MAX)
		return sp_usage_error("server", "Invalid allow list: %zu networks (at most %d)",
				      list->n, SPARKPERF_SERVER_ALLOW_MAX);
	for (i = 0; i < list->n; i++) {
		ret = sp_parse_net(list->items[i], &cfg->allow[i]);
		if (ret == -EDOM)
			return sp_usage_error("server", "Invalid network: '%s' has bits set after "
					      "its prefix (%s?)", list->items[i],
					      sp_fmt_net(&cfg->allow[i], net, sizeof(net)));
		if (ret)
			return sp_usage_error("server", "Invalid network: '%s' (ADDR or "
					      "ADDR/PREFIX, prefix at most 32 for IPv4, 128 "
					      "for IPv6)", list->items[i]);
	}
	cfg->n_allow = list->n;
	return 0;
}

static int server_start(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_server_cfg cfg = { 0 };
	struct sp_list allow = { 0 };
	const char *addr_s = NULL;
	uint32_t port = 0;
	struct sp_kv kv[] = {
		{ .key = "addr", .what = "address", .type = SP_KV_STRING, .dst = &addr_s },
		{ .key = "port", .type = SP_KV_U32, .min = 1, .max = 65535, .dst = &port },
		{ .key = "allow", .what = "allow list", .type = SP_KV_LIST, .dst = &allow },
		{ .key = "max-conns", .what = "connection budget", .type = SP_KV_U32, .min = 1,
		  .max = SPARKPERF_SERVER_CONNS_MAX, .dst = &cfg.conns_max },
		{ .key = "max-threads", .what = "thread budget", .type = SP_KV_U32, .min = 0,
		  .max = SPARKPERF_SERVER_CONNS_MAX, .dst = &cfg.threads_max },
		{ .key = "max-mem", .what = "memory budget", .type = SP_KV_SIZE, .min = 1 << 20,
		  .max = SPARKPERF_SERVER_BYTES_MAX, .dst = &cfg.bytes_max },
	};
	int ret;

	(void)ctx;
	if (sp_kv_args_end("server", server_usage, argc, argv, kv, ARRAY_SIZE(kv), &ret))
		goto out;
	if (addr_s && strcmp(addr_s, "any") && sp_parse_addr(addr_s, &cfg.addr)) {
		ret = sp_usage_error("server", "Invalid address: '%s' (an IPv4 or IPv6 address, "
				     "or any)", addr_s);
		goto out;
	}
	if (kv[2].seen) {
		ret = parse_allow(&allow, &cfg);
		if (ret)
			goto out;
	}
	cfg.has_port = kv[1].seen;
	cfg.port = (uint16_t)port;
	cfg.has_conns_max = kv[3].seen;
	cfg.has_threads_max = kv[4].seen;
	cfg.has_bytes_max = kv[5].seen;

	ret = SP_ASK("server", "start", struct sp_server, srv, nl,
		     sp_nl_server_start(&nl, &cfg, &srv),
		     sp_print_server(&srv), sp_server_free(&srv));
out:
	sp_list_free(&allow);
	return ret;
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
