// SPDX-License-Identifier: GPL-2.0
/*
 * The loop that follows sessions until they end (user/wait.c), driven by a
 * scripted kernel on a simulated clock: one session as "lat run" has it
 * (progress messages, lost ones, polls, Ctrl-C once and twice, a session
 * that will not stop, errors), then several side by side as "bw run" has
 * them (each confirmed once, a failed one left alone, Ctrl-C stopping all).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/model.h"
#include "lib/wait.h"

#define ID 7
#define MAX_SESSIONS 3
#define MAX_EVENTS 16

enum ev_type { EV_PROGRESS, EV_SIGNAL, EV_LOST };

struct event {
	int64_t at;
	enum ev_type type;
	uint32_t id;			/* EV_PROGRESS */
	uint8_t state;
};

/* A session's state over time, as GET reports it. */
struct phase {
	int64_t from;
	uint8_t state;
};

struct fake {
	int64_t now;
	struct event ev[MAX_EVENTS];
	int n_ev, next_ev;
	bool pending_progress;		/* an event was delivered by wait() */
	bool pending_lost;
	struct sp_wait_session *s;	/* what the loop follows */
	size_t n;
	struct phase phase[MAX_SESSIONS][8];
	int n_phase[MAX_SESSIONS];
	int64_t stop_delay;		/* after STOP, STOPPED; < 0: never */
	int64_t stopped_at[MAX_SESSIONS];	/* -1 until STOP */
	int stop_calls, get_calls, shows, recv_notes;
	int stops[MAX_SESSIONS], gets[MAX_SESSIONS];
	int stop_ret, get_ret, get_fail_after;
	unsigned int signals;
};

static void fake_init(struct fake *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < MAX_SESSIONS; i++)
		f->stopped_at[i] = -1;
	f->stop_delay = 100;
	f->get_fail_after = -1;
}

static void add_phase(struct fake *f, int sess, int64_t from, uint8_t state)
{
	f->phase[sess][f->n_phase[sess]++] = (struct phase){ from, state };
}

static void add_progress(struct fake *f, int64_t at, uint32_t id, uint8_t state)
{
	f->ev[f->n_ev++] = (struct event){ .at = at, .type = EV_PROGRESS, .id = id,
					   .state = state };
}

static void add_event(struct fake *f, int64_t at, enum ev_type type)
{
	f->ev[f->n_ev++] = (struct event){ .at = at, .type = type };
}

static int f_stop(void *ctx, size_t i)
{
	struct fake *f = ctx;

	ck_assert_uint_lt(i, f->n);
	ck_assert_msg(!f->s[i].final, "STOP of a session that ended");
	f->stop_calls++;
	f->stops[i]++;
	if (f->stop_ret)
		return f->stop_ret;
	if (f->stopped_at[i] < 0)
		f->stopped_at[i] = f->now;
	return 0;
}

static int f_get(void *ctx, size_t i, uint8_t *state)
{
	struct fake *f = ctx;
	int k;

	ck_assert_uint_lt(i, f->n);
	ck_assert_msg(!f->s[i].final, "GET of a session that ended");
	f->get_calls++;
	f->gets[i]++;
	if (f->get_fail_after >= 0 && f->get_calls > f->get_fail_after)
		return f->get_ret;
	for (k = 0; k < f->n_phase[i]; k++)
		if (f->phase[i][k].from <= f->now)
			*state = f->phase[i][k].state;
	if (f->stopped_at[i] >= 0 && f->stop_delay >= 0 &&
	    f->now >= f->stopped_at[i] + f->stop_delay && !sp_lat_state_final(*state))
		*state = SPARKPERF_LAT_STATE_STOPPED;
	return 0;
}

