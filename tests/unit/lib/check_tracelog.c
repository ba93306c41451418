// SPDX-License-Identifier: GPL-2.0
/*
 * A small trace through user/tracelog.c and its writers in user/print.c:
 * two streams, a 32-bit counter that wraps, a name table that changes
 * (version 2 inserts a name in front), samples mapped by their version,
 * a lost sample; then the report's statistics (period median and p99 from
 * the timestamps, missed, read times, CPU per sample, first, last,
 * delta, mean and peak rates) and the exact CSV and JSON documents.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "lib/traceprint.h"
#include "lib/tracelog.h"
#include "lib/tracerun.h"
#include "testutil.h"

static sp_counter_name nd_names[] = { "tx_bytes", "rx_packets" };
static sp_counter_name et1_names[] = { "rx_pause" };
static sp_counter_name et2_names[] = { "rx_prio3_pause", "rx_pause" };

static void stream(struct sp_stream *st, uint32_t index, uint8_t source, uint32_t period,
		   uint32_t version, sp_counter_name *names, size_t n)
{
	memset(st, 0, sizeof(*st));
	st->index = index;
	st->source = source;
	snprintf(st->target, sizeof(st->target), "eth0");
	st->has_ifindex = true;
	st->ifindex = 2;
	st->period_us = period;
	st->version = version;
	st->names = names;
	st->n_names = n;
}

static void add(struct sp_tracelog *tl, uint64_t seq, uint32_t s, uint32_t v, uint64_t ts,
		uint32_t read_ns, const uint64_t *values, size_t n)
{
	struct sp_trace_sample smp = {
		.seq = seq, .stream = s, .version = v, .ts_ns = ts, .read_ns = read_ns,
		.values = values, .n = n,
	};

	ck_assert_int_eq(sp_tl_add(tl, &smp), 0);
}

/* The trace: see the file's comment. */
static void build(struct sp_tracelog *tl, bool keep)
{
	struct sp_stream streams[2], st2;
	struct sp_trace t = {
		.id = 5, .state = SPARKPERF_TRACE_STATE_RUNNING, .start_ns = 1000,
		.streams = streams, .n_streams = 2,
	};
	struct sp_trace end = t;
	struct sp_stream end_streams[2];

	stream(&streams[0], 0, SPARKPERF_SRC_NETDEV, 1000, 1, nd_names, 2);
	stream(&streams[1], 1, SPARKPERF_SRC_ETHTOOL, 10000, 1, et1_names, 1);
	ck_assert_int_eq(sp_tl_init(tl, &t, keep), 0);

	add(tl, 0, 0, 1, 1000, 100, (uint64_t[]){ 4294967000ULL, 10 }, 2);
	add(tl, 1, 1, 1, 1000, 5000, (uint64_t[]){ 1 }, 1);
	add(tl, 2, 0, 1, 1001000, 200, (uint64_t[]){ 4294967200ULL, 20 }, 2);
	add(tl, 3, 0, 1, 2001000, 300, (uint64_t[]){ 100, 30 }, 2);
	/* PFC enabled: a new table for the ethtool stream */
	stream(&st2, 1, SPARKPERF_SRC_ETHTOOL, 10000, 2, et2_names, 2);
	ck_assert_int_eq(sp_tl_table(tl, &st2), 0);
	add(tl, 4, 0, 1, 3101000, 400, (uint64_t[]){ 1100, 40 }, 2);
	/* seq 5 never arrives */
	add(tl, 6, 1, 2, 10001000, 7000, (uint64_t[]){ 3, 4 }, 2);
	/* a version never announced: not mapped */
	add(tl, 7, 1, 9, 10002000, 7000, (uint64_t[]){ 3, 4 }, 2);

	end.state = SPARKPERF_TRACE_STATE_DONE;
	end.elapsed_ns = 10001000 - 1000;
	end.has_cpu = true;
	end.cpu_ns = 80000;
	end.streams = end_streams;
	stream(&end_streams[0], 0, SPARKPERF_SRC_NETDEV, 1000, 1, nd_names, 2);
	end_streams[0].samples = 5;
	end_streams[0].missed = 1;
	end_streams[0].read_ns_sum = 1500;
	end_streams[0].read_ns_max = 500;
	stream(&end_streams[1], 1, SPARKPERF_SRC_ETHTOOL, 10000, 2, et2_names, 2);
	end_streams[1].samples = 3;
	ck_assert_int_eq(sp_tl_update(tl, &end), 0);
}

