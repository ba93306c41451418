// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "switchprint.h"

/* ---- pieces ------------------------------------------------------------- */

static void json_sw_info(json_object *o, const void *item)
{
	const struct sp_sw_info *sw = item;

	sp_json_add(o, "host", json_object_new_string(sw->host));
	sp_json_add(o, "port", json_object_new_int(sw->port));
	sp_json_add(o, "version", sp_json_str_or_null(sw->version));
	sp_json_add(o, "board", sp_json_str_or_null(sw->board));
}

static void print_sw_info(const struct sp_sw_info *sw)
{
	fprintf(sp_print_file(), "switch %s port %u: RouterOS %s%s%s\n", sw->host, sw->port,
		sw->version ? sw->version : "(version unknown)", sw->board ? ", " : "",
		sw->board ? sw->board : "");
}

/* A number the switch printed, as JSON: an integer, else the string, else null */
static json_object *jsw_number(const char *s)
{
	uint64_t v;

	if (!s)
		return NULL;
	if (!sp_parse_u64(s, 0, UINT64_MAX, &v))
		return json_object_new_uint64(v);
	return json_object_new_string(s);
}

/*
 * A value the switch printed, as JSON: a yes/no (true/false over the API) as
 * a boolean, any other word as the string
 */
static json_object *jsw_value(const char *s)
{
	const char *v = sp_sw_settable(s);

	if (!v)
		return NULL;
	if (!strcmp(v, "yes") || !strcmp(v, "no"))
		return json_object_new_boolean(!strcmp(v, "yes"));
	return json_object_new_string(v);
}

static json_object *jsw_rate_gbit(const char *rate)
{
	uint64_t bps;

	return rate && !sp_sw_rate_parse(rate, &bps) ? sp_json_gbit_per_s((double)bps) : NULL;
}

static const char *dash(const char *s)
{
	return s ? s : "-";
}

/* items[i] of an array of strings */
static json_object *json_string_item(const void *items, size_t i)
{
	return json_object_new_string(((char *const *)items)[i]);
}

static json_object *json_sw_desired(const struct sp_sw_desired *d)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "ports", sp_json_array(d->ports, d->n_ports, json_string_item));
	sp_json_add(obj, "speed", json_object_new_string(d->speed));
	sp_json_add(obj, "fec_mode", json_object_new_string(d->fec));
	sp_json_add(obj, "mtu_bytes", json_object_new_uint64(d->mtu));
	sp_json_add(obj, "l2mtu_bytes", json_object_new_uint64(d->l2mtu));
	sp_json_add(obj, "profile", json_object_new_string(sp_sw_profile_str(d->profile)));
	sp_json_add(obj, "roce_queue_cap_gbit_per_s", sp_json_gbit_per_s((double)d->queue_cap_bps));
	return obj;
}

/* What every document of plan, verify and apply begins with: "switch", "desired". */
static json_object *json_sw_doc(const struct sp_sw_info *sw, const struct sp_sw_desired *d)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "switch", sp_json_object(json_sw_info, sw));
	sp_json_add(obj, "desired", json_sw_desired(d));
	return obj;
}

static const char *const sw_action_str[] = {
	[SP_SW_SET] = "set",
	[SP_SW_ADD] = "add",
	[SP_SW_REMOVE] = "remove",
};

static void json_sw_diff(json_object *o, const void *item)
{
	const struct sp_sw_diff *d = item;

	sp_json_add(o, "name", json_object_new_string(d->name));
	sp_json_add(o, "now", jsw_value(d->from));
	sp_json_add(o, "want", jsw_value(d->to));
}

