/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_DEVICE_H
#define SP_DEVICE_H

#include <linux/types.h>

struct sk_buff;
struct genl_info;
struct netlink_callback;
struct ib_device;

int sp_device_init(void);
void sp_device_uninit(void);

u32 sp_device_count(void);
int sp_device_numa_node(struct ib_device *ibdev);
bool sp_device_lookup(const char *name, int *node);
struct ib_device *sp_device_get(const char *name);
bool sp_device_present(const struct ib_device *ibdev);
int sp_device_get_doit(struct sk_buff *skb, struct genl_info *info);
int sp_device_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* SP_DEVICE_H */
