// SPDX-License-Identifier: GPL-2.0
/*
 * Budgets and allow lists of servers. A server serves any peer that
 * reaches its port: each connection pins two buffers of the client's SIZE
 * (up to 8 MiB each), and most get a kernel thread that polls. Without a
 * bound, one peer could pin the host's memory and CPUs; so every
 * connection request takes its share from its server's budget and from
 * the host's (all servers) before anything is allocated, or is rejected
 * with the budget it would pass, and gives it back when it is freed.
 */

#include <linux/inetdevice.h>
#include <linux/in6.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "budget.h"
#include "netlink.h"

static unsigned int server_conns_max = 1024;
module_param(server_conns_max, uint, 0644);
MODULE_PARM_DESC(server_conns_max,
		 "connections all servers serve at once (default 1024)");

static unsigned int server_threads_max = 1024;
module_param(server_threads_max, uint, 0644);
MODULE_PARM_DESC(server_threads_max,
		 "threads of all servers' connections at once (default 1024)");

static unsigned long long server_bytes_max = 4ULL << 30;
module_param(server_bytes_max, ullong, 0644);
MODULE_PARM_DESC(server_bytes_max,
		 "buffer bytes all servers' connections pin at once (default 4 GiB)");

/* Every budget's holdings, the host's with them. */
static DEFINE_SPINLOCK(sp_budget_lock);
static struct sp_budget sp_host;

/* A new server's budget: the attributes of SERVER_START, or defaults. */
void sp_budget_parse(struct sp_budget *b, struct nlattr **attrs)
{
	b->conns_max = SPARKPERF_SERVER_CONNS_MAX;
	b->threads_max = SPARKPERF_SERVER_CONNS_MAX;
	b->bytes_max = SPARKPERF_SERVER_BYTES_DEFAULT;
	if (attrs[SPARKPERF_A_SERVER_CONNS_MAX])
		b->conns_max = nla_get_u32(attrs[SPARKPERF_A_SERVER_CONNS_MAX]);
	if (attrs[SPARKPERF_A_SERVER_THREADS_MAX])
		b->threads_max =
			nla_get_u32(attrs[SPARKPERF_A_SERVER_THREADS_MAX]);
	if (attrs[SPARKPERF_A_SERVER_BYTES_MAX])
		b->bytes_max = nla_get_u64(attrs[SPARKPERF_A_SERVER_BYTES_MAX]);
}

/* Under sp_budget_lock: why @use does not fit in @b (of @what), or 0. */
static int sp_budget_check(const struct sp_budget *b,
			   const struct sp_budget_use *use, u32 conns_max,
			   u32 threads_max, u64 bytes_max, const char *what,
			   char *reason, size_t len)
{
	if (b->conns >= conns_max) {
		snprintf(reason, len, "%s: all %u connections in use", what,
			 conns_max);
		return -EBUSY;
	}
	if (use->thread && b->threads >= threads_max) {
		snprintf(reason, len, "%s: all %u threads in use", what,
			 threads_max);
		return -EBUSY;
	}
	if (use->bytes > bytes_max - min(bytes_max, b->bytes)) {
		snprintf(reason, len,
			 "%s: %llu buffer bytes more would pass %llu (%llu in use)",
			 what, use->bytes, bytes_max, b->bytes);
		return -ENOBUFS;
	}
	return 0;
}

/* Under sp_budget_lock: @use taken (@sign 1) or given back (-1). */
static void sp_budget_add(struct sp_budget *b, const struct sp_budget_use *use,
			  int sign)
{
	/* conns is read without the lock (sp_budget_conns()) */
	WRITE_ONCE(b->conns, b->conns + sign);
	b->threads += sign * (int)use->thread;
	b->bytes += sign * (s64)use->bytes;
}

int sp_budget_take(struct sp_budget *b, const struct sp_budget_use *use,
		   char *reason, size_t len)
{
	int ret;

	spin_lock(&sp_budget_lock);
	ret = sp_budget_check(b, use, b->conns_max, b->threads_max,
			      b->bytes_max, "server budget", reason, len);
	if (!ret)
		ret = sp_budget_check(&sp_host, use,
				      READ_ONCE(server_conns_max),
				      READ_ONCE(server_threads_max),
				      READ_ONCE(server_bytes_max),
				      "host budget (module parameters)",
				      reason, len);
	if (!ret) {
		sp_budget_add(b, use, 1);
		sp_budget_add(&sp_host, use, 1);
	}
	spin_unlock(&sp_budget_lock);
	return ret;
}

void sp_budget_give(struct sp_budget *b, const struct sp_budget_use *use)
{
	spin_lock(&sp_budget_lock);
	sp_budget_add(b, use, -1);
	sp_budget_add(&sp_host, use, -1);
	spin_unlock(&sp_budget_lock);
}

/* Without the lock, for a wait's condition (a stopper waits for 0). */
u32 sp_budget_conns(const struct sp_budget *b)
{
	return READ_ONCE(b->conns);
}

