/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel rdma_cm connections: buffers registered for remote access, the
 * RC queue pair and its busy-polled CQ, and the private-data wire format
 * client and server exchange while connecting.
 */
#ifndef SP_RDMA_H
#define SP_RDMA_H

#include <linux/bottom_half.h>
#include <linux/sched.h>
#include <linux/sched/stat.h>
#include <linux/scatterlist.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct rdma_cm_id;
struct rdma_cm_event;
struct rdma_conn_param;

/*
 * Wire format, version 4. Every field is big-endian.
 *
 * The client's connection request carries a struct sp_wire_hello: the test
 * (kind, op, size, flags and, for bandwidth, the work requests in flight
 * and the completion interval) and, for the write op, where the server may
 * write (the client's receive buffer: addr, rkey). The server accepts with
 * a struct sp_wire_hello of its own: the buffer the client writes to
 * (write) or reads from (read), addr and rkey. Addresses are offsets into
 * a zero-based registration, never kernel addresses.
 *
 * A server that cannot serve rejects with a struct sp_wire_reject: a
 * positive errno and a NUL-terminated reason the client reports.
 *
 * Latency (SP_WIRE_LAT): write round trips are RDMA WRITEs with immediate
 * each way, each consuming one receive of the other side, which answers
 * on its completion; with SP_WIRE_F_LAST_BYTE they are plain RDMA WRITEs
 * whose last byte, the round trip's tag, each side polls. Send round trips
 * are SENDs each way; read ones involve no server code.
 *
 * After the connection is established the server sends one zero-length
 * SEND, "ready": its buffers are registered, its receives posted, and the
 * client may start.
 *
 * Bandwidth (SP_WIRE_BW): the client's messages are RDMA WRITEs (with
 * immediate when it validates or runs both ways, so that the server sees
 * each one), SENDs or RDMA READs of SIZE bytes. With SP_WIRE_F_BIDIR the
 * server sends too, from its first received message on: RDMA WRITE with
 * immediate or SEND. The client ends its run with a "fin", a zero-length
 * SEND with immediate SP_WIRE_FIN; the server stops sending and answers
 * with a zero-length SEND with immediate, the messages it found corrupt
 * (saturated), after all it sent. The client then disconnects.
 *
 * With SP_WIRE_F_VALIDATE every message in flight has a slot of its own in
 * the buffer it lands in (struct sp_layout), so that none is overwritten
 * before it is checked: a writer puts message m in slot m % slots of the
 * peer's buffer and names the slot in the immediate; a receive takes the
 * slot of its work request; a reader reads message m into its own slot
 * m % DEPTH. Slots are SIZE rounded up to SP_SLOT_ALIGN bytes apart.
 */
#define SP_WIRE_MAGIC 0x5350524bU	/* "SPRK" */
#define SP_WIRE_VERSION 4
#define SP_WIRE_FIN 0x46494e21U		/* "FIN!" */

enum sp_wire_kind {
	SP_WIRE_LAT = 1,
	SP_WIRE_BW,
};

/* sp_wire_hello.flags: bandwidth */
#define SP_WIRE_F_BIDIR 0x1
#define SP_WIRE_F_VALIDATE 0x2
#define SP_WIRE_F_ALL (SP_WIRE_F_BIDIR | SP_WIRE_F_VALIDATE)
/* sp_wire_hello.flags: latency, write only */
#define SP_WIRE_F_LAST_BYTE 0x4

struct sp_wire_hello {
	__be32 magic;
	u8 version;
	u8 op;			/* enum sparkperf_lat_op */
	u8 kind;		/* enum sp_wire_kind */
	u8 flags;		/* SP_WIRE_F_* */
	__be32 size;		/* bytes per message */
	__be32 rkey;
	__be64 addr;
	__be32 depth;		/* bandwidth: work requests in flight per QP */
	__be32 signal;		/* bandwidth: a completion every this many */
};

#define SP_WIRE_REASON_LEN 128

struct sp_wire_reject {
	__be32 magic;
	u8 version;
	u8 reserved;
	__be16 error;		/* positive errno */
	char reason[SP_WIRE_REASON_LEN];
};

