// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "print.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct {
	FILE *f;
	bool json;
	bool pretty;
} out;

static FILE *ofile(void)
{
	return out.f ? out.f : stdout;
}

void sp_print_init(FILE *f, bool json, bool pretty)
{
	out.f = f;
	out.json = json || pretty;
	out.pretty = pretty;
}

bool sp_print_is_json(void)
{
	return out.json;
}

void sp_print_text(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(ofile(), fmt, ap);
	va_end(ap);
}

int sp_print_flush(void)
{
	FILE *f = ofile();

	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}

/* Prints and releases a JSON document, then a newline. */
static int emit_json(json_object *obj, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *s;

	if (!obj)
		return -ENOMEM;
	flags |= pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			: JSON_C_TO_STRING_PLAIN;
	s = json_object_to_json_string_ext(obj, flags);
	if (!s) {
		json_object_put(obj);
		return -ENOMEM;
	}
	fprintf(ofile(), "%s\n", s);
	json_object_put(obj);
	return 0;
}

/* ---- JSON --------------------------------------------------------------- */

static void add(json_object *obj, const char *key, json_object *val)
{
	json_object_object_add(obj, key, val);
}

static json_object *jstr_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* Gbit/s with the exact decimal digits of the Mbit/s value: 100.0, 2.5 */
static json_object *jgbps(uint32_t mbps)
{
	char num[SP_RATE_STRLEN];

	sp_fmt_gbps(mbps, num, sizeof(num) - 2);
	if (!strchr(num, '.'))
		strcat(num, ".0");
	return json_object_new_double_s(mbps / 1000.0, num);
}

static json_object *json_gid(const struct sp_gid *gid)
{
	json_object *obj = json_object_new_object();
	char buf[SP_GID_STRLEN];

	if (!obj)
		return NULL;
	add(obj, "index", json_object_new_int64(gid->index));
	add(obj, "type", json_object_new_string(sp_gid_type_str(gid->type)));
	add(obj, "gid", json_object_new_string(sp_fmt_gid(gid->raw, buf, sizeof(buf))));
	return obj;
}

json_object *sp_json_port(const struct sp_port *p)
{
	json_object *obj = json_object_new_object(), *gids;
	size_t i;

	if (!obj)
		return NULL;
	add(obj, "port", json_object_new_int64(p->num));
	add(obj, "state", json_object_new_string(sp_port_state_str(p->state)));
	add(obj, "physical_state", json_object_new_string(sp_phys_state_str(p->phys_state)));
	add(obj, "link_layer", json_object_new_string(sp_link_layer_str(p->link_layer)));
	add(obj, "active_mtu", json_object_new_int64(p->active_mtu));
	add(obj, "max_mtu", json_object_new_int64(p->max_mtu));
	add(obj, "active_speed", jstr_or_null(sp_speed_str(p->active_speed)));
	add(obj, "active_width", json_object_new_int(p->active_width));
	add(obj, "rate_gbit_per_s", jgbps(p->rate_mbps));
	if (p->has_netdev) {
		add(obj, "netdev", jstr_or_null(p->netdev_name[0] ? p->netdev_name : NULL));
		add(obj, "netdev_ifindex", json_object_new_int64(p->netdev_ifindex));
		add(obj, "netdev_mtu", json_object_new_int64(p->netdev_mtu));
		add(obj, "netdev_operstate",
		    json_object_new_string(sp_operstate_str(p->netdev_operstate)));
	} else {
		add(obj, "netdev", NULL);
		add(obj, "netdev_ifindex", NULL);
		add(obj, "netdev_mtu", NULL);
		add(obj, "netdev_operstate", NULL);
	}
	gids = json_object_new_array();
	for (i = 0; gids && i < p->n_gids; i++)
		json_object_array_add(gids, json_gid(&p->gids[i]));
	add(obj, "gids", gids);
	return obj;
}

static json_object *json_dev_head(const struct sp_dev *d)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	add(obj, "index", json_object_new_int64(d->index));
	add(obj, "name", json_object_new_string(d->name));
	return obj;
}

json_object *sp_json_dev(const struct sp_dev *d)
{
	json_object *obj = json_dev_head(d), *ports;
	char guid[SP_GUID_STRLEN];
	size_t i;

	if (!obj)
		return NULL;
	add(obj, "node_guid", json_object_new_string(sp_fmt_guid(d->node_guid, guid, sizeof(guid))));
	add(obj, "numa_node", json_object_new_int(d->numa_node));
	add(obj, "parent", jstr_or_null(d->has_parent ? d->parent : NULL));
	ports = json_object_new_array();
	for (i = 0; ports && i < d->n_ports; i++)
		json_object_array_add(ports, sp_json_port(&d->ports[i]));
	add(obj, "ports", ports);
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
	FILE *f = ofile();
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

	if (!out.json)
		return print_devs_text(devs, n);
	arr = json_object_new_array();
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *d = sp_json_dev(&devs[i]);

		if (!d) {
			json_object_put(arr);
			return -ENOMEM;
		}
		json_object_array_add(arr, d);
	}
	return emit_json(arr, out.pretty);
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
	FILE *f = ofile();
	size_t i;

	if (out.json) {
		json_object *obj = json_object_new_object();
		int ret;

		if (!obj)
			return -ENOMEM;
		add(obj, "event", json_object_new_string(event_json_name[ev->type]));
		if (ev->type == SP_DEV_EVENT_CHANGE && ev->has_port)
			add(obj, "port", json_object_new_int64(ev->port));
		/* a removed device is only named */
		add(obj, "dev", ev->type == SP_DEV_EVENT_DEL ? json_dev_head(d) : sp_json_dev(d));
		/* JSON lines: one compact object per line, even with -p */
		ret = emit_json(obj, false);
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

/* ---- version ------------------------------------------------------------ */

int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status)
{
	if (out.json) {
		json_object *obj = json_object_new_object(), *mod = NULL;

		if (!obj)
			return -ENOMEM;
		add(obj, "version", json_object_new_string(cli_version));
		if (info) {
			mod = json_object_new_object();
			if (mod) {
				add(mod, "version", json_object_new_string(info->version));
				add(mod, "kernel", info->kernel[0] ?
				    json_object_new_string(info->kernel) : NULL);
				add(mod, "devices", info->has_devices ?
				    json_object_new_int64(info->devices) : NULL);
			}
		}
		add(obj, "module", mod);
		if (!info)
			add(obj, "module_status", jstr_or_null(module_status));
		return emit_json(obj, out.pretty);
	}

	sp_print_text("sparkperf-ctl %s\n", cli_version);
	if (!info) {
		sp_print_text("module: %s\n", module_status ? module_status : "unknown");
		return 0;
	}
	sp_print_text("module: %s", info->version);
	if (info->kernel[0] && info->has_devices)
		sp_print_text(" (kernel %s, %u RDMA device%s)", info->kernel,
			      info->devices, info->devices == 1 ? "" : "s");
	else if (info->kernel[0])
		sp_print_text(" (kernel %s)", info->kernel);
	sp_print_text("\n");
	return 0;
}
