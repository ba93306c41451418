// SPDX-License-Identifier: GPL-2.0
/*
 * bench imagegen and bench finetune: the DGX Spark performance guide's Image
 * Generation and Fine-tuning command lines (exact argv), the parsers of
 * TensorRT demo/Diffusion's latency tables and of the Hugging Face
 * Trainer's log lines on the fixtures of tests/fixtures (tensorrt-diffusion,
 * hf-trainer), what is refused, and the real sparkperf-ctl end to end: its
 * dry runs, bench parse, and runs on this host against stand-in scripts.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "bench/benchcmd.h"
#include "bench/benchexec.h"
#define TESTUTIL_CLI
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FIXTURES "../fixtures"

/* ---- the guide's command lines ---------------------------------------------- */

/* The guide's demo lines, word for word (its --hf-token="$HF_TOKEN" expanded in the container). */
#define FLUX "python3 demo_txt2img_flux.py 'a beautiful photograph of Mt. Fuji during cherry " \
	"blossom' --hf-token=\"$HF_TOKEN\" --version=flux.1-schnell --fp4 --download-onnx-models " \
	"--batch-size 1 --width 1024 --height 1024 --denoising-steps 4"
#define SDXL "python3 demo_txt2img_xl.py 'a beautiful photograph of Mt. Fuji during cherry " \
	"blossom' --hf-token=\"$HF_TOKEN\" --version xl-1.0 --download-onnx-models " \
	"--batch-size 2 --width 1024 --height 1024 --denoising-steps 50"
/* Its "Inside the container" steps, one shell. */
#define TRT_SETUP "git clone https://github.com/NVIDIA/TensorRT.git -b main --single-branch " \
	"&& export TRT_OSSPATH=$PWD/TensorRT && cd $TRT_OSSPATH/demo/Diffusion " \
	"&& pip install 'nvidia-modelopt[onnx,hf]' " \
	"&& sed -i '/^nvidia-modelopt\\[.*\\]=.*/d' requirements.txt " \
	"&& pip install -r requirements.txt && apt-get update " \
	"&& apt-get install -y libgl1 libglib2.0-0 libsm6 libxrender1 libxext6 && "
#define FT_SETUP "pip install transformers peft datasets \"trl==0.26.2\" " \
	"\"bitsandbytes==0.49.1\" && git clone https://github.com/NVIDIA/dgx-spark-playbooks " \
	"&& git -C dgx-spark-playbooks checkout -q b8516f3d69e35988a5b4664944fc0c51810d492e " \
	"&& cd dgx-spark-playbooks/nvidia/pytorch-fine-tune/assets && "
#define FT_ENV(dir) "BNB_CUDA_VERSION=130 PYTHONPATH=" dir " "

/* The guide's docker run, up to the command run in it. */
static const char *const docker[] = {
	"docker", "run", "--rm", "--gpus", "all", "--ipc", "host", "--network", "host", "-e",
	"HF_TOKEN", "-v", "/home/u/.cache/huggingface:/root/.cache/huggingface", "-v",
	"/out:/sparkperf-out", "nvcr.io/nvidia/pytorch:25.12-py3",
};

static const struct sp_bench_gen_opts base = { .home = "/home/u", .out_dir = "/out" };

/* Command i: a step of tool named name, its argv the docker words (or none) and rest. */
static void step_is(const struct sp_bench_cmds *c, size_t i, enum sp_bench_tool tool,
		    const char *name, bool in_docker, const char *const *rest, size_t n)
{
	const struct sp_bench_cmd *x = &c->v[i];
	size_t k, d = in_docker ? ARRAY_SIZE(docker) : 0;

	ck_assert_uint_lt(i, c->n);
	ck_assert_int_eq(x->role, SP_BENCH_ROLE_STEP);
	ck_assert_int_eq(x->tool, tool);
	ck_assert_str_eq(x->name, name);
	for (k = 0; k < d; k++)
		ck_assert_str_eq(x->argv[k], docker[k]);
	for (k = 0; k < n; k++)
		ck_assert_str_eq(x->argv[d + k], rest[k]);
	ck_assert_ptr_null(x->argv[d + n]);
	ck_assert_ptr_null(x->env[0]);
}

START_TEST(test_imagegen_guide)
{
	struct sp_bench_gen_opts o = base;
	const char *const flux[] = { "bash", "-lc", TRT_SETUP FLUX };
	const char *const sdxl[] = { "bash", "-lc", TRT_SETUP SDXL };
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_imagegen_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 2);
	step_is(&c, 0, SP_BENCH_IMAGEGEN, "imagegen-flux", true, flux, 3);
	step_is(&c, 1, SP_BENCH_IMAGEGEN, "imagegen-sdxl", true, sdxl, 3);
	ck_assert_str_eq(c.v[1].label, "imagegen sdxl");
	ck_assert_str_eq(c.v[1].stdout_name, "imagegen-sdxl.stdout");
	ck_assert_ptr_null(c.v[1].json_name);
	sp_bench_cmds_free(&c);
}
END_TEST

