// SPDX-License-Identifier: GPL-2.0
/*
 * Output of the bw object (user/print.c), captured in memory: the text
 * table of a run (one session; two and their sum; a failed one with its
 * completion error, and the validation column), the JSON of runs parsed
 * back with json-c (every key of a session, the aggregate, a failed
 * session), the session list and one session with its intervals, and the
 * progress line.
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
#include "session/bwprint.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define COMPLETION_ERROR "work completion error: status 12 (transport retry counter " \
	"exceeded), opcode RDMA_WRITE, vendor error 0x81"

/*
 * A session of 100 writes of 64 KiB on each of 2 QPs: 13107200 bytes in
 * 20971520 ns (5 Gbit/s, 625 MB/s), in intervals of 4, 6 and 5 Gbit/s,
 * using half a CPU.
 */
static void make_bw(struct sp_bw *b, uint32_t id, const char *dev, const char *peer,
		    uint64_t start)
{
	memset(b, 0, sizeof(*b));
	b->id = id;
	ck_assert_int_eq(sp_parse_addr(peer, &b->cfg.peer), 0);
	b->cfg.has_port = true;
	b->cfg.port = 18520;
	b->cfg.has_dev = true;
	strcpy(b->cfg.dev, dev);
	b->cfg.has_op = true;
	b->cfg.op = SPARKPERF_LAT_OP_WRITE;
	b->cfg.has_size = true;
	b->cfg.size = 65536;
	b->cfg.has_qps = true;
	b->cfg.qps = 2;
	b->cfg.has_threads = true;
	b->cfg.threads = 1;
	b->cfg.has_depth = true;
	b->cfg.depth = 128;
	b->cfg.has_signal = true;
	b->cfg.signal = 16;
	b->cfg.has_iters = true;
	b->cfg.iters = 100;
	b->cfg.has_interval = true;
	b->cfg.interval_ms = 10;	/* its intervals: 5, 5 and 10 ms */
	b->state = SPARKPERF_LAT_STATE_DONE;
	b->has_start = true;
	b->start_ns = start;
	b->elapsed_ns = 20971520;
	b->tx_bytes = 13107200;
	b->tx_msgs = 200;
	b->has_cpu = true;
	b->cpu_ns = 10485760;
	b->n_intervals = 3;
	b->intervals = calloc(3, sizeof(*b->intervals));
	ck_assert_ptr_nonnull(b->intervals);
	b->intervals[0] = (struct sp_interval){ .end_ns = 5242880, .count = 40, .bytes = 2621440 };
	b->intervals[1] = (struct sp_interval){ .end_ns = 10485760, .count = 60,
						.bytes = 3932160 };
	b->intervals[2] = (struct sp_interval){ .end_ns = 20971520, .count = 100,
						.bytes = 6553600 };
}

static void make_two(struct sp_bw *b)
{
	make_bw(&b[0], 9, "rocep1s0f0", "192.168.200.12", 7000000000ULL);
	make_bw(&b[1], 10, "roceP2p1s0f0", "192.168.201.12", 7000001500ULL);
}

/* The second fails early with a completion error; both validate. */
static void make_failed(struct sp_bw *b)
{
	make_two(b);
	b[1].state = SPARKPERF_LAT_STATE_FAILED;
	b[1].has_error = true;
	b[1].error = -EIO;
	b[1].has_error_msg = true;
	strcpy(b[1].error_msg, COMPLETION_ERROR);
	b[1].tx_bytes = 655360;
	b[1].tx_msgs = 10;
	b[1].elapsed_ns = 0;
	b[1].n_intervals = 0;
	b[0].cfg.validate = b[1].cfg.validate = true;
	b[0].has_validate_errors = true;
}

static void free_two(struct sp_bw *b)
{
	sp_bw_free(&b[0]);
	sp_bw_free(&b[1]);
}

/* ---- text --------------------------------------------------------------- */

