// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark output parsers (user/bench/parse_*.c) on every benchmark output
 * of tests/fixtures/: the numbers asserted are the ones the files hold,
 * failures and verdicts included. The LLM results have no captured fixture:
 * their inputs here are written from the key lists of the tools' sources
 * (vLLM serve.py and throughput.py, SGLang bench_serving.py and
 * bench_offline_throughput.py, TensorRT-LLM's report, llama-bench's README).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchparse.h"
#include "bench/parseutil.h"
#include "testutil.h"

#define FIXTURES "../fixtures"
#define TOL 1e-9

static char *load(const char *name)
{
	char path[512], *buf;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* ---- perftest ---------------------------------------------------------------- */

static void perftest(const char *name, enum sp_perftest_unit json_unit, struct sp_perftest *p,
		     int *exit_status)
{
	char *text = load(name);

	ck_assert_int_eq(sp_perftest_parse(text, json_unit, p), 0);
	*exit_status = sp_bench_exit_trailer(text);
	free(text);
}

/* The verdict of p, as its problem codes. */
static void pt_judged(const struct sp_perftest *p, int exit_status, enum sp_bench_level level,
		      const char *want)
{
	struct sp_bench_verdict v = { 0 };

	ck_assert_int_eq(sp_perftest_judge(p, exit_status, &v), 0);
	ck_assert_str_eq(bench_codes(&v), want);
	ck_assert_int_eq(v.level, level);
	sp_bench_verdict_free(&v);
}

/* BW row i, every column as printed. */
static void bw_row(const struct sp_perftest *p, size_t i, uint64_t bytes, uint64_t iters,
		   double peak, double average, double mpps)
{
	ck_assert_uint_lt(i, p->n_bw);
	ck_assert_uint_eq(p->bw[i].bytes, bytes);
	ck_assert_uint_eq(p->bw[i].iterations, iters);
	ck_assert_double_eq_tol(p->bw[i].peak, peak, TOL);
	ck_assert_double_eq_tol(p->bw[i].average, average, TOL);
	ck_assert_double_eq_tol(p->bw[i].msg_rate_mpps, mpps, TOL);
}

/* The one latency row, every column as printed (usec). */
static void lat_row(const struct sp_perftest *p, uint64_t bytes, uint64_t iters, double min,
		    double max, double typical, double avg, double stdev, double p99, double p999)
{
	ck_assert_uint_eq(p->n_lat, 1);
	ck_assert(p->lat[0].full);
	ck_assert_uint_eq(p->lat[0].bytes, bytes);
	ck_assert_uint_eq(p->lat[0].iterations, iters);
	ck_assert_double_eq_tol(p->lat[0].t_min_us, min, TOL);
	ck_assert_double_eq_tol(p->lat[0].t_max_us, max, TOL);
	ck_assert_double_eq_tol(p->lat[0].t_typical_us, typical, TOL);
	ck_assert_double_eq_tol(p->lat[0].t_avg_us, avg, TOL);
	ck_assert_double_eq_tol(p->lat[0].t_stdev_us, stdev, TOL);
	ck_assert_double_eq_tol(p->lat[0].p99_us, p99, TOL);
	ck_assert_double_eq_tol(p->lat[0].p99_9_us, p999, TOL);
}

START_TEST(test_perftest_mb_sec_is_mib)
{
	struct sp_perftest p;
	int ex;

	/* perftest 4.5 labels MiB/s "MB/sec": 0.000877 Mpps x 64 KiB = 54.8 MiB/s */
	perftest("perftest/ib_write_bw_W.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, 0);
	ck_assert_str_eq(p.test, "RDMA_Write BW Test");
	ck_assert_str_eq(p.device, "rxe0");
	ck_assert_uint_eq(p.qps, 1);
	ck_assert_uint_eq(p.mtu, 1024);
	ck_assert_str_eq(p.link_type, "Ethernet");
	ck_assert_int_eq(p.kind, SP_PERFTEST_BW);
	ck_assert_int_eq(p.unit, SP_PERFTEST_UNIT_MIB);
	ck_assert_uint_eq(p.n_bw, 1);
	bw_row(&p, 0, 65536, 2000, 55.30, 54.84, 0.000877);
	ck_assert_double_eq_tol(sp_perftest_gbit_per_s(p.unit, p.bw[0].average),
				54.84 * 1048576 * 8 / 1e9, TOL);
	ck_assert_double_eq_tol(p.bw[0].msg_rate_mpps * 1e6 * 65536 / 1048576, 54.81, 0.01);
	/* -W: the counters perftest read itself */
	ck_assert_uint_eq(p.n_counters, 2);
	ck_assert_str_eq(p.counters[0].name, "hw_counters/sent_pkts");
	ck_assert_uint_eq(p.counters[0].delta, 132132);
	ck_assert_str_eq(p.counters[1].name, "hw_counters/rcvd_pkts");
	ck_assert_uint_eq(p.counters[1].delta, 132132);
	ck_assert_uint_eq(p.errors.n, 0);
	pt_judged(&p, ex, SP_BENCH_OK, "");
	sp_perftest_free(&p);

	perftest("perftest/ib_send_bw.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_str_eq(p.test, "Send BW Test");
	ck_assert_int_eq(p.unit, SP_PERFTEST_UNIT_MIB);
	bw_row(&p, 0, 65536, 2000, 54.11, 50.44, 0.000807);
	sp_perftest_free(&p);
}
END_TEST

START_TEST(test_perftest_gbits)
{
	struct sp_perftest p;
	uint64_t bytes;
	double avg;
	int ex;

	perftest("perftest/ib_write_bw_gbits.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, 0);
	ck_assert_int_eq(p.unit, SP_PERFTEST_UNIT_GBIT);
	ck_assert(!p.server_side);
	bw_row(&p, 0, 65536, 1600, 0.00, 0.42, 0.000799);
	ck_assert(sp_perftest_bw_average(&p, &bytes, &avg));
	ck_assert_uint_eq(bytes, 65536);
	ck_assert_double_eq_tol(sp_perftest_gbit_per_s(p.unit, avg), 0.42, TOL);
	sp_perftest_free(&p);

	/* the server of that run prints the client's result */
	perftest("perftest/ib_write_bw_gbits.server.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, SP_BENCH_EXIT_UNKNOWN);
	ck_assert(p.server_side);
	bw_row(&p, 0, 65536, 1600, 0.00, 0.42, 0.000799);
	pt_judged(&p, ex, SP_BENCH_OK, "");
	sp_perftest_free(&p);

	perftest("perftest/ib_write_bw_json.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	bw_row(&p, 0, 65536, 2000, 0.46, 0.42, 0.000806);
	sp_perftest_free(&p);

	perftest("perftest/ib_write_bw_q4.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_uint_eq(p.qps, 4);
	bw_row(&p, 0, 65536, 8000, 0.42, 0.40, 0.000768);
	sp_perftest_free(&p);

	perftest("perftest/perftest_ib_write_bw_postlist_gbits_issue273.txt",
		 SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_str_eq(p.test, "RDMA_Write Post List BW Test");
	ck_assert_str_eq(p.device, "ib0");
	ck_assert_uint_eq(p.mtu, 4096);
	bw_row(&p, 0, 8, 224958464, 0.00, 0.48, 7.498617);
	sp_perftest_free(&p);
}
END_TEST

/* perftest 4.5's --out_json: unquoted keys and values, trailing commas; no unit. */
START_TEST(test_perftest_not_quite_json)
{
	struct sp_perftest p;
	int ex;

	perftest("perftest/ib_write_bw.json", SP_PERFTEST_UNIT_GBIT, &p, &ex);
	ck_assert(p.json);
	ck_assert_str_eq(p.test, "RDMA_Write_BW_Test");
	ck_assert_str_eq(p.device, "rxe0");
	ck_assert_uint_eq(p.qps, 1);
	ck_assert_uint_eq(p.mtu, 1024);
	ck_assert_str_eq(p.link_type, "Ethernet");
	ck_assert_int_eq(p.kind, SP_PERFTEST_BW);
	ck_assert_int_eq(p.unit, SP_PERFTEST_UNIT_GBIT);
	ck_assert_uint_eq(p.n_bw, 1);
	bw_row(&p, 0, 65536, 2000, 0.46, 0.42, 0.000806);
	pt_judged(&p, ex, SP_BENCH_OK, "");
	sp_perftest_free(&p);

	perftest("perftest/ib_write_bw.json", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert(isnan(sp_perftest_gbit_per_s(p.unit, p.bw[0].average)));
	pt_judged(&p, ex, SP_BENCH_WARN, "unit_unknown");
	sp_perftest_free(&p);

	/* a newer perftest quotes what 4.5 does not */
	ck_assert_int_eq(sp_perftest_parse("{\n\"test_info\": {\n\"test\": \"RDMA_Write_Latency_Test\",\n"
					   "\"Device\": \"rocep1s0f1\",\n},\n\"results\": {\n"
					   "\"MsgSize\": 2,\n\"n_iterations\": 1000,\n"
					   "\"t_min\": 1.42,\n\"t_max\": 1.93,\n\"t_typical\": 1.47,\n"
					   "\"t_avg\": 1.47,\n\"t_stdev\": 0.00,\n"
					   "\"percentile_99\": 1.57,\n\"percentile_99.9\": 1.93\n}\n}\n",
					   SP_PERFTEST_UNIT_UNKNOWN, &p), 0);
	ck_assert_int_eq(p.kind, SP_PERFTEST_LAT);
	ck_assert_str_eq(p.device, "rocep1s0f1");
	lat_row(&p, 2, 1000, 1.42, 1.93, 1.47, 1.47, 0.00, 1.57, 1.93);
	sp_perftest_free(&p);
}
END_TEST

START_TEST(test_perftest_latency)
{
	struct sp_perftest p;
	int ex;

	perftest("perftest/ib_write_lat.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, 0);
	ck_assert_str_eq(p.test, "RDMA_Write Latency Test");
	ck_assert_int_eq(p.kind, SP_PERFTEST_LAT);
	lat_row(&p, 2, 1000, 11.71, 9979.38, 1998.39, 1813.09, 1417.33, 6408.35, 9979.38);
	ck_assert(sp_perftest_lat_one_way(&p));
	pt_judged(&p, ex, SP_BENCH_OK, "");
	sp_perftest_free(&p);

	perftest("perftest/ib_write_lat.server.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert(p.server_side);
	lat_row(&p, 2, 1000, 11.84, 10265.82, 1997.24, 1817.06, 1461.76, 6758.67, 10265.82);
	sp_perftest_free(&p);

	/* read: the whole round trip; a warning before the banner */
	perftest("perftest/ib_read_lat.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_str_eq(p.test, "RDMA_Read Latency Test");
	ck_assert(!sp_perftest_lat_one_way(&p));
	lat_row(&p, 2, 1000, 27.38, 330.55, 27.86, 31.87, 19.23, 117.47, 330.55);
	ck_assert_uint_eq(p.warnings.n, 1);
	ck_assert_str_eq(p.warnings.v[0],
			 "Device not recognized to implement inline feature. Disabling it");
	pt_judged(&p, ex, SP_BENCH_OK, "");
	sp_perftest_free(&p);

	perftest("perftest/ib_send_lat.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_str_eq(p.test, "Send Latency Test");
	ck_assert(sp_perftest_lat_one_way(&p));
	lat_row(&p, 2, 1000, 12.33, 314.44, 13.04, 14.88, 13.91, 72.05, 314.44);
	sp_perftest_free(&p);

	perftest("perftest/perftest_ib_write_lat_rdmacm_dgxspark_eugr.txt",
		 SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_str_eq(p.device, "rocep1s0f1");
	ck_assert_str_eq(p.link_type, "IB");
	lat_row(&p, 2, 1000, 1.42, 1.93, 1.47, 1.47, 0.00, 1.57, 1.93);
	sp_perftest_free(&p);

	/* duration mode: average and transactions per second only */
	ck_assert_int_eq(sp_perftest_parse(" #bytes        #iterations       t_avg[usec]    tps average\n"
					   " 2             1000000           1.47           678000.5\n",
					   SP_PERFTEST_UNIT_UNKNOWN, &p), 0);
	ck_assert_uint_eq(p.n_lat, 1);
	ck_assert(!p.lat[0].full);
	ck_assert_double_eq_tol(p.lat[0].t_avg_us, 1.47, TOL);
	ck_assert_double_eq_tol(p.lat[0].tps, 678000.5, TOL);
	sp_perftest_free(&p);
}
END_TEST

/* The DGX Spark guide: --run_infinitely lines, one per interval, on both halves. */
START_TEST(test_perftest_run_infinitely)
{
	struct sp_perftest a, b;
	uint64_t bytes;
	double avg_a, avg_b;
	int ex;

	perftest("perftest/perftest_ib_write_bw_run_infinitely_dgxspark_guide_client1.txt",
		 SP_PERFTEST_UNIT_UNKNOWN, &a, &ex);
	ck_assert_str_eq(a.device, "rocep1s0f0");
	ck_assert_int_eq(a.unit, SP_PERFTEST_UNIT_GBIT);
	ck_assert_uint_eq(a.n_bw, 5);
	bw_row(&a, 0, 65536, 882805, 0.00, 92.57, 0.176554);
	bw_row(&a, 3, 65536, 882791, 0.00, 92.56, 0.176552);
	ck_assert_uint_eq(a.warnings.n, 1);
	ck_assert_str_eq(a.warnings.v[0], "WARNING: BW peak won't be measured in this run.");
	ck_assert(sp_perftest_bw_average(&a, &bytes, &avg_a));
	ck_assert_uint_eq(bytes, 65536);
	ck_assert_double_eq_tol(avg_a, (92.57 * 4 + 92.56) / 5, TOL);
	pt_judged(&a, ex, SP_BENCH_OK, "");

	perftest("perftest/perftest_ib_write_bw_run_infinitely_dgxspark_guide_client2.txt",
		 SP_PERFTEST_UNIT_UNKNOWN, &b, &ex);
	ck_assert_str_eq(b.device, "roceP2p1s0f0");
	ck_assert_uint_eq(b.n_bw, 6);
	bw_row(&b, 4, 65536, 927804, 0.00, 97.29, 0.185557);
	ck_assert(sp_perftest_bw_average(&b, &bytes, &avg_b));
	ck_assert_double_eq_tol(avg_b, (97.28 * 5 + 97.29) / 6, TOL);
	/* the guide: "Total throughput = 92.57 + 97.28 = 189.85 Gbps" */
	ck_assert_double_eq_tol(avg_a + avg_b, 189.85, 0.01);
	sp_perftest_free(&a);
	sp_perftest_free(&b);
}
END_TEST

START_TEST(test_perftest_interleaved_warnings)
{
	struct sp_perftest p;
	uint64_t bytes;
	double avg;
	int ex;

	/* rows without their header (an excerpt): BW by their width, unit unknown */
	perftest("perftest/perftest_cpufreq_warning_interleaved_excerpt.txt",
		 SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(p.kind, SP_PERFTEST_BW);
	ck_assert_int_eq(p.unit, SP_PERFTEST_UNIT_UNKNOWN);
	ck_assert_uint_eq(p.n_bw, 3);
	bw_row(&p, 0, 524288, 5000, 23300.41, 23300.33, 0.046601);
	bw_row(&p, 1, 1048576, 5000, 23296.58, 23296.34, 0.023296);
	bw_row(&p, 2, 2097152, 5000, 23328.86, 23324.61, 0.011662);
	ck_assert_uint_eq(p.warnings.n, 2);
	ck_assert_str_eq(p.warnings.v[1], "Conflicting CPU frequency values detected: "
			 "3393.692000 != 1500.000000. CPU Frequency is not max.");
	ck_assert(sp_perftest_bw_average(&p, &bytes, &avg));
	ck_assert_uint_eq(bytes, 2097152);
	ck_assert_double_eq_tol(avg, 23324.61, TOL);
	pt_judged(&p, ex, SP_BENCH_WARN, "unit_unknown cpu_frequency");
	sp_perftest_free(&p);
}
END_TEST

START_TEST(test_perftest_failures)
{
	struct sp_perftest p;
	int ex;

	perftest("perftest/err_nodev.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, 1);
	ck_assert_uint_eq(p.errors.n, 2);
	ck_assert_str_eq(p.errors.v[0], "IB device rxe9 not found");
	ck_assert_str_eq(p.errors.v[1], "Unable to find the Infiniband/RoCE device");
	pt_judged(&p, ex, SP_BENCH_FAIL, "exit_status no_result");
	sp_perftest_free(&p);

	perftest("perftest/err_noserver.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, 1);
	ck_assert_str_eq(p.errors.v[0], "Couldn't connect to 10.0.2.99:18515");
	ck_assert_uint_eq(p.errors.n, 2);
	pt_judged(&p, ex, SP_BENCH_FAIL, "exit_status no_result");
	sp_perftest_free(&p);

	perftest("perftest/perftest_4.5-0.17_bad_option.txt", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, 1);
	ck_assert_uint_eq(p.errors.n, 2);
	ck_assert_str_eq(p.errors.v[0], "ib_write_bw: unrecognized option '--bogus'");
	ck_assert_str_eq(p.errors.v[1], "Invalid Command or flag.");
	ck_assert_uint_eq(p.n_bw + p.n_lat, 0);
	sp_perftest_free(&p);

	/* stderr alone, no exit status: the error lines fail it */
	perftest("perftest/perftest_4.5-0.17_no_device.stderr", SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert_int_eq(ex, SP_BENCH_EXIT_UNKNOWN);
	ck_assert_str_eq(p.errors.v[0], "Did not detect devices");
	pt_judged(&p, ex, SP_BENCH_FAIL, "error_output no_result");
	sp_perftest_free(&p);

	/* a server's banner and header, then nothing (the text ends there) */
	perftest("perftest/perftest_ib_write_bw_server_banner_issue234_partial.txt",
		 SP_PERFTEST_UNIT_UNKNOWN, &p, &ex);
	ck_assert(p.server_side);
	ck_assert_str_eq(p.device, "mlx5_0");
	ck_assert_uint_eq(p.mtu, 4096);
	ck_assert_int_eq(p.unit, SP_PERFTEST_UNIT_MIB);
	ck_assert_uint_eq(p.n_bw, 0);
	pt_judged(&p, ex, SP_BENCH_FAIL, "no_result");
	sp_perftest_free(&p);
}
END_TEST

START_TEST(test_perftest_units)
{
	/* perftest's help: Factor=10^9/(2^20*8)=119.2; Gb=MiB_result / factor */
	ck_assert_double_eq_tol(sp_perftest_gbit_per_s(SP_PERFTEST_UNIT_MIB, 1e9 / 1048576 / 8),
				1.0, 1e-12);
	ck_assert_double_eq_tol(sp_perftest_gbit_per_s(SP_PERFTEST_UNIT_GBIT, 97.28), 97.28, TOL);
	ck_assert(isnan(sp_perftest_gbit_per_s(SP_PERFTEST_UNIT_UNKNOWN, 1)));
	ck_assert_str_eq(sp_perftest_unit_str(SP_PERFTEST_UNIT_MIB), "MiB/s");
	ck_assert_str_eq(sp_perftest_unit_str(SP_PERFTEST_UNIT_GBIT), "Gbit/s");
}
END_TEST

/* ---- iperf3 ----------------------------------------------------------------------- */

static void iperf3(const char *name, struct sp_iperf3 *r)
{
	char *text = load(name);

	ck_assert_int_eq(sp_iperf3_parse(text, r), 0);
	free(text);
}

static void ip_judged(const struct sp_iperf3 *r, int exit_status, const char *want)
{
	struct sp_bench_verdict v = { 0 };

	ck_assert_int_eq(sp_iperf3_judge(r, exit_status, &v), 0);
	ck_assert_str_eq(bench_codes(&v), want);
	if (v.n)
		ck_assert_int_eq(v.level, SP_BENCH_FAIL);
	sp_bench_verdict_free(&v);
}

START_TEST(test_iperf3_json)
{
	struct sp_iperf3 r;
	double gbps;

	/* iperf 3.12 writes sock_bufsize and friends twice: duplicate keys */
	iperf3("iperf3/iperf3_3.12_loopback_P2_t2.json", &r);
	ck_assert(r.json);
	ck_assert_str_eq(r.version, "iperf 3.12");
	ck_assert_ptr_null(r.error);
	ck_assert_uint_eq(r.num_streams, 2);
	ck_assert_double_eq_tol(r.duration_s, 2, TOL);
	ck_assert_uint_eq(r.n_streams, 2);
	ck_assert_int_eq(r.streams[0].socket, 5);
	ck_assert_uint_eq(r.streams[0].sender.bytes, 1460142080);
	ck_assert_double_eq_tol(r.streams[0].sender.bits_per_second, 5839777030.2124062, 1e-3);
	ck_assert_uint_eq(r.streams[0].sender.retransmits, 4);
	ck_assert_double_eq_tol(r.streams[1].receiver.bits_per_second, 5864323774.13232, 1e-3);
	ck_assert_uint_eq(r.sum_sent.bytes, 2934702080);
	ck_assert_double_eq_tol(r.sum_sent.bits_per_second, 11737217926.970894, 1e-3);
	ck_assert_uint_eq(r.sum_sent.retransmits, 10);
	ck_assert_uint_eq(r.sum_received.bytes, 2919759872);
	ck_assert_double_eq_tol(r.sum_received.seconds, 2.000481, TOL);
	ck_assert(r.has_cpu);
	ck_assert_double_eq_tol(r.cpu_host_percent, 16.942230832755488, TOL);
	ck_assert_double_eq_tol(r.cpu_remote_percent, 62.405862069999728, TOL);
	ck_assert_str_eq(r.congestion, "bbr");
	ck_assert(sp_iperf3_gbit_per_s(&r, &gbps));
	ck_assert_double_eq_tol(gbps, 11.676231354359276, 1e-12);
	ip_judged(&r, 0, "");
	sp_iperf3_free(&r);

	iperf3("iperf3/iperf3_P2.json", &r);
	ck_assert_double_eq_tol(r.sum_received.bits_per_second, 1264796014.5442219, 1e-3);
	ck_assert_uint_eq(r.sum_sent.retransmits, 0);
	ck_assert_double_eq_tol(r.cpu_host_percent, 99.284758938444, TOL);
	ck_assert_str_eq(r.congestion, "cubic");
	sp_iperf3_free(&r);
}
END_TEST

START_TEST(test_iperf3_error_exit_0)
{
	struct sp_iperf3 r;
	struct sp_bench_verdict v = { 0 };

	/* captured with exit status 0 and nothing on stderr */
	iperf3("iperf3/iperf3_3.12_connrefused.json", &r);
	ck_assert_str_eq(r.error, "unable to connect to server: Connection refused");
	ck_assert(!r.sum_sent.has && !r.sum_received.has);
	ck_assert_int_eq(sp_iperf3_judge(&r, 0, &v), 0);
	ck_assert_str_eq(bench_codes(&v), "iperf3_error");
	ck_assert_str_eq(v.problems[0].message, "unable to connect to server: Connection refused "
			 "(although iperf3 exited 0)");
	sp_bench_verdict_free(&v);
	sp_iperf3_free(&r);

	iperf3("iperf3/iperf3_3.12_connrefused.txt", &r);
	ck_assert(!r.json);
	ck_assert_str_eq(r.error, "unable to connect to server: Connection refused");
	ip_judged(&r, 1, "exit_status");
	sp_iperf3_free(&r);

	iperf3("iperf3/iperf3_3.12_connrefused_json.stderr", &r);
	ip_judged(&r, SP_BENCH_EXIT_UNKNOWN, "no_result");
	sp_iperf3_free(&r);

	ck_assert_int_eq(sp_iperf3_parse("{\"start\": {\"version\": \"iperf 3.12\"", &r), 0);
	ck_assert_str_eq(r.error, "the output is not a JSON document");
	sp_iperf3_free(&r);
}
END_TEST

START_TEST(test_iperf3_text)
{
	struct sp_iperf3 r;

	iperf3("iperf3/iperf3_3.12_loopback_P2_t2.txt", &r);
	ck_assert(!r.json);
	ck_assert_uint_eq(r.n_streams, 2);
	ck_assert_int_eq(r.streams[0].socket, 5);
	ck_assert_double_eq_tol(r.streams[0].sender.bits_per_second, 5.65e9, 1);
	ck_assert_uint_eq(r.streams[0].sender.retransmits, 18);
	ck_assert_double_eq_tol(r.streams[1].receiver.bits_per_second, 5.41e9, 1);
	ck_assert_double_eq_tol(r.sum_sent.bits_per_second, 11.1e9, 1);
	ck_assert_uint_eq(r.sum_sent.retransmits, 34);
	ck_assert(!r.sum_received.has_retransmits);
	/* "2.58 GBytes": iperf3's bytes are powers of 1024 */
	ck_assert_uint_eq(r.sum_received.bytes, (uint64_t)(2.58 * 1073741824.0));
	ck_assert_double_eq_tol(r.sum_received.seconds, 2.0, TOL);
	ip_judged(&r, 0, "");
	sp_iperf3_free(&r);

	iperf3("iperf3/iperf3_3.12_server_P2_t2.txt", &r);
	ck_assert(r.server_side);
	ck_assert(!r.sum_sent.has);
	ck_assert_double_eq_tol(r.sum_received.bits_per_second, 11.7e9, 1);
	ck_assert_int_eq(r.streams[1].socket, 8);
	ck_assert_double_eq_tol(r.streams[1].receiver.bits_per_second, 5.86e9, 1);
	sp_iperf3_free(&r);

	/* one stream: no [SUM] lines */
	iperf3("iperf3/iperf3_plain.txt", &r);
	ck_assert_uint_eq(r.n_streams, 1);
	ck_assert_double_eq_tol(r.sum_sent.bits_per_second, 1.29e9, 1);
	ck_assert_uint_eq(r.sum_sent.retransmits, 0);
	ck_assert_double_eq_tol(r.sum_received.seconds, 2.01, TOL);
	ck_assert_uint_eq(r.sum_received.bytes, 309 * 1048576);
	sp_iperf3_free(&r);
}
END_TEST

/* ---- nccl-tests and mpirun ----------------------------------------------------------- */

static void nccl(const char *name, struct sp_nccl *n, int *exit_status)
{
	char *text = load(name);

	ck_assert_int_eq(sp_nccl_parse(text, n), 0);
	*exit_status = sp_bench_exit_trailer(text);
	free(text);
}

/* The problem codes of n's verdict with hosts and min as given; its level. */
static enum sp_bench_level nc_judged(const struct sp_nccl *n, int exit_status, size_t hosts,
				     double min, const char *want)
{
	struct sp_bench_verdict v = { 0 };
	enum sp_bench_level level;

	ck_assert_int_eq(sp_nccl_judge(n, exit_status, hosts, min, &v), 0);
	ck_assert_str_eq(bench_codes(&v), want);
	level = v.level;
	sp_bench_verdict_free(&v);
	return level;
}

static void half(const struct sp_nccl_half *h, double time, double alg, double bus,
		 bool has_wrong, double wrong)
{
	ck_assert(h->has);
	ck_assert_double_eq_tol(h->time_us, time, TOL);
	ck_assert_double_eq_tol(h->algbw_gb_per_s, alg, TOL);
	ck_assert_double_eq_tol(h->busbw_gb_per_s, bus, TOL);
	ck_assert_int_eq(h->has_wrong, has_wrong);
	if (has_wrong)
		ck_assert_double_eq_tol(h->wrong, wrong, TOL);
}

START_TEST(test_nccl_sendrecv_h200)
{
	struct sp_nccl_summary s;
	struct sp_nccl n;
	int ex;

	nccl("nccl-tests/sendrecv_perf_h200x2.txt", &n, &ex);
	ck_assert(!n.json);
	ck_assert_str_eq(n.version, "2.19.6");
	ck_assert_uint_eq(n.nccl_version, 22809);
	ck_assert_str_eq(n.collective, "sendrecv_perf");
	ck_assert_uint_eq(n.nthreads, 1);
	ck_assert_uint_eq(n.ngpus, 2);
	ck_assert_str_eq(n.json_file, "sendrecv_perf_h200x2.json");
	ck_assert_uint_eq(n.n_devs, 2);
	ck_assert_int_eq(n.devs[1].rank, 1);
	ck_assert_str_eq(n.devs[1].host, "vm");
	ck_assert_int_eq(n.devs[1].device, 1);
	ck_assert_str_eq(n.devs[1].bus, "0000:00:07");
	ck_assert_str_eq(n.devs[1].name, "NVIDIA H200");
	ck_assert_uint_eq(n.n_rows, 8);
	ck_assert_uint_eq(n.rows[0].size_bytes, 8388608);
	ck_assert_uint_eq(n.rows[0].count, 2097152);
	ck_assert_str_eq(n.rows[0].type, "float");
	ck_assert_str_eq(n.rows[0].redop, "sum");
	ck_assert(n.rows[0].has_root);
	ck_assert_int_eq(n.rows[0].root, -1);
	half(&n.rows[0].out_of_place, 50.75, 165.28, 165.28, true, 0);
	/* sendrecv does not validate in place: N/A */
	half(&n.rows[0].in_place, 50.77, 165.23, 165.23, false, 0);
	half(&n.rows[7].out_of_place, 2974.61, 360.97, 360.97, true, 0);
	half(&n.rows[7].in_place, 2985.08, 359.70, 359.70, false, 0);
	ck_assert(n.has_out_of_bounds);
	ck_assert_uint_eq(n.out_of_bounds, 0);
	ck_assert(n.out_of_bounds_ok);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 273.875, TOL);
	ck_assert_int_eq(n.avg_busbw_check, 0);
	sp_nccl_summarize(&n, &s);
	ck_assert(s.valid);
	ck_assert_uint_eq(s.size_bytes, 1073741824);
	ck_assert_double_eq_tol(s.busbw_gb_per_s, (360.97 + 359.70) / 2, TOL);
	ck_assert_double_eq_tol(s.per_direction_gbit_per_s, (360.97 + 359.70) * 4, TOL);
	ck_assert_double_eq_tol(s.peak_busbw_gb_per_s, 360.97, TOL);
	ck_assert_uint_eq(s.ranks, 2);
	ck_assert_uint_eq(s.hosts, 1);
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, ""), SP_BENCH_OK);
	sp_nccl_free(&n);
}
END_TEST

/* -J: more digits; booleans and the root as strings; nwrong null; env not read. */
START_TEST(test_nccl_json)
{
	struct sp_nccl n, text;
	int ex;

	nccl("nccl-tests/sendrecv_perf_h200x2.json", &n, &ex);
	ck_assert(n.json);
	ck_assert_int_eq(n.json_version, 3);
	ck_assert_uint_eq(n.nccl_version, 22809);
	ck_assert_str_eq(n.collective, "sendrecv_perf");
	ck_assert_uint_eq(n.ngpus, 2);
	ck_assert_uint_eq(n.n_devs, 1);
	ck_assert_str_eq(n.devs[0].bus, "0000:00:06");
	ck_assert_uint_eq(n.n_rows, 8);
	ck_assert_int_eq(n.rows[0].root, -1);
	half(&n.rows[0].out_of_place, 50.753, 165.282998, 165.282998, true, 0);
	half(&n.rows[0].in_place, 50.7679, 165.234489, 165.234489, false, 0);
	half(&n.rows[7].out_of_place, 2974.6083, 360.969148, 360.969148, true, 0);
	ck_assert(n.out_of_bounds_ok);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 273.87459, TOL);
	ck_assert_uint_eq(n.n_sigs, 0);	/* "errors": [""] */
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, ""), SP_BENCH_OK);

	/* a run's stdout and its -J file: the file's numbers, the text's transport */
	nccl("nccl-tests/sendrecv_perf_h200x2_nccl_debug_init_net.txt", &text, &ex);
	sp_nccl_free(&n);
	nccl("nccl-tests/sendrecv_perf_h200x2_nccl_debug_init_net.json", &n, &ex);
	half(&text.rows[4].out_of_place, 11781.6, 364.55, 364.55, true, 0);
	sp_nccl_take_json_numbers(&text, &n);
	ck_assert(text.json);
	ck_assert_uint_eq(n.n_rows, 0);
	ck_assert_uint_eq(text.n_rows, 5);
	ck_assert_uint_eq(text.rows[4].size_bytes, 4294967296ULL);
	half(&text.rows[4].out_of_place, 11781.635033, 364.547644, 364.547644, true, 0);
	half(&text.rows[4].in_place, 11767.8106, 364.975903, 364.975903, false, 0);
	ck_assert_double_eq_tol(text.avg_busbw_gb_per_s, 348.888694, TOL);
	ck_assert_str_eq(text.network, "Socket");
	ck_assert(text.ib_no_device);
	ck_assert_uint_eq(text.n_devs, 2);
	ck_assert_int_eq(nc_judged(&text, 0, 0, 0, ""), SP_BENCH_OK);
	sp_nccl_free(&text);
	sp_nccl_free(&n);

	/* a file cut short (a crash, or nccl-tests before 2.18.5) */
	ck_assert_int_eq(sp_nccl_parse("{\"version\":3,\"results\":[{\"size\":8", &n), 0);
	ck_assert_uint_eq(n.n_rows, 0);
	ck_assert_int_eq(nc_judged(&n, 0, 0, 0, "truncated_json no_result"), SP_BENCH_FAIL);
	sp_nccl_free(&n);
}
END_TEST

/* The 2x H200 run of the bench branch: 256M..4G, text and -J of each. */
START_TEST(test_nccl_h200_256m_4g)
{
	struct sp_nccl_summary s;
	struct sp_nccl n;
	int ex;

	nccl("nccl-tests/sendrecv_perf_h200x2_256M_4G.txt", &n, &ex);
	ck_assert_int_eq(ex, 0);
	ck_assert_uint_eq(n.n_rows, 5);
	ck_assert_uint_eq(n.rows[0].size_bytes, 268435456);
	half(&n.rows[0].out_of_place, 881.08, 304.67, 304.67, true, 0);
	/* past 10000 us the time loses its decimals: "11768.8" */
	half(&n.rows[4].out_of_place, 11768.8, 364.95, 364.95, true, 0);
	half(&n.rows[4].in_place, 11774.8, 364.76, 364.76, false, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 349.468, TOL);
	sp_nccl_summarize(&n, &s);
	ck_assert_uint_eq(s.size_bytes, 4294967296ULL);
	ck_assert_double_eq_tol(s.busbw_gb_per_s, (364.95 + 364.76) / 2, TOL);
	ck_assert_double_eq_tol(s.per_direction_gbit_per_s, (364.95 + 364.76) * 4, TOL);
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, ""), SP_BENCH_OK);
	sp_nccl_free(&n);

	nccl("nccl-tests/sendrecv_perf_h200x2_256M_4G.json", &n, &ex);
	half(&n.rows[4].out_of_place, 11768.7577, 364.946531, 364.946531, true, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 349.467879, TOL);
	sp_nccl_free(&n);

	nccl("nccl-tests/all_reduce_perf_h200x2_256M_4G.txt", &n, &ex);
	ck_assert_str_eq(n.collective, "all_reduce_perf");
	half(&n.rows[4].out_of_place, 12469.2, 344.45, 344.45, true, 0);
	/* all_reduce validates in place too */
	half(&n.rows[4].in_place, 12445.9, 345.09, 345.09, true, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 324.793, TOL);
	sp_nccl_free(&n);

	nccl("nccl-tests/all_reduce_perf_h200x2_256M_4G.json", &n, &ex);
	half(&n.rows[4].in_place, 12445.90845, 345.090703, 345.090703, true, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 324.792649, TOL);
	sp_nccl_free(&n);

	nccl("nccl-tests/all_reduce_perf_h200x2.txt", &n, &ex);
	ck_assert_uint_eq(n.n_rows, 14);
	ck_assert_uint_eq(n.rows[0].size_bytes, 8);
	half(&n.rows[13].out_of_place, 1710.89, 313.80, 313.80, true, 0);
	half(&n.rows[13].in_place, 1698.05, 316.17, 316.17, true, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 79.5501, TOL);
	sp_nccl_free(&n);
}
END_TEST

/* Two Sparks (NVIDIA's threshold: 21.875 GB/s busbw, 175 Gbit/s). */
START_TEST(test_nccl_two_sparks)
{
	struct sp_bench_verdict v = { 0 };
	struct sp_nccl_summary s;
	struct sp_nccl n;
	int ex;

	/* the command line, the prompt and X11 noise around the table */
	nccl("nccl-tests/nccl_all_gather_dgxspark_2.18.3_ok.txt", &n, &ex);
	ck_assert_str_eq(n.version, "2.18.3");
	ck_assert_str_eq(n.collective, "all_gather_perf");
	ck_assert_uint_eq(n.ngpus, 1);
	ck_assert_uint_eq(n.n_devs, 2);
	ck_assert_str_eq(n.devs[0].host, "spark-fb97");
	ck_assert_str_eq(n.devs[1].host, "spark-4440");
	ck_assert_str_eq(n.devs[1].bus, "000f:01:00");
	ck_assert_str_eq(n.devs[1].name, "NVIDIA GB10");
	ck_assert_uint_eq(n.n_rows, 3);
	ck_assert_str_eq(n.rows[0].redop, "none");
	half(&n.rows[0].out_of_place, 27211.0, 39.46, 19.73, true, 0);
	half(&n.rows[2].out_of_place, 96986.7, 44.28, 22.14, true, 0);
	half(&n.rows[2].in_place, 95610.9, 44.92, 22.46, true, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 21.4033, TOL);
	sp_nccl_summarize(&n, &s);
	ck_assert_uint_eq(s.hosts, 2);
	ck_assert_uint_eq(s.ranks, 2);
	ck_assert_double_eq_tol(s.busbw_gb_per_s, 22.30, TOL);
	ck_assert_double_eq_tol(s.per_direction_gbit_per_s, 178.4, 1e-9);
	/* 22.30 at 4 GiB: over the two-Spark threshold, which applies by itself */
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, ""), SP_BENCH_OK);
	ck_assert_int_eq(nc_judged(&n, ex, 0, 23, "below_threshold"), SP_BENCH_WARN);
	ck_assert_int_eq(nc_judged(&n, ex, 0, -1, ""), SP_BENCH_OK);
	sp_nccl_free(&n);

	/* what a socket fallback leaves: no table here, the INFO lines */
	nccl("nccl-tests/nccl_debug_socket_fallback_excerpt.txt", &n, &ex);
	ck_assert(n.ib_no_device);
	ck_assert_str_eq(n.network, "Socket");
	ck_assert_int_eq(nc_judged(&n, ex, 2, 0, "no_result socket_fallback"), SP_BENCH_FAIL);
	/* how many hosts is not said (no device list): a warning */
	ck_assert_int_eq(sp_nccl_judge(&n, ex, 0, 0, &v), 0);
	ck_assert_str_eq(bench_codes(&v), "no_result socket_fallback");
	ck_assert_int_eq(v.problems[1].level, SP_BENCH_WARN);
	ck_assert_str_eq(v.problems[1].message, "NCCL found no IB device: traffic between hosts "
			 "goes over TCP sockets, not RDMA");
	sp_bench_verdict_free(&v);
	sp_nccl_free(&n);

	nccl("nccl-tests/nccl_debug_info_dgxspark_netib_excerpt.txt", &n, &ex);
	ck_assert(!n.ib_no_device);
	ck_assert_str_eq(n.network, "IB");
	ck_assert_str_eq(n.ib_devices, "[0]rocep1s0f1:1/RoCE [1]roceP2p1s0f1:1/RoCE [RO]; OOB "
			 "enp1s0f1np1:192.168.100.16<0>");
	sp_nccl_free(&n);

	/* INFO lines between the header and the rows, no row in the excerpt */
	nccl("nccl-tests/nccl_debug_info_dgxspark_interleaved_table_excerpt.txt", &n, &ex);
	ck_assert_uint_eq(n.n_rows, 0);
	ck_assert_str_eq(n.network, "");
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, "no_result"), SP_BENCH_FAIL);
	sp_nccl_free(&n);
}
END_TEST

START_TEST(test_nccl_debug_info_single_host)
{
	struct sp_nccl n;
	int ex;

	/* one host: NCCL found no network, and needs none (NVLink carries the data) */
	nccl("nccl-tests/sendrecv_perf_nccl_debug_info.txt", &n, &ex);
	ck_assert_uint_eq(n.n_rows, 3);
	half(&n.rows[1].out_of_place, 21.33, 98.32, 98.32, true, 0);
	half(&n.rows[2].in_place, 29.59, 141.77, 141.77, false, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 92.8972, TOL);
	ck_assert(n.ib_no_device);
	ck_assert_str_eq(n.network, "Socket");
	ck_assert_ptr_null(n.ib_devices);	/* "NET/IB : Using [RO]": none */
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, ""), SP_BENCH_OK);
	ck_assert_int_eq(nc_judged(&n, ex, 2, 0, "socket_fallback"), SP_BENCH_FAIL);
	sp_nccl_free(&n);
}
END_TEST

START_TEST(test_nccl_failures)
{
	struct sp_bench_verdict v = { 0 };
	struct sp_nccl n;
	int ex;

	nccl("nccl-tests/sendrecv_perf_too_many_gpus.txt", &n, &ex);
	ck_assert_int_eq(ex, 5);
	ck_assert_uint_eq(n.ngpus, 4);
	ck_assert_uint_eq(n.n_sigs, 2);
	ck_assert_str_eq(n.sigs[0].code, "invalid_gpus");
	ck_assert_str_eq(n.sigs[0].line, "Invalid number of GPUs: 4 requested but only 2 were found.");
	ck_assert_str_eq(n.sigs[1].line, ".. vm pid 1400: Test failure common.cu:1454");
	ck_assert_int_eq(sp_nccl_judge(&n, ex, 0, 0, &v), 0);
	ck_assert_str_eq(bench_codes(&v), "exit_status invalid_gpus test_failure no_result");
	ck_assert_str_eq(v.problems[0].message, "exited with status 5: not implemented, or too few "
			 "GPUs");
	sp_bench_verdict_free(&v);
	sp_nccl_free(&n);

	/* an unknown option: the usage, and exit status 0 */
	nccl("nccl-tests/sendrecv_perf_bad_option.txt", &n, &ex);
	ck_assert_int_eq(ex, 0);
	ck_assert(n.usage);
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, "usage no_result"), SP_BENCH_FAIL);
	sp_nccl_free(&n);

	nccl("nccl-tests/sendrecv_perf_min_over_max.txt", &n, &ex);
	ck_assert_int_eq(ex, 255);
	ck_assert_str_eq(n.sigs[0].line,
			 "invalid sizes for 'minbytes' and 'maxbytes': 4294967296 > 268435456");
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, "exit_status usage no_result"), SP_BENCH_FAIL);
	sp_nccl_free(&n);

	nccl("nccl-tests/nccl_fail_cuda_not_initialized_issue338_excerpt.txt", &n, &ex);
	ck_assert_str_eq(n.sigs[0].code, "cuda_failure");
	ck_assert_str_eq(n.sigs[0].line, "gpu: Test CUDA failure common.cu:1030 'system not yet "
			 "initialized'");
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, "cuda_failure test_failure rank_exit no_result"),
			 SP_BENCH_FAIL);
	sp_nccl_free(&n);

	nccl("nccl-tests/nccl_fail_unhandled_cuda_error_issue322_excerpt.txt", &n, &ex);
	ck_assert(n.has_rank_exit);
	ck_assert_int_eq(n.rank_exit, 3);
	ck_assert_str_eq(n.sigs[1].line, "HCA-14: Test NCCL failure common.cu:1204 'unhandled cuda "
			 "error (run with NCCL_DEBUG=INFO for details) / '");
	ck_assert_int_eq(sp_nccl_judge(&n, ex, 0, 0, &v), 0);
	ck_assert_str_eq(bench_codes(&v), "test_failure nccl_failure rank_exit no_result");
	ck_assert_str_eq(v.problems[2].message, "a rank exited with status 3 (mpirun detected that "
			 "one or more processes exited with non-zero status, thus causing)");
	sp_bench_verdict_free(&v);
	sp_nccl_free(&n);

	/* before 2022 the column was "error": a deviation, not a count; no redop, root */
	nccl("nccl-tests/nccl_old_format_error_column_issue104.txt", &n, &ex);
	ck_assert(n.old_error_column);
	ck_assert_uint_eq(n.n_rows, 1);
	ck_assert_uint_eq(n.rows[0].size_bytes, 37748744);
	ck_assert_str_eq(n.rows[0].type, "uint8");
	ck_assert_str_eq(n.rows[0].redop, "");
	ck_assert(!n.rows[0].has_root);
	half(&n.rows[0].out_of_place, 11732, 3.22, 3.22, true, 0);
	half(&n.rows[0].in_place, 11698, 3.23, 3.23, true, 300);
	ck_assert_int_eq(nc_judged(&n, ex, 0, 0, "wrong_values truncated"), SP_BENCH_FAIL);
	sp_nccl_free(&n);
}
END_TEST

