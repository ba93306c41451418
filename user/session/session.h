/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plain structs of lat and bw sessions, as their netlink messages carry
 * them: configurations, results with their intervals, lists, progress
 * messages and raw latency samples.
 */
#ifndef SPARKPERF_CTL_SESSION_SESSION_H
#define SPARKPERF_CTL_SESSION_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/sparkperf.h>

#include "lib/model.h"

/*
 * What every session's configuration begins with, as the kernel's LAT_RUN
 * and BW_RUN share these attributes: the server, the device, the operation
 * and the size (whose unit each configuration names).
 */
#define SP_SESSION_CONFIG_HEAD						\
	struct sp_addr peer;						\
	bool has_port;							\
	uint16_t port;							\
	bool has_dev;							\
	char dev[SPARKPERF_DEV_NAME_MAX];				\
	bool has_op;							\
	uint8_t op;			/* enum sparkperf_lat_op */	\
	bool has_size

/*
 * How every session stands (LAT_GET and BW_GET share these attributes): its
 * state and, when it failed, why (sp_session_error() says it in words).
 */
#define SP_SESSION_STATUS						\
	uint8_t state;			/* enum sparkperf_lat_state */	\
	bool has_error;							\
	int32_t error;			/* negative errno */		\
	bool has_error_msg;						\
	char error_msg[SP_LAT_ERRMSG_MAX]

/*
 * A latency session's configuration. In a request, only the has_* fields
 * that are set are sent (the kernel applies its defaults to the others); in
 * a reply, they say which attributes the kernel echoed.
 */
struct sp_lat_config {
	SP_SESSION_CONFIG_HEAD;
	uint32_t size;			/* bytes */
	bool has_iters;
	uint64_t iters;
	bool has_duration;
	uint32_t duration_ms;
	bool has_warmup;
	uint32_t warmup;
	bool has_cpu;
	uint32_t cpu;
	bool has_samples_max;
	uint32_t samples_max;
	bool has_interval;
	uint32_t interval_ms;
	bool has_completion;
	uint8_t completion;		/* enum sparkperf_lat_completion */
};

/*
 * One completed interval of a session's series. Latency: end_ns since the
 * first measured round trip, count round trips, their p50, p99 and max
 * (round trip times). Bandwidth: end_ns since the session's START_NS, count
 * messages and bytes, both directions.
 */
struct sp_interval {
	uint64_t end_ns;
	uint64_t count;
	uint64_t p50_ns;
	uint64_t p99_ns;
	uint64_t max_ns;
	uint64_t bytes;
};

/* SPARKPERF_CMD_LAT_GET: one session; all times are round trips, in ns. */
struct sp_lat {
	uint32_t id;
	struct sp_lat_config cfg;	/* cfg.dev, cfg.cpu: the device and CPU used */
	SP_SESSION_STATUS;
	uint64_t warmup_done;
	uint64_t count;
	uint64_t elapsed_ns;
	uint64_t yields;		/* between round trips */
	uint64_t rt_yields;	/* round trips that yielded inside */
	bool has_clock_res;
	uint32_t clock_res_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t sum_ns;
	uint64_t sumsq_hi;		/* 128-bit sum of squares, ns^2 */
	uint64_t sumsq_lo;
	uint64_t p50_ns;
	uint64_t p90_ns;
	uint64_t p99_ns;
	uint64_t p999_ns;
	uint64_t p9999_ns;
	uint64_t p99999_ns;
	struct sp_interval *intervals;
	size_t n_intervals;
};

struct sp_lat_list {
	struct sp_lat *lats;
	size_t n;
	size_t cap;
};

/*
 * A bandwidth session's configuration, with the conventions of struct
 * sp_lat_config. bidir and validate are flags: sent when true; in a reply,
 * true when the kernel echoed them.
 */
struct sp_bw_config {
	SP_SESSION_CONFIG_HEAD;
	uint32_t size;			/* bytes per message */
	bool has_qps;
	uint32_t qps;
	bool has_threads;
	uint32_t threads;
	bool has_depth;
	uint32_t depth;			/* work requests in flight per QP */
	bool has_signal;
	uint32_t signal;		/* a completion every this many */
	bool has_iters;
	uint64_t iters;			/* messages per QP */
	bool has_duration;
	uint32_t duration_ms;
	bool bidir;
	bool validate;
	bool has_interval;
	uint32_t interval_ms;
	bool has_start_at;
	uint64_t start_at_ns;		/* CLOCK_MONOTONIC */
};

/* SPARKPERF_CMD_BW_GET: one session. Bytes and messages are payload. */
struct sp_bw {
	uint32_t id;
	struct sp_bw_config cfg;	/* cfg.dev: the device used */
	SP_SESSION_STATUS;
	bool has_start;
	uint64_t start_ns;		/* CLOCK_MONOTONIC, first work request */
	uint64_t elapsed_ns;		/* from then to the last completion */
	uint64_t tx_bytes;
	uint64_t tx_msgs;
	uint64_t rx_bytes;
	uint64_t rx_msgs;
	bool has_validate_errors;
	uint64_t validate_errors;
	bool has_cpu;
	uint64_t cpu_ns;		/* CPU time of the sending threads */
	struct sp_interval *intervals;	/* end_ns since start_ns */
	size_t n_intervals;
};

struct sp_bw_list {
	struct sp_bw *bws;
	size_t n;
	size_t cap;
};

/* SPARKPERF_CMD_BW_PROGRESS on the "progress" group. */
struct sp_bw_progress {
	uint32_t id;
	uint8_t state;
	uint64_t tx_bytes;
	uint64_t rx_bytes;
	bool has_interval;		/* sent at the end of an interval */
	struct sp_interval interval;
};

/* SPARKPERF_CMD_LAT_PROGRESS on the "progress" group. */
struct sp_lat_progress {
	uint32_t id;
	uint8_t state;
	uint64_t count;
	uint64_t warmup_done;
	bool has_interval;		/* sent at the end of an interval */
	struct sp_interval interval;
};

/* One SPARKPERF_CMD_LAT_SAMPLES message: n raw samples, not yet decoded. */
struct sp_lat_samples {
	uint32_t id;
	uint64_t first;			/* measured-iteration number of the first */
	const void *data;		/* n pairs of host-order __u64: start_ns, rtt_ns */
	size_t n;
};

/* Sample i of a chunk (i < n): its start and round trip time, in ns. */
void sp_lat_samples_get(const struct sp_lat_samples *s, size_t i,
			uint64_t *start_ns, uint64_t *rtt_ns);

/* Release a session's intervals, a list and its sessions; append a copy (taking ownership). */
void sp_lat_free(struct sp_lat *lat);
void sp_lat_list_free(struct sp_lat_list *list);
int sp_lat_list_add(struct sp_lat_list *list, struct sp_lat *lat);
void sp_bw_free(struct sp_bw *bw);
void sp_bw_list_free(struct sp_bw_list *list);
int sp_bw_list_add(struct sp_bw_list *list, struct sp_bw *bw);

#endif
