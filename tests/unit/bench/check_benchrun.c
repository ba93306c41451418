// SPDX-License-Identifier: GPL-2.0
/*
 * The runner of sparkperf-ctl bench (user/bench/benchrun.c): real child processes
 * (true, false, sleep, sh for its echo), their output files, deadlines,
 * servers and their banners; and the counter snapshots, read from a sysfs
 * tree made here from the soft-RoCE fixtures (rxe0's hw_counters names and
 * the values "rdma statistic" printed for them).
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "bench/benchrun.h"
#include "testutil.h"

#define FIXTURES "../fixtures"

static char tmpdir[64];

static void setup(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/check_benchrun.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Appends a command; the words end with NULL. */
static struct sp_bench_cmd *add(struct sp_bench_cmds *c, enum sp_bench_role role,
				const char *name, ...)
{
	struct sp_bench_cmd *x;
	const char *w;
	size_t n = 0;
	va_list ap;

	c->v = realloc(c->v, (c->n + 1) * sizeof(*c->v));
	ck_assert_ptr_nonnull(c->v);
	x = &c->v[c->n++];
	memset(x, 0, sizeof(*x));
	x->role = role;
	x->tool = SP_BENCH_NONE;
	x->name = strdup(name);
	ck_assert_int_ge(asprintf(&x->stdout_name, "%s.stdout", name), 0);
	ck_assert_int_ge(asprintf(&x->stderr_name, "%s.stderr", name), 0);
	x->env = calloc(2, sizeof(*x->env));
	x->argv = calloc(16, sizeof(*x->argv));
	x->x.exit_status = SP_BENCH_EXIT_UNKNOWN;
	va_start(ap, name);
	while ((w = va_arg(ap, const char *)))
		x->argv[n++] = strdup(w);
	va_end(ap);
	return x;
}

static void run(struct sp_bench_cmds *c, int64_t timeout_ms, struct sp_bench_verdict *v)
{
	struct sp_bench_run_cfg cfg = { .dir = tmpdir, .timeout_ms = timeout_ms };

	ck_assert_int_eq(sp_bench_run(c, &cfg, v), 0);
}

START_TEST(test_steps)
{
	struct sp_bench_cmds c = { 0 };
	struct sp_bench_verdict v = { 0 };
	struct sp_bench_cmd *x;
	char *out;

	x = add(&c, SP_BENCH_ROLE_STEP, "echo", "sh", "-c", "echo \"$SP_TEST\"; cat; echo e >&2",
		NULL);
	x->env[0] = strdup("SP_TEST=from the environment");
	add(&c, SP_BENCH_ROLE_STEP, "false", "false", NULL);
	add(&c, SP_BENCH_ROLE_STEP, "after", "true", NULL);
	run(&c, 10000, &v);
	ck_assert_str_eq(bench_codes(&v), "");
	ck_assert(c.v[0].x.ran);
	ck_assert_int_eq(c.v[0].x.exit_status, 0);
	ck_assert_int_ge(c.v[0].x.elapsed_s, 0);
	/* stdin is /dev/null: cat ends at once */
	out = sp_bench_read_file(tmpdir, "echo.stdout");
	ck_assert_str_eq(out, "from the environment\n");
	free(out);
	out = sp_bench_read_file(tmpdir, "echo.stderr");
	ck_assert_str_eq(out, "e\n");
	free(out);
	/* a step that fails stops the rest: its status is for the parser to judge */
	ck_assert_int_eq(c.v[1].x.exit_status, 1);
	ck_assert(!c.v[2].x.ran);
	ck_assert_int_eq(c.v[2].x.exit_status, SP_BENCH_EXIT_UNKNOWN);
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);
}
END_TEST

START_TEST(test_exec_error)
{
	struct sp_bench_cmds c = { 0 };
	struct sp_bench_verdict v = { 0 };
	char *err;

	add(&c, SP_BENCH_ROLE_STEP, "missing", "/nonexistent/ib_write_bw", NULL);
	run(&c, 10000, &v);
	ck_assert_str_eq(bench_codes(&v), "exec_error");
	ck_assert_str_eq(v.problems[0].message,
			 "missing: cannot run /nonexistent/ib_write_bw: No such file or directory");
	ck_assert(!c.v[0].x.ran);
	ck_assert_str_eq(c.v[0].x.exec_error, "No such file or directory");
	err = sp_bench_read_file(tmpdir, "missing.stderr");
	ck_assert_str_eq(err, "sparkperf-ctl: cannot run /nonexistent/ib_write_bw: No such file or "
			 "directory\n");
	free(err);
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);
}
END_TEST