static int f_wait(void *ctx, int64_t timeout_ms)
{
	struct fake *f = ctx;
	struct event *e;

	ck_assert_int_ge(timeout_ms, 0);
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

static int f_recv(void *ctx)
{
	struct fake *f = ctx;

	if (f->pending_lost) {
		f->pending_lost = false;
		return -ENOBUFS;
	}
	/* every progress event due by now */
	while (f->pending_progress && f->next_ev < f->n_ev &&
	       f->ev[f->next_ev].type == EV_PROGRESS && f->ev[f->next_ev].at <= f->now) {
		struct event *e = &f->ev[f->next_ev++];

		if (sp_wait_note(f->s, f->n, e->id, e->state) >= 0)
			f->recv_notes++;
	}
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

static void f_show(void *ctx)
{
	((struct fake *)ctx)->shows++;
}

static const struct sp_wait_ops ops = {
	.stop = f_stop, .get = f_get, .wait = f_wait, .recv = f_recv,
	.now_ms = f_now, .signals = f_signals, .show = f_show,
};

static const struct sp_wait_cfg with_progress = {
	.progress = true, .poll_ms = 5000, .stop_wait_ms = 10000,
};

static const struct sp_wait_cfg without_progress = {
	.progress = false, .poll_ms = 1000, .stop_wait_ms = 10000,
};

/* Follows n sessions with ids ID, ID + 1, ... */
static int run_n(struct fake *f, const struct sp_wait_cfg *cfg, struct sp_wait_session *s,
		 size_t n, enum sp_wait_end *end)
{
	size_t i;

	memset(s, 0, n * sizeof(*s));
	for (i = 0; i < n; i++) {
		s[i].id = ID + (uint32_t)i;
		s[i].state = SPARKPERF_LAT_STATE_CONNECTING;
	}
	f->s = s;
	f->n = n;
	return sp_wait(&ops, f, cfg, s, n, end);
}

static int run(struct fake *f, const struct sp_wait_cfg *cfg, struct sp_wait_session *s,
	       enum sp_wait_end *end)
{
	return run_n(f, cfg, s, 1, end);
}

/* ---- one session ---------------------------------------------------------- */

/* Progress drives it: the end is seen when it happens, confirmed by one GET. */
START_TEST(test_progress_to_done)
{
	enum sp_wait_end end = SP_WAIT_ABANDONED;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_CONNECTING);
	add_phase(&f, 0, 50, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 2500, SPARKPERF_LAT_STATE_DONE);
	add_progress(&f, 50, ID, SPARKPERF_LAT_STATE_RUNNING);
	add_progress(&f, 1050, 99, SPARKPERF_LAT_STATE_RUNNING);	/* not ours */
	add_progress(&f, 1050, ID, SPARKPERF_LAT_STATE_RUNNING);
	add_progress(&f, 2050, ID, SPARKPERF_LAT_STATE_RUNNING);
	add_progress(&f, 2500, ID, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 2500);
	ck_assert_int_eq(f.get_calls, 1);
	ck_assert_int_eq(f.stop_calls, 0);
	ck_assert_int_eq(f.recv_notes, 4);
	ck_assert_uint_eq(s.state, SPARKPERF_LAT_STATE_DONE);
	ck_assert(s.final);
	ck_assert_int_ge(f.shows, 4);
}
END_TEST

/* A final state in progress that GET does not confirm (a stale message). */
START_TEST(test_progress_final_unconfirmed)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 3000, SPARKPERF_LAT_STATE_DONE);
	add_progress(&f, 10, ID, SPARKPERF_LAT_STATE_DONE);
	add_progress(&f, 3000, ID, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 3000);
	ck_assert_int_eq(f.get_calls, 2);
}
END_TEST

/* Without the group, GET every poll_ms. */
START_TEST(test_polling_only)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 3300, SPARKPERF_LAT_STATE_FAILED);
	ck_assert_int_eq(run(&f, &without_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 4000);
	ck_assert_int_eq(f.get_calls, 4);
	ck_assert_uint_eq(s.state, SPARKPERF_LAT_STATE_FAILED);
}
END_TEST

/* A lost progress message (ENOBUFS): GET at once, which sees the end. */
START_TEST(test_progress_lost)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 1200, SPARKPERF_LAT_STATE_DONE);
	add_event(&f, 1200, EV_LOST);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 1200);
	ck_assert_int_eq(f.get_calls, 1);
}
END_TEST

/* Ctrl-C: STOP once, then the session ends (progress says so). */
START_TEST(test_sigint_stops)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_event(&f, 1500, EV_SIGNAL);
	add_progress(&f, 1600, ID, SPARKPERF_LAT_STATE_STOPPED);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.stopped_at[0], 1500);
	ck_assert_int_eq(f.now, 1600);
	/* one GET right after the stop, one to confirm the end */
	ck_assert_int_eq(f.get_calls, 2);
	ck_assert_uint_eq(s.state, SPARKPERF_LAT_STATE_STOPPED);
}
END_TEST

