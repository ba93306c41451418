/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_NETLINK_H
#define SP_NETLINK_H

#include <linux/types.h>

struct sk_buff;

int sp_genl_init(void);
void sp_genl_uninit(void);

void *sp_genl_put(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd);
bool sp_genl_has_event_listeners(void);
void sp_genl_send_event(struct sk_buff *skb);

#endif /* SP_NETLINK_H */
