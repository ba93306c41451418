// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA device registry: an ib_client that follows every RDMA device,
 * describes its ports over netlink (SPARKPERF_CMD_DEV_GET) and announces
 * additions, port changes and removals on the "events" group.
 */

#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "device.h"
#include "netlink.h"
#include "trace.h"

struct sp_device {
	struct ib_device *ibdev;
	struct ib_event_handler event_handler;
	struct work_struct event_work;
	unsigned long changed_ports;	/* bit N: port N changed */
};

/*
 * Devices by RDMA core index. The lock also keeps each ib_device alive for
 * its readers: the RDMA core frees a device only after our remove callback,
 * which unlinks it under the lock, has returned.
 */
static DEFINE_XARRAY(sp_devices);
static DEFINE_MUTEX(sp_devices_lock);
static unsigned int sp_devices_gen;

struct sp_dump_ctx {
	unsigned long next_index;
};

/* Nominal data rate of one lane, Mbit/s, by enum sparkperf_port_speed. */
static const u32 sp_lane_mbps[] = {
	[SPARKPERF_SPEED_SDR] = 2500,
	[SPARKPERF_SPEED_DDR] = 5000,
	[SPARKPERF_SPEED_QDR] = 10000,
	[SPARKPERF_SPEED_FDR10] = 10000,
	[SPARKPERF_SPEED_FDR] = 14000,
	[SPARKPERF_SPEED_EDR] = 25000,
	[SPARKPERF_SPEED_HDR] = 50000,
	[SPARKPERF_SPEED_NDR] = 100000,
	[SPARKPERF_SPEED_XDR] = 200000,
};

#define SP_GID_SIZE (nla_total_size(0) + nla_total_size(sizeof(u32)) + \
		     nla_total_size(sizeof(u8)) + \
		     nla_total_size(sizeof(union ib_gid)))
#define SP_PORT_SIZE (nla_total_size(0) + 6 * nla_total_size(sizeof(u32)) + \
		      6 * nla_total_size(sizeof(u8)) + \
		      nla_total_size(IFNAMSIZ) + nla_total_size(0))
#define SP_DEV_SIZE (2 * nla_total_size(sizeof(u32)) + \
		     nla_total_size(SPARKPERF_DEV_NAME_MAX) + \
		     nla_total_size_64bit(sizeof(u64)) + \
		     nla_total_size(sizeof(s32)) + nla_total_size(32) + \
		     nla_total_size(0))

static u8 sp_speed(u16 ib_speed)
{
	switch (ib_speed) {
	case IB_SPEED_SDR:
		return SPARKPERF_SPEED_SDR;
	case IB_SPEED_DDR:
		return SPARKPERF_SPEED_DDR;
	case IB_SPEED_QDR:
		return SPARKPERF_SPEED_QDR;
	case IB_SPEED_FDR10:
		return SPARKPERF_SPEED_FDR10;
	case IB_SPEED_FDR:
		return SPARKPERF_SPEED_FDR;
	case IB_SPEED_EDR:
		return SPARKPERF_SPEED_EDR;
	case IB_SPEED_HDR:
		return SPARKPERF_SPEED_HDR;
	case IB_SPEED_NDR:
		return SPARKPERF_SPEED_NDR;
	case IB_SPEED_XDR:
		return SPARKPERF_SPEED_XDR;
	default:
		return SPARKPERF_SPEED_UNKNOWN;
	}
}

/* Worst case: every GID table entry valid. */
static size_t sp_device_msg_size(const struct ib_device *ibdev)
{
	size_t size = SP_DEV_SIZE;
	u32 port;

	rdma_for_each_port(ibdev, port)
		size += SP_PORT_SIZE +
			ibdev->port_data[port].immutable.gid_tbl_len *
			SP_GID_SIZE;
	return size;
}

static struct device *sp_pci_ancestor(struct device *dev)
{
	for (; dev; dev = dev->parent)
		if (dev_is_pci(dev))
			return dev;
	return NULL;
}

/*
 * The netdev of a RoCE port, through the default GID every RoCE port has:
 * the RDMA core does not export its port-to-netdev lookup on 6.1.
 */
static const struct ib_gid_attr *sp_roce_default_gid(struct ib_device *ibdev,
						     u32 port)
{
	if (!rdma_protocol_roce(ibdev, port))
		return NULL;
	return rdma_get_gid_attr(ibdev, port, 0);
}

