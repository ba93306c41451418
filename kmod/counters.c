// SPDX-License-Identifier: GPL-2.0
/*
 * Counter sources. A target is opened with a reference on its device
 * (a tracked netdev reference, or an RDMA device registration reference
 * with a private rdma_hw_stats); its streams select names by glob, and
 * each read fills the selected values in name order. Locking is the
 * caller's: the ethtool ops want rtnl, get_hw_stats process context,
 * dev_get_stats a registered netdev.
 */

#include <linux/ethtool.h>
#include <linux/glob.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/pm_runtime.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "netlink.h"

/* Bound on a driver's ethtool table, and room for it to grow in a trace. */
#define SP_ETHTOOL_NAMES_MAX 16384
#define SP_ETHTOOL_HEADROOM(n) ((n) / 2 + 64)
/* The longest a same-count rename of the statistics goes unseen. */
#define SP_ETHTOOL_NAMES_NS NSEC_PER_SEC
/* Room for a traced ethtool selection to grow. */
#define SP_SLOT_HEADROOM(n) ((n) / 2 + 16)

struct sp_netdev_stat {
	const char *name;
	size_t offset;
};

#define SP_NETDEV_STAT(f) { #f, offsetof(struct rtnl_link_stats64, f) }

/* The fields of struct rtnl_link_stats64 that 6.1 to 7.3 all have. */
static const struct sp_netdev_stat sp_netdev_stats[] = {
	SP_NETDEV_STAT(rx_packets),
	SP_NETDEV_STAT(tx_packets),
	SP_NETDEV_STAT(rx_bytes),
	SP_NETDEV_STAT(tx_bytes),
	SP_NETDEV_STAT(rx_errors),
	SP_NETDEV_STAT(tx_errors),
	SP_NETDEV_STAT(rx_dropped),
	SP_NETDEV_STAT(tx_dropped),
	SP_NETDEV_STAT(multicast),
	SP_NETDEV_STAT(collisions),
	SP_NETDEV_STAT(rx_length_errors),
	SP_NETDEV_STAT(rx_over_errors),
	SP_NETDEV_STAT(rx_crc_errors),
	SP_NETDEV_STAT(rx_frame_errors),
	SP_NETDEV_STAT(rx_fifo_errors),
	SP_NETDEV_STAT(rx_missed_errors),
	SP_NETDEV_STAT(tx_aborted_errors),
	SP_NETDEV_STAT(tx_carrier_errors),
	SP_NETDEV_STAT(tx_fifo_errors),
	SP_NETDEV_STAT(tx_heartbeat_errors),
	SP_NETDEV_STAT(tx_window_errors),
	SP_NETDEV_STAT(rx_compressed),
	SP_NETDEV_STAT(tx_compressed),
	SP_NETDEV_STAT(rx_nohandler),
	SP_NETDEV_STAT(rx_otherhost_dropped),
};

static const char *const sp_source_prefix[] = {
	[SPARKPERF_SRC_NETDEV] = "netdev",
	[SPARKPERF_SRC_ETHTOOL] = "ethtool",
	[SPARKPERF_SRC_RDMA] = "rdma",
};

const char *sp_source_str(u8 source)
{
	return sp_source_prefix[source];
}

static bool sp_glob_char_ok(char c)
{
	return isalnum(c) || strchr("_.*?![]-", c);
}

/* NULL if @pattern is a glob the contract allows, else why not. */
static const char *sp_glob_check(const char *pattern)
{
	const char *p, *close;
	size_t len = strlen(pattern);

	if (!len)
		return "empty glob";
	if (len >= SPARKPERF_GLOB_MAX)
		return "glob too long";
	for (p = pattern; *p; p++)
		if (!sp_glob_char_ok(*p))
			return "invalid character in glob";
	for (p = pattern; (p = strchr(p, '[')); p = close + 1) {
		/* glob_match() takes the first character of a class as is. */
		p += 1 + (p[1] == '!');
		close = *p ? strchr(p + 1, ']') : NULL;
		if (!close)
			return "unclosed [ in glob";
	}
	return NULL;
}

