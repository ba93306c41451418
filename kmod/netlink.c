// SPDX-License-Identifier: GPL-2.0
/*
 * The "sparkperf" generic netlink family: ops, policies, multicast groups.
 *
 * Locking: parallel_ops is on, so genl_mutex serialises nothing of ours
 * and a doit may sleep without holding up the family (LAT_STOP and BW_STOP
 * wait for their session's thread). Each object registry has its own
 * mutex, taken by the doits and dumps that read it: the device registry
 * (device.c), the sessions (session.c) and the servers and their
 * connections (server.c). Those never nest with each other. A latency
 * session's results are read under its spinlock, which its thread takes
 * between round trips; a bandwidth session's counters are read without a
 * lock while its workers update them. Traces have their own registry and
 * locks (trace.c).
 * Every limit the contract sets is in the policies below; handlers only
 * check what a policy cannot say.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "netlink.h"
#include "trace.h"
#include "server.h"
#include "session.h"

static struct genl_family sp_genl_family;

static const struct nla_policy sp_dev_get_policy[SPARKPERF_A_DEV_NAME + 1] = {
	[SPARKPERF_A_DEV_NAME] = { .type = NLA_NUL_STRING,
				   .len = SPARKPERF_DEV_NAME_MAX - 1 },
};

/* Addresses: 4 or 16 bytes, checked by sp_nla_get_addr(). */
#define SP_POLICY_ADDR NLA_POLICY_RANGE(NLA_BINARY, 4, 16)

static const struct nla_policy sp_allow_policy[SPARKPERF_A_ALLOW_MAX + 1] = {
	[SPARKPERF_A_ALLOW_NET] = { .type = NLA_NESTED },
};

static struct netlink_range_validation sp_range_server_bytes = {
	.min = 1 << 20, .max = SPARKPERF_SERVER_BYTES_MAX,
};

static const struct nla_policy sp_server_start_policy[SPARKPERF_A_SERVER_ALLOW + 1] = {
	[SPARKPERF_A_SERVER_ADDR] = SP_POLICY_ADDR,
	[SPARKPERF_A_SERVER_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[SPARKPERF_A_SERVER_CONNS_MAX] =
		NLA_POLICY_RANGE(NLA_U32, 1, SPARKPERF_SERVER_CONNS_MAX),
	[SPARKPERF_A_SERVER_BYTES_MAX] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &sp_range_server_bytes),
	[SPARKPERF_A_SERVER_THREADS_MAX] =
		NLA_POLICY_MAX(NLA_U32, SPARKPERF_SERVER_CONNS_MAX),
	[SPARKPERF_A_SERVER_ALLOW] = NLA_POLICY_NESTED(sp_allow_policy),
};

static const struct nla_policy sp_server_stop_policy[SPARKPERF_A_SERVER_ID + 1] = {
	[SPARKPERF_A_SERVER_ID] = { .type = NLA_U32 },
};

static struct netlink_range_validation sp_range_size = {
	.min = 1, .max = SPARKPERF_LAT_SIZE_MAX,
};

static struct netlink_range_validation sp_range_iters = {
	.min = 1, .max = SPARKPERF_LAT_ITERS_MAX,
};

static struct netlink_range_validation sp_range_duration = {
	.min = 1, .max = SPARKPERF_LAT_DURATION_MS_MAX,
};

static struct netlink_range_validation sp_range_warmup = {
	.max = SPARKPERF_LAT_WARMUP_MAX,
};

static struct netlink_range_validation sp_range_samples = {
	.max = SPARKPERF_LAT_SAMPLES_MAX,
};

static struct netlink_range_validation sp_range_interval = {
	.min = SPARKPERF_LAT_INTERVAL_MS_MIN,
	.max = SPARKPERF_LAT_INTERVAL_MS_MAX,
};