START_TEST(test_text_one)
{
	struct capture c;
	struct sp_bw b;
	char *out;

	make_bw(&b, 9, "rocep1s0f0", "192.168.200.12", 7000000000ULL);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bw_header(&b.cfg, 1), 0);
	ck_assert_int_eq(sp_print_bw_rows(&b, 1, false), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"RDMA write bandwidth: 1 session, 2 QPs and 1 thread each, depth 128, a "
		"completion every 16 messages and at least every 256 KiB\n"
		"Run: 100 messages per QP, one direction\n"
		"Rates of payload (no headers): Gbit/s = 10^9 bit/s, MB/s = 10^6 byte/s, Mmsg/s "
		"= 10^6 messages/s\n"
		"ivl_*: rates over the 10 ms intervals (min, median, max); cpu[%]: CPU time of "
		"the sending threads / elapsed time (100 = one CPU)\n"
		"id   dev           peer            op     size[B]  qps  threads  state    "
		"bytes[B]     msgs      Gbit/s   MB/s       Mmsg/s  ivl_min[Gbit/s]  "
		"ivl_p50[Gbit/s]  ivl_max[Gbit/s]  cpu[%]\n"
		"9    rocep1s0f0    192.168.200.12  write  65536    2    1        done     "
		"13107200     200       5.000    625.00     0.010   4.000            "
		"5.000            6.000            50.0\n");
	free(out);
	sp_bw_free(&b);
}
END_TEST

START_TEST(test_text_two)
{
	struct sp_bw b[2];
	struct capture c;
	char *out;

	make_two(b);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bw_header(&b[0].cfg, 2), 0);
	ck_assert_int_eq(sp_print_bw_rows(b, 2, false), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"RDMA write bandwidth: 2 sessions started together, 2 QPs and 1 thread each, "
		"depth 128, a completion every 16 messages and at least every 256 KiB\n"
		"Run: 100 messages per QP, one direction\n"
		"Rates of payload (no headers): Gbit/s = 10^9 bit/s, MB/s = 10^6 byte/s, Mmsg/s "
		"= 10^6 messages/s\n"
		"ivl_*: rates over the 10 ms intervals (min, median, max); cpu[%]: CPU time of "
		"the sending threads / elapsed time (100 = one CPU)\n"
		"id   dev           peer            op     size[B]  qps  threads  state    "
		"bytes[B]     msgs      Gbit/s   MB/s       Mmsg/s  ivl_min[Gbit/s]  "
		"ivl_p50[Gbit/s]  ivl_max[Gbit/s]  cpu[%]\n"
		"9    rocep1s0f0    192.168.200.12  write  65536    2    1        done     "
		"13107200     200       5.000    625.00     0.010   4.000            "
		"5.000            6.000            50.0\n"
		"10   roceP2p1s0f0  192.168.201.12  write  65536    2    1        done     "
		"13107200     200       5.000    625.00     0.010   4.000            "
		"5.000            6.000            50.0\n"
		"sum  -             -               write  65536    4    2        done     "
		"26214400     400       10.000   1250.00    0.019   -                "
		"-                -                100.0   start skew 1.500 usec\n");
	free(out);
	free_two(b);
}
END_TEST