static int sp_glob_parse(struct sp_glob *g, const struct nlattr *attr,
			 struct netlink_ext_ack *extack)
{
	const char *str = nla_data(attr), *colon, *why;
	unsigned int src;

	g->source = 0;
	colon = strchr(str, ':');
	if (colon) {
		for (src = SPARKPERF_SRC_NETDEV; src <= SPARKPERF_SRC_MAX; src++)
			if (strlen(sp_source_prefix[src]) == colon - str &&
			    !strncmp(str, sp_source_prefix[src], colon - str))
				g->source = src;
		if (!g->source) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "unknown counter source in glob (netdev, ethtool or rdma)");
			return -EINVAL;
		}
		str = colon + 1;
	}
	why = sp_glob_check(str);
	if (why) {
		NL_SET_BAD_ATTR(extack, attr);
		sp_set_err_msg_fmt(extack, "invalid glob", "%s: \"%s\"", why,
				   (const char *)nla_data(attr));
		return -EINVAL;
	}
	strscpy(g->pattern, str, sizeof(g->pattern));
	return 0;
}

int sp_globs_parse(struct sp_globs *globs, const struct nlattr *nest,
		   struct netlink_ext_ack *extack)
{
	const struct nlattr *attr;
	int rem, ret;

	globs->n = 0;
	nla_for_each_nested(attr, nest, rem) {
		if (globs->n == SPARKPERF_TRACE_GLOBS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "too many globs");
			return -EINVAL;
		}
		ret = sp_glob_parse(&globs->g[globs->n], attr, extack);
		if (ret)
			return ret;
		globs->n++;
	}
	if (!globs->n) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "no glob in GLOBS");
		return -EINVAL;
	}
	return 0;
}

static bool sp_globs_match(const struct sp_globs *globs, u8 source,
			   const char *name)
{
	unsigned int i;

	if (!globs || !globs->n)
		return true;
	for (i = 0; i < globs->n; i++)
		if ((!globs->g[i].source || globs->g[i].source == source) &&
		    glob_match(globs->g[i].pattern, name))
			return true;
	return false;
}

/* The policy has checked each attribute; this checks their combination. */
int sp_target_check(const struct nlattr *nest, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SPARKPERF_A_TARGET_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, SPARKPERF_A_TARGET_MAX, nest, NULL, extack);
	if (ret)
		return ret;
	if (!tb[SPARKPERF_A_TARGET_NETDEV] == !tb[SPARKPERF_A_TARGET_RDMA_DEV]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a target needs exactly one of NETDEV and RDMA_DEV");
		return -EINVAL;
	}
	if (tb[SPARKPERF_A_TARGET_NETDEV] && tb[SPARKPERF_A_TARGET_RDMA_PORT]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SPARKPERF_A_TARGET_RDMA_PORT],
				    "RDMA_PORT goes with RDMA_DEV, not NETDEV");
		return -EINVAL;
	}
	return 0;
}

/*
 * Around ethtool calls, as the ethtool core brackets them (under rtnl and
 * the instance lock): the parent device resumed from runtime suspend, the
 * netdev present (not detached by suspend, removal or a reset, when its
 * driver may have freed its rings and their statistics), and the driver's
 * begin and complete, with which some drivers wake the NIC. -ENODEV when
 * the netdev is not present.
 */
static int sp_ethtool_begin(struct net_device *dev)
{
	int ret = 0;

	if (dev->dev.parent)
		pm_runtime_get_sync(dev->dev.parent);
	if (!netif_device_present(dev) ||
	    READ_ONCE(dev->reg_state) >= NETREG_UNREGISTERING)
		ret = -ENODEV;
	else if (dev->ethtool_ops->begin)
		ret = dev->ethtool_ops->begin(dev);
	if (ret && dev->dev.parent)
		pm_runtime_put(dev->dev.parent);
	return ret;
}

