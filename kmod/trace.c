// SPDX-License-Identifier: GPL-2.0
/*
 * Traces. TRACE_START opens the targets (counters.c), selects the names,
 * allocates the ring and starts the trace's sampler (sampler.c). A trace
 * belongs to the netlink socket that started it and is destroyed when
 * that socket closes (NETLINK_URELEASE) or at rmmod; the unregistration
 * of a traced netdev and the removal of a traced RDMA device end it.
 *
 * Device references. The thread holds them while it samples and drops
 * them when the trace ends; a trace is on sp_traces_live until then, so
 * that the netdev notifier and the RDMA client's remove can find it:
 *
 *  - the netdev notifier runs under rtnl and must not wait for the thread
 *    (which may be waiting for rtnl itself): it clears the target's
 *    netdev under the trace's spinlock, which the thread holds around
 *    dev_get_stats(), and the thread's ethtool reads are under rtnl, so
 *    neither touches the netdev afterwards; it drops the reference itself;
 *  - the RDMA removal may sleep: it takes the trace's rdma_lock, which the
 *    thread holds around get_hw_stats(), and frees the port's stats and
 *    the device reference before it returns.
 *
 * Locks, outermost first: sp_traces_start_lock (a trace's registration
 * against RDMA device removal), device.c's registry lock, rtnl,
 * sp_traces_lock (the ids and the live list), a trace's table_lock (the
 * streams' name tables: messages are filled from them under it, not
 * under the spinlock the sampler's every read takes), a trace's
 * rdma_lock, a trace's lock (state, the streams' figures, ring, the
 * targets' netdevs).
 */

#include <linux/kthread.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "netlink.h"
#include "rdma.h"
#include "sampler.h"
#include "trace.h"

#define SP_STOP_TIMEOUT_S 10

struct sp_trace_dump_ctx {
	unsigned long next_id;
};

struct sp_trace_samples_ctx {
	u32 id;
	u64 next;
	u64 end;	/* the samples taken when the dump began */
};

static DEFINE_XARRAY_ALLOC(sp_traces);
static DEFINE_MUTEX(sp_traces_start_lock);
static DEFINE_MUTEX(sp_traces_lock);
static LIST_HEAD(sp_traces_live);
static u32 sp_traces_next;
static unsigned int sp_traces_count;
static bool sp_traces_closed;

static void sp_trace_release(struct kref *ref)
{
	struct sp_trace *t = container_of(ref, struct sp_trace, ref);
	unsigned int i;

	for (i = 0; i < t->nstreams; i++)
		sp_stream_free(&t->streams[i]);
	for (i = 0; i < t->ntargets; i++)
		sp_target_close(&t->targets[i]);
	if (t->thread)
		put_task_struct(t->thread);
	kvfree(t->ring);
	kfree(t->streams);
	kfree(t->targets);
	kfree(t->globs);
	kfree(t);
}

static void sp_trace_put(struct sp_trace *t)
{
	kref_put(&t->ref, sp_trace_release);
}

/* A stream's figures, copied under t->lock. */
struct sp_stream_figs {
	u64 samples;
	u64 missed;
	u64 read_ns_sum;
	u64 read_ns_max;
	u64 late_ns_max;
};

/* A trace's figures, copied under t->lock, to fill messages without it. */
struct sp_trace_snap {
	u8 state;
	int error;
	char error_msg[SP_MSG_LEN];
	u64 start_ns;
	u64 last_ns;
	u64 cpu_ns;
	u64 head;
	u64 oldest;
	struct sp_stream_figs st[];
};

/* Under t->lock. */
static void sp_stream_figs_get(struct sp_stream_figs *f,
			       const struct sp_stream *st)
{
	f->samples = st->samples;
	f->missed = st->missed;
	f->read_ns_sum = st->read_ns_sum;
	f->read_ns_max = st->read_ns_max;
	f->late_ns_max = st->late_ns_max;
}

