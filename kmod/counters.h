/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter sources: a netdev's stats64 and ethtool statistics, an RDMA
 * port's hardware counters; their name tables, the globs that select
 * names, and one read of a target (SPARKPERF_CMD_COUNTERS_GET).
 */
#ifndef SP_COUNTERS_H
#define SP_COUNTERS_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/types.h>
#include <linux/sparkperf.h>

struct genl_info;
struct ib_device;
struct netlink_ext_ack;
struct nlattr;
struct rdma_hw_stats;
struct sk_buff;

#define SP_NAME_LEN ETH_GSTRING_LEN
/* Streams of one target: netdev and ethtool, or rdma. */
#define SP_TARGET_STREAMS 2

struct sp_glob {
	u8 source;			/* 0: any */
	char pattern[SPARKPERF_GLOB_MAX];
};

struct sp_globs {
	unsigned int n;
	struct sp_glob g[SPARKPERF_TRACE_GLOBS_MAX];
};

/*
 * A netdev or an RDMA port. Who may clear @dev and @ibdev, and under
 * which locks, is the trace's business (trace.c); a one-shot read
 * holds rtnl or an RDMA device reference throughout.
 */
struct sp_target {
	char name[SPARKPERF_DEV_NAME_MAX];
	u32 ifindex;
	u32 port;
	bool is_rdma;
	struct net_device *dev;
	netdevice_tracker tracker;
	struct ib_device *ibdev;
	struct rdma_hw_stats *hw;	/* private: no core cache, no sysfs */
	/* ethtool: the driver's whole table and its values */
	u32 eth_count;
	u32 eth_cap;
	u8 *eth_names;			/* eth_cap x SP_NAME_LEN */
	u8 *eth_new;			/* the table read with the last sample */
	u64 eth_names_ns;		/* when the names were last read */
	u64 *eth_values;
};

/* One source of one target: the selected names and where their values are. */
struct sp_stream {
	struct sp_target *tg;
	u8 source;			/* enum sparkperf_counter_source */
	u32 index;
	u32 period_us;
	u32 version;
	u32 count;			/* names selected, at most @cap */
	u32 cap;			/* values a slot holds */
	bool truncated;
	u32 *map;			/* the source's index of each name */
	char (*names)[SP_NAME_LEN];
	/* A trace's ethtool stream: the next selection, see sampler.c. */
	u32 *spare_map;
	char (*spare_names)[SP_NAME_LEN];
	u32 spare_count;
	bool spare_truncated;

	/* The trace's bookkeeping, see sampler.c. */
	u64 next_ns;
	u64 samples;
	u64 missed;
	u64 read_ns_sum;
	u64 read_ns_max;
	u64 late_ns_max;
	bool closed;			/* the closing read is taken */
};

const char *sp_source_str(u8 source);
int sp_globs_parse(struct sp_globs *globs, const struct nlattr *nest,
		   struct netlink_ext_ack *extack);
int sp_target_check(const struct nlattr *nest, struct netlink_ext_ack *extack);

int sp_target_open(struct sp_target *tg, const struct nlattr *nest,
		   bool headroom, struct netlink_ext_ack *extack);
void sp_target_close(struct sp_target *tg);
void sp_target_put_netdev(struct sp_target *tg);
void sp_target_put_rdma(struct sp_target *tg);

unsigned int sp_target_streams(struct sp_target *tg, struct sp_stream *st);
int sp_stream_select(struct sp_stream *st, const struct sp_globs *globs,
		     bool headroom);
void sp_stream_select_spare(struct sp_stream *st, const struct sp_globs *globs);
void sp_stream_swap(struct sp_stream *st);
void sp_stream_free(struct sp_stream *st);

void sp_netdev_read(struct net_device *dev, const struct sp_stream *st,
		    u64 *values);
int sp_ethtool_read(struct sp_target *tg, bool *changed);
void sp_ethtool_values(const struct sp_stream *st, u64 *values);
int sp_rdma_read(struct sp_target *tg);
void sp_rdma_values(const struct sp_stream *st, u64 *values);

size_t sp_stream_msg_size(const struct sp_stream *st);
int sp_stream_put(struct sk_buff *skb, const struct sp_stream *st);
int sp_nest_end(struct sk_buff *skb, struct nlattr *nest);

int sp_counters_get_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* SP_COUNTERS_H */