static void sp_ethtool_complete(struct net_device *dev)
{
	if (dev->ethtool_ops->complete)
		dev->ethtool_ops->complete(dev);
	if (dev->dev.parent)
		pm_runtime_put(dev->dev.parent);
}

/*
 * Under rtnl: the netdev's ethtool table, with room to grow if @headroom.
 * The count and the names come from one hold of the locks, as in the
 * ethtool core, so that the table cannot grow past the buffers between.
 */
static int sp_ethtool_open(struct sp_target *tg, bool headroom)
{
	const struct ethtool_ops *ops = tg->dev->ethtool_ops;
	int n, ret;

	if (!ops || !ops->get_sset_count || !ops->get_strings ||
	    !ops->get_ethtool_stats)
		return 0;
	sp_netdev_lock_ops(tg->dev);
	ret = sp_ethtool_begin(tg->dev);
	if (ret)
		goto unlock;
	n = ops->get_sset_count(tg->dev, ETH_SS_STATS);
	if (n <= 0)
		goto out;
	if (n > SP_ETHTOOL_NAMES_MAX) {
		ret = -E2BIG;
		goto out;
	}

	tg->eth_cap = headroom ? min(n + SP_ETHTOOL_HEADROOM(n),
				     SP_ETHTOOL_NAMES_MAX) : n;
	tg->eth_names = kvcalloc(tg->eth_cap, SP_NAME_LEN, GFP_KERNEL);
	tg->eth_new = kvcalloc(tg->eth_cap, SP_NAME_LEN, GFP_KERNEL);
	tg->eth_values = kvcalloc(tg->eth_cap, sizeof(u64), GFP_KERNEL);
	if (!tg->eth_names || !tg->eth_new || !tg->eth_values) {
		ret = -ENOMEM;
		goto out;
	}
	ops->get_strings(tg->dev, ETH_SS_STATS, tg->eth_names);
	tg->eth_names_ns = ktime_get_ns();
	tg->eth_count = n;
out:
	sp_ethtool_complete(tg->dev);
unlock:
	sp_netdev_unlock_ops(tg->dev);
	return ret;
}

static int sp_target_open_netdev(struct sp_target *tg,
				 const struct nlattr *attr, bool headroom,
				 struct netlink_ext_ack *extack)
{
	struct net_device *dev;
	int ret;

	nla_strscpy(tg->name, attr, IFNAMSIZ);
	rtnl_lock();
	dev = __dev_get_by_name(&init_net, tg->name);
	if (!dev) {
		rtnl_unlock();
		NL_SET_BAD_ATTR(extack, attr);
		sp_set_err_msg_fmt(extack, "no netdev with this name",
				   "no netdev %s", tg->name);
		return -ENODEV;
	}
	netdev_hold(dev, &tg->tracker, GFP_KERNEL);
	tg->dev = dev;
	tg->ifindex = dev->ifindex;
	ret = sp_ethtool_open(tg, headroom);
	rtnl_unlock();
	if (ret == -E2BIG)
		sp_set_err_msg_fmt(extack, "too many ethtool statistics",
				   "%s has more than %u ethtool statistics",
				   tg->name, SP_ETHTOOL_NAMES_MAX);
	else if (ret == -ENODEV)
		sp_set_err_msg_fmt(extack, "the netdev is not present",
				   "%s is not present (detached)", tg->name);
	else if (ret && ret != -ENOMEM)
		sp_set_err_msg_fmt(extack, "opening the ethtool statistics failed",
				   "the ethtool statistics of %s: begin failed: %d",
				   tg->name, ret);
	return ret;
}

static int sp_target_open_rdma(struct sp_target *tg, struct nlattr **tb,
			       const struct nlattr *nest,
			       struct netlink_ext_ack *extack)
{
	const struct nlattr *attr = tb[SPARKPERF_A_TARGET_RDMA_DEV];
	const struct nlattr *port = tb[SPARKPERF_A_TARGET_RDMA_PORT];
	struct ib_device *ibdev;

