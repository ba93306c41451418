/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matrix worker: what each rank of sparkperf-matrix does, one rank per
 * host under mpirun or srun. Every rank reads its halves and makes sure a
 * sparkperf server runs; rank 0 gathers the halves, probes every pair of
 * halves that share a subnet (a short lat run), classifies the cabling and
 * schedules the rounds; each round goes to every rank, whose clients run
 * their tests as sparkperf-ctl's own lat and bw runs, and the results come
 * back to rank 0, which prints progress on stderr and the document (JSON)
 * on stdout. The ranks talk only through sp_mx_comm: MPI in
 * sparkperf-matrix.c, the one file that includes mpi.h.
 */
#ifndef SPARKPERF_CTL_MXWORKER_H
#define SPARKPERF_CTL_MXWORKER_H

#include <stddef.h>
#include <stdio.h>

#include "mxmodel.h"

struct sp_mx_comm {
	int rank, size;
	/* every rank's len bytes into all, in rank order */
	int (*allgather)(struct sp_mx_comm *c, const void *mine, void *all, size_t len);
	/* rank 0's len bytes of buf to every rank */
	int (*bcast)(struct sp_mx_comm *c, void *buf, size_t len);
	/* every rank's len bytes into rank 0's all, in rank order */
	int (*gather)(struct sp_mx_comm *c, const void *mine, void *all, size_t len);
	int (*barrier)(struct sp_mx_comm *c);
};

struct sp_mx_worker_cfg {
	struct sp_mx_config run;
	char ctl[4096];			/* sparkperf-ctl: the one beside sparkperf-matrix */
	/* this rank's host and halves; NULL: this host's (the tests give theirs) */
	void (*discover)(struct sp_mx_host *me, int rank);
};

/*
 * The worker's arguments: the test keywords (mxargs.h) and "ctl PATH".
 * 0, or -EINVAL with one line in err.
 */
int sp_mx_worker_args(int argc, char **argv, struct sp_mx_worker_cfg *cfg, char *err, size_t len);

/* The worker's usage, for its help and its errors. */
extern const char sp_mx_worker_usage[];

/*
 * The whole run on one rank (every rank calls it); rank 0 writes progress
 * to progress and the document to out. 0 when the document was written
 * (failures are in it), 1 when the run broke (the ranks' messages).
 */
int sp_mx_worker_run(struct sp_mx_comm *c, const struct sp_mx_worker_cfg *cfg, FILE *out,
		     FILE *progress);

#endif
