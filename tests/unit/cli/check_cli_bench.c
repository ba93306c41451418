// SPDX-License-Identifier: GPL-2.0
/*
 * "sparkperf-ctl bench" through the real binary, as a user meets it: what
 * "bench parse" makes of outputs a tool should never print, and the
 * arguments a bench refuses before it runs anything. check_cli.c holds the
 * fixtures' verdicts and the runs.
 */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>

#define TESTUTIL_CLI
#include "testutil.h"

/* tmpdir/name with this text; its path into file[PATH_MAX]. */
static void write_input(char *file, const char *name, const char *text)
{
	FILE *f;

	path(file, name);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* "bench parse TOOL" of text, as JSON; its verdict problems must be codes, in order. */
static json_object *parse_json(const char *tool, const char *text, int rc, const char *codes)
{
	char file[PATH_MAX], got[512] = "";
	json_object *doc, *p;
	struct result r;
	size_t i, len = 0;

	write_input(file, "input", text);
	run(&r, "ok", "-j", "bench", "parse", tool, file, NULL);
	ck_assert_msg(r.rc == rc, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	doc = json_tokener_parse(r.out);
	ck_assert_msg(doc != NULL, "not JSON: %s", r.out);
	p = get(get(doc, "verdict"), "problems");
	for (i = 0; i < json_object_array_length(p); i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s", i ? "," : "",
			json_object_get_string(get(json_object_array_get_idx(p, i), "code")));
	ck_assert_str_eq(got, codes);
	result_free(&r);
	return doc;
}

/* The message of problem i. */
static const char *problem(json_object *doc, size_t i)
{
	json_object *p = get(get(doc, "verdict"), "problems");

	return json_object_get_string(get(json_object_array_get_idx(p, i), "message"));
}

/* ---- numbers out of range ------------------------------------------------- */

/*
 * A rate of -1e300, a count of -1 or of 1e30: not read as another number
 * (2^64 - 1, 0), but named, as written, in a failing verdict.
 */
START_TEST(test_parse_out_of_range)
{
	json_object *doc, *res;
	struct result r;
	char file[PATH_MAX];

	doc = parse_json("iperf3", "{\"start\":{\"test_start\":{\"num_streams\":1}},"
			 "\"end\":{\"sum_sent\":{\"bytes\":1000,\"seconds\":1,"
			 "\"bits_per_second\":-1e300}}}", 1, "invalid_value,no_result");
	ck_assert_str_eq(problem(doc, 0), "bits_per_second is -1e300, not a finite number >= 0");
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_null(res, "sum_sent");
	json_object_put(doc);

	doc = parse_json("vllm", "{\"num_prompts\":4,\"completed\":-1,\"failed\":1e30,"
			 "\"duration\":2.5}", 1, "invalid_value,invalid_value,failed_requests");
	ck_assert_str_eq(problem(doc, 0), "completed is -1, not a whole number in "
			 "0..9223372036854775807");
	ck_assert_str_eq(problem(doc, 1), "failed is 1e30, not a whole number in "
			 "0..9223372036854775807");
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_null(res, "completed");
	assert_null(res, "failed");
	assert_int(res, "requested", 4);
	json_object_put(doc);

	/* a count of 2^64 - 1, a fraction, a GPU count over what it holds, a size below 0 */
	doc = parse_json("nccl", "{\"version\":1,\"nccl_version\":22809,"
			 "\"config\":{\"nthreads\":1,\"ngpus\":4294967296},"
			 "\"results\":[{\"size\":-8,\"count\":2.5,\"type\":\"float\","
			 "\"out_of_place\":{\"time\":1,\"alg_bw\":1,\"bus_bw\":1}}],"
			 "\"out_of_bounds\":{\"count\":18446744073709551615,\"okay\":\"true\"},"
			 "\"average_bus_bandwidth\":{\"bandwidth\":1}}", 1,
			 "invalid_value,invalid_value,invalid_value,invalid_value");
	ck_assert_str_eq(problem(doc, 0), "ngpus is 4294967296, not a whole number in "
			 "0..4294967295");
	ck_assert_str_eq(problem(doc, 1), "size is -8, not a whole number in "
			 "0..9223372036854775807");
	ck_assert_str_eq(problem(doc, 2), "count is 2.5, not a whole number in "
			 "0..9223372036854775807");
	ck_assert_str_eq(problem(doc, 3), "count is 18446744073709551615, not a whole number in "
			 "0..9223372036854775807");
	json_object_put(doc);

	/* perftest's --out_json, and iperf3's text */
	doc = parse_json("perftest", "{\n\"MsgSize\": -65536,\n\"n_iterations\": 5000,\n"
			 "\"BW_average\": 90.1,\n\"BW_peak\": 91,\n\"MsgRate\": 0.17,\n}\n", 1,
			 "invalid_value,unit_unknown");
	ck_assert_str_eq(problem(doc, 0), "MsgSize is -65536, not a whole number in "
			 "0..9223372036854775807");
	json_object_put(doc);
	doc = parse_json("iperf3", "[  5]   0.00-2.00   sec  1e30 GBytes  5.65 Gbits/sec  18  "
			 "sender\n", 1, "invalid_value,no_result");
	ck_assert_str_eq(problem(doc, 0), "Transfer is 1e30 GBytes, not a size in bytes");
	json_object_put(doc);

	/* text: the same line, the verdict fails */
	write_input(file, "vllm.json", "{\"completed\":-1}");
	run(&r, "ok", "bench", "parse", "vllm", file, NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_msg(strstr(r.out, "\nfail: invalid_value: completed is -1, not a whole number in "
			     "0..9223372036854775807\n"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "\nverdict: fail\n"), "%s", r.out);
	result_free(&r);
}
END_TEST

/* perftest -a: one row a size; the summary is the largest size's row, not a mean of all. */
START_TEST(test_parse_perftest_sweep)
{
	const char *file = "../fixtures/perftest/perftest_cpufreq_warning_interleaved_excerpt.txt";
	json_object *doc, *rows;
	struct result r;
	size_t i;

	run(&r, "ok", "bench", "parse", "perftest", file, NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_msg(strstr(r.out, " 2097152 B: BW average ") &&
		      strstr(r.out, ", the largest size of a sweep of 3 rows\n"), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "the mean of the rows"), "%s", r.out);
	result_free(&r);

	run(&r, "ok", "-j", "bench", "parse", "perftest", file, NULL);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	rows = get(json_object_array_get_idx(get(doc, "results"), 0), "rows");
	ck_assert_uint_eq(json_object_array_length(rows), 3);
	for (i = 0; i < 3; i++)
		assert_int(json_object_array_get_idx(rows, i), "bytes", 524288 << i);
	assert_int(json_object_array_get_idx(get(doc, "results"), 0), "size_bytes", 2097152);
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/*
 * An excerpt without its header does not say its unit: no "nan Gbit/s", the
 * number as perftest printed it, labelled; "unit" says the unit.
 */
START_TEST(test_parse_perftest_unit)
{
	const char *file = "../fixtures/perftest/perftest_cpufreq_warning_interleaved_excerpt.txt";
	json_object *doc, *res, *row;
	struct result r;

	run(&r, "ok", "bench", "parse", "perftest", file, NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_msg(strstr(r.out, "\nperftest: 2097152 B: BW average 23324.61 in an unknown "
			     "unit, "), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "nan") && !strstr(r.out, "Gbit/s"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "\nwarn: unit_unknown: "), "%s", r.out);
	result_free(&r);

	/* MiB/s: 23324.61 x 2^20 x 8 / 10^9 */
	run(&r, "ok", "bench", "parse", "perftest", file, "unit", "mib", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_msg(strstr(r.out, "\nperftest: 2097152 B: BW average 195.661 Gbit/s (reported: "
			     "23324.61 MiB/s), "), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "unit_unknown"), "%s", r.out);
	result_free(&r);

	/* JSON: the number as printed is _reported, in the unit unit_reported names */
	run(&r, "ok", "-j", "bench", "parse", "perftest", file, NULL);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_str(res, "unit_reported", "unknown");
	row = json_object_array_get_idx(get(res, "rows"), 2);
	assert_null(row, "bw_average_gbit_per_s");
	assert_double(row, "bw_average_reported", 23324.61, 1e-9);
	json_object_put(doc);
	result_free(&r);

	run(&r, "ok", "-j", "bench", "parse", "perftest", file, "unit", "mib", NULL);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_str(res, "unit_reported", "MiB/s");
	row = json_object_array_get_idx(get(res, "rows"), 2);
	assert_double(row, "bw_average_gbit_per_s", 195.66101, 1e-6);
	assert_double(row, "bw_average_reported", 23324.61, 1e-9);
	/* perftest's 0.011662 Mpps */
	assert_int(row, "msgs_per_s", 11662);
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/* A latency run of --duration: the mean and the transactions per second, no percentiles. */
START_TEST(test_parse_perftest_duration)
{
	json_object *doc, *row;

	doc = parse_json("perftest", " #bytes        #iterations       t_avg[usec]    tps average\n"
			 " 2             1000000           1.47           678000.5\n", 0, "");
	row = json_object_array_get_idx(get(json_object_array_get_idx(get(doc, "results"), 0),
					    "rows"), 0);
	assert_double(row, "t_avg_us", 1.47, 1e-9);
	assert_double(row, "transactions_per_s", 678000.5, 1e-9);
	assert_null(row, "p99_us");
	json_object_put(doc);
}
END_TEST

/* A file of size bytes (a hole: nothing to write), its path into file[PATH_MAX]. */
static void sized_file(char *file, const char *name, off_t size)
{
	int fd;

	path(file, name);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	close(fd);
}

/* Over 64 MiB: "too large", the limit named; 64 MiB is still read. */
START_TEST(test_parse_too_large)
{
	char file[PATH_MAX], want[PATH_MAX + 128];
	struct result r;

	sized_file(file, "big", (64 << 20) + 1);
	run(&r, "ok", "bench", "parse", "perftest", file, NULL);
	ck_assert_int_eq(r.rc, 1);
	snprintf(want, sizeof(want), "Error: cannot read %s: larger than 64 MiB, more than a "
		 "benchmark's output.\n", file);
	ck_assert_str_eq(r.err, want);
	ck_assert_str_eq(r.out, "");
	result_free(&r);

	sized_file(file, "max", 64 << 20);
	run(&r, "ok", "bench", "parse", "perftest", file, NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "");
	ck_assert_msg(strstr(r.out, "\nfail: no_result: "), "%s", r.out);
	result_free(&r);
}
END_TEST

/* "-": what a pipe gives. */
START_TEST(test_parse_stdin)
{
	static const char *const end_keys[] = {
		"bytes", "duration_s", "gbit_per_s", "retransmits",
	};
	json_object *doc, *res;
	struct result r;

	/* the tool inherits the test's standard input */
	ck_assert_ptr_nonnull(freopen("../fixtures/iperf3/iperf3_P2.json", "r", stdin));
	run(&r, "ok", "-j", "bench", "parse", "iperf3", "-", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	assert_str(get(doc, "input"), "file", "-");
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_double(res, "gbit_per_s", 1.264796015, 1e-6);
	/* iperf3's seconds and bits_per_second, in our words and units */
	assert_keys(get(res, "sum_received"), end_keys, sizeof(end_keys) / sizeof(*end_keys));
	assert_double(get(res, "sum_received"), "duration_s", 2.006295, 1e-9);
	assert_double(get(res, "sum_received"), "gbit_per_s", 1.264796015, 1e-9);
	assert_str(get(doc, "verdict"), "status", "ok");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/* ---- arguments refused before anything runs ------------------------------- */

/* Exit 2, this one line on stderr (before the usage hint), nothing on stdout. */
static void refused(struct result *r, const char *line)
{
	char want[PATH_MAX + 256];

	ck_assert_msg(r->rc == 2, "rc %d: %s", r->rc, r->err);
	snprintf(want, sizeof(want), "%s (see 'sparkperf-ctl bench help')\n", line);
	ck_assert_str_eq(r->err, want);
	ck_assert_str_eq(r->out, "");
	result_free(r);
}

/*
 * out FILE: refused, not "cannot run stdbuf: Not a directory"; out DIR that
 * holds files: refused unless force, which overwrites them.
 */
START_TEST(test_out_refused)
{
	char file[PATH_MAX], dir[PATH_MAX], line[3 * PATH_MAX], *kept;
	struct result r;

	write_input(file, "results.txt", "kept\n");
	run(&r, "ok", "bench", "perftest", "peer", "127.0.0.1", "server", "local", "out", file,
	    NULL);
	snprintf(line, sizeof(line), "bench perftest: out '%s' is not a directory", file);
	refused(&r, line);
	kept = slurp(file);
	ck_assert_str_eq(kept, "kept\n");
	free(kept);

	/* a directory that holds files: the runs before it are not overwritten */
	path(dir, "old");
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	write_input(file, "old/client-1.stdout", "an earlier run\n");
	run(&r, "ok", "bench", "iperf3", "peer", "127.0.0.1", "server", "local", "out", dir,
	    NULL);
	snprintf(line, sizeof(line), "bench iperf3: out '%s' is not empty: 'force' overwrites "
		 "its files", dir);
	refused(&r, line);
	run(&r, "ok", "bench", "vllm", "model", "m", "out", dir, "dry-run", NULL);
	snprintf(line, sizeof(line), "bench vllm: out '%s' is not empty: 'force' overwrites "
		 "its files", dir);
	refused(&r, line);
	kept = slurp(file);
	ck_assert_str_eq(kept, "an earlier run\n");
	free(kept);

	/* asked for */
	run(&r, "ok", "bench", "vllm", "model", "m", "out", dir, "force", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	result_free(&r);
	run(&r, "ok", "bench", "vllm", "model", "m", "force", "dry-run", NULL);
	refused(&r, "bench vllm: force is for 'out DIR'");

	/* an empty directory, or one to make, needs nothing */
	path(dir, "empty");
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	run(&r, "ok", "bench", "nccl", "out", dir, "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	result_free(&r);
}
END_TEST

/* Options that a bench would have accepted and ignored, or passed on broken. */
static const struct {
	const char *argv[12];
	const char *line;	/* NULL: accepted */
} ignored[] = {
	{ { "llama", "model", "m.gguf", "concurrency", "4" },
	  "bench llama: concurrency and prompts are not llama-bench's" },
	{ { "llama", "model", "m.gguf", "prompts", "8" },
	  "bench llama: concurrency and prompts are not llama-bench's" },
	{ { "vllm", "model", "m", "mode", "throughput", "concurrency", "4" },
	  "bench vllm: concurrency is for mode serve" },
	{ { "sglang", "model", "m", "mode", "offline", "concurrency", "4" },
	  "bench sglang: concurrency is for mode serve" },
	{ { "vllm", "model", "m", "url", "notaurl" },
	  "bench vllm: invalid url 'notaurl' (http[s]://HOST[:PORT][/PATH])" },
	{ { "vllm", "model", "m", "url", "ftp://127.0.0.1:8000" },
	  "bench vllm: invalid url 'ftp://127.0.0.1:8000' (http[s]://HOST[:PORT][/PATH])" },
	{ { "sglang", "model", "m", "url", "http://:30000" },
	  "bench sglang: invalid url 'http://:30000' (http[s]://HOST[:PORT][/PATH])" },
	{ { "vllm", "model", "m", "url", "http://spark1:65536" },
	  "bench vllm: invalid url 'http://spark1:65536' (http[s]://HOST[:PORT][/PATH])" },
	{ { "vllm", "model", "m", "url", "http://spark1 x" },
	  "bench vllm: invalid url 'http://spark1 x' (http[s]://HOST[:PORT][/PATH])" },
	{ { "perftest", "peer", "192.168.200.13", "ssh", "spark2" },
	  "bench perftest: 'ssh HOST' is for 'server ssh'" },
	{ { "iperf3", "peer", "192.168.200.13", "server", "local", "ssh", "spark2" },
	  "bench iperf3: 'ssh HOST' is for 'server ssh'" },
	{ { "nccl", "hosts", "spark1:0,spark2:1" },
	  "bench nccl: invalid host 'spark1:0' (HOST or HOST:SLOTS, SLOTS 1..4096)" },
	{ { "nccl", "hosts", "spark1:two" },
	  "bench nccl: invalid host 'spark1:two' (HOST or HOST:SLOTS, SLOTS 1..4096)" },
	/* what is right still runs */
	{ { "vllm", "model", "m", "url", "http://127.0.0.1:8000" }, NULL },
	{ { "sglang", "model", "m", "url", "https://[fd00::12]:30000/v1" }, NULL },
	{ { "trtllm", "model", "m", "concurrency", "4" }, NULL },
	{ { "perftest", "peer", "192.168.200.13", "server", "ssh", "ssh", "spark2" }, NULL },
};

START_TEST(test_ignored_options)
{
	const char *a[16] = { "bench" };
	struct result r;
	size_t i;

	for (i = 0; ignored[_i].argv[i]; i++)
		a[i + 1] = ignored[_i].argv[i];
	a[i + 1] = "dry-run";
	run(&r, "ok", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
	    a[12], NULL);
	if (ignored[_i].line) {
		refused(&r, ignored[_i].line);
		return;
	}
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.err, "");
	result_free(&r);
}
END_TEST

/* iperf3 cpus: only CPUs this process may run on (taskset would fail on others). */
START_TEST(test_cpus_missing)
{
	struct result r;

	run(&r, "ok", "bench", "iperf3", "peer", "192.168.200.13", "cpus", "0-4095", "dry-run",
	    NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_msg(starts_with(r.err, "bench iperf3: invalid cpus '0-4095' (this host has no "
				  "CPU "), "%s", r.err);
	ck_assert_uint_eq(count_lines(r.err), 1);
	ck_assert_str_eq(r.out, "");
	result_free(&r);

	run(&r, "ok", "bench", "iperf3", "peer", "192.168.200.13", "cpus", "0", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_msg(strstr(r.out, "\ntaskset -c 0 iperf3 -c 192.168.200.13 "), "%s", r.out);
	result_free(&r);
}
END_TEST

/* nccl hosts that carry their slots: passed as is, np their sum. */
START_TEST(test_nccl_host_slots)
{
	struct result r;

	run(&r, "ok", "bench", "nccl", "hosts", "spark1:2,spark2:2", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_msg(strstr(r.out, "\nmpirun -np 4 -H spark1:2,spark2:2 --mca "), "%s", r.out);
	result_free(&r);

	/* the others share what is left of np */
	run(&r, "ok", "bench", "nccl", "hosts", "spark1:2,spark2", "np", "6", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_msg(strstr(r.out, "\nmpirun -np 6 -H spark1:2,spark2:4 --mca "), "%s", r.out);
	result_free(&r);

	/* as before: one rank a host; an IPv6 address is a host */
	run(&r, "ok", "bench", "nccl", "hosts", "fd00::12,fd00::13", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_msg(strstr(r.out, "\nmpirun -np 2 -H fd00::12:1,fd00::13:1 --mca "), "%s", r.out);
	result_free(&r);
}
END_TEST

/* ---- the guide's recipes in a dry run ---------------------------------------- */

/*
 * trtllm: where prepare_dataset.py's output goes, and the config file that
 * is written, shown as the guide shows them.
 */
START_TEST(test_trtllm_dry_run_files)
{
	json_object *doc, *f, *c;
	struct result r;

	run(&r, "ok", "bench", "trtllm", "model", "nvidia/Llama-3.1-8B-Instruct-FP8", "out",
	    "/nonexistent/t", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_msg(starts_with(r.out, "# extra-llm-api-config.yml: written first\n"
				  "cat > /nonexistent/t/extra-llm-api-config.yml <<'EOF'\n"
				  "kv_cache_config:\n"
				  "  dtype: \"auto\"\n"
				  "cuda_graph_config:\n"
				  "  enable_padding: true\n"
				  "EOF\n"
				  "# hf-download\n"), "%s", r.out);
	ck_assert_msg(strstr(r.out, " --output-mean 128 --output-stdev 0 > "
			     "/nonexistent/t/dataset.txt\n# trtllm-bench\n"), "%s", r.out);
	result_free(&r);

	run(&r, "ok", "-j", "bench", "trtllm", "model", "m", "out", "/nonexistent/t", "dry-run",
	    NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	doc = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(doc);
	f = json_object_array_get_idx(get(doc, "written_files"), 0);
	assert_str(f, "path", "/nonexistent/t/extra-llm-api-config.yml");
	assert_str(f, "text", "kv_cache_config:\n  dtype: \"auto\"\ncuda_graph_config:\n"
		   "  enable_padding: true\n");
	c = json_object_array_get_idx(get(doc, "commands"), 1);
	assert_str(c, "name", "prepare-dataset");
	assert_str(c, "stdout", "/nonexistent/t/dataset.txt");
	json_object_put(doc);
	result_free(&r);
	ck_assert_int_ne(access("/nonexistent/t", F_OK), 0);

	/* the other benches write no file */
	run(&r, "ok", "-j", "bench", "vllm", "model", "m", "dry-run", NULL);
	ck_assert_msg(!strstr(r.out, "written_files"), "%s", r.out);
	result_free(&r);
}
END_TEST

/* sglang offline: the guide's words; the lengths only when asked. */
START_TEST(test_sglang_offline_guide)
{
	struct result r;

	run(&r, "ok", "bench", "sglang", "model", "m", "mode", "offline", "image", "none",
	    "out", "/nonexistent/s", "dry-run", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_str_eq(r.out, "# sglang-bench-offline-throughput\n"
			 "python3 -m sglang.bench_offline_throughput --model-path m "
			 "--dataset-name random --num-prompts 1 "
			 "--result-filename /nonexistent/s/sglang-offline.jsonl\n");
	result_free(&r);

	run(&r, "ok", "bench", "sglang", "model", "m", "mode", "offline", "image", "none",
	    "osl", "64", "dry-run", NULL);
	ck_assert_msg(strstr(r.out, " --num-prompts 1 --random-output-len 64 --result-filename "),
		      "%s", r.out);
	result_free(&r);

	/* serving keeps the guide's lengths */
	run(&r, "ok", "bench", "sglang", "model", "m", "image", "none", "dry-run", NULL);
	ck_assert_msg(strstr(r.out, " --random-input-len 128 --random-output-len 128 "), "%s",
		      r.out);
	result_free(&r);
}
END_TEST

static Suite *cli_bench_suite(void)
{
	Suite *s = suite_create("cli_bench");
	TCase *tc = tcase_create("parse");

	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 300);	/* 64 MiB read twice, under valgrind too */
	tcase_add_test(tc, test_parse_out_of_range);
	tcase_add_test(tc, test_parse_perftest_sweep);
	tcase_add_test(tc, test_parse_perftest_unit);
	tcase_add_test(tc, test_parse_perftest_duration);
	tcase_add_test(tc, test_parse_too_large);
	tcase_add_test(tc, test_parse_stdin);
	suite_add_tcase(s, tc);

	tc = tcase_create("arguments");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_out_refused);
	tcase_add_loop_test(tc, test_ignored_options, 0, sizeof(ignored) / sizeof(ignored[0]));
	tcase_add_test(tc, test_cpus_missing);
	tcase_add_test(tc, test_nccl_host_slots);
	suite_add_tcase(s, tc);

	tc = tcase_create("guide");
	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_trtllm_dry_run_files);
	tcase_add_test(tc, test_sglang_offline_guide);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(cli_bench_suite());
}
