/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IPv4 addresses of the running host's netdevs (getifaddrs(3)) and
 * their subnets: what check (host/) and the NCCL environment (bench/) read
 * of the halves' networks.
 */
#ifndef SPARKPERF_CTL_LIB_IFADDR_H
#define SPARKPERF_CTL_LIB_IFADDR_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "model.h"

struct sp_ifaddr {
	char dev[SP_IFNAME_MAX];
	struct in_addr addr;
	uint8_t prefix;			/* 0..32 */
};

/* The IPv4 addresses of every netdev but the loopback ones; free() *out. */
int sp_host_ifaddrs(struct sp_ifaddr **out, size_t *n);

/* The netmask of a prefix length, host byte order: 24 -> 0xffffff00. */
uint32_t sp_prefix_mask(uint8_t prefix);

#endif
