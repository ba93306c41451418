/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test keywords that "sparkperf-ctl matrix" and its worker
 * (sparkperf-matrix) both take, checked by one function: tests, size,
 * duration, pattern. The command checks them before it runs anything and
 * gives the worker the same words.
 */
#ifndef SPARKPERF_CTL_MXARGS_H
#define SPARKPERF_CTL_MXARGS_H

#include <stddef.h>
#include <stdint.h>

#include "mxmodel.h"
#include "lib/parse.h"

#define SP_MX_DEFAULT_SIZE (1 << 20)
#define SP_MX_DEFAULT_DURATION_S 5
#define SP_MX_SIZE_MAX (8 << 20)	/* bw run's largest message */
#define SP_MX_DURATION_MAX_S 3600

struct sp_mx_test_args {
	struct sp_list tests;
	uint64_t size;
	uint32_t duration_s;
	const char *pattern;
};

/* The rows of an sp_kv table for a's keywords. */
#define SP_MX_TEST_KV(a) \
	{ "tests", "test list", SP_KV_LIST, 0, 0, &(a)->tests, false }, \
	{ "size", NULL, SP_KV_SIZE, 1, SP_MX_SIZE_MAX, &(a)->size, false }, \
	{ "duration", NULL, SP_KV_U32, 1, SP_MX_DURATION_MAX_S, &(a)->duration_s, false }, \
	{ "pattern", NULL, SP_KV_STRING, 0, 0, &(a)->pattern, false }

/* Defaults in a, before parsing. */
void sp_mx_test_args_init(struct sp_mx_test_args *a);

/*
 * The configuration they give: tests of lat and bw only, pattern pairs,
 * all or incast (the last two need bw). 0 or -EINVAL with one line in err.
 */
int sp_mx_config_make(const struct sp_mx_test_args *a, struct sp_mx_config *cfg, char *err,
		      size_t len);

/* "tests lat,bw size 1048576 duration 5 pattern pairs": the worker's words for cfg. */
#define SP_MX_CONFIG_WORDS 8
#define SP_MX_CONFIG_WORD_MAX 32
void sp_mx_config_words(const struct sp_mx_config *cfg,
			char words[SP_MX_CONFIG_WORDS][SP_MX_CONFIG_WORD_MAX]);

/* The path of a program installed beside this one (/proc/self/exe's directory). 0 or -errno. */
int sp_mx_sibling(const char *name, char *buf, size_t len);

#endif
