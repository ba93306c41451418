// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "model.h"
#include "wait.h"

int sp_wait_note(struct sp_wait_session *s, size_t n, uint32_t id, uint8_t state)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i].id != id || s[i].final)
			continue;
		s[i].state = state;
		if (sp_lat_state_final(state))
			s[i].maybe_final = true;
		return (int)i;
	}
	return -1;
}

static void show(const struct sp_wait_ops *ops, void *ctx)
{
	if (ops->show)
		ops->show(ctx);
}

/* STOP of every session still followed: 0 or -errno. */
static int stop_all(const struct sp_wait_ops *ops, void *ctx, struct sp_wait_session *s,
		    size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (s[i].final)
			continue;
		ret = ops->stop(ctx, i);
		if (ret && ret != -ENOENT)
			return ret;
	}
	return 0;
}

/*
 * A GET of the sessions still followed: all of them, or only those that
 * progress says ended. *all says whether every one was asked. 0 or -errno.
 */
static int poll_sessions(const struct sp_wait_ops *ops, void *ctx, struct sp_wait_session *s,
			 size_t n, bool everyone, bool *all)
{
	bool polled = false;
	size_t i;
	int ret;

	*all = true;
	for (i = 0; i < n; i++) {
		if (s[i].final)
			continue;
		if (!everyone && !s[i].maybe_final) {
			*all = false;
			continue;
		}
		ret = ops->get(ctx, i, &s[i].state);
		if (ret)
			return ret;
		s[i].maybe_final = false;
		s[i].final = sp_lat_state_final(s[i].state);
		polled = true;
	}
	if (polled)
		show(ops, ctx);
	return 0;
}

static bool all_final(const struct sp_wait_session *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!s[i].final)
			return false;
	return true;
}

static bool any_maybe_final(const struct sp_wait_session *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i].maybe_final && !s[i].final)
			return true;
	return false;
}

int sp_wait(const struct sp_wait_ops *ops, void *ctx, const struct sp_wait_cfg *cfg,
	    struct sp_wait_session *s, size_t n, enum sp_wait_end *end)
{
	int64_t last_get = ops->now_ms(ctx), stop_deadline = 0, now, wait;
	unsigned int sigs_at_stop = 0;
	bool stop_sent = false, need_get = false, all;
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		s[i].maybe_final = s[i].final = false;
	for (;;) {
		if (!stop_sent && ops->signals(ctx)) {
			ret = stop_all(ops, ctx, s, n);
			if (ret)
				return ret;
			stop_sent = true;
			sigs_at_stop = ops->signals(ctx);
			stop_deadline = ops->now_ms(ctx) + cfg->stop_wait_ms;
			need_get = true;
		}
		if (stop_sent && ops->signals(ctx) > sigs_at_stop) {
			*end = SP_WAIT_ABANDONED;
			return 0;
		}
		now = ops->now_ms(ctx);
		if (need_get || any_maybe_final(s, n) || now - last_get >= cfg->poll_ms) {
			ret = poll_sessions(ops, ctx, s, n, need_get || now - last_get >= cfg->poll_ms,
					    &all);
			if (ret)
				return ret;
			now = ops->now_ms(ctx);
			if (all)
				last_get = now;
			need_get = false;
			if (all_final(s, n)) {
				*end = SP_WAIT_FINAL;
				return 0;
			}
		}
		if (stop_sent && now >= stop_deadline) {
			*end = SP_WAIT_GAVE_UP;
			return 0;
		}

		wait = last_get + cfg->poll_ms - now;
		if (stop_sent && stop_deadline - now < wait)
			wait = stop_deadline - now;
		if (wait < 0)
			wait = 0;
		ret = ops->wait(ctx, wait);
		if (ret < 0)
			return ret;
		if (ret > 0 && cfg->progress) {
			ret = ops->recv(ctx);
			if (ret == -ENOBUFS)
				need_get = true;	/* progress was lost */
			else if (ret < 0)
				return ret;
			show(ops, ctx);
		}
	}
}
