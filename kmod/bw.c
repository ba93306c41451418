// SPDX-License-Identifier: GPL-2.0
/*
 * The bandwidth engine. A session's run, in its own thread (the
 * coordinator), registers every link, waits for each server's "ready" and
 * for START_AT_NS, then starts THREADS workers, each pinned to a CPU of the
 * device's node; worker i drives QPs i, i + THREADS, ... . A worker keeps
 * DEPTH data WRs posted on each of its QPs, in chains, with a completion
 * every SIGNAL of them and at least every SPARKPERF_BW_SIGNAL_BYTES, polls
 * each CQ and counts what completes in its own counters, which the coordinator
 * reads without a lock to close an interval every INTERVAL_MS, stamped
 * with the time it read them. A QP's run ends with the fin exchange
 * (rdma.h) once it has posted its ITERS messages, or on BW_STOP: it is
 * done when its fin has completed and the server's answer has come.
 *
 * DURATION_MS is a window, as perftest's -D: what completes after it is
 * not counted, and it is not waited for either. At the deadline a worker
 * moves its QPs to the error state, which flushes the work requests in
 * flight (DEPTH x SIZE per QP, seconds on a slow link) at once; with
 * VALIDATE it first gives the fin exchange SP_BW_DRAIN_NS to bring the
 * server's count.
 *
 * The threads that poll must not starve a software RDMA device (rxe), which
 * works in softirq and workqueue context on the same CPUs: they run pending
 * softirqs and yield after each round, and sleep once nothing has come for
 * SP_BW_IDLE_NS.
 */

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/wait.h>
#include <net/genetlink.h>
#include <rdma/rdma_cm.h>
#include <linux/sparkperf.h>

#include "bw.h"
#include "compat.h"
#include "device.h"
#include "lat.h"
#include "rdma.h"
#include "session.h"

/* Completions reaped by one ib_poll_cq(). */
#define SP_BW_POLL 32
#define SP_BW_IDLE_NS (50 * NSEC_PER_USEC)
#define SP_BW_IDLE_LONG_NS (10 * NSEC_PER_MSEC)
#define SP_BW_AHEAD_NS ((u64)SPARKPERF_BW_START_AHEAD_MS * NSEC_PER_MSEC)
#define SP_BW_AHEAD_MSG \
	"start more than " __stringify(SPARKPERF_BW_START_AHEAD_MS) " ms ahead"
/* How long BW_STOP, or the end of a window, waits for the WRs in flight. */
#define SP_BW_DRAIN_NS NSEC_PER_SEC
/*
 * What one side of a connection moved, written by its thread only and read
 * by others one READ_ONCE() each. Data messages all carry SIZE bytes, so
 * that bytes are counted with them and always agree.
 */
struct sp_bw_counts {
	u64 tx_msgs;
	u64 rx_msgs;
	u64 errors;		/* messages that failed validation */
	u64 last_ns;		/* the last data completion */
	bool unanswered;	/* a QP ended without the server's answer */
};

/* One connection's data path, on either side. */
struct sp_bw_qp {
	struct sp_rconn *rc;
	enum sp_wr wr;		/* the data WRs it posts */
	u64 left;		/* data WRs still to post */
	u64 since;		/* its last completion, ns */
	bool fin_posted;	/* the fin, or the server's answer to it */
	bool fin_done;		/* ... has completed */
	bool peer_fin;		/* the peer's fin or answer has come */
	u32 peer_imm;		/* with this immediate */
	bool done;
};

struct sp_bw_worker {
	struct sp_session *s;
	struct sp_bw_counts c;	/* read by the coordinator, READ_ONCE */
	u64 cpu_ns;
	unsigned int index;
	struct task_struct *task;
	int cpu;
	u64 deadline;		/* duration mode: the end of the window */
	bool window_end;	/* ... was reached */
	u64 stop_ns;		/* when BW_STOP was seen */
	struct ib_wc wc[SP_BW_POLL];
};

/* A counter the coordinator reads while its writer runs. */
static void sp_bw_add(u64 *counter, u64 n)
{
	WRITE_ONCE(*counter, *counter + n);
}

/*
 * The end of a polling round: the CPU goes to whoever waits for it
 * (sp_cpu_share()), and once rounds have found nothing to do for a while
 * (@busy false), we sleep a little, then longer.
 */
static void sp_bw_yield(u64 *idle_since, bool busy, u64 now)
{
	sp_cpu_share();
	if (busy) {
		*idle_since = 0;
		return;
	}
	if (!*idle_since)
		*idle_since = now;
	if (now - *idle_since >= SP_BW_IDLE_LONG_NS)
		usleep_range(500, 1000);
	else if (now - *idle_since >= SP_BW_IDLE_NS)
		usleep_range(10, 50);
}

