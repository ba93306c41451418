// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions: the client side of a latency or bandwidth test. A RUN command
 * allocates a session's memory, starts its kernel thread and answers; the
 * thread connects the session's links (one rdma_cm connection each, to the
 * same peer), runs its type's engine (lat.c, bw.c) and disconnects. What
 * was measured stays readable until the session is destroyed, which
 * happens when the netlink socket that started it is closed
 * (NETLINK_URELEASE) or at rmmod.
 *
 * Who destroys a link's rdma_cm id. The thread creates it and normally
 * destroys it. The id's event handler does the connecting steps (route,
 * QP, connect) under the cm's handler mutex, and on
 * RDMA_CM_EVENT_DEVICE_REMOVAL must free the QP, CQ, MRs and PD before it
 * returns; it then returns non-zero, so that the cm destroys the id
 * itself. The session's @res_lock decides between the two:
 *
 *  - the thread holds it whenever it (or an engine thread it waits for)
 *    calls into the cm or touches the verbs resources outside the
 *    handlers, and never while calling a cm function that takes a handler
 *    mutex (rdma_destroy_id());
 *  - a handler takes it inside its handler mutex, after setting
 *    SP_RC_ABORT on every link, which makes the data path let go at once;
 *  - before rdma_destroy_id() the thread frees a link's resources and sets
 *    its @id_destroying under the lock; a removal handler that sees it
 *    returns 0 and lets the thread's rdma_destroy_id() finish the job;
 *    otherwise it frees the resources, sets @id_gone and returns 1, and
 *    the thread never touches that id again.
 */

#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <rdma/rdma_cm.h>
#include <linux/sparkperf.h>

#include "compat.h"
#include "device.h"
#include "netlink.h"
#include "session.h"

#define SP_RESOLVE_TIMEOUT_MS 2000
#define SP_CONNECT_TIMEOUT_S 30
#define SP_STOP_TIMEOUT_S 10

struct sp_session_dump_ctx {
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

/* The kind of session a command is about. */
static const struct sp_session_type *sp_session_type_of(u8 cmd)
{
	switch (cmd) {
	case SPARKPERF_CMD_BW_RUN:
	case SPARKPERF_CMD_BW_STOP:
	case SPARKPERF_CMD_BW_GET:
		return &sp_bw_type;
	default:
		return &sp_lat_type;
	}
}

static void sp_session_release(struct kref *ref)
{
	struct sp_session *s = container_of(ref, struct sp_session, ref);
	unsigned int i;

	s->type->release(s);
	for (i = 0; s->links && i < s->nlinks; i++)
		sp_rconn_free(&s->links[i].rc);
	kvfree(s->links);
	kfree(s);
}

static void sp_session_put(struct sp_session *s)
{
	kref_put(&s->ref, sp_session_release);
}

/* Sets @bit on every link and wakes the threads waiting for one. */
static void sp_session_flag(struct sp_session *s, int bit)
{
	unsigned int i;

	for (i = 0; i < s->nlinks; i++)
		set_bit(bit, &s->links[i].rc.flags);
	wake_up(&s->wq);
}

/* The first error of a run, with what failed; stops the data path. */
void sp_session_fail(struct sp_session *s, int err, const char *fmt, ...)
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
	sp_session_flag(s, SP_RC_ABORT);
}

#define SP_SESSION_MSG_SIZE (4 * nla_total_size(sizeof(u32)) + \
			     nla_total_size(sizeof(struct in6_addr)) + \
			     nla_total_size(SPARKPERF_DEV_NAME_MAX) + \
			     nla_total_size(SP_MSG_LEN))

