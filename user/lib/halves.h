/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A host's halves: its RoCE ports (an RDMA port on an Ethernet netdev),
 * each with the IPv4 address of its first RoCE v2 GID, that GID's index,
 * the address's subnet and the port's PCI function. A Spark's 200G QSFP
 * port is two of them: PCIe functions of one ConnectX-7 with the same bus,
 * device and function in two PCI domains (0000:01:00.0 and 0002:01:00.0).
 *
 * They come from the module's device list and the host's addresses (this
 * host), or from another host's "sparkperf-ctl -j dev" or "-j check"
 * output, read over ssh or from a file. check compares them with what NCCL
 * and perftest are told; bench/'s NCCL environment pairs them across hosts;
 * matrix/ tests every pair of them that shares a subnet.
 */
#ifndef SPARKPERF_CTL_LIB_HALVES_H
#define SPARKPERF_CTL_LIB_HALVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "ifaddr.h"
#include "model.h"

#define SP_HALF_NAME_MAX (SPARKPERF_DEV_NAME_MAX + SP_IFNAME_MAX + 16)

struct sp_half {
	char dev[SPARKPERF_DEV_NAME_MAX];
	uint32_t port;
	char netdev[SP_IFNAME_MAX];
	char parent[SP_PARENT_MAX];	/* its PCI function; "": none (software RDMA) */
	bool active;			/* the port is ACTIVE */
	bool has_ipv4;			/* a RoCE v2 GID of an IPv4 address: addr, gid_index */
	struct in_addr addr;
	uint8_t prefix;			/* of addr on the netdev; 0: not known (-j dev) */
	uint32_t gid_index;
	/* ethtool -i of the netdev, from -j check's firmware items; "": not known */
	char driver[32];
	char driver_version[32];
	char firmware_version[32];
};

enum sp_halves_source {
	SP_HALVES_LOCAL,		/* the module's device list and getifaddrs(3) */
	SP_HALVES_SSH,			/* "sparkperf-ctl -j dev" on the host, over ssh */
	SP_HALVES_FILE,			/* the host's -j dev or -j check output, in a file */
};

struct sp_halves {
	char host[256];			/* "": not known */
	enum sp_halves_source source;
	char origin[512];		/* the command run or the file; "" for this host */
	struct sp_half *v;
	size_t n;
	size_t cap;
};

const char *sp_halves_source_str(enum sp_halves_source s);	/* "local", "ssh", "file" */

/*
 * This host's halves: every port of devs with a netdev, its IPv4 RoCE v2
 * GID's address given the prefix it has among addrs. host and source are
 * the caller's to set. 0 or -ENOMEM.
 */
int sp_halves_local(const struct sp_dev_list *devs, const struct sp_ifaddr *addrs,
		    size_t n_addrs, struct sp_halves *out);

struct sp_nl_err;

/*
 * This host's halves, as sp_halves_local() makes them from the module's
 * devices (asked over netlink) and getifaddrs(3), host its node name.
 * 0, or -errno with the kernel's message in *e.
 */
int sp_halves_this_host(struct sp_halves *out, struct sp_nl_err *e);

/*
 * Another host's halves from the -j output of its "sparkperf-ctl dev" (an
 * array of devices) or "check" (an array of items: the gid-index items
 * give the halves, the firmware items their driver and firmware, the
 * module item the host's name). -EINVAL with one line in err when text is
 * neither; -ENOMEM.
 */
int sp_halves_parse(const char *text, struct sp_halves *out, char *err, size_t len);

/*
 * sp_halves_parse() of a file (at most 16 MiB), source SP_HALVES_FILE,
 * origin the path, host its host when -j check names it, else the path.
 * -errno or -EINVAL with one line in err (naming the file).
 */
int sp_halves_read_file(const char *path, struct sp_halves *out, char *err, size_t len);

void sp_halves_free(struct sp_halves *h);

/* "rocep1s0f1/1 (enp1s0f1np1)": how check and nccl env name a half. */
char *sp_half_name(const struct sp_half *h, char *buf, size_t len);

/* The subnet of a half's address, given a prefix: its first address. */
struct in_addr sp_half_subnet(const struct sp_half *h, uint8_t prefix);

/*
 * Are a and b the two halves of one physical port: PCI functions of the
 * same bus, device and function in two PCI domains (a Spark's layout)?
 */
bool sp_halves_share_port(const struct sp_half *a, const struct sp_half *b);

#endif
