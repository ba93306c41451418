/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects and commands. Adding an object is one line in SP_OBJECTS below and
 * one file, <name>.c, that defines
 *
 *	int sp_cmd_<name>(const struct sp_ctx *ctx, int argc, char **argv);
 *
 * where argv[0] is the word after the object's name, and returns an exit
 * status (SP_EXIT_* in err.h). The Makefile builds every *.c it finds.
 */
#ifndef SPARKPERF_CTL_CMD_H
#define SPARKPERF_CTL_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct sp_ctx {
	bool json;
	bool pretty;
	bool trace;		/* --trace: "lat run" and "bw run" as with "trace on" */
};

/* X(name, one-line help), in the order "sparkperf-ctl help" lists them. */
#define SP_OBJECTS(X) \
	X(dev, "RDMA devices and ports: show, monitor") \
	X(server, "kernel servers for latency and bandwidth tests: show, start, stop") \
	X(lat, "latency sessions: show, run (round trip times, percentiles)") \
	X(bw, "bandwidth sessions: show, run, stop (Gbit/s, one or several links)") \
	X(counters, "one read of a port's counters: netdev stats64, ethtool, RDMA hw counters") \
	X(trace, "counter traces: record (kernel sampler, report, CSV/JSON), show, stop") \
	X(watch, "live TX/RX Gbit/s of ports, NOW and PEAK, from the port counters") \
	X(switch, "MikroTik switch ports (RouterOS API): show, plan, apply, verify") \
	X(tune, "host tuning: show, check, apply, revert (snapshot first, exact revert)") \
	X(check, "preflight doctor: ports, links, MTUs, GIDs, jumbo path to peers") \
	X(bench, "perftest, iperf3, nccl-tests, LLM benchmarks: run, parse, one JSON document") \
	X(nccl, "the NCCL environment of this host and its peers: env (HCAs paired by subnet)") \
	X(matrix, "pairwise latency and bandwidth of N hosts under mpirun: run, show (tables, heatmap)")

#define SP_DECLARE_OBJECT(name, help) \
	int sp_cmd_##name(const struct sp_ctx *ctx, int argc, char **argv);
SP_OBJECTS(SP_DECLARE_OBJECT)
#undef SP_DECLARE_OBJECT

/* An object's commands; the first entry is the default (run without a command). */
struct sp_cmd {
	const char *name;
	int (*fn)(const struct sp_ctx *ctx, int argc, char **argv);
};

/* "help", "-h" or "--help" */
bool sp_is_help(const char *arg);

/* When argv[0] asks for help: prints USAGE on stdout and returns true. */
bool sp_help_requested(int argc, char **argv, const char *usage);

/*
 * The start of a command that takes at most max_args words: prints USAGE for
 * help, reports "Unexpected argument" for the first word past max_args. True
 * when the command ends there, with *status its exit status.
 */
bool sp_no_more_args(const char *object, const char *usage, int max_args, int argc, char **argv,
		     int *status);

/*
 * The prologue of a command of keyword arguments: help, else kv filled from
 * argv (a usage error says what is wrong). True when the command ends
 * there, with *status its exit status.
 */
struct sp_kv;
bool sp_kv_args_end(const char *object, const char *usage, int argc, char **argv,
		    struct sp_kv *kv, size_t n, int *status);

/*
 * Runs the command named by argv[0] (argv then starts after it), the default
 * command when argc == 0, or prints usage on stdout for help. An unknown
 * command is a usage error.
 */
int sp_cmd_dispatch(const struct sp_ctx *ctx, const char *object,
		    const struct sp_cmd *cmds, size_t n_cmds, const char *usage,
		    int argc, char **argv);

/*
 * Defines sp_cmd_<name>(), the object's entry: sp_cmd_dispatch() over the
 * commands given as { "word", fn } rows, the first the default.
 */
#define SP_OBJECT_MAIN(name, usage, ...)						\
	int sp_cmd_##name(const struct sp_ctx *ctx, int argc, char **argv)		\
	{										\
		static const struct sp_cmd cmds[] = { __VA_ARGS__ };			\
											\
		return sp_cmd_dispatch(ctx, #name, cmds, sizeof(cmds) / sizeof(cmds[0]),	\
				       usage, argc, argv);				\
	}

#endif
