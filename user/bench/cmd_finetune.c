// SPDX-License-Identifier: GPL-2.0
/*
 * The fine-tuning benchmark's commands of benchcmd.h: the PyTorch
 * fine-tuning playbook's scripts as the DGX Spark performance guide runs
 * them (LoRA of Llama 3 8B, qLoRA of 70B, full fine-tuning of 3B), in its
 * PyTorch container after its setup there, or on this host in a clone of
 * the playbooks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"
#include "lib/spawn.h"

/*
 * The playbooks' last revision whose 8B and 3B scripts take the guide's
 * --use_torch_compile: later ones always compile, and refuse the flag.
 */
#define PLAYBOOKS_REV "b8516f3d69e35988a5b4664944fc0c51810d492e"
#define ASSETS "nvidia/pytorch-fine-tune/assets"

/* The guide's steps inside the container, from its packages to the scripts' folder. */
static const char setup[] =
	"pip install transformers peft datasets \"trl==0.26.2\" \"bitsandbytes==0.49.1\""
	" && git clone https://github.com/NVIDIA/dgx-spark-playbooks"
	" && git -C dgx-spark-playbooks checkout -q " PLAYBOOKS_REV
	" && cd dgx-spark-playbooks/" ASSETS;

/* Every python that this directory is on the path of prints its memory peak at its exit. */
const char sp_bench_finetune_hook[] =
	"# sparkperf: the CUDA memory peak of this python, at its exit (the\n"
	"# fine-tuning scripts print none)\n"
	"import atexit\n"
	"import sys\n"
	"\n"
	"\n"
	"def _sparkperf_peak():\n"
	"    torch = sys.modules.get(\"torch\")\n"
	"    if torch is not None and torch.cuda.is_initialized():\n"
	"        print(\"sparkperf: peak_memory_allocated_bytes=%d peak_memory_reserved_bytes=%d\"\n"
	"              % (torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved()),\n"
	"              flush=True)\n"
	"\n"
	"\n"
	"atexit.register(_sparkperf_peak)\n";

/* The guide's three runs. */
static const struct {
	const char *test;
	const char *line;
} recipes[] = {
	{ "lora", "python Llama3_8B_LoRA_finetuning.py --use_torch_compile" },
	{ "qlora", "python Llama3_70B_qLoRA_finetuning.py" },
	{ "full", "python Llama3_3B_full_finetuning.py --use_torch_compile" },
};

static int recipe_index(const char *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(recipes); i++)
		if (!strcmp(test, recipes[i].test))
			return (int)i;
	return -EINVAL;
}

bool sp_bench_finetune_test_valid(const char *name)
{
	return recipe_index(name) >= 0;
}

/* One recipe, with the guide's bitsandbytes setting and the hook on its path. */
static void finetune_step(struct sp_bench_builder *b, const struct sp_bench_gen_opts *o,
			  const char *image, size_t r)
{
	char *line = NULL, *name = NULL, *dir = NULL, *hook;

	if (b->err)
		return;
	hook = sp_shell_quote(image ? SP_BENCH_CONTAINER_OUT : o->out_dir);
	if (!hook || asprintf(&line, "BNB_CUDA_VERSION=130 PYTHONPATH=%s %s", hook,
			      recipes[r].line) < 0 ||
	    asprintf(&name, "finetune-%s", recipes[r].test) < 0 ||
	    (!image && asprintf(&dir, "%s/" ASSETS, o->dir) < 0)) {
		b->err = -ENOMEM;
		goto out;
	}
	sp_bench_shell_step(b, SP_BENCH_FINETUNE, name, image, o->home, o->out_dir, setup, dir,
			    line);
	sp_bench_field(b, &b->c->label, "finetune %s", recipes[r].test);
out:
	free(hook);
	free(line);
	free(name);
	free(dir);
}

int sp_bench_finetune_cmds(const struct sp_bench_gen_opts *o, struct sp_bench_cmds *out)
{
	return sp_bench_gen_cmds(o, out, recipe_index, ARRAY_SIZE(recipes), finetune_step);
}
