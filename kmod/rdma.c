// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel rdma_cm connections: buffers, their fast-registration MRs, the
 * RC queue pair with one busy-polled CQ, and the connection's wire format.
 *
 * Remote access goes through a real MR per buffer, registered with
 * IB_WR_REG_MR and zero-based, never through the device's global rkey: a
 * server accepts any client, and a client's rkey must expose its own
 * buffer only. Relaxed ordering is never asked for, since the write test
 * polls the last byte of a buffer the peer writes.
 */

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait_bit.h>
#include <rdma/rdma_cm.h>
#include <linux/sparkperf.h>

#include "fault.h"
#include "rdma.h"

/*
 * How long a connection waits for an answer: the device's to a
 * registration, the peer's "ready", the echo of a round trip, the answer
 * to a run's end. 5 s is ample on any real link; a kernel whose KASAN and
 * lockdep run under emulation (make debug-check) can take longer than
 * that to register 8 MiB, or to move it.
 */
static unsigned int answer_timeout_ms = 5000;

static int sp_answer_timeout_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 100, 600000);
}

static const struct kernel_param_ops sp_answer_timeout_ops = {
	.set = sp_answer_timeout_set,
	.get = param_get_uint,
};

module_param_cb(answer_timeout_ms, &sp_answer_timeout_ops, &answer_timeout_ms,
		0644);
MODULE_PARM_DESC(answer_timeout_ms,
		 "how long to wait for a peer's or the device's answer, 100..600000 (default 5000)");

/* Pages in one MR at most: rxe registers 512, some devices fewer. */
#define SP_MR_PAGES_MAX 256
/* Inline data asked for; the device may grant less, or none. */
#define SP_INLINE_WANTED 220

/*
 * Minimum RNR NAK timer of bandwidth QPs (0.16 ms): a receiver that falls
 * behind its peer's SENDs holds them up briefly, not for the default
 * 655 ms.
 */
#define SP_BW_RNR_TIMER IB_RNR_TIMER_000_16

static const char * const sp_wr_names[SP_WR_MAX] = {
	[SP_WR_REG] = "REG_MR",
	[SP_WR_WRITE] = "RDMA_WRITE",
	[SP_WR_WRITE_IMM] = "RDMA_WRITE_WITH_IMM",
	[SP_WR_READ] = "RDMA_READ",
	[SP_WR_SEND] = "SEND",
	[SP_WR_READY] = "SEND (ready)",
	[SP_WR_FIN] = "SEND_WITH_IMM (end of run)",
	[SP_WR_RECV] = "RECV",
	[SP_WR_RECV_READY] = "RECV (ready)",
};

static const enum ib_wr_opcode sp_wr_opcodes[SP_WR_RECV] = {
	[SP_WR_WRITE] = IB_WR_RDMA_WRITE,
	[SP_WR_WRITE_IMM] = IB_WR_RDMA_WRITE_WITH_IMM,
	[SP_WR_READ] = IB_WR_RDMA_READ,
	[SP_WR_SEND] = IB_WR_SEND,
	[SP_WR_READY] = IB_WR_SEND,
	[SP_WR_FIN] = IB_WR_SEND_WITH_IMM,
};

static void sp_buf_free(struct sp_buf *buf)
{
	unsigned int i;

	if (buf->sgt.sgl)
		sg_free_table(&buf->sgt);
	if (buf->chunks) {
		for (i = 0; i < buf->nchunks && buf->chunks[i]; i++)
			__free_pages(buf->chunks[i], get_order(buf->chunk));
		kvfree(buf->chunks);
	}
	memset(buf, 0, sizeof(*buf));
}

static int sp_buf_alloc(struct sp_buf *buf, size_t size, int node)
{
	struct scatterlist *sg;
	unsigned int i, order;
	size_t left = size;
	int ret;

	memset(buf, 0, sizeof(*buf));
	buf->size = size;
	buf->chunk = max_t(size_t, PAGE_SIZE,
			   roundup_pow_of_two(DIV_ROUND_UP(size,
							   SP_MR_PAGES_MAX)));
	buf->nchunks = DIV_ROUND_UP(size, buf->chunk);
	order = get_order(buf->chunk);

	buf->chunks = kvcalloc(buf->nchunks, sizeof(*buf->chunks), GFP_KERNEL);
	if (!buf->chunks)
		return -ENOMEM;
	for (i = 0; i < buf->nchunks; i++) {
		buf->chunks[i] = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO |
						  __GFP_NOWARN, order);
		if (!buf->chunks[i]) {
			ret = -ENOMEM;
			goto err;
		}
	}

	ret = sg_alloc_table(&buf->sgt, buf->nchunks, GFP_KERNEL);
	if (ret)
		goto err;
	for_each_sgtable_sg(&buf->sgt, sg, i) {
		size_t len = min_t(size_t, left, buf->chunk);

		sg_set_page(sg, buf->chunks[i], len, 0);
		left -= len;
	}

	buf->head = page_address(buf->chunks[0]);
	buf->tail = (u8 *)page_address(buf->chunks[buf->nchunks - 1]) +
		    (size - 1) % buf->chunk;
	return 0;

err:
	sp_buf_free(buf);
	return ret;
}

