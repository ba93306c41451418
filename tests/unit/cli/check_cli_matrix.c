// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl matrix, the real binary: its refusals (exit 2, one line on
 * stderr, nothing run), dry-run's mpirun line, a run through an mpirun
 * that is a script (the worker's progress passed through, its document
 * printed, the CSV and the heatmap written), mpirun failing as Open MPI
 * 4.1.4 does, and show of a saved document.
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define TESTUTIL_CLI
#include "testutil.h"

/* What sparkperf-matrix prints for three switched hosts, b -> c throttled. */
static const char doc_json[] =
	"{\"version\":\"0.1.0\",\"config\":{\"tests\":[\"lat\",\"bw\"],\"size_bytes\":1048576,"
	"\"duration_s\":5,\"pattern\":\"pairs\"},\"hosts\":["
	"{\"name\":\"a\",\"halves\":[{\"dev\":\"rxe0\",\"netdev\":\"eth0\",\"addr\":\"192.168.200.11/24\","
	"\"phys_port\":null}],\"error\":null},"
	"{\"name\":\"b\",\"halves\":[{\"dev\":\"rxe0\",\"netdev\":\"eth0\",\"addr\":\"192.168.200.12/24\","
	"\"phys_port\":null}],\"error\":null},"
	"{\"name\":\"c\",\"halves\":[{\"dev\":\"rxe0\",\"netdev\":\"eth0\",\"addr\":\"192.168.200.13/24\","
	"\"phys_port\":null}],\"error\":null}],"
	"\"topology\":{\"cabling\":\"switched\",\"mistake\":null,\"no_direct_path\":[],\"links\":["
	"{\"client\":\"a\",\"client_half\":\"rxe0\",\"server\":\"b\",\"server_half\":\"rxe0\"},"
	"{\"client\":\"a\",\"client_half\":\"rxe0\",\"server\":\"c\",\"server_half\":\"rxe0\"},"
	"{\"client\":\"b\",\"client_half\":\"rxe0\",\"server\":\"a\",\"server_half\":\"rxe0\"},"
	"{\"client\":\"b\",\"client_half\":\"rxe0\",\"server\":\"c\",\"server_half\":\"rxe0\"},"
	"{\"client\":\"c\",\"client_half\":\"rxe0\",\"server\":\"a\",\"server_half\":\"rxe0\"},"
	"{\"client\":\"c\",\"client_half\":\"rxe0\",\"server\":\"b\",\"server_half\":\"rxe0\"}]},"
	"\"rounds\":6,\"results\":["
	"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"a\",\"client_half\":\"rxe0\",\"server\":\"b\","
	"\"server_half\":\"rxe0\",\"gbit_per_s\":92.5,\"one_way_p50_us\":1.5,\"one_way_p99_us\":2.25,"
	"\"error\":null,\"outlier\":false},"
	"{\"pattern\":\"pairs\",\"round\":2,\"client\":\"b\",\"client_half\":\"rxe0\",\"server\":\"a\","
	"\"server_half\":\"rxe0\",\"gbit_per_s\":93.0,\"one_way_p50_us\":1.5,\"one_way_p99_us\":2.0,"
	"\"error\":null,\"outlier\":false},"
	"{\"pattern\":\"pairs\",\"round\":3,\"client\":\"a\",\"client_half\":\"rxe0\",\"server\":\"c\","
	"\"server_half\":\"rxe0\",\"gbit_per_s\":91.5,\"one_way_p50_us\":1.75,\"one_way_p99_us\":2.5,"
	"\"error\":null,\"outlier\":false},"
	"{\"pattern\":\"pairs\",\"round\":4,\"client\":\"c\",\"client_half\":\"rxe0\",\"server\":\"a\","
	"\"server_half\":\"rxe0\",\"gbit_per_s\":92.0,\"one_way_p50_us\":1.5,\"one_way_p99_us\":2.0,"
	"\"error\":null,\"outlier\":false},"
	"{\"pattern\":\"pairs\",\"round\":5,\"client\":\"b\",\"client_half\":\"rxe0\",\"server\":\"c\","
	"\"server_half\":\"rxe0\",\"gbit_per_s\":12.25,\"one_way_p50_us\":1.5,\"one_way_p99_us\":2.0,"
	"\"error\":null,\"outlier\":true},"
	"{\"pattern\":\"pairs\",\"round\":6,\"client\":\"c\",\"client_half\":\"rxe0\",\"server\":\"b\","
	"\"server_half\":\"rxe0\",\"gbit_per_s\":90.0,\"one_way_p50_us\":1.5,\"one_way_p99_us\":2.0,"
	"\"error\":null,\"outlier\":false}],\"outliers\":[]}\n";

