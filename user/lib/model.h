/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain C structs for what the sparkperf module (and, at the end, the
 * kernel's rtnetlink, DCB and ethtool netlink) reports. nl.c fills them from
 * netlink replies, print.c prints them; neither side sees the other's types.
 */
#ifndef SPARKPERF_CTL_MODEL_H
#define SPARKPERF_CTL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/sparkperf.h>

#define SP_IFNAME_MAX 16	/* IFNAMSIZ, with the NUL */
#define SP_PARENT_MAX 64
#define SP_GID_LEN 16

struct sp_gid {
	uint32_t index;
	uint8_t type;			/* enum sparkperf_gid_type */
	uint8_t raw[SP_GID_LEN];	/* network byte order */
};

struct sp_port {
	uint32_t num;
	uint8_t state;			/* enum sparkperf_port_state */
	uint8_t phys_state;		/* enum sparkperf_port_phys_state */
	uint8_t link_layer;		/* enum sparkperf_link_layer */
	uint32_t active_mtu;		/* bytes */
	uint32_t max_mtu;		/* bytes */
	uint8_t active_speed;		/* enum sparkperf_port_speed */
	uint8_t active_width;		/* lanes */
	uint32_t rate_mbps;		/* 10^6 bit/s */
	bool has_netdev;		/* RoCE port with an Ethernet netdev */
	uint32_t netdev_ifindex;
	char netdev_name[SP_IFNAME_MAX];
	uint32_t netdev_mtu;		/* bytes */
	uint8_t netdev_operstate;	/* RFC 2863 IF_OPER_* */
	struct sp_gid *gids;
	size_t n_gids;
};

struct sp_dev {
	uint32_t index;
	char name[SPARKPERF_DEV_NAME_MAX];
	uint64_t node_guid;		/* host byte order */
	int32_t numa_node;		/* -1 when unknown */
	bool has_parent;
	char parent[SP_PARENT_MAX];	/* PCI name, e.g. 0000:01:00.0 */
	struct sp_port *ports;
	size_t n_ports;
};

struct sp_dev_list {
	struct sp_dev *devs;
	size_t n;
	size_t cap;
};

enum sp_dev_event_type {
	SP_DEV_EVENT_NEW,
	SP_DEV_EVENT_CHANGE,
	SP_DEV_EVENT_DEL,
};

struct sp_dev_event {
	enum sp_dev_event_type type;
	bool has_port;			/* SP_DEV_EVENT_CHANGE */
	uint32_t port;
	struct sp_dev dev;		/* index and name only for DEL */
};

struct sp_info {
	char version[64];
	char kernel[128];
	bool has_devices;
	uint32_t devices;
};

/* An IPv4 (len 4) or IPv6 (len 16) address, network byte order; len 0: any. */
#define SP_ADDR_MAX 16

struct sp_addr {
	uint8_t len;
	uint8_t raw[SP_ADDR_MAX];
};

/* A network: an address whose bits after prefix are 0. */
struct sp_net {
	struct sp_addr addr;
	uint8_t prefix;
};

#define SP_LAT_ERRMSG_MAX 256

/*
 * Appends the elem_size bytes at elem to the array *items of *n elements
 * (room for *cap), doubling it when full; 0 or -ENOMEM.
 */
int sp_array_add(void *items, size_t *n, size_t *cap, size_t elem_size, const void *elem);
/*
 * sp_array_add(), then *elem is zeroed: what it pointed to belongs to the
 * array now (every list's add).
 */
int sp_array_take(void *items, size_t *n, size_t *cap, size_t elem_size, void *elem);
/* Releases each of the n elements of items with release(&elem), then items. */
#define SP_ARRAY_RELEASE(items, n, release)			\
	do {							\
		size_t i_;					\
								\
		for (i_ = 0; i_ < (n); i_++)			\
			release(&(items)[i_]);			\
		free(items);					\
	} while (0)
/* Releases an array of plain elements: items NULL, n 0. */
#define SP_ARRAY_CLEAR(items, n)		\
	do {					\
		free(items);			\
		(items) = NULL;			\
		(n) = 0;			\
	} while (0)

/*
 * Defines a list's PREFIX_free(list) (each element released with
 * elem_free, then the list zeroed) and PREFIX_add(list, elem) (elem moved
 * in, sp_array_take()); the list has field, n and cap.
 */
#define SP_LIST_DEFINE(prefix, list_type, elem_type, field, elem_free)	\
	void prefix##_free(list_type *list)				\
	{								\
		if (!list)						\
			return;						\
		SP_ARRAY_RELEASE(list->field, list->n, elem_free);	\
		memset(list, 0, sizeof(*list));				\
	}								\
									\
	int prefix##_add(list_type *list, elem_type *elem)		\
	{								\
		return sp_array_take(&list->field, &list->n, &list->cap,	\
				     sizeof(*elem), elem);		\
	}

void sp_dev_free(struct sp_dev *dev);
void sp_dev_list_free(struct sp_dev_list *list);
/* Appends a copy of *dev (taking ownership of its arrays); 0 or -ENOMEM. */
int sp_dev_list_add(struct sp_dev_list *list, struct sp_dev *dev);

/*
 * Why a session failed, in words: the module's message, else its errno
 * (negative or not) as strerror() says it; NULL when neither is known.
 */
const char *sp_session_error(bool has_msg, const char *msg, bool has_error, int32_t error);
/* true once the session has ended: DONE, STOPPED or FAILED */
bool sp_lat_state_final(unsigned int state);

/* ---- the host's network, as rtnetlink and ethtool netlink report it ---- */

/* The kernel's answer to "ip route get ADDR". */
struct sp_route {
	uint8_t type;			/* RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE ... */
	uint32_t oif;			/* 0: none */
	bool has_gateway;
	struct sp_addr gateway;
	bool has_prefsrc;
	struct sp_addr prefsrc;
	uint32_t mtu;			/* the route's MTU metric; 0: none */
};

/* A netdev's link modes (ethtool netlink, LINKMODES_GET). */
struct sp_link_modes {
	bool has_speed;
	uint32_t speed_mbps;		/* now */
	uint32_t max_mbps;		/* the fastest mode both ends support; 0: none known */
	char max_mode[48];		/* its name: "200000baseCR4/Full" */
};

/* Where and with what a result was measured (JSON: every result). */
struct sp_env {
	const char *tool_version;
	const char *module_version;	/* NULL: unknown */
	const char *kernel_release;	/* NULL: unknown */
	const char *host;		/* NULL: unknown */
	const char *clock_source;	/* NULL: unknown */
};

#endif
