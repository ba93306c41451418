// SPDX-License-Identifier: GPL-2.0
/*
 * dev show and dev monitor: devices as a table with a line per port, or
 * JSON; events as one line each (text, or compact JSON).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse.h"
#include "lib/print.h"
#include "lib/rate.h"
#include "devprint.h"

/* ---- JSON --------------------------------------------------------------- */

static json_object *jgbps(uint32_t mbps)
{
	char num[SP_RATE_STRLEN];

	sp_fmt_gbps(mbps, num, sizeof(num) - 2);
	if (!strchr(num, '.'))
		strcat(num, ".0");
	return json_object_new_double_s(mbps / 1000.0, num);
}

static void json_gid(json_object *o, const void *item)
{
	const struct sp_gid *gid = item;
	char buf[SP_GID_STRLEN];

	sp_json_add(o, "index", json_object_new_int64(gid->index));
	sp_json_add(o, "type", json_object_new_string(sp_gid_type_str(gid->type)));
	sp_json_add(o, "gid", json_object_new_string(sp_fmt_gid(gid->raw, buf, sizeof(buf))));
}

static json_object *json_port(const struct sp_port *p)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "port", json_object_new_int64(p->num));
	sp_json_add(obj, "state", json_object_new_string(sp_port_state_str(p->state)));
	sp_json_add(obj, "physical_state", json_object_new_string(sp_phys_state_str(p->phys_state)));
	sp_json_add(obj, "link_layer", json_object_new_string(sp_link_layer_str(p->link_layer)));
	sp_json_add(obj, "active_mtu_bytes", json_object_new_int64(p->active_mtu));
	sp_json_add(obj, "max_mtu_bytes", json_object_new_int64(p->max_mtu));
	sp_json_add(obj, "active_speed", sp_json_str_or_null(sp_speed_str(p->active_speed)));
	sp_json_add(obj, "active_width", json_object_new_int(p->active_width));
	sp_json_add(obj, "rate_gbit_per_s", jgbps(p->rate_mbps));
	if (p->has_netdev) {
		sp_json_add(obj, "netdev", sp_json_str_or_null(p->netdev_name[0] ? p->netdev_name : NULL));
		sp_json_add(obj, "netdev_ifindex", json_object_new_int64(p->netdev_ifindex));
		sp_json_add(obj, "netdev_mtu_bytes", json_object_new_int64(p->netdev_mtu));
		sp_json_add(obj, "netdev_operstate",
		    json_object_new_string(sp_operstate_str(p->netdev_operstate)));
	} else {
		sp_json_add(obj, "netdev", NULL);
		sp_json_add(obj, "netdev_ifindex", NULL);
		sp_json_add(obj, "netdev_mtu_bytes", NULL);
		sp_json_add(obj, "netdev_operstate", NULL);
	}
	sp_json_add(obj, "gids", sp_json_objects(p->gids, p->n_gids, sizeof(*p->gids), json_gid));
	return obj;
}

static void json_dev_head(json_object *o, const void *item)
{
	const struct sp_dev *d = item;

	sp_json_add(o, "index", json_object_new_int64(d->index));
	sp_json_add(o, "name", json_object_new_string(d->name));
}

static json_object *json_dev(const struct sp_dev *d)
{
	json_object *obj = sp_json_object(json_dev_head, d), *ports;
	char guid[SP_GUID_STRLEN];
	size_t i;

	if (!obj)
		return NULL;
	sp_json_add(obj, "node_guid", json_object_new_string(sp_fmt_guid(d->node_guid, guid, sizeof(guid))));
	sp_json_add(obj, "numa_node", json_object_new_int(d->numa_node));
	sp_json_add(obj, "parent", sp_json_str_or_null(d->has_parent ? d->parent : NULL));
	ports = json_object_new_array();
	for (i = 0; ports && i < d->n_ports; i++)
		json_object_array_add(ports, json_port(&d->ports[i]));
	sp_json_add(obj, "ports", ports);
	return obj;
}

/* ---- text pieces -------------------------------------------------------- */

/* "100 Gbit/s (4X EDR)"; "-" when the port reports no rate */
static void fmt_port_rate(const struct sp_port *p, char *buf, size_t len)
{
	const char *speed = sp_speed_str(p->active_speed);
	char rate[SP_RATE_STRLEN];

	if (!p->rate_mbps && !p->active_width && !speed) {
		snprintf(buf, len, "-");
		return;
	}
	sp_fmt_rate(p->rate_mbps, rate, sizeof(rate));
	if (speed)
		snprintf(buf, len, "%s (%uX %s)", rate, p->active_width, speed);
	else
		snprintf(buf, len, "%s (%uX)", rate, p->active_width);
}

