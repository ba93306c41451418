// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "lib/parse.h"
#include "ncclplan.h"

/* A subnet that some host has a half in. */
struct subnet {
	struct in_addr net;
	uint8_t prefix;
};

struct planner {
	const struct sp_halves *hosts;
	size_t n;
	struct subnet *subnets;
	size_t n_subnets, cap_subnets;
	struct sp_nccl_plan *plan;
	int err;
};

/* Appends to buf (len bytes, *off used) what fits. */
static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	*off += n > 0 ? (size_t)n : 0;
}

static void note(struct planner *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct planner *p, const char *fmt, ...)
{
	struct sp_nccl_plan *plan = p->plan;
	char **v, *s;
	va_list ap;
	int len;

	if (p->err)
		return;
	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	v = len < 0 ? NULL : realloc(plan->notes, (plan->n_notes + 1) * sizeof(*v));
	if (!v) {
		if (len >= 0)
			free(s);
		p->err = -ENOMEM;
		return;
	}
	v[plan->n_notes++] = s;
	plan->notes = v;
}

static const char *host_name(const struct sp_halves *h)
{
	return h->host[0] ? h->host : "this host";
}

static bool in_subnet(const struct sp_half *h, struct in_addr net, uint8_t prefix)
{
	return sp_half_subnet(h, prefix).s_addr == net.s_addr;
}

/*
 * A half's prefix: its own, else that of another half whose subnet holds
 * it (-j dev gives addresses without prefixes), else 24 (*assumed).
 */
static uint8_t half_prefix(const struct planner *p, const struct sp_half *h, bool *assumed)
{
	size_t i, j;

	if (h->prefix)
		return h->prefix;
	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->hosts[i].n; j++) {
			const struct sp_half *k = &p->hosts[i].v[j];

			if (k->has_ipv4 && k->prefix &&
			    in_subnet(h, sp_half_subnet(k, k->prefix), k->prefix))
				return k->prefix;
		}
	*assumed = true;
	return 24;
}

static int subnet_cmp(const void *a, const void *b)
{
	const struct subnet *x = a, *y = b;
	uint32_t nx = ntohl(x->net.s_addr), ny = ntohl(y->net.s_addr);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	return (int)x->prefix - (int)y->prefix;
}

/* Every subnet a half of a host is in, in address order. */
static void find_subnets(struct planner *p)
{
	char assumed[256], ip[INET_ADDRSTRLEN];
	struct subnet s;
	size_t i, j, k, off;
	bool guess;

	for (i = 0; i < p->n && !p->err; i++) {
		off = 0;
		for (j = 0; j < p->hosts[i].n && !p->err; j++) {
			const struct sp_half *h = &p->hosts[i].v[j];

			if (!h->has_ipv4)
				continue;
			guess = false;
			s.prefix = half_prefix(p, h, &guess);
			s.net = sp_half_subnet(h, s.prefix);
			inet_ntop(AF_INET, &h->addr, ip, sizeof(ip));
			if (guess)
				appendf(assumed, sizeof(assumed), &off, "%s%s", off ? ", " : "", ip);
			for (k = 0; k < p->n_subnets && subnet_cmp(&s, &p->subnets[k]); k++)
				;
			if (k == p->n_subnets)
				p->err = sp_array_add(&p->subnets, &p->n_subnets, &p->cap_subnets,
						      sizeof(s), &s);
		}
		if (off)
			note(p, "%s: no prefix known for %s, nor another half's subnet holding it: "
			     "/24 assumed", host_name(&p->hosts[i]), assumed);
	}
	if (p->n_subnets)
		qsort(p->subnets, p->n_subnets, sizeof(*p->subnets), subnet_cmp);
}

static bool connected(const struct sp_half *h)
{
	return h->active && h->has_ipv4;
}

/* How many halves of host are in s (connected ones only, or any). */
static size_t count_in(const struct sp_halves *host, const struct subnet *s, bool only_connected)
{
	size_t j, n = 0;

	for (j = 0; j < host->n; j++)
		n += host->v[j].has_ipv4 && in_subnet(&host->v[j], s->net, s->prefix) &&
		     (!only_connected || connected(&host->v[j]));
	return n;
}

static int half_cmp(const struct sp_half *a, const struct sp_half *b)
{
	int c = strcmp(a->dev, b->dev);

	return c ? c : (int)a->port - (int)b->port;
}

/* The k-th connected half of host in s, by name and port: an index into host->v. */
static size_t kth_in(const struct sp_halves *host, const struct subnet *s, size_t k)
{
	size_t j, prev = host->n, next = host->n, taken;

	/* k + 1 passes of "the next one after prev" */
	for (taken = 0; taken <= k; taken++, prev = next) {
		next = host->n;
		for (j = 0; j < host->n; j++) {
			const struct sp_half *h = &host->v[j];

			if (!connected(h) || !in_subnet(h, s->net, s->prefix) ||
			    (prev < host->n && half_cmp(h, &host->v[prev]) <= 0))
				continue;
			if (next == host->n || half_cmp(h, &host->v[next]) < 0)
				next = j;
		}
	}
	return prev;
}

