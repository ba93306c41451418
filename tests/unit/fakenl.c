// SPDX-License-Identifier: GPL-2.0
/*
 * A scripted sparkperf "kernel" for end-to-end tests of the real
 * sparkperf-ctl binary, without the module: LD_PRELOAD=./fakenl.so replaces
 * the libnl socket calls the tool makes (nl_socket_alloc, genl_connect,
 * genl_ctrl_resolve*, nl_send_auto, nl_recv, ...) and answers each request
 * from the scenario named by $FAKENL, with messages built by the real libnl.
 * Multicast progress is queued on a pipe, so that ppoll() sees it.
 *
 * libibverbs lists no device (ibv_get_device_list is replaced too).
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
 *
 * Devices and counters: DEV_GET lists rxe0 (port 1, 10 Gbit/s, netdev eth0,
 * ifindex 2), and in two scenarios the four halves of a DGX Spark's two
 * QSFP ports (ConnectX-7 functions 0000:01:00.0/.1 and 0002:01:00.0/.1),
 * port 0's cabled (ACTIVE, 200 Gbit/s, MTU 9000, RoCE MTU 4096), port 1's
 * down:
 *	spark		spark1: rocep1s0f0 192.168.200.12, roceP2p1s0f0
 *			192.168.201.12, each at RoCE v2 GID index 3
 *	spark_b		spark2, its devices listed in another order:
 *			roceP2p1s0f0 192.168.201.13 at index 5 (an IPv6 address
 *			took 2 and 3), rocep1s0f0 192.168.200.13 at 3
 * COUNTERS_GET and TRACE_START know the netdev eth0 (netdev
 * stream rx_bytes, tx_bytes, rx_packets, tx_packets; ethtool stream
 * tx_queue_0_bytes, rx_queue_0_bytes, rx_queue_0_packets) and rxe0/1 (rdma
 * stream sent_pkts, rcvd_pkts, duplicate_request), filtered by the globs;
 * anything else is -ENODEV. A trace (id 7) takes 4 samples per stream at
 * 10^12 + k x period ns (netdev k = 2 is 100 us late), in sequence order
 * by time; tx_bytes grows by 2500000, rx_bytes by 1250000 a sample,
 * rx_queue_0_packets wraps at 2^32. In "ok" the samples go to the "trace"
 * group at TRACE_START, 4 a batch, then TRACE_END (DONE). And:
 *	trace_table	the ethtool table becomes version 2 from k = 2 on, with
 *			rx_prio3_pause first (TRACE_TABLE before the batches)
 *	trace_lost	the second batch is never multicast
 *	trace_enobufs	the second batch is never multicast and the "trace"
 *			socket's next receive fails with ENOBUFS
 *	trace_end_lost	the TRACE_END is never multicast and the "trace"
 *			socket's next receive fails with ENOBUFS
 *	trace_sigint	SIGINT at TRACE_START, nothing multicast; TRACE_STOP ends it
 *	trace_eperm	joining the "trace" group fails with EPERM
 *	trace_start_eperm  TRACE_START is refused with EPERM, no extended ACK
 *	trace_list	TRACE_GET dump lists trace 3 of another process, running
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
#include <fnmatch.h>
#include <arpa/inet.h>
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
#include <infiniband/verbs.h>

#define FAMILY 0x1f
#define GRP_EVENTS 5
#define GRP_PROGRESS 6
#define GRP_TRACE 7

struct dgram {
	struct dgram *next;
	size_t len;
	unsigned char data[];
};

struct fsock {
	int rfd, wfd;			/* a pipe: readable when a datagram is queued */
	bool mcast;
	bool enobufs;			/* the next receive fails with ENOBUFS */
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
static struct fsock *trace_socks[16];
static int n_trace_socks;
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
	for (i = 0; i < n_trace_socks; i++)
		if (trace_socks[i] == s)
			trace_socks[i] = NULL;
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

/*
 * libibverbs sees no device in a scripted kernel: its own device listing
 * would go through the libnl calls replaced here, on sockets it does not
 * expect to be ours.
 */
struct ibv_device **ibv_get_device_list(int *num_devices)
{
	if (num_devices)
		*num_devices = 0;
	return calloc(1, sizeof(struct ibv_device *));
}

void ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

/* rtnetlink is not scripted: the tool does without it */
int nl_connect(struct nl_sock *sk, int protocol)
{
	(void)sk;
	(void)protocol;
	return -NLE_FAILURE;
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
	if (!strcmp(grp, SPARKPERF_MCGRP_TRACE))
		return GRP_TRACE;
	return -NLE_OBJ_NOTFOUND;
}

