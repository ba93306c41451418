// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler of a trace (trace.c): its kernel thread reads each stream
 * on its own grid of absolute CLOCK_MONOTONIC deadlines and writes one
 * ring slot per read; nothing else. Every BATCH_MS it queues a work that
 * multicasts what was written: building and sending a batch took longer
 * than a read and made the next deadlines late. Stopped or at its end,
 * the thread reads every stream once more and sends the last batch.
 *
 * The ring: fixed-size slots, sample number seq in slot seq % nslots, the
 * last nslots samples kept. Its one writer (the thread) fills a slot and
 * advances the head under the trace's spinlock; readers (dumps, the
 * batches) copy slots into messages under it, a message at a time.
 */

#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "counters.h"
#include "netlink.h"
#include "sampler.h"
#include "trace.h"

#define SP_TRACE_SLOTS_MIN 64

struct sp_slot {
	u64 ts_ns;
	u32 stream;
	u32 version;
	u32 read_ns;
	u32 count;
	u64 values[];
};

u64 sp_trace_oldest(const struct sp_trace *t)
{
	return t->head > t->nslots ? t->head - t->nslots : 0;
}

static struct sp_slot *sp_trace_slot(struct sp_trace *t, u64 seq)
{
	u32 rem;

	div_u64_rem(seq, t->nslots, &rem);
	return t->ring + (size_t)rem * t->slot_size;
}

/* The first reason a running trace ends with; stops the thread. */
void sp_trace_fail(struct sp_trace *t, int err, const char *fmt, ...)
{
	va_list args;

	spin_lock(&t->lock);
	if (t->state == SPARKPERF_TRACE_STATE_RUNNING && !t->error) {
		t->error = err;
		va_start(args, fmt);
		vsnprintf(t->error_msg, sizeof(t->error_msg), fmt, args);
		va_end(args);
	}
	spin_unlock(&t->lock);
	set_bit(SP_TRACE_STOP, &t->flags);
	wake_up_process(t->thread);
}

/* The ring, before the first sample: at least SP_TRACE_SLOTS_MIN slots. */
int sp_trace_alloc_ring(struct sp_trace *t, struct genl_info *info)
{
	unsigned int i;

	for (i = 0; i < t->nstreams; i++)
		t->slot_cap = max(t->slot_cap, t->streams[i].cap);
	t->slot_size = sizeof(struct sp_slot) + t->slot_cap * sizeof(u64);
	t->nslots = t->buffer_bytes / t->slot_size;
	if (t->nslots < SP_TRACE_SLOTS_MIN) {
		NL_SET_BAD_ATTR(info->extack,
				info->attrs[SPARKPERF_A_TRACE_BUFFER_BYTES]);
		sp_set_err_msg_fmt(info->extack,
				   "the buffer holds fewer than 64 samples",
				   "the buffer holds %u samples of %zu bytes, fewer than %u",
				   t->nslots, t->slot_size, SP_TRACE_SLOTS_MIN);
		return -E2BIG;
	}
	t->sample_size = nlmsg_total_size(GENL_HDRLEN +
					  nla_total_size(sizeof(u32)) +
					  nla_total_size_64bit(sizeof(u64)) +
					  nla_total_size(0) + nla_total_size(0) +
					  2 * nla_total_size_64bit(sizeof(u64)) +
					  3 * nla_total_size(sizeof(u32)) +
					  nla_total_size(t->slot_cap *
							 sizeof(u64)));
	t->ring = kvmalloc_array(t->nslots, t->slot_size, GFP_KERNEL);
	return t->ring ? 0 : -ENOMEM;
}

/* Under t->lock. */
static bool sp_trace_put_sample(struct sk_buff *skb, struct sp_trace *t,
				u64 seq)
{
	const struct sp_slot *slot = sp_trace_slot(t, seq);
	struct nlattr *nest;

	nest = nla_nest_start(skb, SPARKPERF_A_TRACE_SAMPLE);
	if (!nest)
		return false;
	if (nla_put_u64_64bit(skb, SPARKPERF_A_SAMPLE_SEQ, seq,
			      SPARKPERF_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, SPARKPERF_A_SAMPLE_STREAM, slot->stream) ||
	    nla_put_u32(skb, SPARKPERF_A_SAMPLE_VERSION, slot->version) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_SAMPLE_TS_NS, slot->ts_ns,
			      SPARKPERF_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, SPARKPERF_A_SAMPLE_READ_NS, slot->read_ns) ||
	    nla_put(skb, SPARKPERF_A_SAMPLE_VALUES,
		    slot->count * sizeof(u64), slot->values)) {
		nla_nest_cancel(skb, nest);
		return false;
	}
	nla_nest_end(skb, nest);
	return true;
}

