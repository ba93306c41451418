/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What counters, trace, watch and "lat/bw run ... trace on" share: devices
 * named by the user mapped to trace targets (an RDMA device brings its
 * port's netdev, a netdev the RDMA device whose port uses it), the default
 * counter globs, the check that every glob the user gave matched something,
 * and a running trace followed on the "trace" group (with the catch-up dump
 * after lost messages) into a struct sp_tracelog.
 */
#ifndef SPARKPERF_CTL_TRACERUN_H
#define SPARKPERF_CTL_TRACERUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "nl.h"
#include "parse.h"
#include "tracenl.h"
#include "tracelog.h"

/* One port the user named: its netdev and/or its RDMA device port. */
struct sp_port_pair {
	bool has_netdev;
	char netdev[SP_IFNAME_MAX];
	bool has_rdma;
	char rdma[SPARKPERF_DEV_NAME_MAX];
	uint32_t port;
	uint32_t rate_mbps;		/* the RDMA port's rate; 0: unknown */
};

/*
 * Pure: name as an RDMA device of devs (one pair per port of it) or as the
 * netdev of a port (else a netdev alone), appended to pairs[*n] (at most
 * max). A pair already there is not added twice. -ENOSPC beyond max.
 */
int sp_port_pairs_add(const struct sp_dev_list *devs, const char *name,
		      struct sp_port_pair *pairs, size_t max, size_t *n);

/* Pure: "NETDEV (RDMA)", "NETDEV" or "RDMA/PORT", as watch and warnings name a port. */
void sp_port_pair_label(const struct sp_port_pair *p, char *buf, size_t size);

/* Pure: the targets of the pairs (netdev, then RDMA port), -ENOSPC beyond max. */
int sp_port_pairs_targets(const struct sp_port_pair *pairs, size_t n,
			  struct sp_trace_target *targets, size_t max, size_t *n_targets);

/* The globs of a trace without "counters": netdev and rdma all, ethtool a useful set. */
extern const char *const sp_default_globs[];
extern const size_t sp_n_default_globs;

/* Pure: does glob ([SOURCE:]PATTERN) select name of source? */
bool sp_glob_matches(const char *glob, unsigned int source, const char *name);

/*
 * The user's globs (object's "counters" list) into globs, at most
 * SPARKPERF_TRACE_GLOBS_MAX, each valid; else a usage error. An exit status.
 */
int sp_globs_take(const char *object, const struct sp_list *list, const char **globs);

/* Pure: the index of the first glob that matches no name of the streams; -1: none. */
long sp_glob_unmatched(const struct sp_stream *streams, size_t n, const char *const *globs,
		       size_t n_globs);

/* Pure: a glob the module will take: [SOURCE:]PATTERN of [A-Za-z0-9_.*?![]-], "[" closed. */
bool sp_glob_valid(const char *glob);

/*
 * "dev DEV[,DEV...]" into names, before anything is asked of the kernel:
 * a usage error for a bad name, an empty item or one given twice. An exit
 * status; free names with sp_list_free() either way.
 */
struct sp_list;
int sp_port_names_parse(const char *object, const char *list, struct sp_list *names);

/*
 * A DEV_GET dump and the pairs of the names; usage errors (too many) and
 * kernel errors reported (object, cmd). An exit status.
 */
int sp_port_pairs_resolve(struct sp_nl *nl, const char *object, const char *cmd,
			  const struct sp_list *names, struct sp_port_pair *pairs, size_t max,
			  size_t *n);

/* A trace being followed. */
struct sp_tracerun {
	struct sp_nl nl;		/* owns the trace: closing it ends the trace */
	struct sp_tracelog tl;
	const char *object, *cmd;	/* for messages */
	bool open, started, ended;
	bool no_target;			/* sp_tracerun_for_run: nothing to trace */
	bool listen;			/* the "trace" group joined */
	unsigned int batches;		/* batches received */
	uint64_t catch_ups;		/* catch-up dumps after lost messages */
};

/*
 * Opens the socket, joins the group when listen (errors reported, also
 * EPERM), starts the trace and checks the user's globs (user_globs: those
 * to check; a glob that matched nothing is an error naming it and the
 * trace is stopped). keep: keep every sample. An exit status.
 */
int sp_tracerun_start(struct sp_tracerun *r, const char *object, const char *cmd,
		      const struct sp_trace_config *cfg, const char *const *user_globs,
		      size_t n_user_globs, bool keep, bool listen);

/* Reads what the group has pending: 0, or -errno (reported by the caller). */
int sp_tracerun_recv(struct sp_tracerun *r);
int sp_tracerun_fd(const struct sp_tracerun *r);

/*
 * Reads what the ring holds beyond the samples received (a dump from the
 * next sequence number), so that a long trace followed without the group
 * loses nothing to the ring's overrun. 0 or -errno; nl.err says more.
 */
int sp_tracerun_drain(struct sp_tracerun *r);

/*
 * Ends the trace (STOP unless it ended), reads every sample not yet
 * received (the dump from the next sequence number) and the final
 * statistics (TRACE_GET). 0 or -errno; nl.err says more.
 */
int sp_tracerun_finish(struct sp_tracerun *r);
void sp_tracerun_close(struct sp_tracerun *r);

/* When the trace failed (its device went away): says why on stderr, true. */
bool sp_tracerun_failed(const struct sp_tracerun *r);

/*
 * "lat run ... trace on", "bw run ... trace on", "bench ... trace": a trace
 * of the ports of names (RDMA devices or netdevs, as sp_port_pairs_add()
 * maps them with the module's device list), else of the RDMA devices whose
 * netdevs route to peers, else (all) of every RDMA port; every source every
 * 10 ms, the default globs, read back from the ring (no group). Nothing is
 * reported but the ports beyond a trace's capacity, named in a warning on
 * stderr: 0, or -errno with r->open false when the socket could not be
 * opened (-ENOENT: the module is missing), r->no_target when there was
 * nothing to trace (-ENODEV), else the kernel's answer in r->nl.err (-EPERM
 * without CAP_NET_ADMIN). cmd names the command in messages.
 */
#define SP_RUN_TRACE_PERIOD_US 10000
#define SP_RUN_TRACE_BUFFER (32 << 20)

int sp_tracerun_for_run(struct sp_tracerun *r, const char *object, const char *cmd,
			const char *const *names, size_t n_names, const struct sp_addr *peers,
			size_t n_peers, bool all);

/* The traces of the runs of one "lat run" or "bw run", one per message size. */
struct sp_run_traces {
	bool on;
	struct sp_tracerun *runs;
	const struct sp_tracelog **logs;	/* logs[i]: run i's, NULL if none */
	uint64_t *sizes;
	size_t n;
};

/* Room for max runs when on; an exit status. */
int sp_run_traces_init(struct sp_run_traces *rt, bool on, size_t max);
/* Before a run of size bytes: its trace (nothing when off); an exit status. */
int sp_run_traces_begin(struct sp_run_traces *rt, const char *object, uint64_t size,
			const struct sp_addr *peers, size_t n_peers,
			const char (*devs)[SPARKPERF_DEV_NAME_MAX], size_t n_devs);
/* After it: the trace stopped and read back (errors reported: then no log). */
void sp_run_traces_end(struct sp_run_traces *rt, const char *object);
/* The text sections, one per run (stdout, via print.c). */
void sp_run_traces_print(const struct sp_run_traces *rt);
void sp_run_traces_free(struct sp_run_traces *rt);

/* "trace on|off" of lat run and bw run: true, false, or -EINVAL. */
int sp_parse_on_off(const char *s, bool *on);

#endif
