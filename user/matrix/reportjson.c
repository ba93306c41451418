// SPDX-License-Identifier: GPL-2.0
/* The matrix document as JSON, and back ("matrix show"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "report.h"
#include "topology.h"
#include "lib/parse.h"
#include "lib/print.h"

/* ---- writing ---------------------------------------------------------------- */

static json_object *json_half(const struct sp_mx_half *h)
{
	json_object *o = json_object_new_object();
	char addr[SP_IPV4_STRLEN], net[SP_IPV4_STRLEN + 4], port[16];

	inet_ntop(AF_INET, &h->addr, addr, sizeof(addr));
	if (h->prefix)
		snprintf(net, sizeof(net), "%s/%u", addr, h->prefix);
	else
		snprintf(net, sizeof(net), "%s", addr);
	snprintf(port, sizeof(port), "p%d", h->port);
	sp_json_add(o, "dev", json_object_new_string(h->dev));
	sp_json_add(o, "netdev", json_object_new_string(h->netdev));
	sp_json_add(o, "addr", json_object_new_string(net));
	sp_json_add(o, "phys_port", h->port >= 0 ? json_object_new_string(port) : NULL);
	return o;
}

static json_object *json_hosts(const struct sp_mx_doc *d)
{
	json_object *arr = json_object_new_array(), *o, *halves;
	size_t a, i;

	for (a = 0; a < d->n_hosts; a++) {
		o = json_object_new_object();
		halves = json_object_new_array();
		for (i = 0; i < d->hosts[a].n_halves; i++)
			json_object_array_add(halves, json_half(&d->hosts[a].halves[i]));
		sp_json_add(o, "name", json_object_new_string(d->hosts[a].name));
		sp_json_add(o, "halves", halves);
		sp_json_add(o, "error", sp_json_str_or_null(*d->hosts[a].error ? d->hosts[a].error :
							      NULL));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* client, client_half, server, server_half by name */
static void json_ends(json_object *o, const struct sp_mx_doc *d, size_t a, size_t ah, size_t b,
		      size_t bh)
{
	sp_json_add(o, "client", json_object_new_string(d->hosts[a].name));
	sp_json_add(o, "client_half", json_object_new_string(d->hosts[a].halves[ah].dev));
	sp_json_add(o, "server", json_object_new_string(d->hosts[b].name));
	sp_json_add(o, "server_half", json_object_new_string(d->hosts[b].halves[bh].dev));
}

static json_object *json_topology(const struct sp_mx_doc *d)
{
	json_object *o = json_object_new_object(), *none = json_object_new_array(), *links, *p;
	size_t a, b, i;

	for (a = 0; a < d->n_hosts; a++)
		for (b = a + 1; b < d->n_hosts; b++) {
			if (d->topo.direct[a][b])
				continue;
			p = json_object_new_object();
			sp_json_add(p, "host_a", json_object_new_string(d->hosts[a].name));
			sp_json_add(p, "host_b", json_object_new_string(d->hosts[b].name));
			json_object_array_add(none, p);
		}
	links = json_object_new_array();
	for (i = 0; i < d->n_links; i++) {
		const struct sp_mx_link *l = &d->links[i];

		p = json_object_new_object();
		json_ends(p, d, l->a, l->a_half, l->b, l->b_half);
		json_object_array_add(links, p);
	}
	sp_json_add(o, "cabling", json_object_new_string(sp_mx_cabling_str(d->topo.cabling)));
	sp_json_add(o, "mistake", sp_json_str_or_null(*d->topo.mistake ? d->topo.mistake : NULL));
	sp_json_add(o, "no_direct_path", none);
	sp_json_add(o, "links", links);
	return o;
}

static json_object *json_num(bool has, double v)
{
	return has ? sp_json_fixed(v, 3) : NULL;
}

static bool outlier_of(const struct sp_mx_outliers *o, size_t result)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->v[i].result == result)
			return true;
	return false;
}

