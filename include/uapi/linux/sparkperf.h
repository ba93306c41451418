/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * sparkperf: RDMA link measurement from the kernel.
 *
 * Documentation
 * =============
 *
 * The sparkperf kernel module is driven over the generic netlink family
 * SPARKPERF_GENL_NAME ("sparkperf"), version SPARKPERF_GENL_VERSION. This
 * header is the whole contract between the module and its userspace tool
 * (sparkperf-ctl). Command and attribute numbers are append-only: a value,
 * once released, is never renumbered or reused.
 *
 * Every request is strictly validated: unknown attributes, attributes of the
 * wrong type or length, values outside the documented ranges, a non-zero
 * genlmsghdr.reserved and unknown flags are all rejected with -EINVAL and an
 * extended ACK message (NLMSGERR_ATTR_MSG) that names the problem; where an
 * attribute is at fault its offset comes back in NLMSGERR_ATTR_OFFS, and a
 * missing required attribute is named by NLMSGERR_ATTR_MISS_TYPE.
 * Userspace should therefore set NETLINK_EXT_ACK on its socket.
 *
 * Permissions: listing (SPARKPERF_CMD_INFO_GET, SPARKPERF_CMD_DEV_GET) and
 * listening to the "events" multicast group are unprivileged, like
 * "ibv_devinfo" or "rdma dev". Every command that creates, starts, stops or
 * allocates anything requires CAP_NET_ADMIN (GENL_ADMIN_PERM) and fails with
 * -EPERM otherwise.
 *
 * The module is loaded on demand: the first resolution of the family name
 * through the generic netlink controller loads sparkperf.ko
 * (MODULE_ALIAS_GENL_FAMILY), so "modprobe sparkperf" is optional.
 *
 * SPARKPERF_CMD_INFO_GET
 * ----------------------
 *
 * Request: no attributes, no flags.
 * Reply (one message, same command):
 *
 *    SPARKPERF_A_INFO_VERSION: NLA_NUL_STRING, the module version ("0.1.0")
 *    SPARKPERF_A_INFO_KERNEL: NLA_NUL_STRING, the running kernel release
 *    SPARKPERF_A_INFO_DEVICES: NLA_U32, RDMA devices currently registered
 *
 * SPARKPERF_CMD_DEV_GET
 * ---------------------
 *
 * Lists the RDMA devices the module sees (it is an ib_client of the RDMA
 * core) with their ports and, for RoCE ports, the Ethernet netdev and the
 * GID table.
 *
 * With NLM_F_DUMP: no attributes; one message per device, ordered by device
 * index. If the device list changes during a dump, the dump ends with
 * NLM_F_DUMP_INTR set on a message and should be restarted.
 *
 * Without NLM_F_DUMP (one device):
 *
 *    SPARKPERF_A_DEV_NAME: NLA_NUL_STRING, at most IB_DEVICE_NAME_MAX - 1
 *                          (63) bytes, required
 *
 * An unknown name fails with -ENODEV and the message "no RDMA device with
 * this name".
 *
 * Reply, one message per device, SPARKPERF_CMD_DEV_GET:
 *
 *    SPARKPERF_A_DEV_INDEX: NLA_U32, the RDMA core's device index
 *    SPARKPERF_A_DEV_NAME: NLA_NUL_STRING, e.g. "rocep1s0f0" or "rxe0"
 *    SPARKPERF_A_DEV_NODE_GUID: NLA_U64, host byte order
 *    SPARKPERF_A_DEV_NUMA_NODE: NLA_S32, NUMA node of the parent device,
 *                               -1 when unknown
 *    SPARKPERF_A_DEV_PARENT: NLA_NUL_STRING, the first PCI device above the
 *                            RDMA device (or above its port 1 netdev for
 *                            software devices such as rxe), e.g.
 *                            "0000:01:00.0"; absent when there is none
 *    SPARKPERF_A_DEV_PORTS: NLA_NESTED, one SPARKPERF_A_DEV_PORT per port
 *        SPARKPERF_A_DEV_PORT: NLA_NESTED
 *            SPARKPERF_A_PORT_NUM: NLA_U32, 1-based port number
 *            SPARKPERF_A_PORT_STATE: NLA_U8, enum sparkperf_port_state
 *            SPARKPERF_A_PORT_PHYS_STATE: NLA_U8, enum sparkperf_port_phys_state
 *            SPARKPERF_A_PORT_LINK_LAYER: NLA_U8, enum sparkperf_link_layer
 *            SPARKPERF_A_PORT_ACTIVE_MTU: NLA_U32, bytes (256 .. 4096)
 *            SPARKPERF_A_PORT_MAX_MTU: NLA_U32, bytes (256 .. 4096)
 *            SPARKPERF_A_PORT_ACTIVE_SPEED: NLA_U8, enum sparkperf_port_speed
 *            SPARKPERF_A_PORT_ACTIVE_WIDTH: NLA_U8, lanes (1, 2, 4, 8 or 12)
 *            SPARKPERF_A_PORT_RATE: NLA_U32, Mbit/s (10^6 bit/s), the
 *                                   nominal data rate: lane rate x lanes
 *            SPARKPERF_A_PORT_NETDEV_IFINDEX: NLA_U32 \
 *            SPARKPERF_A_PORT_NETDEV_NAME: NLA_NUL_STRING |  RoCE ports
 *            SPARKPERF_A_PORT_NETDEV_MTU: NLA_U32, bytes  |  with a netdev
 *            SPARKPERF_A_PORT_NETDEV_OPERSTATE: NLA_U8,   |  only
 *                                  RFC 2863 IF_OPER_* /
 *            SPARKPERF_A_PORT_GIDS: NLA_NESTED, valid GID table entries
 *                SPARKPERF_A_PORT_GID: NLA_NESTED
 *                    SPARKPERF_A_GID_INDEX: NLA_U32
 *                    SPARKPERF_A_GID_TYPE: NLA_U8, enum sparkperf_gid_type
 *                    SPARKPERF_A_GID_GID: NLA_BINARY, 16 bytes, network order
 *                                         (an IPv4 address appears mapped,
 *                                         ::ffff:a.b.c.d)
 *
 * "events" multicast group (SPARKPERF_MCGRP_EVENTS)
 * -------------------------------------------------
 *
 * Anyone may listen. Messages:
 *
 *    SPARKPERF_CMD_DEV_NEW: a device was added; the same attributes as a
 *                           SPARKPERF_CMD_DEV_GET reply
 *    SPARKPERF_CMD_DEV_CHANGE: a port of a device changed state, or its GID
 *                              table changed; the same attributes as a
 *                              SPARKPERF_CMD_DEV_GET reply, describing the
 *                              device after the change, plus
 *                              SPARKPERF_A_DEV_EVENT_PORT: NLA_U32, the port
 *    SPARKPERF_CMD_DEV_DEL: a device is going away; SPARKPERF_A_DEV_INDEX
 *                           and SPARKPERF_A_DEV_NAME only
 *
 * Sending SPARKPERF_CMD_DEV_NEW, _CHANGE or _DEL as a request fails with
 * -EOPNOTSUPP.
 */

