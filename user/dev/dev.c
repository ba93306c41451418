// SPDX-License-Identifier: GPL-2.0
/* sparkperf-ctl dev: the RDMA devices and ports the module sees. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "lib/show.h"
#include "lib/print.h"
#include "devprint.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char dev_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] dev show [ DEV ]\n"
	"       sparkperf-ctl [ OPTIONS ] dev monitor [ count N ]\n"
	"       sparkperf-ctl dev help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"The default command is show.\n";

static int dev_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	const char *name = NULL;
	int status;

	(void)ctx;
	if (sp_no_more_args("dev", dev_usage, 1, argc, argv, &status))
		return status;
	if (argc == 1) {
		if (!sp_dev_name_valid(argv[0]))
			return sp_usage_error("dev", "Invalid device name: '%s'", argv[0]);
		name = argv[0];
	}
	return SP_SHOW("dev", struct sp_dev_list, list, nl, sp_nl_dev_get(&nl, name, &list),
		       sp_print_devs(list.devs, list.n), sp_dev_list_free(&list));
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct monitor {
	uint32_t count;		/* 0: until a signal */
	uint32_t seen;
	int err;
};

static int on_event(const struct sp_dev_event *ev, void *arg)
{
	struct monitor *m = arg;
	int ret = sp_print_event(ev);

	if (!ret)
		ret = sp_print_flush();
	if (ret) {
		m->err = ret;
		return 1;
	}
	m->seen++;
	return m->count && m->seen >= m->count;
}

static int monitor_loop(struct sp_nl *nl, struct monitor *m)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	sigset_t block, old_mask, wait_mask;
	struct pollfd pfd = { .fd = sp_nl_events_fd(nl), .events = POLLIN };
	int rc = SP_EXIT_OK, ret;

	/* no SA_RESTART: the signal must interrupt ppoll() */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	/* signals are only delivered inside ppoll(): no lost wake-up */
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	wait_mask = old_mask;
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);

	while (!stop_signal) {
		if (ppoll(&pfd, 1, NULL, &wait_mask) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "sparkperf-ctl: dev monitor: %s\n", strerror(errno));
			rc = SP_EXIT_ERROR;
			break;
		}
		ret = sp_nl_events_recv(nl, on_event, m);
		if (ret == 1)
			break;
		if (ret == -ENOBUFS) {
			fprintf(stderr, "Warning: the event queue overflowed; events were lost.\n");
			continue;
		}
		if (ret < 0) {
			sp_report_nl_error(stderr, "dev", "monitor", ret, NULL);
			rc = SP_EXIT_ERROR;
			break;
		}
	}

	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (m->err) {
		sp_report_nl_error(stderr, "dev", "monitor", m->err, NULL);
		rc = SP_EXIT_ERROR;
	}
	return rc;
}

static int dev_monitor(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct monitor m = { 0 };
	struct sp_kv kv[] = {
		{ .key = "count", .type = SP_KV_U32, .min = 1, .max = UINT32_MAX, .dst = &m.count },
	};
	struct sp_nl nl;
	int ret, rc;

	(void)ctx;
	if (sp_kv_args_end("dev", dev_usage, argc, argv, kv, ARRAY_SIZE(kv), &ret))
		return ret;

	ret = sp_nl_open(&nl);
	if (ret)
		return sp_report_open_error("dev", "monitor", ret, &nl.err);
	ret = sp_nl_events_open(&nl);
	if (ret) {
		sp_report_nl_error(stderr, "dev", "monitor", ret, &nl.err);
		sp_nl_close(&nl);
		return SP_EXIT_ERROR;
	}
	stop_signal = 0;
	rc = monitor_loop(&nl, &m);
	if (nl.bad_events)
		fprintf(stderr, "Warning: %u malformed event%s skipped.\n", nl.bad_events,
			nl.bad_events == 1 ? " was" : "s were");
	sp_nl_close(&nl);
	return rc;
}

SP_OBJECT_MAIN(dev, dev_usage,
	       { "show", dev_show },
	       { "monitor", dev_monitor })
