// SPDX-License-Identifier: GPL-2.0
/*
 * Latency sessions: the client side of a latency test. SPARKPERF_CMD_LAT_RUN
 * allocates a session's memory, starts its kernel thread and answers; the
 * thread connects with rdma_cm, runs the engine (lat.c) and disconnects.
 * What was measured stays readable until the session is destroyed, which
 * happens when the netlink socket that started it is closed
 * (NETLINK_URELEASE) or at rmmod.
 *
 * Who destroys the rdma_cm id. The thread creates it and normally destroys
 * it. The id's event handler does the connecting steps (route, QP, connect)
 * under the cm's handler mutex, and on RDMA_CM_EVENT_DEVICE_REMOVAL must
 * free the QP, CQ, MRs and PD before it returns; it then returns non-zero,
 * so that the cm destroys the id itself. @res_lock decides between the two:
 *
 *  - the thread holds it whenever it calls into the cm or touches the
 *    verbs resources outside the handler, and never while calling a cm
 *    function that takes the handler mutex (rdma_destroy_id());
 *  - the handler takes it inside the handler mutex, after setting
 *    SP_RC_ABORT, which makes the thread's data path let go at once;
 *  - before rdma_destroy_id() the thread frees the resources and sets
 *    @id_destroying under the lock; a removal handler that sees it
 *    returns 0 and lets the thread's rdma_destroy_id() finish the job;
 *    otherwise it frees the resources, sets @id_gone and returns 1, and
 *    the thread never touches the id again.
 */

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <rdma/rdma_cm.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "device.h"
#include "lat.h"
#include "netlink.h"
#include "rdma.h"
#include "session.h"

#define SP_RESOLVE_TIMEOUT_MS 2000
#define SP_CONNECT_TIMEOUT_S 30
#define SP_STOP_TIMEOUT_S 10

struct sp_session {
	struct kref ref;
	struct list_head claim;		/* on a list of sessions to destroy */
	u32 id;
	u32 portid;			/* the netlink socket that owns it */
	struct sockaddr_storage peer;
	char dev[SPARKPERF_DEV_NAME_MAX];	/* the route must use it */
	int cpu_req;			/* -1: a CPU of the device's node */

	struct sp_lat lat;
	struct sp_rconn rc;
	struct task_struct *thread;
	struct completion done;		/* the run is over */
	wait_queue_head_t wq;		/* connection progress, for the thread */

	struct mutex res_lock;		/* see the top of the file */
	bool id_gone;
	bool id_destroying;

	spinlock_t lock;		/* what follows */
	u8 state;			/* enum sparkperf_lat_state */
	bool established;
	bool ended;			/* later errors are not the run's */
	int error;
	char error_msg[SP_MSG_LEN];
	char dev_used[SPARKPERF_DEV_NAME_MAX];
	int cpu;
};

struct sp_lat_dump_ctx {
	unsigned long next_id;
};

struct sp_samples_dump_ctx {
	u32 id;
	u64 next;
	u64 end;	/* the samples measured when the dump began */
};

static DEFINE_XARRAY_ALLOC(sp_sessions);
static DEFINE_MUTEX(sp_sessions_lock);
static u32 sp_sessions_next;
static unsigned int sp_sessions_count;
static bool sp_sessions_closed;

static void sp_session_release(struct kref *ref)
{
	struct sp_session *s = container_of(ref, struct sp_session, ref);

	sp_buf_free(&s->rc.rbuf);
	sp_buf_free(&s->rc.sbuf);
	sp_lat_destroy(&s->lat);
	kfree(s);
}

static void sp_session_put(struct sp_session *s)
{
	kref_put(&s->ref, sp_session_release);
}

/* The first error of a run, with what failed; wakes the thread. */
static __printf(3, 4) void sp_session_fail(struct sp_session *s, int err,
					   const char *fmt, ...)
{
	va_list args;

	spin_lock(&s->lock);
	if (!s->ended && !s->error) {
		s->error = err < 0 ? err : -EIO;
		va_start(args, fmt);
		vsnprintf(s->error_msg, sizeof(s->error_msg), fmt, args);
		va_end(args);
	}
	spin_unlock(&s->lock);
	set_bit(SP_RC_ABORT, &s->rc.flags);
	wake_up(&s->wq);
}

