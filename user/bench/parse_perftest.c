// SPDX-License-Identifier: GPL-2.0
/*
 * The perftest parser of benchparse.h: the text of every label variant,
 * and the not-quite-JSON of --out_json.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parseutil.h"

/* Lines that say a perftest run failed (perftest_parameters.c, ..._resources.c, get_clock.c). */
static const char *const perftest_errors[] = {
	"unrecognized option", "invalid option", "Invalid Command or flag", "Couldn't ",
	"Unable to ", "Did not detect devices", "No IB devices found", "Failed to ",
	"Failed status", "Completion with error", "exists only in BW tests",
};

static const char *const perftest_warnings[] = {
	"WARNING", "Conflicting CPU frequency", "Device not recognized",
};

/* The first of the strings that line contains, or NULL. */
static const char *contains_any(const char *line, const char *const *what, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(line, what[i]))
			return what[i];
	return NULL;
}

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
	while (p[n] && !sp_bench_is_blank(p[n]))
		n++;
	if (!n || n >= size)
		return false;
	memcpy(val, p, n);
	val[n] = '\0';
	return true;
}

/* A count of the parameter block or the JSON file: qps, mtu, a size, iterations. */
static bool pt_count(struct sp_perftest *p, const char *key, const char *val, int64_t max,
		     uint64_t *out)
{
	int64_t v;

	if (sp_bench_tok_int(key, val, 0, max, &v, &p->invalid) <= 0)
		return false;
	*out = (uint64_t)v;
	return true;
}

static void pt_u32(struct sp_perftest *p, const char *key, const char *val, uint32_t *out)
{
	uint64_t v;

	if (pt_count(p, key, val, UINT32_MAX, &v))
		*out = (uint32_t)v;
}

/* The parameter block's values that the result reports. */
static void pt_params(struct sp_perftest *p, const char *line)
{
	char v[64];

	if (pt_field(line, "Device", v, sizeof(v)))
		sp_bench_copy_str(p->device, sizeof(p->device), v);
	if (pt_field(line, "Number of qps", v, sizeof(v)))
		pt_u32(p, "Number of qps", v, &p->qps);
	/* "4096[B]" */
	if (pt_field(line, "Mtu", v, sizeof(v))) {
		v[strcspn(v, "[")] = '\0';
		pt_u32(p, "Mtu", v, &p->mtu);
	}
	if (pt_field(line, "Link type", v, sizeof(v)))
		sp_bench_copy_str(p->link_type, sizeof(p->link_type), v);
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
	if (n < want || !sp_bench_u64(tok[0], &bytes) || !sp_bench_u64(tok[1], &iters))
		return 1;
	for (i = 2; i < want; i++)
		if (!sp_bench_num(tok[i], &v[i]))
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

	if (!eq || !strchr(t, '/') || strchr(t, ' ') || !sp_bench_u64(eq + 1, &delta))
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
	char *tok[TOKENS_MAX], *t = sp_bench_trim(line);
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
		sp_bench_copy_str(p->test, sizeof(p->test), t);
		return 0;
	}
	ret = pt_counter(p, t);
	if (ret <= 0)
		return ret;
	pt_params(p, t);
	n = sp_bench_split(t, tok, TOKENS_MAX);
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

#define PT_BW(member) false, offsetof(struct sp_perftest_bw_row, member)
#define PT_LAT(member) true, offsetof(struct sp_perftest_lat_row, member)

/* The measured values of a --out_json result: the key, the double of a BW or latency row. */
static const struct pt_json_value {
	const char *key;
	bool lat;
	size_t offset;
} pt_json_values[] = {
	{ "BW_peak", PT_BW(peak) },
	{ "BW_average", PT_BW(average) },
	{ "MsgRate", PT_BW(msg_rate_mpps) },
	{ "t_min", PT_LAT(t_min_us) },
	{ "t_max", PT_LAT(t_max_us) },
	{ "t_typical", PT_LAT(t_typical_us) },
	{ "t_avg", PT_LAT(t_avg_us) },
	{ "avg_lat", PT_LAT(t_avg_us) },
	{ "t_stdev", PT_LAT(t_stdev_us) },
	{ "percentile_99", PT_LAT(p99_us) },
	{ "percentile_99.9", PT_LAT(p99_9_us) },
};

static void pt_json_line(struct sp_perftest *p, char *line, struct sp_perftest_bw_row *bw,
			 struct sp_perftest_lat_row *lat)
{
	char *t = sp_bench_trim(line), *colon, *key, *val;
	size_t len, i;
	uint64_t n;
	double v;

