// SPDX-License-Identifier: GPL-2.0
/*
 * Servers: kernel rdma_cm listeners that serve any sparkperf client. Each
 * connection request carries the client's test (rdma.h, wire format); the
 * server answers with its buffer and serves the connection: a thread that
 * echoes (latency write, send), receives and answers (bandwidth, bw.c) or
 * nothing at all (latency read). Servers are detached from the socket that
 * started them and live until SERVER_STOP or rmmod.
 *
 * Lifetimes. A served connection ("conn") lives in the sp_conns registry
 * from its connection request until it is freed. Its cm handler only
 * records events and queues the conn's work on sp_server_wq: the ib_cm
 * workqueue runs one event at a time for every rdma_cm user of the host
 * (NVMe-oF, NFS/RDMA, our own sessions), so allocation, DMA mapping,
 * registration and the accept run in that work instead, and so does the
 * end: the work alone stops the thread, frees the QP, CQ, MRs and PD and
 * destroys the id. A stopper (SERVER_STOP, rmmod) queues a stop and waits
 * until the conns are freed; rmmod then destroys sp_server_wq, which waits
 * for the last work, so no handler, work or thread of a conn runs once
 * the module's text is gone. Device removal waits for the id's
 * destruction, so the work may free the verbs resources after the handler
 * returned.
 *
 * A server is in the sp_servers registry while it listens; taking it out
 * (stopper, or its listener's device removal) decides who ends the
 * listener. Destroying the listener waits for any connection request being
 * handled, so a stopper then finds every conn of the server registered.
 * Conns hold a reference on their server.
 */

#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <linux/sparkperf.h>

#include "budget.h"
#include "bw.h"
#include "device.h"
#include "lat.h"
#include "netlink.h"
#include "rdma.h"
#include "server.h"

enum sp_cm_kind {
	SP_CM_SERVER = 1,
	SP_CM_CONN,
};

struct sp_server {
	enum sp_cm_kind kind;		/* first: the cm handler's context */
	struct kref ref;
	struct list_head claim;
	u32 id;
	struct rdma_cm_id *listener;
	struct sockaddr_storage addr;	/* AF_UNSPEC: any */
	u16 port;
	struct sp_budget budget;
	struct sp_allow allow;
	atomic64_t served;
	atomic64_t rejected;
	bool stopping;
};

/* sp_conn.events: what the cm handler or a stopper asked of the work. */
enum {
	SP_CONN_EV_ESTABLISHED = 0x1,
	SP_CONN_EV_END = 0x2,		/* disconnected, removed, failed */
	SP_CONN_EV_STOP = 0x4,		/* SERVER_STOP or rmmod */
};

/* Where the work stands; only the work reads and writes it. */
enum sp_conn_state {
	SP_CONN_NEW,			/* requested, not answered yet */
	SP_CONN_ACCEPTED,
	SP_CONN_RUNNING,		/* registered, served */
	SP_CONN_FAILED,			/* rejected or failed: end it */
	SP_CONN_DONE,			/* ended; a last run frees it */
};

struct sp_conn {
	enum sp_cm_kind kind;		/* first: the cm handler's context */
	u32 id;
	struct sp_server *server;
	struct rdma_cm_id *cm_id;
	struct sp_rconn rc;
	struct task_struct *thread;
	int cpu;
	struct work_struct work;
	spinlock_t lock;		/* events, closed */
	unsigned int events;		/* SP_CONN_EV_* not yet seen */
	bool closed;			/* id destroyed: queue nothing more */
	enum sp_conn_state state;
	struct sp_wire_hello hello;
	u8 initiator_depth;		/* the request's */
	u8 responder_resources;
	struct sp_budget_use use;	/* its share of the server's budget */
};

struct sp_server_dump_ctx {
	unsigned long next_id;
};

static DEFINE_XARRAY_ALLOC(sp_servers);
static DEFINE_MUTEX(sp_servers_lock);
static u32 sp_servers_next;
static unsigned int sp_servers_count;
static bool sp_servers_closed;

static DEFINE_XARRAY_ALLOC(sp_conns);
static DEFINE_MUTEX(sp_conns_lock);
static u32 sp_conns_next;
static atomic_t sp_conns_alive;
/* Woken when a conn is freed. */
static DECLARE_WAIT_QUEUE_HEAD(sp_conns_gone);
static struct workqueue_struct *sp_server_wq;

