// SPDX-License-Identifier: GPL-2.0
/* Switch plans: targets, the state read, the plan of changes, its sentences and scripts. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/model.h"
#include "switchplan.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- targets ------------------------------------------------------------ */

static struct sp_sw_target *target_add(struct sp_sw_targets *t, const char *menu,
				       const char *key, const char *key_value)
{
	struct sp_sw_target tg = { .menu = menu, .key = key, .key_value = strdup(key_value) };

	if (!tg.key_value || sp_array_add(&t->v, &t->n, &t->cap, sizeof(tg), &tg)) {
		free(tg.key_value);
		return NULL;
	}
	return &t->v[t->n - 1];
}

static int target_set(struct sp_sw_target *tg, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int target_set(struct sp_sw_target *tg, const char *name, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (!tg || tg->n >= SP_SW_SETTINGS_MAX)
		return -ENOMEM;
	va_start(ap, fmt);
	ret = vasprintf(&tg->set[tg->n].value, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	tg->set[tg->n++].name = name;
	return 0;
}

static int port_targets(const struct sp_sw_desired *d, struct sp_sw_targets *t)
{
	struct sp_sw_target *tg;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < d->n_ports; i++) {
		tg = target_add(t, SP_SW_MENU_ETHERNET, "name", d->ports[i]);
		if (tg)
			tg->is_port = true;
		/* a forced speed needs auto-negotiation off; l2mtu before mtu,
		 * which RouterOS clamps to the L2MTU */
		ret = target_set(tg, "auto-negotiation", "no");
		if (!ret)
			ret = target_set(tg, "speed", "%s", d->speed);
		if (!ret)
			ret = target_set(tg, "fec-mode", "%s", d->fec);
		if (!ret)
			ret = target_set(tg, "l2mtu", "%u", d->l2mtu);
		if (!ret)
			ret = target_set(tg, "mtu", "%u", d->mtu);
	}
	return ret;
}

/* The rows a QoS profile adds once, for all ports; a rollback removes them. */
static const struct {
	const char *menu, *key, *key_value;
	bool lossless;			/* profile lossless only */
	struct {
		const char *name, *value;
	} set[3];
} qos_rows[] = {
	{ SP_SW_MENU_QOS_PROFILE, "name", SP_SW_QOS_PROFILE, false,
	  { { "traffic-class", SP_SW_ROCE_TC } } },
	{ SP_SW_MENU_QOS_MAP_IP, "dscp", SP_SW_ROCE_DSCP, false,
	  { { "profile", SP_SW_QOS_PROFILE } } },
	{ SP_SW_MENU_QOS_PFC, "name", SP_SW_PFC_PROFILE, true,
	  { { "traffic-class", SP_SW_ROCE_TC }, { "rx", "yes" }, { "tx", "yes" } } },
};

static int qos_targets(const struct sp_sw_desired *d, struct sp_sw_targets *t)
{
	bool lossless = d->profile == SP_SW_PROFILE_LOSSLESS;
	struct sp_sw_target *tg;
	char cap[32];
	size_t i, j;
	int ret = 0;

	for (i = 0; !ret && i < ARRAY_SIZE(qos_rows); i++) {
		if (qos_rows[i].lossless && !lossless)
			continue;
		tg = target_add(t, qos_rows[i].menu, qos_rows[i].key, qos_rows[i].key_value);
		if (tg)
			tg->may_add = true;
		for (j = 0; !ret && j < ARRAY_SIZE(qos_rows[i].set) && qos_rows[i].set[j].name; j++)
			ret = target_set(tg, qos_rows[i].set[j].name, "%s", qos_rows[i].set[j].value);
	}
	sp_sw_rate_fmt(d->queue_cap_bps, cap, sizeof(cap));
	for (i = 0; !ret && i < d->n_ports; i++) {
		tg = target_add(t, SP_SW_MENU_QOS_PORT, "name", d->ports[i]);
		ret = target_set(tg, "trust-l3", "keep");
		if (!ret)
			ret = target_set(tg, SP_SW_ROCE_QUEUE_CAP, "%s", cap);
		if (!ret && lossless)
			ret = target_set(tg, "pfc", SP_SW_PFC_PROFILE);
	}
	if (ret)
		return ret;
	/* last: MikroTik warns that turning it off again does not undo everything */
	tg = target_add(t, SP_SW_MENU_SWITCH, "name", SP_SW_CHIP);
	return target_set(tg, "qos-hw-offloading", "yes");
}

int sp_sw_targets_build(const struct sp_sw_desired *d, struct sp_sw_targets *t)
{
	int ret;

	memset(t, 0, sizeof(*t));
	ret = port_targets(d, t);
	if (!ret && d->profile != SP_SW_PROFILE_NONE)
		ret = qos_targets(d, t);
	if (ret)
		sp_sw_targets_free(t);
	return ret;
}

static void target_free(struct sp_sw_target *tg)
{
	size_t i;

	free(tg->key_value);
	for (i = 0; i < tg->n; i++)
		free(tg->set[i].value);
}

void sp_sw_targets_free(struct sp_sw_targets *t)
{
	SP_ARRAY_RELEASE(t->v, t->n, target_free);
	memset(t, 0, sizeof(*t));
}

size_t sp_sw_targets_menus(const struct sp_sw_targets *t, const char **menus, size_t max)
{
	size_t n = 0, i, j;

	for (i = 0; i < t->n; i++) {
		for (j = 0; j < n && strcmp(menus[j], t->v[i].menu); j++)
			;
		if (j == n && n < max)
			menus[n++] = t->v[i].menu;
	}
	return n;
}

/* Appends ",name" to list unless it is there already. */
static void proplist_add(char *list, size_t len, const char *name)
{
	size_t nlen = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += nlen)
		if ((p == list || p[-1] == ',') && (p[nlen] == ',' || !p[nlen]))
			return;
	snprintf(list + strlen(list), len - strlen(list), "%s%s", *list ? "," : "", name);
}