START_TEST(test_imagegen_host)
{
	static const char *const sdxl_only[] = { "sdxl" };
	struct sp_bench_gen_opts o = base;
	const char *const sdxl[] = {
		"sh", "-c", "cd '/my demo' && python3 demo_txt2img_xl.py 'a beautiful photograph of "
		"Mt. Fuji during cherry blossom' --hf-token=\"$HF_TOKEN\" --version xl-1.0 "
		"--download-onnx-models --batch-size 4 --width 1024 --height 1024 --denoising-steps 30",
	};
	static const char *const bogus[] = { "flux", "sd3" };
	struct sp_bench_cmds c;

	o.image = "none";
	o.dir = "/my demo";
	o.tests = sdxl_only;
	o.n_tests = 1;
	o.batch = 4;
	o.steps = 30;
	ck_assert_int_eq(sp_bench_imagegen_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 1);
	step_is(&c, 0, SP_BENCH_IMAGEGEN, "imagegen-sdxl", false, sdxl, 3);
	sp_bench_cmds_free(&c);

	o.tests = bogus;
	o.n_tests = 2;
	ck_assert_int_eq(sp_bench_imagegen_cmds(&o, &c), -EINVAL);
	ck_assert_uint_eq(c.n, 0);
	ck_assert(sp_bench_imagegen_test_valid("flux"));
	ck_assert(!sp_bench_imagegen_test_valid("lora"));
}
END_TEST

START_TEST(test_finetune_guide)
{
	struct sp_bench_gen_opts o = base;
	const char *const lora[] = {
		"bash", "-lc", FT_SETUP FT_ENV("/sparkperf-out")
		"python Llama3_8B_LoRA_finetuning.py --use_torch_compile",
	};
	const char *const qlora[] = {
		"bash", "-lc", FT_SETUP FT_ENV("/sparkperf-out") "python Llama3_70B_qLoRA_finetuning.py",
	};
	const char *const full[] = {
		"bash", "-lc", FT_SETUP FT_ENV("/sparkperf-out")
		"python Llama3_3B_full_finetuning.py --use_torch_compile",
	};
	struct sp_bench_cmds c;

	ck_assert_int_eq(sp_bench_finetune_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 3);
	step_is(&c, 0, SP_BENCH_FINETUNE, "finetune-lora", true, lora, 3);
	step_is(&c, 1, SP_BENCH_FINETUNE, "finetune-qlora", true, qlora, 3);
	step_is(&c, 2, SP_BENCH_FINETUNE, "finetune-full", true, full, 3);
	ck_assert_str_eq(c.v[2].label, "finetune full");
	sp_bench_cmds_free(&c);
	ck_assert(sp_bench_finetune_test_valid("qlora"));
	ck_assert(!sp_bench_finetune_test_valid("flux"));
}
END_TEST

START_TEST(test_finetune_host)
{
	static const char *const two[] = { "full", "lora" };
	struct sp_bench_gen_opts o = base;
	const char *const full[] = {
		"sh", "-c", "cd /src/dgx-spark-playbooks/nvidia/pytorch-fine-tune/assets && "
		FT_ENV("'/o u t'") "python Llama3_3B_full_finetuning.py --use_torch_compile",
	};
	struct sp_bench_cmds c;

	o.image = "none";
	o.dir = "/src/dgx-spark-playbooks";
	o.out_dir = "/o u t";
	o.tests = two;
	o.n_tests = 2;
	ck_assert_int_eq(sp_bench_finetune_cmds(&o, &c), 0);
	ck_assert_uint_eq(c.n, 2);
	step_is(&c, 0, SP_BENCH_FINETUNE, "finetune-full", false, full, 3);
	ck_assert_str_eq(c.v[1].name, "finetune-lora");
	sp_bench_cmds_free(&c);
	/* what the hook prints is what the parser reads */
	ck_assert_ptr_nonnull(strstr(sp_bench_finetune_hook,
				     "sparkperf: peak_memory_allocated_bytes=%d "
				     "peak_memory_reserved_bytes=%d"));
}
END_TEST

/* ---- the parsers ---------------------------------------------------------------- */

static char *fixture(const char *name)
{
	char path[PATH_MAX];
	char *text;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	text = sp_bench_read_file(NULL, path);
	ck_assert_msg(text != NULL, "%s", path);
	return text;
}

/* The value of metric name, which must be there. */
static double metric(const struct sp_llm *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n_metrics; i++)
		if (!strcmp(l->metrics[i].name, name))
			return l->metrics[i].value;
	ck_abort_msg("no metric %s", name);
	return 0;
}

static bool has_metric(const struct sp_llm *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n_metrics; i++)
		if (!strcmp(l->metrics[i].name, name))
			return true;
	return false;
}

/* The judge's codes for l and an exit status. */
static const char *judged(const struct sp_llm *l, int exit_status)
{
	static char codes[128];
	struct sp_bench_verdict v = { 0 };

	ck_assert_int_eq(sp_gen_judge(l, exit_status, &v), 0);
	snprintf(codes, sizeof(codes), "%s", bench_codes(&v));
	sp_bench_verdict_free(&v);
	return codes;
}

