// SPDX-License-Identifier: GPL-2.0
/*
 * The fine-tuning parser of benchparse.h: the Hugging Face Trainer's log
 * lines, Python dicts that its progress bar writes, one per logged step and
 * one when a training run ends:
 *
 *   {'loss': 0.3771, 'grad_norm': 0.63, ..., 'num_tokens': 5734.0, 'epoch': 0.01}
 *   {'train_runtime': 751.251, 'train_samples_per_second': 580108.554,
 *    'train_steps_per_second': 566.455, 'train_loss': 0.0084, 'epoch': 50.0}
 *
 * (recent transformers print every float as a string of 4 digits:
 * {'loss': '2.883', ...}); evaluation lines ('eval_loss') are not steps. The
 * playbook's 8B and 3B scripts train twice, a warmup for torch.compile and
 * the run: the result is the last run that ended. The memory peak is the
 * line that the bench's sitecustomize.py prints at the python's exit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parseutil.h"

/* The keys of a log line that are read. */
enum { K_LOSS, K_RUNTIME, K_SAMPLES, K_STEPS, K_TRAIN_LOSS, K_TOKENS, K_EPOCH, K_N };

static const char *const keys[K_N] = {
	[K_LOSS] = "loss", [K_RUNTIME] = "train_runtime",
	[K_SAMPLES] = "train_samples_per_second", [K_STEPS] = "train_steps_per_second",
	[K_TRAIN_LOSS] = "train_loss", [K_TOKENS] = "num_tokens", [K_EPOCH] = "epoch",
};

/* One log line's values of those keys. */
struct entry {
	bool has[K_N];
	bool finite[K_N];		/* a number, not nan or inf */
	double v[K_N];
};

struct run {
	size_t steps;			/* logged steps */
	uint64_t not_finite;		/* of them, with a loss that is not a number */
	bool has_tokens;
	double tokens;			/* the last step's num_tokens: the run's so far */
};

struct log {
	size_t runs;			/* that ended */
	struct run cur, last;
	struct entry end;		/* the last run's summary */
	bool has_peak;
	double peak_allocated, peak_reserved;
	char error[160];
	struct sp_bench_invalid *bad;	/* the result's */
};

/* A value: a number, or a quoted one ('2.883'); nan and inf are values too. */
static void value(struct entry *e, int k, const char *s, size_t len)
{
	char buf[64];

	if (len && *s == '\'' && len >= 2 && s[len - 1] == '\'') {
		s++;
		len -= 2;
	}
	if (!len || len >= sizeof(buf))
		return;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (sp_bench_num(buf, &e->v[k])) {
		e->has[k] = e->finite[k] = true;
	} else if (!strcasecmp(buf, "nan") || !strcasecmp(buf, "inf") ||
		   !strcasecmp(buf, "-inf")) {
		e->has[k] = true;
		e->finite[k] = false;
	}
}

/*
 * "{'key': value, ...}" from its '{' on: the known keys' values; false if it
 * is not a dict. Each key is looked up, so that a value of another form
 * (a tensor's repr, with commas) is no matter; values hold no comma.
 */
static bool dict(const char *s, struct entry *e)
{
	const char *end = strchr(s, '}'), *k, *v;
	char pat[48];
	size_t i;

	memset(e, 0, sizeof(*e));
	if (strncmp(s, "{'", 2) || !end)
		return false;
	for (i = 0; i < K_N; i++) {
		snprintf(pat, sizeof(pat), "'%s': ", keys[i]);
		for (k = strstr(s, pat); k && k < end; k = strstr(k + 1, pat)) {
			if (k[-1] != '{' && k[-1] != ' ')
				continue;
			v = k + strlen(pat);
			value(e, (int)i, v, strcspn(v, ",}"));
			break;
		}
	}
	return true;
}

static void fail(struct log *g, const char *what, const char *line)
{
	if (!g->error[0])
		snprintf(g->error, sizeof(g->error), "%s: '%.100s'", what, line);
}

/* A run's summary: its numbers must be rates and times, not garbage. */
static void run_end(struct log *g, const struct entry *e, const char *line)
{
	int k;

	for (k = K_RUNTIME; k <= K_STEPS; k++)
		if (e->has[k] && (!e->finite[k] || e->v[k] < 0))
			return fail(g, "malformed training summary", line);
	if (!e->finite[K_RUNTIME] || e->v[K_RUNTIME] <= 0)
		return fail(g, "malformed training summary", line);
	g->runs++;
	g->last = g->cur;
	g->end = *e;
	if (e->has[K_TRAIN_LOSS] && !e->finite[K_TRAIN_LOSS])
		g->last.not_finite++;
	memset(&g->cur, 0, sizeof(g->cur));
}

