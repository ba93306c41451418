// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]
 *
 * Global options and the object table; everything else lives in <object>.c,
 * nl.c (netlink), print.c (stdout) and parse.c (pure parsers).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/info.h"
#include "lib/print.h"
#include "version.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	int (*fn)(const struct sp_ctx *ctx, int argc, char **argv);
	const char *help;
} objects[] = {
#define SP_OBJECT_ENTRY(name, help) { #name, sp_cmd_##name, help },
	SP_OBJECTS(SP_OBJECT_ENTRY)
#undef SP_OBJECT_ENTRY
};

static const char *usage(void)
{
	static char buf[2048];
	size_t len, i;

	if (buf[0])
		return buf;
	len = (size_t)snprintf(buf, sizeof(buf),
		"Usage: sparkperf-ctl [ OPTIONS ] OBJECT { COMMAND | help } [ ARGS ]\n"
		"       sparkperf-ctl { -V[ersion] | -h[elp] }\n"
		"where  OBJECT := {");
	for (i = 0; i < ARRAY_SIZE(objects) && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %s",
					i ? " |" : "", objects[i].name);
	if (len < sizeof(buf))
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			" }\n"
			"       OPTIONS := { -j[son] | -p[retty] | -V[ersion] | -h[elp] | --trace }\n"
			"\nObjects:\n");
	for (i = 0; i < ARRAY_SIZE(objects) && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "  %-8s %s\n",
					objects[i].name, objects[i].help);
	if (len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len,
			 "  %-8s %s\n\nRun 'sparkperf-ctl OBJECT help' for the commands of an object.\n",
			 "help", "this text");
	return buf;
}

static int do_version(void)
{
	const char *status = NULL;
	struct sp_info info;
	char buf[320];
	struct sp_nl nl;
	bool have = false;
	int ret;

	/* resolving the family makes the kernel load the module if it can */
	ret = sp_nl_open(&nl);
	if (!ret) {
		ret = sp_nl_info_get(&nl, &info);
		have = !ret;
	}
	if (ret == -ENOENT && !nl.err.has_msg) {
		status = "not loaded";
	} else if (ret) {
		snprintf(buf, sizeof(buf), "unknown (%s)",
			 nl.err.has_msg ? nl.err.msg : strerror(-ret));
		status = buf;
	}
	sp_nl_close(&nl);
	ret = sp_print_version(SPARKPERF_CTL_VERSION, have ? &info : NULL, status);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* iproute2's matches(): arg is a non-empty prefix of word */
static bool matches(const char *arg, const char *word)
{
	return *arg && !strncmp(arg, word, strlen(arg));
}

struct options {
	struct sp_ctx ctx;
	bool version, help;
};

static void set_option(struct options *o, int c)
{
	switch (c) {
	case 'j':
		o->ctx.json = true;
		break;
	case 'p':
		o->ctx.pretty = true;
		o->ctx.json = true;
		break;
	case 'V':
		o->version = true;
		break;
	case 'h':
		o->help = true;
		break;
	case 't':
		o->ctx.trace = true;
		break;
	}
}

/*
 * A global option, iproute2 style: "-" or "--" and any prefix of its word
 * ("-j", "-json", "--pretty", "-Ver"); its letter, 0 when arg is none.
 */
static int global_option(const char *arg)
{
	static const struct {
		const char *word;
		int c;
	} words[] = {
		{ "json", 'j' }, { "pretty", 'p' }, { "Version", 'V' }, { "version", 'V' },
		{ "help", 'h' }, { "trace", 't' },
	};
	const char *w = arg + 1 + (arg[1] == '-');
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (matches(w, words[i].word))
			return words[i].c;
	return 0;
}

static int run(int argc, char **argv)
{
	struct options o = { 0 };
	const struct sp_ctx *ctx = &o.ctx;
	const char *object, *p;
	int pos = 1;
	size_t i;

	/* options end at OBJECT, whose arguments are its own, or after "--" */
	for (; pos < argc && argv[pos][0] == '-' && argv[pos][1]; pos++) {
		const char *arg = argv[pos];
		int c = global_option(arg);

		if (!strcmp(arg, "--")) {
			pos++;
			break;
		}
		if (c) {
			set_option(&o, c);
			continue;
		}
		/* getopt's bundled letters ("-jp"), which earlier versions took */
		if (arg[1] == '-' || arg[1 + strspn(arg + 1, "jpVh")])
			return sp_usage_error(NULL, "Invalid option '%s'", arg);
		for (p = arg + 1; *p; p++)
			set_option(&o, *p);
	}
	sp_print_init(NULL, ctx->json, ctx->pretty);

	/* -V, -h and help take nothing after them */
	if ((o.help || o.version) && pos < argc)
		return sp_usage_error(NULL, "Unexpected argument '%s'", argv[pos]);
	if (o.help) {
		sp_print_text("%s", usage());
		return SP_EXIT_OK;
	}
	if (o.version)
		return do_version();
	if (pos >= argc)
		return sp_usage_error(NULL, "Missing OBJECT");

	object = argv[pos];
	if (sp_is_help(object)) {
		if (pos + 1 < argc)
			return sp_usage_error(NULL, "Unexpected argument '%s'", argv[pos + 1]);
		sp_print_text("%s", usage());
		return SP_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(object, objects[i].name))
			return objects[i].fn(ctx, argc - pos - 1, argv + pos + 1);
	return sp_usage_error(NULL, "Unknown object '%s'", object);
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv), ret;

	ret = sp_print_flush();
	if (ret) {
		fprintf(stderr, "sparkperf-ctl: write error: %s\n", strerror(-ret));
		if (rc == SP_EXIT_OK)
			rc = SP_EXIT_ERROR;
	}
	return rc;
}
