/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The objects' printers that have not yet moved to their subsystems.
 */
#ifndef SPARKPERF_CTL_SHOW_H
#define SPARKPERF_CTL_SHOW_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "model.h"
#include "print.h"
#include "rate.h"
#include "traceprint.h"

/*
 * The tool's and the module's versions; info == NULL when the module could
 * not be asked, with module_status saying why (e.g. "not loaded").
 */
int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status);

/* Where and with what a result was measured (JSON: every result). */
struct sp_env {
	const char *tool_version;
	const char *module_version;	/* NULL: unknown */
	const char *kernel_release;	/* NULL: unknown */
	const char *host;		/* NULL: unknown */
	const char *clock_source;	/* NULL: unknown */
};

#endif