/*
 * The PCI function the device hangs off; for software devices such as rxe,
 * the one under the netdev of its first port.
 */
static int sp_fill_parent(struct sk_buff *skb, struct ib_device *ibdev)
{
	const struct ib_gid_attr *gid_attr = NULL;
	struct net_device *ndev;
	struct device *parent;
	int ret = 0;

	rcu_read_lock();
	parent = sp_pci_ancestor(ibdev->dev.parent);
	if (!parent) {
		rcu_read_unlock();
		gid_attr = sp_roce_default_gid(ibdev, rdma_start_port(ibdev));
		if (IS_ERR(gid_attr))
			gid_attr = NULL;
		rcu_read_lock();
		ndev = gid_attr ? rdma_read_gid_attr_ndev_rcu(gid_attr) : NULL;
		if (!IS_ERR_OR_NULL(ndev))
			parent = sp_pci_ancestor(ndev->dev.parent);
	}
	if (nla_put_s32(skb, SPARKPERF_A_DEV_NUMA_NODE,
			parent ? dev_to_node(parent) : NUMA_NO_NODE) ||
	    (parent && nla_put_string(skb, SPARKPERF_A_DEV_PARENT,
				      dev_name(parent))))
		ret = -EMSGSIZE;
	rcu_read_unlock();
	if (gid_attr)
		rdma_put_gid_attr(gid_attr);
	return ret;
}

static int sp_fill_netdev(struct sk_buff *skb, struct ib_device *ibdev,
			  u32 port)
{
	const struct ib_gid_attr *gid_attr;
	struct net_device *ndev;
	int ret = 0;

	gid_attr = sp_roce_default_gid(ibdev, port);
	if (IS_ERR_OR_NULL(gid_attr))
		return 0;

	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(gid_attr);
	if (!IS_ERR(ndev) &&
	    (nla_put_u32(skb, SPARKPERF_A_PORT_NETDEV_IFINDEX, ndev->ifindex) ||
	     nla_put_string(skb, SPARKPERF_A_PORT_NETDEV_NAME, ndev->name) ||
	     nla_put_u32(skb, SPARKPERF_A_PORT_NETDEV_MTU,
			 READ_ONCE(ndev->mtu)) ||
	     nla_put_u8(skb, SPARKPERF_A_PORT_NETDEV_OPERSTATE,
			READ_ONCE(ndev->operstate))))
		ret = -EMSGSIZE;
	rcu_read_unlock();
	rdma_put_gid_attr(gid_attr);
	return ret;
}

static int sp_fill_gids(struct sk_buff *skb, struct ib_device *ibdev,
			u32 port, int gid_tbl_len)
{
	const struct ib_gid_attr *gid_attr;
	struct nlattr *gids, *gid;
	int index, ret;

	gids = nla_nest_start(skb, SPARKPERF_A_PORT_GIDS);
	if (!gids)
		return -EMSGSIZE;

	for (index = 0; index < gid_tbl_len; index++) {
		gid_attr = rdma_get_gid_attr(ibdev, port, index);
		if (IS_ERR(gid_attr))
			continue;
		gid = nla_nest_start(skb, SPARKPERF_A_PORT_GID);
		ret = !gid ||
		      nla_put_u32(skb, SPARKPERF_A_GID_INDEX, index) ||
		      nla_put_u8(skb, SPARKPERF_A_GID_TYPE, gid_attr->gid_type) ||
		      nla_put(skb, SPARKPERF_A_GID_GID, sizeof(gid_attr->gid),
			      &gid_attr->gid);
		rdma_put_gid_attr(gid_attr);
		if (ret)
			return -EMSGSIZE;
		nla_nest_end(skb, gid);
	}
	nla_nest_end(skb, gids);
	return 0;
}

