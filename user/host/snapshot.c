// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "snapshot.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int sp_snapshot_from_plan(struct sp_snapshot *s, const struct sp_plan *plan,
			  const char *host, const char *created, const char *tool_version,
			  const char *profile)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->version = SP_SNAPSHOT_VERSION;
	copy(s->host, sizeof(s->host), host);
	copy(s->created, sizeof(s->created), created);
	copy(s->tool_version, sizeof(s->tool_version), tool_version);
	copy(s->profile, sizeof(s->profile), profile);
	s->changes = calloc(plan->n_changes ? plan->n_changes : 1, sizeof(*s->changes));
	if (!s->changes)
		return -ENOMEM;
	for (i = 0; i < plan->n; i++) {
		if (plan->knobs[i].state != SP_KNOB_CHANGE)
			continue;
		if (sp_change_copy(&s->changes[s->n], &plan->knobs[i].ch)) {
			sp_snapshot_free(s);
			return -ENOMEM;
		}
		s->n++;
	}
	return 0;
}

void sp_snapshot_free(struct sp_snapshot *s)
{
	SP_ARRAY_RELEASE(s->changes, s->n, sp_change_free);
	memset(s, 0, sizeof(*s));
}

/* ---- writing ----------------------------------------------------------------- */

static void change_json(json_object *o, const void *item)
{
	const struct sp_change *c = item;

	sp_json_add(o, "name", sp_json_str_or_null(c->name));
	sp_json_add(o, "access", sp_json_str_or_null(sp_access_name(c->access)));
	sp_json_add(o, "path", sp_json_str_or_null(c->path));
	if (c->access == SP_ACCESS_CONFIGFS) {
		sp_json_add(o, "group", sp_json_str_or_null(c->group));
		sp_json_add(o, "group_made", json_object_new_boolean(c->group_made));
	}
	sp_json_add(o, "before", c->has_before ? sp_json_str_or_null(c->before) : NULL);
	sp_json_add(o, "after", sp_json_str_or_null(c->after));
	if (c->access == SP_ACCESS_FILE) {
		if (c->has_before)
			sp_json_add(o, "before_mode", json_object_new_int((int)c->before_mode));
		sp_json_add(o, "after_mode", json_object_new_int((int)c->after_mode));
	}
}

char *sp_snapshot_to_json(const struct sp_snapshot *s)
{
	json_object *o = json_object_new_object(), *arr;
	const char *text;
	char *out = NULL;

	if (!o)
		return NULL;
	sp_json_add(o, "format", sp_json_str_or_null(SP_SNAPSHOT_FORMAT));
	sp_json_add(o, "version", json_object_new_int(s->version));
	sp_json_add(o, "host", sp_json_str_or_null(s->host));
	sp_json_add(o, "created", sp_json_str_or_null(s->created));
	sp_json_add(o, "tool_version", sp_json_str_or_null(s->tool_version));
	sp_json_add(o, "profile", sp_json_str_or_null(s->profile));
	arr = sp_json_objects(s->changes, s->n, sizeof(*s->changes), change_json);
	if (arr) {
		sp_json_add(o, "changes", arr);
		text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
		if (text && asprintf(&out, "%s\n", text) < 0)
			out = NULL;
	}
	json_object_put(o);
	return out;
}

/* ---- reading ----------------------------------------------------------------- */

/* A string member into dst (which it must fit); missing is an error unless optional. */
static int get_str(json_object *o, const char *key, char *dst, size_t size, bool optional)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return optional ? 0 : -ENOENT;
	if (!json_object_is_type(v, json_type_string) ||
	    (size_t)json_object_get_string_len(v) >= size)
		return -EINVAL;
	memcpy(dst, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
	return 0;
}

/* A string or null member, malloc'ed (NULL for null). */
static int get_dup(json_object *o, const char *key, char **dst, bool *present)
{
	json_object *v;

	*dst = NULL;
	if (!json_object_object_get_ex(o, key, &v))
		return -ENOENT;
	if (present)
		*present = v != NULL;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	*dst = strdup(json_object_get_string(v));
	return *dst ? 0 : -ENOMEM;
}

static int get_mode(json_object *o, const char *key, unsigned int *mode)
{
	json_object *v;
	int64_t m;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -EINVAL;
	m = json_object_get_int64(v);
	if (m < 0 || m > 07777)
		return -EINVAL;
	*mode = (unsigned int)m;
	return 0;
}

/* Absolute, without ".." components: a snapshot cannot reach out of the root. */
static bool path_below_root(const char *path)
{
	const char *p = path;

	if (path[0] != '/')
		return false;
	while ((p = strstr(p, "/..")))
		if (p[3] == '/' || p[3] == '\0')
			return false;
		else
			p += 3;
	return true;
}