static void step(struct log *g, const struct entry *e, const char *line)
{
	g->cur.steps++;
	if (!e->finite[K_LOSS])
		g->cur.not_finite++;
	if (e->has[K_TOKENS]) {
		if (!e->finite[K_TOKENS] || e->v[K_TOKENS] < 0)
			return fail(g, "malformed step log", line);
		g->cur.has_tokens = true;
		g->cur.tokens = e->v[K_TOKENS];
	}
}

/* "sparkperf: peak_memory_allocated_bytes=N peak_memory_reserved_bytes=M" */
static void peak(struct log *g, const char *s, const char *line)
{
	char buf[LINE_MAX_LEN], *tok[3];
	int64_t a, r;
	int ok_a, ok_r;

	sp_bench_copy_str(buf, sizeof(buf), s);
	if (sp_bench_split(buf, tok, 3) != 2 ||
	    strncmp(tok[0], "peak_memory_allocated_bytes=", 28) ||
	    strncmp(tok[1], "peak_memory_reserved_bytes=", 27))
		return fail(g, "malformed memory peak", line);
	ok_a = sp_bench_tok_int("peak_memory_allocated_bytes", tok[0] + 28, 0, INT64_MAX, &a,
				g->bad);
	ok_r = sp_bench_tok_int("peak_memory_reserved_bytes", tok[1] + 27, 0, INT64_MAX, &r,
				g->bad);
	if (!ok_a || !ok_r)
		return fail(g, "malformed memory peak", line);
	/* a number out of range is recorded: it fails the result */
	if (ok_a < 0 || ok_r < 0)
		return;
	g->has_peak = true;
	g->peak_allocated = (double)a;
	g->peak_reserved = (double)r;
}

static int add_if(struct sp_llm *l, bool has, const char *name, double v)
{
	return has ? sp_bench_metric_add(l, name, v) : 0;
}

static int metrics(struct sp_llm *l, const struct log *g)
{
	const struct entry *e = &g->end;
	double runtime = e->v[K_RUNTIME], steps = e->v[K_STEPS];
	bool rate = e->finite[K_STEPS] && steps > 0;
	int ret;

	ret = add_if(l, true, "train_runtime_s", runtime);
	if (!ret)
		ret = add_if(l, e->finite[K_SAMPLES], "train_samples_per_s", e->v[K_SAMPLES]);
	if (!ret)
		ret = add_if(l, rate, "train_steps_per_s", steps);
	if (!ret)
		ret = add_if(l, rate, "step_time_s", 1 / steps);
	if (!ret)
		ret = add_if(l, g->last.has_tokens, "train_tokens", g->last.tokens);
	if (!ret)
		ret = add_if(l, g->last.has_tokens, "train_tokens_per_s", g->last.tokens / runtime);
	if (!ret)
		ret = add_if(l, e->finite[K_TRAIN_LOSS], "train_loss", e->v[K_TRAIN_LOSS]);
	if (!ret)
		ret = add_if(l, e->finite[K_EPOCH], "epochs", e->v[K_EPOCH]);
	if (!ret)
		ret = add_if(l, true, "logged_steps", (double)g->last.steps);
	if (!ret)
		ret = add_if(l, g->has_peak, "peak_memory_allocated_bytes", g->peak_allocated);
	if (!ret)
		ret = add_if(l, g->has_peak, "peak_memory_reserved_bytes", g->peak_reserved);
	return ret;
}

int sp_finetune_parse(const char *text, struct sp_llm *out)
{
	char line[LINE_MAX_LEN], why[LINE_MAX_LEN], *s, *d;
	struct log *g = calloc(1, sizeof(*g));
	const char *p = text;
	struct entry e;
	int ret;

	memset(out, 0, sizeof(*out));
	out->kind = "trainer";
	if (!g)
		return -ENOMEM;
	g->bad = &out->invalid;
	while (!g->error[0] && sp_bench_next_line(&p, line, sizeof(line))) {
		s = sp_bench_trim(line);
		/* after a progress bar's carriage returns, on the same line */
		d = strstr(s, "{'");
		if (!strncmp(s, "sparkperf: ", 11))
			peak(g, s + 11, s);
		else if (d && dict(d, &e) && e.has[K_RUNTIME])
			run_end(g, &e, d);
		else if (d && dict(d, &e) && e.has[K_LOSS])
			step(g, &e, d);
	}
	if (!g->error[0] && !g->runs && sp_bench_python_error(text, why, sizeof(why)))
		snprintf(g->error, sizeof(g->error), "no training run ended: %.120s", why);
	else if (!g->error[0] && !g->runs)
		snprintf(g->error, sizeof(g->error), "no training run ended in the output");
	if (g->error[0]) {
		out->error = strdup(g->error);
		ret = out->error ? 0 : -ENOMEM;
	} else {
		out->has_completed = true;
		out->completed = g->runs;
		out->has_failed = g->last.not_finite > 0;
		out->failed = g->last.not_finite;
		ret = metrics(out, g);
	}
	free(g);
	return ret;
}
