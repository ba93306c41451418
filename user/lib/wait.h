/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following sessions until they end: the loop of "lat run" (one session)
 * and "bw run" (several side by side). Its I/O (netlink, ppoll, the clock,
 * signals) sits behind hooks, so that the unit tests drive it with a
 * scripted kernel, and it knows nothing of the kind of session: the hooks
 * keep whatever else the caller wants to know (its progress line).
 *
 * Progress messages say how the sessions go and wake the loop up at once
 * when one ends; a final state they report is confirmed with a GET, which
 * is also polled for every session every poll_ms as a safety net (and is
 * the only source without the progress group, or after progress messages
 * were lost). The first stop signal sends a STOP to every session still
 * running and waits up to stop_wait_ms for them to end; a second one gives
 * up waiting.
 */
#ifndef SPARKPERF_CTL_WAIT_H
#define SPARKPERF_CTL_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One session followed. */
struct sp_wait_session {
	uint32_t id;
	uint8_t state;			/* enum sparkperf_lat_state */
	bool maybe_final;		/* progress said so; a GET confirms */
	bool final;			/* a GET said so: no longer followed */
};

struct sp_wait_ops {
	/* STOP of session i; -ENOENT (already gone) is not an error */
	int (*stop)(void *ctx, size_t i);
	/* GET of session i: its state in *state */
	int (*get)(void *ctx, size_t i, uint8_t *state);
	/*
	 * Sleeps until progress may be read (1), or timeout_ms passed or a
	 * signal came (0); -errno on failure.
	 */
	int (*wait)(void *ctx, int64_t timeout_ms);
	/*
	 * Reads the pending progress messages, reporting those of the
	 * sessions with sp_wait_note(): 0, -ENOBUFS (some were lost), -errno.
	 */
	int (*recv)(void *ctx);
	int64_t (*now_ms)(void *ctx);
	/* SIGINT and SIGTERM received so far */
	unsigned int (*signals)(void *ctx);
	/* something changed (the progress line); may be NULL */
	void (*show)(void *ctx);
};

struct sp_wait_cfg {
	bool progress;			/* recv() works: the group was joined */
	int64_t poll_ms;
	int64_t stop_wait_ms;
};

enum sp_wait_end {
	SP_WAIT_FINAL,			/* every session ended (a GET says so) */
	SP_WAIT_GAVE_UP,		/* stopped, but not all ended in time */
	SP_WAIT_ABANDONED,		/* a second signal */
};

/*
 * Follows s[0..n-1] (id and state set) until they end: 0 and *end, or a
 * negative errno from a hook.
 */
int sp_wait(const struct sp_wait_ops *ops, void *ctx, const struct sp_wait_cfg *cfg,
	    struct sp_wait_session *s, size_t n, enum sp_wait_end *end);

/*
 * A progress message said that session id is in state: recorded when id is
 * one of s[0..n-1]. Returns its index, or -1 for another session.
 */
int sp_wait_note(struct sp_wait_session *s, size_t n, uint32_t id, uint8_t state);

#endif
