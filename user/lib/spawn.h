/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a program and keeping what it printed: what check does to run
 * sparkperf-ctl's own "bw run" and "lat run" as its probes, so that a probe
 * is exactly the command the user can run by hand; and what matrix does to
 * run mpirun (its progress on our stderr as it comes) and gnuplot.
 */
#ifndef SPARKPERF_CTL_LIB_SPAWN_H
#define SPARKPERF_CTL_LIB_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Each stream is kept up to this many bytes (by default); the rest is read and dropped. */
#define SP_SPAWN_KEEP_MAX (1 << 20)

struct sp_spawn {
	char *out;			/* stdout, NUL-terminated */
	char *err;			/* stderr, NUL-terminated */
	int status;			/* as waitpid(2) gives it */
	int exec_errno;			/* the program could not be started: why */
	bool timed_out;			/* killed at the deadline */
};

/*
 * Runs argv (argv[0] a path, no PATH search, no shell) with stdin from
 * /dev/null, until it ends or timeout_ms passes (then SIGTERM, and SIGKILL
 * 3 s later). 0, with s filled (release with sp_spawn_free()), or -errno
 * when it could not be run at all.
 */
int sp_spawn_capture(char *const argv[], int64_t timeout_ms, struct sp_spawn *s);

struct sp_spawn_opts {
	bool path;			/* argv[0] looked up in PATH (mpirun, gnuplot) */
	bool pass_err;			/* stderr is ours, as it comes (progress), not kept */
	size_t keep_max;		/* bytes kept of each stream; 0: SP_SPAWN_KEEP_MAX */
};

/* sp_spawn_capture() as opts say (NULL: as sp_spawn_capture()). */
int sp_spawn_run(char *const argv[], int64_t timeout_ms, const struct sp_spawn_opts *opts,
		 struct sp_spawn *s);
void sp_spawn_free(struct sp_spawn *s);

/*
 * One word, quoted as a shell needs it ('it'\''s); malloc'ed: the command
 * lines printed for a user to run by hand (bench, matrix dry-run).
 */
char *sp_shell_quote(const char *word);

/* The last line of what a program wrote (a refusal's "Error: ..."), trailing blanks cut. */
void sp_spawn_last_line(const char *text, char *buf, size_t len);

#endif
