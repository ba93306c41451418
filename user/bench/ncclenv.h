/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "nccl env" (and "bench nccl env"): the NCCL environment of this host and
 * its peers (ncclplan.h) as export lines, mpirun -x options or JSON; and
 * what "bench nccl" sets from it when no hca is given. A peer's halves come
 * from "sparkperf-ctl -j dev" run there over ssh, as bench starts servers,
 * or from its -j dev or -j check output in a file.
 */
#ifndef SPARKPERF_CTL_NCCLENV_H
#define SPARKPERF_CTL_NCCLENV_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/cmd.h"
#include "ncclplan.h"

/* nccl env [ peer HOST,... ] [ peer-file FILE,... ] [ format export|mpirun ] */
int sp_nccl_env_cmd(const struct sp_ctx *ctx, int argc, char **argv);

/* What bench nccl takes of the environment of its hosts. */
struct sp_nccl_auto {
	char hca[256];			/* NCCL_IB_HCA; "": none found, NCCL picks */
	char env[SP_NCCL_VARS][288];	/* the other NAME=VALUEs, but NCCL_SOCKET_IFNAME */
	const char *env_ptr[SP_NCCL_VARS];	/* each of env, for sp_bench_nccl_opts */
	size_t n_env;
	char source[512];		/* where they came from, for the document */
};

/*
 * The environment of hosts (mpirun -H's words, HOST[:SLOTS]): this host's
 * halves and those of the others over ssh (not in a dry run). 0 (a
 * module that is not loaded just leaves NCCL to pick), or -errno with one
 * line in err: a peer that could not be read, or hosts whose environments
 * differ (mpirun -x gives every rank one value).
 */
int sp_nccl_auto(const char *const *hosts, size_t n_hosts, bool dry_run, struct sp_nccl_auto *a,
		 char *err, size_t len);

#endif
