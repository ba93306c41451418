/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cabling of the hosts, from which of their halves reached which
 * (the probes' links): switched, when one subnet holds every host and
 * each reaches each; direct, two hosts cabled to each other; a triangle,
 * three hosts each cabled to both others (no common subnet), where a cable
 * that joins the same port on both ends (p0 to p0) is the known mistake,
 * named with its hosts: a triangle's cables must cross p0 to p1; a ring,
 * four hosts or more each reaching exactly its two neighbours, one
 * cycle, where the others are "no direct path", not failures; mixed,
 * anything else.
 */
#ifndef SPARKPERF_CTL_MXTOPOLOGY_H
#define SPARKPERF_CTL_MXTOPOLOGY_H

#include <stddef.h>

#include "mxmodel.h"

/* Fills d->topo from d->hosts and d->links. */
void sp_mx_topology(struct sp_mx_doc *d);

/*
 * The candidate links of the hosts: every pair of halves of two hosts
 * that share a subnet, in both directions, into d->links (replacing
 * what it held). 0 or -ENOMEM.
 */
int sp_mx_candidates(struct sp_mx_doc *d);

#endif