START_TEST(test_imagegen_fixtures)
{
	char *text = fixture("tensorrt-diffusion/demo_txt2img_sd15_trt9.1_768_excerpt.txt");
	struct sp_llm l;

	ck_assert_int_eq(sp_imagegen_parse(text, &l), 0);
	ck_assert_ptr_null(l.error);
	ck_assert_uint_eq(l.completed, 1);
	ck_assert_double_eq_tol(metric(&l, "stage_clip_ms"), 2.65, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "stage_unet_ms"), 1923.51, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "stage_vae_dec_ms"), 46.68, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "pipeline_latency_ms"), 1972.95, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "throughput_images_per_s"), 0.51, 1e-9);
	/* 0.51 image/s x 1.97295 s: one image a run */
	ck_assert_double_eq(metric(&l, "images_per_run"), 1);
	ck_assert_double_eq_tol(metric(&l, "latency_per_image_ms"), 1972.95, 1e-9);
	ck_assert_double_eq(metric(&l, "denoising_steps"), 50);
	ck_assert_str_eq(judged(&l, 0), "");
	ck_assert_str_eq(judged(&l, 1), "exit_status");
	sp_llm_free(&l);
	free(text);

	/* an older demo: no throughput line, so neither images per second nor per image */
	text = fixture("tensorrt-diffusion/demo_txt2img_sd15_trt8.6_issue3039_excerpt.txt");
	ck_assert_int_eq(sp_imagegen_parse(text, &l), 0);
	ck_assert_double_eq_tol(metric(&l, "pipeline_latency_ms"), 936.97, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "stage_unet_ms"), 912.28, 1e-9);
	ck_assert(!has_metric(&l, "throughput_images_per_s"));
	ck_assert(!has_metric(&l, "latency_per_image_ms"));
	ck_assert_str_eq(judged(&l, SP_BENCH_EXIT_UNKNOWN), "");
	sp_llm_free(&l);
	free(text);
}
END_TEST

/*
 * Today's Flux pipeline, as its print_summary() writes it (TensorRT main,
 * demo/Diffusion/demo_diffusion/pipeline/flux_pipeline.py), for two runs
 * (--batch-count 2) of a batch of 2.
 */
static const char flux_two_runs[] =
	"[I] Running Flux pipeline\n"
	"|-----------------|--------------|\n"
	"|     Module      |   Latency    |\n"
	"|-----------------|--------------|\n"
	"|      CLIP       |      4.00 ms |\n"
	"|       T5        |     20.00 ms |\n"
	"| Transformer x 4 |    800.00 ms |\n"
	"|     VAE-Dec     |    100.00 ms |\n"
	"|-----------------|--------------|\n"
	"|    Pipeline     |   1000.00 ms |\n"
	"|-----------------|--------------|\n"
	"Throughput: 2.00 image/s\n"
	"[I] Running Flux pipeline\n"
	"|-----------------|--------------|\n"
	"|     Module      |   Latency    |\n"
	"|-----------------|--------------|\n"
	"|      CLIP       |      6.00 ms |\n"
	"|       T5        |     20.00 ms |\n"
	"| Transformer x 4 |   1000.00 ms |\n"
	"|     VAE-Dec     |    100.00 ms |\n"
	"|-----------------|--------------|\n"
	"|    Pipeline     |   1250.00 ms |\n"
	"|-----------------|--------------|\n"
	"Throughput: 1.60 image/s\n";

START_TEST(test_imagegen_flux_runs)
{
	struct sp_llm l;
	char *text;

	ck_assert_int_eq(sp_imagegen_parse(flux_two_runs, &l), 0);
	ck_assert_uint_eq(l.completed, 2);
	ck_assert_str_eq(l.metrics[0].name, "stage_clip_ms");
	ck_assert_str_eq(l.metrics[1].name, "stage_t5_ms");
	ck_assert_str_eq(l.metrics[2].name, "stage_transformer_ms");
	ck_assert_double_eq_tol(metric(&l, "stage_clip_ms"), 5, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "stage_transformer_ms"), 900, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "pipeline_latency_ms"), 1125, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "throughput_images_per_s"), 1.8, 1e-9);
	ck_assert_double_eq(metric(&l, "images_per_run"), 2);
	/* 500 ms and 625 ms an image */
	ck_assert_double_eq_tol(metric(&l, "latency_per_image_ms"), 562.5, 1e-9);
	ck_assert_double_eq(metric(&l, "denoising_steps"), 4);
	sp_llm_free(&l);

	/* a throughput in another unit, before the runs, is not theirs */
	ck_assert_int_ge(asprintf(&text, "Throughput: 120.5 qps\n%s", flux_two_runs), 0);
	ck_assert_int_eq(sp_imagegen_parse(text, &l), 0);
	ck_assert_ptr_null(l.error);
	ck_assert_double_eq_tol(metric(&l, "throughput_images_per_s"), 1.8, 1e-9);
	sp_llm_free(&l);
	free(text);
}
END_TEST

