// SPDX-License-Identifier: GPL-2.0
/*
 * The image generation parser of benchparse.h: what TensorRT's
 * demo/Diffusion scripts print after each run (print_summary() of their
 * pipelines), a latency table and the throughput:
 *
 *   |-----------------|--------------|
 *   |     Module      |   Latency    |
 *   |-----------------|--------------|
 *   |      CLIP       |      2.65 ms |
 *   |    UNet x 50    |   1923.51 ms |
 *   |     VAE-Dec     |     46.68 ms |
 *   |-----------------|--------------|
 *   |    Pipeline     |   1972.95 ms |
 *   |-----------------|--------------|
 *   Throughput: 0.51 image/s
 *
 * (older demos: narrower columns, no throughput line). One table per run
 * (--batch-count); the metrics are their means. And the judge of both
 * benches of the section.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parseutil.h"

/* Rows of a table: the pipeline's stages, the same ones in each run. */
#define STAGES_MAX 16

/* The printed throughput has two decimals: the batch it implies is exact up to this. */
#define BATCH_EXACT_MS 100000.0

struct stage {
	char name[48];		/* "transformer", "vae_dec" */
	double sum_ms;
};

struct tables {
	struct stage stages[STAGES_MAX];
	size_t n_stages;
	bool in_table;
	size_t runs;		/* tables with their Pipeline row */
	double pipeline_ms;	/* the last run's */
	double sum_pipeline_ms, sum_per_image_ms, sum_images_per_s;
	size_t n_per_image;	/* runs whose batch is known */
	size_t n_throughput;
	int64_t steps;		/* "x 50"; 0: not said */
	int64_t batch;		/* images per run; 0: not known */
	char error[160];
	struct sp_bench_invalid *bad;	/* the result's */
};

/* "UNet+CNet x 20": "unet_cnet", and its steps; "VAE-Dec": "vae_dec". */
static void stage_name(struct tables *t, const char *cell, char *name, size_t size)
{
	const char *x = strstr(cell, " x ");
	size_t len = x ? (size_t)(x - cell) : strlen(cell), i, n = 0;
	int64_t v;

	if (x && sp_bench_tok_int("denoising_steps", x + 3, 1, INT64_MAX, &v, t->bad) > 0)
		t->steps = v;
	for (i = 0; i < len && n + 1 < size; i++) {
		char c = cell[i];

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			name[n++] = c;
		else if (c >= 'A' && c <= 'Z')
			name[n++] = (char)(c - 'A' + 'a');
		else if (n && name[n - 1] != '_')
			name[n++] = '_';
	}
	while (n && name[n - 1] == '_')
		n--;
	name[n] = '\0';
}

/* "   1923.51 ms " as a finite number of milliseconds >= 0 */
static bool cell_ms(char *cell, double *ms)
{
	char *tok[3];

	return sp_bench_split(cell, tok, 3) == 2 && !strcmp(tok[1], "ms") &&
	       sp_bench_num(tok[0], ms) && *ms >= 0;
}

static void fail(struct tables *t, const char *what, const char *line)
{
	if (!t->error[0])
		snprintf(t->error, sizeof(t->error), "%s: '%.100s'", what, line);
}

/* A row "| NAME | VALUE ms |" of the open table. */
static void table_row(struct tables *t, char *line, const char *orig)
{
	char *cell[4], *p = line, name[48];
	size_t n = 0, i;
	double ms;

	while (n < 4 && (cell[n] = strsep(&p, "|")))
		n++;
	if (n != 4 || *sp_bench_trim(cell[0]) || *sp_bench_trim(cell[3]) ||
	    !cell_ms(cell[2], &ms))
		return fail(t, "malformed latency row", orig);
	stage_name(t, sp_bench_trim(cell[1]), name, sizeof(name));
	if (!strcmp(name, "pipeline")) {
		if (ms <= 0)
			return fail(t, "malformed latency row", orig);
		t->pipeline_ms = ms;
		t->sum_pipeline_ms += ms;
		t->runs++;
		t->in_table = false;
		return;
	}
	for (i = 0; i < t->n_stages && strcmp(t->stages[i].name, name); i++)
		;
	if (i == STAGES_MAX)
		return fail(t, "too many stages", orig);
	if (i == t->n_stages)
		sp_bench_copy_str(t->stages[t->n_stages++].name, sizeof(name), name);
	t->stages[i].sum_ms += ms;
}