/* Under t->table_lock (the names, their count and version). */
static int sp_trace_put_stream(struct sk_buff *skb, const struct sp_stream *st,
			       const struct sp_stream_figs *f)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, SPARKPERF_A_TRACE_STREAM);
	if (!nest || sp_stream_put(skb, st) ||
	    nla_put_u32(skb, SPARKPERF_A_STREAM_PERIOD_US, st->period_us) ||
	    nla_put_u32(skb, SPARKPERF_A_STREAM_VERSION, st->version) ||
	    nla_put_u32(skb, SPARKPERF_A_STREAM_SLOT_VALUES, st->cap) ||
	    (st->truncated &&
	     nla_put_flag(skb, SPARKPERF_A_STREAM_TRUNCATED)) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_STREAM_SAMPLES, f->samples,
			      SPARKPERF_A_STREAM_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_STREAM_MISSED, f->missed,
			      SPARKPERF_A_STREAM_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_STREAM_READ_NS_SUM,
			      f->read_ns_sum, SPARKPERF_A_STREAM_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_STREAM_READ_NS_MAX,
			      f->read_ns_max, SPARKPERF_A_STREAM_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_STREAM_LATE_NS_MAX,
			      f->late_ns_max, SPARKPERF_A_STREAM_PAD))
		return -EMSGSIZE;
	return sp_nest_end(skb, nest);
}

/* Under t->table_lock: the TRACE_GET attributes, the figures from @sn. */
static int sp_trace_put_all(struct sk_buff *skb, struct sp_trace *t,
			    const struct sp_trace_snap *sn)
{
	struct nlattr *streams;
	unsigned int i;

	if (nla_put_u32(skb, SPARKPERF_A_TRACE_ID, t->id) ||
	    nla_put_u8(skb, SPARKPERF_A_TRACE_STATE, sn->state) ||
	    (sn->state == SPARKPERF_TRACE_STATE_FAILED &&
	     (nla_put_s32(skb, SPARKPERF_A_TRACE_ERROR, sn->error) ||
	      nla_put_string(skb, SPARKPERF_A_TRACE_ERROR_MSG,
			     sn->error_msg))) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_TRACE_START_NS, sn->start_ns,
			      SPARKPERF_A_TRACE_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_TRACE_ELAPSED_NS,
			      sn->last_ns > sn->start_ns ?
			      sn->last_ns - sn->start_ns : 0,
			      SPARKPERF_A_TRACE_PAD) ||
	    (t->duration_ms &&
	     nla_put_u32(skb, SPARKPERF_A_TRACE_DURATION_MS, t->duration_ms)) ||
	    nla_put_u32(skb, SPARKPERF_A_TRACE_BUFFER_BYTES, t->buffer_bytes) ||
	    nla_put_u32(skb, SPARKPERF_A_TRACE_BATCH_MS, t->batch_ms) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_TRACE_CPU_NS, sn->cpu_ns,
			      SPARKPERF_A_TRACE_PAD) ||
	    nla_put_u32(skb, SPARKPERF_A_TRACE_SLOTS, t->nslots) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_TRACE_SEQ_NEXT, sn->head,
			      SPARKPERF_A_TRACE_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_TRACE_SEQ_OLDEST, sn->oldest,
			      SPARKPERF_A_TRACE_PAD))
		return -EMSGSIZE;

	streams = nla_nest_start(skb, SPARKPERF_A_TRACE_STREAMS);
	if (!streams)
		return -EMSGSIZE;
	for (i = 0; i < t->nstreams; i++)
		if (sp_trace_put_stream(skb, &t->streams[i], &sn->st[i]))
			return -EMSGSIZE;
	return sp_nest_end(skb, streams);
}

/* STREAMS with every table full: an attribute's length is 16 bits. */
static size_t sp_trace_streams_size(const struct sp_trace *t)
{
	size_t size = nla_total_size(0);
	unsigned int i;

	for (i = 0; i < t->nstreams; i++)
		size += sp_stream_msg_size(&t->streams[i]);
	return size;
}

static size_t sp_trace_msg_size(const struct sp_trace *t)
{
	return 12 * nla_total_size_64bit(sizeof(u64)) +
	       nla_total_size(SP_MSG_LEN) + sp_trace_streams_size(t);
}

/*
 * A message of the whole trace. The names (up to 64 KiB of them) go in
 * under the table lock; the spinlock that every read of the sampler
 * takes is held only to copy the figures.
 */