static int sp_fill_port(struct sk_buff *skb, struct ib_device *ibdev, u32 port)
{
	struct ib_port_attr attr;
	struct nlattr *nest;
	int lanes, ret;
	u8 speed;

	ret = ib_query_port(ibdev, port, &attr);
	if (ret)
		return ret;

	lanes = max(ib_width_enum_to_int(attr.active_width), 0);
	speed = sp_speed(attr.active_speed);

	nest = nla_nest_start(skb, SPARKPERF_A_DEV_PORT);
	if (!nest ||
	    nla_put_u32(skb, SPARKPERF_A_PORT_NUM, port) ||
	    nla_put_u8(skb, SPARKPERF_A_PORT_STATE, attr.state) ||
	    nla_put_u8(skb, SPARKPERF_A_PORT_PHYS_STATE, attr.phys_state) ||
	    nla_put_u8(skb, SPARKPERF_A_PORT_LINK_LAYER,
		       rdma_port_get_link_layer(ibdev, port)) ||
	    nla_put_u32(skb, SPARKPERF_A_PORT_ACTIVE_MTU,
			max(ib_mtu_enum_to_int(attr.active_mtu), 0)) ||
	    nla_put_u32(skb, SPARKPERF_A_PORT_MAX_MTU,
			max(ib_mtu_enum_to_int(attr.max_mtu), 0)) ||
	    nla_put_u8(skb, SPARKPERF_A_PORT_ACTIVE_SPEED, speed) ||
	    nla_put_u8(skb, SPARKPERF_A_PORT_ACTIVE_WIDTH, lanes) ||
	    nla_put_u32(skb, SPARKPERF_A_PORT_RATE,
			(speed < ARRAY_SIZE(sp_lane_mbps) ?
			 sp_lane_mbps[speed] : 0) * lanes))
		return -EMSGSIZE;

	ret = sp_fill_netdev(skb, ibdev, port);
	if (!ret)
		ret = sp_fill_gids(skb, ibdev, port, attr.gid_tbl_len);
	if (ret)
		return ret;

	nla_nest_end(skb, nest);
	return 0;
}

static int sp_fill_device(struct sk_buff *skb, struct ib_device *ibdev,
			  u32 event_port)
{
	struct nlattr *ports;
	u32 port;
	int ret;

	if (nla_put_u64_64bit(skb, SPARKPERF_A_DEV_NODE_GUID,
			      be64_to_cpu(ibdev->node_guid),
			      SPARKPERF_A_DEV_PAD) ||
	    (event_port &&
	     nla_put_u32(skb, SPARKPERF_A_DEV_EVENT_PORT, event_port)))
		return -EMSGSIZE;

	ret = sp_fill_parent(skb, ibdev);
	if (ret)
		return ret;

	ports = nla_nest_start(skb, SPARKPERF_A_DEV_PORTS);
	if (!ports)
		return -EMSGSIZE;
	rdma_for_each_port(ibdev, port) {
		ret = sp_fill_port(skb, ibdev, port);
		if (ret)
			return ret;
	}
	nla_nest_end(skb, ports);
	return 0;
}

/*
 * One device message. SPARKPERF_CMD_DEV_DEL carries the identity only;
 * @cb is set for dumps, to flag a device list that changed meanwhile.
 */
static int sp_device_msg(struct sk_buff *skb, struct ib_device *ibdev, u8 cmd,
			 u32 event_port, u32 portid, u32 seq, int flags,
			 struct netlink_callback *cb)
{
	void *hdr;
	int ret = -EMSGSIZE;

	hdr = sp_genl_put(skb, portid, seq, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	if (nla_put_u32(skb, SPARKPERF_A_DEV_INDEX, ibdev->index) ||
	    nla_put_string(skb, SPARKPERF_A_DEV_NAME, dev_name(&ibdev->dev)))
		goto err;
	if (cmd != SPARKPERF_CMD_DEV_DEL) {
		ret = sp_fill_device(skb, ibdev, event_port);
		if (ret)
			goto err;
	}
	genlmsg_end(skb, hdr);
	return 0;

err:
	genlmsg_cancel(skb, hdr);
	return ret;
}

static void sp_notify(struct ib_device *ibdev, u8 cmd, u32 event_port)
{
	struct sk_buff *skb;
	int ret;

	if (!sp_genl_has_event_listeners())
		return;

	skb = genlmsg_new(sp_device_msg_size(ibdev), GFP_KERNEL);
	if (!skb) {
		ret = -ENOMEM;
		goto lost;
	}
	ret = sp_device_msg(skb, ibdev, cmd, event_port, 0, 0, 0, NULL);
	if (ret) {
		nlmsg_free(skb);
		goto lost;
	}
	sp_genl_send_event(skb);
	return;

lost:
	pr_warn_ratelimited("event %u of %s lost: %d\n", cmd,
			    dev_name(&ibdev->dev), ret);
}

/*
 * The NUMA node of @ibdev's PCI function (for rxe, of its port 1 netdev's),
 * as SPARKPERF_A_DEV_NUMA_NODE reports it; NUMA_NO_NODE when unknown.
 */
int sp_device_numa_node(struct ib_device *ibdev)
{
	const struct ib_gid_attr *gid_attr;
	struct net_device *ndev;
	struct device *parent;
	int node = NUMA_NO_NODE;

	parent = sp_pci_ancestor(ibdev->dev.parent);
	if (parent)
		return dev_to_node(parent);

	gid_attr = sp_roce_default_gid(ibdev, rdma_start_port(ibdev));
	if (IS_ERR_OR_NULL(gid_attr))
		return NUMA_NO_NODE;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(gid_attr);
	if (!IS_ERR(ndev)) {
		parent = sp_pci_ancestor(ndev->dev.parent);
		if (parent)
			node = dev_to_node(parent);
	}
	rcu_read_unlock();
	rdma_put_gid_attr(gid_attr);
	return node;
}

/* The registered device called @name, or NULL; sp_devices_lock held. */
static struct sp_device *sp_device_find(const char *name)
{
	struct sp_device *spdev;
	unsigned long index;