/* Fills @q's send queue with data WRs, in chains. */
static int sp_bw_post(struct sp_bw_qp *q, bool *posted)
{
	struct sp_rconn *rc = q->rc;
	u64 n;
	int ret;

	while (rc->sq_posted < rc->depth && q->left) {
		n = min3((u64)(rc->depth - rc->sq_posted), (u64)SP_POST_CHAIN,
			 q->left);
		ret = sp_rconn_post_data(rc, q->wr, n, n == q->left);
		if (ret)
			return ret;
		q->left -= n;
		*posted = true;
	}
	return 0;
}

/* Checks the @n READs just retired, each in its slot, oldest first. */
static void sp_bw_check_reads(struct sp_rconn *rc, struct sp_bw_counts *c,
			      u32 n)
{
	while (n--) {
		if (!sp_rconn_check(rc, rc->check_slot))
			sp_bw_add(&c->errors, 1);
		if (++rc->check_slot == rc->lo.slots)
			rc->check_slot = 0;
	}
}

/*
 * A data message received, into the slot a writer named in its
 * immediate or the one of the receive it took; checked with @validate.
 */
static int sp_bw_received(struct sp_rconn *rc, struct sp_bw_counts *c,
			  const struct ib_wc *wc, bool validate)
{
	u32 slot = wc->opcode == IB_WC_RECV_RDMA_WITH_IMM ?
		   be32_to_cpu(wc->ex.imm_data) : sp_wr_slot(wc->wr_id);

	if (wc->byte_len != rc->lo.size || slot >= rc->lo.slots) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "received %u bytes in slot %u, expected %u bytes in one of %u",
			 wc->byte_len, slot, rc->lo.size, rc->lo.slots);
		return -EPROTO;
	}
	if (validate && !sp_rconn_check(rc, slot))
		sp_bw_add(&c->errors, 1);
	return 0;
}

/*
 * Reaps @q's completions into @c: data WRs retired (a completion accounts
 * for the unsignaled WRs it retires), data received (checked with
 * @validate, its receives posted again), fins. Data is counted only when
 * reaped before @until, the end of a window; *@now moves on to when it
 * was reaped. How many completions, or an error with rc->msg.
 */
static int sp_bw_reap(struct sp_bw_qp *q, struct sp_bw_counts *c,
		      struct ib_wc *wc, bool validate, u64 until, u64 *now)
{
	struct sp_rconn *rc = q->rc;
	unsigned int recvs = 0;
	bool count;
	int i, n, ret;

	n = ib_poll_cq(rc->cq, SP_BW_POLL, wc);
	if (n <= 0) {
		if (n < 0)
			snprintf(rc->msg, sizeof(rc->msg),
				 "CQ poll failed: %d", n);
		return n;
	}
	/* When they were seen, not when the round began. */
	*now = ktime_get_ns();
	count = *now < until;
	for (i = 0; i < n; i++) {
		enum sp_wr what = sp_wr_what(wc[i].wr_id);
		u32 k = sp_wr_retires(wc[i].wr_id);

		if (wc[i].status != IB_WC_SUCCESS)
			return sp_rconn_wc_error(rc, &wc[i]);
		if (what < SP_WR_RECV) {
			rc->sq_posted -= min(rc->sq_posted, k);
			if (what == SP_WR_FIN || what == SP_WR_READY) {
				q->fin_done |= what == SP_WR_FIN;
				k--;
			}
			if (!k)
				continue;
			if (count) {
				sp_bw_add(&c->tx_msgs, k);
				WRITE_ONCE(c->last_ns, *now);
			}
			if (what == SP_WR_READ && validate)
				sp_bw_check_reads(rc, c, k);
		} else if (wc[i].opcode == IB_WC_RECV &&
			   (wc[i].wc_flags & IB_WC_WITH_IMM)) {
			q->peer_fin = true;
			q->peer_imm = be32_to_cpu(wc[i].ex.imm_data);
		} else {
			ret = sp_bw_received(rc, c, &wc[i], validate);
			if (ret)
				return ret;
			recvs++;
			if (count) {
				sp_bw_add(&c->rx_msgs, 1);
				WRITE_ONCE(c->last_ns, *now);
			}
		}
	}
	q->since = *now;
	if (recvs) {
		ret = sp_rconn_post_recv(rc, true, recvs);
		if (ret)
			return ret;
	}
	return n;
}

static u8 sp_bw_wflags(const struct sp_bw_cfg *cfg)
{
	return (cfg->bidir ? SP_WIRE_F_BIDIR : 0) |
	       (cfg->validate ? SP_WIRE_F_VALIDATE : 0);
}

