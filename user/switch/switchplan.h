/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Switch configuration plans for RouterOS 7, pure (no I/O, unit-tested).
 *
 * A desired state becomes targets: rows of RouterOS menus and the values
 * they must have. Targets compared with the rows read from the switch give
 * a plan of changes; a plan gives API sentences, a RouterOS script (.rsc)
 * and, inverted, the rollback script. Undoing is planning again: the
 * targets of the inverted plan ("as it was") against the rows read after a
 * failure, so a partial apply is undone exactly as far as it went.
 *
 * switchvalue.c holds versions, values and the desired state; switchplan.c
 * the targets, the state read, plans and what they are written as.
 */
#ifndef SPARKPERF_CTL_SWITCHPLAN_H
#define SPARKPERF_CTL_SWITCHPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "routeros.h"

/* The menus sparkperf reads and writes. */
#define SP_SW_MENU_ETHERNET "/interface/ethernet"
#define SP_SW_MENU_SWITCH "/interface/ethernet/switch"
#define SP_SW_MENU_QOS_PROFILE "/interface/ethernet/switch/qos/profile"
#define SP_SW_MENU_QOS_MAP_IP "/interface/ethernet/switch/qos/map/ip"
#define SP_SW_MENU_QOS_PFC "/interface/ethernet/switch/qos/priority-flow-control"
#define SP_SW_MENU_QOS_PORT "/interface/ethernet/switch/qos/port"

/*
 * RoCE on the switch: hosts mark RoCE v2 with DSCP 26 (NCCL_IB_TC=104/106,
 * "dcb app dscp-prio 26:3"); the switch puts it in traffic class 3.
 */
#define SP_SW_ROCE_DSCP "26"
#define SP_SW_ROCE_TC "3"
#define SP_SW_ROCE_QUEUE_CAP "egress-rate-queue3"
#define SP_SW_QOS_PROFILE "sparkperf-roce"
#define SP_SW_PFC_PROFILE "sparkperf-pfc3"
#define SP_SW_CHIP "switch1"

/* ---- versions ----------------------------------------------------------- */

struct sp_sw_version {
	unsigned int major, minor, patch;
};

/* "7.22", "7.22.1 (stable)", "7.23beta2": 0, or -EINVAL. */
int sp_sw_version_parse(const char *s, struct sp_sw_version *v);
/* <0, 0, >0 as a is older than, equal to, newer than b */
int sp_sw_version_cmp(const struct sp_sw_version *a, const struct sp_sw_version *b);

/* /safe-mode/unroll exists from RouterOS 7.18 on. */
bool sp_sw_has_unroll(const struct sp_sw_version *v);

/* ---- values ------------------------------------------------------------- */

/*
 * Equality of a value read from the switch and a wanted one, as RouterOS
 * means them: exact, or the same boolean (yes/true, no/false), or the same
 * rate ("0" and "0bps", "100Gbps" and "100.0Gbps").
 */
bool sp_sw_value_eq(const char *have, const char *want);

/* A value as read (true, false over the API) as it is set: yes, no. NULL stays NULL. */
const char *sp_sw_settable(const char *v);

/* "100Gbps", "2.5Gbps", "10Mbps", "0", "0bps" in bit/s: 0 or -EINVAL. */
int sp_sw_rate_parse(const char *s, uint64_t *bps);
/* bit/s as RouterOS writes a rate: 0 -> "0", 100e9 -> "100Gbps". Returns buf. */
char *sp_sw_rate_fmt(uint64_t bps, char *buf, size_t len);

/* The rate of a link mode: "200G-baseCR4" -> 200e9. 0 or -EINVAL. */
int sp_sw_speed_bps(const char *speed, uint64_t *bps);

/* A port's link is up at the rate of its speed. */
bool sp_sw_link_ok(const char *status, const char *rate, const char *speed);

/* ---- desired state ------------------------------------------------------ */

enum sp_sw_profile {
	SP_SW_PROFILE_NONE,	/* QoS left as it is */
	SP_SW_PROFILE_CLASSIFY,	/* DSCP 26 to traffic class 3, no egress cap */
	SP_SW_PROFILE_LOSSLESS,	/* classify and PFC on traffic class 3 */
};

int sp_sw_profile_parse(const char *s, enum sp_sw_profile *p);
const char *sp_sw_profile_str(enum sp_sw_profile p);

struct sp_sw_desired {
	char **ports;
	size_t n_ports;
	const char *speed;	/* link mode, e.g. 200G-baseCR4 */
	const char *fec;	/* fec-mode: auto, fec74, fec91, off */
	uint32_t mtu, l2mtu;	/* bytes */
	enum sp_sw_profile profile;
	uint64_t queue_cap_bps;	/* egress cap of the RoCE queue; 0: none */
	bool force;		/* allow a non-zero queue_cap_bps */
};

/*
 * What can be refused before talking to the switch: 0, or -EINVAL with one
 * line in err (an MTU over the L2MTU, a cap without force, ...).
 */
int sp_sw_desired_check(const struct sp_sw_desired *d, char *err, size_t len);

/* What the switch's version must support for d: 0, or -EOPNOTSUPP and err. */
int sp_sw_version_check(const struct sp_sw_desired *d, const struct sp_sw_version *v,
			const char *version, char *err, size_t len);

