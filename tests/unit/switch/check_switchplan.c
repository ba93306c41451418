// SPDX-License-Identifier: GPL-2.0
/* Switch configuration plans (user/switch/switchvalue.c, switchplan.c) and their printing. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "switch/switchprint.h"
#include "switch/switchplan.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- versions and values ------------------------------------------------ */

/* A version as reported, what it parses to, its order against 7.15, and unroll. */
static const struct {
	const char *s;
	int ret;
	struct sp_sw_version v;
	int cmp_7_15;
	bool unroll;
} versions[] = {
	{ "7.22 (stable)", 0, { 7, 22, 0 }, 1, true },
	{ "7.23.1 (stable)", 0, { 7, 23, 1 }, 1, true },
	{ "7.23beta2 (testing)", 0, { 7, 23, 0 }, 1, true },
	{ "7.15", 0, { 7, 15, 0 }, 0, false },
	{ "7.9", 0, { 7, 9, 0 }, -1, false },
	{ "7.18", 0, { 7, 18, 0 }, 1, true },
	{ "7", -EINVAL, { 0 }, 0, false }, { "stable", -EINVAL, { 0 }, 0, false },
	{ NULL, -EINVAL, { 0 }, 0, false },
};

START_TEST(test_versions)
{
	static const struct sp_sw_version v7_15 = { 7, 15, 0 };
	struct sp_sw_version v = { 99, 99, 99 };
	int cmp;

	ck_assert_int_eq(sp_sw_version_parse(versions[_i].s, &v), versions[_i].ret);
	if (versions[_i].ret) {
		ck_assert_uint_eq(v.major, 99);		/* untouched */
		return;
	}
	ck_assert_uint_eq(v.major, versions[_i].v.major);
	ck_assert_uint_eq(v.minor, versions[_i].v.minor);
	ck_assert_uint_eq(v.patch, versions[_i].v.patch);
	cmp = sp_sw_version_cmp(&v, &v7_15);
	ck_assert_int_eq(cmp < 0 ? -1 : cmp > 0, versions[_i].cmp_7_15);
	ck_assert_int_eq(sp_sw_has_unroll(&v), versions[_i].unroll);
}
END_TEST

/* Rates as RouterOS writes them; bps ~0: refused. */
#define BAD UINT64_MAX
static const struct {
	const char *s;
	uint64_t bps;
} rates[] = {
	{ "0", 0 }, { "0bps", 0 }, { "100Gbps", 100000000000ULL },
	{ "100.0Gbps", 100000000000ULL }, { "2.5Gbps", 2500000000ULL },
	{ "10Mbps", 10000000ULL }, { "200G", 200000000000ULL }, { "1500", 1500 },
	{ "", BAD }, { "G", BAD }, { "1.Gbps", BAD }, { "1.5bps", BAD }, { "10 Gbps", BAD },
	{ "10Xbps", BAD }, { "-1", BAD },
};

START_TEST(test_rate_parse)
{
	uint64_t bps = 7;

	if (rates[_i].bps == BAD) {
		ck_assert_int_eq(sp_sw_rate_parse(rates[_i].s, &bps), -EINVAL);
		ck_assert_uint_eq(bps, 7);
		return;
	}
	ck_assert_int_eq(sp_sw_rate_parse(rates[_i].s, &bps), 0);
	ck_assert_uint_eq(bps, rates[_i].bps);
}
END_TEST

static const struct {
	uint64_t bps;
	const char *s;
} rate_texts[] = {
	{ 0, "0" }, { 100000000000ULL, "100Gbps" }, { 2500000000ULL, "2500Mbps" },
	{ 1500, "1500bps" }, { 64000, "64kbps" },
};

START_TEST(test_rate_fmt)
{
	char buf[32];

	ck_assert_str_eq(sp_sw_rate_fmt(rate_texts[_i].bps, buf, sizeof(buf)), rate_texts[_i].s);
}
END_TEST

/* A value read against a wanted one: equal as RouterOS means it. */
static const struct {
	const char *have, *want;
	bool eq;
} values[] = {
	{ "true", "yes", true }, { "false", "no", true }, { "true", "no", false },
	{ "auto", "no", false }, { "0", "0bps", true }, { "100.0Gbps", "100Gbps", true },
	{ "fec91", "fec91", true }, { "9000", "9216", false },
};

START_TEST(test_value_eq)
{
	ck_assert_int_eq(sp_sw_value_eq(values[_i].have, values[_i].want), values[_i].eq);
}
END_TEST

/* Link modes and their rates; bps BAD: not a link mode. */
static const struct {
	const char *speed;
	uint64_t bps;
} speeds[] = {
	{ "200G-baseCR4", 200000000000ULL }, { "2.5G-baseT", 2500000000ULL },
	{ "10M-baseT-half", 10000000ULL }, { "auto", BAD }, { "200G", BAD },
	{ "200X-baseCR4", BAD }, { "-baseCR4", BAD }, { "200G-base", BAD },
};

