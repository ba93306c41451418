// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink messages of the bw object (user/nl.c) without a socket: BW_RUN
 * built for every option and inspected attribute by attribute (type and
 * length as the uapi header documents them, absent when not asked for),
 * BW_STOP and BW_GET, canned BW_GET replies (complete, with any subset of
 * the optional attributes, failed, malformed) and BW_PROGRESS messages fed
 * to the parsers, the reply state machine and the progress group's feed.
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
#include "testutil.h"


static struct sp_addr addr(const char *s)
{
	struct sp_addr a;

	ck_assert_int_eq(sp_parse_addr(s, &a), 0);
	return a;
}

/* ---- requests ------------------------------------------------------------ */

START_TEST(test_run_every_option)
{
	static const uint8_t peer[4] = { 192, 168, 201, 12 };
	struct nlattr *tb[SPARKPERF_A_BW_MAX + 1];
	struct sp_bw_config c = {
		.peer = addr("192.168.201.12"),
		.has_port = true, .port = 18600,
		.has_dev = true, .dev = "roceP2p1s0f0",
		.has_op = true, .op = SPARKPERF_LAT_OP_SEND,
		.has_size = true, .size = 8 << 20,
		.has_qps = true, .qps = 64,
		.has_threads = true, .threads = 16,
		.has_depth = true, .depth = 1024,
		.has_signal = true, .signal = 32,
		.has_iters = true, .iters = 1000000000000ULL,
		.bidir = true, .validate = true,
		.has_interval = true, .interval_ms = 250,
		.has_start_at = true, .start_at_ns = 123456789012345ULL,
	};
	struct nl_msg *msg;

	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_BW_MAX, SPARKPERF_CMD_BW_RUN, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 14);
	assert_attr(tb, SPARKPERF_A_BW_PEER, 4);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_BW_PEER]), peer, 4);
	assert_attr(tb, SPARKPERF_A_BW_PORT, 2);
	ck_assert_uint_eq(nla_get_u16(tb[SPARKPERF_A_BW_PORT]), 18600);
	assert_attr(tb, SPARKPERF_A_BW_DEV, sizeof("roceP2p1s0f0"));
	ck_assert_str_eq(nla_data(tb[SPARKPERF_A_BW_DEV]), "roceP2p1s0f0");
	assert_attr(tb, SPARKPERF_A_BW_OP, 1);
	ck_assert_uint_eq(nla_get_u8(tb[SPARKPERF_A_BW_OP]), SPARKPERF_LAT_OP_SEND);
	assert_attr(tb, SPARKPERF_A_BW_SIZE, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_SIZE]), 8 << 20);
	assert_attr(tb, SPARKPERF_A_BW_QPS, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_QPS]), 64);
	assert_attr(tb, SPARKPERF_A_BW_THREADS, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_THREADS]), 16);
	assert_attr(tb, SPARKPERF_A_BW_DEPTH, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_DEPTH]), 1024);
	assert_attr(tb, SPARKPERF_A_BW_SIGNAL, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_SIGNAL]), 32);
	assert_attr(tb, SPARKPERF_A_BW_ITERS, 8);
	ck_assert_uint_eq(nla_get_u64(tb[SPARKPERF_A_BW_ITERS]), 1000000000000ULL);
	ck_assert_ptr_null(tb[SPARKPERF_A_BW_DURATION_MS]);
	/* flags: present, no payload */
	assert_attr(tb, SPARKPERF_A_BW_BIDIR, 0);
	assert_attr(tb, SPARKPERF_A_BW_VALIDATE, 0);
	assert_attr(tb, SPARKPERF_A_BW_INTERVAL_MS, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_INTERVAL_MS]), 250);
	assert_attr(tb, SPARKPERF_A_BW_START_AT_NS, 8);
	ck_assert_uint_eq(nla_get_u64(tb[SPARKPERF_A_BW_START_AT_NS]), 123456789012345ULL);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_run_minimal)
{
	struct nlattr *tb[SPARKPERF_A_BW_MAX + 1];
	struct sp_bw_config c = { .peer = addr("fd00::12") };
	struct nl_msg *msg;
	uint8_t v6[16];
	int type;

	/* only the peer: every other attribute left to the kernel's defaults */
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_BW_MAX, SPARKPERF_CMD_BW_RUN, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 1);
	assert_attr(tb, SPARKPERF_A_BW_PEER, 16);
	ck_assert_int_eq(inet_pton(AF_INET6, "fd00::12", v6), 1);
	ck_assert_mem_eq(nla_data(tb[SPARKPERF_A_BW_PEER]), v6, 16);
	for (type = SPARKPERF_A_BW_PORT; type <= SPARKPERF_A_BW_MAX; type++)
		ck_assert_msg(!tb[type], "attribute %d sent", type);
	nlmsg_free(msg);

	/* a duration, values that are set but zero-like still count */
	c.has_duration = true;
	c.duration_ms = 1500;
	c.has_op = true;
	c.op = SPARKPERF_LAT_OP_READ;
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_BW_MAX, SPARKPERF_CMD_BW_RUN, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 3);
	assert_attr(tb, SPARKPERF_A_BW_DURATION_MS, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_BW_DURATION_MS]), 1500);
	ck_assert_uint_eq(nla_get_u8(tb[SPARKPERF_A_BW_OP]), SPARKPERF_LAT_OP_READ);
	ck_assert_ptr_null(tb[SPARKPERF_A_BW_ITERS]);
	ck_assert_ptr_null(tb[SPARKPERF_A_BW_BIDIR]);
	ck_assert_ptr_null(tb[SPARKPERF_A_BW_VALIDATE]);
	nlmsg_free(msg);
}
END_TEST

