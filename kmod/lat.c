// SPDX-License-Identifier: GPL-2.0
/*
 * The latency engine. The client's kernel thread runs one message at a
 * time and timestamps each round trip with ktime_get_ns():
 *
 *   write  RDMA WRITE of SIZE bytes whose last byte is the iteration's tag
 *          (1..255, never 0); the server's thread polls the last byte of
 *          its buffer and writes back the same way; the client polls the
 *          last byte of its own buffer (perftest's scheme)
 *   send   SEND of SIZE bytes into a pre-posted receive; the server's
 *          thread echoes it; the round trip ends at the receive completion
 *   read   RDMA READ of SIZE bytes from the server's buffer; the round trip
 *          ends at its completion; the server's CPU takes no part
 *
 * Inside a round trip the thread spins with preemption off, so the clock
 * includes no context switch; the one exception, a round trip that has
 * lasted 10 ms while another task waits for the CPU, is counted
 * (SPARKPERF_A_LAT_RT_YIELDS): soft-RoCE on a single CPU needs it. Every
 * loop inside a round trip is bounded (SP_RTT_TIMEOUT_NS) and checks the
 * stop flags every SP_SPIN_CHECK spins. Between round trips the thread
 * records the sample, closes intervals and yields with cond_resched() once
 * a millisecond.
 */

#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <net/netlink.h>
#include <linux/sparkperf.h>

#include "hist.h"
#include "lat.h"
#include "rdma.h"

#define SP_RTT_TIMEOUT_NS (5ULL * NSEC_PER_SEC)
#define SP_IDLE_TIMEOUT_NS (10ULL * NSEC_PER_SEC)
#define SP_READY_TIMEOUT_MS 5000
#define SP_YIELD_NS NSEC_PER_MSEC
#define SP_RT_YIELD_NS (10 * NSEC_PER_MSEC)
#define SP_SPIN_CHECK 64
/* Samples per SPARKPERF_A_SAMPLES_DATA: the attribute stays below 64 KiB. */
#define SP_SAMPLES_PER_MSG 4000

static DEFINE_MUTEX(sp_cpu_lock);
static DEFINE_PER_CPU(unsigned int, sp_cpu_users);

int sp_lat_init(struct sp_lat *lat, const struct sp_lat_cfg *cfg, int node)
{
	u32 intervals = SPARKPERF_LAT_INTERVALS_MAX;

	memset(lat, 0, sizeof(*lat));
	lat->cfg = *cfg;
	spin_lock_init(&lat->lock);
	if (cfg->duration_ms)
		intervals = min_t(u32, intervals,
				  cfg->duration_ms / cfg->interval_ms + 1);
	lat->intervals_max = intervals;

	lat->hist = kvzalloc_node(sizeof(*lat->hist), GFP_KERNEL, node);
	lat->ihist = kvzalloc_node(sizeof(*lat->ihist), GFP_KERNEL, node);
	lat->intervals = kvcalloc(intervals, sizeof(*lat->intervals),
				  GFP_KERNEL);
	if (cfg->samples_max)
		lat->samples = kvmalloc_node(array_size(cfg->samples_max,
							sizeof(*lat->samples)),
					     GFP_KERNEL, node);
	if (!lat->hist || !lat->ihist || !lat->intervals ||
	    (cfg->samples_max && !lat->samples)) {
		sp_lat_destroy(lat);
		return -ENOMEM;
	}
	sp_hist_reset(lat->hist);
	sp_hist_reset(lat->ihist);
	return 0;
}

void sp_lat_destroy(struct sp_lat *lat)
{
	kvfree(lat->samples);
	kvfree(lat->intervals);
	kvfree(lat->ihist);
	kvfree(lat->hist);
	lat->samples = NULL;
	lat->intervals = NULL;
	lat->ihist = NULL;
	lat->hist = NULL;
}

/* The smallest step of ktime_get_ns() seen: resolution or read cost. */
static u32 sp_clock_res(void)
{
	u64 a, b, best = U64_MAX;
	int i;

	for (i = 0; i < 100; i++) {
		a = ktime_get_ns();
		do {
			b = ktime_get_ns();
		} while (b == a);
		best = min(best, b - a);
	}
	return min_t(u64, best, U32_MAX);
}

