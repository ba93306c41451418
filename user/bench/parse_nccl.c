// SPDX-License-Identifier: GPL-2.0
/*
 * The nccl-tests parser of benchparse.h: the text table (with mpirun's
 * prefixes and boxes, NCCL's INFO lines interleaved) and the -J file; its
 * summary and its judge.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parseutil.h"

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
	size_t k = sp_bench_split(line + 1, tok, TOKENS_MAX), i, second = 0;

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
	h->has = sp_bench_num(tok[0], &h->time_us) && sp_bench_num(tok[1], &h->algbw_gb_per_s) &&
		 sp_bench_num(tok[2], &h->busbw_gb_per_s);
	h->has_wrong = h->has && sp_bench_num(tok[3], &h->wrong);
	return h->has;
}

/* A data row: 1 if the tokens are not one. */
static int nccl_row(struct sp_nccl *n, const struct nccl_layout *l, char **tok, size_t k)
{
	struct sp_nccl_row r = { 0 };
	size_t i = 3;
	int64_t root;

	if (k != l->lead + l->half_width * l->n_halves || !sp_bench_u64(tok[0], &r.size_bytes) ||
	    !sp_bench_u64(tok[1], &r.count))
		return 1;
	sp_bench_copy_str(r.type, sizeof(r.type), tok[2]);
	if (l->has_redop)
		sp_bench_copy_str(r.redop, sizeof(r.redop), tok[i++]);
	/* -1: no root */
	if (l->has_root && sp_bench_tok_int("root", tok[i], -1, INT32_MAX, &root, &n->invalid) > 0) {
		r.has_root = true;
		r.root = root;
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
	int64_t rank, device;
	size_t k;

	name = strchr(line, ']');
	k = sp_bench_split(line + 1, tok, 10);
	if (k < 10 || strcmp(tok[0], "Rank") || strcmp(tok[6], "on") || strcmp(tok[8], "device") ||
	    sp_bench_tok_int("Rank", tok[1], 0, INT32_MAX, &rank, &n->invalid) <= 0 ||
	    sp_bench_tok_int("device", tok[9], 0, INT32_MAX, &device, &n->invalid) <= 0)
		return 0;
	if (!GROW(n->devs, n->n_devs))
		return -ENOMEM;
	d = &n->devs[n->n_devs++];
	d->rank = (int)rank;
	sp_bench_copy_str(d->host, sizeof(d->host), tok[7]);
	d->device = (int)device;
	if (name) {
		char *open = strchr(tok[9] + strlen(tok[9]) + 1, '[');

		if (open && open < name)
			snprintf(d->bus, sizeof(d->bus), "%.*s", (int)(name - open - 1), open + 1);
		sp_bench_copy_str(d->name, sizeof(d->name), sp_bench_trim(name + 1));
	}
	return 0;
}

/* "# nThread 1 nGpus 2 minBytes ..." */
static void nccl_config(struct sp_nccl *n, char *line)
{
	char *tok[TOKENS_MAX];
	size_t k = sp_bench_split(line + 1, tok, TOKENS_MAX), i;
	int64_t v;

	for (i = 0; i + 1 < k; i++) {
		if (!strcmp(tok[i], "nThread") &&
		    sp_bench_tok_int(tok[i], tok[i + 1], 0, UINT32_MAX, &v, &n->invalid) > 0)
			n->nthreads = (uint32_t)v;
		else if (!strcmp(tok[i], "nGpus") &&
			 sp_bench_tok_int(tok[i], tok[i + 1], 0, UINT32_MAX, &v, &n->invalid) > 0)
			n->ngpus = (uint32_t)v;
	}
}

/* A "#" line of the banner or the footer. */
static int nccl_comment(struct sp_nccl *n, struct nccl_layout *l, char *t)
{
	char *v, *tok[2] = { NULL, NULL }, lib[32];
	int64_t x;
	double d;

	if ((v = strstr(t, "nccl-tests version "))) {
		if (sscanf(v, "nccl-tests version %31s nccl-headers=%*s nccl-library=%31s",
			   n->version, lib) == 2 &&
		    sp_bench_tok_int("nccl-library", lib, 0, UINT32_MAX, &x, &n->invalid) > 0)
			n->nccl_version = (uint32_t)x;
	} else if ((v = strstr(t, "Collective test starting: "))) {
		sp_bench_copy_str(n->collective, sizeof(n->collective), sp_bench_trim(v + 26));
	} else if (strstr(t, "nThread ")) {
		nccl_config(n, t);
	} else if (strstr(t, " Rank ")) {
		return nccl_rank(n, t);
	} else if (strstr(t, "size") && (strstr(t, " time ") || strstr(t, " cputime "))) {
		nccl_columns(n, l, t);
	} else if ((v = strstr(t, "Out of bounds values"))) {
		v = strchr(v, ':');
		if (v && sp_bench_split(v + 1, tok, 2) == 2 &&
		    sp_bench_u64(tok[0], &n->out_of_bounds)) {
			n->has_out_of_bounds = true;
			n->out_of_bounds_ok = !strcmp(tok[1], "OK");
		}
	} else if ((v = strstr(t, "Avg bus bandwidth"))) {
		v = strchr(v, ':');
		if (v && sp_bench_split(v + 1, tok, 2) >= 1 && sp_bench_num(tok[0], &d)) {
			n->has_avg_busbw = true;
			n->avg_busbw_gb_per_s = d;
			n->avg_busbw_check = !tok[1] ? 0 : !strcmp(tok[1], "OK") ? 1 : -1;
		}
	} else if ((v = strstr(t, "Writing JSON output to "))) {
		free(n->json_file);
		n->json_file = strdup(sp_bench_trim(v + 23));
		return n->json_file ? 0 : -ENOMEM;
	} else if ((v = strstr(t, "# error: "))) {
		return nccl_sig(n, "nccl_error", sp_bench_trim(v + 9));
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
		sp_bench_copy_str(n->network, sizeof(n->network), v + 14);
	if ((v = strstr(t, "NET/IB : Using ")) && !strstr(v, "Using [RO]")) {
		free(n->ib_devices);
		n->ib_devices = strdup(v + 15);
		return n->ib_devices ? 0 : -ENOMEM;
	}
	return 0;
}

static int nccl_text_line(struct sp_nccl *n, struct nccl_layout *l, char *line)
{
	char *tok[TOKENS_MAX], *t = sp_bench_trim(nccl_untag(line)), *v, *word[1];
	int64_t status;
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
		if (sp_bench_split(v + 10, word, 1) &&
		    sp_bench_tok_int("Exit code", word[0], 0, 255, &status, &n->invalid) > 0) {
			n->has_rank_exit = true;
			n->rank_exit = (int)status;
		}
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(nccl_failures); i++)
		if (strstr(t, nccl_failures[i].match))
			return nccl_sig(n, nccl_failures[i].code, t);
	k = sp_bench_split(t, tok, TOKENS_MAX);
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

	while (!ret && sp_bench_next_line(&text, line, sizeof(line)))
		ret = nccl_text_line(n, &layout, line);
	return ret;
}

/* nccl-tests writes its booleans as the strings "true" and "false". */
static bool jbool_str(json_object *obj, const char *key)
{
	const char *s = sp_bench_jstr(obj, key);

	return s && !strcmp(s, "true");
}

static void nccl_json_half(json_object *o, struct sp_nccl_half *h, struct sp_bench_invalid *bad)
{
	json_object *w;

	if (!o || !json_object_is_type(o, json_type_object))
		return;
	/* -C 1 reports CPU time under another key */
	h->has = (sp_bench_jvalue(o, "time", &h->time_us, bad) > 0 ||
		  sp_bench_jvalue(o, "cpu_time", &h->time_us, bad) > 0) &&
		 sp_bench_jvalue(o, "alg_bw", &h->algbw_gb_per_s, bad) > 0 &&
		 sp_bench_jvalue(o, "bus_bw", &h->busbw_gb_per_s, bad) > 0;
	w = sp_bench_jget(o, "nwrong");
	h->has_wrong = w && !json_object_is_type(w, json_type_null) &&
		       sp_bench_jvalue(o, "nwrong", &h->wrong, bad) > 0;
}

static int nccl_json_row(struct sp_nccl *n, json_object *r)
{
	struct sp_nccl_row *row;
	const char *s;
	int64_t v;

	if (!GROW(n->rows, n->n_rows))
		return -ENOMEM;
	row = &n->rows[n->n_rows++];
	if (sp_bench_jint(r, "size", 0, INT64_MAX, &v, &n->invalid) > 0)
		row->size_bytes = (uint64_t)v;
	if (sp_bench_jint(r, "count", 0, INT64_MAX, &v, &n->invalid) > 0)
		row->count = (uint64_t)v;
	sp_bench_jstr_copy(r, "type", row->type, sizeof(row->type));
	sp_bench_jstr_copy(r, "redop", row->redop, sizeof(row->redop));
	/* a padded string: "    -1" */
	if ((s = sp_bench_jstr(r, "root"))) {
		char root[32];

		sp_bench_copy_str(root, sizeof(root), s);
		row->has_root = sp_bench_tok_int("root", sp_bench_trim(root), -1, INT32_MAX, &v,
						 &n->invalid) > 0;
		row->root = row->has_root ? v : 0;
	}
	nccl_json_half(sp_bench_jget(r, "out_of_place"), &row->out_of_place, &n->invalid);
	nccl_json_half(sp_bench_jget(r, "in_place"), &row->in_place, &n->invalid);
	return 0;
}

static int nccl_json_dev(struct sp_nccl *n, json_object *o)
{
	struct sp_nccl_dev *d;
	int64_t v;

	if (!GROW(n->devs, n->n_devs))
		return -ENOMEM;
	d = &n->devs[n->n_devs++];
	d->rank = sp_bench_jint(o, "rank", 0, INT32_MAX, &v, &n->invalid) > 0 ? (int)v : 0;
	d->device = sp_bench_jint(o, "device", 0, INT32_MAX, &v, &n->invalid) > 0 ? (int)v : 0;
	sp_bench_jstr_copy(o, "hostname", d->host, sizeof(d->host));
	sp_bench_jstr_copy(o, "device_hex", d->bus, sizeof(d->bus));
	sp_bench_jstr_copy(o, "device_info", d->name, sizeof(d->name));
	return 0;
}

/* fn on each item of the array arr (none when it is not one); 0 or fn's first error. */
static int nccl_json_each(struct sp_nccl *n, json_object *arr,
			  int (*fn)(struct sp_nccl *n, json_object *item))
{
	size_t i, k = sp_bench_jarray_len(arr);
	int ret = 0;

	for (i = 0; !ret && i < k; i++)
		ret = fn(n, json_object_array_get_idx(arr, i));
	return ret;
}

/* The -J file; its "env" list (the whole environment of rank 0) is never read. */
static int nccl_json(struct sp_nccl *n, const char *text)
{
	json_object *doc = sp_bench_json_whole(text), *cfg, *errs, *args, *x;
	const char *s;
	size_t i, k;
	int64_t v;
	int ret;

	n->json = true;
	if (!doc)
		return nccl_sig(n, "truncated_json", "the -J file is not a complete JSON document");
	if (sp_bench_jint(doc, "version", 0, INT32_MAX, &v, &n->invalid) > 0)
		n->json_version = (int)v;
	if (sp_bench_jint(doc, "nccl_version", 0, UINT32_MAX, &v, &n->invalid) > 0)
		n->nccl_version = (uint32_t)v;
	args = sp_bench_jget(doc, "args");
	s = sp_bench_jarray_len(args) ? json_object_get_string(json_object_array_get_idx(args, 0)) :
	    NULL;
	if (s) {
		const char *base = strrchr(s, '/');

		sp_bench_copy_str(n->collective, sizeof(n->collective), base ? base + 1 : s);
	}
	cfg = sp_bench_jget(doc, "config");
	if (sp_bench_jint(cfg, "nthreads", 0, UINT32_MAX, &v, &n->invalid) > 0)
		n->nthreads = (uint32_t)v;
	if (sp_bench_jint(cfg, "ngpus", 0, UINT32_MAX, &v, &n->invalid) > 0)
		n->ngpus = (uint32_t)v;
	ret = nccl_json_each(n, sp_bench_jget(cfg, "devices"), nccl_json_dev);
	if (!ret)
		ret = nccl_json_each(n, sp_bench_jget(doc, "results"), nccl_json_row);
	x = sp_bench_jget(doc, "out_of_bounds");
	if (sp_bench_jint(x, "count", 0, INT64_MAX, &v, &n->invalid) > 0) {
		n->has_out_of_bounds = true;
		n->out_of_bounds = (uint64_t)v;
		n->out_of_bounds_ok = jbool_str(x, "okay");
	}
	x = sp_bench_jget(doc, "average_bus_bandwidth");
	if (sp_bench_jvalue(x, "bandwidth", &n->avg_busbw_gb_per_s, &n->invalid) > 0) {
		n->has_avg_busbw = true;
		s = sp_bench_jstr(x, "okay");
		n->avg_busbw_check = !s || !strcmp(s, "unchecked") ? 0 : !strcmp(s, "true") ? 1 : -1;
	}
	errs = sp_bench_jget(doc, "errors");
	k = sp_bench_jarray_len(errs);
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
	return sp_bench_first_char(text) == '{' ? nccl_json(out, text) : nccl_text(out, text);
}

void sp_nccl_free(struct sp_nccl *n)
{
	free(n->devs);
	free(n->rows);
	free(n->json_file);
	free(n->ib_devices);
	FREE_NAMED(n->sigs, n->n_sigs, struct sp_nccl_signature, line);
	sp_bench_lines_free(&n->warnings);
	memset(n, 0, sizeof(*n));
}

void sp_nccl_take_json_numbers(struct sp_nccl *text, struct sp_nccl *json)
{
	sp_bench_invalid_take(&text->invalid, &json->invalid);
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
	ret = sp_bench_judge_exit(exit_status,
				  nccl_has_sig(n, "launch") || nccl_has_sig(n, "ssh") ? NULL :
				  nccl_exit_meaning(exit_status), v);
	if (!ret)
		ret = sp_bench_judge_invalid(&n->invalid, v);
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