/*
 * The validation pattern: byte o of a message is byte o % 8 of the
 * little-endian value sp_pattern(o / 8), the same on every host, so that
 * data moved to another offset is caught too.
 */
static u64 sp_pattern(u64 word)
{
	return (word + 1) * 0x9e3779b97f4a7c15ULL;
}

/*
 * Fills (@fill) or checks @len bytes of @buf from @off (a multiple of 8)
 * against the pattern, chunk by chunk (chunks are not virtually
 * contiguous, but each holds whole words): false on the first mismatch.
 */
static bool sp_buf_pattern(struct sp_buf *buf, size_t off, size_t len,
			   bool fill)
{
	size_t pos, stop, end = off + len, i, n;

	for (pos = off; pos < end; pos = stop) {
		u8 *p = (u8 *)page_address(buf->chunks[pos / buf->chunk]) +
			pos % buf->chunk;
		u64 word = (pos - off) / 8;
		__le64 *w = (__le64 *)p;
		__le64 last;

		stop = min_t(size_t, round_down(pos, buf->chunk) + buf->chunk,
			     end);
		n = (stop - pos) / 8;
		for (i = 0; i < n; i++) {
			__le64 v = cpu_to_le64(sp_pattern(word + i));

			if (fill)
				w[i] = v;
			else if (w[i] != v)
				return false;
		}
		/* A last, partial word: only at the end of the range. */
		if (pos + n * 8 == stop)
			continue;
		last = cpu_to_le64(sp_pattern(word + n));
		if (fill)
			memcpy(p + n * 8, &last, stop - pos - n * 8);
		else if (memcmp(p + n * 8, &last, stop - pos - n * 8))
			return false;
	}
	return true;
}

/*
 * Hands @len bytes of @buf from @off to the CPU (@cpu) or back to the
 * device, along the DMA segments the MR maps in order.
 */
static void sp_buf_sync(struct sp_rconn *rc, struct sp_buf *buf, size_t off,
			size_t len, bool cpu)
{
	struct device *dma = rc->ibdev->dma_device;
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(&buf->sgt, sg, i) {
		size_t n, seg = sg_dma_len(sg);

		if (off >= seg) {
			off -= seg;
			continue;
		}
		n = min(len, seg - off);
		if (cpu)
			dma_sync_single_range_for_cpu(dma, sg_dma_address(sg),
						      off, n,
						      DMA_BIDIRECTIONAL);
		else
			dma_sync_single_range_for_device(dma,
							 sg_dma_address(sg),
							 off, n,
							 DMA_BIDIRECTIONAL);
		len -= n;
		off = 0;
		if (!len)
			break;
	}
}

/* Whether the message the device placed in receive slot @slot is intact. */
bool sp_rconn_check(struct sp_rconn *rc, u32 slot)
{
	struct sp_buf *buf = &rc->rbuf;
	size_t off = slot * rc->lo.stride;
	bool ok;

	if (buf->sync)
		sp_buf_sync(rc, buf, off, rc->lo.size, true);
	ok = sp_buf_pattern(buf, off, rc->lo.size, false);
	if (buf->sync)
		sp_buf_sync(rc, buf, off, rc->lo.size, false);
	return ok;
}

/*
 * The buffers of a test of @size-byte messages on either side. Without
 * validation one message's room each: data may land on data. With it,
 * the side that receives keeps a slot per message in flight (rdma.h),
 * and the side whose buffer is sent or read holds the pattern
 * SP_CORRUPT_SHIFT bytes longer.
 */
void sp_layout_init(struct sp_layout *lo, u8 kind, u8 op, u8 wflags,
		    u32 depth, u32 size, bool server)
{
	bool bidir = wflags & SP_WIRE_F_BIDIR;

	lo->size = size;
	lo->slots = 1;
	lo->peer_slots = 1;
	lo->stride = size;
	lo->sbuf_bytes = size;
	lo->rbuf_bytes = size;
	if (kind != SP_WIRE_BW || !(wflags & SP_WIRE_F_VALIDATE))
		return;

	lo->stride = ALIGN(size, SP_SLOT_ALIGN);
	if (op == SPARKPERF_LAT_OP_READ) {
		/* The server's receive buffer is what the client reads. */
		if (server)
			lo->rbuf_bytes = size + SP_CORRUPT_SHIFT;
		else
			lo->slots = depth;
	} else {
		lo->sbuf_bytes = size + SP_CORRUPT_SHIFT;
		if (server || bidir)
			lo->slots = SP_RECV_SLOTS(depth);
		if (!server || bidir)
			lo->peer_slots = SP_RECV_SLOTS(depth);
	}
	if (lo->slots > 1)
		lo->rbuf_bytes = lo->slots * lo->stride;
}

/*
 * Both buffers of @rc, whose test (kind, op, wflags, depth, server) is
 * set, for @size-byte messages, on @node. A validating side's patterns
 * are written here, before the buffers are mapped.
 */