/* mpirun 4.1.4 launch failures; the last line of each is its exit status. */
static const struct {
	const char *file;
	int exit_status;
	const char *codes;
	const char *first;
} mpirun_cases[] = {
	{ "mpirun/mpirun_4.1.4_exe_not_found.txt", 132, "exit_status launch no_result",
	  "mpirun was unable to launch the specified application as it could not access" },
	{ "mpirun/mpirun_4.1.4_not_enough_slots.txt", 1, "exit_status launch no_result",
	  "There are not enough slots available in the system to satisfy the 3" },
	{ "mpirun/mpirun_4.1.4_rank_exit3.txt", 3,
	  "exit_status nccl_failure rank_exit no_result",
	  "host: Test NCCL failure common.cu:1204 fake" },
	{ "mpirun/mpirun_4.1.4_ssh_refused.txt", 255, "exit_status ssh launch no_result",
	  "ssh: connect to host 127.0.0.2 port 22: Connection refused" },
	{ "mpirun/mpirun_4.1.4_ssh_unresolvable.txt", 255, "exit_status ssh launch no_result",
	  "ssh: Could not resolve hostname nosuchhost: Name or service not known" },
};

START_TEST(test_mpirun_failures)
{
	struct sp_nccl n;
	int ex;

	nccl(mpirun_cases[_i].file, &n, &ex);
	ck_assert_int_eq(ex, mpirun_cases[_i].exit_status);
	ck_assert_str_eq(n.sigs[0].line, mpirun_cases[_i].first);
	nc_judged(&n, ex, 0, 0, mpirun_cases[_i].codes);
	sp_nccl_free(&n);
}
END_TEST