static int sp_trace_fill(struct sk_buff *skb, struct sp_trace *t, u32 portid,
			 u32 seq, int flags, u8 cmd)
{
	struct sp_trace_snap *sn;
	unsigned int i;
	void *hdr;
	int ret;

	sn = kmalloc(struct_size(sn, st, t->nstreams), GFP_KERNEL);
	if (!sn)
		return -ENOMEM;
	hdr = sp_genl_put(skb, portid, seq, flags, cmd);
	if (!hdr) {
		kfree(sn);
		return -EMSGSIZE;
	}
	mutex_lock(&t->table_lock);
	spin_lock(&t->lock);
	sn->state = t->state;
	sn->error = t->error;
	memcpy(sn->error_msg, t->error_msg, sizeof(sn->error_msg));
	sn->start_ns = t->start_ns;
	sn->last_ns = t->last_ns;
	sn->cpu_ns = t->cpu_ns;
	sn->head = t->head;
	sn->oldest = sp_trace_oldest(t);
	for (i = 0; i < t->nstreams; i++)
		sp_stream_figs_get(&sn->st[i], &t->streams[i]);
	spin_unlock(&t->lock);
	ret = sp_trace_put_all(skb, t, sn);
	mutex_unlock(&t->table_lock);
	kfree(sn);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* TRACE_END: the whole trace, if anyone listens. */
void sp_trace_notify_end(struct sp_trace *t)
{
	struct sk_buff *skb;

	if (!sp_genl_has_trace_listeners())
		return;
	skb = genlmsg_new(sp_trace_msg_size(t), GFP_KERNEL);
	if (!skb)
		return;
	if (sp_trace_fill(skb, t, 0, 0, 0, SPARKPERF_CMD_TRACE_END)) {
		nlmsg_free(skb);
		return;
	}
	sp_genl_send_trace(skb);
}

/* TRACE_TABLE: one stream's new name table, if anyone listens. */
void sp_trace_notify_table(struct sp_trace *t, const struct sp_stream *st)
{
	struct sp_stream_figs figs;
	struct nlattr *streams;
	struct sk_buff *skb;
	void *hdr;
	int ret;

	if (!sp_genl_has_trace_listeners())
		return;
	skb = genlmsg_new(nla_total_size(sizeof(u32)) + nla_total_size(0) +
			  sp_stream_msg_size(st), GFP_KERNEL);
	if (!skb)
		return;
	hdr = sp_genl_put(skb, 0, 0, 0, SPARKPERF_CMD_TRACE_TABLE);
	streams = NULL;
	if (hdr && !nla_put_u32(skb, SPARKPERF_A_TRACE_ID, t->id))
		streams = nla_nest_start(skb, SPARKPERF_A_TRACE_STREAMS);
	if (!streams) {
		nlmsg_free(skb);
		return;
	}
	mutex_lock(&t->table_lock);
	spin_lock(&t->lock);
	sp_stream_figs_get(&figs, st);
	spin_unlock(&t->lock);
	ret = sp_trace_put_stream(skb, st, &figs);
	mutex_unlock(&t->table_lock);
	if (ret || sp_nest_end(skb, streams)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	sp_genl_send_trace(skb);
}

/* Drops the device references and leaves the live list; idempotent. */
void sp_trace_detach(struct sp_trace *t)
{
	unsigned int i;

	mutex_lock(&sp_traces_lock);
	list_del_init(&t->live);
	mutex_lock(&t->rdma_lock);
	for (i = 0; i < t->ntargets; i++) {
		spin_lock(&t->lock);
		sp_target_put_netdev(&t->targets[i]);
		spin_unlock(&t->lock);
		sp_target_put_rdma(&t->targets[i]);
	}
	mutex_unlock(&t->rdma_lock);
	mutex_unlock(&sp_traces_lock);
}

static int sp_trace_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct sp_trace *t;
	unsigned int i;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;

	mutex_lock(&sp_traces_lock);
	list_for_each_entry(t, &sp_traces_live, live) {
		for (i = 0; i < t->ntargets; i++) {
			struct sp_target *tg = &t->targets[i];

			if (tg->dev != dev)
				continue;
			sp_trace_fail(t, -ENODEV, "netdev %s was unregistered",
				      tg->name);
			spin_lock(&t->lock);
			sp_target_put_netdev(tg);
			spin_unlock(&t->lock);
		}
	}
	mutex_unlock(&sp_traces_lock);
	return NOTIFY_DONE;
}

static struct notifier_block sp_trace_netdev_nb = {
	.notifier_call = sp_trace_netdev_event,
};

/* device.c's ib_client remove, @ibdev already out of its registry. */
void sp_trace_device_removed(struct ib_device *ibdev)
{
	struct sp_trace *t;
	unsigned int i;

	mutex_lock(&sp_traces_start_lock);
	mutex_lock(&sp_traces_lock);
	list_for_each_entry(t, &sp_traces_live, live) {
		for (i = 0; i < t->ntargets; i++) {
			struct sp_target *tg = &t->targets[i];

			if (tg->ibdev != ibdev)
				continue;
			sp_trace_fail(t, -ENODEV, "RDMA device %s was removed",
				      tg->name);
			mutex_lock(&t->rdma_lock);
			sp_target_put_rdma(tg);
			mutex_unlock(&t->rdma_lock);
		}
	}
	mutex_unlock(&sp_traces_lock);
	mutex_unlock(&sp_traces_start_lock);
}

/* The trace is out of the registry: stops it and drops that reference. */
static void sp_trace_destroy(struct sp_trace *t)
{
	set_bit(SP_TRACE_STOP, &t->flags);
	kthread_stop(t->thread);
	/* The thread may have been stopped before it ran at all. */
	sp_trace_detach(t);
	complete_all(&t->done);
	pr_debug("trace %u destroyed\n", t->id);
	sp_trace_put(t);
}

static void sp_trace_destroy_list(struct list_head *list)
{
	struct sp_trace *t, *tmp;

	list_for_each_entry_safe(t, tmp, list, claim) {
		list_del(&t->claim);
		sp_trace_destroy(t);
	}
}

/* Takes traces out of the registry: those of @portid, or all. */
static void sp_trace_claim(struct list_head *list, bool all, u32 portid)
{
	struct sp_trace *t;
	unsigned long index;

	lockdep_assert_held(&sp_traces_lock);
	xa_for_each(&sp_traces, index, t) {
		if (!all && t->portid != portid)
			continue;
		xa_erase(&sp_traces, index);
		sp_traces_count--;
		list_add_tail(&t->claim, list);
	}
}

static int sp_trace_netlink_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct netlink_notify *n = ptr;
	LIST_HEAD(list);

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;

	mutex_lock(&sp_traces_lock);
	sp_trace_claim(&list, false, n->portid);
	mutex_unlock(&sp_traces_lock);
	sp_trace_destroy_list(&list);
	return NOTIFY_DONE;
}

