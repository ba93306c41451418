// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "latwait.h"

static void show(const struct sp_lat_wait_ops *ops, void *ctx, const struct sp_lat_watch *w)
{
	if (ops->show)
		ops->show(ctx, w);
}

struct progress_arg {
	const struct sp_lat_wait_ops *ops;
	void *ctx;
	struct sp_lat_watch *w;
};

static int on_progress(const struct sp_lat_progress *p, void *arg)
{
	struct progress_arg *a = arg;
	struct sp_lat_watch *w = a->w;

	if (p->id != w->id)
		return 0;	/* another session */
	w->state = p->state;
	w->count = p->count;
	w->warmup_done = p->warmup_done;
	if (p->has_interval) {
		w->last = p->interval;
		w->has_last = true;
	}
	if (sp_lat_state_final(p->state))
		w->maybe_final = true;
	show(a->ops, a->ctx, w);
	return 0;
}

/* LAT_GET into w: 0 and *final, or -errno. */
static int poll_session(const struct sp_lat_wait_ops *ops, void *ctx, struct sp_lat_watch *w,
			bool *final)
{
	struct sp_lat lat;
	int ret = ops->get(ctx, w->id, &lat);

	if (ret)
		return ret;
	w->state = lat.state;
	w->count = lat.count;
	w->warmup_done = lat.warmup_done;
	if (lat.n_intervals) {
		w->last = lat.intervals[lat.n_intervals - 1];
		w->has_last = true;
	}
	w->maybe_final = false;
	*final = sp_lat_state_final(lat.state);
	sp_lat_free(&lat);
	show(ops, ctx, w);
	return 0;
}

int sp_lat_wait(const struct sp_lat_wait_ops *ops, void *ctx,
		const struct sp_lat_wait_cfg *cfg, struct sp_lat_watch *w,
		enum sp_lat_wait_end *end)
{
	struct progress_arg pa = { .ops = ops, .ctx = ctx, .w = w };
	int64_t last_get = ops->now_ms(ctx), stop_deadline = 0, now, wait;
	unsigned int sigs_at_stop = 0;
	bool final = false, stop_sent = false, need_get = false;
	int ret;

	for (;;) {
		if (!stop_sent && ops->signals(ctx)) {
			ret = ops->stop(ctx, w->id);
			if (ret && ret != -ENOENT)
				return ret;
			stop_sent = true;
			sigs_at_stop = ops->signals(ctx);
			stop_deadline = ops->now_ms(ctx) + cfg->stop_wait_ms;
			need_get = true;
		}
		if (stop_sent && ops->signals(ctx) > sigs_at_stop) {
			*end = SP_LAT_WAIT_ABANDONED;
			return 0;
		}
		now = ops->now_ms(ctx);
		if (need_get || w->maybe_final || now - last_get >= cfg->poll_ms) {
			ret = poll_session(ops, ctx, w, &final);
			if (ret)
				return ret;
			last_get = now = ops->now_ms(ctx);
			need_get = false;
			if (final) {
				*end = SP_LAT_WAIT_FINAL;
				return 0;
			}
		}
		if (stop_sent && now >= stop_deadline) {
			*end = SP_LAT_WAIT_GAVE_UP;
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
			ret = ops->recv(ctx, on_progress, &pa);
			if (ret == -ENOBUFS)
				need_get = true;	/* progress was lost */
			else if (ret < 0)
				return ret;
		}
	}
}
