// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl switch: the Spark ports of a MikroTik switch (RouterOS 7),
 * over the RouterOS API. show reads, plan is the dry run of apply, apply
 * changes the switch (backup first, in safe mode, in small batches, links
 * verified, undone on any failure) and verify compares it with the desired
 * state.
 *
 * The password never appears on the command line, in output or in an error
 * message: it comes from a file only its owner can read, or from the
 * environment.
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
#include <sys/stat.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "routeros.h"
#include "switchplan.h"
#include "switchprint.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define PASSWORD_ENV "SPARKPERF_SWITCH_PASSWORD"
#define PASSWORD_MAX 1024

/* What "switch show" reads of every Ethernet port. */
#define SHOW_PROPLIST ".id,name,speed,auto-negotiation,fec-mode,mtu,l2mtu"

static const char switch_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] switch show host HOST [ ports PORTS ] [ user USER ]\n"
	"               [ password-file FILE ] [ port PORT ] [ tls BOOL ] [ tls-verify BOOL ]\n"
	"               [ ca FILE ] [ timeout TIME ]\n"
	"       sparkperf-ctl [ OPTIONS ] switch plan host HOST ports PORTS [ speed MODE ]\n"
	"               [ fec FEC ] [ mtu BYTES ] [ l2mtu BYTES ] [ profile PROFILE ]\n"
	"               [ queue-cap RATE ] [ force BOOL ] [ user USER ] [ password-file FILE ]\n"
	"               [ port PORT ] [ tls BOOL ] [ tls-verify BOOL ] [ ca FILE ] [ timeout TIME ]\n"
	"       sparkperf-ctl [ OPTIONS ] switch apply host HOST ports PORTS [ speed MODE ]\n"
	"               [ fec FEC ] [ mtu BYTES ] [ l2mtu BYTES ] [ profile PROFILE ]\n"
	"               [ queue-cap RATE ] [ force BOOL ] [ batch N ] [ wait TIME ]\n"
	"               [ backup FILE ] [ user USER ] [ password-file FILE ] [ port PORT ]\n"
	"               [ tls BOOL ] [ tls-verify BOOL ] [ ca FILE ] [ timeout TIME ]\n"
	"       sparkperf-ctl [ OPTIONS ] switch verify host HOST ports PORTS [ speed MODE ]\n"
	"               [ fec FEC ] [ mtu BYTES ] [ l2mtu BYTES ] [ profile PROFILE ]\n"
	"               [ queue-cap RATE ] [ force BOOL ] [ user USER ] [ password-file FILE ]\n"
	"               [ port PORT ] [ tls BOOL ] [ tls-verify BOOL ] [ ca FILE ] [ timeout TIME ]\n"
	"       sparkperf-ctl switch help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       HOST := the name or address of the switch: RouterOS 7, api-ssl (or api) on\n"
	"       PORTS := port names, comma-separated: qsfp56-dd-1-1,qsfp56-dd-1-5\n"
	"       MODE := a RouterOS link mode, default 200G-baseCR4 (auto-negotiation off)\n"
	"       FEC := { fec91 | auto | fec74 | off }\n"
	"       BYTES := 68..65535: mtu default 9000, l2mtu default 9216\n"
	"       PROFILE := { none | classify | lossless }\n"
	"       RATE := an egress cap of the RoCE queue (100Gbps); refused without force yes\n"
	"       BOOL := { yes | no }\n"
	"       N := ports changed per batch, 1..64, default 2\n"
	"       TIME := seconds (0.5, 10) or with a unit (ms, s, m): timeout for each\n"
	"               reply, default 10; wait for links after a change, default 20\n"
	"       USER := default admin; PORT := default 8729, or 8728 with tls no\n"
	"The password is read from FILE (readable by its owner only) or from\n"
	"$" PASSWORD_ENV ", never from the command line. plan changes nothing;\n"
	"apply is undone by RouterOS safe mode unless every changed link comes up.\n"
	"The default command is show.\n";