	tg->is_rdma = true;
	nla_strscpy(tg->name, attr, sizeof(tg->name));
	tg->port = port ? nla_get_u32(port) : 1;
	ibdev = sp_device_get(tg->name);
	if (!ibdev) {
		NL_SET_BAD_ATTR(extack, attr);
		sp_set_err_msg_fmt(extack, "no RDMA device with this name",
				   "no RDMA device %s", tg->name);
		return -ENODEV;
	}
	tg->ibdev = ibdev;
	if (!rdma_is_port_valid(ibdev, tg->port)) {
		NL_SET_BAD_ATTR(extack, port ?: nest);
		sp_set_err_msg_fmt(extack, "the RDMA device has no such port",
				   "%s has no port %u", tg->name, tg->port);
		return -EINVAL;
	}
	if (ibdev->ops.alloc_hw_port_stats && ibdev->ops.get_hw_stats)
		tg->hw = ibdev->ops.alloc_hw_port_stats(ibdev, tg->port);
	return 0;
}

/*
 * Resolves the target in @nest (checked by sp_target_check()) and holds
 * its device; ethtool tables get room to grow if @headroom. On error the
 * caller still calls sp_target_close().
 */
int sp_target_open(struct sp_target *tg, const struct nlattr *nest,
		   bool headroom, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SPARKPERF_A_TARGET_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, SPARKPERF_A_TARGET_MAX, nest, NULL, extack);
	if (ret)
		return ret;
	if (tb[SPARKPERF_A_TARGET_NETDEV])
		return sp_target_open_netdev(tg, tb[SPARKPERF_A_TARGET_NETDEV],
					     headroom, extack);
	return sp_target_open_rdma(tg, tb, nest, extack);
}

void sp_target_put_netdev(struct sp_target *tg)
{
	if (tg->dev)
		netdev_put(tg->dev, &tg->tracker);
	tg->dev = NULL;
}

void sp_target_put_rdma(struct sp_target *tg)
{
	if (tg->hw)
		rdma_free_hw_stats_struct(tg->hw);
	tg->hw = NULL;
	if (tg->ibdev)
		ib_device_put(tg->ibdev);
	tg->ibdev = NULL;
}

void sp_target_close(struct sp_target *tg)
{
	sp_target_put_netdev(tg);
	sp_target_put_rdma(tg);
	kvfree(tg->eth_names);
	kvfree(tg->eth_new);
	kvfree(tg->eth_values);
	tg->eth_names = NULL;
	tg->eth_new = NULL;
	tg->eth_values = NULL;
}

static u32 sp_source_count(const struct sp_stream *st)
{
	switch (st->source) {
	case SPARKPERF_SRC_NETDEV:
		return ARRAY_SIZE(sp_netdev_stats);
	case SPARKPERF_SRC_ETHTOOL:
		return st->tg->eth_count;
	default:
		return st->tg->hw ? st->tg->hw->num_counters : 0;
	}
}

/* Name @i of the stream's source in @buf, or NULL to leave it out. */
static const char *sp_source_name(const struct sp_stream *st, u32 i,
				  char *buf)
{
	const struct rdma_hw_stats *hw = st->tg->hw;

	switch (st->source) {
	case SPARKPERF_SRC_NETDEV:
		return sp_netdev_stats[i].name;
	case SPARKPERF_SRC_ETHTOOL:
		/* ETH_GSTRING_LEN bytes, not always NUL-terminated. */
		memcpy(buf, st->tg->eth_names + i * SP_NAME_LEN, SP_NAME_LEN);
		buf[SP_NAME_LEN] = '\0';
		return buf;
	default:
		/* Optional counters are off unless enabled: sysfs skips them. */
		if (hw->descs[i].flags & IB_STAT_FLAG_OPTIONAL)
			return NULL;
		return hw->descs[i].name;
	}
}