START_TEST(test_statistics)
{
	struct sp_tl_stream_stats s;
	struct sp_tracelog tl;
	const struct sp_tl_counter *c;
	double v;

	build(&tl, false);
	ck_assert_uint_eq(tl.received, 7);
	ck_assert_uint_eq(tl.lost, 1);
	ck_assert_uint_eq(tl.table_changes, 1);
	ck_assert_uint_eq(tl.trace.state, SPARKPERF_TRACE_STATE_DONE);

	sp_tl_stream_stats(&tl.streams[0], &s);
	ck_assert(s.has_period);
	/* gaps 1000000, 1000000, 1100000 us: nearest rank */
	ck_assert_uint_eq(s.period_p50_ns, 1000000);
	ck_assert_uint_eq(s.period_p99_ns, 1100000);
	ck_assert_uint_eq(s.period_max_ns, 1100000);
	ck_assert_uint_eq(s.samples, 5);
	ck_assert_uint_eq(s.missed, 1);
	ck_assert(s.has_read);
	ck_assert_double_eq_tol(s.read_mean_ns, 300, 1e-9);
	ck_assert_uint_eq(s.read_max_ns, 500);

	/* tx_bytes wrapped at 2^32 between seq 2 and 3 */
	c = &tl.streams[0].counters[0];
	ck_assert_str_eq(c->name, "tx_bytes");
	ck_assert_uint_eq(c->first, 4294967000ULL);
	ck_assert_uint_eq(c->last, 1100);
	ck_assert_uint_eq(c->delta, 200 + 196 + 1000);
	ck_assert_uint_eq(c->wraps, 1);
	ck_assert(sp_tl_counter_mean_rate(c, &v));
	ck_assert_double_eq_tol(v, 1396.0 * 8 / 3.1e-3, 1e-3);
	/* the peak: 1000 bytes in 1.1 ms */
	ck_assert_double_eq_tol(c->peak_rate, 8000 / 1.1e-3, 1e-3);

	/* rx_pause keeps its identity across the table change; rx_prio3_pause is new */
	ck_assert_uint_eq(tl.streams[1].n_counters, 2);
	c = &tl.streams[1].counters[0];
	ck_assert_str_eq(c->name, "rx_pause");
	ck_assert_uint_eq(c->samples, 2);
	ck_assert_uint_eq(c->delta, 3);
	c = &tl.streams[1].counters[1];
	ck_assert_str_eq(c->name, "rx_prio3_pause");
	ck_assert_uint_eq(c->samples, 1);
	ck_assert(!sp_tl_counter_mean_rate(c, &v));
	ck_assert_uint_eq(tl.streams[1].unmapped, 1);
	ck_assert_uint_eq(tl.streams[1].n_tables, 2);

	/* 80000 ns of CPU for 5 + 3 samples */
	ck_assert(sp_tl_cpu_per_sample(&tl, &v));
	ck_assert_double_eq_tol(v, 10000, 1e-9);
	sp_tl_free(&tl);
}
END_TEST

START_TEST(test_percentile)
{
	uint64_t v[100];
	size_t i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;
	ck_assert_uint_eq(sp_tl_percentile(v, 100, 50), 50);
	ck_assert_uint_eq(sp_tl_percentile(v, 100, 99), 99);
	ck_assert_uint_eq(sp_tl_percentile(v, 100, 100), 100);
	ck_assert_uint_eq(sp_tl_percentile(v, 1, 99), 1);
	ck_assert_uint_eq(sp_tl_percentile(v, 0, 50), 0);
}
END_TEST

static char *write_with(int (*fn)(FILE *, const struct sp_tracelog *), struct sp_tracelog *tl)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(fn(f, tl), 0);
	fclose(f);
	return buf;
}

START_TEST(test_csv)
{
	struct sp_tracelog tl;
	char *csv;

	build(&tl, true);
	csv = write_with(sp_print_trace_csv, &tl);
	ck_assert_str_eq(csv,
		"time_ns,seq,stream,source,target,version,counter,value,delta,rate,rate_unit\n"
		"0,0,0,netdev,eth0,1,tx_bytes,4294967000,,,bit/s\n"
		"0,0,0,netdev,eth0,1,rx_packets,10,,,packet/s\n"
		"0,1,1,ethtool,eth0,1,rx_pause,1,,,1/s\n"
		"1000000,2,0,netdev,eth0,1,tx_bytes,4294967200,200,1600000.000,bit/s\n"
		"1000000,2,0,netdev,eth0,1,rx_packets,20,10,10000.000,packet/s\n"
		"2000000,3,0,netdev,eth0,1,tx_bytes,100,196,1568000.000,bit/s\n"
		"2000000,3,0,netdev,eth0,1,rx_packets,30,10,10000.000,packet/s\n"
		"3100000,4,0,netdev,eth0,1,tx_bytes,1100,1000,7272727.273,bit/s\n"
		"3100000,4,0,netdev,eth0,1,rx_packets,40,10,9090.909,packet/s\n"
		"10000000,6,1,ethtool,eth0,2,rx_prio3_pause,3,,,1/s\n"
		"10000000,6,1,ethtool,eth0,2,rx_pause,4,3,300.000,1/s\n");
	free(csv);
	sp_tl_free(&tl);
}
END_TEST