static void host_add(struct planner *p, struct sp_nccl_host *h, size_t idx,
		     const struct subnet *s)
{
	size_t *o = realloc(h->order, (h->n + 1) * sizeof(*o));
	struct in_addr *net = o ? realloc(h->subnet, (h->n + 1) * sizeof(*net)) : NULL;
	uint8_t *prefix = net ? realloc(h->prefix, h->n + 1) : NULL;

	if (o)
		h->order = o;
	if (net)
		h->subnet = net;
	if (!prefix) {
		p->err = -ENOMEM;
		return;
	}
	h->prefix = prefix;
	o[h->n] = idx;
	net[h->n] = s->net;
	prefix[h->n++] = s->prefix;
}

static void fmt_subnet(const struct subnet *s, char *buf, size_t len)
{
	char ip[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &s->net, ip, sizeof(ip));
	snprintf(buf, len, "%s/%u", ip, s->prefix);
}

/* Ring cabling: more than two hosts, and a subnet not every host is on (noted). */
static bool find_ring(struct planner *p)
{
	char net[SP_IPV4_STRLEN + 4];
	size_t s, i;

	for (s = 0; p->n > 2 && s < p->n_subnets; s++) {
		for (i = 0; i < p->n; i++) {
			if (count_in(&p->hosts[i], &p->subnets[s], false))
				continue;
			fmt_subnet(&p->subnets[s], net, sizeof(net));
			note(p, "ring cabling: %s has no half in %s, which other hosts share: "
			     "NCCL_IB_SUBNET_AWARE_ROUTING=1 pairs the halves by subnet, not by "
			     "position", host_name(&p->hosts[i]), net);
			return true;
		}
	}
	return false;
}

/* Why a subnet is on no list: the hosts without a connected half in it. */
static void note_left_out(struct planner *p, const struct subnet *s)
{
	char net[SP_IPV4_STRLEN + 4], why[256] = "";
	size_t i, j, len = 0;

	for (i = 0; i < p->n; i++) {
		const struct sp_halves *host = &p->hosts[i];

		if (count_in(host, s, true))
			continue;
		if (!count_in(host, s, false))
			appendf(why, sizeof(why), &len, "%s%s has no half in it", len ? "; " : "",
				host_name(host));
		for (j = 0; j < host->n; j++)
			if (host->v[j].has_ipv4 && in_subnet(&host->v[j], s->net, s->prefix))
				appendf(why, sizeof(why), &len, "%s%s's %s is not ACTIVE",
					len ? "; " : "", host_name(host), host->v[j].dev);
	}
	fmt_subnet(s, net, sizeof(net));
	note(p, "%s is on no host's list: %s", net, why);
}

/* Position by position: the halves of each subnet every host has a connected half in. */
static void order_halves(struct planner *p)
{
	size_t s, i, k, least, most;

	for (s = 0; s < p->n_subnets && !p->err; s++) {
		const struct subnet *sub = &p->subnets[s];

		least = SIZE_MAX;
		most = 0;
		for (i = 0; i < p->n; i++) {
			k = count_in(&p->hosts[i], sub, true);
			least = k < least ? k : least;
			most = k > most ? k : most;
		}
		if (p->plan->ring)
			least = most;	/* subnet-aware routing pairs them, not their places */
		else if (most && !least)
			note_left_out(p, sub);
		for (k = 0; k < least; k++)
			for (i = 0; i < p->n; i++)
				if (k < count_in(&p->hosts[i], sub, true))
					host_add(p, &p->plan->hosts[i],
						 kth_in(&p->hosts[i], sub, k), sub);
	}
}

static struct sp_nccl_var *var_new(struct sp_nccl_host *h, const char *name)
{
	struct sp_nccl_var *v = &h->vars[h->n_vars++];

	memset(v, 0, sizeof(*v));
	v->name = name;
	return v;
}

