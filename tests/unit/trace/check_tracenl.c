// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink messages of counters and traces (user/nl.c) without a socket:
 * COUNTERS_GET and TRACE_START built and inspected attribute by attribute,
 * canned COUNTERS_GET, TRACE_GET, TRACE_TABLE and TRACE_SAMPLES (with LOST)
 * replies fed to the parsers (well formed and malformed), and the "trace"
 * group's feed dispatching SAMPLES, TABLE and END.
 */
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

#include "lib/tracenl.h"
#include "testutil.h"

/* ---- requests ------------------------------------------------------------ */

START_TEST(test_counters_get_msg)
{
	struct nlattr *tb[SPARKPERF_A_TRACE_MAX + 1], *t[SPARKPERF_A_TARGET_MAX + 1], *g;
	struct sp_trace_target rdma = { .rdma = true, .name = "rocep1s0f0", .port = 1 };
	struct sp_trace_target nd = { .name = "enp1s0f0np0" };
	const char *globs[] = { "ethtool:*_bytes_phy", "*pause*" };
	struct nl_msg *msg;
	int rem, n = 0;

	ck_assert_int_eq(sp_nl_counters_get_msg(FAMILY, &rdma, globs, 2, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_COUNTERS_GET, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 2);
	ck_assert_int_eq(nla_parse_nested(t, SPARKPERF_A_TARGET_MAX,
					  tb[SPARKPERF_A_TRACE_TARGET], NULL), 0);
	ck_assert_str_eq(nla_data(t[SPARKPERF_A_TARGET_RDMA_DEV]), "rocep1s0f0");
	ck_assert_uint_eq(nla_get_u32(t[SPARKPERF_A_TARGET_RDMA_PORT]), 1);
	ck_assert_ptr_null(t[SPARKPERF_A_TARGET_NETDEV]);
	nla_for_each_nested(g, tb[SPARKPERF_A_TRACE_GLOBS], rem) {
		ck_assert_int_eq(nla_type(g), SPARKPERF_A_TRACE_GLOB);
		ck_assert_str_eq(nla_data(g), globs[n++]);
	}
	ck_assert_int_eq(n, 2);
	nlmsg_free(msg);

	/* a netdev, no globs: every counter */
	ck_assert_int_eq(sp_nl_counters_get_msg(FAMILY, &nd, NULL, 0, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_COUNTERS_GET, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 1);
	ck_assert_int_eq(nla_parse_nested(t, SPARKPERF_A_TARGET_MAX,
					  tb[SPARKPERF_A_TRACE_TARGET], NULL), 0);
	ck_assert_str_eq(nla_data(t[SPARKPERF_A_TARGET_NETDEV]), "enp1s0f0np0");
	ck_assert_ptr_null(t[SPARKPERF_A_TARGET_RDMA_PORT]);
	nlmsg_free(msg);

	/* a netdev name longer than IFNAMSIZ - 1, an empty glob */
	snprintf(nd.name, sizeof(nd.name), "a23456789012345678");
	ck_assert_int_eq(sp_nl_counters_get_msg(FAMILY, &nd, NULL, 0, &msg), -EINVAL);
	ck_assert_ptr_null(msg);
	globs[1] = "";
	ck_assert_int_eq(sp_nl_counters_get_msg(FAMILY, &rdma, globs, 2, &msg), -EINVAL);
}
END_TEST

START_TEST(test_trace_start_msg)
{
	struct nlattr *tb[SPARKPERF_A_TRACE_MAX + 1], *pos;
	struct sp_trace_config c = {
		.targets = { { .name = "eth0" }, { .rdma = true, .name = "rxe0" } },
		.n_targets = 2,
		.globs = { "netdev:*" }, .n_globs = 1,
		.has_netdev_period = true, .netdev_period_us = 100,
		.has_ethtool_period = true, .ethtool_period_us = 1000,
		.has_duration = true, .duration_ms = 2500,
		.has_buffer = true, .buffer_bytes = 65536,
	};
	struct nl_msg *msg;
	int rem, n = 0;

	ck_assert_int_eq(sp_nl_trace_start_msg(FAMILY, &c, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_TRACE_START, NLM_F_ACK);
	ck_assert_int_eq(count_attrs(msg), 6);
	nla_for_each_nested(pos, tb[SPARKPERF_A_TRACE_TARGETS], rem) {
		ck_assert_int_eq(nla_type(pos), SPARKPERF_A_TRACE_TARGET);
		n++;
	}
	ck_assert_int_eq(n, 2);
	assert_attr(tb, SPARKPERF_A_TRACE_NETDEV_PERIOD_US, 4);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_TRACE_NETDEV_PERIOD_US]), 100);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US]), 1000);
	ck_assert_ptr_null(tb[SPARKPERF_A_TRACE_RDMA_PERIOD_US]);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_TRACE_DURATION_MS]), 2500);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_TRACE_BUFFER_BYTES]), 65536);
	ck_assert_ptr_null(tb[SPARKPERF_A_TRACE_BATCH_MS]);
	nlmsg_free(msg);

	c.n_targets = 0;
	ck_assert_int_eq(sp_nl_trace_start_msg(FAMILY, &c, &msg), -EINVAL);
	c.n_targets = SPARKPERF_TRACE_TARGETS_MAX + 1;
	ck_assert_int_eq(sp_nl_trace_start_msg(FAMILY, &c, &msg), -EINVAL);
}
END_TEST