/*
 * The body of a TRACE_SAMPLES message: the samples from *@next up to @end
 * that fit, after the count of those the ring no longer holds. 1 when it
 * put something (and moved *@next), 0 when there is nothing left,
 * -EMSGSIZE when not even one sample fits.
 */
int sp_trace_put_samples(struct sk_buff *skb, struct sp_trace *t, u64 *next,
			 u64 end)
{
	u64 seq = *next, lost = 0, oldest;
	struct nlattr *nest;
	int ret = -EMSGSIZE;
	unsigned int n = 0;

	spin_lock(&t->lock);
	oldest = sp_trace_oldest(t);
	if (seq < oldest) {
		lost = min(oldest, end) - seq;
		seq += lost;
	}
	if (seq >= end && !lost) {
		ret = 0;
		goto out;
	}
	if (nla_put_u32(skb, SPARKPERF_A_TRACE_ID, t->id) ||
	    (lost && nla_put_u64_64bit(skb, SPARKPERF_A_TRACE_LOST, lost,
				       SPARKPERF_A_TRACE_PAD)))
		goto out;
	nest = nla_nest_start(skb, SPARKPERF_A_TRACE_SAMPLES);
	if (!nest)
		goto out;
	while (seq < end && sp_trace_put_sample(skb, t, seq)) {
		seq++;
		n++;
	}
	if (!n && !lost) {
		nla_nest_cancel(skb, nest);
		goto out;
	}
	nla_nest_end(skb, nest);
	*next = seq;
	ret = 1;
out:
	spin_unlock(&t->lock);
	return ret;
}

/* Multicasts what was sampled since the last batch. */
static void sp_trace_batch(struct sp_trace *t)
{
	struct sk_buff *skb;
	void *hdr;
	u64 end;
	int ret;

	spin_lock(&t->lock);
	end = t->head;
	spin_unlock(&t->lock);
	if (!sp_genl_has_trace_listeners()) {
		t->batch_next = end;
		return;
	}
	while (t->batch_next < end) {
		/* A message holds at least one sample (see sample_size). */
		skb = genlmsg_new(max_t(size_t, NLMSG_GOODSIZE, t->sample_size),
				  GFP_KERNEL);
		if (!skb)
			return;
		hdr = sp_genl_put(skb, 0, 0, 0, SPARKPERF_CMD_TRACE_SAMPLES);
		ret = hdr ? sp_trace_put_samples(skb, t, &t->batch_next, end) :
			    -EMSGSIZE;
		if (ret <= 0) {
			nlmsg_free(skb);
			return;
		}
		genlmsg_end(skb, hdr);
		sp_genl_send_trace(skb);
	}
}

/* The trace's CPU time: its thread's and its batches'. Under t->lock. */
static void sp_trace_cpu(struct sp_trace *t)
{
	t->cpu_ns = t->thread_cpu_ns + t->batch_cpu_ns;
}

/* A batch off the thread, its CPU time counted as the trace's. */
static void sp_trace_batch_work(struct work_struct *work)
{
	struct sp_trace *t = container_of(work, struct sp_trace, batch_work);
	u64 cpu0 = current->se.sum_exec_runtime;

	sp_trace_batch(t);
	spin_lock(&t->lock);
	t->batch_cpu_ns += current->se.sum_exec_runtime - cpu0;
	sp_trace_cpu(t);
	spin_unlock(&t->lock);
}

/*
 * Under t->lock, the stream's grid up to a read that starts at @ts: the
 * read serves the last grid point at or before @ts; the ones before that,
 * back to the deadline that was due, passed whole without a read: missed.
 * No read at all (@read false: the netdev is not present) misses the
 * last one too.
 */
static void sp_trace_grid(struct sp_stream *st, u64 ts, bool read)
{
	u64 period = (u64)st->period_us * NSEC_PER_USEC;
	u64 missed = 0, served;

	if (ts > st->next_ns)
		missed = div64_u64(ts - st->next_ns, period);
	served = st->next_ns + missed * period;
	st->missed += missed + !read;
	if (read)
		st->late_ns_max = max(st->late_ns_max, ts - served);
	st->next_ns = served + period;
}

/*
 * Under t->lock, the values in the slot at the head: completes the slot
 * and the stream's bookkeeping (sp_trace_grid()). A read that starts at
 * or after the trace's end is the stream's closing read, outside the
 * grid: grid points after the end do not exist, so it serves none and
 * misses none (the thread counts those left before the end).
 */
