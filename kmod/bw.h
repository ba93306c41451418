/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bandwidth engine: a session's QPs driven by its worker threads, and
 * the server's side of each connection.
 */
#ifndef SP_BW_H
#define SP_BW_H

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "lat.h"

struct sp_rconn;
struct sp_bw_qp;
struct sp_bw_worker;

struct sp_bw_cfg {
	u8 op;			/* enum sparkperf_lat_op */
	bool bidir;
	bool validate;
	u32 size;
	u32 qps;
	u32 threads;
	u32 depth;
	u32 signal;
	u64 iters;		/* per QP; 0 in duration mode */
	u32 duration_ms;	/* 0 in iteration mode */
	u32 interval_ms;
	u64 start_at_ns;	/* 0: at once */
};

struct sp_bw {
	struct sp_bw_cfg cfg;
	struct sp_bw_qp *qps;		/* one per link */
	struct sp_bw_worker *workers;	/* one per thread */
	atomic_t running;		/* workers not done yet */
	u64 start_ns;			/* the first post, set once */
	u64 elapsed_ns;			/* once the run is over */

	spinlock_t lock;		/* the series and what follows */
	struct sp_series series;
	u64 iv_end;			/* the last interval's end */
	u64 iv_msgs;			/* ... and the messages by then */
};

extern const struct sp_session_type sp_bw_type;

int sp_bw_server(struct sp_rconn *rc);

#endif /* SP_BW_H */