static json_object *json_results(const struct sp_mx_doc *d, const struct sp_mx_outliers *out)
{
	json_object *arr = json_object_new_array(), *o;
	const struct sp_mx_result *r;
	size_t i;

	for (i = 0; i < d->n_results; i++) {
		r = &d->results[i];
		o = json_object_new_object();
		sp_json_add(o, "pattern", json_object_new_string(sp_mx_pattern_str(r->t.pattern)));
		sp_json_add(o, "round", json_object_new_int(r->t.round));
		json_ends(o, d, r->t.client, r->t.client_half, r->t.server, r->t.server_half);
		sp_json_add(o, "gbit_per_s", json_num(r->has_bw, r->gbit_per_s));
		sp_json_add(o, "one_way_p50_us", json_num(r->has_lat, r->one_way_p50_us));
		sp_json_add(o, "one_way_p99_us", json_num(r->has_lat, r->one_way_p99_us));
		sp_json_add(o, "error", sp_json_str_or_null(*r->error ? r->error : NULL));
		sp_json_add(o, "outlier", json_object_new_boolean(outlier_of(out, i)));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_outliers(const struct sp_mx_doc *d, const struct sp_mx_outliers *out)
{
	json_object *arr = json_object_new_array(), *o;
	const struct sp_mx_outlier *x;
	const struct sp_mx_result *r;
	bool bw;
	size_t i;

	for (i = 0; i < out->n; i++) {
		x = &out->v[i];
		r = &d->results[x->result];
		bw = x->metric == SP_MX_BW;
		o = json_object_new_object();
		sp_json_add(o, "metric", json_object_new_string(bw ? "bandwidth" : "one_way_p50"));
		sp_json_add(o, "pattern", json_object_new_string(sp_mx_pattern_str(r->t.pattern)));
		json_ends(o, d, r->t.client, r->t.client_half, r->t.server, r->t.server_half);
		sp_json_add(o, bw ? "gbit_per_s" : "one_way_p50_us", sp_json_fixed(x->value, 3));
		sp_json_add(o, bw ? "median_gbit_per_s" : "median_one_way_p50_us",
			    sp_json_fixed(x->median, 3));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *sp_mx_doc_json(const struct sp_mx_doc *d)
{
	json_object *o, *cfg, *tests;
	struct sp_mx_outliers out;

	if (sp_mx_find_outliers(d, &out))
		return NULL;
	o = json_object_new_object();
	cfg = json_object_new_object();
	tests = json_object_new_array();
	if (d->cfg.lat)
		json_object_array_add(tests, json_object_new_string("lat"));
	if (d->cfg.bw)
		json_object_array_add(tests, json_object_new_string("bw"));
	sp_json_add(cfg, "tests", tests);
	sp_json_add(cfg, "size_bytes", sp_json_u64(d->cfg.size_bytes));
	sp_json_add(cfg, "duration_s", json_object_new_int64(d->cfg.duration_s));
	sp_json_add(cfg, "pattern", json_object_new_string(sp_mx_pattern_str(d->cfg.pattern)));
	sp_json_add(o, "version", json_object_new_string(d->version));
	sp_json_add(o, "config", cfg);
	sp_json_add(o, "hosts", json_hosts(d));
	sp_json_add(o, "topology", json_topology(d));
	sp_json_add(o, "rounds", json_object_new_int64(d->rounds));
	sp_json_add(o, "results", json_results(d, &out));
	sp_json_add(o, "outliers", json_outliers(d, &out));
	sp_mx_outliers_free(&out);
	return o;
}

/* ---- reading ---------------------------------------------------------------- */

struct reader {
	struct sp_mx_doc *d;
	char *err;
	size_t len;
	int ret;			/* the first error */
};

static void bad(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bad(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->ret)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err, r->len, fmt, ap);
	va_end(ap);
	r->ret = -EINVAL;
}

static json_object *member(struct reader *r, json_object *o, const char *key, json_type type,
			   const char *where)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type)) {
		bad(r, "%s: no %s", where, key);
		return NULL;
	}
	return v;
}

/* A string member copied into buf (at most len - 1 bytes). */
static void str_member(struct reader *r, json_object *o, const char *key, const char *where,
		       char *buf, size_t len)
{
	json_object *v = member(r, o, key, json_type_string, where);

	if (v && (size_t)json_object_get_string_len(v) >= len)
		bad(r, "%s: %s longer than %zu bytes", where, key, len - 1);
	else if (v)
		snprintf(buf, len, "%s", json_object_get_string(v));
}