START_TEST(test_mpirun_exit_meaning)
{
	struct sp_bench_verdict v = { 0 };
	struct sp_nccl n;
	int ex;

	/* mpirun's own status says nothing of nccl-tests' meanings */
	nccl("mpirun/mpirun_4.1.4_not_enough_slots.txt", &n, &ex);
	ck_assert_int_eq(sp_nccl_judge(&n, ex, 0, 0, &v), 0);
	ck_assert_str_eq(v.problems[0].message, "exited with status 1");
	sp_bench_verdict_free(&v);
	sp_nccl_free(&n);
	/* a rank's status is nccl-tests' */
	nccl("mpirun/mpirun_4.1.4_rank_exit3.txt", &n, &ex);
	ck_assert_int_eq(sp_nccl_judge(&n, ex, 0, 0, &v), 0);
	ck_assert_str_eq(v.problems[0].message, "exited with status 3: NCCL error");
	sp_bench_verdict_free(&v);
	sp_nccl_free(&n);
}
END_TEST

START_TEST(test_nccl_tag_output)
{
	struct sp_nccl n;

	/* mpirun --tag-output, no header: the current layout is assumed */
	ck_assert_int_eq(sp_nccl_parse("[1,0]<stdout>:           8             2     float     sum"
				       "      -1    12.90    0.00    0.00      0    12.87    0.00"
				       "    0.00      0\n"
				       "[1,0]<stdout>:# Out of bounds values : 0 OK\n"
				       "[1,0]<stdout>:# Avg bus bandwidth    : 92.3405 \n", &n), 0);
	ck_assert_uint_eq(n.n_rows, 1);
	half(&n.rows[0].out_of_place, 12.90, 0, 0, true, 0);
	ck_assert_double_eq_tol(n.avg_busbw_gb_per_s, 92.3405, TOL);
	ck_assert(n.out_of_bounds_ok);
	sp_nccl_free(&n);
}
END_TEST

