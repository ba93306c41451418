/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What "lat run" and "bw run" share: their arguments (peers, devices, a
 * size or a sweep of sizes), the signals that stop a run, the clock, the
 * environment a result is reported with, the control socket with its
 * "progress" group, the wait hooks that talk to it, and the progress line
 * on a terminal.
 */
#ifndef SPARKPERF_CTL_RUN_H
#define SPARKPERF_CTL_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "model.h"
#include "nl.h"
#include "parse.h"
#include "show.h"
#include "wait.h"

/* GET polls: a safety net next to the progress group, or the only way */
#define SP_RUN_POLL_WITH_PROGRESS_MS 5000
#define SP_RUN_POLL_WITHOUT_PROGRESS_MS 1000
/* after a STOP, how long to wait for the sessions to end */
#define SP_RUN_STOP_WAIT_MS 10000

/* ---- arguments: usage errors on stderr, SP_EXIT_USAGE ------------------- */

/*
 * "peer ADDR[,ADDR...]": at most max numeric addresses into peers[], their
 * count in *n. object names the help in the error.
 */
int sp_run_parse_peers(const char *object, const char *s, struct sp_addr *peers,
		       size_t max, size_t *n);

/* "dev DEV[,DEV...]": at most max RDMA device names into devs[]. */
int sp_run_parse_devs(const char *object, const char *s,
		      char (*devs)[SPARKPERF_DEV_NAME_MAX], size_t max, size_t *n);

/* "size SIZE" or "size A..B" (1..max bytes): the sizes of the runs. */
int sp_run_parse_sizes(const char *object, const char *s, uint64_t max,
		       uint64_t *sizes, size_t *n);

/* ---- signals and time ---------------------------------------------------- */

/*
 * SIGINT and SIGTERM are recorded (their number and count), and blocked
 * except inside the ppoll() of sp_run_wait_fd(): no lost wake-up.
 */
struct sp_run_sig {
	bool caught;
	struct sigaction old_int, old_term;
	sigset_t old_mask, wait_mask;
};

void sp_run_signals_catch(struct sp_run_sig *s);
/* A signal still pending is recorded, not acted on. Once is enough. */
void sp_run_signals_restore(struct sp_run_sig *s);
/* Has a signal arrived, including one still blocked? */
bool sp_run_signal_pending(const struct sp_run_sig *s);
/* The last signal received (0: none), and how many were. */
int sp_run_signal(void);
unsigned int sp_run_signal_count(void);

/* CLOCK_MONOTONIC in ms and in ns. */
int64_t sp_run_now_ms(void);
uint64_t sp_run_now_ns(void);

/* ---- environment ----------------------------------------------------------- */

struct sp_run_env {
	struct sp_env env;	/* points into the rest */
	struct sp_info info;
	struct utsname uts;
	char clock[64];
};

/*
 * Versions, host, kernel and clock source; what cannot be read is NULL (the
 * module's version too without a socket: nl NULL).
 */
void sp_run_env_collect(struct sp_nl *nl, struct sp_run_env *e);

/* ---- the control socket and its progress group ----------------------------- */

struct sp_run {
	const char *object;		/* "lat", "bw": for error messages */
	struct sp_nl ctl;		/* info, the progress group */
	struct sp_run_env env;
	struct sp_run_sig sig;
	bool tty;			/* stderr is a terminal: progress line */
	bool shown;			/* a progress line is on the terminal */
};

/*
 * Opens the control socket (the module-missing error reported: returns
 * SP_EXIT_ERROR), collects the environment, joins the progress group when
 * allowed (else the sessions are polled), and catches the signals.
 */
int sp_run_start(struct sp_run *r, const char *object);
/* Restores the signals, closes the socket, warns of malformed progress. */
void sp_run_end(struct sp_run *r);

/* The wait configuration that fits: polls with or without progress. */
void sp_run_wait_cfg(const struct sp_run *r, struct sp_wait_cfg *cfg);
/* Discards pending progress messages (of sessions that are gone). */
void sp_run_progress_drain(struct sp_run *r);

/*
 * The hooks of sp_wait() that are the same for every kind of session, for a
 * context whose first member is the run's struct sp_run *: wait() is a
 * ppoll() on the progress group that lets the signals in.
 */
int sp_run_hook_wait(void *ctx, int64_t timeout_ms);
int64_t sp_run_hook_now_ms(void *ctx);
unsigned int sp_run_hook_signals(void *ctx);

/* On a terminal: prefix and text as the one progress line, replacing the last. */
void sp_run_line_show(struct sp_run *r, const char *prefix, const char *text);
void sp_run_line_clear(struct sp_run *r);

/*
 * The exit status of a run that ended with rc: interrupted before anything
 * was measured, as a shell reports the signal (128 + its number).
 */
int sp_run_exit(int rc, bool measured);

#endif