int nl_socket_add_membership(struct nl_sock *sk, int group)
{
	struct fsock *s = (struct fsock *)sk;

	if (group == GRP_PROGRESS && is("eperm"))
		return -NLE_PERM;
	if (group == GRP_TRACE && is("trace_eperm"))
		return -NLE_PERM;
	if (group == GRP_TRACE && n_trace_socks < 16)
		trace_socks[n_trace_socks++] = s;
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
	if (s->enobufs) {
		s->enobufs = false;
		return -NLE_NOMEM;	/* as libnl reports recvmsg()'s ENOBUFS */
	}
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

/* A server as the module reports it; budgets from tb (SERVER_START) or the defaults. */
static void server_put(struct nl_msg *m, uint32_t id, const void *addr, int alen, int port,
		       uint32_t active, uint64_t served, struct nlattr **tb)
{
	struct nlattr *cm = tb ? tb[SPARKPERF_A_SERVER_CONNS_MAX] : NULL;
	struct nlattr *tm = tb ? tb[SPARKPERF_A_SERVER_THREADS_MAX] : NULL;
	struct nlattr *bm = tb ? tb[SPARKPERF_A_SERVER_BYTES_MAX] : NULL;
	struct nlattr *allow = tb ? tb[SPARKPERF_A_SERVER_ALLOW] : NULL;

	nla_put_u32(m, SPARKPERF_A_SERVER_ID, id);
	if (alen)
		nla_put(m, SPARKPERF_A_SERVER_ADDR, alen, addr);
	nla_put_u16(m, SPARKPERF_A_SERVER_PORT, (uint16_t)port);
	nla_put_u32(m, SPARKPERF_A_SERVER_ACTIVE, active);
	nla_put_u64(m, SPARKPERF_A_SERVER_SERVED, served);
	nla_put_u64(m, SPARKPERF_A_SERVER_REJECTED, served / 3);
	nla_put_u32(m, SPARKPERF_A_SERVER_CONNS_MAX, cm ? nla_get_u32(cm) :
		    SPARKPERF_SERVER_CONNS_MAX);
	nla_put_u32(m, SPARKPERF_A_SERVER_THREADS_MAX, tm ? nla_get_u32(tm) :
		    SPARKPERF_SERVER_CONNS_MAX);
	nla_put_u64(m, SPARKPERF_A_SERVER_BYTES_MAX, bm ? nla_get_u64(bm) :
		    SPARKPERF_SERVER_BYTES_DEFAULT);
	nla_put_u32(m, SPARKPERF_A_SERVER_THREADS, active);
	nla_put_u64(m, SPARKPERF_A_SERVER_BYTES, active * 2ULL * 65536);
	if (allow)
		nla_put(m, SPARKPERF_A_SERVER_ALLOW, nla_len(allow), nla_data(allow));
}

static void server(struct fsock *sk, struct nlmsghdr *nlh, uint8_t cmd, struct nlattr **tb)
{
	static const uint8_t a13[4] = { 192, 168, 200, 13 };
	struct nl_msg *m;

	switch (cmd) {
	case SPARKPERF_CMD_SERVER_START:
		logf_("SERVER_START addr=%d port=%d conns=%d threads=%d bytes=%lld allow=%d\n",
		      tb[SPARKPERF_A_SERVER_ADDR] ? nla_len(tb[SPARKPERF_A_SERVER_ADDR]) : -1,
		      tb[SPARKPERF_A_SERVER_PORT] ? nla_get_u16(tb[SPARKPERF_A_SERVER_PORT]) : -1,
		      tb[SPARKPERF_A_SERVER_CONNS_MAX] ?
		      (int)nla_get_u32(tb[SPARKPERF_A_SERVER_CONNS_MAX]) : -1,
		      tb[SPARKPERF_A_SERVER_THREADS_MAX] ?
		      (int)nla_get_u32(tb[SPARKPERF_A_SERVER_THREADS_MAX]) : -1,
		      tb[SPARKPERF_A_SERVER_BYTES_MAX] ?
		      (long long)nla_get_u64(tb[SPARKPERF_A_SERVER_BYTES_MAX]) : -1LL,
		      tb[SPARKPERF_A_SERVER_ALLOW] ? nla_len(tb[SPARKPERF_A_SERVER_ALLOW]) : -1);
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_SERVER_GET, 0);
		server_put(m, 1,
			   tb[SPARKPERF_A_SERVER_ADDR] ? nla_data(tb[SPARKPERF_A_SERVER_ADDR]) : NULL,
			   tb[SPARKPERF_A_SERVER_ADDR] ? nla_len(tb[SPARKPERF_A_SERVER_ADDR]) : 0,
			   tb[SPARKPERF_A_SERVER_PORT] ? nla_get_u16(tb[SPARKPERF_A_SERVER_PORT]) :
			   SPARKPERF_PORT_DEFAULT, 0, 0, tb);
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
		server_put(m, 1, NULL, 0, 18520, 0, 3, NULL);
		queue(sk, m);
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_SERVER_GET, NLM_F_MULTI);
		server_put(m, 2, a13, 4, 18521, 1, 42, NULL);
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

/* ---- devices, counters and traces ------------------------------------------ */

/* A RoCE GID: fe80:: + the interface id of a MAC, ::ffff:IPv4, or an IPv6 address. */
static void put_gid(struct nl_msg *m, uint32_t index, uint8_t type, const char *addr)
{
	struct nlattr *gid = nla_nest_start(m, SPARKPERF_A_PORT_GID);
	uint8_t raw[16] = { 0 };

	if (strchr(addr, ':')) {
		inet_pton(AF_INET6, addr, raw);
	} else {
		raw[10] = raw[11] = 0xff;
		inet_pton(AF_INET, addr, raw + 12);
	}
	nla_put_u32(m, SPARKPERF_A_GID_INDEX, index);
	nla_put_u8(m, SPARKPERF_A_GID_TYPE, type);
	nla_put(m, SPARKPERF_A_GID_GID, sizeof(raw), raw);
	nla_nest_end(m, gid);
}

/* A Spark half: an RDMA device of one port on its netdev. */
struct fk_half {
	const char *name, *parent, *netdev;
	uint32_t ifindex;
	bool active;
	const char *ipv6;		/* a global IPv6 address before the IPv4 one; NULL: none */
	const char *ipv4;		/* NULL: none */
	uint32_t v2_index;		/* the IPv4 address's RoCE v2 GID */
};

static const struct fk_half spark_a[] = {
	{ "rocep1s0f0", "0000:01:00.0", "enp1s0f0np0", 3, true, NULL, "192.168.200.12", 3 },
	{ "rocep1s0f1", "0000:01:00.1", "enp1s0f1np1", 4, false, NULL, NULL, 0 },
	{ "roceP2p1s0f0", "0002:01:00.0", "enP2p1s0f0np0", 5, true, NULL, "192.168.201.12", 3 },
	{ "roceP2p1s0f1", "0002:01:00.1", "enP2p1s0f1np1", 6, false, NULL, NULL, 0 },
};

static const struct fk_half spark_b[] = {
	{ "roceP2p1s0f0", "0002:01:00.0", "enP2p1s0f0np0", 5, true, "fd00:201::13",
	  "192.168.201.13", 5 },
	{ "roceP2p1s0f1", "0002:01:00.1", "enP2p1s0f1np1", 6, false, NULL, NULL, 0 },
	{ "rocep1s0f0", "0000:01:00.0", "enp1s0f0np0", 3, true, NULL, "192.168.200.13", 3 },
	{ "rocep1s0f1", "0000:01:00.1", "enp1s0f1np1", 4, false, NULL, NULL, 0 },
};

static void put_half(struct nl_msg *m, uint32_t index, const struct fk_half *h)
{
	struct nlattr *ports, *port, *gids;
	char ll[32];

	nla_put_u32(m, SPARKPERF_A_DEV_INDEX, index);
	nla_put_string(m, SPARKPERF_A_DEV_NAME, h->name);
	nla_put_u64(m, SPARKPERF_A_DEV_NODE_GUID, 0x4cbb470300aabb00ULL + index);
	nla_put_s32(m, SPARKPERF_A_DEV_NUMA_NODE, 0);
	nla_put_string(m, SPARKPERF_A_DEV_PARENT, h->parent);
	ports = nla_nest_start(m, SPARKPERF_A_DEV_PORTS);
	port = nla_nest_start(m, SPARKPERF_A_DEV_PORT);
	nla_put_u32(m, SPARKPERF_A_PORT_NUM, 1);
	nla_put_u8(m, SPARKPERF_A_PORT_STATE, h->active ? SPARKPERF_PORT_ACTIVE :
		   SPARKPERF_PORT_DOWN);
	nla_put_u8(m, SPARKPERF_A_PORT_PHYS_STATE, h->active ? SPARKPERF_PHYS_LINK_UP :
		   SPARKPERF_PHYS_DISABLED);
	nla_put_u8(m, SPARKPERF_A_PORT_LINK_LAYER, SPARKPERF_LINK_LAYER_ETHERNET);
	nla_put_u32(m, SPARKPERF_A_PORT_ACTIVE_MTU, h->active ? 4096 : 1024);
	nla_put_u32(m, SPARKPERF_A_PORT_MAX_MTU, 4096);
	nla_put_u8(m, SPARKPERF_A_PORT_ACTIVE_SPEED, SPARKPERF_SPEED_NDR);
	nla_put_u8(m, SPARKPERF_A_PORT_ACTIVE_WIDTH, 2);
	nla_put_u32(m, SPARKPERF_A_PORT_RATE, h->active ? 200000 : 0);
	nla_put_u32(m, SPARKPERF_A_PORT_NETDEV_IFINDEX, h->ifindex);
	nla_put_string(m, SPARKPERF_A_PORT_NETDEV_NAME, h->netdev);
	nla_put_u32(m, SPARKPERF_A_PORT_NETDEV_MTU, h->active ? 9000 : 1500);
	nla_put_u8(m, SPARKPERF_A_PORT_NETDEV_OPERSTATE, h->active ? 6 : 2);	/* UP, DOWN */
	gids = nla_nest_start(m, SPARKPERF_A_PORT_GIDS);
	snprintf(ll, sizeof(ll), "fe80::4ebb:47ff:fe00:%x", index);
	put_gid(m, 0, SPARKPERF_GID_TYPE_ROCE_V1, ll);
	put_gid(m, 1, SPARKPERF_GID_TYPE_ROCE_V2, ll);
	if (h->ipv6) {
		put_gid(m, 2, SPARKPERF_GID_TYPE_ROCE_V1, h->ipv6);
		put_gid(m, 3, SPARKPERF_GID_TYPE_ROCE_V2, h->ipv6);
	}
	if (h->ipv4) {
		put_gid(m, h->v2_index - 1, SPARKPERF_GID_TYPE_ROCE_V1, h->ipv4);
		put_gid(m, h->v2_index, SPARKPERF_GID_TYPE_ROCE_V2, h->ipv4);
	}
	nla_nest_end(m, gids);
	nla_nest_end(m, port);
	nla_nest_end(m, ports);
}

static void put_rxe0(struct nl_msg *m)
{
	struct nlattr *ports, *port;

	nla_put_u32(m, SPARKPERF_A_DEV_INDEX, 1);
	nla_put_string(m, SPARKPERF_A_DEV_NAME, "rxe0");
	nla_put_s32(m, SPARKPERF_A_DEV_NUMA_NODE, -1);
	ports = nla_nest_start(m, SPARKPERF_A_DEV_PORTS);
	port = nla_nest_start(m, SPARKPERF_A_DEV_PORT);
	nla_put_u32(m, SPARKPERF_A_PORT_NUM, 1);
	nla_put_u8(m, SPARKPERF_A_PORT_STATE, SPARKPERF_PORT_ACTIVE);
	nla_put_u8(m, SPARKPERF_A_PORT_LINK_LAYER, SPARKPERF_LINK_LAYER_ETHERNET);
	nla_put_u32(m, SPARKPERF_A_PORT_RATE, 10000);
	nla_put_u32(m, SPARKPERF_A_PORT_NETDEV_IFINDEX, 2);
	nla_put_string(m, SPARKPERF_A_PORT_NETDEV_NAME, "eth0");
	nla_nest_end(m, port);
	nla_nest_end(m, ports);
}

static void dev_get(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	const struct fk_half *halves = is("spark") ? spark_a : is("spark_b") ? spark_b : NULL;
	const char *want = tb[SPARKPERF_A_DEV_NAME] ? nla_data(tb[SPARKPERF_A_DEV_NAME]) : NULL;
	size_t n = halves ? 4 : 1, i, found = 0;
	struct nl_msg *m;

	logf_("DEV_GET %s\n", want ? want : "dump");
	for (i = 0; i < n; i++) {
		if (want && strcmp(want, halves ? halves[i].name : "rxe0"))
			continue;
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_DEV_GET, want ? 0 : NLM_F_MULTI);
		if (halves)
			put_half(m, (uint32_t)i + 1, &halves[i]);
		else
			put_rxe0(m);
		queue(sk, m);
		found++;
	}
	if (want && !found)
		queue(sk, ack(nlh, -ENODEV, "no RDMA device with this name"));
	else
		queue(sk, want ? ack(nlh, 0, NULL) : done(nlh->nlmsg_seq));
}

