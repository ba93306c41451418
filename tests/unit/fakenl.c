// SPDX-License-Identifier: GPL-2.0
/*
 * A scripted sparkperf "kernel" for end-to-end tests of the real
 * sparkperf-ctl binary, without the module: LD_PRELOAD=./fakenl.so replaces
 * the libnl socket calls the tool makes (nl_socket_alloc, genl_connect,
 * genl_ctrl_resolve*, nl_send_auto, nl_recv, ...) and answers each request
 * from the scenario named by $FAKENL, with messages built by the real libnl.
 * Multicast progress is queued on a pipe, so that ppoll() sees it.
 *
 * $FAKENL_LOG, when set, receives one line per request: the command and its
 * attributes as the tool sent them ("LAT_RUN peer=4 port=- size=64 ...").
 *
 * Scenarios (every session reports count round trips of 1400 + size / 64 +
 * (i % 7) ns):
 *	ok		progress to DONE at once; count = ITERS (default 1000)
 *	noprogress	no "progress" group: LAT_GET says RUNNING, then DONE
 *	fail		FAILED at once, nothing measured, with an error message
 *	fail_mid	FAILED after 300 round trips, errno only
 *	sigint		SIGINT at LAT_RUN; RUNNING with 700 until LAT_STOP
 *	sigint_early	SIGINT at LAT_RUN while CONNECTING: nothing measured
 *	sigint_twice	SIGINT at LAT_RUN and at LAT_STOP, which never stops it
 *	eperm		the group and LAT_RUN refused with EPERM, no extended ACK
 *	extack		LAT_RUN refused with EINVAL and a message
 *	nomodule	the family does not exist
 *
 * Bandwidth sessions (BW_*) follow the same scenarios: each moves QPS x
 * ITERS (default 5000; 1000 per QP with a duration) messages of SIZE bytes
 * (default 65536), as many back with bidir, at 10 Gbit/s (elapsed 0.8 ns a
 * byte) in three intervals of 20, 30 and 50% of the bytes, ending at a
 * quarter, a half and all of the time (8, 12 and 10 Gbit/s); the k-th
 * session of the process starts at 10^12 + 1000 k ns and uses half as much
 * CPU time as it runs. And:
 *	bw_fail_second	every second session fails after half its messages,
 *			with a completion error; the others end
 *	bw_refuse_second  the second BW_RUN is refused
 *	bw_list		the dump lists sessions 5 (running) and 6 (done) of
 *			another process; 5 can be asked for and stopped
 *	sparse		BW_GET answers ID, STATE and TX_BYTES only
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#define FAMILY 0x1f
#define GRP_EVENTS 5
#define GRP_PROGRESS 6

struct dgram {
	struct dgram *next;
	size_t len;
	unsigned char data[];
};

struct fsock {
	int rfd, wfd;			/* a pipe: readable when a datagram is queued */
	bool mcast;
	struct dgram *head, *tail;
	uint32_t seq;
};

struct session {
	uint32_t id;
	struct fsock *owner;
	struct sp_cfg {
		uint8_t peer[16];
		int peer_len;
		int port, op, size, warmup, samples_max, interval;
		uint64_t iters;
		int duration;
	} cfg;
	uint8_t state;
	uint64_t count;
	int gets;
	bool stop_seen;
};

static struct fsock *progress_socks[16];
static int n_progress;
static struct session sessions[128];
static int n_sessions;

struct bw_session {
	uint32_t id;
	struct fsock *owner;
	int k;				/* the k-th session of the process */
	uint8_t peer[16];
	int peer_len;
	char dev[64];
	int port, op, size, qps, threads, depth, signal, duration, interval;
	uint64_t iters;
	bool bidir, validate;
	uint8_t state;
	uint64_t msgs, bytes;		/* sent, per direction */
	int gets;
};

static struct bw_session bw_sessions[128];
static int n_bw;

static const char *scenario(void)
{
	const char *s = getenv("FAKENL");

	return s ? s : "ok";
}