static const struct nla_policy sp_lat_run_policy[SPARKPERF_A_LAT_COMPLETION + 1] = {
	[SPARKPERF_A_LAT_PEER] = SP_POLICY_ADDR,
	[SPARKPERF_A_LAT_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[SPARKPERF_A_LAT_DEV] = { .type = NLA_NUL_STRING,
				  .len = SPARKPERF_DEV_NAME_MAX - 1 },
	[SPARKPERF_A_LAT_OP] = NLA_POLICY_RANGE(NLA_U8, SPARKPERF_LAT_OP_WRITE,
						SPARKPERF_LAT_OP_MAX),
	[SPARKPERF_A_LAT_SIZE] = NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_size),
	[SPARKPERF_A_LAT_ITERS] = NLA_POLICY_FULL_RANGE(NLA_U64,
							&sp_range_iters),
	[SPARKPERF_A_LAT_DURATION_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_duration),
	[SPARKPERF_A_LAT_WARMUP] = NLA_POLICY_FULL_RANGE(NLA_U32,
							 &sp_range_warmup),
	[SPARKPERF_A_LAT_CPU] = { .type = NLA_U32 },
	[SPARKPERF_A_LAT_SAMPLES_MAX] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_samples),
	[SPARKPERF_A_LAT_INTERVAL_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_interval),
	[SPARKPERF_A_LAT_COMPLETION] =
		NLA_POLICY_RANGE(NLA_U8, SPARKPERF_LAT_COMPLETION_RECV,
				 SPARKPERF_LAT_COMPLETION_MAX),
};

/* LAT_STOP, LAT_GET and LAT_SAMPLES: a session id. */
static const struct nla_policy sp_lat_id_policy[SPARKPERF_A_LAT_ID + 1] = {
	[SPARKPERF_A_LAT_ID] = { .type = NLA_U32 },
};

static struct netlink_range_validation sp_range_bw_size = {
	.min = 1, .max = SPARKPERF_BW_SIZE_MAX,
};

static struct netlink_range_validation sp_range_bw_iters = {
	.min = 1, .max = SPARKPERF_BW_ITERS_MAX,
};

static const struct nla_policy sp_bw_run_policy[SPARKPERF_A_BW_START_AT_NS + 1] = {
	[SPARKPERF_A_BW_PEER] = SP_POLICY_ADDR,
	[SPARKPERF_A_BW_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[SPARKPERF_A_BW_DEV] = { .type = NLA_NUL_STRING,
				 .len = SPARKPERF_DEV_NAME_MAX - 1 },
	[SPARKPERF_A_BW_OP] = NLA_POLICY_RANGE(NLA_U8, SPARKPERF_LAT_OP_WRITE,
					       SPARKPERF_LAT_OP_MAX),
	[SPARKPERF_A_BW_SIZE] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &sp_range_bw_size),
	[SPARKPERF_A_BW_QPS] = NLA_POLICY_RANGE(NLA_U32, 1,
						SPARKPERF_BW_QPS_MAX),
	[SPARKPERF_A_BW_THREADS] = NLA_POLICY_RANGE(NLA_U32, 1,
						    SPARKPERF_BW_THREADS_MAX),
	[SPARKPERF_A_BW_DEPTH] = NLA_POLICY_RANGE(NLA_U32, 1,
						  SPARKPERF_BW_DEPTH_MAX),
	/* At most DEPTH: checked by the handler. */
	[SPARKPERF_A_BW_SIGNAL] = NLA_POLICY_RANGE(NLA_U32, 1,
						   SPARKPERF_BW_DEPTH_MAX),
	[SPARKPERF_A_BW_ITERS] = NLA_POLICY_FULL_RANGE(NLA_U64,
						       &sp_range_bw_iters),
	[SPARKPERF_A_BW_DURATION_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_duration),
	[SPARKPERF_A_BW_BIDIR] = { .type = NLA_FLAG },
	[SPARKPERF_A_BW_VALIDATE] = { .type = NLA_FLAG },
	[SPARKPERF_A_BW_INTERVAL_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_interval),
	/* At most SPARKPERF_BW_START_AHEAD_MS ahead: checked by the handler. */
	[SPARKPERF_A_BW_START_AT_NS] = { .type = NLA_U64 },
};