/* Each option alone: exactly its attribute next to the peer. */
START_TEST(test_run_each_option)
{
	struct nlattr *tb[SPARKPERF_A_BW_MAX + 1];
	struct sp_bw_config c = { .peer = addr("10.0.2.15") };
	struct nl_msg *msg;
	int want = 0;

	switch (_i) {
	case 0: c.has_port = true; c.port = 1; want = SPARKPERF_A_BW_PORT; break;
	case 1: c.has_dev = true; strcpy(c.dev, "rxe0"); want = SPARKPERF_A_BW_DEV; break;
	case 2: c.has_op = true; c.op = 1; want = SPARKPERF_A_BW_OP; break;
	case 3: c.has_size = true; c.size = 1; want = SPARKPERF_A_BW_SIZE; break;
	case 4: c.has_qps = true; c.qps = 1; want = SPARKPERF_A_BW_QPS; break;
	case 5: c.has_threads = true; c.threads = 1; want = SPARKPERF_A_BW_THREADS; break;
	case 6: c.has_depth = true; c.depth = 1; want = SPARKPERF_A_BW_DEPTH; break;
	case 7: c.has_signal = true; c.signal = 1; want = SPARKPERF_A_BW_SIGNAL; break;
	case 8: c.has_iters = true; c.iters = 1; want = SPARKPERF_A_BW_ITERS; break;
	case 9: c.has_duration = true; c.duration_ms = 1; want = SPARKPERF_A_BW_DURATION_MS; break;
	case 10: c.bidir = true; want = SPARKPERF_A_BW_BIDIR; break;
	case 11: c.validate = true; want = SPARKPERF_A_BW_VALIDATE; break;
	case 12: c.has_interval = true; c.interval_ms = 10; want = SPARKPERF_A_BW_INTERVAL_MS; break;
	case 13: c.has_start_at = true; c.start_at_ns = 0; want = SPARKPERF_A_BW_START_AT_NS; break;
	}
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_BW_MAX, SPARKPERF_CMD_BW_RUN, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 2);
	ck_assert_ptr_nonnull(tb[SPARKPERF_A_BW_PEER]);
	ck_assert_ptr_nonnull(tb[want]);
	nlmsg_free(msg);
}
END_TEST