static struct notifier_block sp_trace_netlink_nb = {
	.notifier_call = sp_trace_netlink_event,
};

static u32 sp_attr_u32(struct nlattr **attrs, int type, u32 def)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : def;
}

/* Opens every target of TARGETS; at most SPARKPERF_TRACE_TARGETS_MAX. */
static int sp_trace_open_targets(struct sp_trace *t, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[SPARKPERF_A_TRACE_TARGETS];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *attr;
	unsigned int n = 0;
	int rem, ret;

	nla_for_each_nested(attr, nest, rem) {
		if (n == SPARKPERF_TRACE_TARGETS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "too many targets");
			return -EINVAL;
		}
		ret = sp_target_check(attr, extack);
		if (ret)
			return ret;
		n++;
	}
	if (!n) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "no target in TARGETS");
		return -EINVAL;
	}

	t->targets = kcalloc(n, sizeof(*t->targets), GFP_KERNEL);
	t->streams = kcalloc(n * SP_TARGET_STREAMS, sizeof(*t->streams),
			     GFP_KERNEL);
	if (!t->targets || !t->streams)
		return -ENOMEM;
	nla_for_each_nested(attr, nest, rem) {
		ret = sp_target_open(&t->targets[t->ntargets++], attr, true,
				     extack);
		if (ret)
			return ret;
	}
	return 0;
}

/* The streams of @tg that select at least one name. */
static int sp_trace_add_streams(struct sp_trace *t, struct sp_target *tg,
				const u32 *periods,
				struct netlink_ext_ack *extack)
{
	struct sp_stream cand[SP_TARGET_STREAMS] = {};
	unsigned int j, k;
	int ret;

	k = sp_target_streams(tg, cand);
	for (j = 0; j < k; j++) {
		struct sp_stream *st = &cand[j];

		st->tg = tg;
		ret = sp_stream_select(st, t->globs, true);
		if (ret == -E2BIG)
			sp_set_err_msg_fmt(extack,
					   "a stream selects more than 1024 counters",
					   "the %s counters of %s: more than %u selected",
					   sp_source_str(st->source), tg->name,
					   SPARKPERF_TRACE_COUNTERS_MAX);
		if (ret || !st->count) {
			sp_stream_free(st);
			if (ret)
				return ret;
			continue;
		}
		st->index = t->nstreams;
		st->period_us = periods[st->source];
		t->streams[t->nstreams++] = *st;
	}
	return 0;
}

