// SPDX-License-Identifier: GPL-2.0
/*
 * Output of the lat object (session/latprint.c), captured in memory: the
 * latency table (header and rows), the JSON results parsed back with
 * json-c, the session list, the progress line.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "lib/model.h"
#include "lib/parse.h"
#include "session/latprint.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- capture ------------------------------------------------------------ */


/* ---- fixtures ----------------------------------------------------------- */

/*
 * 1000 round trips: 990 of 1470 ns, 8 of 2100, one of 1200, one of 98765.
 * Sum 1572065 ns, sum of squares 11930536225 ns^2: mean 1572.065 ns,
 * population stdev 3075.5728 ns. Percentiles as nearest ranks.
 */
static void make_lat(struct sp_lat *l)
{
	memset(l, 0, sizeof(*l));
	l->id = 7;
	ck_assert_int_eq(sp_parse_addr("192.168.200.12", &l->cfg.peer), 0);
	l->cfg.has_port = true;
	l->cfg.port = 18520;
	l->cfg.has_dev = true;
	strcpy(l->cfg.dev, "rocep1s0f1");
	l->cfg.has_op = true;
	l->cfg.op = SPARKPERF_LAT_OP_WRITE;
	l->cfg.has_size = true;
	l->cfg.size = 64;
	l->cfg.has_iters = true;
	l->cfg.iters = 1000;
	l->cfg.has_warmup = true;
	l->cfg.warmup = 100;
	l->cfg.has_cpu = true;
	l->cfg.cpu = 4;
	l->cfg.has_samples_max = true;
	l->cfg.samples_max = 0;
	l->cfg.has_interval = true;
	l->cfg.interval_ms = 1000;
	l->cfg.has_completion = true;
	l->cfg.completion = SPARKPERF_LAT_COMPLETION_RECV;
	l->state = SPARKPERF_LAT_STATE_DONE;
	l->warmup_done = 100;
	l->count = 1000;
	l->elapsed_ns = 1600000;
	l->yields = 3;
	l->rt_yields = 2;
	l->has_clock_res = true;
	l->clock_res_ns = 1;
	l->min_ns = 1200;
	l->max_ns = 98765;
	l->sum_ns = 1572065;
	l->sumsq_hi = 0;
	l->sumsq_lo = 11930536225ULL;
	l->p50_ns = 1470;
	l->p90_ns = 1470;
	l->p99_ns = 1470;
	l->p999_ns = 2100;
	l->p9999_ns = 98765;
	l->p99999_ns = 98765;
	l->n_intervals = 2;
	l->intervals = calloc(2, sizeof(*l->intervals));
	ck_assert_ptr_nonnull(l->intervals);
	l->intervals[0] = (struct sp_interval){ 1000000000, 600, 1470, 2100, 98765, 0 };
	l->intervals[1] = (struct sp_interval){ 1600000, 400, 1470, 1470, 2100, 0 };
}

static const struct sp_env env = {
	.tool_version = "0.1.0-test",
	.module_version = "0.1.0",
	.kernel_release = "6.1.0-18-amd64",
	.host = "spark1",
	.clock_source = "tsc",
};

/* ---- text --------------------------------------------------------------- */

static const char *const lat_headers[] = {
	"#bytes", "#iterations", "#warmup", "rtt_min[usec]", "rtt_p50[usec]",
	"rtt_p90[usec]", "rtt_p99[usec]", "rtt_p99.9[usec]", "rtt_p99.99[usec]",
	"rtt_p99.999[usec]", "rtt_max[usec]", "rtt_avg[usec]", "rtt_stdev[usec]",
	"oneway_p50[usec]", "oneway_avg[usec]",
};

/* The line of text starting at s, without its newline. */
static char *line_at(const char *s)
{
	return strndup(s, strcspn(s, "\n"));
}

/* Each cell starts where its header starts, after a blank. */
static void assert_row(const char *header, const char *row, const char *const *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *h = strstr(header, lat_headers[i]);
		size_t pos, clen = strlen(cells[i]);

		ck_assert_ptr_nonnull(h);
		pos = (size_t)(h - header);
		ck_assert_msg(pos + clen <= strlen(row), "row too short for %s", lat_headers[i]);
		ck_assert_msg(!strncmp(row + pos, cells[i], clen),
			      "column %s: expected '%s' at %zu in '%s'", lat_headers[i],
			      cells[i], pos, row);
		if (pos)
			ck_assert(row[pos - 1] == ' ');
		if (i + 1 < n)
			ck_assert_msg(row[pos + clen] == ' ', "column %s too wide", lat_headers[i]);
		else
			ck_assert_uint_eq(pos + clen, strlen(row));
	}
}