/* The client's data WRs: with validation or both ways, the server sees each. */
static enum sp_wr sp_bw_client_wr(const struct sp_bw_cfg *cfg)
{
	switch (cfg->op) {
	case SPARKPERF_LAT_OP_WRITE:
		return cfg->validate || cfg->bidir ? SP_WR_WRITE_IMM :
						     SP_WR_WRITE;
	case SPARKPERF_LAT_OP_SEND:
		return SP_WR_SEND;
	default:
		return SP_WR_READ;
	}
}

/* Posts @q's data WRs until its run ends, then its fin. */
static int sp_bw_send(struct sp_bw_worker *w, struct sp_bw_qp *q, u64 now,
		      bool *posted)
{
	struct sp_rconn *rc = q->rc;
	int ret;

	if (q->fin_posted)
		return 0;
	if (q->left && !w->stop_ns && (!w->deadline || now < w->deadline))
		return sp_bw_post(q, posted);
	/* Signaled, the fin retires the unsignaled WRs before it. */
	ret = sp_rconn_post_fin(rc, SP_WIRE_FIN);
	if (ret)
		return ret;
	q->fin_posted = true;
	q->since = now;
	*posted = true;
	return 0;
}

/* Whether @q is done; an error once its answer is overdue. */
static int sp_bw_end(struct sp_bw_worker *w, struct sp_bw_qp *q, u64 now)
{
	struct sp_rconn *rc = q->rc;

	if (q->fin_done && q->peer_fin) {
		q->done = true;
		sp_bw_add(&w->c.errors, q->peer_imm);
		return 0;
	}
	if (q->fin_done &&
	    now - q->since > (u64)rc->answer_ms * NSEC_PER_MSEC) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "%pISc did not answer the end of the run within %u ms",
			 &rc->id->route.addr.dst_addr, rc->answer_ms);
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * The end of the window: @w's QPs not done yet go to the error state,
 * which flushes what they have in flight, and are done. The session's
 * disconnection would flush them too, a little later: this stops their
 * traffic at the deadline. With VALIDATE, a QP done without the server's
 * answer leaves its count unknown.
 */
static void sp_bw_flush(struct sp_bw_worker *w)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct sp_bw *bw = &w->s->bw;
	unsigned int i;

	for (i = w->index; i < bw->cfg.qps; i += bw->cfg.threads) {
		struct sp_bw_qp *q = &bw->qps[i];

		if (q->done)
			continue;
		ib_modify_qp(q->rc->qp, &attr, IB_QP_STATE);
		q->done = true;
		WRITE_ONCE(w->c.unanswered, true);
	}
}

/*
 * A worker's rounds over its QPs until all are done: 0, -EINTR when
 * aborted, or an error with (*@failed)->rc->msg.
 */
static int sp_bw_work(struct sp_bw_worker *w, struct sp_bw_qp **failed)
{
	struct sp_bw *bw = &w->s->bw;
	const struct sp_bw_cfg *cfg = &bw->cfg;
	u64 now, idle_since = 0;
	unsigned int i, active;
	bool busy, posted;
	int ret;

	for (;;) {
		now = ktime_get_ns();
		if (kthread_should_stop())
			return -EINTR;
		if (!w->stop_ns && test_bit(SP_RC_STOP, &bw->qps[0].rc->flags))
			w->stop_ns = now;
		if (w->stop_ns && now - w->stop_ns > SP_BW_DRAIN_NS)
			return -EINTR;
		if (w->deadline && now >= w->deadline) {
			w->window_end = true;
			if (!cfg->validate ||
			    now - w->deadline > SP_BW_DRAIN_NS) {
				sp_bw_flush(w);
				return 0;
			}
		}

		active = 0;
		busy = false;
		posted = false;
		for (i = w->index; i < cfg->qps; i += cfg->threads) {
			struct sp_bw_qp *q = &bw->qps[i];

			if (q->done)
				continue;
			if (test_bit(SP_RC_ABORT, &q->rc->flags))
				return -EINTR;
			active++;
			*failed = q;
			ret = sp_bw_send(w, q, now, &posted);
			if (!ret)
				ret = sp_bw_reap(q, &w->c, w->wc, cfg->validate,
						 w->deadline ?: U64_MAX, &now);
			if (ret > 0)
				busy = true;
			if (ret >= 0)
				ret = sp_bw_end(w, q, now);
			if (ret)
				return ret;
		}
		if (!active)
			return 0;
		sp_softirqs();
		sp_bw_yield(&idle_since, busy || posted, now);
	}
}

