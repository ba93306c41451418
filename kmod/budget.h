/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_BUDGET_H
#define SP_BUDGET_H

#include <linux/socket.h>
#include <linux/types.h>
#include <linux/sparkperf.h>

struct netlink_ext_ack;
struct nlattr;
struct sk_buff;

/*
 * What a server may hold at once, and what it holds: connections, their
 * threads and their pinned buffers. The host's budget over all servers
 * is the module's parameters (budget.c).
 */
struct sp_budget {
	u32 conns_max;
	u32 threads_max;
	u64 bytes_max;
	u32 conns;
	u32 threads;
	u64 bytes;
};

/* One connection's share. */
struct sp_budget_use {
	u64 bytes;
	bool thread;
};

/* The peers a server serves: networks of an address and a prefix. */
struct sp_allow {
	unsigned int n;
	struct {
		struct sockaddr_storage addr;
		u8 prefix;
	} nets[SPARKPERF_SERVER_ALLOW_MAX];
};

void sp_budget_parse(struct sp_budget *b, struct nlattr **attrs);
int sp_budget_take(struct sp_budget *b, const struct sp_budget_use *use,
		   char *reason, size_t len);
void sp_budget_give(struct sp_budget *b, const struct sp_budget_use *use);
u32 sp_budget_conns(const struct sp_budget *b);
int sp_budget_put(struct sk_buff *skb, struct sp_budget *b);

int sp_allow_parse(struct sp_allow *a, const struct nlattr *nest,
		   struct netlink_ext_ack *extack);
bool sp_allow_match(const struct sp_allow *a, const struct sockaddr *peer);
int sp_allow_put(struct sk_buff *skb, const struct sp_allow *a);

#endif /* SP_BUDGET_H */