int sp_rconn_alloc(struct sp_rconn *rc, u32 size, int node)
{
	struct sp_layout *lo = &rc->lo;
	int ret;

	sp_layout_init(lo, rc->kind, rc->op, rc->wflags, rc->depth, size,
		       rc->server);
	ret = sp_buf_alloc(&rc->sbuf, lo->sbuf_bytes, node);
	if (!ret)
		ret = sp_buf_alloc(&rc->rbuf, lo->rbuf_bytes, node);
	if (ret)
		return ret;
	if (rc->kind != SP_WIRE_BW || !(rc->wflags & SP_WIRE_F_VALIDATE))
		return 0;
	/* What we send, or what the client reads from us. */
	if (rc->op != SPARKPERF_LAT_OP_READ)
		sp_buf_pattern(&rc->sbuf, 0, lo->sbuf_bytes, true);
	else if (rc->server)
		sp_buf_pattern(&rc->rbuf, 0, lo->rbuf_bytes, true);
	rc->corrupt_every = sp_fault_corrupt_every();
	rc->corrupt_left = rc->corrupt_every;
	return 0;
}

void sp_rconn_free(struct sp_rconn *rc)
{
	sp_buf_free(&rc->rbuf);
	sp_buf_free(&rc->sbuf);
}

/* The DMA address of the buffer's last byte needs CPU cache syncs. */
static bool sp_buf_needs_sync(struct sp_rconn *rc, struct sp_buf *buf)
{
	struct scatterlist *sg, *last = NULL;
	unsigned int i;

	if (ib_uses_virt_dma(rc->ibdev))
		return false;
	for_each_sgtable_dma_sg(&buf->sgt, sg, i)
		last = sg;
	return last && dma_need_sync(rc->ibdev->dma_device,
				     sg_dma_address(last) +
				     sg_dma_len(last) - 1);
}

static int sp_buf_map(struct sp_rconn *rc, struct sp_buf *buf, int access)
{
	const struct ib_device_attr *attrs = &rc->ibdev->attrs;
	int ret, n;

	if (buf->nchunks > attrs->max_fast_reg_page_list_len ||
	    buf->size > attrs->max_mr_size) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "%zu bytes need %u pages of %u bytes in one MR, %s registers at most %u",
			 buf->size, buf->nchunks, buf->chunk,
			 dev_name(&rc->ibdev->dev),
			 attrs->max_fast_reg_page_list_len);
		return -E2BIG;
	}

	ret = ib_dma_map_sgtable_attrs(rc->ibdev, &buf->sgt, DMA_BIDIRECTIONAL,
				       0);
	if (ret) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "cannot map %zu bytes for DMA: %d", buf->size, ret);
		return ret;
	}
	buf->mapped = true;
	buf->sync = sp_buf_needs_sync(rc, buf);

	if (rc->kind == SP_WIRE_LAT && rc->op == SPARKPERF_LAT_OP_WRITE &&
	    buf->sync) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "DMA to %s needs cache syncs, the write test polls memory",
			 dev_name(&rc->ibdev->dev));
		return -EOPNOTSUPP;
	}

	buf->mr = ib_alloc_mr(rc->pd, IB_MR_TYPE_MEM_REG, buf->nchunks);
	if (IS_ERR(buf->mr)) {
		ret = PTR_ERR(buf->mr);
		buf->mr = NULL;
		snprintf(rc->msg, sizeof(rc->msg),
			 "cannot allocate an MR of %u pages: %d", buf->nchunks,
			 ret);
		return ret;
	}

	n = ib_map_mr_sg(buf->mr, buf->sgt.sgl, buf->sgt.nents, NULL,
			 buf->chunk);
	if (n != buf->sgt.nents) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "cannot map %zu bytes into an MR: %d of %u segments",
			 buf->size, n, buf->sgt.nents);
		return n < 0 ? n : -EINVAL;
	}
	/* Zero-based: the peer learns offsets, not our addresses. */
	buf->mr->iova = 0;
	ib_update_fast_reg_key(buf->mr, ib_inc_rkey(buf->mr->rkey));
	buf->access = access;
	return 0;
}

static void sp_buf_unmap(struct sp_rconn *rc, struct sp_buf *buf)
{
	if (buf->mr) {
		ib_dereg_mr(buf->mr);
		buf->mr = NULL;
	}
	if (buf->mapped) {
		ib_dma_unmap_sgtable_attrs(rc->ibdev, &buf->sgt,
					   DMA_BIDIRECTIONAL, 0);
		buf->mapped = false;
	}
}

/* What the peer may do with our receive buffer. */
static int sp_rbuf_access(const struct sp_rconn *rc)
{
	switch (rc->op) {
	case SPARKPERF_LAT_OP_WRITE:
		return IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	case SPARKPERF_LAT_OP_READ:
		return rc->server ? IB_ACCESS_REMOTE_READ :
				    IB_ACCESS_LOCAL_WRITE;
	default:
		return IB_ACCESS_LOCAL_WRITE;
	}
}

/*
 * Whether the peer's data messages consume our receives: its SENDs, and
 * its RDMA WRITEs with immediate (latency writes but last-byte ones, a
 * bandwidth client's when it validates or runs both ways, all of a
 * bandwidth server's).
 */
static bool sp_rconn_receives_data(const struct sp_rconn *rc)
{
	if (rc->kind == SP_WIRE_LAT)
		return rc->op == SPARKPERF_LAT_OP_SEND ||
		       (rc->op == SPARKPERF_LAT_OP_WRITE &&
			!(rc->wflags & SP_WIRE_F_LAST_BYTE));
	if (rc->op == SPARKPERF_LAT_OP_READ)
		return false;
	if (rc->server)
		return rc->op == SPARKPERF_LAT_OP_SEND || rc->wflags;
	return rc->wflags & SP_WIRE_F_BIDIR;
}