START_TEST(test_speed_bps)
{
	uint64_t bps = 7;

	if (speeds[_i].bps == BAD) {
		ck_assert_int_eq(sp_sw_speed_bps(speeds[_i].speed, &bps), -EINVAL);
		return;
	}
	ck_assert_int_eq(sp_sw_speed_bps(speeds[_i].speed, &bps), 0);
	ck_assert_uint_eq(bps, speeds[_i].bps);
}
END_TEST

static const struct {
	const char *status, *rate;
	bool ok;
} links[] = {
	{ "link-ok", "200Gbps", true }, { "link-ok", "100Gbps", false },
	{ "no-link", NULL, false }, { NULL, NULL, false }, { "link-ok", NULL, false },
	{ "link-ok", "200.0Gbps", true },
};

START_TEST(test_link_ok)
{
	ck_assert_int_eq(sp_sw_link_ok(links[_i].status, links[_i].rate, "200G-baseCR4"),
			 links[_i].ok);
}
END_TEST

/* ---- desired states ----------------------------------------------------- */

static char *cage2[] = { "qsfp56-dd-2-1", "qsfp56-dd-2-5" };

static struct sp_sw_desired blog(enum sp_sw_profile profile)
{
	return (struct sp_sw_desired){
		.ports = cage2, .n_ports = ARRAY_SIZE(cage2), .speed = "200G-baseCR4",
		.fec = "fec91", .mtu = 9000, .l2mtu = 9216, .profile = profile,
	};
}

/*
 * What sp_sw_desired_check says of the blog's state changed in one way
 * (a field 0 or NULL: the blog's).
 */
static const struct {
	const char *speed, *fec;
	uint32_t mtu;
	enum sp_sw_profile profile;
	uint64_t queue_cap_bps;
	bool force;
	int ret;
	const char *err;
} desired[] = {
	{ .ret = 0 },
	{ .speed = "200G", .ret = -EINVAL,
	  .err = "Invalid speed: '200G' (a RouterOS link mode such as 200G-baseCR4)" },
	{ .fec = "rs", .ret = -EINVAL, .err = "Invalid fec: 'rs' (fec91, auto, fec74 or off)" },
	{ .mtu = 9217, .ret = -EINVAL,
	  .err = "mtu 9217 is more than l2mtu 9216: RouterOS would clamp the MTU to the L2MTU "
		 "without a word" },
	{ .queue_cap_bps = 100000000000ULL, .force = true, .ret = -EINVAL,
	  .err = "queue-cap needs profile classify or lossless" },
	{ .profile = SP_SW_PROFILE_CLASSIFY, .queue_cap_bps = 100000000000ULL, .force = true,
	  .ret = 0 },
	{ .profile = SP_SW_PROFILE_CLASSIFY, .queue_cap_bps = 100000000000ULL, .ret = -EINVAL,
	  .err = "queue-cap 100Gbps refused: a cap on the RoCE queue halved NCCL bandwidth in "
		 "field tests (egress-rate-queue3=100Gbps: 23.8 to 11.1 GB/s); add 'force yes' "
		 "to set it anyway" },
};

START_TEST(test_desired_check)
{
	struct sp_sw_desired d = blog(desired[_i].profile);
	char err[256] = "";

	d.speed = desired[_i].speed ?: d.speed;
	d.fec = desired[_i].fec ?: d.fec;
	d.mtu = desired[_i].mtu ?: d.mtu;
	d.queue_cap_bps = desired[_i].queue_cap_bps;
	d.force = desired[_i].force;
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), desired[_i].ret);
	ck_assert_str_eq(err, desired[_i].err ?: "");
}
END_TEST

START_TEST(test_profiles)
{
	enum sp_sw_profile p;

	ck_assert_int_eq(sp_sw_profile_parse("lossless", &p), 0);
	ck_assert_int_eq(p, SP_SW_PROFILE_LOSSLESS);
	ck_assert_int_eq(sp_sw_profile_parse("none", &p), 0);
	ck_assert_int_eq(p, SP_SW_PROFILE_NONE);
	ck_assert_int_eq(sp_sw_profile_parse("pfc", &p), -EINVAL);
	ck_assert_int_eq(sp_sw_profile_parse(NULL, &p), -EINVAL);
	ck_assert_str_eq(sp_sw_profile_str(SP_SW_PROFILE_CLASSIFY), "classify");
}
END_TEST

/* The RouterOS a profile needs: 7.15 for QoS; the message names what is missing. */
static const struct {
	enum sp_sw_profile profile;
	unsigned int minor;
	const char *version;
	int ret;
	const char *err;
} gates[] = {
	{ SP_SW_PROFILE_LOSSLESS, 12, "7.12 (stable)", -EOPNOTSUPP,
	  "profile lossless needs priority flow control (PFC), which RouterOS has from 7.15 on; "
	  "this switch runs 7.12 (stable)" },
	{ SP_SW_PROFILE_CLASSIFY, 12, "7.12", -EOPNOTSUPP,
	  "profile classify needs QoS hardware offloading with DSCP maps and per-queue egress "
	  "rates, which RouterOS has from 7.15 on; this switch runs 7.12" },
	{ SP_SW_PROFILE_NONE, 12, "7.12", 0, NULL },
	{ SP_SW_PROFILE_LOSSLESS, 15, "7.15", 0, NULL },
};

