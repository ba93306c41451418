/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency engine: the client's ping-pong with its statistics, and the
 * server's echo. Also what the engines share: interval series and CPUs for
 * polling threads.
 */
#ifndef SP_LAT_H
#define SP_LAT_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct sk_buff;
struct sp_hist;
struct sp_rconn;

/* One interval of a run's series. */
struct sp_interval {
	u64 end_ns;		/* since the start of the measurement */
	u64 count;		/* round trips, or messages */
	u64 p50_ns;		/* latency */
	u64 p99_ns;
	u64 max_ns;
	u64 bytes;		/* bandwidth */
};

/* The last @max intervals of a run, in a ring, under its engine's lock. */
struct sp_series {
	struct sp_interval *iv;
	u32 max;
	u64 done;
	bool bytes;		/* a bandwidth series */
};

int sp_series_init(struct sp_series *se, u32 duration_ms, u32 interval_ms,
		   bool bytes);
void sp_series_free(struct sp_series *se);
void sp_series_add(struct sp_series *se, const struct sp_interval *iv);
size_t sp_series_msg_size(const struct sp_series *se);
int sp_series_fill(struct sk_buff *skb, int type, const struct sp_series *se);
int sp_interval_fill(struct sk_buff *skb, int type,
		     const struct sp_interval *iv, bool bytes);

struct sp_lat_cfg {
	u8 op;			/* enum sparkperf_lat_op */
	u32 size;
	u64 iters;		/* 0 in duration mode */
	u32 duration_ms;	/* 0 in iteration mode */
	u32 warmup;
	u32 samples_max;
	u32 interval_ms;
	u8 completion;		/* enum sparkperf_lat_completion */
	int cpu;		/* -1: a CPU of the device's node */
};

struct sp_lat_sample {
	u64 start_ns;		/* since the first measured round trip */
	u64 rtt_ns;
};

struct sp_lat {
	struct sp_lat_cfg cfg;
	/* Called by the run's thread at the end of every interval. */
	void (*interval_done)(struct sp_lat *lat, const struct sp_interval *iv);

	/* What follows is written by the run, read under @lock. */
	spinlock_t lock;
	int cpu;			/* the thread's, -1 before */
	u64 warmup_done;
	u64 count;
	u64 elapsed_ns;
	u64 yields;
	u64 rt_yields;
	u32 clock_res_ns;
	struct sp_hist *hist;		/* the whole run */
	struct sp_lat_sample *samples;	/* ring of cfg.samples_max */
	/* Written at the end of an interval, read under @series_lock. */
	struct mutex series_lock;
	struct sp_series series;

	/* The run's own state. */
	u64 t0;				/* first measured start, ns */
	u64 iv_end;			/* end of the current interval, ns */
	struct sp_hist *ihist;		/* the current interval */
};

extern const struct sp_session_type sp_lat_type;

int sp_lat_client(struct sp_lat *lat, struct sp_rconn *rc);
int sp_lat_server(struct sp_rconn *rc);

int sp_lat_fill_samples(struct sk_buff *skb, struct sp_lat *lat, u64 *next,
			u64 end);

/* Times the period of the engines' spin checks (module init). */
void sp_lat_spin_init(void);
int sp_lat_cpu_get(int cpu, int node);
void sp_lat_cpu_put(int cpu);

#endif /* SP_LAT_H */