#define SP_SESSION_MSG_SIZE (16 * nla_total_size_64bit(sizeof(u64)) + \
			     nla_total_size(sizeof(struct in6_addr)) + \
			     2 * nla_total_size(SPARKPERF_DEV_NAME_MAX) + \
			     nla_total_size(SP_MSG_LEN))

static int sp_session_fill(struct sk_buff *skb, struct sp_session *s,
			   u32 portid, u32 seq, int flags, bool intervals)
{
	const struct sp_lat_cfg *cfg = &s->lat.cfg;
	char msg[SP_MSG_LEN], dev[SPARKPERF_DEV_NAME_MAX];
	int error, cpu;
	void *hdr;
	u8 state;

	hdr = sp_genl_put(skb, portid, seq, flags, SPARKPERF_CMD_LAT_GET);
	if (!hdr)
		return -EMSGSIZE;

	spin_lock(&s->lock);
	state = s->state;
	error = s->error;
	cpu = s->cpu;
	strscpy(msg, s->error_msg, sizeof(msg));
	strscpy(dev, s->dev_used, sizeof(dev));
	spin_unlock(&s->lock);

	if (nla_put_u32(skb, SPARKPERF_A_LAT_ID, s->id) ||
	    sp_nla_put_addr(skb, SPARKPERF_A_LAT_PEER, &s->peer) ||
	    nla_put_u16(skb, SPARKPERF_A_LAT_PORT,
			ntohs(((struct sockaddr_in *)&s->peer)->sin_port)) ||
	    nla_put_u8(skb, SPARKPERF_A_LAT_OP, cfg->op) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_SIZE, cfg->size) ||
	    (cfg->iters &&
	     nla_put_u64_64bit(skb, SPARKPERF_A_LAT_ITERS, cfg->iters,
			       SPARKPERF_A_LAT_PAD)) ||
	    (cfg->duration_ms &&
	     nla_put_u32(skb, SPARKPERF_A_LAT_DURATION_MS, cfg->duration_ms)) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_WARMUP, cfg->warmup) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_SAMPLES_MAX, cfg->samples_max) ||
	    nla_put_u32(skb, SPARKPERF_A_LAT_INTERVAL_MS, cfg->interval_ms) ||
	    (dev[0] && nla_put_string(skb, SPARKPERF_A_LAT_DEV, dev)) ||
	    (cpu >= 0 && nla_put_u32(skb, SPARKPERF_A_LAT_CPU, cpu)) ||
	    nla_put_u8(skb, SPARKPERF_A_LAT_STATE, state) ||
	    (state == SPARKPERF_LAT_STATE_FAILED &&
	     (nla_put_s32(skb, SPARKPERF_A_LAT_ERROR, error) ||
	      nla_put_string(skb, SPARKPERF_A_LAT_ERROR_MSG, msg))) ||
	    sp_lat_fill(skb, &s->lat, intervals)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* A SPARKPERF_CMD_LAT_PROGRESS message, if anyone listens. */
static void sp_session_progress(struct sp_session *s,
				const struct sp_lat_interval *iv)
{
	struct sk_buff *skb;
	void *hdr;
	u8 state;

	if (!sp_genl_has_progress_listeners())
		return;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = sp_genl_put(skb, 0, 0, 0, SPARKPERF_CMD_LAT_PROGRESS);
	if (!hdr)
		goto err;
	spin_lock(&s->lock);
	state = s->state;
	spin_unlock(&s->lock);
	if (nla_put_u32(skb, SPARKPERF_A_LAT_ID, s->id) ||
	    nla_put_u8(skb, SPARKPERF_A_LAT_STATE, state) ||
	    sp_lat_fill_progress(skb, &s->lat) ||
	    (iv && sp_lat_fill_interval(skb, SPARKPERF_A_LAT_INTERVAL, iv)))
		goto err;
	genlmsg_end(skb, hdr);
	sp_genl_send_progress(skb);
	return;

err:
	nlmsg_free(skb);
}

static void sp_session_interval_done(struct sp_lat *lat,
				     const struct sp_lat_interval *iv)
{
	sp_session_progress(container_of(lat, struct sp_session, lat), iv);
}