static int sp_session_fill(struct sk_buff *skb, struct sp_session *s,
			   u32 portid, u32 seq, int flags, bool intervals)
{
	const struct sp_session_type *t = s->type;
	char msg[SP_MSG_LEN], dev[SPARKPERF_DEV_NAME_MAX];
	void *hdr;
	int error;
	u8 state;

	hdr = sp_genl_put(skb, portid, seq, flags, t->cmd_get);
	if (!hdr)
		return -EMSGSIZE;

	spin_lock(&s->lock);
	state = s->state;
	error = s->error;
	strscpy(msg, s->error_msg, sizeof(msg));
	strscpy(dev, s->dev_used, sizeof(dev));
	spin_unlock(&s->lock);

	if (nla_put_u32(skb, t->a_id, s->id) ||
	    sp_nla_put_addr(skb, t->a_peer, &s->peer) ||
	    nla_put_u16(skb, t->a_port,
			ntohs(((struct sockaddr_in *)&s->peer)->sin_port)) ||
	    (dev[0] && nla_put_string(skb, t->a_dev, dev)) ||
	    nla_put_u8(skb, t->a_state, state) ||
	    (state == SPARKPERF_LAT_STATE_FAILED &&
	     (nla_put_s32(skb, t->a_error, error) ||
	      nla_put_string(skb, t->a_error_msg, msg))) ||
	    t->fill(skb, s, intervals)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * A progress message, if anyone listens: the state, the kind's counters,
 * and @iv, an interval that just ended.
 */
void sp_session_progress(struct sp_session *s, const struct sp_interval *iv)
{
	const struct sp_session_type *t = s->type;
	struct sk_buff *skb;
	void *hdr;
	u8 state;

	if (!sp_genl_has_progress_listeners())
		return;

	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	hdr = sp_genl_put(skb, 0, 0, 0, t->cmd_progress);
	if (!hdr)
		goto err;
	spin_lock(&s->lock);
	state = s->state;
	spin_unlock(&s->lock);
	if (nla_put_u32(skb, t->a_id, s->id) ||
	    nla_put_u8(skb, t->a_state, state) ||
	    t->fill_progress(skb, s, iv))
		goto err;
	genlmsg_end(skb, hdr);
	sp_genl_send_progress(skb);
	return;

err:
	nlmsg_free(skb);
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

static void sp_link_addr_resolved(struct sp_link *l, struct rdma_cm_id *id)
{
	const char *name = dev_name(&id->device->dev);
	struct sp_session *s = l->s;
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
static void sp_link_route_resolved(struct sp_link *l, struct rdma_cm_id *id)
{
	struct sp_session *s = l->s;
	struct rdma_conn_param param;
	struct sp_wire_hello hello;
	int ret = 0;

	mutex_lock(&s->res_lock);
	if (sp_rconn_stopping(&l->rc))
		goto out;
	ret = sp_rconn_create(&l->rc, id);
	if (ret)
		goto out;
	sp_wire_hello(&hello, &l->rc);
	sp_rconn_conn_param(&param, &l->rc, &hello, sizeof(hello));
	ret = rdma_connect_locked(id, &param);
	if (ret)
		snprintf(l->rc.msg, sizeof(l->rc.msg),
			 "cannot send the connection request: %d", ret);
out:
	mutex_unlock(&s->res_lock);
	if (ret)
		sp_session_fail(s, ret, "%s", l->rc.msg);
}

static void sp_link_established(struct sp_link *l,
				const struct rdma_cm_event *ev)
{
	char reason[SP_WIRE_REASON_LEN];
	struct sp_session *s = l->s;
	struct sp_wire_hello hello;

	if (sp_wire_parse_hello(&hello, ev->param.conn.private_data,
				ev->param.conn.private_data_len, reason,
				sizeof(reason))) {
		sp_session_fail(s, -EPROTO, "%pISc answered: %s", sp_peer(s),
				reason);
		return;
	}
	if (hello.kind != l->rc.kind || hello.op != l->rc.op ||
	    be32_to_cpu(hello.size) != s->size) {
		sp_session_fail(s, -EPROTO, "%pISc answered for another test",
				sp_peer(s));
		return;
	}
	l->rc.remote_addr = be64_to_cpu(hello.addr);
	l->rc.remote_rkey = be32_to_cpu(hello.rkey);
	spin_lock(&s->lock);
	l->established = true;
	s->connected++;
	spin_unlock(&s->lock);
	wake_up(&s->wq);
}

static void sp_link_rejected(struct sp_link *l, struct rdma_cm_id *id,
			     struct rdma_cm_event *ev)
{
	char reason[SP_WIRE_REASON_LEN];
	struct sp_session *s = l->s;
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
static int sp_link_device_removal(struct sp_link *l)
{
	struct sp_session *s = l->s;
	bool destroy;

	sp_session_fail(s, -ENODEV, "RDMA device %s was removed", s->dev_used);
	mutex_lock(&s->res_lock);
	destroy = !l->id_destroying;
	if (destroy) {
		sp_rconn_destroy(&l->rc);
		l->id_gone = true;
	}
	mutex_unlock(&s->res_lock);
	return destroy;
}

static int sp_session_cm_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *ev)
{
	struct sp_link *l = id->context;
	struct sp_session *s = l->s;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		sp_link_addr_resolved(l, id);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		sp_link_route_resolved(l, id);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		sp_link_established(l, ev);
		break;
	case RDMA_CM_EVENT_REJECTED:
		sp_link_rejected(l, id, ev);
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
		sp_rconn_peer_gone(&l->rc);
		sp_session_fail(s, -ECONNRESET, "%pISc closed the connection",
				sp_peer(s));
		break;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		sp_session_fail(s, -ENETRESET,
				"the address of the connection changed");
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return sp_link_device_removal(l);
	default:
		break;
	}
	return 0;
}

static bool sp_session_connected(struct sp_session *s)
{
	bool ret;

	spin_lock(&s->lock);
	ret = s->connected == s->nlinks;
	spin_unlock(&s->lock);
	return ret;
}

/* Connects every link at once; on failure the error is recorded. */
static int sp_session_connect(struct sp_session *s)
{
	struct rdma_cm_id *id;
	unsigned int i;
	int ret;

	for (i = 0; i < s->nlinks; i++) {
		struct sp_link *l = &s->links[i];

		id = rdma_create_id(&init_net, sp_session_cm_handler, l,
				    RDMA_PS_TCP, IB_QPT_RC);
		if (IS_ERR(id)) {
			ret = PTR_ERR(id);
			sp_session_fail(s, ret,
					"cannot create an rdma_cm id: %d", ret);
			return ret;
		}
		mutex_lock(&s->res_lock);
		l->rc.id = id;
		ret = rdma_resolve_addr(id, NULL, sp_peer(s),
					SP_RESOLVE_TIMEOUT_MS);
		mutex_unlock(&s->res_lock);
		if (ret) {
			sp_session_fail(s, ret, "cannot resolve %pISc: %d",
					sp_peer(s), ret);
			return ret;
		}
	}

	wait_event_interruptible_timeout(s->wq, sp_session_connected(s) ||
					 sp_session_stopping(s) ||
					 kthread_should_stop(),
					 SP_CONNECT_TIMEOUT_S * HZ);
	if (sp_session_stopping(s) || kthread_should_stop())
		return -EINTR;
	if (!sp_session_connected(s)) {
		sp_session_fail(s, -ETIMEDOUT,
				"no connection to %pISpc within %u s",
				sp_peer(s), SP_CONNECT_TIMEOUT_S);
		return -ETIMEDOUT;
	}
	return 0;
}

/*
 * Under res_lock, the run over: disconnects every link at once, waits for
 * the peer's answers (sp_rconn_wait_peer()), then frees what is left.
 */
static void sp_session_disconnect(struct sp_session *s)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(SP_DISCONNECT_MS);
	unsigned int i;

	for (i = 0; i < s->nlinks; i++) {
		struct sp_link *l = &s->links[i];
		bool established;

		if (!l->rc.id || l->id_gone)
			continue;
		spin_lock(&s->lock);
		established = l->established;
		spin_unlock(&s->lock);
		if (established)
			sp_rconn_disconnect(&l->rc);
	}
	for (i = 0; i < s->nlinks; i++) {
		struct sp_link *l = &s->links[i];

		if (!l->rc.id || l->id_gone)
			continue;
		sp_rconn_wait_peer(&l->rc, deadline);
		sp_rconn_destroy(&l->rc);
		l->id_destroying = true;
	}
}

static int sp_session_thread(void *arg)
{
	struct sp_session *s = arg;
	unsigned int i;
	bool gone = false;
	int ret;
	u8 state;

	sp_session_progress(s, NULL);
	ret = sp_session_connect(s);

	mutex_lock(&s->res_lock);
	for (i = 0; i < s->nlinks; i++)
		gone |= s->links[i].id_gone;
	if (!ret && !gone) {
		sp_session_set_state(s, SPARKPERF_LAT_STATE_RUNNING);
		ret = s->type->run(s);
	}
	spin_lock(&s->lock);
	s->ended = true;
	spin_unlock(&s->lock);
	sp_session_disconnect(s);
	mutex_unlock(&s->res_lock);
	for (i = 0; i < s->nlinks; i++)
		if (s->links[i].id_destroying)
			rdma_destroy_id(s->links[i].rc.id);

	spin_lock(&s->lock);
	if (s->error)
		state = SPARKPERF_LAT_STATE_FAILED;
	else if (ret)
		state = SPARKPERF_LAT_STATE_STOPPED;
	else
		state = SPARKPERF_LAT_STATE_DONE;
	spin_unlock(&s->lock);
	sp_session_set_state(s, state);
	complete_all(&s->done);
	return 0;
}

/*
 * The session is out of the registry: stops it at once, with no error,
 * and drops the registry's reference.
 */
static void sp_session_destroy(struct sp_session *s)
{
	sp_session_flag(s, SP_RC_ABORT);
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

/* The links, then, once the type has set their test, their buffers. */
static int sp_session_alloc_links(struct sp_session *s)
{
	unsigned int i;
	int ret;

	s->links = kvcalloc(s->nlinks, sizeof(*s->links), GFP_KERNEL);
	if (!s->links)
		return -ENOMEM;
	for (i = 0; i < s->nlinks; i++)
		s->links[i].s = s;
	ret = s->type->init(s);
	for (i = 0; !ret && i < s->nlinks; i++)
		ret = sp_rconn_alloc(&s->links[i].rc, s->size, s->node);
	return ret;
}

static struct sp_session *sp_session_alloc(const struct sp_session_type *t,
					   struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	u16 port = SPARKPERF_PORT_DEFAULT;
	struct sp_session *s;
	struct nlattr *attr;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, t->a_peer))
		return ERR_PTR(-EINVAL);

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	kref_init(&s->ref);
	INIT_LIST_HEAD(&s->claim);
	init_completion(&s->done);
	init_waitqueue_head(&s->wq);
	mutex_init(&s->res_lock);
	spin_lock_init(&s->lock);
	s->type = t;
	s->portid = info->snd_portid;
	s->node = NUMA_NO_NODE;
	s->state = SPARKPERF_LAT_STATE_CONNECTING;

	ret = t->parse(s, info);
	if (ret)
		goto err;
	attr = attrs[t->a_dev];
	if (attr && !sp_device_lookup(nla_data(attr), &s->node)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no RDMA device with this name");
		ret = -ENODEV;
		goto err;
	}
	if (attr)
		nla_strscpy(s->dev, attr, sizeof(s->dev));
	if (attrs[t->a_port])
		port = nla_get_u16(attrs[t->a_port]);
	ret = sp_nla_get_addr(attrs[t->a_peer], port, &s->peer, info->extack);
	if (ret)
		goto err;

	ret = sp_session_alloc_links(s);
	if (ret) {
		GENL_SET_ERR_MSG(info, "cannot allocate the session's memory");
		goto err;
	}
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
		GENL_SET_ERR_MSG(info, "too many sessions");
		ret = -ENOSPC;
		goto out;
	}
	ret = xa_alloc_cyclic(&sp_sessions, &s->id, s, XA_LIMIT(1, U32_MAX),
			      &sp_sessions_next, GFP_KERNEL);
	if (ret < 0)
		goto out;

	thread = kthread_create(sp_session_thread, s, "sparkperf-%c%u",
				s->type->tag, s->id);
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

/* LAT_RUN, BW_RUN. */
int sp_session_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	const struct sp_session_type *t = sp_session_type_of(cmd);
	struct sp_session *s;
	struct sk_buff *reply;
	struct nlattr *a_id;
	void *hdr;
	u32 id;
	int ret;

	/*
	 * The reply, with room for the id, before the session starts: once
	 * started it runs and its owner's socket holds it, so the id must
	 * reach that owner whatever allocation fails.
	 */
	reply = genlmsg_new(nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!reply)
		return -ENOMEM;
	hdr = sp_genl_put(reply, info->snd_portid, info->snd_seq, 0, cmd);
	a_id = hdr ? nla_reserve(reply, t->a_id, sizeof(u32)) : NULL;
	if (!a_id) {
		nlmsg_free(reply);
		return -EMSGSIZE;
	}

	s = sp_session_alloc(t, info);
	if (IS_ERR(s)) {
		nlmsg_free(reply);
		return PTR_ERR(s);
	}
	ret = sp_session_start(s, info, &id);
	if (ret) {
		sp_session_put(s);
		nlmsg_free(reply);
		return ret;
	}

	*(u32 *)nla_data(a_id) = id;
	genlmsg_end(reply, hdr);
	return genlmsg_reply(reply, info);
}

