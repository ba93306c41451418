// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "ifaddr.h"

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

uint32_t sp_prefix_mask(uint8_t prefix)
{
	return prefix ? 0xffffffffu << (32 - prefix) : 0;
}
