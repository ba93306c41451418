// SPDX-License-Identifier: GPL-2.0
/*
 * switch apply: the rollback script written and the configuration exported
 * first, then the plan in RouterOS safe mode, ports in small batches whose
 * links must come up, the result read back, and safe mode released; any
 * failure is undone (safe mode's unroll, else by hand, else by dropping the
 * session), and the switch read until it is as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "switchsession.h"

struct apply {
	struct sp_sw_session *s;
	const struct sp_sw_options *o;
	struct sp_sw_desired_state ds;
	struct sp_sw_step *steps;
	size_t n_steps;
	struct sp_sw_link *links;	/* of the ports changed */
	size_t n_links;
	char stamp[32];			/* UTC, for file names */
	char backup[4096];
	char export[96];
	const char *result;
};

/* Records and prints one step. */
static void step(struct apply *a, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void step(struct apply *a, const char *name, const char *fmt, ...)
{
	struct sp_sw_step *steps = realloc(a->steps, (a->n_steps + 1) * sizeof(*steps));
	char *detail = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&detail, fmt, ap) < 0)
		detail = NULL;
	va_end(ap);
	sp_print_switch_step(name, detail ? detail : "");
	if (!steps) {
		free(detail);
		return;
	}
	a->steps = steps;
	a->steps[a->n_steps++] = (struct sp_sw_step){ .step = name, .detail = detail };
}

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The rollback script, written before anything changes. */
static int write_backup(struct apply *a)
{
	const struct sp_sw_info *sw = &a->s->info;
	struct sp_sw_plan inv;
	char *rsc = NULL, host[64];
	size_t i;
	FILE *f;
	int fd;

	if (a->o->backup) {
		snprintf(a->backup, sizeof(a->backup), "%s", a->o->backup);
	} else {
		/* the host as a file name: no '/' or ':' */
		snprintf(host, sizeof(host), "%s", a->o->host);
		for (i = 0; host[i]; i++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-",
				    host[i]))
				host[i] = '_';
		snprintf(a->backup, sizeof(a->backup), "sparkperf-switch-%s-%s.rsc", host,
			 a->stamp);
	}
	if (!sp_sw_plan_invert(&a->ds.plan, &inv)) {
		rsc = sp_sw_plan_rsc(&inv);
		sp_sw_plan_free(&inv);
	}
	if (!rsc)
		return sp_sw_fail(a->s, "out of memory");
	fd = open(a->backup, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int error = errno;

		if (fd >= 0)
			close(fd);
		free(rsc);
		sp_sw_fail(a->s, "cannot write the rollback script %s: %s", a->backup,
			   strerror(error));
		a->backup[0] = '\0';
		return -1;
	}
	fprintf(f, "# sparkperf-ctl switch apply: the rollback script of %s port %u\n"
		"# (RouterOS %s%s%s), written at %s UTC before any change.\n"
		"# It sets back what the apply changes. RouterOS safe mode does that by\n"
		"# itself when an apply fails; by hand: /import file-name=<this file>\n%s",
		sw->host, sw->port, sw->version, sw->board ? ", " : "", sw->board ? sw->board : "",
		a->stamp, rsc);
	free(rsc);
	if (fclose(f))
		return sp_sw_fail(a->s, "cannot write the rollback script %s: %s", a->backup,
				  strerror(errno));
	step(a, "backup", "rollback script written to %s", a->backup);
	return 0;
}

/* The whole configuration, exported on the switch's own storage. */
static int export_config(struct apply *a)
{
	char file[80];

	/* RouterOS adds the .rsc */
	snprintf(file, sizeof(file), "=file=sparkperf-pre-%s", a->stamp);
	if (sp_sw_command(a->s, "exporting the configuration", "/export", file))
		return -1;
	snprintf(a->export, sizeof(a->export), "%s.rsc", file + strlen("=file="));
	step(a, "backup", "configuration exported on the switch to %s", a->export);
	return 0;
}

