// SPDX-License-Identifier: GPL-2.0
/* The matrix as text (tables per half and test) and as CSV (a row per result). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "lib/parse.h"
#include "lib/print.h"

static const struct {
	const char *title;		/* the table's */
	const char *unit;		/* in its first header cell */
} metrics[] = {
	[SP_MX_BW] = { "bandwidth", "Gbit/s" },
	[SP_MX_P50] = { "one-way latency p50", "us" },
	[SP_MX_P99] = { "one-way latency p99", "us" },
};

static bool is_outlier(const struct sp_mx_outliers *o, size_t result, enum sp_mx_metric m)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (o->v[i].result == result && o->v[i].metric == m)
			return true;
	return false;
}

struct table {
	const struct sp_mx_doc *d;
	const struct sp_mx_outliers *o;
	const char *half;
	enum sp_mx_metric metric;
	size_t clients[SP_MX_HOSTS_MAX];	/* the hosts that have the half */
};

/* A cell: the value (outliers marked '*'), or why there is none. */
static char *cell(const struct table *t, size_t client, size_t server)
{
	const struct sp_mx_result *r;
	double v;

	if (client == server)
		return strdup("-");
	r = sp_mx_pair_result(t->d, client, t->half, server);
	if (r && sp_mx_metric_value(r, t->metric, &v))
		return sp_xprintf("%.2f%s", v, is_outlier(t->o, (size_t)(r - t->d->results),
							   t->metric) ? "*" : "");
	if (r && *r->error)
		return strdup("failed");
	return strdup(t->d->topo.direct[client][server] ? "-" : "no path");
}

static char *table_fill(const void *rows, size_t row, size_t col)
{
	const struct table *t = rows;
	size_t client = t->clients[row];

	return col ? cell(t, client, col - 1) : strdup(t->d->hosts[client].name);
}

static bool host_has_half(const struct sp_mx_host *h, const char *half)
{
	uint32_t i;

	for (i = 0; i < h->n_halves; i++)
		if (!strcmp(h->halves[i].dev, half))
			return true;
	return false;
}

static int print_matrix(struct table *t)
{
	const char *header[SP_MX_HOSTS_MAX + 1];
	char first[SPARKPERF_DEV_NAME_MAX + 16];
	size_t n = 0, a;
	int ret;

	for (a = 0; a < t->d->n_hosts; a++) {
		header[a + 1] = t->d->hosts[a].name;
		if (host_has_half(&t->d->hosts[a], t->half))
			t->clients[n++] = a;
	}
	snprintf(first, sizeof(first), "%s[%s]", t->half, metrics[t->metric].unit);
	header[0] = first;
	sp_print_text("\n%s from %s, client (row) to server (column):\n", metrics[t->metric].title,
		      t->half);
	ret = sp_print_table(header, t->d->n_hosts + 1, n, table_fill, t);
	return ret;
}

/* "host half (netdev)": where to look. */
static void where(const struct sp_mx_doc *d, size_t host, size_t half, char *buf, size_t len)
{
	const struct sp_mx_half *h = &d->hosts[host].halves[half];

	snprintf(buf, len, "%s %s (%s)", d->hosts[host].name, h->dev, h->netdev);
}

static bool has_link(const struct sp_mx_doc *d, const struct sp_mx_link *want)
{
	size_t i;

	for (i = 0; i < d->n_links; i++)
		if (!memcmp(&d->links[i], want, sizeof(*want)))
			return true;
	return false;
}

/*
 * Cabled hosts: which half reaches which, once a pair (a switch's would be
 * every pair of every subnet, which the tables show).
 */
static void print_cables(const struct sp_mx_doc *d)
{
	char a[SP_MX_HOST_NAME_MAX + 64], b[SP_MX_HOST_NAME_MAX + 64];
	const struct sp_mx_link *l;
	struct sp_mx_link back;
	size_t i;

	if (d->topo.cabling == SP_MX_CABLING_SWITCHED || !d->n_links)
		return;
	sp_print_text("reached:\n");
	for (i = 0; i < d->n_links; i++) {
		l = &d->links[i];
		back = (struct sp_mx_link){ l->b, l->b_half, l->a, l->a_half };
		/* both ways: once; one way: as it went */
		if (l->a > l->b && has_link(d, &back))
			continue;
		where(d, l->a, l->a_half, a, sizeof(a));
		where(d, l->b, l->b_half, b, sizeof(b));
		sp_print_text("  %s %s %s\n", a, has_link(d, &back) ? "<->" : "->", b);
	}
}

