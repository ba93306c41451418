// SPDX-License-Identifier: GPL-2.0
/*
 * The parsers of benchparse.h. The formats, their variants and the ways each
 * tool fails are described, with verbatim samples, in the research notes on
 * application benchmarks; tests/fixtures/ holds real outputs of each.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "benchparse.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Longer lines are cut: NCCL's "Trees" INFO lines are the longest (~1 KiB). */
#define LINE_MAX_LEN 4096
#define TOKENS_MAX 64

/* ---- small pieces ------------------------------------------------------------ */

/* Room for one more element of size in *arr (n in use); false: out of memory. */
static bool grow(void **arr, size_t n, size_t size)
{
	void *p = realloc(*arr, (n + 1) * size);

	if (!p)
		return false;
	*arr = p;
	memset((char *)p + n * size, 0, size);
	return true;
}

#define GROW(arr, n) grow((void **)&(arr), (n), sizeof(*(arr)))

/* The next line of *p into buf (cut to size - 1, no newline, no CR); false at the end. */
static bool next_line(const char **p, char *buf, size_t size)
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

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* s without leading and trailing blanks, in place. */
static char *trim(char *s)
{
	size_t len;

	while (is_blank(*s))
		s++;
	len = strlen(s);
	while (len && is_blank(s[len - 1]))
		s[--len] = '\0';
	return s;
}

/* Splits s in place at blanks; at most max tokens, the count. */
static size_t split(char *s, char **tok, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s || n == max)
			return n;
		tok[n++] = s;
		while (*s && !is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A whole token as a finite number. */
static bool num(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*v);
}

static bool u64(const char *s, uint64_t *v)
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

void sp_bench_lines_free(struct sp_bench_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* The first of the strings that line contains, or NULL. */
static const char *contains_any(const char *line, const char *const *what, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(line, what[i]))
			return what[i];
	return NULL;
}

/* src into dst[size], cut to fit */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- verdicts ---------------------------------------------------------------- */

const char *sp_bench_level_str(enum sp_bench_level level)
{
	switch (level) {
	case SP_BENCH_OK:
		return "ok";
	case SP_BENCH_WARN:
		return "warn";
	default:
		return "fail";
	}
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
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->problems[i].message);
	free(v->problems);
	memset(v, 0, sizeof(*v));
}

/* A non-zero exit status, when it is known, fails the run. */
static int judge_exit(int exit_status, const char *detail, struct sp_bench_verdict *v)
{
	if (exit_status == SP_BENCH_EXIT_UNKNOWN || !exit_status)
		return 0;
	return sp_bench_problem_add(v, SP_BENCH_FAIL, "exit_status", "exited with status %d%s%s",
				    exit_status, detail ? ": " : "", detail ? detail : "");
}

int sp_bench_exit_trailer(const char *text)
{
	char line[LINE_MAX_LEN], last[LINE_MAX_LEN] = "";
	const char *p = text;
	uint64_t v;
	char *t;

	while (next_line(&p, line, sizeof(line))) {
		t = trim(line);
		if (*t)
			copy_str(last, sizeof(last), t);
	}
	if (!strncmp(last, "exit=", 5) && u64(last + 5, &v) && v <= 255)
		return (int)v;
	if (!strncmp(last, "rc=", 3) && u64(last + 3, &v) && v <= 255)
		return (int)v;
	return SP_BENCH_EXIT_UNKNOWN;
}