START_TEST(test_run_invalid)
{
	struct sp_bw_config c = { 0 };
	struct nl_msg *msg = (struct nl_msg *)1;

	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), -EINVAL);	/* no peer */
	ck_assert_ptr_null(msg);
	c.peer = addr("10.0.2.15");
	c.has_iters = c.has_duration = true;
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), -EINVAL);
	c.has_duration = false;
	c.has_dev = true;			/* empty */
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), -EINVAL);
	memset(c.dev, 'x', sizeof(c.dev));	/* no room for the NUL */
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), -EINVAL);
	strcpy(c.dev, "rxe0");
	ck_assert_int_eq(sp_nl_bw_run_msg(FAMILY, &c, &msg), 0);
	nlmsg_free(msg);
}
END_TEST

/* ---- replies ---------------------------------------------------------------- */

static void put_interval(struct nl_msg *m, int type, uint64_t end, uint64_t msgs, uint64_t bytes)
{
	struct nlattr *iv = nla_nest_start(m, type);

	ck_assert_ptr_nonnull(iv);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_END_NS, end);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_COUNT, msgs);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_BYTES, bytes);
	nla_put_u32(m, SPARKPERF_A_INTERVAL_MAX + 3, 7);	/* newer module */
	nla_nest_end(m, iv);
}

enum bw_bad {
	BAD_NONE,
	BAD_NO_ID,
	BAD_NO_STATE,
	BAD_PEER_LEN,
	BAD_SIZE_LEN,
	BAD_TX_LEN,
	BAD_DEV_NO_NUL,
	BAD_INTERVAL_NO_END,
	BAD_MAX
};

/*
 * A BW_GET reply as the module documents it: session 9, write 64 KiB x 2
 * QPs to 192.168.200.12 on rocep1s0f0, bidirectional and validated, done.
 */
static struct nl_msg *bw_reply(enum bw_bad bad, int flags)
{
	static const uint8_t peer[5] = { 192, 168, 200, 12, 0 };
	struct nl_msg *m = genl_new(SPARKPERF_CMD_BW_GET, flags);
	struct nlattr *ivs, *iv;

	if (bad != BAD_NO_ID)
		nla_put_u32(m, SPARKPERF_A_BW_ID, 9);
	nla_put(m, SPARKPERF_A_BW_PEER, bad == BAD_PEER_LEN ? 5 : 4, peer);
	nla_put_u16(m, SPARKPERF_A_BW_PORT, 18520);
	if (bad == BAD_DEV_NO_NUL)
		nla_put(m, SPARKPERF_A_BW_DEV, 4, "rxe0");
	else
		nla_put_string(m, SPARKPERF_A_BW_DEV, "rocep1s0f0");
	nla_put_u8(m, SPARKPERF_A_BW_OP, SPARKPERF_LAT_OP_WRITE);
	if (bad == BAD_SIZE_LEN)
		nla_put_u16(m, SPARKPERF_A_BW_SIZE, 1);
	else
		nla_put_u32(m, SPARKPERF_A_BW_SIZE, 65536);
	nla_put_u32(m, SPARKPERF_A_BW_QPS, 2);
	nla_put_u32(m, SPARKPERF_A_BW_THREADS, 1);
	nla_put_u32(m, SPARKPERF_A_BW_DEPTH, 128);
	nla_put_u32(m, SPARKPERF_A_BW_SIGNAL, 16);
	nla_put(m, SPARKPERF_A_BW_PAD, 0, NULL);
	nla_put_u64(m, SPARKPERF_A_BW_ITERS, 100);
	nla_put_flag(m, SPARKPERF_A_BW_BIDIR);
	nla_put_flag(m, SPARKPERF_A_BW_VALIDATE);
	nla_put_u32(m, SPARKPERF_A_BW_INTERVAL_MS, 100);
	if (bad != BAD_NO_STATE)
		nla_put_u8(m, SPARKPERF_A_BW_STATE, SPARKPERF_LAT_STATE_DONE);
	nla_put_u64(m, SPARKPERF_A_BW_START_NS, 5000000000ULL);
	nla_put_u64(m, SPARKPERF_A_BW_ELAPSED_NS, 20971520);
	if (bad == BAD_TX_LEN)
		nla_put_u32(m, SPARKPERF_A_BW_TX_BYTES, 1);
	else
		nla_put_u64(m, SPARKPERF_A_BW_TX_BYTES, 13107200);
	nla_put_u64(m, SPARKPERF_A_BW_TX_MSGS, 200);
	nla_put_u64(m, SPARKPERF_A_BW_RX_BYTES, 13107200);
	nla_put_u64(m, SPARKPERF_A_BW_RX_MSGS, 200);
	nla_put_u64(m, SPARKPERF_A_BW_VALIDATE_ERRORS, 0);
	nla_put_u64(m, SPARKPERF_A_BW_CPU_NS, 15000000);
	nla_put_u32(m, SPARKPERF_A_BW_MAX + 5, 1);	/* newer module */
	ivs = nla_nest_start(m, SPARKPERF_A_BW_INTERVALS);
	put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 10000000, 150, 9830400);
	if (bad == BAD_INTERVAL_NO_END) {
		iv = nla_nest_start(m, SPARKPERF_A_LAT_INTERVALS_ENTRY);
		nla_put_u64(m, SPARKPERF_A_INTERVAL_BYTES, 1);
		nla_nest_end(m, iv);
	} else {
		put_interval(m, SPARKPERF_A_LAT_INTERVALS_ENTRY, 20971520, 250, 16384000);
	}
	nla_put_u32(m, SPARKPERF_A_LAT_INTERVALS_ENTRY + 3, 0);	/* ignored */
	nla_nest_end(m, ivs);
	return m;
}