static void fmt_port_mtu(const struct sp_port *p, char *buf, size_t len)
{
	snprintf(buf, len, "%u/%u B", p->active_mtu, p->max_mtu);
}

/* "eth0 (1500 B, up)"; "-" without a netdev */
static void fmt_port_netdev(const struct sp_port *p, char *buf, size_t len)
{
	if (!p->has_netdev)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s (%u B, %s)",
			 p->netdev_name[0] ? p->netdev_name : "?", p->netdev_mtu,
			 sp_operstate_str(p->netdev_operstate));
}

/* "10.0.2.15 (gid 1), 192.168.1.2 (gid 3)" for RoCE v2 IPv4 GIDs; NULL if none */
static char *port_ipv4s(const struct sp_port *p)
{
	bool first = true;
	char *s = NULL;
	size_t len = 0, i;
	FILE *f;

	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	for (i = 0; i < p->n_gids; i++) {
		char ip[SP_IPV4_STRLEN];

		if (p->gids[i].type != SPARKPERF_GID_TYPE_ROCE_V2 ||
		    !sp_gid_ipv4(p->gids[i].raw, ip, sizeof(ip)))
			continue;
		fprintf(f, "%s%s (gid %u)", first ? "" : ", ", ip, p->gids[i].index);
		first = false;
	}
	fclose(f);
	if (s && first) {
		free(s);
		s = NULL;
	}
	return s;
}

/* ---- device table ------------------------------------------------------- */

enum {
	COL_DEV, COL_PORT, COL_STATE, COL_PHYS, COL_LINK, COL_RATE, COL_MTU,
	COL_NETDEV, COL_NUMA, COL_PCI, COL_IPV4, NCOLS
};

static const char *const col_header[NCOLS] = {
	[COL_DEV] = "DEV",
	[COL_PORT] = "PORT",
	[COL_STATE] = "STATE",
	[COL_PHYS] = "PHYS",
	[COL_LINK] = "LINK",
	[COL_RATE] = "RATE",
	[COL_MTU] = "MTU ACT/MAX",
	[COL_NETDEV] = "NETDEV",
	[COL_NUMA] = "NUMA",
	[COL_PCI] = "PCI",
	[COL_IPV4] = "IPV4 (ROCE V2 GID)",
};

struct row {
	char *cell[NCOLS];
};

static int row_fill(struct row *r, const struct sp_dev *d, const struct sp_port *p)
{
	char buf[128];
	int i;

	memset(r, 0, sizeof(*r));
	r->cell[COL_DEV] = strdup(d->name);
	if (d->numa_node >= 0)
		snprintf(buf, sizeof(buf), "%d", d->numa_node);
	else
		snprintf(buf, sizeof(buf), "-");
	r->cell[COL_NUMA] = strdup(buf);
	r->cell[COL_PCI] = strdup(d->has_parent ? d->parent : "-");
	if (!p) {
		for (i = COL_PORT; i <= COL_NETDEV; i++)
			r->cell[i] = strdup("-");
		r->cell[COL_IPV4] = strdup("-");
	} else {
		snprintf(buf, sizeof(buf), "%u", p->num);
		r->cell[COL_PORT] = strdup(buf);
		r->cell[COL_STATE] = strdup(sp_port_state_str(p->state));
		r->cell[COL_PHYS] = strdup(sp_phys_state_str(p->phys_state));
		r->cell[COL_LINK] = strdup(sp_link_layer_str(p->link_layer));
		fmt_port_rate(p, buf, sizeof(buf));
		r->cell[COL_RATE] = strdup(buf);
		fmt_port_mtu(p, buf, sizeof(buf));
		r->cell[COL_MTU] = strdup(buf);
		fmt_port_netdev(p, buf, sizeof(buf));
		r->cell[COL_NETDEV] = strdup(buf);
		r->cell[COL_IPV4] = port_ipv4s(p);
		if (!r->cell[COL_IPV4])
			r->cell[COL_IPV4] = strdup("-");
	}
	for (i = 0; i < NCOLS; i++)
		if (!r->cell[i])
			return -ENOMEM;
	return 0;
}

static void row_free(struct row *r)
{
	int i;

	for (i = 0; i < NCOLS; i++)
		free(r->cell[i]);
}

static void print_row(const char *const *cell, const size_t *width)
{
	FILE *f = sp_print_file();
	int i;

	for (i = 0; i < NCOLS - 1; i++)
		fprintf(f, "%-*s  ", (int)width[i], cell[i]);
	fprintf(f, "%s\n", cell[NCOLS - 1]);
}