/* ---- targets ------------------------------------------------------------ */

#define SP_SW_SETTINGS_MAX 8

struct sp_sw_setting {
	const char *name;	/* a property name, static */
	char *value;
};

/* One row of one menu, named by the value of its key property. */
struct sp_sw_target {
	const char *menu;	/* static */
	const char *key;	/* static */
	char *key_value;
	bool absent;		/* wanted: no such row */
	bool may_add;		/* a missing row is added (else it is an error) */
	bool is_port;		/* an Ethernet port, whose link is checked */
	size_t n;
	struct sp_sw_setting set[SP_SW_SETTINGS_MAX];
};

struct sp_sw_targets {
	struct sp_sw_target *v;
	size_t n;
	size_t cap;
};

/*
 * The targets of a desired state, in the order they are applied: Ethernet
 * ports, QoS profile, DSCP map, PFC profile, per-port QoS, and QoS hardware
 * offloading last. 0 or -ENOMEM.
 */
int sp_sw_targets_build(const struct sp_sw_desired *d, struct sp_sw_targets *t);
void sp_sw_targets_free(struct sp_sw_targets *t);

/* The distinct menus of the targets, in order; returns how many. */
size_t sp_sw_targets_menus(const struct sp_sw_targets *t, const char **menus, size_t max);

/* The .proplist to read a menu with: .id, the key and every setting. */
char *sp_sw_proplist(const struct sp_sw_targets *t, const char *menu);

/* ---- state as read ------------------------------------------------------ */

#define SP_SW_MENUS_MAX 8

struct sp_sw_menu {
	const char *path;
	struct sp_ros_result rows;	/* of .../print */
};

struct sp_sw_state {
	size_t n;
	struct sp_sw_menu menus[SP_SW_MENUS_MAX];
};

/* The rows read for menu, or NULL when it was not read. */
const struct sp_ros_result *sp_sw_state_menu(const struct sp_sw_state *st, const char *menu);
/* The first row whose key property is value, or NULL. */
const struct sp_ros_sentence *sp_sw_find_row(const struct sp_ros_result *rows, const char *key,
					     const char *value);
void sp_sw_state_free(struct sp_sw_state *st);

/* ---- plans -------------------------------------------------------------- */

enum sp_sw_action { SP_SW_SET, SP_SW_ADD, SP_SW_REMOVE };

struct sp_sw_diff {
	const char *name;
	char *from;		/* NULL: the row does not exist yet */
	char *to;
};

struct sp_sw_change {
	enum sp_sw_action action;
	const char *menu, *key;
	char *key_value;
	char *id;		/* SET, REMOVE: the row's .id as read; NULL when unknown */
	bool is_port;
	size_t n;		/* SET: the differing settings; ADD: all of them */
	struct sp_sw_diff diffs[SP_SW_SETTINGS_MAX];
};

struct sp_sw_plan {
	struct sp_sw_change *v;
	size_t n;
};

/*
 * The changes that make st match t. A target that is not a row the switch
 * has (and may not be added), or a setting the switch did not report, is
 * refused: -ENOENT with one line in err. 0 or -ENOMEM otherwise.
 */
int sp_sw_plan_build(const struct sp_sw_targets *t, const struct sp_sw_state *st,
		     struct sp_sw_plan *p, char *err, size_t len);
void sp_sw_plan_free(struct sp_sw_plan *p);

/* Settings changed, over all changes (a removed row counts one). */
size_t sp_sw_plan_settings(const struct sp_sw_plan *p);

/*
 * The inverse, in reverse order: SET from<->to, ADD -> REMOVE (its .id
 * unknown until it exists), with booleans written yes/no. -EINVAL for a
 * plan with REMOVE, whose row's values a plan does not keep.
 */
int sp_sw_plan_invert(const struct sp_sw_plan *p, struct sp_sw_plan *inv);

/* The targets that a plan reaches: SET/ADD the "to" values, REMOVE absent. */
int sp_sw_plan_targets(const struct sp_sw_plan *p, struct sp_sw_targets *t);

/*
 * The API sentence of a change: "<menu>/set =.id=<id> =name=value ...",
 * "<menu>/add =<key>=<value> =name=value ...", "<menu>/remove =.id=<id>".
 * -EINVAL for SET/REMOVE without an id, -ENOMEM.
 */
int sp_sw_change_sentence(const struct sp_sw_change *c, struct sp_ros_sentence *s);

/* The words of a sentence on one line, separated by blanks; malloc'ed. */
char *sp_sw_sentence_line(const struct sp_ros_sentence *s);

/*
 * A RouterOS script, one line per change:
 *	/interface/ethernet/set [find name="qsfp56-dd-2-1"] speed=200G-baseCR4
 *	/interface/ethernet/switch/qos/profile/add name=sparkperf-roce traffic-class=3
 *	/interface/ethernet/switch/qos/map/ip/remove [find dscp=26]
 * malloc'ed; "" for an empty plan; NULL on -ENOMEM.
 */
char *sp_sw_plan_rsc(const struct sp_sw_plan *p);

/* "qsfp56-dd-2-1" for a port, else "qos/profile sparkperf-roce". Returns buf. */
char *sp_sw_change_label(const struct sp_sw_change *c, char *buf, size_t len);

#endif
