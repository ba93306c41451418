// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink messages of the lat object (session/sessionnl.c) without a
 * socket: requests are built and inspected attribute by attribute (type and
 * length as the uapi header documents them), canned kernel answers are
 * parsed and fed to the reply state machine and the progress group feed.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "lib/err.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "session/sessionnl.h"
#include "session/latprint.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


static struct sp_addr addr4(const char *s)
{
	struct sp_addr a;

	ck_assert_int_eq(sp_parse_addr(s, &a), 0);
	ck_assert_uint_eq(a.len, 4);
	return a;
}

/* ---- request building --------------------------------------------------- */

START_TEST(test_build_lat_run_full)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1];
	struct sp_lat_config c = {
		.peer = addr4("192.168.200.12"),
		.has_port = true, .port = 18521,
		.has_dev = true, .dev = "rocep1s0f1",
		.has_op = true, .op = SPARKPERF_LAT_OP_SEND,
		.has_size = true, .size = 65536,
		.has_iters = true, .iters = 5000000000ULL,
		.has_warmup = true, .warmup = 250,
		.has_cpu = true, .cpu = 7,
		.has_samples_max = true, .samples_max = 0,
		.has_interval = true, .interval_ms = 100,
	};
	static const uint8_t peer[4] = { 192, 168, 200, 12 };
	struct nl_msg *msg;

	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_LAT_MAX, SPARKPERF_CMD_LAT_RUN, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 10);

	/* PEER: 4 bytes of binary, network order */
	assert_attr(tb, SPARKPERF_A_LAT_PEER, 4);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_LAT_PEER]), peer, 4);
	assert_attr(tb, SPARKPERF_A_LAT_PORT, 2);
	ck_assert_uint_eq(nla_get_u16(tb[SPARKPERF_A_LAT_PORT]), 18521);
	assert_attr(tb, SPARKPERF_A_LAT_DEV, sizeof("rocep1s0f1"));
	ck_assert_str_eq(nla_data(tb[SPARKPERF_A_LAT_DEV]), "rocep1s0f1");
	assert_attr(tb, SPARKPERF_A_LAT_OP, 1);
	ck_assert_uint_eq(nla_get_u8(tb[SPARKPERF_A_LAT_OP]), SPARKPERF_LAT_OP_SEND);
	assert_attr(tb, SPARKPERF_A_LAT_SIZE, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_LAT_SIZE]), 65536);
	assert_attr(tb, SPARKPERF_A_LAT_ITERS, 8);
	ck_assert_uint_eq(nla_get_u64(tb[SPARKPERF_A_LAT_ITERS]), 5000000000ULL);
	ck_assert_ptr_null(tb[SPARKPERF_A_LAT_DURATION_MS]);
	assert_attr(tb, SPARKPERF_A_LAT_WARMUP, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_LAT_WARMUP]), 250);
	assert_attr(tb, SPARKPERF_A_LAT_CPU, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_LAT_CPU]), 7);
	assert_attr(tb, SPARKPERF_A_LAT_SAMPLES_MAX, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_LAT_SAMPLES_MAX]), 0);
	assert_attr(tb, SPARKPERF_A_LAT_INTERVAL_MS, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_LAT_INTERVAL_MS]), 100);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_build_lat_run_minimal)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1];
	struct sp_lat_config c = { 0 };
	struct nl_msg *msg;
	uint8_t v6[16];

	/* IPv6 peer and a duration; everything else left to the kernel */
	ck_assert_int_eq(sp_parse_addr("fe80::5054:ff:fe12:3456", &c.peer), 0);
	ck_assert_uint_eq(c.peer.len, 16);
	c.has_duration = true;
	c.duration_ms = 1500;
	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_LAT_MAX, SPARKPERF_CMD_LAT_RUN, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 2);
	assert_attr(tb, SPARKPERF_A_LAT_PEER, 16);
	ck_assert_int_eq(inet_pton(AF_INET6, "fe80::5054:ff:fe12:3456", v6), 1);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_LAT_PEER]), v6, 16);
	assert_attr(tb, SPARKPERF_A_LAT_DURATION_MS, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_LAT_DURATION_MS]), 1500);
	ck_assert_ptr_null(tb[SPARKPERF_A_LAT_ITERS]);
	ck_assert_ptr_null(tb[SPARKPERF_A_LAT_SAMPLES_MAX]);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_build_lat_run_invalid)
{
	struct sp_lat_config c = { 0 };
	struct nl_msg *msg = (struct nl_msg *)1;

	/* no peer */
	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), -EINVAL);
	ck_assert_ptr_null(msg);
	c.peer = addr4("10.0.2.15");
	c.peer.len = 5;
	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), -EINVAL);
	c.peer = addr4("10.0.2.15");
	/* both iterations and a duration */
	c.has_iters = c.has_duration = true;
	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), -EINVAL);
	c.has_duration = false;
	/* an empty device name */
	c.has_dev = true;
	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), -EINVAL);
	strcpy(c.dev, "rxe0");
	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &msg), 0);
	nlmsg_free(msg);
}
END_TEST