enum {
	CMD_SHOW = 1 << 0,
	CMD_PLAN = 1 << 1,
	CMD_APPLY = 1 << 2,
	CMD_VERIFY = 1 << 3,
	CMD_DESIRED = CMD_PLAN | CMD_APPLY | CMD_VERIFY,
	CMD_ALL = CMD_SHOW | CMD_DESIRED,
};

struct options {
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

/* ---- arguments ---------------------------------------------------------- */

/* "yes"/"no" into *out: 0, or a usage error (exit status) */
static int parse_bool(const char *key, const char *s, bool *out)
{
	if (!s)
		return 0;
	if (strcmp(s, "yes") && strcmp(s, "no"))
		return sp_usage_error("switch", "Invalid %s: '%s' (yes or no)", key, s);
	*out = !strcmp(s, "yes");
	return 0;
}

static int parse_options(unsigned int cmd, const char *cmd_name, int argc, char **argv,
			 struct options *o)
{
	const char *tls = NULL, *tls_verify = NULL, *profile = NULL, *queue_cap = NULL;
	const char *force = NULL;
	uint32_t port = 0;
	struct sp_sw_desired *d = &o->desired;
	struct {
		struct sp_kv kv;
		unsigned int cmds;
	} keys[] = {
		{ { .key = "host", .type = SP_KV_STRING, .dst = &o->host }, CMD_ALL },
		{ { .key = "ports", .type = SP_KV_LIST, .dst = &o->ports }, CMD_ALL },
		{ { .key = "user", .type = SP_KV_STRING, .dst = &o->user }, CMD_ALL },
		{ { .key = "password-file", .what = "password file", .type = SP_KV_STRING,
		    .dst = &o->password_file }, CMD_ALL },
		{ { .key = "port", .type = SP_KV_U32, .min = 1, .max = 65535, .dst = &port },
		  CMD_ALL },
		{ { .key = "tls", .type = SP_KV_STRING, .dst = &tls }, CMD_ALL },
		{ { .key = "tls-verify", .type = SP_KV_STRING, .dst = &tls_verify }, CMD_ALL },
		{ { .key = "ca", .what = "CA file", .type = SP_KV_STRING, .dst = &o->tls.ca_file },
		  CMD_ALL },
		{ { .key = "timeout", .type = SP_KV_DURATION_MS, .min = 100, .max = 600000,
		    .dst = &o->timeout_ms }, CMD_ALL },
		{ { .key = "speed", .type = SP_KV_STRING, .dst = &d->speed }, CMD_DESIRED },
		{ { .key = "fec", .type = SP_KV_STRING, .dst = &d->fec }, CMD_DESIRED },
		{ { .key = "mtu", .type = SP_KV_U32, .min = 68, .max = 65535, .dst = &d->mtu },
		  CMD_DESIRED },
		{ { .key = "l2mtu", .type = SP_KV_U32, .min = 68, .max = 65535, .dst = &d->l2mtu },
		  CMD_DESIRED },
		{ { .key = "profile", .type = SP_KV_STRING, .dst = &profile }, CMD_DESIRED },
		{ { .key = "queue-cap", .type = SP_KV_STRING, .dst = &queue_cap }, CMD_DESIRED },
		{ { .key = "force", .type = SP_KV_STRING, .dst = &force }, CMD_DESIRED },
		{ { .key = "batch", .type = SP_KV_U32, .min = 1, .max = 64, .dst = &o->batch },
		  CMD_APPLY },
		{ { .key = "wait", .type = SP_KV_DURATION_MS, .min = 0, .max = 600000,
		    .dst = &o->wait_ms }, CMD_APPLY },
		{ { .key = "backup", .what = "backup file", .type = SP_KV_STRING,
		    .dst = &o->backup }, CMD_APPLY },
	};
	struct sp_kv kv[ARRAY_SIZE(keys)];
	char err[256];
	size_t i;
	int ret;