static int parse_change(json_object *o, struct sp_change *c, char *err, size_t len, size_t i)
{
	char access[16];
	json_object *v;

	memset(c, 0, sizeof(*c));
	if (!json_object_is_type(o, json_type_object))
		return sp_invalid(err, len, "change %zu is not an object", i);
	if (get_str(o, "name", c->name, sizeof(c->name), false) ||
	    get_str(o, "access", access, sizeof(access), false) ||
	    sp_parse_access(access, &c->access) ||
	    get_str(o, "path", c->path, sizeof(c->path), false) || !c->path[0])
		return sp_invalid(err, len, "change %zu: a bad name, access or path", i);
	if (get_dup(o, "before", &c->before, &c->has_before) ||
	    get_dup(o, "after", &c->after, NULL))
		return sp_invalid(err, len, "%s: a bad \"before\" or \"after\"", c->name);
	if ((!c->has_before || !c->after) && c->access != SP_ACCESS_FILE)
		return sp_invalid(err, len, "%s: only a file can be absent", c->name);
	if (c->access == SP_ACCESS_CONFIGFS) {
		if (get_str(o, "group", c->group, sizeof(c->group), false) ||
		    !path_below_root(c->group) ||
		    strncmp(c->path, c->group, strlen(c->group)) ||
		    !json_object_object_get_ex(o, "group_made", &v) ||
		    !json_object_is_type(v, json_type_boolean))
			return sp_invalid(err, len, "%s: a bad configfs group", c->name);
		c->group_made = json_object_get_boolean(v);
	}
	if (c->access == SP_ACCESS_FILE &&
	    ((c->has_before && get_mode(o, "before_mode", &c->before_mode)) ||
	     (c->after && get_mode(o, "after_mode", &c->after_mode))))
		return sp_invalid(err, len, "%s: a bad file mode", c->name);
	if (c->access == SP_ACCESS_DSCP || c->access == SP_ACCESS_PFC ?
	    !sp_netdev_name_valid(c->path) : !path_below_root(c->path))
		return sp_invalid(err, len, "%s: not a netdev or an absolute path: %s", c->name,
				  c->path);
	return 0;
}

static int parse_root(json_object *root, struct sp_snapshot *s, char *err, size_t len)
{
	char format[64] = "";
	json_object *v, *arr;
	size_t i, n;
	int ret;

	if (!json_object_is_type(root, json_type_object) ||
	    get_str(root, "format", format, sizeof(format), false) ||
	    strcmp(format, SP_SNAPSHOT_FORMAT))
		return sp_invalid(err, len, "not a sparkperf tuning snapshot");
	if (!json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_int))
		return sp_invalid(err, len, "the snapshot has no version");
	s->version = json_object_get_int(v);
	if (s->version != SP_SNAPSHOT_VERSION)
		return sp_invalid(err, len, "snapshot version %d, this sparkperf-ctl reads version "
				  "%d", s->version, SP_SNAPSHOT_VERSION);
	if (get_str(root, "host", s->host, sizeof(s->host), false) ||
	    get_str(root, "created", s->created, sizeof(s->created), true) ||
	    get_str(root, "tool_version", s->tool_version, sizeof(s->tool_version), true) ||
	    get_str(root, "profile", s->profile, sizeof(s->profile), true))
		return sp_invalid(err, len, "a bad host, created, tool_version or profile");
	if (!json_object_object_get_ex(root, "changes", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return sp_invalid(err, len, "the snapshot has no list of changes");
	n = json_object_array_length(arr);
	s->changes = calloc(n ? n : 1, sizeof(*s->changes));
	if (!s->changes)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = parse_change(json_object_array_get_idx(arr, i), &s->changes[i], err, len, i);
		s->n++;		/* freed with the others, parsed or not */
		if (ret)
			return ret;
	}
	return 0;
}

int sp_snapshot_parse(const char *json, struct sp_snapshot *s, char *err, size_t len)
{
	enum json_tokener_error jerr;
	json_object *root;
	int ret;

	memset(s, 0, sizeof(*s));
	root = json_tokener_parse_verbose(json, &jerr);
	if (!root)
		return sp_invalid(err, len, "not JSON: %s", json_tokener_error_desc(jerr));
	ret = parse_root(root, s, err, len);
	json_object_put(root);
	if (ret)
		sp_snapshot_free(s);
	return ret;
}

/* ---- names ------------------------------------------------------------------- */

void sp_snapshot_name(long long unix_time, unsigned int seq, char *buf, size_t len)
{
	time_t t = (time_t)unix_time;
	struct tm tm;
	char stamp[20];

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, len, "tune-%s-%02u.json", stamp, seq);
}

bool sp_snapshot_name_valid(const char *name)
{
	size_t len = strlen(name);

	return len > strlen("tune-.json") && !strncmp(name, "tune-", 5) &&
	       !strcmp(name + len - 5, ".json") && !strchr(name, '/');
}
