// SPDX-License-Identifier: GPL-2.0
/*
 * The loop that follows a latency session (user/latwait.c), driven by a
 * scripted kernel on a simulated clock: progress messages, lost ones,
 * polls, Ctrl-C once and twice, a session that will not stop, errors.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "latwait.h"

#define ID 7
#define MAX_EVENTS 16

enum ev_type { EV_PROGRESS, EV_SIGNAL, EV_LOST };

struct event {
	int64_t at;
	enum ev_type type;
	struct sp_lat_progress p;	/* EV_PROGRESS */
};

/* The session's state over time, as LAT_GET reports it. */
struct phase {
	int64_t from;
	uint8_t state;
	uint64_t count;
};

struct fake {
	int64_t now;
	struct event ev[MAX_EVENTS];
	int n_ev, next_ev;
	bool pending_progress;		/* an event was delivered by wait() */
	bool pending_lost;
	struct phase phase[8];
	int n_phase;
	int64_t stop_delay;		/* after LAT_STOP, STOPPED; < 0: never */
	int64_t stopped_at;		/* -1 until LAT_STOP */
	int stop_calls, get_calls, shows;
	int stop_ret, get_ret, get_fail_after;
	unsigned int signals;
	int64_t last_wait;
};

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->stopped_at = -1;
	f->stop_delay = 100;
	f->get_fail_after = -1;
}

static void add_phase(struct fake *f, int64_t from, uint8_t state, uint64_t count)
{
	f->phase[f->n_phase++] = (struct phase){ from, state, count };
}

static void add_progress(struct fake *f, int64_t at, uint32_t id, uint8_t state,
			 uint64_t count, bool interval)
{
	struct event *e = &f->ev[f->n_ev++];

	e->at = at;
	e->type = EV_PROGRESS;
	e->p = (struct sp_lat_progress){ .id = id, .state = state, .count = count };
	if (interval) {
		e->p.has_interval = true;
		e->p.interval = (struct sp_lat_interval){ at * 1000000, 100, 1470, 2000, 3000 };
	}
}

static void add_event(struct fake *f, int64_t at, enum ev_type type)
{
	f->ev[f->n_ev++] = (struct event){ .at = at, .type = type };
}

static int f_stop(void *ctx, uint32_t id)
{
	struct fake *f = ctx;

	ck_assert_uint_eq(id, ID);
	f->stop_calls++;
	if (f->stop_ret)
		return f->stop_ret;
	if (f->stopped_at < 0)
		f->stopped_at = f->now;
	return 0;
}

static int f_get(void *ctx, uint32_t id, struct sp_lat *lat)
{
	struct fake *f = ctx;
	int i;

	ck_assert_uint_eq(id, ID);
	memset(lat, 0, sizeof(*lat));
	f->get_calls++;
	if (f->get_fail_after >= 0 && f->get_calls > f->get_fail_after)
		return f->get_ret;
	lat->id = id;
	for (i = 0; i < f->n_phase; i++) {
		if (f->phase[i].from <= f->now) {
			lat->state = f->phase[i].state;
			lat->count = f->phase[i].count;
		}
	}
	if (f->stopped_at >= 0 && f->stop_delay >= 0 && f->now >= f->stopped_at + f->stop_delay &&
	    !sp_lat_state_final(lat->state))
		lat->state = SPARKPERF_LAT_STATE_STOPPED;
	/* an interval, so that the watch picks up the last one */
	lat->n_intervals = 1;
	lat->intervals = calloc(1, sizeof(*lat->intervals));
	ck_assert_ptr_nonnull(lat->intervals);
	lat->intervals[0].p50_ns = 1234;
	return 0;
}

static int f_wait(void *ctx, int64_t timeout_ms)
{
	struct fake *f = ctx;
	struct event *e;

	ck_assert_int_ge(timeout_ms, 0);
	f->last_wait = timeout_ms;
	/* a stop-wait of 10 s and polls every 1 s: a loop never needs more */
	ck_assert_int_lt(f->now, 100000);
	if (f->next_ev < f->n_ev && f->ev[f->next_ev].at <= f->now + timeout_ms) {
		e = &f->ev[f->next_ev++];
		if (e->at > f->now)
			f->now = e->at;
		switch (e->type) {
		case EV_SIGNAL:
			f->signals++;
			return 0;	/* EINTR */
		case EV_LOST:
			f->pending_lost = true;
			return 1;
		case EV_PROGRESS:
			f->pending_progress = true;
			f->next_ev--;	/* recv() delivers it */
			return 1;
		}
	}
	f->now += timeout_ms;
	return 0;
}