/* Outputs that hold no result, or garbage where numbers belong: refused, and why. */
static const struct {
	const char *text;
	const char *error;
} imagegen_bad[] = {
	{ "", "no latency table in the output" },
	{ "[I] Warming up ..\nTraceback (most recent call last):\n  File \"x.py\", line 1\n"
	  "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
	  "no latency table: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
	  "2.00 GiB" },
	{ "|     Module      |   Latency    |\n|      CLIP       |     -4.00 ms |\n",
	  "malformed latency row: '|      CLIP       |     -4.00 ms |'" },
	{ "|     Module      |   Latency    |\n|      CLIP       |       nan ms |\n",
	  "malformed latency row: '|      CLIP       |       nan ms |'" },
	{ "|     Module      |   Latency    |\n|    Pipeline     |      0.00 ms |\n",
	  "malformed latency row: '|    Pipeline     |      0.00 ms |'" },
	{ "|     Module      |   Latency    |\n|    Pipeline     |     10.00 ms |\n"
	  "Throughput: 1e400 image/s\n", "malformed throughput: 'Throughput: 1e400 image/s'" },
	{ "Throughput: 2.00 image/s\n", "malformed throughput: 'Throughput: 2.00 image/s'" },
};

START_TEST(test_imagegen_bad)
{
	struct sp_llm l;

	ck_assert_int_eq(sp_imagegen_parse(imagegen_bad[_i].text, &l), 0);
	ck_assert_pstr_eq(l.error, imagegen_bad[_i].error);
	ck_assert_uint_eq(l.n_metrics, 0);
	ck_assert_str_eq(judged(&l, 0), "no_result");
	sp_llm_free(&l);
}
END_TEST

START_TEST(test_finetune_fixtures)
{
	char *text = fixture("hf-trainer/trainer_issue15047_excerpt.txt");
	struct sp_llm l;

	ck_assert_int_eq(sp_finetune_parse(text, &l), 0);
	ck_assert_ptr_null(l.error);
	ck_assert_uint_eq(l.completed, 1);
	ck_assert(!l.has_failed);
	ck_assert_double_eq_tol(metric(&l, "train_runtime_s"), 751.251, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "train_samples_per_s"), 580108.554, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "train_steps_per_s"), 566.455, 1e-9);
	ck_assert_double_eq_tol(metric(&l, "step_time_s"), 1 / 566.455, 1e-12);
	ck_assert_double_eq_tol(metric(&l, "train_loss"), 0.008420203693772214, 1e-15);
	ck_assert_double_eq(metric(&l, "epochs"), 50);
	ck_assert_double_eq(metric(&l, "logged_steps"), 1);
	ck_assert(!has_metric(&l, "train_tokens_per_s"));
	ck_assert(!has_metric(&l, "peak_memory_allocated_bytes"));
	ck_assert_str_eq(judged(&l, 0), "");
	sp_llm_free(&l);
	free(text);

	/* steps and evaluations, but the run had not ended */
	text = fixture("hf-trainer/sfttrainer_trl_issue3926_excerpt.txt");
	ck_assert_int_eq(sp_finetune_parse(text, &l), 0);
	ck_assert_str_eq(l.error, "no training run ended in the output");
	ck_assert_str_eq(judged(&l, 0), "no_result");
	sp_llm_free(&l);
	free(text);
}
END_TEST

/*
 * The playbook's 8B script: a warmup run for torch.compile, then the run,
 * in today's transformers' format (every float a string of 4 digits,
 * trainer_callback.py's ProgressCallback), TRL's num_tokens, the hook's
 * peak line at the end.
 */
static const char warmup_then_run[] =
	"Running warmup for torch.compile()...\n"
	"{'loss': '1.9', 'grad_norm': '0.5', 'num_tokens': '4096', 'epoch': '0.02'}\n"
	"{'train_runtime': '30.5', 'train_samples_per_second': '0.8', "
	"'train_steps_per_second': '0.1', 'train_loss': '1.9', 'epoch': '0.02'}\n"
	"\n"
	"Starting LoRA fine-tuning for 1 epoch(s)...\n"
	" 50%|#####     | 1/2 [00:10<00:10, 10.0s/it]\r{'loss': '1.5', 'grad_norm': '0.4', "
	"'num_tokens': '1.024e+04', 'epoch': '0.5'}\n"
	"{'loss': '1.25', 'grad_norm': '0.4', 'num_tokens': '2.048e+04', 'epoch': '1'}\n"
	"{'train_runtime': '20', 'train_samples_per_second': '25.6', "
	"'train_steps_per_second': '0.1', 'train_loss': '1.375', 'epoch': '1'}\n"
	"TRAINING COMPLETED\n"
	"sparkperf: peak_memory_allocated_bytes=51539607552 peak_memory_reserved_bytes=60129542144\n";