char *sp_sw_proplist(const struct sp_sw_targets *t, const char *menu)
{
	char list[512] = "";
	size_t i, j;

	proplist_add(list, sizeof(list), ".id");
	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].menu, menu))
			continue;
		proplist_add(list, sizeof(list), t->v[i].key);
		for (j = 0; j < t->v[i].n; j++)
			proplist_add(list, sizeof(list), t->v[i].set[j].name);
	}
	return strdup(list);
}

/* ---- state -------------------------------------------------------------- */

const struct sp_ros_result *sp_sw_state_menu(const struct sp_sw_state *st, const char *menu)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (!strcmp(st->menus[i].path, menu))
			return &st->menus[i].rows;
	return NULL;
}

const struct sp_ros_sentence *sp_sw_find_row(const struct sp_ros_result *rows, const char *key,
					     const char *value)
{
	const char *v;
	size_t i;

	for (i = 0; i < rows->n_rows; i++) {
		v = sp_ros_attr(&rows->rows[i], key);
		if (v && !strcmp(v, value))
			return &rows->rows[i];
	}
	return NULL;
}

void sp_sw_state_free(struct sp_sw_state *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		sp_ros_result_free(&st->menus[i].rows);
	memset(st, 0, sizeof(*st));
}

/* ---- plans -------------------------------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void change_free(struct sp_sw_change *c)
{
	size_t i;

	free(c->key_value);
	free(c->id);
	for (i = 0; i < c->n; i++) {
		free(c->diffs[i].from);
		free(c->diffs[i].to);
	}
}

void sp_sw_plan_free(struct sp_sw_plan *p)
{
	SP_ARRAY_RELEASE(p->v, p->n, change_free);
	memset(p, 0, sizeof(*p));
}

/* A new change at the end of p, for the row that tg names. */
static struct sp_sw_change *change_add(struct sp_sw_plan *p, enum sp_sw_action action,
				       const struct sp_sw_target *tg, const char *id)
{
	struct sp_sw_change *v = realloc(p->v, (p->n + 1) * sizeof(*v)), *c;

	if (!v)
		return NULL;
	p->v = v;
	c = memset(&v[p->n++], 0, sizeof(*c));
	c->action = action;
	c->menu = tg->menu;
	c->key = tg->key;
	c->is_port = tg->is_port;
	c->key_value = strdup(tg->key_value);
	c->id = dup_or_null(id);
	if (!c->key_value || (id && !c->id))
		return NULL;
	return c;
}