/* A JSON document that is all of text (json_tokener_parse() stops after the first value). */
static json_object *json_whole(const char *text)
{
	json_tokener *tok = json_tokener_new();
	json_object *obj;
	const char *rest;

	if (!tok)
		return NULL;
	obj = json_tokener_parse_ex(tok, text, (int)strlen(text));
	if (obj && json_tokener_get_error(tok) == json_tokener_success) {
		for (rest = text + json_tokener_get_parse_end(tok); is_blank(*rest); rest++)
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
static char first_char(const char *text)
{
	while (is_blank(*text))
		text++;
	return *text;
}

/* ---- perftest ---------------------------------------------------------------- */

/* Lines that say a perftest run failed (perftest_parameters.c, ..._resources.c, get_clock.c). */
static const char *const perftest_errors[] = {
	"unrecognized option", "invalid option", "Invalid Command or flag", "Couldn't ",
	"Unable to ", "Did not detect devices", "No IB devices found", "Failed to ",
	"Failed status", "Completion with error", "exists only in BW tests",
};

static const char *const perftest_warnings[] = {
	"WARNING", "Conflicting CPU frequency", "Device not recognized",
};

/* "key : value" anywhere in line (the parameter block has two a line): value's first word. */
static bool pt_field(const char *line, const char *key, char *val, size_t size)
{
	const char *p = strstr(line, key);
	size_t n = 0;

	if (!p)
		return false;
	for (p += strlen(key); *p == ' ' || *p == '\t'; p++)
		;
	if (*p++ != ':')
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	while (p[n] && !is_blank(p[n]))
		n++;
	if (!n || n >= size)
		return false;
	memcpy(val, p, n);
	val[n] = '\0';
	return true;
}

/* The parameter block's values that the result reports. */
static void pt_params(struct sp_perftest *p, const char *line)
{
	char v[64];

	if (pt_field(line, "Device", v, sizeof(v)))
		copy_str(p->device, sizeof(p->device), v);
	if (pt_field(line, "Number of qps", v, sizeof(v)))
		p->qps = (uint32_t)strtoul(v, NULL, 10);
	if (pt_field(line, "Mtu", v, sizeof(v)))
		p->mtu = (uint32_t)strtoul(v, NULL, 10);
	if (pt_field(line, "Link type", v, sizeof(v)))
		copy_str(p->link_type, sizeof(p->link_type), v);
}

/* "RDMA_Write BW Test", "Send Latency Test", "RDMA_Write Post List BW Test" */
static bool pt_title(const char *t)
{
	size_t len = strlen(t);

	return len > 5 && !strcmp(t + len - 5, " Test") &&
	       (strstr(t, " BW ") || strstr(t, " Latency "));
}

enum pt_layout { PT_NONE, PT_BW_ROWS, PT_LAT_FULL, PT_LAT_DURATION };

/* What a "#bytes" header announces. */
static enum pt_layout pt_header(struct sp_perftest *p, const char *line)
{
	if (strstr(line, "BW average")) {
		p->kind = SP_PERFTEST_BW;
		if (strstr(line, "[Gb/sec]"))
			p->unit = SP_PERFTEST_UNIT_GBIT;
		else if (strstr(line, "[MiB/sec]") || strstr(line, "[MB/sec]"))
			p->unit = SP_PERFTEST_UNIT_MIB;
		return PT_BW_ROWS;
	}
	p->kind = SP_PERFTEST_LAT;
	return strstr(line, "t_min") ? PT_LAT_FULL : PT_LAT_DURATION;
}

/* A result row of the layout; false if the tokens are not one. */
static int pt_row(struct sp_perftest *p, enum pt_layout layout, char **tok, size_t n)
{
	double v[9];
	uint64_t bytes, iters;
	size_t i, want;

	want = layout == PT_BW_ROWS ? 5 : layout == PT_LAT_FULL ? 9 : 4;
	if (n < want || !u64(tok[0], &bytes) || !u64(tok[1], &iters))
		return 1;
	for (i = 2; i < want; i++)
		if (!num(tok[i], &v[i]))
			return 1;
	if (layout == PT_BW_ROWS) {
		struct sp_perftest_bw_row *r;

		if (!GROW(p->bw, p->n_bw))
			return -ENOMEM;
		r = &p->bw[p->n_bw++];
		*r = (struct sp_perftest_bw_row){ bytes, iters, v[2], v[3], v[4] };
		return 0;
	}
	if (!GROW(p->lat, p->n_lat))
		return -ENOMEM;
	if (layout == PT_LAT_FULL)
		p->lat[p->n_lat] = (struct sp_perftest_lat_row){
			.bytes = bytes, .iterations = iters, .full = true, .t_min_us = v[2],
			.t_max_us = v[3], .t_typical_us = v[4], .t_avg_us = v[5],
			.t_stdev_us = v[6], .p99_us = v[7], .p99_9_us = v[8],
		};
	else
		p->lat[p->n_lat] = (struct sp_perftest_lat_row){
			.bytes = bytes, .iterations = iters, .t_avg_us = v[2], .tps = v[3],
		};
	p->n_lat++;
	return 0;
}

/* "hw_counters/sent_pkts=132132": 1 if line is not one. */
static int pt_counter(struct sp_perftest *p, const char *t)
{
	const char *eq = strchr(t, '=');
	uint64_t delta;

	if (!eq || !strchr(t, '/') || strchr(t, ' ') || !u64(eq + 1, &delta))
		return 1;
	if (!GROW(p->counters, p->n_counters))
		return -ENOMEM;
	p->counters[p->n_counters].name = strndup(t, (size_t)(eq - t));
	if (!p->counters[p->n_counters].name)
		return -ENOMEM;
	p->counters[p->n_counters++].delta = delta;
	return 0;
}

/* Rows without a header (an excerpt): the layout their width says. */
static enum pt_layout pt_guess(struct sp_perftest *p, size_t n)
{
	if (n == 5 || n == 6) {
		p->kind = SP_PERFTEST_BW;
		return PT_BW_ROWS;
	}
	if (n == 9) {
		p->kind = SP_PERFTEST_LAT;
		return PT_LAT_FULL;
	}
	return PT_NONE;
}

static int pt_text_line(struct sp_perftest *p, char *line, enum pt_layout *layout)
{
	char *tok[TOKENS_MAX], *t = trim(line);
	int ret;
	size_t n;

	if (!*t || !strncmp(t, "----", 4))
		return 0;
	if (strstr(t, "Waiting for client to connect")) {
		p->server_side = true;
		return 0;
	}
	if (contains_any(t, perftest_errors, ARRAY_SIZE(perftest_errors)) ||
	    (!strncmp(t, "IB device ", 10) && strstr(t, " not found")))
		return sp_bench_lines_add(&p->errors, t);
	if (contains_any(t, perftest_warnings, ARRAY_SIZE(perftest_warnings)))
		return sp_bench_lines_add(&p->warnings, t);
	if (strstr(t, "#bytes")) {
		*layout = pt_header(p, t);
		return 0;
	}
	if (!p->test[0] && pt_title(t)) {
		copy_str(p->test, sizeof(p->test), t);
		return 0;
	}
	ret = pt_counter(p, t);
	if (ret <= 0)
		return ret;
	pt_params(p, t);
	n = split(t, tok, TOKENS_MAX);
	if (*layout == PT_NONE && !p->test[0] && n && isdigit((unsigned char)tok[0][0]))
		*layout = pt_guess(p, n);
	if (*layout == PT_NONE)
		return 0;
	ret = pt_row(p, *layout, tok, n);
	return ret < 0 ? ret : 0;
}

/*
 * --out_json in perftest 4.5 writes neither quoted keys nor quoted values
 * and leaves trailing commas; newer builds quote them. Both are one
 * "key: value," a line, so they are read as lines.
 */
static void unquote(char *s)
{
	size_t len = strlen(s);

	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		memmove(s, s + 1, len - 2);
		s[len - 2] = '\0';
	}
}

static void pt_json_line(struct sp_perftest *p, char *line, struct sp_perftest_bw_row *bw,
			 struct sp_perftest_lat_row *lat)
{
	char *t = trim(line), *colon, *key, *val;
	size_t len;
	double v;

	colon = strchr(t, ':');
	if (!colon)
		return;
	*colon = '\0';
	key = trim(t);
	val = trim(colon + 1);
	len = strlen(val);
	if (len && val[len - 1] == ',')
		val[--len] = '\0';
	unquote(key);
	unquote(val);
	if (!strcmp(key, "test"))
		copy_str(p->test, sizeof(p->test), val);
	else if (!strcmp(key, "Device"))
		copy_str(p->device, sizeof(p->device), val);
	else if (!strcmp(key, "Number_of_qps"))
		p->qps = (uint32_t)strtoul(val, NULL, 10);
	else if (!strcmp(key, "Mtu"))
		p->mtu = (uint32_t)strtoul(val, NULL, 10);
	else if (!strcmp(key, "Link_type"))
		copy_str(p->link_type, sizeof(p->link_type), val);
	if (!num(val, &v))
		return;
	if (!strcmp(key, "MsgSize"))
		bw->bytes = lat->bytes = (uint64_t)v;
	else if (!strcmp(key, "n_iterations"))
		bw->iterations = lat->iterations = (uint64_t)v;
	else if (!strcmp(key, "BW_peak"))
		bw->peak = v;
	else if (!strcmp(key, "BW_average"))
		bw->average = v;
	else if (!strcmp(key, "MsgRate"))
		bw->msg_rate_mpps = v;
	else if (!strcmp(key, "t_min"))
		lat->t_min_us = v;
	else if (!strcmp(key, "t_max"))
		lat->t_max_us = v;
	else if (!strcmp(key, "t_typical"))
		lat->t_typical_us = v;
	else if (!strcmp(key, "t_avg") || !strcmp(key, "avg_lat"))
		lat->t_avg_us = v;
	else if (!strcmp(key, "t_stdev"))
		lat->t_stdev_us = v;
	else if (!strcmp(key, "percentile_99"))
		lat->p99_us = v;
	else if (!strcmp(key, "percentile_99.9"))
		lat->p99_9_us = v;
}

static int pt_json(struct sp_perftest *p, const char *text, enum sp_perftest_unit unit)
{
	const char *text_start = text;
	struct sp_perftest_bw_row bw = { 0 };
	struct sp_perftest_lat_row lat = { 0 };
	char line[LINE_MAX_LEN];

	p->json = true;
	while (next_line(&text, line, sizeof(line)))
		pt_json_line(p, line, &bw, &lat);
	/* which results: "BW_average", or latencies ("t_min" only without -D) */
	if (strstr(text_start, "BW_average"))
		p->kind = SP_PERFTEST_BW;
	else if (strstr(text_start, "t_avg") || strstr(text_start, "avg_lat"))
		p->kind = SP_PERFTEST_LAT;
	lat.full = strstr(text_start, "t_min") != NULL;
	if (p->kind == SP_PERFTEST_BW) {
		p->unit = unit;
		if (!GROW(p->bw, 0))
			return -ENOMEM;
		p->bw[0] = bw;
		p->n_bw = 1;
	} else if (p->kind == SP_PERFTEST_LAT) {
		if (!GROW(p->lat, 0))
			return -ENOMEM;
		p->lat[0] = lat;
		p->n_lat = 1;
	}
	return 0;
}

int sp_perftest_parse(const char *text, enum sp_perftest_unit json_unit, struct sp_perftest *out)
{
	enum pt_layout layout = PT_NONE;
	char line[LINE_MAX_LEN];
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (first_char(text) == '{')
		return pt_json(out, text, json_unit);
	while (!ret && next_line(&text, line, sizeof(line)))
		ret = pt_text_line(out, line, &layout);
	return ret;
}

void sp_perftest_free(struct sp_perftest *p)
{
	size_t i;

	free(p->bw);
	free(p->lat);
	for (i = 0; i < p->n_counters; i++)
		free(p->counters[i].name);
	free(p->counters);
	sp_bench_lines_free(&p->errors);
	sp_bench_lines_free(&p->warnings);
	memset(p, 0, sizeof(*p));
}

double sp_perftest_gbit_per_s(enum sp_perftest_unit unit, double value)
{
	switch (unit) {
	case SP_PERFTEST_UNIT_GBIT:
		return value;
	case SP_PERFTEST_UNIT_MIB:
		/* perftest divides bytes/s by 0x100000: its "MB/sec" is MiB/s */
		return value * 1048576.0 * 8 / 1e9;
	default:
		return NAN;
	}
}

const char *sp_perftest_unit_str(enum sp_perftest_unit unit)
{
	switch (unit) {
	case SP_PERFTEST_UNIT_GBIT:
		return "Gbit/s";
	case SP_PERFTEST_UNIT_MIB:
		return "MiB/s";
	default:
		return "unknown";
	}
}

bool sp_perftest_bw_average(const struct sp_perftest *p, uint64_t *bytes, double *average)
{
	uint64_t max = 0;
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < p->n_bw; i++)
		if (p->bw[i].bytes > max)
			max = p->bw[i].bytes;
	for (i = 0; i < p->n_bw; i++) {
		if (p->bw[i].bytes == max) {
			sum += p->bw[i].average;
			n++;
		}
	}
	if (!n)
		return false;
	*bytes = max;
	*average = sum / (double)n;
	return true;
}