	memset(o, 0, sizeof(*o));
	o->user = "admin";
	o->tls = (struct sp_ros_tls){ .on = true, .verify = true };
	o->timeout_ms = 10000;
	o->batch = 2;
	o->wait_ms = 20000;
	*d = (struct sp_sw_desired){ .speed = "200G-baseCR4", .fec = "fec91", .mtu = 9000,
				     .l2mtu = 9216 };
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		kv[i] = keys[i].kv;
	for (i = 0; i < (size_t)argc; i += 2)
		if (!strcmp(argv[i], "password"))
			return sp_usage_error("switch", "No password on the command line, where "
					      "others can read it: give 'password-file FILE' or set "
					      "$" PASSWORD_ENV);
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err)))
		return sp_usage_error("switch", "%s", err);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (kv[i].seen && !(keys[i].cmds & cmd))
			return sp_usage_error("switch", "Keyword '%s' is not valid for "
					      "'switch %s'", kv[i].key, cmd_name);
	if (!o->host)
		return sp_usage_error("switch", "Missing 'host HOST': the switch's name or address");
	if ((cmd & CMD_DESIRED) && !o->ports.n)
		return sp_usage_error("switch", "Missing 'ports PORTS': the switch ports of the "
				      "Sparks, e.g. qsfp56-dd-1-1,qsfp56-dd-1-5");
	d->ports = o->ports.items;
	d->n_ports = o->ports.n;
	ret = parse_bool("tls", tls, &o->tls.on);
	if (!ret)
		ret = parse_bool("tls-verify", tls_verify, &o->tls.verify);
	if (!ret)
		ret = parse_bool("force", force, &d->force);
	if (ret)
		return ret;
	if (!o->tls.on && (tls_verify || o->tls.ca_file))
		return sp_usage_error("switch", "'tls-verify' and 'ca' need 'tls yes'");
	if (!o->tls.verify && o->tls.ca_file)
		return sp_usage_error("switch", "'ca' and 'tls-verify no' contradict each other");
	o->port = kv[4].seen ? (uint16_t)port : o->tls.on ? SP_ROS_TLS_PORT : SP_ROS_PORT;
	if (profile && sp_sw_profile_parse(profile, &d->profile))
		return sp_usage_error("switch", "Invalid profile: '%s' (none, classify or "
				      "lossless)", profile);
	if (queue_cap && sp_sw_rate_parse(queue_cap, &d->queue_cap_bps))
		return sp_usage_error("switch", "Invalid queue-cap: '%s' (a rate: 0, 100Gbps, "
				      "500Mbps)", queue_cap);
	if ((cmd & CMD_DESIRED) && sp_sw_desired_check(d, err, sizeof(err)))
		return sp_usage_error("switch", "%s", err);
	return SP_EXIT_OK;
}

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
static int load_password(const struct options *o, char *buf, size_t len)
{
	const char *env = getenv(PASSWORD_ENV);

	if (o->password_file)
		return read_password_file(o->password_file, buf, len);
	if (env && strlen(env) >= len) {
		sp_err(stderr, "$%s is longer than %zu bytes", PASSWORD_ENV, len - 1);
		return -1;
	}
	snprintf(buf, len, "%s", env ? env : "");
	return 0;
}

/* ---- session ------------------------------------------------------------ */

struct session {
	const struct options *o;
	struct sp_ros_conn conn;
	struct sp_sw_info info;
	char *version, *board;
	struct sp_sw_version ver;
	char password[PASSWORD_MAX];
	char error[768];	/* the first failure: what the JSON report names */
};

static int fail(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct session *s, const char *fmt, ...)
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

static bool session_lost(const struct session *s)
{
	return s->conn.fd < 0;
}

/*
 * One command: 0 when it succeeded; -1 when the switch refused it (its
 * message is reported) or the connection failed (session_lost()).
 */