static bool is(const char *name)
{
	return !strcmp(scenario(), name);
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	const char *path = getenv("FAKENL_LOG");
	va_list ap;
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* ---- sockets ------------------------------------------------------------- */

struct nl_sock *nl_socket_alloc(void)
{
	struct fsock *s = calloc(1, sizeof(*s));
	int p[2];

	if (!s || pipe2(p, O_CLOEXEC | O_NONBLOCK)) {
		free(s);
		return NULL;
	}
	s->rfd = p[0];
	s->wfd = p[1];
	return (struct nl_sock *)s;
}

void nl_socket_free(struct nl_sock *sk)
{
	struct fsock *s = (struct fsock *)sk;
	struct dgram *d;
	int i;

	if (!s)
		return;
	for (i = 0; i < n_progress; i++)
		if (progress_socks[i] == s)
			progress_socks[i] = NULL;
	/* closing the socket releases its sessions */
	for (i = 0; i < n_sessions; i++)
		if (sessions[i].owner == s) {
			sessions[i].owner = NULL;
			logf_("RELEASE id=%u\n", sessions[i].id);
		}
	for (i = 0; i < n_bw; i++)
		if (bw_sessions[i].owner == s) {
			bw_sessions[i].owner = NULL;
			logf_("RELEASE id=%u\n", bw_sessions[i].id);
		}
	while ((d = s->head)) {
		s->head = d->next;
		free(d);
	}
	close(s->rfd);
	close(s->wfd);
	free(s);
}

int genl_connect(struct nl_sock *sk)
{
	(void)sk;
	return 0;
}

int nl_socket_get_fd(const struct nl_sock *sk)
{
	return ((const struct fsock *)sk)->rfd;
}

void nl_socket_disable_seq_check(struct nl_sock *sk)
{
	(void)sk;
}

void nl_socket_disable_auto_ack(struct nl_sock *sk)
{
	(void)sk;
}

int nl_socket_set_buffer_size(struct nl_sock *sk, int rx, int tx)
{
	(void)sk;
	(void)rx;
	(void)tx;
	return 0;
}

int nl_socket_set_nonblocking(const struct nl_sock *sk)
{
	(void)sk;
	return 0;
}

int genl_ctrl_resolve(struct nl_sock *sk, const char *name)
{
	(void)sk;
	if (is("nomodule") || strcmp(name, SPARKPERF_GENL_NAME))
		return -NLE_OBJ_NOTFOUND;
	return FAMILY;
}

int genl_ctrl_resolve_grp(struct nl_sock *sk, const char *family, const char *grp)
{
	(void)sk;
	(void)family;
	if (!strcmp(grp, SPARKPERF_MCGRP_EVENTS))
		return GRP_EVENTS;
	if (!strcmp(grp, SPARKPERF_MCGRP_PROGRESS) && !is("noprogress"))
		return GRP_PROGRESS;
	return -NLE_OBJ_NOTFOUND;
}

int nl_socket_add_membership(struct nl_sock *sk, int group)
{
	struct fsock *s = (struct fsock *)sk;

	if (group == GRP_PROGRESS && is("eperm"))
		return -NLE_PERM;
	s->mcast = true;
	if (group == GRP_PROGRESS && n_progress < 16)
		progress_socks[n_progress++] = s;
	return 0;
}

static void queue(struct fsock *s, struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct dgram *d = malloc(sizeof(*d) + nlh->nlmsg_len);

	if (!d)
		abort();
	d->next = NULL;
	d->len = nlh->nlmsg_len;
	memcpy(d->data, nlh, nlh->nlmsg_len);
	if (s->tail)
		s->tail->next = d;
	else
		s->head = d;
	s->tail = d;
	if (write(s->wfd, "x", 1) != 1)
		abort();
	nlmsg_free(msg);
}

int nl_recv(struct nl_sock *sk, struct sockaddr_nl *who, unsigned char **buf,
	    struct ucred **creds)
{
	struct fsock *s = (struct fsock *)sk;
	struct dgram *d = s->head;
	char c;

	(void)creds;
	if (!d) {
		if (s->mcast)
			return -NLE_AGAIN;
		fprintf(stderr, "fakenl: nothing to receive: the tool would block\n");
		return -NLE_FAILURE;
	}
	s->head = d->next;
	if (!s->head)
		s->tail = NULL;
	if (read(s->rfd, &c, 1) != 1)
		abort();
	memset(who, 0, sizeof(*who));
	who->nl_family = AF_NETLINK;
	*buf = malloc(d->len);
	if (!*buf)
		abort();
	memcpy(*buf, d->data, d->len);
	free(d);
	return (int)((struct nlmsghdr *)*buf)->nlmsg_len;
}

/* ---- answers ------------------------------------------------------------- */

static struct nl_msg *reply(uint32_t seq, uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc();

	if (!m || !genlmsg_put(m, 0, seq, FAMILY, 0, flags, cmd, SPARKPERF_GENL_VERSION))
		abort();
	return m;
}

static struct nl_msg *ack(const struct nlmsghdr *req, int error, const char *extack)
{
	struct nl_msg *m = nlmsg_alloc_simple(NLMSG_ERROR,
					      NLM_F_CAPPED | (extack ? NLM_F_ACK_TLVS : 0));
	struct nlmsgerr e = { .error = error, .msg = *req };

	nlmsg_hdr(m)->nlmsg_seq = req->nlmsg_seq;
	nlmsg_append(m, &e, sizeof(e), NLMSG_ALIGNTO);
	if (extack)
		nla_put_string(m, NLMSGERR_ATTR_MSG, extack);
	return m;
}

static struct nl_msg *done(uint32_t seq)
{
	struct nl_msg *m = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
	int error = 0;

	nlmsg_hdr(m)->nlmsg_seq = seq;
	nlmsg_append(m, &error, sizeof(error), NLMSG_ALIGNTO);
	return m;
}

static uint64_t rtt_of(const struct session *s, uint64_t i)
{
	return 1400 + (uint64_t)s->cfg.size / 64 + i % 7;
}

static void put_interval(struct nl_msg *m, int type, uint64_t end, uint64_t count,
			 uint64_t base)
{
	struct nlattr *iv = nla_nest_start(m, type);

	nla_put_u64(m, SPARKPERF_A_INTERVAL_END_NS, end);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_COUNT, count);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_P50_NS, base + 3);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_P99_NS, base + 6);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_MAX_NS, base + 6);
	nla_nest_end(m, iv);
}

/* A copy of m to every socket in the "progress" group; m is freed. */
static void broadcast(struct nl_msg *m)
{
	struct nl_msg *copy;
	int i;

	for (i = 0; i < n_progress; i++) {
		if (!progress_socks[i])
			continue;
		copy = nlmsg_convert(nlmsg_hdr(m));
		if (!copy)
			abort();
		queue(progress_socks[i], copy);
	}
	nlmsg_free(m);
}

static void send_progress(struct session *s, bool interval)
{
	struct nl_msg *m = reply(0, SPARKPERF_CMD_LAT_PROGRESS, 0);

	nla_put_u32(m, SPARKPERF_A_LAT_ID, s->id);
	nla_put_u8(m, SPARKPERF_A_LAT_STATE, s->state);
	nla_put_u64(m, SPARKPERF_A_LAT_COUNT, s->count);
	nla_put_u64(m, SPARKPERF_A_LAT_WARMUP_DONE, s->cfg.warmup);
	if (interval)
		put_interval(m, SPARKPERF_A_LAT_INTERVAL, 1000000000, s->count, rtt_of(s, 0));
	broadcast(m);
}