bool sp_perftest_lat_one_way(const struct sp_perftest *p)
{
	/* perftest's rtt_factor: 2 for write and send, 1 for read and atomics */
	return !strstr(p->test, "Read") && !strstr(p->test, "Atomic");
}

int sp_perftest_judge(const struct sp_perftest *p, int exit_status, struct sp_bench_verdict *v)
{
	int ret = judge_exit(exit_status, p->errors.n ? p->errors.v[0] : NULL, v);
	size_t i;

	if (!ret && p->errors.n && (exit_status == SP_BENCH_EXIT_UNKNOWN || !exit_status))
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "error_output", "%s", p->errors.v[0]);
	if (!ret && !p->n_bw && !p->n_lat)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result",
					   "no result row (none after a '#bytes' header)");
	if (!ret && p->n_bw && p->unit == SP_PERFTEST_UNIT_UNKNOWN)
		ret = sp_bench_problem_add(v, SP_BENCH_WARN, "unit_unknown",
					   "the bandwidth unit is not known (no header; JSON "
					   "without 'unit gbit' or 'unit mib')");
	for (i = 0; i < p->warnings.n; i++)
		if (strstr(p->warnings.v[i], "CPU Frequency is not max"))
			break;
	if (!ret && i < p->warnings.n)
		ret = sp_bench_problem_add(v, SP_BENCH_WARN, "cpu_frequency", "%s (perftest -F "
					   "hides this warning, not the slower CPU)",
					   p->warnings.v[i]);
	return ret;
}

/* ---- iperf3 ------------------------------------------------------------------ */

static json_object *jget(json_object *obj, const char *key)
{
	json_object *v = NULL;

	return obj && json_object_object_get_ex(obj, key, &v) ? v : NULL;
}

