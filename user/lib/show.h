/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of every command that asks the module one thing and prints the
 * answer, "show" above all (iproute2's RES_FUNC): one place for the open,
 * ask, close, print and release steps and for how their errors are
 * reported.
 */
#ifndef SPARKPERF_CTL_LIB_SHOW_H
#define SPARKPERF_CTL_LIB_SHOW_H

#include <stdio.h>

#include "cmd.h"
#include "err.h"
#include "nl.h"

/*
 * Declares nl, opens it, runs ask, closes nl; errors go to stderr as
 * "OBJECT COMMAND: ..." (the module's extack for ask). Evaluates to an exit
 * status.
 */
#define SP_REQUEST(object, command, nl, ask)					\
	({									\
		struct sp_nl nl;						\
		int req_ret_ = sp_nl_open(&nl);					\
										\
		if (req_ret_) {							\
			req_ret_ = sp_report_open_error(object, command,	\
							req_ret_, &nl.err);	\
		} else {							\
			req_ret_ = (ask);					\
			if (req_ret_)						\
				sp_report_nl_error(stderr, object, command,	\
						   req_ret_, &nl.err);		\
			sp_nl_close(&nl);					\
			req_ret_ = req_ret_ ? SP_EXIT_ERROR : SP_EXIT_OK;	\
		}								\
		req_ret_;							\
	})

/*
 * SP_REQUEST, whose ask fills answer (of answer_type), then print and
 * release of the answer; a failed print is reported too.
 */
#define SP_ASK(object, command, answer_type, answer, nl, ask, print, release)	\
	({									\
		answer_type answer;						\
		int ask_ret_ = SP_REQUEST(object, command, nl, ask);		\
										\
		if (ask_ret_ == SP_EXIT_OK) {					\
			ask_ret_ = (print);					\
			release;						\
			if (ask_ret_)						\
				sp_report_nl_error(stderr, object, command,	\
						   ask_ret_, NULL);		\
			ask_ret_ = ask_ret_ ? SP_EXIT_ERROR : SP_EXIT_OK;	\
		}								\
		ask_ret_;							\
	})

/* A "show": list (of list_type) filled by get. */
#define SP_SHOW(object, list_type, list, nl, get, print, release) \
	SP_ASK(object, "show", list_type, list, nl, get, print, release)

/*
 * Defines fn, the command of a show without arguments (help, else a usage
 * error for any word): SP_SHOW, whose get, print and release name the
 * list as list and the socket as nl.
 */
#define SP_SHOW_FUNC(fn, object, usage, list_type, get, print, release)		\
	static int fn(const struct sp_ctx *ctx, int argc, char **argv)		\
	{									\
		int status;							\
										\
		(void)ctx;							\
		if (sp_no_more_args(object, usage, 0, argc, argv, &status))	\
			return status;						\
		return SP_SHOW(object, list_type, list, nl, get, print, release); \
	}

#endif