static int sp_bw_worker_fn(void *arg)
{
	struct sp_bw_worker *w = arg;
	struct sp_session *s = w->s;
	struct sp_bw *bw = &s->bw;
	u64 cpu0 = current->se.sum_exec_runtime;
	struct sp_bw_qp *failed = NULL;
	int ret;

	/* The first worker to post sets the start of the measurement. */
	if (!cmpxchg64(&bw->start_ns, 0, ktime_get_ns()))
		wake_up(&s->wq);
	if (bw->cfg.duration_ms)
		w->deadline = READ_ONCE(bw->start_ns) +
			      (u64)bw->cfg.duration_ms * NSEC_PER_MSEC;

	ret = sp_bw_work(w, &failed);
	WRITE_ONCE(w->cpu_ns, current->se.sum_exec_runtime - cpu0);
	if (ret && ret != -EINTR)
		sp_session_fail(s, ret, "%s", failed->rc->msg);
	atomic_dec(&bw->running);
	wake_up(&s->wq);
	return 0;
}

/* The counters of every worker, summed; the latest data completion. */
static void sp_bw_totals(const struct sp_bw *bw, struct sp_bw_counts *t,
			 u64 *cpu_ns)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	*cpu_ns = 0;
	for (i = 0; i < bw->cfg.threads; i++) {
		const struct sp_bw_worker *w = &bw->workers[i];

		t->tx_msgs += READ_ONCE(w->c.tx_msgs);
		t->rx_msgs += READ_ONCE(w->c.rx_msgs);
		t->errors += READ_ONCE(w->c.errors);
		t->last_ns = max(t->last_ns, READ_ONCE(w->c.last_ns));
		t->unanswered |= READ_ONCE(w->c.unanswered);
		*cpu_ns += READ_ONCE(w->cpu_ns);
	}
}

/* Closes the interval open since the last, at @end_ns, with @t; tells. */
static void sp_bw_interval_add(struct sp_session *s,
			       const struct sp_bw_counts *t, u64 end_ns)
{
	struct sp_bw *bw = &s->bw;
	u64 msgs = t->tx_msgs + t->rx_msgs;
	struct sp_interval iv = {
		.end_ns = end_ns,
		.count = msgs - bw->iv_msgs,
		.bytes = (msgs - bw->iv_msgs) * bw->cfg.size,
	};

	spin_lock(&bw->lock);
	bw->iv_end = end_ns;
	bw->iv_msgs = msgs;
	sp_series_add(&bw->series, &iv);
	spin_unlock(&bw->lock);
	sp_session_progress(s, &iv);
}

/*
 * An interval that ends when the counters are read, however late the
 * coordinator woke: a stamp set in advance would give a late read's bytes
 * to too short an interval.
 */
static void sp_bw_interval_read(struct sp_session *s, u64 start)
{
	struct sp_bw_counts t;
	u64 cpu_ns;

	sp_bw_totals(&s->bw, &t, &cpu_ns);
	sp_bw_interval_add(s, &t, ktime_get_ns() - start);
}

/*
 * The last interval, up to @end after the start, with the final totals
 * @t. A read at or after the end (while the last completions were reaped
 * or the fin answered) found nothing from after it: such intervals are
 * folded into this one, so that the series ends with the measurement.
 */
static void sp_bw_interval_last(struct sp_session *s,
				const struct sp_bw_counts *t, u64 end)
{
	struct sp_bw *bw = &s->bw;
	struct sp_series *se = &bw->series;

	spin_lock(&bw->lock);
	while (se->done && bw->iv_end >= end) {
		se->done--;
		bw->iv_msgs -= se->iv[se->done % se->max].count;
		bw->iv_end = se->done ? se->iv[(se->done - 1) % se->max].end_ns :
					0;
	}
	spin_unlock(&bw->lock);
	if (end > bw->iv_end)
		sp_bw_interval_add(s, t, end);
}

/* Every link registered, its receives posted, its server ready. */
static int sp_bw_prepare(struct sp_session *s)
{
	struct sp_rconn *rc;
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < s->nlinks; i++) {
		rc = &s->links[i].rc;
		ret = sp_rconn_register(rc);
	}
	for (i = 0; !ret && i < s->nlinks; i++) {
		rc = &s->links[i].rc;
		ret = sp_rconn_wait(rc, SP_WR_RECV_READY, 1, rc->answer_ms);
	}
	if (ret && ret != -EINTR)
		sp_session_fail(s, ret, "%s", rc->msg);
	return ret;
}

/* Waits for START_AT_NS, unless stopped. */
static int sp_bw_wait_start(struct sp_session *s)
{
	u64 at = s->bw.cfg.start_at_ns, now = ktime_get_ns();

	if (at > now)
		wait_event_interruptible_hrtimeout(s->wq,
						   sp_session_stopping(s) ||
						   kthread_should_stop(),
						   ns_to_ktime(at - now));
	return sp_session_stopping(s) || kthread_should_stop() ? -EINTR : 0;
}