static int f_recv(void *ctx, sp_nl_progress_fn fn, void *arg)
{
	struct fake *f = ctx;

	if (f->pending_lost) {
		f->pending_lost = false;
		return -ENOBUFS;
	}
	/* every progress event due by now */
	while (f->pending_progress && f->next_ev < f->n_ev &&
	       f->ev[f->next_ev].type == EV_PROGRESS && f->ev[f->next_ev].at <= f->now)
		fn(&f->ev[f->next_ev++].p, arg);
	f->pending_progress = false;
	return 0;
}

static int64_t f_now(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static unsigned int f_signals(void *ctx)
{
	return ((struct fake *)ctx)->signals;
}

static void f_show(void *ctx, const struct sp_lat_watch *w)
{
	(void)w;
	((struct fake *)ctx)->shows++;
}

static const struct sp_lat_wait_ops ops = {
	.stop = f_stop, .get = f_get, .wait = f_wait, .recv = f_recv,
	.now_ms = f_now, .signals = f_signals, .show = f_show,
};

static const struct sp_lat_wait_cfg with_progress = {
	.progress = true, .poll_ms = 5000, .stop_wait_ms = 10000,
};

static const struct sp_lat_wait_cfg without_progress = {
	.progress = false, .poll_ms = 1000, .stop_wait_ms = 10000,
};

static int run(struct fake *f, const struct sp_lat_wait_cfg *cfg, struct sp_lat_watch *w,
	       enum sp_lat_wait_end *end)
{
	memset(w, 0, sizeof(*w));
	w->id = ID;
	w->state = SPARKPERF_LAT_STATE_CONNECTING;
	return sp_lat_wait(&ops, f, cfg, w, end);
}

/* Progress drives it: the end is seen when it happens, confirmed by one LAT_GET. */
START_TEST(test_progress_to_done)
{
	enum sp_lat_wait_end end = SP_LAT_WAIT_ABANDONED;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, SPARKPERF_LAT_STATE_CONNECTING, 0);
	add_phase(&f, 50, SPARKPERF_LAT_STATE_RUNNING, 0);
	add_phase(&f, 2500, SPARKPERF_LAT_STATE_DONE, 2000);
	add_progress(&f, 50, ID, SPARKPERF_LAT_STATE_RUNNING, 0, false);
	add_progress(&f, 1050, 99, SPARKPERF_LAT_STATE_RUNNING, 5, true);	/* not ours */
	add_progress(&f, 1050, ID, SPARKPERF_LAT_STATE_RUNNING, 800, true);
	add_progress(&f, 2050, ID, SPARKPERF_LAT_STATE_RUNNING, 1600, true);
	add_progress(&f, 2500, ID, SPARKPERF_LAT_STATE_DONE, 2000, false);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);
	ck_assert_int_eq(f.now, 2500);
	ck_assert_int_eq(f.get_calls, 1);
	ck_assert_int_eq(f.stop_calls, 0);
	ck_assert_uint_eq(w.state, SPARKPERF_LAT_STATE_DONE);
	ck_assert_uint_eq(w.count, 2000);
	ck_assert(w.has_last);
	ck_assert_int_ge(f.shows, 4);
}
END_TEST

/* A final state in progress that LAT_GET does not confirm (a stale message). */
START_TEST(test_progress_final_unconfirmed)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 0);
	add_phase(&f, 3000, SPARKPERF_LAT_STATE_DONE, 3000);
	add_progress(&f, 10, ID, SPARKPERF_LAT_STATE_DONE, 999, false);
	add_progress(&f, 3000, ID, SPARKPERF_LAT_STATE_DONE, 3000, false);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);
	ck_assert_int_eq(f.now, 3000);
	ck_assert_int_eq(f.get_calls, 2);
	ck_assert_uint_eq(w.count, 3000);
}
END_TEST

/* Without the group, LAT_GET every poll_ms. */
START_TEST(test_polling_only)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 0);
	add_phase(&f, 3300, SPARKPERF_LAT_STATE_FAILED, 10);
	ck_assert_int_eq(run(&f, &without_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);
	ck_assert_int_eq(f.now, 4000);
	ck_assert_int_eq(f.get_calls, 4);
	ck_assert_uint_eq(w.state, SPARKPERF_LAT_STATE_FAILED);
	ck_assert(w.has_last);
}
END_TEST

