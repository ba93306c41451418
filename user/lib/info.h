/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The versions: the tool's and the module's (sparkperf-ctl -V).
 */
#ifndef SPARKPERF_CTL_LIB_INFO_H
#define SPARKPERF_CTL_LIB_INFO_H

#include "model.h"

/*
 * The tool's and the module's versions; info == NULL when the module could
 * not be asked, with module_status saying why (e.g. "not loaded").
 */
int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status);

#endif
