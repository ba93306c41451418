// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/resource.h>

#include "host.h"

size_t sp_subnets_shared(const struct sp_ifaddr *a, size_t n, bool *shared, char *what,
			 size_t len)
{
	char net[INET_ADDRSTRLEN];
	size_t i, j, marked = 0;

	if (len)
		what[0] = '\0';
	for (i = 0; i < n; i++)
		shared[i] = false;
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			uint8_t p = a[i].prefix < a[j].prefix ? a[i].prefix : a[j].prefix;
			uint32_t m = sp_prefix_mask(p);
			struct in_addr base;

			if (!strcmp(a[i].dev, a[j].dev) ||
			    ((ntohl(a[i].addr.s_addr) ^ ntohl(a[j].addr.s_addr)) & m))
				continue;
			if (len && !what[0]) {
				base.s_addr = htonl(ntohl(a[i].addr.s_addr) & m);
				inet_ntop(AF_INET, &base, net, sizeof(net));
				snprintf(what, len, "%s and %s share %s/%u", a[i].dev, a[j].dev,
					 net, p);
			}
			marked += !shared[i] + !shared[j];
			shared[i] = shared[j] = true;
		}
	}
	return marked;
}

int sp_host_memlock(uint64_t *bytes)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_MEMLOCK, &r))
		return -errno;
	*bytes = r.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)r.rlim_cur;
	return 0;
}
