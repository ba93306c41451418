/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency engine: the client's ping-pong with its statistics, and the
 * server's echo.
 */
#ifndef SP_LAT_H
#define SP_LAT_H

#include <linux/spinlock.h>
#include <linux/types.h>

struct sk_buff;
struct sp_hist;
struct sp_rconn;

struct sp_lat_cfg {
	u8 op;			/* enum sparkperf_lat_op */
	u32 size;
	u64 iters;		/* 0 in duration mode */
	u32 duration_ms;	/* 0 in iteration mode */
	u32 warmup;
	u32 samples_max;
	u32 interval_ms;
};

struct sp_lat_sample {
	u64 start_ns;		/* since the first measured round trip */
	u64 rtt_ns;
};

struct sp_lat_interval {
	u64 end_ns;		/* since the first measured round trip */
	u64 count;
	u64 p50_ns;
	u64 p99_ns;
	u64 max_ns;
};

struct sp_lat {
	struct sp_lat_cfg cfg;
	/* Called by the run's thread at the end of every interval. */
	void (*interval_done)(struct sp_lat *lat,
			      const struct sp_lat_interval *iv);

	/* What follows is written by the run, read under @lock. */
	spinlock_t lock;
	u64 warmup_done;
	u64 count;
	u64 elapsed_ns;
	u64 yields;
	u64 rt_yields;
	u32 clock_res_ns;
	struct sp_hist *hist;		/* the whole run */
	struct sp_hist *ihist;		/* the current interval */
	struct sp_lat_sample *samples;	/* ring of cfg.samples_max */
	struct sp_lat_interval *intervals;	/* ring of intervals_max */
	u32 intervals_max;
	u64 intervals_done;

	/* The run's own state. */
	u64 t0;				/* first measured start, ns */
	u64 iv_end;			/* end of the current interval, ns */
};

int sp_lat_init(struct sp_lat *lat, const struct sp_lat_cfg *cfg, int node);
void sp_lat_destroy(struct sp_lat *lat);

int sp_lat_client(struct sp_lat *lat, struct sp_rconn *rc);
int sp_lat_server(struct sp_rconn *rc);

size_t sp_lat_msg_size(const struct sp_lat *lat, bool intervals);
int sp_lat_fill(struct sk_buff *skb, struct sp_lat *lat, bool intervals);
int sp_lat_fill_progress(struct sk_buff *skb, struct sp_lat *lat);
int sp_lat_fill_interval(struct sk_buff *skb, int type,
			 const struct sp_lat_interval *iv);
int sp_lat_fill_samples(struct sk_buff *skb, struct sp_lat *lat, u64 *next,
			u64 end);

int sp_lat_cpu_get(int cpu, int node);
void sp_lat_cpu_put(int cpu);

#endif /* SP_LAT_H */
