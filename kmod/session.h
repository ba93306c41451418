/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_SESSION_H
#define SP_SESSION_H

struct sk_buff;
struct genl_info;
struct netlink_callback;

int sp_session_init(void);
void sp_session_uninit(void);

int sp_lat_run_doit(struct sk_buff *skb, struct genl_info *info);
int sp_lat_stop_doit(struct sk_buff *skb, struct genl_info *info);
int sp_lat_get_doit(struct sk_buff *skb, struct genl_info *info);
int sp_lat_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int sp_lat_samples_start(struct netlink_callback *cb);
int sp_lat_samples_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* SP_SESSION_H */