START_TEST(test_text_failed)
{
	struct sp_bw b[2];
	struct capture c;
	char *out;

	make_failed(b);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bw_header(&b[0].cfg, 2), 0);
	ck_assert_int_eq(sp_print_bw_rows(b, 2, true), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"RDMA write bandwidth: 2 sessions started together, 2 QPs and 1 thread each, "
		"depth 128, a completion every 16 messages and at least every 256 KiB\n"
		"Run: 100 messages per QP, one direction, data validated\n"
		"Rates of payload (no headers): Gbit/s = 10^9 bit/s, MB/s = 10^6 byte/s, Mmsg/s "
		"= 10^6 messages/s\n"
		"ivl_*: rates over the 10 ms intervals (min, median, max); cpu[%]: CPU time of "
		"the sending threads / elapsed time (100 = one CPU)\n"
		"id   dev           peer            op     size[B]  qps  threads  state    "
		"bytes[B]     msgs      Gbit/s   MB/s       Mmsg/s  ivl_min[Gbit/s]  "
		"ivl_p50[Gbit/s]  ivl_max[Gbit/s]  cpu[%]  validate_errors\n"
		"9    rocep1s0f0    192.168.200.12  write  65536    2    1        done     "
		"13107200     200       5.000    625.00     0.010   4.000            "
		"5.000            6.000            50.0    0\n"
		"10   roceP2p1s0f0  192.168.201.12  write  65536    2    1        failed   "
		"655360       10        -        -          -       -                "
		"-                -                -       -                error: work "
		"completion error: status 12 (transport retry counter exceeded), opcode "
		"RDMA_WRITE, vendor error 0x81\n"
		"sum  -             -               write  65536    4    2        -        "
		"13762560     210       5.000    625.00     0.010   -                "
		"-                -                50.0    0                start skew 1.500 usec\n");
	free(out);

	/* an errno without a message: in words */
	b[1].has_error_msg = false;
	b[1].error = -ENODEV;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bw_rows(&b[1], 1, false), 0);
	out = cap_end(&c);
	ck_assert_ptr_nonnull(strstr(out, "  error: No such device\n"));
	free(out);
	free_two(b);
}
END_TEST

/* Whatever the kernel left out prints as "-". */
START_TEST(test_text_sparse)
{
	struct sp_bw b = { .id = 4, .state = SPARKPERF_LAT_STATE_RUNNING, .tx_bytes = 7 };
	struct capture c;
	char *out;

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bw_rows(&b, 1, false), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"4    -             -               -      -        -    -        running  "
		"7            0         -        -          -       -                "
		"-                -                -\n");
	free(out);
}
END_TEST

START_TEST(test_show)
{
	struct sp_bw b[2];
	struct capture c;
	char *out;

	make_failed(b);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bws(b, 2), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"id   dev           peer            op     size[B]  qps  threads  state    "
		"bytes[B]     msgs      Gbit/s   MB/s       Mmsg/s  ivl_min[Gbit/s]  "
		"ivl_p50[Gbit/s]  ivl_max[Gbit/s]  cpu[%]  validate_errors\n"
		"9    rocep1s0f0    192.168.200.12  write  65536    2    1        done     "
		"13107200     200       5.000    625.00     0.010   4.000            "
		"5.000            6.000            50.0    0\n"
		"10   roceP2p1s0f0  192.168.201.12  write  65536    2    1        failed   "
		"655360       10        -        -          -       -                "
		"-                -                -       -                error: work "
		"completion error: status 12 (transport retry counter exceeded), opcode "
		"RDMA_WRITE, vendor error 0x81\n");
	free(out);

	/* one session: its row, then its intervals */
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bw(&b[0]), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"id   dev           peer            op     size[B]  qps  threads  state    "
		"bytes[B]     msgs      Gbit/s   MB/s       Mmsg/s  ivl_min[Gbit/s]  "
		"ivl_p50[Gbit/s]  ivl_max[Gbit/s]  cpu[%]  validate_errors\n"
		"9    rocep1s0f0    192.168.200.12  write  65536    2    1        done     "
		"13107200     200       5.000    625.00     0.010   4.000            "
		"5.000            6.000            50.0    0\n"
		"\n"
		"interval  end[ms]  bytes[B]  msgs  Gbit/s\n"
		"1         5.243    2621440   40    4.000\n"
		"2         10.486   3932160   60    6.000\n"
		"3         20.972   6553600   100   5.000\n");
	free(out);

	/* none: nothing in text, an empty array in JSON */
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_bws(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "");
	free(out);
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_bws(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "[]\n");
	free(out);
	free_two(b);
}
END_TEST

