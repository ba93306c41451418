/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One bench from its commands to its document (benchexec.c): the output
 * directory, the devices traced and their counters (the module's trace,
 * else sysfs snapshots), the run, the parsed and judged results, the
 * printed document and the exit status. bench.c turns each bench's
 * arguments into a struct sp_bench and hands it over.
 */
#ifndef SPARKPERF_CTL_BENCHEXEC_H
#define SPARKPERF_CTL_BENCHEXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchcmd.h"
#include "benchparse.h"
#include "benchrun.h"

/* The options every bench takes. */
struct sp_bench_common {
	const char *out;
	uint32_t timeout_ms;
	bool force;			/* out DIR may hold files: they are overwritten */
	bool trace, dry_run;
};

/* The devices a bench traces: RDMA devices and netdevs, each once. */
struct sp_bench_devices {
	struct sp_bench_lines netdevs, rdma;
};

/* The RDMA device, and the netdev under it. 0 or -ENOMEM. */
int sp_bench_devices_add_rdma(struct sp_bench_devices *d, const char *dev);
/* The netdev of the route to addr, and the RDMA devices on it. 0 or -ENOMEM. */
int sp_bench_devices_add_route(struct sp_bench_devices *d, const char *addr);
int sp_bench_devices_add_netdev(struct sp_bench_devices *d, const char *netdev);

struct sp_bench {
	const char *name;
	struct sp_bench_common c;
	int64_t default_timeout_ms;
	struct sp_bench_cmds cmds;
	struct sp_bench_devices devs;	/* traced */
	/* how the results are judged */
	size_t hosts;
	double min_busbw;
	uint64_t requested;
	/* bench nccl: where NCCL_IB_HCA came from, for the document; NULL: not said */
	const char *hca_source;
	/* a file the commands read, written to the output directory first */
	const char *file_name, *file_text;
	char out_dir[4096];
};

/*
 * The output directory (dry-run: named, not made), refused (exit 2) when
 * it is not a directory, or holds files without force; an exit status.
 */
int sp_bench_prepare(struct sp_bench *b);
/* Builds (build's return: 0, -ENOMEM, -EINVAL), runs, prints, frees; an exit status. */
int sp_bench_finish(struct sp_bench *b, int built, int argc, char **argv);

/* The help of sparkperf-ctl bench (benchusage.c). */
extern const char sp_bench_usage[];

/* Parses text as the tool's output into r, and judges it. 0 or -ENOMEM. */
int sp_bench_parse_judge(struct sp_bench_result *r, const char *text, const char *json,
			 int exit_status, const struct sp_bench *b, enum sp_perftest_unit unit,
			 struct sp_bench_verdict *v);
/* Moves the problems of a judgement into the document's verdict, under result. */
int sp_bench_file_problems(struct sp_bench_doc *doc, struct sp_bench_verdict *v, int result);
/*
 * Prints the document, or the error (-errno) that kept it from being made,
 * and frees it; the exit status it earns.
 */
int sp_bench_end_doc(struct sp_bench_doc *doc, int error);

#endif
