/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NCCL environment of a set of hosts, from their halves (lib/halves.h),
 * as "nccl env" prints it and "bench nccl" sets it when no hca is given:
 *
 *   NCCL_IB_HCA		every connected half (ACTIVE, with an IPv4 RoCE v2
 *				GID), ordered so that position i is on one subnet on
 *				every host: NCCL pairs the HCAs of two ranks by their
 *				position in the list, not by name;
 *   NCCL_SOCKET_IFNAME		the netdev of the first half;
 *   NCCL_IB_GID_INDEX		only when one index holds for every half of every
 *				host (else a comment: leave it unset, with the
 *				indexes found);
 *   NCCL_IB_MERGE_NICS		1 where two halves of a host share a physical port;
 *   NCCL_IB_SUBNET_AWARE_ROUTING  1 for ring cabling: more than two hosts, and
 *				a subnet that not every host is on.
 *
 * Pure: no I/O.
 */
#ifndef SPARKPERF_CTL_NCCLPLAN_H
#define SPARKPERF_CTL_NCCLPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/halves.h"

#define SP_NCCL_VARS 5

/* A variable of a host's environment: set (value), or left unset with a comment why. */
struct sp_nccl_var {
	const char *name;		/* "NCCL_IB_HCA" */
	bool set;
	char value[256];
	char comment[512];		/* "": none */
};

struct sp_nccl_host {
	const struct sp_halves *halves;
	size_t *order;			/* indexes into halves->v, in NCCL_IB_HCA's order */
	struct in_addr *subnet;		/* the subnet of each, as order */
	uint8_t *prefix;
	size_t n;
	struct sp_nccl_var vars[SP_NCCL_VARS];
	size_t n_vars;
};

struct sp_nccl_plan {
	struct sp_nccl_host *hosts;
	size_t n;
	bool ring;
	bool gid_stable;		/* one index on every listed half: gid_index */
	uint32_t gid_index;
	char **notes;			/* what was left out or assumed, and why */
	size_t n_notes;
};

/* The plan of n hosts, the first this one. 0 or -ENOMEM (plan then empty). */
int sp_nccl_plan_make(const struct sp_halves *hosts, size_t n, struct sp_nccl_plan *plan);
void sp_nccl_plan_free(struct sp_nccl_plan *plan);

/* A host's variable, NULL when it has none of that name. */
const struct sp_nccl_var *sp_nccl_var(const struct sp_nccl_host *h, const char *name);

/* Do two hosts get the same variables, values and comments (mpirun -x can give them)? */
bool sp_nccl_hosts_alike(const struct sp_nccl_host *a, const struct sp_nccl_host *b);

#endif