START_TEST(test_lat_text)
{
	static const char *const row64[] = {
		"64", "1000", "100", "1.200", "1.470", "1.470", "1.470", "2.100", "98.765",
		"98.765", "98.765", "1.572", "3.076", "0.735", "0.786",
	};
	static const char *const row8m[] = {
		"8388608", "1000", "100", "1.200", "1.470", "1.470", "1.470", "2.100",
		"98.765", "98.765", "98.765", "1.572", "3.076", "0.735", "0.786",
	};
	struct capture c;
	struct sp_lat l;
	char *out, *p, *header, *row;

	make_lat(&l);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_lat_header(&l, &env), 0);
	ck_assert_int_eq(sp_print_lat_row(&l), 0);
	l.cfg.size = 8388608;
	ck_assert_int_eq(sp_print_lat_row(&l), 0);
	out = cap_end(&c);

	/* what, where and how, then the units, stated once */
	ck_assert(starts_with(out, "RDMA write latency: peer 192.168.200.12 port 18520, "
			   "device rocep1s0f1, CPU 4\n"
			   "Run: 1000 iterations after 100 warm-up iterations\n"
			   "Round trip ends: receive completion of the echo's RDMA WRITE "
			   "with immediate\n"
			   "Clock: tsc, resolution 1 ns\n"));
	ck_assert_ptr_nonnull(strstr(out, "rtt_* are round trip times (RTT), oneway_* are RTT/2"));
	p = strstr(out, "#bytes");
	ck_assert_ptr_nonnull(p);
	header = line_at(p);
	p = strchr(p, '\n') + 1;
	row = line_at(p);
	assert_row(header, row, row64, ARRAY_SIZE(row64));
	free(row);
	/* a wider size still lines up: the columns are fixed */
	p = strchr(p, '\n') + 1;
	row = line_at(p);
	assert_row(header, row, row8m, ARRAY_SIZE(row8m));
	free(row);
	ck_assert_str_eq(strchr(p, '\n'), "\n");
	free(header);
	free(out);

	/* nothing measured: no row */
	l.count = 0;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_lat_row(&l), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "");
	free(out);
	sp_lat_free(&l);
}
END_TEST

START_TEST(test_lat_text_duration)
{
	struct capture c;
	struct sp_lat l;
	char *out;

	make_lat(&l);
	l.cfg.has_iters = false;
	l.cfg.has_duration = true;
	l.cfg.duration_ms = 10000;
	l.cfg.has_dev = false;
	l.cfg.has_cpu = false;
	l.cfg.op = SPARKPERF_LAT_OP_READ;
	l.cfg.completion = SPARKPERF_LAT_COMPLETION_READ;
	l.has_clock_res = false;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_lat_header(&l, NULL), 0);
	out = cap_end(&c);
	ck_assert(starts_with(out, "RDMA read latency: peer 192.168.200.12 port 18520\n"
			   "Run: 10000 ms after 100 warm-up iterations\n"
			   "Round trip ends: completion of the RDMA READ\n"
			   "Clock: unknown\n"));
	free(out);
	sp_lat_free(&l);
}
END_TEST

static const char *const result_keys[] = {
	"tool_version", "module_version", "kernel_release", "host", "clock_source",
	"clock_resolution_ns", "id", "state", "error", "config", "dev", "cpu", "size_bytes",
	"count", "warmup_count", "elapsed_ns", "yields", "round_trips_with_yield", "rtt_min_ns",
	"rtt_p50_ns", "rtt_p90_ns", "rtt_p99_ns", "rtt_p99_9_ns", "rtt_p99_99_ns", "rtt_p99_999_ns",
	"rtt_max_ns", "rtt_avg_ns", "rtt_stdev_ns", "rtt_sum_ns", "rtt_sumsq_ns2",
	"one_way_p50_ns", "one_way_avg_ns", "intervals",
};

static const char *const config_keys[] = {
	"peer", "port", "op", "size_bytes", "iterations", "duration_ms", "warmup", "samples_max",
	"interval_ms", "completion", "dev", "cpu",
};