static void sp_session_set_state(struct sp_session *s, u8 state)
{
	spin_lock(&s->lock);
	s->state = state;
	spin_unlock(&s->lock);
	sp_session_progress(s, NULL);
}

static struct sockaddr *sp_peer(struct sp_session *s)
{
	return (struct sockaddr *)&s->peer;
}

static void sp_session_addr_resolved(struct sp_session *s,
				     struct rdma_cm_id *id)
{
	const char *name = dev_name(&id->device->dev);
	int ret;

	spin_lock(&s->lock);
	strscpy(s->dev_used, name, sizeof(s->dev_used));
	spin_unlock(&s->lock);

	if (s->dev[0] && strcmp(s->dev, name)) {
		sp_session_fail(s, -EXDEV, "the route to %pISc uses %s, not %s",
				sp_peer(s), name, s->dev);
		return;
	}
	ret = rdma_resolve_route(id, SP_RESOLVE_TIMEOUT_MS);
	if (ret)
		sp_session_fail(s, ret, "cannot resolve a route to %pISc: %d",
				sp_peer(s), ret);
}

/* Under the handler mutex: resources, then the connection request. */
static void sp_session_route_resolved(struct sp_session *s,
				      struct rdma_cm_id *id)
{
	struct rdma_conn_param param;
	struct sp_wire_hello hello;
	int ret = 0;

	mutex_lock(&s->res_lock);
	if (sp_rconn_stopping(&s->rc))
		goto out;
	ret = sp_rconn_create(&s->rc, id);
	if (ret)
		goto out;
	sp_wire_hello(&hello, &s->rc, s->lat.cfg.size);
	sp_rconn_conn_param(&param, id->device, &hello, sizeof(hello));
	ret = rdma_connect_locked(id, &param);
	if (ret)
		snprintf(s->rc.msg, sizeof(s->rc.msg),
			 "cannot send the connection request: %d", ret);
out:
	mutex_unlock(&s->res_lock);
	if (ret)
		sp_session_fail(s, ret, "%s", s->rc.msg);
}

static void sp_session_established(struct sp_session *s,
				   const struct rdma_cm_event *ev)
{
	char reason[SP_WIRE_REASON_LEN];
	struct sp_wire_hello hello;

	if (sp_wire_parse_hello(&hello, ev->param.conn.private_data,
				ev->param.conn.private_data_len, reason,
				sizeof(reason))) {
		sp_session_fail(s, -EPROTO, "%pISc answered: %s", sp_peer(s),
				reason);
		return;
	}
	if (hello.op != s->lat.cfg.op ||
	    be32_to_cpu(hello.size) != s->lat.cfg.size) {
		sp_session_fail(s, -EPROTO, "%pISc answered for another test",
				sp_peer(s));
		return;
	}
	s->rc.remote_addr = be64_to_cpu(hello.addr);
	s->rc.remote_rkey = be32_to_cpu(hello.rkey);
	spin_lock(&s->lock);
	s->established = true;
	spin_unlock(&s->lock);
	wake_up(&s->wq);
}

static void sp_session_rejected(struct sp_session *s, struct rdma_cm_id *id,
				struct rdma_cm_event *ev)
{
	char reason[SP_WIRE_REASON_LEN];
	const void *data;
	u8 len = 0;
	int err;

	data = rdma_consumer_reject_data(id, ev, &len);
	if (data && sp_wire_parse_reject(data, len, &err, reason))
		sp_session_fail(s, -ECONNREFUSED,
				"connection rejected by %pISc: %s", sp_peer(s),
				reason);
	else
		sp_session_fail(s, -ECONNREFUSED,
				"connection rejected by %pISc: %s", sp_peer(s),
				rdma_reject_msg(id, ev->status));
}

/* See the top of the file. Non-zero: the cm destroys the id. */
static int sp_session_device_removal(struct sp_session *s)
{
	bool destroy;

	sp_session_fail(s, -ENODEV, "RDMA device %s was removed", s->dev_used);
	mutex_lock(&s->res_lock);
	destroy = !s->id_destroying;
	if (destroy) {
		sp_rconn_destroy(&s->rc);
		s->id_gone = true;
	}
	mutex_unlock(&s->res_lock);
	return destroy;
}

