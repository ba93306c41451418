// SPDX-License-Identifier: GPL-2.0
/*
 * What the parsers of benchparse.h share (parseutil.h): lines, tokens,
 * numbers, JSON lookups; the verdicts, and the tools' names. Each tool's
 * parser is a file of its own: parse_perftest.c, parse_iperf3.c,
 * parse_nccl.c, parse_llm.c. The formats, their variants and the ways each
 * tool fails are described, with verbatim samples, in the research notes on
 * application benchmarks; tests/fixtures/ holds real outputs of each.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parseutil.h"
#include "lib/parse.h"

/* ---- small pieces ------------------------------------------------------------ */

/* Room for one more element of size in *arr (n in use); false: out of memory. */
bool sp_bench_grow(void **arr, size_t n, size_t size)
{
	void *p = realloc(*arr, (n + 1) * size);

	if (!p)
		return false;
	*arr = p;
	memset((char *)p + n * size, 0, size);
	return true;
}

/* The next line of *p into buf (cut to size - 1, no newline, no CR); false at the end. */
bool sp_bench_next_line(const char **p, char *buf, size_t size)
{
	const char *s = *p, *e;
	size_t len;

	if (!*s)
		return false;
	e = strchr(s, '\n');
	len = e ? (size_t)(e - s) : strlen(s);
	*p = e ? e + 1 : s + len;
	if (len && s[len - 1] == '\r')
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return true;
}