static void sp_server_release(struct kref *ref)
{
	kfree(container_of(ref, struct sp_server, ref));
}

static void sp_server_put(struct sp_server *server)
{
	kref_put(&server->ref, sp_server_release);
}

/* Stops the thread and frees the verbs resources; idempotent. */
static void sp_conn_teardown(struct sp_conn *conn)
{
	set_bit(SP_RC_STOP, &conn->rc.flags);
	if (conn->thread) {
		kthread_stop(conn->thread);
		put_task_struct(conn->thread);
		conn->thread = NULL;
	}
	sp_lat_cpu_put(conn->cpu);
	conn->cpu = -1;
	sp_rconn_destroy(&conn->rc);
}

/* After teardown, with the id destroyed: out of the registry, freed. */
static void sp_conn_free(struct sp_conn *conn)
{
	struct sp_server *server = conn->server;

	pr_debug("conn %u destroyed\n", conn->id);
	mutex_lock(&sp_conns_lock);
	xa_erase(&sp_conns, conn->id);
	mutex_unlock(&sp_conns_lock);
	sp_rconn_free(&conn->rc);
	sp_budget_give(&server->budget, &conn->use);
	kfree(conn);
	atomic_dec(&sp_conns_alive);
	sp_server_put(server);
	wake_up_all(&sp_conns_gone);
}

/* Records @ev for the work and queues it, unless the conn has ended. */
static void sp_conn_queue(struct sp_conn *conn, unsigned int ev)
{
	spin_lock(&conn->lock);
	if (!conn->closed) {
		conn->events |= ev;
		queue_work(sp_server_wq, &conn->work);
	}
	spin_unlock(&conn->lock);
}

static unsigned int sp_conn_events(struct sp_conn *conn, bool clear)
{
	unsigned int ev;

	spin_lock(&conn->lock);
	ev = conn->events;
	if (clear)
		conn->events = 0;
	spin_unlock(&conn->lock);
	return ev;
}

static int sp_conn_thread(void *arg)
{
	struct sp_conn *conn = arg;
	int ret;

	ret = sp_rconn_post(&conn->rc, SP_WR_READY, 0);
	if (!ret && conn->rc.kind == SP_WIRE_BW)
		ret = sp_bw_server(&conn->rc);
	else if (!ret)
		ret = sp_lat_server(&conn->rc);
	if (ret != -EINTR) {
		if (ret)
			pr_debug("conn %u: %s\n", conn->id, conn->rc.msg);
		/* The cm handler ends the conn on the disconnection. */
		rdma_disconnect(conn->rc.id);
	}
	return 0;
}

/* Rejects a connection request; the cm then destroys its id. */
static int sp_conn_reject(struct rdma_cm_id *id, int err, const char *reason)
{
	struct sp_wire_reject rej;

	sp_wire_reject(&rej, err, reason);
	rdma_reject(id, &rej, sizeof(rej), IB_CM_REJ_CONSUMER_DEFINED);
	return 1;
}

/* A new conn's buffers, QP and MRs; on failure conn->rc.msg says why. */
static int sp_conn_setup(struct sp_conn *conn, struct rdma_cm_id *id,
			 const struct sp_wire_hello *hello)
{
	u32 size = be32_to_cpu(hello->size);
	int ret;

	ret = sp_rconn_alloc(&conn->rc, size, sp_device_numa_node(id->device));
	if (ret) {
		snprintf(conn->rc.msg, sizeof(conn->rc.msg),
			 "server out of memory for %zu bytes of buffers",
			 conn->rc.lo.sbuf_bytes + conn->rc.lo.rbuf_bytes);
		return ret;
	}
	ret = sp_rconn_create(&conn->rc, id);
	if (ret)
		return ret;
	conn->rc.remote_addr = be64_to_cpu(hello->addr);
	conn->rc.remote_rkey = be32_to_cpu(hello->rkey);
	return 0;
}

