// SPDX-License-Identifier: GPL-2.0
/*
 * The latency engine. The client's kernel thread runs one message at a
 * time and timestamps each round trip with ktime_get_ns():
 *
 *   write  RDMA WRITE with immediate of SIZE bytes into the server's
 *          buffer; the server's thread answers the same way on the receive
 *          completion, and the round trip ends at the client's. With
 *          completion LAST_BYTE, plain RDMA WRITEs whose last byte is the
 *          iteration's tag (1..255, never 0), which each side polls in its
 *          receive buffer (perftest's scheme: wrong where the NIC's data
 *          writes land out of order, as mlx5's relaxed ordering allows)
 *   send   SEND of SIZE bytes into a pre-posted receive; the server's
 *          thread echoes it; the round trip ends at the receive completion
 *   read   RDMA READ of SIZE bytes from the server's buffer; the round trip
 *          ends at its completion; the server's CPU takes no part
 *
 * The thread spins on a CPU of its own. Every SP_SPIN_PERIOD_NS of spinning
 * (sp_spin_due()) it runs pending softirqs, checks the stop flags and the
 * timeout, and offers that CPU to another task runnable on it
 * (sp_cpu_share()), inside a round trip too: soft-RoCE's workers need it to
 * end the trip at all, and
 * on PREEMPT_RT everything we call may sleep, so no spin is made with
 * preemption off. A round trip during which the thread lost its CPU is
 * counted (SPARKPERF_A_LAT_RT_YIELDS); on a CPU kept free for it (a NIC
 * that needs none) there are none. Every loop inside a round trip is
 * bounded (sp_rtt_timeout_ns(rc)) and checks the stop flags. Between round
 * trips the thread records the sample and closes intervals.
 *
 * The interval series and the choice of CPUs for polling threads serve the
 * bandwidth engine (bw.c) too.
 */

#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <net/genetlink.h>
#include <linux/sparkperf.h>

#include "device.h"
#include "hist.h"
#include "lat.h"
#include "rdma.h"
#include "session.h"

/* A round trip's bound: the connection's answer timeout (rdma.c). */
static u64 sp_rtt_timeout_ns(const struct sp_rconn *rc)
{
	return (u64)rc->answer_ms * NSEC_PER_MSEC;
}

/*
 * The period of a spin's checks, timed with the CPU's cycle counter
 * (get_cycles(): the TSC on x86, the arch timer on arm64), which costs a
 * spin a few ns where ktime_get_ns() costs tens. A count of spins meant a
 * check every ~100 ns on Grace, whose cpu_relax() is nearly free, and a
 * check in every round trip; a 10 us period leaves most 2 us trips alone.
 */
#define SP_SPIN_PERIOD_NS (10 * NSEC_PER_USEC)
/*
 * A round trip or an idle echo older than this polls the CQ at its checks:
 * a failed work request (the peer's QP gone to error) tells only there, so
 * the spin does not wait for the timeout; a live one is never polled for.
 */
#define SP_STALL_NS NSEC_PER_MSEC
/* Samples per SPARKPERF_A_SAMPLES_DATA: the attribute stays below 64 KiB. */
#define SP_SAMPLES_PER_MSG 4000

static u64 sp_spin_step __ro_after_init;	/* sp_spin_clock() per period */
static bool sp_spin_cycles __ro_after_init;	/* its unit: cycles, else ns */

static u64 sp_spin_clock(void)
{
	return sp_spin_cycles ? get_cycles() : ktime_get_ns();
}

void __init sp_lat_spin_init(void)
{
	u64 c0, c1, t0, t1;

	c0 = get_cycles();
	t0 = ktime_get_ns();
	do {
		cpu_relax();
		t1 = ktime_get_ns();
	} while (t1 - t0 < 100 * NSEC_PER_USEC);
	c1 = get_cycles();
	/* An architecture without a cycle counter returns 0: time in ns. */
	sp_spin_cycles = c1 > c0;
	sp_spin_step = sp_spin_cycles ?
		       div64_u64((c1 - c0) * SP_SPIN_PERIOD_NS, t1 - t0) :
		       SP_SPIN_PERIOD_NS;
	sp_spin_step = max_t(u64, sp_spin_step, 1);
}