START_TEST(test_finetune_runs)
{
	struct sp_llm l;
	char *text;

	ck_assert_int_eq(sp_finetune_parse(warmup_then_run, &l), 0);
	ck_assert_ptr_null(l.error);
	ck_assert_uint_eq(l.completed, 2);
	ck_assert_double_eq(metric(&l, "train_runtime_s"), 20);
	ck_assert_double_eq_tol(metric(&l, "train_samples_per_s"), 25.6, 1e-12);
	ck_assert_double_eq_tol(metric(&l, "step_time_s"), 10, 1e-9);
	/* the run's own tokens, not the warmup's */
	ck_assert_double_eq(metric(&l, "train_tokens"), 20480);
	ck_assert_double_eq_tol(metric(&l, "train_tokens_per_s"), 1024, 1e-9);
	ck_assert_double_eq(metric(&l, "train_loss"), 1.375);
	ck_assert_double_eq(metric(&l, "logged_steps"), 2);
	ck_assert_double_eq(metric(&l, "peak_memory_allocated_bytes"), 51539607552.0);
	ck_assert_double_eq(metric(&l, "peak_memory_reserved_bytes"), 60129542144.0);
	ck_assert_str_eq(judged(&l, 0), "");
	sp_llm_free(&l);

	/* a value of another form, commas in it, before the keys that are read */
	ck_assert_int_ge(asprintf(&text, "{'note': f(1, 2), 'loss': 2.5, 'num_tokens': 10.0}\n"
				  "%s", warmup_then_run), 0);
	ck_assert_int_eq(sp_finetune_parse(text, &l), 0);
	ck_assert_double_eq(metric(&l, "train_tokens"), 20480);
	ck_assert_uint_eq(l.completed, 2);
	sp_llm_free(&l);
	free(text);
	ck_assert_int_eq(sp_finetune_parse("{'note': f(1, 2), 'loss': 2.5}\n"
					   "{'train_runtime': 4.0, 'train_steps_per_second': 0.5}\n",
					   &l), 0);
	ck_assert_double_eq(metric(&l, "logged_steps"), 1);
	ck_assert_double_eq(metric(&l, "step_time_s"), 2);
	sp_llm_free(&l);
}
END_TEST

static const struct {
	const char *text;
	const char *error;		/* NULL: parsed, judged below */
	const char *codes;
} finetune_bad[] = {
	/* the guide's flag, to a playbook that no longer takes it */
	{ "usage: Llama3_8B_LoRA_finetuning.py [-h] [--model_name MODEL_NAME]\n"
	  "Llama3_8B_LoRA_finetuning.py: error: unrecognized arguments: --use_torch_compile\n",
	  "no training run ended: Llama3_8B_LoRA_finetuning.py: error: unrecognized arguments: "
	  "--use_torch_compile", "exit_status no_result" },
	{ "{'train_runtime': -1.0, 'train_samples_per_second': 2.0, 'train_loss': 1.0}\n",
	  "malformed training summary: '{'train_runtime': -1.0, 'train_samples_per_second': "
	  "2.0, 'train_loss': 1.0}'", "exit_status no_result" },
	{ "{'train_runtime': 10.0, 'train_samples_per_second': inf, 'train_loss': 1.0}\n",
	  "malformed training summary: '{'train_runtime': 10.0, 'train_samples_per_second': "
	  "inf, 'train_loss': 1.0}'", "exit_status no_result" },
	{ "{'loss': 2.0, 'num_tokens': -5.0, 'epoch': 0.1}\n",
	  "malformed step log: '{'loss': 2.0, 'num_tokens': -5.0, 'epoch': 0.1}'",
	  "exit_status no_result" },
	{ "sparkperf: peak_memory_allocated_bytes=1k peak_memory_reserved_bytes=0\n",
	  "malformed memory peak: 'sparkperf: peak_memory_allocated_bytes=1k "
	  "peak_memory_reserved_bytes=0'", "exit_status no_result" },
	/* a run that ended, diverged */
	{ "{'loss': 'nan', 'epoch': '0.5'}\n{'loss': 'nan', 'epoch': '1'}\n"
	  "{'train_runtime': '5', 'train_steps_per_second': '0.4', 'train_loss': 'nan'}\n",
	  NULL, "exit_status diverged" },
};

START_TEST(test_finetune_bad)
{
	struct sp_llm l;

	ck_assert_int_eq(sp_finetune_parse(finetune_bad[_i].text, &l), 0);
	ck_assert_pstr_eq(l.error, finetune_bad[_i].error);
	if (!l.error) {
		ck_assert_uint_eq(l.failed, 3);
		ck_assert(!has_metric(&l, "train_loss"));
	}
	ck_assert_str_eq(judged(&l, 2), finetune_bad[_i].codes);
	sp_llm_free(&l);
}
END_TEST

/*
 * Numbers that the parsers turn into integers, out of range: each named as
 * written in an invalid_value problem, as every bench parser does, and
 * never cast into another.
 */