static int sp_conn_accept(struct sp_conn *conn, struct rdma_cm_id *id)
{
	const struct ib_device_attr *attrs = &id->device->attrs;
	struct rdma_conn_param param;
	struct sp_wire_hello reply;

	sp_wire_hello(&reply, &conn->rc);
	sp_rconn_conn_param(&param, &conn->rc, &reply, sizeof(reply));
	param.responder_resources = min_t(int, conn->initiator_depth,
					  attrs->max_qp_rd_atom);
	param.initiator_depth = min_t(int, conn->responder_resources,
				      attrs->max_qp_init_rd_atom);
	return rdma_accept(id, &param);
}

/*
 * The work's answer to the request: the conn's resources, then accept or
 * reject. Both under the id's handler lock, as rdma_accept() wants outside
 * a handler; an end or stop recorded meanwhile turns it into a reject.
 */
static void sp_conn_answer(struct sp_conn *conn)
{
	struct rdma_cm_id *id = conn->cm_id;
	unsigned int ev;
	int ret;

	ret = sp_conn_setup(conn, id, &conn->hello);
	rdma_lock_handler(id);
	ev = sp_conn_events(conn, false);
	if (ev & (SP_CONN_EV_END | SP_CONN_EV_STOP)) {
		sp_conn_reject(id, -ESHUTDOWN, "server stopping");
		ret = -ESHUTDOWN;
	} else if (ret) {
		sp_conn_reject(id, ret, conn->rc.msg);
	} else {
		/* On failure it has sent a reject itself. */
		ret = sp_conn_accept(conn, id);
	}
	rdma_unlock_handler(id);
	if (ret) {
		pr_debug("conn %u refused: %d\n", conn->id, ret);
		conn->state = SP_CONN_FAILED;
		return;
	}
	conn->state = SP_CONN_ACCEPTED;
	atomic64_inc(&conn->server->served);
}

static void sp_conn_work(struct work_struct *work);

/*
 * The checks of a request before anything is allocated for it: the hello,
 * the server's state, the allow list, then its share of the budgets into
 * @use. 0, or the reason in @reason.
 */
static int sp_conn_admit(struct sp_server *server, struct rdma_cm_id *id,
			 struct rdma_cm_event *ev, struct sp_wire_hello *hello,
			 struct sp_budget_use *use, char *reason)
{
	struct sockaddr *peer = (struct sockaddr *)&id->route.addr.dst_addr;
	struct sp_layout lo;
	int ret;

	ret = sp_wire_parse_hello(hello, ev->param.conn.private_data,
				  ev->param.conn.private_data_len, reason,
				  SP_WIRE_REASON_LEN);
	if (ret)
		return ret;
	if (READ_ONCE(server->stopping)) {
		strscpy(reason, "server stopping", SP_WIRE_REASON_LEN);
		return -ESHUTDOWN;
	}
	if (!sp_allow_match(&server->allow, peer)) {
		snprintf(reason, SP_WIRE_REASON_LEN,
			 "%pISc is not in the server's allow list", peer);
		return -EACCES;
	}
	/* Both buffers; a latency READ is served without a thread. */
	sp_layout_init(&lo, hello->kind, hello->op, hello->flags,
		       be32_to_cpu(hello->depth), be32_to_cpu(hello->size),
		       true);
	use->bytes = lo.sbuf_bytes + lo.rbuf_bytes;
	use->thread = !(hello->kind == SP_WIRE_LAT &&
			hello->op == SPARKPERF_LAT_OP_READ);
	return sp_budget_take(&server->budget, use, reason, SP_WIRE_REASON_LEN);
}

/*
 * In the ib_cm workqueue: only what must be decided now (sp_conn_admit())
 * and the conn's registration; the work does the rest.
 */
static int sp_conn_request(struct sp_server *server, struct rdma_cm_id *id,
			   struct rdma_cm_event *ev)
{
	char reason[SP_WIRE_REASON_LEN];
	struct sp_wire_hello hello;
	struct sp_budget_use use;
	struct sp_conn *conn;
	int ret;

	ret = sp_conn_admit(server, id, ev, &hello, &use, reason);
	if (ret) {
		atomic64_inc(&server->rejected);
		return sp_conn_reject(id, ret, reason);
	}