static int sp_trace_select(struct sp_trace *t, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	const u32 periods[] = {
		[SPARKPERF_SRC_NETDEV] =
			sp_attr_u32(attrs, SPARKPERF_A_TRACE_NETDEV_PERIOD_US,
				    SPARKPERF_TRACE_NETDEV_PERIOD_US_DEFAULT),
		[SPARKPERF_SRC_ETHTOOL] =
			sp_attr_u32(attrs, SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US,
				    SPARKPERF_TRACE_SLOW_PERIOD_US_DEFAULT),
		[SPARKPERF_SRC_RDMA] =
			sp_attr_u32(attrs, SPARKPERF_A_TRACE_RDMA_PERIOD_US,
				    SPARKPERF_TRACE_SLOW_PERIOD_US_DEFAULT),
	};
	unsigned int i;
	int ret;

	for (i = 0; i < t->ntargets; i++) {
		ret = sp_trace_add_streams(t, &t->targets[i], periods,
					   info->extack);
		if (ret)
			return ret;
	}
	if (t->nstreams && sp_trace_streams_size(t) > U16_MAX) {
		GENL_SET_ERR_MSG(info,
				 "the name tables do not fit one STREAMS attribute");
		return -E2BIG;
	}
	if (!t->nstreams) {
		if (attrs[SPARKPERF_A_TRACE_GLOBS])
			NL_SET_ERR_MSG_ATTR(info->extack,
					    attrs[SPARKPERF_A_TRACE_GLOBS],
					    "the globs select no counter");
		else
			GENL_SET_ERR_MSG(info, "the targets have no counter");
		return -ENOENT;
	}
	return 0;
}

static struct sp_trace *sp_trace_alloc(struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct sp_trace *t;
	int ret;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	kref_init(&t->ref);
	INIT_LIST_HEAD(&t->claim);
	INIT_LIST_HEAD(&t->live);
	init_completion(&t->done);
	mutex_init(&t->table_lock);
	mutex_init(&t->rdma_lock);
	spin_lock_init(&t->lock);
	t->portid = info->snd_portid;
	t->state = SPARKPERF_TRACE_STATE_RUNNING;
	t->duration_ms = sp_attr_u32(attrs, SPARKPERF_A_TRACE_DURATION_MS, 0);
	t->buffer_bytes = sp_attr_u32(attrs, SPARKPERF_A_TRACE_BUFFER_BYTES,
				      SPARKPERF_TRACE_BUFFER_DEFAULT);
	t->batch_ms = sp_attr_u32(attrs, SPARKPERF_A_TRACE_BATCH_MS,
				  SPARKPERF_TRACE_BATCH_MS_DEFAULT);

	t->globs = kzalloc(sizeof(*t->globs), GFP_KERNEL);
	if (!t->globs) {
		ret = -ENOMEM;
		goto err;
	}
	if (attrs[SPARKPERF_A_TRACE_GLOBS]) {
		ret = sp_globs_parse(t->globs, attrs[SPARKPERF_A_TRACE_GLOBS],
				     info->extack);
		if (ret)
			goto err;
	}
	ret = sp_trace_open_targets(t, info);
	if (!ret)
		ret = sp_trace_select(t, info);
	if (!ret)
		ret = sp_trace_alloc_ring(t, info);
	if (ret)
		goto err;
	return t;

err:
	sp_trace_put(t);
	return ERR_PTR(ret);
}

/*
 * Whether the devices of @t (its RDMA devices, or its netdevs) are still
 * there: an RDMA device checked under sp_traces_start_lock (not under
 * sp_traces_lock: device.c's registry lock is taken around calls that
 * take rtnl) and removed later finds the trace on the live list, so does
 * a netdev checked under sp_traces_lock (its notifier takes the lock
 * after the netdev's state changed).
 */
static int sp_trace_check_devices(struct sp_trace *t, bool rdma,
				  struct netlink_ext_ack *extack)
{
	unsigned int i;

