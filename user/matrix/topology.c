// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "topology.h"

int sp_mx_candidates(struct sp_mx_doc *d)
{
	struct sp_mx_link l;
	size_t a, b, i, j;
	int ret = 0;

	d->n_links = 0;
	for (a = 0; a < d->n_hosts; a++)
		for (b = 0; b < d->n_hosts; b++)
			for (i = 0; a != b && i < d->hosts[a].n_halves; i++)
				for (j = 0; j < d->hosts[b].n_halves && !ret; j++) {
					if (!sp_mx_same_subnet(&d->hosts[a].halves[i],
							       &d->hosts[b].halves[j]))
						continue;
					l = (struct sp_mx_link){ a, i, b, j };
					ret = sp_array_add(&d->links, &d->n_links, &d->links_cap,
							   sizeof(l), &l);
				}
	return ret;
}

/* Does one subnet hold a half of every host? */
static bool common_subnet(const struct sp_mx_doc *d)
{
	const struct sp_mx_half *h;
	size_t i, b, j, found;

	for (i = 0; i < d->hosts[0].n_halves; i++) {
		h = &d->hosts[0].halves[i];
		found = 1;
		for (b = 1; b < d->n_hosts; b++)
			for (j = 0; j < d->hosts[b].n_halves; j++)
				if (sp_mx_same_subnet(h, &d->hosts[b].halves[j])) {
					found++;
					break;
				}
		if (found == d->n_hosts)
			return true;
	}
	return false;
}

static size_t degree(const struct sp_mx_topology *t, size_t n, size_t a)
{
	size_t b, deg = 0;

	for (b = 0; b < n; b++)
		deg += t->direct[a][b];
	return deg;
}

/* Every host of degree 2, all in one cycle: walk it from host 0. */
static bool one_cycle(const struct sp_mx_topology *t, size_t n)
{
	size_t prev = n, at = 0, next, steps = 0, a;

	for (a = 0; a < n; a++)
		if (degree(t, n, a) != 2)
			return false;
	do {
		for (next = 0; next < n; next++)
			if (t->direct[at][next] && next != prev)
				break;
		prev = at;
		at = next;
		steps++;
	} while (at != 0 && steps <= n);
	return at == 0 && steps == n;
}

/* A triangle's cables joining the same port on both ends, named. */
static void triangle_mistakes(struct sp_mx_doc *d)
{
	char *m = d->topo.mistake;
	size_t len = sizeof(d->topo.mistake), used = 0, i, k;
	bool seen[SP_MX_HOSTS_MAX][SP_MX_HOSTS_MAX] = { { false } };

	for (i = 0; i < d->n_links; i++) {
		const struct sp_mx_link *l = &d->links[i];
		int pa = d->hosts[l->a].halves[l->a_half].port;
		int pb = d->hosts[l->b].halves[l->b_half].port;

		if (pa < 0 || pa != pb || seen[l->a][l->b] || seen[l->b][l->a])
			continue;
		seen[l->a][l->b] = true;
		k = (size_t)snprintf(m + used, len - used, "%s%s p%d <-> %s p%d", used ? ", " : "",
				     d->hosts[l->a].name, pa, d->hosts[l->b].name, pb);
		used = used + k < len ? used + k : len - 1;
	}
	if (used)
		snprintf(m + used, len - used, ": triangle cabling must cross p0 <-> p1");
}

void sp_mx_topology(struct sp_mx_doc *d)
{
	struct sp_mx_topology *t = &d->topo;
	size_t n = d->n_hosts, a, b, i, edges = 0;
	bool full = true;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < d->n_links; i++) {
		t->direct[d->links[i].a][d->links[i].b] = true;
		t->direct[d->links[i].b][d->links[i].a] = true;
	}
	for (a = 0; a < n; a++)
		for (b = a + 1; b < n; b++) {
			edges += t->direct[a][b];
			full = full && t->direct[a][b];
		}
	if (!edges)
		t->cabling = SP_MX_CABLING_NONE;
	else if (n == 2)
		t->cabling = SP_MX_CABLING_DIRECT;
	else if (full && common_subnet(d))
		t->cabling = SP_MX_CABLING_SWITCHED;
	else if (full && n == 3)
		t->cabling = SP_MX_CABLING_TRIANGLE;
	else if (n >= 4 && one_cycle(t, n))
		t->cabling = SP_MX_CABLING_RING;
	else
		t->cabling = SP_MX_CABLING_MIXED;
	if (t->cabling == SP_MX_CABLING_TRIANGLE)
		triangle_mistakes(d);
}