/* A spin starts: *@next is when its first check is due. */
static void sp_spin_start(u64 *next)
{
	*next = sp_spin_clock() + sp_spin_step;
}

/* Whether a spin's check is due; if so, *@next is the one after. */
static bool sp_spin_due(u64 *next)
{
	u64 now = sp_spin_clock();

	if (now < *next)
		return false;
	*next = now + sp_spin_step;
	return true;
}

static DEFINE_MUTEX(sp_cpu_lock);
static DEFINE_PER_CPU(unsigned int, sp_cpu_users);

/* Room for the last intervals of a run of @duration_ms (0: unbounded). */
int sp_series_init(struct sp_series *se, u32 duration_ms, u32 interval_ms,
		   bool bytes)
{
	se->max = SPARKPERF_LAT_INTERVALS_MAX;
	if (duration_ms)
		se->max = min_t(u32, se->max, duration_ms / interval_ms + 1);
	se->done = 0;
	se->bytes = bytes;
	se->iv = kvcalloc(se->max, sizeof(*se->iv), GFP_KERNEL);
	return se->iv ? 0 : -ENOMEM;
}

void sp_series_free(struct sp_series *se)
{
	kvfree(se->iv);
	se->iv = NULL;
}

void sp_series_add(struct sp_series *se, const struct sp_interval *iv)
{
	se->iv[se->done % se->max] = *iv;
	se->done++;
}

static void sp_lat_interval_done(struct sp_lat *lat,
				 const struct sp_interval *iv)
{
	sp_session_progress(container_of(lat, struct sp_session, lat), iv);
}

/* LAT_RUN: the configuration, and the checks the policy cannot make. */
static int sp_lat_parse(struct sp_session *s, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct sp_lat_cfg *cfg = &s->lat.cfg;
	struct nlattr *attr;

	if (attrs[SPARKPERF_A_LAT_ITERS] && attrs[SPARKPERF_A_LAT_DURATION_MS]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    attrs[SPARKPERF_A_LAT_DURATION_MS],
				    "iterations and duration exclude each other");
		return -EINVAL;
	}
	*cfg = (struct sp_lat_cfg) {
		.op = SPARKPERF_LAT_OP_WRITE,
		.size = 2,
		.iters = 1000,
		.warmup = 100,
		.samples_max = SPARKPERF_LAT_SAMPLES_DEFAULT,
		.interval_ms = 1000,
		.cpu = -1,
	};
	if (attrs[SPARKPERF_A_LAT_OP])
		cfg->op = nla_get_u8(attrs[SPARKPERF_A_LAT_OP]);
	if (attrs[SPARKPERF_A_LAT_SIZE])
		cfg->size = nla_get_u32(attrs[SPARKPERF_A_LAT_SIZE]);
	if (attrs[SPARKPERF_A_LAT_ITERS])
		cfg->iters = nla_get_u64(attrs[SPARKPERF_A_LAT_ITERS]);
	if (attrs[SPARKPERF_A_LAT_DURATION_MS]) {
		cfg->duration_ms = nla_get_u32(attrs[SPARKPERF_A_LAT_DURATION_MS]);
		cfg->iters = 0;
	}
	if (attrs[SPARKPERF_A_LAT_WARMUP])
		cfg->warmup = nla_get_u32(attrs[SPARKPERF_A_LAT_WARMUP]);
	if (attrs[SPARKPERF_A_LAT_SAMPLES_MAX])
		cfg->samples_max = nla_get_u32(attrs[SPARKPERF_A_LAT_SAMPLES_MAX]);
	if (attrs[SPARKPERF_A_LAT_INTERVAL_MS])
		cfg->interval_ms = nla_get_u32(attrs[SPARKPERF_A_LAT_INTERVAL_MS]);

	cfg->completion = cfg->op == SPARKPERF_LAT_OP_READ ?
			  SPARKPERF_LAT_COMPLETION_READ :
			  SPARKPERF_LAT_COMPLETION_RECV;
	attr = attrs[SPARKPERF_A_LAT_COMPLETION];
	if (attr) {
		u8 completion = nla_get_u8(attr);

		if (completion != cfg->completion &&
		    !(cfg->op == SPARKPERF_LAT_OP_WRITE &&
		      completion == SPARKPERF_LAT_COMPLETION_LAST_BYTE)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "write ends on a receive or the last byte, send on a receive, read on the read");
			return -EINVAL;
		}
		cfg->completion = completion;
	}

	attr = attrs[SPARKPERF_A_LAT_CPU];
	if (attr) {
		u32 cpu = nla_get_u32(attr);

		if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "no online CPU with this number");
			return -EINVAL;
		}
		cfg->cpu = cpu;
		s->node = cpu_to_node(cpu);
	}
	s->nlinks = 1;
	s->size = cfg->size;
	return 0;
}

