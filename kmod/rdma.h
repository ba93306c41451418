/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel rdma_cm connections: buffers registered for remote access, the
 * RC queue pair and its busy-polled CQ, and the private-data wire format
 * client and server exchange while connecting.
 */
#ifndef SP_RDMA_H
#define SP_RDMA_H

#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct rdma_cm_id;
struct rdma_cm_event;
struct rdma_conn_param;

/*
 * Wire format, version 1. Every field is big-endian.
 *
 * The client's connection request carries a struct sp_wire_hello: the test
 * (op, size) and, for the write op, where the server must write back (the
 * client's receive buffer: addr, rkey). The server accepts with a struct
 * sp_wire_hello of its own: the buffer the client writes to (write) or
 * reads from (read), addr and rkey. Addresses are offsets into a
 * zero-based registration, never kernel addresses.
 *
 * A server that cannot serve rejects with a struct sp_wire_reject: a
 * positive errno and a NUL-terminated reason the client reports.
 *
 * After the connection is established the server sends one zero-length
 * SEND, "ready": its buffers are registered and the client may start.
 */
#define SP_WIRE_MAGIC 0x5350524bU	/* "SPRK" */
#define SP_WIRE_VERSION 1

struct sp_wire_hello {
	__be32 magic;
	u8 version;
	u8 op;			/* enum sparkperf_lat_op */
	__be16 reserved;	/* 0 */
	__be32 size;		/* bytes per message */
	__be32 rkey;
	__be64 addr;
};

#define SP_WIRE_REASON_LEN 128

struct sp_wire_reject {
	__be32 magic;
	u8 version;
	u8 reserved;
	__be16 error;		/* positive errno */
	char reason[SP_WIRE_REASON_LEN];
};

/* The longest error or reject message we keep, with its NUL. */
#define SP_MSG_LEN 160

/*
 * A buffer of physically contiguous chunks, so that one fast-registration
 * MR of at most SP_MR_PAGES_MAX pages covers up to SPARKPERF_LAT_SIZE_MAX.
 */
struct sp_buf {
	size_t size;
	unsigned int chunk;		/* bytes per chunk, a power of two */
	unsigned int nchunks;
	struct page **chunks;
	struct sg_table sgt;
	bool mapped;
	struct ib_mr *mr;
	int access;
	u8 *head;			/* CPU address of byte 0 */
	u8 *tail;			/* CPU address of byte size - 1 */
};

/* sp_rconn.flags: why the data path must stop. */
enum {
	SP_RC_ABORT,		/* failure or device removal: give up now */
	SP_RC_STOP,		/* a user asked to stop */
	SP_RC_PEER_GONE,	/* the peer disconnected */
};

/* wr_id of every work request: what it was, for completions and errors. */
enum sp_wr {
	SP_WR_REG,
	SP_WR_WRITE,
	SP_WR_READ,
	SP_WR_SEND,
	SP_WR_READY,
	SP_WR_RECV,
	SP_WR_RECV_READY,
	SP_WR_MAX,
};

#define SP_SQ_DEPTH 16
#define SP_RQ_DEPTH 4
#define SP_CQ_DEPTH (SP_SQ_DEPTH + SP_RQ_DEPTH)

struct sp_rconn {
	struct rdma_cm_id *id;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct sp_buf sbuf;		/* what we send or write from */
	struct sp_buf rbuf;		/* what the peer writes to or reads */
	u8 op;
	bool server;
	bool registered;
	u32 max_inline;
	unsigned int sq_posted;		/* send WRs not completed yet */
	u64 remote_addr;
	u32 remote_rkey;
	unsigned long flags;		/* SP_RC_* */
	/* Completions seen by sp_rconn_poll(), by enum sp_wr. */
	unsigned int done[SP_WR_MAX];
	char msg[SP_MSG_LEN];		/* what failed, set with an error */
};

int sp_buf_alloc(struct sp_buf *buf, size_t size, int node);
void sp_buf_free(struct sp_buf *buf);

int sp_rconn_create(struct sp_rconn *rc, struct rdma_cm_id *id);
void sp_rconn_destroy(struct sp_rconn *rc);
int sp_rconn_register(struct sp_rconn *rc);
int sp_rconn_poll(struct sp_rconn *rc);
int sp_rconn_post_recv(struct sp_rconn *rc, bool data);
int sp_rconn_post(struct sp_rconn *rc, enum sp_wr what, u32 len);
int sp_rconn_wait(struct sp_rconn *rc, enum sp_wr what, unsigned int count,
		  unsigned int timeout_ms);
void sp_rconn_conn_param(struct rdma_conn_param *param,
			 const struct ib_device *ibdev, const void *data,
			 u8 len);

static inline bool sp_rconn_stopping(const struct sp_rconn *rc)
{
	return READ_ONCE(rc->flags) != 0;
}

void sp_wire_hello(struct sp_wire_hello *hello, const struct sp_rconn *rc,
		   u32 size);
int sp_wire_parse_hello(struct sp_wire_hello *hello, const void *data,
			u8 len, char *reason, size_t reason_len);
void sp_wire_reject(struct sp_wire_reject *rej, int err, const char *reason);
bool sp_wire_parse_reject(const void *data, u8 len, int *err, char *reason);

#endif /* SP_RDMA_H */