static int apply_change(struct sp_sw_session *s, const struct sp_sw_change *c)
{
	struct sp_ros_result res = { 0 };
	struct sp_ros_sentence cmd;
	char what[256], label[128];
	int ret;

	if (sp_sw_change_sentence(c, &cmd))
		return sp_sw_fail(s, "out of memory");
	snprintf(what, sizeof(what), "%s %s", cmd.words[0],
		 sp_sw_change_label(c, label, sizeof(label)));
	ret = sp_sw_call(s, &cmd, what, &res);
	sp_ros_sentence_free(&cmd);
	sp_ros_result_free(&res);
	return ret;
}

/* The link of a changed port, kept for the report. */
static struct sp_sw_link *changed_link(struct apply *a, const char *port)
{
	struct sp_sw_link *links = realloc(a->links, (a->n_links + 1) * sizeof(*links));

	if (!links)
		return NULL;
	a->links = links;
	a->links[a->n_links] = (struct sp_sw_link){ .port = port, .speed = a->o->desired.speed };
	return &a->links[a->n_links++];
}

/* Polls the links of links[from..] until all are up, or the wait is over. */
static int wait_links(struct apply *a, size_t from)
{
	int64_t deadline = now_ms() + a->o->wait_ms;
	struct sp_sw_link *l;
	size_t i, down;

	for (;;) {
		down = 0;
		for (i = from; i < a->n_links; i++) {
			if (sp_sw_monitor(a->s, &a->links[i]))
				return -1;
			down += !a->links[i].ok;
		}
		if (!down)
			break;
		if (now_ms() >= deadline) {
			for (i = from; a->links[i].ok; i++)
				;
			l = &a->links[i];
			return sp_sw_fail(a->s, "the link of %s is %s%s%s, not link-ok at %s, %g s "
					  "after the change", l->port,
					  l->status ? l->status : "unknown", l->rate ? " " : "",
					  l->rate ? l->rate : "", l->speed, a->o->wait_ms / 1000.0);
		}
		sleep_ms(1000);
	}
	for (i = from; i < a->n_links; i++)
		step(a, "link", "%s %s %s", a->links[i].port, a->links[i].status,
		     a->links[i].rate);
	return 0;
}

/* The plan, ports in batches (each batch's links verified), then the rest. */
static int apply_changes(struct apply *a)
{
	const struct sp_sw_plan *p = &a->ds.plan;
	size_t n_ports = 0, batches, batch = 0, i, first, names_len;
	char names[512], label[128];

	for (i = 0; i < p->n; i++)
		n_ports += p->v[i].is_port;
	batches = (n_ports + a->o->batch - 1) / a->o->batch;
	for (i = 0; i < p->n;) {
		if (!p->v[i].is_port) {
			if (apply_change(a->s, &p->v[i]))
				return -1;
			step(a, "qos", "%s: %zu setting%s", sp_sw_change_label(&p->v[i], label,
			     sizeof(label)), p->v[i].n, p->v[i].n == 1 ? "" : "s");
			i++;
			continue;
		}
		first = a->n_links;
		names[0] = '\0';
		for (names_len = 0; i < p->n && p->v[i].is_port && a->n_links - first < a->o->batch;
		     i++) {
			if (apply_change(a->s, &p->v[i]))
				return -1;
			if (!changed_link(a, p->v[i].key_value))
				return sp_sw_fail(a->s, "out of memory");
			names_len += (size_t)snprintf(names + names_len, sizeof(names) - names_len,
						      "%s%s", names_len ? " " : "", p->v[i].key_value);
			if (names_len >= sizeof(names))
				names_len = sizeof(names) - 1;
		}
		step(a, "batch", "%zu/%zu: %s set", ++batch, batches, names);
		if (wait_links(a, first))
			return -1;
	}
	return 0;
}