static void print_head(const struct sp_mx_doc *d)
{
	const struct sp_mx_config *c = &d->cfg;
	char size[SP_SIZE_STRLEN];
	size_t a, b, none = 0;

	sp_print_text("matrix of %zu hosts: cabling %s, %u rounds; tests %s%s%s", d->n_hosts,
		      sp_mx_cabling_str(d->topo.cabling), d->rounds, c->lat ? "lat" : "",
		      c->lat && c->bw ? ", " : "", c->bw ? "bw" : "");
	if (c->bw)
		sp_print_text(" (%s messages, %u s)",
			      sp_fmt_size(c->size_bytes, size, sizeof(size)), c->duration_s);
	sp_print_text("; pattern %s\n", sp_mx_pattern_str(c->pattern));
	for (a = 0; a < d->n_hosts; a++)
		if (*d->hosts[a].error)
			sp_print_text("host %s: %s\n", d->hosts[a].name, d->hosts[a].error);
	if (*d->topo.mistake)
		sp_print_text("cabling mistake: %s\n", d->topo.mistake);
	for (a = 0; a < d->n_hosts; a++)
		for (b = a + 1; b < d->n_hosts; b++)
			if (!d->topo.direct[a][b])
				sp_print_text("%s%s <-> %s", none++ ? ", " : "no direct path: ",
					      d->hosts[a].name, d->hosts[b].name);
	if (none)
		sp_print_text("\n");
	print_cables(d);
}


static void print_outliers(const struct sp_mx_doc *d, const struct sp_mx_outliers *o)
{
	char c[SP_MX_HOST_NAME_MAX + 64], s[SP_MX_HOST_NAME_MAX + 64];
	const struct sp_mx_outlier *x;
	const struct sp_mx_result *r;
	size_t i;

	if (o->n)
		sp_print_text("\noutliers (* above; bandwidth below %.2f x, latency above 1/%.2f x "
			      "the median of the same half and pattern):\n",
			      SP_MX_OUTLIER_FRACTION, SP_MX_OUTLIER_FRACTION);
	for (i = 0; i < o->n; i++) {
		x = &o->v[i];
		r = &d->results[x->result];
		where(d, r->t.client, r->t.client_half, c, sizeof(c));
		where(d, r->t.server, r->t.server_half, s, sizeof(s));
		sp_print_text("  %s %s: %.2f %s, median %.2f %s: look at %s and %s\n",
			      sp_mx_pattern_str(r->t.pattern), metrics[x->metric].title, x->value,
			      metrics[x->metric].unit, x->median, metrics[x->metric].unit, c, s);
	}
}

static void print_failures(const struct sp_mx_doc *d)
{
	char c[SP_MX_HOST_NAME_MAX + 64], s[SP_MX_HOST_NAME_MAX + 64];
	const struct sp_mx_result *r;
	size_t i, n = 0;

	for (i = 0; i < d->n_results; i++) {
		r = &d->results[i];
		if (!*r->error)
			continue;
		where(d, r->t.client, r->t.client_half, c, sizeof(c));
		where(d, r->t.server, r->t.server_half, s, sizeof(s));
		sp_print_text("%s  %s round %u, %s -> %s: %s\n", n++ ? "" : "\nfailures:\n",
			      sp_mx_pattern_str(r->t.pattern), r->t.round, c, s, r->error);
	}
}

static bool is_stress(const struct sp_mx_result *r)
{
	return r->t.pattern == SP_MX_ALL || r->t.pattern == SP_MX_INCAST;
}

/* The row-th result of the stress patterns. */
static const struct sp_mx_result *stress_result(const struct sp_mx_doc *d, size_t row)
{
	size_t i, k = 0;

	for (i = 0; i < d->n_results; i++)
		if (is_stress(&d->results[i]) && k++ == row)
			return &d->results[i];
	return NULL;
}

