// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of benchcmd.h: how one is built (cmdbuild.h), written as a
 * shell line, started on the server side or in a container; each tool's
 * builder is a file of its own (cmd_perftest.c, cmd_iperf3.c, cmd_nccl.c,
 * cmd_llm.c, cmd_imagegen.c, cmd_finetune.c). Where an option is the
 * guide's or the blog's, the words and their order are theirs, so that a
 * dry run reads like the recipe it replaces.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"
#include "lib/spawn.h"

/* ssh that fails at once instead of asking for a password or a host key */
static const char *const ssh_words[] = {
	"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
};

/* Servers write their banner at once, not when their stdio buffer fills. */
static const char *const line_buffered[] = { "stdbuf", "-oL" };

/* ---- building a command ------------------------------------------------------ */

static char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

void sp_bench_push(struct sp_bench_builder *b, char ***vec, size_t *n, const char *fmt,
		   va_list ap)
{
	char **v, *s;

	if (b->err)
		return;
	s = xvasprintf(fmt, ap);
	v = s ? realloc(*vec, (*n + 2) * sizeof(*v)) : NULL;
	if (!v) {
		free(s);
		b->err = -ENOMEM;
		return;
	}
	v[(*n)++] = s;
	v[*n] = NULL;
	*vec = v;
}

void sp_bench_arg(struct sp_bench_builder *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sp_bench_push(b, &b->c->argv, &b->argc, fmt, ap);
	va_end(ap);
}

void sp_bench_opt(struct sp_bench_builder *b, const char *key, const char *fmt, ...)
{
	va_list ap;

	sp_bench_arg(b, "%s", key);
	va_start(ap, fmt);
	sp_bench_push(b, &b->c->argv, &b->argc, fmt, ap);
	va_end(ap);
}

void sp_bench_words(struct sp_bench_builder *b, const char *const *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sp_bench_arg(b, "%s", w[i]);
}

void sp_bench_field(struct sp_bench_builder *b, char **dst, const char *fmt, ...)
{
	va_list ap;

	if (b->err)
		return;
	va_start(ap, fmt);
	*dst = xvasprintf(fmt, ap);
	va_end(ap);
	if (!*dst)
		b->err = -ENOMEM;
}

/* "client 1" as a file name: client-1 */
static void dashed(char *p)
{
	for (; p && *p; p++)
		if (*p == ' ' || *p == '/')
			*p = '-';
}

void sp_bench_cmd_new(struct sp_bench_builder *b, enum sp_bench_role role,
		      enum sp_bench_tool tool, const char *fmt, ...)
{
	struct sp_bench_cmd *v;
	va_list ap;

	if (b->err)
		return;
	v = realloc(b->cmds->v, (b->cmds->n + 1) * sizeof(*v));
	if (!v) {
		b->err = -ENOMEM;
		return;
	}
	b->cmds->v = v;
	b->c = &v[b->cmds->n++];
	memset(b->c, 0, sizeof(*b->c));
	b->c->role = role;
	b->c->tool = tool;
	b->c->x.exit_status = SP_BENCH_EXIT_UNKNOWN;
	b->argc = b->envc = 0;
	va_start(ap, fmt);
	b->c->name = xvasprintf(fmt, ap);
	va_end(ap);
	if (!b->c->name) {
		b->err = -ENOMEM;
		return;
	}
	sp_bench_field(b, &b->c->stdout_name, "%s.stdout", b->c->name);
	sp_bench_field(b, &b->c->stderr_name, "%s.stderr", b->c->name);
	dashed(b->c->stdout_name);
	dashed(b->c->stderr_name);
	/* an empty environment is a vector too */
	b->c->env = calloc(1, sizeof(*b->c->env));
	if (!b->c->env)
		b->err = -ENOMEM;
}

int sp_bench_done(struct sp_bench_builder *b)
{
	if (b->err)
		sp_bench_cmds_free(b->cmds);
	return b->err;
}

