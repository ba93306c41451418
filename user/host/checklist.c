// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checklist.h"
#include "lib/model.h"
#include "lib/parse.h"

const char *sp_check_status_str(enum sp_check_status s)
{
	static const char *const names[] = {
		[SP_CHECK_PASS] = "pass",
		[SP_CHECK_WARN] = "warn",
		[SP_CHECK_FAIL] = "fail",
		[SP_CHECK_SKIP] = "skip",
	};

	return sp_enum_str(names, sizeof(names) / sizeof(names[0]), s, "unknown");
}

int sp_check_add(struct sp_checklist *l, enum sp_check_status status, const char *name,
		 const char *fix, const char *fmt, ...)
{
	struct sp_check_item it;
	va_list ap;

	memset(&it, 0, sizeof(it));
	it.status = status;
	snprintf(it.name, sizeof(it.name), "%s", name);
	snprintf(it.fix, sizeof(it.fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(it.detail, sizeof(it.detail), fmt, ap);
	va_end(ap);
	return sp_array_add(&l->items, &l->n, &l->cap, sizeof(it), &it);
}

/* The next fact of the last item; NULL when there is no room. */
static struct sp_check_fact *fact_new(struct sp_checklist *l, const char *key,
				      enum sp_check_fact_type type)
{
	struct sp_check_item *it = l->n ? &l->items[l->n - 1] : NULL;
	struct sp_check_fact *f;

	if (!it || it->n_facts == SP_CHECK_FACTS)
		return NULL;
	f = &it->facts[it->n_facts++];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->type = type;
	return f;
}

void sp_check_fact_str(struct sp_checklist *l, const char *key, const char *v)
{
	struct sp_check_fact *f = fact_new(l, key, SP_FACT_STR);

	if (f)
		snprintf(f->str, sizeof(f->str), "%s", v);
}

void sp_check_fact_u64(struct sp_checklist *l, const char *key, uint64_t v)
{
	struct sp_check_fact *f = fact_new(l, key, SP_FACT_U64);

	if (f)
		f->u64 = v;
}

void sp_check_fact_num(struct sp_checklist *l, const char *key, double v, int decimals)
{
	struct sp_check_fact *f = fact_new(l, key, SP_FACT_NUM);

	if (f) {
		f->num = v;
		f->decimals = decimals;
	}
}

size_t sp_check_count(const struct sp_checklist *l, enum sp_check_status s)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		n += l->items[i].status == s;
	return n;
}

void sp_checklist_free(struct sp_checklist *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}