static void sp_trace_commit(struct sp_trace *t, struct sp_stream *st,
			    struct sp_slot *slot, u64 ts, u64 dur)
{
	slot->ts_ns = ts;
	slot->stream = st->index;
	slot->version = st->version;
	slot->read_ns = min_t(u64, dur, U32_MAX);
	slot->count = st->count;
	t->head++;
	t->last_ns = ts;
	t->thread_cpu_ns = current->se.sum_exec_runtime;
	sp_trace_cpu(t);
	st->samples++;
	st->read_ns_sum += dur;
	st->read_ns_max = max(st->read_ns_max, dur);
	if (ts >= t->end_ns)
		st->closed = true;
	else
		sp_trace_grid(st, ts, true);
}

/*
 * A netdev that is not present (detached: suspended, being removed or
 * reset) is not read, as the ethtool core does not read it; its grid
 * points pass missed until it is back.
 */
static void sp_trace_absent(struct sp_trace *t, struct sp_stream *st, u64 ts)
{
	spin_lock(&t->lock);
	if (ts < t->end_ns)
		sp_trace_grid(st, ts, false);
	spin_unlock(&t->lock);
}

static int sp_trace_sample_netdev(struct sp_trace *t, struct sp_stream *st)
{
	struct sp_slot *slot;
	u64 ts;

	spin_lock(&t->lock);
	if (!st->tg->dev) {
		spin_unlock(&t->lock);
		return -ENODEV;
	}
	ts = ktime_get_ns();
	if (!netif_device_present(st->tg->dev)) {
		if (ts < t->end_ns)
			sp_trace_grid(st, ts, false);
		spin_unlock(&t->lock);
		return 0;
	}
	slot = sp_trace_slot(t, t->head);
	sp_netdev_read(st->tg->dev, st, slot->values);
	sp_trace_commit(t, st, slot, ts, ktime_get_ns() - ts);
	spin_unlock(&t->lock);
	return 0;
}

static int sp_trace_sample_ethtool(struct sp_trace *t, struct sp_stream *st)
{
	struct sp_target *tg = st->tg;
	bool changed = false;
	u32 before = tg->eth_count;
	u64 ts, dur;
	int ret;

	rtnl_lock();
	if (!tg->dev) {
		rtnl_unlock();
		return -ENODEV;
	}
	ts = ktime_get_ns();
	ret = sp_ethtool_read(tg, &changed);
	dur = ktime_get_ns() - ts;
	rtnl_unlock();
	if (ret == -ENODEV) {
		sp_trace_absent(t, st, ts);
		return 0;
	}
	if (ret == -E2BIG) {
		sp_trace_fail(t, ret,
			      "the ethtool statistics of %s grew from %u to more than %u names, beyond the trace's buffers",
			      tg->name, before, tg->eth_cap);
		return ret;
	}
	if (ret) {
		sp_trace_fail(t, ret, "reading the ethtool statistics of %s failed: %d",
			      tg->name, ret);
		return ret;
	}

	/*
	 * A new table: select again (within the stream's slots, never
	 * failing) off the spinlock, under the table lock that the readers
	 * of the names take instead; only the swap is under both.
	 */
	if (changed) {
		mutex_lock(&t->table_lock);
		sp_stream_select_spare(st, t->globs);
	}
	spin_lock(&t->lock);
	if (changed) {
		sp_stream_swap(st);
		st->version++;
	}
	sp_ethtool_values(st, sp_trace_slot(t, t->head)->values);
	sp_trace_commit(t, st, sp_trace_slot(t, t->head), ts, dur);
	spin_unlock(&t->lock);
	if (changed) {
		mutex_unlock(&t->table_lock);
		sp_trace_notify_table(t, st);
	}
	return 0;
}

static int sp_trace_sample_rdma(struct sp_trace *t, struct sp_stream *st)
{
	struct sp_target *tg = st->tg;
	u64 ts, dur;
	int ret;

	mutex_lock(&t->rdma_lock);
	if (!tg->ibdev) {
		mutex_unlock(&t->rdma_lock);
		return -ENODEV;
	}
	ts = ktime_get_ns();
	ret = sp_rdma_read(tg);
	dur = ktime_get_ns() - ts;
	if (!ret) {
		spin_lock(&t->lock);
		sp_rdma_values(st, sp_trace_slot(t, t->head)->values);
		sp_trace_commit(t, st, sp_trace_slot(t, t->head), ts, dur);
		spin_unlock(&t->lock);
	}
	mutex_unlock(&t->rdma_lock);
	if (ret)
		sp_trace_fail(t, ret,
			      "reading the hardware counters of %s port %u failed: %d",
			      tg->name, tg->port, ret);
	return ret;
}

/*
 * -ENODEV: the device went away, which its notifier has recorded; other
 * errors are recorded here.
 */
static int sp_trace_sample(struct sp_trace *t, struct sp_stream *st)
{
	switch (st->source) {
	case SPARKPERF_SRC_NETDEV:
		return sp_trace_sample_netdev(t, st);
	case SPARKPERF_SRC_ETHTOOL:
		return sp_trace_sample_ethtool(t, st);
	default:
		return sp_trace_sample_rdma(t, st);
	}
}

