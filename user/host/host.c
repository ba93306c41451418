// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "doctor.h"
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

/* A string of the kernel's fixed-size field, cut to dst and terminated. */
static void copy_field(char *dst, size_t len, const char *src, size_t src_len)
{
	size_t n = strnlen(src, src_len);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int sp_host_drvinfo(const char *netdev, struct sp_drvinfo *out)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	int fd, ret = 0;

	memset(out, 0, sizeof(*out));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", netdev);
	ifr.ifr_data = (void *)&info;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* ethtool -i: no netlink message carries it, and it needs no privilege */
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		ret = -errno;
	close(fd);
	if (ret)
		return ret;
	copy_field(out->driver, sizeof(out->driver), info.driver, sizeof(info.driver));
	copy_field(out->version, sizeof(out->version), info.version, sizeof(info.version));
	copy_field(out->fw_version, sizeof(out->fw_version), info.fw_version,
		   sizeof(info.fw_version));
	copy_field(out->bus_info, sizeof(out->bus_info), info.bus_info, sizeof(info.bus_info));
	return 0;
}