/* Stops the workers (those not started never run) and frees their CPUs. */
static void sp_bw_stop_workers(struct sp_session *s)
{
	struct sp_bw *bw = &s->bw;
	unsigned int i;

	for (i = 0; i < bw->cfg.threads; i++) {
		struct sp_bw_worker *w = &bw->workers[i];

		if (!w->task)
			continue;
		kthread_stop(w->task);
		put_task_struct(w->task);
		w->task = NULL;
		sp_lat_cpu_put(w->cpu);
		w->cpu = -1;
	}
}

/* The workers, each on its own CPU of the device's node if it can. */
static int sp_bw_start_workers(struct sp_session *s)
{
	int node = sp_device_numa_node(s->links[0].rc.ibdev);
	struct sp_bw *bw = &s->bw;
	struct task_struct *task;
	unsigned int i;
	int ret;

	for (i = 0; i < bw->cfg.threads; i++) {
		struct sp_bw_worker *w = &bw->workers[i];

		task = kthread_create_on_node(sp_bw_worker_fn, w, node,
					      "sparkperf-b%u.%u", s->id, i);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			sp_session_fail(s, ret, "cannot start a thread: %d",
					ret);
			sp_bw_stop_workers(s);
			return ret;
		}
		get_task_struct(task);
		w->task = task;
		w->cpu = sp_lat_cpu_get(-1, node);
		if (w->cpu >= 0)
			kthread_bind(task, w->cpu);
	}
	atomic_set(&bw->running, bw->cfg.threads);
	for (i = 0; i < bw->cfg.threads; i++)
		wake_up_process(bw->workers[i].task);
	return 0;
}

/*
 * Closes an interval every INTERVAL_MS until the workers are done; the
 * last one of a window closes at its end, once they are (sp_bw_run()).
 */
static void sp_bw_coordinate(struct sp_session *s)
{
	struct sp_bw *bw = &s->bw;
	u64 interval = (u64)bw->cfg.interval_ms * NSEC_PER_MSEC;
	u64 start, next, now, last = U64_MAX;

	wait_event_interruptible(s->wq, READ_ONCE(bw->start_ns) ||
				 !atomic_read(&bw->running));
	start = READ_ONCE(bw->start_ns);
	if (bw->cfg.duration_ms)
		last = start + (u64)bw->cfg.duration_ms * NSEC_PER_MSEC;
	next = start + interval;
	while (atomic_read(&bw->running)) {
		now = ktime_get_ns();
		if (next >= last) {
			wait_event_interruptible(s->wq,
						 !atomic_read(&bw->running));
			continue;
		}
		if (now >= next) {
			sp_bw_interval_read(s, start);
			/* Late by intervals: no empty ones to catch up. */
			next += interval * (div64_u64(now - next, interval) + 1);
			continue;
		}
		wait_event_interruptible_hrtimeout(s->wq,
						   !atomic_read(&bw->running),
						   ns_to_ktime(next - now));
	}
}

/*
 * The end of the measurement: that of the window if every worker reached
 * it, else the last data completion (ITERS, BW_STOP, a failure).
 */
static u64 sp_bw_elapsed(const struct sp_bw *bw, const struct sp_bw_counts *t)
{
	u64 start = READ_ONCE(bw->start_ns);
	unsigned int i;

	for (i = 0; bw->cfg.duration_ms && i < bw->cfg.threads; i++)
		if (!bw->workers[i].window_end)
			break;
	if (bw->cfg.duration_ms && i == bw->cfg.threads)
		return (u64)bw->cfg.duration_ms * NSEC_PER_MSEC;
	return start && t->last_ns > start ? t->last_ns - start : 0;
}

/*
 * The session's run (see the top of the file), under res_lock with every
 * link connected.
 */
static int sp_bw_run(struct sp_session *s)
{
	struct sp_bw *bw = &s->bw;
	struct sp_bw_counts t;
	u64 cpu_ns, end;
	int ret;

	ret = sp_bw_prepare(s);
	if (!ret)
		ret = sp_bw_wait_start(s);
	if (!ret)
		ret = sp_bw_start_workers(s);
	if (ret)
		return ret;
	sp_bw_coordinate(s);
	sp_bw_stop_workers(s);

	sp_bw_totals(bw, &t, &cpu_ns);
	end = sp_bw_elapsed(bw, &t);
	if (READ_ONCE(bw->start_ns))
		sp_bw_interval_last(s, &t, end);
	WRITE_ONCE(bw->elapsed_ns, end);
	return sp_session_stopping(s) ? -EINTR : 0;
}

