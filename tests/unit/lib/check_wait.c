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

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
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

/* ---- scenarios --------------------------------------------------------------- */

/* An expectation: CK(v) checks v, 0 (left out) checks nothing. */
#define CK(v) ((v) + 1)
/* A session that never stops (stop_delay). */
#define NEVER (-1)
#define CHECKED(x) ((x) != 0)
#define WANT(x) ((x) - 1)

#define RUNNING SPARKPERF_LAT_STATE_RUNNING
#define DONE SPARKPERF_LAT_STATE_DONE
#define FAILED SPARKPERF_LAT_STATE_FAILED
#define STOPPED SPARKPERF_LAT_STATE_STOPPED

/* Session sess is in state from time from on (GET). */
#define PHASE(sess, from, state) { true, sess, from, state }
/* At time at, a progress message of session ID + sess (99: not ours). */
#define PROGRESS(at, sess, state) { true, at, EV_PROGRESS, sess, state }
#define EVENT(at, type) { true, at, type, 0, 0 }

/* A scripted kernel, how the loop is run, and what it must come to. */
struct scenario {
	const char *what;
	size_t n;				/* sessions, ids ID, ID + 1, ... */
	bool progress;				/* the group was joined */
	int64_t stop_delay;			/* CK(): after STOP, STOPPED; NEVER: never */
	unsigned int signals;			/* before the loop starts */
	struct { bool set; int sess; int64_t from; uint8_t state; } phase[6];
	struct { bool set; int64_t at; enum ev_type type; uint32_t sess; uint8_t state; } ev[8];
	enum sp_wait_end end;
	int64_t now;
	int get_calls, get_calls_min, stop_calls, recv_notes, shows_min;	/* CK() */
	int64_t stopped_at0;			/* CK() */
	int gets[MAX_SESSIONS], stops[MAX_SESSIONS];	/* CK() */
	int state[MAX_SESSIONS], final[MAX_SESSIONS];	/* CK() */
};

static const struct scenario scenarios[] = {
	{ "progress drives it: the end seen when it happens, confirmed by one GET",
	  1, true, 0, 0,
	  { PHASE(0, 0, SPARKPERF_LAT_STATE_CONNECTING), PHASE(0, 50, RUNNING),
	    PHASE(0, 2500, DONE) },
	  { PROGRESS(50, 0, RUNNING), PROGRESS(1050, 99 - ID, RUNNING),
	    PROGRESS(1050, 0, RUNNING), PROGRESS(2050, 0, RUNNING), PROGRESS(2500, 0, DONE) },
	  SP_WAIT_FINAL, 2500, .get_calls = CK(1), .stop_calls = CK(0), .recv_notes = CK(4),
	  .shows_min = CK(4), .state = { CK(DONE) }, .final = { CK(true) } },
	{ "a final state in progress that GET does not confirm (a stale message)",
	  1, true, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(0, 3000, DONE) },
	  { PROGRESS(10, 0, DONE), PROGRESS(3000, 0, DONE) },
	  SP_WAIT_FINAL, 3000, .get_calls = CK(2) },
	{ "without the group, GET every poll_ms",
	  1, false, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(0, 3300, FAILED) }, { { false } },
	  SP_WAIT_FINAL, 4000, .get_calls = CK(4), .state = { CK(FAILED) } },
	{ "a lost progress message (ENOBUFS): GET at once, which sees the end",
	  1, true, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(0, 1200, DONE) }, { EVENT(1200, EV_LOST) },
	  SP_WAIT_FINAL, 1200, .get_calls = CK(1) },
	{ "Ctrl-C: STOP once, then the session ends (progress says so); one GET right "
	  "after the stop, one to confirm the end",
	  1, true, 0, 0,
	  { PHASE(0, 0, RUNNING) }, { EVENT(1500, EV_SIGNAL), PROGRESS(1600, 0, STOPPED) },
	  SP_WAIT_FINAL, 1600, .get_calls = CK(2), .stop_calls = CK(1), .stopped_at0 = CK(1500),
	  .state = { CK(STOPPED) } },
	{ "Ctrl-C, and the kernel never ends the session: give up after stop_wait_ms",
	  1, true, NEVER, 0,
	  { PHASE(0, 0, RUNNING) }, { EVENT(1000, EV_SIGNAL) },
	  SP_WAIT_GAVE_UP, 11000, .stop_calls = CK(1), .state = { CK(RUNNING) } },
	{ "the same without progress: the same deadline, polled every second meanwhile",
	  1, false, NEVER, 0,
	  { PHASE(0, 0, RUNNING) }, { EVENT(1000, EV_SIGNAL) },
	  SP_WAIT_GAVE_UP, 11000, .get_calls_min = CK(10) },
	{ "a second Ctrl-C: stop waiting at once",
	  1, true, NEVER, 0,
	  { PHASE(0, 0, RUNNING) }, { EVENT(1000, EV_SIGNAL), EVENT(2500, EV_SIGNAL) },
	  SP_WAIT_ABANDONED, 2500, .stop_calls = CK(1) },
	{ "a signal before the loop starts: stopped at once",
	  1, true, CK(0), 1,
	  { PHASE(0, 0, SPARKPERF_LAT_STATE_CONNECTING) }, { { false } },
	  SP_WAIT_FINAL, 0, .stop_calls = CK(1), .state = { CK(STOPPED) } },
	{ "both end on their own: each confirmed by one GET when progress says so, the "
	  "first not asked again once it ended",
	  2, true, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(0, 2000, DONE), PHASE(1, 0, RUNNING),
	    PHASE(1, 2100, DONE) },
	  { PROGRESS(500, 1, RUNNING), PROGRESS(500, 0, RUNNING), PROGRESS(2000, 0, DONE),
	    PROGRESS(2100, 1, DONE) },
	  SP_WAIT_FINAL, 2100, .gets = { CK(1), CK(1) }, .state = { CK(DONE), CK(DONE) },
	  .final = { CK(true), CK(true) } },
	{ "one fails early; the other runs on to its end, polled at 5 s and 10 s, then "
	  "confirmed",
	  2, true, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(0, 12000, DONE), PHASE(1, 0, RUNNING),
	    PHASE(1, 100, FAILED) },
	  { PROGRESS(100, 1, FAILED), PROGRESS(12000, 0, DONE) },
	  SP_WAIT_FINAL, 12000, .stop_calls = CK(0), .gets = { CK(3), CK(1) },
	  .state = { CK(DONE), CK(FAILED) } },
	{ "Ctrl-C stops every session still running (not the failed one), and waits for "
	  "all of them",
	  3, true, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(1, 0, RUNNING), PHASE(1, 200, FAILED),
	    PHASE(2, 0, RUNNING) },
	  { PROGRESS(200, 1, FAILED), EVENT(1000, EV_SIGNAL), PROGRESS(1100, 0, STOPPED),
	    PROGRESS(1100, 2, STOPPED) },
	  SP_WAIT_FINAL, 1100, .stop_calls = CK(2), .stops = { CK(1), CK(0), CK(1) },
	  .state = { CK(STOPPED), 0, CK(STOPPED) } },
	{ "without the group: every session polled every second until all ended",
	  2, false, 0, 0,
	  { PHASE(0, 0, RUNNING), PHASE(0, 1500, DONE), PHASE(1, 0, RUNNING),
	    PHASE(1, 2500, DONE) }, { { false } },
	  SP_WAIT_FINAL, 3000, .gets = { CK(2), CK(3) } },
	{ "one session never stops: the others' ends do not end the wait",
	  2, true, NEVER, 0,
	  { PHASE(0, 0, RUNNING), PHASE(1, 0, RUNNING), PHASE(1, 1200, STOPPED) },
	  { EVENT(1000, EV_SIGNAL), PROGRESS(1200, 1, STOPPED) },
	  SP_WAIT_GAVE_UP, 11000, .final = { CK(false), CK(true) } },
};