START_TEST(test_progress_line)
{
	struct sp_bw_line l = {
		.op = SPARKPERF_LAT_OP_WRITE, .size = 65536, .sessions = 2,
	};
	char buf[256];

	ck_assert_str_eq(sp_fmt_bw_progress(buf, sizeof(buf), &l),
			 "bw write 64KiB: connecting, 2 sessions");
	l.running = 2;
	ck_assert_str_eq(sp_fmt_bw_progress(buf, sizeof(buf), &l),
			 "bw write 64KiB: running, 2 sessions");
	l.has_time = true;
	l.elapsed_ns = 3200000000ULL;
	l.has_rate = true;
	l.gbit_per_s = 9.87;
	ck_assert_str_eq(sp_fmt_bw_progress(buf, sizeof(buf), &l),
			 "bw write 64KiB: 3.2 s, 9.870 Gbit/s now, 2 sessions");
	l.running = 1;
	l.ended = 1;
	ck_assert_str_eq(sp_fmt_bw_progress(buf, sizeof(buf), &l),
			 "bw write 64KiB: 3.2 s, 9.870 Gbit/s now, 2 sessions, 1 ended");
	l.running = 0;
	l.ended = 2;
	l.has_rate = false;
	ck_assert_str_eq(sp_fmt_bw_progress(buf, sizeof(buf), &l),
			 "bw write 64KiB: 3.2 s, 2 sessions");
	l = (struct sp_bw_line){ .op = SPARKPERF_LAT_OP_READ, .size = 1000, .sessions = 1,
				 .ended = 1 };
	ck_assert_str_eq(sp_fmt_bw_progress(buf, sizeof(buf), &l),
			 "bw read 1000B: ended, 1 session");
}
END_TEST

static const char *const session_keys[] = {
	"id", "peer", "port", "dev", "op", "size_bytes", "qps", "threads", "depth", "signal",
	"iterations", "duration_ms", "bidir", "validate", "interval_ms", "state", "error", "error_msg",
	"start_ns", "elapsed_ns", "tx_bytes", "tx_msgs", "rx_bytes", "rx_msgs", "bytes", "msgs",
	"gbit_per_s", "msgs_per_s", "validate_errors", "cpu_ns", "cpu_percent",
	"intervals", "interval_stats",
};

static const char *const run_keys[] = {
	"size_bytes", "sessions", "aggregate", "start_at_ns", "tool_version", "module_version",
	"kernel_release", "host",
};

static const char *const aggregate_keys[] = {
	"sessions", "bytes", "msgs", "gbit_per_s", "msgs_per_s", "start_skew_ns",
	"cpu_percent", "validate_errors",
};

static const struct sp_env env = {
	.tool_version = "0.1.0-test",
	.module_version = "0.1.0",
	.kernel_release = "6.1.0-18-amd64",
	.host = "spark1",
};

/* One run of 64 KiB: its text, parsed back. */
static json_object *run_json(struct sp_bw *b, size_t n, bool has_start_at, bool pretty)
{
	struct sp_bw_run run = {
		.size = 65536, .bws = b, .n = n, .has_start_at = has_start_at,
		.start_at_ns = 6999999000ULL,
	};
	json_object *doc;
	struct capture c;
	char *out;

	cap_start(&c, true, pretty);
	ck_assert_int_eq(sp_print_bw_json(&run, 1, &env), 0);
	out = cap_end(&c);
	if (!pretty)
		ck_assert_str_eq(strchr(out, '\n'), "\n");	/* one line */
	doc = json_tokener_parse(out);
	free(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_is_type(doc, json_type_array));
	ck_assert_uint_eq(json_object_array_length(doc), 1);
	return doc;
}

