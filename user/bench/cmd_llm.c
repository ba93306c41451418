// SPDX-License-Identifier: GPL-2.0
/*
 * The LLM benchmarks' commands of benchcmd.h: vLLM, SGLang, TensorRT-LLM
 * and llama-bench as the DGX Spark performance guide runs them, in its
 * containers or on this host.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"

const char sp_bench_trtllm_config[] =
	"kv_cache_config:\n"
	"  dtype: \"auto\"\n"
	"cuda_graph_config:\n"
	"  enable_padding: true\n";

/* The tools: their modes (the first is the default), the guide's image. */
static const struct {
	const char *modes[2];
	const char *image;
} llm_tools[] = {
	[SP_LLM_VLLM] = { { "serve", "throughput" }, "nvcr.io/nvidia/vllm:25.12-py3" },
	[SP_LLM_SGLANG] = { { "serve", "offline" }, "nvcr.io/nvidia/sglang:25.12-py3" },
	[SP_LLM_TRTLLM] = { { "throughput" }, "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6" },
	/* the guide builds llama.cpp and runs it on the host */
	[SP_LLM_LLAMA] = { { "bench" }, NULL },
};

const char *sp_bench_llm_default_mode(enum sp_llm_tool tool)
{
	return llm_tools[tool].modes[0];
}

bool sp_bench_llm_mode_valid(enum sp_llm_tool tool, const char *mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(llm_tools[tool].modes); i++)
		if (llm_tools[tool].modes[i] && !strcmp(mode, llm_tools[tool].modes[i]))
			return true;
	return false;
}

bool sp_bench_llm_concurrent(enum sp_llm_tool tool, const char *mode)
{
	/* trtllm-bench takes one offline; vLLM's throughput and SGLang's offline runs do not */
	if (tool == SP_LLM_TRTLLM)
		return true;
	return tool != SP_LLM_LLAMA && !strcmp(mode ? mode : llm_tools[tool].modes[0], "serve");
}

struct llm_ctx {
	const struct sp_bench_llm_opts *o;
	const char *image;		/* NULL: on this host */
	const char *dir;		/* the output directory as the tool sees it */
	uint32_t isl, osl, conc, prompts;
	bool in_process;		/* the engine runs in the container: the guide's ulimits */
};

/* The tool's container, when it runs in one. */
static void llm_container(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	if (x->image)
		sp_bench_container(b, x->image, x->o->home, x->o->out_dir, x->in_process);
}

/* The step's standard output is data, the file name in the output directory. */
static void stdout_to(struct sp_bench_builder *b, const char *name)
{
	if (b->err)
		return;
	free(b->c->stdout_name);
	b->c->stdout_name = NULL;
	sp_bench_field(b, &b->c->stdout_name, "%s", name);
	b->c->stdout_is_data = true;
}

static void llm_step(struct sp_bench_builder *b, const struct llm_ctx *x, enum sp_bench_tool tool,
		     const char *name)
{
	sp_bench_cmd_new(b, SP_BENCH_ROLE_STEP, tool, "%s", name);
	llm_container(b, x);
}

/*
 * The synthetic workload of the guide's clients: random prompts of ISL
 * tokens, OSL out; lengths: only those the user gave (the guide's SGLang
 * offline run gives none).
 */
static void random_dataset(struct sp_bench_builder *b, const struct llm_ctx *x, bool lengths)
{
	sp_bench_opt(b, "--dataset-name", "random");
	sp_bench_opt(b, "--num-prompts", "%u", x->prompts);
	if (lengths || x->o->isl)
		sp_bench_opt(b, "--random-input-len", "%u", x->isl);
	if (lengths || x->o->osl)
		sp_bench_opt(b, "--random-output-len", "%u", x->osl);
}

static void vllm_serve(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_VLLM, "vllm-bench-serve");
	sp_bench_arg(b, "vllm");
	sp_bench_arg(b, "bench");
	sp_bench_arg(b, "serve");
	sp_bench_opt(b, "--base-url", "%s", x->o->url ? x->o->url : "http://127.0.0.1:8000");
	sp_bench_opt(b, "--endpoint", "/v1/completions");
	sp_bench_opt(b, "--model", "%s", x->o->model);
	random_dataset(b, x, true);
	sp_bench_opt(b, "--percentile-metrics", "ttft,tpot,itl,e2el");
	sp_bench_opt(b, "--max-concurrency", "%u", x->conc);
	sp_bench_opt(b, "--request-rate", "inf");
	sp_bench_arg(b, "--save-result");
	sp_bench_opt(b, "--result-dir", "%s", x->dir);
	sp_bench_opt(b, "--result-filename", "vllm-serve.json");
	sp_bench_field(b, &b->c->json_name, "vllm-serve.json");
}