/* Ctrl-C, and the kernel never ends the session: give up after stop_wait_ms. */
START_TEST(test_sigint_no_stop)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_event(&f, 1000, EV_SIGNAL);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_GAVE_UP);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.now, 11000);
	ck_assert_uint_eq(s.state, SPARKPERF_LAT_STATE_RUNNING);

	/* without progress: the same deadline, polled every second meanwhile */
	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_event(&f, 1000, EV_SIGNAL);
	ck_assert_int_eq(run(&f, &without_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_GAVE_UP);
	ck_assert_int_eq(f.now, 11000);
	ck_assert_int_ge(f.get_calls, 10);
}
END_TEST

/* A second Ctrl-C: stop waiting at once. */
START_TEST(test_sigint_twice)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_event(&f, 1000, EV_SIGNAL);
	add_event(&f, 2500, EV_SIGNAL);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_ABANDONED);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.now, 2500);
}
END_TEST

/* A signal before the loop starts: stopped at once. */
START_TEST(test_signal_before)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	fake_init(&f);
	f.signals = 1;
	f.stop_delay = 0;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_CONNECTING);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.stop_calls, 1);
	ck_assert_int_eq(f.now, 0);
	ck_assert_uint_eq(s.state, SPARKPERF_LAT_STATE_STOPPED);
}
END_TEST

START_TEST(test_errors)
{
	enum sp_wait_end end;
	struct sp_wait_session s;
	struct fake f;

	/* STOP of a session already gone: not an error */
	fake_init(&f);
	f.stop_ret = -ENOENT;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_DONE);
	add_event(&f, 10, EV_SIGNAL);
	f.signals = 1;
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);

	/* any other STOP error is */
	fake_init(&f);
	f.stop_ret = -EPERM;
	f.signals = 1;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	ck_assert_int_eq(run(&f, &with_progress, &s, &end), -EPERM);

	/* GET fails */
	fake_init(&f);
	f.get_fail_after = 0;
	f.get_ret = -ENOENT;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	ck_assert_int_eq(run(&f, &without_progress, &s, &end), -ENOENT);
	ck_assert_int_eq(f.now, 1000);
}
END_TEST

/* ---- several sessions ------------------------------------------------------ */