/* The session's memory, once its links have their buffers. */
static int sp_lat_init(struct sp_session *s)
{
	struct sp_lat *lat = &s->lat;
	int node = s->node;

	spin_lock_init(&lat->lock);
	mutex_init(&lat->series_lock);
	lat->cpu = -1;
	lat->interval_done = sp_lat_interval_done;
	s->links[0].rc.kind = SP_WIRE_LAT;
	s->links[0].rc.op = lat->cfg.op;
	if (lat->cfg.completion == SPARKPERF_LAT_COMPLETION_LAST_BYTE)
		s->links[0].rc.wflags = SP_WIRE_F_LAST_BYTE;

	lat->hist = kvzalloc_node(sizeof(*lat->hist), GFP_KERNEL, node);
	lat->ihist = kvzalloc_node(sizeof(*lat->ihist), GFP_KERNEL, node);
	if (lat->cfg.samples_max)
		lat->samples = kvmalloc_node(array_size(lat->cfg.samples_max,
							sizeof(*lat->samples)),
					     GFP_KERNEL, node);
	if (!lat->hist || !lat->ihist ||
	    (lat->cfg.samples_max && !lat->samples) ||
	    sp_series_init(&lat->series, lat->cfg.duration_ms,
			   lat->cfg.interval_ms, false))
		return -ENOMEM;
	sp_hist_reset(lat->hist);
	sp_hist_reset(lat->ihist);
	return 0;
}

static void sp_lat_release(struct sp_session *s)
{
	struct sp_lat *lat = &s->lat;

	kvfree(lat->samples);
	sp_series_free(&lat->series);
	kvfree(lat->ihist);
	kvfree(lat->hist);
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

static bool sp_should_stop(const struct sp_rconn *rc)
{
	return sp_rconn_stopping(rc) || kthread_should_stop();
}

/* One round trip, or a wait outside one. */
struct sp_trip {
	u64 start;
	u64 end;
	u64 deadline;
	unsigned long switches;	/* context switches inside it */
};

static unsigned long sp_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * The periodic check of a spin: softirqs, stop, timeout, and completions
 * only in a stalled round trip.
 */
static int sp_spin_check(struct sp_rconn *rc, struct sp_trip *t)
{
	unsigned long before;
	u64 now;
	int ret;

	sp_softirqs();
	if (sp_should_stop(rc))
		return -EINTR;
	now = ktime_get_ns();
	if (t->start && now - t->start > SP_STALL_NS) {
		ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
	}
	if (now > t->deadline) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "no answer within %u ms", rc->answer_ms);
		return -ETIMEDOUT;
	}
	before = sp_switches();
	sp_cpu_share();
	t->switches += sp_switches() - before;
	return 0;
}

/*
 * A post with softirqs off, run on the way out: a tasklet it schedules
 * (soft-RoCE on 6.1) runs here and now, and ksoftirqd, which a softirq
 * raised in process context would wake, stays asleep, so sp_cpu_share()
 * does not hand it the CPU for nothing.
 */
static int sp_post(struct sp_rconn *rc, enum sp_wr what, u32 len)
{
	int ret;

	local_bh_disable();
	ret = sp_rconn_post(rc, what, len);
	local_bh_enable();
	return ret;
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
			t.deadline = ktime_get_ns() + sp_rtt_timeout_ns(rc);
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
	u64 next;
	int ret;

	sp_spin_start(&next);
	while (rc->done[what] < target) {
		ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
		if (ret || !sp_spin_due(&next))
			continue;
		ret = sp_spin_check(rc, t);
		if (ret)
			return ret;
	}
	return 0;
}

