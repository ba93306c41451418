// SPDX-License-Identifier: GPL-2.0
/*
 * The switch commands that change nothing: show (the ports and their links),
 * plan (what apply would do) and verify (the switch against the desired state).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "switchsession.h"

/* What "switch show" reads of every Ethernet port. */
#define SHOW_PROPLIST ".id,name,speed,auto-negotiation,fec-mode,mtu,l2mtu"

int sp_sw_cmd_show(struct sp_sw_session *s)
{
	const struct sp_sw_options *o = s->o;
	struct sp_ros_result rows = { 0 };
	struct sp_sw_port_status *ports = NULL;
	struct sp_sw_link *links = NULL;
	const struct sp_ros_sentence *row;
	size_t n, i;
	int ret;

	ret = sp_sw_read_menu(s, SP_SW_MENU_ETHERNET, SHOW_PROPLIST, &rows);
	if (ret)
		return SP_EXIT_ERROR;
	n = o->ports.n ? o->ports.n : rows.n_rows;
	ports = calloc(n + 1, sizeof(*ports));
	links = calloc(n + 1, sizeof(*links));
	if (!ports || !links)
		ret = sp_sw_fail(s, "out of memory");
	for (i = 0; !ret && i < n; i++) {
		row = o->ports.n ? sp_sw_find_row(&rows, "name", o->ports.items[i]) : &rows.rows[i];
		if (!row) {
			ret = sp_sw_fail(s, "port %s not found on the switch", o->ports.items[i]);
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
		ret = sp_sw_monitor(s, &links[i]);
		ports[i].status = links[i].status;
		ports[i].rate = links[i].rate;
	}
	if (!ret && sp_print_switch_ports(&s->info, ports, n))
		ret = sp_sw_fail(s, "out of memory");
	free(ports);
	sp_sw_links_free(links, n);
	sp_ros_result_free(&rows);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

int sp_sw_cmd_plan(struct sp_sw_session *s)
{
	struct sp_sw_desired_state ds;
	int ret;

	ret = sp_sw_desired_read(s, &ds);
	if (!ret && sp_print_switch_plan(&s->info, &s->o->desired, &ds.plan))
		ret = sp_sw_fail(s, "out of memory");
	sp_sw_desired_free(&ds);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* The links of the ports that targets configure: 0, or -1 (reported). */
static int monitor_ports(struct sp_sw_session *s, struct sp_sw_link **out, size_t *n_out)
{
	const struct sp_sw_desired *d = &s->o->desired;
	struct sp_sw_link *links = calloc(d->n_ports + 1, sizeof(*links));
	size_t i;
	int ret = 0;

	if (!links)
		return sp_sw_fail(s, "out of memory");
	for (i = 0; !ret && i < d->n_ports; i++) {
		links[i].port = d->ports[i];
		links[i].speed = d->speed;
		ret = sp_sw_monitor(s, &links[i]);
	}
	*out = links;
	*n_out = d->n_ports;
	return ret;
}

int sp_sw_cmd_verify(struct sp_sw_session *s)
{
	struct sp_sw_link *links = NULL;
	struct sp_sw_desired_state ds;
	size_t n = 0, bad, i;
	int ret;

	ret = sp_sw_desired_read(s, &ds);
	if (!ret)
		ret = monitor_ports(s, &links, &n);
	if (!ret && sp_print_switch_verify(&s->info, &s->o->desired, &ds.plan, links, n))
		ret = sp_sw_fail(s, "out of memory");
	if (!ret) {
		bad = sp_sw_plan_settings(&ds.plan);
		for (i = 0; i < n; i++)
			bad += !links[i].ok;
		if (bad)
			ret = sp_sw_fail(s, "%s is not as desired: %zu difference%s", s->conn.where,
					 bad, bad == 1 ? "" : "s");
	}
	sp_sw_links_free(links, n);
	sp_sw_desired_free(&ds);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}
