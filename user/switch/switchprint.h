/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the switch commands print: the switch talked to, its ports, a plan,
 * what verify found and the steps of apply; text, or one JSON document each.
 */
#ifndef SPARKPERF_CTL_SWITCHPRINT_H
#define SPARKPERF_CTL_SWITCHPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "switchplan.h"

/* The switch a command talked to. */
struct sp_sw_info {
	const char *host;
	uint16_t port;
	const char *version;	/* as reported: "7.22 (stable)" */
	const char *board;	/* "CRS804-4DDQ"; NULL when not reported */
};

/* One Ethernet port: values as the switch prints them, NULL when missing. */
struct sp_sw_port_status {
	const char *name, *status, *rate, *speed, *auto_negotiation, *fec_mode, *mtu, *l2mtu;
};

/* A link checked against the speed it should have. */
struct sp_sw_link {
	const char *port;
	const char *speed;	/* wanted */
	char *status, *rate;	/* monitored; NULL when not reported */
	bool ok;
};

/* One step of switch apply, as it happened. */
struct sp_sw_step {
	const char *step;	/* "backup", "safe mode", "batch 1/2", ... */
	char *detail;
};

struct sp_sw_apply_report {
	const struct sp_sw_info *sw;
	const struct sp_sw_desired *desired;
	const struct sp_sw_plan *plan;
	const char *result;	/* "applied", "unchanged", "rolled back", "failed" */
	const char *error;	/* what failed; NULL on success */
	const char *backup;	/* the local rollback script; NULL: not written */
	const char *export;	/* the export file on the switch; NULL: none */
	const struct sp_sw_step *steps;
	size_t n_steps;
	const struct sp_sw_link *links;
	size_t n_links;
};

/*
 * Switch ports (switch show): a line naming the switch, then a table; JSON,
 * one object with "switch" and "ports".
 */
int sp_print_switch_ports(const struct sp_sw_info *sw, const struct sp_sw_port_status *ports,
			  size_t n);

/* The changes of a plan as an ITEM PROPERTY NOW WANT table (text only). */
int sp_print_switch_changes(const struct sp_sw_info *sw, const struct sp_sw_plan *p);

/*
 * switch plan: the changes, then the API sentences, the .rsc script and the
 * rollback script; JSON, one object with all of them.
 */
int sp_print_switch_plan(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			 const struct sp_sw_plan *p);

/* switch verify: what differs from d (settings and links), or "as desired". */
int sp_print_switch_verify(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			   const struct sp_sw_plan *diff, const struct sp_sw_link *links,
			   size_t n_links);

/* One step of switch apply as it happens: "STEP: DETAIL" (text only, flushed). */
void sp_print_switch_step(const char *step, const char *detail);

/* The report of switch apply: JSON only (text had its steps). */
int sp_print_switch_apply(const struct sp_sw_apply_report *r);

#endif