static void put_lat(struct nl_msg *m, struct session *s)
{
	uint64_t sum = 0, min = UINT64_MAX, max = 0, i;
	unsigned __int128 sumsq = 0;

	for (i = 0; i < s->count; i++) {
		uint64_t v = rtt_of(s, i);

		sum += v;
		sumsq += (unsigned __int128)v * v;
		min = v < min ? v : min;
		max = v > max ? v : max;
	}
	nla_put_u32(m, SPARKPERF_A_LAT_ID, s->id);
	nla_put(m, SPARKPERF_A_LAT_PEER, s->cfg.peer_len, s->cfg.peer);
	nla_put_u16(m, SPARKPERF_A_LAT_PORT, (uint16_t)s->cfg.port);
	nla_put_string(m, SPARKPERF_A_LAT_DEV, "rxe0");
	nla_put_u8(m, SPARKPERF_A_LAT_OP, (uint8_t)s->cfg.op);
	nla_put_u32(m, SPARKPERF_A_LAT_SIZE, (uint32_t)s->cfg.size);
	if (s->cfg.duration)
		nla_put_u32(m, SPARKPERF_A_LAT_DURATION_MS, (uint32_t)s->cfg.duration);
	else
		nla_put_u64(m, SPARKPERF_A_LAT_ITERS, s->cfg.iters);
	nla_put_u32(m, SPARKPERF_A_LAT_WARMUP, (uint32_t)s->cfg.warmup);
	nla_put_u32(m, SPARKPERF_A_LAT_SAMPLES_MAX, (uint32_t)s->cfg.samples_max);
	nla_put_u32(m, SPARKPERF_A_LAT_INTERVAL_MS, (uint32_t)s->cfg.interval);
	nla_put_u32(m, SPARKPERF_A_LAT_CPU, 3);
	nla_put_u8(m, SPARKPERF_A_LAT_STATE, s->state);
	if (s->state == SPARKPERF_LAT_STATE_FAILED) {
		nla_put_s32(m, SPARKPERF_A_LAT_ERROR, is("fail") ? -ECONNREFUSED : -ENODEV);
		if (is("fail"))
			nla_put_string(m, SPARKPERF_A_LAT_ERROR_MSG,
				       "no sparkperf server answers at this address and port");
	}
	nla_put_u64(m, SPARKPERF_A_LAT_WARMUP_DONE, s->count ? (uint64_t)s->cfg.warmup : 0);
	nla_put_u64(m, SPARKPERF_A_LAT_COUNT, s->count);
	nla_put_u64(m, SPARKPERF_A_LAT_ELAPSED_NS, s->count * 1500);
	nla_put_u64(m, SPARKPERF_A_LAT_YIELDS, s->count / 500);
	nla_put_u32(m, SPARKPERF_A_LAT_CLOCK_RES_NS, 1);
	nla_put_u64(m, SPARKPERF_A_LAT_SUM_NS, sum);
	nla_put_u64(m, SPARKPERF_A_LAT_SUMSQ_HI, (uint64_t)(sumsq >> 64));
	nla_put_u64(m, SPARKPERF_A_LAT_SUMSQ_LO, (uint64_t)sumsq);
	if (s->count) {
		uint64_t b = rtt_of(s, 0);
		struct nlattr *ivs;

		nla_put_u64(m, SPARKPERF_A_LAT_MIN_NS, min);
		nla_put_u64(m, SPARKPERF_A_LAT_MAX_NS, max);
		nla_put_u64(m, SPARKPERF_A_LAT_P50_NS, b + 3);
		nla_put_u64(m, SPARKPERF_A_LAT_P90_NS, b + 6);
		nla_put_u64(m, SPARKPERF_A_LAT_P99_NS, b + 6);
		nla_put_u64(m, SPARKPERF_A_LAT_P999_NS, b + 6);
		nla_put_u64(m, SPARKPERF_A_LAT_P9999_NS, b + 6);
		nla_put_u64(m, SPARKPERF_A_LAT_P99999_NS, b + 6);
		ivs = nla_nest_start(m, SPARKPERF_A_LAT_INTERVALS);

		put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 1000000000, s->count / 2, b);
		put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 1500000000,
			     s->count - s->count / 2, b);
		nla_nest_end(m, ivs);
	}
}

static struct session *find(uint32_t id)
{
	int i;

	for (i = 0; i < n_sessions; i++)
		if (sessions[i].id == id)
			return &sessions[i];
	return NULL;
}

