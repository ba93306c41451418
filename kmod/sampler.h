/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler of a trace: its ring of samples and the kernel thread that
 * fills it on absolute deadlines and multicasts it in batches.
 */
#ifndef SP_SAMPLER_H
#define SP_SAMPLER_H

#include <linux/compiler.h>
#include <linux/types.h>

struct genl_info;
struct sk_buff;
struct sp_trace;

/* The ring of @t for its streams and BUFFER_BYTES, before the first sample. */
int sp_trace_alloc_ring(struct sp_trace *t, struct genl_info *info);
/* The sequence number of the oldest sample the ring holds; under t->lock. */
u64 sp_trace_oldest(const struct sp_trace *t);
/*
 * The body of a TRACE_SAMPLES message: the samples from *@next up to @end
 * that fit (see sampler.c).
 */
int sp_trace_put_samples(struct sk_buff *skb, struct sp_trace *t, u64 *next,
			 u64 end);

/* The first reason a running trace ends with; stops the thread. */
__printf(3, 4) void sp_trace_fail(struct sp_trace *t, int err,
				  const char *fmt, ...);

/*
 * The grid's origin (START_NS, the first deadline of every stream) and
 * end, set by TRACE_START before it wakes the thread, so that its reply
 * carries them.
 */
void sp_trace_set_grid(struct sp_trace *t, u64 now);

/* The thread of a trace (kthread_create()'s function, @arg the trace). */
int sp_trace_thread(void *arg);

#endif /* SP_SAMPLER_H */
