/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels sparkperf builds on (6.1 to 7.3), each
 * with the version that made it.
 */
#ifndef SP_COMPAT_H
#define SP_COMPAT_H

#include <linux/version.h>
#include <net/genetlink.h>

/*
 * XDR lanes (200 Gbit/s) entered enum ib_port_speed in 6.6; the RDMA core
 * reports the bit value, so name it where the enum does not.
 */
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
#define IB_SPEED_XDR 256
#endif

/*
 * Who may join a multicast group: kernels with GENL_MCAST_CAP_NET_ADMIN
 * (cd4d7263d58a, also in stable trees such as Debian's 6.1) check it in
 * genl_bind(); those with only 4d54cc32112d check GENL_UNS_ADMIN_PERM.
 * GENL_ADMIN_PERM is never checked there and would leave the
 * progress and trace groups open to every user. SP_TEST_MCGRP_FALLBACK
 * (scripts/kmod-build --mcgrp-fallback) builds the fallback anywhere.
 */
#if defined(GENL_MCAST_CAP_NET_ADMIN) && !defined(SP_TEST_MCGRP_FALLBACK)
#define SP_MCGRP_ADMIN GENL_MCAST_CAP_NET_ADMIN
#define SP_MCGRP_ADMIN_NAME "GENL_MCAST_CAP_NET_ADMIN"
#else
#define SP_MCGRP_ADMIN GENL_UNS_ADMIN_PERM
#define SP_MCGRP_ADMIN_NAME "GENL_UNS_ADMIN_PERM"
#endif

/* A dump's parsed request attributes: 6.6 moved them into a genl_info. */
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
#define sp_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#else
#define sp_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#endif

/*
 * An extack message with numbers: 6.2 added formatted messages; before,
 * the message says what it can without them (@fixed).
 */
#ifdef NL_SET_ERR_MSG_FMT
#define sp_set_err_msg_fmt(extack, fixed, fmt, ...) \
	NL_SET_ERR_MSG_FMT(extack, fmt, __VA_ARGS__)
#else
#define sp_set_err_msg_fmt(extack, fixed, fmt, ...) \
	NL_SET_ERR_MSG(extack, fixed)
#endif

/*
 * Since 6.15 some drivers' ethtool ops run under the netdev instance lock
 * as well as rtnl (netdev_lock_ops()); before, rtnl alone.
 */
#if KERNEL_VERSION(6, 15, 0) <= LINUX_VERSION_CODE
#include <net/netdev_lock.h>
#define sp_netdev_lock_ops(dev) netdev_lock_ops(dev)
#define sp_netdev_unlock_ops(dev) netdev_unlock_ops(dev)
#else
#define sp_netdev_lock_ops(dev) do { } while (0)
#define sp_netdev_unlock_ops(dev) do { } while (0)
#endif

#endif /* SP_COMPAT_H */