#ifndef _UAPI_LINUX_SPARKPERF_H
#define _UAPI_LINUX_SPARKPERF_H

#define SPARKPERF_GENL_NAME "sparkperf"
#define SPARKPERF_GENL_VERSION 1
#define SPARKPERF_MCGRP_EVENTS "events"

/* Longest RDMA device name, with its NUL (IB_DEVICE_NAME_MAX). */
#define SPARKPERF_DEV_NAME_MAX 64

enum sparkperf_cmd {
	SPARKPERF_CMD_UNSPEC,
	SPARKPERF_CMD_INFO_GET,
	SPARKPERF_CMD_DEV_GET,
	SPARKPERF_CMD_DEV_NEW,
	SPARKPERF_CMD_DEV_CHANGE,
	SPARKPERF_CMD_DEV_DEL,
	__SPARKPERF_CMD_MAX
};

#define SPARKPERF_CMD_MAX (__SPARKPERF_CMD_MAX - 1)

enum sparkperf_info_attr {
	SPARKPERF_A_INFO_UNSPEC,
	SPARKPERF_A_INFO_VERSION,
	SPARKPERF_A_INFO_KERNEL,
	SPARKPERF_A_INFO_DEVICES,
	__SPARKPERF_A_INFO_MAX
};

#define SPARKPERF_A_INFO_MAX (__SPARKPERF_A_INFO_MAX - 1)

enum sparkperf_dev_attr {
	SPARKPERF_A_DEV_UNSPEC,
	SPARKPERF_A_DEV_PAD,
	SPARKPERF_A_DEV_INDEX,
	SPARKPERF_A_DEV_NAME,
	SPARKPERF_A_DEV_NODE_GUID,
	SPARKPERF_A_DEV_NUMA_NODE,
	SPARKPERF_A_DEV_PARENT,
	SPARKPERF_A_DEV_PORTS,
	SPARKPERF_A_DEV_EVENT_PORT,
	__SPARKPERF_A_DEV_MAX
};

#define SPARKPERF_A_DEV_MAX (__SPARKPERF_A_DEV_MAX - 1)