/*
 * Pending softirqs (the network stack, soft-RoCE's tasklets) run here: the
 * busy loop never sleeps inside a round trip, so ksoftirqd would not get
 * this CPU before the round trip ends. Right after a post this runs what a
 * software device deferred (rxe's requester); with hardware it finds
 * nothing to do.
 */
static void sp_softirqs(void)
{
	local_bh_disable();
	local_bh_enable();
}

static bool sp_should_stop(const struct sp_rconn *rc)
{
	return sp_rconn_stopping(rc) || kthread_should_stop();
}

/* One round trip, or a wait outside one (@in_trip false). */
struct sp_trip {
	u64 start;
	u64 end;
	u64 deadline;
	bool in_trip;		/* preemption is off */
	bool yielded;		/* the CPU went away inside the round trip */
	unsigned long switches;	/* context switches inside it */
};

static unsigned long sp_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * The periodic check of a spin: completions, softirqs, stop, timeout.
 * Inside a round trip the CPU is given away only once the trip has lasted
 * SP_RT_YIELD_NS and another task waits for it: a software RDMA device
 * (rxe) may need this very CPU (ksoftirqd, its workers) for the trip to
 * end at all. Outside one, whenever another task waits.
 */
static int sp_spin_check(struct sp_rconn *rc, struct sp_trip *t)
{
	u64 now;
	int ret;

	ret = sp_rconn_poll(rc);
	if (ret < 0)
		return ret;
	sp_softirqs();
	if (sp_should_stop(rc))
		return -EINTR;
	now = ktime_get_ns();
	if (now > t->deadline) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "no answer within %llu s", SP_RTT_TIMEOUT_NS /
			 NSEC_PER_SEC);
		return -ETIMEDOUT;
	}
	if (!need_resched())
		return 0;
	if (!t->in_trip) {
		cond_resched();
	} else if (now - t->start >= SP_RT_YIELD_NS) {
		unsigned long before = sp_switches();

		preempt_enable();
		cond_resched();
		preempt_disable();
		t->switches += sp_switches() - before;
		t->yielded = true;
	}
	return 0;
}

/* Room for one more send WR, before a round trip: reaps completions. */
static int sp_reserve(struct sp_rconn *rc)
{
	struct sp_trip t = { .deadline = 0 };
	int ret;

	while (rc->sq_posted >= SP_SQ_DEPTH - 1) {
		ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		if (!t.deadline)
			t.deadline = ktime_get_ns() + SP_RTT_TIMEOUT_NS;
		ret = sp_spin_check(rc, &t);
		if (ret)
			return ret;
	}
	return 0;
}

/* Polls the CQ until @what has completed @target times in all. */
static int sp_spin_cq(struct sp_rconn *rc, enum sp_wr what,
		      unsigned int target, struct sp_trip *t)
{
	unsigned int spins = 0;
	int ret;

	while (rc->done[what] < target) {
		ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
		if (ret || ++spins % SP_SPIN_CHECK)
			continue;
		ret = sp_spin_check(rc, t);
		if (ret)
			return ret;
	}
	return 0;
}

static void sp_trip_start(struct sp_trip *t)
{
	t->start = ktime_get_ns();
	t->deadline = t->start + SP_RTT_TIMEOUT_NS;
}

static int sp_rt_write(struct sp_rconn *rc, u8 tag, struct sp_trip *t)
{
	unsigned int spins = 0;
	int ret;

	WRITE_ONCE(*rc->sbuf.tail, tag);
	sp_trip_start(t);
	ret = sp_rconn_post(rc, SP_WR_WRITE, rc->sbuf.size);
	if (ret)
		return ret;
	sp_softirqs();
	while (READ_ONCE(*rc->rbuf.tail) != tag) {
		cpu_relax();
		if (++spins % SP_SPIN_CHECK)
			continue;
		ret = sp_spin_check(rc, t);
		if (ret)
			return ret;
	}
	t->end = ktime_get_ns();
	return 0;
}