START_TEST(test_json_one)
{
	json_object *doc, *run, *s, *ivs, *iv, *st;
	struct sp_bw b;

	make_bw(&b, 9, "rocep1s0f0", "192.168.200.12", 7000000000ULL);
	doc = run_json(&b, 1, false, false);
	run = json_object_array_get_idx(doc, 0);
	assert_keys(run, run_keys, ARRAY_SIZE(run_keys));
	assert_int(run, "size_bytes", 65536);
	assert_null(run, "start_at_ns");
	assert_str(run, "tool_version", "0.1.0-test");
	assert_str(run, "host", "spark1");
	ck_assert_uint_eq(json_object_array_length(get(run, "sessions")), 1);
	s = json_object_array_get_idx(get(run, "sessions"), 0);
	assert_keys(s, session_keys, ARRAY_SIZE(session_keys));
	assert_int(s, "id", 9);
	assert_str(s, "peer", "192.168.200.12");
	assert_int(s, "port", 18520);
	assert_str(s, "dev", "rocep1s0f0");
	assert_str(s, "op", "write");
	assert_int(s, "size_bytes", 65536);
	assert_int(s, "qps", 2);
	assert_int(s, "threads", 1);
	assert_int(s, "depth", 128);
	assert_int(s, "signal", 16);
	assert_int(s, "iterations", 100);
	assert_null(s, "duration_ms");
	assert_bool(s, "bidir", false);
	assert_bool(s, "validate", false);
	assert_int(s, "interval_ms", 10);
	assert_str(s, "state", "done");
	assert_null(s, "error");
	assert_null(s, "error_msg");
	assert_int(s, "start_ns", 7000000000LL);
	assert_int(s, "elapsed_ns", 20971520);
	assert_int(s, "tx_bytes", 13107200);
	assert_int(s, "tx_msgs", 200);
	assert_int(s, "rx_bytes", 0);
	assert_int(s, "rx_msgs", 0);
	assert_int(s, "bytes", 13107200);
	assert_int(s, "msgs", 200);
	assert_double(s, "gbit_per_s", 5, 1e-3);
	assert_double(s, "msgs_per_s", 200 * 1e9 / 20971520, 1e-3);
	assert_null(s, "validate_errors");
	assert_int(s, "cpu_ns", 10485760);
	assert_double(s, "cpu_percent", 50, 1e-3);
	ivs = get(s, "intervals");
	ck_assert_uint_eq(json_object_array_length(ivs), 3);
	iv = json_object_array_get_idx(ivs, 1);
	ck_assert_int_eq(json_object_object_length(iv), 4);
	assert_int(iv, "end_ns", 10485760);
	assert_int(iv, "bytes", 3932160);
	assert_int(iv, "msgs", 60);
	assert_double(iv, "gbit_per_s", 6, 1e-3);
	assert_double(json_object_array_get_idx(ivs, 0), "gbit_per_s", 4, 1e-3);
	st = get(s, "interval_stats");
	ck_assert_int_eq(json_object_object_length(st), 3);
	assert_double(st, "min_gbit_per_s", 4, 1e-3);
	assert_double(st, "p50_gbit_per_s", 5, 1e-3);
	assert_double(st, "max_gbit_per_s", 6, 1e-3);
	st = get(run, "aggregate");
	assert_keys(st, aggregate_keys, ARRAY_SIZE(aggregate_keys));
	assert_int(st, "sessions", 1);
	assert_int(st, "bytes", 13107200);
	assert_double(st, "gbit_per_s", 5, 1e-3);
	assert_int(st, "start_skew_ns", 0);
	json_object_put(doc);
	sp_bw_free(&b);
}
END_TEST

