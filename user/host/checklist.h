/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A checklist: what "tune check" and the preflight doctor ("check") report,
 * one item per thing checked, each with its status, what was found, how to
 * fix it, and the facts behind it, which -j gives as values so that a
 * program (another host's "nccl env") reads them without parsing sentences.
 */
#ifndef SPARKPERF_CTL_CHECKLIST_H
#define SPARKPERF_CTL_CHECKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sp_check_status {
	SP_CHECK_PASS,
	SP_CHECK_WARN,
	SP_CHECK_FAIL,
	SP_CHECK_SKIP,
};

enum sp_check_fact_type {
	SP_FACT_STR,
	SP_FACT_U64,
	SP_FACT_NUM,			/* a number with a fixed count of decimals */
};

struct sp_check_fact {
	const char *key;		/* a static string, a key of the JSON vocabulary */
	enum sp_check_fact_type type;
	char str[64];
	uint64_t u64;
	double num;
	int decimals;
};

#define SP_CHECK_FACTS 8

struct sp_check_item {
	char name[96];
	enum sp_check_status status;
	char detail[320];
	char fix[320];			/* "": nothing to fix */
	struct sp_check_fact facts[SP_CHECK_FACTS];
	size_t n_facts;
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

/*
 * A fact of the last item added (none yet, or SP_CHECK_FACTS of them:
 * nothing); strings are cut at 63 bytes.
 */
void sp_check_fact_str(struct sp_checklist *l, const char *key, const char *v);
void sp_check_fact_u64(struct sp_checklist *l, const char *key, uint64_t v);
void sp_check_fact_num(struct sp_checklist *l, const char *key, double v, int decimals);

/* How many items have status s. */
size_t sp_check_count(const struct sp_checklist *l, enum sp_check_status s);

void sp_checklist_free(struct sp_checklist *l);

#endif
