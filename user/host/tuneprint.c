// SPDX-License-Identifier: GPL-2.0
/* What tune and check print: the plan, the changes made, the checklists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/print.h"
#include "tuneprint.h"

static const char *const knob_state_names[] = {
	[SP_KNOB_OK] = "ok",
	[SP_KNOB_CHANGE] = "change",
	[SP_KNOB_SKIP] = "skip",
	[SP_KNOB_OBSERVED] = "observed",
};

/* A value on one line: runs of blanks (tcp_rmem has tabs) as one space. */
static char *one_line(const char *v)
{
	char *s = strdup(v), *w = s;
	const char *r;

	if (!s)
		return NULL;
	for (r = v; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			if (w != s && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	while (w != s && w[-1] == ' ')
		w--;
	*w = '\0';
	return s;
}

/* A value as a change line shows it: files by presence, DSCP tables "none" when empty. */
static char *change_value(const struct sp_change *c, bool has, const char *v)
{
	if (c->access == SP_ACCESS_FILE)
		return strdup(has && v ? "written" : "absent");
	if (!has || !v)
		return strdup("-");
	if (!*v)
		return strdup("none");
	return one_line(v);
}

/*
 * A knob's value as the table and the JSON give it: a file by what it sets
 * (its recommended content by the profile's value), not by its content;
 * otherwise as a change line shows it.
 */
static char *knob_value(const struct sp_knob *k, const char *v)
{
	if (k->ch.access != SP_ACCESS_FILE)
		return change_value(&k->ch, true, v);
	if (k->recommended && !strcmp(v, k->recommended))
		return strdup(k->spec && k->spec->value[0] ? k->spec->value[0] : "written");
	return strdup("other content");
}

/* The current value in the table: a file as absent, as recommended, or different. */
static char *knob_current(const struct sp_knob *k)
{
	if (!k->ch.has_before)
		return change_value(&k->ch, false, NULL);
	return knob_value(k, k->ch.before);
}

/* "1 (or 2)": the recommended value, then the others that are as good. */
static char *others_accepted(const char *v, const char *accept)
{
	char *s = NULL, *list = strdup(accept), *w, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	bool first = true;

	if (!m || !list) {
		if (m)
			fclose(m);
		free(s);
		free(list);
		return NULL;
	}
	fprintf(m, "%s", v);
	for (w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, v))
			continue;
		fprintf(m, "%s%s", first ? " (or " : ", ", w);
		first = false;
	}
	fprintf(m, "%s", first ? "" : ")");
	free(list);
	if (fclose(m)) {
		free(s);
		return NULL;
	}
	return s;
}

static char *knob_recommended(const struct sp_knob *k)
{
	const struct sp_knob_spec *s = k->spec;
	char *v, *r;

	if (!k->recommended)
		return strdup("-");
	v = knob_value(k, k->recommended);
	if (!v || !s || k->ch.access == SP_ACCESS_FILE)
		return v;
	switch (s->cmp) {
	case SP_CMP_AT_LEAST:
		r = sp_xprintf(">= %s", v);
		break;
	case SP_CMP_ONE_OF:
		r = others_accepted(v, s->accept);
		break;
	case SP_CMP_SUPERSET:
		r = sp_xprintf("has %s", v);
		break;
	default:
		return v;
	}
	free(v);
	return r;
}

/* The state column: an observed row says whether it follows as expected. */
static const char *knob_state_text(const struct sp_knob *k)
{
	if (k->state != SP_KNOB_OBSERVED)
		return knob_state_names[k->state];
	if (!k->ch.has_before)
		return "-";
	return k->as_expected ? "ok" : "lags";
}

/* A value as a JSON string, or null; frees it. */
static json_object *json_text(char *s)
{
	json_object *o = sp_json_str_or_null(s);

	free(s);
	return o;
}

/*
 * One knob: the table's row, and the JSON object with its values in the
 * table's form without its marks (">= N", "has ...", "(or ...)"), one form
 * for all three: "4096 131072 6291456" whether procfs separates them by
 * tabs or the profile by spaces.
 */
static void list_knob(struct sp_rows *l, const struct sp_knob *k)
{
	const struct sp_knob_spec *s = k->spec;

	sp_row(l);
	sp_field(l, "name", "KNOB", json_object_new_string(k->ch.name), strdup(k->ch.name));
	sp_field(l, "state", "STATE", json_object_new_string(knob_state_names[k->state]),
		 strdup(knob_state_text(k)));
	sp_field(l, "current", "CURRENT",
		 k->ch.has_before && k->ch.before ? json_text(knob_value(k, k->ch.before)) : NULL,
		 knob_current(k));
	sp_field(l, "recommended", "RECOMMENDED",
		 k->recommended ? json_text(knob_value(k, k->recommended)) : NULL,
		 knob_recommended(k));
	sp_field(l, "target", NULL, k->state == SP_KNOB_CHANGE && k->ch.after ?
		 json_text(knob_value(k, k->ch.after)) : NULL, NULL);
	sp_field_str(l, "where", "WHERE", k->where[0] ? k->where : NULL);
	if (k->state == SP_KNOB_OBSERVED)
		sp_field(l, "as_expected", NULL,
			 k->ch.has_before ? json_object_new_boolean(k->as_expected) : NULL,
			      NULL);
	sp_field_str(l, "severity", NULL, s ? (s->severity == SP_SEV_FAIL ? "fail" : "warn") : NULL);
	sp_field_str(l, "reason", NULL, s ? s->reason : NULL);
	sp_field(l, "note", "NOTE", sp_json_str_or_null(k->note[0] ? k->note : NULL),
		 strdup(k->note));
}