static json_object *json_sw_change(const void *items, size_t i)
{
	const struct sp_sw_change *c = (const struct sp_sw_change *)items + i;
	json_object *o = json_object_new_object(), *props;
	char label[128];

	props = sp_json_objects(c->diffs, c->n, sizeof(*c->diffs), json_sw_diff);
	if (!o || !props) {
		json_object_put(o);
		json_object_put(props);
		return NULL;
	}
	sp_json_add(o, "item", json_object_new_string(sp_sw_change_label(c, label, sizeof(label))));
	sp_json_add(o, "menu", json_object_new_string(c->menu));
	sp_json_add(o, "action", json_object_new_string(sw_action_str[c->action]));
	sp_json_add(o, "id", sp_json_str_or_null(c->id));
	sp_json_add(o, "properties", props);
	return o;
}

static json_object *json_sw_changes(const struct sp_sw_plan *p)
{
	return sp_json_array(p->v, p->n, json_sw_change);
}

static void json_sw_link(json_object *o, const void *item)
{
	const struct sp_sw_link *l = item;

	sp_json_add(o, "port", json_object_new_string(l->port));
	sp_json_add(o, "status", sp_json_str_or_null(l->status));
	sp_json_add(o, "rate", sp_json_str_or_null(l->rate));
	sp_json_add(o, "rate_gbit_per_s", jsw_rate_gbit(l->rate));
	sp_json_add(o, "speed", json_object_new_string(l->speed));
	sp_json_add(o, "ok", json_object_new_boolean(l->ok));
}

/* ---- switch show -------------------------------------------------------- */

int sp_print_switch_ports(const struct sp_sw_info *sw, const struct sp_sw_port_status *ports,
			  size_t n)
{
	struct sp_rows *l = sp_rows_begin();
	json_object *obj = NULL;
	size_t i;

	if (sp_print_is_json()) {
		obj = json_object_new_object();
		if (obj)
			sp_json_add(obj, "switch", sp_json_object(json_sw_info, sw));
	} else {
		print_sw_info(sw);
	}
	for (i = 0; i < n; i++) {
		const struct sp_sw_port_status *p = &ports[i];

		sp_row(l);
		sp_field_str(l, "name", "PORT", p->name);
		sp_field_str(l, "status", "STATUS", p->status);
		sp_field_str(l, "rate", "RATE", p->rate);
		sp_field(l, "rate_gbit_per_s", NULL, jsw_rate_gbit(p->rate), NULL);
		sp_field_str(l, "speed", "SPEED", p->speed);
		sp_field(l, "auto_negotiation", "AUTONEG", jsw_value(p->auto_negotiation),
			 strdup(dash(sp_sw_settable(p->auto_negotiation))));
		sp_field_str(l, "fec_mode", "FEC", p->fec_mode);
		sp_field(l, "mtu_bytes", "MTU", jsw_number(p->mtu), strdup(dash(p->mtu)));
		sp_field(l, "l2mtu_bytes", "L2MTU", jsw_number(p->l2mtu),
			 strdup(dash(p->l2mtu)));
	}
	return sp_rows_end_into(l, obj, "ports");
}

/* ---- switch plan and verify: the differences ---------------------------- */

/* One line of the ITEM PROPERTY NOW WANT table. */
struct sw_diff_row {
	char item[128];
	const char *property, *now, *want;
	char now_buf[64], want_buf[64];
};

static char *sw_diff_cell(const void *rows, size_t row, size_t col)
{
	const struct sw_diff_row *r = (const struct sw_diff_row *)rows + row;
	const char *cell[] = { r->item, r->property, r->now, r->want };

	return strdup(cell[col]);
}