	conn = kzalloc(sizeof(*conn), GFP_KERNEL);
	if (!conn) {
		sp_budget_give(&server->budget, &use);
		return sp_conn_reject(id, -ENOMEM, "server out of memory");
	}
	conn->use = use;
	conn->kind = SP_CM_CONN;
	conn->server = server;
	conn->cm_id = id;
	conn->cpu = -1;
	INIT_WORK(&conn->work, sp_conn_work);
	spin_lock_init(&conn->lock);
	conn->hello = hello;
	conn->initiator_depth = ev->param.conn.initiator_depth;
	conn->responder_resources = ev->param.conn.responder_resources;
	conn->rc.kind = hello.kind;
	conn->rc.op = hello.op;
	conn->rc.wflags = hello.flags;
	conn->rc.depth = be32_to_cpu(hello.depth);
	conn->rc.signal = be32_to_cpu(hello.signal);
	conn->rc.server = true;

	mutex_lock(&sp_conns_lock);
	ret = xa_alloc_cyclic(&sp_conns, &conn->id, conn, XA_LIMIT(1, U32_MAX),
			      &sp_conns_next, GFP_KERNEL);
	if (ret >= 0) {
		kref_get(&server->ref);
		atomic_inc(&sp_conns_alive);
		pr_debug("conn %u created\n", conn->id);
	}
	mutex_unlock(&sp_conns_lock);
	if (ret < 0) {
		kfree(conn);
		sp_budget_give(&server->budget, &use);
		return sp_conn_reject(id, -ENOMEM, "server out of memory");
	}
	id->context = conn;
	sp_conn_queue(conn, 0);
	return 0;
}

/* The echo thread, on a CPU of the device's node; it sends "ready". */
static int sp_conn_start_thread(struct sp_conn *conn)
{
	struct task_struct *thread;
	int ret;

	thread = kthread_create(sp_conn_thread, conn, "sparkperf-s%u",
				conn->id);
	if (IS_ERR(thread)) {
		ret = PTR_ERR(thread);
		snprintf(conn->rc.msg, sizeof(conn->rc.msg),
			 "cannot start a thread: %d", ret);
		return ret;
	}
	get_task_struct(thread);
	conn->cpu = sp_lat_cpu_get(-1, sp_device_numa_node(conn->rc.ibdev));
	if (conn->cpu >= 0)
		kthread_bind(thread, conn->cpu);
	conn->thread = thread;
	wake_up_process(thread);
	return 0;
}

/* The client is connected: registration, then "ready" or the thread. */
static void sp_conn_established(struct sp_conn *conn)
{
	int ret;

	conn->state = SP_CONN_RUNNING;
	ret = sp_rconn_register(&conn->rc);
	if (!ret) {
		/* A latency read needs no thread; everything else does. */
		if (conn->rc.kind == SP_WIRE_LAT &&
		    conn->rc.op == SPARKPERF_LAT_OP_READ)
			ret = sp_rconn_post(&conn->rc, SP_WR_READY, 0);
		else
			ret = sp_conn_start_thread(conn);
	}
	if (ret) {
		pr_debug("conn %u: %s\n", conn->id, conn->rc.msg);
		/* The disconnection ends the conn. */
		rdma_disconnect(conn->cm_id);
	}
}

/*
 * The end, in the work: thread, resources, id. Destroying the id waits for
 * a handler in progress and stops every later one; a handler may have
 * queued the work again before, then that run frees the conn.
 */
static void sp_conn_finish(struct sp_conn *conn)
{
	bool pending;

	if (conn->state == SP_CONN_ACCEPTED || conn->state == SP_CONN_RUNNING) {
		sp_rconn_disconnect(&conn->rc);
		/* A removed device carries nothing more: no answer to wait for. */
		if (!test_bit(SP_RC_ABORT, &conn->rc.flags))
			sp_rconn_wait_peer(&conn->rc, jiffies +
					   msecs_to_jiffies(SP_DISCONNECT_MS));
	}
	sp_conn_teardown(conn);
	rdma_destroy_id(conn->cm_id);
	spin_lock(&conn->lock);
	conn->closed = true;
	conn->state = SP_CONN_DONE;
	pending = work_pending(&conn->work);
	spin_unlock(&conn->lock);
	if (!pending)
		sp_conn_free(conn);
}