START_TEST(test_deadline)
{
	struct sp_bench_cmds c = { 0 };
	struct sp_bench_verdict v = { 0 };
	int64_t t0 = sp_run_now_ms();

	add(&c, SP_BENCH_ROLE_STEP, "sleep", "sleep", "30", NULL);
	run(&c, 300, &v);
	ck_assert_int_lt(sp_run_now_ms() - t0, 5000);
	ck_assert_str_eq(bench_codes(&v), "timeout");
	ck_assert_str_eq(v.problems[0].message, "sleep did not end within 0 s: stopped");
	ck_assert(c.v[0].x.timed_out);
	ck_assert_int_eq(c.v[0].x.signal, SIGTERM);
	ck_assert_int_eq(c.v[0].x.exit_status, SP_BENCH_EXIT_UNKNOWN);
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);
}
END_TEST

static void count_tick(void *arg)
{
	(*(int *)arg)++;
}

/* The tick (a trace's ring read) comes while the commands run, in steps and in pairs. */
START_TEST(test_tick)
{
	struct sp_bench_cmds c = { 0 };
	struct sp_bench_verdict v = { 0 };
	int ticks = 0;
	struct sp_bench_run_cfg cfg = { .dir = tmpdir, .timeout_ms = 10000, .tick = count_tick,
					.tick_arg = &ticks };

	add(&c, SP_BENCH_ROLE_STEP, "sleep", "sleep", "0.5", NULL);
	ck_assert_int_eq(sp_bench_run(&c, &cfg, &v), 0);
	/* every 50 ms: about 10 in 0.5 s */
	ck_assert_int_ge(ticks, 5);
	ck_assert_int_le(ticks, 20);
	sp_bench_cmds_free(&c);

	memset(&c, 0, sizeof(c));
	ticks = 0;
	add(&c, SP_BENCH_ROLE_CLIENT, "client", "sleep", "0.3", NULL);
	ck_assert_int_eq(sp_bench_run(&c, &cfg, &v), 0);
	ck_assert_int_ge(ticks, 3);
	ck_assert_str_eq(bench_codes(&v), "");
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);
}
END_TEST

/* Servers first, their banner awaited; clients together; manual ones never run. */
START_TEST(test_pairs)
{
	struct sp_bench_cmds c = { 0 };
	struct sp_bench_verdict v = { 0 };
	struct sp_bench_cmd *srv;
	char cwd[PATH_MAX];

	add(&c, SP_BENCH_ROLE_MANUAL, "manual", "false", NULL);
	srv = add(&c, SP_BENCH_ROLE_SERVER, "server", "sh", "-c",
		  "sleep 0.2; echo 'Server listening on 5201'; sleep 0.3", NULL);
	srv->ready = "Server listening on";
	/* the client finds the banner in the server's file: it ran after it */
	add(&c, SP_BENCH_ROLE_CLIENT, "client-1", "grep", "-q", "listening", "server.stdout", NULL);
	add(&c, SP_BENCH_ROLE_CLIENT, "client-2", "true", NULL);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(chdir(tmpdir), 0);
	run(&c, 10000, &v);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_str_eq(bench_codes(&v), "");
	ck_assert(!c.v[0].x.ran);
	ck_assert_int_eq(c.v[1].x.exit_status, 0);
	ck_assert_int_eq(c.v[2].x.exit_status, 0);
	ck_assert_int_eq(c.v[3].x.exit_status, 0);
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);

	/* a server that dies: no client runs */
	srv = add(&c, SP_BENCH_ROLE_SERVER, "server", "sh", "-c", "echo cannot listen >&2; "
		  "exit 1", NULL);
	srv->ready = "Waiting for client to connect";
	add(&c, SP_BENCH_ROLE_CLIENT, "client", "true", NULL);
	run(&c, 10000, &v);
	ck_assert_str_eq(bench_codes(&v), "server_not_ready");
	ck_assert_msg(strstr(v.problems[0].message, "server ended (status 1) before it was ready"), "%s", v.problems[0].message);
	ck_assert(!c.v[1].x.ran);
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);
}
END_TEST

START_TEST(test_interrupted)
{
	struct sp_bench_cmds c = { 0 };
	struct sp_bench_verdict v = { 0 };
	struct sp_run_sig sig = { 0 };
	struct sp_bench_run_cfg cfg = { .dir = tmpdir, .timeout_ms = 10000, .sig = &sig };

	add(&c, SP_BENCH_ROLE_STEP, "sleep", "sleep", "30", NULL);
	sp_run_signals_catch(&sig);
	raise(SIGINT);
	ck_assert_int_eq(sp_bench_run(&c, &cfg, &v), 0);
	sp_run_signals_restore(&sig);
	ck_assert_str_eq(bench_codes(&v), "interrupted");
	ck_assert_str_eq(v.problems[0].message, "stopped by signal 2");
	ck_assert(!c.v[0].x.ran);
	sp_bench_cmds_free(&c);
	sp_bench_verdict_free(&v);
}
END_TEST

