/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printers of server start and server show.
 */
#ifndef SPARKPERF_CTL_DEV_SERVERPRINT_H
#define SPARKPERF_CTL_DEV_SERVERPRINT_H

#include <stddef.h>

#include "servernl.h"

/* Servers. One (server start): a line, or one JSON object. */
int sp_print_server(const struct sp_server *srv);
/* All (server show): a table, or one JSON array. */
int sp_print_servers(const struct sp_server *srvs, size_t n);

#endif