/*
 * The queues' sizes. A bandwidth QP has DEPTH data WRs in flight, plus
 * "ready" and the fin or its answer; twice DEPTH receives, so that a
 * receiver reposting a little late does not hold the sender up, plus one
 * for the fin or its answer. Every queue keeps one slot for the drain.
 */
static int sp_rconn_depths(struct sp_rconn *rc, struct ib_qp_cap *cap)
{
	const struct ib_device_attr *attrs = &rc->ibdev->attrs;
	u32 sq, rq;

	if (rc->kind == SP_WIRE_LAT) {
		rc->rq_data = sp_rconn_receives_data(rc) ? 2 : 0;
		cap->max_send_wr = SP_SQ_DEPTH + 1;
		cap->max_recv_wr = SP_RQ_DEPTH + 1;
		return 0;
	}
	rc->rq_data = (sp_rconn_receives_data(rc) ? 2 * rc->depth : 0) + 1;
	sq = rc->depth + 3;
	rq = rc->rq_data + 2;
	if (sq > attrs->max_qp_wr || rq > attrs->max_qp_wr ||
	    sq + rq > attrs->max_cqe) {
		snprintf(rc->msg, sizeof(rc->msg),
			 "depth %u needs %u send and %u receive work requests and %u CQ entries, %s allows %d and %d",
			 rc->depth, sq, rq, sq + rq, dev_name(&rc->ibdev->dev),
			 attrs->max_qp_wr, attrs->max_cqe);
		return -EINVAL;
	}
	cap->max_send_wr = sq;
	cap->max_recv_wr = rq;
	return 0;
}

/*
 * PD, CQ, QP and the MRs of both buffers (already allocated by the
 * caller) for the connection on @id, whose device is known. A client also
 * posts the receive for the server's "ready". On failure rc->msg says why;
 * sp_rconn_destroy() frees what was made.
 */
int sp_rconn_create(struct sp_rconn *rc, struct rdma_cm_id *id)
{
	struct ib_qp_init_attr attr = {
		.qp_context = rc,
		.cap = {
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = SP_INLINE_WANTED,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};
	int ret;

	rc->id = id;
	rc->ibdev = id->device;
	rc->answer_ms = READ_ONCE(answer_timeout_ms);
	ret = sp_rconn_depths(rc, &attr.cap);
	if (ret)
		return ret;
	if (rc->kind == SP_WIRE_BW) {
		ret = rdma_set_min_rnr_timer(id, SP_BW_RNR_TIMER);
		if (ret) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "cannot set the RNR timer: %d", ret);
			return ret;
		}
	}

	rc->pd = ib_alloc_pd(rc->ibdev, 0);
	if (IS_ERR(rc->pd)) {
		ret = PTR_ERR(rc->pd);
		rc->pd = NULL;
		snprintf(rc->msg, sizeof(rc->msg), "cannot allocate a PD: %d",
			 ret);
		return ret;
	}

	rc->cq = ib_alloc_cq(rc->ibdev, rc,
			     attr.cap.max_send_wr + attr.cap.max_recv_wr, 0,
			     IB_POLL_DIRECT);
	if (IS_ERR(rc->cq)) {
		ret = PTR_ERR(rc->cq);
		rc->cq = NULL;
		snprintf(rc->msg, sizeof(rc->msg), "cannot allocate a CQ: %d",
			 ret);
		return ret;
	}

	attr.send_cq = rc->cq;
	attr.recv_cq = rc->cq;
	ret = rdma_create_qp(id, rc->pd, &attr);
	if (ret) {
		/* Some devices refuse inline data; do without. */
		attr.cap.max_inline_data = 0;
		ret = rdma_create_qp(id, rc->pd, &attr);
	}
	if (ret) {
		snprintf(rc->msg, sizeof(rc->msg), "cannot create a QP: %d",
			 ret);
		return ret;
	}
	rc->qp = id->qp;
	rc->max_inline = attr.cap.max_inline_data;

	ret = sp_buf_map(rc, &rc->sbuf, IB_ACCESS_LOCAL_WRITE);
	if (!ret)
		ret = sp_buf_map(rc, &rc->rbuf, sp_rbuf_access(rc));
	if (ret)
		return ret;

	if (!rc->server)
		return sp_rconn_post_recv(rc, false, 1);
	return 0;
}

/*
 * Before the QP goes, as ib_drain_qp() does (which needs completions that
 * carry a cqe): in the error state whatever is queued completes flushed,
 * and one more work request on each queue marks the end. The driver is
 * then done with the QP's queues: soft-RoCE's tasks still sending on a QP
 * being destroyed trip a WARN in rxe_sched_task on 7.x, and a NIC could
 * complete into the freed CQ. Bounded, as a dead device flushes nothing.
 */