#define FK_STREAMS 3
#define FK_NAMES 4
#define FK_K 4

struct fk_stream {
	int source;
	const char *target;
	bool rdma;
	const char *names[FK_NAMES];	/* the version 1 table */
	int n;
	bool keep[FK_NAMES + 1];	/* selected by the globs */
	int n_keep;
	uint32_t period_us;
};

static struct fk_stream fk[FK_STREAMS];
static int n_fk;

static struct {
	bool exists, ended;
	uint32_t id;
	struct fsock *owner;
	uint8_t state;
	int duration;
	uint32_t buffer, batch;
} fk_trace;

static const struct fk_stream fk_all[FK_STREAMS] = {
	{ SPARKPERF_SRC_NETDEV, "eth0", false,
	  { "rx_bytes", "tx_bytes", "rx_packets", "tx_packets" }, 4, { 0 }, 0, 1000 },
	{ SPARKPERF_SRC_ETHTOOL, "eth0", false,
	  { "tx_queue_0_bytes", "rx_queue_0_bytes", "rx_queue_0_packets" }, 3, { 0 }, 0, 10000 },
	{ SPARKPERF_SRC_RDMA, "rxe0", true,
	  { "sent_pkts", "rcvd_pkts", "duplicate_request" }, 3, { 0 }, 0, 10000 },
};

