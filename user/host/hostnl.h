/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's rtnetlink requests for tune and check: a netdev's DCB (PFC and
 * the DSCP to priority APP entries) and its neighbour entries. Builders and
 * parsers for the unit tests, transactions on a socket of sp_rtnl_open().
 */
#ifndef SPARKPERF_CTL_HOSTNL_H
#define SPARKPERF_CTL_HOSTNL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/dcbnl.h>

#include "lib/nl.h"

/* DSCP to priority APP entries of a netdev (IEEE 802.1Qaz, selector DSCP). */
#define SP_DSCP_COUNT 64

struct sp_dscp_map {
	bool has[SP_DSCP_COUNT];
	uint8_t prio[SP_DSCP_COUNT];
};

/* The DCB state of a netdev that has DCB (DCB_CMD_IEEE_GET). */
struct sp_dcb {
	bool has_pfc;
	struct ieee_pfc pfc;		/* as the driver reports it, for a SET */
	struct sp_dscp_map dscp;
};

/* A neighbour (ARP) entry. */
#define SP_LLADDR_MAX 32

struct sp_neigh {
	uint16_t state;			/* NUD_* */
	uint8_t lladdr_len;
	uint8_t lladdr[SP_LLADDR_MAX];
};

/* DCB_CMD_IEEE_GET of dev. */
int sp_nl_dcb_get_msg(const char *dev, struct nl_msg **out);
/*
 * DCB_CMD_IEEE_SET (del false) with the PFC object when pfc is not NULL and
 * the DSCP APP entries of dscp; DCB_CMD_IEEE_DEL (del true) of the entries.
 */
int sp_nl_dcb_set_msg(const char *dev, bool del, const struct ieee_pfc *pfc,
		      const struct sp_dscp_map *dscp, struct nl_msg **out);
int sp_nl_parse_dcb(struct nlmsghdr *nlh, struct sp_dcb *dcb, const char **why);
/* The driver's status in a SET or DEL reply: 0 or a negative errno. */
int sp_nl_parse_dcb_status(struct nlmsghdr *nlh, int *status, const char **why);
/* -EOPNOTSUPP when dev has no DCB (a virtual NIC). */
int sp_nl_dcb_get(struct sp_nl *rt, const char *dev, struct sp_dcb *dcb);
int sp_nl_dcb_set(struct sp_nl *rt, const char *dev, bool del, const struct ieee_pfc *pfc,
		  const struct sp_dscp_map *dscp);

/* The neighbour table of one address family (a dump). */
int sp_nl_neigh_dump_msg(uint8_t family, struct nl_msg **out);
int sp_nl_parse_neigh(struct nlmsghdr *nlh, uint32_t *ifindex, struct sp_addr *dst,
		      struct sp_neigh *n, const char **why);
/* The entry of dst on ifindex; -ENOENT when there is none. */
int sp_nl_neigh_get(struct sp_nl *rt, uint32_t ifindex, const struct sp_addr *dst,
		    struct sp_neigh *n);

#endif