static void sp_rconn_drain(struct sp_rconn *rc)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct ib_rdma_wr swr = {
		.wr = {
			.wr_id = SP_WR_ID_DRAIN_SEND,
			.opcode = IB_WR_RDMA_WRITE,
			.send_flags = IB_SEND_SIGNALED,
		},
	};
	struct ib_recv_wr rwr = { .wr_id = SP_WR_ID_DRAIN_RECV };
	unsigned long end = jiffies + msecs_to_jiffies(SP_DRAIN_MS);
	unsigned int pending = 0;
	struct ib_wc wc[8];
	int i, n;

	if (ib_modify_qp(rc->qp, &attr, IB_QP_STATE))
		return;
	if (!ib_post_send(rc->qp, &swr.wr, NULL))
		pending++;
	if (!ib_post_recv(rc->qp, &rwr, NULL))
		pending++;
	while (pending && time_before(jiffies, end)) {
		n = ib_poll_cq(rc->cq, ARRAY_SIZE(wc), wc);
		if (n < 0)
			break;
		for (i = 0; i < n; i++)
			if (wc[i].wr_id == SP_WR_ID_DRAIN_SEND ||
			    wc[i].wr_id == SP_WR_ID_DRAIN_RECV)
				pending--;
		if (!n)
			usleep_range(50, 100);
	}
	if (pending)
		pr_debug("%s: QP %u not drained after %u ms\n",
			 dev_name(&rc->ibdev->dev), rc->qp->qp_num, SP_DRAIN_MS);
}

/*
 * From the cm handler: the peer disconnected, or answered this side's
 * disconnection. Either way its QP is in the error state (rdma_disconnect()
 * moves it there before it sends the request or the answer), so nothing
 * more is on its way to this side's QP.
 */
void sp_rconn_peer_gone(struct sp_rconn *rc)
{
	set_bit(SP_RC_PEER_GONE, &rc->flags);
	/* Orders the bit before wake_up_var()'s check for waiters. */
	smp_mb__after_atomic();
	wake_up_var(&rc->flags);
}

/*
 * Ends the connection from this side: the QP goes to the error state and
 * the peer is asked to do the same, or, if it asked first, answered. The
 * side that asks first waits for the answer (sp_rconn_wait_peer()) before
 * it destroys its QP.
 */
void sp_rconn_disconnect(struct sp_rconn *rc)
{
	rc->disconnect_ns = test_bit(SP_RC_PEER_GONE, &rc->flags) ?
			    0 : ktime_get_ns();
	rdma_disconnect(rc->id);
}

/*
 * Waits, until @deadline (jiffies), for the peer's answer to
 * sp_rconn_disconnect(), if this side asked first. A QP destroyed while
 * the peer still sends to it races with soft-RoCE's receive path, which
 * schedules the QP's task after it handed the packet, and the packet's
 * reference to the QP, to that task: a WARN in rxe_sched_task() on 7.x,
 * and a QP touched as it is freed. A NIC's peer retries into the void
 * until its retry count runs out. A peer that does not answer (gone,
 * unreachable) costs the wait, and no more.
 */
void sp_rconn_wait_peer(struct sp_rconn *rc, unsigned long deadline)
{
	long left = (long)(deadline - jiffies);
	const char *peer = rc->server ? "client" : "server";

	if (!rc->disconnect_ns)
		return;
	if (!wait_var_event_timeout(&rc->flags,
				    test_bit(SP_RC_PEER_GONE, &rc->flags),
				    max(left, 1L))) {
		pr_debug("%s: QP %u: the %s did not answer the disconnection within %u ms\n",
			 dev_name(&rc->ibdev->dev), rc->qp->qp_num, peer,
			 SP_DISCONNECT_MS);
		return;
	}
	pr_debug("%s: QP %u: the %s answered the disconnection in %llu us\n",
		 dev_name(&rc->ibdev->dev), rc->qp->qp_num, peer,
		 div_u64(ktime_get_ns() - rc->disconnect_ns, NSEC_PER_USEC));
}

/* Idempotent: frees what exists, QP first. The buffers stay allocated. */
void sp_rconn_destroy(struct sp_rconn *rc)
{
	if (rc->qp) {
		sp_rconn_drain(rc);
		rdma_destroy_qp(rc->id);
		rc->qp = NULL;
	}
	if (rc->cq) {
		ib_free_cq(rc->cq);
		rc->cq = NULL;
	}
	if (rc->ibdev) {
		sp_buf_unmap(rc, &rc->rbuf);
		sp_buf_unmap(rc, &rc->sbuf);
	}
	if (rc->pd) {
		ib_dealloc_pd(rc->pd);
		rc->pd = NULL;
	}
	rc->registered = false;
}

/* A failed completion: the error, and what failed in rc->msg. */
int sp_rconn_wc_error(struct sp_rconn *rc, const struct ib_wc *wc)
{
	enum sp_wr what = sp_wr_what(wc->wr_id);

	snprintf(rc->msg, sizeof(rc->msg),
		 "completion error: %s (status %d) on %s, vendor_err 0x%x",
		 ib_wc_status_msg(wc->status), wc->status,
		 what < SP_WR_MAX ? sp_wr_names[what] : "?", wc->vendor_err);
	switch (wc->status) {
	case IB_WC_WR_FLUSH_ERR:
		if (test_bit(SP_RC_PEER_GONE, &rc->flags)) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "the peer closed the connection");
			return -ECONNRESET;
		}
		return -EIO;
	case IB_WC_RETRY_EXC_ERR:
	case IB_WC_RNR_RETRY_EXC_ERR:
		return -ETIMEDOUT;
	default:
		return -EIO;
	}
}

