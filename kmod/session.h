/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions: the client side of a test. session.c keeps the registry, the
 * lifecycle, the connections and the netlink plumbing every session
 * shares; a struct sp_session_type adds a kind's configuration, run and
 * results (latency: lat.c, bandwidth: bw.c).
 */
#ifndef SP_SESSION_H
#define SP_SESSION_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/sparkperf.h>

#include "bw.h"
#include "lat.h"
#include "rdma.h"

struct genl_info;
struct netlink_callback;
struct sk_buff;
struct sp_session;

/* One rdma_cm connection of a session to its peer. */
struct sp_link {
	struct sp_session *s;
	struct sp_rconn rc;
	bool established;		/* under s->lock */
	bool id_gone;			/* under s->res_lock, see session.c */
	bool id_destroying;
};

struct sp_session_type {
	char tag;			/* in the name of the session's thread */
	u8 cmd_get;
	u8 cmd_progress;
	/* The attributes every kind has, in the kind's numbering. */
	u16 a_id, a_peer, a_port, a_dev, a_state, a_error, a_error_msg;

	/*
	 * RUN: keeps the configuration, checks what the policy cannot
	 * (extack), sets nlinks, size and maybe node.
	 */
	int (*parse)(struct sp_session *s, struct genl_info *info);
	/* The engine's memory, once the links have their buffers. */
	int (*init)(struct sp_session *s);
	/* Frees what init allocated, even after a failed parse or init. */
	void (*release)(struct sp_session *s);
	/*
	 * In the session's thread, under res_lock, every link connected: 0,
	 * -EINTR when stopped, or an error it has recorded.
	 */
	int (*run)(struct sp_session *s);
	/* Configuration and results, with the series if @intervals. */
	size_t (*msg_size)(struct sp_session *s, bool intervals);
	int (*fill)(struct sk_buff *skb, struct sp_session *s, bool intervals);
	int (*fill_progress)(struct sk_buff *skb, struct sp_session *s,
			     const struct sp_interval *iv);
};

struct sp_session {
	struct kref ref;
	struct list_head claim;		/* on a list of sessions to destroy */
	const struct sp_session_type *type;
	u32 id;
	u32 portid;			/* the netlink socket that owns it */
	struct sockaddr_storage peer;
	char dev[SPARKPERF_DEV_NAME_MAX];	/* the route must use it */
	int node;			/* of the memory and the threads */
	u32 size;			/* of each link's two buffers */
	unsigned int nlinks;
	struct sp_link *links;
	struct task_struct *thread;
	struct completion done;		/* the run is over */
	wait_queue_head_t wq;		/* connections, stop, failure */
	struct mutex res_lock;		/* see session.c */

	spinlock_t lock;		/* what follows */
	u8 state;			/* enum sparkperf_lat_state */
	unsigned int connected;		/* links established */
	bool ended;			/* later errors are not the run's */
	int error;
	char error_msg[SP_MSG_LEN];
	char dev_used[SPARKPERF_DEV_NAME_MAX];

	union {
		struct sp_lat lat;
		struct sp_bw bw;
	};
};

/* Failure and stop flag every link: the first one tells. */
static inline bool sp_session_stopping(const struct sp_session *s)
{
	return sp_rconn_stopping(&s->links[0].rc);
}

__printf(3, 4) void sp_session_fail(struct sp_session *s, int err,
				    const char *fmt, ...);
void sp_session_progress(struct sp_session *s, const struct sp_interval *iv);

int sp_session_init(void);
void sp_session_uninit(void);

int sp_session_run_doit(struct sk_buff *skb, struct genl_info *info);
int sp_session_stop_doit(struct sk_buff *skb, struct genl_info *info);
int sp_session_get_doit(struct sk_buff *skb, struct genl_info *info);
int sp_session_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int sp_lat_samples_start(struct netlink_callback *cb);
int sp_lat_samples_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* SP_SESSION_H */