/*
 * A round trip that ends in a completion: the receive of the echo of a
 * SEND, or the READ itself.
 */
static int sp_rt_cq(struct sp_rconn *rc, enum sp_wr post, u32 len,
		    enum sp_wr wait, struct sp_trip *t)
{
	unsigned int target = rc->done[wait] + 1;
	int ret;

	sp_trip_start(t);
	ret = sp_rconn_post(rc, post, len);
	sp_softirqs();
	if (!ret)
		ret = sp_spin_cq(rc, wait, target, t);
	if (ret)
		return ret;
	t->end = ktime_get_ns();
	return 0;
}

static int sp_round_trip(struct sp_rconn *rc, u8 tag, struct sp_trip *t)
{
	int ret;

	*t = (struct sp_trip) { .in_trip = true };
	preempt_disable();
	switch (rc->op) {
	case SPARKPERF_LAT_OP_WRITE:
		ret = sp_rt_write(rc, tag, t);
		break;
	case SPARKPERF_LAT_OP_SEND:
		ret = sp_rt_cq(rc, SP_WR_SEND, rc->sbuf.size, SP_WR_RECV, t);
		/* The echo of the next round trip needs a receive. */
		if (!ret)
			ret = sp_rconn_post_recv(rc, true);
		break;
	default:
		ret = sp_rt_cq(rc, SP_WR_READ, rc->rbuf.size, SP_WR_READ, t);
		break;
	}
	preempt_enable();
	return ret;
}

static void sp_interval_close(struct sp_lat *lat, u64 end_ns)
{
	struct sp_lat_interval iv = { .end_ns = end_ns };
	u32 slot;

	spin_lock(&lat->lock);
	iv.count = lat->ihist->count;
	if (iv.count) {
		iv.p50_ns = sp_hist_percentile(lat->ihist, 50, 100);
		iv.p99_ns = sp_hist_percentile(lat->ihist, 99, 100);
		iv.max_ns = lat->ihist->max;
	}
	slot = lat->intervals_done % lat->intervals_max;
	lat->intervals[slot] = iv;
	lat->intervals_done++;
	sp_hist_reset(lat->ihist);
	spin_unlock(&lat->lock);

	if (lat->interval_done)
		lat->interval_done(lat, &iv);
}

static void sp_record(struct sp_lat *lat, const struct sp_trip *t)
{
	u64 interval_ns = (u64)lat->cfg.interval_ms * NSEC_PER_MSEC;
	u64 rel = t->start - lat->t0, rtt = t->end - t->start;

	while (rel >= lat->iv_end) {
		sp_interval_close(lat, lat->iv_end);
		lat->iv_end += interval_ns;
	}

	spin_lock(&lat->lock);
	sp_hist_add(lat->hist, rtt);
	sp_hist_add(lat->ihist, rtt);
	if (lat->cfg.samples_max) {
		struct sp_lat_sample *s;

		s = &lat->samples[lat->count % lat->cfg.samples_max];
		s->start_ns = rel;
		s->rtt_ns = rtt;
	}
	lat->count++;
	lat->rt_yields += t->yielded;
	lat->elapsed_ns = t->end - lat->t0;
	spin_unlock(&lat->lock);
}

/*
 * The client's run on a connected, registered @rc: waits for the server's
 * "ready", runs the warm-up, then the measured iterations or duration.
 * 0 when done, -EINTR when stopped, else an error with rc->msg.
 */