/* The only attribute inside SPARKPERF_A_DEV_PORTS. */
enum sparkperf_dev_ports_attr {
	SPARKPERF_A_DEV_PORT_UNSPEC,
	SPARKPERF_A_DEV_PORT,
	__SPARKPERF_A_DEV_PORT_MAX
};

#define SPARKPERF_A_DEV_PORT_MAX (__SPARKPERF_A_DEV_PORT_MAX - 1)

enum sparkperf_port_attr {
	SPARKPERF_A_PORT_UNSPEC,
	SPARKPERF_A_PORT_NUM,
	SPARKPERF_A_PORT_STATE,
	SPARKPERF_A_PORT_PHYS_STATE,
	SPARKPERF_A_PORT_LINK_LAYER,
	SPARKPERF_A_PORT_ACTIVE_MTU,
	SPARKPERF_A_PORT_MAX_MTU,
	SPARKPERF_A_PORT_ACTIVE_SPEED,
	SPARKPERF_A_PORT_ACTIVE_WIDTH,
	SPARKPERF_A_PORT_RATE,
	SPARKPERF_A_PORT_NETDEV_IFINDEX,
	SPARKPERF_A_PORT_NETDEV_NAME,
	SPARKPERF_A_PORT_NETDEV_MTU,
	SPARKPERF_A_PORT_NETDEV_OPERSTATE,
	SPARKPERF_A_PORT_GIDS,
	__SPARKPERF_A_PORT_MAX
};

#define SPARKPERF_A_PORT_MAX (__SPARKPERF_A_PORT_MAX - 1)

/* The only attribute inside SPARKPERF_A_PORT_GIDS. */
enum sparkperf_port_gids_attr {
	SPARKPERF_A_PORT_GID_UNSPEC,
	SPARKPERF_A_PORT_GID,
	__SPARKPERF_A_PORT_GID_MAX
};

#define SPARKPERF_A_PORT_GID_MAX (__SPARKPERF_A_PORT_GID_MAX - 1)

enum sparkperf_gid_attr {
	SPARKPERF_A_GID_UNSPEC,
	SPARKPERF_A_GID_INDEX,
	SPARKPERF_A_GID_TYPE,
	SPARKPERF_A_GID_GID,
	__SPARKPERF_A_GID_MAX
};

#define SPARKPERF_A_GID_MAX (__SPARKPERF_A_GID_MAX - 1)

/* Port logical state; the values are those of the IB specification. */
enum sparkperf_port_state {
	SPARKPERF_PORT_NOP,
	SPARKPERF_PORT_DOWN,
	SPARKPERF_PORT_INIT,
	SPARKPERF_PORT_ARMED,
	SPARKPERF_PORT_ACTIVE,
	SPARKPERF_PORT_ACTIVE_DEFER,
};

/* Port physical state; the values are those of the IB specification. */
enum sparkperf_port_phys_state {
	SPARKPERF_PHYS_UNKNOWN,
	SPARKPERF_PHYS_SLEEP,
	SPARKPERF_PHYS_POLLING,
	SPARKPERF_PHYS_DISABLED,
	SPARKPERF_PHYS_TRAINING,
	SPARKPERF_PHYS_LINK_UP,
	SPARKPERF_PHYS_LINK_ERROR_RECOVERY,
	SPARKPERF_PHYS_PHY_TEST,
};

enum sparkperf_link_layer {
	SPARKPERF_LINK_LAYER_UNSPECIFIED,
	SPARKPERF_LINK_LAYER_INFINIBAND,
	SPARKPERF_LINK_LAYER_ETHERNET,
};

/*
 * Lane speed. Nominal data rates per lane: SDR 2.5, DDR 5, QDR 10,
 * FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100, XDR 200 Gbit/s.
 */
enum sparkperf_port_speed {
	SPARKPERF_SPEED_UNKNOWN,
	SPARKPERF_SPEED_SDR,
	SPARKPERF_SPEED_DDR,
	SPARKPERF_SPEED_QDR,
	SPARKPERF_SPEED_FDR10,
	SPARKPERF_SPEED_FDR,
	SPARKPERF_SPEED_EDR,
	SPARKPERF_SPEED_HDR,
	SPARKPERF_SPEED_NDR,
	SPARKPERF_SPEED_XDR,
};

enum sparkperf_gid_type {
	SPARKPERF_GID_TYPE_IB,
	SPARKPERF_GID_TYPE_ROCE_V1,
	SPARKPERF_GID_TYPE_ROCE_V2,
};

#endif /* _UAPI_LINUX_SPARKPERF_H */