/* BW_RUN: the configuration, and the checks the policy cannot make. */
static int sp_bw_parse(struct sp_session *s, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct sp_bw_cfg *cfg = &s->bw.cfg;
	struct sp_layout lo;
	struct nlattr *attr;
	u64 mem;

	if (attrs[SPARKPERF_A_BW_ITERS] && attrs[SPARKPERF_A_BW_DURATION_MS]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[SPARKPERF_A_BW_DURATION_MS],
				    "iterations and duration exclude each other");
		return -EINVAL;
	}
	*cfg = (struct sp_bw_cfg) {
		.op = SPARKPERF_LAT_OP_WRITE,
		.size = SPARKPERF_BW_SIZE_DEFAULT,
		.qps = 1,
		.threads = 1,
		.depth = SPARKPERF_BW_DEPTH_DEFAULT,
		.iters = SPARKPERF_BW_ITERS_DEFAULT,
		.interval_ms = SPARKPERF_BW_INTERVAL_MS_DEFAULT,
	};
	if (attrs[SPARKPERF_A_BW_OP])
		cfg->op = nla_get_u8(attrs[SPARKPERF_A_BW_OP]);
	if (attrs[SPARKPERF_A_BW_SIZE])
		cfg->size = nla_get_u32(attrs[SPARKPERF_A_BW_SIZE]);
	if (attrs[SPARKPERF_A_BW_QPS])
		cfg->qps = nla_get_u32(attrs[SPARKPERF_A_BW_QPS]);
	if (attrs[SPARKPERF_A_BW_THREADS])
		cfg->threads = nla_get_u32(attrs[SPARKPERF_A_BW_THREADS]);
	if (attrs[SPARKPERF_A_BW_DEPTH])
		cfg->depth = nla_get_u32(attrs[SPARKPERF_A_BW_DEPTH]);
	cfg->signal = min_t(u32, SPARKPERF_BW_SIGNAL_DEFAULT, cfg->depth);
	if (attrs[SPARKPERF_A_BW_SIGNAL])
		cfg->signal = nla_get_u32(attrs[SPARKPERF_A_BW_SIGNAL]);
	if (attrs[SPARKPERF_A_BW_ITERS])
		cfg->iters = nla_get_u64(attrs[SPARKPERF_A_BW_ITERS]);
	if (attrs[SPARKPERF_A_BW_DURATION_MS]) {
		cfg->duration_ms = nla_get_u32(attrs[SPARKPERF_A_BW_DURATION_MS]);
		cfg->iters = 0;
	}
	cfg->bidir = nla_get_flag(attrs[SPARKPERF_A_BW_BIDIR]);
	cfg->validate = nla_get_flag(attrs[SPARKPERF_A_BW_VALIDATE]);
	if (attrs[SPARKPERF_A_BW_INTERVAL_MS])
		cfg->interval_ms = nla_get_u32(attrs[SPARKPERF_A_BW_INTERVAL_MS]);

	if (cfg->threads > cfg->qps) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[SPARKPERF_A_BW_THREADS],
				    "more threads than QPs");
		return -EINVAL;
	}
	if (cfg->signal > cfg->depth) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[SPARKPERF_A_BW_SIGNAL],
				    "a completion interval above the depth");
		return -EINVAL;
	}
	if (cfg->bidir && cfg->op == SPARKPERF_LAT_OP_READ) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[SPARKPERF_A_BW_BIDIR],
				    "bidirectional mode needs write or send");
		return -EINVAL;
	}
	attr = attrs[SPARKPERF_A_BW_START_AT_NS];
	if (attr) {
		cfg->start_at_ns = nla_get_u64(attr);
		if (cfg->start_at_ns > ktime_get_ns() + SP_BW_AHEAD_NS) {
			NL_SET_ERR_MSG_ATTR(extack, attr, SP_BW_AHEAD_MSG);
			return -ERANGE;
		}
	}
	sp_layout_init(&lo, SP_WIRE_BW, cfg->op, sp_bw_wflags(cfg), cfg->depth,
		       cfg->size, false);
	mem = (u64)cfg->qps * (lo.sbuf_bytes + lo.rbuf_bytes);
	if (mem > SPARKPERF_BW_MEM_MAX) {
		BUILD_BUG_ON(SPARKPERF_BW_MEM_MAX != 536870912);
		sp_set_err_msg_fmt(extack,
				   "the buffers (QPS x both buffers, validation keeps a slot per message in flight) would exceed the cap of 536870912 bytes",
				   "the buffers would need %llu bytes (QPS x %zu%s), the cap is %u",
				   mem, lo.sbuf_bytes + lo.rbuf_bytes,
				   cfg->validate ?
				   ", validation keeps a slot per message in flight" : "",
				   SPARKPERF_BW_MEM_MAX);
		return -E2BIG;
	}
	s->nlinks = cfg->qps;
	s->size = cfg->size;
	return 0;
}

