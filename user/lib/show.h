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
#include "switch/switchplan.h"

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

/*
 * Switch ports (switch show): a line naming the switch, then a table; JSON,
 * one object with "switch" and "ports".
 */
int sp_print_switch_ports(const struct sp_sw_info *sw, const struct sp_sw_port_status *ports,
			  size_t n);

/* The changes of a plan as an ITEM PROPERTY NOW WANT table (text only). */
int sp_print_switch_changes(const struct sp_sw_info *sw, const struct sp_sw_plan *p);

/*
 * switch plan: the changes, then the API sentences, the .rsc script and the
 * rollback script; JSON, one object with all of them.
 */
int sp_print_switch_plan(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			 const struct sp_sw_plan *p);

/* switch verify: what differs from d (settings and links), or "as desired". */
int sp_print_switch_verify(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			   const struct sp_sw_plan *diff, const struct sp_sw_link *links,
			   size_t n_links);

/* One step of switch apply as it happens: "STEP: DETAIL" (text only, flushed). */
void sp_print_switch_step(const char *step, const char *detail);

/* The report of switch apply: JSON only (text had its steps). */
int sp_print_switch_apply(const struct sp_sw_apply_report *r);

/* ---- bench ---- */

struct sp_bench_doc;

/*
 * The document of a bench run, or of bench parse: JSON, one object; text,
 * the commands with how they ended, a line or a table per result, the
 * counters that moved (the kernel trace's report as lat and bw print it, or
 * the sysfs snapshots; JSON: "counters_source", "trace", "counters"), the
 * problems and the verdict. A dry run: the command lines alone (JSON: the
 * document without results).
 */
int sp_print_bench(const struct sp_bench_doc *doc);

#endif
