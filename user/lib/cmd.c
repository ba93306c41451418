// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "cmd.h"
#include "err.h"
#include "parse.h"
#include "print.h"

bool sp_is_help(const char *arg)
{
	return arg && (!strcmp(arg, "help") || !strcmp(arg, "-h") || !strcmp(arg, "--help"));
}

bool sp_help_requested(int argc, char **argv, const char *usage)
{
	if (argc < 1 || !sp_is_help(argv[0]))
		return false;
	sp_print_text("%s", usage);
	return true;
}

bool sp_no_more_args(const char *object, const char *usage, int max_args, int argc, char **argv,
		     int *status)
{
	*status = SP_EXIT_OK;
	if (sp_help_requested(argc, argv, usage))
		return true;
	if (argc <= max_args)
		return false;
	*status = sp_usage_error(object, "Unexpected argument '%s'", argv[max_args]);
	return true;
}

bool sp_kv_args_end(const char *object, const char *usage, int argc, char **argv,
		    struct sp_kv *kv, size_t n, int *status)
{
	char err[256];

	*status = SP_EXIT_OK;
	if (sp_help_requested(argc, argv, usage))
		return true;
	if (!sp_parse_kv(argc, argv, kv, n, err, sizeof(err)))
		return false;
	*status = sp_usage_error(object, "%s", err);
	return true;
}

int sp_cmd_dispatch(const struct sp_ctx *ctx, const char *object,
		    const struct sp_cmd *cmds, size_t n_cmds, const char *usage,
		    int argc, char **argv)
{
	size_t i;

	if (argc == 0)
		return cmds[0].fn(ctx, 0, argv);
	if (sp_is_help(argv[0])) {
		sp_print_text("%s", usage);
		return SP_EXIT_OK;
	}
	for (i = 0; i < n_cmds; i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(ctx, argc - 1, argv + 1);
	return sp_usage_error(object, "Unknown command '%s' for object '%s'", argv[0], object);
}