static int sp_session_cm_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *ev)
{
	struct sp_session *s = id->context;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		sp_session_addr_resolved(s, id);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		sp_session_route_resolved(s, id);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		sp_session_established(s, ev);
		break;
	case RDMA_CM_EVENT_REJECTED:
		sp_session_rejected(s, id, ev);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		sp_session_fail(s, ev->status ?: -EHOSTUNREACH,
				"cannot resolve %pISc: %d", sp_peer(s),
				ev->status);
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		sp_session_fail(s, ev->status ?: -ENETUNREACH,
				"no route to %pISc: %d", sp_peer(s), ev->status);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		sp_session_fail(s, -EHOSTUNREACH,
				"%pISc did not answer the connection request: %s (%d)",
				sp_peer(s), rdma_event_msg(ev->event),
				ev->status);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		set_bit(SP_RC_PEER_GONE, &s->rc.flags);
		sp_session_fail(s, -ECONNRESET, "%pISc closed the connection",
				sp_peer(s));
		break;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		sp_session_fail(s, -ENETRESET,
				"the address of the connection changed");
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return sp_session_device_removal(s);
	default:
		break;
	}
	return 0;
}

static bool sp_session_connected(struct sp_session *s)
{
	bool ret;

	spin_lock(&s->lock);
	ret = s->established;
	spin_unlock(&s->lock);
	return ret;
}

/* Connects; on failure the error is recorded. */
static int sp_session_connect(struct sp_session *s)
{
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, sp_session_cm_handler, s, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		sp_session_fail(s, ret, "cannot create an rdma_cm id: %d", ret);
		return ret;
	}

	mutex_lock(&s->res_lock);
	s->rc.id = id;
	ret = rdma_resolve_addr(id, NULL, sp_peer(s), SP_RESOLVE_TIMEOUT_MS);
	mutex_unlock(&s->res_lock);
	if (ret) {
		sp_session_fail(s, ret, "cannot resolve %pISc: %d", sp_peer(s),
				ret);
		return ret;
	}

	wait_event_interruptible_timeout(s->wq, sp_session_connected(s) ||
					 sp_rconn_stopping(&s->rc) ||
					 kthread_should_stop(),
					 SP_CONNECT_TIMEOUT_S * HZ);
	if (sp_rconn_stopping(&s->rc) || kthread_should_stop())
		return -EINTR;
	if (!sp_session_connected(s)) {
		sp_session_fail(s, -ETIMEDOUT,
				"no connection to %pISpc within %u s",
				sp_peer(s), SP_CONNECT_TIMEOUT_S);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Under res_lock, connected: pins the thread. */
static int sp_session_pin(struct sp_session *s)
{
	int cpu, ret;

	cpu = sp_lat_cpu_get(s->cpu_req, sp_device_numa_node(s->rc.ibdev));
	if (cpu < 0) {
		sp_session_fail(s, -ENODEV, "no online CPU");
		return -ENODEV;
	}
	ret = set_cpus_allowed_ptr(current, cpumask_of(cpu));
	if (ret) {
		sp_lat_cpu_put(cpu);
		sp_session_fail(s, ret, "cannot run on CPU %d: %d", cpu, ret);
		return ret;
	}
	spin_lock(&s->lock);
	s->cpu = cpu;
	spin_unlock(&s->lock);
	return 0;
}

static int sp_session_thread(void *arg)
{
	struct sp_session *s = arg;
	bool destroy = false;
	int ret, cpu;
	u8 state;

	sp_session_progress(s, NULL);
	ret = sp_session_connect(s);

	mutex_lock(&s->res_lock);
	if (!ret && !s->id_gone) {
		ret = sp_session_pin(s);
		if (!ret) {
			sp_session_set_state(s, SPARKPERF_LAT_STATE_RUNNING);
			ret = sp_rconn_register(&s->rc);
			if (!ret)
				ret = sp_lat_client(&s->lat, &s->rc);
			if (ret && ret != -EINTR)
				sp_session_fail(s, ret, "%s", s->rc.msg);
		}
	}

	spin_lock(&s->lock);
	s->ended = true;
	spin_unlock(&s->lock);
	if (s->rc.id && !s->id_gone) {
		if (sp_session_connected(s))
			rdma_disconnect(s->rc.id);
		sp_rconn_destroy(&s->rc);
		s->id_destroying = true;
		destroy = true;
	}
	mutex_unlock(&s->res_lock);
	if (destroy)
		rdma_destroy_id(s->rc.id);

	spin_lock(&s->lock);
	cpu = s->cpu;
	if (s->error)
		state = SPARKPERF_LAT_STATE_FAILED;
	else if (ret)
		state = SPARKPERF_LAT_STATE_STOPPED;
	else
		state = SPARKPERF_LAT_STATE_DONE;
	spin_unlock(&s->lock);
	sp_lat_cpu_put(cpu);
	sp_session_set_state(s, state);
	complete_all(&s->done);
	return 0;
}

/* The session is out of the registry: stops it and drops the registry's
 * reference.
 */
static void sp_session_destroy(struct sp_session *s)
{
	set_bit(SP_RC_STOP, &s->rc.flags);
	wake_up(&s->wq);
	if (s->thread) {
		kthread_stop(s->thread);
		put_task_struct(s->thread);
		s->thread = NULL;
	}
	pr_debug("session %u destroyed\n", s->id);
	sp_session_put(s);
}

static void sp_session_destroy_list(struct list_head *list)
{
	struct sp_session *s, *tmp;

	list_for_each_entry_safe(s, tmp, list, claim) {
		list_del(&s->claim);
		sp_session_destroy(s);
	}
}

/* Takes sessions out of the registry: those of @portid, or all. */
static void sp_session_claim(struct list_head *list, bool all, u32 portid)
{
	struct sp_session *s;
	unsigned long index;

	lockdep_assert_held(&sp_sessions_lock);
	xa_for_each(&sp_sessions, index, s) {
		if (!all && s->portid != portid)
			continue;
		xa_erase(&sp_sessions, index);
		sp_sessions_count--;
		list_add_tail(&s->claim, list);
	}
}

static int sp_session_notify(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;
	LIST_HEAD(list);

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net))
		return NOTIFY_DONE;

	mutex_lock(&sp_sessions_lock);
	sp_session_claim(&list, false, n->portid);
	mutex_unlock(&sp_sessions_lock);
	sp_session_destroy_list(&list);
	return NOTIFY_DONE;
}

