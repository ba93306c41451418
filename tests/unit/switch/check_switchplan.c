// SPDX-License-Identifier: GPL-2.0
/* Switch configuration plans (user/switchplan.c) and their printing. */
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

START_TEST(test_versions)
{
	static const struct sp_sw_version v7_15 = { 7, 15, 0 };
	struct sp_sw_version v;

	ck_assert_int_eq(sp_sw_version_parse("7.22 (stable)", &v), 0);
	ck_assert_uint_eq(v.major, 7);
	ck_assert_uint_eq(v.minor, 22);
	ck_assert_uint_eq(v.patch, 0);
	ck_assert_int_eq(sp_sw_version_parse("7.23.1 (stable)", &v), 0);
	ck_assert_uint_eq(v.patch, 1);
	ck_assert_int_eq(sp_sw_version_parse("7.23beta2 (testing)", &v), 0);
	ck_assert_uint_eq(v.minor, 23);
	ck_assert_int_eq(sp_sw_version_parse("7.15", &v), 0);
	ck_assert_int_eq(sp_sw_version_cmp(&v, &v7_15), 0);
	ck_assert_int_eq(sp_sw_version_parse("7.9", &v), 0);
	ck_assert_int_lt(sp_sw_version_cmp(&v, &v7_15), 0);
	ck_assert(!sp_sw_has_unroll(&v));
	ck_assert_int_eq(sp_sw_version_parse("7.18", &v), 0);
	ck_assert(sp_sw_has_unroll(&v));
	ck_assert_int_eq(sp_sw_version_parse("7", &v), -EINVAL);
	ck_assert_int_eq(sp_sw_version_parse("stable", &v), -EINVAL);
	ck_assert_int_eq(sp_sw_version_parse(NULL, &v), -EINVAL);
}
END_TEST

START_TEST(test_rates)
{
	static const struct {
		const char *s;
		uint64_t bps;
	} ok[] = {
		{ "0", 0 }, { "0bps", 0 }, { "100Gbps", 100000000000ULL },
		{ "100.0Gbps", 100000000000ULL }, { "2.5Gbps", 2500000000ULL },
		{ "10Mbps", 10000000ULL }, { "200G", 200000000000ULL }, { "1500", 1500 },
	};
	static const char *const bad[] = { "", "G", "1.Gbps", "1.5bps", "10 Gbps", "10Xbps", "-1" };
	char buf[32];
	uint64_t bps;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ck_assert_int_eq(sp_sw_rate_parse(ok[i].s, &bps), 0);
		ck_assert_uint_eq(bps, ok[i].bps);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_int_eq(sp_sw_rate_parse(bad[i], &bps), -EINVAL);
	ck_assert_str_eq(sp_sw_rate_fmt(0, buf, sizeof(buf)), "0");
	ck_assert_str_eq(sp_sw_rate_fmt(100000000000ULL, buf, sizeof(buf)), "100Gbps");
	ck_assert_str_eq(sp_sw_rate_fmt(2500000000ULL, buf, sizeof(buf)), "2500Mbps");
	ck_assert_str_eq(sp_sw_rate_fmt(1500, buf, sizeof(buf)), "1500bps");
}
END_TEST