static void assert_bw9(const struct sp_bw *b)
{
	const struct sp_bw_config *c = &b->cfg;
	char buf[SP_ADDR_STRLEN];

	ck_assert_uint_eq(b->id, 9);
	ck_assert_str_eq(sp_fmt_addr(&c->peer, buf, sizeof(buf)), "192.168.200.12");
	ck_assert(c->has_port && c->port == 18520);
	ck_assert(c->has_dev);
	ck_assert_str_eq(c->dev, "rocep1s0f0");
	ck_assert(c->has_op && c->op == SPARKPERF_LAT_OP_WRITE);
	ck_assert(c->has_size && c->size == 65536);
	ck_assert(c->has_qps && c->qps == 2);
	ck_assert(c->has_threads && c->threads == 1);
	ck_assert(c->has_depth && c->depth == 128);
	ck_assert(c->has_signal && c->signal == 16);
	ck_assert(c->has_iters && c->iters == 100);
	ck_assert(!c->has_duration);
	ck_assert(c->bidir && c->validate);
	ck_assert(c->has_interval && c->interval_ms == 100);
	ck_assert(!c->has_start_at);
	ck_assert_uint_eq(b->state, SPARKPERF_LAT_STATE_DONE);
	ck_assert(!b->has_error && !b->has_error_msg);
	ck_assert(b->has_start && b->start_ns == 5000000000ULL);
	ck_assert_uint_eq(b->elapsed_ns, 20971520);
	ck_assert_uint_eq(b->tx_bytes, 13107200);
	ck_assert_uint_eq(b->tx_msgs, 200);
	ck_assert_uint_eq(b->rx_bytes, 13107200);
	ck_assert_uint_eq(b->rx_msgs, 200);
	ck_assert(b->has_validate_errors && b->validate_errors == 0);
	ck_assert(b->has_cpu && b->cpu_ns == 15000000);
	ck_assert_uint_eq(b->n_intervals, 2);
	ck_assert_uint_eq(b->intervals[0].end_ns, 10000000);
	ck_assert_uint_eq(b->intervals[0].count, 150);
	ck_assert_uint_eq(b->intervals[0].bytes, 9830400);
	ck_assert_uint_eq(b->intervals[1].end_ns, 20971520);
	ck_assert_uint_eq(b->intervals[1].count, 250);
	ck_assert_uint_eq(b->intervals[1].bytes, 16384000);
}