static const char *const src_names[] = { "", "netdev", "ethtool", "rdma" };

static bool glob_ok(struct nlattr *globs, int source, const char *name)
{
	struct nlattr *g;
	int rem;

	if (!globs)
		return true;
	nla_for_each_nested(g, globs, rem) {
		const char *pat = nla_data(g), *colon = strchr(pat, ':');

		if (colon) {
			if (strncmp(pat, src_names[source], (size_t)(colon - pat)))
				continue;
			pat = colon + 1;
		}
		if (!fnmatch(pat, name, 0))
			return true;
	}
	return false;
}

/* The streams of one target, filtered: appended to fk[]; false for an unknown target. */
static bool fk_select(struct nlattr *target, struct nlattr *globs, char *desc, size_t len)
{
	struct nlattr *t[SPARKPERF_A_TARGET_MAX + 1];
	const char *name;
	bool rdma;
	int i, k;

	nla_parse_nested(t, SPARKPERF_A_TARGET_MAX, target, NULL);
	rdma = t[SPARKPERF_A_TARGET_RDMA_DEV] != NULL;
	name = nla_data(rdma ? t[SPARKPERF_A_TARGET_RDMA_DEV] : t[SPARKPERF_A_TARGET_NETDEV]);
	snprintf(desc + strlen(desc), len - strlen(desc), "%s%s:%s%s", desc[0] ? "," : "",
		 rdma ? "rdma" : "netdev", name,
		 rdma && t[SPARKPERF_A_TARGET_RDMA_PORT] ? "/1" : "");
	if (strcmp(name, rdma ? "rxe0" : "eth0"))
		return false;
	for (i = 0; i < FK_STREAMS; i++) {
		struct fk_stream *f;

		if (fk_all[i].rdma != rdma || n_fk == FK_STREAMS)
			continue;
		f = &fk[n_fk];
		*f = fk_all[i];
		for (k = 0; k < f->n; k++) {
			f->keep[k] = glob_ok(globs, f->source, f->names[k]);
			f->n_keep += f->keep[k];
		}
		/* the name version 2 adds */
		f->keep[FK_NAMES] = f->source == SPARKPERF_SRC_ETHTOOL &&
				    glob_ok(globs, f->source, "rx_prio3_pause");
		if (f->n_keep)
			n_fk++;
	}
	return true;
}

