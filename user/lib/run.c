// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "run.h"
#include "version.h"

#define CLOCKSOURCE_PATH "/sys/devices/system/clocksource/clocksource0/current_clocksource"

/* ---- arguments ----------------------------------------------------------- */

int sp_run_parse_peers(const char *object, const char *s, struct sp_addr *peers,
		       size_t max, size_t *n)
{
	struct sp_list list;
	int ret = SP_EXIT_OK;
	size_t i, k;

	if (sp_parse_list(s, &list))
		return sp_usage_error(object, "Invalid peer address list: '%s' (ADDR[,ADDR...])",
				      s);
	if (list.n > max)
		ret = sp_usage_error(object, "Too many peer addresses: %zu (at most %zu)", list.n,
				     max);
	for (i = 0; i < list.n && !ret; i++) {
		const char *why;

		if (sp_parse_addr(list.items[i], &peers[i])) {
			ret = sp_usage_error(object, "Invalid peer address: '%s' (an IPv4 or IPv6 "
					     "address)", list.items[i]);
			break;
		}
		why = sp_addr_not_unicast(&peers[i]);
		if (why) {
			ret = sp_usage_error(object, "Invalid peer address: '%s' (%s: a peer is "
					     "one host)", list.items[i], why);
			break;
		}
		/* as addresses: "fd00::1" and "fd00:0::1" are one peer */
		for (k = 0; k < i && !ret; k++)
			if (!memcmp(&peers[k], &peers[i], sizeof(peers[i])))
				ret = sp_usage_error(object, "Invalid peer address list: '%s' "
						     "('%s' given twice)", s, list.items[i]);
	}
	*n = list.n;
	sp_list_free(&list);
	return ret;
}

/* ---- signals and time ---------------------------------------------------- */

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_count;

static void on_signal(int sig)
{
	stop_signal = sig;
	stop_count++;
}

void sp_run_signals_catch(struct sp_run_sig *s)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	stop_signal = 0;
	stop_count = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &s->old_int);
	sigaction(SIGTERM, &sa, &s->old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &s->old_mask);
	s->wait_mask = s->old_mask;
	sigdelset(&s->wait_mask, SIGINT);
	sigdelset(&s->wait_mask, SIGTERM);
	s->caught = true;
}

void sp_run_signals_restore(struct sp_run_sig *s)
{
	if (!s->caught)
		return;
	s->caught = false;
	/* a signal still pending goes to on_signal(), which only records it */
	sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
	sigaction(SIGINT, &s->old_int, NULL);
	sigaction(SIGTERM, &s->old_term, NULL);
}

bool sp_run_signal_pending(const struct sp_run_sig *s)
{
	struct timespec zero = { 0 };

	if (!stop_signal)
		ppoll(NULL, 0, &zero, &s->wait_mask);
	return stop_signal != 0;
}

int sp_run_signal(void)
{
	return stop_signal;
}

unsigned int sp_run_signal_count(void)
{
	return (unsigned int)stop_count;
}

uint64_t sp_run_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int64_t sp_run_now_ms(void)
{
	return (int64_t)(sp_run_now_ns() / 1000000);
}

/* ---- environment ----------------------------------------------------------- */

void sp_run_env_collect(struct sp_nl *nl, struct sp_run_env *e)
{
	FILE *f;

	memset(e, 0, sizeof(*e));
	e->env.tool_version = SPARKPERF_CTL_VERSION;
	if (!uname(&e->uts)) {
		e->env.host = e->uts.nodename;
		e->env.kernel_release = e->uts.release;
	}
	if (nl && !sp_nl_info_get(nl, &e->info)) {
		e->env.module_version = e->info.version;
		if (e->info.kernel[0])
			e->env.kernel_release = e->info.kernel;
	}
	f = fopen(CLOCKSOURCE_PATH, "re");
	if (f) {
		if (fgets(e->clock, sizeof(e->clock), f)) {
			e->clock[strcspn(e->clock, "\n")] = '\0';
			if (e->clock[0])
				e->env.clock_source = e->clock;
		}
		fclose(f);
	}
}

/* ---- the control socket ---------------------------------------------------- */

int sp_run_start(struct sp_run *r, const char *object)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->object = object;
	ret = sp_nl_open(&r->ctl);
	if (ret)
		return sp_report_open_error(object, "run", ret, &r->ctl.err);
	sp_run_env_collect(&r->ctl, &r->env);
	/* without the group (no permission: the RUN will say so), poll */
	if (sp_nl_progress_open(&r->ctl))
		memset(&r->ctl.err, 0, sizeof(r->ctl.err));
	r->tty = isatty(STDERR_FILENO);
	sp_run_signals_catch(&r->sig);
	return SP_EXIT_OK;
}

void sp_run_end(struct sp_run *r)
{
	sp_run_line_clear(r);
	sp_run_signals_restore(&r->sig);
	sp_nl_close(&r->ctl);
	if (r->ctl.bad_progress)
		fprintf(stderr, "Warning: %u malformed progress message%s skipped.\n",
			r->ctl.bad_progress, r->ctl.bad_progress == 1 ? " was" : "s were");
}

void sp_run_line_show(struct sp_run *r, const char *prefix, const char *text)
{
	if (!r->tty)
		return;
	fprintf(stderr, "\r\033[K%s%s", prefix, text);
	fflush(stderr);
	r->shown = true;
}

void sp_run_line_clear(struct sp_run *r)
{
	if (r->shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
		r->shown = false;
	}
}