int sp_budget_put(struct sk_buff *skb, struct sp_budget *b)
{
	struct sp_budget now;

	spin_lock(&sp_budget_lock);
	now = *b;
	spin_unlock(&sp_budget_lock);
	if (nla_put_u32(skb, SPARKPERF_A_SERVER_ACTIVE, now.conns) ||
	    nla_put_u32(skb, SPARKPERF_A_SERVER_CONNS_MAX, now.conns_max) ||
	    nla_put_u32(skb, SPARKPERF_A_SERVER_THREADS_MAX, now.threads_max) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_SERVER_BYTES_MAX, now.bytes_max,
			      SPARKPERF_A_SERVER_PAD) ||
	    nla_put_u32(skb, SPARKPERF_A_SERVER_THREADS, now.threads) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_SERVER_BYTES, now.bytes,
			      SPARKPERF_A_SERVER_PAD))
		return -EMSGSIZE;
	return 0;
}

static const struct nla_policy sp_net_policy[SPARKPERF_A_NET_MAX + 1] = {
	[SPARKPERF_A_NET_ADDR] = NLA_POLICY_RANGE(NLA_BINARY, 4, 16),
	[SPARKPERF_A_NET_PREFIX] = NLA_POLICY_MAX(NLA_U8, 128),
};

/* An IPv4 address mapped into IPv6 (a dual-stack listener's IPv4 peer). */
static bool sp_peer_v4(const struct sockaddr *peer, __be32 *v4)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)peer;

	if (peer->sa_family == AF_INET) {
		*v4 = ((const struct sockaddr_in *)peer)->sin_addr.s_addr;
		return true;
	}
	if (ipv6_addr_v4mapped(&sin6->sin6_addr)) {
		*v4 = sin6->sin6_addr.s6_addr32[3];
		return true;
	}
	return false;
}

int sp_allow_parse(struct sp_allow *a, const struct nlattr *nest,
		   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SPARKPERF_A_NET_MAX + 1];
	const struct nlattr *net;
	int rem, ret;

	a->n = 0;
	nla_for_each_nested(net, nest, rem) {
		struct sockaddr_storage *ss = &a->nets[a->n].addr;
		struct in6_addr masked;
		u8 prefix;

		if (nla_type(net) != SPARKPERF_A_ALLOW_NET)
			continue;
		if (a->n == SPARKPERF_SERVER_ALLOW_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, net,
					    "more than 16 networks in the allow list");
			return -E2BIG;
		}
		ret = nla_parse_nested(tb, SPARKPERF_A_NET_MAX, net,
				       sp_net_policy, extack);
		if (ret)
			return ret;
		if (!tb[SPARKPERF_A_NET_ADDR] || !tb[SPARKPERF_A_NET_PREFIX]) {
			NL_SET_ERR_MSG_ATTR(extack, net,
					    "a network needs an address and a prefix");
			return -EINVAL;
		}
		ret = sp_nla_get_addr(tb[SPARKPERF_A_NET_ADDR], 0, ss, extack);
		if (ret)
			return ret;
		prefix = nla_get_u8(tb[SPARKPERF_A_NET_PREFIX]);
		if (ss->ss_family == AF_INET) {
			__be32 v4 = ((struct sockaddr_in *)ss)->sin_addr.s_addr;

			if (prefix > 32 || (v4 & ~inet_make_mask(prefix))) {
				NL_SET_ERR_MSG_ATTR(extack, net,
						    "an IPv4 prefix is at most 32, with the address's host bits 0");
				return -EINVAL;
			}
		} else {
			const struct in6_addr *v6 =
				&((struct sockaddr_in6 *)ss)->sin6_addr;

			ipv6_addr_prefix(&masked, v6, prefix);
			if (!ipv6_addr_equal(&masked, v6)) {
				NL_SET_ERR_MSG_ATTR(extack, net,
						    "the address's bits after the prefix must be 0");
				return -EINVAL;
			}
		}
		a->nets[a->n++].prefix = prefix;
	}
	return 0;
}

bool sp_allow_match(const struct sp_allow *a, const struct sockaddr *peer)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)peer;
	unsigned int i;
	__be32 v4;
	bool is_v4 = sp_peer_v4(peer, &v4);

	if (!a->n)
		return true;
	for (i = 0; i < a->n; i++) {
		const struct sockaddr_storage *ss = &a->nets[i].addr;
		u8 prefix = a->nets[i].prefix;

		if (ss->ss_family == AF_INET) {
			__be32 net = ((const struct sockaddr_in *)ss)->sin_addr.s_addr;

			if (is_v4 && !((v4 ^ net) & inet_make_mask(prefix)))
				return true;
		} else if (peer->sa_family == AF_INET6 &&
			   ipv6_prefix_equal(&sin6->sin6_addr,
					     &((const struct sockaddr_in6 *)ss)->sin6_addr,
					     prefix)) {
			return true;
		}
	}
	return false;
}

int sp_allow_put(struct sk_buff *skb, const struct sp_allow *a)
{
	struct nlattr *list, *net;
	unsigned int i;

	if (!a->n)
		return 0;
	list = nla_nest_start(skb, SPARKPERF_A_SERVER_ALLOW);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < a->n; i++) {
		net = nla_nest_start(skb, SPARKPERF_A_ALLOW_NET);
		if (!net || sp_nla_put_addr(skb, SPARKPERF_A_NET_ADDR,
					    &a->nets[i].addr) ||
		    nla_put_u8(skb, SPARKPERF_A_NET_PREFIX, a->nets[i].prefix))
			return -EMSGSIZE;
		nla_nest_end(skb, net);
	}
	nla_nest_end(skb, list);
	return 0;
}