/*
 * The messages a validating receiver keeps slots for: the receives it has
 * posted (2 x DEPTH + 1), all of which may hold messages not checked yet,
 * and the sender's DEPTH in flight, which a device may start placing (the
 * first packets of an RDMA WRITE with immediate need no receive) before
 * any of those is checked.
 */
#define SP_RECV_SLOTS(depth) (3 * (depth) + 1)
#define SP_SLOT_ALIGN 64
/*
 * A validating sender's buffer holds the pattern this many bytes longer
 * than a message: a message deliberately corrupted (fault.h) is sent
 * from this offset, or read from it, so the pattern arrives shifted.
 */
#define SP_CORRUPT_SHIFT SP_SLOT_ALIGN

/*
 * What a connection's buffers hold, from the test alone, so that a server
 * can charge them to its budget before it allocates them.
 */
struct sp_layout {
	u32 size;		/* bytes per message */
	u32 slots;		/* messages the receive buffer holds */
	u32 peer_slots;		/* ... the peer's, where our writes go */
	size_t stride;		/* bytes from a slot to the next */
	size_t sbuf_bytes;
	size_t rbuf_bytes;
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
	bool sync;			/* CPU access needs DMA syncs */
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

/*
 * What a work request was, for completions and errors: the low byte of
 * its wr_id. A send-queue WR's wr_id also carries how many WRs its
 * completion retires (SP_WR_ID), itself and the unsignaled ones before it.
 */
enum sp_wr {
	SP_WR_REG,
	SP_WR_WRITE,
	SP_WR_WRITE_IMM,
	SP_WR_READ,
	SP_WR_SEND,
	SP_WR_READY,
	SP_WR_FIN,
	SP_WR_RECV,		/* first of the receive queue's */
	SP_WR_RECV_READY,
	SP_WR_MAX,
};

#define SP_WR_ID(what, retires) ((u64)(retires) << 8 | (what))

static inline enum sp_wr sp_wr_what(u64 wr_id)
{
	return wr_id & 0xff;
}

static inline u32 sp_wr_retires(u64 wr_id)
{
	return wr_id >> 8;
}

/* A receive's wr_id carries its slot where a send's carries retires. */
static inline u32 sp_wr_slot(u64 wr_id)
{
	return wr_id >> 8;
}

/* The drain's work requests (sp_rconn_destroy), outside enum sp_wr. */
#define SP_WR_ID_DRAIN_SEND SP_WR_ID(SP_WR_MAX, 0)
#define SP_WR_ID_DRAIN_RECV SP_WR_ID(SP_WR_MAX + 1, 0)
/* How long a QP's drain may take before it is destroyed anyway. */
#define SP_DRAIN_MS 500
/* How long the side that ends a connection waits for the peer's answer. */
#define SP_DISCONNECT_MS 1000

#define SP_SQ_DEPTH 16
#define SP_RQ_DEPTH 4
/* Work requests posted with one ib_post_send() or ib_post_recv() at most. */
#define SP_POST_CHAIN 16

struct sp_rconn {
	struct rdma_cm_id *id;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	/* answer_timeout_ms, read once: a run's waits and messages agree */
	unsigned int answer_ms;
	struct sp_buf sbuf;		/* what we send or write from */
	struct sp_buf rbuf;		/* what the peer writes to or reads */
	/* The test, as in the hello. */
	u8 kind;			/* enum sp_wire_kind */
	u8 op;
	u8 wflags;			/* SP_WIRE_F_* */
	u32 depth;			/* bandwidth: data WRs in flight */
	u32 signal;			/* bandwidth: a completion every this many */
	bool server;
	struct sp_layout lo;		/* set by sp_rconn_alloc() */
	u32 data_slot;			/* the next data WR's slot */
	u32 recv_slot;			/* the next receive's slot */
	u32 check_slot;			/* the next READ to check */
	u32 corrupt_every;		/* 0, or corrupt every this many messages */
	u32 corrupt_left;		/* data WRs until the next corrupt one */
	bool registered;
	u32 max_inline;
	unsigned int rq_data;		/* data receives kept posted */
	unsigned int sq_posted;		/* send WRs not completed yet */
	unsigned int unsignaled;	/* data WRs since the last signaled one */
	u64 remote_addr;
	u32 remote_rkey;
	unsigned long flags;		/* SP_RC_* */
	u64 disconnect_ns;		/* when this side asked first, or 0 */
	/* Completions seen by sp_rconn_poll(), by enum sp_wr. */
	unsigned int done[SP_WR_MAX];
	char msg[SP_MSG_LEN];		/* what failed, set with an error */
	/* Chains of work requests, rebuilt for each post. */
	struct ib_sge sges[SP_POST_CHAIN];
	struct ib_sge rsges[SP_POST_CHAIN];
	struct ib_rdma_wr chain[SP_POST_CHAIN];
	struct ib_recv_wr rchain[SP_POST_CHAIN];
};

void sp_layout_init(struct sp_layout *lo, u8 kind, u8 op, u8 wflags,
		    u32 depth, u32 size, bool server);
int sp_rconn_alloc(struct sp_rconn *rc, u32 size, int node);
void sp_rconn_free(struct sp_rconn *rc);
bool sp_rconn_check(struct sp_rconn *rc, u32 slot);

int sp_rconn_create(struct sp_rconn *rc, struct rdma_cm_id *id);
void sp_rconn_destroy(struct sp_rconn *rc);
void sp_rconn_peer_gone(struct sp_rconn *rc);
void sp_rconn_disconnect(struct sp_rconn *rc);
void sp_rconn_wait_peer(struct sp_rconn *rc, unsigned long deadline);
int sp_rconn_register(struct sp_rconn *rc);
int sp_rconn_poll(struct sp_rconn *rc);
int sp_rconn_wc_error(struct sp_rconn *rc, const struct ib_wc *wc);
int sp_rconn_post_recv(struct sp_rconn *rc, bool data, unsigned int n);
int sp_rconn_post(struct sp_rconn *rc, enum sp_wr what, u32 len);
int sp_rconn_post_data(struct sp_rconn *rc, enum sp_wr what, unsigned int n,
		       bool last);
int sp_rconn_post_fin(struct sp_rconn *rc, u32 imm);
int sp_rconn_wait(struct sp_rconn *rc, enum sp_wr what, unsigned int count,
		  unsigned int timeout_ms);
void sp_rconn_conn_param(struct rdma_conn_param *param,
			 const struct sp_rconn *rc, const void *data, u8 len);

static inline bool sp_rconn_stopping(const struct sp_rconn *rc)
{
	return READ_ONCE(rc->flags) != 0;
}

/*
 * Pending softirqs (the network stack, soft-RoCE's tasks) run here: a
 * thread that polls without sleeping would otherwise leave them to
 * ksoftirqd, which waits for this very CPU. Right after a post this runs
 * what a software device deferred (rxe's requester); with hardware it
 * finds nothing to do.
 */
static inline void sp_softirqs(void)
{
	local_bh_disable();
	local_bh_enable();
}

/*
 * A polling thread's offer of its CPU: to another task runnable on it at
 * once, else to whoever the scheduler says needs it. Since 6.x soft-RoCE
 * runs a kernel QP's requester and completer in a workqueue (6.1 ran them
 * as tasklets, which sp_softirqs() runs in place). A thread that kept its
 * CPU until need_resched() would hold up the very work it waits for: EEVDF
 * (6.6) lets the running task finish its slice first, and only yield()
 * ends that slice. On a CPU of its own (a NIC that needs no CPU) nothing
 * else is runnable and this is a load.
 */
static inline void sp_cpu_share(void)
{
	if (!single_task_running())
		yield();
	else
		cond_resched();
}

void sp_wire_hello(struct sp_wire_hello *hello, const struct sp_rconn *rc);
int sp_wire_parse_hello(struct sp_wire_hello *hello, const void *data,
			u8 len, char *reason, size_t reason_len);
void sp_wire_reject(struct sp_wire_reject *rej, int err, const char *reason);
bool sp_wire_parse_reject(const void *data, u8 len, int *err, char *reason);

#endif /* SP_RDMA_H */