static void lat_run(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct session *s = &sessions[n_sessions];
	struct sp_cfg *c = &s->cfg;
	struct nl_msg *m;

	logf_("LAT_RUN peer=%d port=%d dev=%s op=%d size=%d iters=%lld duration=%d "
	      "warmup=%d cpu=%d samples_max=%d interval=%d\n",
	      tb[SPARKPERF_A_LAT_PEER] ? nla_len(tb[SPARKPERF_A_LAT_PEER]) : -1,
	      tb[SPARKPERF_A_LAT_PORT] ? nla_get_u16(tb[SPARKPERF_A_LAT_PORT]) : -1,
	      tb[SPARKPERF_A_LAT_DEV] ? (char *)nla_data(tb[SPARKPERF_A_LAT_DEV]) : "-",
	      tb[SPARKPERF_A_LAT_OP] ? nla_get_u8(tb[SPARKPERF_A_LAT_OP]) : -1,
	      tb[SPARKPERF_A_LAT_SIZE] ? (int)nla_get_u32(tb[SPARKPERF_A_LAT_SIZE]) : -1,
	      tb[SPARKPERF_A_LAT_ITERS] ? (long long)nla_get_u64(tb[SPARKPERF_A_LAT_ITERS]) : -1,
	      tb[SPARKPERF_A_LAT_DURATION_MS] ?
	      (int)nla_get_u32(tb[SPARKPERF_A_LAT_DURATION_MS]) : -1,
	      tb[SPARKPERF_A_LAT_WARMUP] ? (int)nla_get_u32(tb[SPARKPERF_A_LAT_WARMUP]) : -1,
	      tb[SPARKPERF_A_LAT_CPU] ? (int)nla_get_u32(tb[SPARKPERF_A_LAT_CPU]) : -1,
	      tb[SPARKPERF_A_LAT_SAMPLES_MAX] ?
	      (int)nla_get_u32(tb[SPARKPERF_A_LAT_SAMPLES_MAX]) : -1,
	      tb[SPARKPERF_A_LAT_INTERVAL_MS] ?
	      (int)nla_get_u32(tb[SPARKPERF_A_LAT_INTERVAL_MS]) : -1);

	if (is("eperm")) {
		queue(sk, ack(nlh, -EPERM, NULL));
		return;
	}
	if (is("extack")) {
		queue(sk, ack(nlh, -EINVAL, "size above the device's limit"));
		return;
	}
	memset(s, 0, sizeof(*s));
	s->id = 100 + (uint32_t)n_sessions++;
	s->owner = sk;
	c->peer_len = nla_len(tb[SPARKPERF_A_LAT_PEER]);
	memcpy(c->peer, nla_data(tb[SPARKPERF_A_LAT_PEER]), (size_t)c->peer_len);
	c->port = tb[SPARKPERF_A_LAT_PORT] ? nla_get_u16(tb[SPARKPERF_A_LAT_PORT]) :
		  SPARKPERF_PORT_DEFAULT;
	c->op = tb[SPARKPERF_A_LAT_OP] ? nla_get_u8(tb[SPARKPERF_A_LAT_OP]) :
		SPARKPERF_LAT_OP_WRITE;
	c->size = tb[SPARKPERF_A_LAT_SIZE] ? (int)nla_get_u32(tb[SPARKPERF_A_LAT_SIZE]) : 2;
	c->iters = tb[SPARKPERF_A_LAT_ITERS] ? nla_get_u64(tb[SPARKPERF_A_LAT_ITERS]) : 1000;
	c->duration = tb[SPARKPERF_A_LAT_DURATION_MS] ?
		      (int)nla_get_u32(tb[SPARKPERF_A_LAT_DURATION_MS]) : 0;
	c->warmup = tb[SPARKPERF_A_LAT_WARMUP] ? (int)nla_get_u32(tb[SPARKPERF_A_LAT_WARMUP]) :
		    100;
	c->samples_max = tb[SPARKPERF_A_LAT_SAMPLES_MAX] ?
			 (int)nla_get_u32(tb[SPARKPERF_A_LAT_SAMPLES_MAX]) :
			 SPARKPERF_LAT_SAMPLES_DEFAULT;
	c->interval = tb[SPARKPERF_A_LAT_INTERVAL_MS] ?
		      (int)nla_get_u32(tb[SPARKPERF_A_LAT_INTERVAL_MS]) : 1000;
	s->state = SPARKPERF_LAT_STATE_CONNECTING;

	m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_LAT_RUN, 0);
	nla_put_u32(m, SPARKPERF_A_LAT_ID, s->id);
	queue(sk, m);
	queue(sk, ack(nlh, 0, NULL));

	send_progress(s, false);
	if (is("ok")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		send_progress(s, false);
		s->count = c->duration ? 2000 : c->iters;
		send_progress(s, true);
		s->state = SPARKPERF_LAT_STATE_DONE;
		send_progress(s, false);
	} else if (is("noprogress")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		s->count = 10;
	} else if (is("fail")) {
		s->state = SPARKPERF_LAT_STATE_FAILED;
		send_progress(s, false);
	} else if (is("fail_mid")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		s->count = 300;
		send_progress(s, true);
		s->state = SPARKPERF_LAT_STATE_FAILED;
		send_progress(s, false);
	} else if (is("sigint") || is("sigint_twice")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		s->count = 700;
		send_progress(s, true);
		raise(SIGINT);	/* blocked now: delivered in the tool's ppoll() */
	} else if (is("sigint_early")) {
		raise(SIGINT);
	}
}

static void lat_get(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct session *s;
	struct nl_msg *m;
	int i;

	if (!tb[SPARKPERF_A_LAT_ID]) {	/* a dump: every session still owned */
		logf_("LAT_GET dump\n");
		for (i = 0; i < n_sessions; i++) {
			if (!sessions[i].owner)
				continue;
			m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_LAT_GET, NLM_F_MULTI);
			put_lat(m, &sessions[i]);
			queue(sk, m);
		}
		queue(sk, done(nlh->nlmsg_seq));
		return;
	}
	s = find(nla_get_u32(tb[SPARKPERF_A_LAT_ID]));
	logf_("LAT_GET id=%u\n", nla_get_u32(tb[SPARKPERF_A_LAT_ID]));
	if (!s || s->owner != sk) {
		queue(sk, ack(nlh, -ENOENT, "no latency session with this id"));
		return;
	}
	if (is("noprogress") && ++s->gets >= 2) {
		s->state = SPARKPERF_LAT_STATE_DONE;
		s->count = 1000;
	}
	m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_LAT_GET, 0);
	put_lat(m, s);
	queue(sk, m);
	queue(sk, ack(nlh, 0, NULL));
}