static void sp_conn_work(struct work_struct *work)
{
	struct sp_conn *conn = container_of(work, struct sp_conn, work);
	unsigned int ev;

	if (conn->state == SP_CONN_DONE) {
		sp_conn_free(conn);
		return;
	}
	ev = sp_conn_events(conn, true);
	if (ev & (SP_CONN_EV_END | SP_CONN_EV_STOP)) {
		sp_conn_finish(conn);
		return;
	}
	if (conn->state == SP_CONN_NEW)
		sp_conn_answer(conn);
	else if (conn->state == SP_CONN_ACCEPTED &&
		 (ev & SP_CONN_EV_ESTABLISHED))
		sp_conn_established(conn);
	if (conn->state == SP_CONN_FAILED)
		sp_conn_finish(conn);
}

/* Under the id's handler lock: record, queue, return at once. */
static int sp_conn_event(struct sp_conn *conn, struct rdma_cm_event *ev)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		sp_conn_queue(conn, SP_CONN_EV_ESTABLISHED);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		sp_rconn_peer_gone(&conn->rc);
		sp_conn_queue(conn, SP_CONN_EV_END);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		set_bit(SP_RC_ABORT, &conn->rc.flags);
		fallthrough;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		sp_conn_queue(conn, SP_CONN_EV_END);
		break;
	default:
		break;
	}
	/* The work destroys the id, never the cm. */
	return 0;
}

/* A listener bound to a device that goes away ends its server. */
static int sp_listener_event(struct sp_server *server,
			     struct rdma_cm_event *ev)
{
	bool owner;

	if (ev->event != RDMA_CM_EVENT_DEVICE_REMOVAL)
		return 0;

	mutex_lock(&sp_servers_lock);
	owner = xa_load(&sp_servers, server->id) == server;
	if (owner) {
		xa_erase(&sp_servers, server->id);
		sp_servers_count--;
		WRITE_ONCE(server->stopping, true);
		server->listener = NULL;
		pr_debug("server %u destroyed\n", server->id);
	}
	mutex_unlock(&sp_servers_lock);
	if (!owner)
		return 0;
	sp_server_put(server);
	return 1;
}

static int sp_server_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	enum sp_cm_kind *kind = id->context;

	/* A new id, whose context is still its listener's server. */
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return sp_conn_request(id->context, id, ev);
	if (*kind == SP_CM_SERVER)
		return sp_listener_event(id->context, ev);
	return sp_conn_event(id->context, ev);
}

/*
 * Every RDMA CM user of the host waits while a handler runs (one work item
 * at a time): its time is logged, for the one who wonders why connecting
 * is slow, and for the VM suite, which needs no code patching to read it.
 */
static int sp_server_cm_handler(struct rdma_cm_id *id,
				struct rdma_cm_event *ev)
{
	u64 start = ktime_get_ns();
	int ret;

	ret = sp_server_cm_event(id, ev);
	pr_debug("cm %s handled in %llu us\n", rdma_event_msg(ev->event),
		 div_u64(ktime_get_ns() - start, NSEC_PER_USEC));
	return ret;
}

/* Ends the conns of @server, or all when NULL, and waits until freed. */
static void sp_conns_stop(struct sp_server *server)
{
	struct sp_conn *conn;
	unsigned long index;

	mutex_lock(&sp_conns_lock);
	xa_for_each(&sp_conns, index, conn) {
		if (server && conn->server != server)
			continue;
		/* A registration or data path in progress gives up. */
		set_bit(SP_RC_STOP, &conn->rc.flags);
		sp_conn_queue(conn, SP_CONN_EV_STOP);
	}
	mutex_unlock(&sp_conns_lock);

	if (server)
		wait_event(sp_conns_gone, !sp_budget_conns(&server->budget));
	else
		wait_event(sp_conns_gone, !atomic_read(&sp_conns_alive));
}

/* A server out of the registry: its listener, then its conns. */
static void sp_server_stop(struct sp_server *server)
{
	WRITE_ONCE(server->stopping, true);
	rdma_destroy_id(server->listener);
	server->listener = NULL;
	pr_debug("server %u destroyed\n", server->id);
	sp_conns_stop(server);
	sp_server_put(server);
}