START_TEST(test_version_gates)
{
	struct sp_sw_desired d = blog(gates[_i].profile);
	struct sp_sw_version v = { 7, gates[_i].minor, 0 };
	char err[256] = "";

	ck_assert_int_eq(sp_sw_version_check(&d, &v, gates[_i].version, err, sizeof(err)),
			 gates[_i].ret);
	ck_assert_str_eq(err, gates[_i].err ?: "");
}
END_TEST

START_TEST(test_targets)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	const char *menus[SP_SW_MENUS_MAX];
	struct sp_sw_targets t;
	char *proplist;

	ck_assert_int_eq(sp_sw_targets_build(&d, &t), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert(t.v[1].is_port);
	ck_assert_str_eq(t.v[1].key_value, "qsfp56-dd-2-5");
	ck_assert_uint_eq(t.v[1].n, 5);
	/* the L2MTU before the MTU, which RouterOS clamps to it */
	ck_assert_str_eq(t.v[1].set[3].name, "l2mtu");
	ck_assert_str_eq(t.v[1].set[4].name, "mtu");
	proplist = sp_sw_proplist(&t, SP_SW_MENU_ETHERNET);
	ck_assert_str_eq(proplist, ".id,name,auto-negotiation,speed,fec-mode,l2mtu,mtu");
	free(proplist);
	sp_sw_targets_free(&t);

	d.profile = SP_SW_PROFILE_LOSSLESS;
	ck_assert_int_eq(sp_sw_targets_build(&d, &t), 0);
	ck_assert_uint_eq(sp_sw_targets_menus(&t, menus, ARRAY_SIZE(menus)), 6);
	ck_assert_str_eq(menus[0], SP_SW_MENU_ETHERNET);
	ck_assert_str_eq(menus[1], SP_SW_MENU_QOS_PROFILE);
	ck_assert_str_eq(menus[2], SP_SW_MENU_QOS_MAP_IP);
	ck_assert_str_eq(menus[3], SP_SW_MENU_QOS_PFC);
	ck_assert_str_eq(menus[4], SP_SW_MENU_QOS_PORT);
	ck_assert_str_eq(menus[5], SP_SW_MENU_SWITCH);	/* offloading last */
	proplist = sp_sw_proplist(&t, SP_SW_MENU_QOS_PORT);
	ck_assert_str_eq(proplist, ".id,name,trust-l3,egress-rate-queue3,pfc");
	free(proplist);
	sp_sw_targets_free(&t);
}
END_TEST

/* ---- plans -------------------------------------------------------------- */

/* Adds to rows one "!re" row of the attribute words. */
#define row(rows, ...) row_words(rows, SP_ROS_WORDS(__VA_ARGS__))
static void row_words(struct sp_ros_result *rows, const char *const *words)
{
	struct sp_ros_sentence s = { 0 };

	ck_assert_int_eq(sp_ros_sentence_add(&s, "!re"), 0);
	ck_assert_int_eq(sp_ros_sentence_add_words(&s, words), 0);
	ck_assert_int_eq(sp_ros_result_add(rows, &s), 0);
}

static struct sp_ros_result *menu(struct sp_sw_state *st, const char *path)
{
	ck_assert_uint_lt(st->n, SP_SW_MENUS_MAX);
	st->menus[st->n].path = path;
	return &st->menus[st->n++].rows;
}

/* Cage 2 of the blog's switch: -2-1 at RouterOS defaults, -2-5 half done. */
static void blog_ports(struct sp_sw_state *st)
{
	struct sp_ros_result *eth = menu(st, SP_SW_MENU_ETHERNET);

	row(eth, "=.id=*1", "=name=qsfp56-dd-1-1", "=speed=200G-baseCR4", "=auto-negotiation=false",
	    "=fec-mode=fec91", "=mtu=9000", "=l2mtu=9216");
	row(eth, "=.id=*4", "=name=qsfp56-dd-2-1", "=speed=400G-baseCR8", "=auto-negotiation=true",
	    "=fec-mode=auto", "=mtu=1500", "=l2mtu=1584");
	row(eth, "=.id=*5", "=name=qsfp56-dd-2-5", "=speed=200G-baseCR4", "=auto-negotiation=false",
	    "=fec-mode=fec91", "=mtu=1500", "=l2mtu=9216");
}

static void plan_of(const struct sp_sw_desired *d, const struct sp_sw_state *st,
		    struct sp_sw_plan *p)
{
	struct sp_sw_targets t;
	char err[256] = "";

	ck_assert_int_eq(sp_sw_targets_build(d, &t), 0);
	ck_assert_msg(!sp_sw_plan_build(&t, st, p, err, sizeof(err)), "%s", err);
	sp_sw_targets_free(&t);
}

/* The sentence of change i, on one line. */
static char *sentence_line(const struct sp_sw_plan *p, size_t i)
{
	struct sp_ros_sentence s;
	char *line;

	ck_assert_int_eq(sp_sw_change_sentence(&p->v[i], &s), 0);
	line = sp_sw_sentence_line(&s);
	sp_ros_sentence_free(&s);
	return line;
}