/* The words of a command as one quoted shell string (for the container's shell). */
static char *joined(char *const *v)
{
	struct sp_bench_cmd c = { .argv = (char **)v };

	return sp_bench_cmdline(&c);
}

static void vllm_throughput(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	struct sp_bench_cmds inner = { 0 };
	struct sp_bench_builder ib = { .cmds = &inner };
	char *script;

	/* the guide installs "datasets" first, in the same container: one shell */
	sp_bench_cmd_new(&ib, SP_BENCH_ROLE_STEP, SP_BENCH_NONE, "inner");
	sp_bench_arg(&ib, "vllm");
	sp_bench_arg(&ib, "bench");
	sp_bench_arg(&ib, "throughput");
	sp_bench_opt(&ib, "--model", "%s", x->o->model);
	sp_bench_opt(&ib, "--dataset-name", "random");
	sp_bench_opt(&ib, "--num-prompts", "%u", x->prompts);
	sp_bench_opt(&ib, "--input-len", "%u", x->isl);
	sp_bench_opt(&ib, "--output-len", "%u", x->osl);
	sp_bench_opt(&ib, "--max-model-len", "%u", x->isl + x->osl);
	sp_bench_opt(&ib, "--gpu-memory-utilization", "0.8");
	sp_bench_opt(&ib, "--output-json", "%s/vllm-throughput.json", x->dir);
	script = ib.err ? NULL : joined(inner.v[0].argv);
	sp_bench_cmds_free(&inner);
	if (!script) {
		b->err = -ENOMEM;
		return;
	}
	llm_step(b, x, SP_BENCH_VLLM, "vllm-bench-throughput");
	if (x->image) {
		sp_bench_arg(b, "bash");
		sp_bench_opt(b, "-lc", "pip install -q datasets && %s", script);
	} else {
		sp_bench_arg(b, "sh");
		sp_bench_opt(b, "-c", "%s", script);
	}
	free(script);
	sp_bench_field(b, &b->c->json_name, "vllm-throughput.json");
}

static void sglang_serve(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_SGLANG, "sglang-bench-serving");
	sp_bench_arg(b, "python3");
	sp_bench_opt(b, "-m", "sglang.bench_serving");
	sp_bench_opt(b, "--backend", "sglang");
	if (x->o->url) {
		sp_bench_opt(b, "--base-url", "%s", x->o->url);
	} else {
		sp_bench_opt(b, "--host", "127.0.0.1");
		sp_bench_opt(b, "--port", "30000");
	}
	sp_bench_opt(b, "--model", "%s", x->o->model);
	random_dataset(b, x, true);
	sp_bench_opt(b, "--max-concurrency", "%u", x->conc);
	sp_bench_opt(b, "--output-file", "%s/sglang-serve.jsonl", x->dir);
	sp_bench_field(b, &b->c->json_name, "sglang-serve.jsonl");
}

static void sglang_offline(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_SGLANG, "sglang-bench-offline-throughput");
	sp_bench_arg(b, "python3");
	sp_bench_opt(b, "-m", "sglang.bench_offline_throughput");
	sp_bench_opt(b, "--model-path", "%s", x->o->model);
	random_dataset(b, x, false);
	sp_bench_opt(b, "--result-filename", "%s/sglang-offline.jsonl", x->dir);
	sp_bench_field(b, &b->c->json_name, "sglang-offline.jsonl");
}

