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
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/rdma_cm.h>
#include <linux/sparkperf.h>

#include "rdma.h"

/* Pages in one MR at most: rxe registers 512, some devices fewer. */
#define SP_MR_PAGES_MAX 256
/* Inline data asked for; the device may grant less, or none. */
#define SP_INLINE_WANTED 220

static const char * const sp_wr_names[SP_WR_MAX] = {
	[SP_WR_REG] = "REG_MR",
	[SP_WR_WRITE] = "RDMA_WRITE",
	[SP_WR_READ] = "RDMA_READ",
	[SP_WR_SEND] = "SEND",
	[SP_WR_READY] = "SEND (ready)",
	[SP_WR_RECV] = "RECV",
	[SP_WR_RECV_READY] = "RECV (ready)",
};

int sp_buf_alloc(struct sp_buf *buf, size_t size, int node)
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

void sp_buf_free(struct sp_buf *buf)
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

	if (rc->op == SPARKPERF_LAT_OP_WRITE && sp_buf_needs_sync(rc, buf)) {
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
			.max_send_wr = SP_SQ_DEPTH,
			.max_recv_wr = SP_RQ_DEPTH,
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

	rc->pd = ib_alloc_pd(rc->ibdev, 0);
	if (IS_ERR(rc->pd)) {
		ret = PTR_ERR(rc->pd);
		rc->pd = NULL;
		snprintf(rc->msg, sizeof(rc->msg), "cannot allocate a PD: %d",
			 ret);
		return ret;
	}

	rc->cq = ib_alloc_cq(rc->ibdev, rc, SP_CQ_DEPTH, 0, IB_POLL_DIRECT);
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
		return sp_rconn_post_recv(rc, false);
	return 0;
}

/* Idempotent: frees what exists, QP first. The buffers stay allocated. */
void sp_rconn_destroy(struct sp_rconn *rc)
{
	if (rc->qp) {
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

static int sp_wc_error(struct sp_rconn *rc, const struct ib_wc *wc)
{
	u64 what = wc->wr_id;

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
		if (wc[i].status != IB_WC_SUCCESS)
			return sp_wc_error(rc, &wc[i]);
		if (wc[i].wr_id >= SP_WR_MAX)
			continue;
		rc->done[wc[i].wr_id]++;
		if (wc[i].wr_id < SP_WR_RECV && rc->sq_posted)
			rc->sq_posted--;
		if (wc[i].wr_id == SP_WR_RECV &&
		    wc[i].byte_len != rc->rbuf.size) {
			snprintf(rc->msg, sizeof(rc->msg),
				 "received %u bytes, expected %zu",
				 wc[i].byte_len, rc->rbuf.size);
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

int sp_rconn_post_recv(struct sp_rconn *rc, bool data)
{
	struct ib_sge sge = {
		.addr = rc->rbuf.mr ? rc->rbuf.mr->iova : 0,
		.length = rc->rbuf.size,
		.lkey = rc->rbuf.mr ? rc->rbuf.mr->lkey : 0,
	};
	struct ib_recv_wr wr = {
		.wr_id = data ? SP_WR_RECV : SP_WR_RECV_READY,
		.sg_list = data ? &sge : NULL,
		.num_sge = data ? 1 : 0,
	};
	int ret;

	ret = ib_post_recv(rc->qp, &wr, NULL);
	if (ret)
		snprintf(rc->msg, sizeof(rc->msg),
			 "cannot post a receive: %d", ret);
	return ret;
}

/* Posts one signaled send-queue WR: write, read, send or ready. */
int sp_rconn_post(struct sp_rconn *rc, enum sp_wr what, u32 len)
{
	struct ib_sge sge = { .length = len };
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_id = what,
			.sg_list = &sge,
			.num_sge = 1,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = rc->remote_addr,
		.rkey = rc->remote_rkey,
	};
	struct sp_buf *buf = what == SP_WR_READ ? &rc->rbuf : &rc->sbuf;
	int ret;

	sge.addr = buf->mr->iova;
	sge.lkey = buf->mr->lkey;
	switch (what) {
	case SP_WR_WRITE:
		wr.wr.opcode = IB_WR_RDMA_WRITE;
		break;
	case SP_WR_READ:
		wr.wr.opcode = IB_WR_RDMA_READ;
		break;
	case SP_WR_READY:
		wr.wr.num_sge = 0;
		fallthrough;
	default:
		wr.wr.opcode = IB_WR_SEND;
		break;
	}
	/* Inline data is copied at post time from a CPU address. */
	if (what != SP_WR_READ && len && len <= rc->max_inline) {
		wr.wr.send_flags |= IB_SEND_INLINE;
		sge.addr = (uintptr_t)buf->head;
	}

	ret = ib_post_send(rc->qp, &wr.wr, NULL);
	if (ret) {
		snprintf(rc->msg, sizeof(rc->msg), "cannot post %s: %d",
			 sp_wr_names[what], ret);
		return ret;
	}
	rc->sq_posted++;
	return 0;
}

static int sp_post_reg(struct sp_rconn *rc, struct sp_buf *buf)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = SP_WR_REG,
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

#define SP_REG_TIMEOUT_MS 5000

/*
 * Once connected: registers both MRs and waits for it, and posts the data
 * receives of the send test. The server then sends "ready" once it serves:
 * from its thread, so that a client never spins on a peer not yet running.
 */
int sp_rconn_register(struct sp_rconn *rc)
{
	unsigned int target = rc->done[SP_WR_REG] + 2;
	int i, ret;

	ret = sp_post_reg(rc, &rc->sbuf);
	if (!ret)
		ret = sp_post_reg(rc, &rc->rbuf);
	if (!ret)
		ret = sp_rconn_wait(rc, SP_WR_REG, target, SP_REG_TIMEOUT_MS);
	if (ret)
		return ret;
	rc->registered = true;

	if (rc->op == SPARKPERF_LAT_OP_SEND) {
		for (i = 0; i < 2; i++) {
			ret = sp_rconn_post_recv(rc, true);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* Connection parameters of either side; one outstanding read is enough. */
void sp_rconn_conn_param(struct rdma_conn_param *param,
			 const struct ib_device *ibdev, const void *data,
			 u8 len)
{
	memset(param, 0, sizeof(*param));
	param->private_data = data;
	param->private_data_len = len;
	param->responder_resources = min_t(int, 1, ibdev->attrs.max_qp_rd_atom);
	param->initiator_depth = min_t(int, 1,
				       ibdev->attrs.max_qp_init_rd_atom);
	param->flow_control = 1;
	param->retry_count = 7;
	param->rnr_retry_count = 7;
}

/* The hello of @rc's side: the test, and our receive buffer. */
void sp_wire_hello(struct sp_wire_hello *hello, const struct sp_rconn *rc,
		   u32 size)
{
	bool remote = rc->op == SPARKPERF_LAT_OP_WRITE ||
		      (rc->op == SPARKPERF_LAT_OP_READ && rc->server);

	BUILD_BUG_ON(sizeof(struct sp_wire_hello) != 24);
	memset(hello, 0, sizeof(*hello));
	hello->magic = cpu_to_be32(SP_WIRE_MAGIC);
	hello->version = SP_WIRE_VERSION;
	hello->op = rc->op;
	hello->size = cpu_to_be32(size);
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
	    be32_to_cpu(hello->size) > SPARKPERF_LAT_SIZE_MAX) {
		snprintf(reason, reason_len, "op %u, size %u not supported",
			 hello->op, be32_to_cpu(hello->size));
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
