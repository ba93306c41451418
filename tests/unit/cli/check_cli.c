// SPDX-License-Identifier: GPL-2.0
/*
 * The real sparkperf-ctl binary, end to end, against the scripted kernel of
 * fakenl.c (LD_PRELOAD): what it asks the kernel (the request log), what it
 * prints on stdout and stderr, and its exit status, for the server, lat and
 * bw objects. $CLI_WRAPPER (e.g. "valgrind -q --error-exitcode=99
 * --leak-check=full") runs the binary under another program.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <json-c/json.h>

#define TESTUTIL_CLI
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int64_t geti(json_object *obj, const char *key)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_int), "%s is not an integer", key);
	return json_object_get_int64(v);
}

static const char *gets_(json_object *obj, const char *key)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_string), "%s is not a string", key);
	return json_object_get_string(v);
}

/* ---- lat run ------------------------------------------------------------ */

START_TEST(test_text)
{
	struct result r;

	run(&r, "ok", "lat", "run", "peer", "192.168.200.13", "size", "64", "iters", "1000",
	    NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.log,
		"LAT_RUN peer=4 port=-1 dev=- op=-1 size=64 iters=1000 duration=-1 warmup=-1 "
		"cpu=-1 samples_max=0 interval=-1\n"
		"LAT_GET id=100\n"
		"LAT_GET id=100\n"
		"RELEASE id=100\n");
	ck_assert(starts_with(r.out, "RDMA write latency: peer 192.168.200.13 port 18520, "
			   "device rxe0, CPU 3\n"
			   "Run: 1000 iterations after 100 warm-up iterations\n"));
	/* 1401..1407 ns: min 1.401, p50 1.404, max 1.407 usec */
	ck_assert_ptr_nonnull(strstr(r.out, "\n64       1000         100      1.401          "
				      "1.404          1.407  "));
	ck_assert_uint_eq(count_lines(r.out), 7);
	result_free(&r);
}
END_TEST

START_TEST(test_json_sweep)
{
	struct utsname u;
	json_object *doc, *o, *cfg;
	struct result r;
	size_t i;

	run(&r, "ok", "-j", "lat", "run", "peer", "fd00::13", "op", "read", "size", "2..8",
	    "iters", "50", "warmup", "5", "cpu", "3", "port", "18600", "interval", "100",
	    "dev", "rxe0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	/* one session at a time: each released before the next starts */
	ck_assert_str_eq(r.log,
		"LAT_RUN peer=16 port=18600 dev=rxe0 op=3 size=2 iters=50 duration=-1 warmup=5 "
		"cpu=3 samples_max=0 interval=100\n"
		"LAT_GET id=100\nLAT_GET id=100\nRELEASE id=100\n"
		"LAT_RUN peer=16 port=18600 dev=rxe0 op=3 size=4 iters=50 duration=-1 warmup=5 "
		"cpu=3 samples_max=0 interval=100\n"
		"LAT_GET id=101\nLAT_GET id=101\nRELEASE id=101\n"
		"LAT_RUN peer=16 port=18600 dev=rxe0 op=3 size=8 iters=50 duration=-1 warmup=5 "
		"cpu=3 samples_max=0 interval=100\n"
		"LAT_GET id=102\nLAT_GET id=102\nRELEASE id=102\n");
	ck_assert_uint_eq(count_lines(r.out), 1);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_object_array_length(doc), 3);
	ck_assert_int_eq(uname(&u), 0);
	for (i = 0; i < 3; i++) {
		o = json_object_array_get_idx(doc, i);
		ck_assert_int_eq(geti(o, "size_bytes"), 2 << i);
		ck_assert_int_eq(geti(o, "id"), 100 + (int)i);
		ck_assert_int_eq(geti(o, "count"), 50);
		ck_assert_int_eq(geti(o, "warmup_count"), 5);
		ck_assert_str_eq(gets_(o, "state"), "done");
		ck_assert_str_eq(gets_(o, "module_version"), "0.1.0-fake");
		ck_assert_str_eq(gets_(o, "kernel_release"), "6.1.0-fake");
		ck_assert_str_eq(gets_(o, "host"), u.nodename);
		ck_assert_str_eq(gets_(o, "dev"), "rxe0");
		ck_assert_int_eq(geti(o, "cpu"), 3);
		ck_assert_int_eq(geti(o, "clock_resolution_ns"), 1);
		ck_assert(json_object_get_double(get(o, "one_way_p50_ns")) * 2 ==
			  geti(o, "rtt_p50_ns"));
		ck_assert_int_le(geti(o, "rtt_min_ns"), geti(o, "rtt_p50_ns"));
		ck_assert_int_le(geti(o, "rtt_p50_ns"), geti(o, "rtt_max_ns"));
		ck_assert_uint_eq(json_object_array_length(get(o, "intervals")), 2);
		cfg = get(o, "config");
		ck_assert_str_eq(gets_(cfg, "peer"), "fd00::13");
		ck_assert_str_eq(gets_(cfg, "op"), "read");
		ck_assert_int_eq(geti(cfg, "port"), 18600);
		ck_assert_int_eq(geti(cfg, "iterations"), 50);
		ck_assert_int_eq(geti(cfg, "interval_ms"), 100);
		ck_assert_str_eq(gets_(cfg, "dev"), "rxe0");
		ck_assert_int_eq(geti(cfg, "cpu"), 3);
	}
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_samples)
{
	char csv[PATH_MAX], line[64];
	struct result r;
	char *data, *p;
	int i;

	path(csv, "samples.csv");
	run(&r, "ok", "-j", "lat", "run", "peer", "192.168.200.13", "size", "64", "iters",
	    "300", "samples", csv, NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	/* every sample kept: SAMPLES_MAX = iters */
	ck_assert_ptr_nonnull(strstr(r.log, " samples_max=300 "));
	ck_assert_ptr_nonnull(strstr(r.log, "LAT_SAMPLES id=100\nRELEASE id=100\n"));
	data = slurp(csv);
	ck_assert_uint_eq(count_lines(data), 301);
	ck_assert(starts_with(data, "iteration,start_ns,rtt_ns\n0,0,1401\n1,1000,1402\n"));
	for (i = 0, p = strchr(data, '\n') + 1; i < 300; i++, p = strchr(p, '\n') + 1) {
		snprintf(line, sizeof(line), "%d,%d,%d\n", i, 1000 * i, 1401 + i % 7);
		ck_assert_msg(!strncmp(p, line, strlen(line)), "line %d", i);
	}
	free(data);
	result_free(&r);

	/* a sweep: one file, a bytes column */
	run(&r, "ok", "lat", "run", "peer", "192.168.200.13", "size", "2..4", "iters", "10",
	    "samples", csv, NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	data = slurp(csv);
	ck_assert_uint_eq(count_lines(data), 21);
	ck_assert(starts_with(data, "bytes,iteration,start_ns,rtt_ns\n2,0,0,1400\n"));
	ck_assert_ptr_nonnull(strstr(data, "\n4,9,9000,1402\n"));
	free(data);
	result_free(&r);

	/* duration mode keeps the module's default number */
	run(&r, "ok", "lat", "run", "peer", "192.168.200.13", "duration", "1.5", "samples", csv,
	    NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, " iters=-1 duration=1500 "));
	ck_assert_ptr_nonnull(strstr(r.log, " samples_max=-1 "));
	data = slurp(csv);
	ck_assert_uint_eq(count_lines(data), 2001);
	free(data);
	result_free(&r);

	/* a file that cannot be written: nothing started */
	run(&r, "ok", "lat", "run", "peer", "192.168.200.13", "samples", "/nonexistent/x.csv",
	    NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: cannot write /nonexistent/x.csv: "
			 "No such file or directory.\n");
	ck_assert_ptr_null(strstr(r.log, "LAT_RUN"));
	result_free(&r);
}
END_TEST

START_TEST(test_failed)
{
	json_object *doc, *o;
	struct result r;

	/* nothing measured: the session's state and errno, no round trip */
	run(&r, "fail", "-j", "lat", "run", "peer", "192.168.200.99", NULL);
	ck_assert_int_eq(r.rc, 1);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	o = json_object_array_get_idx(doc, 0);
	ck_assert_str_eq(gets_(o, "state"), "failed");
	ck_assert_int_eq(geti(get(o, "error"), "errno"), ECONNREFUSED);
	ck_assert(json_object_is_type(get(o, "rtt_p50_ns"), json_type_null));
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_sigint)
{
	json_object *doc, *o;
	struct result r;

	/* Ctrl-C: LAT_STOP, the results, exit 0 */
	run(&r, "sigint", "-j", "lat", "run", "peer", "192.168.200.13", "size", "2..8",
	    "duration", "60", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "Session 100 (2 B) stopped after 700 round trips.\n");
	ck_assert_ptr_nonnull(strstr(r.log, "LAT_STOP id=100\n"));
	ck_assert_ptr_null(strstr(r.log, "size=4"));	/* the sweep ends */
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_object_array_length(doc), 1);
	o = json_object_array_get_idx(doc, 0);
	ck_assert_str_eq(gets_(o, "state"), "stopped");
	ck_assert_int_eq(geti(o, "count"), 700);
	json_object_put(doc);
	ck_assert(r.secs < 5);
	result_free(&r);
}
END_TEST

START_TEST(test_no_progress_group)
{
	json_object *doc;
	struct result r;

	/* LAT_GET every second instead */
	run(&r, "noprogress", "-j", "lat", "run", "peer", "192.168.200.13", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.log,
		"LAT_RUN peer=4 port=-1 dev=- op=-1 size=-1 iters=-1 duration=-1 warmup=-1 "
		"cpu=-1 samples_max=0 interval=-1\n"
		"LAT_GET id=100\nLAT_GET id=100\nLAT_GET id=100\nRELEASE id=100\n");
	ck_assert(r.secs > 0.9 && r.secs < 5);
	doc = json_tokener_parse(r.out);
	ck_assert_str_eq(gets_(json_object_array_get_idx(doc, 0), "state"), "done");
	ck_assert_int_eq(geti(json_object_array_get_idx(doc, 0), "count"), 1000);
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_lat_show)
{
	struct result r;

	run(&r, "ok", "-j", "lat", "show", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "[]\n");
	ck_assert_str_eq(r.log, "LAT_GET dump\n");
	result_free(&r);
	run(&r, "ok", "lat", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "");
	result_free(&r);
}
END_TEST

/* ---- bw ------------------------------------------------------------------- */

static json_object *idx(json_object *arr, size_t i)
{
	ck_assert(json_object_is_type(arr, json_type_array));
	ck_assert_uint_gt(json_object_array_length(arr), i);
	return json_object_array_get_idx(arr, i);
}

static double getd(json_object *obj, const char *key)
{
	json_object *v = get(obj, key);

	ck_assert_msg(json_object_is_type(v, json_type_double), "%s is not a number", key);
	return json_object_get_double(v);
}

