/* SPDX-License-Identifier: GPL-2.0 */
/* Messages on standard error: usage errors, kernel errors, local errors. */
#ifndef SPARKPERF_CTL_ERR_H
#define SPARKPERF_CTL_ERR_H

#include <stdio.h>

#include "nl.h"

/* Exit statuses. */
#define SP_EXIT_OK 0
#define SP_EXIT_ERROR 1
#define SP_EXIT_USAGE 2

/* "Error: <message>." (the full stop is added when missing) */
void sp_err(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * One precise line on stderr, pointing at "sparkperf-ctl [OBJECT] help";
 * returns SP_EXIT_USAGE.
 */
int sp_usage_error(const char *object, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A failed request, iproute2 style: "Error: <extack message>." and/or
 * "Missing required attribute <NAME>"; without an extended ACK,
 * "sparkperf-ctl: <object> <command>: <strerror>".
 */
void sp_report_nl_error(FILE *f, const char *object, const char *command,
			int error, const struct sp_nl_err *e);

/* The family could not be resolved. */
void sp_report_module_missing(FILE *f);

/*
 * sp_nl_open() failed: the module-missing message for -ENOENT, else
 * sp_report_nl_error(). Returns SP_EXIT_ERROR.
 */
int sp_report_open_error(const char *object, const char *command, int error,
			 const struct sp_nl_err *e);

#endif