START_TEST(test_lat_json)
{
	struct sp_lat_config req = { .has_dev = false, .has_cpu = true, .cpu = 4 };
	json_object *doc, *r, *cfg, *ivs, *iv;
	struct sp_lat lats[2];
	struct capture c;
	char *out;

	make_lat(&lats[0]);
	make_lat(&lats[1]);
	lats[1].id = 8;
	lats[1].cfg.size = 128;
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_lat_json(lats, 2, &req, &env), 0);
	out = cap_end(&c);

	/* one document on one line, floats with three decimals */
	ck_assert_ptr_nonnull(strchr(out, '\n'));
	ck_assert_str_eq(strchr(out, '\n'), "\n");
	ck_assert_ptr_nonnull(strstr(out, "\"rtt_avg_ns\":1572.065,"));
	ck_assert_ptr_nonnull(strstr(out, "\"rtt_stdev_ns\":3075.573,"));
	ck_assert_ptr_nonnull(strstr(out, "\"one_way_p50_ns\":735.000,"));

	doc = json_tokener_parse(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_is_type(doc, json_type_array));
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	r = json_object_array_get_idx(doc, 0);
	assert_keys(r, result_keys, ARRAY_SIZE(result_keys));
	assert_str(r, "tool_version", "0.1.0-test");
	assert_str(r, "module_version", "0.1.0");
	assert_str(r, "kernel_release", "6.1.0-18-amd64");
	assert_str(r, "host", "spark1");
	assert_str(r, "clock_source", "tsc");
	assert_int(r, "clock_resolution_ns", 1);
	assert_int(r, "id", 7);
	assert_str(r, "state", "done");
	assert_null(r, "error");
	assert_str(r, "dev", "rocep1s0f1");
	assert_int(r, "cpu", 4);
	assert_int(r, "size_bytes", 64);
	assert_int(r, "count", 1000);
	assert_int(r, "warmup_count", 100);
	assert_int(r, "elapsed_ns", 1600000);
	assert_int(r, "yields", 3);
	assert_int(r, "round_trips_with_yield", 2);
	assert_int(r, "rtt_min_ns", 1200);
	assert_int(r, "rtt_p50_ns", 1470);
	assert_int(r, "rtt_p90_ns", 1470);
	assert_int(r, "rtt_p99_ns", 1470);
	assert_int(r, "rtt_p99_9_ns", 2100);
	assert_int(r, "rtt_p99_99_ns", 98765);
	assert_int(r, "rtt_p99_999_ns", 98765);
	assert_int(r, "rtt_max_ns", 98765);
	assert_double(r, "rtt_avg_ns", 1572.065, 1e-9);
	assert_double(r, "rtt_stdev_ns", 3075.573, 1e-9);
	assert_int(r, "rtt_sum_ns", 1572065);
	assert_str(r, "rtt_sumsq_ns2", "11930536225");
	assert_double(r, "one_way_p50_ns", 735, 0);
	assert_double(r, "one_way_avg_ns", 786.0325, 0.0006);

	cfg = get(r, "config");
	assert_keys(cfg, config_keys, ARRAY_SIZE(config_keys));
	assert_str(cfg, "peer", "192.168.200.12");
	assert_int(cfg, "port", 18520);
	assert_str(cfg, "op", "write");
	assert_int(cfg, "size_bytes", 64);
	assert_int(cfg, "iterations", 1000);
	assert_null(cfg, "duration_ms");
	assert_int(cfg, "warmup", 100);
	assert_int(cfg, "samples_max", 0);
	assert_int(cfg, "interval_ms", 1000);
	assert_str(cfg, "completion", "recv");
	/* what was asked for: any device, CPU 4 */
	assert_null(cfg, "dev");
	assert_int(cfg, "cpu", 4);

	ivs = get(r, "intervals");
	ck_assert(json_object_is_type(ivs, json_type_array));
	ck_assert_uint_eq(json_object_array_length(ivs), 2);
	iv = json_object_array_get_idx(ivs, 0);
	ck_assert_int_eq(json_object_object_length(iv), 5);
	assert_int(iv, "end_ns", 1000000000);
	assert_int(iv, "count", 600);
	assert_int(iv, "p50_ns", 1470);
	assert_int(iv, "p99_ns", 2100);
	assert_int(iv, "max_ns", 98765);

	r = json_object_array_get_idx(doc, 1);
	assert_int(r, "id", 8);
	assert_int(r, "size_bytes", 128);
	json_object_put(doc);
	free(out);
	sp_lat_free(&lats[0]);
	sp_lat_free(&lats[1]);
}
END_TEST