int sp_lat_client(struct sp_lat *lat, struct sp_rconn *rc)
{
	const struct sp_lat_cfg *cfg = &lat->cfg;
	u64 duration_ns = (u64)cfg->duration_ms * NSEC_PER_MSEC;
	unsigned long switches, inside = 0;
	u64 i, last_yield, measured = 0;
	struct sp_trip t;
	int ret;

	ret = sp_rconn_wait(rc, SP_WR_RECV_READY, 1, SP_READY_TIMEOUT_MS);
	if (ret)
		return ret;

	spin_lock(&lat->lock);
	lat->clock_res_ns = sp_clock_res();
	spin_unlock(&lat->lock);

	/* Context switches between round trips: all, less those inside. */
	switches = sp_switches();
	last_yield = ktime_get_ns();
	for (i = 0;; i++) {
		bool warm = i < cfg->warmup;

		if (sp_should_stop(rc)) {
			ret = -EINTR;
			break;
		}
		if (!warm &&
		    ((cfg->iters && measured >= cfg->iters) ||
		     (duration_ns && measured &&
		      ktime_get_ns() - lat->t0 >= duration_ns)))
			break;

		ret = sp_reserve(rc);
		if (!ret) {
			ret = sp_round_trip(rc, i % 255 + 1, &t);
			inside += t.switches;
		}
		if (ret)
			break;

		if (warm) {
			spin_lock(&lat->lock);
			lat->warmup_done = i + 1;
			spin_unlock(&lat->lock);
		} else {
			if (!measured) {
				lat->t0 = t.start;
				lat->iv_end = (u64)cfg->interval_ms *
					      NSEC_PER_MSEC;
			}
			sp_record(lat, &t);
			measured++;
		}

		ret = sp_rconn_poll(rc);
		if (ret < 0)
			break;
		ret = 0;
		if (t.end - last_yield >= SP_YIELD_NS) {
			cond_resched();
			last_yield = ktime_get_ns();
			spin_lock(&lat->lock);
			lat->yields = sp_switches() - switches - inside;
			spin_unlock(&lat->lock);
		}
	}

	spin_lock(&lat->lock);
	lat->yields = sp_switches() - switches - inside;
	spin_unlock(&lat->lock);
	if (lat->ihist->count)
		sp_interval_close(lat, lat->elapsed_ns);
	return ret;
}

/* The echo's periodic check: stop, idle timeout, and a yield a ms. */
static int sp_echo_check(struct sp_rconn *rc, u64 idle_since, u64 *last_yield)
{
	u64 now;
	int ret;

	ret = sp_rconn_poll(rc);
	if (ret < 0)
		return ret;
	sp_softirqs();
	if (sp_should_stop(rc))
		return -EINTR;
	now = ktime_get_ns();
	if (now - idle_since > SP_IDLE_TIMEOUT_NS) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "no message from the client for %llu s",
			 SP_IDLE_TIMEOUT_NS / NSEC_PER_SEC);
		return -ETIMEDOUT;
	}
	if (now - *last_yield >= SP_YIELD_NS) {
		cond_resched();
		*last_yield = ktime_get_ns();
	}
	return 0;
}

static int sp_echo_write(struct sp_rconn *rc)
{
	u64 since, last_yield = ktime_get_ns();
	unsigned int spins;
	u8 tag = 0;
	int ret;

	for (;;) {
		tag = tag % 255 + 1;
		since = ktime_get_ns();
		spins = 0;
		while (READ_ONCE(*rc->rbuf.tail) != tag) {
			cpu_relax();
			if (++spins % SP_SPIN_CHECK)
				continue;
			ret = sp_echo_check(rc, since, &last_yield);
			if (ret)
				return ret;
		}
		ret = sp_reserve(rc);
		if (ret)
			return ret;
		WRITE_ONCE(*rc->sbuf.tail, tag);
		ret = sp_rconn_post(rc, SP_WR_WRITE, rc->sbuf.size);
		if (ret)
			return ret;
		sp_softirqs();
	}
}

static int sp_echo_send(struct sp_rconn *rc)
{
	u64 since, last_yield = ktime_get_ns();
	unsigned int spins, target;
	int ret;

	for (;;) {
		target = rc->done[SP_WR_RECV] + 1;
		since = ktime_get_ns();
		spins = 0;
		while (rc->done[SP_WR_RECV] < target) {
			ret = sp_rconn_poll(rc);
			if (ret < 0)
				return ret;
			if (ret || ++spins % SP_SPIN_CHECK)
				continue;
			ret = sp_echo_check(rc, since, &last_yield);
			if (ret)
				return ret;
		}
		ret = sp_rconn_post_recv(rc, true);
		if (!ret)
			ret = sp_reserve(rc);
		if (!ret)
			ret = sp_rconn_post(rc, SP_WR_SEND, rc->sbuf.size);
		if (ret)
			return ret;
		sp_softirqs();
	}
}