START_TEST(test_samples_msg)
{
	struct nlattr *tb[SPARKPERF_A_TRACE_MAX + 1];
	struct nl_msg *msg;

	ck_assert_int_eq(sp_nl_trace_samples_msg(FAMILY, 7, true, 4242, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_TRACE_SAMPLES, NLM_F_DUMP);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_TRACE_ID]), 7);
	assert_attr(tb, SPARKPERF_A_TRACE_CURSOR, 8);
	ck_assert_uint_eq(nla_get_u64(tb[SPARKPERF_A_TRACE_CURSOR]), 4242);
	nlmsg_free(msg);
	ck_assert_int_eq(sp_nl_trace_samples_msg(FAMILY, 7, false, 0, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_TRACE_SAMPLES, NLM_F_DUMP);
	ck_assert_ptr_null(tb[SPARKPERF_A_TRACE_CURSOR]);
	nlmsg_free(msg);
	ck_assert_int_eq(sp_nl_trace_get_msg(FAMILY, false, 0, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_TRACE_GET, NLM_F_DUMP);
	ck_assert_int_eq(count_attrs(msg), 0);
	nlmsg_free(msg);
	ck_assert_int_eq(sp_nl_trace_stop_msg(FAMILY, 9, &msg), 0);
	req_parse(msg, tb, SPARKPERF_A_TRACE_MAX, SPARKPERF_CMD_TRACE_STOP, NLM_F_ACK);
	ck_assert_uint_eq(nla_get_u32(tb[SPARKPERF_A_TRACE_ID]), 9);
	nlmsg_free(msg);
}
END_TEST

/* ---- replies ------------------------------------------------------------- */

enum { S_OK, S_BAD_VALUES, S_LONG_NAME, S_NO_SOURCE };

static void put_stream(struct nl_msg *m, uint32_t index, uint8_t source, uint32_t version,
		       const char *const *names, int n, const uint64_t *values, int bad)
{
	struct nlattr *st = nla_nest_start(m, SPARKPERF_A_TRACE_STREAM), *nn;
	int i;

	nla_put_u32(m, SPARKPERF_A_STREAM_INDEX, index);
	if (bad != S_NO_SOURCE)
		nla_put_u8(m, SPARKPERF_A_STREAM_SOURCE, source);
	nla_put_string(m, SPARKPERF_A_STREAM_TARGET, source == SPARKPERF_SRC_RDMA ? "rxe0" :
		       "eth0");
	if (source == SPARKPERF_SRC_RDMA)
		nla_put_u32(m, SPARKPERF_A_STREAM_PORT, 1);
	else
		nla_put_u32(m, SPARKPERF_A_STREAM_IFINDEX, 2);
	nla_put_u32(m, SPARKPERF_A_STREAM_PERIOD_US, 1000);
	nla_put_u32(m, SPARKPERF_A_STREAM_VERSION, version);
	nla_put_u32(m, SPARKPERF_A_STREAM_SLOT_VALUES, 16);
	nla_put_flag(m, SPARKPERF_A_STREAM_TRUNCATED);
	nn = nla_nest_start(m, SPARKPERF_A_STREAM_NAMES);
	for (i = 0; i < n; i++)
		nla_put_string(m, SPARKPERF_A_STREAM_NAME, names[i]);
	if (bad == S_LONG_NAME)
		nla_put_string(m, SPARKPERF_A_STREAM_NAME, "a_name_of_thirty_two_bytes_12345");
	nla_nest_end(m, nn);
	nla_put_u64(m, SPARKPERF_A_STREAM_SAMPLES, 10);
	nla_put_u64(m, SPARKPERF_A_STREAM_MISSED, 2);
	nla_put_u64(m, SPARKPERF_A_STREAM_READ_NS_SUM, 5000);
	nla_put_u64(m, SPARKPERF_A_STREAM_READ_NS_MAX, 900);
	nla_put_u64(m, SPARKPERF_A_STREAM_LATE_NS_MAX, 1234);
	if (values) {
		nla_put(m, SPARKPERF_A_STREAM_VALUES, (n - (bad == S_BAD_VALUES)) * 8, values);
		nla_put_u64(m, SPARKPERF_A_STREAM_TS_NS, 777);
		nla_put_u32(m, SPARKPERF_A_STREAM_READ_NS, 55);
	}
	nla_nest_end(m, st);
}

static const char *const names[] = { "tx_bytes_phy", "rx_bytes_phy", "rx_prio3_pause" };
static const uint64_t vals[] = { 1ULL << 40, 12345, 0 };

START_TEST(test_parse_counters)
{
	struct nl_msg *m = genl_new(SPARKPERF_CMD_COUNTERS_GET, 0);
	struct sp_stream st;
	const char *why = NULL;

	put_stream(m, 1, SPARKPERF_SRC_ETHTOOL, 1, names, 3, vals, S_OK);
	ck_assert_int_eq(sp_nl_parse_counters(nlmsg_hdr(m), &st, &why), 0);
	ck_assert_uint_eq(st.source, SPARKPERF_SRC_ETHTOOL);
	ck_assert_str_eq(st.target, "eth0");
	ck_assert(st.has_ifindex && st.ifindex == 2 && !st.has_port);
	ck_assert_uint_eq(st.n_names, 3);
	ck_assert_str_eq(st.names[2], "rx_prio3_pause");
	ck_assert_uint_eq(st.n_values, 3);
	ck_assert_uint_eq(st.values[0], 1ULL << 40);
	ck_assert_uint_eq(st.values[1], 12345);
	ck_assert(st.has_ts && st.ts_ns == 777 && st.read_ns == 55);
	ck_assert(st.truncated);
	sp_stream_free(&st);
	nlmsg_free(m);
}
END_TEST

START_TEST(test_parse_counters_malformed)
{
	static const char *const want[] = {
		[S_BAD_VALUES] = "SPARKPERF_A_STREAM_VALUES",
		[S_LONG_NAME] = "SPARKPERF_A_STREAM_NAME",
		[S_NO_SOURCE] = "SPARKPERF_A_STREAM_SOURCE",
	};
	struct nl_msg *m = genl_new(SPARKPERF_CMD_COUNTERS_GET, 0);
	struct sp_stream st;
	const char *why = NULL;

	put_stream(m, 1, SPARKPERF_SRC_ETHTOOL, 1, names, 3, vals, _i);
	ck_assert_int_eq(sp_nl_parse_counters(nlmsg_hdr(m), &st, &why), -EBADMSG);
	ck_assert_str_eq(why, want[_i]);
	sp_stream_free(&st);
	nlmsg_free(m);
}
END_TEST

static struct nl_msg *trace_msg(uint8_t cmd, uint8_t state)
{
	struct nl_msg *m = genl_new(cmd, 0);
	struct nlattr *sts;

	nla_put_u32(m, SPARKPERF_A_TRACE_ID, 7);
	nla_put_u8(m, SPARKPERF_A_TRACE_STATE, state);
	if (state == SPARKPERF_TRACE_STATE_FAILED) {
		nla_put_s32(m, SPARKPERF_A_TRACE_ERROR, -ENODEV);
		nla_put_string(m, SPARKPERF_A_TRACE_ERROR_MSG, "netdev eth0 went away");
	}
	nla_put_u64(m, SPARKPERF_A_TRACE_START_NS, 1000);
	nla_put_u64(m, SPARKPERF_A_TRACE_ELAPSED_NS, 2000000);
	nla_put_u32(m, SPARKPERF_A_TRACE_BUFFER_BYTES, 1 << 20);
	nla_put_u32(m, SPARKPERF_A_TRACE_BATCH_MS, 20);
	nla_put_u64(m, SPARKPERF_A_TRACE_CPU_NS, 31337);
	nla_put_u32(m, SPARKPERF_A_TRACE_SLOTS, 4096);
	nla_put_u64(m, SPARKPERF_A_TRACE_SEQ_NEXT, 50);
	nla_put_u64(m, SPARKPERF_A_TRACE_SEQ_OLDEST, 3);
	sts = nla_nest_start(m, SPARKPERF_A_TRACE_STREAMS);
	put_stream(m, 0, SPARKPERF_SRC_NETDEV, 1, names, 2, NULL, S_OK);
	put_stream(m, 1, SPARKPERF_SRC_RDMA, 3, names, 1, NULL, S_OK);
	nla_nest_end(m, sts);
	return m;
}

START_TEST(test_parse_trace)
{
	struct nl_msg *m = trace_msg(SPARKPERF_CMD_TRACE_GET, SPARKPERF_TRACE_STATE_FAILED);
	struct sp_trace t;

	ck_assert_int_eq(sp_nl_parse_trace(nlmsg_hdr(m), &t, NULL), 0);
	ck_assert_uint_eq(t.id, 7);
	ck_assert_uint_eq(t.state, SPARKPERF_TRACE_STATE_FAILED);
	ck_assert(t.has_error && t.error == -ENODEV);
	ck_assert_str_eq(t.error_msg, "netdev eth0 went away");
	ck_assert(t.has_cpu && t.cpu_ns == 31337);
	ck_assert(!t.has_duration);
	ck_assert_uint_eq(t.seq_next, 50);
	ck_assert_uint_eq(t.seq_oldest, 3);
	ck_assert_uint_eq(t.n_streams, 2);
	ck_assert_uint_eq(t.streams[0].n_names, 2);
	ck_assert_str_eq(t.streams[0].names[1], "rx_bytes_phy");
	ck_assert_uint_eq(t.streams[1].version, 3);
	ck_assert(t.streams[1].has_port && t.streams[1].port == 1);
	ck_assert_uint_eq(t.streams[1].samples, 10);
	ck_assert_uint_eq(t.streams[1].missed, 2);
	ck_assert_uint_eq(t.streams[1].late_ns_max, 1234);
	ck_assert_uint_eq(t.streams[1].n_values, 0);
	sp_trace_free(&t);
	nlmsg_free(m);
}
END_TEST

/* n samples of stream 0 from seq first, 2 values each; lost when not 0. */
static struct nl_msg *samples_msg(uint8_t cmd, uint64_t first, int n, uint64_t lost, int bad)
{
	struct nl_msg *m = genl_new(cmd, 0);
	struct nlattr *ss, *one;
	int i;

	nla_put_u32(m, SPARKPERF_A_TRACE_ID, 7);
	if (lost)
		nla_put_u64(m, SPARKPERF_A_TRACE_LOST, lost);
	ss = nla_nest_start(m, SPARKPERF_A_TRACE_SAMPLES);
	for (i = 0; i < n; i++) {
		uint64_t v[2] = { 100 * (first + (uint64_t)i), 7 };

		one = nla_nest_start(m, SPARKPERF_A_TRACE_SAMPLE);
		nla_put_u64(m, SPARKPERF_A_SAMPLE_SEQ, first + (uint64_t)i);
		nla_put_u32(m, SPARKPERF_A_SAMPLE_STREAM, 0);
		nla_put_u32(m, SPARKPERF_A_SAMPLE_VERSION, 2);
		if (!(bad == 1 && i == n - 1))
			nla_put_u64(m, SPARKPERF_A_SAMPLE_TS_NS, 1000000 * (first + (uint64_t)i));
		nla_put_u32(m, SPARKPERF_A_SAMPLE_READ_NS, 300 + (uint32_t)i);
		/* an odd length: 12 bytes are one value and a half */
		nla_put(m, SPARKPERF_A_SAMPLE_VALUES, bad == 2 ? 12 : 16, v);
		nla_nest_end(m, one);
	}
	nla_nest_end(m, ss);
	return m;
}

START_TEST(test_parse_samples)
{
	struct nl_msg *m = samples_msg(SPARKPERF_CMD_TRACE_SAMPLES, 40, 3, 5, 0);
	struct sp_trace_samples s;
	const char *why = NULL;

	ck_assert_int_eq(sp_nl_parse_trace_samples(nlmsg_hdr(m), &s, &why), 0);
	ck_assert_uint_eq(s.id, 7);
	ck_assert_uint_eq(s.lost, 5);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.s[2].seq, 42);
	ck_assert_uint_eq(s.s[2].version, 2);
	ck_assert_uint_eq(s.s[2].ts_ns, 42000000);
	ck_assert_uint_eq(s.s[2].read_ns, 302);
	ck_assert_uint_eq(s.s[2].n, 2);
	ck_assert_uint_eq(sp_trace_sample_value(&s.s[2], 0), 4200);
	ck_assert_uint_eq(sp_trace_sample_value(&s.s[2], 1), 7);
	sp_trace_samples_free(&s);
	nlmsg_free(m);

	m = samples_msg(SPARKPERF_CMD_TRACE_SAMPLES, 0, 2, 0, 1);
	ck_assert_int_eq(sp_nl_parse_trace_samples(nlmsg_hdr(m), &s, &why), -EBADMSG);
	ck_assert_str_eq(why, "SPARKPERF_A_SAMPLE_TS_NS");
	sp_trace_samples_free(&s);
	nlmsg_free(m);
	m = samples_msg(SPARKPERF_CMD_TRACE_SAMPLES, 0, 1, 0, 2);
	ck_assert_int_eq(sp_nl_parse_trace_samples(nlmsg_hdr(m), &s, &why), -EBADMSG);
	ck_assert_str_eq(why, "SPARKPERF_A_SAMPLE_VALUES");
	sp_trace_samples_free(&s);
	nlmsg_free(m);
}
END_TEST