static int fk_version(const struct fk_stream *f, int k)
{
	return is("trace_table") && f->source == SPARKPERF_SRC_ETHTOOL && k >= 2 ? 2 : 1;
}

/* The selected names of table version v, and their values at sample k. */
static int fk_table(const struct fk_stream *f, int v, int k, const char **names,
		    uint64_t *values)
{
	int i, n = 0;

	if (v == 2 && f->keep[FK_NAMES]) {
		names[n] = "rx_prio3_pause";
		values[n++] = 3 + (uint64_t)k;
	}
	for (i = 0; i < f->n; i++) {
		uint64_t val;

		if (!f->keep[i])
			continue;
		if (!strcmp(f->names[i], "rx_bytes"))
			val = 1000 + 1250000ULL * (uint64_t)k;
		else if (!strcmp(f->names[i], "tx_bytes"))
			val = 2000 + 2500000ULL * (uint64_t)k;
		else if (!strcmp(f->names[i], "rx_queue_0_packets"))
			val = (4294967196ULL + 50ULL * (uint64_t)k) & 0xffffffffULL;
		else if (!strcmp(f->names[i], "rx_queue_0_bytes") ||
			 !strcmp(f->names[i], "duplicate_request"))
			val = 0;
		else
			val = 5 + 100ULL * (uint64_t)k;
		names[n] = f->names[i];
		values[n++] = val;
	}
	return n;
}

static void put_stream(struct nl_msg *m, int idx, int version, bool stats, bool values)
{
	const struct fk_stream *f = &fk[idx];
	struct nlattr *st = nla_nest_start(m, SPARKPERF_A_TRACE_STREAM), *names;
	const char *nm[FK_NAMES + 1];
	uint64_t v[FK_NAMES + 1];
	int n = fk_table(f, version, 0, nm, v), i;

	nla_put_u32(m, SPARKPERF_A_STREAM_INDEX, (uint32_t)idx);
	nla_put_u8(m, SPARKPERF_A_STREAM_SOURCE, (uint8_t)f->source);
	nla_put_string(m, SPARKPERF_A_STREAM_TARGET, f->target);
	if (f->rdma)
		nla_put_u32(m, SPARKPERF_A_STREAM_PORT, 1);
	else
		nla_put_u32(m, SPARKPERF_A_STREAM_IFINDEX, 2);
	nla_put_u32(m, SPARKPERF_A_STREAM_PERIOD_US, f->period_us);
	nla_put_u32(m, SPARKPERF_A_STREAM_VERSION, (uint32_t)version);
	nla_put_u32(m, SPARKPERF_A_STREAM_SLOT_VALUES, 8);
	names = nla_nest_start(m, SPARKPERF_A_STREAM_NAMES);
	for (i = 0; i < n; i++)
		nla_put_string(m, SPARKPERF_A_STREAM_NAME, nm[i]);
	nla_nest_end(m, names);
	if (stats) {
		bool nd = f->source == SPARKPERF_SRC_NETDEV;

		nla_put_u64(m, SPARKPERF_A_STREAM_SAMPLES, fk_trace.ended ? FK_K : 0);
		nla_put_u64(m, SPARKPERF_A_STREAM_MISSED, nd && fk_trace.ended ? 1 : 0);
		nla_put_u64(m, SPARKPERF_A_STREAM_READ_NS_SUM, fk_trace.ended ? (nd ? 6000 : 80000) : 0);
		nla_put_u64(m, SPARKPERF_A_STREAM_READ_NS_MAX, fk_trace.ended ? (nd ? 3000 : 20000) : 0);
		nla_put_u64(m, SPARKPERF_A_STREAM_LATE_NS_MAX, nd && fk_trace.ended ? 100000 : 0);
	}
	if (values) {
		nla_put(m, SPARKPERF_A_STREAM_VALUES, n * 8, v);
		nla_put_u64(m, SPARKPERF_A_STREAM_TS_NS, 1000000000000ULL);
		nla_put_u32(m, SPARKPERF_A_STREAM_READ_NS, 1500);
	}
	nla_nest_end(m, st);
}