/* Both halves: a session per device, started together, and their sum. */
START_TEST(test_bw_text)
{
	struct result r;

	run(&r, "ok", "bw", "run", "peer", "192.168.200.12,192.168.201.12", "dev",
	    "rocep1s0f0,roceP2p1s0f0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	/* one socket each, the same start about a second ahead */
	ck_assert_str_eq(r.log,
		"BW_RUN peer=4 port=-1 dev=rocep1s0f0 op=-1 size=-1 qps=-1 threads=-1 depth=-1 "
		"signal=-1 iters=-1 duration=-1 bidir=0 validate=0 interval=-1 start_at=ok\n"
		"BW_RUN peer=4 port=-1 dev=roceP2p1s0f0 op=-1 size=-1 qps=-1 threads=-1 depth=-1 "
		"signal=-1 iters=-1 duration=-1 bidir=0 validate=0 interval=-1 start_at=ok\n"
		"BW_GET id=200\nBW_GET id=201\nBW_GET id=200\nBW_GET id=201\n"
		"RELEASE id=200\nRELEASE id=201\n");
	ck_assert(starts_with(r.out, "RDMA write bandwidth: 2 sessions started together, "
			      "1 QP and 1 thread each, depth 128, a completion every 16 "
			      "messages and at least every 256 KiB\n"
			      "Run: 5000 messages per QP, one direction\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nid   dev           peer            op     "));
	ck_assert_ptr_nonnull(strstr(r.out, "\n200  rocep1s0f0    192.168.200.12  write  65536    "
				     "1    1        done     327680000    5000      10.000   "
				     "1250.00    0.019   8.000            10.000           "
				     "12.000           50.0\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "\n201  roceP2p1s0f0  192.168.201.12  write  "));
	ck_assert_ptr_nonnull(strstr(r.out, "\nsum  -             -               write  65536    "
				     "2    2        done     655360000    10000     20.000   "
				     "2500.00    0.038   -                -                -"
				     "                100.0   start skew 1.000 usec\n"));
	ck_assert_uint_eq(count_lines(r.out), 8);
	result_free(&r);

	/* one session: no common start, no sum */
	run(&r, "ok", "bw", "run", "peer", "fd00::12", "op", "send", "size", "1M", "qps", "4",
	    "threads", "2", "depth", "64", "signal", "8", "duration", "2.5", "bidir", "validate",
	    "interval", "250", "port", "18600", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.log,
		"BW_RUN peer=16 port=18600 dev=- op=2 size=1048576 qps=4 threads=2 depth=64 "
		"signal=8 iters=-1 duration=2500 bidir=1 validate=1 interval=250 start_at=-\n"
		"BW_GET id=200\nBW_GET id=200\nRELEASE id=200\n");
	ck_assert(starts_with(r.out, "RDMA send bandwidth: 1 session, 4 QPs and 2 threads each, "
			      "depth 64, a completion every 8 messages and at least every 256 KiB\n"
			      "Run: 2500 ms, both directions, data validated\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "  cpu[%]  validate_errors\n"));
	ck_assert_ptr_null(strstr(r.out, "\nsum "));
	ck_assert_uint_eq(count_lines(r.out), 6);
	result_free(&r);
}
END_TEST

START_TEST(test_bw_json_sweep)
{
	json_object *doc, *o, *s, *agg;
	struct result r;
	size_t i;

	/* enough messages that the fake's last interval (half the run) is not a sliver */
	run(&r, "ok", "-j", "bw", "run", "peer", "192.168.200.12", "size", "4K..16K", "iters",
	    "20000", "qps", "2", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	/* one run after the other, each released before the next starts */
	ck_assert_ptr_nonnull(strstr(r.log, " size=4096 qps=2 threads=-1 depth=-1 signal=-1 "
				     "iters=20000 duration=-1 bidir=0 validate=0 interval=-1 "
				     "start_at=-\nBW_GET id=200\nBW_GET id=200\nRELEASE id=200\n"
				     "BW_RUN peer=4 port=-1 dev=- op=-1 size=8192 "));
	ck_assert_ptr_nonnull(strstr(r.log, "RELEASE id=201\nBW_RUN peer=4 port=-1 dev=- op=-1 "
				     "size=16384 "));
	ck_assert_uint_eq(count_lines(r.out), 1);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_object_array_length(doc), 3);
	for (i = 0; i < 3; i++) {
		o = idx(doc, i);
		ck_assert_int_eq(geti(o, "size_bytes"), 4096 << i);
		ck_assert_str_eq(gets_(o, "module_version"), "0.1.0-fake");
		ck_assert(json_object_is_type(get(o, "start_at_ns"), json_type_null));
		s = idx(get(o, "sessions"), 0);
		ck_assert_int_eq(geti(s, "id"), 200 + (int)i);
		ck_assert_str_eq(gets_(s, "state"), "done");
		ck_assert_str_eq(gets_(s, "op"), "write");
		ck_assert_str_eq(gets_(s, "dev"), "rxe0");
		ck_assert_int_eq(geti(s, "size_bytes"), 4096 << i);
		ck_assert_int_eq(geti(s, "qps"), 2);
		ck_assert_int_eq(geti(s, "tx_msgs"), 40000);
		ck_assert_int_eq(geti(s, "tx_bytes"), 40000 * (4096 << i));
		ck_assert_int_eq(geti(s, "bytes"), geti(s, "tx_bytes") + geti(s, "rx_bytes"));
		ck_assert(fabs(getd(s, "gbit_per_s") - 10) < 1e-6);
		ck_assert(fabs(getd(s, "gbit_per_s") - geti(s, "bytes") * 8.0 /
			       geti(s, "elapsed_ns")) < 1e-5);
		ck_assert_uint_eq(json_object_array_length(get(s, "intervals")), 3);
		ck_assert(fabs(getd(get(s, "interval_stats"), "min_gbit_per_s") - 8) < 1e-6);
		ck_assert(fabs(getd(get(s, "interval_stats"), "p50_gbit_per_s") - 10) < 1e-6);
		ck_assert(fabs(getd(get(s, "interval_stats"), "max_gbit_per_s") - 12) < 1e-6);
		agg = get(o, "aggregate");
		ck_assert_int_eq(geti(agg, "sessions"), 1);
		ck_assert_int_eq(geti(agg, "bytes"), geti(s, "bytes"));
		ck_assert(fabs(getd(agg, "gbit_per_s") - getd(s, "gbit_per_s")) < 1e-6);
	}
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_bw_json_two)
{
	json_object *doc, *o;
	struct result r;

	run(&r, "ok", "-j", "bw", "run", "peer", "192.168.200.12,192.168.201.12", "dev",
	    "rxe0,rxe1", "size", "1M", "qps", "2", "iters", "16", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	o = idx(doc, 0);
	ck_assert_str_eq(gets_(idx(get(o, "sessions"), 0), "dev"), "rxe0");
	ck_assert_str_eq(gets_(idx(get(o, "sessions"), 1), "dev"), "rxe1");
	ck_assert_int_eq(geti(idx(get(o, "sessions"), 1), "tx_bytes"), 32 * 1048576);
	ck_assert_int_eq(geti(get(o, "aggregate"), "sessions"), 2);
	ck_assert_int_eq(geti(get(o, "aggregate"), "bytes"), 64 * 1048576);
	ck_assert(fabs(getd(get(o, "aggregate"), "gbit_per_s") - 20) < 1e-6);
	ck_assert_int_eq(geti(get(o, "aggregate"), "start_skew_ns"), 1000);
	ck_assert_int_eq(geti(o, "start_at_ns"), geti(o, "start_at_ns"));
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_bw_failed)
{
	json_object *doc, *s;
	struct result r;

	/* one of two halves fails mid-run with a completion error */
	run(&r, "bw_fail_second", "-j", "bw", "run", "peer", "192.168.200.12,192.168.201.12",
	    "size", "4K..8K", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: session 201 to 192.168.201.12 on rxe0: work completion "
			 "error: status 12 (transport retry counter exceeded), opcode "
			 "RDMA_WRITE, vendor error 0x81.\n");
	ck_assert_ptr_null(strstr(r.log, "size=8192"));	/* the sweep ends */
	doc = json_tokener_parse(r.out);
	ck_assert_uint_eq(json_object_array_length(doc), 1);
	s = idx(get(idx(doc, 0), "sessions"), 1);
	ck_assert_str_eq(gets_(s, "state"), "failed");
	ck_assert_int_eq(geti(s, "error"), EIO);
	ck_assert(starts_with(gets_(s, "error_msg"), "work completion error: status 12"));
	ck_assert_int_eq(geti(s, "tx_bytes"), 2500 * 4096);
	ck_assert_str_eq(gets_(idx(get(idx(doc, 0), "sessions"), 0), "state"), "done");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_bw_sigint)
{
	json_object *doc, *ss;
	struct result r;

	/* Ctrl-C: BW_STOP to each, the results, exit 0 */
	run(&r, "sigint", "-j", "bw", "run", "peer", "192.168.200.12,192.168.201.12",
	    "size", "64K..128K", "duration", "60", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "Session 200 (65536 B) stopped after 32768000 bytes.\n"
			 "Session 201 (65536 B) stopped after 32768000 bytes.\n");
	ck_assert_ptr_nonnull(strstr(r.log, "BW_STOP id=200\nBW_STOP id=201\n"));
	ck_assert_ptr_null(strstr(r.log, "size=131072"));	/* the sweep ends */
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_object_array_length(doc), 1);
	ss = get(idx(doc, 0), "sessions");
	ck_assert_str_eq(gets_(idx(ss, 0), "state"), "stopped");
	ck_assert_str_eq(gets_(idx(ss, 1), "state"), "stopped");
	ck_assert_int_eq(geti(idx(ss, 1), "tx_bytes"), 32768000);
	json_object_put(doc);
	ck_assert(r.secs < 5);
	result_free(&r);
}
END_TEST

START_TEST(test_bw_polled)
{
	json_object *doc;
	struct result r;

	/* no progress group: BW_GET every second, for both sessions */
	run(&r, "noprogress", "-j", "bw", "run", "peer", "192.168.200.12,192.168.201.12",
	    NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, "BW_GET id=200\nBW_GET id=201\nBW_GET id=200\n"
				     "BW_GET id=201\nBW_GET id=200\nBW_GET id=201\n"
				     "RELEASE id=200\nRELEASE id=201\n"));
	ck_assert(r.secs > 0.9 && r.secs < 5);
	doc = json_tokener_parse(r.out);
	ck_assert_str_eq(gets_(idx(get(idx(doc, 0), "sessions"), 1), "state"), "done");
	json_object_put(doc);
	result_free(&r);

	/* a module that answers ID, STATE and TX_BYTES only: the rest from the request */
	run(&r, "sparse", "-j", "bw", "run", "peer", "192.168.200.12", "iters", "7", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	{
		json_object *s = idx(get(idx(doc, 0), "sessions"), 0);

		ck_assert_str_eq(gets_(s, "peer"), "192.168.200.12");
		ck_assert_int_eq(geti(s, "port"), 18520);
		ck_assert_int_eq(geti(s, "size_bytes"), 65536);
		ck_assert_int_eq(geti(s, "iterations"), 7);
		ck_assert(json_object_is_type(get(s, "dev"), json_type_null));
		ck_assert_int_eq(geti(s, "tx_bytes"), 7 * 65536);
		ck_assert(json_object_is_type(get(s, "gbit_per_s"), json_type_null));
		ck_assert(json_object_is_type(get(s, "start_ns"), json_type_null));
	}
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_bw_show_stop)
{
	json_object *doc;
	struct result r;

	run(&r, "bw_list", "bw", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.log, "BW_GET dump\n");
	ck_assert_uint_eq(count_lines(r.out), 3);
	ck_assert(starts_with(r.out, "id   dev           peer            op     size[B]  "));
	ck_assert_ptr_nonnull(strstr(r.out, "\n5    rocep1s0f0    192.168.200.12  write  65536    "
				     "4    2        running  "));
	ck_assert_ptr_nonnull(strstr(r.out, "  validate_errors\n"));
	result_free(&r);

	run(&r, "bw_list", "-j", "bw", "show", NULL);
	ck_assert_int_eq(r.rc, 0);
	doc = json_tokener_parse(r.out);
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	ck_assert_str_eq(gets_(idx(doc, 1), "state"), "done");
	ck_assert_str_eq(gets_(idx(doc, 1), "op"), "read");
	json_object_put(doc);
	result_free(&r);

	run(&r, "bw_list", "bw", "show", "5", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.log, "BW_GET id=5\n");
	ck_assert_ptr_nonnull(strstr(r.out, "\n\ninterval  end[ms]  bytes[B]   msgs  Gbit/s\n"
				     "1         131.072  131072000  2000  8.000\n"));
	result_free(&r);

	run(&r, "bw_list", "bw", "show", "9", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: no bandwidth session with this id.\n");
	result_free(&r);

	/* every session that still runs */
	run(&r, "bw_list", "bw", "stop", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.log, "BW_GET dump\nBW_STOP id=5\n");
	result_free(&r);

	run(&r, "bw_list", "bw", "stop", "5", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.log, "BW_STOP id=5\n");
	result_free(&r);

	run(&r, "bw_list", "bw", "stop", "9", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: no bandwidth session with this id.\n");
	result_free(&r);

	/* nothing to list */
	run(&r, "ok", "-j", "bw", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "[]\n");
	result_free(&r);
}
END_TEST

/* ---- server --------------------------------------------------------------- */

START_TEST(test_server_json)
{
	json_object *doc;
	struct result r;

	run(&r, "ok", "-j", "server", "show", NULL);
	ck_assert_int_eq(r.rc, 0);
	doc = json_tokener_parse(r.out);
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	ck_assert_int_eq(geti(json_object_array_get_idx(doc, 1), "served"), 42);
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/* ---- bench -------------------------------------------------------------- */

/*
 * Every benchmark output of tests/fixtures through "bench parse": the exit
 * status, the verdict and its problem codes (the numbers are checked in
 * check_benchparse).
 */
static const struct {
	const char *tool;
	const char *file;
	const char *unit;	/* perftest --out_json: the unit its command line had */
	int rc;
	const char *verdict;	/* "status code,code" */
} bench_fixtures[] = {
	{ "perftest", "perftest/err_nodev.txt", NULL, 1, "fail exit_status,no_result" },
	{ "perftest", "perftest/err_noserver.txt", NULL, 1, "fail exit_status,no_result" },
	{ "perftest", "perftest/ib_read_lat.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_send_bw.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_send_lat.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_bw.json", "gbit", 0, "ok" },
	{ "perftest", "perftest/ib_write_bw_W.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_bw_gbits.server.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_bw_gbits.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_bw_json.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_bw_q4.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_lat.server.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/ib_write_lat.txt", NULL, 0, "ok" },
	{ "perftest", "perftest/perftest_4.5-0.17_bad_option.txt", NULL, 1,
	  "fail exit_status,no_result" },
	{ "perftest", "perftest/perftest_4.5-0.17_no_device.stderr", NULL, 1,
	  "fail error_output,no_result" },
	{ "perftest", "perftest/perftest_cpufreq_warning_interleaved_excerpt.txt", NULL, 0,
	  "warn unit_unknown,cpu_frequency" },
	{ "perftest", "perftest/perftest_ib_write_bw_postlist_gbits_issue273.txt", NULL, 0,
	  "ok" },
	{ "perftest", "perftest/perftest_ib_write_bw_run_infinitely_dgxspark_guide_client1.txt", NULL, 0,
	  "ok" },
	{ "perftest", "perftest/perftest_ib_write_bw_run_infinitely_dgxspark_guide_client2.txt", NULL, 0,
	  "ok" },
	{ "perftest", "perftest/perftest_ib_write_bw_server_banner_issue234_partial.txt", NULL, 1,
	  "fail no_result" },
	{ "perftest", "perftest/perftest_ib_write_lat_rdmacm_dgxspark_eugr.txt", NULL, 0,
	  "ok" },
	{ "iperf3", "iperf3/iperf3_3.12_connrefused.json", NULL, 1, "fail iperf3_error" },
	{ "iperf3", "iperf3/iperf3_3.12_connrefused.txt", NULL, 1, "fail iperf3_error" },
	{ "iperf3", "iperf3/iperf3_3.12_connrefused_json.stderr", NULL, 1, "fail no_result" },
	{ "iperf3", "iperf3/iperf3_3.12_loopback_P2_t2.json", NULL, 0, "ok" },
	{ "iperf3", "iperf3/iperf3_3.12_loopback_P2_t2.txt", NULL, 0, "ok" },
	{ "iperf3", "iperf3/iperf3_3.12_server_P2_t2.txt", NULL, 0, "ok" },
	{ "iperf3", "iperf3/iperf3_P2.json", NULL, 0, "ok" },
	{ "iperf3", "iperf3/iperf3_plain.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/all_reduce_perf_h200x2.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/all_reduce_perf_h200x2_256M_4G.json", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/all_reduce_perf_h200x2_256M_4G.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/nccl_all_gather_dgxspark_2.18.3_ok.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/nccl_debug_info_dgxspark_interleaved_table_excerpt.txt", NULL, 1,
	  "fail no_result" },
	{ "nccl", "nccl-tests/nccl_debug_info_dgxspark_netib_excerpt.txt", NULL, 1,
	  "fail no_result" },
	{ "nccl", "nccl-tests/nccl_debug_socket_fallback_excerpt.txt", NULL, 1,
	  "fail no_result,socket_fallback" },
	{ "nccl", "nccl-tests/nccl_fail_cuda_not_initialized_issue338_excerpt.txt", NULL, 1,
	  "fail cuda_failure,test_failure,rank_exit,no_result" },
	{ "nccl", "nccl-tests/nccl_fail_unhandled_cuda_error_issue322_excerpt.txt", NULL, 1,
	  "fail test_failure,nccl_failure,rank_exit,no_result" },
	{ "nccl", "nccl-tests/nccl_old_format_error_column_issue104.txt", NULL, 1,
	  "fail wrong_values,truncated" },
	{ "nccl", "nccl-tests/sendrecv_perf_bad_option.txt", NULL, 1, "fail usage,no_result" },
	{ "nccl", "nccl-tests/sendrecv_perf_h200x2.json", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_h200x2.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_h200x2_256M_4G.json", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_h200x2_256M_4G.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_h200x2_nccl_debug_init_net.json", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_h200x2_nccl_debug_init_net.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_min_over_max.txt", NULL, 1,
	  "fail exit_status,usage,no_result" },
	{ "nccl", "nccl-tests/sendrecv_perf_nccl_debug_info.txt", NULL, 0, "ok" },
	{ "nccl", "nccl-tests/sendrecv_perf_too_many_gpus.txt", NULL, 1,
	  "fail exit_status,invalid_gpus,test_failure,no_result" },
	{ "mpirun", "mpirun/mpirun_4.1.4_exe_not_found.txt", NULL, 1,
	  "fail exit_status,launch,no_result" },
	{ "mpirun", "mpirun/mpirun_4.1.4_not_enough_slots.txt", NULL, 1,
	  "fail exit_status,launch,no_result" },
	{ "mpirun", "mpirun/mpirun_4.1.4_rank_exit3.txt", NULL, 1,
	  "fail exit_status,nccl_failure,rank_exit,no_result" },
	{ "mpirun", "mpirun/mpirun_4.1.4_ssh_refused.txt", NULL, 1,
	  "fail exit_status,ssh,launch,no_result" },
	{ "mpirun", "mpirun/mpirun_4.1.4_ssh_unresolvable.txt", NULL, 1,
	  "fail exit_status,ssh,launch,no_result" },
};

/* "status code,code" of a bench document's verdict */
static char *bench_verdict(json_object *doc)
{
	json_object *v = get(doc, "verdict"), *p = get(v, "problems");
	static char buf[256];
	size_t i, len;

	len = (size_t)snprintf(buf, sizeof(buf), "%s", gets_(v, "status"));
	for (i = 0; i < json_object_array_length(p); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "," : " ",
					gets_(json_object_array_get_idx(p, i), "code"));
	return buf;
}

START_TEST(test_bench_parse_fixtures)
{
	char path[PATH_MAX];
	struct result r;
	json_object *doc, *res;
	size_t i;

	for (i = 0; i < sizeof(bench_fixtures) / sizeof(bench_fixtures[0]); i++) {
		snprintf(path, sizeof(path), "../fixtures/%s", bench_fixtures[i].file);
		if (bench_fixtures[i].unit)
			run(&r, "ok", "-j", "bench", "parse", bench_fixtures[i].tool, path, "unit",
			    bench_fixtures[i].unit, NULL);
		else
			run(&r, "ok", "-j", "bench", "parse", bench_fixtures[i].tool, path, NULL);
		ck_assert_msg(r.rc == bench_fixtures[i].rc, "%s: rc %d: %s", path, r.rc, r.err);
		ck_assert_msg(!strcmp(r.err, ""), "%s: %s", path, r.err);
		ck_assert_str_eq(r.log, "");
		doc = json_tokener_parse(r.out);
		ck_assert_msg(doc != NULL, "%s: not JSON: %s", path, r.out);
		ck_assert_msg(!strcmp(bench_verdict(doc), bench_fixtures[i].verdict), "%s: %s",
			      path, bench_verdict(doc));
		assert_str(doc, "bench", "parse");
		assert_str(get(doc, "input"), "file", path);
		res = json_object_array_get_idx(get(doc, "results"), 0);
		assert_str(res, "tool", !strcmp(bench_fixtures[i].tool, "mpirun") ? "nccl" :
			   bench_fixtures[i].tool);
		assert_str(res, "source", path);
		json_object_put(doc);
		result_free(&r);
	}
}
END_TEST

/* Text: what was measured, the verdict; the two halves of the guide add up. */
START_TEST(test_bench_parse_text)
{
	struct result r;

	run(&r, "ok", "bench", "parse", "perftest", "../fixtures/perftest/"
	    "perftest_ib_write_bw_run_infinitely_dgxspark_guide_client2.txt", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "perftest output ../fixtures/perftest/"
			 "perftest_ib_write_bw_run_infinitely_dgxspark_guide_client2.txt\n"
			 "perftest: RDMA_Write BW Test, 65536 B: BW average 97.282 Gbit/s, the mean "
			 "of the rows of that size (6 rows)\n"
			 "verdict: ok\n");
	result_free(&r);

	run(&r, "ok", "bench", "parse", "mpirun", "../fixtures/mpirun/mpirun_4.1.4_rank_exit3.txt",
	    "exit", "3", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert(strstr(r.out, "(exit status 3)\n"));
	ck_assert(strstr(r.out, "fail: exit_status: exited with status 3: NCCL error\n"));
	ck_assert(strstr(r.out, "\nverdict: fail\n"));
	result_free(&r);

	/* two Sparks, all_gather: GB/s x 8 in Gbit/s, busbw each direction's, over the threshold */
	run(&r, "ok", "-j", "bench", "parse", "nccl",
	    "../fixtures/nccl-tests/nccl_all_gather_dgxspark_2.18.3_ok.txt", "min-busbw", "23", NULL);
	ck_assert_int_eq(r.rc, 0);
	{
		static const char *const summary_keys[] = {
			"size_bytes", "algbw_gbit_per_s", "busbw_gbit_per_s",
			"peak_busbw_gbit_per_s", "ranks", "hosts",
		};
		json_object *doc = json_tokener_parse(r.out);
		json_object *res = json_object_array_get_idx(get(doc, "results"), 0);
		json_object *s = get(res, "summary");
		json_object *half = get(json_object_array_get_idx(get(res, "rows"), 2), "in_place");

		assert_keys(s, summary_keys, ARRAY_SIZE(summary_keys));
		assert_double(s, "algbw_gbit_per_s", 356.8, 1e-9);
		assert_double(s, "busbw_gbit_per_s", 178.4, 1e-9);
		assert_double(s, "peak_busbw_gbit_per_s", 179.68, 1e-9);
		assert_int(s, "hosts", 2);
		assert_double(res, "avg_busbw_gbit_per_s", 171.2264, 1e-9);
		assert_double(half, "algbw_gbit_per_s", 359.36, 1e-9);
		assert_double(half, "busbw_gbit_per_s", 179.68, 1e-9);
		assert_double(get(doc, "summary"), "busbw_gbit_per_s", 178.4, 1e-9);
		ck_assert_str_eq(bench_verdict(doc), "warn below_threshold");
		json_object_put(doc);
	}
	result_free(&r);
}
END_TEST

/* A command's keys, run or not (dry-run) */
static const char *const bench_cmd_keys[] = {
	"name", "role", "host", "argv", "env", "command_line", "stdout", "stderr", "json_file",
	"ran", "exit_status", "signal", "timed_out", "exec_error", "stderr_tail", "elapsed_s",
};

/* One line on stderr naming the help, exit 2, nothing run. */
/* The commands, nothing run, no directory made. */
START_TEST(test_bench_dry_run)
{
	json_object *doc, *c;
	struct result r;

	run(&r, "ok", "bench", "perftest", "peer", "192.168.200.12,192.168.201.12", "dev",
	    "rocep1s0f0,roceP2p1s0f0", "dry-run", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.out,
		"# server 1: start it on 192.168.200.12 first\n"
		"ib_write_bw -d rocep1s0f0 -i 1 -p 12000 -F --report_gbits\n"
		"# server 2: start it on 192.168.201.12 first\n"
		"ib_write_bw -d roceP2p1s0f0 -i 1 -p 12001 -F --report_gbits\n"
		"# client 1\n"
		"ib_write_bw -d rocep1s0f0 -i 1 -p 12000 -F --report_gbits 192.168.200.12\n"
		"# client 2\n"
		"ib_write_bw -d roceP2p1s0f0 -i 1 -p 12001 -F --report_gbits 192.168.201.12\n");
	result_free(&r);

	run(&r, "ok", "-j", "bench", "nccl", "hosts", "192.168.88.248,192.168.88.252", "hca",
	    "rocep1s0f0,rocep1s0f1,roceP2p1s0f0,roceP2p1s0f1", "nccl-tests", "./build", "out",
	    "/nonexistent/b", "dry-run", NULL);
	ck_assert_int_eq(r.rc, 0);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	assert_str(doc, "bench", "nccl");
	assert_bool(doc, "dry_run", true);
	assert_str(doc, "out_dir", "/nonexistent/b");
	ck_assert(!json_object_object_get_ex(doc, "results", NULL));
	c = json_object_array_get_idx(get(doc, "commands"), 0);
	assert_str(c, "role", "step");
	assert_str(c, "command_line",
		   "mpirun -np 2 -H 192.168.88.248:1,192.168.88.252:1 --mca plm_rsh_agent "
		   "'ssh -o BatchMode=yes -o ConnectTimeout=10' -x LD_LIBRARY_PATH "
		   "-x NCCL_IB_HCA=rocep1s0f0,rocep1s0f1,roceP2p1s0f0,roceP2p1s0f1 -x NCCL_DEBUG=INFO "
		   "-x NCCL_DEBUG_SUBSYS=INIT,NET ./build/sendrecv_perf -b 256M -e 4G -f 2 -g 1 -n 30 "
		   "-w 5 -J /nonexistent/b/sendrecv_perf.json");
	assert_str(c, "json_file", "/nonexistent/b/sendrecv_perf.json");
	assert_keys(c, bench_cmd_keys, ARRAY_SIZE(bench_cmd_keys));
	assert_bool(c, "ran", false);
	assert_null(c, "exit_status");
	assert_bool(c, "timed_out", false);
	assert_null(c, "elapsed_s");
	json_object_put(doc);
	result_free(&r);
	ck_assert_int_ne(access("/nonexistent/b", F_OK), 0);
}
END_TEST

/* A step without results that fails stops the steps after it; all of it in the verdict. */
START_TEST(test_bench_steps)
{
	char bin[PATH_MAX], hf[PATH_MAX], out[PATH_MAX], *old = getenv("PATH"), *search;
	json_object *doc, *p;
	struct result r;
	FILE *f;

	path(bin, "bin");
	ck_assert_int_eq(mkdir(bin, 0755), 0);
	path(hf, "bin/hf");
	f = fopen(hf, "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\necho 'no such model' >&2\nexit 3\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(hf, 0755), 0);
	ck_assert_int_ge(asprintf(&search, "%s:%s", bin, old ? old : "/usr/bin:/bin"), 0);
	setenv("PATH", search, 1);
	path(out, "out");
	run(&r, "ok", "-j", "bench", "trtllm", "model", "m", "image", "none", "out", out, NULL);
	setenv("PATH", old ? old : "/usr/bin:/bin", 1);
	free(search);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "");
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(bench_verdict(doc), "fail exit_status,not_run,not_run");
	p = json_object_array_get_idx(get(get(doc, "verdict"), "problems"), 0);
	ck_assert(starts_with(gets_(p, "message"), "hf-download exited with status 3; see "));
	assert_int(json_object_array_get_idx(get(doc, "commands"), 0), "exit_status", 3);
	assert_keys(json_object_array_get_idx(get(doc, "commands"), 0), bench_cmd_keys,
		    ARRAY_SIZE(bench_cmd_keys));
	assert_bool(json_object_array_get_idx(get(doc, "commands"), 2), "ran", false);
	ck_assert_uint_eq(json_object_array_length(get(doc, "results")), 0);
	json_object_put(doc);
	result_free(&r);

	/* the guide's config file is written for trtllm-bench */
	path(hf, "out/extra-llm-api-config.yml");
	ck_assert_int_eq(access(hf, R_OK), 0);
}
END_TEST

/* tmpdir/bin/name, a shell script; PATH then begins with tmpdir/bin (restore_path()). */
static char *saved_path;

static void fake_tool(const char *name, const char *script)
{
	char bin[PATH_MAX], file[2 * PATH_MAX], *search;
	const char *old = getenv("PATH");
	FILE *f;

	path(bin, "bin");
	ck_assert(!mkdir(bin, 0755) || errno == EEXIST);
	snprintf(file, sizeof(file), "%s/%s", bin, name);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n%s\n", script);
	fclose(f);
	ck_assert_int_eq(chmod(file, 0755), 0);
	if (!saved_path) {
		saved_path = strdup(old ? old : "/usr/bin:/bin");
		ck_assert_int_ge(asprintf(&search, "%s:%s", bin, saved_path), 0);
		setenv("PATH", search, 1);
		free(search);
	}
}

static void restore_path(void)
{
	if (!saved_path)
		return;
	setenv("PATH", saved_path, 1);
	free(saved_path);
	saved_path = NULL;
}

/* A perftest client that takes a while and prints the soft-RoCE fixture. */
static void fake_ib_write_bw(const char *sleep_s)
{
	char script[2 * PATH_MAX], fixture[PATH_MAX];

	ck_assert_ptr_nonnull(realpath("../fixtures/perftest/ib_write_bw_gbits.txt", fixture));
	snprintf(script, sizeof(script), "sleep %s\ngrep -v '^exit=' '%s'", sleep_s, fixture);
	fake_tool("ib_write_bw", script);
}

/* One LLM step that failed before it wrote its result file, as JSON: verdict, command. */
static json_object *bench_failed_step(const char *bench, const char *image, const char *dir,
				      const char *verdict)
{
	char out[PATH_MAX];
	json_object *doc;
	struct result r;

	path(out, dir);
	run(&r, "ok", "-j", "bench", bench, "model", "m", "image", image, "out", out, NULL);
	ck_assert_msg(r.rc == 1, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	doc = json_tokener_parse(r.out);
	ck_assert_msg(doc != NULL, "not JSON: '%s'", r.out);
	ck_assert_str_eq(bench_verdict(doc), verdict);
	assert_str(doc, "out_dir", out);
	ck_assert_uint_eq(json_object_array_length(get(doc, "results")), 0);
	result_free(&r);
	return doc;
}

/*
 * A step that fails before it writes its result (docker's daemon down, a
 * vllm that exits 1, sglang not installed): the whole document still, with
 * how it ended, the end of its stderr and the output directory.
 */
START_TEST(test_bench_failed_step)
{
	char out[PATH_MAX], bin[PATH_MAX], want[PATH_MAX + 128];
	json_object *doc, *c, *p;
	struct result r;

	fake_tool("docker", "echo 'docker: Cannot connect to the Docker daemon at "
		  "unix:///var/run/docker.sock. Is the docker daemon running?' >&2\nexit 1");
	doc = bench_failed_step("vllm", "nvcr.io/nvidia/vllm:25.12-py3", "docker",
				"fail exit_status,no_result");
	c = json_object_array_get_idx(get(doc, "commands"), 0);
	assert_int(c, "exit_status", 1);
	assert_str(c, "stderr_tail", "docker: Cannot connect to the Docker daemon at "
		   "unix:///var/run/docker.sock. Is the docker daemon running?");
	p = json_object_array_get_idx(get(get(doc, "verdict"), "problems"), 1);
	path(out, "docker/vllm-serve.json");
	snprintf(want, sizeof(want), "vllm-bench-serve left no result: cannot read %s: No such "
		 "file or directory", out);
	assert_str(p, "message", want);
	json_object_put(doc);

	/* the text says it too, and where the outputs are */
	path(out, "docker-text");
	run(&r, "ok", "bench", "vllm", "model", "m", "out", out, NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "");
	ck_assert_msg(strstr(r.out, "\n  -> exit 1 after ") && strstr(r.out, " s\n  stderr: docker: "
		      "Cannot connect to the Docker daemon at "), "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "\nfail: exit_status: vllm-bench-serve exited with "
				     "status 1; see "));
	snprintf(want, sizeof(want), "\nverdict: fail\noutput: %s\n", out);
	ck_assert_msg(strstr(r.out, want), "%s", r.out);
	result_free(&r);

	/* on this host, a vllm that exits 1: its last 5 lines of stderr */
	fake_tool("vllm", "for i in 1 2 3 4 5 6; do echo \"line $i\" >&2; done\nexit 1");
	doc = bench_failed_step("vllm", "none", "vllm", "fail exit_status,no_result");
	c = json_object_array_get_idx(get(doc, "commands"), 0);
	assert_int(c, "exit_status", 1);
	assert_str(c, "stderr_tail", "line 2\nline 3\nline 4\nline 5\nline 6");
	json_object_put(doc);

	/* sglang not installed: no python3 on the PATH either */
	path(bin, "bin");
	child_path = bin;
	doc = bench_failed_step("sglang", "none", "sglang", "fail exec_error");
	child_path = NULL;
	c = json_object_array_get_idx(get(doc, "commands"), 0);
	assert_bool(c, "ran", false);
	assert_str(c, "exec_error", "No such file or directory");
	p = json_object_array_get_idx(get(get(doc, "verdict"), "problems"), 0);
	assert_str(p, "message", "sglang-bench-serving: cannot run python3: No such file or "
		   "directory");
	json_object_put(doc);
	restore_path();
}
END_TEST

/* "bench ... trace" with the module: its trace of the bench's devices, around the commands. */
START_TEST(test_bench_trace_kernel)
{
	char out[PATH_MAX];
	json_object *doc, *t, *st;
	struct result r;
	const char *stop;

	fake_ib_write_bw("1.3");
	path(out, "out");
	run(&r, "ok", "-j", "bench", "perftest", "peer", "192.168.200.12", "dev", "rxe0", "out",
	    out, "trace", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	/* dev rxe0: the RDMA device and its netdev, every source every 10 ms, as trace on */
	ck_assert_ptr_nonnull(strstr(r.log, "DEV_GET dump\nTRACE_START targets=netdev:eth0,rdma:rxe0/1 "
				     "globs=netdev:*,rdma:*,"));
	ck_assert_ptr_nonnull(strstr(r.log, " netdev_period=10000 ethtool_period=10000 "
				     "rdma_period=10000 duration=-1 buffer=33554432 batch=-1\n"));
	/* the ring read while the client ran (1.3 s), then the trace stopped and read back */
	stop = strstr(r.log, "TRACE_STOP id=7\n");
	ck_assert_ptr_nonnull(stop);
	ck_assert_ptr_nonnull(strstr(r.log, "TRACE_SAMPLES id=7 cursor=0\n"));
	ck_assert(strstr(r.log, "TRACE_SAMPLES id=7 cursor=0\n") < stop);
	ck_assert_str_eq(stop, "TRACE_STOP id=7\nTRACE_SAMPLES id=7 cursor=12\nTRACE_GET id=7\n");
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	assert_str(doc, "counters_source", "kernel trace");
	ck_assert_ptr_null(get(doc, "counters"));
	t = get(doc, "trace");
	assert_int(t, "id", 7);
	assert_str(t, "state", "stopped");
	ck_assert_int_eq(geti(t, "samples_received"), 12);
	st = json_object_array_get_idx(get(t, "streams"), 0);
	assert_str(st, "source", "netdev");
	assert_str(st, "target", "eth0");
	ck_assert_int_eq(geti(st, "period_requested_us"), 10000);
	ck_assert_int_eq(geti(json_object_array_get_idx(get(st, "counters"), 1), "delta"), 7500000);
	/* the client's output, commands[1] after its server's */
	assert_int(json_object_array_get_idx(get(doc, "results"), 0), "command_index", 1);
	assert_str(get(doc, "verdict"), "status", "ok");
	json_object_put(doc);
	result_free(&r);

	/* text: the section lat and bw print, after the results */
	fake_ib_write_bw("0");
	run(&r, "ok", "bench", "perftest", "peer", "192.168.200.12", "dev", "rxe0", "out", out,
	    "force", "trace", NULL);
	restore_path();
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "\n\nCounters during the bench: trace 7: stopped after "
				     "0.030 s"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nnetdev   eth0 "));
	ck_assert_ptr_null(strstr(r.out, "sysfs snapshot"));
	ck_assert(strstr(r.out, "Counters during the bench") < strstr(r.out, "\nverdict: ok\n"));
	result_free(&r);
}
END_TEST

/* Without the module, without the right, without a device: sysfs snapshots, said so. */
START_TEST(test_bench_trace_fallback)
{
	char out[PATH_MAX], dir[PATH_MAX];
	json_object *doc;
	struct result r;

	fake_ib_write_bw("0");
	fake_tool("sendrecv_perf", "exit 0");
	path(out, "out");
	run(&r, "nomodule", "-j", "bench", "perftest", "peer", "192.168.200.12", "dev", "rxe0",
	    "out", out, "trace", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "Warning: no kernel trace (the sparkperf module is not loaded): "
			 "counters from sysfs snapshots.\n");
	ck_assert_ptr_null(strstr(r.log, "TRACE_START"));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	assert_str(doc, "counters_source", "sysfs snapshots");
	ck_assert_ptr_null(get(doc, "trace"));
	assert_str(get(doc, "counters"), "source", "sysfs snapshot");
	json_object_put(doc);
	result_free(&r);

	/* TRACE_START refused: the kernel was asked, sysfs answers */
	run(&r, "trace_start_eperm", "-j", "bench", "perftest", "peer", "192.168.200.12", "dev",
	    "rxe0", "out", out, "force", "trace", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "Warning: no kernel trace (tracing needs CAP_NET_ADMIN): "
			 "counters from sysfs snapshots.\n");
	ck_assert_ptr_nonnull(strstr(r.log, "TRACE_START targets=netdev:eth0,rdma:rxe0/1 "));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	assert_str(doc, "counters_source", "sysfs snapshots");
	ck_assert_ptr_null(get(doc, "trace"));
	json_object_put(doc);
	result_free(&r);

	/* no device: an HCA that does not exist, no oob-if; text says where the counters came from */
	path(dir, "bin");
	run(&r, "ok", "bench", "nccl", "hca", "=zz_no_such_hca", "nccl-tests", dir, "out", out,
	    "force", "trace", NULL);
	restore_path();
	ck_assert_str_eq(r.err, "Warning: no kernel trace (no device to trace): counters from "
			 "sysfs snapshots.\n");
	ck_assert_ptr_null(strstr(r.log, "TRACE_START"));
	ck_assert_ptr_nonnull(strstr(r.out, "\ncounters (sysfs snapshot, "));
	result_free(&r);
}
END_TEST

/* dry-run: no trace, no snapshot, not even the module asked. */
START_TEST(test_bench_trace_dry_run)
{
	struct result r;

	run(&r, "ok", "-j", "bench", "perftest", "peer", "192.168.200.12", "dev", "rxe0", "trace",
	    "dry-run", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.err, "");
	ck_assert_ptr_null(strstr(r.log, "TRACE_START"));
	ck_assert_ptr_null(strstr(r.log, "DEV_GET"));
	ck_assert_ptr_null(strstr(r.out, "\"trace\":"));
	ck_assert_ptr_null(strstr(r.out, "\"counters_source\""));
	result_free(&r);
}
END_TEST

/* Ctrl-C as the trace starts: the commands are stopped, the trace still stopped and reported. */
START_TEST(test_bench_trace_sigint)
{
	char out[PATH_MAX];
	json_object *doc;
	struct result r;

	fake_ib_write_bw("0");
	path(out, "out");
	run(&r, "trace_sigint", "-j", "bench", "perftest", "peer", "192.168.200.12", "dev", "rxe0",
	    "out", out, "trace", NULL);
	restore_path();
	ck_assert_int_eq(r.rc, 1);
	ck_assert_ptr_nonnull(strstr(r.log, "TRACE_STOP id=7\nTRACE_SAMPLES id=7 cursor=0\n"
				     "TRACE_GET id=7\n"));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(starts_with(bench_verdict(doc), "fail interrupted"));
	assert_str(doc, "counters_source", "kernel trace");
	assert_str(get(doc, "trace"), "state", "stopped");
	ck_assert_int_eq(geti(get(doc, "trace"), "samples_received"), 12);
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/* ---- counters, trace, watch, trace on ------------------------------------ */

START_TEST(test_counters_text)
{
	struct result r;

	/* an RDMA device brings its port's netdev */
	run(&r, "ok", "counters", "dev", "rxe0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.log, "DEV_GET dump\nCOUNTERS_GET netdev:eth0\nCOUNTERS_GET rdma:rxe0/1\n");
	ck_assert_str_eq(r.out,
		"SOURCE   TARGET           COUNTER                           VALUE  UNIT\n"
		"netdev   eth0             rx_bytes                           1000  bytes\n"
		"netdev   eth0             tx_bytes                           2000  bytes\n"
		"netdev   eth0             rx_packets                            5  packets\n"
		"netdev   eth0             tx_packets                            5  packets\n"
		"ethtool  eth0             tx_queue_0_bytes                      5  bytes\n"
		"ethtool  eth0             rx_queue_0_bytes                      0  bytes\n"
		"ethtool  eth0             rx_queue_0_packets           4294967196  packets\n"
		"rdma     rxe0/1           sent_pkts                             5  packets\n"
		"rdma     rxe0/1           rcvd_pkts                             5  packets\n"
		"rdma     rxe0/1           duplicate_request                     0  events\n");
	result_free(&r);
}
END_TEST

START_TEST(test_counters_json)
{
	json_object *doc, *c;
	struct result r;

	/* a netdev brings the RDMA port that uses it; globs and nonzero */
	run(&r, "ok", "-j", "counters", "show", "dev", "eth0", "counters", "*bytes,rdma:*",
	    "nonzero", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(json_object_array_length(doc), 3);
	c = json_object_array_get_idx(doc, 1);
	ck_assert_str_eq(gets_(c, "source"), "ethtool");
	ck_assert_int_eq(geti(c, "ifindex"), 2);
	ck_assert_str_eq(json_object_to_json_string_ext(get(c, "counters"),
							JSON_C_TO_STRING_PLAIN),
			 "{\"tx_queue_0_bytes\":5}");
	c = json_object_array_get_idx(doc, 2);
	ck_assert_str_eq(gets_(c, "target"), "rxe0");
	ck_assert_int_eq(geti(c, "port"), 1);
	ck_assert_str_eq(json_object_to_json_string_ext(get(c, "counters"),
							JSON_C_TO_STRING_PLAIN),
			 "{\"sent_pkts\":5,\"rcvd_pkts\":5}");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/* "period" rules: what TRACE_START asks for, or a usage error. */
static const struct {
	const char *args[4];
	int rc;
	const char *want;
} period_cases[] = {
	{ { "period", "200us" }, 0, "netdev_period=200 ethtool_period=1000 rdma_period=1000" },
	{ { "period", "50ms" }, 0, "netdev_period=50000 ethtool_period=50000 rdma_period=50000" },
	{ { "period", "200us", "ethtool-period", "5ms" }, 0,
	  "netdev_period=200 ethtool_period=5000 rdma_period=1000" },
	{ { "rdma-period", "2ms" }, 0, "netdev_period=-1 ethtool_period=-1 rdma_period=2000" },
	{ { "ethtool-period", "500us" }, 2, "Invalid ethtool-period: '500us' (1000 us .. 60 s)" },
	{ { "period", "50us" }, 2, "Invalid period: '50us' (100 us .. 60 s)" },
	{ { "period", "100.5us" }, 2, "Invalid period: '100.5us' (a duration in whole us" },
	{ { "period", "2m" }, 2, "Invalid period: '2m' (100 us .. 60 s)" },
};

START_TEST(test_trace_periods)
{
	const char *const *a = period_cases[_i].args;
	struct result r;

	run(&r, "ok", "trace", "record", "dev", "eth0", "counters", "tx_bytes", a[0], a[1],
	    a[2], a[3], NULL);
	ck_assert_int_eq(r.rc, period_cases[_i].rc);
	if (r.rc)
		ck_assert_msg(starts_with(r.err, period_cases[_i].want), "%s", r.err);
	else
		ck_assert_msg(strstr(r.log, period_cases[_i].want), "%s", r.log);
	result_free(&r);
}
END_TEST

START_TEST(test_trace_record_text)
{
	struct result r;

	run(&r, "trace_table", "trace", "record", "dev", "rxe0", "duration", "2", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_str_eq(r.log,
		"DEV_GET dump\n"
		"TRACE_START targets=netdev:eth0,rdma:rxe0/1 globs=netdev:*,rdma:*,ethtool:*_phy,"
		"ethtool:*_bytes,ethtool:*_packets,ethtool:*vport_rdma*,ethtool:*pause*,"
		"ethtool:*discard*,ethtool:*_marked,ethtool:rx_out_of_buffer,ethtool:outbound_pci* "
		"netdev_period=-1 ethtool_period=-1 rdma_period=-1 duration=2000 buffer=-1 "
		"batch=-1\n"
		"TRACE_SAMPLES id=7 cursor=12\n"
		"TRACE_GET id=7\n");
	ck_assert(starts_with(r.out, "Counter trace 7: done after 0.030 s, sampler CPU "
			      "200000.0 ns per sample\n"
			      "Counter name tables changed 1 time during the trace"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nnetdev   eth0                    1000      1000.0"
				     "      1100.0          4        1          1.500         "
				     "3.000       1\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nethtool  eth0                   10000     10000.0"
				     "     10000.0          4        0         20.000        "
				     "20.000       2\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nnetdev   eth0             tx_bytes"
				     "                           2000              7502000"
				     "          7500000      20.000 Gbit/s      22.222 Gbit/s\n"));
	ck_assert_ptr_nonnull(strstr(r.out, " rx_queue_0_packets           4294967196"
				     "                   50              150    5000.0 packet/s"
				     "    5000.0 packet/s  (wrapped or reset)\n"));
	ck_assert_ptr_nonnull(strstr(r.out, " rx_prio3_pause                        5"
				     "                    6                1          100.0 1/s"));
	result_free(&r);
}
END_TEST

START_TEST(test_trace_record_output)
{
	char csv[PATH_MAX], js[PATH_MAX], *text;
	json_object *doc, *o;
	struct result r;

	path(csv, "trace.csv");
	path(js, "trace.json");
	run(&r, "trace_table", "trace", "record", "dev", "eth0", "counters", "ethtool:*",
	    "output", csv, NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	text = slurp(csv);
	/* 4 ethtool samples of 3 counters, and rx_prio3_pause in the last 2 */
	ck_assert_uint_eq(count_lines(text), 1 + 4 * 3 + 2);
	ck_assert(starts_with(text, "time_ns,seq,stream,source,target,version,counter,value,"
			      "delta,rate,rate_unit\n"
			      "0,0,0,ethtool,eth0,1,tx_queue_0_bytes,5,,,bit/s\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n20000000,2,0,ethtool,eth0,2,rx_prio3_pause,5,,,1/s\n"
				     "20000000,2,0,ethtool,eth0,2,tx_queue_0_bytes,205,100,"
				     "80000.000,bit/s\n"));
	ck_assert_ptr_nonnull(strstr(text, ",rx_queue_0_packets,0,50,5000.000,packet/s\n"));
	free(text);
	result_free(&r);

	run(&r, "ok", "trace", "record", "dev", "eth0", "counters", "netdev:tx_bytes",
	    "output", js, NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	text = slurp(js);
	doc = json_tokener_parse(text);
	ck_assert_ptr_nonnull(doc);
	o = get(get(doc, "trace"), "config");
	ck_assert_str_eq(json_object_to_json_string_ext(get(o, "globs"), JSON_C_TO_STRING_PLAIN),
			 "[\"netdev:tx_bytes\"]");
	ck_assert_uint_eq(json_object_array_length(get(doc, "samples")), 4);
	json_object_put(doc);
	free(text);
	result_free(&r);

	run(&r, "ok", "trace", "record", "dev", "eth0", "output", "x.txt", NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert(starts_with(r.err, "Invalid output file: 'x.txt' (FILE.csv or FILE.json)"));
	result_free(&r);

	/* a file that cannot be written: refused before the trace starts, nothing asked */
	run(&r, "trace_table", "trace", "record", "dev", "eth0", "output", "/nonexistent/x.csv",
	    NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "Error: cannot write /nonexistent/x.csv: No such file or "
			 "directory.\n");
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.log, "");
	result_free(&r);

	/* a trace that never starts leaves no file behind */
	path(csv, "never.csv");
	run(&r, "ok", "trace", "record", "dev", "eth9", "output", csv, NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_int_ne(access(csv, F_OK), 0);
	result_free(&r);
}
END_TEST

START_TEST(test_trace_record_lost)
{
	json_object *doc;
	struct result r;

	/* the second batch never comes: the dump from the first sample missing */
	run(&r, "trace_lost", "-j", "trace", "record", "dev", "rxe0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, "\nTRACE_SAMPLES id=7 cursor=4\n"));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(geti(doc, "samples_received"), 12);
	ck_assert_int_eq(geti(doc, "samples_lost"), 0);
	ck_assert_str_eq(gets_(doc, "state"), "done");
	ck_assert_str_eq(gets_(doc, "module_version"), "0.1.0-fake");
	json_object_put(doc);
	result_free(&r);

	/* the group overran (ENOBUFS): the dump from the next sample wanted, here the first */
	run(&r, "trace_enobufs", "-j", "trace", "record", "dev", "rxe0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, "\nTRACE_SAMPLES id=7 cursor=0\n"));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(geti(doc, "samples_received"), 12);
	ck_assert_int_eq(geti(doc, "samples_lost"), 0);
	json_object_put(doc);
	result_free(&r);

	/* the END was among the messages dropped: the state after the dump ends it */
	run(&r, "trace_end_lost", "-j", "trace", "record", "dev", "rxe0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, "\nTRACE_SAMPLES id=7 cursor=12\nTRACE_GET id=7\n"));
	ck_assert_ptr_null(strstr(r.log, "TRACE_STOP"));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(geti(doc, "samples_received"), 12);
	ck_assert_str_eq(gets_(doc, "state"), "done");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

START_TEST(test_trace_record_sigint)
{
	struct result r;

	run(&r, "trace_sigint", "trace", "record", "dev", "eth0", "counters", "tx_bytes", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, "\nTRACE_STOP id=7\nTRACE_SAMPLES id=7 cursor=0\n"
				     "TRACE_GET id=7\n"));
	ck_assert(starts_with(r.out, "Counter trace 7: stopped after 0.030 s"));
	ck_assert_ptr_nonnull(strstr(r.out, "\nnetdev   eth0             tx_bytes"));
	result_free(&r);

	/* the module says no glob selects anything: the glob is named */
	run(&r, "ok", "trace", "record", "dev", "eth0", "counters", "zzz", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: the counter glob 'zzz' matches no counter of the devices "
			 "traced.\n");
	result_free(&r);

	run(&r, "trace_eperm", "trace", "record", "dev", "eth0", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: following a trace needs CAP_NET_ADMIN (run as root).\n");
	ck_assert_str_eq(r.out, "");
	result_free(&r);
}
END_TEST

START_TEST(test_trace_show_stop)
{
	struct result r;

	run(&r, "trace_list", "trace", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.out,
		"trace 3: running, 0.030 s, 1 stream, ring 4096 slots, next seq 0\n"
		"  INDEX SOURCE   TARGET           PERIOD[us] COUNTERS    SAMPLES   MISSED  "
		"READ_MEAN[us]  READ_MAX[us]\n"
		"  0     netdev   eth0                   1000        2          4        1"
		"          1.500         3.000\n");
	result_free(&r);

	run(&r, "ok", "trace", "stop", "id", "9", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: no trace with this id.\n");
	ck_assert_str_eq(r.log, "TRACE_STOP id=9\n");
	result_free(&r);

	run(&r, "ok", "trace", "stop", NULL);
	ck_assert_int_eq(r.rc, 2);
	result_free(&r);
}
END_TEST

START_TEST(test_watch_lines)
{
	json_object *doc, *o;
	struct result r;
	char *nl;

	run(&r, "ok", "watch", "dev", "rxe0", "period", "1ms", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.log, "TRACE_START targets=netdev:eth0 globs=ethtool:"
				     "tx_bytes_phy,ethtool:rx_bytes_phy,netdev:tx_bytes,"
				     "netdev:rx_bytes netdev_period=1000 ethtool_period=1000 "
				     "rdma_period=-1 duration=-1 buffer=-1 batch=1\n"));
	/* not a terminal: plain lines, then the summary; no RDMA in netdev stats but rxe */
	ck_assert_ptr_nonnull(strstr(r.out, "eth0 (rxe0)"));
	ck_assert_ptr_nonnull(strstr(r.out, "netdev stats64 tx_bytes/rx_bytes (RDMA only if "
				     "soft-RoCE)"));
	ck_assert_ptr_null(strstr(r.out, "\033["));
	ck_assert_ptr_nonnull(strstr(r.out, "\neth0 (rxe0)                          20.000     "
				     "22.222     10.000     11.111        7500000        3750000"));
	ck_assert_ptr_nonnull(strstr(r.out, "full duplex mean: 30.000 Gbit/s (TX 20.000 + RX "
				     "10.000)\n"));
	result_free(&r);

	run(&r, "ok", "-j", "watch", "dev", "eth0", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_uint_eq(count_lines(r.out), 2);
	/* Gbit/s to the bit/s, without the zeros past it */
	ck_assert_ptr_nonnull(strstr(r.out, "\"tx_gbit_per_s\":0.2002002,"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"link_gbit_per_s\":10.0}"));
	nl = strchr(r.out, '\n');
	doc = json_tokener_parse(nl + 1);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(gets_(doc, "type"), "summary");
	o = json_object_array_get_idx(get(doc, "ports"), 0);
	ck_assert_int_eq(geti(o, "tx_bytes"), 7500000);
	ck_assert(getd(o, "link_gbit_per_s") == 10);
	ck_assert(fabs(getd(o, "tx_mean_gbit_per_s") - 0.2) < 1e-9);
	json_object_put(doc);
	result_free(&r);

	/* scale peak: no link rate, the bars follow the peak */
	run(&r, "ok", "-j", "watch", "dev", "eth0", "scale", "peak", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	o = json_tokener_parse(strchr(r.out, '\n') + 1);
	ck_assert_ptr_nonnull(o);
	ck_assert(json_object_is_type(get(json_object_array_get_idx(get(o, "ports"), 0),
					  "link_gbit_per_s"), json_type_null));
	json_object_put(o);
	result_free(&r);

	run(&r, "ok", "watch", "dev", "eth0", "scale", "auto", NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert(starts_with(r.err, "Invalid scale: 'auto' (link or peak)"));
	ck_assert_str_eq(r.log, "");
	result_free(&r);
}
END_TEST

START_TEST(test_lat_trace_on)
{
	json_object *doc, *t, *st;
	struct result r;

	run(&r, "ok", "-j", "lat", "run", "peer", "192.168.200.13", "trace", "on", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	/* the trace around the session, on the RDMA device and its netdev, 10 ms */
	ck_assert(starts_with(r.log, "DEV_GET dump\nTRACE_START targets=netdev:eth0,rdma:rxe0/1 "));
	ck_assert_ptr_nonnull(strstr(r.log, " netdev_period=10000 ethtool_period=10000 "
				     "rdma_period=10000 duration=-1 buffer=33554432 batch=-1\n"
				     "LAT_RUN "));
	ck_assert_ptr_nonnull(strstr(r.log, "RELEASE id=100\nTRACE_STOP id=7\n"
				     "TRACE_SAMPLES id=7 cursor=0\nTRACE_GET id=7\n"));
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	t = get(json_object_array_get_idx(doc, 0), "trace");
	ck_assert_int_eq(geti(t, "samples_received"), 12);
	st = json_object_array_get_idx(get(t, "streams"), 0);
	ck_assert_str_eq(gets_(st, "source"), "netdev");
	ck_assert_int_eq(geti(st, "period_requested_us"), 10000);
	ck_assert_int_eq(geti(json_object_array_get_idx(get(st, "counters"), 1), "delta"),
			 7500000);
	json_object_put(doc);
	result_free(&r);

	/* text: a section after the results; --trace does the same for bw */
	run(&r, "ok", "--trace", "bw", "run", "peer", "192.168.200.13", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "\n\nCounters during the run of the default size: "
				     "trace 7: stopped after 0.030 s"));
	result_free(&r);

	run(&r, "ok", "lat", "run", "peer", "192.168.200.13", "trace", "maybe", NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert(starts_with(r.err, "Invalid trace: 'maybe' (on or off)"));
	result_free(&r);
}
END_TEST

/* ---- invocations: what a user sees of one command ----------------------- */

#define BW_USAGE(msg) msg " (see 'sparkperf-ctl bw help')\n"
#define NO_SERVER "Error: no sparkperf server answers at this address and port.\n"

/*
 * One run of the tool and what it must show: the exit status, and every
 * part given of stdout, stderr and the request log (NULL: not checked).
 */
static const struct invocation {
	const char *scenario;
	const char *argv[14];
	int rc;
	const char *out;		/* all of stdout */
	const char *out_starts;
	const char *out_has[2];
	const char *err;		/* all of stderr */
	const char *err_starts;
	const char *err_line;		/* stderr is one line, holding this */
	const char *log;		/* all the requests */
	const char *log_has;
	const char *log_lacks;
	double secs_max;		/* 0: any */
} invocations[] = {
	/* lat run: nothing measured: nothing on stdout, the module's reason, exit 1 */
	{ "fail", { "lat", "run", "peer", "192.168.200.99" }, 1, .out = "", .err = NO_SERVER },
	/* failed mid-run: what was measured, then the errno; the sweep ends */
	{ "fail_mid", { "lat", "run", "peer", "192.168.200.13", "size", "2..8" }, 1,
	  .out_has = { "\n2        300          100      " }, .err = "Error: No such device.\n",
	  .log_lacks = "size=4" },
	/* Ctrl-C before anything was measured: exit 130, as a shell reports SIGINT */
	{ "sigint_early", { "lat", "run", "peer", "192.168.200.13" }, 130, .out = "",
	  .err = "Session 100 (2 B) stopped after 0 round trips.\n" },
	/* a second Ctrl-C: stop waiting for the session, print what it has */
	{ "sigint_twice", { "lat", "run", "peer", "192.168.200.13" }, 0,
	  .out_has = { "\n2        700          100 " },
	  .err = "Session 100 (2 B) was still running after 700 round trips.\n", .secs_max = 5 },
	/* refused without an extended ACK: errno in words, one line */
	{ "eperm", { "lat", "run", "peer", "192.168.200.13" }, 1, .out = "",
	  .err = "sparkperf-ctl: lat run: Operation not permitted\n" },
	{ "extack", { "-j", "lat", "run", "peer", "192.168.200.13", "size", "8M" }, 1, .out = "",
	  .err = "Error: size above the device's limit.\n" },
	/* how to install it: as the README says, dkms alone lacks the sources */
	{ "nomodule", { "lat", "run", "peer", "192.168.200.13" }, 1, .out = "",
	  .err = "Error: the sparkperf kernel module is not loaded and could not be loaded; "
		 "install it from the sparkperf 0.1.0 sources with 'sudo make dkms-install' "
		 "(see their README) and run 'sudo modprobe sparkperf'.\n" },
	/* usage errors never reach the kernel */
	{ "ok", { "lat", "run", "peer", "192.168.200.13", "iters", "5", "duration", "1" }, 2,
	  .err = "'iters' and 'duration' cannot be used together (see 'sparkperf-ctl lat help')\n",
	  .log = "" },
	{ "ok", { "lat", "run", "peer", "192.168.200.13", "completion", "cqe" }, 2, .out = "",
	  .err = "Invalid completion: 'cqe' (recv or last-byte) (see 'sparkperf-ctl lat help')\n",
	  .log = "" },
	{ "ok", { "lat", "run", "peer", "192.168.200.13", "op", "send", "completion",
		  "last-byte" }, 2, .out = "",
	  .err = "'completion last-byte' needs 'op write' (see 'sparkperf-ctl lat help')\n",
	  .log = "" },
	{ "ok", { "lat", "run", "peer", "192.168.200.13", "op", "read", "completion", "recv" }, 2,
	  .out = "", .log = "",
	  .err = "'op read' ends on the read's completion, not 'recv' (see 'sparkperf-ctl lat "
		 "help')\n" },

	/* bw run: usage errors: one line, nothing on stdout, nothing asked of the kernel */
	{ "ok", { "bw", "run" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Missing 'peer ADDR[,ADDR...]': the address of the server") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12,192.168.201.12", "dev", "rxe0" }, 2,
	  .out = "", .log = "", .err = BW_USAGE("2 peer addresses but 1 device: give one device "
						 "per peer address, or no dev") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "dev", "rxe0,rxe1" }, 2, .out = "",
	  .log = "", .err = BW_USAGE("1 peer address but 2 devices: give one device per peer "
				      "address, or no dev") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "op", "atomic" }, 2, .out = "",
	  .log = "", .err = BW_USAGE("Invalid op: 'atomic' (write, send or read)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "size", "0" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid size: '0' (range 1..8388608 bytes)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "qps", "65" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid QP count: '65' (range 1..64)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "threads", "17" }, 2, .out = "",
	  .log = "", .err = BW_USAGE("Invalid thread count: '17' (range 1..16)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "colour", "blue" }, 2, .out = "",
	  .log = "", .err = BW_USAGE("Unknown keyword 'colour'") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "iters", "5", "duration", "1" }, 2,
	  .out = "", .log = "", .err = BW_USAGE("'iters' and 'duration' cannot be used together") },
	{ "ok", { "bw", "run", "peer", "spark2" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid peer address: 'spark2' (an IPv4 or IPv6 address)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "validate", "validate" }, 2, .out = "",
	  .log = "", .err = BW_USAGE("Duplicate keyword 'validate'") },
	{ "ok", { "bw", "show", "x" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid session id: 'x'") },
	{ "ok", { "bw", "stop", "1", "2" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Unexpected argument '2'") },
	{ "ok", { "bw", "launch" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Unknown command 'launch' for object 'bw'") },
	/* threads above qps: the kernel's to refuse, not the tool's */
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "threads", "4" }, 0,
	  .log_has = " qps=-1 threads=4 " },
	{ "ok", { "bw", "help" }, 0,
	  .out_starts = "Usage: sparkperf-ctl [ OPTIONS ] bw show [ ID ]\n" },
	{ "ok", { "bw", "run", "--help" }, 0, .out_starts = "Usage: " },
	/* nothing measured: the row with its error, the reason on stderr, exit 1 */
	{ "fail", { "bw", "run", "peer", "192.168.200.99" }, 1, .err = NO_SERVER,
	  .out_has = { "  failed   0            0         -        -",
		       "  error: no sparkperf server answers at this address and port\n" } },
	/* Ctrl-C before anything was measured: exit 130 */
	{ "sigint_early", { "bw", "run", "peer", "192.168.200.12" }, 130,
	  .err = "Session 200 (65536 B) stopped after 0 bytes.\n",
	  .out_has = { "  stopped  0            0  " } },
	/* a second Ctrl-C: stop waiting, print what was measured */
	{ "sigint_twice", { "bw", "run", "peer", "192.168.200.12" }, 0,
	  .err = "Session 200 (65536 B) was still running after 163840000 bytes.\n",
	  .out_has = { "  running  163840000    2500 " }, .secs_max = 5 },
	/* refused without an extended ACK: errno in words, one line */
	{ "eperm", { "bw", "run", "peer", "192.168.200.12" }, 1, .out = "",
	  .err = "sparkperf-ctl: bw run: Operation not permitted\n" },
	{ "extack", { "-j", "bw", "run", "peer", "192.168.200.12", "op", "read", "bidir" }, 1,
	  .out = "", .err = "Error: bidirectional runs need op write or send.\n" },
	/* the second half refused: the first is stopped and released, nothing printed */
	{ "bw_refuse_second", { "bw", "run", "peer", "192.168.200.12,192.168.201.12" }, 1,
	  .out = "", .err = "Error: bidirectional runs need op write or send.\n",
	  .log_has = "start_at=ok\nBW_STOP id=200\nRELEASE id=200\n" },
	{ "nomodule", { "bw", "run", "peer", "192.168.200.12" }, 1,
	  .err_starts = "Error: the sparkperf kernel module is not loaded" },

	/* server */
	{ "ok", { "server", "start", "addr", "192.168.200.13", "port", "18521" }, 0,
	  .out = "server 1 listening on 192.168.200.13 port 18521, for every peer; at most 256 "
		 "connections, 256 threads, 1GiB of buffers\n",
	  .log = "SERVER_START addr=4 port=18521 conns=-1 threads=-1 bytes=-1 allow=-1\n" },
	{ "ok", { "-j", "server", "start", "addr", "any" }, 0,
	  .out = "{\"id\":1,\"addr\":null,\"port\":18520,\"active\":0,\"max_conns\":256,"
		 "\"threads\":0,\"max_threads\":256,\"buffer_bytes\":0,"
		 "\"max_buffer_bytes\":1073741824,\"served\":0,\"rejected\":0,\"allow\":null}\n",
	  .log = "SERVER_START addr=-1 port=-1 conns=-1 threads=-1 bytes=-1 allow=-1\n" },
	{ "ok", { "server", "start", "allow", "192.168.200.0/24,fd00::13", "max-conns", "4",
		  "max-threads", "0", "max-mem", "16M" }, 0,
	  .out = "server 1 listening on any port 18520, for 192.168.200.0/24,fd00::13/128; at most "
		 "4 connections, 0 threads, 16MiB of buffers\n",
	  .log = "SERVER_START addr=-1 port=-1 conns=4 threads=0 bytes=16777216 allow=52\n" },
	{ "ok", { "server" }, 0,
	  .out = "ID  ADDR            PORT   CONNS  THREADS  BUFFERS      SERVED  REJECTED  ALLOW\n"
		 "1   any             18520  0/256  0/256    0B/1GiB      3       1         any\n"
		 "2   192.168.200.13  18521  1/256  1/256    128KiB/1GiB  42      14        any\n" },
	{ "ok", { "server", "start", "allow", "192.168.200.13/24" }, 2, .log = "", .out = "",
	  .err = "Invalid network: '192.168.200.13/24' has bits set after its prefix "
		 "(192.168.200.0/24?) (see 'sparkperf-ctl server help')\n" },
	{ "ok", { "server", "start", "allow", "192.168.200.0/33" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "start", "allow", "spark2/24" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "start", "allow", "10.0.0.0/8,10.0.0.0/8" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "start", "max-conns", "0" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "start", "max-conns", "257" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "start", "max-threads", "257" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "start", "max-mem", "1K" }, 2, .log = "", .out = "" },
	{ "ok", { "server", "stop" }, 0, .out = "", .log = "SERVER_STOP id=-1\n" },
	{ "ok", { "server", "stop", "id", "9" }, 1, .err = "Error: no server with this id.\n",
	  .log = "SERVER_STOP id=9\n" },
	{ "ok", { "server", "start", "addr", "spark2" }, 2, .log = "" },

	/* counters */
	{ "ok", { "counters", "dev", "eth9" }, 1, .out = "",
	  .err = "Error: no RDMA device or netdev named 'eth9'.\n" },
	{ "ok", { "counters", "dev", "eth0", "counters", "tx_bytes,a b" }, 2,
	  .err_starts = "Invalid counter glob: 'a b'", .log = "" },
	{ "ok", { "counters", "dev", "eth0", "counters", "tx_bytes,zzz*" }, 1, .out = "",
	  .err = "Error: the counter glob 'zzz*' matches no counter of eth0.\n" },
	/* a target that no glob selects anything of is no error (eth0 here) */
	{ "ok", { "counters", "dev", "rxe0", "counters", "rdma:sent*" }, 0,
	  .out = "SOURCE   TARGET           COUNTER                  VALUE  UNIT\n"
		 "rdma     rxe0/1           sent_pkts                    5  packets\n" },
	{ "ok", { "counters" }, 2, .err_starts = "Missing 'dev DEV[,DEV...]'" },

	/* bench: usage errors, one line each, nothing run */
	{ "ok", { "bench" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "ib_write_bw" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "perftest" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "perftest", "peer", "192.168.200.13", "iters", "100", "duration", "2" },
	  2, .out = "", .log = "", .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "perftest", "peer", "a,b", "dev", "rxe0" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "perftest", "peer", "-oProxyCommand=x" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "iperf3", "peer", "a,b", "cpus", "0-3" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "nccl", "sizes", "4G..256M" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "nccl", "channels-per-peer", "all" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "vllm", "mode", "serve" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "trtllm", "model", "m", "url", "http://x" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "parse", "nccl" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "parse", "ib_write_bw", "f" }, 2, .out = "", .log = "",
	  .err_line = " (see 'sparkperf-ctl bench help')\n" },
	{ "ok", { "bench", "parse", "nccl", "/nonexistent" }, 1,
	  .err = "Error: cannot read /nonexistent: No such file or directory.\n" },
	/* lists: an empty item, or an item of a set twice, refused before anything is asked */
	{ "nomodule", { "counters", "dev", "lo," }, 2, .out = "", .log = "",
	  .err = "Invalid device list: 'lo,' (DEV[,DEV...]) (see 'sparkperf-ctl counters help')\n" },
	{ "ok", { "counters", "dev", "eth0,eth0" }, 2, .out = "", .log = "",
	  .err = "Invalid device list: 'eth0,eth0' ('eth0' given twice) "
		 "(see 'sparkperf-ctl counters help')\n" },
	{ "ok", { "counters", "dev", "eth0", "counters", "tx*,rx*,tx*" }, 2, .out = "", .log = "",
	  .err = "Invalid counter glob list: 'tx*,rx*,tx*' ('tx*' given twice) "
		 "(see 'sparkperf-ctl counters help')\n" },
	{ "ok", { "watch", "dev", "eth0,rxe0,eth0", "duration", "1" }, 2, .out = "", .log = "",
	  .err = "Invalid device list: 'eth0,rxe0,eth0' ('eth0' given twice) "
		 "(see 'sparkperf-ctl watch help')\n" },
	{ "nomodule", { "trace", "record", "dev", ",eth0" }, 2, .out = "", .log = "",
	  .err = "Invalid device list: ',eth0' (DEV[,DEV...]) (see 'sparkperf-ctl trace help')\n" },
	{ "ok", { "bw", "run", "peer", "fd00::12,fd00:0::12" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid peer address list: 'fd00::12,fd00:0::12' ('fd00:0::12' given "
			  "twice)") },
	{ "ok", { "tune", "show", "dev", "lo,lo" }, 2, .out = "",
	  .err = "Invalid netdev list: 'lo,lo' ('lo' given twice) (see 'sparkperf-ctl tune help')\n" },
	{ "ok", { "tune", "show", "dev", "lo," }, 2, .out = "",
	  .err = "Invalid netdev list: 'lo,' (an empty item) (see 'sparkperf-ctl tune help')\n" },
	{ "ok", { "switch", "plan", "host", "127.0.0.1", "ports", "ether1,ether2,ether1", "mtu",
		  "9000" }, 2, .out = "",
	  .err = "Invalid port list: 'ether1,ether2,ether1' ('ether1' given twice) "
		 "(see 'sparkperf-ctl switch help')\n" },
	/* lists matched item by item to another may repeat: two peers over one device */
	{ "ok", { "bw", "run", "peer", "192.168.200.12,192.168.200.13", "dev", "rxe0,rxe0" }, 0,
	  .log_has = "BW_RUN peer=4 " },

	/* limits of the contract, checked before anything is asked of the kernel */
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "signal", "200" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid signal interval: '200' (1..depth, 128)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "depth", "8", "signal", "9" }, 2,
	  .out = "", .log = "", .err = BW_USAGE("Invalid signal interval: '9' (1..depth, 8)") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "depth", "8", "signal", "8" }, 0,
	  .log_has = " depth=8 signal=8 " },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "qps", "64", "size", "1K..8M" }, 2,
	  .out = "", .log = "", .err = BW_USAGE("size 8MiB and qps 64 need 1GiB of buffers "
						 "(2 x qps x size), above 512MiB") },
	{ "ok", { "bw", "run", "peer", "192.168.200.12", "qps", "32", "size", "8M" }, 0,
	  .log_has = " size=8388608 qps=32 " },
	{ "ok", { "bw", "run", "peer", "192.168.200.12,255.255.255.255" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid peer address: '255.255.255.255' (broadcast: a peer is one "
			  "host)") },
	{ "ok", { "bw", "run", "peer", "0.0.0.0" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid peer address: '0.0.0.0' (unspecified: a peer is one host)") },
	{ "ok", { "lat", "run", "peer", "::" }, 2, .out = "", .log = "",
	  .err = "Invalid peer address: '::' (unspecified: a peer is one host) "
		 "(see 'sparkperf-ctl lat help')\n" },
	{ "ok", { "lat", "run", "peer", "224.0.0.251" }, 2, .out = "", .log = "",
	  .err = "Invalid peer address: '224.0.0.251' (multicast: a peer is one host) "
		 "(see 'sparkperf-ctl lat help')\n" },
	{ "ok", { "lat", "run", "peer", "::ffff:239.1.1.1" }, 2, .out = "", .log = "",
	  .err = "Invalid peer address: '::ffff:239.1.1.1' (multicast: a peer is one host) "
		 "(see 'sparkperf-ctl lat help')\n" },
	{ "ok", { "bw", "run", "peer", "ff02::1" }, 2, .out = "", .log = "",
	  .err = BW_USAGE("Invalid peer address: 'ff02::1' (multicast: a peer is one host)") },
	{ "ok", { "check", "peer", "0.0.0.0" }, 2, .out = "",
	  .err = "Invalid peer address: '0.0.0.0' (unspecified: a peer is one host) "
		 "(see 'sparkperf-ctl check help')\n" },

	/* check's new arguments: refused before anything is asked or read */
	{ "ok", { "check", "gid-index", "x" }, 2, .out = "", .log = "",
	  .err = "Invalid GID index: 'x' (see 'sparkperf-ctl check help')\n" },
	{ "ok", { "check", "gid-index", "256" }, 2, .out = "", .log = "",
	  .err = "Invalid GID index: '256' (range 0..255) (see 'sparkperf-ctl check help')\n" },
	{ "ok", { "check", "nccl-bytes", "16GB" }, 2, .out = "", .log = "",
	  .err = "Invalid NCCL message size: '16GB' (see 'sparkperf-ctl check help')\n" },
	{ "ok", { "check", "nccl-bytes", "0" }, 2, .out = "", .log = "",
	  .err = "Invalid NCCL message size: '0' (range 1..1099511627776 bytes) "
		 "(see 'sparkperf-ctl check help')\n" },
	{ "ok", { "check", "peer-file", "a.json,a.json" }, 2, .out = "", .log = "",
	  .err = "Invalid peer file list: 'a.json,a.json' ('a.json' given twice) "
		 "(see 'sparkperf-ctl check help')\n" },
	{ "ok", { "check", "peer-file", "/nonexistent.json" }, 1, .out = "", .log = "",
	  .err = "Error: cannot read /nonexistent.json: No such file or directory.\n" },
	/* the link-local trap and the planned size, on spark1's halves */
	{ "spark", { "check", "gid-index", "0", "nccl-bytes", "1G" }, 1,
	  .out_has = { "\nfail  gid-index rocep1s0f0/1 (enp1s0f0np0)      RoCE v2 IPv4 GID index 3 "
		       "(192.168.200.12), but gid-index 0 is the link-local trap: "
		       "fe80::4ebb:47ff:fe00:1 (RoCE v1, link-local)\n",
		       ": room for nccl-tests with 1GiB messages (about 2 x 1GiB)\n" } },

	/* nccl env: usage errors, one line, nothing asked */
	{ "ok", { "nccl", "env", "format", "yaml" }, 2, .out = "", .log = "",
	  .err = "Invalid format: 'yaml' (export or mpirun) (see 'sparkperf-ctl nccl help')\n" },
	{ "ok", { "bench", "nccl", "env", "format", "yaml" }, 2, .out = "", .log = "",
	  .err = "Invalid format: 'yaml' (export or mpirun) (see 'sparkperf-ctl nccl help')\n" },
	{ "ok", { "nccl", "env", "peer", "-oProxyCommand=x" }, 2, .out = "", .log = "",
	  .err = "Invalid peer: '-oProxyCommand=x' (a host name or address for ssh) "
		 "(see 'sparkperf-ctl nccl help')\n" },
	{ "ok", { "nccl", "env", "peer", "spark2,spark2" }, 2, .out = "", .log = "",
	  .err = "Invalid peer list: 'spark2,spark2' ('spark2' given twice) "
		 "(see 'sparkperf-ctl nccl help')\n" },
	{ "ok", { "-j", "nccl", "env", "format", "mpirun" }, 2, .out = "", .log = "",
	  .err = "'format' is for text output; -j prints JSON (see 'sparkperf-ctl nccl help')\n" },
	{ "ok", { "nccl", "env", "hosts", "spark2" }, 2, .out = "", .log = "",
	  .err = "Unknown keyword 'hosts' (see 'sparkperf-ctl nccl help')\n" },
	{ "ok", { "nccl", "bogus" }, 2, .out = "", .log = "",
	  .err = "Unknown command 'bogus' for object 'nccl' (see 'sparkperf-ctl nccl help')\n" },
	{ "spark", { "nccl", "env", "peer-file", "/nonexistent.json" }, 1, .out = "", .log = "",
	  .err = "Error: cannot read /nonexistent.json: No such file or directory.\n" },
	{ "spark", { "nccl", "env", "peer-file", "../fixtures/README.md" }, 1, .out = "", .log = "",
	  .err_starts = "Error: ../fixtures/README.md: not JSON: " },
	{ "nomodule", { "nccl", "env" }, 1, .out = "",
	  .err_starts = "Error: the sparkperf kernel module is not loaded" },
	{ "ok", { "nccl", "help" }, 0, .err = "",
	  .out_starts = "Usage: sparkperf-ctl [ OPTIONS ] nccl env [ peer HOST[,HOST...] ]\n" },
	/* bench nccl without hca: nccl env's list, and where it came from */
	{ "spark", { "bench", "nccl", "hosts", "spark1,spark2", "dry-run" }, 0,
	  .out_has = { "# NCCL_IB_HCA: nccl env of ",
		       " -x NCCL_IB_HCA=rocep1s0f0,roceP2p1s0f0 -x NCCL_IB_GID_INDEX=3 "
		       "-x NCCL_IB_MERGE_NICS=1 -x NCCL_DEBUG=INFO " } },
	{ "spark", { "bench", "nccl", "hosts", "spark1,spark2", "hca", "rocep1s0f0", "dry-run" }, 0,
	  .out_has = { "# NCCL_IB_HCA: the hca argument\n",
		       " -x NCCL_IB_HCA=rocep1s0f0 -x NCCL_DEBUG=INFO " } },
	{ "ok", { "bench", "nccl", "hosts", "localhost,nonexistent.invalid" }, 1, .out = "",
	  .err_starts = "Error: nonexistent.invalid: ssh -o BatchMode=yes -o ConnectTimeout=10 "
			"nonexistent.invalid sparkperf-ctl -j dev: " },

	/* help: every line whole */
	{ "ok", { "switch", "help" }, 0, .err = "",
	  .out_has = { "\n       HOST := the switch's name or address: RouterOS 7 with the "
		       "api-ssl\n               service enabled (or api, with tls no)\n" } },

	/* global options, iproute2 style: any prefix of the word after "-" or "--" */
	{ "ok", { "-json", "server" }, 0, .err = "",
	  .out_starts = "[{\"id\":1,\"addr\":null,\"port\":18520," },
	{ "ok", { "-js", "-pre", "server" }, 0, .err = "", .out_starts = "[\n  {\n    \"id\": 1," },
	{ "ok", { "--pretty", "server" }, 0, .err = "", .out_starts = "[\n  {\n    \"id\": 1," },
	{ "ok", { "-Vers" }, 0, .err = "", .out_starts = "sparkperf-ctl " },
	{ "ok", { "-j", "-Version" }, 0, .err = "", .out_starts = "{\"version\":" },
	{ "ok", { "-he" }, 0, .err = "", .out_starts = "Usage: sparkperf-ctl [ OPTIONS ] OBJECT " },
	{ "ok", { "-jp", "server" }, 0, .err = "", .out_starts = "[\n  {\n    \"id\": 1," },
	{ "ok", { "-jsonx", "server" }, 2, .out = "", .log = "",
	  .err = "Invalid option '-jsonx' (see 'sparkperf-ctl help')\n" },
	{ "ok", { "--jp", "server" }, 2, .out = "", .log = "",
	  .err = "Invalid option '--jp' (see 'sparkperf-ctl help')\n" },

	/* -V, -h and help take nothing after them */
	{ "ok", { "help", "bogus" }, 2, .out = "", .log = "",
	  .err = "Unexpected argument 'bogus' (see 'sparkperf-ctl help')\n" },
	{ "ok", { "-V", "extra" }, 2, .out = "", .log = "",
	  .err = "Unexpected argument 'extra' (see 'sparkperf-ctl help')\n" },
	{ "ok", { "-h", "dev" }, 2, .out = "", .log = "",
	  .err = "Unexpected argument 'dev' (see 'sparkperf-ctl help')\n" },
	{ "ok", { "help" }, 0, .err = "", .out_starts = "Usage: sparkperf-ctl [ OPTIONS ] OBJECT " },

	/* help, however asked for: the whole usage on stdout */
#define BENCH_HELP .err = "", \
	.out_starts = "Usage: sparkperf-ctl [ OPTIONS ] bench perftest peer ", \
	.out_has = { "\n       sparkperf-ctl [ OPTIONS ] bench parse TOOL FILE " }
	{ "ok", { "bench", "help" }, 0, BENCH_HELP },
	{ "ok", { "bench", "--help" }, 0, BENCH_HELP },
	{ "ok", { "bench", "perftest", "help" }, 0, BENCH_HELP },
	{ "ok", { "bench", "parse", "-h" }, 0, BENCH_HELP },
#undef BENCH_HELP
};

static void run_argv(struct result *r, const char *scenario, const char *const *a)
{
	run(r, scenario, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10],
	    a[11], a[12], a[13], NULL);
}

START_TEST(test_invocation)
{
	const struct invocation *c = &invocations[_i];
	struct result r;
	size_t i;

	run_argv(&r, c->scenario, c->argv);
	ck_assert_msg(r.rc == c->rc, "%s %s: rc %d: %s", c->argv[0], c->argv[1], r.rc, r.err);
	if (c->out)
		ck_assert_str_eq(r.out, c->out);
	if (c->out_starts)
		ck_assert_msg(starts_with(r.out, c->out_starts), "%s", r.out);
	for (i = 0; i < ARRAY_SIZE(c->out_has) && c->out_has[i]; i++)
		ck_assert_msg(strstr(r.out, c->out_has[i]), "no '%s' in: %s", c->out_has[i], r.out);
	if (c->err)
		ck_assert_str_eq(r.err, c->err);
	if (c->err_starts)
		ck_assert_msg(starts_with(r.err, c->err_starts), "%s", r.err);
	if (c->err_line) {
		ck_assert_uint_eq(count_lines(r.err), 1);
		ck_assert_msg(strstr(r.err, c->err_line), "%s", r.err);
	}
	if (c->log)
		ck_assert_str_eq(r.log, c->log);
	if (c->log_has)
		ck_assert_msg(strstr(r.log, c->log_has), "%s", r.log);
	if (c->log_lacks)
		ck_assert_msg(!strstr(r.log, c->log_lacks), "%s", r.log);
	if (c->secs_max)
		ck_assert(r.secs < c->secs_max);
	result_free(&r);
}
END_TEST

/*
 * The -j documents of the objects outside lat, bw and bench, which the
 * other cases print as text: run() holds every one to the vocabulary.
 */
static const struct {
	const char *scenario;
	const char *argv[14];
} json_docs[] = {
	{ "ok", { "-j", "watch", "dev", "eth0" } },
	{ "ok", { "-j", "counters", "show", "dev", "eth0" } },
	{ "trace_table", { "-j", "trace", "record", "dev", "rxe0", "duration", "2" } },
	{ "trace_list", { "-j", "trace", "show" } },
	{ "ok", { "-j", "dev", "show" } },
	{ "ok", { "-j", "server", "show" } },
	{ "ok", { "-j", "check" } },
	{ "nomodule", { "-j", "check" } },
	{ "spark", { "-j", "check", "gid-index", "3", "nccl-bytes", "1G" } },
	{ "spark", { "-j", "nccl", "env", "peer-file", "../fixtures/nccl-env/spark2-check.json" } },
	{ "ok", { "-j", "-V" } },
};

START_TEST(test_json_vocabulary)
{
	struct result r;

	run_argv(&r, json_docs[_i].scenario, json_docs[_i].argv);
	ck_assert_msg(r.out[0] == '[' || r.out[0] == '{', "%s %s: %s", json_docs[_i].argv[1],
		      json_docs[_i].argv[2], r.err);
	result_free(&r);
}
END_TEST

/* ---- nccl env: spark1 (fakenl's spark) and spark2 from its own -j output ---- */

#define SPARK2_DEV "../fixtures/nccl-env/spark2-dev.json"
#define SPARK2_CHECK "../fixtures/nccl-env/spark2-check.json"

/* spark2 lists roceP2p1s0f0 first, at GID index 5: paired by subnet, the index left unset */
#define SPARK_HCA "NCCL_IB_HCA=rocep1s0f0,roceP2p1s0f0"
#define GID_UNSET "# NCCL_IB_GID_INDEX: leave it unset, NCCL finds each HCA's RoCE v2 IPv4 " \
	"GID itself: the indexes differ ("

START_TEST(test_nccl_env_text)
{
	struct result r;

	run(&r, "spark", "nccl", "env", "peer-file", SPARK2_DEV, NULL);
	ck_assert_msg(r.rc == 0, "%s", r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert_msg(strstr(r.out, ": this host, the module's device list\n"
			     "export " SPARK_HCA "\n"
			     "export NCCL_SOCKET_IFNAME=enp1s0f0np0\n" GID_UNSET), "%s", r.out);
	ck_assert_msg(strstr(r.out, "# " SPARK2_DEV ": from " SPARK2_DEV "\n"
			     "export " SPARK_HCA "\n"
			     "export NCCL_SOCKET_IFNAME=enp1s0f0np0\n" GID_UNSET), "%s", r.out);
	ck_assert_msg(strstr(r.out, "; " SPARK2_DEV " rocep1s0f0 3, roceP2p1s0f0 5)\n"
			     "export NCCL_IB_MERGE_NICS=1\n"), "%s", r.out);
	result_free(&r);

	/* the hosts alike: one line of options, the unset one said above it */
	run(&r, "spark", "nccl", "env", "peer-file", SPARK2_CHECK, "format", "mpirun", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_msg(strstr(r.out, "\n# spark2: from " SPARK2_CHECK "\n" GID_UNSET), "%s", r.out);
	ck_assert_msg(strstr(r.out, ")\n-x " SPARK_HCA " -x NCCL_SOCKET_IFNAME=enp1s0f0np0 "
			     "-x NCCL_IB_MERGE_NICS=1\n"), "%s", r.out);
	ck_assert(!strstr(r.out, "export "));
	result_free(&r);
}
END_TEST

START_TEST(test_nccl_env_json)
{
	json_object *doc, *hosts, *h, *half;
	struct result r;

	run(&r, "spark", "-j", "nccl", "env", "peer-file", SPARK2_CHECK, NULL);
	ck_assert_msg(r.rc == 0, "%s", r.err);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	assert_bool(doc, "gid_index_stable", false);
	assert_bool(doc, "subnet_aware_routing", false);
	hosts = get(doc, "hosts");
	ck_assert_uint_eq(json_object_array_length(hosts), 2);
	h = json_object_array_get_idx(hosts, 0);
	assert_str(h, "source", "local");
	assert_null(h, "origin");
	assert_null(h, "gid_index");
	assert_bool(h, "merge_nics", true);
	ck_assert_str_eq(json_object_to_json_string(get(h, "hca")),
			 "[ \"rocep1s0f0\", \"roceP2p1s0f0\" ]");
	h = json_object_array_get_idx(hosts, 1);
	assert_str(h, "host", "spark2");
	assert_str(h, "source", "file");
	assert_str(h, "origin", SPARK2_CHECK);
	assert_str(h, "socket_ifname", "enp1s0f0np0");
	assert_str(get(h, "env"), "NCCL_IB_HCA", "rocep1s0f0,roceP2p1s0f0");
	half = json_object_array_get_idx(get(h, "halves"), 1);
	assert_str(half, "device", "roceP2p1s0f0");
	assert_str(half, "address", "192.168.201.13");
	assert_str(half, "subnet", "192.168.201.0/24");
	assert_int(half, "gid_index", 5);
	assert_str(half, "parent", "0002:01:00.0");
	assert_str(json_object_array_get_idx(get(h, "unset"), 0), "name", "NCCL_IB_GID_INDEX");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/*
 * Over ssh: a fake ssh (a test double) runs the command here, with
 * spark2's devices (fakenl's spark_b) for host spark2, and resolves no
 * other host.
 */
START_TEST(test_nccl_env_ssh)
{
	char cli[PATH_MAX], script[2 * PATH_MAX];
	struct result r;

	ck_assert_ptr_nonnull(realpath(CLI, cli));
	snprintf(script, sizeof(script),
		 "while [ \"$1\" = -o ]; do shift 2; done\n"
		 "[ \"$1\" = spark2 ] || { echo \"ssh: Could not resolve hostname $1: Name or "
		 "service not known\" >&2; exit 255; }\n"
		 "shift 2\n"
		 "FAKENL=spark_b exec %s \"$@\"", cli);
	fake_tool("ssh", script);
	run(&r, "spark", "nccl", "env", "peer", "spark2", NULL);
	ck_assert_msg(r.rc == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "\n# spark2: over ssh: ssh -o BatchMode=yes -o ConnectTimeout=10 "
			     "spark2 sparkperf-ctl -j dev\nexport " SPARK_HCA "\n"), "%s", r.out);
	result_free(&r);

	run(&r, "spark", "nccl", "env", "peer", "spark2,spark9", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "Error: spark9: ssh -o BatchMode=yes -o ConnectTimeout=10 spark9 "
			 "sparkperf-ctl -j dev: ssh: Could not resolve hostname spark9: Name or "
			 "service not known.\n");
	result_free(&r);
	restore_path();
}
END_TEST

/* ---- the man page and the completion, as a user meets them ------------------ */

#define MAN "../../user/man/sparkperf-ctl.8"

/* s with every run of blanks (and of newlines too, with lines) made one space */
static void squeeze(char *s, bool lines)
{
	char *d = s, *start = s;
	bool blank = false;

	for (; *s; s++) {
		if (*s == ' ' || (lines && *s == '\n')) {
			blank = true;
			continue;
		}
		if (blank && d > start)
			*d++ = ' ';
		blank = false;
		*d++ = *s;
	}
	*d = '\0';
}

START_TEST(test_man)
{
	char *warn = shell_out("MANWIDTH=80 man --warnings -l " MAN " 2>&1 >/dev/null");
	char *text = shell_out("MANWIDTH=80 man -l " MAN " 2>/dev/null");

	ck_assert_str_eq(warn, "");
	/* a synopsis of its own, an example of its own, after a blank line */
	squeeze(text, false);
	ck_assert_ptr_nonnull(strstr(text, "\n\n sparkperf-ctl [ OPTIONS ] tune { show |"));
	ck_assert_ptr_nonnull(strstr(text, "\n\n sparkperf-ctl bench perftest peer "));
	squeeze(text, true);
	/* the synopsis says what the commands take, no more */
	ck_assert_ptr_nonnull(strstr(text, " watch dev DEV[,DEV...] [ period TIME ] [ duration "
				      "TIME ] [ scale { link | peak } ] "));
	ck_assert_ptr_nonnull(strstr(text, " bench trtllm model MODEL [ image IMAGE ] [ isl N ] "
				      "[ osl N ] [ concurrency N ] [ prompts N ] [ COMMON ] "));
	ck_assert_ptr_nonnull(strstr(text, " bench { vllm | sglang } model MODEL [ mode MODE ] "));
	ck_assert_ptr_nonnull(strstr(text, " check [ peer ADDR[,ADDR...] ] [ gid-index N ] [ "
				      "nccl-bytes SIZE ] [ peer-file FILE[,FILE...] ] "));
	ck_assert_ptr_nonnull(strstr(text, " nccl env [ peer HOST[,HOST...] ] [ peer-file "
				      "FILE[,FILE...] ] [ format { export | mpirun } ] "));
	free(warn);
	free(text);
}
END_TEST

/* What bash completion offers after the words (the last one being typed). */
static const struct {
	const char *words;
	const char *offers;
} completions[] = {
	/* the values of scale are no keywords of watch */
	{ "watch dev eth0 \"\"", "period duration scale" },
	{ "watch dev eth0 scale \"\"", "link peak" },
	/* show is the command, the first word only */
	{ "counters \"\"", "show dev counters nonzero" },
	{ "counters dev lo \"\"", "counters nonzero" },
	/* each tool's own modes (cmd_llm.c) */
	{ "bench vllm mode \"\"", "serve throughput" },
	{ "bench sglang mode \"\"", "serve offline" },
	{ "tune show profile \"\"", "throughput latency" },
	/* nccl env, and check's keywords */
	{ "nccl \"\"", "env help" },
	{ "nccl env \"\"", "peer peer-file format" },
	{ "nccl env format \"\"", "export mpirun" },
	{ "check \"\"", "peer gid-index nccl-bytes peer-file probe" },
	{ "check probe \"\"", "bw none" },
};

START_TEST(test_completion)
{
	char cmd[512], want[256], *out;

	snprintf(cmd, sizeof(cmd), "bash -c 'source ../../user/completion/sparkperf-ctl && "
		 "COMP_WORDS=(" CLI " %s) && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && "
		 "_sparkperf_ctl && echo \"${COMPREPLY[*]}\"'", completions[_i].words);
	snprintf(want, sizeof(want), "%s\n", completions[_i].offers);
	out = shell_out(cmd);
	ck_assert_str_eq(out, want);
	free(out);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("lat");

	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);	/* valgrind */
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_json_sweep);
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_failed);
	tcase_add_test(tc, test_sigint);
	tcase_add_test(tc, test_no_progress_group);
	tcase_add_test(tc, test_lat_show);
	suite_add_tcase(s, tc);

	tc = tcase_create("bw");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_bw_text);
	tcase_add_test(tc, test_bw_json_sweep);
	tcase_add_test(tc, test_bw_json_two);
	tcase_add_test(tc, test_bw_failed);
	tcase_add_test(tc, test_bw_sigint);
	tcase_add_test(tc, test_bw_polled);
	tcase_add_test(tc, test_bw_show_stop);
	suite_add_tcase(s, tc);

	tc = tcase_create("server");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_server_json);
	suite_add_tcase(s, tc);

	tc = tcase_create("trace");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_counters_text);
	tcase_add_test(tc, test_counters_json);
	tcase_add_loop_test(tc, test_trace_periods, 0,
			    (int)(sizeof(period_cases) / sizeof(period_cases[0])));
	tcase_add_test(tc, test_trace_record_text);
	tcase_add_test(tc, test_trace_record_output);
	tcase_add_test(tc, test_trace_record_lost);
	tcase_add_test(tc, test_trace_record_sigint);
	tcase_add_test(tc, test_trace_show_stop);
	tcase_add_test(tc, test_watch_lines);
	tcase_add_test(tc, test_lat_trace_on);
	suite_add_tcase(s, tc);

	tc = tcase_create("invocations");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_invocation, 0, ARRAY_SIZE(invocations));
	tcase_add_loop_test(tc, test_json_vocabulary, 0, ARRAY_SIZE(json_docs));
	tcase_add_test(tc, test_nccl_env_text);
	tcase_add_test(tc, test_nccl_env_json);
	tcase_add_test(tc, test_nccl_env_ssh);
	suite_add_tcase(s, tc);

	tc = tcase_create("docs");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_man);
	tcase_add_loop_test(tc, test_completion, 0, ARRAY_SIZE(completions));
	suite_add_tcase(s, tc);

	tc = tcase_create("bench");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 300);	/* every fixture, under valgrind too */
	tcase_add_test(tc, test_bench_parse_fixtures);
	tcase_add_test(tc, test_bench_parse_text);
	tcase_add_test(tc, test_bench_dry_run);
	tcase_add_test(tc, test_bench_steps);
	tcase_add_test(tc, test_bench_failed_step);
	tcase_add_test(tc, test_bench_trace_kernel);
	tcase_add_test(tc, test_bench_trace_fallback);
	tcase_add_test(tc, test_bench_trace_dry_run);
	tcase_add_test(tc, test_bench_trace_sigint);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