/*
 * The server's side of a write or send test, in the connection's thread,
 * until stopped (-EINTR), the peer leaves, or an error (with rc->msg).
 */
int sp_lat_server(struct sp_rconn *rc)
{
	switch (rc->op) {
	case SPARKPERF_LAT_OP_WRITE:
		return sp_echo_write(rc);
	case SPARKPERF_LAT_OP_SEND:
		return sp_echo_send(rc);
	default:
		return 0;
	}
}

#define SP_U64_SIZE nla_total_size_64bit(sizeof(u64))
#define SP_INTERVAL_SIZE (nla_total_size(0) + 5 * SP_U64_SIZE)

size_t sp_lat_msg_size(const struct sp_lat *lat, bool intervals)
{
	size_t size = 16 * SP_U64_SIZE + nla_total_size(sizeof(u32));

	if (intervals)
		size += nla_total_size(0) +
			lat->intervals_max * SP_INTERVAL_SIZE;
	return size;
}

int sp_lat_fill_interval(struct sk_buff *skb, int type,
			 const struct sp_lat_interval *iv)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_END_NS, iv->end_ns,
			      SPARKPERF_A_INTERVAL_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_COUNT, iv->count,
			      SPARKPERF_A_INTERVAL_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_P50_NS, iv->p50_ns,
			      SPARKPERF_A_INTERVAL_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_P99_NS, iv->p99_ns,
			      SPARKPERF_A_INTERVAL_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_MAX_NS, iv->max_ns,
			      SPARKPERF_A_INTERVAL_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int sp_put_u64(struct sk_buff *skb, int type, u64 value)
{
	return nla_put_u64_64bit(skb, type, value, SPARKPERF_A_LAT_PAD);
}

static int sp_fill_percentiles(struct sk_buff *skb, const struct sp_hist *h)
{
	static const struct {
		int type;
		u64 num, den;
	} pct[] = {
		{ SPARKPERF_A_LAT_P50_NS, 50, 100 },
		{ SPARKPERF_A_LAT_P90_NS, 90, 100 },
		{ SPARKPERF_A_LAT_P99_NS, 99, 100 },
		{ SPARKPERF_A_LAT_P999_NS, 999, 1000 },
		{ SPARKPERF_A_LAT_P9999_NS, 9999, 10000 },
		{ SPARKPERF_A_LAT_P99999_NS, 99999, 100000 },
	};
	unsigned int i;

	if (sp_put_u64(skb, SPARKPERF_A_LAT_MIN_NS, h->min) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_MAX_NS, h->max))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(pct); i++)
		if (sp_put_u64(skb, pct[i].type,
			       sp_hist_percentile(h, pct[i].num, pct[i].den)))
			return -EMSGSIZE;
	return 0;
}

static int sp_fill_intervals(struct sk_buff *skb, const struct sp_lat *lat)
{
	u64 kept = min_t(u64, lat->intervals_done, lat->intervals_max);
	u64 i = lat->intervals_done - kept;
	struct nlattr *nest;

	nest = nla_nest_start(skb, SPARKPERF_A_LAT_INTERVALS);
	if (!nest)
		return -EMSGSIZE;
	for (; i < lat->intervals_done; i++)
		if (sp_lat_fill_interval(skb, SPARKPERF_A_LAT_INTERVALS_ENTRY,
					 &lat->intervals[i %
							 lat->intervals_max]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The results of the run so far; with @intervals the series as well. */
int sp_lat_fill(struct sk_buff *skb, struct sp_lat *lat, bool intervals)
{
	const struct sp_hist *h = lat->hist;
	int ret = -EMSGSIZE;

	spin_lock(&lat->lock);
	if (sp_put_u64(skb, SPARKPERF_A_LAT_WARMUP_DONE, lat->warmup_done) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_COUNT, lat->count) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_ELAPSED_NS, lat->elapsed_ns) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_YIELDS, lat->yields) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_RT_YIELDS, lat->rt_yields) ||
	    (lat->clock_res_ns &&
	     nla_put_u32(skb, SPARKPERF_A_LAT_CLOCK_RES_NS,
			 lat->clock_res_ns)) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_SUM_NS, h->sum) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_SUMSQ_HI, (u64)(h->sumsq >> 64)) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_SUMSQ_LO, (u64)h->sumsq))
		goto out;
	if (h->count && sp_fill_percentiles(skb, h))
		goto out;
	if (intervals && sp_fill_intervals(skb, lat))
		goto out;
	ret = 0;
