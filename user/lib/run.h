/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runs of lat, bw, trace and bench share: their peers, the
 * signals that stop a run, the clock, the environment a result is reported
 * with, the control socket with its "progress" group, and the progress line
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
#include "print.h"

/* ---- arguments: usage errors on stderr, SP_EXIT_USAGE ------------------- */

/*
 * "peer ADDR[,ADDR...]": at most max numeric unicast addresses, each once, into
 * peers[], their count in *n. object names the help in the error.
 */
int sp_run_parse_peers(const char *object, const char *s, struct sp_addr *peers,
		       size_t max, size_t *n);

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

/* On a terminal: prefix and text as the one progress line, replacing the last. */
void sp_run_line_show(struct sp_run *r, const char *prefix, const char *text);
void sp_run_line_clear(struct sp_run *r);

#endif