static int json_writer(FILE *f, const struct sp_tracelog *tl)
{
	return sp_print_trace_json_file(f, tl, NULL);
}

START_TEST(test_json)
{
	struct sp_tracelog tl;
	json_object *doc, *o, *arr, *st;
	char *s;

	build(&tl, true);
	s = write_with(json_writer, &tl);
	ck_assert_uint_eq(count_lines(s), 1);
	doc = json_tokener_parse(s);
	ck_assert_ptr_nonnull(doc);
	o = get(doc, "trace");
	assert_int(o, "id", 5);
	assert_str(o, "state", "done");
	assert_int(o, "start_ns", 1000);
	assert_null(o, "config");
	arr = get(doc, "streams");
	ck_assert_uint_eq(json_object_array_length(arr), 2);
	st = json_object_array_get_idx(arr, 1);
	assert_str(st, "source", "ethtool");
	assert_int(st, "period_us", 10000);
	arr = get(st, "tables");
	ck_assert_uint_eq(json_object_array_length(arr), 2);
	o = json_object_array_get_idx(arr, 1);
	assert_int(o, "version", 2);
	ck_assert_str_eq(json_object_to_json_string_ext(get(o, "names"), JSON_C_TO_STRING_PLAIN),
			 "[\"rx_prio3_pause\",\"rx_pause\"]");
	arr = get(doc, "samples");
	ck_assert_uint_eq(json_object_array_length(arr), 6);
	ck_assert_str_eq(json_object_to_json_string_ext(json_object_array_get_idx(arr, 4),
							JSON_C_TO_STRING_PLAIN),
			 "{\"seq\":4,\"stream\":0,\"version\":1,\"ts_ns\":3101000,"
			 "\"read_ns\":400,\"values\":[1100,40]}");
	o = get(doc, "report");
	assert_int(o, "samples_lost", 1);
	assert_int(o, "table_changes", 1);
	st = json_object_array_get_idx(get(o, "streams"), 0);
	assert_int(st, "period_p50_ns", 1000000);
	assert_int(st, "period_p99_ns", 1100000);
	assert_int(st, "missed", 1);
	o = json_object_array_get_idx(get(st, "counters"), 0);
	assert_str(o, "name", "tx_bytes");
	assert_str(o, "unit", "bytes");
	assert_int(o, "delta", 1396);
	assert_int(o, "wraps", 1);
	assert_double(o, "peak_gbit_per_s", 8000 / 1.1e-3 / 1e9, 1e-9);
	json_object_put(doc);
	free(s);
	sp_tl_free(&tl);
}
END_TEST

START_TEST(test_report_text)
{
	struct sp_tracelog tl;
	struct capture c;
	char *out;

	build(&tl, false);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_trace_report(&tl, "Counter", false, NULL), 0);
	out = cap_end(&c);
	ck_assert(starts_with(out, "Counter trace 5: done after 0.010 s, sampler CPU "
			      "10000.0 ns per sample\n"
			      "1 sample was lost (the ring overran before they were read)\n"
			      "Counter name tables changed 1 time during the trace"));
	ck_assert_ptr_nonnull(strstr(out, "\nnetdev   eth0                    1000      1000.0"
				     "      1100.0          5        1          0.300         "
				     "0.500       1\n"));
	ck_assert_ptr_nonnull(strstr(out, " tx_bytes                 4294967000                 1100"
				     "             1396       0.004 Gbit/s       0.007 Gbit/s  "
				     "(wrapped or reset)\n"));
	/* rx_prio3_pause did not change: left out, counted */
	ck_assert_ptr_null(strstr(out, "rx_prio3_pause"));
	ck_assert_ptr_nonnull(strstr(out, "(1 counter did not change)\n"));
	free(out);
	sp_tl_free(&tl);
}
END_TEST

/* ---- devices to targets, globs ---- */