static void sp_trip_start(const struct sp_rconn *rc, struct sp_trip *t)
{
	t->start = ktime_get_ns();
	t->deadline = t->start + sp_rtt_timeout_ns(rc);
}

static int sp_rt_write(struct sp_rconn *rc, u8 tag, struct sp_trip *t)
{
	u64 next;
	int ret;

	WRITE_ONCE(*rc->sbuf.tail, tag);
	sp_trip_start(rc, t);
	ret = sp_post(rc, SP_WR_WRITE, rc->lo.size);
	if (ret)
		return ret;
	sp_spin_start(&next);
	while (READ_ONCE(*rc->rbuf.tail) != tag) {
		cpu_relax();
		if (!sp_spin_due(&next))
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

	sp_trip_start(rc, t);
	ret = sp_post(rc, post, len);
	if (!ret)
		ret = sp_spin_cq(rc, wait, target, t);
	if (ret)
		return ret;
	t->end = ktime_get_ns();
	return 0;
}

/* A round trip whose echo takes one of our receives: @post, SEND or WRITE_IMM. */
static int sp_rt_echo(struct sp_rconn *rc, enum sp_wr post, struct sp_trip *t)
{
	int ret = sp_rt_cq(rc, post, rc->lo.size, SP_WR_RECV, t);

	/* The echo of the next round trip needs a receive. */
	return ret ?: sp_rconn_post_recv(rc, true, 1);
}

static int sp_round_trip(struct sp_rconn *rc, u8 tag, struct sp_trip *t)
{
	int ret;

	*t = (struct sp_trip) { };
	switch (rc->op) {
	case SPARKPERF_LAT_OP_WRITE:
		if (rc->wflags & SP_WIRE_F_LAST_BYTE)
			ret = sp_rt_write(rc, tag, t);
		else
			ret = sp_rt_echo(rc, SP_WR_WRITE_IMM, t);
		break;
	case SPARKPERF_LAT_OP_SEND:
		ret = sp_rt_echo(rc, SP_WR_SEND, t);
		break;
	default:
		ret = sp_rt_cq(rc, SP_WR_READ, rc->lo.size, SP_WR_READ, t);
		break;
	}
	return ret;
}

/*
 * The interval's histogram is the run's own, so its percentiles are
 * computed unlocked; the series is shared with readers under series_lock,
 * which the loop takes here only, between round trips.
 */
static void sp_interval_close(struct sp_lat *lat, u64 end_ns)
{
	struct sp_interval iv = { .end_ns = end_ns };

	iv.count = lat->ihist->count;
	if (iv.count) {
		iv.p50_ns = sp_hist_percentile(lat->ihist, 50, 100);
		iv.p99_ns = sp_hist_percentile(lat->ihist, 99, 100);
		iv.max_ns = lat->ihist->max;
	}
	sp_hist_reset(lat->ihist);
	mutex_lock(&lat->series_lock);
	sp_series_add(&lat->series, &iv);
	mutex_unlock(&lat->series_lock);

	if (lat->interval_done)
		lat->interval_done(lat, &iv);
}

/* A measured round trip, and the context switches between trips so far. */
static void sp_record(struct sp_lat *lat, const struct sp_trip *t,
		      unsigned long yields)
{
	u64 interval_ns = (u64)lat->cfg.interval_ms * NSEC_PER_MSEC;
	u64 rel = t->start - lat->t0, rtt = t->end - t->start;

	while (rel >= lat->iv_end) {
		sp_interval_close(lat, lat->iv_end);
		lat->iv_end += interval_ns;
	}

	sp_hist_add(lat->ihist, rtt);
	spin_lock(&lat->lock);
	sp_hist_add(lat->hist, rtt);
	if (lat->cfg.samples_max) {
		struct sp_lat_sample *s;

		s = &lat->samples[lat->count % lat->cfg.samples_max];
		s->start_ns = rel;
		s->rtt_ns = rtt;
	}
	lat->count++;
	lat->rt_yields += !!t->switches;
	lat->yields = yields;
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
	u64 i, measured = 0;
	struct sp_trip t;
	u32 res;
	int ret;

	ret = sp_rconn_wait(rc, SP_WR_RECV_READY, 1, rc->answer_ms);
	if (ret)
		return ret;

	/* Measured spinning: outside the lock, which LAT_GET takes. */
	res = sp_clock_res();
	spin_lock(&lat->lock);
	lat->clock_res_ns = res;
	spin_unlock(&lat->lock);

	/* Context switches between round trips: all, less those inside. */
	switches = sp_switches();
	for (i = 0;; i++) {
		bool warm = i < cfg->warmup;

		if (sp_should_stop(rc)) {
			ret = -EINTR;
			break;
		}
		/*
		 * A duration run ends on the first round trip that ends past
		 * it, so the measured window (elapsed_ns) covers the whole
		 * duration asked for, never a little less.
		 */
		if (!warm &&
		    ((cfg->iters && measured >= cfg->iters) ||
		     (duration_ns && measured &&
		      lat->elapsed_ns >= duration_ns)))
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
			lat->yields = sp_switches() - switches - inside;
			spin_unlock(&lat->lock);
		} else {
			if (!measured) {
				lat->t0 = t.start;
				lat->iv_end = (u64)cfg->interval_ms *
					      NSEC_PER_MSEC;
			}
			sp_record(lat, &t, sp_switches() - switches - inside);
			measured++;
		}

		ret = sp_rconn_poll(rc);
		if (ret < 0)
			break;
		ret = 0;
		sp_cpu_share();
	}

	spin_lock(&lat->lock);
	lat->yields = sp_switches() - switches - inside;
	spin_unlock(&lat->lock);
	if (lat->ihist->count)
		sp_interval_close(lat, lat->elapsed_ns);
	return ret;
}

