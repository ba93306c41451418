/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lat run and bw run share beyond lib/run.h: their devices and sizes,
 * how often sessions are polled, the hooks of sp_wait() over the progress
 * group, and the exit status of a run.
 */
#ifndef SPARKPERF_CTL_SESSION_SESSRUN_H
#define SPARKPERF_CTL_SESSION_SESSRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/run.h"
#include "lib/wait.h"

/* GET polls: a safety net next to the progress group, or the only way */
#define SP_SESSION_POLL_WITH_PROGRESS_MS 5000
#define SP_SESSION_POLL_WITHOUT_PROGRESS_MS 1000
/* after a STOP, how long to wait for the sessions to end */
#define SP_SESSION_STOP_WAIT_MS 10000

/* "dev DEV[,DEV...]": at most max RDMA device names into devs[]. */
int sp_session_parse_devs(const char *object, const char *s,
			  char (*devs)[SPARKPERF_DEV_NAME_MAX], size_t max, size_t *n);

/* "size SIZE" or "size A..B" (1..max bytes): the sizes of the runs. */
int sp_session_parse_sizes(const char *object, const char *s, uint64_t max,
			   uint64_t *sizes, size_t *n);

/*
 * "op OP" (when op is not NULL: *opv, *has_op) and "size SIZE" or "size A..B"
 * (when size is not NULL: the sizes of the runs, 1..size_max bytes).
 */
int sp_session_parse_op_size(const char *object, const char *op, const char *size,
			     uint64_t size_max, uint8_t *opv, bool *has_op, uint64_t *sizes,
			     size_t *n_sizes);

/* The wait configuration that fits: polls with or without progress. */
void sp_session_wait_cfg(const struct sp_run *r, struct sp_wait_cfg *cfg);
/* Discards pending progress messages (of sessions that are gone). */
void sp_session_progress_drain(struct sp_run *r);

/*
 * The hooks of sp_wait() that are the same for every kind of session, for a
 * context whose first member is the run's struct sp_run * (sp_session_run_of):
 * wait() is a ppoll() on the progress group that lets the signals in.
 */
int sp_session_hook_wait(void *ctx, int64_t timeout_ms);
int64_t sp_session_hook_now_ms(void *ctx);
unsigned int sp_session_hook_signals(void *ctx);

static inline struct sp_run *sp_session_run_of(void *ctx)
{
	return *(struct sp_run **)ctx;
}

/* The hooks of a kind of session: its own stop, get, recv and show, the rest above. */
#define SP_SESSION_WAIT_OPS(stop_fn, get_fn, recv_fn, show_fn) { \
	.stop = stop_fn, .get = get_fn, .wait = sp_session_hook_wait, .recv = recv_fn, \
	.now_ms = sp_session_hook_now_ms, .signals = sp_session_hook_signals, .show = show_fn, \
}

/*
 * The exit status of a run that ended with rc: interrupted before anything
 * was measured, as a shell reports the signal (128 + its number).
 */
int sp_session_exit(int rc, bool measured);

/*
 * The report after a sweep: with text, the traces' report; with JSON
 * (json), the result of printing the document, json_ret, reported when it
 * failed. Returns rc, or SP_EXIT_ERROR when printing failed.
 */
struct sp_run_traces;

int sp_session_report(const struct sp_run_traces *rt, const char *object, bool json,
		      int json_ret, int rc);

#endif
