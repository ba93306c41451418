// SPDX-License-Identifier: GPL-2.0
/*
 * The image generation benchmark's commands of benchcmd.h: TensorRT's
 * demo/Diffusion txt2img scripts as the DGX Spark performance guide runs
 * them, Flux.1 Schnell and SDXL 1.0, in its PyTorch container after its
 * setup there, or on this host in a demo/Diffusion directory made ready.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"

/* The guide's prompt, for both models. */
#define PROMPT "a beautiful photograph of Mt. Fuji during cherry blossom"

/*
 * The guide's steps inside the container, from the clone to the libraries
 * the demo loads. TRT_OSSPATH is the clone: the guide's $HOME/TensorRT is
 * not where it clones (the container starts in /workspace).
 */
static const char setup[] =
	"git clone https://github.com/NVIDIA/TensorRT.git -b main --single-branch"
	" && export TRT_OSSPATH=$PWD/TensorRT"
	" && cd $TRT_OSSPATH/demo/Diffusion"
	" && pip install 'nvidia-modelopt[onnx,hf]'"
	" && sed -i '/^nvidia-modelopt\\[.*\\]=.*/d' requirements.txt"
	" && pip install -r requirements.txt"
	" && apt-get update"
	" && apt-get install -y libgl1 libglib2.0-0 libsm6 libxrender1 libxext6";

/* The guide's two runs: their script, model words, batch and denoising steps. */
static const struct {
	const char *test;
	const char *script;
	const char *version;		/* as the guide writes them */
	uint32_t batch, steps;
} models[] = {
	{ "flux", "demo_txt2img_flux.py", "--version=flux.1-schnell --fp4", 1, 4 },
	{ "sdxl", "demo_txt2img_xl.py", "--version xl-1.0", 2, 50 },
};

static int model_index(const char *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(models); i++)
		if (!strcmp(test, models[i].test))
			return (int)i;
	return -EINVAL;
}

bool sp_bench_imagegen_test_valid(const char *name)
{
	return model_index(name) >= 0;
}

/*
 * One model's run; the token is expanded by the shell that runs the demo,
 * so that its value shows in no command line.
 */
static void imagegen_step(struct sp_bench_builder *b, const struct sp_bench_gen_opts *o,
			  const char *image, size_t m)
{
	char *line = NULL, *name = NULL;

	if (b->err)
		return;
	if (asprintf(&line, "python3 %s '%s' --hf-token=\"$HF_TOKEN\" %s --download-onnx-models"
		     " --batch-size %u --width 1024 --height 1024 --denoising-steps %u",
		     models[m].script, PROMPT, models[m].version,
		     o->batch ? o->batch : models[m].batch,
		     o->steps ? o->steps : models[m].steps) < 0 ||
	    asprintf(&name, "imagegen-%s", models[m].test) < 0) {
		free(line);
		b->err = -ENOMEM;
		return;
	}
	sp_bench_shell_step(b, SP_BENCH_IMAGEGEN, name, image, o->home, o->out_dir, setup, o->dir,
			    line);
	sp_bench_field(b, &b->c->label, "imagegen %s", models[m].test);
	free(line);
	free(name);
}

int sp_bench_imagegen_cmds(const struct sp_bench_gen_opts *o, struct sp_bench_cmds *out)
{
	return sp_bench_gen_cmds(o, out, model_index, ARRAY_SIZE(models), imagegen_step);
}