START_TEST(test_parse_bw)
{
	struct nl_msg *m = bw_reply(BAD_NONE, 0);
	struct sp_bw b;

	ck_assert_int_eq(sp_nl_parse_bw(nlmsg_hdr(m), &b, NULL), 0);
	assert_bw9(&b);
	sp_bw_free(&b);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_parse_bw_malformed)
{
	static const char *const want[BAD_MAX] = {
		[BAD_NO_ID] = "SPARKPERF_A_BW_ID",
		[BAD_NO_STATE] = "SPARKPERF_A_BW_STATE",
		[BAD_PEER_LEN] = "SPARKPERF_A_BW_PEER",
		[BAD_SIZE_LEN] = "SPARKPERF_A_BW_SIZE",
		[BAD_TX_LEN] = "SPARKPERF_A_BW_TX_BYTES",
		[BAD_DEV_NO_NUL] = "SPARKPERF_A_BW_DEV",
		[BAD_INTERVAL_NO_END] = "SPARKPERF_A_INTERVAL_END_NS",
	};
	struct nl_msg *m = bw_reply((enum bw_bad)_i, 0);
	const char *why = NULL;
	struct sp_bw b;

	ck_assert_int_eq(sp_nl_parse_bw(nlmsg_hdr(m), &b, &why), -EBADMSG);
	ck_assert_str_eq(why, want[_i]);
	sp_bw_free(&b);	/* also after a failure: no leak (valgrind) */
	nlmsg_free(m);
}
END_TEST