/* A number member, or false for null (absent: an error). */
static bool num_member(struct reader *r, json_object *o, const char *key, const char *where,
		       double *out)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v)) {
		bad(r, "%s: no %s", where, key);
		return false;
	}
	if (!v)
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
		bad(r, "%s: %s is not a number", where, key);
		return false;
	}
	*out = json_object_get_double(v);
	return true;
}

static void read_half(struct reader *r, json_object *o, struct sp_mx_half *h, const char *where)
{
	char addr[SP_IPV4_STRLEN + 4], *slash;
	json_object *port = NULL;
	uint32_t prefix = 0, n;

	str_member(r, o, "dev", where, h->dev, sizeof(h->dev));
	str_member(r, o, "netdev", where, h->netdev, sizeof(h->netdev));
	str_member(r, o, "addr", where, addr, sizeof(addr));
	slash = strchr(addr, '/');
	if (slash)
		*slash++ = '\0';
	if (!r->ret && (inet_pton(AF_INET, addr, &h->addr) != 1 ||
			(slash && sp_parse_u32(slash, 1, 32, &prefix))))
		bad(r, "%s: addr is no IPv4 ADDR[/PREFIX]", where);
	h->prefix = (uint8_t)prefix;
	h->port = -1;
	json_object_object_get_ex(o, "phys_port", &port);
	/* "p0": a port's number; null: not known */
	if (port && (!json_object_is_type(port, json_type_string) ||
		     json_object_get_string(port)[0] != 'p' ||
		     sp_parse_u32(json_object_get_string(port) + 1, 0, 100, &n)))
		bad(r, "%s: phys_port is no pN", where);
	else if (port)
		h->port = (int8_t)n;
}

static void read_hosts(struct reader *r, json_object *doc)
{
	json_object *hosts = member(r, doc, "hosts", json_type_array, "document"), *o, *halves;
	struct sp_mx_host *h;
	char where[64];
	size_t a, i;

	if (hosts && json_object_array_length(hosts) > SP_MX_HOSTS_MAX)
		bad(r, "hosts: more than %d", SP_MX_HOSTS_MAX);
	for (a = 0; hosts && !r->ret && a < json_object_array_length(hosts); a++) {
		h = &r->d->hosts[r->d->n_hosts++];
		o = json_object_array_get_idx(hosts, a);
		snprintf(where, sizeof(where), "hosts[%zu]", a);
		str_member(r, o, "name", where, h->name, sizeof(h->name));
		if (sp_json_get_str(o, "error"))
			snprintf(h->error, sizeof(h->error), "%s", sp_json_get_str(o, "error"));
		halves = member(r, o, "halves", json_type_array, where);
		if (halves && json_object_array_length(halves) > SP_MX_HALVES_MAX)
			bad(r, "%s: more than %d halves", where, SP_MX_HALVES_MAX);
		for (i = 0; halves && !r->ret && i < json_object_array_length(halves); i++) {
			snprintf(where, sizeof(where), "hosts[%zu].halves[%zu]", a, i);
			read_half(r, json_object_array_get_idx(halves, i),
				  &h->halves[h->n_halves++], where);
		}
	}
}

/* The index of the host named by o[key], and of its half named by o[key_half]. */
static void read_end(struct reader *r, json_object *o, const char *key, const char *where,
		     uint8_t *host, uint8_t *half)
{
	char name[SP_MX_HOST_NAME_MAX], dev[SPARKPERF_DEV_NAME_MAX], half_key[32];
	size_t a, i;

	snprintf(half_key, sizeof(half_key), "%s_half", key);
	str_member(r, o, key, where, name, sizeof(name));
	str_member(r, o, half_key, where, dev, sizeof(dev));
	for (a = 0; !r->ret && a < r->d->n_hosts; a++) {
		if (strcmp(r->d->hosts[a].name, name))
			continue;
		for (i = 0; i < r->d->hosts[a].n_halves; i++) {
			if (!strcmp(r->d->hosts[a].halves[i].dev, dev)) {
				*host = (uint8_t)a;
				*half = (uint8_t)i;
				return;
			}
		}
	}
	bad(r, "%s: %s %s %s is not in hosts", where, key, name, dev);
}