/* A JSON number (integer or not) at key. */
static bool jnum(json_object *obj, const char *key, double *out)
{
	json_object *v = jget(obj, key);

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* The length of an array (0: missing, or not an array). */
static size_t jarray_len(json_object *arr)
{
	return arr && json_object_is_type(arr, json_type_array) ? json_object_array_length(arr) : 0;
}

static uint64_t jnum_u64(json_object *obj, const char *key)
{
	double v = 0;

	return jnum(obj, key, &v) && v > 0 ? (uint64_t)v : 0;
}

static const char *jstr(json_object *obj, const char *key)
{
	json_object *v = jget(obj, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static void ip_end(json_object *o, struct sp_iperf3_end *e)
{
	double v;

	if (!o || !json_object_is_type(o, json_type_object))
		return;
	e->has = jnum(o, "bits_per_second", &e->bits_per_second);
	e->bytes = jnum_u64(o, "bytes");
	if (jnum(o, "seconds", &v))
		e->seconds = v;
	e->has_retransmits = jnum(o, "retransmits", &v);
	if (e->has_retransmits)
		e->retransmits = (uint64_t)v;
}

static int ip_json(struct sp_iperf3 *r, const char *text)
{
	json_object *doc = json_whole(text), *start, *end, *streams, *cpu;
	const char *s;
	size_t i, n;
	double v;
	int ret = 0;

	r->json = true;
	if (!doc) {
		r->error = strdup("the output is not a JSON document");
		return r->error ? 0 : -ENOMEM;
	}
	start = jget(doc, "start");
	end = jget(doc, "end");
	if ((s = jstr(start, "version")))
		copy_str(r->version, sizeof(r->version), s);
	if (jnum(jget(start, "test_start"), "num_streams", &v))
		r->num_streams = (uint32_t)v;
	if (jnum(jget(start, "test_start"), "duration", &v))
		r->duration_s = v;
	/* iperf3 < 3.14 exits 0 in JSON mode on errors: the key is the truth */
	if ((s = jstr(doc, "error")) && !(r->error = strdup(s)))
		ret = -ENOMEM;
	streams = jget(end, "streams");
	n = jarray_len(streams);
	for (i = 0; !ret && i < n; i++) {
		json_object *st = json_object_array_get_idx(streams, i);
		struct sp_iperf3_stream *x;

		if (!GROW(r->streams, r->n_streams)) {
			ret = -ENOMEM;
			break;
		}
		x = &r->streams[r->n_streams++];
		ip_end(jget(st, "sender"), &x->sender);
		ip_end(jget(st, "receiver"), &x->receiver);
		x->socket = jnum(jget(st, "sender"), "socket", &v) ? (int64_t)v : -1;
	}
	ip_end(jget(end, "sum_sent"), &r->sum_sent);
	ip_end(jget(end, "sum_received"), &r->sum_received);
	cpu = jget(end, "cpu_utilization_percent");
	r->has_cpu = jnum(cpu, "host_total", &r->cpu_host_percent) &&
		     jnum(cpu, "remote_total", &r->cpu_remote_percent);
	if ((s = jstr(end, "sender_tcp_congestion")))
		copy_str(r->congestion, sizeof(r->congestion), s);
	json_object_put(doc);
	return ret;
}

/* iperf3's text units: transfers in 1024s, bit rates in 1000s. */
static const struct {
	const char *name;
	double mult;
} ip_units[] = {
	{ "Bytes", 1 }, { "KBytes", 1024.0 }, { "MBytes", 1048576.0 },
	{ "GBytes", 1073741824.0 }, { "TBytes", 1099511627776.0 },
	{ "bits/sec", 1 }, { "Kbits/sec", 1e3 }, { "Mbits/sec", 1e6 },
	{ "Gbits/sec", 1e9 }, { "Tbits/sec", 1e12 },
};

static bool ip_value(const char *value, const char *unit, double *out)
{
	size_t i;
	double v;

	if (!num(value, &v))
		return false;
	for (i = 0; i < ARRAY_SIZE(ip_units); i++) {
		if (!strcmp(unit, ip_units[i].name)) {
			*out = v * ip_units[i].mult;
			return true;
		}
	}
	return false;
}

/*
 * A summary line: "[  5]   0.00-2.00   sec  1.32 GBytes  5.65 Gbits/sec  18  sender"
 * or "[SUM] ... receiver"; the server's have no Retr.
 */
static int ip_text_summary(struct sp_iperf3 *r, char *line)
{
	char *tok[16], *close = strchr(line, ']'), *dash;
	struct sp_iperf3_end e = { .has = true };
	struct sp_iperf3_stream *st;
	bool sum, sender;
	double bytes, start, stop;
	uint64_t id = 0, retr;
	size_t n;

	if (line[0] != '[' || !close)
		return 0;
	*close = '\0';
	sum = !strcmp(trim(line + 1), "SUM");
	if (!sum && !u64(trim(line + 1), &id))
		return 0;
	n = split(close + 1, tok, ARRAY_SIZE(tok));
	if (n < 7 || strcmp(tok[1], "sec"))
		return 0;
	sender = !strcmp(tok[n - 1], "sender");
	if (!sender && strcmp(tok[n - 1], "receiver"))
		return 0;
	dash = strchr(tok[0], '-');
	if (!dash)
		return 0;
	*dash = '\0';
	if (!num(tok[0], &start) || !num(dash + 1, &stop) || !ip_value(tok[2], tok[3], &bytes) ||
	    !ip_value(tok[4], tok[5], &e.bits_per_second))
		return 0;
	e.seconds = stop - start;
	e.bytes = (uint64_t)bytes;
	if (n == 8 && u64(tok[6], &retr)) {
		e.has_retransmits = true;
		e.retransmits = retr;
	}
	if (sum) {
		*(sender ? &r->sum_sent : &r->sum_received) = e;
		return 0;
	}
	for (n = 0; n < r->n_streams && r->streams[n].socket != (int64_t)id; n++)
		;
	if (n == r->n_streams) {
		if (!GROW(r->streams, r->n_streams))
			return -ENOMEM;
		r->streams[r->n_streams++].socket = (int64_t)id;
	}
	st = &r->streams[n];
	*(sender ? &st->sender : &st->receiver) = e;
	return 0;
}

static int ip_text(struct sp_iperf3 *r, const char *text)
{
	char line[LINE_MAX_LEN], *t;
	int ret = 0;

	while (!ret && next_line(&text, line, sizeof(line))) {
		t = trim(line);
		if (!strncmp(t, "iperf3: error - ", 16)) {
			free(r->error);
			r->error = strdup(t + 16);
			ret = r->error ? 0 : -ENOMEM;
		} else if (!strncmp(t, "Server listening on", 19)) {
			r->server_side = true;
		} else {
			ret = ip_text_summary(r, t);
		}
	}
	r->num_streams = (uint32_t)r->n_streams;
	/* one stream: no [SUM] lines, the stream's are the sums */
	if (r->n_streams == 1) {
		if (!r->sum_sent.has)
			r->sum_sent = r->streams[0].sender;
		if (!r->sum_received.has)
			r->sum_received = r->streams[0].receiver;
	}
	return ret;
}

int sp_iperf3_parse(const char *text, struct sp_iperf3 *out)
{
	memset(out, 0, sizeof(*out));
	return first_char(text) == '{' ? ip_json(out, text) : ip_text(out, text);
}

void sp_iperf3_free(struct sp_iperf3 *r)
{
	free(r->error);
	free(r->streams);
	memset(r, 0, sizeof(*r));
}

bool sp_iperf3_gbit_per_s(const struct sp_iperf3 *r, double *gbit_per_s)
{
	const struct sp_iperf3_end *e = r->sum_received.has ? &r->sum_received : &r->sum_sent;

	if (!e->has)
		return false;
	*gbit_per_s = e->bits_per_second / 1e9;
	return true;
}

int sp_iperf3_judge(const struct sp_iperf3 *r, int exit_status, struct sp_bench_verdict *v)
{
	int ret = judge_exit(exit_status, r->error, v);

	if (!ret && r->error && (exit_status == SP_BENCH_EXIT_UNKNOWN || !exit_status))
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "iperf3_error", "%s%s", r->error,
					   exit_status ? "" : " (although iperf3 exited 0)");
	if (!ret && !r->error && !r->sum_sent.has && !r->sum_received.has)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result",
					   "no sender or receiver summary");
	return ret;
}

/* ---- nccl-tests and mpirun ------------------------------------------------------ */

/*
 * Lines that say the run failed: nccl-tests' own (common.cu: printed on
 * stdout with the host name first), then mpirun's and ssh's.
 */
static const struct {
	const char *match;
	const char *code;
} nccl_failures[] = {
	{ "Test CUDA failure", "cuda_failure" },
	{ "Test NCCL failure", "nccl_failure" },
	{ "Test timeout", "timeout" },
	{ "Test failure", "test_failure" },
	{ "Invalid number of GPUs", "invalid_gpus" },
	{ "invalid sizes for", "usage" },
	{ "ORTE was unable to reliably start", "launch" },
	{ "mpirun was unable to launch", "launch" },
	{ "There are not enough slots available", "launch" },
	{ "ORTE does not know how to route", "launch" },
	{ "was unable to complete a TCP connection", "launch" },
	{ "Two mutually-exclusive MCA variables", "launch" },
	{ "mpirun detected that one or more processes exited", "rank_exit" },
	{ "Primary job  terminated normally, but", "rank_exit" },
	{ "ssh: ", "ssh" },
	{ "cannot open shared object file", "library" },
};

/* Past "[1,0]<stdout>:" (mpirun --tag-output). */
static char *nccl_untag(char *line)
{
	char *close, *end;

	if (line[0] != '[' || !isdigit((unsigned char)line[1]))
		return line;
	close = strstr(line, "]<");
	end = close ? strstr(close, ">:") : NULL;
	return end ? end + 2 : line;
}

static int nccl_sig(struct sp_nccl *n, const char *code, const char *line)
{
	/* a job of many ranks repeats its failure: keep the first few */
	if (n->n_sigs >= 16)
		return 0;
	if (!GROW(n->sigs, n->n_sigs))
		return -ENOMEM;
	n->sigs[n->n_sigs].code = code;
	n->sigs[n->n_sigs].line = strdup(line);
	if (!n->sigs[n->n_sigs].line)
		return -ENOMEM;
	n->n_sigs++;
	return 0;
}

/* The columns of the table, from its second header line. */
struct nccl_layout {
	bool seen;
	size_t lead;			/* size count type [redop] [root] */
	bool has_redop, has_root;
	size_t half_width;		/* time algbw busbw #wrong [per-iteration columns] */
	size_t n_halves;
};

static const struct nccl_layout nccl_default_layout = {
	.lead = 5, .has_redop = true, .has_root = true, .half_width = 4, .n_halves = 2,
};

static void nccl_columns(struct sp_nccl *n, struct nccl_layout *l, char *line)
{
	char *tok[TOKENS_MAX];
	size_t k = split(line + 1, tok, TOKENS_MAX), i, second = 0;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < k; i++) {
		if (!strcmp(tok[i], "redop"))
			l->has_redop = true;
		else if (!strcmp(tok[i], "root"))
			l->has_root = true;
		else if (!strcmp(tok[i], "error"))
			n->old_error_column = true;
		else if (!strcmp(tok[i], "time") || !strcmp(tok[i], "cputime")) {
			if (!l->lead)
				l->lead = i;
			else if (!second)
				second = i;
		}
	}
	if (!l->lead)
		return;
	l->half_width = second ? second - l->lead : k - l->lead;
	l->n_halves = second ? 2 : 1;
	l->seen = l->half_width >= 4;
}

static bool nccl_half(char **tok, struct sp_nccl_half *h)
{
	h->has = num(tok[0], &h->time_us) && num(tok[1], &h->algbw_gb_per_s) &&
		 num(tok[2], &h->busbw_gb_per_s);
	h->has_wrong = h->has && num(tok[3], &h->wrong);
	return h->has;
}

/* A data row: 1 if the tokens are not one. */
static int nccl_row(struct sp_nccl *n, const struct nccl_layout *l, char **tok, size_t k)
{
	struct sp_nccl_row r = { 0 };
	size_t i = 3;

	if (k != l->lead + l->half_width * l->n_halves || !u64(tok[0], &r.size_bytes) ||
	    !u64(tok[1], &r.count))
		return 1;
	copy_str(r.type, sizeof(r.type), tok[2]);
	if (l->has_redop)
		copy_str(r.redop, sizeof(r.redop), tok[i++]);
	if (l->has_root) {
		r.has_root = true;
		r.root = strtoll(tok[i], NULL, 10);
	}
	if (!nccl_half(tok + l->lead, &r.out_of_place))
		return 1;
	if (l->n_halves == 2)
		nccl_half(tok + l->lead + l->half_width, &r.in_place);
	if (!GROW(n->rows, n->n_rows))
		return -ENOMEM;
	n->rows[n->n_rows++] = r;
	return 0;
}