/*
 * The session's run on its connected link: pins the thread to a CPU of the
 * device's node, registers, runs the client.
 */
static int sp_lat_run(struct sp_session *s)
{
	struct sp_rconn *rc = &s->links[0].rc;
	struct sp_lat *lat = &s->lat;
	int cpu, ret;

	cpu = sp_lat_cpu_get(lat->cfg.cpu, sp_device_numa_node(rc->ibdev));
	if (cpu < 0) {
		sp_session_fail(s, -ENODEV, "no online CPU");
		return -ENODEV;
	}
	ret = set_cpus_allowed_ptr(current, cpumask_of(cpu));
	if (ret) {
		sp_session_fail(s, ret, "cannot run on CPU %d: %d", cpu, ret);
		goto out;
	}
	spin_lock(&lat->lock);
	lat->cpu = cpu;
	spin_unlock(&lat->lock);

	ret = sp_rconn_register(rc);
	if (!ret)
		ret = sp_lat_client(lat, rc);
	if (ret && ret != -EINTR)
		sp_session_fail(s, ret, "%s", rc->msg);
out:
	sp_lat_cpu_put(cpu);
	return ret;
}

/*
 * The echo's periodic check: stop, idle timeout, the CPU shared, and
 * completions only once it has waited a while.
 */
static int sp_echo_check(struct sp_rconn *rc, u64 idle_since)
{
	u64 now;
	int ret;

	sp_softirqs();
	if (sp_should_stop(rc))
		return -EINTR;
	now = ktime_get_ns();
	if (now - idle_since > SP_STALL_NS) {
		ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
	}
	/* twice a round trip's bound: the client's trip may take all of it */
	if (now - idle_since > 2 * sp_rtt_timeout_ns(rc)) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "no message from the client for %u ms",
			 2 * rc->answer_ms);
		return -ETIMEDOUT;
	}
	sp_cpu_share();
	return 0;
}

static int sp_echo_write(struct sp_rconn *rc)
{
	u64 since, next;
	u8 tag = 0;
	int ret;

	for (;;) {
		tag = tag % 255 + 1;
		since = ktime_get_ns();
		sp_spin_start(&next);
		while (READ_ONCE(*rc->rbuf.tail) != tag) {
			cpu_relax();
			if (!sp_spin_due(&next))
				continue;
			ret = sp_echo_check(rc, since);
			if (ret)
				return ret;
		}
		ret = sp_reserve(rc);
		if (ret)
			return ret;
		WRITE_ONCE(*rc->sbuf.tail, tag);
		ret = sp_post(rc, SP_WR_WRITE, rc->lo.size);
		/*
		 * Its completion reaped now, while the answer is on its way,
		 * so that sp_reserve() never polls with a message waiting.
		 */
		if (!ret)
			ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
	}
}