	colon = strchr(t, ':');
	if (!colon)
		return;
	*colon = '\0';
	key = sp_bench_trim(t);
	val = sp_bench_trim(colon + 1);
	len = strlen(val);
	if (len && val[len - 1] == ',')
		val[--len] = '\0';
	unquote(key);
	unquote(val);
	if (!strcmp(key, "test"))
		sp_bench_copy_str(p->test, sizeof(p->test), val);
	else if (!strcmp(key, "Device"))
		sp_bench_copy_str(p->device, sizeof(p->device), val);
	else if (!strcmp(key, "Number_of_qps"))
		pt_u32(p, key, val, &p->qps);
	else if (!strcmp(key, "Mtu"))
		pt_u32(p, key, val, &p->mtu);
	else if (!strcmp(key, "Link_type"))
		sp_bench_copy_str(p->link_type, sizeof(p->link_type), val);
	if (!strcmp(key, "MsgSize") && pt_count(p, key, val, INT64_MAX, &n))
		bw->bytes = lat->bytes = n;
	else if (!strcmp(key, "n_iterations") && pt_count(p, key, val, INT64_MAX, &n))
		bw->iterations = lat->iterations = n;
	if (!sp_bench_num(val, &v))
		return;
	for (i = 0; i < ARRAY_SIZE(pt_json_values); i++) {
		const struct pt_json_value *jv = &pt_json_values[i];
		char *row = jv->lat ? (char *)lat : (char *)bw;

		if (!strcmp(key, jv->key))
			memcpy(row + jv->offset, &v, sizeof(v));
	}
}

static int pt_json(struct sp_perftest *p, const char *text, enum sp_perftest_unit unit)
{
	const char *text_start = text;
	struct sp_perftest_bw_row bw = { 0 };
	struct sp_perftest_lat_row lat = { 0 };
	char line[LINE_MAX_LEN];

	p->json = true;
	while (sp_bench_next_line(&text, line, sizeof(line)))
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

int sp_perftest_parse(const char *text, enum sp_perftest_unit unit, struct sp_perftest *out)
{
	enum pt_layout layout = PT_NONE;
	char line[LINE_MAX_LEN];
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (sp_bench_first_char(text) == '{')
		return pt_json(out, text, unit);
	while (!ret && sp_bench_next_line(&text, line, sizeof(line)))
		ret = pt_text_line(out, line, &layout);
	/* a header's unit is the output's own */
	if (out->unit == SP_PERFTEST_UNIT_UNKNOWN)
		out->unit = unit;
	return ret;
}

void sp_perftest_free(struct sp_perftest *p)
{
	free(p->bw);
	free(p->lat);
	FREE_NAMED(p->counters, p->n_counters, struct sp_perftest_counter, name);
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
	static const char *const names[] = {
		[SP_PERFTEST_UNIT_GBIT] = "Gbit/s", [SP_PERFTEST_UNIT_MIB] = "MiB/s",
	};

	return (size_t)unit < ARRAY_SIZE(names) && names[unit] ? names[unit] : "unknown";
}

size_t sp_perftest_bw_rows(const struct sp_perftest *p, uint64_t bytes)
{
	size_t i, n = 0;

	for (i = 0; i < p->n_bw; i++)
		n += p->bw[i].bytes == bytes;
	return n;
}

bool sp_perftest_bw_average(const struct sp_perftest *p, uint64_t *bytes, double *average)
{
	uint64_t max = 0;
	double sum = 0;
	size_t i, n;

	for (i = 0; i < p->n_bw; i++)
		if (p->bw[i].bytes > max)
			max = p->bw[i].bytes;
	n = sp_perftest_bw_rows(p, max);
	if (!n)
		return false;
	for (i = 0; i < p->n_bw; i++)
		if (p->bw[i].bytes == max)
			sum += p->bw[i].average;
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
	int ret = sp_bench_judge_exit(exit_status, p->errors.n ? p->errors.v[0] : NULL, v);
	size_t i;

	if (!ret)
		ret = sp_bench_judge_invalid(&p->invalid, v);
	if (!ret && p->errors.n && (exit_status == SP_BENCH_EXIT_UNKNOWN || !exit_status))
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "error_output", "%s", p->errors.v[0]);
	if (!ret && !p->n_bw && !p->n_lat)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result",
					   "no result row (none after a '#bytes' header)");
	if (!ret && p->n_bw && p->unit == SP_PERFTEST_UNIT_UNKNOWN)
		ret = sp_bench_problem_add(v, SP_BENCH_WARN, "unit_unknown",
					   "the bandwidth unit is not known (no header, JSON: "
					   "'unit gbit' or 'unit mib' says it)");
	for (i = 0; i < p->warnings.n; i++)
		if (strstr(p->warnings.v[i], "CPU Frequency is not max"))
			break;
	if (!ret && i < p->warnings.n)
		ret = sp_bench_problem_add(v, SP_BENCH_WARN, "cpu_frequency", "%s (perftest -F "
					   "hides this warning, not the slower CPU)",
					   p->warnings.v[i]);
	return ret;
}