/* The session's memory, once its links have their buffers. */
static int sp_bw_init(struct sp_session *s)
{
	struct sp_bw *bw = &s->bw;
	const struct sp_bw_cfg *cfg = &bw->cfg;
	unsigned int i;

	spin_lock_init(&bw->lock);
	bw->qps = kvcalloc(cfg->qps, sizeof(*bw->qps), GFP_KERNEL);
	bw->workers = kvcalloc(cfg->threads, sizeof(*bw->workers), GFP_KERNEL);
	if (!bw->qps || !bw->workers ||
	    sp_series_init(&bw->series, cfg->duration_ms, cfg->interval_ms,
			   true))
		return -ENOMEM;

	for (i = 0; i < cfg->qps; i++) {
		struct sp_rconn *rc = &s->links[i].rc;

		rc->kind = SP_WIRE_BW;
		rc->op = cfg->op;
		rc->wflags = sp_bw_wflags(cfg);
		rc->depth = cfg->depth;
		/*
		 * Bytes are counted when a completion retires them: a run of
		 * 1 MiB messages with one per 16 left nine 100 ms intervals in
		 * ten empty on a busy link. Above SPARKPERF_BW_SIGNAL_BYTES
		 * every message has its own, which costs nothing at that size.
		 */
		rc->signal = min_t(u32, cfg->signal,
				   max_t(u32, 1, SPARKPERF_BW_SIGNAL_BYTES / cfg->size));
		bw->qps[i].rc = rc;
		bw->qps[i].wr = sp_bw_client_wr(cfg);
		bw->qps[i].left = cfg->iters ?: U64_MAX;
	}
	for (i = 0; i < cfg->threads; i++) {
		bw->workers[i].s = s;
		bw->workers[i].index = i;
		bw->workers[i].cpu = -1;
	}
	return 0;
}

static void sp_bw_release(struct sp_session *s)
{
	sp_series_free(&s->bw.series);
	kvfree(s->bw.workers);
	kvfree(s->bw.qps);
}

#define SP_U64_SIZE nla_total_size_64bit(sizeof(u64))

static size_t sp_bw_msg_size(struct sp_session *s, bool intervals)
{
	size_t size = 12 * nla_total_size(sizeof(u32)) + 10 * SP_U64_SIZE;

	if (intervals)
		size += sp_series_msg_size(&s->bw.series);
	return size;
}

static int sp_put_u64(struct sk_buff *skb, int type, u64 value)
{
	return nla_put_u64_64bit(skb, type, value, SPARKPERF_A_BW_PAD);
}

static int sp_bw_fill_cfg(struct sk_buff *skb, const struct sp_bw_cfg *cfg)
{
	if (nla_put_u8(skb, SPARKPERF_A_BW_OP, cfg->op) ||
	    nla_put_u32(skb, SPARKPERF_A_BW_SIZE, cfg->size) ||
	    nla_put_u32(skb, SPARKPERF_A_BW_QPS, cfg->qps) ||
	    nla_put_u32(skb, SPARKPERF_A_BW_THREADS, cfg->threads) ||
	    nla_put_u32(skb, SPARKPERF_A_BW_DEPTH, cfg->depth) ||
	    nla_put_u32(skb, SPARKPERF_A_BW_SIGNAL, cfg->signal) ||
	    (cfg->iters && sp_put_u64(skb, SPARKPERF_A_BW_ITERS, cfg->iters)) ||
	    (cfg->duration_ms &&
	     nla_put_u32(skb, SPARKPERF_A_BW_DURATION_MS, cfg->duration_ms)) ||
	    (cfg->bidir && nla_put_flag(skb, SPARKPERF_A_BW_BIDIR)) ||
	    (cfg->validate && nla_put_flag(skb, SPARKPERF_A_BW_VALIDATE)) ||
	    nla_put_u32(skb, SPARKPERF_A_BW_INTERVAL_MS, cfg->interval_ms))
		return -EMSGSIZE;
	return 0;
}