START_TEST(test_values_and_links)
{
	uint64_t bps;

	ck_assert(sp_sw_value_eq("true", "yes"));
	ck_assert(sp_sw_value_eq("false", "no"));
	ck_assert(!sp_sw_value_eq("true", "no"));
	ck_assert(!sp_sw_value_eq("auto", "no"));
	ck_assert(sp_sw_value_eq("0", "0bps"));
	ck_assert(sp_sw_value_eq("100.0Gbps", "100Gbps"));
	ck_assert(sp_sw_value_eq("fec91", "fec91"));
	ck_assert(!sp_sw_value_eq("9000", "9216"));

	ck_assert_int_eq(sp_sw_speed_bps("200G-baseCR4", &bps), 0);
	ck_assert_uint_eq(bps, 200000000000ULL);
	ck_assert_int_eq(sp_sw_speed_bps("2.5G-baseT", &bps), 0);
	ck_assert_uint_eq(bps, 2500000000ULL);
	ck_assert_int_eq(sp_sw_speed_bps("10M-baseT-half", &bps), 0);
	ck_assert_uint_eq(bps, 10000000ULL);
	ck_assert_int_eq(sp_sw_speed_bps("auto", &bps), -EINVAL);
	ck_assert_int_eq(sp_sw_speed_bps("200G", &bps), -EINVAL);
	ck_assert_int_eq(sp_sw_speed_bps("200X-baseCR4", &bps), -EINVAL);
	ck_assert_int_eq(sp_sw_speed_bps("-baseCR4", &bps), -EINVAL);
	ck_assert_int_eq(sp_sw_speed_bps("200G-base", &bps), -EINVAL);

	ck_assert(sp_sw_link_ok("link-ok", "200Gbps", "200G-baseCR4"));
	ck_assert(!sp_sw_link_ok("link-ok", "100Gbps", "200G-baseCR4"));
	ck_assert(!sp_sw_link_ok("no-link", NULL, "200G-baseCR4"));
	ck_assert(!sp_sw_link_ok(NULL, NULL, "200G-baseCR4"));
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

START_TEST(test_desired_check)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	enum sp_sw_profile p;
	char err[256];

	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), 0);
	d.speed = "200G";
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Invalid speed: '200G' (a RouterOS link mode such as 200G-baseCR4)");
	d = blog(SP_SW_PROFILE_NONE);
	d.fec = "rs";
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), -EINVAL);
	d = blog(SP_SW_PROFILE_NONE);
	d.mtu = 9217;
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "mtu 9217 is more than l2mtu 9216: RouterOS would clamp the MTU to "
			 "the L2MTU without a word");
	d = blog(SP_SW_PROFILE_NONE);
	d.queue_cap_bps = 100000000000ULL;
	d.force = true;
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "queue-cap needs profile classify or lossless");
	d.profile = SP_SW_PROFILE_CLASSIFY;
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), 0);
	d.force = false;
	ck_assert_int_eq(sp_sw_desired_check(&d, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "queue-cap 100Gbps refused: a cap on the RoCE queue halved NCCL "
			 "bandwidth in field tests (egress-rate-queue3=100Gbps: 23.8 to 11.1 GB/s); "
			 "add 'force yes' to set it anyway");

	ck_assert_int_eq(sp_sw_profile_parse("lossless", &p), 0);
	ck_assert_int_eq(p, SP_SW_PROFILE_LOSSLESS);
	ck_assert_int_eq(sp_sw_profile_parse("pfc", &p), -EINVAL);
	ck_assert_str_eq(sp_sw_profile_str(SP_SW_PROFILE_CLASSIFY), "classify");
}
END_TEST

START_TEST(test_version_gates)
{
	struct sp_sw_desired d = blog(SP_SW_PROFILE_LOSSLESS);
	struct sp_sw_version v = { 7, 12, 0 };
	char err[256];

	ck_assert_int_eq(sp_sw_version_check(&d, &v, "7.12 (stable)", err, sizeof(err)),
			 -EOPNOTSUPP);
	ck_assert_str_eq(err, "profile lossless needs priority flow control (PFC), which RouterOS "
			 "has from 7.15 on; this switch runs 7.12 (stable)");
	d.profile = SP_SW_PROFILE_CLASSIFY;
	ck_assert_int_eq(sp_sw_version_check(&d, &v, "7.12", err, sizeof(err)), -EOPNOTSUPP);
	d.profile = SP_SW_PROFILE_NONE;
	ck_assert_int_eq(sp_sw_version_check(&d, &v, "7.12", err, sizeof(err)), 0);
	v.minor = 15;
	d.profile = SP_SW_PROFILE_LOSSLESS;
	ck_assert_int_eq(sp_sw_version_check(&d, &v, "7.15", err, sizeof(err)), 0);
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

START_TEST(test_print_plan_text)
{
	static const struct sp_sw_info sw = {
		.host = "crs804", .port = 8729, .version = "7.22 (stable)", .board = "CRS804-4DDQ",
	};
	struct sp_sw_desired d = blog(SP_SW_PROFILE_NONE);
	struct sp_sw_state st = { 0 };
	struct capture cap;
	struct sp_sw_plan p;
	char *text;

	blog_ports(&st);
	plan_of(&d, &st, &p);
	cap_start(&cap, false, false);
	ck_assert_int_eq(sp_print_switch_plan(&sw, &d, &p), 0);
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

static Suite *switchplan_suite(void)
{
	Suite *s = suite_create("switchplan");
	TCase *tc = tcase_create("values");

	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_rates);
	tcase_add_test(tc, test_values_and_links);
	suite_add_tcase(s, tc);

	tc = tcase_create("desired");
	tcase_add_test(tc, test_desired_check);
	tcase_add_test(tc, test_version_gates);
	tcase_add_test(tc, test_targets);
	suite_add_tcase(s, tc);

	tc = tcase_create("plans");
	tcase_add_test(tc, test_plan_ports);
	tcase_add_test(tc, test_plan_as_desired);
	tcase_add_test(tc, test_plan_refuses);
	tcase_add_test(tc, test_plan_classify);
	tcase_add_test(tc, test_undo_partial);
	tcase_add_test(tc, test_rsc_quoting);
	tcase_add_test(tc, test_print_plan_text);
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
