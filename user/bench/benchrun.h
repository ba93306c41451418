/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running what benchcmd.h built: fork/exec of each argv (no shell), stdout
 * and stderr to files of an output directory, stdin from /dev/null, each in
 * a process group of its own (stopped as a group), a deadline per phase;
 * and the counters of the devices involved, read from sysfs before and
 * after ("bench ... trace" without the module's sampler). The record of a
 * whole bench, the document that benchprint.h prints, is here too.
 */
#ifndef SPARKPERF_CTL_BENCHRUN_H
#define SPARKPERF_CTL_BENCHRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "benchcmd.h"
#include "benchparse.h"
#include "lib/print.h"
#include "lib/traceprint.h"
#include "lib/run.h"

struct sp_tracelog;

/* How long a server may take to print its banner. */
#define SP_BENCH_READY_MS 30000
/* How long servers may take to end after their clients did. */
#define SP_BENCH_SERVER_GRACE_MS 10000
/* Between SIGTERM and SIGKILL. */
#define SP_BENCH_KILL_GRACE_MS 3000

/* ---- the output directory and its files (benchfile.c) ---------------------------- */

/* dir/name into buf[PATH_MAX]; dir NULL: name is the path. */
void sp_bench_join(char *buf, const char *dir, const char *name);

/*
 * Can want be an output directory: missing, or a directory that holds
 * nothing (force: anything, its files are overwritten)? 0; -ENOTDIR: it is
 * not a directory; -ENOTEMPTY: it holds files; -errno of stat(). Nothing
 * is made.
 */
int sp_bench_outdir_check(const char *want, bool force);
/*
 * want: that directory, created if missing (its parent must exist); NULL: a
 * new /tmp/sparkperf-bench-XXXXXX. The absolute path into path. 0 or -errno.
 */
int sp_bench_outdir(const char *want, char *path, size_t len);

/* A result file larger than this is not one. */
#define SP_BENCH_FILE_MAX (64 << 20)

/*
 * dir/name (dir NULL: the path name), whole (up to SP_BENCH_FILE_MAX),
 * NUL-terminated; NULL if it cannot be read, errno saying why (EFBIG: it is
 * larger).
 */
char *sp_bench_read_file(const char *dir, const char *name);
/* The same of what is left of a stream (standard input). */
char *sp_bench_read_stream(FILE *f);

/* dir/name with these contents. 0 or -errno. */
int sp_bench_write_file(const char *dir, const char *name, const char *text);

/* ---- running ---------------------------------------------------------------------- */

struct sp_bench_run_cfg {
	const char *dir;		/* the output directory */
	int64_t timeout_ms;		/* per group of clients, per step */
	struct sp_run_sig *sig;		/* SIGINT/SIGTERM stop the run */
	void (*tick)(void *arg);	/* NULL, or called every poll (50 ms) while commands run */
	void *tick_arg;
};

/*
 * Runs cmds: the servers (started, then their banners awaited), the clients
 * together, the servers' ends; or the steps one after another, up to the
 * first that fails. Manual commands are not run. Each command's x records
 * how it ended; what went wrong with the run itself (a program that could
 * not be started, a deadline, a server never ready, a signal) is added to v.
 * 0 or -ENOMEM.
 */
int sp_bench_run(struct sp_bench_cmds *cmds, const struct sp_bench_run_cfg *cfg,
		 struct sp_bench_verdict *v);

/* ---- counters ---------------------------------------------------------------------- */

struct sp_bench_counter {
	char *name;			/* "tx_bytes", "hw_counters/sent_pkts", "counters/port_xmit_data" */
	uint64_t before, after;
	bool valid;			/* read both times */
};

struct sp_bench_counter_set {
	const char *kind;		/* "netdev", "rdma" */
	char *dev;
	unsigned int port;		/* rdma */
	char *netdev;			/* rdma: the netdev of its first GID, NULL: none */
	struct sp_bench_counter *c;
	size_t n;
};

struct sp_bench_counters {
	const char *source;		/* "sysfs snapshot" */
	uint64_t start_ns, end_ns;
	struct sp_bench_counter_set *sets;
	size_t n;
};

/*
 * Reads, under root ("/sys"; tests give another), the statistics of the
 * netdevs and every port of the RDMA devices (counters/ and hw_counters/).
 * Devices that do not exist are left out. 0 or -ENOMEM.
 */
int sp_bench_counters_begin(struct sp_bench_counters *c, const char *root,
			    const char *const *netdevs, size_t n_netdevs,
			    const char *const *rdma_devs, size_t n_rdma);
/* The second reading. */
void sp_bench_counters_end(struct sp_bench_counters *c, const char *root);
void sp_bench_counters_free(struct sp_bench_counters *c);

/* after - before, when both were read and it did not go back (a reset): false otherwise. */
bool sp_bench_counter_delta(const struct sp_bench_counter *k, uint64_t *delta);
/* IB's port_xmit_data and port_rcv_data count 4-byte words. */
uint64_t sp_bench_counter_scale(const char *name);
/* Does the counter count bytes (or words of them)? Those are shown as Gbit/s too. */
bool sp_bench_counter_is_bytes(const char *name);
/* Seconds between the two readings; 0 before the second. */
double sp_bench_counters_interval_s(const struct sp_bench_counters *c);
/* bytes in secs as Gbit/s (10^9 bit/s). */
double sp_bench_gbit_per_s(uint64_t bytes, double secs);

/* The netdev that carries the route to addr (numeric IPv4 or IPv6); 0 or -errno. */
int sp_bench_route_netdev(const char *addr, char *ifname, size_t len);
/* The netdev of port 1 of an RDMA device, under root; 0 or -ENOENT. */
int sp_bench_rdma_netdev(const char *root, const char *dev, char *ifname, size_t len);
/* The RDMA devices on a netdev, under root, into a list; 0 or -ENOMEM. */
int sp_bench_netdev_rdma(const char *root, const char *netdev, struct sp_bench_lines *out);
/*
 * The RDMA devices NCCL_IB_HCA names (prefixes; "=" exact, "^" excludes,
 * ":port" ignored); NULL or "": all. 0 or -ENOMEM.
 */
int sp_bench_hca_devs(const char *root, const char *hca, struct sp_bench_lines *out);

/* ---- the document -------------------------------------------------------------------- */

struct sp_bench_doc {
	const char *bench;		/* "perftest", ... "llama", or "parse" */
	bool dry_run;
	const struct sp_env *env;
	char **args;			/* the words after the bench's name */
	size_t n_args;
	const char *out_dir;		/* NULL: nothing was written */
	/* a file written there before the commands run (trtllm's config), NULL: none */
	const char *file_name, *file_text;
	const char *hca_source;		/* bench nccl: where NCCL_IB_HCA came from; NULL */
	const char *input;		/* bench parse: the file */
	int input_exit;			/* its exit status, SP_BENCH_EXIT_UNKNOWN */
	struct sp_bench_cmds *cmds;	/* NULL: none */
	struct sp_bench_result *results;
	size_t n_results;
	struct sp_bench_verdict verdict;	/* problems filed under their result */
	/* trace: the kernel's trace, else the sysfs snapshots; both NULL: not asked */
	const struct sp_tracelog *trace;
	struct sp_bench_counters *counters;
};

#endif