	for (i = 0; i < t->ntargets; i++) {
		struct sp_target *tg = &t->targets[i];

		if (tg->is_rdma != rdma ||
		    (rdma ? sp_device_present(tg->ibdev) :
		     READ_ONCE(tg->dev->reg_state) == NETREG_REGISTERED))
			continue;
		sp_set_err_msg_fmt(extack, "a traced device went away",
				   "%s went away", tg->name);
		return -ENODEV;
	}
	return 0;
}

/* Registers @t and starts its thread, with a reference for the registry. */
static int sp_trace_register(struct sp_trace *t, struct genl_info *info)
{
	struct task_struct *thread;
	int ret;

	mutex_lock(&sp_traces_start_lock);
	ret = sp_trace_check_devices(t, true, info->extack);
	if (ret) {
		mutex_unlock(&sp_traces_start_lock);
		return ret;
	}
	mutex_lock(&sp_traces_lock);
	if (sp_traces_closed) {
		ret = -ESHUTDOWN;
		goto out;
	}
	if (sp_traces_count >= SPARKPERF_TRACES_MAX) {
		GENL_SET_ERR_MSG(info, "too many traces");
		ret = -ENOSPC;
		goto out;
	}
	ret = sp_trace_check_devices(t, false, info->extack);
	if (ret)
		goto out;
	ret = xa_alloc_cyclic(&sp_traces, &t->id, t, XA_LIMIT(1, U32_MAX),
			      &sp_traces_next, GFP_KERNEL);
	if (ret < 0)
		goto out;
	thread = kthread_create(sp_trace_thread, t, "sparkperf-t%u", t->id);
	if (IS_ERR(thread)) {
		xa_erase(&sp_traces, t->id);
		ret = PTR_ERR(thread);
		goto out;
	}
	get_task_struct(thread);
	t->thread = thread;
	kref_get(&t->ref);
	list_add_tail(&t->live, &sp_traces_live);
	sp_traces_count++;
	pr_debug("trace %u created\n", t->id);
	sp_trace_set_grid(t, ktime_get_ns());
	wake_up_process(thread);
	ret = 0;
out:
	mutex_unlock(&sp_traces_lock);
	mutex_unlock(&sp_traces_start_lock);
	return ret;
}

static int sp_trace_reply(struct sp_trace *t, struct genl_info *info, u8 cmd)
{
	struct sk_buff *reply;
	int ret;

	reply = genlmsg_new(sp_trace_msg_size(t), GFP_KERNEL);
	if (!reply)
		return -ENOMEM;
	ret = sp_trace_fill(reply, t, info->snd_portid, info->snd_seq, 0, cmd);
	if (ret) {
		nlmsg_free(reply);
		return ret;
	}
	return genlmsg_reply(reply, info);
}

int sp_trace_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sp_trace *t;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_TRACE_TARGETS))
		return -EINVAL;
	t = sp_trace_alloc(info);
	if (IS_ERR(t))
		return PTR_ERR(t);
	ret = sp_trace_register(t, info);
	if (!ret)
		ret = sp_trace_reply(t, info, SPARKPERF_CMD_TRACE_START);
	sp_trace_put(t);
	return ret;
}

/* The trace by the id in @info, with a reference, or NULL (and extack). */
static struct sp_trace *sp_trace_get(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[SPARKPERF_A_TRACE_ID];
	struct sp_trace *t;

	mutex_lock(&sp_traces_lock);
	t = xa_load(&sp_traces, nla_get_u32(attr));
	if (t)
		kref_get(&t->ref);
	mutex_unlock(&sp_traces_lock);
	if (!t)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no trace with this id");
	return t;
}

int sp_trace_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sp_trace *t;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_TRACE_ID))
		return -EINVAL;
	t = sp_trace_get(info);
	if (!t)
		return -ENOENT;
	/* The same word as STOP: the thread sees CLOSE when it sees STOP. */
	set_bit(SP_TRACE_CLOSE, &t->flags);
	set_bit(SP_TRACE_STOP, &t->flags);
	wake_up_process(t->thread);
	/* Answer once the trace has ended; a read in progress is short. */
	wait_for_completion_killable_timeout(&t->done, SP_STOP_TIMEOUT_S * HZ);
	sp_trace_put(t);
	return 0;
}

int sp_trace_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sp_trace *t;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_TRACE_ID))
		return -EINVAL;
	t = sp_trace_get(info);
	if (!t)
		return -ENOENT;
	ret = sp_trace_reply(t, info, SPARKPERF_CMD_TRACE_GET);
	sp_trace_put(t);
	return ret;
}

