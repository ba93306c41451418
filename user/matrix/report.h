/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A matrix run's report: outliers, and the document as text (an N x N
 * table per half and test, client rows, server columns), CSV (a row per
 * result) and JSON (the worker's document, which "matrix show" reads
 * back).
 *
 * An outlier is a result far from the others of its kind (the same
 * pattern, the same client half name, the same test): a bandwidth below
 * SP_MX_OUTLIER_FRACTION of the kind's median, or a one-way p50 above the
 * median divided by it. Half of the median is what a throttled half (a
 * degraded ConnectX-7 link, PCIe trained down, a shaper) falls below, and
 * what run-to-run noise of a healthy link does not reach.
 */
#ifndef SPARKPERF_CTL_MXREPORT_H
#define SPARKPERF_CTL_MXREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "mxmodel.h"

#define SP_MX_OUTLIER_FRACTION 0.5

enum sp_mx_metric {
	SP_MX_BW,			/* Gbit/s */
	SP_MX_P50,			/* one-way p50, us */
	SP_MX_P99,			/* one-way p99, us */
};

struct sp_mx_outlier {
	size_t result;			/* index into the document's results */
	enum sp_mx_metric metric;	/* SP_MX_BW or SP_MX_P50 */
	double value, median;
};

struct sp_mx_outliers {
	struct sp_mx_outlier *v;
	size_t n, cap;
};

/* The document's outliers, in the order of its results. 0 or -ENOMEM. */
int sp_mx_find_outliers(const struct sp_mx_doc *d, struct sp_mx_outliers *out);
void sp_mx_outliers_free(struct sp_mx_outliers *o);

/* A result's value of a metric; false when it has none. */
bool sp_mx_metric_value(const struct sp_mx_result *r, enum sp_mx_metric m, double *v);

/*
 * The result of the pairs rounds from client (its half named half) to
 * server, or its failed probe; NULL when there is none.
 */
const struct sp_mx_result *sp_mx_pair_result(const struct sp_mx_doc *d, size_t client,
					     const char *half, size_t server);

/* The distinct names of the hosts' halves, in order: names[] gets at most max. */
size_t sp_mx_half_names(const struct sp_mx_doc *d, const char **names, size_t max);

/* ---- output (reporttext.c, reportjson.c) ---------------------------------------- */

/* The document as text through the output layer. 0 or -ENOMEM. */
int sp_mx_print_text(const struct sp_mx_doc *d);

/* A row per result, with a header, to f. 0 or -errno. */
int sp_mx_write_csv(const struct sp_mx_doc *d, FILE *f);

/* The document as JSON (outliers included); NULL when out of memory. */
json_object *sp_mx_doc_json(const struct sp_mx_doc *d);

/*
 * The document from its JSON text (sp_mx_doc_json()'s), topology
 * recomputed. -EINVAL with one line in err, -ENOMEM.
 */
int sp_mx_doc_parse(const char *text, struct sp_mx_doc *d, char *err, size_t len);

#endif