/* The table of a plan's settings and of the links that are not up. */
static int print_sw_diffs(const struct sp_sw_plan *p, const struct sp_sw_link *links,
			  size_t n_links)
{
	static const char *const header[] = { "ITEM", "PROPERTY", "NOW", "WANT" };
	struct sw_diff_row *rows;
	size_t n = 0, i, j;
	int ret;

	rows = calloc(sp_sw_plan_settings(p) + n_links + 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		const struct sp_sw_change *c = &p->v[i];

		if (c->action == SP_SW_REMOVE) {
			sp_sw_change_label(c, rows[n].item, sizeof(rows[n].item));
			rows[n].property = "(row)";
			rows[n].now = "present";
			rows[n++].want = "absent";
		}
		for (j = 0; j < c->n; j++, n++) {
			sp_sw_change_label(c, rows[n].item, sizeof(rows[n].item));
			rows[n].property = c->diffs[j].name;
			rows[n].now = dash(sp_sw_settable(c->diffs[j].from));
			rows[n].want = c->diffs[j].to;
		}
	}
	for (i = 0; i < n_links; i++) {
		if (links[i].ok)
			continue;
		snprintf(rows[n].item, sizeof(rows[n].item), "%s", links[i].port);
		rows[n].property = "link";
		snprintf(rows[n].now_buf, sizeof(rows[n].now_buf), "%s%s%s",
			 dash(links[i].status), links[i].rate ? " " : "",
			 links[i].rate ? links[i].rate : "");
		snprintf(rows[n].want_buf, sizeof(rows[n].want_buf), "link-ok %s", links[i].speed);
		rows[n].now = rows[n].now_buf;
		rows[n].want = rows[n].want_buf;
		n++;
	}
	ret = sp_print_table(header, ARRAY_SIZE(header), n, sw_diff_cell, rows);
	free(rows);
	return ret;
}

int sp_print_switch_changes(const struct sp_sw_info *sw, const struct sp_sw_plan *p)
{
	if (sp_print_is_json())
		return 0;
	print_sw_info(sw);
	if (!p->n) {
		fprintf(sp_print_file(), "as desired: nothing to change\n");
		return 0;
	}
	fprintf(sp_print_file(), "plan: %zu setting%s to change in %zu row%s\n", sp_sw_plan_settings(p),
		sp_sw_plan_settings(p) == 1 ? "" : "s", p->n, p->n == 1 ? "" : "s");
	return print_sw_diffs(p, NULL, 0);
}

/* ---- switch plan -------------------------------------------------------- */

/* "# TITLE" and the lines of text, or nothing without text */
static void print_sw_section(const char *title, const char *text)
{
	if (text && *text)
		fprintf(sp_print_file(), "\n# %s\n%s", title, text);
}

/* The API sentence of change i as an array of its words. */
static json_object *json_sw_sentence(const void *items, size_t i)
{
	struct sp_ros_sentence s;
	json_object *words;

	if (sp_sw_change_sentence((const struct sp_sw_change *)items + i, &s))
		return NULL;
	words = sp_json_array(s.words, s.n, json_string_item);
	sp_ros_sentence_free(&s);
	return words;
}

/* The plan's API sentences, one line each. 0, -EINVAL (a change without its id), -ENOMEM. */
static int sw_sentences_text(const struct sp_sw_plan *p, char **text)
{
	struct sp_ros_sentence s;
	size_t len = 0, i;
	char *line;
	FILE *f;
	int ret = 0;

	f = open_memstream(text, &len);
	if (!f)
		return -ENOMEM;
	for (i = 0; !ret && i < p->n; i++) {
		ret = sp_sw_change_sentence(&p->v[i], &s);
		if (ret)
			break;
		line = sp_sw_sentence_line(&s);
		if (line)
			fprintf(f, "%s\n", line);
		free(line);
		sp_ros_sentence_free(&s);
	}
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	return ret;
}

static int print_sw_plan_json(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			      const struct sp_sw_plan *p, const char *rsc, const char *rollback)
{
	json_object *obj = json_sw_doc(sw, d);
	json_object *sentences = sp_json_array(p->v, p->n, json_sw_sentence);

	if (!obj || !sentences) {
		json_object_put(obj);
		json_object_put(sentences);
		return -ENOMEM;
	}
	sp_json_add(obj, "changes", json_sw_changes(p));
	sp_json_add(obj, "sentences", sentences);
	sp_json_add(obj, "rsc", json_object_new_string(rsc));
	sp_json_add(obj, "rollback_rsc", json_object_new_string(rollback));
	return sp_print_json(obj);
}