/* Reads the state again: the plan must now be empty. */
static int check_applied(struct apply *a)
{
	struct sp_sw_plan left = { 0 };
	struct sp_sw_state st;
	char err[512], label[128];
	int ret;

	ret = sp_sw_read_state(a->s, &a->ds.targets, &st);
	if (!ret && sp_sw_plan_build(&a->ds.targets, &st, &left, err, sizeof(err)))
		ret = sp_sw_fail(a->s, "%s", err);
	else if (!ret && left.n)
		ret = sp_sw_fail(a->s, "after the changes, %s %s is %s, not %s (RouterOS changed "
				 "it, e.g. clamped the MTU to the L2MTU)",
				 sp_sw_change_label(&left.v[0], label, sizeof(label)),
				 left.v[0].diffs[0].name, left.v[0].diffs[0].from ?: "missing",
				 left.v[0].diffs[0].to);
	if (!ret)
		step(a, "check", "the switch is as desired");
	sp_sw_plan_free(&left);
	sp_sw_state_free(&st);
	return ret;
}

/*
 * What is still to undo: the plan of the targets "as it was" (the inverted
 * plan's) against the switch now. 0 (*undo set), or -1 (reported).
 */
static int plan_undo(struct apply *a, struct sp_sw_plan *undo)
{
	struct sp_sw_targets before;
	struct sp_sw_state st;
	struct sp_sw_plan inv;
	char err[512];
	int ret;

	if (sp_sw_plan_invert(&a->ds.plan, &inv))
		return sp_sw_fail(a->s, "out of memory");
	ret = sp_sw_plan_targets(&inv, &before);
	sp_sw_plan_free(&inv);
	if (ret)
		return sp_sw_fail(a->s, "out of memory");
	ret = sp_sw_read_state(a->s, &before, &st);
	if (!ret && sp_sw_plan_build(&before, &st, undo, err, sizeof(err)))
		ret = sp_sw_fail(a->s, "%s", err);
	sp_sw_state_free(&st);
	sp_sw_targets_free(&before);
	return ret;
}

/* Reads the switch: 1 when it is as it was before apply, 0 when not, -1. */
static int is_restored(struct apply *a, size_t *left)
{
	struct sp_sw_plan undo;

	if (plan_undo(a, &undo))
		return -1;
	*left = sp_sw_plan_settings(&undo);
	sp_sw_plan_free(&undo);
	return !*left;
}

/*
 * The session died during apply. RouterOS undoes what a session changed in
 * safe mode when the session ends without releasing it: at once when the
 * switch saw the connection close, else after its TCP timeout (about 9
 * minutes). Reconnects and reads until the switch is as it was, for as long
 * as the links were given.
 */
static void recover_lost(struct apply *a)
{
	int64_t deadline = now_ms() + a->o->wait_ms;
	char err[512] = "";
	size_t left = 0;
	int restored = -1;
	bool first = true;

	step(a, "rollback", "connection lost: RouterOS safe mode undoes the changes of the "
	     "lost session");
	do {
		if (!first)
			sleep_ms(1000);
		first = false;
		sp_ros_close(&a->s->conn);
		err[0] = '\0';
		if (sp_sw_session_open(a->s, err, sizeof(err)))
			continue;
		restored = is_restored(a, &left);
		if (restored)
			break;
	} while (now_ms() < deadline);
	if (restored == 1) {
		step(a, "check", "reconnected: the switch is as it was before apply");
		a->result = "rolled back";
	} else if (restored == 0) {
		sp_sw_fail(a->s, "reconnected, but %zu setting%s of the lost session %s still in "
			   "place; safe mode undoes them once RouterOS notices the session is gone "
			   "(up to about 9 minutes): check with 'switch verify', or import %s",
			   left, left == 1 ? " is" : "s are", left == 1 ? "is" : "are", a->backup);
	} else {
		sp_sw_fail(a->s, "%s; safe mode undoes the changes once RouterOS notices the "
			   "session is gone (up to about 9 minutes); the rollback script is %s",
			   err[0] ? err : "cannot reconnect", a->backup);
	}
}