/* Every message must fit a dump's buffer: room for the largest trace. */
int sp_trace_get_start(struct netlink_callback *cb)
{
	struct sp_trace *t;
	unsigned long index;
	size_t size = 0;

	mutex_lock(&sp_traces_lock);
	xa_for_each(&sp_traces, index, t)
		size = max(size, sp_trace_msg_size(t));
	mutex_unlock(&sp_traces_lock);
	cb->min_dump_alloc = nlmsg_total_size(GENL_HDRLEN + size);
	return 0;
}

int sp_trace_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_trace_dump_ctx *ctx = (struct sp_trace_dump_ctx *)cb->ctx;
	struct sp_trace *t;
	unsigned long index;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	mutex_lock(&sp_traces_lock);
	xa_for_each_start(&sp_traces, index, t, ctx->next_id) {
		ret = sp_trace_fill(skb, t, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI,
				    SPARKPERF_CMD_TRACE_GET);
		if (ret)
			break;
		ctx->next_id = index + 1;
	}
	mutex_unlock(&sp_traces_lock);

	if (ret == -EMSGSIZE && skb->len)
		ret = 0;
	return ret ?: skb->len;
}

int sp_trace_samples_start(struct netlink_callback *cb)
{
	struct sp_trace_samples_ctx *ctx = (struct sp_trace_samples_ctx *)cb->ctx;
	struct nlattr **attrs = sp_dump_attrs(cb);
	struct sp_trace *t;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	if (NL_REQ_ATTR_CHECK(cb->extack, NULL, attrs, SPARKPERF_A_TRACE_ID))
		return -EINVAL;
	ctx->id = nla_get_u32(attrs[SPARKPERF_A_TRACE_ID]);

	mutex_lock(&sp_traces_lock);
	t = xa_load(&sp_traces, ctx->id);
	if (t) {
		spin_lock(&t->lock);
		ctx->end = t->head;
		ctx->next = attrs[SPARKPERF_A_TRACE_CURSOR] ?
			    nla_get_u64(attrs[SPARKPERF_A_TRACE_CURSOR]) :
			    sp_trace_oldest(t);
		spin_unlock(&t->lock);
		/* Every message must hold at least one sample. */
		cb->min_dump_alloc = t->sample_size;
	}
	mutex_unlock(&sp_traces_lock);
	if (!t) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[SPARKPERF_A_TRACE_ID],
				    "no trace with this id");
		return -ENOENT;
	}
	return 0;
}

int sp_trace_samples_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_trace_samples_ctx *ctx = (struct sp_trace_samples_ctx *)cb->ctx;
	struct sp_trace *t;
	int ret = 0;
	void *hdr;

	mutex_lock(&sp_traces_lock);
	t = xa_load(&sp_traces, ctx->id);
	if (!t) {
		ret = -ENOENT;
		goto out;
	}
	for (;;) {
		hdr = sp_genl_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI,
				  SPARKPERF_CMD_TRACE_SAMPLES);
		if (!hdr) {
			ret = -EMSGSIZE;
			break;
		}
		ret = sp_trace_put_samples(skb, t, &ctx->next, ctx->end);
		if (ret <= 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
out:
	mutex_unlock(&sp_traces_lock);

	if (ret == -EMSGSIZE && skb->len)
		ret = 0;
	return ret ?: skb->len;
}

int __init sp_trace_init(void)
{
	int ret;

	ret = netlink_register_notifier(&sp_trace_netlink_nb);
	if (ret)
		return ret;
	ret = register_netdevice_notifier(&sp_trace_netdev_nb);
	if (ret)
		netlink_unregister_notifier(&sp_trace_netlink_nb);
	return ret;
}

/*
 * Refuses new traces, destroys every trace, then lets go of netdev
 * events (whose unregistration replays NETDEV_UNREGISTER for every
 * netdev: no trace is left to care).
 */
void sp_trace_uninit(void)
{
	LIST_HEAD(list);

	netlink_unregister_notifier(&sp_trace_netlink_nb);
	mutex_lock(&sp_traces_lock);
	sp_traces_closed = true;
	sp_trace_claim(&list, true, 0);
	mutex_unlock(&sp_traces_lock);
	sp_trace_destroy_list(&list);
	unregister_netdevice_notifier(&sp_trace_netdev_nb);
}
