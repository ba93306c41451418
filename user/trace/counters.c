// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl counters: one read of every counter of a port, now, from the
 * three sources the module samples (netdev stats64, ethtool -S, the RDMA
 * port's hardware counters). Unprivileged, like "ethtool -S".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/tracenl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "lib/traceprint.h"
#include "lib/tracerun.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char counters_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] counters [ show ] dev DEV[,DEV...]\n"
	"               [ counters GLOB[,GLOB...] ] [ nonzero ]\n"
	"       sparkperf-ctl counters help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       DEV := a netdev or an RDMA device: an RDMA device brings its ports'\n"
	"              netdevs, a netdev the RDMA device port that uses it\n"
	"       GLOB := [SOURCE:]PATTERN, SOURCE := { netdev | ethtool | rdma }, PATTERN\n"
	"               with * ? [a-z] [!a-z] (\"ethtool:*_bytes_phy\", \"*pause*\")\n"
	"       nonzero: leave out every counter that is 0\n"
	"Sources: netdev = dev_get_stats() (on mlx5 without RDMA traffic), ethtool =\n"
	"\"ethtool -S\", rdma = the port's hardware counters.\n";

static bool stream_nonzero(const struct sp_stream *st)
{
	size_t i;

	for (i = 0; i < st->n_values; i++)
		if (st->values[i])
			return true;
	return false;
}

/* A stream's reading: its head, when it was read and "counters": {name: value}. */
static json_object *json_counters(const struct sp_stream *st, bool nonzero)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object();
	size_t k;

	if (!o || !c) {
		json_object_put(o);
		json_object_put(c);
		return NULL;
	}
	sp_json_stream_head(o, st);
	sp_json_add(o, "ts_ns", st->has_ts ? sp_json_u64(st->ts_ns) : NULL);
	sp_json_add(o, "read_ns", st->has_ts ? json_object_new_int64(st->read_ns) : NULL);
	for (k = 0; k < st->n_values && k < st->n_names; k++)
		if (!nonzero || st->values[k])
			sp_json_add(c, st->names[k], sp_json_u64(st->values[k]));
	sp_json_add(o, "counters", c);
	return o;
}

static json_object *json_counters_item(const void *streams, size_t i)
{
	return json_counters(&((const struct sp_stream *)streams)[i], false);
}

static json_object *json_nonzero_item(const void *streams, size_t i)
{
	return json_counters(&((const struct sp_stream *)streams)[i], true);
}

/*
 * counters show: SOURCE TARGET COUNTER VALUE UNIT, one line per counter
 * (nonzero: only those that are not 0); JSON, an array of one object per
 * stream whose "counters" object maps each name to its value.
 */
static int print_counters(const struct sp_stream *streams, size_t n, bool nonzero)
{
	char target[SP_TARGET_STRLEN];
	FILE *f = sp_print_file();
	size_t i, k, w = 7;

	if (sp_print_is_json())
		return sp_print_json(sp_json_array(streams, n, nonzero ? json_nonzero_item :
						   json_counters_item));
	for (i = 0; i < n; i++)
		for (k = 0; k < streams[i].n_names; k++)
			if (strlen(streams[i].names[k]) > w)
				w = strlen(streams[i].names[k]);
	fprintf(f, "%-8s %-16s %-*s %20s  %s\n", "SOURCE", "TARGET", (int)w, "COUNTER", "VALUE",
		"UNIT");
	for (i = 0; i < n; i++) {
		const struct sp_stream *st = &streams[i];

		if (nonzero && !stream_nonzero(st))
			continue;
		sp_fmt_stream_target(st, target, sizeof(target));
		for (k = 0; k < st->n_values && k < st->n_names; k++) {
			if (nonzero && !st->values[k])
				continue;
			fprintf(f, "%-8s %-16s %-*s %20" PRIu64 "  %s\n",
				sp_counter_source_str(st->source), target, (int)w, st->names[k],
				st->values[k], sp_counter_unit_word(sp_counter_unit(st->names[k])));
		}
	}
	return 0;
}

