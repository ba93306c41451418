// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

bool sp_mx_metric_value(const struct sp_mx_result *r, enum sp_mx_metric m, double *v)
{
	switch (m) {
	case SP_MX_BW:
		*v = r->gbit_per_s;
		return r->has_bw;
	case SP_MX_P50:
		*v = r->one_way_p50_us;
		return r->has_lat;
	case SP_MX_P99:
		*v = r->one_way_p99_us;
		return r->has_lat;
	}
	return false;
}

static const char *client_half(const struct sp_mx_doc *d, const struct sp_mx_result *r)
{
	return d->hosts[r->t.client].halves[r->t.client_half].dev;
}

static bool same_kind(const struct sp_mx_doc *d, const struct sp_mx_result *a,
		      const struct sp_mx_result *b)
{
	return a->t.pattern == b->t.pattern && !strcmp(client_half(d, a), client_half(d, b));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of r's kind of metric m; false with fewer than two values. */
static bool kind_median(const struct sp_mx_doc *d, const struct sp_mx_result *r,
			enum sp_mx_metric m, double *median)
{
	double *v = malloc(d->n_results * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return false;
	for (i = 0; i < d->n_results; i++)
		if (same_kind(d, r, &d->results[i]) && sp_mx_metric_value(&d->results[i], m, &v[n]))
			n++;
	if (n >= 2) {
		qsort(v, n, sizeof(*v), cmp_double);
		*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return n >= 2;
}

int sp_mx_find_outliers(const struct sp_mx_doc *d, struct sp_mx_outliers *out)
{
	static const enum sp_mx_metric metrics[] = { SP_MX_BW, SP_MX_P50 };
	struct sp_mx_outlier o;
	size_t i, k;
	bool far;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < d->n_results && !ret; i++) {
		for (k = 0; k < sizeof(metrics) / sizeof(metrics[0]) && !ret; k++) {
			o = (struct sp_mx_outlier){ .result = i, .metric = metrics[k] };
			if (!sp_mx_metric_value(&d->results[i], o.metric, &o.value) ||
			    !kind_median(d, &d->results[i], o.metric, &o.median))
				continue;
			far = o.metric == SP_MX_BW ? o.value < SP_MX_OUTLIER_FRACTION * o.median :
			      o.value * SP_MX_OUTLIER_FRACTION > o.median;
			if (far)
				ret = sp_array_add(&out->v, &out->n, &out->cap, sizeof(o), &o);
		}
	}
	if (ret)
		sp_mx_outliers_free(out);
	return ret;
}

void sp_mx_outliers_free(struct sp_mx_outliers *o)
{
	free(o->v);
	memset(o, 0, sizeof(*o));
}

const struct sp_mx_result *sp_mx_pair_result(const struct sp_mx_doc *d, size_t client,
					     const char *half, size_t server)
{
	const struct sp_mx_result *r;
	size_t i;

	for (i = 0; i < d->n_results; i++) {
		r = &d->results[i];
		/* a probe's result is kept when it failed: the pair then ran nothing */
		if ((r->t.pattern == SP_MX_PAIRS || r->t.pattern == SP_MX_PROBE) &&
		    r->t.client == client && r->t.server == server &&
		    !strcmp(client_half(d, r), half))
			return r;
	}
	return NULL;
}

size_t sp_mx_half_names(const struct sp_mx_doc *d, const char **names, size_t max)
{
	size_t n = 0, a, i, k;

	for (a = 0; a < d->n_hosts; a++)
		for (i = 0; i < d->hosts[a].n_halves; i++) {
			const char *dev = d->hosts[a].halves[i].dev;

			for (k = 0; k < n && strcmp(names[k], dev); k++)
				;
			if (k == n && n < max)
				names[n++] = dev;
		}
	return n;
}