static int diff_add(struct sp_sw_change *c, const char *name, const char *from, const char *to)
{
	struct sp_sw_diff *d = &c->diffs[c->n];

	d->name = name;
	d->from = dup_or_null(from);
	d->to = dup_or_null(to);
	c->n++;
	return (from && !d->from) || (to && !d->to) ? -ENOMEM : 0;
}

/* The changes for one target: 0, -ENOENT (err), -ENOMEM. */
static int plan_target(const struct sp_sw_target *tg, const struct sp_ros_result *rows,
		       struct sp_sw_plan *p, char *err, size_t len)
{
	const struct sp_ros_sentence *row = sp_sw_find_row(rows, tg->key, tg->key_value);
	const char *have;
	struct sp_sw_change *c = NULL;
	char label[128];
	size_t i;
	int ret = 0;

	if (tg->absent) {
		if (row && !change_add(p, SP_SW_REMOVE, tg, sp_ros_attr(row, ".id")))
			return -ENOMEM;
		return 0;
	}
	if (!row && !tg->may_add) {
		if (tg->is_port)
			snprintf(err, len, "port %s not found on the switch ('switch show' lists "
				 "its ports)", tg->key_value);
		else
			snprintf(err, len, "%s: no row with %s=%s on the switch", tg->menu,
				 tg->key, tg->key_value);
		return -ENOENT;
	}
	if (!row) {
		c = change_add(p, SP_SW_ADD, tg, NULL);
		for (i = 0; c && !ret && i < tg->n; i++)
			ret = diff_add(c, tg->set[i].name, NULL, tg->set[i].value);
		return c ? ret : -ENOMEM;
	}
	for (i = 0; !ret && i < tg->n; i++) {
		have = sp_ros_attr(row, tg->set[i].name);
		if (!have) {
			snprintf(label, sizeof(label), "%s %s", tg->menu, tg->key_value);
			snprintf(err, len, "the switch did not report %s of %s (does this RouterOS "
				 "version have it?)", tg->set[i].name, label);
			return -ENOENT;
		}
		if (sp_sw_value_eq(have, tg->set[i].value))
			continue;
		if (!c)
			c = change_add(p, SP_SW_SET, tg, sp_ros_attr(row, ".id"));
		if (!c)
			return -ENOMEM;
		ret = diff_add(c, tg->set[i].name, have, tg->set[i].value);
	}
	return ret;
}

int sp_sw_plan_build(const struct sp_sw_targets *t, const struct sp_sw_state *st,
		     struct sp_sw_plan *p, char *err, size_t len)
{
	const struct sp_ros_result *rows;
	size_t i;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	for (i = 0; !ret && i < t->n; i++) {
		rows = sp_sw_state_menu(st, t->v[i].menu);
		if (!rows) {
			snprintf(err, len, "%s was not read", t->v[i].menu);
			ret = -ENOENT;
			break;
		}
		ret = plan_target(&t->v[i], rows, p, err, len);
	}
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	if (ret)
		sp_sw_plan_free(p);
	return ret;
}

size_t sp_sw_plan_settings(const struct sp_sw_plan *p)
{
	size_t n = 0, i;

	for (i = 0; i < p->n; i++)
		n += p->v[i].action == SP_SW_REMOVE ? 1 : p->v[i].n;
	return n;
}

int sp_sw_plan_invert(const struct sp_sw_plan *p, struct sp_sw_plan *inv)
{
	const struct sp_sw_change *c;
	struct sp_sw_target tg;
	struct sp_sw_change *r;
	size_t i, j;
	int ret = 0;

	memset(inv, 0, sizeof(*inv));
	for (i = p->n; !ret && i-- > 0;) {
		c = &p->v[i];
		if (c->action == SP_SW_REMOVE) {
			ret = -EINVAL;
			break;
		}
		tg = (struct sp_sw_target){ .menu = c->menu, .key = c->key,
					    .key_value = c->key_value, .is_port = c->is_port };
		r = change_add(inv, c->action == SP_SW_ADD ? SP_SW_REMOVE : SP_SW_SET, &tg,
			       c->action == SP_SW_ADD ? NULL : c->id);
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		for (j = 0; !ret && c->action == SP_SW_SET && j < c->n; j++)
			ret = diff_add(r, c->diffs[j].name, c->diffs[j].to,
				       sp_sw_settable(c->diffs[j].from));
	}
	if (ret)
		sp_sw_plan_free(inv);
	return ret;
}