/* ---- LLM benchmarks (inputs from the tools' documented keys) ----------------------------- */

static double metric(const struct sp_llm *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n_metrics; i++)
		if (!strcmp(l->metrics[i].name, name))
			return l->metrics[i].value;
	ck_abort_msg("no metric %s", name);
	return 0;
}

static const char *llm_judged(const struct sp_llm *l, int exit_status)
{
	struct sp_bench_verdict v = { 0 };
	static char buf[256];

	ck_assert_int_eq(sp_llm_judge(l, exit_status, &v), 0);
	snprintf(buf, sizeof(buf), "%s%s%s", bench_codes(&v), v.n ? ": " : "",
		 v.n ? v.problems[0].message : "");
	sp_bench_verdict_free(&v);
	return buf;
}

START_TEST(test_vllm)
{
	struct sp_llm l;

	ck_assert_int_eq(sp_llm_parse(SP_LLM_VLLM,
		"{\"date\": \"20260101-120000\", \"backend\": \"openai\", \"num_prompts\": 10,\n"
		" \"request_rate\": \"inf\", \"max_concurrency\": 1, \"duration\": 5.78,\n"
		" \"completed\": 10, \"failed\": 0, \"total_input_tokens\": 1369,\n"
		" \"total_output_tokens\": 2212, \"request_throughput\": 1.73,\n"
		" \"output_throughput\": 382.89, \"total_token_throughput\": 619.85,\n"
		" \"mean_ttft_ms\": 71.54, \"median_ttft_ms\": 73.88, \"p99_ttft_ms\": 79.49,\n"
		" \"mean_tpot_ms\": 7.91, \"mean_itl_ms\": 7.74}\n", 10, &l), 0);
	ck_assert_str_eq(l.kind, "serve");
	ck_assert_uint_eq(l.completed, 10);
	ck_assert_uint_eq(l.failed, 0);
	ck_assert_uint_eq(l.requested, 10);
	ck_assert_double_eq_tol(metric(&l, "duration_s"), 5.78, TOL);
	ck_assert_double_eq_tol(metric(&l, "output_throughput_tok_per_s"), 382.89, TOL);
	ck_assert_double_eq_tol(metric(&l, "request_throughput_req_per_s"), 1.73, TOL);
	ck_assert_double_eq_tol(metric(&l, "p99_ttft_ms"), 79.49, TOL);
	ck_assert_double_eq_tol(metric(&l, "mean_itl_ms"), 7.74, TOL);
	ck_assert_str_eq(llm_judged(&l, 0), "");
	sp_llm_free(&l);

	/* every request failed, and vllm bench serve exited 0 */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_VLLM, "{\"num_prompts\": 4, \"completed\": 0, "
				      "\"failed\": 4, \"duration\": 0.2}", 0, &l), 0);
	ck_assert_str_eq(llm_judged(&l, 0), "failed_requests: no request completed");
	sp_llm_free(&l);
	ck_assert_int_eq(sp_llm_parse(SP_LLM_VLLM, "{\"completed\": 3, \"failed\": 1}", 0, &l), 0);
	ck_assert_str_eq(llm_judged(&l, 0), "failed_requests: 1 request failed");
	sp_llm_free(&l);

	/* vllm bench throughput --output-json */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_VLLM, "{\n    \"elapsed_time\": 2.1,\n    "
				      "\"num_requests\": 1,\n    \"total_num_tokens\": 256,\n"
				      "    \"requests_per_second\": 0.476,\n"
				      "    \"tokens_per_second\": 121.9\n}\n", 1, &l), 0);
	ck_assert_str_eq(l.kind, "throughput");
	ck_assert_double_eq_tol(metric(&l, "token_throughput_tok_per_s"), 121.9, TOL);
	ck_assert_double_eq_tol(metric(&l, "elapsed_s"), 2.1, TOL);
	ck_assert_str_eq(llm_judged(&l, 0), "");
	sp_llm_free(&l);

	/* no result file (the client could not start) */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_VLLM, "", 1, &l), 0);
	ck_assert_str_eq(llm_judged(&l, 1), "exit_status no_result: exited with status 1");
	sp_llm_free(&l);
}
END_TEST