static char *rollback_rsc(const struct sp_sw_plan *p)
{
	struct sp_sw_plan inv;
	char *rsc;

	ck_assert_int_eq(sp_sw_plan_invert(p, &inv), 0);
	rsc = sp_sw_plan_rsc(&inv);
	sp_sw_plan_free(&inv);
	return rsc;
}

START_TEST(test_plan_ports)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_state st = { 0 };
	struct sp_sw_plan p;
	char *s, label[64];

	blog_ports(&st);
	plan_of(&d, &st, &p);
	/* only what differs: "false" is "no" */
	ck_assert_uint_eq(p.n, 2);
	ck_assert_uint_eq(sp_sw_plan_settings(&p), 6);
	ck_assert_int_eq(p.v[0].action, SP_SW_SET);
	ck_assert_str_eq(p.v[0].id, "*4");
	ck_assert(p.v[0].is_port);
	ck_assert_uint_eq(p.v[1].n, 1);
	ck_assert_str_eq(p.v[1].diffs[0].name, "mtu");
	ck_assert_str_eq(p.v[1].diffs[0].from, "1500");
	ck_assert_str_eq(p.v[1].diffs[0].to, "9000");
	ck_assert_str_eq(sp_sw_change_label(&p.v[1], label, sizeof(label)), "qsfp56-dd-2-5");

	s = sentence_line(&p, 0);
	ck_assert_str_eq(s, "/interface/ethernet/set =.id=*4 =auto-negotiation=no "
			 "=speed=200G-baseCR4 =fec-mode=fec91 =l2mtu=9216 =mtu=9000");
	free(s);
	s = sp_sw_plan_rsc(&p);
	ck_assert_str_eq(s,
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-1\"] auto-negotiation=no "
		"speed=200G-baseCR4 fec-mode=fec91 l2mtu=9216 mtu=9000\n"
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-5\"] mtu=9000\n");
	free(s);
	/* reverse order; true written as yes */
	s = rollback_rsc(&p);
	ck_assert_str_eq(s,
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-5\"] mtu=1500\n"
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-1\"] auto-negotiation=yes "
		"speed=400G-baseCR8 fec-mode=auto l2mtu=1584 mtu=1500\n");
	free(s);
	sp_sw_plan_free(&p);
	sp_sw_state_free(&st);
}
END_TEST

START_TEST(test_plan_as_desired)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_state st = { 0 };
	struct sp_sw_plan p;
	char *rsc;

	blog_ports(&st);
	d.ports = (char *[]){ "qsfp56-dd-1-1" };
	d.n_ports = 1;
	plan_of(&d, &st, &p);
	ck_assert_uint_eq(p.n, 0);
	rsc = sp_sw_plan_rsc(&p);
	ck_assert_str_eq(rsc, "");
	free(rsc);
	sp_sw_plan_free(&p);
	sp_sw_state_free(&st);
}
END_TEST

