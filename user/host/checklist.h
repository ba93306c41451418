/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A checklist: what "tune check" and the preflight doctor ("check") report,
 * one item per thing checked, each with its status, what was found, and how
 * to fix it.
 */
#ifndef SPARKPERF_CTL_CHECKLIST_H
#define SPARKPERF_CTL_CHECKLIST_H

#include <stdbool.h>
#include <stddef.h>

enum sp_check_status {
	SP_CHECK_PASS,
	SP_CHECK_WARN,
	SP_CHECK_FAIL,
	SP_CHECK_SKIP,
};

struct sp_check_item {
	char name[96];
	enum sp_check_status status;
	char detail[320];
	char fix[320];			/* "": nothing to fix */
};

struct sp_checklist {
	struct sp_check_item *items;
	size_t n;
	size_t cap;
};

const char *sp_check_status_str(enum sp_check_status s);	/* "pass", ... */

/* Appends an item; fix may be NULL; detail is a printf format. 0 or -ENOMEM. */
int sp_check_add(struct sp_checklist *l, enum sp_check_status status, const char *name,
		 const char *fix, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* How many items have status s. */
size_t sp_check_count(const struct sp_checklist *l, enum sp_check_status s);

void sp_checklist_free(struct sp_checklist *l);

#endif
