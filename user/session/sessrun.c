// SPDX-License-Identifier: GPL-2.0
/*
 * What lat run and bw run share beyond lib/run.c: devices and sizes, the
 * hooks of sp_wait() that talk to the progress group, the exit status.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>

#include "lib/err.h"
#include "lib/tracerun.h"
#include "lib/parse.h"
#include "sessionnl.h"
#include "sessrun.h"

int sp_session_parse_devs(const char *object, const char *s,
			  char (*devs)[SPARKPERF_DEV_NAME_MAX], size_t max, size_t *n)
{
	struct sp_list list;
	int ret = SP_EXIT_OK;
	size_t i;

	if (sp_parse_list(s, &list))
		return sp_usage_error(object, "Invalid device list: '%s' (DEV[,DEV...])", s);
	if (list.n > max)
		ret = sp_usage_error(object, "Too many devices: %zu (at most %zu)", list.n, max);
	for (i = 0; i < list.n && !ret; i++) {
		if (!sp_dev_name_valid(list.items[i]))
			ret = sp_usage_error(object, "Invalid device name: '%s'", list.items[i]);
		else
			snprintf(devs[i], SPARKPERF_DEV_NAME_MAX, "%s", list.items[i]);
	}
	*n = list.n;
	sp_list_free(&list);
	return ret;
}

int sp_session_parse_sizes(const char *object, const char *s, uint64_t max,
			   uint64_t *sizes, size_t *n)
{
	uint64_t lo, hi;
	int ret = sp_parse_size_range(s, 1, max, &lo, &hi);

	if (ret == -ERANGE)
		return sp_usage_error(object, "Invalid size: '%s' (range 1..%" PRIu64 " bytes)", s,
				      max);
	if (ret)
		return sp_usage_error(object, "Invalid size: '%s' (BYTES or A..B with A <= B)", s);
	*n = sp_size_sweep(lo, hi, sizes, SP_SWEEP_MAX);
	return SP_EXIT_OK;
}

int sp_session_parse_op_size(const char *object, const char *op, const char *size,
			     uint64_t size_max, uint8_t *opv, bool *has_op, uint64_t *sizes,
			     size_t *n_sizes)
{
	if (op) {
		if (sp_parse_lat_op(op, opv))
			return sp_usage_error(object, "Invalid op: '%s' (write, send or read)", op);
		*has_op = true;
	}
	if (!size)
		return SP_EXIT_OK;
	return sp_session_parse_sizes(object, size, size_max, sizes, n_sizes);
}

void sp_session_wait_cfg(const struct sp_run *r, struct sp_wait_cfg *cfg)
{
	cfg->progress = r->ctl.pr_sk != NULL;
	cfg->poll_ms = r->ctl.pr_sk ? SP_SESSION_POLL_WITH_PROGRESS_MS :
		       SP_SESSION_POLL_WITHOUT_PROGRESS_MS;
	cfg->stop_wait_ms = SP_SESSION_STOP_WAIT_MS;
}

static int ignore_progress(const struct sp_lat_progress *p, void *arg)
{
	(void)p;
	(void)arg;
	return 0;
}

void sp_session_progress_drain(struct sp_run *r)
{
	/* any reader empties the socket: LAT_ and BW_PROGRESS alike */
	if (r->ctl.pr_sk)
		while (sp_nl_lat_progress_recv(&r->ctl, ignore_progress, NULL) == -ENOBUFS)
			;
}

int sp_session_hook_wait(void *ctx, int64_t timeout_ms)
{
	struct sp_run *r = sp_session_run_of(ctx);
	int fd = sp_nl_progress_fd(&r->ctl);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000, .tv_nsec = (timeout_ms % 1000) * 1000000,
	};

	if (ppoll(&pfd, fd >= 0 ? 1 : 0, &ts, &r->sig.wait_mask) < 0)
		return errno == EINTR ? 0 : -errno;
	return fd >= 0 && (pfd.revents & POLLIN) ? 1 : 0;
}

int64_t sp_session_hook_now_ms(void *ctx)
{
	(void)ctx;
	return sp_run_now_ms();
}

unsigned int sp_session_hook_signals(void *ctx)
{
	(void)ctx;
	return sp_run_signal_count();
}

int sp_session_exit(int rc, bool measured)
{
	/* interrupted before anything was measured: as a shell reports it */
	if (rc == SP_EXIT_OK && sp_run_signal() && !measured)
		return 128 + sp_run_signal();
	return rc;
}

int sp_session_report(const struct sp_run_traces *rt, const char *object, bool json,
		      int json_ret, int rc)
{
	if (!json)
		sp_run_traces_print(rt);
	if (!json_ret)
		return rc;
	sp_report_nl_error(stderr, object, "run", json_ret, NULL);
	return SP_EXIT_ERROR;
}