/* ---- canned replies ----------------------------------------------------- */

static void put_interval(struct nl_msg *m, int type, uint64_t end, uint64_t count,
			 uint64_t p50, uint64_t p99, uint64_t max)
{
	struct nlattr *iv = nla_nest_start(m, type);

	ck_assert_ptr_nonnull(iv);
	ck_assert_int_eq(nla_put(m, SPARKPERF_A_INTERVAL_PAD, 0, NULL), 0);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_END_NS, end);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_COUNT, count);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_P50_NS, p50);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_P99_NS, p99);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_MAX_NS, max);
	nla_put_u32(m, SPARKPERF_A_INTERVAL_MAX + 4, 0xbeef);	/* newer module */
	nla_nest_end(m, iv);
}

enum lat_bad {
	BAD_NONE,
	BAD_NO_ID,
	BAD_NO_STATE,
	BAD_PEER_LEN,
	BAD_PORT_LEN,
	BAD_COUNT_LEN,
	BAD_DEV_NO_NUL,
	BAD_INTERVAL_NO_END,
	BAD_MAX
};

/*
 * A LAT_GET reply as the module documents it: session 7, write 64 B to
 * 192.168.200.12 on rocep1s0f1, done, 1000 round trips, three intervals.
 */
static struct nl_msg *lat_reply(enum lat_bad bad, int flags)
{
	static const uint8_t peer[5] = { 192, 168, 200, 12, 0 };
	struct nl_msg *m = genl_new(SPARKPERF_CMD_LAT_GET, flags);
	struct nlattr *ivs;