/* "#  Rank  0 Group  0 Pid   1335 on         vm device  0 [0000:00:06] NVIDIA H200" */
static int nccl_rank(struct sp_nccl *n, char *line)
{
	char *tok[TOKENS_MAX], *name;
	struct sp_nccl_dev *d;
	size_t k;

	name = strchr(line, ']');
	k = split(line + 1, tok, 10);
	if (k < 10 || strcmp(tok[0], "Rank") || strcmp(tok[6], "on") || strcmp(tok[8], "device"))
		return 0;
	if (!GROW(n->devs, n->n_devs))
		return -ENOMEM;
	d = &n->devs[n->n_devs++];
	d->rank = atoi(tok[1]);
	copy_str(d->host, sizeof(d->host), tok[7]);
	d->device = atoi(tok[9]);
	if (name) {
		char *open = strchr(tok[9] + strlen(tok[9]) + 1, '[');

		if (open && open < name)
			snprintf(d->bus, sizeof(d->bus), "%.*s", (int)(name - open - 1), open + 1);
		copy_str(d->name, sizeof(d->name), trim(name + 1));
	}
	return 0;
}

/* "# nThread 1 nGpus 2 minBytes ..." */
static void nccl_config(struct sp_nccl *n, char *line)
{
	char *tok[TOKENS_MAX];
	size_t k = split(line + 1, tok, TOKENS_MAX), i;

	for (i = 0; i + 1 < k; i++) {
		if (!strcmp(tok[i], "nThread"))
			n->nthreads = (uint32_t)strtoul(tok[i + 1], NULL, 10);
		else if (!strcmp(tok[i], "nGpus"))
			n->ngpus = (uint32_t)strtoul(tok[i + 1], NULL, 10);
	}
}

/* A "#" line of the banner or the footer. */
static int nccl_comment(struct sp_nccl *n, struct nccl_layout *l, char *t)
{
	char *v, *tok[2] = { NULL, NULL };
	double d;

	if ((v = strstr(t, "nccl-tests version "))) {
		sscanf(v, "nccl-tests version %31s nccl-headers=%*d nccl-library=%" SCNu32,
		       n->version, &n->nccl_version);
	} else if ((v = strstr(t, "Collective test starting: "))) {
		copy_str(n->collective, sizeof(n->collective), trim(v + 26));
	} else if (strstr(t, "nThread ")) {
		nccl_config(n, t);
	} else if (strstr(t, " Rank ")) {
		return nccl_rank(n, t);
	} else if (strstr(t, "size") && (strstr(t, " time ") || strstr(t, " cputime "))) {
		nccl_columns(n, l, t);
	} else if ((v = strstr(t, "Out of bounds values"))) {
		v = strchr(v, ':');
		if (v && split(v + 1, tok, 2) == 2 && u64(tok[0], &n->out_of_bounds)) {
			n->has_out_of_bounds = true;
			n->out_of_bounds_ok = !strcmp(tok[1], "OK");
		}
	} else if ((v = strstr(t, "Avg bus bandwidth"))) {
		v = strchr(v, ':');
		if (v && split(v + 1, tok, 2) >= 1 && num(tok[0], &d)) {
			n->has_avg_busbw = true;
			n->avg_busbw_gb_per_s = d;
			n->avg_busbw_check = !tok[1] ? 0 : !strcmp(tok[1], "OK") ? 1 : -1;
		}
	} else if ((v = strstr(t, "Writing JSON output to "))) {
		free(n->json_file);
		n->json_file = strdup(trim(v + 23));
		return n->json_file ? 0 : -ENOMEM;
	} else if ((v = strstr(t, "# error: "))) {
		return nccl_sig(n, "nccl_error", trim(v + 9));
	}
	return 0;
}

/* An NCCL INFO or WARN line: what it says of the transport. */
static int nccl_debug(struct sp_nccl *n, const char *t)
{
	const char *v;

	if (strstr(t, "NCCL WARN"))
		return sp_bench_lines_add(&n->warnings, t);
	if (strstr(t, "NET/IB : No device found"))
		n->ib_no_device = true;
	if ((v = strstr(t, "Using network ")))
		copy_str(n->network, sizeof(n->network), v + 14);
	if ((v = strstr(t, "NET/IB : Using ")) && !strstr(v, "Using [RO]")) {
		free(n->ib_devices);
		n->ib_devices = strdup(v + 15);
		return n->ib_devices ? 0 : -ENOMEM;
	}
	return 0;
}

static int nccl_text_line(struct sp_nccl *n, struct nccl_layout *l, char *line)
{
	char *tok[TOKENS_MAX], *t = trim(nccl_untag(line)), *v;
	size_t k, i;
	int ret;

	if (!*t)
		return 0;
	if (*t == '#')
		return nccl_comment(n, l, t);
	if (strstr(t, "NCCL INFO") || strstr(t, "NCCL WARN"))
		return nccl_debug(n, t);
	if (!strncmp(t, "USAGE:", 6) || !strncmp(t, "invalid option", 14)) {
		n->usage = true;
		return 0;
	}
	if ((v = strstr(t, "Exit code:"))) {
		n->has_rank_exit = true;
		n->rank_exit = atoi(v + 10);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(nccl_failures); i++)
		if (strstr(t, nccl_failures[i].match))
			return nccl_sig(n, nccl_failures[i].code, t);
	k = split(t, tok, TOKENS_MAX);
	if (!k || !isdigit((unsigned char)tok[0][0]))
		return 0;
	ret = nccl_row(n, l->seen ? l : &nccl_default_layout, tok, k);
	return ret < 0 ? ret : 0;
}

static int nccl_text(struct sp_nccl *n, const char *text)
{
	struct nccl_layout layout = { 0 };
	char line[LINE_MAX_LEN];
	int ret = 0;

	while (!ret && next_line(&text, line, sizeof(line)))
		ret = nccl_text_line(n, &layout, line);
	return ret;
}

/* nccl-tests writes its booleans as the strings "true" and "false". */
static bool jbool_str(json_object *obj, const char *key)
{
	const char *s = jstr(obj, key);

	return s && !strcmp(s, "true");
}

static void nccl_json_half(json_object *o, struct sp_nccl_half *h)
{
	json_object *w;

	if (!o || !json_object_is_type(o, json_type_object))
		return;
	/* -C 1 reports CPU time under another key */
	h->has = (jnum(o, "time", &h->time_us) || jnum(o, "cpu_time", &h->time_us)) &&
		 jnum(o, "alg_bw", &h->algbw_gb_per_s) && jnum(o, "bus_bw", &h->busbw_gb_per_s);
	w = jget(o, "nwrong");
	h->has_wrong = w && !json_object_is_type(w, json_type_null) && jnum(o, "nwrong", &h->wrong);
}

static int nccl_json_rows(struct sp_nccl *n, json_object *results)
{
	size_t i, k = jarray_len(results);

	for (i = 0; i < k; i++) {
		json_object *r = json_object_array_get_idx(results, i);
		struct sp_nccl_row *row;
		const char *s;
		double v;

		if (!GROW(n->rows, n->n_rows))
			return -ENOMEM;
		row = &n->rows[n->n_rows++];
		row->size_bytes = jnum_u64(r, "size");
		row->count = jnum_u64(r, "count");
		if ((s = jstr(r, "type")))
			copy_str(row->type, sizeof(row->type), s);
		if ((s = jstr(r, "redop")))
			copy_str(row->redop, sizeof(row->redop), s);
		/* a padded string: "    -1" */
		if ((s = jstr(r, "root"))) {
			char root[32];

			copy_str(root, sizeof(root), s);
			row->has_root = num(trim(root), &v);
			row->root = row->has_root ? (int64_t)v : 0;
		}
		nccl_json_half(jget(r, "out_of_place"), &row->out_of_place);
		nccl_json_half(jget(r, "in_place"), &row->in_place);
	}
	return 0;
}