/* What a STOP does to a session in *state: true when it ends now. */
static bool stop_ends(uint8_t *state)
{
	if (is("sigint_twice")) {
		raise(SIGINT);	/* and the session never ends */
		return false;
	}
	if (*state != SPARKPERF_LAT_STATE_CONNECTING && *state != SPARKPERF_LAT_STATE_RUNNING)
		return false;
	*state = SPARKPERF_LAT_STATE_STOPPED;
	return true;
}

static void lat_stop(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct session *s = find(nla_get_u32(tb[SPARKPERF_A_LAT_ID]));

	logf_("LAT_STOP id=%u\n", nla_get_u32(tb[SPARKPERF_A_LAT_ID]));
	queue(sk, ack(nlh, 0, NULL));
	if (s && stop_ends(&s->state))
		send_progress(s, false);
}

static void lat_samples(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct session *s = find(nla_get_u32(tb[SPARKPERF_A_LAT_ID]));
	uint64_t kept, first, i, n;

	logf_("LAT_SAMPLES id=%u\n", nla_get_u32(tb[SPARKPERF_A_LAT_ID]));
	kept = s->count < (uint64_t)s->cfg.samples_max ? s->count : (uint64_t)s->cfg.samples_max;
	first = s->count - kept;
	/* in chunks of up to 64 samples, a datagram each */
	for (i = first; i < s->count; i += n) {
		uint64_t data[2 * 64], k;
		struct nl_msg *m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_LAT_SAMPLES, NLM_F_MULTI);

		n = s->count - i < 64 ? s->count - i : 64;
		for (k = 0; k < n; k++) {
			data[2 * k] = 1000 * (i + k);
			data[2 * k + 1] = rtt_of(s, i + k);
		}
		nla_put_u32(m, SPARKPERF_A_LAT_ID, s->id);
		nla_put_u64(m, SPARKPERF_A_SAMPLES_FIRST, i);
		nla_put(m, SPARKPERF_A_SAMPLES_DATA, (int)(n * 16), data);
		queue(sk, m);
	}
	queue(sk, done(nlh->nlmsg_seq));
}

static void server_put(struct nl_msg *m, uint32_t id, const void *addr, int alen, int port,
		       uint32_t active, uint64_t served)
{
	nla_put_u32(m, SPARKPERF_A_SERVER_ID, id);
	if (alen)
		nla_put(m, SPARKPERF_A_SERVER_ADDR, alen, addr);
	nla_put_u16(m, SPARKPERF_A_SERVER_PORT, (uint16_t)port);
	nla_put_u32(m, SPARKPERF_A_SERVER_ACTIVE, active);
	nla_put_u64(m, SPARKPERF_A_SERVER_SERVED, served);
}

static void server(struct fsock *sk, struct nlmsghdr *nlh, uint8_t cmd, struct nlattr **tb)
{
	static const uint8_t a13[4] = { 192, 168, 200, 13 };
	struct nl_msg *m;

	switch (cmd) {
	case SPARKPERF_CMD_SERVER_START:
		logf_("SERVER_START addr=%d port=%d\n",
		      tb[SPARKPERF_A_SERVER_ADDR] ? nla_len(tb[SPARKPERF_A_SERVER_ADDR]) : -1,
		      tb[SPARKPERF_A_SERVER_PORT] ? nla_get_u16(tb[SPARKPERF_A_SERVER_PORT]) : -1);
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_SERVER_GET, 0);
		server_put(m, 1,
			   tb[SPARKPERF_A_SERVER_ADDR] ? nla_data(tb[SPARKPERF_A_SERVER_ADDR]) : NULL,
			   tb[SPARKPERF_A_SERVER_ADDR] ? nla_len(tb[SPARKPERF_A_SERVER_ADDR]) : 0,
			   tb[SPARKPERF_A_SERVER_PORT] ? nla_get_u16(tb[SPARKPERF_A_SERVER_PORT]) :
			   SPARKPERF_PORT_DEFAULT, 0, 0);
		queue(sk, m);
		queue(sk, ack(nlh, 0, NULL));
		break;
	case SPARKPERF_CMD_SERVER_STOP:
		logf_("SERVER_STOP id=%d\n", tb[SPARKPERF_A_SERVER_ID] ?
		      (int)nla_get_u32(tb[SPARKPERF_A_SERVER_ID]) : -1);
		if (tb[SPARKPERF_A_SERVER_ID] && nla_get_u32(tb[SPARKPERF_A_SERVER_ID]) > 2)
			queue(sk, ack(nlh, -ENOENT, "no server with this id"));
		else
			queue(sk, ack(nlh, 0, NULL));
		break;
	case SPARKPERF_CMD_SERVER_GET:
		logf_("SERVER_GET dump\n");
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_SERVER_GET, NLM_F_MULTI);
		server_put(m, 1, NULL, 0, 18520, 0, 3);
		queue(sk, m);
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_SERVER_GET, NLM_F_MULTI);
		server_put(m, 2, a13, 4, 18521, 1, 42);
		queue(sk, m);
		queue(sk, done(nlh->nlmsg_seq));
		break;
	}
}

/* ---- bandwidth sessions ------------------------------------------------- */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static uint64_t bw_total(const struct bw_session *s)
{
	return s->bytes * (s->bidir ? 2 : 1);
}

static uint64_t bw_elapsed(const struct bw_session *s)
{
	return bw_total(s) * 4 / 5;	/* 10 Gbit/s */
}

/* Interval i (0..2) of the session: 20, 30, 50% of the bytes. */
static void bw_interval(const struct bw_session *s, int i, uint64_t *end, uint64_t *bytes,
			uint64_t *msgs)
{
	static const int pct[3] = { 20, 30, 50 }, at[3] = { 25, 50, 100 };
	uint64_t b = bw_total(s), m = s->msgs * (s->bidir ? 2 : 1);

	*end = bw_elapsed(s) * (uint64_t)at[i] / 100;
	*bytes = i < 2 ? b * (uint64_t)pct[i] / 100 : b - b / 5 - b * 3 / 10;
	*msgs = i < 2 ? m * (uint64_t)pct[i] / 100 : m - m / 5 - m * 3 / 10;
}