	lockdep_assert_held(&sp_devices_lock);
	xa_for_each(&sp_devices, index, spdev)
		if (!strcmp(name, dev_name(&spdev->ibdev->dev)))
			return spdev;
	return NULL;
}

/* Whether an RDMA device of this name exists; its NUMA node in *@node. */
bool sp_device_lookup(const char *name, int *node)
{
	struct sp_device *spdev;

	mutex_lock(&sp_devices_lock);
	spdev = sp_device_find(name);
	if (spdev)
		*node = sp_device_numa_node(spdev->ibdev);
	mutex_unlock(&sp_devices_lock);
	return spdev;
}

/*
 * The registered RDMA device called @name, held (ib_device_put() it), or
 * NULL. The RDMA core's ib_device_get_by_name() is not for modules.
 */
struct ib_device *sp_device_get(const char *name)
{
	struct ib_device *ibdev = NULL;
	struct sp_device *spdev;

	mutex_lock(&sp_devices_lock);
	spdev = sp_device_find(name);
	if (spdev && ib_device_try_get(spdev->ibdev))
		ibdev = spdev->ibdev;
	mutex_unlock(&sp_devices_lock);
	return ibdev;
}

/*
 * Whether @ibdev is in the registry: its remove has not begun. The entry is
 * read under the lock: once it is dropped, sp_remove_one() may free it.
 */
bool sp_device_present(const struct ib_device *ibdev)
{
	struct sp_device *spdev;
	bool present;

	mutex_lock(&sp_devices_lock);
	spdev = xa_load(&sp_devices, ibdev->index);
	present = spdev && spdev->ibdev == ibdev;
	mutex_unlock(&sp_devices_lock);
	return present;
}

u32 sp_device_count(void)
{
	struct sp_device *spdev;
	unsigned long index;
	u32 count = 0;

	mutex_lock(&sp_devices_lock);
	xa_for_each(&sp_devices, index, spdev)
		count++;
	mutex_unlock(&sp_devices_lock);
	return count;
}

int sp_device_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name = info->attrs[SPARKPERF_A_DEV_NAME];
	struct sk_buff *reply = NULL;
	struct sp_device *spdev;
	unsigned long index;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_DEV_NAME))
		return -EINVAL;

	mutex_lock(&sp_devices_lock);
	xa_for_each(&sp_devices, index, spdev)
		if (!nla_strcmp(name, dev_name(&spdev->ibdev->dev)) &&
		    rdma_dev_access_netns(spdev->ibdev, genl_info_net(info)))
			break;
	if (!spdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, name,
				    "no RDMA device with this name");
		ret = -ENODEV;
		goto out;
	}

	reply = genlmsg_new(sp_device_msg_size(spdev->ibdev), GFP_KERNEL);
	ret = reply ? sp_device_msg(reply, spdev->ibdev, SPARKPERF_CMD_DEV_GET,
				    0, info->snd_portid, info->snd_seq, 0,
				    NULL) : -ENOMEM;
out:
	mutex_unlock(&sp_devices_lock);
	if (ret) {
		nlmsg_free(reply);
		return ret;
	}
	return genlmsg_reply(reply, info);
}

