// SPDX-License-Identifier: GPL-2.0
/*
 * The LLM benchmarks' parser of benchparse.h: the result files of vLLM,
 * SGLang and TensorRT-LLM, and llama-bench's JSON lines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parseutil.h"

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

/* A result file's kind and how its keys are read. */
struct result_format {
	const char *kind;
	const struct metric_map *map;
	size_t n;
	bool copy_ms;			/* also every number whose key ends in "_ms" */
};

#define RESULT_FORMAT(kind, map, copy_ms) { kind, map, ARRAY_SIZE(map), copy_ms }

/* vLLM's and SGLang's two kinds of result file: one has a key the other lacks. */
static const struct {
	const char *marker;
	struct result_format marked, other;
} llm_formats[] = {
	[SP_LLM_VLLM] = {
		"requests_per_second", RESULT_FORMAT("throughput", vllm_throughput_map, false),
		RESULT_FORMAT("serve", vllm_serve_map, true),
	},
	[SP_LLM_SGLANG] = {
		"successful_requests", RESULT_FORMAT("offline", sglang_offline_map, false),
		RESULT_FORMAT("serve", sglang_serve_map, true),
	},
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

/* A count of requests or tests: whole, 0..INT64_MAX. */
static bool llm_count(struct sp_llm *l, json_object *obj, const char *key, uint64_t *out)
{
	int64_t n;

	if (sp_bench_jint(obj, key, 0, INT64_MAX, &n, &l->invalid) <= 0)
		return false;
	*out = (uint64_t)n;
	return true;
}

/* The keys of map found in obj, then (copy_ms) every number whose key ends in "_ms". */
static int take_metrics(struct sp_llm *l, json_object *obj, const struct metric_map *map,
			size_t n, bool copy_ms)
{
	uint64_t count;
	size_t i;
	double v;
	int ret = 0;

	for (i = 0; !ret && i < n; i++) {
		switch (map[i].role) {
		case M_COMPLETED:
			l->has_completed = llm_count(l, obj, map[i].key, &l->completed);
			if (!l->has_completed)
				continue;
			v = (double)l->completed;
			break;
		case M_FAILED:
			l->has_failed = llm_count(l, obj, map[i].key, &l->failed);
			if (!l->has_failed)
				continue;
			v = (double)l->failed;
			break;
		case M_REQUESTED:
			if (llm_count(l, obj, map[i].key, &count)) {
				l->has_requested = true;
				l->requested = count;
			}
			continue;
		case M_VALUE:
			if (sp_bench_jvalue(obj, map[i].key, &v, &l->invalid) <= 0)
				continue;
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
		if (ends_with(key, "_ms") && sp_bench_jvalue(obj, key, &v, &l->invalid) > 0)
			ret = metric_add(l, key, v);
	}
	return ret;
}

/* TensorRT-LLM --report_json: the numbers of a section, by their path below it. */
static int take_tree(struct sp_llm *l, json_object *obj, const char *prefix)
{
	char name[160];
	double v;
	int ret = 0;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return 0;
	json_object_object_foreach(obj, key, val) {
		if (ret)
			break;
		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", key);
		if (json_object_is_type(val, json_type_object))
			ret = take_tree(l, val, name);
		else if (sp_bench_jvalue(obj, key, &v, &l->invalid) > 0)
			ret = metric_add(l, name, v);
	}
	return ret;
}

static int trtllm_report(struct sp_llm *l, json_object *doc)
{
	static const char *const sections[] = { "performance", "request_info", "streaming_metrics" };
	size_t i;
	int ret = 0;

	l->kind = "report";
	l->has_completed = llm_count(l, sp_bench_jget(doc, "request_info"), "num_requests",
				     &l->completed);
	for (i = 0; !ret && i < ARRAY_SIZE(sections); i++)
		ret = take_tree(l, sp_bench_jget(doc, sections[i]), "");
	return ret;
}

/* One llama-bench test: "pp128", "tg128", "pp512+tg128", "@ d512" appended. */
static int llama_test(struct sp_llm *l, json_object *t)
{
	uint64_t p = 0, g = 0, d = 0;
	char name[96], metric[128];
	double ts = 0, sd = 0;
	int ret;

	llm_count(l, t, "n_prompt", &p);
	llm_count(l, t, "n_gen", &g);
	llm_count(l, t, "n_depth", &d);
	if (p && g)
		snprintf(name, sizeof(name), "pp%" PRIu64 "+tg%" PRIu64, p, g);
	else
		snprintf(name, sizeof(name), "%s%" PRIu64, g ? "tg" : "pp", g ? g : p);
	if (d)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "_d%" PRIu64, d);
	sp_bench_jvalue(t, "avg_ts", &ts, &l->invalid);
	sp_bench_jvalue(t, "stddev_ts", &sd, &l->invalid);
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
	json_object *doc = sp_bench_first_char(text) == '[' ? sp_bench_json_whole(text) : NULL;
	char line[LINE_MAX_LEN];
	size_t i;
	int ret = 0;

	l->kind = "llama-bench";
	if (doc) {
		/* -o json: an array (left unterminated when llama-bench dies: then nothing) */
		for (i = 0; !ret && i < sp_bench_jarray_len(doc); i++)
			ret = llama_test(l, json_object_array_get_idx(doc, i));
		json_object_put(doc);
		return ret;
	}
	while (!ret && sp_bench_next_line(&text, line, sizeof(line))) {
		json_object *t = sp_bench_first_char(line) == '{' ? sp_bench_json_whole(line) :
				 NULL;

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
	json_object *doc = sp_bench_json_whole(text);

	if (doc)
		return doc;
	while (sp_bench_next_line(&text, line, sizeof(line)))
		if (sp_bench_first_char(line) == '{')
			sp_bench_copy_str(last, sizeof(last), line);
	return sp_bench_json_whole(last);
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
	if (tool == SP_LLM_TRTLLM) {
		ret = trtllm_report(out, doc);
	} else {
		const struct result_format *f = sp_bench_jget(doc, llm_formats[tool].marker) ?
						&llm_formats[tool].marked : &llm_formats[tool].other;

		out->kind = f->kind;
		ret = take_metrics(out, doc, f->map, f->n, f->copy_ms);
	}
	json_object_put(doc);
	return ret;
}

void sp_llm_free(struct sp_llm *l)
{
	FREE_NAMED(l->metrics, l->n_metrics, struct sp_bench_metric, name);
	free(l->error);
	memset(l, 0, sizeof(*l));
}

int sp_llm_judge(const struct sp_llm *l, int exit_status, struct sp_bench_verdict *v)
{
	int ret = sp_bench_judge_exit(exit_status, NULL, v);

	if (!ret)
		ret = sp_bench_judge_invalid(&l->invalid, v);
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