/*
 * "Throughput: 0.51 image/s" after a run's table: the images of the run
 * (batch x throughput x latency, rounded while that is exact), and per image.
 */
static void throughput(struct tables *t, char *rest, const char *orig)
{
	char *tok[3];
	double v, images;
	int64_t batch;
	size_t n = sp_bench_split(rest, tok, 3);

	/* another tool's throughput (TensorRT's "qps") is not the demo's */
	if (n == 2 && strcmp(tok[1], "image/s"))
		return;
	if (n != 2 || !sp_bench_num(tok[0], &v) || v <= 0 || !t->runs)
		return fail(t, "malformed throughput", orig);
	t->sum_images_per_s += v;
	t->n_throughput++;
	images = round(v * t->pipeline_ms / 1000);
	if (t->pipeline_ms >= BATCH_EXACT_MS || images < 1)
		return;
	if (!sp_bench_int_of(images, 1, INT64_MAX, &batch))
		return sp_bench_invalid_add(t->bad, "Throughput", tok[0],
					    "a rate of 1..2^63 - 1 images a run");
	t->batch = batch;
	t->sum_per_image_ms += t->pipeline_ms / images;
	t->n_per_image++;
}

static int metrics(struct sp_llm *l, const struct tables *t)
{
	char name[80];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < t->n_stages; i++) {
		snprintf(name, sizeof(name), "stage_%s_ms", t->stages[i].name);
		ret = sp_bench_metric_add(l, name, t->stages[i].sum_ms / (double)t->runs);
	}
	if (!ret)
		ret = sp_bench_metric_add(l, "pipeline_latency_ms",
					  t->sum_pipeline_ms / (double)t->runs);
	if (!ret && t->n_throughput)
		ret = sp_bench_metric_add(l, "throughput_images_per_s",
					  t->sum_images_per_s / (double)t->n_throughput);
	if (!ret && t->n_per_image)
		ret = sp_bench_metric_add(l, "latency_per_image_ms",
					  t->sum_per_image_ms / (double)t->n_per_image);
	if (!ret && t->batch)
		ret = sp_bench_metric_add(l, "images_per_run", (double)t->batch);
	if (!ret && t->steps)
		ret = sp_bench_metric_add(l, "denoising_steps", (double)t->steps);
	return ret;
}

int sp_imagegen_parse(const char *text, struct sp_llm *out)
{
	char line[LINE_MAX_LEN], copy[LINE_MAX_LEN], why[LINE_MAX_LEN], *s;
	const char *p = text;
	struct tables *t = calloc(1, sizeof(*t));
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->kind = "txt2img";
	if (!t)
		return -ENOMEM;
	t->bad = &out->invalid;
	while (!t->error[0] && sp_bench_next_line(&p, line, sizeof(line))) {
		s = sp_bench_trim(line);
		sp_bench_copy_str(copy, sizeof(copy), s);
		if (*s == '|' && strstr(s, "Module") && strstr(s, "Latency"))
			t->in_table = true;
		else if (t->in_table && *s == '|' && s[1] != '-')
			table_row(t, s, copy);
		else if (!strncmp(s, "Throughput:", 11))
			throughput(t, s + 11, copy);
	}
	if (!t->error[0] && !t->runs && sp_bench_python_error(text, why, sizeof(why)))
		snprintf(t->error, sizeof(t->error), "no latency table: %.120s", why);
	else if (!t->error[0] && !t->runs)
		snprintf(t->error, sizeof(t->error), "no latency table in the output");
	if (t->error[0]) {
		out->error = strdup(t->error);
		ret = out->error ? 0 : -ENOMEM;
	} else {
		out->has_completed = true;
		out->completed = t->runs;
		ret = metrics(out, t);
	}
	free(t);
	return ret;
}

int sp_gen_judge(const struct sp_llm *l, int exit_status, struct sp_bench_verdict *v)
{
	int ret = sp_bench_judge_exit(exit_status, NULL, v);

	if (!ret)
		ret = sp_bench_judge_invalid(&l->invalid, v);
	if (!ret && l->error)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result", "%s", l->error);
	else if (!ret && (!l->has_completed || !l->completed))
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result", "no run completed");
	if (!ret && l->has_failed && l->failed)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "diverged",
					   "%" PRIu64 " logged step%s had a loss that is not a "
					   "finite number", l->failed, l->failed == 1 ? "" : "s");
	return ret;
}
