// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

/* A round with room for every host's one test; NULL when out of memory. */
static struct sp_mx_round *round_new(struct sp_mx_schedule *s, enum sp_mx_pattern pattern,
				     size_t room)
{
	struct sp_mx_round r = { .pattern = pattern };

	r.pairs = calloc(room ? room : 1, sizeof(*r.pairs));
	if (!r.pairs || sp_array_add(&s->rounds, &s->n, &s->cap, sizeof(r), &r)) {
		free(r.pairs);
		return NULL;
	}
	return &s->rounds[s->n - 1];
}

/* Keeps the last round only when it holds a test. */
static void round_end(struct sp_mx_schedule *s)
{
	if (s->n && !s->rounds[s->n - 1].n)
		free(s->rounds[--s->n].pairs);
}

static int tournament(size_t n, const bool (*adj)[SP_MX_HOSTS_MAX], enum sp_mx_pattern pattern,
		      struct sp_mx_schedule *s)
{
	/* an odd count gets a bye: the host paired with it sits the round out */
	size_t m = n + (n & 1), r, k, dir;
	struct sp_mx_round *round;
	size_t a, b;

	for (r = 0; r + 1 < m; r++) {
		for (dir = 0; dir < 2; dir++) {
			round = round_new(s, pattern, m / 2);
			if (!round)
				return -ENOMEM;
			for (k = 0; k < m / 2; k++) {
				/* k = 0: the fixed host m - 1 against host r */
				a = k ? (r + k) % (m - 1) : m - 1;
				b = k ? (r + m - 1 - k) % (m - 1) : r;
				if (dir) {
					size_t t = a;

					a = b;
					b = t;
				}
				if (a < n && b < n && adj[a][b])
					round->pairs[round->n++] = (struct sp_mx_pair){ a, b };
			}
			round_end(s);
		}
	}
	return 0;
}

/* Every pair at once, both ways: hosts are in several tests. */
static int all_at_once(size_t n, const bool (*adj)[SP_MX_HOSTS_MAX], struct sp_mx_schedule *s)
{
	struct sp_mx_round *round = round_new(s, SP_MX_ALL, n * n);
	size_t a, b;

	if (!round)
		return -ENOMEM;
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			if (a != b && adj[a][b])
				round->pairs[round->n++] = (struct sp_mx_pair){ a, b };
	round_end(s);
	return 0;
}

static int incast(size_t n, const bool (*adj)[SP_MX_HOSTS_MAX], struct sp_mx_schedule *s)
{
	struct sp_mx_round *round;
	size_t target, a;

	for (target = 0; target < n; target++) {
		round = round_new(s, SP_MX_INCAST, n);
		if (!round)
			return -ENOMEM;
		for (a = 0; a < n; a++)
			if (a != target && adj[a][target])
				round->pairs[round->n++] = (struct sp_mx_pair){ a, target };
		/* one sender is no incast: the pairs rounds measured it */
		if (round->n < 2)
			round->n = 0;
		round_end(s);
	}
	return 0;
}

int sp_mx_schedule(size_t n_hosts, const bool (*adj)[SP_MX_HOSTS_MAX], enum sp_mx_pattern pattern,
		   struct sp_mx_schedule *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (n_hosts > SP_MX_HOSTS_MAX)
		return -EINVAL;
	/* the probes go round as the pairs do: no host in two at once */
	ret = tournament(n_hosts, adj, pattern == SP_MX_PROBE ? SP_MX_PROBE : SP_MX_PAIRS, out);
	if (!ret && pattern == SP_MX_ALL)
		ret = all_at_once(n_hosts, adj, out);
	if (!ret && pattern == SP_MX_INCAST)
		ret = incast(n_hosts, adj, out);
	if (ret)
		sp_mx_schedule_free(out);
	return ret;
}

void sp_mx_schedule_free(struct sp_mx_schedule *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->rounds[i].pairs);
	free(s->rounds);
	memset(s, 0, sizeof(*s));
}