START_TEST(test_plan_refuses)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_state st = { 0 };
	struct sp_ros_result *eth;
	struct sp_sw_targets t;
	struct sp_sw_plan p;
	char err[256];

	ck_assert_int_eq(sp_sw_targets_build(&d, &t), 0);
	ck_assert_int_eq(sp_sw_plan_build(&t, &st, &p, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "/interface/ethernet was not read");

	eth = menu(&st, SP_SW_MENU_ETHERNET);
	row(eth, "=.id=*4", "=name=qsfp56-dd-2-1", "=speed=400G-baseCR8", "=auto-negotiation=true",
	    "=mtu=1500", "=l2mtu=1584");
	ck_assert_int_eq(sp_sw_plan_build(&t, &st, &p, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "the switch did not report fec-mode of /interface/ethernet "
			 "qsfp56-dd-2-1 (does this RouterOS version have it?)");
	ck_assert_uint_eq(p.n, 0);
	sp_sw_state_free(&st);

	blog_ports(&st);
	d.ports = (char *[]){ "qsfp56-dd-9-1" };
	d.n_ports = 1;
	sp_sw_targets_free(&t);
	ck_assert_int_eq(sp_sw_targets_build(&d, &t), 0);
	ck_assert_int_eq(sp_sw_plan_build(&t, &st, &p, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "port qsfp56-dd-9-1 not found on the switch ('switch show' lists "
			 "its ports)");
	sp_sw_targets_free(&t);
	sp_sw_state_free(&st);
}
END_TEST

/* The QoS menus of a switch without any sparkperf rows yet. */
static void blog_qos(struct sp_sw_state *st)
{
	struct sp_ros_result *m;

	row(menu(st, SP_SW_MENU_QOS_PROFILE), "=.id=*10", "=name=default", "=traffic-class=0");
	menu(st, SP_SW_MENU_QOS_MAP_IP);
	menu(st, SP_SW_MENU_QOS_PFC);
	m = menu(st, SP_SW_MENU_QOS_PORT);
	row(m, "=.id=*20", "=name=qsfp56-dd-2-1", "=trust-l3=ignore",
	    "=egress-rate-queue3=100.0Gbps", "=pfc=disabled");
	row(m, "=.id=*21", "=name=qsfp56-dd-2-5", "=trust-l3=keep", "=egress-rate-queue3=0bps",
	    "=pfc=disabled");
	row(menu(st, SP_SW_MENU_SWITCH), "=.id=*30", "=name=switch1", "=qos-hw-offloading=false");
}

START_TEST(test_plan_classify)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_CLASSIFY);
	struct sp_sw_state st = { 0 };
	struct sp_sw_plan p;
	char *s;

	blog_ports(&st);
	blog_qos(&st);
	plan_of(&d, &st, &p);
	/* 2 ports, profile, map, the capped port, offloading ("0bps" is no cap) */
	ck_assert_uint_eq(p.n, 6);
	ck_assert_int_eq(p.v[2].action, SP_SW_ADD);
	ck_assert_ptr_null(p.v[2].id);
	s = sentence_line(&p, 2);
	ck_assert_str_eq(s, "/interface/ethernet/switch/qos/profile/add =name=sparkperf-roce "
			 "=traffic-class=3");
	free(s);
	s = sp_sw_plan_rsc(&p);
	ck_assert_str_eq(strchr(strchr(s, '\n') + 1, '\n') + 1,
		"/interface/ethernet/switch/qos/profile/add name=sparkperf-roce traffic-class=3\n"
		"/interface/ethernet/switch/qos/map/ip/add dscp=26 profile=sparkperf-roce\n"
		"/interface/ethernet/switch/qos/port/set [find name=\"qsfp56-dd-2-1\"] trust-l3=keep "
		"egress-rate-queue3=0\n"
		"/interface/ethernet/switch/set [find name=\"switch1\"] qos-hw-offloading=yes\n");
	free(s);
	s = rollback_rsc(&p);
	ck_assert_ptr_nonnull(strstr(s,
		"/interface/ethernet/switch/set [find name=\"switch1\"] qos-hw-offloading=no\n"
		"/interface/ethernet/switch/qos/port/set [find name=\"qsfp56-dd-2-1\"] trust-l3=ignore "
		"egress-rate-queue3=100.0Gbps\n"
		"/interface/ethernet/switch/qos/map/ip/remove [find dscp=26]\n"
		"/interface/ethernet/switch/qos/profile/remove [find name=\"sparkperf-roce\"]\n"));
	free(s);
	sp_sw_plan_free(&p);
	sp_sw_state_free(&st);
}
END_TEST

/*
 * Undoing after a partial apply: the targets "as it was" against what the
 * switch has now give exactly what is left to set back.
 */
START_TEST(test_undo_partial)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_CLASSIFY);
	struct sp_sw_state st = { 0 }, now = { 0 };
	struct sp_sw_targets before;
	struct sp_sw_plan p, inv, undo;
	struct sp_ros_result *eth;
	char err[256], *s;

	blog_ports(&st);
	blog_qos(&st);
	plan_of(&d, &st, &p);
	ck_assert_int_eq(sp_sw_plan_invert(&p, &inv), 0);
	ck_assert_int_eq(sp_sw_plan_targets(&inv, &before), 0);
	sp_sw_plan_free(&inv);

	/* applied: port -2-1 and the QoS profile; not yet -2-5 or the rest */
	eth = menu(&now, SP_SW_MENU_ETHERNET);
	row(eth, "=.id=*4", "=name=qsfp56-dd-2-1", "=speed=200G-baseCR4", "=auto-negotiation=false",
	    "=fec-mode=fec91", "=mtu=9000", "=l2mtu=9216");
	row(eth, "=.id=*5", "=name=qsfp56-dd-2-5", "=speed=200G-baseCR4", "=auto-negotiation=false",
	    "=fec-mode=fec91", "=mtu=1500", "=l2mtu=9216");
	blog_qos(&now);
	row(&now.menus[1].rows, "=.id=*2A", "=name=sparkperf-roce", "=traffic-class=3");

	ck_assert_int_eq(sp_sw_plan_build(&before, &now, &undo, err, sizeof(err)), 0);
	ck_assert_uint_eq(undo.n, 2);
	s = sentence_line(&undo, 0);
	ck_assert_str_eq(s, "/interface/ethernet/switch/qos/profile/remove =.id=*2A");
	free(s);
	s = sentence_line(&undo, 1);
	ck_assert_str_eq(s, "/interface/ethernet/set =.id=*4 =auto-negotiation=yes "
			 "=speed=400G-baseCR8 =fec-mode=auto =l2mtu=1584 =mtu=1500");
	free(s);
	/* a plan with a removal has no inverse: its row's values are gone */
	ck_assert_int_eq(sp_sw_plan_invert(&undo, &inv), -EINVAL);
	/* a removal or a set needs the row's .id */
	free(undo.v[0].id);
	undo.v[0].id = NULL;
	ck_assert_int_eq(sp_sw_change_sentence(&undo.v[0], &(struct sp_ros_sentence){ 0 }),
			 -EINVAL);

	sp_sw_plan_free(&undo);
	sp_sw_targets_free(&before);
	sp_sw_plan_free(&p);
	sp_sw_state_free(&now);
	sp_sw_state_free(&st);
}
END_TEST