/* BW_STOP and BW_GET: a session id. */
static const struct nla_policy sp_bw_id_policy[SPARKPERF_A_BW_ID + 1] = {
	[SPARKPERF_A_BW_ID] = { .type = NLA_U32 },
};

static const struct nla_policy sp_target_policy[SPARKPERF_A_TARGET_MAX + 1] = {
	[SPARKPERF_A_TARGET_NETDEV] = { .type = NLA_NUL_STRING,
					.len = IFNAMSIZ - 1 },
	[SPARKPERF_A_TARGET_RDMA_DEV] = { .type = NLA_NUL_STRING,
					  .len = SPARKPERF_DEV_NAME_MAX - 1 },
	[SPARKPERF_A_TARGET_RDMA_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
};

/* Inside TRACE_TARGETS: targets only; how many, the handler checks. */
static const struct nla_policy sp_targets_policy[SPARKPERF_A_TRACE_TARGET + 1] = {
	[SPARKPERF_A_TRACE_TARGET] = NLA_POLICY_NESTED(sp_target_policy),
};

/*
 * Inside TRACE_GLOBS: a source prefix ("ethtool:" at most) and up to
 * SPARKPERF_GLOB_MAX - 1 bytes of pattern; the handler checks the rest.
 */
static const struct nla_policy sp_globs_policy[SPARKPERF_A_TRACE_GLOB + 1] = {
	[SPARKPERF_A_TRACE_GLOB] = { .type = NLA_NUL_STRING,
				     .len = sizeof("ethtool:") - 1 +
					    SPARKPERF_GLOB_MAX - 1 },
};

static const struct nla_policy sp_counters_get_policy[SPARKPERF_A_TRACE_GLOB + 1] = {
	[SPARKPERF_A_TRACE_TARGET] = NLA_POLICY_NESTED(sp_target_policy),
	[SPARKPERF_A_TRACE_GLOBS] = NLA_POLICY_NESTED(sp_globs_policy),
};

static struct netlink_range_validation sp_range_netdev_period = {
	.min = SPARKPERF_TRACE_NETDEV_PERIOD_US_MIN,
	.max = SPARKPERF_TRACE_PERIOD_US_MAX,
};

static struct netlink_range_validation sp_range_slow_period = {
	.min = SPARKPERF_TRACE_SLOW_PERIOD_US_MIN,
	.max = SPARKPERF_TRACE_PERIOD_US_MAX,
};

static struct netlink_range_validation sp_range_trace_duration = {
	.min = 1, .max = SPARKPERF_TRACE_DURATION_MS_MAX,
};

static struct netlink_range_validation sp_range_buffer = {
	.min = SPARKPERF_TRACE_BUFFER_MIN, .max = SPARKPERF_TRACE_BUFFER_MAX,
};

static const struct nla_policy sp_trace_start_policy[SPARKPERF_A_TRACE_BATCH_MS + 1] = {
	[SPARKPERF_A_TRACE_TARGETS] = NLA_POLICY_NESTED(sp_targets_policy),
	[SPARKPERF_A_TRACE_GLOBS] = NLA_POLICY_NESTED(sp_globs_policy),
	[SPARKPERF_A_TRACE_NETDEV_PERIOD_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_netdev_period),
	[SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_slow_period),
	[SPARKPERF_A_TRACE_RDMA_PERIOD_US] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_slow_period),
	[SPARKPERF_A_TRACE_DURATION_MS] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_trace_duration),
	[SPARKPERF_A_TRACE_BUFFER_BYTES] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &sp_range_buffer),
	[SPARKPERF_A_TRACE_BATCH_MS] = NLA_POLICY_RANGE(NLA_U32, 1, 1000),
};

/* TRACE_STOP and TRACE_GET: a trace id. */
static const struct nla_policy sp_trace_id_policy[SPARKPERF_A_TRACE_ID + 1] = {
	[SPARKPERF_A_TRACE_ID] = { .type = NLA_U32 },
};

static const struct nla_policy sp_trace_samples_policy[SPARKPERF_A_TRACE_CURSOR + 1] = {
	[SPARKPERF_A_TRACE_ID] = { .type = NLA_U32 },
	[SPARKPERF_A_TRACE_CURSOR] = { .type = NLA_U64 },
};

