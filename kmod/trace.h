/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traces: the registry of traces and their netlink commands. A trace's
 * sampler (sampler.c) reads the streams of its targets (counters.c) on
 * absolute deadlines into a ring, and multicasts batches.
 */
#ifndef SP_TRACE_H
#define SP_TRACE_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "rdma.h"

struct genl_info;
struct ib_device;
struct netlink_callback;
struct sk_buff;
struct sp_globs;
struct sp_stream;
struct sp_target;
struct task_struct;

/* The bits of sp_trace.flags. */
enum {
	SP_TRACE_STOP,			/* stopped or failed: end the loop */
	SP_TRACE_CLOSE,			/* by TRACE_STOP: close with a read */
};

struct sp_trace {
	struct kref ref;
	struct list_head claim;		/* on a list of traces to destroy */
	struct list_head live;		/* on sp_traces_live, see the top */
	u32 id;
	u32 portid;			/* the netlink socket that owns it */
	struct task_struct *thread;
	struct completion done;		/* the thread is done */
	unsigned long flags;
	struct sp_globs *globs;

	u32 duration_ms;		/* 0: until stopped */
	u32 buffer_bytes;
	u32 batch_ms;
	unsigned int ntargets;
	unsigned int nstreams;
	struct sp_target *targets;
	struct sp_stream *streams;

	void *ring;
	u32 nslots;
	u32 slot_cap;			/* values per slot */
	size_t slot_size;
	size_t sample_size;		/* of one sample in a message */
	struct work_struct batch_work;	/* multicasts off the deadlines */
	u64 batch_next;			/* the batch's: next to multicast */
	u64 end_ns;			/* the thread's: reads from here close */

	struct mutex table_lock;	/* the streams' names, map, count */
	struct mutex rdma_lock;		/* the targets' ibdev and hw */
	spinlock_t lock;		/* what follows, streams, ring, dev */
	u8 state;			/* enum sparkperf_trace_state */
	int error;
	char error_msg[SP_MSG_LEN];
	u64 start_ns;
	u64 last_ns;			/* of the last sample */
	u64 cpu_ns;			/* thread_cpu_ns + batch_cpu_ns */
	u64 thread_cpu_ns;
	u64 batch_cpu_ns;
	u64 head;			/* the next sample's sequence number */
};

int sp_trace_init(void);
void sp_trace_uninit(void);

void sp_trace_device_removed(struct ib_device *ibdev);

int sp_trace_start_doit(struct sk_buff *skb, struct genl_info *info);
int sp_trace_stop_doit(struct sk_buff *skb, struct genl_info *info);
int sp_trace_get_doit(struct sk_buff *skb, struct genl_info *info);
int sp_trace_get_start(struct netlink_callback *cb);
int sp_trace_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int sp_trace_samples_start(struct netlink_callback *cb);
int sp_trace_samples_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/* For the sampler's thread: the multicasts at a table change and at the end. */
void sp_trace_notify_table(struct sp_trace *t, const struct sp_stream *st);
void sp_trace_notify_end(struct sp_trace *t);
void sp_trace_detach(struct sp_trace *t);

#endif /* SP_TRACE_H */