static char *stress_fill(const void *rows, size_t row, size_t col)
{
	const struct sp_mx_doc *d = rows;
	const struct sp_mx_result *r = stress_result(d, row);
	const struct sp_mx_test *t = &r->t;

	switch (col) {
	case 0:
		return strdup(sp_mx_pattern_str(t->pattern));
	case 1:
		return sp_xprintf("%u", t->round);
	case 2:
		return strdup(d->hosts[t->client].name);
	case 3:
		return strdup(d->hosts[t->client].halves[t->client_half].dev);
	case 4:
		return strdup(d->hosts[t->server].name);
	case 5:
		return strdup(d->hosts[t->server].halves[t->server_half].dev);
	default:
		return r->has_bw ? sp_xprintf("%.2f", r->gbit_per_s) : strdup("failed");
	}
}

static int print_stress(const struct sp_mx_doc *d)
{
	static const char *const header[] = {
		"pattern", "round", "client", "half", "server", "half", "bw[Gbit/s]",
	};
	size_t i, n = 0;

	for (i = 0; i < d->n_results; i++)
		n += is_stress(&d->results[i]);
	if (n)
		sp_print_text("\nstress rounds, bandwidth of each session while its whole "
			      "round runs:\n");
	return sp_print_table(header, ARRAY_SIZE(header), n, stress_fill, d);
}

int sp_mx_print_text(const struct sp_mx_doc *d)
{
	const char *halves[SP_MX_HOSTS_MAX * SP_MX_HALVES_MAX];
	size_t n = sp_mx_half_names(d, halves, ARRAY_SIZE(halves)), i;
	struct sp_mx_outliers o;
	struct table t = { .d = d, .o = &o };
	int ret = sp_mx_find_outliers(d, &o);

	if (ret)
		return ret;
	print_head(d);
	for (i = 0; i < n && !ret; i++) {
		t.half = halves[i];
		if (d->cfg.bw) {
			t.metric = SP_MX_BW;
			ret = print_matrix(&t);
		}
		for (t.metric = SP_MX_P50; d->cfg.lat && !ret && t.metric <= SP_MX_P99; t.metric++)
			ret = print_matrix(&t);
	}
	if (!ret)
		ret = print_stress(d);
	print_outliers(d, &o);
	print_failures(d);
	sp_mx_outliers_free(&o);
	return ret;
}

/* ---- CSV ------------------------------------------------------------------------ */

static void csv_num(FILE *f, bool has, double v)
{
	if (has)
		fprintf(f, ",%.3f", v);
	else
		fputc(',', f);
}

int sp_mx_write_csv(const struct sp_mx_doc *d, FILE *f)
{
	const struct sp_mx_host *c, *s;
	const struct sp_mx_result *r;
	struct sp_mx_outliers o;
	const char *e;
	size_t i;
	int ret = sp_mx_find_outliers(d, &o);

	if (ret)
		return ret;
	fprintf(f, "pattern,round,client,client_half,server,server_half,gbit_per_s,"
		"one_way_p50_us,one_way_p99_us,outlier,error\n");
	for (i = 0; i < d->n_results; i++) {
		r = &d->results[i];
		c = &d->hosts[r->t.client];
		s = &d->hosts[r->t.server];
		fprintf(f, "%s,%u,%s,%s,%s,%s", sp_mx_pattern_str(r->t.pattern), r->t.round,
			c->name, c->halves[r->t.client_half].dev, s->name,
			s->halves[r->t.server_half].dev);
		csv_num(f, r->has_bw, r->gbit_per_s);
		csv_num(f, r->has_lat, r->one_way_p50_us);
		csv_num(f, r->has_lat, r->one_way_p99_us);
		fprintf(f, ",%s,", is_outlier(&o, i, SP_MX_BW) || is_outlier(&o, i, SP_MX_P50) ?
			"true" : "false");
		/* quoted, its quotes doubled (RFC 4180) */
		if (*r->error) {
			fputc('"', f);
			for (e = r->error; *e; e++)
				fprintf(f, *e == '"' ? "\"\"" : "%c", *e);
			fputc('"', f);
		}
		fputc('\n', f);
	}
	sp_mx_outliers_free(&o);
	return ferror(f) ? -EIO : 0;
}
