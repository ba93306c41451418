// SPDX-License-Identifier: GPL-2.0
/*
 * The real sparkperf-ctl binary, end to end, against the scripted kernel of
 * fakenl.c (LD_PRELOAD): what it asks the kernel (the request log), what it
 * prints on stdout and stderr, and its exit status, for the server and lat
 * objects. $CLI_WRAPPER (e.g. "valgrind -q --error-exitcode=99
 * --leak-check=full") runs the binary under another program.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <json-c/json.h>

#define CLI "../../user/sparkperf-ctl"

struct result {
	int rc;
	char *out;
	char *err;
	char *log;
	double secs;
};

static char tmpdir[64];	/* /tmp/check_cli.XXXXXX */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	ck_assert_ptr_nonnull(m);
	if (f) {
		while ((c = fgetc(f)) != EOF)
			fputc(c, m);
		fclose(f);
	}
	fclose(m);
	return buf;
}

static void path(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", tmpdir, name);
}

/* Runs the tool with the scenario; the arguments end with NULL. */
static void run(struct result *r, const char *scenario, ...)
{
	char out[PATH_MAX], err[PATH_MAX], log[PATH_MAX], so[PATH_MAX], *argv[64];
	const char *wrapper = getenv("CLI_WRAPPER");
	char *wrap = wrapper ? strdup(wrapper) : NULL, *tok, *save = NULL;
	struct timespec t0, t1;
	int argc = 0, status;
	va_list ap;
	pid_t pid;

	path(out, "stdout");
	path(err, "stderr");
	path(log, "requests");
	unlink(log);
	ck_assert_ptr_nonnull(realpath("fakenl.so", so));
	for (tok = wrap ? strtok_r(wrap, " ", &save) : NULL; tok; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc++] = CLI;
	va_start(ap, scenario);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		setenv("FAKENL", scenario, 1);
		setenv("FAKENL_LOG", log, 1);
		setenv("LD_PRELOAD", so, 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(wrap);
	ck_assert_msg(WIFEXITED(status), "killed by signal %d", WTERMSIG(status));
	r->rc = WEXITSTATUS(status);
	r->out = slurp(out);
	r->err = slurp(err);
	r->log = slurp(log);
	r->secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert_msg(r->rc != 99, "valgrind: %s", r->err);
}

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
	free(r->log);
}

/* s begins with prefix */
static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static json_object *get(json_object *obj, const char *key)
{
	json_object *val = NULL;

	ck_assert_msg(json_object_object_get_ex(obj, key, &val), "no key '%s'", key);
	return val;
}

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

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
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
		ck_assert_int_eq(geti(cfg, "iters"), 50);
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

	/* nothing measured: nothing on stdout, the module's reason, exit 1 */
	run(&r, "fail", "lat", "run", "peer", "192.168.200.99", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "Error: no sparkperf server answers at this address and port.\n");
	result_free(&r);

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

	/* failed mid-run: what was measured, then the errno; the sweep ends */
	run(&r, "fail_mid", "lat", "run", "peer", "192.168.200.13", "size", "2..8", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_ptr_nonnull(strstr(r.out, "\n2        300          100      "));
	ck_assert_str_eq(r.err, "Error: No such device.\n");
	ck_assert_ptr_null(strstr(r.log, "size=4"));
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

	/* before anything was measured: exit 130, as a shell reports SIGINT */
	run(&r, "sigint_early", "lat", "run", "peer", "192.168.200.13", NULL);
	ck_assert_int_eq(r.rc, 130);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "Session 100 (2 B) stopped after 0 round trips.\n");
	result_free(&r);

	/* a second Ctrl-C: stop waiting for the session, print what it has */
	run(&r, "sigint_twice", "lat", "run", "peer", "192.168.200.13", NULL);
	ck_assert_msg(r.rc == 0, "rc %d: %s", r.rc, r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "\n2        700          100 "));
	ck_assert_str_eq(r.err, "Session 100 (2 B) was still running after 700 round trips.\n");
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

START_TEST(test_refused)
{
	struct result r;

	/* no extended ACK: errno in words, one line */
	run(&r, "eperm", "lat", "run", "peer", "192.168.200.13", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "sparkperf-ctl: lat run: Operation not permitted\n");
	result_free(&r);

	run(&r, "extack", "-j", "lat", "run", "peer", "192.168.200.13", "size", "8M", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "Error: size above the device's limit.\n");
	result_free(&r);

	run(&r, "nomodule", "lat", "run", "peer", "192.168.200.13", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert(starts_with(r.err, "Error: the sparkperf kernel module is not loaded"));
	result_free(&r);

	/* usage errors never reach the kernel */
	run(&r, "ok", "lat", "run", "peer", "192.168.200.13", "iters", "5", "duration", "1",
	    NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "'iters' and 'duration' cannot be used together "
			 "(see 'sparkperf-ctl lat help')\n");
	ck_assert_str_eq(r.log, "");
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

/* ---- server --------------------------------------------------------------- */

START_TEST(test_server)
{
	json_object *doc;
	struct result r;

	run(&r, "ok", "server", "start", "addr", "192.168.200.13", "port", "18521", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "server 1 listening on 192.168.200.13 port 18521\n");
	ck_assert_str_eq(r.log, "SERVER_START addr=4 port=18521\n");
	result_free(&r);

	run(&r, "ok", "-j", "server", "start", "addr", "any", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "{\"id\":1,\"addr\":null,\"port\":18520,\"active\":0,\"served\":0}\n");
	ck_assert_str_eq(r.log, "SERVER_START addr=-1 port=-1\n");
	result_free(&r);

	run(&r, "ok", "server", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "ID  ADDR            PORT   ACTIVE  SERVED\n"
			 "1   any             18520  0       3\n"
			 "2   192.168.200.13  18521  1       42\n");
	result_free(&r);

	run(&r, "ok", "-j", "server", "show", NULL);
	ck_assert_int_eq(r.rc, 0);
	doc = json_tokener_parse(r.out);
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	ck_assert_int_eq(geti(json_object_array_get_idx(doc, 1), "served"), 42);
	json_object_put(doc);
	result_free(&r);

	run(&r, "ok", "server", "stop", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.log, "SERVER_STOP id=-1\n");
	result_free(&r);

	run(&r, "ok", "server", "stop", "id", "9", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: no server with this id.\n");
	ck_assert_str_eq(r.log, "SERVER_STOP id=9\n");
	result_free(&r);

	run(&r, "ok", "server", "start", "addr", "spark2", NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.log, "");
	result_free(&r);
}
END_TEST

static void setup(void)
{
	char *d;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_cli.XXXXXX");
	d = mkdtemp(tmpdir);
	ck_assert_ptr_nonnull(d);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("lat");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);	/* valgrind */
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_json_sweep);
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_failed);
	tcase_add_test(tc, test_sigint);
	tcase_add_test(tc, test_no_progress_group);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_lat_show);
	suite_add_tcase(s, tc);

	tc = tcase_create("server");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_server);
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