/* ---- the "trace" group --------------------------------------------------- */

struct seen {
	int samples, tables, ends;
	uint64_t last_seq;
	uint32_t table_version;
	char first_name[SP_COUNTER_NAME_MAX];
	uint8_t end_state;
};

static int on_event(const struct sp_trace_event *ev, void *arg)
{
	struct seen *s = arg;

	ck_assert_uint_eq(ev->id, 7);
	switch (ev->type) {
	case SP_TRACE_EV_SAMPLES:
		s->samples += (int)ev->samples.n;
		s->last_seq = ev->samples.s[ev->samples.n - 1].seq;
		break;
	case SP_TRACE_EV_TABLE:
		s->tables++;
		s->table_version = ev->stream.version;
		snprintf(s->first_name, sizeof(s->first_name), "%s", ev->stream.names[0]);
		break;
	case SP_TRACE_EV_END:
		s->ends++;
		s->end_state = ev->trace.state;
		break;
	}
	return 0;
}

START_TEST(test_trace_feed)
{
	static const char *const v2[] = { "rx_prio3_pause", "tx_bytes_phy" };
	struct nl_msg *msgs[5];
	struct sp_nl nl = { .family = FAMILY };
	struct seen s = { 0 };
	struct nlattr *sts;
	char buf[8192];
	size_t len;

	msgs[0] = samples_msg(SPARKPERF_CMD_TRACE_SAMPLES, 0, 4, 0, 0);
	msgs[1] = genl_new(SPARKPERF_CMD_TRACE_TABLE, 0);
	nla_put_u32(msgs[1], SPARKPERF_A_TRACE_ID, 7);
	sts = nla_nest_start(msgs[1], SPARKPERF_A_TRACE_STREAMS);
	put_stream(msgs[1], 0, SPARKPERF_SRC_ETHTOOL, 2, v2, 2, NULL, S_OK);
	nla_nest_end(msgs[1], sts);
	msgs[2] = samples_msg(SPARKPERF_CMD_TRACE_SAMPLES, 4, 2, 0, 0);
	/* malformed: counted, skipped */
	msgs[3] = samples_msg(SPARKPERF_CMD_TRACE_SAMPLES, 6, 1, 0, 1);
	msgs[4] = trace_msg(SPARKPERF_CMD_TRACE_END, SPARKPERF_TRACE_STATE_DONE);
	len = datagram(buf, sizeof(buf), msgs, 5);
	ck_assert_int_eq(sp_nl_trace_feed(&nl, buf, len, on_event, &s), 0);
	ck_assert_int_eq(s.samples, 6);
	ck_assert_uint_eq(s.last_seq, 5);
	ck_assert_int_eq(s.tables, 1);
	ck_assert_uint_eq(s.table_version, 2);
	ck_assert_str_eq(s.first_name, "rx_prio3_pause");
	ck_assert_int_eq(s.ends, 1);
	ck_assert_uint_eq(s.end_state, SPARKPERF_TRACE_STATE_DONE);
	ck_assert_uint_eq(nl.bad_trace, 1);
}
END_TEST

