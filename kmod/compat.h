/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels sparkperf builds on (6.1 to 6.17).
 */
#ifndef SP_COMPAT_H
#define SP_COMPAT_H

#include <linux/version.h>

/*
 * XDR lanes (200 Gbit/s) entered enum ib_port_speed in 6.6; the RDMA core
 * reports the bit value, so name it where the enum does not.
 */
#if KERNEL_VERSION(6, 6, 0) > LINUX_VERSION_CODE
#define IB_SPEED_XDR 256
#endif

#endif /* SP_COMPAT_H */