START_TEST(test_lat_json_failed)
{
	json_object *doc, *r, *err;
	struct capture c;
	struct sp_lat l;
	char *out;

	/* failed while connecting: nothing measured, no statistics */
	memset(&l, 0, sizeof(l));
	l.id = 3;
	ck_assert_int_eq(sp_parse_addr("192.168.200.99", &l.cfg.peer), 0);
	l.state = SPARKPERF_LAT_STATE_FAILED;
	l.has_error = true;
	l.error = -110;
	l.has_error_msg = true;
	strcpy(l.error_msg, "rdma_cm: route resolution timed out");
	cap_start(&c, true, true);
	ck_assert_int_eq(sp_print_lat_json(&l, 1, NULL, NULL), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	ck_assert_ptr_nonnull(doc);
	r = json_object_array_get_idx(doc, 0);
	/* no environment without env */
	ck_assert(!json_object_object_get_ex(r, "host", NULL));
	assert_str(r, "state", "failed");
	err = get(r, "error");
	assert_int(err, "errno", 110);
	assert_str(err, "message", "rdma_cm: route resolution timed out");
	assert_int(r, "count", 0);
	assert_null(r, "rtt_min_ns");
	assert_null(r, "rtt_p99_ns");
	assert_null(r, "rtt_avg_ns");
	assert_null(r, "rtt_stdev_ns");
	assert_null(r, "one_way_p50_ns");
	assert_null(r, "dev");
	assert_null(r, "clock_resolution_ns");
	assert_str(r, "rtt_sumsq_ns2", "0");
	ck_assert_uint_eq(json_object_array_length(get(r, "intervals")), 0);
	assert_null(get(r, "config"), "iterations");
	json_object_put(doc);
	free(out);

	/* an errno without a message */
	l.has_error_msg = false;
	l.error = -ECONNREFUSED;
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_lat_json(&l, 1, NULL, NULL), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	err = get(json_object_array_get_idx(doc, 0), "error");
	assert_str(err, "message", "Connection refused");
	json_object_put(doc);
	free(out);
}
END_TEST

/* A 128-bit sum of squares survives as a decimal string. */
START_TEST(test_lat_json_sumsq_128)
{
	json_object *doc;
	struct capture c;
	struct sp_lat l;
	char *out;

	make_lat(&l);
	/* 1e6 round trips of 1e9 +- 1 ns: sumsq = 1e24 + 1e6 */
	l.count = 1000000;
	l.sum_ns = 1000000000000000ULL;
	l.sumsq_hi = 54210;
	l.sumsq_lo = 2003764205207896640ULL;
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_lat_json(&l, 1, NULL, &env), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	assert_str(json_object_array_get_idx(doc, 0), "rtt_sumsq_ns2",
		   "1000000000000000001000000");
	assert_double(json_object_array_get_idx(doc, 0), "rtt_stdev_ns", 1, 0);
	assert_double(json_object_array_get_idx(doc, 0), "rtt_avg_ns", 1e9, 0);
	json_object_put(doc);
	free(out);
	sp_lat_free(&l);
}
END_TEST

/* ---- lists ---------------------------------------------------------------- */

START_TEST(test_lat_show)
{
	struct capture c;
	struct sp_lat l[2];
	json_object *doc;
	char *out;

	make_lat(&l[0]);
	memset(&l[1], 0, sizeof(l[1]));
	l[1].id = 9;
	ck_assert_int_eq(sp_parse_addr("fd00::12", &l[1].cfg.peer), 0);
	l[1].state = SPARKPERF_LAT_STATE_CONNECTING;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_lats(l, 2), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"ID  PEER            PORT   DEV         OP     BYTES  STATE       COUNT  "
		"RTT_P50[usec]  RTT_P99[usec]\n"
		"7   192.168.200.12  18520  rocep1s0f1  write  64     done        1000   "
		"1.470          1.470\n"
		"9   fd00::12        -      -           -      -      connecting  0      "
		"-              -\n");
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_lats(l, 2), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	ck_assert(!json_object_object_get_ex(json_object_array_get_idx(doc, 0),
					     "tool_version", NULL));
	assert_str(json_object_array_get_idx(doc, 1), "state", "connecting");
	json_object_put(doc);
	free(out);

	/* none: nothing in text, an empty array in JSON */
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_lats(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "");
	free(out);
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_lats(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "[]\n");
	free(out);
	sp_lat_free(&l[0]);
}
END_TEST