/* Sets back, one by one, what was changed, then leaves safe mode. */
static int undo_by_hand(struct apply *a)
{
	struct sp_sw_plan undo;
	size_t i;
	int ret;

	if (plan_undo(a, &undo))
		return -1;
	for (ret = 0, i = 0; !ret && i < undo.n; i++)
		ret = apply_change(a->s, &undo.v[i]);
	if (!ret)
		ret = sp_sw_command(a->s, "releasing safe mode", "/safe-mode/release", NULL);
	if (!ret) {
		step(a, "rollback", "%zu setting%s set back; safe mode released",
		     sp_sw_plan_settings(&undo), sp_sw_plan_settings(&undo) == 1 ? "" : "s");
	}
	sp_sw_plan_free(&undo);
	return ret;
}

/*
 * Undoes a failed apply: /safe-mode/unroll where RouterOS has it (7.18),
 * else the changes set back one by one. When that fails too, the session is
 * dropped, which makes safe mode undo everything.
 */
static void roll_back(struct apply *a)
{
	struct sp_sw_session *s = a->s;
	size_t left;
	int ret = -1;

	a->result = "failed";
	if (!sp_sw_session_lost(s) && sp_sw_has_unroll(&s->ver)) {
		ret = sp_sw_command(s, "undoing the changes", "/safe-mode/unroll", NULL);
		if (!ret)
			step(a, "rollback", "safe mode unrolled");
	}
	if (ret && !sp_sw_session_lost(s))
		ret = undo_by_hand(a);
	if (ret) {
		recover_lost(a);
		return;
	}
	ret = is_restored(a, &left);
	if (ret < 0 && sp_sw_session_lost(s))
		recover_lost(a);
	else if (ret == 1) {
		step(a, "check", "the switch is as it was before apply");
		a->result = "rolled back";
	} else if (!ret) {
		sp_sw_fail(s, "after the rollback, %zu setting%s not as %s before apply; the "
			   "rollback script is %s", left, left == 1 ? " is" : "s are",
			   left == 1 ? "it was" : "they were", a->backup);
	}
}

int sp_sw_cmd_apply(struct sp_sw_session *s)
{
	struct sp_sw_apply_report report;
	struct apply a = { .s = s, .o = s->o, .result = "failed" };
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	int rc = SP_EXIT_ERROR;

	gmtime_r(&now, &tm);
	strftime(a.stamp, sizeof(a.stamp), "%Y%m%d-%H%M%S", &tm);
	if (sp_sw_desired_read(s, &a.ds))
		goto out;
	sp_print_switch_changes(&s->info, &a.ds.plan);
	if (!a.ds.plan.n) {
		a.result = "unchanged";
		rc = SP_EXIT_OK;
		goto report;
	}
	if (write_backup(&a) || export_config(&a) ||
	    sp_sw_command(s, "taking safe mode", "/safe-mode/take", NULL)) {
		step(&a, "abort", "nothing was changed");
		goto report;
	}
	step(&a, "safe mode", "taken: RouterOS undoes every change unless it is released");
	if (!apply_changes(&a) && !check_applied(&a) &&
	    !sp_sw_command(s, "releasing safe mode", "/safe-mode/release", NULL)) {
		step(&a, "safe mode", "released: %zu setting%s changed",
		     sp_sw_plan_settings(&a.ds.plan), sp_sw_plan_settings(&a.ds.plan) == 1 ? "" : "s");
		a.result = "applied";
		rc = SP_EXIT_OK;
		goto report;
	}
	roll_back(&a);
report:
	report = (struct sp_sw_apply_report){
		.sw = &s->info, .desired = &s->o->desired, .plan = &a.ds.plan,
		.result = a.result, .error = s->error[0] ? s->error : NULL,
		.backup = a.backup[0] ? a.backup : NULL, .export = a.export[0] ? a.export : NULL,
		.steps = a.steps, .n_steps = a.n_steps, .links = a.links, .n_links = a.n_links,
	};
	if (sp_print_switch_apply(&report))
		rc = SP_EXIT_ERROR;
out:
	for (i = 0; i < a.n_steps; i++)
		free(a.steps[i].detail);
	free(a.steps);
	sp_sw_links_free(a.links, a.n_links);
	sp_sw_desired_free(&a.ds);
	return rc;
}