/* A lost progress message (ENOBUFS): LAT_GET at once, which sees the end. */
START_TEST(test_progress_lost)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 0);
	add_phase(&f, 1200, SPARKPERF_LAT_STATE_DONE, 1000);
	add_event(&f, 1200, EV_LOST);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);
	ck_assert_int_eq(f.now, 1200);
	ck_assert_int_eq(f.get_calls, 1);
}
END_TEST

/* Ctrl-C: LAT_STOP once, then the session ends (progress says so). */
START_TEST(test_sigint_stops)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 500);
	add_event(&f, 1500, EV_SIGNAL);
	add_progress(&f, 1600, ID, SPARKPERF_LAT_STATE_STOPPED, 700, false);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.stopped_at, 1500);
	ck_assert_int_eq(f.now, 1600);
	/* one LAT_GET right after the stop, one to confirm the end */
	ck_assert_int_eq(f.get_calls, 2);
	ck_assert_uint_eq(w.state, SPARKPERF_LAT_STATE_STOPPED);
}
END_TEST

/* Ctrl-C, and the kernel never ends the session: give up after stop_wait_ms. */
START_TEST(test_sigint_no_stop)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 500);
	add_event(&f, 1000, EV_SIGNAL);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_GAVE_UP);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.now, 11000);
	ck_assert_uint_eq(w.state, SPARKPERF_LAT_STATE_RUNNING);

	/* without progress: the same deadline, polled every second meanwhile */
	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 500);
	add_event(&f, 1000, EV_SIGNAL);
	ck_assert_int_eq(run(&f, &without_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_GAVE_UP);
	ck_assert_int_eq(f.now, 11000);
	ck_assert_int_ge(f.get_calls, 10);
}
END_TEST

/* A second Ctrl-C: stop waiting at once. */
START_TEST(test_sigint_twice)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 500);
	add_event(&f, 1000, EV_SIGNAL);
	add_event(&f, 2500, EV_SIGNAL);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_ABANDONED);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.now, 2500);
}
END_TEST

/* A signal before the loop starts: stopped at once. */
START_TEST(test_signal_before)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	fake_init(&f);
	f.signals = 1;
	f.stop_delay = 0;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_CONNECTING, 0);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.now, 0);
	ck_assert_uint_eq(w.state, SPARKPERF_LAT_STATE_STOPPED);
	ck_assert_uint_eq(w.count, 0);
}
END_TEST

START_TEST(test_errors)
{
	enum sp_lat_wait_end end;
	struct sp_lat_watch w;
	struct fake f;

	/* LAT_STOP of a session already gone: not an error */
	fake_init(&f);
	f.stop_ret = -ENOENT;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_DONE, 10);
	add_event(&f, 10, EV_SIGNAL);
	f.signals = 1;
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), 0);
	ck_assert_int_eq(end, SP_LAT_WAIT_FINAL);

	/* any other LAT_STOP error is */
	fake_init(&f);
	f.stop_ret = -EPERM;
	f.signals = 1;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 10);
	ck_assert_int_eq(run(&f, &with_progress, &w, &end), -EPERM);

	/* LAT_GET fails */
	fake_init(&f);
	f.get_fail_after = 0;
	f.get_ret = -ENOENT;
	add_phase(&f, 0, SPARKPERF_LAT_STATE_RUNNING, 10);
	ck_assert_int_eq(run(&f, &without_progress, &w, &end), -ENOENT);
	ck_assert_int_eq(f.now, 1000);
}
END_TEST

static Suite *latwait_suite(void)
{
	Suite *s = suite_create("latwait");
	TCase *tc = tcase_create("wait");

	tcase_add_test(tc, test_progress_to_done);
	tcase_add_test(tc, test_progress_final_unconfirmed);
	tcase_add_test(tc, test_polling_only);
	tcase_add_test(tc, test_progress_lost);
	tcase_add_test(tc, test_sigint_stops);
	tcase_add_test(tc, test_sigint_no_stop);
	tcase_add_test(tc, test_sigint_twice);
	tcase_add_test(tc, test_signal_before);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(latwait_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
