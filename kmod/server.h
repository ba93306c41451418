/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_SERVER_H
#define SP_SERVER_H

struct sk_buff;
struct genl_info;
struct netlink_callback;

int sp_server_init(void);
void sp_server_uninit(void);

int sp_server_start_doit(struct sk_buff *skb, struct genl_info *info);
int sp_server_stop_doit(struct sk_buff *skb, struct genl_info *info);
int sp_server_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* SP_SERVER_H */
