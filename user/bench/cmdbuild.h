/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the builders of benchcmd.h (cmd_perftest.c, cmd_iperf3.c, cmd_nccl.c,
 * cmd_llm.c, cmd_imagegen.c, cmd_finetune.c) make a command, in benchcmd.c:
 * a new command, its words and fields one call each; the first allocation
 * that fails is remembered and every later call does nothing, so a builder
 * checks once, at the end.
 * Only bench/'s builders include it.
 */
#ifndef SPARKPERF_CTL_CMDBUILD_H
#define SPARKPERF_CTL_CMDBUILD_H

#include <stdarg.h>
#include <stddef.h>

#include "benchcmd.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

struct sp_bench_builder {
	struct sp_bench_cmds *cmds;
	struct sp_bench_cmd *c;		/* the one being built */
	size_t argc, envc;
	int err;
};

/*
 * A new command "name" of role: its output files are named after it
 * ("client 1": client-1.stdout, client-1.stderr).
 */
void sp_bench_cmd_new(struct sp_bench_builder *b, enum sp_bench_role role,
		      enum sp_bench_tool tool, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Appends a formatted string to a NULL-terminated vector of n. */
void sp_bench_push(struct sp_bench_builder *b, char ***vec, size_t *n, const char *fmt,
		   va_list ap);
/* One more word of the command's argv. */
void sp_bench_arg(struct sp_bench_builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An option and its value: "--key value". */
void sp_bench_opt(struct sp_bench_builder *b, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sp_bench_words(struct sp_bench_builder *b, const char *const *w, size_t n);
/* Sets a malloc'ed string field from a format. */
void sp_bench_field(struct sp_bench_builder *b, char **dst, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The builder's end: 0, or its error with the commands freed. */
int sp_bench_done(struct sp_bench_builder *b);

/* The index of s in names[n], or -EINVAL. */
int sp_bench_name_index(const char *const *names, size_t n, const char *s);

/*
 * The parser (0 or -EINVAL) and the printer of an enum whose names are the
 * table names[value], as benchcmd.h declares them.
 */
#define SP_BENCH_NAMES(parse, str, type, names)					\
int parse(const char *s, type *out)						\
{										\
	int i = sp_bench_name_index(names, ARRAY_SIZE(names), s);		\
										\
	if (i < 0)								\
		return i;							\
	*out = (type)i;								\
	return 0;								\
}										\
										\
const char *str(type v)								\
{										\
	return names[v];							\
}

/* "ssh -o BatchMode=yes -o ConnectTimeout=10 HOST": fails at once, never asks. */
void sp_bench_ssh(struct sp_bench_builder *b, const char *host);

/*
 * A server command: on this host or over ssh, line-buffered so that its
 * banner can be awaited; with "server none", what the user starts on the
 * peer (as is: it is theirs to run). i: the pair's index.
 */
void sp_bench_server_new(struct sp_bench_builder *b, enum sp_bench_server server,
			 const char *ssh_host, const char *peer, const char *ready, size_t i);

/*
 * The guide's "docker run" (less -it: the output is captured) of image,
 * with the output directory mounted at SP_BENCH_CONTAINER_OUT and HF_TOKEN
 * passed by name (its value never shows in a command line); ulimits: the
 * guide's memlock and stack limits, for an engine in the container.
 */
void sp_bench_container(struct sp_bench_builder *b, const char *image, const char *home,
			const char *out_dir, bool ulimits);

/*
 * A step named name that runs one shell line: in a container of image,
 * after the setup there (bash -lc "SETUP && LINE"); image NULL: on this
 * host, in dir (sh -c "cd DIR && LINE").
 */
void sp_bench_shell_step(struct sp_bench_builder *b, enum sp_bench_tool tool, const char *name,
			 const char *image, const char *home, const char *out_dir,
			 const char *setup, const char *dir, const char *line);

/*
 * The steps of a bench of named tests (imagegen, finetune): step() for each
 * of o's tests, whose index index() gives, or for each of all n. 0,
 * -EINVAL (a test that index() does not know) or -ENOMEM.
 */
int sp_bench_gen_cmds(const struct sp_bench_gen_opts *o, struct sp_bench_cmds *out,
		      int (*index)(const char *test), size_t n,
		      void (*step)(struct sp_bench_builder *b, const struct sp_bench_gen_opts *o,
				   const char *image, size_t i));

#endif