START_TEST(test_rsc_quoting)
{
	struct sp_sw_change c = {
		.action = SP_SW_SET, .menu = SP_SW_MENU_ETHERNET, .key = "name",
		.key_value = "ether 1", .id = "*1", .n = 1,
		.diffs = { { .name = "comment", .from = "", .to = "spark \"01\" $x\\" } },
	};
	struct sp_sw_plan p = { .v = &c, .n = 1 };
	char *s = sp_sw_plan_rsc(&p);

	ck_assert_str_eq(s, "/interface/ethernet/set [find name=\"ether 1\"] "
			 "comment=\"spark \\\"01\\\" \\$x\\\\\"\n");
	free(s);
}
END_TEST

/* ---- printing ----------------------------------------------------------- */

static const struct sp_sw_info crs804 = {
	.host = "crs804", .port = 8729, .version = "7.22 (stable)", .board = "CRS804-4DDQ",
};

START_TEST(test_print_plan_text)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_state st = { 0 };
	struct capture cap;
	struct sp_sw_plan p;
	char *text;

	blog_ports(&st);
	plan_of(&d, &st, &p);
	cap_start(&cap, false, false);
	ck_assert_int_eq(sp_print_switch_plan(&crs804, &d, &p), 0);
	text = cap_end(&cap);
	ck_assert_str_eq(text,
		"switch crs804 port 8729: RouterOS 7.22 (stable), CRS804-4DDQ\n"
		"plan: 6 settings to change in 2 rows\n"
		"ITEM           PROPERTY          NOW           WANT\n"
		"qsfp56-dd-2-1  auto-negotiation  yes           no\n"
		"qsfp56-dd-2-1  speed             400G-baseCR8  200G-baseCR4\n"
		"qsfp56-dd-2-1  fec-mode          auto          fec91\n"
		"qsfp56-dd-2-1  l2mtu             1584          9216\n"
		"qsfp56-dd-2-1  mtu               1500          9000\n"
		"qsfp56-dd-2-5  mtu               1500          9000\n"
		"\n# API sentences\n"
		"/interface/ethernet/set =.id=*4 =auto-negotiation=no =speed=200G-baseCR4 "
		"=fec-mode=fec91 =l2mtu=9216 =mtu=9000\n"
		"/interface/ethernet/set =.id=*5 =mtu=9000\n"
		"\n# RouterOS script (.rsc)\n"
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-1\"] auto-negotiation=no "
		"speed=200G-baseCR4 fec-mode=fec91 l2mtu=9216 mtu=9000\n"
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-5\"] mtu=9000\n"
		"\n# Rollback script (.rsc)\n"
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-5\"] mtu=1500\n"
		"/interface/ethernet/set [find name=\"qsfp56-dd-2-1\"] auto-negotiation=yes "
		"speed=400G-baseCR8 fec-mode=auto l2mtu=1584 mtu=1500\n");
	free(text);
	sp_sw_plan_free(&p);
	sp_sw_state_free(&st);
}
END_TEST

/* A configured port with its link up, and one at defaults that reported little. */
static const struct sp_sw_port_status ports[] = {
	{ .name = "qsfp56-dd-2-1", .status = "link-ok", .rate = "200Gbps",
	  .speed = "200G-baseCR4", .auto_negotiation = "false", .fec_mode = "fec91",
	  .mtu = "9000", .l2mtu = "9216" },
	{ .name = "qsfp56-dd-2-5", .auto_negotiation = "true", .mtu = "1500" },
};

/* What was printed since cap_start() is want. */
static void assert_printed(struct capture *cap, const char *want)
{
	char *text = cap_end(cap);

	ck_assert_str_eq(text, want);
	free(text);
}

static const struct sp_sw_info bare = { .host = "h", .port = 1 };

/* switch show of n ports, text or JSON. */
static const struct {
	const struct sp_sw_info *sw;
	bool json;
	size_t n;
	const char *want;
} port_prints[] = {
	{ &crs804, false, ARRAY_SIZE(ports),
		"switch crs804 port 8729: RouterOS 7.22 (stable), CRS804-4DDQ\n"
		"PORT           STATUS   RATE     SPEED         AUTONEG  FEC    MTU   L2MTU\n"
		"qsfp56-dd-2-1  link-ok  200Gbps  200G-baseCR4  no       fec91  9000  9216\n"
		"qsfp56-dd-2-5  -        -        -             yes      -      1500  -\n" },
	/* no ports: the switch's line alone */
	{ &crs804, false, 0, "switch crs804 port 8729: RouterOS 7.22 (stable), CRS804-4DDQ\n" },
	{ &bare, false, 0, "switch h port 1: RouterOS (version unknown)\n" },
	{ &crs804, true, ARRAY_SIZE(ports),
		"{\"switch\":{\"host\":\"crs804\",\"port\":8729,\"version\":\"7.22 (stable)\","
		"\"board\":\"CRS804-4DDQ\"},\"ports\":[{\"name\":\"qsfp56-dd-2-1\","
		"\"status\":\"link-ok\",\"rate\":\"200Gbps\","
		"\"rate_gbit_per_s\":200.0,\"speed\":\"200G-baseCR4\","
		"\"auto_negotiation\":false,\"fec_mode\":\"fec91\",\"mtu_bytes\":9000,"
		"\"l2mtu_bytes\":9216},{\"name\":\"qsfp56-dd-2-5\",\"status\":null,"
		"\"rate\":null,\"rate_gbit_per_s\":null,\"speed\":null,"
		"\"auto_negotiation\":true,\"fec_mode\":null,\"mtu_bytes\":1500,"
		"\"l2mtu_bytes\":null}]}\n" },
	{ &bare, true, 0,
		"{\"switch\":{\"host\":\"h\",\"port\":1,\"version\":null,\"board\":null},"
		"\"ports\":[]}\n" },
};