	if (bad != BAD_NO_ID)
		nla_put_u32(m, SPARKPERF_A_LAT_ID, 7);
	nla_put(m, SPARKPERF_A_LAT_PEER, bad == BAD_PEER_LEN ? 5 : 4, peer);
	if (bad == BAD_PORT_LEN)
		nla_put_u32(m, SPARKPERF_A_LAT_PORT, 18520);
	else
		nla_put_u16(m, SPARKPERF_A_LAT_PORT, 18520);
	if (bad == BAD_DEV_NO_NUL)
		nla_put(m, SPARKPERF_A_LAT_DEV, 4, "rxe0");
	else
		nla_put_string(m, SPARKPERF_A_LAT_DEV, "rocep1s0f1");
	nla_put_u8(m, SPARKPERF_A_LAT_OP, SPARKPERF_LAT_OP_WRITE);
	nla_put_u32(m, SPARKPERF_A_LAT_SIZE, 64);
	nla_put(m, SPARKPERF_A_LAT_PAD, 0, NULL);
	nla_put_u64(m, SPARKPERF_A_LAT_ITERS, 1000);
	nla_put_u32(m, SPARKPERF_A_LAT_WARMUP, 100);
	nla_put_u32(m, SPARKPERF_A_LAT_SAMPLES_MAX, 1000);
	nla_put_u32(m, SPARKPERF_A_LAT_INTERVAL_MS, 1000);
	nla_put_u32(m, SPARKPERF_A_LAT_CPU, 4);
	if (bad != BAD_NO_STATE)
		nla_put_u8(m, SPARKPERF_A_LAT_STATE, SPARKPERF_LAT_STATE_DONE);
	nla_put_u64(m, SPARKPERF_A_LAT_WARMUP_DONE, 100);
	if (bad == BAD_COUNT_LEN)
		nla_put_u32(m, SPARKPERF_A_LAT_COUNT, 1000);
	else
		nla_put_u64(m, SPARKPERF_A_LAT_COUNT, 1000);
	nla_put_u64(m, SPARKPERF_A_LAT_ELAPSED_NS, 2500000);
	nla_put_u64(m, SPARKPERF_A_LAT_YIELDS, 3);
	nla_put_u32(m, SPARKPERF_A_LAT_CLOCK_RES_NS, 1);
	nla_put_u64(m, SPARKPERF_A_LAT_MIN_NS, 1200);
	nla_put_u64(m, SPARKPERF_A_LAT_MAX_NS, 98765);
	nla_put_u64(m, SPARKPERF_A_LAT_SUM_NS, 1500000);
	nla_put_u64(m, SPARKPERF_A_LAT_SUMSQ_HI, 1);
	nla_put_u64(m, SPARKPERF_A_LAT_SUMSQ_LO, 42);
	nla_put_u64(m, SPARKPERF_A_LAT_P50_NS, 1471);
	nla_put_u64(m, SPARKPERF_A_LAT_P90_NS, 1600);
	nla_put_u64(m, SPARKPERF_A_LAT_P99_NS, 2100);
	nla_put_u64(m, SPARKPERF_A_LAT_P999_NS, 5000);
	nla_put_u64(m, SPARKPERF_A_LAT_P9999_NS, 90000);
	nla_put_u64(m, SPARKPERF_A_LAT_P99999_NS, 98765);
	nla_put_u32(m, SPARKPERF_A_LAT_MAX + 9, 1);	/* newer module */
	ivs = nla_nest_start(m, SPARKPERF_A_LAT_INTERVALS);
	put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 1000000000, 400, 1470, 2000, 3000);
	put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 2000000000, 500, 1472, 2100, 98765);
	if (bad == BAD_INTERVAL_NO_END) {
		struct nlattr *iv = nla_nest_start(m, SPARKPERF_A_LAT_INTERVALS_ENTRY);

		nla_put_u64(m, SPARKPERF_A_INTERVAL_COUNT, 100);
		nla_nest_end(m, iv);
	} else {
		put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 2500000000ULL, 100, 1469,
			     1900, 2500);
	}
	nla_put_u32(m, SPARKPERF_A_LAT_INTERVALS_ENTRY + 5, 0);	/* ignored */
	nla_nest_end(m, ivs);
	return m;
}

