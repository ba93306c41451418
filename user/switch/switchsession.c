// SPDX-License-Identifier: GPL-2.0
/*
 * The session of a switch command: the password, the connection and login,
 * the commands sent and the reads that every command makes.
 *
 * The password never appears on the command line, in output or in an error
 * message: it comes from a file only its owner can read, or from the
 * environment.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/err.h"
#include "switchsession.h"

/* ---- password ----------------------------------------------------------- */

/* The first line of a file that only its owner may read: 0, or -1 (reported). */
static int read_password_file(const char *path, char *buf, size_t len)
{
	struct stat st;
	size_t n = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		sp_err(stderr, "cannot open the password file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		sp_err(stderr, "the password file %s is not a regular file", path);
		goto fail;
	}
	if (st.st_mode & 077) {
		sp_err(stderr, "the password file %s may be read or written by others than its "
		       "owner (mode %04o); refusing it: run 'chmod 600 %s'", path,
		       (unsigned int)(st.st_mode & 07777), path);
		goto fail;
	}
	while (n < len && (r = read(fd, buf + n, len - n)) > 0)
		n += (size_t)r;
	if (n == len) {
		sp_err(stderr, "the password file %s is longer than %zu bytes", path, len - 1);
		goto fail;
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
fail:
	explicit_bzero(buf, len);
	close(fd);
	return -1;
}

/* From the file, else the environment, else empty (a factory admin). */
static int load_password(const struct sp_sw_options *o, char *buf, size_t len)
{
	const char *env = getenv(SP_SW_PASSWORD_ENV);

	if (o->password_file)
		return read_password_file(o->password_file, buf, len);
	if (env && strlen(env) >= len) {
		sp_err(stderr, "$%s is longer than %zu bytes", SP_SW_PASSWORD_ENV, len - 1);
		return -1;
	}
	snprintf(buf, len, "%s", env ? env : "");
	return 0;
}

/* ---- session ------------------------------------------------------------ */

int sp_sw_fail(struct sp_sw_session *s, const char *fmt, ...)
{
	char msg[sizeof(s->error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sp_err(stderr, "%s", msg);
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error), "%s", msg);
	return -1;
}

bool sp_sw_session_lost(const struct sp_sw_session *s)
{
	return s->conn.fd < 0;
}

/*
 * One command: 0 when it succeeded; -1 when the switch refused it (its
 * message is reported) or the connection failed (sp_sw_session_lost()).
 */
int sp_sw_call(struct sp_sw_session *s, const struct sp_ros_sentence *cmd, const char *what,
	       struct sp_ros_result *res)
{
	if (sp_ros_call(&s->conn, cmd, res))
		return sp_sw_fail(s, "%s", s->conn.err);
	if (res->trap)
		return sp_sw_fail(s, "%s: the switch refused: %s", what, res->trap);
	return 0;
}

/* A command of one word and, unless NULL, one attribute; without rows. */
int sp_sw_command(struct sp_sw_session *s, const char *what, const char *cmd, const char *attr)
{
	struct sp_ros_sentence sentence = { 0 };
	struct sp_ros_result res = { 0 };
	int ret;

	if (sp_ros_sentence_add_words(&sentence, SP_ROS_WORDS(cmd, attr)))
		ret = sp_sw_fail(s, "out of memory");
	else
		ret = sp_sw_call(s, &sentence, what, &res);
	sp_ros_sentence_free(&sentence);
	sp_ros_result_free(&res);
	return ret;
}

/* "<menu>/print =.proplist=..." into rows. */
int sp_sw_read_menu(struct sp_sw_session *s, const char *menu, const char *proplist,
		    struct sp_ros_result *rows)
{
	struct sp_ros_sentence cmd;
	char what[160];
	int ret;

	if (sp_ros_sentence_add(memset(&cmd, 0, sizeof(cmd)), "%s/print", menu) ||
	    sp_ros_sentence_add(&cmd, "=.proplist=%s", proplist)) {
		sp_ros_sentence_free(&cmd);
		return sp_sw_fail(s, "out of memory");
	}
	snprintf(what, sizeof(what), "reading %s", menu);
	ret = sp_sw_call(s, &cmd, what, rows);
	sp_ros_sentence_free(&cmd);
	return ret;
}

/* Connects, logs in and reads the version: 0, or -1 with err set (not reported). */
int sp_sw_session_open(struct sp_sw_session *s, char *err, size_t len)
{
	struct sp_ros_sentence cmd = { 0 };
	struct sp_ros_result res = { 0 };
	const char *version;
	int ret;

	free(s->version);
	free(s->board);
	s->version = s->board = NULL;
	ret = sp_ros_connect(&s->conn, s->o->host, s->o->port, &s->o->tls, s->o->timeout_ms);
	if (ret == -EKEYREJECTED) {
		snprintf(err, len, "%s; give the switch's CA certificate with 'ca FILE', or "
			 "skip the check with 'tls-verify no'", s->conn.err);
		return -1;
	}
	if (!ret)
		ret = sp_ros_login(&s->conn, s->o->user, s->password);
	if (!ret)
		ret = sp_ros_sentence_add_words(&cmd, SP_ROS_WORDS("/system/resource/print",
					"=.proplist=version,board-name"));
	if (ret) {
		snprintf(err, len, "%s", ret == -ENOMEM ? "out of memory" : s->conn.err);
		sp_ros_sentence_free(&cmd);
		sp_ros_close(&s->conn);
		return -1;
	}
	ret = sp_ros_call(&s->conn, &cmd, &res);
	sp_ros_sentence_free(&cmd);
	version = res.n_rows ? sp_ros_attr(&res.rows[0], "version") : NULL;
	if (ret)
		snprintf(err, len, "%s", s->conn.err);
	else if (res.trap)
		snprintf(err, len, "reading the RouterOS version: the switch refused: %s",
			 res.trap);
	else if (!version || sp_sw_version_parse(version, &s->ver))
		snprintf(err, len, "%s did not report a RouterOS version", s->conn.where);
	else if (s->ver.major < 7)
		snprintf(err, len, "%s runs RouterOS %s; sparkperf-ctl needs RouterOS 7",
			 s->conn.where, version);
	else {
		s->version = strdup(version);
		s->board = res.n_rows && sp_ros_attr(&res.rows[0], "board-name") ?
			   strdup(sp_ros_attr(&res.rows[0], "board-name")) : NULL;
	}
	sp_ros_result_free(&res);
	if (!s->version) {
		if (!err[0])
			snprintf(err, len, "out of memory");
		sp_ros_close(&s->conn);
		return -1;
	}
	s->info = (struct sp_sw_info){ .host = s->o->host, .port = s->o->port,
				       .version = s->version, .board = s->board };
	return 0;
}

/* Opens the session of a command: 0, or an exit status (reported). */
int sp_sw_session_start(struct sp_sw_session *s, const struct sp_sw_options *o)
{
	char err[sizeof(s->error)] = "";

	memset(s, 0, sizeof(*s));
	s->o = o;
	sp_ros_init(&s->conn);
	if (load_password(o, s->password, sizeof(s->password)))
		return SP_EXIT_ERROR;
	if (!o->tls.on)
		fprintf(stderr, "Warning: plain TCP (tls no): the password crosses the network "
			"in clear text.\n");
	else if (!o->tls.verify)
		fprintf(stderr, "Warning: the switch's certificate is not checked (tls-verify no): "
			"whoever sits in between can read the password.\n");
	if (sp_sw_session_open(s, err, sizeof(err))) {
		sp_sw_fail(s, "%s", err);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

void sp_sw_session_end(struct sp_sw_session *s)
{
	sp_ros_close(&s->conn);
	explicit_bzero(s->password, sizeof(s->password));
	free(s->version);
	free(s->board);
}

/* Reads every menu the targets name into st: 0, or -1 (reported). */
int sp_sw_read_state(struct sp_sw_session *s, const struct sp_sw_targets *t, struct sp_sw_state *st)
{
	const char *menus[SP_SW_MENUS_MAX];
	size_t n = sp_sw_targets_menus(t, menus, ARRAY_SIZE(menus)), i;
	char *proplist;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; !ret && i < n; i++) {
		proplist = sp_sw_proplist(t, menus[i]);
		if (!proplist)
			return sp_sw_fail(s, "out of memory");
		st->menus[i].path = menus[i];
		st->n++;
		ret = sp_sw_read_menu(s, menus[i], proplist, &st->menus[i].rows);
		free(proplist);
	}
	return ret;
}

/* /interface/ethernet/monitor once: the link of one port. 0 or -1 (reported). */
int sp_sw_monitor(struct sp_sw_session *s, struct sp_sw_link *link)
{
	struct sp_ros_sentence cmd = { 0 };
	struct sp_ros_result res = { 0 };
	char what[160], numbers[160];
	int ret;

	snprintf(numbers, sizeof(numbers), "=numbers=%s", link->port);
	if (sp_ros_sentence_add_words(&cmd, SP_ROS_WORDS(SP_SW_MENU_ETHERNET "/monitor", numbers,
							 "=once="))) {
		sp_ros_sentence_free(&cmd);
		return sp_sw_fail(s, "out of memory");
	}
	snprintf(what, sizeof(what), "monitoring %s", link->port);
	ret = sp_sw_call(s, &cmd, what, &res);
	sp_ros_sentence_free(&cmd);
	free(link->status);
	free(link->rate);
	link->status = link->rate = NULL;
	if (!ret && res.n_rows) {
		const char *status = sp_ros_attr(&res.rows[0], "status");
		const char *rate = sp_ros_attr(&res.rows[0], "rate");

		link->status = status ? strdup(status) : NULL;
		link->rate = rate ? strdup(rate) : NULL;
	}
	link->ok = sp_sw_link_ok(link->status, link->rate, link->speed);
	sp_ros_result_free(&res);
	return ret;
}

void sp_sw_links_free(struct sp_sw_link *links, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(links[i].status);
		free(links[i].rate);
	}
	free(links);
}


int sp_sw_desired_read(struct sp_sw_session *s, struct sp_sw_desired_state *ds)
{
	const struct sp_sw_desired *d = &s->o->desired;
	char err[512];

	memset(ds, 0, sizeof(*ds));
	if (sp_sw_version_check(d, &s->ver, s->version, err, sizeof(err)))
		return sp_sw_fail(s, "%s", err);
	if (sp_sw_targets_build(d, &ds->targets))
		return sp_sw_fail(s, "out of memory");
	if (sp_sw_read_state(s, &ds->targets, &ds->state))
		return -1;
	if (sp_sw_plan_build(&ds->targets, &ds->state, &ds->plan, err, sizeof(err)))
		return sp_sw_fail(s, "%s", err);
	return 0;
}

void sp_sw_desired_free(struct sp_sw_desired_state *ds)
{
	sp_sw_plan_free(&ds->plan);
	sp_sw_state_free(&ds->state);
	sp_sw_targets_free(&ds->targets);
}