START_TEST(test_progress_line)
{
	struct sp_lat_progress p = { .id = 7, .state = SPARKPERF_LAT_STATE_CONNECTING };
	struct sp_interval iv = { .end_ns = 1000000000, .count = 600, .p50_ns = 1471,
				       .p99_ns = 2100, .max_ns = 9000 };
	char buf[256];

	ck_assert_str_eq(sp_fmt_lat_progress(buf, sizeof(buf), 64, &p, NULL),
			 "64 B: connecting");
	p.state = SPARKPERF_LAT_STATE_RUNNING;
	p.warmup_done = 50;
	ck_assert_str_eq(sp_fmt_lat_progress(buf, sizeof(buf), 64, &p, NULL),
			 "64 B: warm-up, 50 iterations");
	p.count = 12345;
	ck_assert_str_eq(sp_fmt_lat_progress(buf, sizeof(buf), 64, &p, NULL),
			 "64 B: 12345 round trips");
	ck_assert_str_eq(sp_fmt_lat_progress(buf, sizeof(buf), 64, &p, &iv),
			 "64 B: 12345 round trips; last interval: RTT p50 1.471 usec, "
			 "p99 2.100 usec");
	p.state = SPARKPERF_LAT_STATE_STOPPED;
	ck_assert_str_eq(sp_fmt_lat_progress(buf, sizeof(buf), 64, &p, &iv),
			 "64 B: stopped, 12345 round trips");
}
END_TEST

START_TEST(test_names)
{
	uint8_t op = 0;

	ck_assert_str_eq(sp_lat_op_str(SPARKPERF_LAT_OP_WRITE), "write");
	ck_assert_str_eq(sp_lat_op_str(SPARKPERF_LAT_OP_SEND), "send");
	ck_assert_str_eq(sp_lat_op_str(SPARKPERF_LAT_OP_READ), "read");
	ck_assert_str_eq(sp_lat_op_str(SPARKPERF_LAT_OP_UNSPEC), "unknown");
	ck_assert_str_eq(sp_lat_op_str(99), "unknown");
	ck_assert_int_eq(sp_parse_lat_op("read", &op), 0);
	ck_assert_uint_eq(op, SPARKPERF_LAT_OP_READ);
	ck_assert_int_eq(sp_parse_lat_op("Write", &op), -EINVAL);
	ck_assert_int_eq(sp_parse_lat_op("unknown", &op), -EINVAL);
	ck_assert_int_eq(sp_parse_lat_op("", &op), -EINVAL);
	ck_assert_str_eq(sp_lat_state_str(SPARKPERF_LAT_STATE_CONNECTING), "connecting");
	ck_assert_str_eq(sp_lat_state_str(SPARKPERF_LAT_STATE_RUNNING), "running");
	ck_assert_str_eq(sp_lat_state_str(SPARKPERF_LAT_STATE_DONE), "done");
	ck_assert_str_eq(sp_lat_state_str(SPARKPERF_LAT_STATE_STOPPED), "stopped");
	ck_assert_str_eq(sp_lat_state_str(SPARKPERF_LAT_STATE_FAILED), "failed");
	ck_assert_str_eq(sp_lat_state_str(200), "unknown");
	ck_assert(!sp_lat_state_final(SPARKPERF_LAT_STATE_CONNECTING));
	ck_assert(!sp_lat_state_final(SPARKPERF_LAT_STATE_RUNNING));
	ck_assert(sp_lat_state_final(SPARKPERF_LAT_STATE_DONE));
	ck_assert(sp_lat_state_final(SPARKPERF_LAT_STATE_STOPPED));
	ck_assert(sp_lat_state_final(SPARKPERF_LAT_STATE_FAILED));
}
END_TEST

static Suite *latprint_suite(void)
{
	Suite *s = suite_create("latprint");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_lat_text);
	tcase_add_test(tc, test_lat_text_duration);
	tcase_add_test(tc, test_progress_line);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("json");
	tcase_add_test(tc, test_lat_json);
	tcase_add_test(tc, test_lat_json_failed);
	tcase_add_test(tc, test_lat_json_sumsq_128);
	suite_add_tcase(s, tc);

	tc = tcase_create("lists");
	tcase_add_test(tc, test_lat_show);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(latprint_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
