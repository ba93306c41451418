/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parsers of benchparse.h share, in benchparse.c: lines and
 * tokens of a saved output, numbers, JSON lookups, and the judge of an
 * exit status. Only bench/'s parsers include it.
 */
#ifndef SPARKPERF_CTL_PARSEUTIL_H
#define SPARKPERF_CTL_PARSEUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "benchparse.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Longer lines are cut: NCCL's "Trees" INFO lines are the longest (~1 KiB). */
#define LINE_MAX_LEN 4096
#define TOKENS_MAX 64

/* The next line of *p into buf (cut to size - 1, no newline, no CR); false at the end. */
bool sp_bench_next_line(const char **p, char *buf, size_t size);
bool sp_bench_is_blank(char c);
/* s without leading and trailing blanks, in place. */
char *sp_bench_trim(char *s);
/* Splits s in place at blanks; at most max tokens, the count. */
size_t sp_bench_split(char *s, char **tok, size_t max);
/* A whole token as a finite number. */
bool sp_bench_num(const char *s, double *v);
bool sp_bench_u64(const char *s, uint64_t *v);
/* src into dst[size], cut to fit */
void sp_bench_copy_str(char *dst, size_t size, const char *src);

/*
 * The last line of text that says why a Python program ended: its exception
 * ("torch.OutOfMemoryError: CUDA out of memory. ...") or argparse's
 * "PROG: error: ...", trimmed, into buf[size]; false without one.
 */
bool sp_bench_python_error(const char *text, char *buf, size_t size);

/* One more metric of a result: a copy of name (with its unit), its value. 0 or -ENOMEM. */
int sp_bench_metric_add(struct sp_llm *l, const char *name, double value);

/*
 * The one way a parser turns a number of an output into an integer field,
 * and checks a measured value: a number out of range is recorded in bad
 * (struct sp_bench_invalid) as written, never cast into another.
 */
/* v as a whole number in min..max into *out; false (out unchanged) for anything else. */
bool sp_bench_int_of(double v, int64_t min, int64_t max, int64_t *out);
/*
 * The number tok of a text output (key names it) as a whole number in
 * min..max: 1; 0 when tok is not a number; -1 when it is one out of range,
 * recorded in bad.
 */
int sp_bench_tok_int(const char *key, const char *tok, int64_t min, int64_t max, int64_t *out,
		     struct sp_bench_invalid *bad);
/* The same of the JSON number at key (0: none there). */
int sp_bench_jint(json_object *obj, const char *key, int64_t min, int64_t max, int64_t *out,
		  struct sp_bench_invalid *bad);
/* A measured value at key: a finite number >= 0; 1, 0 (none there) or -1 (recorded). */
int sp_bench_jvalue(json_object *obj, const char *key, double *out,
		    struct sp_bench_invalid *bad);
/* Records the value of key, as written, and what it should have been. */
void sp_bench_invalid_add(struct sp_bench_invalid *bad, const char *key, const char *value,
			  const char *expected);
/* Appends what src recorded to dst. */
void sp_bench_invalid_take(struct sp_bench_invalid *dst, const struct sp_bench_invalid *src);
/* Each recorded number fails the result. 0 or -ENOMEM. */
int sp_bench_judge_invalid(const struct sp_bench_invalid *bad, struct sp_bench_verdict *v);

/* A non-zero exit status, when it is known, fails the run. */
int sp_bench_judge_exit(int exit_status, const char *detail, struct sp_bench_verdict *v);

/* A JSON document that is all of text (json_tokener_parse() stops after the first value). */
json_object *sp_bench_json_whole(const char *text);
/* The first character that is not blank: '{' or '[' says JSON. */
char sp_bench_first_char(const char *text);

json_object *sp_bench_jget(json_object *obj, const char *key);
/* A JSON number (integer or not) at key. */
bool sp_bench_jnum(json_object *obj, const char *key, double *out);
/* The length of an array (0: missing, or not an array). */
size_t sp_bench_jarray_len(json_object *arr);
/* A string at key, else NULL. */
const char *sp_bench_jstr(json_object *obj, const char *key);
/* That string into dst[size], cut to fit; dst unchanged without one. */
void sp_bench_jstr_copy(json_object *obj, const char *key, char *dst, size_t size);

#endif
