// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl switch: the Spark ports of a MikroTik switch (RouterOS 7),
 * over the RouterOS API. show reads, plan is the dry run of apply, apply
 * changes the switch (backup first, in safe mode, in small batches, links
 * verified, undone on any failure) and verify compares it with the desired
 * state.
 *
 * This file reads the arguments and runs the command: switchsession.c
 * talks to the switch, switchshow.c and switchapply.c are the commands,
 * switchprint.c writes what they found.
 */
#include <stdint.h>
#include <string.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "switchsession.h"

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
	"       HOST := the switch's name or address: RouterOS 7 with the api-ssl\n"
	"               service enabled (or api, with tls no)\n"
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
	"$" SP_SW_PASSWORD_ENV ", never from the command line. plan changes nothing;\n"
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
			 struct sp_sw_options *o)
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
		{ { .key = "ports", .what = "port list", .type = SP_KV_LIST, .dst = &o->ports },
		  CMD_ALL },
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
					      "$" SP_SW_PASSWORD_ENV);
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

/* ---- commands ----------------------------------------------------------- */

static int run(unsigned int cmd, const char *name, int (*fn)(struct sp_sw_session *), int argc,
	       char **argv)
{
	struct sp_sw_session s;
	struct sp_sw_options o;
	int rc;

	if (sp_help_requested(argc, argv, switch_usage))
		return SP_EXIT_OK;
	rc = parse_options(cmd, name, argc, argv, &o);
	if (rc == SP_EXIT_OK) {
		rc = sp_sw_session_start(&s, &o);
		if (rc == SP_EXIT_OK)
			rc = fn(&s);
		sp_sw_session_end(&s);
	}
	sp_list_free(&o.ports);
	return rc;
}

/* switch_NAME runs sp_sw_cmd_NAME, which takes the keywords of CMD_BIT. */
#define SWITCH_COMMAND(name, cmd_bit)							\
	static int switch_##name(const struct sp_ctx *ctx, int argc, char **argv)	\
	{										\
		(void)ctx;								\
		return run(cmd_bit, #name, sp_sw_cmd_##name, argc, argv);		\
	}

SWITCH_COMMAND(show, CMD_SHOW)
SWITCH_COMMAND(plan, CMD_PLAN)
SWITCH_COMMAND(apply, CMD_APPLY)
SWITCH_COMMAND(verify, CMD_VERIFY)

SP_OBJECT_MAIN(switch, switch_usage,
	       { "show", switch_show },
	       { "plan", switch_plan },
	       { "apply", switch_apply },
	       { "verify", switch_verify })