bool sp_bench_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* s without leading and trailing blanks, in place. */
char *sp_bench_trim(char *s)
{
	size_t len;

	while (sp_bench_is_blank(*s))
		s++;
	len = strlen(s);
	while (len && sp_bench_is_blank(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* Splits s in place at blanks; at most max tokens, the count. */
size_t sp_bench_split(char *s, char **tok, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (sp_bench_is_blank(*s))
			s++;
		if (!*s || n == max)
			return n;
		tok[n++] = s;
		while (*s && !sp_bench_is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A whole token as a finite number. */
bool sp_bench_num(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*v);
}

bool sp_bench_u64(const char *s, uint64_t *v)
{
	return !sp_parse_u64(s, 0, UINT64_MAX, v);
}

int sp_bench_lines_add(struct sp_bench_lines *l, const char *s)
{
	if (!GROW(l->v, l->n))
		return -ENOMEM;
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

void sp_bench_free_named(void *arr, size_t n, size_t size, size_t offset)
{
	char *p = arr;
	size_t i;

	for (i = 0; i < n; i++)
		free(*(char **)(p + i * size + offset));
	free(arr);
}

void sp_bench_lines_free(struct sp_bench_lines *l)
{
	sp_bench_free_named(l->v, l->n, sizeof(*l->v), 0);
	l->v = NULL;
	l->n = 0;
}

/* src into dst[size], cut to fit */
void sp_bench_copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "ValueError: ...", "torch.OutOfMemoryError: ...": a dotted name ending so, then a colon */
static bool python_exception(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");

	if (!n || s[n] != ':')
		return false;
	return (n >= 5 && !strncmp(s + n - 5, "Error", 5)) ||
	       (n >= 9 && !strncmp(s + n - 9, "Exception", 9));
}

bool sp_bench_python_error(const char *text, char *buf, size_t size)
{
	char line[LINE_MAX_LEN], *t;
	bool found = false;

	while (sp_bench_next_line(&text, line, sizeof(line))) {
		t = sp_bench_trim(line);
		if (python_exception(t) || strstr(t, ": error: ")) {
			sp_bench_copy_str(buf, size, t);
			found = true;
		}
	}
	return found;
}

int sp_bench_metric_add(struct sp_llm *l, const char *name, double value)
{
	if (!GROW(l->metrics, l->n_metrics))
		return -ENOMEM;
	l->metrics[l->n_metrics].name = strdup(name);
	if (!l->metrics[l->n_metrics].name)
		return -ENOMEM;
	l->metrics[l->n_metrics++].value = value;
	return 0;
}

/* ---- numbers in range ---------------------------------------------------------- */

bool sp_bench_int_of(double v, int64_t min, int64_t max, int64_t *out)
{
	/* 2^63, the first double past INT64_MAX: a cast of it or more is undefined */
	if (!isfinite(v) || v != trunc(v) || v < (double)min || v >= 0x1p63 || (int64_t)v > max)
		return false;
	*out = (int64_t)v;
	return true;
}

/* v, written as text, as a whole number in min..max: 1, or -1 recorded in bad. */
static int checked_int(const char *key, double v, const char *text, int64_t min, int64_t max,
		       int64_t *out, struct sp_bench_invalid *bad)
{
	char expected[64];

	if (sp_bench_int_of(v, min, max, out))
		return 1;
	snprintf(expected, sizeof(expected), "a whole number in %" PRId64 "..%" PRId64, min, max);
	sp_bench_invalid_add(bad, key, text, expected);
	return -1;
}

int sp_bench_tok_int(const char *key, const char *tok, int64_t min, int64_t max, int64_t *out,
		     struct sp_bench_invalid *bad)
{
	char *end;
	double v = strtod(tok, &end);

	/* strtod's ERANGE still gives a number: too large for any field */
	if (end == tok || *end)
		return 0;
	return checked_int(key, v, tok, min, max, out, bad);
}

/* The JSON number at key, and how it was written; false without one. */
static bool jnumber(json_object *obj, const char *key, double *v, const char **text)
{
	json_object *j = sp_bench_jget(obj, key);

	if (!j || !(json_object_is_type(j, json_type_double) || json_object_is_type(j, json_type_int)))
		return false;
	*v = json_object_get_double(j);
	*text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	return true;
}

int sp_bench_jint(json_object *obj, const char *key, int64_t min, int64_t max, int64_t *out,
		  struct sp_bench_invalid *bad)
{
	const char *text;
	double v;

	if (!jnumber(obj, key, &v, &text))
		return 0;
	return checked_int(key, v, text, min, max, out, bad);
}

int sp_bench_jvalue(json_object *obj, const char *key, double *out, struct sp_bench_invalid *bad)
{
	const char *text;
	double v;

	if (!jnumber(obj, key, &v, &text))
		return 0;
	if (!isfinite(v) || v < 0) {
		sp_bench_invalid_add(bad, key, text, "a finite number >= 0");
		return -1;
	}
	*out = v;
	return 1;
}

void sp_bench_invalid_add(struct sp_bench_invalid *bad, const char *key, const char *value,
			  const char *expected)
{
	if (bad->n < SP_BENCH_INVALID_KEPT)
		snprintf(bad->what[bad->n], sizeof(bad->what[0]), "%s is %s, not %s", key, value,
			 expected);
	bad->n++;
}

void sp_bench_invalid_take(struct sp_bench_invalid *dst, const struct sp_bench_invalid *src)
{
	size_t i;

	for (i = 0; i < src->n; i++) {
		if (dst->n < SP_BENCH_INVALID_KEPT && i < SP_BENCH_INVALID_KEPT)
			memcpy(dst->what[dst->n], src->what[i], sizeof(dst->what[0]));
		dst->n++;
	}
}

/* ---- verdicts ---------------------------------------------------------------- */

const char *sp_bench_level_str(enum sp_bench_level level)
{
	static const char *const names[] = {
		[SP_BENCH_OK] = "ok", [SP_BENCH_WARN] = "warn", [SP_BENCH_FAIL] = "fail",
	};

	return (size_t)level < ARRAY_SIZE(names) ? names[level] : "fail";
}

int sp_bench_problem_add(struct sp_bench_verdict *v, enum sp_bench_level level, const char *code,
			 const char *fmt, ...)
{
	struct sp_bench_problem *p;
	va_list ap;
	int ret;

	if (!GROW(v->problems, v->n))
		return -ENOMEM;
	p = &v->problems[v->n];
	va_start(ap, fmt);
	ret = vasprintf(&p->message, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	p->level = level;
	p->code = code;
	p->result = -1;
	v->n++;
	if (level > v->level)
		v->level = level;
	return 0;
}

void sp_bench_verdict_free(struct sp_bench_verdict *v)
{
	FREE_NAMED(v->problems, v->n, struct sp_bench_problem, message);
	memset(v, 0, sizeof(*v));
}

/* A non-zero exit status, when it is known, fails the run. */
int sp_bench_judge_exit(int exit_status, const char *detail, struct sp_bench_verdict *v)
{
	if (exit_status == SP_BENCH_EXIT_UNKNOWN || !exit_status)
		return 0;
	return sp_bench_problem_add(v, SP_BENCH_FAIL, "exit_status", "exited with status %d%s%s",
				    exit_status, detail ? ": " : "", detail ? detail : "");
}

int sp_bench_judge_invalid(const struct sp_bench_invalid *bad, struct sp_bench_verdict *v)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < bad->n && i < SP_BENCH_INVALID_KEPT; i++)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "invalid_value", "%s", bad->what[i]);
	if (!ret && bad->n > SP_BENCH_INVALID_KEPT)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "invalid_value",
					   "%zu more numbers out of range",
					   bad->n - SP_BENCH_INVALID_KEPT);
	return ret;
}

int sp_bench_exit_trailer(const char *text)
{
	char line[LINE_MAX_LEN], last[LINE_MAX_LEN] = "";
	const char *p = text;
	uint64_t v;
	char *t;

	while (sp_bench_next_line(&p, line, sizeof(line))) {
		t = sp_bench_trim(line);
		if (*t)
			sp_bench_copy_str(last, sizeof(last), t);
	}
	if (!strncmp(last, "exit=", 5) && sp_bench_u64(last + 5, &v) && v <= 255)
		return (int)v;
	if (!strncmp(last, "rc=", 3) && sp_bench_u64(last + 3, &v) && v <= 255)
		return (int)v;
	return SP_BENCH_EXIT_UNKNOWN;
}

/* A JSON document that is all of text (json_tokener_parse() stops after the first value). */
json_object *sp_bench_json_whole(const char *text)
{
	json_tokener *tok = json_tokener_new();
	json_object *obj;
	const char *rest;

	if (!tok)
		return NULL;
	obj = json_tokener_parse_ex(tok, text, (int)strlen(text));
	if (obj && json_tokener_get_error(tok) == json_tokener_success) {
		for (rest = text + json_tokener_get_parse_end(tok); sp_bench_is_blank(*rest); rest++)
			;
		if (*rest) {
			json_object_put(obj);
			obj = NULL;
		}
	} else {
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

/* The first character that is not blank: '{' or '[' says JSON. */
char sp_bench_first_char(const char *text)
{
	while (sp_bench_is_blank(*text))
		text++;
	return *text;
}

/* ---- JSON ------------------------------------------------------------------ */

json_object *sp_bench_jget(json_object *obj, const char *key)
{
	json_object *v = NULL;

	return obj && json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* A JSON number (integer or not) at key. */
bool sp_bench_jnum(json_object *obj, const char *key, double *out)
{
	json_object *v = sp_bench_jget(obj, key);

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* The length of an array (0: missing, or not an array). */
size_t sp_bench_jarray_len(json_object *arr)
{
	return arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
}

const char *sp_bench_jstr(json_object *obj, const char *key)
{
	json_object *v = sp_bench_jget(obj, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

void sp_bench_jstr_copy(json_object *obj, const char *key, char *dst, size_t size)
{
	const char *s = sp_bench_jstr(obj, key);

	if (s)
		sp_bench_copy_str(dst, size, s);
}

/* ---- any tool ---------------------------------------------------------------- */

static const char *const tool_names[] = {
	[SP_BENCH_PERFTEST] = "perftest", [SP_BENCH_IPERF3] = "iperf3",
	[SP_BENCH_NCCL] = "nccl", [SP_BENCH_VLLM] = "vllm", [SP_BENCH_SGLANG] = "sglang",
	[SP_BENCH_TRTLLM] = "trtllm", [SP_BENCH_LLAMA] = "llama",
	[SP_BENCH_IMAGEGEN] = "imagegen", [SP_BENCH_FINETUNE] = "finetune",
};

const char *sp_bench_tool_str(enum sp_bench_tool tool)
{
	return tool < ARRAY_SIZE(tool_names) ? tool_names[tool] : "none";
}

int sp_bench_tool_parse(const char *s, enum sp_bench_tool *tool)
{
	size_t i;

	if (!strcmp(s, "mpirun")) {
		*tool = SP_BENCH_NCCL;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tool_names); i++) {
		if (!strcmp(s, tool_names[i])) {
			*tool = (enum sp_bench_tool)i;
			return 0;
		}
	}
	return -EINVAL;
}

void sp_bench_result_free(struct sp_bench_result *r)
{
	switch (r->tool) {
	case SP_BENCH_PERFTEST:
		sp_perftest_free(&r->u.perftest);
		break;
	case SP_BENCH_IPERF3:
		sp_iperf3_free(&r->u.iperf3);
		break;
	case SP_BENCH_NCCL:
		sp_nccl_free(&r->u.nccl);
		break;
	case SP_BENCH_NONE:
		break;
	default:
		sp_llm_free(&r->u.llm);
		break;
	}
	free(r->label);
	free(r->source);
	memset(r, 0, sizeof(*r));
	r->tool = SP_BENCH_NONE;
}