static struct notifier_block sp_session_nb = {
	.notifier_call = sp_session_notify,
};

static void sp_lat_cfg_parse(struct sp_lat_cfg *cfg, struct nlattr **attrs)
{
	*cfg = (struct sp_lat_cfg) {
		.op = SPARKPERF_LAT_OP_WRITE,
		.size = 2,
		.iters = 1000,
		.warmup = 100,
		.samples_max = SPARKPERF_LAT_SAMPLES_DEFAULT,
		.interval_ms = 1000,
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
}

/* Checks what the policy cannot; the session's NUMA node in *@node. */
static int sp_lat_run_check(struct genl_info *info, int *node, int *cpu)
{
	struct nlattr **attrs = info->attrs;
	struct nlattr *attr;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_LAT_PEER))
		return -EINVAL;
	if (attrs[SPARKPERF_A_LAT_ITERS] && attrs[SPARKPERF_A_LAT_DURATION_MS]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    attrs[SPARKPERF_A_LAT_DURATION_MS],
				    "iterations and duration exclude each other");
		return -EINVAL;
	}

	*node = NUMA_NO_NODE;
	*cpu = -1;
	attr = attrs[SPARKPERF_A_LAT_CPU];
	if (attr) {
		*cpu = nla_get_u32(attr);
		if (*cpu >= nr_cpu_ids || !cpu_online(*cpu)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "no online CPU with this number");
			return -EINVAL;
		}
		*node = cpu_to_node(*cpu);
	}
	attr = attrs[SPARKPERF_A_LAT_DEV];
	if (attr && !sp_device_lookup(nla_data(attr), node)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no RDMA device with this name");
		return -ENODEV;
	}
	return 0;
}