void sp_trace_set_grid(struct sp_trace *t, u64 now)
{
	unsigned int i;

	spin_lock(&t->lock);
	t->start_ns = now;
	t->end_ns = t->duration_ms ?
		    now + (u64)t->duration_ms * NSEC_PER_MSEC : U64_MAX;
	for (i = 0; i < t->nstreams; i++)
		t->streams[i].next_ns = now;
	spin_unlock(&t->lock);
}

static bool sp_trace_stopping(struct sp_trace *t)
{
	return kthread_should_stop() || test_bit(SP_TRACE_STOP, &t->flags);
}

int sp_trace_thread(void *arg)
{
	u64 now, end, wake, next_batch, batch_ns;
	struct sp_trace *t = arg;
	bool stopped = false, closing;
	unsigned int i;
	ktime_t expires;
	int ret = 0;

	/*
	 * Above every normal task (at the lowest RT priority), so that
	 * deadlines hold while busy-polling engine threads or the software
	 * RDMA device keep the CPUs busy; the thread sleeps between reads,
	 * and RT throttling bounds it if reads outlast their periods.
	 */
	sched_set_fifo_low(current);
	/*
	 * Frozen for system suspend before the devices are: a driver's
	 * freeze may free what its statistics ops read (virtio_net's rings).
	 * The grid points slept through count as missed.
	 */
	set_freezable();
	INIT_WORK(&t->batch_work, sp_trace_batch_work);

	/* The grid, set before this thread was woken (sp_trace_set_grid()). */
	now = t->start_ns;
	end = t->end_ns;
	batch_ns = (u64)t->batch_ms * NSEC_PER_MSEC;
	next_batch = now + batch_ns;

	for (;;) {
		try_to_freeze();
		if (sp_trace_stopping(t)) {
			stopped = true;
			break;
		}
		now = ktime_get_ns();
		if (now >= end)
			break;
		wake = min(end, next_batch);
		for (i = 0; i < t->nstreams && !ret; i++) {
			struct sp_stream *st = &t->streams[i];

			if (st->next_ns <= now)
				ret = sp_trace_sample(t, st);
			wake = min(wake, st->next_ns);
		}
		if (ret)
			break;
		now = ktime_get_ns();
		if (now >= next_batch) {
			queue_work(system_unbound_wq, &t->batch_work);
			next_batch += batch_ns;
			if (next_batch <= now)
				next_batch = now + batch_ns;
			wake = min(wake, next_batch);
		}

		set_current_state(TASK_INTERRUPTIBLE);
		if (!sp_trace_stopping(t)) {
			expires = ns_to_ktime(wake);
			schedule_hrtimeout_range(&expires, 0, HRTIMER_MODE_ABS);
		}
		__set_current_state(TASK_RUNNING);
	}

	/*
	 * Stopped by TRACE_STOP or run to its end, neither failed nor being
	 * destroyed: one closing read of every stream (but those whose last
	 * read started past the end), so that deltas over the trace take in
	 * the traffic after its last grid point.
	 */
	closing = !ret && !kthread_should_stop() &&
		  (!stopped || test_bit(SP_TRACE_CLOSE, &t->flags));
	spin_lock(&t->lock);
	closing = closing && !t->error;
	if (stopped)
		t->end_ns = ktime_get_ns();
	spin_unlock(&t->lock);
	for (i = 0; closing && !ret && i < t->nstreams; i++)
		if (!t->streams[i].closed)
			ret = sp_trace_sample(t, &t->streams[i]);

	/* The last batch here, after any queued: batches go out in order. */
	cancel_work_sync(&t->batch_work);
	sp_trace_batch(t);

	spin_lock(&t->lock);
	/* Run to its end: the grid points left before it passed unread. */
	for (i = 0; !stopped && !t->error && i < t->nstreams; i++) {
		struct sp_stream *st = &t->streams[i];

		if (st->next_ns < end)
			st->missed += div64_u64(end - st->next_ns - 1,
						(u64)st->period_us *
						NSEC_PER_USEC) + 1;
	}
	if (t->error)
		t->state = SPARKPERF_TRACE_STATE_FAILED;
	else if (stopped)
		t->state = SPARKPERF_TRACE_STATE_STOPPED;
	else
		t->state = SPARKPERF_TRACE_STATE_DONE;
	t->thread_cpu_ns = current->se.sum_exec_runtime;
	sp_trace_cpu(t);
	spin_unlock(&t->lock);

	sp_trace_detach(t);
	sp_trace_notify_end(t);
	complete_all(&t->done);
	return 0;
}