static void put_bw_interval(struct nl_msg *m, int type, const struct bw_session *s, int i)
{
	struct nlattr *iv = nla_nest_start(m, type);
	uint64_t end, bytes, msgs;

	bw_interval(s, i, &end, &bytes, &msgs);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_END_NS, end);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_COUNT, msgs);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_BYTES, bytes);
	nla_nest_end(m, iv);
}

/* interval: the index of the interval that just ended, or -1 */
static void send_bw_progress(struct bw_session *s, int interval)
{
	struct nl_msg *m = reply(0, SPARKPERF_CMD_BW_PROGRESS, 0);

	nla_put_u32(m, SPARKPERF_A_BW_ID, s->id);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, s->state);
	nla_put_u64(m, SPARKPERF_A_BW_TX_BYTES, s->bytes);
	nla_put_u64(m, SPARKPERF_A_BW_RX_BYTES, s->bidir ? s->bytes : 0);
	if (interval >= 0)
		put_bw_interval(m, SPARKPERF_A_BW_INTERVAL, s, interval);
	broadcast(m);
}

static void put_bw(struct nl_msg *m, struct bw_session *s)
{
	struct nlattr *ivs;
	int i;

	nla_put_u32(m, SPARKPERF_A_BW_ID, s->id);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, s->state);
	nla_put_u64(m, SPARKPERF_A_BW_TX_BYTES, s->bytes);
	if (is("sparse"))
		return;
	nla_put(m, SPARKPERF_A_BW_PEER, s->peer_len, s->peer);
	nla_put_u16(m, SPARKPERF_A_BW_PORT, (uint16_t)s->port);
	nla_put_string(m, SPARKPERF_A_BW_DEV, s->dev);
	nla_put_u8(m, SPARKPERF_A_BW_OP, (uint8_t)s->op);
	nla_put_u32(m, SPARKPERF_A_BW_SIZE, (uint32_t)s->size);
	nla_put_u32(m, SPARKPERF_A_BW_QPS, (uint32_t)s->qps);
	nla_put_u32(m, SPARKPERF_A_BW_THREADS, (uint32_t)s->threads);
	nla_put_u32(m, SPARKPERF_A_BW_DEPTH, (uint32_t)s->depth);
	nla_put_u32(m, SPARKPERF_A_BW_SIGNAL, (uint32_t)s->signal);
	if (s->duration)
		nla_put_u32(m, SPARKPERF_A_BW_DURATION_MS, (uint32_t)s->duration);
	else
		nla_put_u64(m, SPARKPERF_A_BW_ITERS, s->iters);
	if (s->bidir)
		nla_put_flag(m, SPARKPERF_A_BW_BIDIR);
	if (s->validate)
		nla_put_flag(m, SPARKPERF_A_BW_VALIDATE);
	nla_put_u32(m, SPARKPERF_A_BW_INTERVAL_MS, (uint32_t)s->interval);
	if (s->state == SPARKPERF_LAT_STATE_FAILED) {
		nla_put_s32(m, SPARKPERF_A_BW_ERROR, -EIO);
		nla_put_string(m, SPARKPERF_A_BW_ERROR_MSG, is("fail") ?
			       "no sparkperf server answers at this address and port" :
			       "work completion error: status 12 (transport retry counter "
			       "exceeded), opcode RDMA_WRITE, vendor error 0x81");
	}
	if (s->state == SPARKPERF_LAT_STATE_CONNECTING)
		return;
	nla_put_u64(m, SPARKPERF_A_BW_START_NS, 1000000000000ULL + 1000ULL * (uint64_t)s->k);
	nla_put_u64(m, SPARKPERF_A_BW_ELAPSED_NS, bw_elapsed(s));
	nla_put_u64(m, SPARKPERF_A_BW_TX_MSGS, s->msgs);
	nla_put_u64(m, SPARKPERF_A_BW_RX_BYTES, s->bidir ? s->bytes : 0);
	nla_put_u64(m, SPARKPERF_A_BW_RX_MSGS, s->bidir ? s->msgs : 0);
	if (s->validate)
		nla_put_u64(m, SPARKPERF_A_BW_VALIDATE_ERRORS, 0);
	nla_put_u64(m, SPARKPERF_A_BW_CPU_NS, bw_elapsed(s) / 2);
	if (!s->bytes)
		return;
	ivs = nla_nest_start(m, SPARKPERF_A_BW_INTERVALS);
	for (i = 0; i < 3; i++)
		put_bw_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, s, i);
	nla_nest_end(m, ivs);
}

static int u32_or(struct nlattr **tb, int type, int def)
{
	return tb[type] ? (int)nla_get_u32(tb[type]) : def;
}

/* "ok" within 0.5..1.5 s from now, "bad" otherwise, "-" without */
static const char *start_at(struct nlattr *a)
{
	int64_t d;

	if (!a)
		return "-";
	d = (int64_t)nla_get_u64(a) - now_ns();
	return d > 500000000 && d < 1500000000 ? "ok" : "bad";
}

/* Moves the session's messages: all of them, or half (fail, stop) */
static void bw_move(struct bw_session *s, bool half)
{
	uint64_t n = (uint64_t)s->qps * (s->duration ? 1000 : s->iters);

	s->msgs = half ? n / 2 : n;
	s->bytes = s->msgs * (uint64_t)s->size;
}