static struct sp_session *sp_session_alloc(struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct sp_lat_cfg cfg;
	struct sp_session *s;
	int ret, node, cpu;
	u16 port = SPARKPERF_PORT_DEFAULT;

	ret = sp_lat_run_check(info, &node, &cpu);
	if (ret)
		return ERR_PTR(ret);

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	kref_init(&s->ref);
	INIT_LIST_HEAD(&s->claim);
	init_completion(&s->done);
	init_waitqueue_head(&s->wq);
	mutex_init(&s->res_lock);
	spin_lock_init(&s->lock);
	s->portid = info->snd_portid;
	s->cpu_req = cpu;
	s->cpu = -1;
	s->state = SPARKPERF_LAT_STATE_CONNECTING;

	if (attrs[SPARKPERF_A_LAT_PORT])
		port = nla_get_u16(attrs[SPARKPERF_A_LAT_PORT]);
	ret = sp_nla_get_addr(attrs[SPARKPERF_A_LAT_PEER], port, &s->peer,
			      info->extack);
	if (ret)
		goto err;
	if (attrs[SPARKPERF_A_LAT_DEV])
		nla_strscpy(s->dev, attrs[SPARKPERF_A_LAT_DEV], sizeof(s->dev));

	sp_lat_cfg_parse(&cfg, attrs);
	ret = sp_lat_init(&s->lat, &cfg, node);
	if (!ret)
		ret = sp_buf_alloc(&s->rc.sbuf, cfg.size, node);
	if (!ret)
		ret = sp_buf_alloc(&s->rc.rbuf, cfg.size, node);
	if (ret) {
		GENL_SET_ERR_MSG(info, "cannot allocate the session's memory");
		goto err;
	}
	s->lat.interval_done = sp_session_interval_done;
	s->rc.op = cfg.op;
	return s;

err:
	sp_session_put(s);
	return ERR_PTR(ret);
}

/*
 * Registers @s and starts its thread; the session's id in *@id. Once the
 * lock is dropped the session may be destroyed at any time.
 */
static int sp_session_start(struct sp_session *s, struct genl_info *info,
			    u32 *id)
{
	struct task_struct *thread;
	int ret;

	mutex_lock(&sp_sessions_lock);
	if (sp_sessions_closed) {
		ret = -ESHUTDOWN;
		goto out;
	}
	if (sp_sessions_count >= SPARKPERF_SESSIONS_MAX) {
		GENL_SET_ERR_MSG(info, "too many latency sessions");
		ret = -ENOSPC;
		goto out;
	}
	ret = xa_alloc_cyclic(&sp_sessions, &s->id, s, XA_LIMIT(1, U32_MAX),
			      &sp_sessions_next, GFP_KERNEL);
	if (ret < 0)
		goto out;

	thread = kthread_create(sp_session_thread, s, "sparkperf-l%u", s->id);
	if (IS_ERR(thread)) {
		xa_erase(&sp_sessions, s->id);
		ret = PTR_ERR(thread);
		goto out;
	}
	get_task_struct(thread);
	s->thread = thread;
	sp_sessions_count++;
	pr_debug("session %u created\n", s->id);
	*id = s->id;
	wake_up_process(thread);
	ret = 0;
out:
	mutex_unlock(&sp_sessions_lock);
	return ret;
}

int sp_lat_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sp_session *s;
	struct sk_buff *reply;
	void *hdr;
	u32 id;
	int ret;

	s = sp_session_alloc(info);
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = sp_session_start(s, info, &id);
	if (ret) {
		sp_session_put(s);
		return ret;
	}

	reply = genlmsg_new(nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!reply)
		return -ENOMEM;
	hdr = sp_genl_put(reply, info->snd_portid, info->snd_seq, 0,
			  SPARKPERF_CMD_LAT_RUN);
	if (!hdr || nla_put_u32(reply, SPARKPERF_A_LAT_ID, id)) {
		nlmsg_free(reply);
		return -EMSGSIZE;
	}
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);
}

/* A session by the id in @info, with a reference, or NULL (and extack). */
static struct sp_session *sp_session_get(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[SPARKPERF_A_LAT_ID];
	struct sp_session *s;

	mutex_lock(&sp_sessions_lock);
	s = xa_load(&sp_sessions, nla_get_u32(attr));
	if (s)
		kref_get(&s->ref);
	mutex_unlock(&sp_sessions_lock);
	if (!s)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no latency session with this id");
	return s;
}

