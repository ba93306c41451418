/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_NETLINK_H
#define SP_NETLINK_H

#include <linux/types.h>

struct nlattr;
struct netlink_ext_ack;
struct sk_buff;
struct sockaddr_storage;

int sp_genl_init(void);
void sp_genl_uninit(void);

void *sp_genl_put(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd);
bool sp_genl_has_event_listeners(void);
void sp_genl_send_event(struct sk_buff *skb);
bool sp_genl_has_progress_listeners(void);
void sp_genl_send_progress(struct sk_buff *skb);
bool sp_genl_has_trace_listeners(void);
void sp_genl_send_trace(struct sk_buff *skb);

int sp_nla_get_addr(const struct nlattr *attr, u16 port,
		    struct sockaddr_storage *ss, struct netlink_ext_ack *extack);
int sp_nla_put_addr(struct sk_buff *skb, int type,
		    const struct sockaddr_storage *ss);

#endif /* SP_NETLINK_H */