static int nccl_json_devs(struct sp_nccl *n, json_object *devs)
{
	size_t i, k = jarray_len(devs);

	for (i = 0; i < k; i++) {
		json_object *o = json_object_array_get_idx(devs, i);
		struct sp_nccl_dev *d;
		const char *s;
		double v;

		if (!GROW(n->devs, n->n_devs))
			return -ENOMEM;
		d = &n->devs[n->n_devs++];
		d->rank = jnum(o, "rank", &v) ? (int)v : 0;
		d->device = jnum(o, "device", &v) ? (int)v : 0;
		if ((s = jstr(o, "hostname")))
			copy_str(d->host, sizeof(d->host), s);
		if ((s = jstr(o, "device_hex")))
			copy_str(d->bus, sizeof(d->bus), s);
		if ((s = jstr(o, "device_info")))
			copy_str(d->name, sizeof(d->name), s);
	}
	return 0;
}

/* The -J file; its "env" list (the whole environment of rank 0) is never read. */
static int nccl_json(struct sp_nccl *n, const char *text)
{
	json_object *doc = json_whole(text), *cfg, *errs, *args, *x;
	const char *s;
	size_t i, k;
	double v;
	int ret;

	n->json = true;
	if (!doc)
		return nccl_sig(n, "truncated_json", "the -J file is not a complete JSON document");
	n->json_version = jnum(doc, "version", &v) ? (int)v : 0;
	n->nccl_version = (uint32_t)jnum_u64(doc, "nccl_version");
	args = jget(doc, "args");
	if (jarray_len(args) && (s = json_object_get_string(json_object_array_get_idx(args, 0)))) {
		const char *base = strrchr(s, '/');

		copy_str(n->collective, sizeof(n->collective), base ? base + 1 : s);
	}
	cfg = jget(doc, "config");
	n->nthreads = (uint32_t)jnum_u64(cfg, "nthreads");
	n->ngpus = (uint32_t)jnum_u64(cfg, "ngpus");
	ret = nccl_json_devs(n, jget(cfg, "devices"));
	if (!ret)
		ret = nccl_json_rows(n, jget(doc, "results"));
	x = jget(doc, "out_of_bounds");
	if (jnum(x, "count", &v)) {
		n->has_out_of_bounds = true;
		n->out_of_bounds = (uint64_t)v;
		n->out_of_bounds_ok = jbool_str(x, "okay");
	}
	x = jget(doc, "average_bus_bandwidth");
	if (jnum(x, "bandwidth", &n->avg_busbw_gb_per_s)) {
		n->has_avg_busbw = true;
		s = jstr(x, "okay");
		n->avg_busbw_check = !s || !strcmp(s, "unchecked") ? 0 : !strcmp(s, "true") ? 1 : -1;
	}
	errs = jget(doc, "errors");
	k = jarray_len(errs);
	for (i = 0; !ret && i < k; i++) {
		s = json_object_get_string(json_object_array_get_idx(errs, i));
		if (s && *s)
			ret = nccl_sig(n, "nccl_error", s);
	}
	json_object_put(doc);
	return ret;
}

int sp_nccl_parse(const char *text, struct sp_nccl *out)
{
	memset(out, 0, sizeof(*out));
	return first_char(text) == '{' ? nccl_json(out, text) : nccl_text(out, text);
}

void sp_nccl_free(struct sp_nccl *n)
{
	size_t i;

	free(n->devs);
	free(n->rows);
	free(n->json_file);
	free(n->ib_devices);
	for (i = 0; i < n->n_sigs; i++)
		free(n->sigs[i].line);
	free(n->sigs);
	sp_bench_lines_free(&n->warnings);
	memset(n, 0, sizeof(*n));
}

void sp_nccl_take_json_numbers(struct sp_nccl *text, struct sp_nccl *json)
{
	if (!json->n_rows)
		return;
	free(text->rows);
	text->rows = json->rows;
	text->n_rows = json->n_rows;
	json->rows = NULL;
	json->n_rows = 0;
	text->has_out_of_bounds = json->has_out_of_bounds;
	text->out_of_bounds = json->out_of_bounds;
	text->out_of_bounds_ok = json->out_of_bounds_ok;
	text->has_avg_busbw = json->has_avg_busbw;
	text->avg_busbw_gb_per_s = json->avg_busbw_gb_per_s;
	text->avg_busbw_check = json->avg_busbw_check;
	text->json = true;
	text->json_version = json->json_version;
}

/* The mean of the two halves that were measured. */
static double nccl_mean(const struct sp_nccl_row *r, bool bus)
{
	double sum = 0;
	int n = 0;

	if (r->out_of_place.has) {
		sum += bus ? r->out_of_place.busbw_gb_per_s : r->out_of_place.algbw_gb_per_s;
		n++;
	}
	if (r->in_place.has) {
		sum += bus ? r->in_place.busbw_gb_per_s : r->in_place.algbw_gb_per_s;
		n++;
	}
	return n ? sum / n : 0;
}

void sp_nccl_summarize(const struct sp_nccl *n, struct sp_nccl_summary *s)
{
	const struct sp_nccl_row *last = NULL;
	size_t i, j;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n->n_rows; i++) {
		const struct sp_nccl_row *r = &n->rows[i];

		if (!last || r->size_bytes >= last->size_bytes)
			last = r;
		if (r->out_of_place.has && r->out_of_place.busbw_gb_per_s > s->peak_busbw_gb_per_s)
			s->peak_busbw_gb_per_s = r->out_of_place.busbw_gb_per_s;
		if (r->in_place.has && r->in_place.busbw_gb_per_s > s->peak_busbw_gb_per_s)
			s->peak_busbw_gb_per_s = r->in_place.busbw_gb_per_s;
	}
	s->ranks = n->n_devs;
	for (i = 0; i < n->n_devs; i++) {
		for (j = 0; j < i && strcmp(n->devs[j].host, n->devs[i].host); j++)
			;
		s->hosts += j == i;
	}
	if (!last)
		return;
	s->valid = true;
	s->size_bytes = last->size_bytes;
	s->algbw_gb_per_s = nccl_mean(last, false);
	s->busbw_gb_per_s = nccl_mean(last, true);
	/* GB/s are 10^9 bytes: x 8 is exactly Gbit/s, each way for 2 ranks */
	s->per_direction_gbit_per_s = s->busbw_gb_per_s * 8;
}

/* nccl-tests' exit statuses (testResult_t), and mpirun's own. */
static const char *nccl_exit_meaning(int status)
{
	static const char *const meaning[] = {
		[1] = "internal error", [2] = "CUDA error", [3] = "NCCL error",
		[4] = "timeout", [5] = "not implemented, or too few GPUs",
		[6] = "invalid usage",
		[7] = "wrong values, or bus bandwidth under NCCL_TESTS_MIN_BW",
	};

	if (status > 0 && (size_t)status < ARRAY_SIZE(meaning))
		return meaning[status];
	if (status == 255)
		return "launch failure (ssh, mpirun) or invalid sizes";
	return NULL;
}

static size_t nccl_wrong_rows(const struct sp_nccl *n)
{
	size_t i, bad = 0;

	for (i = 0; i < n->n_rows; i++)
		bad += (n->rows[i].out_of_place.has_wrong && n->rows[i].out_of_place.wrong > 0) ||
		       (n->rows[i].in_place.has_wrong && n->rows[i].in_place.wrong > 0);
	return bad;
}