int sp_lat_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sp_session *s;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_LAT_ID))
		return -EINVAL;
	s = sp_session_get(info);
	if (!s)
		return -ENOENT;

	set_bit(SP_RC_STOP, &s->rc.flags);
	wake_up(&s->wq);
	/* Answer once the results are final; the thread never takes long. */
	wait_for_completion_killable_timeout(&s->done, SP_STOP_TIMEOUT_S * HZ);
	sp_session_put(s);
	return 0;
}

int sp_lat_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *reply;
	struct sp_session *s;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, SPARKPERF_A_LAT_ID))
		return -EINVAL;
	s = sp_session_get(info);
	if (!s)
		return -ENOENT;

	reply = genlmsg_new(SP_SESSION_MSG_SIZE + sp_lat_msg_size(&s->lat, true),
			    GFP_KERNEL);
	ret = reply ? sp_session_fill(reply, s, info->snd_portid,
				      info->snd_seq, 0, true) : -ENOMEM;
	sp_session_put(s);
	if (ret) {
		nlmsg_free(reply);
		return ret;
	}
	return genlmsg_reply(reply, info);
}

/* Every session, without the interval series (it may not fit a dump). */
int sp_lat_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_lat_dump_ctx *ctx = (struct sp_lat_dump_ctx *)cb->ctx;
	struct sp_session *s;
	unsigned long index;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	mutex_lock(&sp_sessions_lock);
	xa_for_each_start(&sp_sessions, index, s, ctx->next_id) {
		ret = sp_session_fill(skb, s, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI, false);
		if (ret)
			break;
		ctx->next_id = index + 1;
	}
	mutex_unlock(&sp_sessions_lock);

	if (ret == -EMSGSIZE && skb->len)
		ret = 0;
	return ret ?: skb->len;
}

int sp_lat_samples_start(struct netlink_callback *cb)
{
	struct sp_samples_dump_ctx *ctx = (struct sp_samples_dump_ctx *)cb->ctx;
	struct nlattr **attrs = sp_dump_attrs(cb);
	struct sp_session *s;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	if (NL_REQ_ATTR_CHECK(cb->extack, NULL, attrs, SPARKPERF_A_LAT_ID))
		return -EINVAL;
	ctx->id = nla_get_u32(attrs[SPARKPERF_A_LAT_ID]);
	ctx->next = 0;

	mutex_lock(&sp_sessions_lock);
	s = xa_load(&sp_sessions, ctx->id);
	if (s) {
		spin_lock(&s->lat.lock);
		ctx->end = s->lat.count;
		spin_unlock(&s->lat.lock);
	}
	mutex_unlock(&sp_sessions_lock);
	if (!s) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[SPARKPERF_A_LAT_ID],
				    "no latency session with this id");
		return -ENOENT;
	}
	return 0;
}

int sp_lat_samples_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_samples_dump_ctx *ctx = (struct sp_samples_dump_ctx *)cb->ctx;
	struct sp_session *s;
	int ret = 0;
	void *hdr;

	mutex_lock(&sp_sessions_lock);
	s = xa_load(&sp_sessions, ctx->id);
	if (!s) {
		ret = -ENOENT;
		goto out;
	}
	for (;;) {
		hdr = sp_genl_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI,
				  SPARKPERF_CMD_LAT_SAMPLES);
		if (!hdr) {
			ret = -EMSGSIZE;
			break;
		}
		if (nla_put_u32(skb, SPARKPERF_A_LAT_ID, s->id)) {
			genlmsg_cancel(skb, hdr);
			ret = -EMSGSIZE;
			break;
		}
		ret = sp_lat_fill_samples(skb, &s->lat, &ctx->next, ctx->end);
		if (ret <= 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
out:
	mutex_unlock(&sp_sessions_lock);

	if (ret == -EMSGSIZE && skb->len)
		ret = 0;
	return ret ?: skb->len;
}

int __init sp_session_init(void)
{
	return netlink_register_notifier(&sp_session_nb);
}

/* Refuses new sessions, then destroys every session. */
void sp_session_uninit(void)
{
	LIST_HEAD(list);

	netlink_unregister_notifier(&sp_session_nb);
	mutex_lock(&sp_sessions_lock);
	sp_sessions_closed = true;
	sp_session_claim(&list, true, 0);
	mutex_unlock(&sp_sessions_lock);
	sp_session_destroy_list(&list);
}