static void counters_get(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	char desc[256] = "";
	struct nl_msg *m;
	int i;

	n_fk = 0;
	if (!fk_select(tb[SPARKPERF_A_TRACE_TARGET], tb[SPARKPERF_A_TRACE_GLOBS], desc,
		       sizeof(desc))) {
		logf_("COUNTERS_GET %s\n", desc);
		queue(sk, ack(nlh, -ENODEV, "no such netdev or RDMA device"));
		return;
	}
	logf_("COUNTERS_GET %s\n", desc);
	if (!n_fk) {
		queue(sk, ack(nlh, -ENOENT, "the globs select no counter"));
		return;
	}
	for (i = 0; i < n_fk; i++) {
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_COUNTERS_GET, NLM_F_MULTI);
		put_stream(m, i, 1, false, true);
		queue(sk, m);
	}
	queue(sk, ack(nlh, 0, NULL));
}

/* Sample j (in sequence order) of the trace: its stream and k. */
struct fk_sample {
	int stream, k;
	uint64_t ts;
};

static struct fk_sample fk_samples[FK_STREAMS * FK_K];
static int n_fk_samples;

static uint64_t fk_ts(int stream, int k)
{
	uint64_t ts = 1000000000000ULL + (uint64_t)k * fk[stream].period_us * 1000;

	if (fk[stream].source == SPARKPERF_SRC_NETDEV && k == 2)
		ts += 100000;
	return ts;
}

static void fk_plan(void)
{
	int i, k, j;

	n_fk_samples = 0;
	for (i = 0; i < n_fk; i++)
		for (k = 0; k < FK_K; k++) {
			struct fk_sample s = { i, k, fk_ts(i, k) };

			/* insertion in (ts, stream) order */
			for (j = n_fk_samples; j > 0 && (fk_samples[j - 1].ts > s.ts ||
			     (fk_samples[j - 1].ts == s.ts && fk_samples[j - 1].stream > s.stream));
			     j--)
				fk_samples[j] = fk_samples[j - 1];
			fk_samples[j] = s;
			n_fk_samples++;
		}
}

static void put_trace(struct nl_msg *m)
{
	struct nlattr *sts;
	int i;

	nla_put_u32(m, SPARKPERF_A_TRACE_ID, fk_trace.id);
	nla_put_u8(m, SPARKPERF_A_TRACE_STATE, fk_trace.state);
	nla_put_u64(m, SPARKPERF_A_TRACE_START_NS, 1000000000000ULL);
	nla_put_u64(m, SPARKPERF_A_TRACE_ELAPSED_NS, fk_trace.ended ? 30000000 : 0);
	if (fk_trace.duration)
		nla_put_u32(m, SPARKPERF_A_TRACE_DURATION_MS, (uint32_t)fk_trace.duration);
	nla_put_u32(m, SPARKPERF_A_TRACE_BUFFER_BYTES, fk_trace.buffer);
	nla_put_u32(m, SPARKPERF_A_TRACE_BATCH_MS, fk_trace.batch);
	nla_put_u64(m, SPARKPERF_A_TRACE_CPU_NS, fk_trace.ended ? 2400000 : 0);
	nla_put_u32(m, SPARKPERF_A_TRACE_SLOTS, 4096);
	nla_put_u64(m, SPARKPERF_A_TRACE_SEQ_NEXT, fk_trace.ended ? (uint64_t)n_fk_samples : 0);
	nla_put_u64(m, SPARKPERF_A_TRACE_SEQ_OLDEST, 0);
	sts = nla_nest_start(m, SPARKPERF_A_TRACE_STREAMS);
	for (i = 0; i < n_fk; i++)
		put_stream(m, i, fk_version(&fk[i], fk_trace.ended ? FK_K - 1 : 0), true, false);
	nla_nest_end(m, sts);
}

/* Samples [from, to) of the plan as one TRACE_SAMPLES message. */
static struct nl_msg *fk_samples_msg(uint32_t seq, int flags, int from, int to)
{
	struct nl_msg *m = reply(seq, SPARKPERF_CMD_TRACE_SAMPLES, flags);
	struct nlattr *ss = NULL, *one;
	int j;

	nla_put_u32(m, SPARKPERF_A_TRACE_ID, fk_trace.id);
	if (from < to)
		ss = nla_nest_start(m, SPARKPERF_A_TRACE_SAMPLES);
	for (j = from; j < to; j++) {
		const struct fk_sample *s = &fk_samples[j];
		const struct fk_stream *f = &fk[s->stream];
		int v = fk_version(f, s->k), n;
		const char *nm[FK_NAMES + 1];
		uint64_t val[FK_NAMES + 1];

		n = fk_table(f, v, s->k, nm, val);
		one = nla_nest_start(m, SPARKPERF_A_TRACE_SAMPLE);
		nla_put_u64(m, SPARKPERF_A_SAMPLE_SEQ, (uint64_t)j);
		nla_put_u32(m, SPARKPERF_A_SAMPLE_STREAM, (uint32_t)s->stream);
		nla_put_u32(m, SPARKPERF_A_SAMPLE_VERSION, (uint32_t)v);
		nla_put_u64(m, SPARKPERF_A_SAMPLE_TS_NS, s->ts);
		nla_put_u32(m, SPARKPERF_A_SAMPLE_READ_NS,
			    f->source == SPARKPERF_SRC_NETDEV ? (s->k == 3 ? 3000 : 1000) : 20000);
		nla_put(m, SPARKPERF_A_SAMPLE_VALUES, n * 8, val);
		nla_nest_end(m, one);
	}
	if (ss)
		nla_nest_end(m, ss);
	return m;
}