enum sp_mcgrp {
	SP_MCGRP_EVENTS,
	SP_MCGRP_PROGRESS,
	SP_MCGRP_TRACE,
};

static const struct genl_multicast_group sp_mcgrps[] = {
	[SP_MCGRP_EVENTS] = { .name = SPARKPERF_MCGRP_EVENTS },
	[SP_MCGRP_PROGRESS] = { .name = SPARKPERF_MCGRP_PROGRESS,
				.flags = SP_MCGRP_ADMIN },
	[SP_MCGRP_TRACE] = { .name = SPARKPERF_MCGRP_TRACE,
			     .flags = SP_MCGRP_ADMIN },
};

void *sp_genl_put(struct sk_buff *skb, u32 portid, u32 seq, int flags, u8 cmd)
{
	return genlmsg_put(skb, portid, seq, &sp_genl_family, flags, cmd);
}

bool sp_genl_has_event_listeners(void)
{
	return genl_has_listeners(&sp_genl_family, &init_net, SP_MCGRP_EVENTS);
}

/* Consumes @skb. Nobody listening is not an error for an event. */
void sp_genl_send_event(struct sk_buff *skb)
{
	genlmsg_multicast(&sp_genl_family, skb, 0, SP_MCGRP_EVENTS, GFP_KERNEL);
}

bool sp_genl_has_progress_listeners(void)
{
	return genl_has_listeners(&sp_genl_family, &init_net,
				  SP_MCGRP_PROGRESS);
}

/* Consumes @skb. */
void sp_genl_send_progress(struct sk_buff *skb)
{
	genlmsg_multicast(&sp_genl_family, skb, 0, SP_MCGRP_PROGRESS,
			  GFP_KERNEL);
}

bool sp_genl_has_trace_listeners(void)
{
	return genl_has_listeners(&sp_genl_family, &init_net, SP_MCGRP_TRACE);
}

/* Consumes @skb. */
void sp_genl_send_trace(struct sk_buff *skb)
{
	genlmsg_multicast(&sp_genl_family, skb, 0, SP_MCGRP_TRACE, GFP_KERNEL);
}

/* An address attribute (policy: 4 to 16 bytes) and @port as a sockaddr. */
int sp_nla_get_addr(const struct nlattr *attr, u16 port,
		    struct sockaddr_storage *ss, struct netlink_ext_ack *extack)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	switch (nla_len(attr)) {
	case sizeof(struct in_addr):
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		nla_memcpy(&sin->sin_addr, attr, sizeof(sin->sin_addr));
		return 0;
	case sizeof(struct in6_addr):
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		nla_memcpy(&sin6->sin6_addr, attr, sizeof(sin6->sin6_addr));
		return 0;
	default:
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "address must be 4 (IPv4) or 16 (IPv6) bytes");
		/* A length inside the policy's range but not an address's. */
		return -ERANGE;
	}
}

int sp_nla_put_addr(struct sk_buff *skb, int type,
		    const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;

	if (ss->ss_family == AF_INET)
		return nla_put_in_addr(skb, type, sin->sin_addr.s_addr);
	return nla_put_in6_addr(skb, type, &sin6->sin6_addr);
}

static int sp_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *reply;
	void *hdr;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!reply)
		return -ENOMEM;

	hdr = sp_genl_put(reply, info->snd_portid, info->snd_seq, 0,
			  SPARKPERF_CMD_INFO_GET);
	if (!hdr)
		goto err_size;

	if (nla_put_string(reply, SPARKPERF_A_INFO_VERSION, SPARKPERF_VERSION) ||
	    nla_put_string(reply, SPARKPERF_A_INFO_KERNEL,
			   init_utsname()->release) ||
	    nla_put_u32(reply, SPARKPERF_A_INFO_DEVICES, sp_device_count()))
		goto err_size;

	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);

err_size:
	nlmsg_free(reply);
	return -EMSGSIZE;
}