/* Answers each receive with @reply: SEND, or RDMA WRITE with immediate. */
static int sp_echo_recv(struct sp_rconn *rc, enum sp_wr reply)
{
	unsigned int target;
	u64 since, next;
	int ret;

	for (;;) {
		target = rc->done[SP_WR_RECV] + 1;
		since = ktime_get_ns();
		sp_spin_start(&next);
		while (rc->done[SP_WR_RECV] < target) {
			ret = sp_rconn_poll(rc);
			if (ret < 0)
				return ret;
			if (ret || !sp_spin_due(&next))
				continue;
			ret = sp_echo_check(rc, since);
			if (ret)
				return ret;
		}
		ret = sp_rconn_post_recv(rc, true, 1);
		if (!ret)
			ret = sp_reserve(rc);
		if (!ret)
			ret = sp_post(rc, reply, rc->lo.size);
		if (ret)
			return ret;
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
		if (rc->wflags & SP_WIRE_F_LAST_BYTE)
			return sp_echo_write(rc);
		return sp_echo_recv(rc, SP_WR_WRITE_IMM);
	case SPARKPERF_LAT_OP_SEND:
		return sp_echo_recv(rc, SP_WR_SEND);
	default:
		return 0;
	}
}

#define SP_U64_SIZE nla_total_size_64bit(sizeof(u64))
#define SP_INTERVAL_SIZE (nla_total_size(0) + 5 * SP_U64_SIZE)

size_t sp_series_msg_size(const struct sp_series *se)
{
	return nla_total_size(0) + se->max * SP_INTERVAL_SIZE;
}

/* An interval's attributes: a bandwidth one (@bytes) has no percentiles. */
int sp_interval_fill(struct sk_buff *skb, int type,
		     const struct sp_interval *iv, bool bytes)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_END_NS, iv->end_ns,
			      SPARKPERF_A_INTERVAL_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_COUNT, iv->count,
			      SPARKPERF_A_INTERVAL_PAD))
		return -EMSGSIZE;
	if (bytes) {
		if (nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_BYTES,
				      iv->bytes, SPARKPERF_A_INTERVAL_PAD))
			return -EMSGSIZE;
	} else if (nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_P50_NS,
				     iv->p50_ns, SPARKPERF_A_INTERVAL_PAD) ||
		   nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_P99_NS,
				     iv->p99_ns, SPARKPERF_A_INTERVAL_PAD) ||
		   nla_put_u64_64bit(skb, SPARKPERF_A_INTERVAL_MAX_NS,
				     iv->max_ns, SPARKPERF_A_INTERVAL_PAD)) {
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The kept intervals, oldest first, in a @type nest. */
int sp_series_fill(struct sk_buff *skb, int type, const struct sp_series *se)
{
	u64 i = se->done - min_t(u64, se->done, se->max);
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (; i < se->done; i++)
		if (sp_interval_fill(skb, SPARKPERF_A_LAT_INTERVALS_ENTRY,
				     &se->iv[i % se->max], se->bytes))
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

static size_t sp_lat_msg_size(struct sp_session *s, bool intervals)
{
	size_t size = 20 * SP_U64_SIZE + 9 * nla_total_size(sizeof(u32));

	if (intervals)
		size += sp_series_msg_size(&s->lat.series);
	return size;
}

static int sp_lat_fill_cfg(struct sk_buff *skb, const struct sp_lat_cfg *cfg)
{
	if (nla_put_u8(skb, SPARKPERF_A_LAT_OP, cfg->op) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_SIZE, cfg->size) ||
	    (cfg->iters && sp_put_u64(skb, SPARKPERF_A_LAT_ITERS, cfg->iters)) ||
	    (cfg->duration_ms &&
	     nla_put_u32(skb, SPARKPERF_A_LAT_DURATION_MS, cfg->duration_ms)) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_WARMUP, cfg->warmup) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_SAMPLES_MAX, cfg->samples_max) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_INTERVAL_MS, cfg->interval_ms) ||
	    nla_put_u8(skb, SPARKPERF_A_LAT_COMPLETION, cfg->completion))
		return -EMSGSIZE;
	return 0;
}