static void trace_broadcast(struct nl_msg *m)
{
	int i;

	for (i = 0; i < n_trace_socks; i++)
		if (trace_socks[i])
			queue(trace_socks[i], nlmsg_convert(nlmsg_hdr(m)));
	nlmsg_free(m);
}

static void fk_end(void)
{
	struct nl_msg *m;

	fk_trace.ended = true;
	m = reply(0, SPARKPERF_CMD_TRACE_END, 0);
	put_trace(m);
	trace_broadcast(m);
}

/* The "trace" sockets' buffers overran: each one's next receive, ENOBUFS. */
static void fk_overrun(void)
{
	int i;

	for (i = 0; i < n_trace_socks; i++)
		if (trace_socks[i])
			trace_socks[i]->enobufs = true;
}

static void fk_multicast(void)
{
	struct nl_msg *m;
	struct nlattr *sts;
	int j, i;

	if (is("trace_table"))
		for (i = 0; i < n_fk; i++) {
			if (fk[i].source != SPARKPERF_SRC_ETHTOOL)
				continue;
			m = reply(0, SPARKPERF_CMD_TRACE_TABLE, 0);
			nla_put_u32(m, SPARKPERF_A_TRACE_ID, fk_trace.id);
			sts = nla_nest_start(m, SPARKPERF_A_TRACE_STREAMS);
			put_stream(m, i, 2, false, false);
			nla_nest_end(m, sts);
			trace_broadcast(m);
		}
	for (j = 0; j < n_fk_samples; j += 4) {
		m = fk_samples_msg(0, 0, j, j + 4 < n_fk_samples ? j + 4 : n_fk_samples);
		if ((is("trace_lost") || is("trace_enobufs")) && j == 4) {
			nlmsg_free(m);
			if (is("trace_enobufs"))
				fk_overrun();
		}
		else
			trace_broadcast(m);
	}
	fk_trace.state = SPARKPERF_TRACE_STATE_DONE;
	if (is("trace_end_lost")) {
		fk_trace.ended = true;
		fk_overrun();
	} else {
		fk_end();
	}
}

static void trace_start(struct fsock *sk, struct nlmsghdr *nlh, struct nlattr **tb)
{
	char desc[256] = "", globs[512] = "";
	struct nlattr *t;
	struct nl_msg *m;
	int rem, i;
	bool ok = true;

	n_fk = 0;
	nla_for_each_nested(t, tb[SPARKPERF_A_TRACE_TARGETS], rem)
		ok = fk_select(t, tb[SPARKPERF_A_TRACE_GLOBS], desc, sizeof(desc)) && ok;
	if (tb[SPARKPERF_A_TRACE_GLOBS])
		nla_for_each_nested(t, tb[SPARKPERF_A_TRACE_GLOBS], rem)
			snprintf(globs + strlen(globs), sizeof(globs) - strlen(globs), "%s%s",
				 globs[0] ? "," : "", (char *)nla_data(t));
	logf_("TRACE_START targets=%s globs=%s netdev_period=%d ethtool_period=%d "
	      "rdma_period=%d duration=%d buffer=%d batch=%d\n", desc, globs[0] ? globs : "-",
	      u32_or(tb, SPARKPERF_A_TRACE_NETDEV_PERIOD_US, -1),
	      u32_or(tb, SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US, -1),
	      u32_or(tb, SPARKPERF_A_TRACE_RDMA_PERIOD_US, -1),
	      u32_or(tb, SPARKPERF_A_TRACE_DURATION_MS, -1),
	      u32_or(tb, SPARKPERF_A_TRACE_BUFFER_BYTES, -1),
	      u32_or(tb, SPARKPERF_A_TRACE_BATCH_MS, -1));
	if (is("trace_start_eperm")) {
		queue(sk, ack(nlh, -EPERM, NULL));
		return;
	}
	if (!ok) {
		queue(sk, ack(nlh, -ENODEV, "no such netdev or RDMA device"));
		return;
	}
	if (!n_fk) {
		queue(sk, ack(nlh, -ENOENT, "the globs select no counter"));
		return;
	}
	for (i = 0; i < n_fk; i++) {
		int a = fk[i].source == SPARKPERF_SRC_NETDEV ? SPARKPERF_A_TRACE_NETDEV_PERIOD_US :
			fk[i].source == SPARKPERF_SRC_ETHTOOL ? SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US :
			SPARKPERF_A_TRACE_RDMA_PERIOD_US;

		fk[i].period_us = (uint32_t)u32_or(tb, a, (int)fk[i].period_us);
	}
	memset(&fk_trace, 0, sizeof(fk_trace));
	fk_trace.exists = true;
	fk_trace.id = 7;
	fk_trace.owner = sk;
	fk_trace.state = SPARKPERF_TRACE_STATE_RUNNING;
	fk_trace.duration = u32_or(tb, SPARKPERF_A_TRACE_DURATION_MS, 0);
	fk_trace.buffer = (uint32_t)u32_or(tb, SPARKPERF_A_TRACE_BUFFER_BYTES, 8 << 20);
	fk_trace.batch = (uint32_t)u32_or(tb, SPARKPERF_A_TRACE_BATCH_MS, 20);
	fk_plan();
	m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_TRACE_START, 0);
	put_trace(m);
	queue(sk, m);
	queue(sk, ack(nlh, 0, NULL));
	if (is("trace_sigint")) {
		raise(SIGINT);	/* blocked now: delivered in the tool's ppoll() */
		return;
	}
	if (n_trace_socks)
		fk_multicast();
	else
		fk_trace.state = SPARKPERF_TRACE_STATE_RUNNING;
}