int sp_device_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_dump_ctx *ctx = (struct sp_dump_ctx *)cb->ctx;
	struct sp_device *spdev;
	unsigned long index;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	mutex_lock(&sp_devices_lock);
	cb->seq = sp_devices_gen;
	xa_for_each_start(&sp_devices, index, spdev, ctx->next_index) {
		/* As rdma_nl: in exclusive mode, only the caller's netns. */
		if (!rdma_dev_access_netns(spdev->ibdev,
					   sock_net(cb->skb->sk))) {
			ctx->next_index = index + 1;
			continue;
		}
		ret = sp_device_msg(skb, spdev->ibdev, SPARKPERF_CMD_DEV_GET, 0,
				    NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (ret)
			break;
		ctx->next_index = index + 1;
	}
	mutex_unlock(&sp_devices_lock);

	/* A full skb with messages in it: come back for the rest. */
	if (ret == -EMSGSIZE && skb->len)
		ret = 0;
	return ret ?: skb->len;
}

static void sp_event_work(struct work_struct *work)
{
	struct sp_device *spdev = container_of(work, struct sp_device,
					       event_work);
	unsigned long ports = xchg(&spdev->changed_ports, 0);
	unsigned int port;

	for_each_set_bit(port, &ports, BITS_PER_LONG)
		sp_notify(spdev->ibdev, SPARKPERF_CMD_DEV_CHANGE, port);
}

/* May run in atomic context: record the port, announce from a work item. */
static void sp_event_handler(struct ib_event_handler *handler,
			     struct ib_event *event)
{
	struct sp_device *spdev = container_of(handler, struct sp_device,
					       event_handler);
	u32 port = event->element.port_num;

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_GID_CHANGE:
		break;
	default:
		return;
	}
	if (port >= BITS_PER_LONG)
		return;
	set_bit(port, &spdev->changed_ports);
	schedule_work(&spdev->event_work);
}

static struct ib_client sp_client;

static int sp_add_one(struct ib_device *ibdev)
{
	struct sp_device *spdev;
	int ret;

	spdev = kzalloc(sizeof(*spdev), GFP_KERNEL);
	if (!spdev)
		return -ENOMEM;
	spdev->ibdev = ibdev;
	INIT_WORK(&spdev->event_work, sp_event_work);
	INIT_IB_EVENT_HANDLER(&spdev->event_handler, ibdev, sp_event_handler);

	mutex_lock(&sp_devices_lock);
	ret = xa_insert(&sp_devices, ibdev->index, spdev, GFP_KERNEL);
	if (!ret)
		sp_devices_gen++;
	mutex_unlock(&sp_devices_lock);
	if (ret) {
		kfree(spdev);
		return ret;
	}

	ib_set_client_data(ibdev, &sp_client, spdev);
	ib_register_event_handler(&spdev->event_handler);
	pr_debug("device %u created\n", ibdev->index);
	sp_notify(ibdev, SPARKPERF_CMD_DEV_NEW, 0);
	return 0;
}

static void sp_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct sp_device *spdev = client_data;

	ib_unregister_event_handler(&spdev->event_handler);
	cancel_work_sync(&spdev->event_work);

	mutex_lock(&sp_devices_lock);
	xa_erase(&sp_devices, ibdev->index);
	sp_devices_gen++;
	mutex_unlock(&sp_devices_lock);

	/* Out of the registry, so no new trace can take it. */
	sp_trace_device_removed(ibdev);
	sp_notify(ibdev, SPARKPERF_CMD_DEV_DEL, 0);
	pr_debug("device %u destroyed\n", ibdev->index);
	kfree(spdev);
}

static struct ib_client sp_client = {
	.name = "sparkperf",
	.add = sp_add_one,
	.remove = sp_remove_one,
};

int __init sp_device_init(void)
{
	/* The uapi enums carry the RDMA core's values unchanged. */
	BUILD_BUG_ON((int)IB_PORT_ACTIVE_DEFER != SPARKPERF_PORT_ACTIVE_DEFER);
	BUILD_BUG_ON((int)IB_PORT_PHYS_STATE_PHY_TEST != SPARKPERF_PHYS_PHY_TEST);
	BUILD_BUG_ON((int)IB_LINK_LAYER_ETHERNET !=
		     SPARKPERF_LINK_LAYER_ETHERNET);
	BUILD_BUG_ON((int)IB_GID_TYPE_ROCE_UDP_ENCAP !=
		     SPARKPERF_GID_TYPE_ROCE_V2);

	return ib_register_client(&sp_client);
}

void sp_device_uninit(void)
{
	ib_unregister_client(&sp_client);
}