START_TEST(test_attr_names)
{
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_TRACE_START, SPARKPERF_A_TRACE_TARGETS),
			 "SPARKPERF_A_TRACE_TARGETS");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_COUNTERS_GET, SPARKPERF_A_TRACE_TARGET),
			 "SPARKPERF_A_TRACE_TARGET");
	ck_assert_str_eq(sp_nl_attr_name(SPARKPERF_CMD_TRACE_SAMPLES, SPARKPERF_A_TRACE_ID),
			 "SPARKPERF_A_TRACE_ID");
}
END_TEST

static Suite *tracenl_suite(void)
{
	Suite *s = suite_create("tracenl");
	TCase *tc = tcase_create("requests");

	tcase_add_test(tc, test_counters_get_msg);
	tcase_add_test(tc, test_trace_start_msg);
	tcase_add_test(tc, test_samples_msg);
	suite_add_tcase(s, tc);
	tc = tcase_create("replies");
	tcase_add_test(tc, test_parse_counters);
	tcase_add_loop_test(tc, test_parse_counters_malformed, S_BAD_VALUES, S_NO_SOURCE + 1);
	tcase_add_test(tc, test_parse_trace);
	tcase_add_test(tc, test_parse_samples);
	tcase_add_test(tc, test_trace_feed);
	tcase_add_test(tc, test_attr_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(tracenl_suite());
}