static const char table_want[] =
	"bandwidth from rxe0, client (row) to server (column):\n"
	"rxe0[Gbit/s]  a      b      c\n"
	"a             -      92.50  91.50\n"
	"b             93.00  -      12.25*\n"
	"c             92.00  90.00  -\n";

static void write_file(const char *name, const char *text, mode_t mode)
{
	char p[PATH_MAX];
	FILE *f;

	path(p, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	ck_assert_int_eq(chmod(p, mode), 0);
}

/* The tool's own sparkperf-matrix: the one beside it, by its absolute path. */
static char *worker_path(void)
{
	static char p[PATH_MAX];

	ck_assert_ptr_nonnull(realpath("../../user/sparkperf-matrix", p));
	return p;
}

/* ---- refusals ---------------------------------------------------------------- */

static const struct {
	const char *args[12];
	const char *err;
} refused[] = {
	{ { NULL }, "Give hosts or hostfile, one of them" },
	{ { "hosts", "a", NULL }, "1 hosts: a matrix takes 2 to 64" },
	{ { "hosts", "a,b", "hostfile", "f", NULL }, "Give hosts or hostfile, one of them" },
	{ { "hosts", "a,b", "tests", "lat,iperf", NULL }, "Invalid test: 'iperf' (lat or bw)" },
	{ { "hosts", "a,b", "pattern", "ring", NULL },
	  "Invalid pattern: 'ring' (pairs, all or incast)" },
	{ { "hosts", "a,b", "pattern", "incast", "tests", "lat", NULL },
	  "pattern incast runs bandwidth tests: add bw to tests" },
	{ { "hosts", "a,b", "size", "16M", NULL }, "Invalid size: '16M' (range 1..8388608 bytes)" },
	{ { "hosts", "a,b", "duration", "0", NULL }, "Invalid duration: '0' (range 1..3600)" },
	{ { "hosts", "a,b", "heatmap", "m.jpg", NULL },
	  "Invalid heatmap: 'm.jpg' (FILE.png or FILE.svg)" },
	{ { "hosts", "a,b", "mpirun", NULL },
	  "mpirun needs its arguments after it (or leave it out)" },
	{ { "hosts", "a,b", "colour", "red", NULL }, "Unknown keyword 'colour'" },
	{ { "hostfile", "/nonexistent/hosts", NULL },
	  "cannot read hostfile /nonexistent/hosts: No such file or directory" },
	{ { "show", NULL }, "show needs the JSON file of a run" },
	{ { "show", "x.json", "heatmap", "m.gif", NULL },
	  "Invalid heatmap: 'm.gif' (FILE.png or FILE.svg)" },
	{ { "frobnicate", NULL }, "Unknown command 'frobnicate' for object 'matrix'" },
};

START_TEST(test_refused)
{
	const char *const *a = refused[_i].args;
	char want[512];
	struct result r;

	/* nothing is run: an mpirun on the PATH would leave a file */
	run(&r, "ok", "matrix", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], NULL);
	snprintf(want, sizeof(want), "%s (see 'sparkperf-ctl matrix help')\n", refused[_i].err);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, want);
	ck_assert_str_eq(r.out, "");
	result_free(&r);
}
END_TEST