static void sp_server_stop_list(struct list_head *list)
{
	struct sp_server *server, *tmp;

	list_for_each_entry_safe(server, tmp, list, claim) {
		list_del(&server->claim);
		sp_server_stop(server);
	}
}

static int sp_server_listen(struct sp_server *server,
			    struct netlink_ext_ack *extack)
{
	struct sockaddr_in6 any6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(server->port),
	};
	struct sockaddr_in any4 = {
		.sin_family = AF_INET,
		.sin_port = htons(server->port),
	};
	bool any = server->addr.ss_family == AF_UNSPEC;
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, sp_server_cm_handler, server,
			    RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);

	if (any) {
		/* IPv6 and IPv4 clients; IPv4 only where IPv6 is off. */
		ret = rdma_set_afonly(id, 0);
		if (!ret)
			ret = rdma_bind_addr(id, (struct sockaddr *)&any6);
		if (ret == -EAFNOSUPPORT)
			ret = rdma_bind_addr(id, (struct sockaddr *)&any4);
	} else {
		ret = rdma_bind_addr(id, (struct sockaddr *)&server->addr);
	}
	if (ret == -EADDRINUSE) {
		NL_SET_ERR_MSG(extack, "address and port already in use");
		goto err;
	}
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot bind to this address");
		goto err;
	}
	ret = rdma_listen(id, SPARKPERF_SERVER_CONNS_MAX);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot listen");
		goto err;
	}
	server->listener = id;
	return 0;

err:
	rdma_destroy_id(id);
	return ret;
}

static int sp_server_fill(struct sk_buff *skb, struct sp_server *server,
			  u32 portid, u32 seq, int flags)
{
	void *hdr;

	hdr = sp_genl_put(skb, portid, seq, flags, SPARKPERF_CMD_SERVER_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, SPARKPERF_A_SERVER_ID, server->id) ||
	    (server->addr.ss_family != AF_UNSPEC &&
	     sp_nla_put_addr(skb, SPARKPERF_A_SERVER_ADDR, &server->addr)) ||
	    nla_put_u16(skb, SPARKPERF_A_SERVER_PORT, server->port) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_SERVER_SERVED,
			      atomic64_read(&server->served),
			      SPARKPERF_A_SERVER_PAD) ||
	    nla_put_u64_64bit(skb, SPARKPERF_A_SERVER_REJECTED,
			      atomic64_read(&server->rejected),
			      SPARKPERF_A_SERVER_PAD) ||
	    sp_budget_put(skb, &server->budget) ||
	    sp_allow_put(skb, &server->allow)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Under sp_servers_lock: a server on the same address and port. */
static bool sp_server_dup(const struct sp_server *new)
{
	struct sp_server *server;
	unsigned long index;

	xa_for_each(&sp_servers, index, server)
		if (server->port == new->port &&
		    server->addr.ss_family == new->addr.ss_family &&
		    !memcmp(&server->addr, &new->addr, sizeof(new->addr)))
			return true;
	return false;
}

/* Under sp_servers_lock: why no server can start now, or 0. */
static int sp_server_check(const struct sp_server *new, struct genl_info *info)
{
	if (sp_servers_closed)
		return -ESHUTDOWN;
	if (sp_servers_count >= SPARKPERF_SERVERS_MAX) {
		GENL_SET_ERR_MSG(info, "too many servers");
		return -ENOSPC;
	}
	if (sp_server_dup(new)) {
		GENL_SET_ERR_MSG(info, "a server listens on this address and port");
		return -EADDRINUSE;
	}
	return 0;
}