/* Reaps what the CQ holds now: the count, or an error with rc->msg. */
int sp_rconn_poll(struct sp_rconn *rc)
{
	struct ib_wc wc[4];
	int i, n;

	n = ib_poll_cq(rc->cq, ARRAY_SIZE(wc), wc);
	if (n < 0) {
		snprintf(rc->msg, sizeof(rc->msg), "CQ poll failed: %d", n);
		return n;
	}
	for (i = 0; i < n; i++) {
		enum sp_wr what = sp_wr_what(wc[i].wr_id);

		if (wc[i].status != IB_WC_SUCCESS)
			return sp_rconn_wc_error(rc, &wc[i]);
		if (what >= SP_WR_MAX)
			continue;
		rc->done[what]++;
		if (what < SP_WR_RECV)
			rc->sq_posted -= min(rc->sq_posted,
					     sp_wr_retires(wc[i].wr_id));
		if (what == SP_WR_RECV && wc[i].byte_len != rc->lo.size) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "received %u bytes, expected %u",
				 wc[i].byte_len, rc->lo.size);
			return -EPROTO;
		}
	}
	return n;
}

/*
 * Polls until @what has completed @target times in all, sleeping a little
 * between polls: for set-up steps, never inside a measured round trip.
 */
int sp_rconn_wait(struct sp_rconn *rc, enum sp_wr what, unsigned int target,
		  unsigned int timeout_ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(timeout_ms);
	int ret;

	while (rc->done[what] < target) {
		ret = sp_rconn_poll(rc);
		if (ret < 0)
			return ret;
		if (ret)
			continue;
		if (test_bit(SP_RC_ABORT, &rc->flags) ||
		    test_bit(SP_RC_STOP, &rc->flags))
			return -EINTR;
		if (test_bit(SP_RC_PEER_GONE, &rc->flags)) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "the peer closed the connection");
			return -ECONNRESET;
		}
		if (time_after(jiffies, end)) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "no %s completion within %u ms",
				 sp_wr_names[what], timeout_ms);
			return -ETIMEDOUT;
		}
		usleep_range(20, 100);
	}
	return 0;
}

/*
 * Posts @n receives, each into the next slot of the receive buffer
 * (@data) or without one (for "ready"), in chains of SP_POST_CHAIN. A
 * receive queue completes in order, and a receive is posted again only
 * once its message is checked, so the slot it takes is free.
 */
int sp_rconn_post_recv(struct sp_rconn *rc, bool data, unsigned int n)
{
	unsigned int i, chain;
	int ret;

	for (; n; n -= chain) {
		chain = min_t(unsigned int, n, SP_POST_CHAIN);
		for (i = 0; i < chain; i++) {
			struct ib_recv_wr *wr = &rc->rchain[i];
			struct ib_sge *sge = &rc->rsges[i];
			u32 slot = rc->recv_slot;

			wr->next = i + 1 < chain ? &rc->rchain[i + 1] : NULL;
			wr->wr_id = SP_WR_ID(data ? SP_WR_RECV : SP_WR_RECV_READY,
					     slot);
			wr->sg_list = data ? sge : NULL;
			wr->num_sge = data ? 1 : 0;
			if (!data)
				continue;
			sge->addr = rc->rbuf.mr->iova + slot * rc->lo.stride;
			sge->length = rc->lo.size;
			sge->lkey = rc->rbuf.mr->lkey;
			if (++rc->recv_slot == rc->lo.slots)
				rc->recv_slot = 0;
		}
		ret = ib_post_recv(rc->qp, rc->rchain, NULL);
		if (ret) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "cannot post a receive: %d", ret);
			return ret;
		}
	}
	return 0;
}

/*
 * Where a data WR's message goes: the slot of the peer's buffer a write
 * lands in (named in its immediate), or of ours a read lands in; and
 * whether it is one deliberately corrupted, sent or read from
 * SP_CORRUPT_SHIFT bytes on.
 */
static u32 sp_data_slot(struct sp_rconn *rc, enum sp_wr what, bool *corrupt)
{
	u32 slots = what == SP_WR_READ ? rc->lo.slots : rc->lo.peer_slots;
	u32 slot = rc->data_slot;

	if (++rc->data_slot >= slots)
		rc->data_slot = 0;
	*corrupt = rc->corrupt_every && !--rc->corrupt_left;
	if (*corrupt)
		rc->corrupt_left = rc->corrupt_every;
	return slot;
}

/*
 * Work request @i of the chain: @what of @len bytes, from the send buffer
 * (into the receive buffer, for a read). With @signal it asks for a
 * completion, which retires it and the unsignaled WRs before it.
 */