START_TEST(test_help)
{
	struct result r;

	run(&r, "ok", "matrix", "help", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert(starts_with(r.out, "Usage: sparkperf-ctl [ OPTIONS ] matrix run { hosts "));
	result_free(&r);
}
END_TEST

/* ---- dry-run ---------------------------------------------------------------- */

START_TEST(test_dry_run)
{
	char want[PATH_MAX + 512], hostfile[PATH_MAX];
	struct result r;

	run(&r, "ok", "matrix", "hosts", "spark1,spark2,spark3", "tests", "bw", "size", "4M",
	    "duration", "10", "pattern", "all", "dry-run", "mpirun", "--allow-run-as-root", "-x",
	    "UCX_NET_DEVICES=enp1s0f1np1", NULL);
	snprintf(want, sizeof(want), "mpirun -H spark1,spark2,spark3 -np 3 --map-by ppr:1:node "
		 "--mca plm_rsh_agent 'ssh -o BatchMode=yes -o ConnectTimeout=10' "
		 "--allow-run-as-root -x UCX_NET_DEVICES=enp1s0f1np1 %s tests bw size 4MiB "
		 "duration 10 pattern all\n", worker_path());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, want);
	ck_assert_str_eq(r.err, "");
	result_free(&r);

	/* mpirun's hostfile: comments, slots; the hosts as -H has them */
	write_file("hosts", "# the Sparks\nspark1 slots=1\n\n  spark2\tslots=2 max_slots=4 # two\n",
		   0644);
	path(hostfile, "hosts");
	run(&r, "ok", "-j", "matrix", "hostfile", hostfile, "dry-run", NULL);
	snprintf(want, sizeof(want), "{\"command\":\"mpirun -H spark1,spark2 -np 2 --map-by "
		 "ppr:1:node --mca plm_rsh_agent 'ssh -o BatchMode=yes -o ConnectTimeout=10' %s "
		 "tests lat,bw size 1MiB duration 5 pattern pairs\"}\n", worker_path());
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.out, want);
	result_free(&r);

	write_file("hosts", "spark1\nspark2 cpus=4\n", 0644);
	run(&r, "ok", "matrix", "hostfile", hostfile, "dry-run", NULL);
	snprintf(want, sizeof(want), "%s:2: unknown 'cpus=4' (slots=N, max_slots=N) (see "
		 "'sparkperf-ctl matrix help')\n", hostfile);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, want);
	result_free(&r);

	write_file("hosts", "spark1\nspark1 slots=2\n", 0644);
	run(&r, "ok", "matrix", "hostfile", hostfile, "dry-run", NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.err, "Host 'spark1' given twice: one worker a host (see 'sparkperf-ctl "
			 "matrix help')\n");
	result_free(&r);
}
END_TEST

/* ---- a run through a scripted mpirun ----------------------------------------------- */

static const char *bin_path(void)
{
	static char p[PATH_MAX + 32];
	char bin[PATH_MAX];

	path(bin, "bin");
	mkdir(bin, 0755);
	/* the scripted mpirun alone: not the machine's */
	snprintf(p, sizeof(p), "%s", bin);
	return p;
}

START_TEST(test_run)
{
	char script[3 * PATH_MAX], doc[PATH_MAX], csv[PATH_MAX], svg[PATH_MAX], args[PATH_MAX], *text;
	char want[PATH_MAX + 512], *gnuplot = shell_out("command -v gnuplot || true"), link[PATH_MAX];
	struct result r;

	child_path = bin_path();
	/* the machine's gnuplot, where there is one, beside the scripted mpirun */
	gnuplot[strcspn(gnuplot, "\n")] = '\0';
	path(link, "bin/gnuplot");
	ck_assert(!*gnuplot || !symlink(gnuplot, link));
	path(doc, "doc.json");
	write_file("doc.json", doc_json, 0644);
	path(args, "mpirun.args");
	snprintf(script, sizeof(script), "#!/bin/sh\necho \"$@\" > '%s'\n"
		 "echo 'round 1/6: a rxe0 -> b rxe0: bw 92.50 Gbit/s' >&2\n"
		 "echo 'a warning of a rank on stdout'\n/bin/cat '%s'\n", args, doc);
	write_file("bin/mpirun", script, 0755);
	path(csv, "m.csv");
	path(svg, "m.svg");
	run(&r, "ok", "matrix", "hosts", "a,b,c", "csv", csv, "heatmap", svg, "mpirun",
	    "--oversubscribe", NULL);
	child_path = NULL;
	/* the outlier: exit 1 */
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, *gnuplot ? "round 1/6: a rxe0 -> b rxe0: bw 92.50 Gbit/s\n" :
			 "round 1/6: a rxe0 -> b rxe0: bw 92.50 Gbit/s\nError: gnuplot is not "
			 "installed: the heatmap needs it (apt-get install gnuplot-nox).\n");
	ck_assert(starts_with(r.out, "matrix of 3 hosts: cabling switched, 6 rounds; tests lat, bw "
			      "(1MiB messages, 5 s); pattern pairs\n\n"));
	ck_assert_msg(strstr(r.out, table_want), "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "  pairs bandwidth: 12.25 Gbit/s, median 91.75 Gbit/s: "
				     "look at b rxe0 (eth0) and c rxe0 (eth0)\n"));
	text = slurp(args);
	snprintf(want, sizeof(want), "-H a,b,c -np 3 --map-by ppr:1:node --mca plm_rsh_agent ssh -o "
		 "BatchMode=yes -o ConnectTimeout=10 --oversubscribe %s tests lat,bw size 1MiB "
		 "duration 5 pattern pairs\n", worker_path());
	ck_assert_str_eq(text, want);
	free(text);
	text = slurp(csv);
	ck_assert(starts_with(text, "pattern,round,client,client_half,server,server_half,"));
	ck_assert_uint_eq(count_lines(text), 7);
	free(text);
	if (*gnuplot) {
		text = slurp(svg);
		ck_assert_ptr_nonnull(strstr(text, "<svg"));
		free(text);
	}
	free(gnuplot);
	result_free(&r);
}
END_TEST