START_TEST(test_out_of_range)
{
	struct sp_llm l;

	ck_assert_int_eq(sp_imagegen_parse("|     Module      |   Latency    |\n"
					   "|    UNet x 1e30  |    800.00 ms |\n"
					   "|    Pipeline     |   1000.00 ms |\n"
					   "Throughput: 1e300 image/s\n", &l), 0);
	ck_assert_ptr_null(l.error);
	ck_assert_uint_eq(l.invalid.n, 2);
	ck_assert_str_eq(l.invalid.what[0], "denoising_steps is 1e30, not a whole number in "
			 "1..9223372036854775807");
	ck_assert_str_eq(l.invalid.what[1], "Throughput is 1e300, not a rate of 1..2^63 - 1 "
			 "images a run");
	ck_assert(!has_metric(&l, "denoising_steps"));
	ck_assert(!has_metric(&l, "images_per_run"));
	ck_assert_str_eq(judged(&l, 0), "invalid_value invalid_value");
	sp_llm_free(&l);

	ck_assert_int_eq(sp_finetune_parse("{'train_runtime': 10.0, 'train_loss': 1.0}\n"
					   "sparkperf: peak_memory_allocated_bytes=-1 "
					   "peak_memory_reserved_bytes=2048\n", &l), 0);
	ck_assert_ptr_null(l.error);
	ck_assert_uint_eq(l.invalid.n, 1);
	ck_assert_str_eq(l.invalid.what[0], "peak_memory_allocated_bytes is -1, not a whole "
			 "number in 0..9223372036854775807");
	ck_assert(!has_metric(&l, "peak_memory_reserved_bytes"));
	ck_assert_str_eq(judged(&l, 0), "invalid_value");
	sp_llm_free(&l);
}
END_TEST

/* ---- the real sparkperf-ctl ------------------------------------------------------ */

/* tmpdir/bin/name: a shell script that stands in for a program. */
static void stand_in(const char *name, const char *script)
{
	char file[PATH_MAX];
	FILE *f;

	path(file, "bin");
	ck_assert(!mkdir(file, 0755) || errno == EEXIST);
	snprintf(file, sizeof(file), "%s/bin/%s", tmpdir, name);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n%s\n", script);
	fclose(f);
	ck_assert_int_eq(chmod(file, 0755), 0);
}

/* sparkperf-ctl runs with HOME=/home/u, and tmpdir/bin first on its PATH. */
static void setup(void)
{
	static char search[2 * PATH_MAX];
	const char *old = getenv("PATH");

	cli_setup();
	ck_assert_int_eq(setenv("HOME", "/home/u", 1), 0);
	snprintf(search, sizeof(search), "%s/bin:%s", tmpdir, old ? old : "/usr/bin:/bin");
	child_path = search;
}

static void teardown(void)
{
	child_path = NULL;
	cli_teardown();
}

static json_object *doc_of(const struct result *r)
{
	json_object *doc = json_tokener_parse(r->out);

	ck_assert_msg(doc != NULL, "not JSON: %s", r->out);
	return doc;
}

/* The dry runs: the guide's argv, word for word, in the JSON document. */
START_TEST(test_cli_dry_run)
{
	json_object *doc, *cmds, *argv;
	struct result r;
	char *want;
	size_t i;

	run(&r, "ok", "-j", "bench", "imagegen", "out", "/out", "dry-run", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.err, "");
	doc = doc_of(&r);
	assert_str(doc, "bench", "imagegen");
	cmds = get(doc, "commands");
	ck_assert_uint_eq(json_object_array_length(cmds), 2);
	argv = get(json_object_array_get_idx(cmds, 0), "argv");
	ck_assert_uint_eq(json_object_array_length(argv), ARRAY_SIZE(docker) + 3);
	for (i = 0; i < ARRAY_SIZE(docker); i++)
		ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, i)),
				 docker[i]);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, i + 2)),
			 TRT_SETUP FLUX);
	argv = get(json_object_array_get_idx(cmds, 1), "argv");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, i + 2)),
			 TRT_SETUP SDXL);
	ck_assert(!json_object_object_get_ex(doc, "verdict", NULL));
	json_object_put(doc);
	result_free(&r);

	/* text: the hook it writes and the command lines, as a shell takes them */
	run(&r, "ok", "bench", "finetune", "test", "qlora", "image", "none", "playbooks", "/p",
	    "out", "/o", "dry-run", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_int_ge(asprintf(&want, "# sitecustomize.py: written first\n"
				  "cat > /o/sitecustomize.py <<'EOF'\n%sEOF\n# finetune-qlora\n"
				  "sh -c 'cd /p/nvidia/pytorch-fine-tune/assets && "
				  "BNB_CUDA_VERSION=130 PYTHONPATH=/o python "
				  "Llama3_70B_qLoRA_finetuning.py'\n", sp_bench_finetune_hook), 0);
	ck_assert_str_eq(r.out, want);
	free(want);
	result_free(&r);
}
END_TEST

/* What is refused before anything runs: exit 2, one line on stderr. */
static const struct {
	const char *args[8];
	const char *err;
} refused[] = {
	{ { "imagegen", "test", "flux,flux" }, "bench imagegen: test 'flux' given twice" },
	{ { "imagegen", "test", "flux,sdxl,flux,sdxl" }, "bench imagegen: test 'flux' given twice" },
	{ { "imagegen", "test", "flux,lora" }, "bench imagegen: invalid test 'lora' (flux, sdxl)" },
	{ { "finetune", "test", "sdxl" }, "bench finetune: invalid test 'sdxl' (lora, qlora, full)" },
	{ { "finetune", "steps", "8" }, "bench finetune: batch and steps are for imagegen" },
	{ { "imagegen", "demo", "/d" }, "bench imagegen: demo is for image none" },
	{ { "finetune", "demo", "/d", "image", "none" }, NULL },
	{ { "imagegen", "batch", "0" }, NULL },
	{ { "imagegen", "steps", "x" }, NULL },
	{ { "imagegen", "test", "flux,,sdxl" }, NULL },
	{ { "finetune", "playbooks" }, NULL },
};