static void assert_lat7(const struct sp_lat *l)
{
	char buf[SP_ADDR_STRLEN];

	ck_assert_uint_eq(l->id, 7);
	ck_assert_str_eq(sp_fmt_addr(&l->cfg.peer, buf, sizeof(buf)), "192.168.200.12");
	ck_assert(l->cfg.has_port && l->cfg.port == 18520);
	ck_assert(l->cfg.has_dev);
	ck_assert_str_eq(l->cfg.dev, "rocep1s0f1");
	ck_assert(l->cfg.has_op && l->cfg.op == SPARKPERF_LAT_OP_WRITE);
	ck_assert(l->cfg.has_size && l->cfg.size == 64);
	ck_assert(l->cfg.has_iters && l->cfg.iters == 1000);
	ck_assert(!l->cfg.has_duration);
	ck_assert(l->cfg.has_warmup && l->cfg.warmup == 100);
	ck_assert(l->cfg.has_samples_max && l->cfg.samples_max == 1000);
	ck_assert(l->cfg.has_interval && l->cfg.interval_ms == 1000);
	ck_assert(l->cfg.has_cpu && l->cfg.cpu == 4);
	ck_assert_uint_eq(l->state, SPARKPERF_LAT_STATE_DONE);
	ck_assert(!l->has_error && !l->has_error_msg);
	ck_assert_uint_eq(l->warmup_done, 100);
	ck_assert_uint_eq(l->count, 1000);
	ck_assert_uint_eq(l->elapsed_ns, 2500000);
	ck_assert_uint_eq(l->yields, 3);
	ck_assert(l->has_clock_res && l->clock_res_ns == 1);
	ck_assert_uint_eq(l->min_ns, 1200);
	ck_assert_uint_eq(l->max_ns, 98765);
	ck_assert_uint_eq(l->sum_ns, 1500000);
	ck_assert_uint_eq(l->sumsq_hi, 1);
	ck_assert_uint_eq(l->sumsq_lo, 42);
	ck_assert_uint_eq(l->p50_ns, 1471);
	ck_assert_uint_eq(l->p90_ns, 1600);
	ck_assert_uint_eq(l->p99_ns, 2100);
	ck_assert_uint_eq(l->p999_ns, 5000);
	ck_assert_uint_eq(l->p9999_ns, 90000);
	ck_assert_uint_eq(l->p99999_ns, 98765);
	ck_assert_uint_eq(l->n_intervals, 3);
	ck_assert_uint_eq(l->intervals[0].end_ns, 1000000000);
	ck_assert_uint_eq(l->intervals[0].count, 400);
	ck_assert_uint_eq(l->intervals[0].p50_ns, 1470);
	ck_assert_uint_eq(l->intervals[0].p99_ns, 2000);
	ck_assert_uint_eq(l->intervals[0].max_ns, 3000);
	ck_assert_uint_eq(l->intervals[1].max_ns, 98765);
	ck_assert_uint_eq(l->intervals[2].end_ns, 2500000000ULL);
	ck_assert_uint_eq(l->intervals[2].count, 100);
	ck_assert_uint_eq(l->intervals[2].p50_ns, 1469);
}

START_TEST(test_parse_lat)
{
	struct nl_msg *m = lat_reply(BAD_NONE, 0);
	struct sp_lat l;

	ck_assert_int_eq(sp_nl_parse_lat(nlmsg_hdr(m), &l, NULL), 0);
	assert_lat7(&l);
	sp_lat_free(&l);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_parse_lat_malformed)
{
	static const char *const want[BAD_MAX] = {
		[BAD_NO_ID] = "SPARKPERF_A_LAT_ID",
		[BAD_NO_STATE] = "SPARKPERF_A_LAT_STATE",
		[BAD_PEER_LEN] = "SPARKPERF_A_LAT_PEER",
		[BAD_PORT_LEN] = "SPARKPERF_A_LAT_PORT",
		[BAD_COUNT_LEN] = "SPARKPERF_A_LAT_COUNT",
		[BAD_DEV_NO_NUL] = "SPARKPERF_A_LAT_DEV",
		[BAD_INTERVAL_NO_END] = "SPARKPERF_A_INTERVAL_END_NS",
	};
	struct nl_msg *m = lat_reply((enum lat_bad)_i, 0);
	const char *why = NULL;
	struct sp_lat l;

	ck_assert_int_eq(sp_nl_parse_lat(nlmsg_hdr(m), &l, &why), -EBADMSG);
	ck_assert_str_eq(why, want[_i]);
	sp_lat_free(&l);	/* also after a failure: no leak (valgrind) */
	nlmsg_free(m);
}
END_TEST