static void sp_chain_wr(struct sp_rconn *rc, unsigned int i, enum sp_wr what,
			u32 len, bool signal)
{
	struct sp_buf *buf = what == SP_WR_READ ? &rc->rbuf : &rc->sbuf;
	struct ib_rdma_wr *wr = &rc->chain[i];
	struct ib_sge *sge = &rc->sges[i];
	size_t local = 0, shift = 0;
	bool corrupt = false;
	u32 slot = 0;

	if (len && what != SP_WR_READY && what != SP_WR_FIN) {
		slot = sp_data_slot(rc, what, &corrupt);
		shift = corrupt ? SP_CORRUPT_SHIFT : 0;
	}
	rc->unsignaled++;
	wr->wr.next = NULL;
	if (i)
		rc->chain[i - 1].wr.next = &wr->wr;
	wr->wr.wr_id = SP_WR_ID(what, signal ? rc->unsignaled : 0);
	wr->wr.opcode = sp_wr_opcodes[what];
	wr->wr.send_flags = signal ? IB_SEND_SIGNALED : 0;
	wr->wr.sg_list = len ? sge : NULL;
	wr->wr.num_sge = len ? 1 : 0;
	wr->wr.ex.imm_data = cpu_to_be32(slot);
	wr->remote_addr = rc->remote_addr;
	wr->rkey = rc->remote_rkey;
	if (what == SP_WR_READ) {
		local = slot * rc->lo.stride;
		wr->remote_addr += shift;
	} else {
		local = shift;
		wr->remote_addr += slot * rc->lo.stride;
	}
	if (signal)
		rc->unsignaled = 0;

	sge->addr = buf->mr->iova + local;
	sge->length = len;
	sge->lkey = buf->mr->lkey;
	/* Inline data is copied at post time from a CPU address. */
	if (what != SP_WR_READ && len && len <= rc->max_inline) {
		wr->wr.send_flags |= IB_SEND_INLINE;
		sge->addr = (uintptr_t)buf->head + local;
	}
}

/* Posts chain[0..@n - 1], which then counts as in flight. */
static int sp_chain_post(struct sp_rconn *rc, unsigned int n)
{
	int ret;

	ret = ib_post_send(rc->qp, &rc->chain[0].wr, NULL);
	if (ret) {
		snprintf(rc->msg, sizeof(rc->msg), "cannot post %s: %d",
			 sp_wr_names[sp_wr_what(rc->chain[0].wr.wr_id)], ret);
		return ret;
	}
	rc->sq_posted += n;
	return 0;
}

/* Posts one signaled send-queue WR: write, read, send or ready. */
int sp_rconn_post(struct sp_rconn *rc, enum sp_wr what, u32 len)
{
	sp_chain_wr(rc, 0, what, len, true);
	return sp_chain_post(rc, 1);
}

/*
 * Posts @n data WRs (at most SP_POST_CHAIN) of the whole buffer in one
 * chain: write, write with immediate, read or send. Completion moderation:
 * every rc->signal-th WR asks for a completion, and so does the last one
 * of a run (@last); a completion retires the unsignaled WRs before it too,
 * since an RC send queue completes in order.
 */
int sp_rconn_post_data(struct sp_rconn *rc, enum sp_wr what, unsigned int n,
		       bool last)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		sp_chain_wr(rc, i, what, rc->lo.size,
			    rc->unsignaled + 1 >= rc->signal ||
			    (last && i + 1 == n));
	return sp_chain_post(rc, n);
}

/*
 * A zero-length SEND with immediate @imm: the end of a bandwidth run, or
 * the answer to it. Signaled, it retires the data WRs before it.
 */
int sp_rconn_post_fin(struct sp_rconn *rc, u32 imm)
{
	sp_chain_wr(rc, 0, SP_WR_FIN, 0, true);
	rc->chain[0].wr.ex.imm_data = cpu_to_be32(imm);
	return sp_chain_post(rc, 1);
}

static int sp_post_reg(struct sp_rconn *rc, struct sp_buf *buf)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = SP_WR_ID(SP_WR_REG, 1),
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = buf->mr,
		.key = buf->mr->rkey,
		.access = buf->access,
	};
	int ret;

	ret = ib_post_send(rc->qp, &wr.wr, NULL);
	if (ret) {
		snprintf(rc->msg, sizeof(rc->msg), "cannot post REG_MR: %d",
			 ret);
		return ret;
	}
	rc->sq_posted++;
	return 0;
}

/*
 * Once connected: registers both MRs and waits for it, and posts the data
 * receives the test needs. The server then sends "ready" once it serves:
 * from its thread, so that a client never spins on a peer not yet running.
 */
int sp_rconn_register(struct sp_rconn *rc)
{
	unsigned int target = rc->done[SP_WR_REG] + 2;
	int ret;

	ret = sp_post_reg(rc, &rc->sbuf);
	if (!ret)
		ret = sp_post_reg(rc, &rc->rbuf);
	if (!ret)
		ret = sp_rconn_wait(rc, SP_WR_REG, target, rc->answer_ms);
	if (ret)
		return ret;
	rc->registered = true;

	if (rc->rq_data)
		return sp_rconn_post_recv(rc, true, rc->rq_data);
	return 0;
}

/*
 * Connection parameters of either side. RDMA READs in flight: one is
 * enough for a latency test, a bandwidth test takes what the device allows.
 */