static bool nccl_has_sig(const struct sp_nccl *n, const char *code)
{
	size_t i;

	for (i = 0; i < n->n_sigs && strcmp(n->sigs[i].code, code); i++)
		;
	return i < n->n_sigs;
}

static int nccl_judge_sigs(const struct sp_nccl *n, struct sp_bench_verdict *v)
{
	size_t i, j;
	int ret = 0;

	/* one problem per kind of failure, with its first line */
	for (i = 0; !ret && i < n->n_sigs; i++) {
		for (j = 0; j < i && strcmp(n->sigs[j].code, n->sigs[i].code); j++)
			;
		if (j < i)
			continue;
		if (!strcmp(n->sigs[i].code, "rank_exit") && n->has_rank_exit)
			ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "rank_exit",
						   "a rank exited with status %d (%s)",
						   n->rank_exit, n->sigs[i].line);
		else
			ret = sp_bench_problem_add(v, SP_BENCH_FAIL, n->sigs[i].code, "%s",
						   n->sigs[i].line);
	}
	return ret;
}

int sp_nccl_judge(const struct sp_nccl *n, int exit_status, size_t hosts,
		  double min_busbw_gb_per_s, struct sp_bench_verdict *v)
{
	struct sp_nccl_summary s;
	size_t wrong = nccl_wrong_rows(n);
	int ret;

	sp_nccl_summarize(n, &s);
	if (!hosts)
		hosts = s.hosts;
	/* mpirun's own failures have statuses of their own */
	ret = judge_exit(exit_status, nccl_has_sig(n, "launch") || nccl_has_sig(n, "ssh") ? NULL :
			 nccl_exit_meaning(exit_status), v);
	if (!ret)
		ret = nccl_judge_sigs(n, v);
	if (!ret && n->usage)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "usage",
					   "nccl-tests printed its usage: an option it does not know");
	if (!ret && !n->n_rows)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result",
					   "nccl-tests produced no result rows");
	if (!ret && wrong)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "wrong_values",
					   "%zu size%s with #wrong > 0 (corrupted data)", wrong,
					   wrong == 1 ? "" : "s");
	if (!ret && n->has_out_of_bounds && (n->out_of_bounds || !n->out_of_bounds_ok))
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "wrong_values",
					   "out of bounds values: %" PRIu64, n->out_of_bounds);
	if (!ret && n->avg_busbw_check < 0)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "below_threshold",
					   "average bus bandwidth %.4g GB/s under NCCL_TESTS_MIN_BW",
					   n->avg_busbw_gb_per_s);
	/* one host's ranks talk over NVLink or shared memory: no network at all */
	if (!ret && hosts != 1 && (n->ib_no_device || !strcmp(n->network, "Socket")))
		ret = sp_bench_problem_add(v, hosts > 1 ? SP_BENCH_FAIL : SP_BENCH_WARN,
					   "socket_fallback", "NCCL %s: traffic between hosts goes "
					   "over TCP sockets, not RDMA",
					   n->ib_no_device ? "found no IB device" :
					   "uses the Socket network");
	if (!ret && n->n_rows && !n->has_avg_busbw)
		ret = sp_bench_problem_add(v, SP_BENCH_WARN, "truncated",
					   "no 'Avg bus bandwidth' line: the output ends early");
	if (!min_busbw_gb_per_s && hosts == 2 && s.ranks == 2)
		min_busbw_gb_per_s = SP_NCCL_TWO_SPARKS_MIN_BUSBW_GB_PER_S;
	if (!ret && s.valid && min_busbw_gb_per_s > 0 && s.busbw_gb_per_s < min_busbw_gb_per_s)
		ret = sp_bench_problem_add(v, SP_BENCH_WARN, "below_threshold",
					   "bus bandwidth %.2f GB/s (%.1f Gbit/s each way) at %" PRIu64
					   " B is under %.3f GB/s", s.busbw_gb_per_s,
					   s.per_direction_gbit_per_s, s.size_bytes,
					   min_busbw_gb_per_s);
	return ret;
}

/* ---- LLM benchmarks -------------------------------------------------------------- */

enum metric_role { M_VALUE, M_COMPLETED, M_FAILED, M_REQUESTED };

/* A key of a result file, the metric it becomes (NULL: the same name, its unit in it). */
struct metric_map {
	const char *key;
	const char *name;
	enum metric_role role;
};

/* vllm bench serve --save-result (serve.py) */
static const struct metric_map vllm_serve_map[] = {
	{ "num_prompts", NULL, M_REQUESTED },
	{ "completed", NULL, M_COMPLETED },
	{ "failed", NULL, M_FAILED },
	{ "duration", "duration_s", M_VALUE },
	{ "max_concurrency", NULL, M_VALUE },
	{ "total_input_tokens", NULL, M_VALUE },
	{ "total_output_tokens", NULL, M_VALUE },
	{ "request_throughput", "request_throughput_req_per_s", M_VALUE },
	{ "request_goodput", "request_goodput_req_per_s", M_VALUE },
	{ "output_throughput", "output_throughput_tok_per_s", M_VALUE },
	{ "total_token_throughput", "total_token_throughput_tok_per_s", M_VALUE },
	{ "max_output_tokens_per_s", NULL, M_VALUE },
	{ "max_concurrent_requests", NULL, M_VALUE },
};

/* vllm bench throughput --output-json (throughput.py) */
static const struct metric_map vllm_throughput_map[] = {
	{ "num_requests", NULL, M_COMPLETED },
	{ "elapsed_time", "elapsed_s", M_VALUE },
	{ "total_num_tokens", NULL, M_VALUE },
	{ "requests_per_second", "request_throughput_req_per_s", M_VALUE },
	{ "tokens_per_second", "token_throughput_tok_per_s", M_VALUE },
};

/* python3 -m sglang.bench_serving --output-file (bench_serving.py) */
static const struct metric_map sglang_serve_map[] = {
	{ "completed", NULL, M_COMPLETED },
	{ "duration", "duration_s", M_VALUE },
	{ "max_concurrency", NULL, M_VALUE },
	{ "total_input_tokens", NULL, M_VALUE },
	{ "total_output_tokens", NULL, M_VALUE },
	{ "total_output_tokens_retokenized", NULL, M_VALUE },
	{ "request_throughput", "request_throughput_req_per_s", M_VALUE },
	{ "input_throughput", "input_throughput_tok_per_s", M_VALUE },
	{ "output_throughput", "output_throughput_tok_per_s", M_VALUE },
	{ "max_output_tokens_per_s", NULL, M_VALUE },
	{ "concurrency", "mean_concurrency", M_VALUE },
};

/* python3 -m sglang.bench_offline_throughput --result-filename */
static const struct metric_map sglang_offline_map[] = {
	{ "successful_requests", "completed", M_COMPLETED },
	{ "total_latency", "total_latency_s", M_VALUE },
	{ "total_input_tokens", NULL, M_VALUE },
	{ "total_output_tokens", NULL, M_VALUE },
	{ "request_throughput", "request_throughput_req_per_s", M_VALUE },
	{ "input_throughput", "input_throughput_tok_per_s", M_VALUE },
	{ "output_throughput", "output_throughput_tok_per_s", M_VALUE },
	{ "total_throughput", "total_throughput_tok_per_s", M_VALUE },
	{ "last_gen_throughput", "last_gen_throughput_tok_per_s", M_VALUE },
};