static void read_links(struct reader *r, json_object *doc)
{
	json_object *topo = member(r, doc, "topology", json_type_object, "document");
	json_object *links = topo ? member(r, topo, "links", json_type_array, "topology") : NULL;
	struct sp_mx_link l;
	char where[64];
	size_t i;

	for (i = 0; links && !r->ret && i < json_object_array_length(links); i++) {
		snprintf(where, sizeof(where), "topology.links[%zu]", i);
		read_end(r, json_object_array_get_idx(links, i), "client", where, &l.a, &l.a_half);
		read_end(r, json_object_array_get_idx(links, i), "server", where, &l.b, &l.b_half);
		if (!r->ret)
			r->ret = sp_array_add(&r->d->links, &r->d->n_links, &r->d->links_cap,
					      sizeof(l), &l);
	}
}

static void read_result(struct reader *r, json_object *o, const char *where)
{
	struct sp_mx_result res = { 0 };
	char pattern[16];
	double round = 0;

	str_member(r, o, "pattern", where, pattern, sizeof(pattern));
	if (!r->ret && sp_mx_pattern_parse(pattern, (enum sp_mx_pattern *)&res.t.pattern))
		bad(r, "%s: no pattern '%s'", where, pattern);
	if (!r->ret && (!num_member(r, o, "round", where, &round) || round < 0 ||
			round > UINT16_MAX))
		bad(r, "%s: no round", where);
	res.t.round = (uint16_t)round;
	read_end(r, o, "client", where, &res.t.client, &res.t.client_half);
	read_end(r, o, "server", where, &res.t.server, &res.t.server_half);
	res.has_bw = num_member(r, o, "gbit_per_s", where, &res.gbit_per_s);
	res.has_lat = num_member(r, o, "one_way_p50_us", where, &res.one_way_p50_us) &&
		      num_member(r, o, "one_way_p99_us", where, &res.one_way_p99_us);
	if (sp_json_get_str(o, "error"))
		snprintf(res.error, sizeof(res.error), "%s", sp_json_get_str(o, "error"));
	if (!r->ret)
		r->ret = sp_array_add(&r->d->results, &r->d->n_results, &r->d->results_cap,
				      sizeof(res), &res);
}

static void read_config(struct reader *r, json_object *doc)
{
	json_object *cfg = member(r, doc, "config", json_type_object, "document"), *tests, *t;
	struct sp_mx_config *c = &r->d->cfg;
	double size = 0, duration = 0, rounds = 0;
	char pattern[16];
	size_t i;

	tests = cfg ? member(r, cfg, "tests", json_type_array, "config") : NULL;
	for (i = 0; tests && i < json_object_array_length(tests); i++) {
		t = json_object_array_get_idx(tests, i);
		c->lat = c->lat || !strcmp(json_object_get_string(t), "lat");
		c->bw = c->bw || !strcmp(json_object_get_string(t), "bw");
	}
	if (cfg) {
		num_member(r, cfg, "size_bytes", "config", &size);
		num_member(r, cfg, "duration_s", "config", &duration);
		str_member(r, cfg, "pattern", "config", pattern, sizeof(pattern));
	}
	if (!r->ret && sp_mx_pattern_parse(pattern, &c->pattern))
		bad(r, "config: no pattern '%s'", pattern);
	c->size_bytes = (uint64_t)size;
	c->duration_s = (uint32_t)duration;
	num_member(r, doc, "rounds", "document", &rounds);
	r->d->rounds = (uint32_t)rounds;
	str_member(r, doc, "version", "document", r->d->version, sizeof(r->d->version));
}

int sp_mx_doc_parse(const char *text, struct sp_mx_doc *d, char *err, size_t len)
{
	struct reader r = { .d = d, .err = err, .len = len };
	json_object *doc = json_tokener_parse(text), *results;
	char where[32];
	size_t i;

	if (!doc || !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		snprintf(err, len, "not a matrix document (a JSON object)");
		return -EINVAL;
	}
	read_config(&r, doc);
	read_hosts(&r, doc);
	read_links(&r, doc);
	results = r.ret ? NULL : member(&r, doc, "results", json_type_array, "document");
	for (i = 0; results && !r.ret && i < json_object_array_length(results); i++) {
		snprintf(where, sizeof(where), "results[%zu]", i);
		read_result(&r, json_object_array_get_idx(results, i), where);
	}
	json_object_put(doc);
	if (!r.ret)
		sp_mx_topology(d);
	return r.ret;
}