/* The names of the stream's source that @globs select, at most st->cap. */
static void sp_stream_fill(const struct sp_stream *st,
			   const struct sp_globs *globs, u32 *map,
			   char (*names)[SP_NAME_LEN], u32 *count,
			   bool *truncated)
{
	u32 i, n = sp_source_count(st);
	char buf[SP_NAME_LEN + 1];
	const char *name;

	*count = 0;
	*truncated = false;
	for (i = 0; i < n; i++) {
		name = sp_source_name(st, i, buf);
		if (!name || !sp_globs_match(globs, st->source, name))
			continue;
		if (*count == st->cap) {
			*truncated = true;
			break;
		}
		map[*count] = i;
		strscpy(names[*count], name, SP_NAME_LEN);
		(*count)++;
	}
}

/*
 * Selects the stream's names. The first call sizes the stream (with room
 * to grow if @headroom, and then a spare selection for a trace's ethtool
 * stream) and may fail with -E2BIG or -ENOMEM; later calls, after a table
 * change, keep what fits and never allocate.
 */
int sp_stream_select(struct sp_stream *st, const struct sp_globs *globs,
		     bool headroom)
{
	u32 i, n = sp_source_count(st), count = 0;
	char buf[SP_NAME_LEN + 1];
	const char *name;
	bool spare;

	if (!st->map) {
		for (i = 0; i < n; i++) {
			name = sp_source_name(st, i, buf);
			count += name && sp_globs_match(globs, st->source, name);
		}
		if (count > SPARKPERF_TRACE_COUNTERS_MAX)
			return -E2BIG;
		spare = headroom && st->source == SPARKPERF_SRC_ETHTOOL;
		st->cap = count;
		if (spare)
			st->cap = min(count + SP_SLOT_HEADROOM(count),
				      SPARKPERF_TRACE_COUNTERS_MAX);
		st->version = 1;
		if (!count)
			return 0;
		st->map = kvcalloc(st->cap, sizeof(*st->map), GFP_KERNEL);
		st->names = kvcalloc(st->cap, sizeof(*st->names), GFP_KERNEL);
		if (!st->map || !st->names)
			return -ENOMEM;
		if (spare) {
			st->spare_map = kvcalloc(st->cap, sizeof(*st->map),
						 GFP_KERNEL);
			st->spare_names = kvcalloc(st->cap, sizeof(*st->names),
						   GFP_KERNEL);
			if (!st->spare_map || !st->spare_names)
				return -ENOMEM;
		}
	}
	sp_stream_fill(st, globs, st->map, st->names, &st->count,
		       &st->truncated);
	return 0;
}

/*
 * A trace's selection after a table change goes into the spare, without
 * the locks the stream's readers take (up to 16384 names x 32 globs of
 * glob_match()); sp_stream_swap(), under them, makes it the stream's.
 */
void sp_stream_select_spare(struct sp_stream *st, const struct sp_globs *globs)
{
	sp_stream_fill(st, globs, st->spare_map, st->spare_names,
		       &st->spare_count, &st->spare_truncated);
}

void sp_stream_swap(struct sp_stream *st)
{
	swap(st->map, st->spare_map);
	swap(st->names, st->spare_names);
	st->count = st->spare_count;
	st->truncated = st->spare_truncated;
}

void sp_stream_free(struct sp_stream *st)
{
	kvfree(st->map);
	kvfree(st->names);
	kvfree(st->spare_map);
	kvfree(st->spare_names);
	st->map = NULL;
	st->names = NULL;
	st->spare_map = NULL;
	st->spare_names = NULL;
}

/* Never sleeps; @dev must be registered (see the callers). */
void sp_netdev_read(struct net_device *dev, const struct sp_stream *st,
		    u64 *values)
{
	struct rtnl_link_stats64 s;
	u32 i;

	dev_get_stats(dev, &s);
	for (i = 0; i < st->count; i++)
		values[i] = *(const u64 *)((const u8 *)&s +
					   sp_netdev_stats[st->map[i]].offset);
}

