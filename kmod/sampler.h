/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traces: a kernel thread per trace samples the streams of its targets
 * (counters.c) on absolute deadlines into a ring, and multicasts batches.
 */
#ifndef SP_SAMPLER_H
#define SP_SAMPLER_H

struct genl_info;
struct ib_device;
struct netlink_callback;
struct sk_buff;

int sp_trace_init(void);
void sp_trace_uninit(void);

void sp_trace_device_removed(struct ib_device *ibdev);

int sp_trace_start_doit(struct sk_buff *skb, struct genl_info *info);
int sp_trace_stop_doit(struct sk_buff *skb, struct genl_info *info);
int sp_trace_get_doit(struct sk_buff *skb, struct genl_info *info);
int sp_trace_get_start(struct netlink_callback *cb);
int sp_trace_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int sp_trace_samples_start(struct netlink_callback *cb);
int sp_trace_samples_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* SP_SAMPLER_H */