START_TEST(test_parse_lat_failed)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_LAT_GET, 0);
	char long_msg[400];
	struct sp_lat l;

	/* a failed session: no statistics at all, an error and a long message */
	memset(long_msg, 'x', sizeof(long_msg) - 1);
	long_msg[sizeof(long_msg) - 1] = '\0';
	memcpy(long_msg, "connection refused", 18);
	nla_put_u32(m, SPARKPERF_A_LAT_ID, 12);
	nla_put_u8(m, SPARKPERF_A_LAT_STATE, SPARKPERF_LAT_STATE_FAILED);
	nla_put_s32(m, SPARKPERF_A_LAT_ERROR, -ECONNREFUSED);
	nla_put_string(m, SPARKPERF_A_LAT_ERROR_MSG, long_msg);
	ck_assert_int_eq(sp_nl_parse_lat(nlmsg_hdr(m), &l, NULL), 0);
	ck_assert_uint_eq(l.id, 12);
	ck_assert_uint_eq(l.state, SPARKPERF_LAT_STATE_FAILED);
	ck_assert(l.has_error);
	ck_assert_int_eq(l.error, -ECONNREFUSED);
	ck_assert(l.has_error_msg);
	/* cut to fit, not rejected */
	ck_assert_uint_eq(strlen(l.error_msg), SP_LAT_ERRMSG_MAX - 1);
	ck_assert(!strncmp(l.error_msg, "connection refused", 18));
	ck_assert_uint_eq(l.count, 0);
	ck_assert_uint_eq(l.n_intervals, 0);
	ck_assert_uint_eq(l.cfg.peer.len, 0);
	ck_assert(!l.cfg.has_dev && !l.cfg.has_cpu && !l.has_clock_res);
	sp_lat_free(&l);
	nlmsg_free(m);
}
END_TEST

static struct nl_msg *progress_msg(uint32_t id, uint8_t state, uint64_t count, bool interval)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_LAT_PROGRESS, 0);

	nlmsg_hdr(m)->nlmsg_seq = 0;	/* multicast */
	nla_put_u32(m, SPARKPERF_A_LAT_ID, id);
	nla_put_u8(m, SPARKPERF_A_LAT_STATE, state);
	nla_put_u64(m, SPARKPERF_A_LAT_COUNT, count);
	nla_put_u64(m, SPARKPERF_A_LAT_WARMUP_DONE, 100);
	if (interval)
		put_interval(m, SPARKPERF_A_LAT_INTERVAL, 3000000000ULL, 1234, 1500, 2200, 9000);
	return m;
}

START_TEST(test_parse_progress)
{
	struct nl_msg *m = progress_msg(7, SPARKPERF_LAT_STATE_RUNNING, 5000, true);
	struct sp_lat_progress p;

	ck_assert_int_eq(sp_nl_parse_lat_progress(nlmsg_hdr(m), &p, NULL), 0);
	ck_assert_uint_eq(p.id, 7);
	ck_assert_uint_eq(p.state, SPARKPERF_LAT_STATE_RUNNING);
	ck_assert_uint_eq(p.count, 5000);
	ck_assert_uint_eq(p.warmup_done, 100);
	ck_assert(p.has_interval);
	ck_assert_uint_eq(p.interval.end_ns, 3000000000ULL);
	ck_assert_uint_eq(p.interval.count, 1234);
	ck_assert_uint_eq(p.interval.p50_ns, 1500);
	ck_assert_uint_eq(p.interval.p99_ns, 2200);
	ck_assert_uint_eq(p.interval.max_ns, 9000);
	nlmsg_free(m);

	/* a state change: no interval */
	m = progress_msg(7, SPARKPERF_LAT_STATE_DONE, 10000, false);
	ck_assert_int_eq(sp_nl_parse_lat_progress(nlmsg_hdr(m), &p, NULL), 0);
	ck_assert_uint_eq(p.state, SPARKPERF_LAT_STATE_DONE);
	ck_assert(!p.has_interval);
	nlmsg_free(m);

	/* another command is not progress */
	m = genl_new(SPARKPERF_CMD_LAT_GET, 0);
	nla_put_u32(m, SPARKPERF_A_LAT_ID, 7);
	nla_put_u8(m, SPARKPERF_A_LAT_STATE, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(sp_nl_parse_lat_progress(nlmsg_hdr(m), &p, NULL), -EOPNOTSUPP);
	nlmsg_free(m);
}
END_TEST

/* ---- reply state machine ------------------------------------------------ */


static int collect_id(struct nlmsghdr *nlh, void *arg)
{
	return sp_nl_parse_lat_id(nlh, arg, NULL);
}

START_TEST(test_xact_lat_run)
{
	struct sp_lat_config c = { .peer = addr4("192.168.200.12") };
	struct nl_msg *req, *m[2];
	struct sp_nl_xact x;
	uint32_t id = 0;
	char buf[4096];
	size_t len;

	ck_assert_int_eq(sp_nl_lat_run_msg(FAMILY, &c, &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_LAT_RUN, collect_id, &id);
	m[0] = genl_new(SPARKPERF_CMD_LAT_RUN, 0);
	nla_put_u32(m[0], SPARKPERF_A_LAT_ID, 33);
	m[1] = error_new(req, 0, NLM_F_CAPPED);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), 0);
	ck_assert_uint_eq(id, 33);

	/* refused, with an extended ACK naming the attribute */
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_LAT_RUN, collect_id, &id);
	m[0] = error_new(req, -ENETUNREACH, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	nla_put_string(m[0], NLMSGERR_ATTR_MSG, "no RDMA route to the peer");
	nla_put_u32(m[0], NLMSGERR_ATTR_OFFS, 20);
	len = datagram(buf, sizeof(buf), m, 1);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), -ENETUNREACH);
	ck_assert_str_eq(x.err.msg, "no RDMA route to the peer");
	ck_assert_uint_eq(x.err.cmd, SPARKPERF_CMD_LAT_RUN);
	nlmsg_free(req);
}
END_TEST