int sp_print_tune_plan(const struct sp_plan *plan)
{
	struct sp_rows *l = sp_rows_begin();
	size_t i;

	for (i = 0; i < plan->n; i++)
		list_knob(l, &plan->knobs[i]);
	return sp_rows_end(l);
}

/* The changes in the order they were made: revert walks them last first. */
struct change_order {
	const struct sp_change *ch;
	size_t n;
	bool revert;
};

static const struct sp_change *change_at(const struct change_order *o, size_t i)
{
	return &o->ch[o->revert ? o->n - 1 - i : i];
}

static json_object *json_change(const void *items, size_t i)
{
	const struct sp_change *c = change_at(items, i);
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(c->name));
	sp_json_add(o, "where", json_object_new_string(c->path));
	sp_json_add(o, "before", c->has_before && c->before ?
		    json_text(change_value(c, true, c->before)) : NULL);
	sp_json_add(o, "after", c->after ? json_text(change_value(c, true, c->after)) : NULL);
	return o;
}

static int json_tune_changes(const struct change_order *order, const char *snapshot,
			     const char *profile)
{
	json_object *o = json_object_new_object();
	json_object *arr = sp_json_array(order, order->n, json_change);

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return -ENOMEM;
	}
	sp_json_add(o, "action", json_object_new_string(order->revert ? "revert" : "apply"));
	sp_json_add(o, "snapshot", sp_json_str_or_null(snapshot));
	sp_json_add(o, "profile", sp_json_str_or_null(profile && *profile ? profile : NULL));
	sp_json_add(o, "changes", arr);
	return sp_print_json(o);
}

int sp_print_tune_changes(bool revert, const char *snapshot, const char *profile,
			  const struct sp_change *ch, size_t n)
{
	const struct change_order order = { .ch = ch, .n = n, .revert = revert };
	FILE *f = sp_print_file();
	size_t i;

	if (sp_print_is_json())
		return json_tune_changes(&order, snapshot, profile);
	if (!n) {
		fprintf(f, "Nothing to change: every knob is as profile %s recommends.\n", profile);
		return 0;
	}
	fprintf(f, "snapshot %s\n", snapshot);
	for (i = 0; i < n; i++) {
		const struct sp_change *c = change_at(&order, i);
		char *before = change_value(c, c->has_before, c->before);
		char *after = change_value(c, c->after != NULL, c->after);

		if (!before || !after) {
			free(before);
			free(after);
			return -ENOMEM;
		}
		fprintf(f, "%s: %s -> %s\n", c->name, revert ? after : before,
			revert ? before : after);
		free(before);
		free(after);
	}
	fprintf(f, "%zu change%s %s\n", n, n == 1 ? "" : "s", revert ? "reverted" : "applied");
	return 0;
}

static json_object *json_check_facts(const struct sp_check_item *it)
{
	json_object *o;
	size_t i;

	if (!it->n_facts)
		return NULL;
	o = json_object_new_object();
	for (i = 0; o && i < it->n_facts; i++) {
		const struct sp_check_fact *f = &it->facts[i];

		sp_json_add(o, f->key, f->type == SP_FACT_STR ? json_object_new_string(f->str) :
			    f->type == SP_FACT_U64 ? sp_json_u64(f->u64) :
			    sp_json_fixed(f->num, f->decimals));
	}
	return o;
}

static void json_check_item(json_object *o, const void *item)
{
	const struct sp_check_item *it = item;

	sp_json_add(o, "name", json_object_new_string(it->name));
	sp_json_add(o, "status", json_object_new_string(sp_check_status_str(it->status)));
	sp_json_add(o, "detail", json_object_new_string(it->detail));
	sp_json_add(o, "fix", sp_json_str_or_null(it->fix[0] ? it->fix : NULL));
	sp_json_add(o, "facts", json_check_facts(it));
}

int sp_print_checklist(const struct sp_checklist *l)
{
	size_t width = 0, i;
	FILE *f = sp_print_file();

	if (sp_print_is_json())
		return sp_print_json(sp_json_objects(l->items, l->n, sizeof(*l->items),
						     json_check_item));
	for (i = 0; i < l->n; i++)
		if (strlen(l->items[i].name) > width)
			width = strlen(l->items[i].name);
	for (i = 0; i < l->n; i++) {
		const struct sp_check_item *it = &l->items[i];
		char *detail = one_line(it->detail);

		if (!detail)
			return -ENOMEM;
		fprintf(f, "%-4s  %-*s  %s\n", sp_check_status_str(it->status), (int)width,
			it->name, detail);
		free(detail);
		if (it->fix[0] && it->status != SP_CHECK_PASS)
			fprintf(f, "%-4s  %-*s  fix: %s\n", "", (int)width, "", it->fix);
	}
	fprintf(f, "%zu passed, %zu warnings, %zu failed, %zu skipped\n",
		sp_check_count(l, SP_CHECK_PASS), sp_check_count(l, SP_CHECK_WARN),
		sp_check_count(l, SP_CHECK_FAIL), sp_check_count(l, SP_CHECK_SKIP));
	return 0;
}