START_TEST(test_sglang)
{
	struct sp_llm l;

	/* JSONL, appended: the last line is this run; no "failed" key */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_SGLANG,
		"{\"backend\": \"sglang\", \"completed\": 5, \"duration\": 100.0}\n"
		"{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"request_rate\": "
		"Infinity, \"max_concurrency\": 1, \"duration\": 176.41, \"completed\": 5, "
		"\"total_input_tokens\": 20480, \"total_output_tokens\": 20480, "
		"\"request_throughput\": 0.03, \"input_throughput\": 116.09, "
		"\"output_throughput\": 116.09, \"mean_e2e_latency_ms\": 35279.06, "
		"\"median_ttft_ms\": 309.28, \"p99_itl_ms\": 8.74, \"concurrency\": 1.0}\n",
		5, &l), 0);
	ck_assert_str_eq(l.kind, "serve");
	ck_assert_uint_eq(l.completed, 5);
	ck_assert(!l.has_failed);
	ck_assert_double_eq_tol(metric(&l, "duration_s"), 176.41, TOL);
	ck_assert_double_eq_tol(metric(&l, "output_throughput_tok_per_s"), 116.09, TOL);
	ck_assert_double_eq_tol(metric(&l, "mean_e2e_latency_ms"), 35279.06, TOL);
	ck_assert_double_eq_tol(metric(&l, "mean_concurrency"), 1.0, TOL);
	ck_assert_str_eq(llm_judged(&l, 0), "");
	sp_llm_free(&l);

	/* issue #2805: 1648 of 3000 completed, exit 0 */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_SGLANG, "{\"completed\": 1648, \"duration\": 170.41}",
				      3000, &l), 0);
	ck_assert_str_eq(llm_judged(&l, 0), "failed_requests: 1648 of 3000 requests completed");
	sp_llm_free(&l);

	ck_assert_int_eq(sp_llm_parse(SP_LLM_SGLANG, "{\"backend\": \"engine\", "
				      "\"successful_requests\": 1000, \"total_latency\": 15.48, "
				      "\"total_input_tokens\": 296523, \"request_throughput\": 64.6, "
				      "\"input_throughput\": 19156.4, \"last_gen_throughput\": 0.0}",
				      1000, &l), 0);
	ck_assert_str_eq(l.kind, "offline");
	ck_assert_uint_eq(l.completed, 1000);
	ck_assert_double_eq_tol(metric(&l, "total_latency_s"), 15.48, TOL);
	ck_assert_double_eq_tol(metric(&l, "input_throughput_tok_per_s"), 19156.4, TOL);
	ck_assert_str_eq(llm_judged(&l, 0), "");
	sp_llm_free(&l);
}
END_TEST