static int collect_lat(struct nlmsghdr *nlh, void *arg)
{
	struct sp_lat_list *list = arg;
	struct sp_lat l;
	int ret = sp_nl_parse_lat(nlh, &l, NULL);

	if (!ret)
		ret = sp_lat_list_add(list, &l);
	sp_lat_free(&l);
	return ret;
}

START_TEST(test_xact_lat_get)
{
	struct sp_lat_list list = { 0 };
	struct nl_msg *req, *m[2];
	struct sp_nl_xact x;
	char buf[8192];
	size_t len;

	ck_assert_int_eq(sp_nl_lat_get_msg(FAMILY, true, 7, &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_LAT_GET, collect_lat, &list);
	m[0] = lat_reply(BAD_NONE, 0);
	m[1] = error_new(req, 0, NLM_F_CAPPED);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), 0);
	ck_assert_uint_eq(list.n, 1);
	assert_lat7(&list.lats[0]);
	sp_lat_list_free(&list);
	nlmsg_free(req);

	/* a dump of two sessions, the second malformed: the dump fails, drained */
	ck_assert_int_eq(sp_nl_lat_get_msg(FAMILY, false, 0, &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_LAT_GET, collect_lat, &list);
	m[0] = lat_reply(BAD_NONE, NLM_F_MULTI);
	m[1] = lat_reply(BAD_NO_STATE, NLM_F_MULTI);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(!sp_nl_xact_feed(&x, buf, len));
	m[0] = done_msg(0);
	len = datagram(buf, sizeof(buf), m, 1);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), -EBADMSG);
	ck_assert_uint_eq(list.n, 1);
	sp_lat_list_free(&list);
	nlmsg_free(req);
}
END_TEST

/* n samples from iteration first: start = 1000 * i, rtt = 1400 + i */
static struct nl_msg *samples_msg(uint64_t first, size_t n, size_t extra_bytes)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_LAT_SAMPLES, NLM_F_MULTI);
	uint64_t *data = calloc(2 * n + 1, sizeof(uint64_t));
	size_t i;

	ck_assert_ptr_nonnull(data);
	for (i = 0; i < n; i++) {
		data[2 * i] = 1000 * (first + i);
		data[2 * i + 1] = 1400 + first + i;
	}
	nla_put_u32(m, SPARKPERF_A_LAT_ID, 7);
	nla_put(m, SPARKPERF_A_LAT_PAD, 0, NULL);
	nla_put_u64(m, SPARKPERF_A_SAMPLES_FIRST, first);
	nla_put(m, SPARKPERF_A_SAMPLES_DATA, (int)(n * 16 + extra_bytes), data);
	free(data);
	return m;
}

struct csv_sink {
	FILE *f;
	char *buf;
	size_t len;
	int chunks;
};

static int sink_samples(struct nlmsghdr *nlh, void *arg)
{
	struct csv_sink *s = arg;
	struct sp_lat_samples smp;
	int ret = sp_nl_parse_lat_samples(nlh, &smp, NULL);

	if (ret)
		return ret;
	ck_assert_uint_eq(smp.id, 7);
	s->chunks++;
	return sp_print_samples_csv(s->f, &smp, false, 0);
}

