/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tune show, tune apply and revert, tune check and the preflight
 * doctor ("check") print, as text and as JSON, through lib/print.h.
 */
#ifndef SPARKPERF_CTL_TUNEPRINT_H
#define SPARKPERF_CTL_TUNEPRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "checklist.h"
#include "knobs.h"

/*
 * tune show: one row per knob (KNOB STATE CURRENT RECOMMENDED WHERE NOTE),
 * or a JSON array of knob objects with their full values.
 */
int sp_print_tune_plan(const struct sp_plan *plan);

/*
 * tune apply and revert: the snapshot, then "name: old -> new" per change
 * (for revert, last change first, from its after to its before value) and
 * a count; JSON: {"action","snapshot","profile","changes":[...]}. n == 0
 * says there was nothing to change (snapshot NULL).
 */
int sp_print_tune_changes(bool revert, const char *snapshot, const char *profile,
			  const struct sp_change *ch, size_t n);

/*
 * A checklist: "STATUS  NAME  DETAIL" lines, aligned, each item that did
 * not pass followed by its "fix:" line, then the counts; JSON: an array of
 * {"name","status","detail","fix","facts"} (fix null when there is none,
 * facts an object of the item's facts, null when it has none).
 */
int sp_print_checklist(const struct sp_checklist *l);

#endif