/* Both end on their own: each confirmed by one GET when progress says so. */
START_TEST(test_two_progress)
{
	enum sp_wait_end end;
	struct sp_wait_session s[2];
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 2000, SPARKPERF_LAT_STATE_DONE);
	add_phase(&f, 1, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 2100, SPARKPERF_LAT_STATE_DONE);
	add_progress(&f, 500, ID + 1, SPARKPERF_LAT_STATE_RUNNING);
	add_progress(&f, 500, ID, SPARKPERF_LAT_STATE_RUNNING);
	add_progress(&f, 2000, ID, SPARKPERF_LAT_STATE_DONE);
	add_progress(&f, 2100, ID + 1, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(run_n(&f, &with_progress, s, 2, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 2100);
	/* the first is not asked again once it ended */
	ck_assert_int_eq(f.gets[0], 1);
	ck_assert_int_eq(f.gets[1], 1);
	ck_assert(s[0].final && s[1].final);
	ck_assert_uint_eq(s[0].state, SPARKPERF_LAT_STATE_DONE);
	ck_assert_uint_eq(s[1].state, SPARKPERF_LAT_STATE_DONE);
}
END_TEST

/* One fails early; the other runs on to its end, polled meanwhile. */
START_TEST(test_one_fails)
{
	enum sp_wait_end end;
	struct sp_wait_session s[2];
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 12000, SPARKPERF_LAT_STATE_DONE);
	add_phase(&f, 1, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 100, SPARKPERF_LAT_STATE_FAILED);
	add_progress(&f, 100, ID + 1, SPARKPERF_LAT_STATE_FAILED);
	add_progress(&f, 12000, ID, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(run_n(&f, &with_progress, s, 2, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 12000);
	ck_assert_int_eq(f.gets[1], 1);
	/* the safety-net polls at 5 s and 10 s, then the confirmation */
	ck_assert_int_eq(f.gets[0], 3);
	ck_assert_uint_eq(s[1].state, SPARKPERF_LAT_STATE_FAILED);
	ck_assert_uint_eq(s[0].state, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(f.stop_calls, 0);
}
END_TEST

/* Ctrl-C stops every session still running, and waits for all of them. */
START_TEST(test_sigint_stops_all)
{
	enum sp_wait_end end;
	struct sp_wait_session s[3];
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 200, SPARKPERF_LAT_STATE_FAILED);
	add_phase(&f, 2, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_progress(&f, 200, ID + 1, SPARKPERF_LAT_STATE_FAILED);
	add_event(&f, 1000, EV_SIGNAL);
	add_progress(&f, 1100, ID, SPARKPERF_LAT_STATE_STOPPED);
	add_progress(&f, 1100, ID + 2, SPARKPERF_LAT_STATE_STOPPED);
	ck_assert_int_eq(run_n(&f, &with_progress, s, 3, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	/* not the failed one */
	ck_assert_int_eq(f.stop_calls, 2);
	ck_assert_int_eq(f.stops[0], 1);
	ck_assert_int_eq(f.stops[1], 0);
	ck_assert_int_eq(f.stops[2], 1);
	ck_assert_int_eq(f.now, 1100);
	ck_assert_uint_eq(s[0].state, SPARKPERF_LAT_STATE_STOPPED);
	ck_assert_uint_eq(s[2].state, SPARKPERF_LAT_STATE_STOPPED);
}
END_TEST

/* Without the group: every session polled every second until all ended. */
START_TEST(test_two_polling)
{
	enum sp_wait_end end;
	struct sp_wait_session s[2];
	struct fake f;

	fake_init(&f);
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 0, 1500, SPARKPERF_LAT_STATE_DONE);
	add_phase(&f, 1, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 2500, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(run_n(&f, &without_progress, s, 2, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_FINAL);
	ck_assert_int_eq(f.now, 3000);
	ck_assert_int_eq(f.gets[0], 2);
	ck_assert_int_eq(f.gets[1], 3);
}
END_TEST

/* One session never stops: the others' ends do not end the wait. */
START_TEST(test_two_one_stuck)
{
	enum sp_wait_end end;
	struct sp_wait_session s[2];
	struct fake f;

	fake_init(&f);
	f.stop_delay = -1;
	add_phase(&f, 0, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 0, SPARKPERF_LAT_STATE_RUNNING);
	add_phase(&f, 1, 1200, SPARKPERF_LAT_STATE_STOPPED);
	add_event(&f, 1000, EV_SIGNAL);
	add_progress(&f, 1200, ID + 1, SPARKPERF_LAT_STATE_STOPPED);
	ck_assert_int_eq(run_n(&f, &with_progress, s, 2, &end), 0);
	ck_assert_int_eq(end, SP_WAIT_GAVE_UP);
	ck_assert_int_eq(f.now, 11000);
	ck_assert(s[1].final);
	ck_assert(!s[0].final);
}
END_TEST

START_TEST(test_note)
{
	struct sp_wait_session s[2] = {
		{ .id = 3, .state = SPARKPERF_LAT_STATE_RUNNING },
		{ .id = 4, .state = SPARKPERF_LAT_STATE_DONE, .final = true },
	};

	ck_assert_int_eq(sp_wait_note(s, 2, 9, SPARKPERF_LAT_STATE_DONE), -1);
	ck_assert_int_eq(sp_wait_note(s, 2, 3, SPARKPERF_LAT_STATE_RUNNING), 0);
	ck_assert(!s[0].maybe_final);
	ck_assert_int_eq(sp_wait_note(s, 2, 3, SPARKPERF_LAT_STATE_FAILED), 0);
	ck_assert(s[0].maybe_final);
	ck_assert_uint_eq(s[0].state, SPARKPERF_LAT_STATE_FAILED);
	/* an ended session keeps what GET said */
	ck_assert_int_eq(sp_wait_note(s, 2, 4, SPARKPERF_LAT_STATE_RUNNING), -1);
	ck_assert_uint_eq(s[1].state, SPARKPERF_LAT_STATE_DONE);
}
END_TEST

static Suite *wait_suite(void)
{
	Suite *s = suite_create("wait");
	TCase *tc = tcase_create("one");

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

	tc = tcase_create("several");
	tcase_add_test(tc, test_two_progress);
	tcase_add_test(tc, test_one_fails);
	tcase_add_test(tc, test_sigint_stops_all);
	tcase_add_test(tc, test_two_polling);
	tcase_add_test(tc, test_two_one_stuck);
	tcase_add_test(tc, test_note);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wait_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