START_TEST(test_xact_samples_csv)
{
	struct csv_sink s = { .chunks = 0 };
	struct nl_msg *req, *m[3];
	struct sp_nl_xact x;
	char buf[8192];
	size_t len;

	s.f = open_memstream(&s.buf, &s.len);
	ck_assert_ptr_nonnull(s.f);
	ck_assert_int_eq(sp_print_samples_csv_header(s.f, false), 0);
	ck_assert_int_eq(sp_nl_lat_samples_msg(FAMILY, 7, &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_LAT_SAMPLES, sink_samples, &s);
	/* kept samples start at iteration 997: the oldest were overwritten */
	m[0] = samples_msg(997, 2, 0);
	m[1] = samples_msg(999, 1, 0);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(!sp_nl_xact_feed(&x, buf, len));
	m[0] = samples_msg(1000, 0, 0);		/* an empty chunk is harmless */
	m[1] = samples_msg(1000, 2, 0);
	m[2] = done_msg(0);
	len = datagram(buf, sizeof(buf), m, 3);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), 0);
	ck_assert_int_eq(s.chunks, 4);
	fclose(s.f);
	ck_assert_str_eq(s.buf,
			 "iteration,start_ns,rtt_ns\n"
			 "997,997000,2397\n"
			 "998,998000,2398\n"
			 "999,999000,2399\n"
			 "1000,1000000,2400\n"
			 "1001,1001000,2401\n");
	free(s.buf);

	/* data that is not whole pairs of u64 */
	s.f = open_memstream(&s.buf, &s.len);
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_LAT_SAMPLES, sink_samples, &s);
	m[0] = samples_msg(0, 2, 8);
	m[1] = done_msg(0);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), -EBADMSG);
	fclose(s.f);
	ck_assert_str_eq(s.buf, "");
	free(s.buf);
	nlmsg_free(req);
}
END_TEST

START_TEST(test_samples_csv_sweep)
{
	struct nl_msg *m = samples_msg(5, 2, 0);
	struct sp_lat_samples smp;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	uint64_t start, rtt;

	ck_assert_int_eq(sp_nl_parse_lat_samples(nlmsg_hdr(m), &smp, NULL), 0);
	ck_assert_uint_eq(smp.first, 5);
	ck_assert_uint_eq(smp.n, 2);
	sp_lat_samples_get(&smp, 1, &start, &rtt);
	ck_assert_uint_eq(start, 6000);
	ck_assert_uint_eq(rtt, 1406);
	ck_assert_int_eq(sp_print_samples_csv_header(f, true), 0);
	ck_assert_int_eq(sp_print_samples_csv(f, &smp, true, 4096), 0);
	fclose(f);
	ck_assert_str_eq(buf, "bytes,iteration,start_ns,rtt_ns\n"
			 "4096,5,5000,1405\n"
			 "4096,6,6000,1406\n");
	free(buf);
	nlmsg_free(m);

	/* FIRST missing */
	m = genl_new(SPARKPERF_CMD_LAT_SAMPLES, 0);
	nla_put_u32(m, SPARKPERF_A_LAT_ID, 7);
	nla_put(m, SPARKPERF_A_SAMPLES_DATA, 0, NULL);
	ck_assert_int_eq(sp_nl_parse_lat_samples(nlmsg_hdr(m), &smp, NULL), -EBADMSG);
	nlmsg_free(m);
}
END_TEST

/* ---- progress group ----------------------------------------------------- */

struct seen_progress {
	struct sp_lat_progress p[8];
	int n;
	int stop_after;
};

static int collect_progress(const struct sp_lat_progress *p, void *arg)
{
	struct seen_progress *s = arg;

	s->p[s->n++] = *p;
	return s->stop_after && s->n >= s->stop_after;
}