START_TEST(test_files)
{
	char path[PATH_MAX], want[PATH_MAX], *text;

	snprintf(want, sizeof(want), "%s/out", tmpdir);
	ck_assert_int_eq(sp_bench_outdir(want, path, sizeof(path)), 0);
	ck_assert_str_eq(path, want);
	ck_assert_int_eq(sp_bench_outdir(want, path, sizeof(path)), 0);	/* it exists */
	ck_assert_int_eq(sp_bench_write_file(path, "a.yml", "x: 1\n"), 0);
	text = sp_bench_read_file(path, "a.yml");
	ck_assert_str_eq(text, "x: 1\n");
	free(text);
	ck_assert_ptr_null(sp_bench_read_file(path, "missing"));
	snprintf(want, sizeof(want), "%s/no/such", tmpdir);
	ck_assert_int_eq(sp_bench_outdir(want, path, sizeof(path)), -ENOENT);
	ck_assert_int_eq(sp_bench_outdir(NULL, path, sizeof(path)), 0);
	ck_assert(!strncmp(path, "/tmp/sparkperf-bench-", 21));
	ck_assert_int_eq(rmdir(path), 0);
}
END_TEST

/* ---- counters ------------------------------------------------------------------- */

static void put(const char *fmt_path, const char *value, ...)
{
	char rel[256], path[512], cmd[600];
	va_list ap;
	FILE *f;

	va_start(ap, value);
	vsnprintf(rel, sizeof(rel), fmt_path, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/sys/%s", tmpdir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	ck_assert_int_eq(system(cmd), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

static char *load(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	return sp_bench_read_file(NULL, path);
}

/*
 * rxe0 on eth0 with the fixtures' counters and values, mlx5_0 port 1 with
 * IB's counters/port_xmit_data, eth0's statistics.
 */
static void make_sysfs(void)
{
	char *names = load("rdma/rxe_hw_counters_list.txt"), *line, *save = NULL;
	char *json = load("rdma/rdma_statistic.json");
	json_object *doc, *stats, *v;

	ck_assert_ptr_nonnull(names);
	ck_assert_ptr_nonnull(json);
	doc = json_tokener_parse(json);
	stats = json_object_array_get_idx(doc, 0);
	ck_assert_ptr_nonnull(stats);
	for (line = strtok_r(names, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* lifespan is the cache time in ms, not a counter: not in the statistics */
		put("class/infiniband/rxe0/ports/1/hw_counters/%s",
		    json_object_object_get_ex(stats, line, &v) ? json_object_get_string(v) : "10",
		    line);
	}
	json_object_put(doc);
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "eth0");
	put("class/infiniband/mlx5_0/ports/1/counters/port_xmit_data", "1000");
	put("class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0", "enp1s0f0np0");
	put("class/infiniband/mlx5_1/ports/1/gid_attrs/ndevs/0", "enp1s0f1np1");
	put("class/net/eth0/statistics/tx_bytes", "1000");
	put("class/net/eth0/statistics/rx_bytes", "2000");
	put("class/net/eth0/statistics/tx_packets", "10");
	put("class/net/eth0/statistics/rx_packets", "20");
	free(names);
	free(json);
}

static const struct sp_bench_counter *counter(const struct sp_bench_counter_set *s,
					      const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	ck_abort_msg("no counter %s", name);
	return NULL;
}

START_TEST(test_counters)
{
	static const char *const netdevs[] = { "eth0", "eth9" };
	static const char *const rdma[] = { "rxe0", "mlx5_0", "rxe9" };
	struct sp_bench_counters c;
	char root[PATH_MAX];
	uint64_t d;

	make_sysfs();
	snprintf(root, sizeof(root), "%s/sys", tmpdir);
	ck_assert_int_eq(sp_bench_counters_begin(&c, root, netdevs, 2, rdma, 3), 0);
	ck_assert_str_eq(c.source, "sysfs snapshot");
	/* eth9 and rxe9 do not exist: left out */
	ck_assert_uint_eq(c.n, 3);
	ck_assert_str_eq(c.sets[0].kind, "netdev");
	ck_assert_str_eq(c.sets[0].dev, "eth0");
	ck_assert_uint_eq(c.sets[0].n, 4);
	ck_assert_str_eq(c.sets[1].kind, "rdma");
	ck_assert_str_eq(c.sets[1].dev, "rxe0");
	ck_assert_uint_eq(c.sets[1].port, 1);
	ck_assert_str_eq(c.sets[1].netdev, "eth0");
	/* the 16 names of the fixture, lifespan not among them */
	ck_assert_uint_eq(c.sets[1].n, 15);
	ck_assert_uint_eq(counter(&c.sets[1], "hw_counters/sent_pkts")->before, 7732671);
	ck_assert_uint_eq(counter(&c.sets[1], "hw_counters/completer_retry_err")->before, 492);
	ck_assert_str_eq(c.sets[2].netdev, "enp1s0f0np0");

	put("class/net/eth0/statistics/tx_bytes", "126000");
	put("class/infiniband/rxe0/ports/1/hw_counters/sent_pkts", "7742671");
	put("class/infiniband/rxe0/ports/1/hw_counters/rdma_sends", "3999");	/* went back */
	put("class/infiniband/mlx5_0/ports/1/counters/port_xmit_data", "251000");
	sp_bench_counters_end(&c, root);
	ck_assert_uint_ge(c.end_ns, c.start_ns);
	ck_assert(sp_bench_counter_delta(counter(&c.sets[0], "tx_bytes"), &d));
	ck_assert_uint_eq(d, 125000);
	ck_assert(sp_bench_counter_delta(counter(&c.sets[0], "rx_packets"), &d));
	ck_assert_uint_eq(d, 0);
	ck_assert(sp_bench_counter_delta(counter(&c.sets[1], "hw_counters/sent_pkts"), &d));
	ck_assert_uint_eq(d, 10000);
	ck_assert(!sp_bench_counter_delta(counter(&c.sets[1], "hw_counters/rdma_sends"), &d));
	ck_assert(sp_bench_counter_delta(counter(&c.sets[2], "counters/port_xmit_data"), &d));
	ck_assert_uint_eq(d, 250000);
	/* port_xmit_data counts 4-byte words */
	ck_assert_uint_eq(sp_bench_counter_scale("counters/port_xmit_data"), 4);
	ck_assert_uint_eq(sp_bench_counter_scale("hw_counters/sent_pkts"), 1);
	sp_bench_counters_free(&c);
}
END_TEST

static char *joined(const struct sp_bench_lines *l)
{
	static char buf[256];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < l->n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "," : "",
					l->v[i]);
	return buf;
}

START_TEST(test_which_devices)
{
	struct sp_bench_lines l = { 0 };
	char root[PATH_MAX], nd[64];

	make_sysfs();
	snprintf(root, sizeof(root), "%s/sys", tmpdir);
	ck_assert_int_eq(sp_bench_rdma_netdev(root, "rxe0", nd, sizeof(nd)), 0);
	ck_assert_str_eq(nd, "eth0");
	ck_assert_int_eq(sp_bench_rdma_netdev(root, "rxe9", nd, sizeof(nd)), -ENOENT);
	ck_assert_int_eq(sp_bench_netdev_rdma(root, "enp1s0f1np1", &l), 0);
	ck_assert_str_eq(joined(&l), "mlx5_1");
	sp_bench_lines_free(&l);
	/* NCCL_IB_HCA: prefixes, "=" exact names, "^" all but, ":port" */
	ck_assert_int_eq(sp_bench_hca_devs(root, NULL, &l), 0);
	ck_assert_str_eq(joined(&l), "mlx5_0,mlx5_1,rxe0");
	sp_bench_lines_free(&l);
	ck_assert_int_eq(sp_bench_hca_devs(root, "mlx5", &l), 0);
	ck_assert_str_eq(joined(&l), "mlx5_0,mlx5_1");
	sp_bench_lines_free(&l);
	ck_assert_int_eq(sp_bench_hca_devs(root, "=mlx5", &l), 0);
	ck_assert_str_eq(joined(&l), "");
	sp_bench_lines_free(&l);
	ck_assert_int_eq(sp_bench_hca_devs(root, "=mlx5_1:1,rxe0", &l), 0);
	ck_assert_str_eq(joined(&l), "mlx5_1,rxe0");
	sp_bench_lines_free(&l);
	ck_assert_int_eq(sp_bench_hca_devs(root, "^mlx5_0", &l), 0);
	ck_assert_str_eq(joined(&l), "mlx5_1,rxe0");
	sp_bench_lines_free(&l);
	ck_assert_int_eq(sp_bench_route_netdev("127.0.0.1", nd, sizeof(nd)), 0);
	ck_assert_str_eq(nd, "lo");
	ck_assert_int_eq(sp_bench_route_netdev("spark2", nd, sizeof(nd)), -EINVAL);
}
END_TEST

static Suite *benchrun_suite(void)
{
	Suite *s = suite_create("benchrun");
	TCase *tc = tcase_create("processes");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_steps);
	tcase_add_test(tc, test_exec_error);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_pairs);
	tcase_add_test(tc, test_interrupted);
	tcase_add_test(tc, test_files);
	tcase_add_test(tc, test_tick);
	suite_add_tcase(s, tc);

	tc = tcase_create("counters");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_counters);
	tcase_add_test(tc, test_which_devices);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(benchrun_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