/*
 * Under rtnl, with tg->dev held: the table and every value. *@changed
 * tells whether the table differs from the last one; -E2BIG if it
 * outgrew the buffers, -ENODEV if the netdev is not present.
 */
int sp_ethtool_read(struct sp_target *tg, bool *changed)
{
	const struct ethtool_ops *ops = tg->dev->ethtool_ops;
	struct ethtool_stats stats = { .cmd = ETHTOOL_GSTATS };
	u64 now;
	int n, ret;

	*changed = false;
	sp_netdev_lock_ops(tg->dev);
	ret = sp_ethtool_begin(tg->dev);
	if (ret)
		goto unlock;
	n = ops->get_sset_count(tg->dev, ETH_SS_STATS);
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (n > tg->eth_cap) {
		ret = -E2BIG;
		goto out;
	}
	/*
	 * The names again only with a new count, or once SP_ETHTOOL_NAMES_NS
	 * has passed: drivers that format a name per queue make them the bulk
	 * of a read, and they rename their statistics with the count
	 * (channels, private flags); a rename at the same count is caught
	 * within that time.
	 */
	now = ktime_get_ns();
	if (n != tg->eth_count || now - tg->eth_names_ns >= SP_ETHTOOL_NAMES_NS) {
		/* Drivers leave the bytes after a name's NUL as they were. */
		memset(tg->eth_new, 0, n * SP_NAME_LEN);
		ops->get_strings(tg->dev, ETH_SS_STATS, tg->eth_new);
		tg->eth_names_ns = now;
		*changed = n != tg->eth_count ||
			   memcmp(tg->eth_new, tg->eth_names, n * SP_NAME_LEN);
	}
	if (*changed) {
		swap(tg->eth_new, tg->eth_names);
		tg->eth_count = n;
	}
	stats.n_stats = n;
	memset(tg->eth_values, 0, n * sizeof(u64));
	ops->get_ethtool_stats(tg->dev, &stats, tg->eth_values);
out:
	sp_ethtool_complete(tg->dev);
unlock:
	sp_netdev_unlock_ops(tg->dev);
	return ret;
}

void sp_ethtool_values(const struct sp_stream *st, u64 *values)
{
	u32 i;

	for (i = 0; i < st->count; i++)
		values[i] = st->tg->eth_values[st->map[i]];
}

/* Process context, with the RDMA device held: every counter of the port. */
int sp_rdma_read(struct sp_target *tg)
{
	struct rdma_hw_stats *hw = tg->hw;
	int ret;

	mutex_lock(&hw->lock);
	ret = tg->ibdev->ops.get_hw_stats(tg->ibdev, hw, tg->port,
					  hw->num_counters);
	mutex_unlock(&hw->lock);
	return ret < 0 ? ret : 0;
}

void sp_rdma_values(const struct sp_stream *st, u64 *values)
{
	u32 i;

	for (i = 0; i < st->count; i++)
		values[i] = st->tg->hw->value[st->map[i]];
}

/* The stream's identity and names, for every message that carries them. */
size_t sp_stream_msg_size(const struct sp_stream *st)
{
	return nla_total_size(0) + 8 * nla_total_size_64bit(sizeof(u64)) +
	       10 * nla_total_size(sizeof(u32)) +
	       nla_total_size(SPARKPERF_DEV_NAME_MAX) + nla_total_size(0) +
	       st->cap * nla_total_size(SP_NAME_LEN) +
	       nla_total_size(st->cap * sizeof(u64));
}