static int counters_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_port_pair pairs[SPARKPERF_TRACE_TARGETS_MAX];
	struct sp_trace_target targets[2 * SPARKPERF_TRACE_TARGETS_MAX];
	const char *globs[SPARKPERF_TRACE_GLOBS_MAX];
	struct sp_list glob_list = { 0 }, devs = { 0 };
	struct sp_stream_list all = { 0 };
	const char *dev = NULL;
	bool nonzero = false;
	struct sp_kv kv[] = {
		{ .key = "dev", .what = "device list", .type = SP_KV_STRING, .dst = &dev },
		{ .key = "counters", .what = "counter glob list", .type = SP_KV_LIST,
		  .dst = &glob_list },
		{ .key = "nonzero", .type = SP_KV_FLAG, .dst = &nonzero },
	};
	size_t n_pairs = 0, n_targets = 0, i, k;
	int rc = SP_EXIT_OK, ret;
	struct sp_nl nl;
	char err[256];
	long bad;

	(void)ctx;
	if (sp_help_requested(argc, argv, counters_usage))
		return SP_EXIT_OK;
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err))) {
		sp_list_free(&glob_list);
		return sp_usage_error("counters", "%s", err);
	}
	if (!dev) {
		sp_list_free(&glob_list);
		return sp_usage_error("counters", "Missing 'dev DEV[,DEV...]'");
	}
	rc = sp_globs_take("counters", &glob_list, globs);
	if (!rc)
		rc = sp_port_names_parse("counters", dev, &devs);
	if (rc)
		goto out;

	ret = sp_nl_open(&nl);
	if (ret) {
		rc = sp_report_open_error("counters", "show", ret, &nl.err);
		goto out;
	}
	rc = sp_port_pairs_resolve(&nl, "counters", "show", &devs, pairs, ARRAY_SIZE(pairs),
				   &n_pairs);
	if (!rc && sp_port_pairs_targets(pairs, n_pairs, targets, ARRAY_SIZE(targets),
					 &n_targets))
		rc = sp_usage_error("counters", "Too many devices");
	for (i = 0; !rc && i < n_targets; i++) {
		struct sp_stream_list one;

		ret = sp_nl_counters_get(&nl, &targets[i], globs, glob_list.n, &one);
		/*
		 * an RDMA port without hardware counters, or a target none of
		 * whose counters the globs select: nothing to show from it
		 * (a glob that selects nothing anywhere is reported below)
		 */
		if ((ret == -EOPNOTSUPP && targets[i].rdma) || (ret == -ENOENT && glob_list.n))
			continue;
		if (ret) {
			sp_report_nl_error(stderr, "counters", "show", ret, &nl.err);
			rc = SP_EXIT_ERROR;
			break;
		}
		for (k = 0; k < one.n && !ret; k++)
			ret = sp_stream_list_add(&all, &one.streams[k]);
		sp_stream_list_free(&one);
		if (ret) {
			sp_err(stderr, "%s", strerror(ENOMEM));
			rc = SP_EXIT_ERROR;
		}
	}
	sp_nl_close(&nl);
	if (!rc) {
		bad = sp_glob_unmatched(all.streams, all.n, globs, glob_list.n);
		if (bad >= 0) {
			sp_err(stderr, "the counter glob '%s' matches no counter of %s", globs[bad],
			       dev);
			rc = SP_EXIT_ERROR;
		}
	}
	if (!rc) {
		ret = print_counters(all.streams, all.n, nonzero);
		if (ret) {
			sp_report_nl_error(stderr, "counters", "show", ret, NULL);
			rc = SP_EXIT_ERROR;
		}
	}
	sp_stream_list_free(&all);
out:
	sp_list_free(&devs);
	sp_list_free(&glob_list);
	return rc;
}

static const struct sp_cmd counters_cmds[] = {
	{ "show", counters_show },
};

int sp_cmd_counters(const struct sp_ctx *ctx, int argc, char **argv)
{
	/* "counters dev X" is "counters show dev X": show is the only command */
	if (argc && strcmp(argv[0], "show") && !sp_is_help(argv[0]))
		return counters_show(ctx, argc, argv);
	return sp_cmd_dispatch(ctx, "counters", counters_cmds, ARRAY_SIZE(counters_cmds),
			       counters_usage, argc, argv);
}