static int call(struct session *s, const struct sp_ros_sentence *cmd, const char *what,
		struct sp_ros_result *res)
{
	if (sp_ros_call(&s->conn, cmd, res))
		return fail(s, "%s", s->conn.err);
	if (res->trap)
		return fail(s, "%s: the switch refused: %s", what, res->trap);
	return 0;
}

/* A command of one word and, unless NULL, one attribute; without rows. */
static int command(struct session *s, const char *what, const char *cmd, const char *attr)
{
	struct sp_ros_sentence sentence = { 0 };
	struct sp_ros_result res = { 0 };
	int ret;

	if (sp_ros_sentence_add_words(&sentence, SP_ROS_WORDS(cmd, attr)))
		ret = fail(s, "out of memory");
	else
		ret = call(s, &sentence, what, &res);
	sp_ros_sentence_free(&sentence);
	sp_ros_result_free(&res);
	return ret;
}

/* "<menu>/print =.proplist=..." into rows. */
static int read_menu(struct session *s, const char *menu, const char *proplist,
		     struct sp_ros_result *rows)
{
	struct sp_ros_sentence cmd;
	char what[160];
	int ret;

	if (sp_ros_sentence_add(memset(&cmd, 0, sizeof(cmd)), "%s/print", menu) ||
	    sp_ros_sentence_add(&cmd, "=.proplist=%s", proplist)) {
		sp_ros_sentence_free(&cmd);
		return fail(s, "out of memory");
	}
	snprintf(what, sizeof(what), "reading %s", menu);
	ret = call(s, &cmd, what, rows);
	sp_ros_sentence_free(&cmd);
	return ret;
}

/* Connects, logs in and reads the version: 0, or -1 with err set (not reported). */
static int session_open(struct session *s, char *err, size_t len)
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
static int session_start(struct session *s, const struct options *o)
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
	if (session_open(s, err, sizeof(err))) {
		fail(s, "%s", err);
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

static void session_end(struct session *s)
{
	sp_ros_close(&s->conn);
	explicit_bzero(s->password, sizeof(s->password));
	free(s->version);
	free(s->board);
}

/* Reads every menu the targets name into st: 0, or -1 (reported). */
static int read_state(struct session *s, const struct sp_sw_targets *t, struct sp_sw_state *st)
{
	const char *menus[SP_SW_MENUS_MAX];
	size_t n = sp_sw_targets_menus(t, menus, ARRAY_SIZE(menus)), i;
	char *proplist;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; !ret && i < n; i++) {
		proplist = sp_sw_proplist(t, menus[i]);
		if (!proplist)
			return fail(s, "out of memory");
		st->menus[i].path = menus[i];
		st->n++;
		ret = read_menu(s, menus[i], proplist, &st->menus[i].rows);
		free(proplist);
	}
	return ret;
}

/* /interface/ethernet/monitor once: the link of one port. 0 or -1 (reported). */
static int monitor(struct session *s, struct sp_sw_link *link)
{
	struct sp_ros_sentence cmd = { 0 };
	struct sp_ros_result res = { 0 };
	char what[160], numbers[160];
	int ret;

	snprintf(numbers, sizeof(numbers), "=numbers=%s", link->port);
	if (sp_ros_sentence_add_words(&cmd, SP_ROS_WORDS(SP_SW_MENU_ETHERNET "/monitor", numbers,
							 "=once="))) {
		sp_ros_sentence_free(&cmd);
		return fail(s, "out of memory");
	}
	snprintf(what, sizeof(what), "monitoring %s", link->port);
	ret = call(s, &cmd, what, &res);
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

static void links_free(struct sp_sw_link *links, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(links[i].status);
		free(links[i].rate);
	}
	free(links);
}

/* The targets, the state read for them, the version check and the plan. */
struct desired_state {
	struct sp_sw_targets targets;
	struct sp_sw_state state;
	struct sp_sw_plan plan;
};