START_TEST(test_trtllm)
{
	struct sp_llm l;

	ck_assert_int_eq(sp_llm_parse(SP_LLM_TRTLLM,
		"{\"engine\": {\"model\": \"openai/gpt-oss-20b\"},\n"
		" \"request_info\": {\"num_requests\": 1, \"avg_num_concurrent_requests\": 1.0,\n"
		"                  \"avg_input_length\": 128, \"avg_output_length\": 128},\n"
		" \"performance\": {\"total_latency_ms\": 6925.4963, \"request_throughput_req_s\": "
		"1.4439,\n  \"system_output_throughput_tok_s\": 185.8351,\n"
		"  \"request_latency_percentiles_ms\": {\"p50\": 3936.3022, \"p99\": 5514.4701}},\n"
		" \"streaming_metrics\": {\"avg_ttft_ms\": 71.2}}\n", 1, &l), 0);
	ck_assert_str_eq(l.kind, "report");
	ck_assert_uint_eq(l.completed, 1);
	ck_assert_double_eq_tol(metric(&l, "total_latency_ms"), 6925.4963, TOL);
	ck_assert_double_eq_tol(metric(&l, "system_output_throughput_tok_s"), 185.8351, TOL);
	ck_assert_double_eq_tol(metric(&l, "request_latency_percentiles_ms_p99"), 5514.4701, TOL);
	ck_assert_double_eq_tol(metric(&l, "avg_ttft_ms"), 71.2, TOL);
	ck_assert_double_eq_tol(metric(&l, "num_requests"), 1, TOL);
	ck_assert_str_eq(llm_judged(&l, 0), "");
	sp_llm_free(&l);
}
END_TEST

