/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the switch commands share: their options, the session with the
 * switch (connection, login, version), the commands they send and the
 * reads they make, and the commands themselves (switchshow.c,
 * switchapply.c). Every function that fails has said why on stderr
 * (sp_sw_fail), and returns -1.
 */
#ifndef SPARKPERF_CTL_SWITCHSESSION_H
#define SPARKPERF_CTL_SWITCHSESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/parse.h"
#include "routeros.h"
#include "switchplan.h"
#include "switchprint.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define SP_SW_PASSWORD_ENV "SPARKPERF_SWITCH_PASSWORD"
#define SP_SW_PASSWORD_MAX 1024

struct sp_sw_options {
	const char *host;
	uint16_t port;
	const char *user;
	const char *password_file;
	struct sp_ros_tls tls;
	uint32_t timeout_ms;
	struct sp_list ports;
	struct sp_sw_desired desired;
	uint32_t batch;
	uint32_t wait_ms;
	const char *backup;
};

struct sp_sw_session {
	const struct sp_sw_options *o;
	struct sp_ros_conn conn;
	struct sp_sw_info info;
	char *version, *board;
	struct sp_sw_version ver;
	char password[SP_SW_PASSWORD_MAX];
	char error[768];	/* the first failure: what the JSON report names */
};

/* Opens the session of a command: 0, or an exit status (reported). */
int sp_sw_session_start(struct sp_sw_session *s, const struct sp_sw_options *o);
/* Connects again (after a loss): 0, or -1 with err set (not reported). */
int sp_sw_session_open(struct sp_sw_session *s, char *err, size_t len);
void sp_sw_session_end(struct sp_sw_session *s);
/* The connection is gone. */
bool sp_sw_session_lost(const struct sp_sw_session *s);

/* Reports a failure on stderr and keeps the first in s->error: returns -1. */
int sp_sw_fail(struct sp_sw_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One command; refused by the switch or a lost connection: -1 (reported). */
int sp_sw_call(struct sp_sw_session *s, const struct sp_ros_sentence *cmd, const char *what,
	       struct sp_ros_result *res);
/* A command of one word and, unless NULL, one attribute; without rows. */
int sp_sw_command(struct sp_sw_session *s, const char *what, const char *cmd, const char *attr);
/* "<menu>/print =.proplist=..." into rows. */
int sp_sw_read_menu(struct sp_sw_session *s, const char *menu, const char *proplist,
		    struct sp_ros_result *rows);
/* Every menu the targets name, into st. */
int sp_sw_read_state(struct sp_sw_session *s, const struct sp_sw_targets *t,
		     struct sp_sw_state *st);

/* /interface/ethernet/monitor once: the link of one port. */
int sp_sw_monitor(struct sp_sw_session *s, struct sp_sw_link *link);
void sp_sw_links_free(struct sp_sw_link *links, size_t n);

/* The targets of the desired state, the state read for them and the plan. */
struct sp_sw_desired_state {
	struct sp_sw_targets targets;
	struct sp_sw_state state;
	struct sp_sw_plan plan;
};

/* Checks the version against the desired state, reads and plans: 0 or -1. */
int sp_sw_desired_read(struct sp_sw_session *s, struct sp_sw_desired_state *ds);
void sp_sw_desired_free(struct sp_sw_desired_state *ds);

/* The commands, on an open session: an exit status. */
int sp_sw_cmd_show(struct sp_sw_session *s);
int sp_sw_cmd_plan(struct sp_sw_session *s);
int sp_sw_cmd_verify(struct sp_sw_session *s);
int sp_sw_cmd_apply(struct sp_sw_session *s);

#endif