START_TEST(test_json_two)
{
	json_object *doc, *run, *agg, *ss;
	struct sp_bw b[2];

	make_two(b);
	b[1].cfg.bidir = true;
	b[1].rx_bytes = 13107200;
	b[1].rx_msgs = 200;
	doc = run_json(b, 2, true, true);
	run = json_object_array_get_idx(doc, 0);
	assert_int(run, "start_at_ns", 6999999000LL);
	ss = get(run, "sessions");
	ck_assert_uint_eq(json_object_array_length(ss), 2);
	assert_str(json_object_array_get_idx(ss, 0), "dev", "rocep1s0f0");
	assert_str(json_object_array_get_idx(ss, 1), "dev", "roceP2p1s0f0");
	assert_bool(json_object_array_get_idx(ss, 1), "bidir", true);
	assert_int(json_object_array_get_idx(ss, 1), "bytes", 26214400);
	assert_double(json_object_array_get_idx(ss, 1), "gbit_per_s", 10, 1e-3);
	agg = get(run, "aggregate");
	assert_int(agg, "sessions", 2);
	assert_int(agg, "bytes", 39321600);
	assert_int(agg, "msgs", 600);
	assert_double(agg, "gbit_per_s", 15, 1e-3);
	assert_int(agg, "start_skew_ns", 1500);
	assert_double(agg, "cpu_percent", 100, 1e-3);
	assert_null(agg, "validate_errors");
	json_object_put(doc);
	free_two(b);
}
END_TEST

START_TEST(test_json_failed)
{
	json_object *doc, *run, *s, *st;
	struct sp_bw b[2];

	make_failed(b);
	doc = run_json(b, 2, true, false);
	run = json_object_array_get_idx(doc, 0);
	s = json_object_array_get_idx(get(run, "sessions"), 1);
	assert_str(s, "state", "failed");
	assert_int(s, "error", EIO);
	assert_str(s, "error_msg", COMPLETION_ERROR);
	assert_int(s, "tx_bytes", 655360);
	assert_int(s, "elapsed_ns", 0);
	assert_null(s, "gbit_per_s");
	assert_null(s, "msgs_per_s");
	assert_null(s, "cpu_percent");
	assert_bool(s, "validate", true);
	assert_null(s, "validate_errors");
	ck_assert_uint_eq(json_object_array_length(get(s, "intervals")), 0);
	st = get(s, "interval_stats");
	assert_null(st, "min_gbit_per_s");
	assert_null(st, "p50_gbit_per_s");
	assert_null(st, "max_gbit_per_s");
	s = json_object_array_get_idx(get(run, "sessions"), 0);
	assert_int(s, "validate_errors", 0);
	/* the aggregate adds what was measured: the failed one has no rate */
	st = get(run, "aggregate");
	assert_int(st, "bytes", 13762560);
	assert_double(st, "gbit_per_s", 5, 1e-3);
	assert_int(st, "validate_errors", 0);
	json_object_put(doc);
	free_two(b);
}
END_TEST

/* bw show -j: the same session objects, in one array. */
START_TEST(test_json_show)
{
	struct sp_bw b[2];
	struct capture c;
	json_object *doc;
	char *out;

	make_two(b);
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_bws(b, 2), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	assert_keys(json_object_array_get_idx(doc, 0), session_keys, ARRAY_SIZE(session_keys));
	assert_int(json_object_array_get_idx(doc, 1), "id", 10);
	json_object_put(doc);
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_bw(&b[1]), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	ck_assert_uint_eq(json_object_array_length(doc), 1);
	assert_int(json_object_array_get_idx(doc, 0), "id", 10);
	ck_assert_uint_eq(json_object_array_length(get(json_object_array_get_idx(doc, 0),
						       "intervals")), 3);
	json_object_put(doc);
	free(out);
	free_two(b);
}
END_TEST

static Suite *bwprint_suite(void)
{
	Suite *s = suite_create("bwprint");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_text_one);
	tcase_add_test(tc, test_text_two);
	tcase_add_test(tc, test_text_failed);
	tcase_add_test(tc, test_text_sparse);
	tcase_add_test(tc, test_show);
	tcase_add_test(tc, test_progress_line);
	suite_add_tcase(s, tc);

	tc = tcase_create("json");
	tcase_add_test(tc, test_json_one);
	tcase_add_test(tc, test_json_two);
	tcase_add_test(tc, test_json_failed);
	tcase_add_test(tc, test_json_show);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bwprint_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