START_TEST(test_llama_bench)
{
	struct sp_llm l;

	ck_assert_int_eq(sp_llm_parse(SP_LLM_LLAMA,
		"{\"model_type\": \"gpt-oss 20B MXFP4\", \"n_prompt\": 128, \"n_gen\": 0, "
		"\"n_depth\": 0, \"avg_ns\": 72135640, \"avg_ts\": 7100.002165, "
		"\"stddev_ts\": 140.341520}\n"
		"{\"model_type\": \"gpt-oss 20B MXFP4\", \"n_prompt\": 0, \"n_gen\": 128, "
		"\"n_depth\": 0, \"avg_ts\": 58.3, \"stddev_ts\": 0.12}\n", 0, &l), 0);
	ck_assert_str_eq(l.kind, "llama-bench");
	ck_assert_uint_eq(l.completed, 2);
	ck_assert_uint_eq(l.requested, 2);
	ck_assert_double_eq_tol(metric(&l, "pp128_tok_per_s"), 7100.002165, TOL);
	ck_assert_double_eq_tol(metric(&l, "pp128_stddev_tok_per_s"), 140.34152, TOL);
	ck_assert_double_eq_tol(metric(&l, "tg128_tok_per_s"), 58.3, TOL);
	ck_assert_str_eq(llm_judged(&l, 0), "");
	sp_llm_free(&l);

	/* -o json: an array; a depth run */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_LLAMA, "[\n  {\"n_prompt\": 512, \"n_gen\": 0, "
				      "\"n_depth\": 512, \"avg_ts\": 604.35, \"stddev_ts\": 37.23}\n]\n",
				      0, &l), 0);
	ck_assert_double_eq_tol(metric(&l, "pp512_d512_tok_per_s"), 604.35, TOL);
	sp_llm_free(&l);

	/* an array cut short when llama-bench died: nothing */
	ck_assert_int_eq(sp_llm_parse(SP_LLM_LLAMA, "[\n  {\"n_prompt\": 512, \"avg_ts\": 1", 0,
				      &l), 0);
	ck_assert_str_eq(llm_judged(&l, 1), "exit_status no_result: exited with status 1");
	sp_llm_free(&l);
}
END_TEST