static int metric_add(struct sp_llm *l, const char *name, double value)
{
	if (!GROW(l->metrics, l->n_metrics))
		return -ENOMEM;
	l->metrics[l->n_metrics].name = strdup(name);
	if (!l->metrics[l->n_metrics].name)
		return -ENOMEM;
	l->metrics[l->n_metrics++].value = value;
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The keys of map found in obj, then (copy_ms) every number whose key ends in "_ms". */
static int take_metrics(struct sp_llm *l, json_object *obj, const struct metric_map *map,
			size_t n, bool copy_ms)
{
	size_t i;
	double v;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		if (!jnum(obj, map[i].key, &v))
			continue;
		switch (map[i].role) {
		case M_COMPLETED:
			l->has_completed = true;
			l->completed = (uint64_t)v;
			break;
		case M_FAILED:
			l->has_failed = true;
			l->failed = (uint64_t)v;
			break;
		case M_REQUESTED:
			l->has_requested = true;
			l->requested = (uint64_t)v;
			continue;
		case M_VALUE:
			break;
		}
		ret = metric_add(l, map[i].name ? map[i].name : map[i].key, v);
	}
	if (!copy_ms)
		return ret;
	json_object_object_foreach(obj, key, val) {
		if (ret)
			break;
		(void)val;
		if (ends_with(key, "_ms") && jnum(obj, key, &v))
			ret = metric_add(l, key, v);
	}
	return ret;
}

/* TensorRT-LLM --report_json: the numbers of a section, by their path below it. */
static int take_tree(struct sp_llm *l, json_object *obj, const char *prefix)
{
	char name[160];
	int ret = 0;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return 0;
	json_object_object_foreach(obj, key, val) {
		if (ret)
			break;
		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", key);
		if (json_object_is_type(val, json_type_object))
			ret = take_tree(l, val, name);
		else if (json_object_is_type(val, json_type_double) ||
			 json_object_is_type(val, json_type_int))
			ret = metric_add(l, name, json_object_get_double(val));
	}
	return ret;
}

static int trtllm_report(struct sp_llm *l, json_object *doc)
{
	static const char *const sections[] = { "performance", "request_info", "streaming_metrics" };
	size_t i;
	double v;
	int ret = 0;

	l->kind = "report";
	if (jnum(jget(doc, "request_info"), "num_requests", &v)) {
		l->has_completed = true;
		l->completed = (uint64_t)v;
	}
	for (i = 0; !ret && i < ARRAY_SIZE(sections); i++)
		ret = take_tree(l, jget(doc, sections[i]), "");
	return ret;
}

/* One llama-bench test: "pp128", "tg128", "pp512+tg128", "@ d512" appended. */
static int llama_test(struct sp_llm *l, json_object *t)
{
	uint64_t p = jnum_u64(t, "n_prompt"), g = jnum_u64(t, "n_gen"), d = jnum_u64(t, "n_depth");
	char name[96], metric[128];
	double ts = 0, sd = 0;
	int ret;

	if (p && g)
		snprintf(name, sizeof(name), "pp%" PRIu64 "+tg%" PRIu64, p, g);
	else
		snprintf(name, sizeof(name), "%s%" PRIu64, g ? "tg" : "pp", g ? g : p);
	if (d)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "_d%" PRIu64, d);
	jnum(t, "avg_ts", &ts);
	jnum(t, "stddev_ts", &sd);
	snprintf(metric, sizeof(metric), "%s_tok_per_s", name);
	ret = metric_add(l, metric, ts);
	snprintf(metric, sizeof(metric), "%s_stddev_tok_per_s", name);
	if (!ret)
		ret = metric_add(l, metric, sd);
	l->has_completed = true;
	/* a test that produced no tokens did not complete */
	l->completed += ts > 0;
	l->has_requested = true;
	l->requested++;
	return ret;
}

static int llama(struct sp_llm *l, const char *text)
{
	json_object *doc = first_char(text) == '[' ? json_whole(text) : NULL;
	char line[LINE_MAX_LEN];
	size_t i;
	int ret = 0;

	l->kind = "llama-bench";
	if (doc) {
		/* -o json: an array (left unterminated when llama-bench dies: then nothing) */
		for (i = 0; !ret && i < jarray_len(doc); i++)
			ret = llama_test(l, json_object_array_get_idx(doc, i));
		json_object_put(doc);
		return ret;
	}
	while (!ret && next_line(&text, line, sizeof(line))) {
		json_object *t = first_char(line) == '{' ? json_whole(line) : NULL;

		if (t)
			ret = llama_test(l, t);
		json_object_put(t);
	}
	return ret;
}

/* A JSON document, or the last line of a JSONL file (the run appended last). */
static json_object *last_object(const char *text)
{
	char line[LINE_MAX_LEN], last[LINE_MAX_LEN] = "";
	json_object *doc = json_whole(text);

	if (doc)
		return doc;
	while (next_line(&text, line, sizeof(line)))
		if (first_char(line) == '{')
			copy_str(last, sizeof(last), line);
	return json_whole(last);
}

int sp_llm_parse(enum sp_llm_tool tool, const char *text, uint64_t requested, struct sp_llm *out)
{
	json_object *doc;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->tool = tool;
	if (requested) {
		out->has_requested = true;
		out->requested = requested;
	}
	if (tool == SP_LLM_LLAMA) {
		ret = llama(out, text);
		if (!ret && !out->n_metrics && !(out->error = strdup("no llama-bench test result")))
			ret = -ENOMEM;
		return ret;
	}
	doc = last_object(text);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		out->error = strdup("the result file holds no JSON object");
		return out->error ? 0 : -ENOMEM;
	}
	switch (tool) {
	case SP_LLM_VLLM:
		if (jget(doc, "requests_per_second")) {
			out->kind = "throughput";
			ret = take_metrics(out, doc, vllm_throughput_map,
					   ARRAY_SIZE(vllm_throughput_map), false);
		} else {
			out->kind = "serve";
			ret = take_metrics(out, doc, vllm_serve_map, ARRAY_SIZE(vllm_serve_map),
					   true);
		}
		break;
	case SP_LLM_SGLANG:
		if (jget(doc, "successful_requests")) {
			out->kind = "offline";
			ret = take_metrics(out, doc, sglang_offline_map,
					   ARRAY_SIZE(sglang_offline_map), false);
		} else {
			out->kind = "serve";
			ret = take_metrics(out, doc, sglang_serve_map, ARRAY_SIZE(sglang_serve_map),
					   true);
		}
		break;
	default:
		ret = trtllm_report(out, doc);
		break;
	}
	json_object_put(doc);
	return ret;
}

void sp_llm_free(struct sp_llm *l)
{
	size_t i;

	for (i = 0; i < l->n_metrics; i++)
		free(l->metrics[i].name);
	free(l->metrics);
	free(l->error);
	memset(l, 0, sizeof(*l));
}

int sp_llm_judge(const struct sp_llm *l, int exit_status, struct sp_bench_verdict *v)
{
	int ret = judge_exit(exit_status, NULL, v);

	if (!ret && l->error)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result", "%s", l->error);
	if (ret || l->error)
		return ret;
	if (!l->has_completed || !l->completed)
		return sp_bench_problem_add(v, SP_BENCH_FAIL, "failed_requests",
					    "no request completed");
	if (l->has_failed && l->failed)
		return sp_bench_problem_add(v, SP_BENCH_FAIL, "failed_requests",
					    "%" PRIu64 " request%s failed", l->failed,
					    l->failed == 1 ? "" : "s");
	if (l->has_requested && l->completed < l->requested)
		return sp_bench_problem_add(v, SP_BENCH_FAIL, "failed_requests",
					    "%" PRIu64 " of %" PRIu64 " %s completed", l->completed,
					    l->requested,
					    l->tool == SP_LLM_LLAMA ? "tests" : "requests");
	return 0;
}

/* ---- any tool ---------------------------------------------------------------- */

static const char *const tool_names[] = {
	[SP_BENCH_PERFTEST] = "perftest", [SP_BENCH_IPERF3] = "iperf3",
	[SP_BENCH_NCCL] = "nccl", [SP_BENCH_VLLM] = "vllm", [SP_BENCH_SGLANG] = "sglang",
	[SP_BENCH_TRTLLM] = "trtllm", [SP_BENCH_LLAMA] = "llama",
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