static void bw_run(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct bw_session *s = &bw_sessions[n_bw];
	struct nl_msg *m;
	int i;

	logf_("BW_RUN peer=%d port=%d dev=%s op=%d size=%d qps=%d threads=%d depth=%d "
	      "signal=%d iters=%lld duration=%d bidir=%d validate=%d interval=%d start_at=%s\n",
	      tb[SPARKPERF_A_BW_PEER] ? nla_len(tb[SPARKPERF_A_BW_PEER]) : -1,
	      tb[SPARKPERF_A_BW_PORT] ? nla_get_u16(tb[SPARKPERF_A_BW_PORT]) : -1,
	      tb[SPARKPERF_A_BW_DEV] ? (char *)nla_data(tb[SPARKPERF_A_BW_DEV]) : "-",
	      tb[SPARKPERF_A_BW_OP] ? nla_get_u8(tb[SPARKPERF_A_BW_OP]) : -1,
	      u32_or(tb, SPARKPERF_A_BW_SIZE, -1), u32_or(tb, SPARKPERF_A_BW_QPS, -1),
	      u32_or(tb, SPARKPERF_A_BW_THREADS, -1), u32_or(tb, SPARKPERF_A_BW_DEPTH, -1),
	      u32_or(tb, SPARKPERF_A_BW_SIGNAL, -1),
	      tb[SPARKPERF_A_BW_ITERS] ? (long long)nla_get_u64(tb[SPARKPERF_A_BW_ITERS]) : -1,
	      u32_or(tb, SPARKPERF_A_BW_DURATION_MS, -1), tb[SPARKPERF_A_BW_BIDIR] != NULL,
	      tb[SPARKPERF_A_BW_VALIDATE] != NULL, u32_or(tb, SPARKPERF_A_BW_INTERVAL_MS, -1),
	      start_at(tb[SPARKPERF_A_BW_START_AT_NS]));

	if (is("eperm")) {
		queue(sk, ack(nlh, -EPERM, NULL));
		return;
	}
	if (is("extack") || (is("bw_refuse_second") && n_bw == 1)) {
		queue(sk, ack(nlh, -EINVAL, "bidirectional runs need op write or send"));
		return;
	}
	memset(s, 0, sizeof(*s));
	s->id = 200 + (uint32_t)n_bw;
	s->k = n_bw++;
	s->owner = sk;
	s->peer_len = nla_len(tb[SPARKPERF_A_BW_PEER]);
	memcpy(s->peer, nla_data(tb[SPARKPERF_A_BW_PEER]), (size_t)s->peer_len);
	snprintf(s->dev, sizeof(s->dev), "%s", tb[SPARKPERF_A_BW_DEV] ?
		 (char *)nla_data(tb[SPARKPERF_A_BW_DEV]) : "rxe0");
	s->port = tb[SPARKPERF_A_BW_PORT] ? nla_get_u16(tb[SPARKPERF_A_BW_PORT]) :
		  SPARKPERF_PORT_DEFAULT;
	s->op = tb[SPARKPERF_A_BW_OP] ? nla_get_u8(tb[SPARKPERF_A_BW_OP]) :
		SPARKPERF_LAT_OP_WRITE;
	s->size = u32_or(tb, SPARKPERF_A_BW_SIZE, 65536);
	s->qps = u32_or(tb, SPARKPERF_A_BW_QPS, 1);
	s->threads = u32_or(tb, SPARKPERF_A_BW_THREADS, 1);
	s->depth = u32_or(tb, SPARKPERF_A_BW_DEPTH, 128);
	s->signal = u32_or(tb, SPARKPERF_A_BW_SIGNAL, s->depth < 16 ? s->depth : 16);
	s->iters = tb[SPARKPERF_A_BW_ITERS] ? nla_get_u64(tb[SPARKPERF_A_BW_ITERS]) : 5000;
	s->duration = u32_or(tb, SPARKPERF_A_BW_DURATION_MS, 0);
	s->bidir = tb[SPARKPERF_A_BW_BIDIR] != NULL;
	s->validate = tb[SPARKPERF_A_BW_VALIDATE] != NULL;
	s->interval = u32_or(tb, SPARKPERF_A_BW_INTERVAL_MS, 100);
	s->state = SPARKPERF_LAT_STATE_CONNECTING;

	m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_BW_RUN, 0);
	nla_put_u32(m, SPARKPERF_A_BW_ID, s->id);
	queue(sk, m);
	queue(sk, ack(nlh, 0, NULL));

	send_bw_progress(s, -1);
	if (is("ok") || is("bw_refuse_second") || is("sparse") ||
	    (is("bw_fail_second") && !(s->k % 2))) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		send_bw_progress(s, -1);
		bw_move(s, false);
		for (i = 0; i < 3; i++)
			send_bw_progress(s, i);
		s->state = SPARKPERF_LAT_STATE_DONE;
		send_bw_progress(s, -1);
	} else if (is("noprogress")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
	} else if (is("fail")) {
		s->state = SPARKPERF_LAT_STATE_FAILED;
		send_bw_progress(s, -1);
	} else if (is("bw_fail_second")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		bw_move(s, true);
		send_bw_progress(s, 0);
		s->state = SPARKPERF_LAT_STATE_FAILED;
		send_bw_progress(s, -1);
	} else if (is("sigint") || is("sigint_twice")) {
		s->state = SPARKPERF_LAT_STATE_RUNNING;
		bw_move(s, true);
		send_bw_progress(s, 0);
		if (!s->k)
			raise(SIGINT);	/* blocked now: delivered in the tool's ppoll() */
	} else if (is("sigint_early") && !s->k) {
		raise(SIGINT);
	}
}

static struct bw_session *bw_find(uint32_t id)
{
	int i;