/* The configuration and the results so far; with @intervals the series. */
static int sp_bw_fill(struct sk_buff *skb, struct sp_session *s,
		      bool intervals)
{
	struct sp_bw *bw = &s->bw;
	u64 start = READ_ONCE(bw->start_ns);
	u64 elapsed = READ_ONCE(bw->elapsed_ns);
	u64 size = bw->cfg.size;
	struct sp_bw_counts t;
	u64 cpu_ns;
	int ret;

	sp_bw_totals(bw, &t, &cpu_ns);
	/* While running: up to the last completion so far. */
	if (!elapsed && start && t.last_ns > start)
		elapsed = t.last_ns - start;
	if (sp_bw_fill_cfg(skb, &bw->cfg) ||
	    (start && sp_put_u64(skb, SPARKPERF_A_BW_START_NS, start)) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_ELAPSED_NS, elapsed) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_TX_BYTES, t.tx_msgs * size) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_TX_MSGS, t.tx_msgs) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_RX_BYTES, t.rx_msgs * size) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_RX_MSGS, t.rx_msgs) ||
	    /* Unknown without the server's part. */
	    (!(bw->cfg.validate && t.unanswered) &&
	     sp_put_u64(skb, SPARKPERF_A_BW_VALIDATE_ERRORS, t.errors)) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_CPU_NS, cpu_ns))
		return -EMSGSIZE;
	if (!intervals)
		return 0;
	spin_lock(&bw->lock);
	ret = sp_series_fill(skb, SPARKPERF_A_BW_INTERVALS, &bw->series);
	spin_unlock(&bw->lock);
	return ret;
}

static int sp_bw_fill_progress(struct sk_buff *skb, struct sp_session *s,
			       const struct sp_interval *iv)
{
	struct sp_bw_counts t;
	u64 cpu_ns;

	sp_bw_totals(&s->bw, &t, &cpu_ns);
	if (sp_put_u64(skb, SPARKPERF_A_BW_TX_BYTES,
		       t.tx_msgs * s->bw.cfg.size) ||
	    sp_put_u64(skb, SPARKPERF_A_BW_RX_BYTES,
		       t.rx_msgs * s->bw.cfg.size) ||
	    (iv && sp_interval_fill(skb, SPARKPERF_A_BW_INTERVAL, iv, true)))
		return -EMSGSIZE;
	return 0;
}

const struct sp_session_type sp_bw_type = {
	.tag = 'b',
	.cmd_get = SPARKPERF_CMD_BW_GET,
	.cmd_progress = SPARKPERF_CMD_BW_PROGRESS,
	.a_id = SPARKPERF_A_BW_ID,
	.a_peer = SPARKPERF_A_BW_PEER,
	.a_port = SPARKPERF_A_BW_PORT,
	.a_dev = SPARKPERF_A_BW_DEV,
	.a_state = SPARKPERF_A_BW_STATE,
	.a_error = SPARKPERF_A_BW_ERROR,
	.a_error_msg = SPARKPERF_A_BW_ERROR_MSG,
	.parse = sp_bw_parse,
	.init = sp_bw_init,
	.release = sp_bw_release,
	.run = sp_bw_run,
	.msg_size = sp_bw_msg_size,
	.fill = sp_bw_fill,
	.fill_progress = sp_bw_fill_progress,
};

/* Sleeps until the connection's end stops the thread. */
static int sp_bw_server_idle(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return -EINTR;
}

/*
 * The server's side of a bandwidth connection, in its thread, once
 * "ready" is posted: receives (checked if the client validates), in a
 * bidirectional test sends from the client's first message to its fin,
 * answers the fin, then waits for the client to disconnect. -EINTR when
 * stopped, or an error with rc->msg.
 */
int sp_bw_server(struct sp_rconn *rc)
{
	struct sp_bw_qp q = {
		.rc = rc,
		.wr = rc->op == SPARKPERF_LAT_OP_SEND ? SP_WR_SEND :
							SP_WR_WRITE_IMM,
		.left = U64_MAX,
	};
	bool validate = rc->wflags & SP_WIRE_F_VALIDATE;
	bool bidir = rc->wflags & SP_WIRE_F_BIDIR;
	struct sp_bw_counts c = { 0 };
	u64 now, idle_since = 0;
	struct ib_wc *wc;
	bool posted;
	int ret, n;

	wc = kcalloc(SP_BW_POLL, sizeof(*wc), GFP_KERNEL);
	if (!wc) {
		snprintf(rc->msg, sizeof(rc->msg), "server out of memory");
		return -ENOMEM;
	}
	while (!q.fin_posted) {
		ret = -EINTR;
		if (kthread_should_stop() || sp_rconn_stopping(rc))
			goto out;
		now = ktime_get_ns();
		posted = false;
		if (bidir && c.rx_msgs && !q.peer_fin) {
			ret = sp_bw_post(&q, &posted);
			if (ret)
				goto out;
		}
		ret = sp_bw_reap(&q, &c, wc, validate, U64_MAX, &now);
		if (ret < 0)
			goto out;
		n = ret;
		if (q.peer_fin) {
			ret = sp_rconn_post_fin(rc, min_t(u64, c.errors,
							  U32_MAX));
			if (ret)
				goto out;
			q.fin_posted = true;
			posted = true;
		}
		sp_softirqs();
		sp_bw_yield(&idle_since, n || posted, now);
	}
	ret = sp_bw_server_idle();
out:
	kfree(wc);
	return ret;
}
