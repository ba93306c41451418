/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rounds of a matrix run. Pairs: a round-robin tournament by the
 * circle method (one host fixed, the others turning around it; a bye for
 * an odd count), each round of it twice, once in each direction, so that
 * every pair is tested both ways and no host is in two tests at once;
 * pairs that have no direct path are left out, and rounds left empty
 * dropped. Then the stress patterns: "all" (one round, every pair at
 * once, both ways) or "incast" (a round per target, every other host
 * sending to it at once).
 */
#ifndef SPARKPERF_CTL_MXSCHEDULE_H
#define SPARKPERF_CTL_MXSCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mxmodel.h"

struct sp_mx_pair {
	uint8_t client, server;
};

struct sp_mx_round {
	enum sp_mx_pattern pattern;
	struct sp_mx_pair *pairs;
	size_t n;
};

struct sp_mx_schedule {
	struct sp_mx_round *rounds;
	size_t n, cap;
};

/*
 * The rounds over n_hosts hosts, where adj[a][b] says a test from a to b
 * is to be run (a != b); pattern SP_MX_PAIRS alone, or with SP_MX_ALL or
 * SP_MX_INCAST after it (SP_MX_PROBE: the tournament's rounds, so marked). 0, -EINVAL (more
 * than SP_MX_HOSTS_MAX hosts) or -ENOMEM.
 */
int sp_mx_schedule(size_t n_hosts, const bool (*adj)[SP_MX_HOSTS_MAX], enum sp_mx_pattern pattern,
		   struct sp_mx_schedule *out);
void sp_mx_schedule_free(struct sp_mx_schedule *s);

#endif
