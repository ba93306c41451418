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

static void json_server(json_object *o, const void *item)
{
	const struct sp_server *srv = item;
	char addr[SP_ADDR_STRLEN];

	sp_json_add(o, "id", json_object_new_int64(srv->id));
	sp_json_add(o, "addr", srv->addr.len ?
	    json_object_new_string(sp_fmt_addr(&srv->addr, addr, sizeof(addr))) : NULL);
	sp_json_add(o, "port", json_object_new_int(srv->port));
	sp_json_add(o, "active", json_object_new_int64(srv->active));
	sp_json_add(o, "served", json_object_new_uint64(srv->served));
}

int sp_print_server(const struct sp_server *srv)
{
	char addr[SP_ADDR_STRLEN];

	if (sp_print_is_json())
		return sp_print_json(sp_json_object(json_server, srv));
	fprintf(sp_print_file(), "server %u listening on %s port %u\n", srv->id,
		sp_fmt_addr(&srv->addr, addr, sizeof(addr)), srv->port);
	return 0;
}

int sp_print_servers(const struct sp_server *srvs, size_t n)
{
	struct sp_rows *l = sp_rows_begin();
	char addr[SP_ADDR_STRLEN];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_server *srv = &srvs[i];

		sp_fmt_addr(&srv->addr, addr, sizeof(addr));
		sp_row(l);
		sp_field_u64(l, "id", "ID", srv->id);
		sp_field(l, "addr", "ADDR",
			 srv->addr.len ? json_object_new_string(addr) : NULL, strdup(addr));
		sp_field_u64(l, "port", "PORT", srv->port);
		sp_field_u64(l, "active", "ACTIVE", srv->active);
		sp_field_u64(l, "served", "SERVED", srv->served);
	}
	return sp_rows_end(l);
}