/* NL_SET_ERR_MSG() takes string literals only: one per kind. */
static void sp_session_not_found(const struct sp_session_type *t,
				 struct netlink_ext_ack *extack,
				 const struct nlattr *attr)
{
	if (t == &sp_bw_type)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "no bandwidth session with this id");
	else
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "no latency session with this id");
}

/* Under sp_sessions_lock: the session of kind @t with this id, or NULL. */
static struct sp_session *sp_session_find(const struct sp_session_type *t,
					  u32 id)
{
	struct sp_session *s = xa_load(&sp_sessions, id);

	return s && s->type == t ? s : NULL;
}

/*
 * The session of the command's kind by the id in @info, with a reference,
 * or NULL (and extack).
 */
static struct sp_session *sp_session_get(struct genl_info *info)
{
	const struct sp_session_type *t;
	struct sp_session *s;
	struct nlattr *attr;

	t = sp_session_type_of(info->genlhdr->cmd);
	attr = info->attrs[t->a_id];
	mutex_lock(&sp_sessions_lock);
	s = sp_session_find(t, nla_get_u32(attr));
	if (s)
		kref_get(&s->ref);
	mutex_unlock(&sp_sessions_lock);
	if (!s)
		sp_session_not_found(t, info->extack, attr);
	return s;
}