static void set(struct sp_nccl_var *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set(struct sp_nccl_var *v, const char *fmt, ...)
{
	va_list ap;

	v->set = true;
	va_start(ap, fmt);
	vsnprintf(v->value, sizeof(v->value), fmt, ap);
	va_end(ap);
}

/* NCCL_IB_HCA's entries: the device, with ":PORT" when it has more than one half here. */
static void hca_list(const struct sp_nccl_host *h, char *buf, size_t len)
{
	size_t i, j, same, off = 0;

	buf[0] = '\0';
	for (i = 0; i < h->n; i++) {
		const struct sp_half *x = &h->halves->v[h->order[i]];

		for (j = 0, same = 0; j < h->halves->n; j++)
			same += !strcmp(h->halves->v[j].dev, x->dev);
		appendf(buf, len, &off, "%s%s", i ? "," : "", x->dev);
		if (same > 1)
			appendf(buf, len, &off, ":%u", x->port);
	}
}

static bool merge_nics(const struct sp_nccl_host *h)
{
	size_t i, j;

	for (i = 0; i < h->n; i++)
		for (j = i + 1; j < h->n; j++)
			if (sp_halves_share_port(&h->halves->v[h->order[i]],
						 &h->halves->v[h->order[j]]))
				return true;
	return false;
}

/* One GID index on every listed half of every host; the indexes found in found. */
static bool gid_index(const struct sp_nccl_plan *plan, uint32_t *index, char *found, size_t len)
{
	bool same = true, any = false;
	size_t i, j, off = 0;

	found[0] = '\0';
	for (i = 0; i < plan->n; i++) {
		const struct sp_nccl_host *h = &plan->hosts[i];

		for (j = 0; j < h->n; j++) {
			const struct sp_half *x = &h->halves->v[h->order[j]];

			if (any && x->gid_index != *index)
				same = false;
			if (!any)
				*index = x->gid_index;
			any = true;
			if (!j)
				appendf(found, len, &off, "%s%s ", off ? "; " : "",
					host_name(h->halves));
			appendf(found, len, &off, "%s%s %u", j ? ", " : "", x->dev, x->gid_index);
		}
	}
	return any && same;
}

static void host_vars(struct sp_nccl_plan *plan, struct sp_nccl_host *h, const char *gid_found)
{
	static const char none[] = "no connected half (ACTIVE, with an IPv4 RoCE v2 GID)";
	struct sp_nccl_var *v;

	v = var_new(h, "NCCL_IB_HCA");
	hca_list(h, v->value, sizeof(v->value));
	v->set = h->n > 0;
	if (!v->set)
		snprintf(v->comment, sizeof(v->comment), "%s: NCCL falls back to sockets", none);
	v = var_new(h, "NCCL_SOCKET_IFNAME");
	if (h->n)
		set(v, "%s", h->halves->v[h->order[0]].netdev);
	else
		snprintf(v->comment, sizeof(v->comment), "%s", none);
	v = var_new(h, "NCCL_IB_GID_INDEX");
	if (plan->gid_stable)
		set(v, "%u", plan->gid_index);
	else if (gid_found[0])
		snprintf(v->comment, sizeof(v->comment), "leave it unset, NCCL finds each HCA's "
			 "RoCE v2 IPv4 GID itself: the indexes differ (%s)", gid_found);
	else
		snprintf(v->comment, sizeof(v->comment), "%s", none);
	if (merge_nics(h))
		set(var_new(h, "NCCL_IB_MERGE_NICS"), "1");
	if (plan->ring)
		set(var_new(h, "NCCL_IB_SUBNET_AWARE_ROUTING"), "1");
}

int sp_nccl_plan_make(const struct sp_halves *hosts, size_t n, struct sp_nccl_plan *plan)
{
	struct planner p = { .hosts = hosts, .n = n, .plan = plan };
	char found[512];
	size_t i;

	memset(plan, 0, sizeof(*plan));
	plan->hosts = calloc(n ? n : 1, sizeof(*plan->hosts));
	if (!plan->hosts)
		return -ENOMEM;
	plan->n = n;
	for (i = 0; i < n; i++)
		plan->hosts[i].halves = &hosts[i];
	find_subnets(&p);
	if (!p.err)
		plan->ring = find_ring(&p);
	order_halves(&p);
	plan->gid_stable = gid_index(plan, &plan->gid_index, found, sizeof(found));
	for (i = 0; !p.err && i < n; i++)
		host_vars(plan, &plan->hosts[i], found);
	free(p.subnets);
	if (p.err)
		sp_nccl_plan_free(plan);
	return p.err;
}

void sp_nccl_plan_free(struct sp_nccl_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		free(plan->hosts[i].order);
		free(plan->hosts[i].subnet);
		free(plan->hosts[i].prefix);
	}
	for (i = 0; i < plan->n_notes; i++)
		free(plan->notes[i]);
	free(plan->notes);
	free(plan->hosts);
	memset(plan, 0, sizeof(*plan));
}

const struct sp_nccl_var *sp_nccl_var(const struct sp_nccl_host *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->n_vars; i++)
		if (!strcmp(h->vars[i].name, name))
			return &h->vars[i];
	return NULL;
}

bool sp_nccl_hosts_alike(const struct sp_nccl_host *a, const struct sp_nccl_host *b)
{
	size_t i;

	if (a->n_vars != b->n_vars)
		return false;
	for (i = 0; i < a->n_vars; i++)
		if (strcmp(a->vars[i].name, b->vars[i].name) || a->vars[i].set != b->vars[i].set ||
		    strcmp(a->vars[i].value, b->vars[i].value) ||
		    strcmp(a->vars[i].comment, b->vars[i].comment))
			return false;
	return true;
}