out:
	spin_unlock(&lat->lock);
	return ret;
}

int sp_lat_fill_progress(struct sk_buff *skb, struct sp_lat *lat)
{
	int ret = 0;

	spin_lock(&lat->lock);
	if (sp_put_u64(skb, SPARKPERF_A_LAT_COUNT, lat->count) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_WARMUP_DONE, lat->warmup_done))
		ret = -EMSGSIZE;
	spin_unlock(&lat->lock);
	return ret;
}

/*
 * The kept samples from measured iteration *@next to @end, as many as fit, as
 * SPARKPERF_A_SAMPLES_FIRST and _DATA: how many were put (*@next moves on),
 * 0 when none remain, -EMSGSIZE when not even one fits. Samples
 * overwritten since the last call are skipped.
 */
int sp_lat_fill_samples(struct sk_buff *skb, struct sp_lat *lat, u64 *next,
			u64 end)
{
	u32 max = lat->cfg.samples_max;
	struct nlattr *data;
	u64 first, n, i;
	int room, ret;
	u8 *out;

	spin_lock(&lat->lock);
	first = lat->count - min_t(u64, lat->count, max);
	if (*next < first)
		*next = first;
	end = min(end, lat->count);
	ret = 0;
	if (*next >= end)
		goto out;

	ret = -EMSGSIZE;
	room = skb_tailroom(skb) - SP_U64_SIZE - nla_total_size(0) - 64;
	if (room < (int)sizeof(struct sp_lat_sample))
		goto out;
	n = min_t(u64, end - *next, SP_SAMPLES_PER_MSG);
	n = min_t(u64, n, room / sizeof(struct sp_lat_sample));
	if (sp_put_u64(skb, SPARKPERF_A_SAMPLES_FIRST, *next))
		goto out;
	data = nla_reserve(skb, SPARKPERF_A_SAMPLES_DATA,
			   n * sizeof(struct sp_lat_sample));
	if (!data)
		goto out;
	out = nla_data(data);
	for (i = 0; i < n; i++) {
		memcpy(out, &lat->samples[(*next + i) % max],
		       sizeof(struct sp_lat_sample));
		out += sizeof(struct sp_lat_sample);
	}
	*next += n;
	ret = n;
out:
	spin_unlock(&lat->lock);
	return ret;
}

/*
 * A CPU for a busy-polling thread: @cpu if given (>= 0), else the online
 * CPU of @node (any node if none) running the fewest of our threads, the
 * highest-numbered among equals (CPU 0 does the housekeeping).
 */
int sp_lat_cpu_get(int cpu, int node)
{
	const struct cpumask *mask = cpu_online_mask;
	int c;

	mutex_lock(&sp_cpu_lock);
	if (cpu < 0) {
		if (node != NUMA_NO_NODE &&
		    cpumask_intersects(cpumask_of_node(node), cpu_online_mask))
			mask = cpumask_of_node(node);
		for_each_cpu_and(c, mask, cpu_online_mask)
			if (cpu < 0 || per_cpu(sp_cpu_users, c) <=
				       per_cpu(sp_cpu_users, cpu))
				cpu = c;
	}
	if (cpu >= 0)
		per_cpu(sp_cpu_users, cpu)++;
	mutex_unlock(&sp_cpu_lock);
	return cpu;
}

void sp_lat_cpu_put(int cpu)
{
	if (cpu < 0)
		return;
	mutex_lock(&sp_cpu_lock);
	per_cpu(sp_cpu_users, cpu)--;
	mutex_unlock(&sp_cpu_lock);
}