/* LAT_STOP, BW_STOP. */
int sp_session_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct sp_session_type *t;
	struct sp_session *s;

	t = sp_session_type_of(info->genlhdr->cmd);
	if (GENL_REQ_ATTR_CHECK(info, t->a_id))
		return -EINVAL;
	s = sp_session_get(info);
	if (!s)
		return -ENOENT;

	sp_session_flag(s, SP_RC_STOP);
	/* Answer once the results are final; the thread never takes long. */
	wait_for_completion_killable_timeout(&s->done, SP_STOP_TIMEOUT_S * HZ);
	sp_session_put(s);
	return 0;
}

/* LAT_GET, BW_GET of one session. */
int sp_session_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct sp_session_type *t;
	struct sk_buff *reply;
	struct sp_session *s;
	int ret;

	t = sp_session_type_of(info->genlhdr->cmd);
	if (GENL_REQ_ATTR_CHECK(info, t->a_id))
		return -EINVAL;
	s = sp_session_get(info);
	if (!s)
		return -ENOENT;

	reply = genlmsg_new(SP_SESSION_MSG_SIZE + t->msg_size(s, true),
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

/*
 * Every session of the command's kind, without the interval series (it
 * may not fit a dump).
 */
int sp_session_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sp_session_dump_ctx *ctx = (struct sp_session_dump_ctx *)cb->ctx;
	const struct genlmsghdr *ghdr = nlmsg_data(cb->nlh);
	const struct sp_session_type *t = sp_session_type_of(ghdr->cmd);
	struct sp_session *s;
	unsigned long index;
	int ret = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));

	mutex_lock(&sp_sessions_lock);
	xa_for_each_start(&sp_sessions, index, s, ctx->next_id) {
		if (s->type == t) {
			ret = sp_session_fill(skb, s,
					      NETLINK_CB(cb->skb).portid,
					      cb->nlh->nlmsg_seq, NLM_F_MULTI,
					      false);
			if (ret)
				break;
		}
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
	s = sp_session_find(&sp_lat_type, ctx->id);
	if (s) {
		spin_lock(&s->lat.lock);
		ctx->end = s->lat.count;
		spin_unlock(&s->lat.lock);
	}
	mutex_unlock(&sp_sessions_lock);
	if (!s) {
		sp_session_not_found(&sp_lat_type, cb->extack,
				     attrs[SPARKPERF_A_LAT_ID]);
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
	s = sp_session_find(&sp_lat_type, ctx->id);
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
	sp_lat_spin_init();
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
