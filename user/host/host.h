/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts about the running host that tune and check share and that no file
 * under a root directory holds: which of its IPv4 addresses (lib/ifaddr.h)
 * share a subnet, its netdevs' drivers, and this session's memlock limit.
 */
#ifndef SPARKPERF_CTL_HOST_H
#define SPARKPERF_CTL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "lib/ifaddr.h"

/*
 * Marks in shared[] (n entries) the addresses whose subnet overlaps one of
 * another netdev, and describes the first such pair in what ("eth0 and eth1
 * share 192.168.200.0/24"). Returns how many are marked.
 */
size_t sp_subnets_shared(const struct sp_ifaddr *a, size_t n, bool *shared, char *what,
			 size_t len);

struct sp_drvinfo;

/* ethtool -i of a netdev (the SIOCETHTOOL ioctl's ETHTOOL_GDRVINFO). */
int sp_host_drvinfo(const char *netdev, struct sp_drvinfo *out);

/* This process's RLIMIT_MEMLOCK (soft) in bytes, UINT64_MAX for unlimited. */
int sp_host_memlock(uint64_t *bytes);

#endif