START_TEST(test_progress_feed)
{
	struct sp_nl nl = { .family = FAMILY };
	struct seen_progress s = { .n = 0 };
	struct nl_msg *m[5];
	char buf[8192];
	size_t len;

	m[0] = progress_msg(7, SPARKPERF_LAT_STATE_RUNNING, 1000, true);
	m[1] = progress_msg(8, SPARKPERF_LAT_STATE_CONNECTING, 0, false);
	/* malformed: no state */
	m[2] = genl_new(SPARKPERF_CMD_LAT_PROGRESS, 0);
	nla_put_u32(m[2], SPARKPERF_A_LAT_ID, 7);
	/* an event of another command: ignored, not malformed */
	m[3] = genl_new(SPARKPERF_CMD_DEV_DEL, 0);
	m[4] = progress_msg(7, SPARKPERF_LAT_STATE_DONE, 2000, false);
	len = datagram(buf, sizeof(buf), m, 5);
	ck_assert_int_eq(sp_nl_lat_progress_feed(&nl, buf, len, collect_progress, &s), 0);
	ck_assert_int_eq(s.n, 3);
	ck_assert_uint_eq(nl.bad_progress, 1);
	ck_assert_uint_eq(s.p[0].id, 7);
	ck_assert(s.p[0].has_interval);
	ck_assert_uint_eq(s.p[1].id, 8);
	ck_assert_uint_eq(s.p[2].state, SPARKPERF_LAT_STATE_DONE);
	ck_assert_uint_eq(s.p[2].count, 2000);

	/* the callback stops the feed */
	s.n = 0;
	s.stop_after = 1;
	m[0] = progress_msg(7, SPARKPERF_LAT_STATE_RUNNING, 1, false);
	m[1] = progress_msg(7, SPARKPERF_LAT_STATE_RUNNING, 2, false);
	len = datagram(buf, sizeof(buf), m, 2);
	ck_assert_int_eq(sp_nl_lat_progress_feed(&nl, buf, len, collect_progress, &s), 1);
	ck_assert_int_eq(s.n, 1);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

START_TEST(test_attr_names)
{
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_LAT_RUN, SPARKPERF_A_LAT_PEER),
			 "SPARKPERF_A_LAT_PEER");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_LAT_STOP, SPARKPERF_A_LAT_ID),
			 "SPARKPERF_A_LAT_ID");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_LAT_SAMPLES, SPARKPERF_A_SAMPLES_DATA),
			 "SPARKPERF_A_SAMPLES_DATA");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_SERVER_STOP, SPARKPERF_A_SERVER_ID),
			 "SPARKPERF_A_SERVER_ID");
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_LAT_RUN, SPARKPERF_A_LAT_MAX + 1));
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_LAT_PROGRESS, SPARKPERF_A_LAT_ID));
}
END_TEST

START_TEST(test_report_missing_peer)
{
	struct sp_nl_err e = {
		.error = -EINVAL, .cmd = SPARKPERF_CMD_LAT_RUN,
		.has_miss_type = true, .miss_type = SPARKPERF_A_LAT_PEER,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sp_report_nl_error(f, "lat", "run", e.error, &e);
	fclose(f);
	ck_assert_str_eq(buf, "Error: missing required attribute SPARKPERF_A_LAT_PEER.\n");
	free(buf);
}
END_TEST

static Suite *latnl_suite(void)
{
	Suite *s = suite_create("latnl");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_build_lat_run_full);
	tcase_add_test(tc, test_build_lat_run_minimal);
	tcase_add_test(tc, test_build_lat_run_invalid);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_lat);
	tcase_add_loop_test(tc, test_parse_lat_malformed, BAD_NO_ID, BAD_MAX);
	tcase_add_test(tc, test_parse_lat_failed);
	tcase_add_test(tc, test_parse_progress);
	suite_add_tcase(s, tc);

	tc = tcase_create("xact");
	tcase_add_test(tc, test_xact_lat_run);
	tcase_add_test(tc, test_xact_lat_get);
	tcase_add_test(tc, test_xact_samples_csv);
	tcase_add_test(tc, test_samples_csv_sweep);
	tcase_add_test(tc, test_progress_feed);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_attr_names);
	tcase_add_test(tc, test_report_missing_peer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(latnl_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
