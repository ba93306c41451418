/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts about the running host that tune and check share and that no file
 * under a root directory holds: its IPv4 addresses (getifaddrs(3)), which of
 * them share a subnet, and this session's memlock limit.
 */
#ifndef SPARKPERF_CTL_HOST_H
#define SPARKPERF_CTL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "lib/model.h"

struct sp_ifaddr {
	char dev[SP_IFNAME_MAX];
	struct in_addr addr;
	uint8_t prefix;			/* 0..32 */
};

/* The IPv4 addresses of every netdev but the loopback ones; free() *out. */
int sp_host_ifaddrs(struct sp_ifaddr **out, size_t *n);

/*
 * Marks in shared[] (n entries) the addresses whose subnet overlaps one of
 * another netdev, and describes the first such pair in what ("eth0 and eth1
 * share 192.168.200.0/24"). Returns how many are marked.
 */
size_t sp_subnets_shared(const struct sp_ifaddr *a, size_t n, bool *shared, char *what,
			 size_t len);

/* This process's RLIMIT_MEMLOCK (soft) in bytes, UINT64_MAX for unlimited. */
int sp_host_memlock(uint64_t *bytes);

#endif