int sp_sw_plan_targets(const struct sp_sw_plan *p, struct sp_sw_targets *t)
{
	const struct sp_sw_change *c;
	struct sp_sw_target *tg;
	size_t i, j;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; !ret && i < p->n; i++) {
		c = &p->v[i];
		tg = target_add(t, c->menu, c->key, c->key_value);
		if (!tg) {
			ret = -ENOMEM;
			break;
		}
		tg->is_port = c->is_port;
		tg->absent = c->action == SP_SW_REMOVE;
		tg->may_add = c->action == SP_SW_ADD;
		for (j = 0; !ret && j < c->n; j++)
			ret = target_set(tg, c->diffs[j].name, "%s", c->diffs[j].to);
	}
	if (ret)
		sp_sw_targets_free(t);
	return ret;
}

static const char *const action_cmd[] = {
	[SP_SW_SET] = "set",
	[SP_SW_ADD] = "add",
	[SP_SW_REMOVE] = "remove",
};

int sp_sw_change_sentence(const struct sp_sw_change *c, struct sp_ros_sentence *s)
{
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (c->action != SP_SW_ADD && !c->id)
		return -EINVAL;
	ret = sp_ros_sentence_add(s, "%s/%s", c->menu, action_cmd[c->action]);
	if (!ret && c->action == SP_SW_ADD)
		ret = sp_ros_sentence_add(s, "=%s=%s", c->key, c->key_value);
	else if (!ret)
		ret = sp_ros_sentence_add(s, "=.id=%s", c->id);
	for (i = 0; !ret && c->action != SP_SW_REMOVE && i < c->n; i++)
		ret = sp_ros_sentence_add(s, "=%s=%s", c->diffs[i].name, c->diffs[i].to);
	if (ret)
		sp_ros_sentence_free(s);
	return ret;
}

char *sp_sw_sentence_line(const struct sp_ros_sentence *s)
{
	size_t len = 0, i;
	char *line;

	for (i = 0; i < s->n; i++)
		len += strlen(s->words[i]) + 1;
	line = malloc(len + 1);
	if (!line)
		return NULL;
	line[0] = '\0';
	for (i = 0; i < s->n; i++) {
		if (i)
			strcat(line, " ");
		strcat(line, s->words[i]);
	}
	return line;
}

/* Writes a value for a RouterOS script: bare when plain, else quoted. */
static void rsc_value(FILE *f, const char *v, bool digits_only_bare)
{
	const char *plain = digits_only_bare ? "0123456789"
			    : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

	if (*v && !v[strspn(v, plain)]) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (; *v; v++) {
		if (strchr("\"\\$", *v))
			fputc('\\', f);
		fputc(*v, f);
	}
	fputc('"', f);
}

char *sp_sw_plan_rsc(const struct sp_sw_plan *p)
{
	const struct sp_sw_change *c;
	size_t len = 0, i, j;
	char *buf = NULL;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (i = 0; i < p->n; i++) {
		c = &p->v[i];
		fprintf(f, "%s/%s ", c->menu, action_cmd[c->action]);
		if (c->action == SP_SW_ADD) {
			fprintf(f, "%s=", c->key);
			rsc_value(f, c->key_value, false);
		} else {
			/* by name, not .id: the script must work after a reboot too */
			fprintf(f, "[find %s=", c->key);
			rsc_value(f, c->key_value, true);
			fputc(']', f);
		}
		for (j = 0; c->action != SP_SW_REMOVE && j < c->n; j++) {
			fprintf(f, " %s=", c->diffs[j].name);
			rsc_value(f, c->diffs[j].to, false);
		}
		fputc('\n', f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sp_sw_change_label(const struct sp_sw_change *c, char *buf, size_t len)
{
	static const char prefix[] = SP_SW_MENU_ETHERNET "/";

	if (!strcmp(c->menu, SP_SW_MENU_ETHERNET))
		snprintf(buf, len, "%s", c->key_value);
	else if (!strncmp(c->menu, prefix, sizeof(prefix) - 1))
		snprintf(buf, len, "%s %s", c->menu + sizeof(prefix) - 1, c->key_value);
	else
		snprintf(buf, len, "%s %s", c->menu, c->key_value);
	return buf;
}