int sp_print_switch_plan(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			 const struct sp_sw_plan *p)
{
	char *sentences = NULL, *rsc = sp_sw_plan_rsc(p), *rollback = NULL;
	struct sp_sw_plan inv;
	int ret = -ENOMEM;

	if (!sp_sw_plan_invert(p, &inv)) {
		rollback = sp_sw_plan_rsc(&inv);
		sp_sw_plan_free(&inv);
	}
	if (!rsc || !rollback)
		goto out;
	if (sp_print_is_json()) {
		ret = print_sw_plan_json(sw, d, p, rsc, rollback);
		goto out;
	}
	ret = sw_sentences_text(p, &sentences);
	if (ret)
		goto out;
	ret = sp_print_switch_changes(sw, p);
	print_sw_section("API sentences", sentences);
	print_sw_section("RouterOS script (.rsc)", rsc);
	print_sw_section("Rollback script (.rsc)", rollback);
out:
	free(sentences);
	free(rsc);
	free(rollback);
	return ret;
}

/* ---- switch verify ------------------------------------------------------ */

int sp_print_switch_verify(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			   const struct sp_sw_plan *diff, const struct sp_sw_link *links,
			   size_t n_links)
{
	bool as_desired = !diff->n;
	json_object *obj;
	size_t i;

	for (i = 0; i < n_links; i++)
		as_desired = as_desired && links[i].ok;
	if (!sp_print_is_json()) {
		print_sw_info(sw);
		if (as_desired) {
			fprintf(sp_print_file(), "as desired: %zu port%s, link%s up at %s\n", d->n_ports,
				d->n_ports == 1 ? "" : "s", d->n_ports == 1 ? "" : "s", d->speed);
			return 0;
		}
		fprintf(sp_print_file(), "not as desired:\n");
		return print_sw_diffs(diff, links, n_links);
	}
	obj = json_sw_doc(sw, d);
	if (!obj)
		return -ENOMEM;
	sp_json_add(obj, "as_desired", json_object_new_boolean(as_desired));
	sp_json_add(obj, "differences", json_sw_changes(diff));
	sp_json_add(obj, "links", sp_json_objects(links, n_links, sizeof(*links), json_sw_link));
	return sp_print_json(obj);
}

/* ---- switch apply ------------------------------------------------------- */

void sp_print_switch_step(const char *step, const char *detail)
{
	if (sp_print_is_json())
		return;
	fprintf(sp_print_file(), "%s: %s\n", step, detail);
	fflush(sp_print_file());
}

static void json_sw_step(json_object *o, const void *item)
{
	const struct sp_sw_step *s = item;

	sp_json_add(o, "step", json_object_new_string(s->step));
	sp_json_add(o, "detail", sp_json_str_or_null(s->detail));
}

int sp_print_switch_apply(const struct sp_sw_apply_report *r)
{
	json_object *obj;

	if (!sp_print_is_json())
		return 0;
	obj = json_sw_doc(r->sw, r->desired);
	if (!obj)
		return -ENOMEM;
	sp_json_add(obj, "changes", json_sw_changes(r->plan));
	sp_json_add(obj, "result", json_object_new_string(r->result));
	sp_json_add(obj, "error", sp_json_str_or_null(r->error));
	sp_json_add(obj, "backup", sp_json_str_or_null(r->backup));
	sp_json_add(obj, "switch_export", sp_json_str_or_null(r->export));
	sp_json_add(obj, "steps", sp_json_objects(r->steps, r->n_steps, sizeof(*r->steps),
						    json_sw_step));
	sp_json_add(obj, "links", sp_json_objects(r->links, r->n_links, sizeof(*r->links),
						    json_sw_link));
	return sp_print_json(obj);
}