void sp_rconn_conn_param(struct rdma_conn_param *param,
			 const struct sp_rconn *rc, const void *data, u8 len)
{
	const struct ib_device_attr *attrs = &rc->ibdev->attrs;
	int reads = rc->kind == SP_WIRE_BW ? U8_MAX : 1;

	memset(param, 0, sizeof(*param));
	param->private_data = data;
	param->private_data_len = len;
	param->responder_resources = min(reads, attrs->max_qp_rd_atom);
	param->initiator_depth = min(reads, attrs->max_qp_init_rd_atom);
	param->flow_control = 1;
	param->retry_count = 7;
	param->rnr_retry_count = 7;
}

/* The hello of @rc's side: the test, and our receive buffer. */
void sp_wire_hello(struct sp_wire_hello *hello, const struct sp_rconn *rc)
{
	bool remote = rc->op == SPARKPERF_LAT_OP_WRITE ||
		      (rc->op == SPARKPERF_LAT_OP_READ && rc->server);

	/* rdma_cm carries 56 bytes of private data in a request. */
	BUILD_BUG_ON(sizeof(struct sp_wire_hello) != 32);
	memset(hello, 0, sizeof(*hello));
	hello->magic = cpu_to_be32(SP_WIRE_MAGIC);
	hello->version = SP_WIRE_VERSION;
	hello->op = rc->op;
	hello->kind = rc->kind;
	hello->flags = rc->wflags;
	hello->size = cpu_to_be32(rc->lo.size);
	hello->depth = cpu_to_be32(rc->depth);
	hello->signal = cpu_to_be32(rc->signal);
	if (remote) {
		hello->rkey = cpu_to_be32(rc->rbuf.mr->rkey);
		hello->addr = cpu_to_be64(rc->rbuf.mr->iova);
	}
}

/* 0, or -EPROTO with a reason for the peer or the user. */
int sp_wire_parse_hello(struct sp_wire_hello *hello, const void *data,
			u8 len, char *reason, size_t reason_len)
{
	if (!data || len < sizeof(*hello)) {
		snprintf(reason, reason_len, "not a sparkperf peer");
		return -EPROTO;
	}
	memcpy(hello, data, sizeof(*hello));
	if (be32_to_cpu(hello->magic) != SP_WIRE_MAGIC) {
		snprintf(reason, reason_len, "not a sparkperf peer");
		return -EPROTO;
	}
	if (hello->version != SP_WIRE_VERSION) {
		snprintf(reason, reason_len,
			 "protocol version %u, this side speaks %u",
			 hello->version, SP_WIRE_VERSION);
		return -EPROTO;
	}
	if (!hello->op || hello->op > SPARKPERF_LAT_OP_MAX ||
	    !be32_to_cpu(hello->size) ||
	    be32_to_cpu(hello->size) > SPARKPERF_LAT_SIZE_MAX ||
	    (hello->kind != SP_WIRE_LAT && hello->kind != SP_WIRE_BW)) {
		snprintf(reason, reason_len,
			 "test %u, op %u, size %u not supported", hello->kind,
			 hello->op, be32_to_cpu(hello->size));
		return -EPROTO;
	}
	if (hello->kind == SP_WIRE_BW &&
	    (!be32_to_cpu(hello->depth) ||
	     be32_to_cpu(hello->depth) > SPARKPERF_BW_DEPTH_MAX ||
	     !be32_to_cpu(hello->signal) ||
	     be32_to_cpu(hello->signal) > be32_to_cpu(hello->depth) ||
	     (hello->flags & ~SP_WIRE_F_ALL) ||
	     ((hello->flags & SP_WIRE_F_BIDIR) &&
	      hello->op == SPARKPERF_LAT_OP_READ))) {
		snprintf(reason, reason_len,
			 "depth %u, signal %u, flags 0x%x not supported",
			 be32_to_cpu(hello->depth), be32_to_cpu(hello->signal),
			 hello->flags);
		return -EPROTO;
	}
	if (hello->kind == SP_WIRE_LAT &&
	    ((hello->flags & ~SP_WIRE_F_LAST_BYTE) ||
	     (hello->flags && hello->op != SPARKPERF_LAT_OP_WRITE))) {
		snprintf(reason, reason_len,
			 "latency op %u with flags 0x%x not supported",
			 hello->op, hello->flags);
		return -EPROTO;
	}
	return 0;
}

void sp_wire_reject(struct sp_wire_reject *rej, int err, const char *reason)
{
	BUILD_BUG_ON(sizeof(struct sp_wire_reject) > 148);
	memset(rej, 0, sizeof(*rej));
	rej->magic = cpu_to_be32(SP_WIRE_MAGIC);
	rej->version = SP_WIRE_VERSION;
	rej->error = cpu_to_be16(err < 0 ? -err : err);
	strscpy(rej->reason, reason, sizeof(rej->reason));
}

/* A sparkperf reject: its errno and reason (SP_WIRE_REASON_LEN bytes). */
bool sp_wire_parse_reject(const void *data, u8 len, int *err, char *reason)
{
	const struct sp_wire_reject *rej = data;

	if (!data || len < sizeof(*rej) ||
	    be32_to_cpu(rej->magic) != SP_WIRE_MAGIC ||
	    rej->version != SP_WIRE_VERSION)
		return false;
	*err = -(int)be16_to_cpu(rej->error);
	memcpy(reason, rej->reason, SP_WIRE_REASON_LEN);
	reason[SP_WIRE_REASON_LEN - 1] = '\0';
	return true;
}
