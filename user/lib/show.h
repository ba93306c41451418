/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of every "show" that lists what the module holds (iproute2's
 * RES_FUNC): one place for the open, ask, close, print and release steps
 * and for how their errors are reported.
 */
#ifndef SPARKPERF_CTL_LIB_SHOW_H
#define SPARKPERF_CTL_LIB_SHOW_H

#include <stdio.h>

#include "err.h"
#include "nl.h"

/*
 * Declares list (of list_type) and nl, opens nl, runs get (which fills
 * list), closes nl, runs print and then release; errors go to stderr as
 * "OBJECT show: ..." (the module's extack for get). Evaluates to an exit
 * status.
 */
#define SP_SHOW(object, list_type, list, nl, get, print, release)		\
	({									\
		list_type list;							\
		struct sp_nl nl;						\
		int show_ret_ = sp_nl_open(&nl);				\
										\
		if (show_ret_) {						\
			show_ret_ = sp_report_open_error(object, "show",	\
							 show_ret_, &nl.err);	\
		} else if ((show_ret_ = (get))) {				\
			sp_report_nl_error(stderr, object, "show", show_ret_,	\
					   &nl.err);				\
			sp_nl_close(&nl);					\
			show_ret_ = SP_EXIT_ERROR;				\
		} else {							\
			sp_nl_close(&nl);					\
			show_ret_ = (print);					\
			release;						\
			if (show_ret_)						\
				sp_report_nl_error(stderr, object, "show",	\
						   show_ret_, NULL);		\
			show_ret_ = show_ret_ ? SP_EXIT_ERROR : SP_EXIT_OK;	\
		}								\
		show_ret_;							\
	})

#endif