/* Only ID and STATE are required: any other attribute may be missing. */
START_TEST(test_parse_bw_sparse)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_BW_GET, 0);
	struct nlattr *ivs, *iv;
	struct sp_bw b;

	nla_put_u32(m, SPARKPERF_A_BW_ID, 3);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, SPARKPERF_LAT_STATE_RUNNING);
	nla_put_u64(m, SPARKPERF_A_BW_RX_BYTES, 77);
	ivs = nla_nest_start(m, SPARKPERF_A_BW_INTERVALS);
	iv = nla_nest_start(m, SPARKPERF_A_LAT_INTERVALS_ENTRY);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_END_NS, 1000);	/* no count, no bytes */
	nla_nest_end(m, iv);
	nla_nest_end(m, ivs);
	ck_assert_int_eq(sp_nl_parse_bw(nlmsg_hdr(m), &b, NULL), 0);
	ck_assert_uint_eq(b.id, 3);
	ck_assert_uint_eq(b.state, SPARKPERF_LAT_STATE_RUNNING);
	ck_assert_uint_eq(b.cfg.peer.len, 0);
	ck_assert(!b.cfg.has_port && !b.cfg.has_dev && !b.cfg.has_op && !b.cfg.has_size);
	ck_assert(!b.cfg.has_qps && !b.cfg.has_threads && !b.cfg.has_depth);
	ck_assert(!b.cfg.has_signal && !b.cfg.has_iters && !b.cfg.has_duration);
	ck_assert(!b.cfg.bidir && !b.cfg.validate && !b.cfg.has_interval);
	ck_assert(!b.has_error && !b.has_error_msg && !b.has_start);
	ck_assert(!b.has_validate_errors && !b.has_cpu);
	ck_assert_uint_eq(b.tx_bytes, 0);
	ck_assert_uint_eq(b.rx_bytes, 77);
	ck_assert_uint_eq(b.elapsed_ns, 0);
	ck_assert_uint_eq(b.n_intervals, 1);
	ck_assert_uint_eq(b.intervals[0].end_ns, 1000);
	ck_assert_uint_eq(b.intervals[0].bytes, 0);
	sp_bw_free(&b);
	nlmsg_free(m);

	/* a duration run, and an empty interval list */
	m = genl_new(SPARKPERF_CMD_BW_GET, NLM_F_MULTI);
	nla_put_u32(m, SPARKPERF_A_BW_ID, 4);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, SPARKPERF_LAT_STATE_CONNECTING);
	nla_put_u32(m, SPARKPERF_A_BW_DURATION_MS, 10000);
	nla_nest_end(m, nla_nest_start(m, SPARKPERF_A_BW_INTERVALS));
	ck_assert_int_eq(sp_nl_parse_bw(nlmsg_hdr(m), &b, NULL), 0);
	ck_assert(b.cfg.has_duration && b.cfg.duration_ms == 10000);
	ck_assert(!b.cfg.has_iters);
	ck_assert_uint_eq(b.n_intervals, 0);
	ck_assert_ptr_null(b.intervals);
	sp_bw_free(&b);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_parse_bw_failed)
{
	static const char why[] = "work completion error: status 12 (transport retry counter "
				  "exceeded), opcode RDMA_WRITE, vendor error 0x81";
	struct nl_msg *m = genl_new(SPARKPERF_CMD_BW_GET, 0);
	struct sp_bw b;

	nla_put_u32(m, SPARKPERF_A_BW_ID, 12);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, SPARKPERF_LAT_STATE_FAILED);
	nla_put_s32(m, SPARKPERF_A_BW_ERROR, -EIO);
	nla_put_string(m, SPARKPERF_A_BW_ERROR_MSG, why);
	nla_put_u64(m, SPARKPERF_A_BW_TX_BYTES, 4096);
	ck_assert_int_eq(sp_nl_parse_bw(nlmsg_hdr(m), &b, NULL), 0);
	ck_assert_uint_eq(b.state, SPARKPERF_LAT_STATE_FAILED);
	ck_assert(b.has_error && b.error == -EIO);
	ck_assert(b.has_error_msg);
	ck_assert_str_eq(b.error_msg, why);
	ck_assert_str_eq(sp_session_error(b.has_error_msg, b.error_msg, b.has_error, b.error),
			 why);
	ck_assert_str_eq(sp_session_error(false, NULL, b.has_error, b.error),
			 "Input/output error");
	ck_assert_ptr_null(sp_session_error(false, NULL, false, 0));
	ck_assert_uint_eq(b.tx_bytes, 4096);
	sp_bw_free(&b);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_parse_bw_id)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_BW_RUN, 0);
	const char *why = NULL;
	uint32_t id = 0;

	nla_put_u32(m, SPARKPERF_A_BW_ID, 31);
	ck_assert_int_eq(sp_nl_parse_bw_id(nlmsg_hdr(m), &id, NULL), 0);
	ck_assert_uint_eq(id, 31);
	nlmsg_free(m);
	m = genl_new(SPARKPERF_CMD_BW_RUN, 0);
	ck_assert_int_eq(sp_nl_parse_bw_id(nlmsg_hdr(m), &id, &why), -EBADMSG);
	ck_assert_str_eq(why, "SPARKPERF_A_BW_ID");
	nlmsg_free(m);
}
END_TEST

static struct nl_msg *progress_msg(uint32_t id, uint8_t state, uint64_t tx, bool interval)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_BW_PROGRESS, 0);

	nlmsg_hdr(m)->nlmsg_seq = 0;	/* multicast */
	nla_put_u32(m, SPARKPERF_A_BW_ID, id);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, state);
	nla_put_u64(m, SPARKPERF_A_BW_TX_BYTES, tx);
	nla_put_u64(m, SPARKPERF_A_BW_RX_BYTES, tx / 2);
	if (interval)
		put_interval(m, SPARKPERF_A_BW_INTERVAL, 300000000, 1000, tx);
	return m;
}