	for (i = 0; i < n_bw; i++)
		if (bw_sessions[i].id == id)
			return &bw_sessions[i];
	return NULL;
}

/* Sessions 5 and 6 of another process, for bw_list. */
static void bw_canned(struct bw_session *s, uint32_t id)
{
	static const uint8_t a12[4] = { 192, 168, 200, 12 };

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->k = 0;
	memcpy(s->peer, a12, 4);
	s->peer_len = 4;
	snprintf(s->dev, sizeof(s->dev), "%s", id == 5 ? "rocep1s0f0" : "roceP2p1s0f0");
	s->port = 18520;
	s->op = id == 5 ? SPARKPERF_LAT_OP_WRITE : SPARKPERF_LAT_OP_READ;
	s->size = 65536;
	s->qps = id == 5 ? 4 : 1;
	s->threads = id == 5 ? 2 : 1;
	s->depth = 128;
	s->signal = 16;
	s->iters = 5000;
	s->interval = 100;
	s->validate = id == 6;
	s->state = id == 5 ? SPARKPERF_LAT_STATE_RUNNING : SPARKPERF_LAT_STATE_DONE;
	bw_move(s, id == 5);
}

static void bw_get(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	struct bw_session *s, canned;
	struct nl_msg *m;
	uint32_t id;
	int i;

	if (!tb[SPARKPERF_A_BW_ID]) {	/* a dump: every session still owned */
		logf_("BW_GET dump\n");
		for (i = 0; is("bw_list") && i < 2; i++) {
			bw_canned(&canned, 5 + (uint32_t)i);
			m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_BW_GET, NLM_F_MULTI);
			put_bw(m, &canned);
			queue(sk, m);
		}
		for (i = 0; i < n_bw; i++) {
			if (!bw_sessions[i].owner)
				continue;
			m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_BW_GET, NLM_F_MULTI);
			put_bw(m, &bw_sessions[i]);
			queue(sk, m);
		}
		queue(sk, done(nlh->nlmsg_seq));
		return;
	}
	id = nla_get_u32(tb[SPARKPERF_A_BW_ID]);
	logf_("BW_GET id=%u\n", id);
	s = bw_find(id);
	if (is("bw_list") && id == 5) {
		bw_canned(&canned, 5);
		s = &canned;
	} else if (!s || s->owner != sk) {
		queue(sk, ack(nlh, -ENOENT, "no bandwidth session with this id"));
		return;
	}
	if (is("noprogress") && ++s->gets >= 2) {
		bw_move(s, false);
		s->state = SPARKPERF_LAT_STATE_DONE;
	}
	m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_BW_GET, 0);
	put_bw(m, s);
	queue(sk, m);
	queue(sk, ack(nlh, 0, NULL));
}

static void bw_stop(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	uint32_t id = nla_get_u32(tb[SPARKPERF_A_BW_ID]);
	struct bw_session *s = bw_find(id);

	logf_("BW_STOP id=%u\n", id);
	if (!s && !(is("bw_list") && id == 5)) {
		queue(sk, ack(nlh, -ENOENT, "no bandwidth session with this id"));
		return;
	}
	queue(sk, ack(nlh, 0, NULL));
	if (s && stop_ends(&s->state))
		send_bw_progress(s, -1);
}

int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	struct fsock *s = (struct fsock *)sk;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1];
	struct genlmsghdr *ghdr = nlmsg_data(nlh);
	struct nl_msg *m;

	nlh->nlmsg_seq = ++s->seq;
	nlh->nlmsg_pid = (uint32_t)getpid();
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_LAT_MAX, NULL) < 0)
		abort();
	switch (ghdr->cmd) {
	case SPARKPERF_CMD_INFO_GET:
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_INFO_GET, 0);
		nla_put_string(m, SPARKPERF_A_INFO_VERSION, "0.1.0-fake");
		nla_put_string(m, SPARKPERF_A_INFO_KERNEL, "6.1.0-fake");
		nla_put_u32(m, SPARKPERF_A_INFO_DEVICES, 1);
		queue(s, m);
		queue(s, ack(nlh, 0, NULL));
		break;
	case SPARKPERF_CMD_LAT_RUN:
		lat_run(s, nlh, tb);
		break;
	case SPARKPERF_CMD_LAT_GET:
		lat_get(s, nlh, tb);
		break;
	case SPARKPERF_CMD_LAT_STOP:
		lat_stop(s, nlh, tb);
		break;
	case SPARKPERF_CMD_LAT_SAMPLES:
		lat_samples(s, nlh, tb);
		break;
	case SPARKPERF_CMD_BW_RUN:
	case SPARKPERF_CMD_BW_GET:
	case SPARKPERF_CMD_BW_STOP: {
		struct nlattr *btb[SPARKPERF_A_BW_MAX + 1];

		genlmsg_parse(nlh, 0, btb, SPARKPERF_A_BW_MAX, NULL);
		if (ghdr->cmd == SPARKPERF_CMD_BW_RUN)
			bw_run(s, nlh, btb);
		else if (ghdr->cmd == SPARKPERF_CMD_BW_GET)
			bw_get(s, nlh, btb);
		else
			bw_stop(s, nlh, btb);
		break;
	}
	case SPARKPERF_CMD_SERVER_START:
	case SPARKPERF_CMD_SERVER_STOP:
	case SPARKPERF_CMD_SERVER_GET: {
		struct nlattr *stb[SPARKPERF_A_SERVER_MAX + 1];

		genlmsg_parse(nlh, 0, stb, SPARKPERF_A_SERVER_MAX, NULL);
		server(s, nlh, ghdr->cmd, stb);
		break;
	}
	default:
		queue(s, ack(nlh, -EOPNOTSUPP, NULL));
		break;
	}
	return (int)nlh->nlmsg_len;
}