int sp_server_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct sp_server *server;
	struct sk_buff *reply;
	int ret;

	server = kzalloc(sizeof(*server), GFP_KERNEL);
	if (!server)
		return -ENOMEM;
	server->kind = SP_CM_SERVER;
	kref_init(&server->ref);
	/* Requests are refused until the server is registered. */
	server->stopping = true;
	server->port = SPARKPERF_PORT_DEFAULT;
	if (attrs[SPARKPERF_A_SERVER_PORT])
		server->port = nla_get_u16(attrs[SPARKPERF_A_SERVER_PORT]);
	if (attrs[SPARKPERF_A_SERVER_ADDR]) {
		ret = sp_nla_get_addr(attrs[SPARKPERF_A_SERVER_ADDR],
				      server->port, &server->addr,
				      info->extack);
		if (ret)
			goto err_free;
	}
	sp_budget_parse(&server->budget, attrs);
	if (attrs[SPARKPERF_A_SERVER_ALLOW]) {
		ret = sp_allow_parse(&server->allow,
				     attrs[SPARKPERF_A_SERVER_ALLOW],
				     info->extack);
		if (ret)
			goto err_free;
	}

	mutex_lock(&sp_servers_lock);
	ret = sp_server_check(server, info);
	mutex_unlock(&sp_servers_lock);
	if (ret)
		goto err_free;

	ret = sp_server_listen(server, info->extack);
	if (ret)
		goto err_free;

	reply = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	mutex_lock(&sp_servers_lock);
	ret = sp_server_check(server, info);
	if (!ret && !reply)
		ret = -ENOMEM;
	if (!ret)
		ret = xa_alloc_cyclic(&sp_servers, &server->id, server,
				      XA_LIMIT(1, U32_MAX), &sp_servers_next,
				      GFP_KERNEL);
	if (ret >= 0) {
		sp_servers_count++;
		WRITE_ONCE(server->stopping, false);
		pr_debug("server %u created\n", server->id);
		ret = sp_server_fill(reply, server, info->snd_portid,
				     info->snd_seq, 0);
	}
	mutex_unlock(&sp_servers_lock);
	if (ret == -EMSGSIZE) {
		/* The server runs; only the answer failed. */
		nlmsg_free(reply);
		return ret;
	}
	if (ret < 0)
		goto err_listener;
	return genlmsg_reply(reply, info);

err_listener:
	nlmsg_free(reply);
	rdma_destroy_id(server->listener);
	sp_conns_stop(server);
err_free:
	sp_server_put(server);
	return ret;
}

int sp_server_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[SPARKPERF_A_SERVER_ID];
	struct sp_server *server;
	unsigned long index;
	LIST_HEAD(list);
	int ret = 0;

	mutex_lock(&sp_servers_lock);
	xa_for_each(&sp_servers, index, server) {
		if (attr && server->id != nla_get_u32(attr))
			continue;
		xa_erase(&sp_servers, index);
		sp_servers_count--;
		list_add_tail(&server->claim, &list);
	}
	mutex_unlock(&sp_servers_lock);

	if (attr && list_empty(&list)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no server with this id");
		ret = -ENOENT;
	}
	sp_server_stop_list(&list);
	return ret;
}

int sp_server_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_server_dump_ctx *ctx = (struct sp_server_dump_ctx *)cb->ctx;
	struct sp_server *server;
	unsigned long index;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	mutex_lock(&sp_servers_lock);
	xa_for_each_start(&sp_servers, index, server, ctx->next_id) {
		ret = sp_server_fill(skb, server, NETLINK_CB(cb->skb).portid,
				     cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (ret)
			break;
		ctx->next_id = index + 1;
	}
	mutex_unlock(&sp_servers_lock);

	if (ret == -EMSGSIZE && skb->len)
		ret = 0;
	return ret ?: skb->len;
}

/* Refuses new servers, then stops every server and connection. */
void sp_server_uninit(void)
{
	struct sp_server *server;
	unsigned long index;
	LIST_HEAD(list);

	mutex_lock(&sp_servers_lock);
	sp_servers_closed = true;
	xa_for_each(&sp_servers, index, server) {
		xa_erase(&sp_servers, index);
		sp_servers_count--;
		list_add_tail(&server->claim, &list);
	}
	mutex_unlock(&sp_servers_lock);
	sp_server_stop_list(&list);
	/* Conns of servers their device removal ended. */
	sp_conns_stop(NULL);
	/* The last works may still run, after freeing their conn. */
	destroy_workqueue(sp_server_wq);
}

int sp_server_init(void)
{
	/* Unbound: one conn's registration does not hold up another's. */
	sp_server_wq = alloc_workqueue("sparkperf_server", WQ_UNBOUND, 0);
	return sp_server_wq ? 0 : -ENOMEM;
}