START_TEST(test_print_ports)
{
	struct capture cap;

	cap_start(&cap, port_prints[_i].json, false);
	ck_assert_int_eq(sp_print_switch_ports(port_prints[_i].sw, ports, port_prints[_i].n), 0);
	assert_printed(&cap, port_prints[_i].want);
}
END_TEST

START_TEST(test_print_plan_json)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_state st = { 0 };
	json_object *doc, *sentences;
	struct capture cap;
	struct sp_sw_plan p;
	char *text;
	static const char *const keys[] = {
		"switch", "desired", "changes", "sentences", "rsc", "rollback_rsc",
	};

	blog_ports(&st);
	plan_of(&d, &st, &p);
	cap_start(&cap, true, false);
	ck_assert_int_eq(sp_print_switch_plan(&crs804, &d, &p), 0);
	text = cap_end(&cap);
	doc = json_tokener_parse(text);
	ck_assert_ptr_nonnull(doc);
	assert_keys(doc, keys, ARRAY_SIZE(keys));
	ck_assert_str_eq(json_object_to_json_string_ext(get(doc, "desired"),
							JSON_C_TO_STRING_PLAIN),
		"{\"ports\":[\"qsfp56-dd-2-1\",\"qsfp56-dd-2-5\"],\"speed\":\"200G-baseCR4\","
		"\"fec_mode\":\"fec91\",\"mtu_bytes\":9000,\"l2mtu_bytes\":9216,"
		"\"profile\":\"none\",\"roce_queue_cap_gbit_per_s\":0.0}");
	/* a yes/no, "true" as the switch printed it, is a boolean */
	ck_assert_str_eq(json_object_to_json_string_ext(json_object_array_get_idx(get(
				 json_object_array_get_idx(get(doc, "changes"), 0), "properties"),
				 0), JSON_C_TO_STRING_PLAIN),
		"{\"name\":\"auto-negotiation\",\"now\":true,\"want\":false}");
	ck_assert_str_eq(json_object_to_json_string_ext(json_object_array_get_idx(
				 get(doc, "changes"), 1), JSON_C_TO_STRING_PLAIN),
		"{\"item\":\"qsfp56-dd-2-5\",\"menu\":\"\\/interface\\/ethernet\","
		"\"action\":\"set\",\"id\":\"*5\",\"properties\":[{\"name\":\"mtu\","
		"\"now\":\"1500\",\"want\":\"9000\"}]}");
	sentences = get(doc, "sentences");
	ck_assert_uint_eq(json_object_array_length(sentences), 2);
	ck_assert_str_eq(json_object_to_json_string_ext(json_object_array_get_idx(sentences, 1),
							JSON_C_TO_STRING_PLAIN),
			 "[\"\\/interface\\/ethernet\\/set\",\"=.id=*5\",\"=mtu=9000\"]");
	json_object_put(doc);
	free(text);
	sp_sw_plan_free(&p);
	sp_sw_state_free(&st);
}
END_TEST

/* switch verify with the second link up or down, text or JSON. */
static const struct {
	bool json, up;
	const char *want;
} verify_prints[] = {
	{ false, true, "switch crs804 port 8729: RouterOS 7.22 (stable), CRS804-4DDQ\n"
		       "as desired: 2 ports, links up at 200G-baseCR4\n" },
	{ false, false,
		"switch crs804 port 8729: RouterOS 7.22 (stable), CRS804-4DDQ\n"
		"not as desired:\n"
		"ITEM           PROPERTY  NOW      WANT\n"
		"qsfp56-dd-2-5  link      no-link  link-ok 200G-baseCR4\n" },
	{ true, false,
		"{\"switch\":{\"host\":\"crs804\",\"port\":8729,\"version\":\"7.22 (stable)\","
		"\"board\":\"CRS804-4DDQ\"},\"desired\":{\"ports\":[\"qsfp56-dd-2-1\","
		"\"qsfp56-dd-2-5\"],\"speed\":\"200G-baseCR4\",\"fec_mode\":\"fec91\","
		"\"mtu_bytes\":9000,\"l2mtu_bytes\":9216,\"profile\":\"none\","
		"\"roce_queue_cap_gbit_per_s\":0.0},\"as_desired\":false,\"differences\":[],"
		"\"links\":[{\"port\":\"qsfp56-dd-2-1\",\"status\":\"link-ok\","
		"\"rate\":\"200Gbps\",\"rate_gbit_per_s\":200.0,"
		"\"speed\":\"200G-baseCR4\",\"ok\":true},{\"port\":\"qsfp56-dd-2-5\","
		"\"status\":\"no-link\",\"rate\":null,\"rate_gbit_per_s\":null,"
		"\"speed\":\"200G-baseCR4\",\"ok\":false}]}\n" },
};