/* ---- pieces ----------------------------------------------------------------------------- */

START_TEST(test_exit_trailer)
{
	ck_assert_int_eq(sp_bench_exit_trailer("rows\nexit=5\n"), 5);
	ck_assert_int_eq(sp_bench_exit_trailer("rows\nrc=255\n\n"), 255);
	ck_assert_int_eq(sp_bench_exit_trailer("exit=5\nrows\n"), SP_BENCH_EXIT_UNKNOWN);
	ck_assert_int_eq(sp_bench_exit_trailer("exit=256\n"), SP_BENCH_EXIT_UNKNOWN);
	ck_assert_int_eq(sp_bench_exit_trailer(""), SP_BENCH_EXIT_UNKNOWN);
}
END_TEST

/* The one conversion of a number to an integer field: its edges, nothing undefined. */
START_TEST(test_int_of)
{
	struct sp_bench_invalid bad = { 0 };
	int64_t v = 7;

	ck_assert(sp_bench_int_of(0, 0, INT64_MAX, &v) && v == 0);
	ck_assert(sp_bench_int_of(-1, -1, 5, &v) && v == -1);
	ck_assert(sp_bench_int_of(0x1p62, 0, INT64_MAX, &v) && v == INT64_C(1) << 62);
	v = 7;
	ck_assert(!sp_bench_int_of(0x1p63, 0, INT64_MAX, &v));
	ck_assert(!sp_bench_int_of(-1, 0, INT64_MAX, &v));
	ck_assert(!sp_bench_int_of(2.5, 0, INT64_MAX, &v));
	ck_assert(!sp_bench_int_of(NAN, 0, INT64_MAX, &v));
	ck_assert(!sp_bench_int_of(-INFINITY, INT64_MIN, INT64_MAX, &v));
	ck_assert(!sp_bench_int_of(4294967296.0, 0, UINT32_MAX, &v));
	ck_assert_int_eq(v, 7);
	/* text: not a number, a number in range, one out of it (recorded as written) */
	ck_assert_int_eq(sp_bench_tok_int("qps", "x", 0, 10, &v, &bad), 0);
	ck_assert_int_eq(sp_bench_tok_int("qps", "4", 0, 10, &v, &bad), 1);
	ck_assert_int_eq(v, 4);
	ck_assert_int_eq(sp_bench_tok_int("qps", "1e400", 0, 10, &v, &bad), -1);
	ck_assert_uint_eq(bad.n, 1);
	ck_assert_str_eq(bad.what[0], "qps is 1e400, not a whole number in 0..10");
}
END_TEST

START_TEST(test_tool_names)
{
	enum sp_bench_tool t;

	ck_assert_int_eq(sp_bench_tool_parse("mpirun", &t), 0);
	ck_assert_int_eq(t, SP_BENCH_NCCL);
	ck_assert_int_eq(sp_bench_tool_parse("llama", &t), 0);
	ck_assert_int_eq(t, SP_BENCH_LLAMA);
	ck_assert_str_eq(sp_bench_tool_str(SP_BENCH_TRTLLM), "trtllm");
	ck_assert_int_eq(sp_bench_tool_parse("ib_write_bw", &t), -EINVAL);
	ck_assert_str_eq(sp_bench_level_str(SP_BENCH_WARN), "warn");
}
END_TEST

static Suite *benchparse_suite(void)
{
	Suite *s = suite_create("benchparse");
	TCase *tc = tcase_create("perftest");

	tcase_add_test(tc, test_perftest_mb_sec_is_mib);
	tcase_add_test(tc, test_perftest_gbits);
	tcase_add_test(tc, test_perftest_not_quite_json);
	tcase_add_test(tc, test_perftest_latency);
	tcase_add_test(tc, test_perftest_run_infinitely);
	tcase_add_test(tc, test_perftest_interleaved_warnings);
	tcase_add_test(tc, test_perftest_failures);
	tcase_add_test(tc, test_perftest_units);
	suite_add_tcase(s, tc);

	tc = tcase_create("iperf3");
	tcase_add_test(tc, test_iperf3_json);
	tcase_add_test(tc, test_iperf3_error_exit_0);
	tcase_add_test(tc, test_iperf3_text);
	suite_add_tcase(s, tc);

	tc = tcase_create("nccl");
	tcase_add_test(tc, test_nccl_sendrecv_h200);
	tcase_add_test(tc, test_nccl_json);
	tcase_add_test(tc, test_nccl_h200_256m_4g);
	tcase_add_test(tc, test_nccl_two_sparks);
	tcase_add_test(tc, test_nccl_debug_info_single_host);
	tcase_add_test(tc, test_nccl_failures);
	tcase_add_loop_test(tc, test_mpirun_failures, 0,
			    (int)(sizeof(mpirun_cases) / sizeof(mpirun_cases[0])));
	tcase_add_test(tc, test_mpirun_exit_meaning);
	tcase_add_test(tc, test_nccl_tag_output);
	suite_add_tcase(s, tc);

	tc = tcase_create("llm");
	tcase_add_test(tc, test_vllm);
	tcase_add_test(tc, test_sglang);
	tcase_add_test(tc, test_trtllm);
	tcase_add_test(tc, test_llama_bench);
	suite_add_tcase(s, tc);

	tc = tcase_create("pieces");
	tcase_add_test(tc, test_exit_trailer);
	tcase_add_test(tc, test_int_of);
	tcase_add_test(tc, test_tool_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(benchparse_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
