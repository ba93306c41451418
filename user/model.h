/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain C structs for what the sparkperf module reports. nl.c fills them from
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

void sp_dev_free(struct sp_dev *dev);
void sp_dev_list_free(struct sp_dev_list *list);
/* Appends a copy of *dev (taking ownership of its arrays); 0 or -ENOMEM. */
int sp_dev_list_add(struct sp_dev_list *list, struct sp_dev *dev);

#endif
