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

static Suite *suite(void)
{
	Suite *s = suite_create("spawn");
	TCase *tc = tcase_create("spawn");

	tcase_add_test(tc, test_streams_and_status);
	tcase_add_test(tc, test_keeps_at_most);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_not_started);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