START_TEST(test_cli_refused)
{
	const char *const *a = refused[_i].args;
	const char *v[8] = { 0 };
	struct result r;
	size_t n;

	for (n = 0; a[n]; n++)
		v[n] = a[n];
	v[n] = "dry-run";
	run(&r, "ok", "bench", v[0], v[1], v[2], v[3], v[4], v[5], v[6], NULL);
	ck_assert_int_eq(r.rc, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_uint_eq(count_lines(r.err), 1);
	if (refused[_i].err)
		ck_assert_msg(strstr(r.err, refused[_i].err), "%s", r.err);
	result_free(&r);
}
END_TEST

/* bench parse: the document of a saved output, its units in the keys; garbage is a failure. */
START_TEST(test_cli_parse)
{
	json_object *doc, *res, *m;
	char file[PATH_MAX];
	struct result r;
	FILE *f;

	run(&r, "ok", "-j", "bench", "parse", "imagegen",
	    FIXTURES "/tensorrt-diffusion/demo_txt2img_sd15_trt9.1_768_excerpt.txt", NULL);
	ck_assert_int_eq(r.rc, 0);
	doc = doc_of(&r);
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_str(res, "tool", "imagegen");
	assert_int(res, "completed", 1);
	m = get(res, "metrics");
	assert_double(m, "pipeline_latency_ms", 1972.95, 1e-9);
	assert_double(m, "throughput_images_per_s", 0.51, 1e-9);
	assert_double(m, "latency_per_image_ms", 1972.95, 1e-9);
	assert_str(get(doc, "verdict"), "status", "ok");
	json_object_put(doc);
	result_free(&r);

	run(&r, "ok", "bench", "parse", "finetune",
	    FIXTURES "/hf-trainer/trainer_issue15047_excerpt.txt", "exit", "0", NULL);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "  train_samples_per_s                      580108.554\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "verdict: ok\n"));
	result_free(&r);

	/* a Trainer log is no image generation output */
	run(&r, "ok", "-j", "bench", "parse", "imagegen",
	    FIXTURES "/hf-trainer/trainer_issue15047_excerpt.txt", NULL);
	ck_assert_int_eq(r.rc, 1);
	doc = doc_of(&r);
	assert_str(get(doc, "verdict"), "status", "fail");
	res = json_object_array_get_idx(get(get(doc, "verdict"), "problems"), 0);
	assert_str(res, "code", "no_result");
	assert_str(res, "message", "no latency table in the output");
	json_object_put(doc);
	result_free(&r);

	/* a memory peak of -1 bytes: named as written, the run fails */
	path(file, "peak.txt");
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{'train_runtime': 10.0, 'train_loss': 1.0}\n"
	      "sparkperf: peak_memory_allocated_bytes=-1 peak_memory_reserved_bytes=2048\n", f);
	ck_assert_int_eq(fclose(f), 0);
	run(&r, "ok", "-j", "bench", "parse", "finetune", file, NULL);
	ck_assert_int_eq(r.rc, 1);
	doc = doc_of(&r);
	assert_str(get(doc, "verdict"), "status", "fail");
	res = json_object_array_get_idx(get(get(doc, "verdict"), "problems"), 0);
	assert_str(res, "code", "invalid_value");
	assert_str(res, "message", "peak_memory_allocated_bytes is -1, not a whole number in "
		   "0..9223372036854775807");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/*
 * A run on this host: the playbooks' python stands in, printing a real
 * Trainer log if the bench's hook is on its path and the guide's
 * bitsandbytes setting in its environment, and the hook's line.
 */
START_TEST(test_cli_finetune_run)
{
	char out[PATH_MAX], play[PATH_MAX], script[4 * PATH_MAX], file[2 * PATH_MAX], *hook;
	json_object *doc, *res, *m;
	struct result r;

	path(out, "out");
	path(play, "play/nvidia/pytorch-fine-tune/assets");
	ck_assert_int_eq(mkdir(out, 0755), 0);
	snprintf(script, sizeof(script), "mkdir -p %s", play);
	ck_assert_int_eq(system(script), 0);
	/* the fixture's path from the test's directory, absolute */
	ck_assert_ptr_nonnull(getcwd(out, sizeof(out)));
	snprintf(script, sizeof(script),
		 "test \"$1\" = Llama3_8B_LoRA_finetuning.py -a \"$2\" = --use_torch_compile || exit 9\n"
		 "test \"$BNB_CUDA_VERSION\" = 130 -a \"$PWD\" = '%s' || exit 8\n"
		 "test -f \"$PYTHONPATH/sitecustomize.py\" || exit 7\n"
		 "cat '%s/" FIXTURES "/hf-trainer/trainer_issue15047_excerpt.txt'\n"
		 "echo 'sparkperf: peak_memory_allocated_bytes=1000 peak_memory_reserved_bytes=2048'",
		 play, out);
	stand_in("python", script);
	path(out, "out");
	path(play, "play");
	run(&r, "ok", "-j", "bench", "finetune", "test", "lora", "image", "none", "playbooks", play,
	    "out", out, NULL);
	ck_assert_msg(r.rc == 0, "%d %s %s", r.rc, r.out, r.err);
	doc = doc_of(&r);
	assert_str(get(doc, "verdict"), "status", "ok");
	res = json_object_array_get_idx(get(doc, "results"), 0);
	assert_str(res, "tool", "finetune");
	assert_str(res, "label", "finetune lora");
	m = get(res, "metrics");
	assert_double(m, "train_runtime_s", 751.251, 1e-9);
	assert_int(m, "peak_memory_allocated_bytes", 1000);
	assert_int(m, "peak_memory_reserved_bytes", 2048);
	json_object_put(doc);
	result_free(&r);
	/* the hook written is the hook built */
	snprintf(file, sizeof(file), "%s/sitecustomize.py", out);
	hook = slurp(file);
	ck_assert_str_eq(hook, sp_bench_finetune_hook);
	free(hook);
}
END_TEST

/* A demo that fails: its exit status and its stderr's end, and no result. */
START_TEST(test_cli_imagegen_fails)
{
	json_object *doc, *cmd;
	struct result r;

	stand_in("python3", "echo '[I] Warming up ..'\n"
		 "echo 'torch.OutOfMemoryError: CUDA out of memory.' >&2\nexit 1");
	run(&r, "ok", "-j", "bench", "imagegen", "test", "flux", "image", "none", "demo", tmpdir,
	    NULL);
	ck_assert_int_eq(r.rc, 1);
	doc = doc_of(&r);
	cmd = json_object_array_get_idx(get(doc, "commands"), 0);
	assert_int(cmd, "exit_status", 1);
	assert_str(cmd, "stderr_tail", "torch.OutOfMemoryError: CUDA out of memory.");
	assert_str(get(doc, "verdict"), "status", "fail");
	cmd = get(get(doc, "verdict"), "problems");
	ck_assert_uint_eq(json_object_array_length(cmd), 2);
	assert_str(json_object_array_get_idx(cmd, 0), "code", "exit_status");
	assert_str(json_object_array_get_idx(cmd, 1), "code", "no_result");
	assert_str(json_object_array_get_idx(cmd, 1), "message",
		   "no latency table: torch.OutOfMemoryError: CUDA out of memory.");
	json_object_put(doc);
	result_free(&r);
}
END_TEST

/*
 * The bash completion reads the keywords and their values from the help:
 * the two benches complete with nothing of their own in it.
 */
START_TEST(test_completion)
{
	static const struct {
		const char *words;	/* "": the empty word being completed */
		const char *reply;
	} cases[] = {
		{ "bench imagegen \"\"", "test batch steps image demo out force timeout trace dry-run" },
		{ "bench imagegen test flux,", "flux,flux flux,sdxl" },
		{ "bench finetune test \"\"", "lora qlora full" },
		{ "bench finetune \"\"", "test image playbooks out force timeout trace dry-run" },
		{ "bench parse \"\"", "perftest iperf3 nccl mpirun vllm sglang trtllm llama imagegen "
		  "finetune" },
	};
	char cmd[1024], got[512];
	size_t i, len;
	FILE *p;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(cmd, sizeof(cmd), "PATH=../../user:$PATH bash -c '. "
			 "../../user/completion/sparkperf-ctl; set -- sparkperf-ctl %s; "
			 "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _sparkperf_ctl; "
			 "echo \"${COMPREPLY[*]}\"' 2>&1", cases[i].words);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		len = fread(got, 1, sizeof(got) - 1, p);
		got[len] = '\0';
		ck_assert_int_eq(pclose(p), 0);
		ck_assert_uint_gt(len, 0);
		got[len - 1] = '\0';
		ck_assert_msg(!strcmp(got, cases[i].reply), "%s: '%s'", cases[i].words, got);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("benchgen");
	TCase *tc = tcase_create("commands");

	tcase_add_test(tc, test_imagegen_guide);
	tcase_add_test(tc, test_imagegen_host);
	tcase_add_test(tc, test_finetune_guide);
	tcase_add_test(tc, test_finetune_host);
	suite_add_tcase(s, tc);
	tc = tcase_create("parsers");
	tcase_add_test(tc, test_imagegen_fixtures);
	tcase_add_test(tc, test_imagegen_flux_runs);
	tcase_add_loop_test(tc, test_imagegen_bad, 0, ARRAY_SIZE(imagegen_bad));
	tcase_add_test(tc, test_finetune_fixtures);
	tcase_add_test(tc, test_finetune_runs);
	tcase_add_loop_test(tc, test_finetune_bad, 0, ARRAY_SIZE(finetune_bad));
	tcase_add_test(tc, test_out_of_range);
	suite_add_tcase(s, tc);
	tc = tcase_create("cli");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cli_dry_run);
	tcase_add_loop_test(tc, test_cli_refused, 0, ARRAY_SIZE(refused));
	tcase_add_test(tc, test_cli_parse);
	tcase_add_test(tc, test_cli_finetune_run);
	tcase_add_test(tc, test_cli_imagegen_fails);
	tcase_add_test(tc, test_completion);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
