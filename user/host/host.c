// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/resource.h>

#include "host.h"

static uint8_t mask_prefix(const struct sockaddr_in *mask)
{
	uint32_t m = ntohl(mask->sin_addr.s_addr);
	uint8_t n = 0;

	while (n < 32 && (m & (0x80000000u >> n)))
		n++;
	return n;
}

int sp_host_ifaddrs(struct sp_ifaddr **out, size_t *n)
{
	struct ifaddrs *list, *i;
	size_t count = 0, cap = 0;
	struct sp_ifaddr a;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (getifaddrs(&list))
		return -errno;
	for (i = list; i && !ret; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !i->ifa_netmask ||
		    (i->ifa_flags & IFF_LOOPBACK))
			continue;
		memset(&a, 0, sizeof(a));
		snprintf(a.dev, sizeof(a.dev), "%s", i->ifa_name);
		a.addr = ((const struct sockaddr_in *)i->ifa_addr)->sin_addr;
		a.prefix = mask_prefix((const struct sockaddr_in *)i->ifa_netmask);
		ret = sp_array_add(out, &count, &cap, sizeof(a), &a);
	}
	freeifaddrs(list);
	if (ret) {
		free(*out);
		*out = NULL;
		return ret;
	}
	*n = count;
	return 0;
}

static uint32_t prefix_mask(uint8_t prefix)
{
	return prefix ? 0xffffffffu << (32 - prefix) : 0;
}

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
			uint32_t m = prefix_mask(p);
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