START_TEST(test_print_verify)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_link links[] = {
		{ .port = "qsfp56-dd-2-1", .speed = "200G-baseCR4", .status = "link-ok",
		  .rate = "200Gbps", .ok = true },
		{ .port = "qsfp56-dd-2-5", .speed = "200G-baseCR4", .status = "no-link" },
	};
	struct sp_sw_plan none = { 0 };
	struct capture cap;

	if (verify_prints[_i].up) {
		links[1] = links[0];
		links[1].port = "qsfp56-dd-2-5";
	}
	cap_start(&cap, verify_prints[_i].json, false);
	ck_assert_int_eq(sp_print_switch_verify(&crs804, &d, &none, links, 2), 0);
	assert_printed(&cap, verify_prints[_i].want);
}
END_TEST

START_TEST(test_print_apply)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_plan none = { 0 };
	struct sp_sw_step steps[] = {
		{ .step = "backup", .detail = "rollback script written to x.rsc" },
		{ .step = "abort", .detail = NULL },
	};
	struct sp_sw_apply_report r = {
		.sw = &crs804, .desired = &d, .plan = &none, .result = "failed",
		.error = "taking safe mode: the switch refused: busy", .backup = "x.rsc",
		.steps = steps, .n_steps = ARRAY_SIZE(steps),
	};
	struct capture cap;

	/* text: its steps as they happen, nothing at the end */
	cap_start(&cap, false, false);
	sp_print_switch_step("backup", "rollback script written to x.rsc");
	ck_assert_int_eq(sp_print_switch_apply(&r), 0);
	assert_printed(&cap, "backup: rollback script written to x.rsc\n");

	cap_start(&cap, true, false);
	sp_print_switch_step("backup", "rollback script written to x.rsc");
	ck_assert_int_eq(sp_print_switch_apply(&r), 0);
	assert_printed(&cap,
		"{\"switch\":{\"host\":\"crs804\",\"port\":8729,\"version\":\"7.22 (stable)\","
		"\"board\":\"CRS804-4DDQ\"},\"desired\":{\"ports\":[\"qsfp56-dd-2-1\","
		"\"qsfp56-dd-2-5\"],\"speed\":\"200G-baseCR4\",\"fec_mode\":\"fec91\","
		"\"mtu_bytes\":9000,\"l2mtu_bytes\":9216,\"profile\":\"none\","
		"\"roce_queue_cap_gbit_per_s\":0.0},\"changes\":[],\"result\":\"failed\","
		"\"error\":\"taking safe mode: the switch refused: busy\",\"backup\":\"x.rsc\","
		"\"switch_export\":null,\"steps\":[{\"step\":\"backup\","
		"\"detail\":\"rollback script written to x.rsc\"},{\"step\":\"abort\","
		"\"detail\":null}],\"links\":[]}\n");
}
END_TEST

static Suite *switchplan_suite(void)
{
	Suite *s = suite_create("switchplan");
	TCase *tc = tcase_create("values");

	tcase_add_loop_test(tc, test_versions, 0, ARRAY_SIZE(versions));
	tcase_add_loop_test(tc, test_rate_parse, 0, ARRAY_SIZE(rates));
	tcase_add_loop_test(tc, test_rate_fmt, 0, ARRAY_SIZE(rate_texts));
	tcase_add_loop_test(tc, test_value_eq, 0, ARRAY_SIZE(values));
	tcase_add_loop_test(tc, test_speed_bps, 0, ARRAY_SIZE(speeds));
	tcase_add_loop_test(tc, test_link_ok, 0, ARRAY_SIZE(links));
	suite_add_tcase(s, tc);

	tc = tcase_create("desired");
	tcase_add_loop_test(tc, test_desired_check, 0, ARRAY_SIZE(desired));
	tcase_add_test(tc, test_profiles);
	tcase_add_loop_test(tc, test_version_gates, 0, ARRAY_SIZE(gates));
	tcase_add_test(tc, test_targets);
	suite_add_tcase(s, tc);

	tc = tcase_create("plans");
	tcase_add_test(tc, test_plan_ports);
	tcase_add_test(tc, test_plan_as_desired);
	tcase_add_test(tc, test_plan_refuses);
	tcase_add_test(tc, test_plan_classify);
	tcase_add_test(tc, test_undo_partial);
	tcase_add_test(tc, test_rsc_quoting);
	suite_add_tcase(s, tc);

	tc = tcase_create("printing");
	tcase_add_test(tc, test_print_plan_text);
	tcase_add_test(tc, test_print_plan_json);
	tcase_add_loop_test(tc, test_print_ports, 0, ARRAY_SIZE(port_prints));
	tcase_add_loop_test(tc, test_print_verify, 0, ARRAY_SIZE(verify_prints));
	tcase_add_test(tc, test_print_apply);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(switchplan_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