static int desired_read(struct session *s, struct desired_state *ds)
{
	const struct sp_sw_desired *d = &s->o->desired;
	char err[512];

	memset(ds, 0, sizeof(*ds));
	if (sp_sw_version_check(d, &s->ver, s->version, err, sizeof(err)))
		return fail(s, "%s", err);
	if (sp_sw_targets_build(d, &ds->targets))
		return fail(s, "out of memory");
	if (read_state(s, &ds->targets, &ds->state))
		return -1;
	if (sp_sw_plan_build(&ds->targets, &ds->state, &ds->plan, err, sizeof(err)))
		return fail(s, "%s", err);
	return 0;
}

static void desired_free(struct desired_state *ds)
{
	sp_sw_plan_free(&ds->plan);
	sp_sw_state_free(&ds->state);
	sp_sw_targets_free(&ds->targets);
}

/* ---- show, plan, verify ------------------------------------------------- */

static int show(struct session *s)
{
	const struct options *o = s->o;
	struct sp_ros_result rows = { 0 };
	struct sp_sw_port_status *ports = NULL;
	struct sp_sw_link *links = NULL;
	const struct sp_ros_sentence *row;
	size_t n, i;
	int ret;

	ret = read_menu(s, SP_SW_MENU_ETHERNET, SHOW_PROPLIST, &rows);
	if (ret)
		return SP_EXIT_ERROR;
	n = o->ports.n ? o->ports.n : rows.n_rows;
	ports = calloc(n + 1, sizeof(*ports));
	links = calloc(n + 1, sizeof(*links));
	if (!ports || !links)
		ret = fail(s, "out of memory");
	for (i = 0; !ret && i < n; i++) {
		row = o->ports.n ? sp_sw_find_row(&rows, "name", o->ports.items[i]) : &rows.rows[i];
		if (!row) {
			ret = fail(s, "port %s not found on the switch", o->ports.items[i]);
			break;
		}
		ports[i] = (struct sp_sw_port_status){
			.name = sp_ros_attr(row, "name"),
			.speed = sp_ros_attr(row, "speed"),
			.auto_negotiation = sp_ros_attr(row, "auto-negotiation"),
			.fec_mode = sp_ros_attr(row, "fec-mode"),
			.mtu = sp_ros_attr(row, "mtu"),
			.l2mtu = sp_ros_attr(row, "l2mtu"),
		};
		links[i].port = ports[i].name ? ports[i].name : "?";
		links[i].speed = ports[i].speed ? ports[i].speed : "";
		ret = monitor(s, &links[i]);
		ports[i].status = links[i].status;
		ports[i].rate = links[i].rate;
	}
	if (!ret && sp_print_switch_ports(&s->info, ports, n))
		ret = fail(s, "out of memory");
	free(ports);
	links_free(links, n);
	sp_ros_result_free(&rows);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

static int plan(struct session *s)
{
	struct desired_state ds;
	int ret;

	ret = desired_read(s, &ds);
	if (!ret && sp_print_switch_plan(&s->info, &s->o->desired, &ds.plan))
		ret = fail(s, "out of memory");
	desired_free(&ds);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* The links of the ports that targets configure: 0, or -1 (reported). */
static int monitor_ports(struct session *s, struct sp_sw_link **out, size_t *n_out)
{
	const struct sp_sw_desired *d = &s->o->desired;
	struct sp_sw_link *links = calloc(d->n_ports + 1, sizeof(*links));
	size_t i;
	int ret = 0;

	if (!links)
		return fail(s, "out of memory");
	for (i = 0; !ret && i < d->n_ports; i++) {
		links[i].port = d->ports[i];
		links[i].speed = d->speed;
		ret = monitor(s, &links[i]);
	}
	*out = links;
	*n_out = d->n_ports;
	return ret;
}

static int verify(struct session *s)
{
	struct sp_sw_link *links = NULL;
	struct desired_state ds;
	size_t n = 0, bad, i;
	int ret;

	ret = desired_read(s, &ds);
	if (!ret)
		ret = monitor_ports(s, &links, &n);
	if (!ret && sp_print_switch_verify(&s->info, &s->o->desired, &ds.plan, links, n))
		ret = fail(s, "out of memory");
	if (!ret) {
		bad = sp_sw_plan_settings(&ds.plan);
		for (i = 0; i < n; i++)
			bad += !links[i].ok;
		if (bad)
			ret = fail(s, "%s is not as desired: %zu difference%s", s->conn.where, bad,
				   bad == 1 ? "" : "s");
	}
	links_free(links, n);
	desired_free(&ds);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* ---- apply -------------------------------------------------------------- */

struct apply {
	struct session *s;
	const struct options *o;
	struct desired_state ds;
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
		return fail(a->s, "out of memory");
	fd = open(a->backup, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int error = errno;

		if (fd >= 0)
			close(fd);
		free(rsc);
		fail(a->s, "cannot write the rollback script %s: %s", a->backup, strerror(error));
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
		return fail(a->s, "cannot write the rollback script %s: %s", a->backup,
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
	if (command(a->s, "exporting the configuration", "/export", file))
		return -1;
	snprintf(a->export, sizeof(a->export), "%s.rsc", file + strlen("=file="));
	step(a, "backup", "configuration exported on the switch to %s", a->export);
	return 0;
}

static int apply_change(struct session *s, const struct sp_sw_change *c)
{
	struct sp_ros_result res = { 0 };
	struct sp_ros_sentence cmd;
	char what[256], label[128];
	int ret;

	if (sp_sw_change_sentence(c, &cmd))
		return fail(s, "out of memory");
	snprintf(what, sizeof(what), "%s %s", cmd.words[0],
		 sp_sw_change_label(c, label, sizeof(label)));
	ret = call(s, &cmd, what, &res);
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
			if (monitor(a->s, &a->links[i]))
				return -1;
			down += !a->links[i].ok;
		}
		if (!down)
			break;
		if (now_ms() >= deadline) {
			for (i = from; a->links[i].ok; i++)
				;
			l = &a->links[i];
			return fail(a->s, "the link of %s is %s%s%s, not link-ok at %s, %g s after "
				    "the change", l->port, l->status ? l->status : "unknown",
				    l->rate ? " " : "", l->rate ? l->rate : "", l->speed,
				    a->o->wait_ms / 1000.0);
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
				return fail(a->s, "out of memory");
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

	ret = read_state(a->s, &a->ds.targets, &st);
	if (!ret && sp_sw_plan_build(&a->ds.targets, &st, &left, err, sizeof(err)))
		ret = fail(a->s, "%s", err);
	else if (!ret && left.n)
		ret = fail(a->s, "after the changes, %s %s is %s, not %s (RouterOS changed it, "
			   "e.g. clamped the MTU to the L2MTU)",
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
		return fail(a->s, "out of memory");
	ret = sp_sw_plan_targets(&inv, &before);
	sp_sw_plan_free(&inv);
	if (ret)
		return fail(a->s, "out of memory");
	ret = read_state(a->s, &before, &st);
	if (!ret && sp_sw_plan_build(&before, &st, undo, err, sizeof(err)))
		ret = fail(a->s, "%s", err);
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
		if (session_open(a->s, err, sizeof(err)))
			continue;
		restored = is_restored(a, &left);
		if (restored)
			break;
	} while (now_ms() < deadline);
	if (restored == 1) {
		step(a, "check", "reconnected: the switch is as it was before apply");
		a->result = "rolled back";
	} else if (restored == 0) {
		fail(a->s, "reconnected, but %zu setting%s of the lost session %s still in place; "
		     "safe mode undoes them once RouterOS notices the session is gone (up to "
		     "about 9 minutes): check with 'switch verify', or import %s", left,
		     left == 1 ? " is" : "s are", left == 1 ? "is" : "are", a->backup);
	} else {
		fail(a->s, "%s; safe mode undoes the changes once RouterOS notices the session is "
		     "gone (up to about 9 minutes); the rollback script is %s",
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
		ret = command(a->s, "releasing safe mode", "/safe-mode/release", NULL);
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
	struct session *s = a->s;
	size_t left;
	int ret = -1;

	a->result = "failed";
	if (!session_lost(s) && sp_sw_has_unroll(&s->ver)) {
		ret = command(s, "undoing the changes", "/safe-mode/unroll", NULL);
		if (!ret)
			step(a, "rollback", "safe mode unrolled");
	}
	if (ret && !session_lost(s))
		ret = undo_by_hand(a);
	if (ret) {
		recover_lost(a);
		return;
	}
	ret = is_restored(a, &left);
	if (ret < 0 && session_lost(s))
		recover_lost(a);
	else if (ret == 1) {
		step(a, "check", "the switch is as it was before apply");
		a->result = "rolled back";
	} else if (!ret) {
		fail(s, "after the rollback, %zu setting%s not as %s before apply; the rollback "
		     "script is %s", left, left == 1 ? " is" : "s are", left == 1 ? "it was" :
		     "they were", a->backup);
	}
}

static int apply(struct session *s)
{
	struct sp_sw_apply_report report;
	struct apply a = { .s = s, .o = s->o, .result = "failed" };
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	int rc = SP_EXIT_ERROR;

	gmtime_r(&now, &tm);
	strftime(a.stamp, sizeof(a.stamp), "%Y%m%d-%H%M%S", &tm);
	if (desired_read(s, &a.ds))
		goto out;
	sp_print_switch_changes(&s->info, &a.ds.plan);
	if (!a.ds.plan.n) {
		a.result = "unchanged";
		rc = SP_EXIT_OK;
		goto report;
	}
	if (write_backup(&a) || export_config(&a) ||
	    command(s, "taking safe mode", "/safe-mode/take", NULL)) {
		step(&a, "abort", "nothing was changed");
		goto report;
	}
	step(&a, "safe mode", "taken: RouterOS undoes every change unless it is released");
	if (!apply_changes(&a) && !check_applied(&a) &&
	    !command(s, "releasing safe mode", "/safe-mode/release", NULL)) {
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
	links_free(a.links, a.n_links);
	desired_free(&a.ds);
	return rc;
}

/* ---- commands ----------------------------------------------------------- */

static int run(unsigned int cmd, const char *name, int (*fn)(struct session *), int argc,
	       char **argv)
{
	struct session s;
	struct options o;
	int rc;

	if (sp_help_requested(argc, argv, switch_usage))
		return SP_EXIT_OK;
	rc = parse_options(cmd, name, argc, argv, &o);
	if (rc == SP_EXIT_OK) {
		rc = session_start(&s, &o);
		if (rc == SP_EXIT_OK)
			rc = fn(&s);
		session_end(&s);
	}
	sp_list_free(&o.ports);
	return rc;
}

static int switch_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return run(CMD_SHOW, "show", show, argc, argv);
}

static int switch_plan(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return run(CMD_PLAN, "plan", plan, argc, argv);
}

static int switch_apply(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return run(CMD_APPLY, "apply", apply, argc, argv);
}

static int switch_verify(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return run(CMD_VERIFY, "verify", verify, argc, argv);
}

static const struct sp_cmd switch_cmds[] = {
	{ "show", switch_show },
	{ "plan", switch_plan },
	{ "apply", switch_apply },
	{ "verify", switch_verify },
};

int sp_cmd_switch(const struct sp_ctx *ctx, int argc, char **argv)
{
	return sp_cmd_dispatch(ctx, "switch", switch_cmds, ARRAY_SIZE(switch_cmds),
			       switch_usage, argc, argv);
}