START_TEST(test_mpirun_fails)
{
	char script[2 * PATH_MAX], fixture[PATH_MAX];
	struct result r;

	child_path = bin_path();
	ck_assert_ptr_nonnull(realpath("../fixtures/mpirun/mpirun_4.1.4_ssh_refused.txt", fixture));
	/* the fixture's output, on stderr as mpirun writes it, and its status */
	snprintf(script, sizeof(script), "#!/bin/sh\n/bin/grep -v '^rc=' '%s' >&2\nexit 255\n", fixture);
	write_file("bin/mpirun", script, 0755);
	run(&r, "ok", "matrix", "hosts", "spark1,spark2", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_ptr_nonnull(strstr(r.err, "ORTE was unable to reliably start one or more daemons"));
	ck_assert(strstr(r.err, "\nError: mpirun exited 255 and gave no result.\n"));
	ck_assert_str_eq(r.out, "");
	result_free(&r);

	/* a stdout that is no document; an mpirun that does not end */
	write_file("bin/mpirun", "#!/bin/sh\necho 'Hello from rank 0'\n", 0755);
	run(&r, "ok", "matrix", "hosts", "spark1,spark2", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: mpirun exited 0 and gave no result: not a matrix document "
			 "(a JSON object).\n");
	result_free(&r);
	write_file("bin/mpirun", "#!/bin/sh\nexec /bin/sleep 30\n", 0755);
	run(&r, "ok", "matrix", "hosts", "spark1,spark2", "timeout", "1", NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: mpirun was stopped at the timeout (1 s) and gave no "
			 "result.\n");
	result_free(&r);

	/* no mpirun at all */
	path(fixture, "bin/mpirun");
	unlink(fixture);
	run(&r, "ok", "matrix", "hosts", "spark1,spark2", NULL);
	child_path = NULL;
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "Error: mpirun is not installed: the matrix runs its workers with "
			 "Open MPI (apt-get install openmpi-bin).\n");
	result_free(&r);
}
END_TEST

/* ---- show ----------------------------------------------------------------------- */

START_TEST(test_show)
{
	char doc[PATH_MAX];
	json_object *o;
	struct result r;

	path(doc, "r.json");
	write_file("r.json", doc_json, 0644);
	run(&r, "ok", "matrix", "show", doc, NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert_str_eq(r.err, "");
	ck_assert_msg(strstr(r.out, table_want), "%s", r.out);
	result_free(&r);

	/* -j: the document again, the outliers found anew */
	run(&r, "ok", "-j", "matrix", "show", doc, NULL);
	ck_assert_int_eq(r.rc, 1);
	o = json_tokener_parse(r.out);
	ck_assert_ptr_nonnull(o);
	ck_assert_uint_eq(json_object_array_length(get(o, "outliers")), 1);
	assert_str(json_object_array_get_idx(get(o, "outliers"), 0), "server", "c");
	assert_str(get(o, "topology"), "cabling", "switched");
	json_object_put(o);
	result_free(&r);

	write_file("r.json", "{\"hosts\":[]}", 0644);
	run(&r, "ok", "matrix", "show", doc, NULL);
	ck_assert_int_eq(r.rc, 1);
	ck_assert(strstr(r.err, "/r.json: document: no config.\n"));
	result_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cli_matrix");
	TCase *tc = tcase_create("matrix");

	tcase_add_checked_fixture(tc, cli_setup, cli_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_refused, 0, sizeof(refused) / sizeof(refused[0]));
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_dry_run);
	tcase_add_test(tc, test_run);
	tcase_add_test(tc, test_mpirun_fails);
	tcase_add_test(tc, test_show);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
