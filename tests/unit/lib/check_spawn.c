// SPDX-License-Identifier: GPL-2.0
/*
 * lib/spawn.c: a program run with what it printed kept, its exit status,
 * the deadline that stops it, and a program that cannot be started.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "lib/spawn.h"
#include "testutil.h"

START_TEST(test_streams_and_status)
{
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	struct sp_spawn s;

	ck_assert_int_eq(sp_spawn_capture(argv, 10000, &s), 0);
	ck_assert_str_eq(s.out, "out\n");
	ck_assert_str_eq(s.err, "err\n");
	ck_assert(WIFEXITED(s.status));
	ck_assert_int_eq(WEXITSTATUS(s.status), 3);
	ck_assert(!s.timed_out);
	ck_assert_int_eq(s.exec_errno, 0);
	sp_spawn_free(&s);
}
END_TEST

START_TEST(test_keeps_at_most)
{
	/* 2 MiB on stdout: the first SP_SPAWN_KEEP_MAX bytes kept, the writer not blocked */
	char *argv[] = { "/bin/sh", "-c", "yes x | head -c 2097152", NULL };
	struct sp_spawn s;

	ck_assert_int_eq(sp_spawn_capture(argv, 10000, &s), 0);
	ck_assert_uint_eq(strlen(s.out), SP_SPAWN_KEEP_MAX);
	ck_assert(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 0);
	sp_spawn_free(&s);
}
END_TEST

START_TEST(test_deadline)
{
	char *argv[] = { "/bin/sleep", "30", NULL };
	struct sp_spawn s;

	ck_assert_int_eq(sp_spawn_capture(argv, 200, &s), 0);
	ck_assert(s.timed_out);
	ck_assert(WIFSIGNALED(s.status));
	ck_assert_int_eq(WTERMSIG(s.status), SIGTERM);
	sp_spawn_free(&s);
}
END_TEST

START_TEST(test_not_started)
{
	char *argv[] = { "/nonexistent/sparkperf-ctl", NULL };
	struct sp_spawn s;

	ck_assert_int_eq(sp_spawn_capture(argv, 1000, &s), 0);
	ck_assert_int_eq(s.exec_errno, ENOENT);
	ck_assert_str_eq(s.out, "");
	sp_spawn_free(&s);
}
END_TEST

START_TEST(test_path_and_stderr_passed)
{
	/* sh from PATH; its stderr is the test's, not kept */
	static const struct sp_spawn_opts opts = { .path = true, .pass_err = true };
	char *argv[] = { "sh", "-c", "echo out; echo 'err: passed through, as intended' >&2", NULL };
	struct sp_spawn s;

	ck_assert_int_eq(sp_spawn_run(argv, 10000, &opts, &s), 0);
	ck_assert_str_eq(s.out, "out\n");
	ck_assert_str_eq(s.err, "");
	ck_assert(WIFEXITED(s.status) && WEXITSTATUS(s.status) == 0);
	sp_spawn_free(&s);
}
END_TEST

START_TEST(test_last_line_and_quote)
{
	char buf[64], *q;

	sp_spawn_last_line("first\nError: the last one.  \n\n", buf, sizeof(buf));
	ck_assert_str_eq(buf, "Error: the last one.");
	sp_spawn_last_line("", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	q = sp_shell_quote("ssh -o BatchMode=yes");
	ck_assert_str_eq(q, "'ssh -o BatchMode=yes'");
	free(q);
	q = sp_shell_quote("ppr:1:node");
	ck_assert_str_eq(q, "ppr:1:node");
	free(q);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("spawn");
	TCase *tc = tcase_create("spawn");

	tcase_add_test(tc, test_streams_and_status);
	tcase_add_test(tc, test_keeps_at_most);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_not_started);
	tcase_add_test(tc, test_path_and_stderr_passed);
	tcase_add_test(tc, test_last_line_and_quote);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