static const struct genl_ops sp_genl_ops[] = {
	{
		.cmd = SPARKPERF_CMD_INFO_GET,
		.doit = sp_info_get_doit,
	},
	{
		.cmd = SPARKPERF_CMD_DEV_GET,
		.doit = sp_device_get_doit,
		.dumpit = sp_device_get_dumpit,
		.policy = sp_dev_get_policy,
		.maxattr = ARRAY_SIZE(sp_dev_get_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_SERVER_START,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_server_start_doit,
		.policy = sp_server_start_policy,
		.maxattr = ARRAY_SIZE(sp_server_start_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_SERVER_STOP,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_server_stop_doit,
		.policy = sp_server_stop_policy,
		.maxattr = ARRAY_SIZE(sp_server_stop_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_SERVER_GET,
		.flags = GENL_ADMIN_PERM,
		.dumpit = sp_server_get_dumpit,
	},
	{
		.cmd = SPARKPERF_CMD_LAT_RUN,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_session_run_doit,
		.policy = sp_lat_run_policy,
		.maxattr = ARRAY_SIZE(sp_lat_run_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_LAT_STOP,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_session_stop_doit,
		.policy = sp_lat_id_policy,
		.maxattr = ARRAY_SIZE(sp_lat_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_LAT_GET,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_session_get_doit,
		.dumpit = sp_session_get_dumpit,
		.policy = sp_lat_id_policy,
		.maxattr = ARRAY_SIZE(sp_lat_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_LAT_SAMPLES,
		.flags = GENL_ADMIN_PERM,
		.start = sp_lat_samples_start,
		.dumpit = sp_lat_samples_dumpit,
		.policy = sp_lat_id_policy,
		.maxattr = ARRAY_SIZE(sp_lat_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_BW_RUN,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_session_run_doit,
		.policy = sp_bw_run_policy,
		.maxattr = ARRAY_SIZE(sp_bw_run_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_BW_STOP,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_session_stop_doit,
		.policy = sp_bw_id_policy,
		.maxattr = ARRAY_SIZE(sp_bw_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_BW_GET,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_session_get_doit,
		.dumpit = sp_session_get_dumpit,
		.policy = sp_bw_id_policy,
		.maxattr = ARRAY_SIZE(sp_bw_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_COUNTERS_GET,
		.doit = sp_counters_get_doit,
		.policy = sp_counters_get_policy,
		.maxattr = ARRAY_SIZE(sp_counters_get_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_TRACE_START,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_trace_start_doit,
		.policy = sp_trace_start_policy,
		.maxattr = ARRAY_SIZE(sp_trace_start_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_TRACE_STOP,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_trace_stop_doit,
		.policy = sp_trace_id_policy,
		.maxattr = ARRAY_SIZE(sp_trace_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_TRACE_GET,
		.flags = GENL_ADMIN_PERM,
		.doit = sp_trace_get_doit,
		.start = sp_trace_get_start,
		.dumpit = sp_trace_get_dumpit,
		.policy = sp_trace_id_policy,
		.maxattr = ARRAY_SIZE(sp_trace_id_policy) - 1,
	},
	{
		.cmd = SPARKPERF_CMD_TRACE_SAMPLES,
		.flags = GENL_ADMIN_PERM,
		.start = sp_trace_samples_start,
		.dumpit = sp_trace_samples_dumpit,
		.policy = sp_trace_samples_policy,
		.maxattr = ARRAY_SIZE(sp_trace_samples_policy) - 1,
	},
};

static struct genl_family sp_genl_family __ro_after_init = {
	.name = SPARKPERF_GENL_NAME,
	.version = SPARKPERF_GENL_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.ops = sp_genl_ops,
	.n_ops = ARRAY_SIZE(sp_genl_ops),
	.mcgrps = sp_mcgrps,
	.n_mcgrps = ARRAY_SIZE(sp_mcgrps),
};

int __init sp_genl_init(void)
{
	pr_debug("multicast groups need CAP_NET_ADMIN through %s\n",
		 SP_MCGRP_ADMIN_NAME);
	return genl_register_family(&sp_genl_family);
}

void sp_genl_uninit(void)
{
	genl_unregister_family(&sp_genl_family);
}
