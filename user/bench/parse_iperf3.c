// SPDX-License-Identifier: GPL-2.0
/*
 * The iperf3 parser of benchparse.h: -J output, and the text.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parseutil.h"

static void ip_end(json_object *o, struct sp_iperf3_end *e, struct sp_bench_invalid *bad)
{
	int64_t n;

	if (!o || !json_object_is_type(o, json_type_object))
		return;
	e->has = sp_bench_jvalue(o, "bits_per_second", &e->bits_per_second, bad) > 0;
	if (sp_bench_jint(o, "bytes", 0, INT64_MAX, &n, bad) > 0)
		e->bytes = (uint64_t)n;
	sp_bench_jvalue(o, "seconds", &e->seconds, bad);
	e->has_retransmits = sp_bench_jint(o, "retransmits", 0, INT64_MAX, &n, bad) > 0;
	if (e->has_retransmits)
		e->retransmits = (uint64_t)n;
}

static int ip_json(struct sp_iperf3 *r, const char *text)
{
	json_object *doc = sp_bench_json_whole(text), *start, *test, *end, *streams, *cpu;
	const char *s;
	size_t i, k;
	int64_t n;
	int ret = 0;

	r->json = true;
	if (!doc) {
		r->error = strdup("the output is not a JSON document");
		return r->error ? 0 : -ENOMEM;
	}
	start = sp_bench_jget(doc, "start");
	test = sp_bench_jget(start, "test_start");
	end = sp_bench_jget(doc, "end");
	sp_bench_jstr_copy(start, "version", r->version, sizeof(r->version));
	if (sp_bench_jint(test, "num_streams", 0, UINT32_MAX, &n, &r->invalid) > 0)
		r->num_streams = (uint32_t)n;
	sp_bench_jvalue(test, "duration", &r->duration_s, &r->invalid);
	/* iperf3 < 3.14 exits 0 in JSON mode on errors: the key is the truth */
	if ((s = sp_bench_jstr(doc, "error")) && !(r->error = strdup(s)))
		ret = -ENOMEM;
	streams = sp_bench_jget(end, "streams");
	k = sp_bench_jarray_len(streams);
	for (i = 0; !ret && i < k; i++) {
		json_object *st = json_object_array_get_idx(streams, i);
		struct sp_iperf3_stream *x;

		if (!GROW(r->streams, r->n_streams)) {
			ret = -ENOMEM;
			break;
		}
		x = &r->streams[r->n_streams++];
		ip_end(sp_bench_jget(st, "sender"), &x->sender, &r->invalid);
		ip_end(sp_bench_jget(st, "receiver"), &x->receiver, &r->invalid);
		x->socket = sp_bench_jint(sp_bench_jget(st, "sender"), "socket", 0, INT32_MAX, &n,
					  &r->invalid) > 0 ? n : -1;
	}
	ip_end(sp_bench_jget(end, "sum_sent"), &r->sum_sent, &r->invalid);
	ip_end(sp_bench_jget(end, "sum_received"), &r->sum_received, &r->invalid);
	cpu = sp_bench_jget(end, "cpu_utilization_percent");
	r->has_cpu = sp_bench_jvalue(cpu, "host_total", &r->cpu_host_percent, &r->invalid) > 0 &&
		     sp_bench_jvalue(cpu, "remote_total", &r->cpu_remote_percent, &r->invalid) > 0;
	sp_bench_jstr_copy(end, "sender_tcp_congestion", r->congestion, sizeof(r->congestion));
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

	if (!sp_bench_num(value, &v))
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
	int64_t whole;
	size_t n;

	if (line[0] != '[' || !close)
		return 0;
	*close = '\0';
	sum = !strcmp(sp_bench_trim(line + 1), "SUM");
	if (!sum && !sp_bench_u64(sp_bench_trim(line + 1), &id))
		return 0;
	n = sp_bench_split(close + 1, tok, ARRAY_SIZE(tok));
	if (n < 7 || strcmp(tok[1], "sec"))
		return 0;
	sender = !strcmp(tok[n - 1], "sender");
	if (!sender && strcmp(tok[n - 1], "receiver"))
		return 0;
	dash = strchr(tok[0], '-');
	if (!dash)
		return 0;
	*dash = '\0';
	if (!sp_bench_num(tok[0], &start) || !sp_bench_num(dash + 1, &stop) ||
	    !ip_value(tok[2], tok[3], &bytes) || !ip_value(tok[4], tok[5], &e.bits_per_second))
		return 0;
	e.seconds = stop - start;
	/* "1.32 GBytes": its whole bytes; "1e30 GBytes" is no transfer */
	if (!sp_bench_int_of(trunc(bytes), 0, INT64_MAX, &whole)) {
		char value[64];

		snprintf(value, sizeof(value), "%s %s", tok[2], tok[3]);
		sp_bench_invalid_add(&r->invalid, "Transfer", value, "a size in bytes");
		return 0;
	}
	e.bytes = (uint64_t)whole;
	if (n == 8 && sp_bench_u64(tok[6], &retr)) {
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

	while (!ret && sp_bench_next_line(&text, line, sizeof(line))) {
		t = sp_bench_trim(line);
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
	return sp_bench_first_char(text) == '{' ? ip_json(out, text) : ip_text(out, text);
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
	int ret = sp_bench_judge_exit(exit_status, r->error, v);

	if (!ret)
		ret = sp_bench_judge_invalid(&r->invalid, v);
	if (!ret && r->error && (exit_status == SP_BENCH_EXIT_UNKNOWN || !exit_status))
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "iperf3_error", "%s%s", r->error,
					   exit_status ? "" : " (although iperf3 exited 0)");
	if (!ret && !r->error && !r->sum_sent.has && !r->sum_received.has)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result",
					   "no sender or receiver summary");
	return ret;
}
