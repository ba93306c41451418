/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The jumbo path probe of "check": ICMP echo requests with the don't
 * fragment bit (IP_PMTUDISC_DO) that fill a whole frame, sent from one
 * netdev. A reply that comes back in fragments (IP_RECVFRAGSIZE) tells
 * that the peer's side of the path has a smaller MTU, even where its NIC
 * accepts the large request, as a virtio NIC does.
 */
#ifndef SPARKPERF_CTL_PROBE_H
#define SPARKPERF_CTL_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

struct sp_probe {
	bool replied;
	double rtt_ms;
	uint32_t frag_max;	/* the largest fragment of the reply; 0: it came whole */
	int send_error;		/* errno of the send: EMSGSIZE past the route's MTU */
	uint32_t frag_needed;	/* a router's "fragmentation needed" next-hop MTU; 0: none */
};

/*
 * Sends up to tries echo requests of payload bytes (the IPv4 frame is
 * payload + 28 bytes) to peer from dev (NULL: as routed), waiting
 * timeout_ms for each reply. 0 with the outcome in *p, or -errno when no
 * ICMP socket could be made (EACCES/EPERM: neither a ping socket nor
 * CAP_NET_RAW).
 */
int sp_probe_echo(const struct in_addr *peer, const char *dev, size_t payload,
		  unsigned int tries, unsigned int timeout_ms, struct sp_probe *p);

#endif