static int print_devs_text(const struct sp_dev *devs, size_t n)
{
	size_t width[NCOLS], n_rows = 0, r = 0, i, j;
	struct row *rows;
	int c, ret = 0;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		n_rows += devs[i].n_ports ? devs[i].n_ports : 1;
	rows = calloc(n_rows, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++) {
		if (!devs[i].n_ports) {
			ret = row_fill(&rows[r++], &devs[i], NULL);
			continue;
		}
		for (j = 0; j < devs[i].n_ports && !ret; j++)
			ret = row_fill(&rows[r++], &devs[i], &devs[i].ports[j]);
	}
	if (!ret) {
		for (c = 0; c < NCOLS; c++) {
			width[c] = strlen(col_header[c]);
			for (i = 0; i < n_rows; i++)
				if (strlen(rows[i].cell[c]) > width[c])
					width[c] = strlen(rows[i].cell[c]);
		}
		print_row(col_header, width);
		for (i = 0; i < n_rows; i++)
			print_row((const char *const *)rows[i].cell, width);
	}
	for (i = 0; i < r; i++)
		row_free(&rows[i]);
	free(rows);
	return ret;
}

int sp_print_devs(const struct sp_dev *devs, size_t n)
{
	json_object *arr;
	size_t i;

	if (!sp_print_is_json())
		return print_devs_text(devs, n);
	arr = json_object_new_array();
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *d = json_dev(&devs[i]);

		if (!d) {
			json_object_put(arr);
			return -ENOMEM;
		}
		json_object_array_add(arr, d);
	}
	return sp_print_json(arr);
}

/* ---- events ------------------------------------------------------------- */

static const char *const event_json_name[] = {
	[SP_DEV_EVENT_NEW] = "new",
	[SP_DEV_EVENT_CHANGE] = "change",
	[SP_DEV_EVENT_DEL] = "del",
};

/* "port 1 ACTIVE LINK_UP Ethernet 2.5 Gbit/s (1X SDR) mtu 1024/4096 B netdev eth0 (1500 B, up) ipv4 10.0.2.15 (gid 1)" */
static void print_port_summary(FILE *f, const struct sp_port *p)
{
	char buf[128];
	char *ips;

	fmt_port_rate(p, buf, sizeof(buf));
	fprintf(f, "port %u %s %s %s %s", p->num, sp_port_state_str(p->state),
		sp_phys_state_str(p->phys_state), sp_link_layer_str(p->link_layer), buf);
	fmt_port_mtu(p, buf, sizeof(buf));
	fprintf(f, " mtu %s", buf);
	if (p->has_netdev) {
		fmt_port_netdev(p, buf, sizeof(buf));
		fprintf(f, " netdev %s", buf);
	}
	ips = port_ipv4s(p);
	if (ips)
		fprintf(f, " ipv4 %s", ips);
	free(ips);
}

int sp_print_event(const struct sp_dev_event *ev)
{
	const struct sp_dev *d = &ev->dev;
	FILE *f = sp_print_file();
	size_t i;

	if (sp_print_is_json()) {
		json_object *obj = json_object_new_object();
		int ret;

		if (!obj)
			return -ENOMEM;
		sp_json_add(obj, "event", json_object_new_string(event_json_name[ev->type]));
		if (ev->type == SP_DEV_EVENT_CHANGE && ev->has_port)
			sp_json_add(obj, "port", json_object_new_int64(ev->port));
		/* a removed device is only named */
		sp_json_add(obj, "dev", ev->type == SP_DEV_EVENT_DEL ?
			    sp_json_object(json_dev_head, d) : json_dev(d));
		/* JSON lines: one compact object per line, even with -p */
		ret = sp_print_json_line(obj);
		fflush(f);
		return ret;
	}

	fprintf(f, "%s (index %u) ", d->name, d->index);
	switch (ev->type) {
	case SP_DEV_EVENT_NEW:
		fprintf(f, "added");
		break;
	case SP_DEV_EVENT_CHANGE:
		if (ev->has_port)
			fprintf(f, "changed port %u", ev->port);
		else
			fprintf(f, "changed");
		break;
	case SP_DEV_EVENT_DEL:
		fprintf(f, "removed\n");
		fflush(f);
		return 0;
	}
	fprintf(f, ":");
	if (!d->n_ports)
		fprintf(f, " no ports");
	for (i = 0; i < d->n_ports; i++) {
		fprintf(f, "%s ", i ? ";" : "");
		print_port_summary(f, &d->ports[i]);
	}
	fprintf(f, "\n");
	fflush(f);
	return 0;
}