/* A nest's length is 16 bits: a longer one does not fit the message. */
int sp_nest_end(struct sk_buff *skb, struct nlattr *nest)
{
	if (skb_tail_pointer(skb) - (unsigned char *)nest > U16_MAX) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Index, source, target and names: the caller adds the rest, ends the nest. */
int sp_stream_put(struct sk_buff *skb, const struct sp_stream *st)
{
	struct nlattr *names;
	u32 i;

	if (nla_put_u32(skb, SPARKPERF_A_STREAM_INDEX, st->index) ||
	    nla_put_u8(skb, SPARKPERF_A_STREAM_SOURCE, st->source) ||
	    nla_put_string(skb, SPARKPERF_A_STREAM_TARGET, st->tg->name) ||
	    (st->tg->is_rdma ?
	     nla_put_u32(skb, SPARKPERF_A_STREAM_PORT, st->tg->port) :
	     nla_put_u32(skb, SPARKPERF_A_STREAM_IFINDEX, st->tg->ifindex)))
		return -EMSGSIZE;
	names = nla_nest_start(skb, SPARKPERF_A_STREAM_NAMES);
	if (!names)
		return -EMSGSIZE;
	for (i = 0; i < st->count; i++)
		if (nla_put_string(skb, SPARKPERF_A_STREAM_NAME, st->names[i]))
			return -EMSGSIZE;
	return sp_nest_end(skb, names);
}

/* The streams of an open target: netdev and ethtool, or rdma. */
unsigned int sp_target_streams(struct sp_target *tg, struct sp_stream *st)
{
	unsigned int n = 0;

	if (tg->is_rdma) {
		if (tg->hw)
			st[n++].source = SPARKPERF_SRC_RDMA;
	} else {
		st[n++].source = SPARKPERF_SRC_NETDEV;
		if (tg->eth_count)
			st[n++].source = SPARKPERF_SRC_ETHTOOL;
	}
	return n;
}

/* One read of every selected stream of @tg, each value into its buffer. */
static int sp_counters_read(struct sp_target *tg, struct sp_stream *st,
			    unsigned int n, const struct sp_globs *globs,
			    u64 **values, u64 *ts, u32 *dur)
{
	unsigned int i;
	bool changed;
	int ret = 0;

	if (tg->is_rdma) {
		ts[0] = ktime_get_ns();
		ret = sp_rdma_read(tg);
		if (!ret)
			sp_rdma_values(&st[0], values[0]);
		dur[0] = ktime_get_ns() - ts[0];
		return ret;
	}

	rtnl_lock();
	/* Unregistered meanwhile: its driver may have freed its stats. */
	if (READ_ONCE(tg->dev->reg_state) != NETREG_REGISTERED) {
		ret = -ENODEV;
		goto out;
	}
	/* Detached (suspended, being removed): its stats may be freed. */
	if (!netif_device_present(tg->dev)) {
		ret = -ENODEV;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ts[i] = ktime_get_ns();
		if (st[i].source == SPARKPERF_SRC_NETDEV) {
			sp_netdev_read(tg->dev, &st[i], values[i]);
		} else {
			ret = sp_ethtool_read(tg, &changed);
			if (ret)
				goto out;
			/* The names come with the values: select again. */
			if (changed)
				sp_stream_select(&st[i], globs, false);
			sp_ethtool_values(&st[i], values[i]);
		}
		dur[i] = ktime_get_ns() - ts[i];
	}
out:
	rtnl_unlock();
	return ret;
}

static int sp_counters_fill(struct sk_buff *skb, struct genl_info *info,
			    const struct sp_stream *st, const u64 *values,
			    u64 ts, u32 dur)
{
	struct nlattr *nest;
	void *hdr;

	hdr = sp_genl_put(skb, info->snd_portid, info->snd_seq, 0,
			  SPARKPERF_CMD_COUNTERS_GET);
	if (!hdr)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, SPARKPERF_A_TRACE_STREAM);
	if (!nest || sp_stream_put(skb, st) ||
	    nla_put_u32(skb, SPARKPERF_A_STREAM_VERSION, st->version) ||
	    nla_put(skb, SPARKPERF_A_STREAM_VALUES, st->count * sizeof(u64),
		    values) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_STREAM_TS_NS, ts,
			      SPARKPERF_A_STREAM_PAD) ||
	    nla_put_u32(skb, SPARKPERF_A_STREAM_READ_NS, dur) ||
	    sp_nest_end(skb, nest)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int sp_counters_reply(struct genl_info *info, struct sp_target *tg,
			     struct sp_stream *st, unsigned int n,
			     const struct sp_globs *globs)
{
	u64 *values[SP_TARGET_STREAMS] = {}, ts[SP_TARGET_STREAMS];
	struct sk_buff *reply;
	size_t size = 0;
	unsigned int i;
	u32 dur[SP_TARGET_STREAMS];
	int ret;

	for (i = 0; i < n; i++) {
		values[i] = kvcalloc(st[i].cap, sizeof(u64), GFP_KERNEL);
		if (!values[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = sp_counters_read(tg, st, n, globs, values, ts, dur);
	if (ret) {
		if (ret == -ENODEV)
			GENL_SET_ERR_MSG(info, "the device went away or is not present");
		else
			GENL_SET_ERR_MSG(info, "reading the counters failed");
		goto out;
	}

	for (i = 0; i < n; i++)
		size += GENL_HDRLEN + NLMSG_HDRLEN + sp_stream_msg_size(&st[i]);
	reply = genlmsg_new(size, GFP_KERNEL);
	if (!reply) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && !ret; i++)
		ret = sp_counters_fill(reply, info, &st[i], values[i], ts[i],
				       dur[i]);
	if (ret)
		nlmsg_free(reply);
	else
		ret = genlmsg_reply(reply, info);
out:
	for (i = 0; i < n; i++)
		kvfree(values[i]);
	return ret;
}

int sp_counters_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *target = info->attrs[SPARKPERF_A_TRACE_TARGET];
	struct nlattr *globs_attr = info->attrs[SPARKPERF_A_TRACE_GLOBS];
	struct sp_stream st[SP_TARGET_STREAMS] = {};
	struct sp_globs *globs;
	struct sp_target *tg;
	unsigned int i, n, kept = 0;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_TRACE_TARGET))
		return -EINVAL;
	ret = sp_target_check(target, info->extack);
	if (ret)
		return ret;

	globs = kzalloc(sizeof(*globs), GFP_KERNEL);
	tg = kzalloc(sizeof(*tg), GFP_KERNEL);
	if (!globs || !tg) {
		ret = -ENOMEM;
		goto out;
	}
	if (globs_attr) {
		ret = sp_globs_parse(globs, globs_attr, info->extack);
		if (ret)
			goto out;
	}
	ret = sp_target_open(tg, target, false, info->extack);
	if (ret)
		goto out;
	/* A device outside the caller's RDMA netns is one it cannot see. */
	if (tg->ibdev &&
	    !rdma_dev_access_netns(tg->ibdev, genl_info_net(info))) {
		NL_SET_ERR_MSG_ATTR(info->extack, target,
				    "no RDMA device with this name");
		ret = -ENODEV;
		goto out;
	}

	n = sp_target_streams(tg, st);
	if (!n) {
		NL_SET_ERR_MSG_ATTR(info->extack, target,
				    "the RDMA port has no hardware counters");
		ret = -EOPNOTSUPP;
		goto out;
	}
	for (i = 0; i < n; i++) {
		st[i].tg = tg;
		ret = sp_stream_select(&st[i], globs, false);
		if (ret == -E2BIG)
			GENL_SET_ERR_MSG(info,
					 "a stream selects more than 1024 counters");
		if (ret)
			goto out;
		if (!st[i].count)
			continue;
		st[i].index = kept;
		if (kept != i)
			swap(st[kept], st[i]);
		kept++;
	}
	if (!kept) {
		NL_SET_ERR_MSG_ATTR(info->extack, globs_attr,
				    "the globs select no counter");
		ret = -ENOENT;
		goto out;
	}
	ret = sp_counters_reply(info, tg, st, kept, globs);
out:
	for (i = 0; i < ARRAY_SIZE(st); i++)
		sp_stream_free(&st[i]);
	if (tg)
		sp_target_close(tg);
	kfree(tg);
	kfree(globs);
	return ret;
}