/*
 * The configuration and the results so far; with @intervals the series.
 * Under lat->lock, which the loop takes after every round trip, only
 * copies: the counters, and the histogram's buckets from its minimum's to
 * its maximum's (the rest are zero). Percentiles and messages are built
 * from the copy.
 */
static int sp_lat_fill(struct sk_buff *skb, struct sp_session *s,
		       bool intervals)
{
	struct sp_lat *lat = &s->lat;
	u64 warmup_done, count, elapsed_ns, yields, rt_yields;
	u32 clock_res_ns;
	struct sp_hist *h;
	int cpu, ret = -EMSGSIZE;

	if (sp_lat_fill_cfg(skb, &lat->cfg))
		return ret;
	h = kvzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	spin_lock(&lat->lock);
	cpu = lat->cpu;
	warmup_done = lat->warmup_done;
	count = lat->count;
	elapsed_ns = lat->elapsed_ns;
	yields = lat->yields;
	rt_yields = lat->rt_yields;
	clock_res_ns = lat->clock_res_ns;
	sp_hist_copy(h, lat->hist);
	spin_unlock(&lat->lock);

	if ((cpu >= 0 && nla_put_u32(skb, SPARKPERF_A_LAT_CPU, cpu)) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_WARMUP_DONE, warmup_done) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_COUNT, count) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_ELAPSED_NS, elapsed_ns) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_YIELDS, yields) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_RT_YIELDS, rt_yields) ||
	    (clock_res_ns &&
	     nla_put_u32(skb, SPARKPERF_A_LAT_CLOCK_RES_NS, clock_res_ns)) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_SUM_NS, h->sum) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_SUMSQ_HI, (u64)(h->sumsq >> 64)) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_SUMSQ_LO, (u64)h->sumsq))
		goto out;
	if (h->count && sp_fill_percentiles(skb, h))
		goto out;
	if (intervals) {
		mutex_lock(&lat->series_lock);
		ret = sp_series_fill(skb, SPARKPERF_A_LAT_INTERVALS,
				     &lat->series);
		mutex_unlock(&lat->series_lock);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	kvfree(h);
	return ret;
}

static int sp_lat_fill_progress(struct sk_buff *skb, struct sp_session *s,
				const struct sp_interval *iv)
{
	struct sp_lat *lat = &s->lat;
	int ret = 0;

	spin_lock(&lat->lock);
	if (sp_put_u64(skb, SPARKPERF_A_LAT_COUNT, lat->count) ||
	    sp_put_u64(skb, SPARKPERF_A_LAT_WARMUP_DONE, lat->warmup_done))
		ret = -EMSGSIZE;
	spin_unlock(&lat->lock);
	if (!ret && iv)
		ret = sp_interval_fill(skb, SPARKPERF_A_LAT_INTERVAL, iv, false);
	return ret;
}

const struct sp_session_type sp_lat_type = {
	.tag = 'l',
	.cmd_get = SPARKPERF_CMD_LAT_GET,
	.cmd_progress = SPARKPERF_CMD_LAT_PROGRESS,
	.a_id = SPARKPERF_A_LAT_ID,
	.a_peer = SPARKPERF_A_LAT_PEER,
	.a_port = SPARKPERF_A_LAT_PORT,
	.a_dev = SPARKPERF_A_LAT_DEV,
	.a_state = SPARKPERF_A_LAT_STATE,
	.a_error = SPARKPERF_A_LAT_ERROR,
	.a_error_msg = SPARKPERF_A_LAT_ERROR_MSG,
	.parse = sp_lat_parse,
	.init = sp_lat_init,
	.release = sp_lat_release,
	.run = sp_lat_run,
	.msg_size = sp_lat_msg_size,
	.fill = sp_lat_fill,
	.fill_progress = sp_lat_fill_progress,
};

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
