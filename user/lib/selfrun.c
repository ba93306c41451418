// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "print.h"
#include "selfrun.h"
#include "spawn.h"

/*
 * sparkperf-ctl -j OBJECT run peer P dev D ARGS: its first JSON element in
 * *first (the document in *doc, to put), or why there is none in why.
 */
static void run_json(const struct sp_selfrun *r, const char *object, json_object **doc,
		     json_object **first, char *why, size_t len)
{
	char *argv[24], *words, *w, *save = NULL;
	struct sp_spawn s;
	size_t n = 0;
	int ret;

	*doc = NULL;
	*first = NULL;
	words = strdup(r->args);
	if (!words) {
		snprintf(why, len, "cannot run it: %s", strerror(ENOMEM));
		return;
	}
	argv[n++] = (char *)r->prog;
	argv[n++] = "-j";
	argv[n++] = (char *)object;
	argv[n++] = "run";
	argv[n++] = "peer";
	argv[n++] = (char *)r->peer;
	argv[n++] = "dev";
	argv[n++] = (char *)r->dev;
	for (w = strtok_r(words, " ", &save); w && n < 23; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	ret = sp_spawn_capture(argv, r->timeout_ms, &s);
	free(words);
	if (ret) {
		snprintf(why, len, "cannot run it: %s", strerror(-ret));
		return;
	}
	if (s.exec_errno)
		snprintf(why, len, "cannot run sparkperf-ctl: %s", strerror(s.exec_errno));
	else if (s.timed_out)
		snprintf(why, len, "no end within %lld s", (long long)(r->timeout_ms / 1000));
	else
		*doc = json_tokener_parse(s.out);
	if (*doc && json_object_is_type(*doc, json_type_array) &&
	    json_object_array_length(*doc))
		*first = json_object_array_get_idx(*doc, 0);
	else if (!s.exec_errno && !s.timed_out)
		/* refused before a session existed: its one "Error: ..." line */
		sp_spawn_last_line(s.err, why, len);
	sp_spawn_free(&s);
}

static bool num_of(json_object *o, const char *key, double *out)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* A session that did not end well: its error, or its state. */
static bool session_failed(json_object *o, const char *msg, char *why, size_t len)
{
	const char *state = sp_json_get_str(o, "state");

	if (state && !strcmp(state, "done"))
		return false;
	snprintf(why, len, "%s", msg ? msg : state ? state : "no state");
	return true;
}

void sp_selfrun_bw(const struct sp_selfrun *r, struct sp_selfrun_bw *out)
{
	json_object *doc, *run, *sessions = NULL, *s, *agg;
	char *why = out->why, failed[SP_SELFRUN_WHY_MAX];
	size_t len = sizeof(out->why), i, ok = 0;

	memset(out, 0, sizeof(*out));
	run_json(r, "bw", &doc, &run, why, len);
	if (run && json_object_object_get_ex(run, "sessions", &sessions))
		out->n = json_object_array_length(sessions);
	if (out->n > SP_SELFRUN_SESSIONS)
		out->n = SP_SELFRUN_SESSIONS;
	if (run && !out->n)
		snprintf(why, len, "bw run gave no session");
	for (i = 0; i < out->n; i++) {
		s = json_object_array_get_idx(sessions, i);
		if (session_failed(s, sp_json_get_str(s, "error_msg"), failed, sizeof(failed))) {
			/* the first failure says why */
			if (!*why)
				snprintf(why, len, "%s", failed);
			continue;
		}
		out->session_ok[i] = num_of(s, "gbit_per_s", &out->session_gbit_per_s[i]);
		ok += out->session_ok[i];
	}
	if (out->n && ok == out->n)
		out->ok = json_object_object_get_ex(run, "aggregate", &agg) &&
			  num_of(agg, "gbit_per_s", &out->gbit_per_s);
	if (out->n && !out->ok && !*why)
		snprintf(why, len, "bw run measured nothing");
	/* rdma_cm's reject of a port nobody listens on: no sparkperf server there */
	out->no_server = !out->ok && strstr(why, "invalid service ID");
	out->not_permitted = !out->ok && strstr(why, strerror(EPERM));
	json_object_put(doc);
}

void sp_selfrun_lat(const struct sp_selfrun *r, struct sp_selfrun_lat *out)
{
	json_object *doc, *lat, *err;
	char *why = out->why;
	size_t len = sizeof(out->why);
	double p50, p99;

	memset(out, 0, sizeof(*out));
	run_json(r, "lat", &doc, &lat, why, len);
	if (lat && !session_failed(lat, json_object_object_get_ex(lat, "error", &err) ?
				   sp_json_get_str(err, "message") : NULL, why, len) &&
	    num_of(lat, "rtt_p50_ns", &p50) && num_of(lat, "rtt_p99_ns", &p99)) {
		out->ok = true;
		out->rtt_p50_ns = (uint64_t)p50;
		out->rtt_p99_ns = (uint64_t)p99;
	} else if (lat && !*why) {
		snprintf(why, len, "lat run measured nothing");
	}
	json_object_put(doc);
}
