// SPDX-License-Identifier: GPL-2.0
/*
 * The "sparkperf" generic netlink family: ops, policies, multicast groups.
 *
 * Locking: parallel_ops is off, so genl_mutex serialises every doit; dumps
 * and notifications take the locks of the objects they read.
 */

#include <linux/utsname.h>
#include <net/genetlink.h>
#include <linux/sparkperf.h>

#include "device.h"
#include "netlink.h"
#include "version.h"

static struct genl_family sp_genl_family;

static const struct nla_policy sp_dev_get_policy[SPARKPERF_A_DEV_NAME + 1] = {
	[SPARKPERF_A_DEV_NAME] = { .type = NLA_NUL_STRING,
				   .len = SPARKPERF_DEV_NAME_MAX - 1 },
};

enum sp_mcgrp {
	SP_MCGRP_EVENTS,
};

static const struct genl_multicast_group sp_mcgrps[] = {
	[SP_MCGRP_EVENTS] = { .name = SPARKPERF_MCGRP_EVENTS },
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
};

static struct genl_family sp_genl_family __ro_after_init = {
	.name = SPARKPERF_GENL_NAME,
	.version = SPARKPERF_GENL_VERSION,
	.module = THIS_MODULE,
	.ops = sp_genl_ops,
	.n_ops = ARRAY_SIZE(sp_genl_ops),
	.mcgrps = sp_mcgrps,
	.n_mcgrps = ARRAY_SIZE(sp_mcgrps),
};

int __init sp_genl_init(void)
{
	return genl_register_family(&sp_genl_family);
}

void sp_genl_uninit(void)
{
	genl_unregister_family(&sp_genl_family);
}