/* The guide's offline run, its "set -e" script as three steps. */
static void trtllm_throughput(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_NONE, "hf-download");
	sp_bench_arg(b, "hf");
	sp_bench_arg(b, "download");
	sp_bench_arg(b, "%s", x->o->model);

	/* the dataset is prepare_dataset.py's stdout */
	llm_step(b, x, SP_BENCH_NONE, "prepare-dataset");
	sp_bench_arg(b, "python");
	sp_bench_arg(b, "benchmarks/cpp/prepare_dataset.py");
	sp_bench_opt(b, "--tokenizer", "%s", x->o->model);
	sp_bench_opt(b, "--stdout", "token-norm-dist");
	sp_bench_opt(b, "--num-requests", "%u", x->prompts);
	sp_bench_opt(b, "--input-mean", "%u", x->isl);
	sp_bench_opt(b, "--input-stdev", "0");
	sp_bench_opt(b, "--output-mean", "%u", x->osl);
	sp_bench_opt(b, "--output-stdev", "0");
	stdout_to(b, "dataset.txt");

	llm_step(b, x, SP_BENCH_TRTLLM, "trtllm-bench");
	sp_bench_arg(b, "trtllm-bench");
	sp_bench_opt(b, "-m", "%s", x->o->model);
	sp_bench_arg(b, "throughput");
	sp_bench_opt(b, "--dataset", "%s/dataset.txt", x->dir);
	sp_bench_opt(b, "--backend", "pytorch");
	sp_bench_opt(b, "--tp", "1");
	sp_bench_opt(b, "--max_num_tokens", "%u", x->isl + x->osl);
	sp_bench_opt(b, "--concurrency", "%u", x->conc);
	sp_bench_opt(b, "--max_batch_size", "%u", x->conc);
	sp_bench_opt(b, "--kv_cache_free_gpu_mem_fraction", "0.95");
	sp_bench_opt(b, "--extra_llm_api_options", "%s/%s", x->dir, SP_BENCH_TRTLLM_CONFIG_NAME);
	sp_bench_opt(b, "--report_json", "%s/trtllm-report.json", x->dir);
	sp_bench_field(b, &b->c->json_name, "trtllm-report.json");
}

/* The guide's llama-bench, its results one JSON line per test on stdout. */
static void llama_bench(struct sp_bench_builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_LLAMA, "llama-bench");
	sp_bench_arg(b, "%s", x->o->llama_bench ? x->o->llama_bench : "llama-bench");
	sp_bench_opt(b, "-m", "%s", x->o->model);
	sp_bench_opt(b, "-t", "%u", x->o->threads ? x->o->threads : 1);
	sp_bench_opt(b, "-p", "%u", x->isl);
	sp_bench_opt(b, "-n", "%u", x->osl);
	sp_bench_opt(b, "-ngl", "99");
	sp_bench_opt(b, "-dio", "1");
	sp_bench_opt(b, "-fa", "1");
	sp_bench_opt(b, "-o", "jsonl");
	stdout_to(b, "llama-bench.jsonl");
	sp_bench_field(b, &b->c->json_name, "llama-bench.jsonl");
}

/* Each tool's builders: against a server (serve), and with the engine in process. */
static void (*const llm_builders[][2])(struct sp_bench_builder *b, const struct llm_ctx *x) = {
	[SP_LLM_VLLM] = { vllm_serve, vllm_throughput },
	[SP_LLM_SGLANG] = { sglang_serve, sglang_offline },
	[SP_LLM_TRTLLM] = { trtllm_throughput, trtllm_throughput },
	[SP_LLM_LLAMA] = { llama_bench, llama_bench },
};

int sp_bench_llm_cmds(const struct sp_bench_llm_opts *o, struct sp_bench_cmds *out)
{
	const char *mode = o->mode ? o->mode : llm_tools[o->tool].modes[0];
	const char *image = o->image ? o->image : llm_tools[o->tool].image;
	struct sp_bench_builder b = { .cmds = out };
	struct llm_ctx x = {
		.o = o,
		.image = image && strcmp(image, "none") ? image : NULL,
		.isl = o->isl ? o->isl : 128,
		.osl = o->osl ? o->osl : 128,
		.conc = o->concurrency ? o->concurrency : 1,
		.prompts = o->prompts ? o->prompts : 1,
	};
	size_t i;

	memset(out, 0, sizeof(*out));
	x.dir = x.image ? SP_BENCH_CONTAINER_OUT : o->out_dir;
	x.in_process = strcmp(mode, "serve") != 0;
	if (!sp_bench_llm_mode_valid(o->tool, mode))
		return -EINVAL;
	llm_builders[o->tool][x.in_process](&b, &x);
	for (i = 0; !b.err && i < out->n; i++)
		if (out->v[i].tool != SP_BENCH_NONE)
			sp_bench_field(&b, &out->v[i].label, "%s %s",
				       sp_bench_tool_str(out->v[i].tool), mode);
	return sp_bench_done(&b);
}
