// SPDX-License-Identifier: GPL-2.0
/*
 * matrix/launch.c and mxargs.c: mpirun's hostfile read, its refusals, the
 * mpirun line, and the test keywords checked and given back as words.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "matrix/launch.h"
#include "matrix/mxargs.h"
#include "testutil.h"

START_TEST(test_hostfile)
{
	struct sp_list hosts;
	char err[256];

	ck_assert_int_eq(sp_mx_hostfile_parse("# cluster\nspark1 slots=4\n\n\tspark2 max_slots=8 "
					      "slots=1 # the second\r\nspark3\n", "hf", &hosts,
					      err, sizeof(err)), 0);
	ck_assert_uint_eq(hosts.n, 3);
	ck_assert_str_eq(hosts.items[0], "spark1");
	ck_assert_str_eq(hosts.items[1], "spark2");
	ck_assert_str_eq(hosts.items[2], "spark3");
	sp_list_free(&hosts);
}
END_TEST

static const struct {
	const char *text, *err;
} bad_hostfiles[] = {
	{ "", "hf: no host in it" },
	{ "# only a comment\n\n", "hf: no host in it" },
	{ "a\nb slots=0\n", "hf:2: unknown 'slots=0' (slots=N, max_slots=N)" },
	{ "a,b\n", "hf:1: 'a,b' is no host name" },
	{ "slots=2\n", "hf:1: 'slots=2' is no host name" },
};

START_TEST(test_hostfile_refused)
{
	struct sp_list hosts;
	char err[256];

	ck_assert_int_eq(sp_mx_hostfile_parse(bad_hostfiles[_i].text, "hf", &hosts, err,
					      sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, bad_hostfiles[_i].err);
	sp_list_free(&hosts);
}
END_TEST

START_TEST(test_mpirun_line)
{
	struct sp_mx_config cfg = { .lat = true, .size_bytes = 65536, .duration_s = 2,
				    .pattern = SP_MX_PAIRS };
	char *extra[] = { "-x", "A=it's" };
	struct sp_list hosts;
	struct sp_mx_launch l = { .hosts = &hosts, .worker = "/usr/bin/sparkperf-matrix",
				  .cfg = &cfg, .extra = extra, .n_extra = 2 };
	char **argv, *line;

	ck_assert_int_eq(sp_parse_list("s1,10.0.0.2", &hosts), 0);
	argv = sp_mx_mpirun_argv(&l);
	ck_assert_ptr_nonnull(argv);
	ck_assert_str_eq(argv[0], "mpirun");
	ck_assert_str_eq(argv[9], "ssh -o BatchMode=yes -o ConnectTimeout=10");
	line = sp_mx_argv_line(argv);
	ck_assert_str_eq(line, "mpirun -H s1,10.0.0.2 -np 2 --map-by ppr:1:node --mca "
			 "plm_rsh_agent 'ssh -o BatchMode=yes -o ConnectTimeout=10' -x 'A=it'\\''s' "
			 "/usr/bin/sparkperf-matrix tests lat size 64KiB duration 2 pattern pairs");
	free(line);
	sp_mx_argv_free(argv);
	sp_list_free(&hosts);
}
END_TEST

START_TEST(test_config)
{
	struct sp_mx_test_args a;
	struct sp_mx_config cfg;
	char words[SP_MX_CONFIG_WORDS][SP_MX_CONFIG_WORD_MAX], err[256];

	sp_mx_test_args_init(&a);
	ck_assert_int_eq(sp_mx_config_make(&a, &cfg, err, sizeof(err)), 0);
	ck_assert(cfg.lat && cfg.bw);
	ck_assert_uint_eq(cfg.size_bytes, 1 << 20);
	ck_assert_uint_eq(cfg.duration_s, 5);
	ck_assert_int_eq(cfg.pattern, SP_MX_PAIRS);
	sp_mx_config_words(&cfg, words);
	ck_assert_str_eq(words[1], "lat,bw");
	ck_assert_str_eq(words[3], "1MiB");
	ck_assert_str_eq(words[7], "pairs");

	ck_assert_int_eq(sp_parse_list("bw", &a.tests), 0);
	a.pattern = "incast";
	a.size = 3000;
	ck_assert_int_eq(sp_mx_config_make(&a, &cfg, err, sizeof(err)), 0);
	ck_assert(!cfg.lat && cfg.bw);
	sp_mx_config_words(&cfg, words);
	ck_assert_str_eq(words[1], "bw");
	ck_assert_str_eq(words[3], "3000B");
	ck_assert_str_eq(words[7], "incast");
	sp_list_free(&a.tests);

	a.pattern = "probe";
	ck_assert_int_eq(sp_mx_config_make(&a, &cfg, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Invalid pattern: 'probe' (pairs, all or incast)");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("launch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hostfile);
	tcase_add_loop_test(tc, test_hostfile_refused, 0,
			    sizeof(bad_hostfiles) / sizeof(bad_hostfiles[0]));
	tcase_add_test(tc, test_mpirun_line);
	tcase_add_test(tc, test_config);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