static void strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void sp_bench_cmds_free(struct sp_bench_cmds *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct sp_bench_cmd *x = &c->v[i];

		free(x->name);
		free(x->host);
		strv_free(x->argv);
		strv_free(x->env);
		free(x->stdout_name);
		free(x->stderr_name);
		free(x->json_name);
		free(x->label);
		free(x->x.exec_error);
		free(x->x.stderr_tail);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

const char *sp_bench_role_str(enum sp_bench_role role)
{
	static const char *const names[] = {
		[SP_BENCH_ROLE_SERVER] = "server", [SP_BENCH_ROLE_MANUAL] = "manual",
		[SP_BENCH_ROLE_CLIENT] = "client", [SP_BENCH_ROLE_STEP] = "step",
	};

	return names[role];
}

/* ---- the command line as text -------------------------------------------------- */

/* Appends the quoted words of v to the stream, a blank before each but the first. */
static bool put_words(FILE *f, char *const *v, bool *first)
{
	size_t i;

	for (i = 0; v && v[i]; i++) {
		char *q = sp_shell_quote(v[i]);

		if (!q)
			return false;
		fprintf(f, "%s%s", *first ? "" : " ", q);
		*first = false;
		free(q);
	}
	return true;
}

char *sp_bench_cmdline(const struct sp_bench_cmd *c)
{
	char *buf = NULL;
	size_t len = 0;
	bool first = true, ok;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ok = put_words(f, c->env, &first) && put_words(f, c->argv, &first);
	if (fclose(f) || !ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- servers --------------------------------------------------------------------- */

bool sp_bench_word_ok(const char *s)
{
	return *s && *s != '-' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:@%+,-") ==
	       strlen(s);
}

void sp_bench_ssh(struct sp_bench_builder *b, const char *host)
{
	sp_bench_words(b, ssh_words, ARRAY_SIZE(ssh_words));
	sp_bench_arg(b, "%s", host);
}

int sp_bench_name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	return -EINVAL;
}

static const char *const server_names[] = {
	[SP_BENCH_SERVER_NONE] = "none", [SP_BENCH_SERVER_LOCAL] = "local",
	[SP_BENCH_SERVER_SSH] = "ssh",
};

SP_BENCH_NAMES(sp_bench_server_parse, sp_bench_server_str, enum sp_bench_server, server_names)

void sp_bench_server_new(struct sp_bench_builder *b, enum sp_bench_server server,
			 const char *ssh_host, const char *peer, const char *ready, size_t i)
{
	sp_bench_cmd_new(b, server == SP_BENCH_SERVER_NONE ? SP_BENCH_ROLE_MANUAL :
			 SP_BENCH_ROLE_SERVER, SP_BENCH_NONE, "server %zu", i + 1);
	if (b->err)
		return;
	b->c->ready = ready;
	if (server == SP_BENCH_SERVER_SSH) {
		sp_bench_field(b, &b->c->host, "%s", ssh_host ? ssh_host : peer);
		sp_bench_ssh(b, b->c->host ? b->c->host : "");
	} else if (server == SP_BENCH_SERVER_NONE) {
		sp_bench_field(b, &b->c->host, "%s", peer);
	}
	if (server != SP_BENCH_SERVER_NONE)
		sp_bench_words(b, line_buffered, ARRAY_SIZE(line_buffered));
}

/* ---- containers -------------------------------------------------------------------- */

void sp_bench_container(struct sp_bench_builder *b, const char *image, const char *home,
			const char *out_dir, bool ulimits)
{
	sp_bench_arg(b, "docker");
	sp_bench_arg(b, "run");
	sp_bench_opt(b, "--rm", "--gpus");
	sp_bench_arg(b, "all");
	sp_bench_opt(b, "--ipc", "host");
	sp_bench_opt(b, "--network", "host");
	if (ulimits) {
		sp_bench_opt(b, "--ulimit", "memlock=-1");
		sp_bench_opt(b, "--ulimit", "stack=67108864");
	}
	sp_bench_opt(b, "-e", "HF_TOKEN");
	sp_bench_opt(b, "-v", "%s/.cache/huggingface:/root/.cache/huggingface", home);
	sp_bench_opt(b, "-v", "%s:%s", out_dir, SP_BENCH_CONTAINER_OUT);
	sp_bench_arg(b, "%s", image);
}

void sp_bench_shell_step(struct sp_bench_builder *b, enum sp_bench_tool tool, const char *name,
			 const char *image, const char *home, const char *out_dir,
			 const char *setup, const char *dir, const char *line)
{
	char *where;

	sp_bench_cmd_new(b, SP_BENCH_ROLE_STEP, tool, "%s", name);
	if (image) {
		sp_bench_container(b, image, home, out_dir, false);
		sp_bench_arg(b, "bash");
		sp_bench_opt(b, "-lc", "%s && %s", setup, line);
		return;
	}
	where = sp_shell_quote(dir);
	if (!where) {
		b->err = -ENOMEM;
		return;
	}
	sp_bench_arg(b, "sh");
	sp_bench_opt(b, "-c", "cd %s && %s", where, line);
	free(where);
}

int sp_bench_gen_cmds(const struct sp_bench_gen_opts *o, struct sp_bench_cmds *out,
		      int (*index)(const char *test), size_t n,
		      void (*step)(struct sp_bench_builder *b, const struct sp_bench_gen_opts *o,
				   const char *image, size_t i))
{
	const char *image = o->image ? o->image : SP_BENCH_PYTORCH_IMAGE;
	struct sp_bench_builder b = { .cmds = out };
	size_t i;
	int t;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < (o->n_tests ? o->n_tests : n); i++) {
		t = o->n_tests ? index(o->tests[i]) : (int)i;
		if (t < 0) {
			sp_bench_cmds_free(out);
			return t;
		}
		step(&b, o, strcmp(image, "none") ? image : NULL, (size_t)t);
	}
	return sp_bench_done(&b);
}

/* ---- numbers ------------------------------------------------------------------------ */

int sp_bench_parse_number(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || strspn(s, "0123456789.") != strlen(s))
		return -EINVAL;
	v = strtod(s, &end);
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}
