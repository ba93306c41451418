// SPDX-License-Identifier: GPL-2.0
/*
 * server start (a line, or one JSON object) and server show (a list).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "serverprint.h"

/* ---- servers ------------------------------------------------------------ */

/* "10.0.0.0/8,fd00::/64", or NULL when every peer is served; malloc'ed. */
static char *allow_str(const struct sp_server *srv)
{
	char net[SP_NET_STRLEN], *s = NULL, *next;
	size_t i;

	for (i = 0; i < srv->n_allow; i++) {
		next = sp_xprintf("%s%s%s", s ? s : "", s ? "," : "",
				  sp_fmt_net(&srv->allow[i], net, sizeof(net)));
		free(s);
		s = next;
		if (!s)
			break;
	}
	return s;
}

static json_object *json_allow(const struct sp_server *srv)
{
	json_object *arr;
	char net[SP_NET_STRLEN];
	size_t i;

	if (!srv->n_allow)
		return NULL;
	arr = json_object_new_array();
	for (i = 0; arr && i < srv->n_allow; i++)
		json_object_array_add(arr, json_object_new_string(sp_fmt_net(&srv->allow[i], net,
									       sizeof(net))));
	return arr;
}

static void json_server(json_object *o, const void *item)
{
	const struct sp_server *srv = item;
	char addr[SP_ADDR_STRLEN];

	sp_json_add(o, "id", json_object_new_int64(srv->id));
	sp_json_add(o, "addr", srv->addr.len ?
	    json_object_new_string(sp_fmt_addr(&srv->addr, addr, sizeof(addr))) : NULL);
	sp_json_add(o, "port", json_object_new_int(srv->port));
	sp_json_add(o, "active", json_object_new_int64(srv->active));
	sp_json_add(o, "max_conns", json_object_new_int64(srv->conns_max));
	sp_json_add(o, "threads", json_object_new_int64(srv->threads));
	sp_json_add(o, "max_threads", json_object_new_int64(srv->threads_max));
	sp_json_add(o, "buffer_bytes", sp_json_u64(srv->bytes));
	sp_json_add(o, "max_buffer_bytes", sp_json_u64(srv->bytes_max));
	sp_json_add(o, "served", json_object_new_uint64(srv->served));
	sp_json_add(o, "rejected", json_object_new_uint64(srv->rejected));
	sp_json_add(o, "allow", json_allow(srv));
}

int sp_print_server(const struct sp_server *srv)
{
	char addr[SP_ADDR_STRLEN], mem[32], *allow;

	if (sp_print_is_json())
		return sp_print_json(sp_json_object(json_server, srv));
	allow = allow_str(srv);
	fprintf(sp_print_file(), "server %u listening on %s port %u, for %s; at most %u "
		"connections, %u threads, %s of buffers\n", srv->id,
		sp_fmt_addr(&srv->addr, addr, sizeof(addr)), srv->port,
		allow ? allow : "every peer", srv->conns_max, srv->threads_max,
		sp_fmt_size(srv->bytes_max, mem, sizeof(mem)));
	free(allow);
	return 0;
}

/* "N/MAX" */
static char *of_max(uint64_t n, uint64_t max)
{
	return sp_xprintf("%" PRIu64 "/%" PRIu64, n, max);
}

int sp_print_servers(const struct sp_server *srvs, size_t n)
{
	struct sp_rows *l = sp_rows_begin();
	char addr[SP_ADDR_STRLEN], mem[32], mem_max[32], *allow;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_server *srv = &srvs[i];

		sp_fmt_addr(&srv->addr, addr, sizeof(addr));
		sp_fmt_size(srv->bytes, mem, sizeof(mem));
		sp_fmt_size(srv->bytes_max, mem_max, sizeof(mem_max));
		allow = allow_str(srv);
		sp_row(l);
		sp_field_u64(l, "id", "ID", srv->id);
		sp_field(l, "addr", "ADDR",
			 srv->addr.len ? json_object_new_string(addr) : NULL, strdup(addr));
		sp_field_u64(l, "port", "PORT", srv->port);
		sp_field(l, "active", "CONNS", json_object_new_int64(srv->active),
			 of_max(srv->active, srv->conns_max));
		sp_field(l, "max_conns", NULL, json_object_new_int64(srv->conns_max), NULL);
		sp_field(l, "threads", "THREADS", json_object_new_int64(srv->threads),
			 of_max(srv->threads, srv->threads_max));
		sp_field(l, "max_threads", NULL, json_object_new_int64(srv->threads_max), NULL);
		sp_field(l, "buffer_bytes", "BUFFERS", sp_json_u64(srv->bytes),
			 sp_xprintf("%s/%s", mem, mem_max));
		sp_field(l, "max_buffer_bytes", NULL, sp_json_u64(srv->bytes_max), NULL);
		sp_field_u64(l, "served", "SERVED", srv->served);
		sp_field_u64(l, "rejected", "REJECTED", srv->rejected);
		sp_field(l, "allow", "ALLOW", json_allow(srv), strdup(allow ? allow : "any"));
		free(allow);
	}
	return sp_rows_end(l);
}