START_TEST(test_parse_progress)
{
	struct nl_msg *m = progress_msg(9, SPARKPERF_LAT_STATE_RUNNING, 65536000, true);
	struct sp_bw_progress p;
	const char *why = NULL;
	struct nlattr *iv;

	ck_assert_int_eq(sp_nl_parse_bw_progress(nlmsg_hdr(m), &p, NULL), 0);
	ck_assert_uint_eq(p.id, 9);
	ck_assert_uint_eq(p.state, SPARKPERF_LAT_STATE_RUNNING);
	ck_assert_uint_eq(p.tx_bytes, 65536000);
	ck_assert_uint_eq(p.rx_bytes, 32768000);
	ck_assert(p.has_interval);
	ck_assert_uint_eq(p.interval.end_ns, 300000000);
	ck_assert_uint_eq(p.interval.count, 1000);
	ck_assert_uint_eq(p.interval.bytes, 65536000);
	nlmsg_free(m);

	m = progress_msg(9, SPARKPERF_LAT_STATE_DONE, 1, false);
	ck_assert_int_eq(sp_nl_parse_bw_progress(nlmsg_hdr(m), &p, NULL), 0);
	ck_assert(!p.has_interval);
	ck_assert_uint_eq(p.state, SPARKPERF_LAT_STATE_DONE);
	nlmsg_free(m);

	/* a latency session's progress is not a bandwidth one */
	m = genl_new(SPARKPERF_CMD_LAT_PROGRESS, 0);
	nla_put_u32(m, SPARKPERF_A_LAT_ID, 9);
	nla_put_u8(m, SPARKPERF_A_LAT_STATE, SPARKPERF_LAT_STATE_DONE);
	ck_assert_int_eq(sp_nl_parse_bw_progress(nlmsg_hdr(m), &p, NULL), -EOPNOTSUPP);
	nlmsg_free(m);

	/* an interval without its end */
	m = genl_new(SPARKPERF_CMD_BW_PROGRESS, 0);
	nla_put_u32(m, SPARKPERF_A_BW_ID, 9);
	nla_put_u8(m, SPARKPERF_A_BW_STATE, SPARKPERF_LAT_STATE_RUNNING);
	iv = nla_nest_start(m, SPARKPERF_A_BW_INTERVAL);
	nla_put_u64(m, SPARKPERF_A_INTERVAL_BYTES, 5);
	nla_nest_end(m, iv);
	ck_assert_int_eq(sp_nl_parse_bw_progress(nlmsg_hdr(m), &p, &why), -EBADMSG);
	ck_assert_str_eq(why, "SPARKPERF_A_INTERVAL_END_NS");
	nlmsg_free(m);
}
END_TEST

static int collect_bw(struct nlmsghdr *nlh, void *arg)
{
	struct sp_bw_list *list = arg;
	struct sp_bw b;
	int ret = sp_nl_parse_bw(nlh, &b, NULL);

	if (!ret)
		ret = sp_bw_list_add(list, &b);
	sp_bw_free(&b);
	return ret;
}

START_TEST(test_xact_get)
{
	struct sp_bw_list list = { 0 };
	struct nl_msg *req, *m[3];
	struct sp_nl_xact x;
	char buf[8192];
	size_t len;

	ck_assert_int_eq(sp_nl_bw_get_msg(FAMILY, false, 0, &req), 0);
	nlmsg_hdr(req)->nlmsg_seq = SEQ;
	sp_nl_xact_init(&x, FAMILY, req, SPARKPERF_CMD_BW_GET, collect_bw, &list);
	m[0] = bw_reply(BAD_NONE, NLM_F_MULTI);
	m[1] = bw_reply(BAD_NONE, NLM_F_MULTI);
	m[2] = error_new(req, 0, NLM_F_CAPPED);
	len = datagram(buf, sizeof(buf), m, 3);
	ck_assert(sp_nl_xact_feed(&x, buf, len));
	ck_assert_int_eq(sp_nl_xact_result(&x), 0);
	ck_assert_uint_eq(list.n, 2);
	assert_bw9(&list.bws[1]);
	sp_bw_list_free(&list);
	ck_assert_uint_eq(list.n, 0);
	nlmsg_free(req);
}
END_TEST