START_TEST(test_scenario)
{
	const struct scenario *sc = &scenarios[_i];
	struct sp_wait_session s[MAX_SESSIONS];
	enum sp_wait_end end = SP_WAIT_ABANDONED;
	struct fake f;
	size_t i;

	fake_init(&f);
	if (sc->stop_delay == NEVER)
		f.stop_delay = -1;
	else if (CHECKED(sc->stop_delay))
		f.stop_delay = WANT(sc->stop_delay);
	f.signals = sc->signals;
	for (i = 0; i < ARRAY_SIZE(sc->phase) && sc->phase[i].set; i++)
		add_phase(&f, sc->phase[i].sess, sc->phase[i].from, sc->phase[i].state);
	for (i = 0; i < ARRAY_SIZE(sc->ev) && sc->ev[i].set; i++) {
		if (sc->ev[i].type == EV_PROGRESS)
			add_progress(&f, sc->ev[i].at, ID + sc->ev[i].sess, sc->ev[i].state);
		else
			add_event(&f, sc->ev[i].at, sc->ev[i].type);
	}
	ck_assert_msg(run_n(&f, sc->progress ? &with_progress : &without_progress, s, sc->n,
			    &end) == 0, "%s", sc->what);
	ck_assert_msg(end == sc->end, "%s: end %d", sc->what, end);
	ck_assert_msg(f.now == sc->now, "%s: now %lld", sc->what, (long long)f.now);
	if (CHECKED(sc->get_calls))
		ck_assert_int_eq(f.get_calls, WANT(sc->get_calls));
	if (CHECKED(sc->get_calls_min))
		ck_assert_int_ge(f.get_calls, WANT(sc->get_calls_min));
	if (CHECKED(sc->stop_calls))
		ck_assert_int_eq(f.stop_calls, WANT(sc->stop_calls));
	if (CHECKED(sc->recv_notes))
		ck_assert_int_eq(f.recv_notes, WANT(sc->recv_notes));
	if (CHECKED(sc->shows_min))
		ck_assert_int_ge(f.shows, WANT(sc->shows_min));
	if (CHECKED(sc->stopped_at0))
		ck_assert_int_eq(f.stopped_at[0], WANT(sc->stopped_at0));
	for (i = 0; i < sc->n; i++) {
		if (CHECKED(sc->gets[i]))
			ck_assert_int_eq(f.gets[i], WANT(sc->gets[i]));
		if (CHECKED(sc->stops[i]))
			ck_assert_int_eq(f.stops[i], WANT(sc->stops[i]));
		if (CHECKED(sc->state[i]))
			ck_assert_uint_eq(s[i].state, WANT(sc->state[i]));
		if (CHECKED(sc->final[i]))
			ck_assert_int_eq(s[i].final, WANT(sc->final[i]));
	}
}
END_TEST

/* ---- errors and notes ------------------------------------------------------ */

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
	TCase *tc = tcase_create("scenarios");

	tcase_add_loop_test(tc, test_scenario, 0, ARRAY_SIZE(scenarios));
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_errors);
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
