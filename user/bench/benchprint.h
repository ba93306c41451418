/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printer of a bench's document (benchrun.h's sp_bench_doc): its JSON
 * (benchjson.c) and its text (benchtext.c), which add its results up alike.
 */
#ifndef SPARKPERF_CTL_BENCHPRINT_H
#define SPARKPERF_CTL_BENCHPRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "benchrun.h"

/*
 * The document of a bench run, or of bench parse: JSON, one object; text,
 * the commands with how they ended, a line or a table per result, the
 * counters that moved (the kernel trace's report as lat and bw print it, or
 * the sysfs snapshots; JSON: "counters_source", "trace", "counters"), the
 * problems and the verdict. A dry run: the command lines alone (JSON: the
 * document without results).
 */
int sp_print_bench(const struct sp_bench_doc *doc);
/* The JSON document alone. */
int sp_print_bench_json(const struct sp_bench_doc *doc);

/*
 * What the results add up to: the rates of pairs or clients that ran side
 * by side (perftest BW, iperf3), or the best nccl-tests run (a sweep).
 */
struct sp_bench_sum {
	bool valid;
	double gbit_per_s;		/* the sum */
	size_t parts;
	const struct sp_bench_result *best;	/* nccl */
	struct sp_nccl_summary best_s;
};

void sp_bench_add_up(const struct sp_bench_doc *doc, struct sp_bench_sum *s);

#endif