struct seen {
	struct sp_bw_progress p[8];
	int n;
};

static int collect_progress(const struct sp_bw_progress *p, void *arg)
{
	struct seen *s = arg;

	s->p[s->n++] = *p;
	return 0;
}

START_TEST(test_progress_feed)
{
	struct sp_nl nl = { .family = FAMILY };
	struct seen s = { .n = 0 };
	struct nl_msg *m[4];
	char buf[8192];
	size_t len;

	m[0] = progress_msg(9, SPARKPERF_LAT_STATE_RUNNING, 100, true);
	/* a latency session's progress: skipped, not malformed */
	m[1] = genl_new(SPARKPERF_CMD_LAT_PROGRESS, 0);
	nla_put_u32(m[1], SPARKPERF_A_LAT_ID, 3);
	nla_put_u8(m[1], SPARKPERF_A_LAT_STATE, SPARKPERF_LAT_STATE_RUNNING);
	/* malformed: no state */
	m[2] = genl_new(SPARKPERF_CMD_BW_PROGRESS, 0);
	nla_put_u32(m[2], SPARKPERF_A_BW_ID, 9);
	m[3] = progress_msg(10, SPARKPERF_LAT_STATE_DONE, 200, false);
	len = datagram(buf, sizeof(buf), m, 4);
	ck_assert_int_eq(sp_nl_bw_progress_feed(&nl, buf, len, collect_progress, &s), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_uint_eq(nl.bad_progress, 1);
	ck_assert_uint_eq(s.p[0].id, 9);
	ck_assert(s.p[0].has_interval);
	ck_assert_uint_eq(s.p[1].id, 10);
	ck_assert_uint_eq(s.p[1].state, SPARKPERF_LAT_STATE_DONE);
}
END_TEST

START_TEST(test_attr_names)
{
	struct sp_nl_err e = {
		.error = -EINVAL, .cmd = SPARKPERF_CMD_BW_RUN,
		.has_miss_type = true, .miss_type = SPARKPERF_A_BW_PEER,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_BW_RUN, SPARKPERF_A_BW_START_AT_NS),
			 "SPARKPERF_A_BW_START_AT_NS");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_BW_STOP, SPARKPERF_A_BW_ID),
			 "SPARKPERF_A_BW_ID");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_BW_GET, SPARKPERF_A_BW_INTERVAL),
			 "SPARKPERF_A_BW_INTERVAL");
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_BW_RUN, SPARKPERF_A_BW_MAX + 1));
	ck_assert_ptr_null(sp_nl_attr_name(SPARKPERF_CMD_BW_PROGRESS, SPARKPERF_A_BW_ID));
	f = open_memstream(&buf, &len);
	sp_report_nl_error(f, "bw", "run", e.error, &e);
	fclose(f);
	ck_assert_str_eq(buf, "Error: missing required attribute SPARKPERF_A_BW_PEER.\n");
	free(buf);
}
END_TEST

static Suite *bwnl_suite(void)
{
	Suite *s = suite_create("bwnl");
	TCase *tc = tcase_create("build");

	tcase_add_test(tc, test_run_every_option);
	tcase_add_test(tc, test_run_minimal);
	tcase_add_loop_test(tc, test_run_each_option, 0, 14);
	tcase_add_test(tc, test_run_invalid);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_test(tc, test_parse_bw);
	tcase_add_loop_test(tc, test_parse_bw_malformed, BAD_NO_ID, BAD_MAX);
	tcase_add_test(tc, test_parse_bw_sparse);
	tcase_add_test(tc, test_parse_bw_failed);
	tcase_add_test(tc, test_parse_bw_id);
	tcase_add_test(tc, test_parse_progress);
	suite_add_tcase(s, tc);

	tc = tcase_create("xact");
	tcase_add_test(tc, test_xact_get);
	tcase_add_test(tc, test_progress_feed);
	tcase_add_test(tc, test_attr_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bwnl_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