START_TEST(test_port_pairs)
{
	struct sp_port ports[2] = {
		{ .num = 1, .rate_mbps = 200000, .has_netdev = true, .netdev_name = "enp1s0f0np0" },
		{ .num = 2 },
	};
	struct sp_dev devs[1] = { { .name = "rocep1s0f0", .ports = ports, .n_ports = 2 } };
	struct sp_dev_list list = { .devs = devs, .n = 1 };
	struct sp_trace_target t[8];
	struct sp_port_pair p[4];
	size_t n = 0, nt;
	char label[64];

	/* the RDMA device: both ports, the first with its netdev */
	ck_assert_int_eq(sp_port_pairs_add(&list, "rocep1s0f0", p, 4, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert(p[0].has_netdev && p[0].has_rdma && p[0].port == 1);
	ck_assert_str_eq(p[0].netdev, "enp1s0f0np0");
	ck_assert_uint_eq(p[0].rate_mbps, 200000);
	ck_assert(!p[1].has_netdev && p[1].port == 2);
	/* its netdev: the same pair, not added twice */
	ck_assert_int_eq(sp_port_pairs_add(&list, "enp1s0f0np0", p, 4, &n), 0);
	ck_assert_uint_eq(n, 2);
	/* a netdev of no RDMA port */
	ck_assert_int_eq(sp_port_pairs_add(&list, "lo", p, 4, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert(p[2].has_netdev && !p[2].has_rdma);
	ck_assert_int_eq(sp_port_pairs_targets(p, n, t, 8, &nt), 0);
	ck_assert_uint_eq(nt, 4);
	ck_assert(!t[0].rdma && !strcmp(t[0].name, "enp1s0f0np0"));
	ck_assert(t[1].rdma && !strcmp(t[1].name, "rocep1s0f0") && t[1].port == 1);
	ck_assert(t[2].rdma && t[2].port == 2);
	ck_assert(!t[3].rdma && !strcmp(t[3].name, "lo"));
	ck_assert_int_eq(sp_port_pairs_targets(p, n, t, 3, &nt), -ENOSPC);
	ck_assert_int_eq(sp_port_pairs_add(&list, "eth9", p, 3, &n), -ENOSPC);
	/* how watch and warnings name them */
	sp_port_pair_label(&p[0], label, sizeof(label));
	ck_assert_str_eq(label, "enp1s0f0np0 (rocep1s0f0)");
	sp_port_pair_label(&p[1], label, sizeof(label));
	ck_assert_str_eq(label, "rocep1s0f0/2");
	sp_port_pair_label(&p[2], label, sizeof(label));
	ck_assert_str_eq(label, "lo");
}
END_TEST

START_TEST(test_globs)
{
	struct sp_stream st[2] = {
		{ .source = SPARKPERF_SRC_NETDEV, .names = nd_names, .n_names = 2 },
		{ .source = SPARKPERF_SRC_ETHTOOL, .names = et2_names, .n_names = 2 },
	};
	const char *globs[] = { "*pause", "netdev:rx_*", "ethtool:tx_bytes", "rdma:*" };

	ck_assert(sp_glob_matches("*prio[0-7]_pause", SPARKPERF_SRC_ETHTOOL, "rx_prio3_pause"));
	ck_assert(!sp_glob_matches("*prio[!3]_pause", SPARKPERF_SRC_ETHTOOL, "rx_prio3_pause"));
	ck_assert(sp_glob_matches("ethtool:rx_?rio3_pause", SPARKPERF_SRC_ETHTOOL,
				  "rx_prio3_pause"));
	ck_assert(!sp_glob_matches("netdev:rx_prio3_pause", SPARKPERF_SRC_ETHTOOL,
				   "rx_prio3_pause"));
	ck_assert_int_eq(sp_glob_unmatched(st, 2, globs, 2), -1);
	ck_assert_int_eq(sp_glob_unmatched(st, 2, globs, 4), 2);
	ck_assert(sp_glob_valid("ethtool:*_bytes_phy"));
	ck_assert(sp_glob_valid("rx_prio[0-7]_pause"));
	ck_assert(!sp_glob_valid("rx_prio[0-7_pause"));
	ck_assert(!sp_glob_valid("a b"));
	ck_assert(!sp_glob_valid("ethtool:"));
	ck_assert(!sp_glob_valid("x:y"));
}
END_TEST

static Suite *tracelog_suite(void)
{
	Suite *s = suite_create("tracelog");
	TCase *tc = tcase_create("tracelog");

	tcase_add_test(tc, test_statistics);
	tcase_add_test(tc, test_percentile);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_report_text);
	tcase_add_test(tc, test_port_pairs);
	tcase_add_test(tc, test_globs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(tracelog_suite());
}