static void trace_cmd(struct fsock *sk, struct nlmsghdr *nlh, uint8_t cmd, struct nlattr **tb)
{
	uint32_t id = tb[SPARKPERF_A_TRACE_ID] ? nla_get_u32(tb[SPARKPERF_A_TRACE_ID]) : 0;
	struct nl_msg *m;
	uint64_t cursor;
	int j;

	switch (cmd) {
	case SPARKPERF_CMD_COUNTERS_GET:
		counters_get(sk, nlh, tb);
		return;
	case SPARKPERF_CMD_TRACE_START:
		trace_start(sk, nlh, tb);
		return;
	case SPARKPERF_CMD_TRACE_STOP:
		logf_("TRACE_STOP id=%u\n", id);
		if (!fk_trace.exists || id != fk_trace.id) {
			queue(sk, ack(nlh, -ENOENT, "no trace with this id"));
			return;
		}
		queue(sk, ack(nlh, 0, NULL));
		if (!fk_trace.ended) {
			fk_trace.state = SPARKPERF_TRACE_STATE_STOPPED;
			fk_end();
		}
		return;
	case SPARKPERF_CMD_TRACE_GET:
		if (!tb[SPARKPERF_A_TRACE_ID]) {
			logf_("TRACE_GET dump\n");
			if (is("trace_list")) {
				struct nl_msg *c = reply(nlh->nlmsg_seq, SPARKPERF_CMD_TRACE_GET,
							 NLM_F_MULTI);
				struct nlattr *sts;

				n_fk = 0;
				fk[n_fk] = fk_all[0];
				fk[n_fk].keep[0] = fk[n_fk].keep[1] = true;
				n_fk = 1;
				fk_trace.id = 3;
				fk_trace.ended = true;
				fk_trace.state = SPARKPERF_TRACE_STATE_RUNNING;
				fk_trace.buffer = 8 << 20;
				fk_trace.batch = 20;
				put_trace(c);
				(void)sts;
				queue(sk, c);
			}
			queue(sk, done(nlh->nlmsg_seq));
			return;
		}
		logf_("TRACE_GET id=%u\n", id);
		if (!fk_trace.exists || id != fk_trace.id) {
			queue(sk, ack(nlh, -ENOENT, "no trace with this id"));
			return;
		}
		m = reply(nlh->nlmsg_seq, SPARKPERF_CMD_TRACE_GET, 0);
		put_trace(m);
		queue(sk, m);
		queue(sk, ack(nlh, 0, NULL));
		return;
	case SPARKPERF_CMD_TRACE_SAMPLES:
		cursor = tb[SPARKPERF_A_TRACE_CURSOR] ? nla_get_u64(tb[SPARKPERF_A_TRACE_CURSOR]) : 0;
		logf_("TRACE_SAMPLES id=%u cursor=%llu\n", id, (unsigned long long)cursor);
		/* in messages of up to 3 samples */
		for (j = (int)cursor; j < n_fk_samples; j += 3)
			queue(sk, fk_samples_msg(nlh->nlmsg_seq, NLM_F_MULTI, j,
						 j + 3 < n_fk_samples ? j + 3 : n_fk_samples));
		queue(sk, done(nlh->nlmsg_seq));
		return;
	}
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
	case SPARKPERF_CMD_DEV_GET: {
		struct nlattr *dtb[SPARKPERF_A_DEV_MAX + 1];

		genlmsg_parse(nlh, 0, dtb, SPARKPERF_A_DEV_MAX, NULL);
		dev_get(s, nlh, dtb);
		break;
	}
	case SPARKPERF_CMD_COUNTERS_GET:
	case SPARKPERF_CMD_TRACE_START:
	case SPARKPERF_CMD_TRACE_STOP:
	case SPARKPERF_CMD_TRACE_GET:
	case SPARKPERF_CMD_TRACE_SAMPLES: {
		struct nlattr *ttb[SPARKPERF_A_TRACE_MAX + 1];

		genlmsg_parse(nlh, 0, ttb, SPARKPERF_A_TRACE_MAX, NULL);
		trace_cmd(s, nlh, ghdr->cmd, ttb);
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
