/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following one latency session until it ends: the loop of "lat run". Its
 * I/O (netlink, ppoll, the clock, signals) sits behind hooks, so that the
 * unit tests drive it with a scripted kernel.
 *
 * Progress messages of the session say how it goes and wake the loop up at
 * once when it ends; a final state they report is confirmed with LAT_GET,
 * which is also polled every poll_ms as a safety net (and is the only source
 * without the progress group, or after progress messages were lost). The
 * first stop signal sends LAT_STOP and waits up to stop_wait_ms for the
 * session to end; a second one gives up waiting.
 */
#ifndef SPARKPERF_CTL_LATWAIT_H
#define SPARKPERF_CTL_LATWAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "nl.h"

/* What is known of the session: enough for the progress line. */
struct sp_lat_watch {
	uint32_t id;
	uint8_t state;
	uint64_t count;
	uint64_t warmup_done;
	bool has_last;			/* the last completed interval */
	struct sp_lat_interval last;
	bool maybe_final;		/* progress said so; LAT_GET confirms */
};

struct sp_lat_wait_ops {
	/* LAT_STOP; -ENOENT (already gone) is not an error */
	int (*stop)(void *ctx, uint32_t id);
	/* LAT_GET; *lat is released with sp_lat_free() */
	int (*get)(void *ctx, uint32_t id, struct sp_lat *lat);
	/*
	 * Sleeps until progress may be read (1), or timeout_ms passed or a
	 * signal came (0); -errno on failure.
	 */
	int (*wait)(void *ctx, int64_t timeout_ms);
	/* Pending progress messages to fn: 0, -ENOBUFS (some lost), -errno */
	int (*recv)(void *ctx, sp_nl_progress_fn fn, void *arg);
	int64_t (*now_ms)(void *ctx);
	/* SIGINT and SIGTERM received so far */
	unsigned int (*signals)(void *ctx);
	/* the watch changed (progress line); may be NULL */
	void (*show)(void *ctx, const struct sp_lat_watch *w);
};

struct sp_lat_wait_cfg {
	bool progress;			/* recv() works: the group was joined */
	int64_t poll_ms;
	int64_t stop_wait_ms;
};

enum sp_lat_wait_end {
	SP_LAT_WAIT_FINAL,		/* the session ended (LAT_GET says so) */
	SP_LAT_WAIT_GAVE_UP,		/* stopped, but it did not end in time */
	SP_LAT_WAIT_ABANDONED,		/* a second signal */
};

/* 0 and *end, or a negative errno from a hook. */
int sp_lat_wait(const struct sp_lat_wait_ops *ops, void *ctx,
		const struct sp_lat_wait_cfg *cfg, struct sp_lat_watch *w,
		enum sp_lat_wait_end *end);

#endif
