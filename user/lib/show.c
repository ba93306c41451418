// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/checklist.h"
#include "host/knobs.h"
#include "parse.h"
#include "show.h"
#include "session/stats.h"
#include "tracelog.h"

/* ---- JSON --------------------------------------------------------------- */

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
	sp_json_add(obj, "index", json_object_new_int64(gid->index));
	sp_json_add(obj, "type", json_object_new_string(sp_gid_type_str(gid->type)));
	sp_json_add(obj, "gid", json_object_new_string(sp_fmt_gid(gid->raw, buf, sizeof(buf))));
	return obj;
}

json_object *sp_json_port(const struct sp_port *p)
{
	json_object *obj = json_object_new_object(), *gids;
	size_t i;

	if (!obj)
		return NULL;
	sp_json_add(obj, "port", json_object_new_int64(p->num));
	sp_json_add(obj, "state", json_object_new_string(sp_port_state_str(p->state)));
	sp_json_add(obj, "physical_state", json_object_new_string(sp_phys_state_str(p->phys_state)));
	sp_json_add(obj, "link_layer", json_object_new_string(sp_link_layer_str(p->link_layer)));
	sp_json_add(obj, "active_mtu", json_object_new_int64(p->active_mtu));
	sp_json_add(obj, "max_mtu", json_object_new_int64(p->max_mtu));
	sp_json_add(obj, "active_speed", sp_json_str_or_null(sp_speed_str(p->active_speed)));
	sp_json_add(obj, "active_width", json_object_new_int(p->active_width));
	sp_json_add(obj, "rate_gbit_per_s", jgbps(p->rate_mbps));
	if (p->has_netdev) {
		sp_json_add(obj, "netdev", sp_json_str_or_null(p->netdev_name[0] ? p->netdev_name : NULL));
		sp_json_add(obj, "netdev_ifindex", json_object_new_int64(p->netdev_ifindex));
		sp_json_add(obj, "netdev_mtu", json_object_new_int64(p->netdev_mtu));
		sp_json_add(obj, "netdev_operstate",
		    json_object_new_string(sp_operstate_str(p->netdev_operstate)));
	} else {
		sp_json_add(obj, "netdev", NULL);
		sp_json_add(obj, "netdev_ifindex", NULL);
		sp_json_add(obj, "netdev_mtu", NULL);
		sp_json_add(obj, "netdev_operstate", NULL);
	}
	gids = json_object_new_array();
	for (i = 0; gids && i < p->n_gids; i++)
		json_object_array_add(gids, json_gid(&p->gids[i]));
	sp_json_add(obj, "gids", gids);
	return obj;
}

static json_object *json_dev_head(const struct sp_dev *d)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "index", json_object_new_int64(d->index));
	sp_json_add(obj, "name", json_object_new_string(d->name));
	return obj;
}

json_object *sp_json_dev(const struct sp_dev *d)
{
	json_object *obj = json_dev_head(d), *ports;
	char guid[SP_GUID_STRLEN];
	size_t i;

	if (!obj)
		return NULL;
	sp_json_add(obj, "node_guid", json_object_new_string(sp_fmt_guid(d->node_guid, guid, sizeof(guid))));
	sp_json_add(obj, "numa_node", json_object_new_int(d->numa_node));
	sp_json_add(obj, "parent", sp_json_str_or_null(d->has_parent ? d->parent : NULL));
	ports = json_object_new_array();
	for (i = 0; ports && i < d->n_ports; i++)
		json_object_array_add(ports, sp_json_port(&d->ports[i]));
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
		json_object *d = sp_json_dev(&devs[i]);

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
		sp_json_add(obj, "dev", ev->type == SP_DEV_EVENT_DEL ? json_dev_head(d) : sp_json_dev(d));
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

/* ---- version ------------------------------------------------------------ */

int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status)
{
	if (sp_print_is_json()) {
		json_object *obj = json_object_new_object(), *mod = NULL;

		if (!obj)
			return -ENOMEM;
		sp_json_add(obj, "version", json_object_new_string(cli_version));
		if (info) {
			mod = json_object_new_object();
			if (mod) {
				sp_json_add(mod, "version", json_object_new_string(info->version));
				sp_json_add(mod, "kernel", info->kernel[0] ?
				    json_object_new_string(info->kernel) : NULL);
				sp_json_add(mod, "devices", info->has_devices ?
				    json_object_new_int64(info->devices) : NULL);
			}
		}
		sp_json_add(obj, "module", mod);
		if (!info)
			sp_json_add(obj, "module_status", sp_json_str_or_null(module_status));
		return sp_print_json(obj);
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

/* ---- simple tables ------------------------------------------------------ */

/* ---- servers ------------------------------------------------------------ */

json_object *sp_json_server(const struct sp_server *srv)
{
	json_object *obj = json_object_new_object();
	char addr[SP_ADDR_STRLEN];

	if (!obj)
		return NULL;
	sp_json_add(obj, "id", json_object_new_int64(srv->id));
	sp_json_add(obj, "addr", srv->addr.len ?
	    json_object_new_string(sp_fmt_addr(&srv->addr, addr, sizeof(addr))) : NULL);
	sp_json_add(obj, "port", json_object_new_int(srv->port));
	sp_json_add(obj, "active", json_object_new_int64(srv->active));
	sp_json_add(obj, "served", json_object_new_uint64(srv->served));
	return obj;
}

int sp_print_server(const struct sp_server *srv)
{
	char addr[SP_ADDR_STRLEN];

	if (sp_print_is_json())
		return sp_print_json(sp_json_server(srv));
	fprintf(sp_print_file(), "server %u listening on %s port %u\n", srv->id,
		sp_fmt_addr(&srv->addr, addr, sizeof(addr)), srv->port);
	return 0;
}

int sp_print_servers(const struct sp_server *srvs, size_t n)
{
	struct sp_list *l = sp_list_begin();
	char addr[SP_ADDR_STRLEN];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_server *srv = &srvs[i];

		sp_fmt_addr(&srv->addr, addr, sizeof(addr));
		sp_list_record(l);
		sp_list_u64(l, "id", "ID", srv->id);
		sp_list_field(l, "addr", "ADDR", srv->addr.len ? json_object_new_string(addr) : NULL,
			      strdup(addr));
		sp_list_u64(l, "port", "PORT", srv->port);
		sp_list_u64(l, "active", "ACTIVE", srv->active);
		sp_list_u64(l, "served", "SERVED", srv->served);
	}
	return sp_list_end(l);
}

/* ---- latency: numbers --------------------------------------------------- */

/* usec with three decimals (ns resolution) */
static void fmt_usec(char *buf, size_t len, long double ns)
{
	snprintf(buf, len, "%.3Lf", ns / 1000);
}

static long double lat_mean(const struct sp_lat *l)
{
	return sp_stats_mean(l->count, l->sum_ns);
}

static long double lat_stdev(const struct sp_lat *l)
{
	return sp_stats_stdev(l->count, l->sum_ns, l->sumsq_hi, l->sumsq_lo);
}

/* ---- latency: text ------------------------------------------------------ */

enum {
	LC_BYTES, LC_ITERS, LC_WARMUP, LC_MIN, LC_P50, LC_P90, LC_P99, LC_P999,
	LC_P9999, LC_P99999, LC_MAX, LC_AVG, LC_STDEV, LC_OW_P50, LC_OW_AVG, LC_N
};

static const struct sp_fixed_col lat_col[LC_N] = {
	[LC_BYTES] = { "#bytes", 7 },
	[LC_ITERS] = { "#iterations", 11 },
	[LC_WARMUP] = { "#warmup", 7 },
	[LC_MIN] = { "rtt_min[usec]", 0 },
	[LC_P50] = { "rtt_p50[usec]", 0 },
	[LC_P90] = { "rtt_p90[usec]", 0 },
	[LC_P99] = { "rtt_p99[usec]", 0 },
	[LC_P999] = { "rtt_p99.9[usec]", 0 },
	[LC_P9999] = { "rtt_p99.99[usec]", 0 },
	[LC_P99999] = { "rtt_p99.999[usec]", 0 },
	[LC_MAX] = { "rtt_max[usec]", 0 },
	[LC_AVG] = { "rtt_avg[usec]", 0 },
	[LC_STDEV] = { "rtt_stdev[usec]", 0 },
	[LC_OW_P50] = { "oneway_p50[usec]", 0 },
	[LC_OW_AVG] = { "oneway_avg[usec]", 0 },
};

int sp_print_lat_header(const struct sp_lat *lat, const struct sp_env *env)
{
	const struct sp_lat_config *c = &lat->cfg;
	char peer[SP_ADDR_STRLEN];
	FILE *f = sp_print_file();

	fprintf(f, "RDMA %s latency: peer %s port %u", sp_lat_op_str(c->op),
		sp_fmt_addr(&c->peer, peer, sizeof(peer)), c->port);
	if (c->has_dev)
		fprintf(f, ", device %s", c->dev);
	if (c->has_cpu)
		fprintf(f, ", CPU %u", c->cpu);
	fprintf(f, "\n");
	if (c->has_duration)
		fprintf(f, "Run: %u ms", c->duration_ms);
	else if (c->has_iters)
		fprintf(f, "Run: %" PRIu64 " iterations", c->iters);
	else
		fprintf(f, "Run: default iterations");
	if (c->has_warmup)
		fprintf(f, " after %u warm-up iterations", c->warmup);
	fprintf(f, "\n");
	fprintf(f, "Clock: %s", env && env->clock_source ? env->clock_source : "unknown");
	if (lat->has_clock_res)
		fprintf(f, ", resolution %u ns", lat->clock_res_ns);
	fprintf(f, "\n");
	fprintf(f, "Times in usec: rtt_* are round trip times (RTT), oneway_* are RTT/2;\n"
		"percentiles from a histogram (within 0.4%%), min, max, avg and stdev exact\n");
	sp_print_fixed(lat_col, LC_N, NULL, NULL);
	return 0;
}

int sp_print_lat_row(const struct sp_lat *l)
{
	char cell[LC_N][SP_CELL_MAX];
	long double mean;

	if (!l->count)
		return 0;
	mean = lat_mean(l);
	snprintf(cell[LC_BYTES], sizeof(cell[0]), "%u", l->cfg.size);
	snprintf(cell[LC_ITERS], sizeof(cell[0]), "%" PRIu64, l->count);
	snprintf(cell[LC_WARMUP], sizeof(cell[0]), "%" PRIu64, l->warmup_done);
	fmt_usec(cell[LC_MIN], sizeof(cell[0]), l->min_ns);
	fmt_usec(cell[LC_P50], sizeof(cell[0]), l->p50_ns);
	fmt_usec(cell[LC_P90], sizeof(cell[0]), l->p90_ns);
	fmt_usec(cell[LC_P99], sizeof(cell[0]), l->p99_ns);
	fmt_usec(cell[LC_P999], sizeof(cell[0]), l->p999_ns);
	fmt_usec(cell[LC_P9999], sizeof(cell[0]), l->p9999_ns);
	fmt_usec(cell[LC_P99999], sizeof(cell[0]), l->p99999_ns);
	fmt_usec(cell[LC_MAX], sizeof(cell[0]), l->max_ns);
	fmt_usec(cell[LC_AVG], sizeof(cell[0]), mean);
	fmt_usec(cell[LC_STDEV], sizeof(cell[0]), lat_stdev(l));
	fmt_usec(cell[LC_OW_P50], sizeof(cell[0]), sp_stats_one_way((double)l->p50_ns));
	fmt_usec(cell[LC_OW_AVG], sizeof(cell[0]), mean / 2);
	sp_print_fixed(lat_col, LC_N, cell, NULL);
	return 0;
}

/* ---- latency: JSON ------------------------------------------------------ */

static json_object *json_lat_config(const struct sp_lat *l, const struct sp_lat_config *req)
{
	const struct sp_lat_config *c = &l->cfg;
	json_object *obj = json_object_new_object();
	char peer[SP_ADDR_STRLEN];

	if (!obj)
		return NULL;
	sp_json_add(obj, "peer", c->peer.len ?
	    json_object_new_string(sp_fmt_addr(&c->peer, peer, sizeof(peer))) : NULL);
	sp_json_add(obj, "port", c->has_port ? json_object_new_int(c->port) : NULL);
	sp_json_add(obj, "op", c->has_op ? json_object_new_string(sp_lat_op_str(c->op)) : NULL);
	sp_json_add(obj, "size_bytes", c->has_size ? json_object_new_int64(c->size) : NULL);
	sp_json_add(obj, "iters", c->has_iters ? sp_json_u64(c->iters) : NULL);
	sp_json_add(obj, "duration_ms", c->has_duration ? json_object_new_int64(c->duration_ms) : NULL);
	sp_json_add(obj, "warmup", c->has_warmup ? json_object_new_int64(c->warmup) : NULL);
	sp_json_add(obj, "samples_max", c->has_samples_max ?
	    json_object_new_int64(c->samples_max) : NULL);
	sp_json_add(obj, "interval_ms", c->has_interval ? json_object_new_int64(c->interval_ms) : NULL);
	/* what was asked for; the device and CPU used are outside "config" */
	sp_json_add(obj, "dev", req && req->has_dev ? json_object_new_string(req->dev) : NULL);
	sp_json_add(obj, "cpu", req && req->has_cpu ? json_object_new_int64(req->cpu) : NULL);
	return obj;
}

static json_object *json_interval(const struct sp_interval *iv)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "end_ns", sp_json_u64(iv->end_ns));
	sp_json_add(obj, "count", sp_json_u64(iv->count));
	sp_json_add(obj, "p50_ns", sp_json_u64(iv->p50_ns));
	sp_json_add(obj, "p99_ns", sp_json_u64(iv->p99_ns));
	sp_json_add(obj, "max_ns", sp_json_u64(iv->max_ns));
	return obj;
}

json_object *sp_json_lat(const struct sp_lat *l, const struct sp_lat_config *req,
			 const struct sp_env *env)
{
	json_object *obj = json_object_new_object(), *err = NULL, *ivs;
	char sumsq[SP_U128_STRLEN];
	bool m = l->count > 0;
	long double mean = lat_mean(l);
	size_t i;

	if (!obj)
		return NULL;
	if (env) {
		sp_json_add(obj, "tool_version", sp_json_str_or_null(env->tool_version));
		sp_json_add(obj, "module_version", sp_json_str_or_null(env->module_version));
		sp_json_add(obj, "kernel_release", sp_json_str_or_null(env->kernel_release));
		sp_json_add(obj, "host", sp_json_str_or_null(env->host));
		sp_json_add(obj, "clock_source", sp_json_str_or_null(env->clock_source));
	}
	sp_json_add(obj, "clock_resolution_ns", l->has_clock_res ?
	    json_object_new_int64(l->clock_res_ns) : NULL);
	sp_json_add(obj, "id", json_object_new_int64(l->id));
	sp_json_add(obj, "state", json_object_new_string(sp_lat_state_str(l->state)));
	if (l->has_error || l->has_error_msg) {
		err = json_object_new_object();
		if (err) {
			int e = l->error < 0 ? -l->error : l->error;
			const char *m = sp_session_error(l->has_error_msg, l->error_msg,
							 l->has_error, l->error);

			sp_json_add(err, "errno", l->has_error ? json_object_new_int(e) : NULL);
			sp_json_add(err, "message", json_object_new_string(m ? m : "unknown error"));
		}
	}
	sp_json_add(obj, "error", err);
	sp_json_add(obj, "config", json_lat_config(l, req));
	sp_json_add(obj, "dev", l->cfg.has_dev ? json_object_new_string(l->cfg.dev) : NULL);
	sp_json_add(obj, "cpu", l->cfg.has_cpu ? json_object_new_int64(l->cfg.cpu) : NULL);
	sp_json_add(obj, "size_bytes", l->cfg.has_size ? json_object_new_int64(l->cfg.size) : NULL);
	sp_json_add(obj, "count", sp_json_u64(l->count));
	sp_json_add(obj, "warmup_count", sp_json_u64(l->warmup_done));
	sp_json_add(obj, "elapsed_ns", sp_json_u64(l->elapsed_ns));
	sp_json_add(obj, "yields", sp_json_u64(l->yields));
	sp_json_add(obj, "round_trips_with_yield", sp_json_u64(l->rt_yields));
	sp_json_add(obj, "rtt_min_ns", m ? sp_json_u64(l->min_ns) : NULL);
	sp_json_add(obj, "rtt_p50_ns", m ? sp_json_u64(l->p50_ns) : NULL);
	sp_json_add(obj, "rtt_p90_ns", m ? sp_json_u64(l->p90_ns) : NULL);
	sp_json_add(obj, "rtt_p99_ns", m ? sp_json_u64(l->p99_ns) : NULL);
	sp_json_add(obj, "rtt_p999_ns", m ? sp_json_u64(l->p999_ns) : NULL);
	sp_json_add(obj, "rtt_p9999_ns", m ? sp_json_u64(l->p9999_ns) : NULL);
	sp_json_add(obj, "rtt_p99999_ns", m ? sp_json_u64(l->p99999_ns) : NULL);
	sp_json_add(obj, "rtt_max_ns", m ? sp_json_u64(l->max_ns) : NULL);
	sp_json_add(obj, "rtt_avg_ns", m ? sp_json_ns3(mean) : NULL);
	sp_json_add(obj, "rtt_stdev_ns", m ? sp_json_ns3(lat_stdev(l)) : NULL);
	sp_json_add(obj, "rtt_sum_ns", sp_json_u64(l->sum_ns));
	sp_json_add(obj, "rtt_sumsq_ns2", json_object_new_string(
		    sp_stats_u128_str(l->sumsq_hi, l->sumsq_lo, sumsq, sizeof(sumsq))));
	sp_json_add(obj, "one_way_p50_ns", m ? sp_json_ns3(sp_stats_one_way((double)l->p50_ns)) : NULL);
	sp_json_add(obj, "one_way_avg_ns", m ? sp_json_ns3(mean / 2) : NULL);
	ivs = json_object_new_array();
	for (i = 0; ivs && i < l->n_intervals; i++)
		json_object_array_add(ivs, json_interval(&l->intervals[i]));
	sp_json_add(obj, "intervals", ivs);
	return obj;
}

int sp_print_lat_json(const struct sp_lat *lats, size_t n, const struct sp_lat_config *req,
		      const struct sp_env *env)
{
	return sp_print_lat_json_traces(lats, n, req, env, NULL);
}

int sp_print_lat_json_traces(const struct sp_lat *lats, size_t n,
			     const struct sp_lat_config *req, const struct sp_env *env,
			     const struct sp_tracelog *const *traces)
{
	json_object *arr = json_object_new_array();
	size_t i;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *o = sp_json_lat(&lats[i], req, env);

		if (o && traces && traces[i])
			sp_json_add(o, "trace", sp_json_trace_report(traces[i], false));
		if (!o) {
			json_object_put(arr);
			return -ENOMEM;
		}
		json_object_array_add(arr, o);
	}
	return sp_print_json(arr);
}

static char *lat_cell(const void *rows, size_t row, size_t col)
{
	const struct sp_lat *l = (const struct sp_lat *)rows + row;
	char buf[SP_ADDR_STRLEN];

	switch (col) {
	case 0:
		return sp_xprintf("%u", l->id);
	case 1:
		return strdup(l->cfg.peer.len ? sp_fmt_addr(&l->cfg.peer, buf, sizeof(buf)) : "-");
	case 2:
		return l->cfg.has_port ? sp_xprintf("%u", l->cfg.port) : strdup("-");
	case 3:
		return strdup(l->cfg.has_dev ? l->cfg.dev : "-");
	case 4:
		return strdup(l->cfg.has_op ? sp_lat_op_str(l->cfg.op) : "-");
	case 5:
		return l->cfg.has_size ? sp_xprintf("%u", l->cfg.size) : strdup("-");
	case 6:
		return strdup(sp_lat_state_str(l->state));
	case 7:
		return sp_xprintf("%" PRIu64, l->count);
	case 8:
		if (!l->count)
			return strdup("-");
		fmt_usec(buf, sizeof(buf), l->p50_ns);
		return strdup(buf);
	default:
		if (!l->count)
			return strdup("-");
		fmt_usec(buf, sizeof(buf), l->p99_ns);
		return strdup(buf);
	}
}

int sp_print_lats(const struct sp_lat *lats, size_t n)
{
	static const char *const header[] = {
		"ID", "PEER", "PORT", "DEV", "OP", "BYTES", "STATE", "COUNT",
		"RTT_P50[usec]", "RTT_P99[usec]",
	};

	if (sp_print_is_json())
		return sp_print_lat_json(lats, n, NULL, NULL);
	return sp_print_table(header, ARRAY_SIZE(header), n, lat_cell, lats);
}

char *sp_fmt_lat_progress(char *buf, size_t len, uint32_t size,
			  const struct sp_lat_progress *p,
			  const struct sp_interval *last)
{
	char p50[32], p99[32];

	switch (p->state) {
	case SPARKPERF_LAT_STATE_CONNECTING:
		snprintf(buf, len, "%u B: connecting", size);
		break;
	case SPARKPERF_LAT_STATE_RUNNING:
		if (!p->count) {
			snprintf(buf, len, "%u B: warm-up, %" PRIu64 " iterations", size,
				 p->warmup_done);
			break;
		}
		if (!last) {
			snprintf(buf, len, "%u B: %" PRIu64 " round trips", size, p->count);
			break;
		}
		fmt_usec(p50, sizeof(p50), last->p50_ns);
		fmt_usec(p99, sizeof(p99), last->p99_ns);
		snprintf(buf, len, "%u B: %" PRIu64 " round trips; last interval: RTT p50 %s usec, "
			 "p99 %s usec", size, p->count, p50, p99);
		break;
	default:
		snprintf(buf, len, "%u B: %s, %" PRIu64 " round trips", size,
			 sp_lat_state_str(p->state), p->count);
		break;
	}
	return buf;
}

/* ---- bandwidth: pieces -------------------------------------------------- */

static const char *bw_error(const struct sp_bw *b)
{
	return sp_session_error(b->has_error_msg, b->error_msg, b->has_error, b->error);
}

/* ---- bandwidth: JSON ---------------------------------------------------- */

static json_object *json_bw_interval(const struct sp_bw *b, size_t i)
{
	const struct sp_interval *iv = &b->intervals[i];
	json_object *obj = json_object_new_object();
	double gbps;

	if (!obj)
		return NULL;
	sp_json_add(obj, "end_ns", sp_json_u64(iv->end_ns));
	sp_json_add(obj, "bytes", sp_json_u64(iv->bytes));
	sp_json_add(obj, "msgs", sp_json_u64(iv->count));
	sp_json_add(obj, "gbit_per_s", sp_stats_bw_interval_gbps(b, i, &gbps) ? sp_json_fixed(gbps, 6) : NULL);
	return obj;
}

static json_object *json_ivl_stats(const struct sp_bw *b)
{
	json_object *obj = json_object_new_object();
	struct sp_ivl_stats st;
	bool has;

	if (!obj)
		return NULL;
	has = !sp_stats_bw_intervals(b, &st) && st.n;
	sp_json_add(obj, "min", has ? sp_json_fixed(st.min, 6) : NULL);
	sp_json_add(obj, "p50", has ? sp_json_fixed(st.p50, 6) : NULL);
	sp_json_add(obj, "max", has ? sp_json_fixed(st.max, 6) : NULL);
	return obj;
}

json_object *sp_json_bw(const struct sp_bw *b)
{
	const struct sp_bw_config *c = &b->cfg;
	json_object *obj = json_object_new_object(), *ivs;
	char peer[SP_ADDR_STRLEN];
	const char *err = bw_error(b);
	struct sp_rates r;
	double pct;
	size_t i;

	if (!obj)
		return NULL;
	sp_stats_bw_rates(b, &r);
	sp_json_add(obj, "id", json_object_new_int64(b->id));
	sp_json_add(obj, "peer", c->peer.len ?
	    json_object_new_string(sp_fmt_addr(&c->peer, peer, sizeof(peer))) : NULL);
	sp_json_add(obj, "port", sp_json_u32_or_null(c->has_port, c->port));
	sp_json_add(obj, "dev", c->has_dev ? json_object_new_string(c->dev) : NULL);
	sp_json_add(obj, "op", c->has_op ? json_object_new_string(sp_lat_op_str(c->op)) : NULL);
	sp_json_add(obj, "size_bytes", sp_json_u32_or_null(c->has_size, c->size));
	sp_json_add(obj, "qps", sp_json_u32_or_null(c->has_qps, c->qps));
	sp_json_add(obj, "threads", sp_json_u32_or_null(c->has_threads, c->threads));
	sp_json_add(obj, "depth", sp_json_u32_or_null(c->has_depth, c->depth));
	sp_json_add(obj, "signal", sp_json_u32_or_null(c->has_signal, c->signal));
	sp_json_add(obj, "iters", c->has_iters ? sp_json_u64(c->iters) : NULL);
	sp_json_add(obj, "duration_ms", sp_json_u32_or_null(c->has_duration, c->duration_ms));
	sp_json_add(obj, "bidir", json_object_new_boolean(c->bidir));
	sp_json_add(obj, "validate", json_object_new_boolean(c->validate));
	sp_json_add(obj, "interval_ms", sp_json_u32_or_null(c->has_interval, c->interval_ms));
	sp_json_add(obj, "state", json_object_new_string(sp_lat_state_str(b->state)));
	sp_json_add(obj, "error", b->has_error ? json_object_new_int(b->error < 0 ? -b->error : b->error) :
	    NULL);
	sp_json_add(obj, "error_msg", sp_json_str_or_null(err));
	sp_json_add(obj, "start_ns", b->has_start ? sp_json_u64(b->start_ns) : NULL);
	sp_json_add(obj, "elapsed_ns", sp_json_u64(b->elapsed_ns));
	sp_json_add(obj, "tx_bytes", sp_json_u64(b->tx_bytes));
	sp_json_add(obj, "tx_msgs", sp_json_u64(b->tx_msgs));
	sp_json_add(obj, "rx_bytes", sp_json_u64(b->rx_bytes));
	sp_json_add(obj, "rx_msgs", sp_json_u64(b->rx_msgs));
	sp_json_add(obj, "bytes", sp_json_u64(sp_stats_bw_bytes(b)));
	sp_json_add(obj, "msgs", sp_json_u64(sp_stats_bw_msgs(b)));
	sp_json_add(obj, "gbit_per_s", r.valid ? sp_json_fixed(r.gbit_per_s, 6) : NULL);
	sp_json_add(obj, "mb_per_s", r.valid ? sp_json_fixed(r.mb_per_s, 3) : NULL);
	sp_json_add(obj, "msg_per_s", r.valid ? sp_json_fixed(r.msg_per_s, 3) : NULL);
	sp_json_add(obj, "validate_errors", b->has_validate_errors ? sp_json_u64(b->validate_errors) : NULL);
	sp_json_add(obj, "cpu_ns", b->has_cpu ? sp_json_u64(b->cpu_ns) : NULL);
	sp_json_add(obj, "cpu_percent", b->has_cpu && sp_stats_cpu_percent(b->cpu_ns, b->elapsed_ns, &pct) ?
	    sp_json_fixed(pct, 2) : NULL);
	ivs = json_object_new_array();
	for (i = 0; ivs && i < b->n_intervals; i++)
		json_object_array_add(ivs, json_bw_interval(b, i));
	sp_json_add(obj, "intervals", ivs);
	sp_json_add(obj, "interval_gbit_per_s", json_ivl_stats(b));
	return obj;
}

/* The sessions of bws[0..n-1] as a new array. */
static json_object *json_bws(const struct sp_bw *bws, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++) {
		json_object *o = sp_json_bw(&bws[i]);

		if (!o) {
			json_object_put(arr);
			return NULL;
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_bw_aggregate(const struct sp_bw *bws, size_t n)
{
	json_object *obj = json_object_new_object();
	struct sp_bw_aggregate a;

	if (!obj)
		return NULL;
	sp_stats_bw_aggregate(bws, n, &a);
	sp_json_add(obj, "sessions", json_object_new_int64((int64_t)a.sessions));
	sp_json_add(obj, "bytes", sp_json_u64(a.bytes));
	sp_json_add(obj, "msgs", sp_json_u64(a.msgs));
	sp_json_add(obj, "gbit_per_s", a.rates.valid ? sp_json_fixed(a.rates.gbit_per_s, 6) : NULL);
	sp_json_add(obj, "mb_per_s", a.rates.valid ? sp_json_fixed(a.rates.mb_per_s, 3) : NULL);
	sp_json_add(obj, "msg_per_s", a.rates.valid ? sp_json_fixed(a.rates.msg_per_s, 3) : NULL);
	sp_json_add(obj, "start_skew_ns", a.has_skew ? sp_json_u64(a.start_skew_ns) : NULL);
	sp_json_add(obj, "cpu_percent", a.has_cpu ? sp_json_fixed(a.cpu_percent, 2) : NULL);
	sp_json_add(obj, "validate_errors", a.has_validate_errors ? sp_json_u64(a.validate_errors) : NULL);
	return obj;
}

static json_object *json_bw_run(const struct sp_bw_run *run, const struct sp_env *env)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "size_bytes", sp_json_u64(run->size));
	sp_json_add(obj, "sessions", json_bws(run->bws, run->n));
	sp_json_add(obj, "aggregate", json_bw_aggregate(run->bws, run->n));
	sp_json_add(obj, "start_at_ns", run->has_start_at ? sp_json_u64(run->start_at_ns) : NULL);
	if (run->trace)
		sp_json_add(obj, "trace", sp_json_trace_report(run->trace, false));
	if (env) {
		sp_json_add(obj, "tool_version", sp_json_str_or_null(env->tool_version));
		sp_json_add(obj, "module_version", sp_json_str_or_null(env->module_version));
		sp_json_add(obj, "kernel_release", sp_json_str_or_null(env->kernel_release));
		sp_json_add(obj, "host", sp_json_str_or_null(env->host));
	}
	return obj;
}

int sp_print_bw_json(const struct sp_bw_run *runs, size_t n, const struct sp_env *env)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++) {
		json_object *o = json_bw_run(&runs[i], env);

		if (!o) {
			json_object_put(arr);
			return -ENOMEM;
		}
		json_object_array_add(arr, o);
	}
	return sp_print_json(arr);
}

/* ---- bandwidth: text ---------------------------------------------------- */

enum {
	BC_ID, BC_DEV, BC_PEER, BC_OP, BC_SIZE, BC_QPS, BC_THREADS, BC_STATE, BC_BYTES,
	BC_MSGS, BC_GBPS, BC_MBPS, BC_MMSGS, BC_IMIN, BC_IP50, BC_IMAX, BC_CPU, BC_VERR, BC_N
};

static const struct sp_fixed_col bw_col[BC_N] = {
	[BC_ID] = { "id", 3 },
	[BC_DEV] = { "dev", 12 },
	[BC_PEER] = { "peer", 14 },
	[BC_OP] = { "op", 5 },
	[BC_SIZE] = { "size[B]", 0 },
	[BC_QPS] = { "qps", 0 },
	[BC_THREADS] = { "threads", 0 },
	[BC_STATE] = { "state", 7 },
	[BC_BYTES] = { "bytes[B]", 11 },
	[BC_MSGS] = { "msgs", 8 },
	[BC_GBPS] = { "Gbit/s", 7 },
	[BC_MBPS] = { "MB/s", 9 },
	[BC_MMSGS] = { "Mmsg/s", 0 },
	[BC_IMIN] = { "ivl_min[Gbit/s]", 0 },
	[BC_IP50] = { "ivl_p50[Gbit/s]", 0 },
	[BC_IMAX] = { "ivl_max[Gbit/s]", 0 },
	[BC_CPU] = { "cpu[%]", 0 },
	[BC_VERR] = { "validate_errors", 0 },
};

typedef char bw_cells[BC_N][SP_CELL_MAX];

static void cell_u32(char *cell, bool has, uint32_t v)
{
	if (has)
		snprintf(cell, SP_CELL_MAX, "%u", v);
	else
		snprintf(cell, SP_CELL_MAX, "-");
}

/* The columns from bytes on, shared by the sessions and the sum. */
static void bw_tail_cells(bw_cells cell, uint64_t bytes, uint64_t msgs, const struct sp_rates *r,
			  bool has_cpu, double cpu, bool has_verr, uint64_t verr)
{
	snprintf(cell[BC_BYTES], SP_CELL_MAX, "%" PRIu64, bytes);
	snprintf(cell[BC_MSGS], SP_CELL_MAX, "%" PRIu64, msgs);
	if (r->valid) {
		snprintf(cell[BC_GBPS], SP_CELL_MAX, "%.3f", r->gbit_per_s);
		snprintf(cell[BC_MBPS], SP_CELL_MAX, "%.2f", r->mb_per_s);
		snprintf(cell[BC_MMSGS], SP_CELL_MAX, "%.3f", r->msg_per_s / 1e6);
	} else {
		snprintf(cell[BC_GBPS], SP_CELL_MAX, "-");
		snprintf(cell[BC_MBPS], SP_CELL_MAX, "-");
		snprintf(cell[BC_MMSGS], SP_CELL_MAX, "-");
	}
	if (has_cpu)
		snprintf(cell[BC_CPU], SP_CELL_MAX, "%.1f", cpu);
	else
		snprintf(cell[BC_CPU], SP_CELL_MAX, "-");
	if (has_verr)
		snprintf(cell[BC_VERR], SP_CELL_MAX, "%" PRIu64, verr);
	else
		snprintf(cell[BC_VERR], SP_CELL_MAX, "-");
}

static void bw_session_cells(const struct sp_bw *b, bw_cells cell)
{
	const struct sp_bw_config *c = &b->cfg;
	char peer[SP_ADDR_STRLEN];
	struct sp_ivl_stats st;
	struct sp_rates r;
	double cpu = 0;
	bool has_cpu;

	snprintf(cell[BC_ID], SP_CELL_MAX, "%u", b->id);
	snprintf(cell[BC_DEV], SP_CELL_MAX, "%s", c->has_dev ? c->dev : "-");
	snprintf(cell[BC_PEER], SP_CELL_MAX, "%s",
		 c->peer.len ? sp_fmt_addr(&c->peer, peer, sizeof(peer)) : "-");
	snprintf(cell[BC_OP], SP_CELL_MAX, "%s", c->has_op ? sp_lat_op_str(c->op) : "-");
	cell_u32(cell[BC_SIZE], c->has_size, c->size);
	cell_u32(cell[BC_QPS], c->has_qps, c->qps);
	cell_u32(cell[BC_THREADS], c->has_threads, c->threads);
	snprintf(cell[BC_STATE], SP_CELL_MAX, "%s", sp_lat_state_str(b->state));
	if (!sp_stats_bw_intervals(b, &st) && st.n) {
		snprintf(cell[BC_IMIN], SP_CELL_MAX, "%.3f", st.min);
		snprintf(cell[BC_IP50], SP_CELL_MAX, "%.3f", st.p50);
		snprintf(cell[BC_IMAX], SP_CELL_MAX, "%.3f", st.max);
	} else {
		snprintf(cell[BC_IMIN], SP_CELL_MAX, "-");
		snprintf(cell[BC_IP50], SP_CELL_MAX, "-");
		snprintf(cell[BC_IMAX], SP_CELL_MAX, "-");
	}
	sp_stats_bw_rates(b, &r);
	has_cpu = b->has_cpu && sp_stats_cpu_percent(b->cpu_ns, b->elapsed_ns, &cpu);
	bw_tail_cells(cell, sp_stats_bw_bytes(b), sp_stats_bw_msgs(b), &r, has_cpu, cpu,
		      b->has_validate_errors, b->validate_errors);
}

/* The sum row: what all the sessions share, or "-"; counts and rates added. */
static void bw_sum_cells(const struct sp_bw *bws, size_t n, const struct sp_bw_aggregate *a,
			 bw_cells cell)
{
	const struct sp_bw_config *c0 = &bws[0].cfg;
	bool same_op = c0->has_op, same_size = c0->has_size, same_state = true;
	bool has_qps = true, has_threads = true;
	uint32_t qps = 0, threads = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sp_bw_config *c = &bws[i].cfg;

		same_op = same_op && c->has_op && c->op == c0->op;
		same_size = same_size && c->has_size && c->size == c0->size;
		same_state = same_state && bws[i].state == bws[0].state;
		has_qps = has_qps && c->has_qps;
		has_threads = has_threads && c->has_threads;
		qps += c->qps;
		threads += c->threads;
	}
	snprintf(cell[BC_ID], SP_CELL_MAX, "sum");
	snprintf(cell[BC_DEV], SP_CELL_MAX, "-");
	snprintf(cell[BC_PEER], SP_CELL_MAX, "-");
	snprintf(cell[BC_OP], SP_CELL_MAX, "%s", same_op ? sp_lat_op_str(c0->op) : "-");
	cell_u32(cell[BC_SIZE], same_size, c0->size);
	cell_u32(cell[BC_QPS], has_qps, qps);
	cell_u32(cell[BC_THREADS], has_threads, threads);
	snprintf(cell[BC_STATE], SP_CELL_MAX, "%s",
		 same_state ? sp_lat_state_str(bws[0].state) : "-");
	snprintf(cell[BC_IMIN], SP_CELL_MAX, "-");
	snprintf(cell[BC_IP50], SP_CELL_MAX, "-");
	snprintf(cell[BC_IMAX], SP_CELL_MAX, "-");
	bw_tail_cells(cell, a->bytes, a->msgs, &a->rates, a->has_cpu, a->cpu_percent,
		      a->has_validate_errors, a->validate_errors);
}

static void print_bw_rows(const struct sp_bw *bws, size_t n, bool validate, bool sum)
{
	size_t ncols = validate ? BC_N : BC_VERR, i;
	struct sp_bw_aggregate a;
	char tail[SP_LAT_ERRMSG_MAX + 16];
	bw_cells cell;

	for (i = 0; i < n; i++) {
		const char *err = bw_error(&bws[i]);

		bw_session_cells(&bws[i], cell);
		if (bws[i].state == SPARKPERF_LAT_STATE_FAILED)
			snprintf(tail, sizeof(tail), "error: %s", err ? err : "unknown");
		sp_print_fixed(bw_col, ncols, cell,
			    bws[i].state == SPARKPERF_LAT_STATE_FAILED ? tail : NULL);
	}
	if (!sum || n < 2)
		return;
	sp_stats_bw_aggregate(bws, n, &a);
	bw_sum_cells(bws, n, &a, cell);
	if (a.has_skew)
		snprintf(tail, sizeof(tail), "start skew %.3f usec", (double)a.start_skew_ns / 1000);
	sp_print_fixed(bw_col, ncols, cell, a.has_skew ? tail : NULL);
}

int sp_print_bw_header(const struct sp_bw_config *c, size_t sessions)
{
	FILE *f = sp_print_file();

	fprintf(f, "RDMA %s bandwidth: %zu session%s, %u QP%s and %u thread%s each, depth %u, "
		"a completion every %u\n", sp_lat_op_str(c->op), sessions,
		sessions == 1 ? "" : "s started together", c->qps, c->qps == 1 ? "" : "s",
		c->threads, c->threads == 1 ? "" : "s", c->depth, c->signal);
	if (c->has_duration)
		fprintf(f, "Run: %u ms", c->duration_ms);
	else
		fprintf(f, "Run: %" PRIu64 " messages per QP", c->iters);
	fprintf(f, ", %s%s\n", c->bidir ? "both directions" : "one direction",
		c->validate ? ", data validated" : "");
	fprintf(f, "Rates of payload (no headers): Gbit/s = 10^9 bit/s, MB/s = 10^6 byte/s, "
		"Mmsg/s = 10^6 messages/s\n");
	fprintf(f, "ivl_*: rates over the %u ms intervals (min, median, max); cpu[%%]: CPU time "
		"of the sending threads / elapsed time (100 = one CPU)\n", c->interval_ms);
	sp_print_fixed(bw_col, c->validate ? BC_N : BC_VERR, NULL, NULL);
	return 0;
}

int sp_print_bw_rows(const struct sp_bw *bws, size_t n, bool validate)
{
	print_bw_rows(bws, n, validate, true);
	return 0;
}

static bool any_validate(const struct sp_bw *bws, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (bws[i].cfg.validate)
			return true;
	return false;
}

int sp_print_bws(const struct sp_bw *bws, size_t n)
{
	bool validate = any_validate(bws, n);

	if (sp_print_is_json())
		return sp_print_json(json_bws(bws, n));
	if (!n)
		return 0;
	sp_print_fixed(bw_col, validate ? BC_N : BC_VERR, NULL, NULL);
	print_bw_rows(bws, n, validate, false);
	return 0;
}

static char *bw_interval_cell(const void *rows, size_t row, size_t col)
{
	const struct sp_bw *b = rows;
	const struct sp_interval *iv = &b->intervals[row];
	double gbps;

	switch (col) {
	case 0:
		return sp_xprintf("%zu", row + 1);
	case 1:
		return sp_xprintf("%.3f", (double)iv->end_ns / 1e6);
	case 2:
		return sp_xprintf("%" PRIu64, iv->bytes);
	case 3:
		return sp_xprintf("%" PRIu64, iv->count);
	default:
		if (!sp_stats_bw_interval_gbps(b, row, &gbps))
			return strdup("-");
		return sp_xprintf("%.3f", gbps);
	}
}

int sp_print_bw(const struct sp_bw *b)
{
	static const char *const header[] = {
		"interval", "end[ms]", "bytes[B]", "msgs", "Gbit/s",
	};

	if (sp_print_is_json())
		return sp_print_json(json_bws(b, 1));
	sp_print_bws(b, 1);
	if (!b->n_intervals)
		return 0;
	fprintf(sp_print_file(), "\n");
	return sp_print_table(header, ARRAY_SIZE(header), b->n_intervals, bw_interval_cell, b);
}

char *sp_fmt_bw_progress(char *buf, size_t len, const struct sp_bw_line *l)
{
	char size[SP_SIZE_STRLEN], state[64], ended[32] = "";

	sp_fmt_size(l->size, size, sizeof(size));
	if (l->has_time && l->has_rate)
		snprintf(state, sizeof(state), "%.1f s, %.3f Gbit/s now",
			 (double)l->elapsed_ns / 1e9, l->gbit_per_s);
	else if (l->has_time)
		snprintf(state, sizeof(state), "%.1f s", (double)l->elapsed_ns / 1e9);
	else
		snprintf(state, sizeof(state), "%s", l->running ? "running" :
			 l->ended == l->sessions ? "ended" : "connecting");
	if (l->ended && l->ended < l->sessions)
		snprintf(ended, sizeof(ended), ", %zu ended", l->ended);
	snprintf(buf, len, "bw %s %s: %s, %zu session%s%s", sp_lat_op_str(l->op), size, state,
		 l->sessions, l->sessions == 1 ? "" : "s", ended);
	return buf;
}

/* ---- raw samples -------------------------------------------------------- */

int sp_print_samples_csv_header(FILE *f, bool with_bytes)
{
	fprintf(f, "%siteration,start_ns,rtt_ns\n", with_bytes ? "bytes," : "");
	return ferror(f) ? -EIO : 0;
}

int sp_print_samples_csv(FILE *f, const struct sp_lat_samples *s, bool with_bytes,
			 uint32_t bytes)
{
	uint64_t start, rtt;
	size_t i;

	for (i = 0; i < s->n; i++) {
		sp_lat_samples_get(s, i, &start, &rtt);
		if (with_bytes)
			fprintf(f, "%u,", bytes);
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s->first + i, start, rtt);
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- counters and traces ------------------------------------------------ */

/* The JSON key of a rate of unit: "bits_per_second", "packets_per_second" ... */
static const char *rate_key(enum sp_counter_unit unit)
{
	switch (unit) {
	case SP_UNIT_BYTES:
		return "bits_per_second";
	case SP_UNIT_PACKETS:
		return "packets_per_second";
	case SP_UNIT_USEC:
		return "us_per_second";
	default:
		return "per_second";
	}
}

/* What one unit of a counter is, in words: "bytes", "packets", "us", "events". */
static const char *unit_word(enum sp_counter_unit unit)
{
	switch (unit) {
	case SP_UNIT_BYTES:
		return "bytes";
	case SP_UNIT_PACKETS:
		return "packets";
	case SP_UNIT_USEC:
		return "us";
	default:
		return "events";
	}
}

char *sp_fmt_counter_rate(char *buf, size_t len, double rate, enum sp_counter_unit unit)
{
	if (unit == SP_UNIT_BYTES)
		snprintf(buf, len, "%.3f Gbit/s", rate / 1e9);
	else
		snprintf(buf, len, "%.1f %s", rate, sp_counter_rate_unit(unit));
	return buf;
}

/* "eth0", "rxe0/1": a stream's target */
static char *stream_target(const struct sp_stream *st, char *buf, size_t len)
{
	if (st->has_port)
		snprintf(buf, len, "%s/%u", st->target, st->port);
	else
		snprintf(buf, len, "%s", st->target);
	return buf;
}

static void json_stream_head(json_object *o, const struct sp_stream *st)
{
	sp_json_add(o, "index", json_object_new_int64(st->index));
	sp_json_add(o, "source", json_object_new_string(sp_counter_source_str(st->source)));
	sp_json_add(o, "target", json_object_new_string(st->target));
	if (st->has_ifindex)
		sp_json_add(o, "ifindex", json_object_new_int64(st->ifindex));
	if (st->has_port)
		sp_json_add(o, "port", json_object_new_int64(st->port));
}

static bool stream_nonzero(const struct sp_stream *st)
{
	size_t i;

	for (i = 0; i < st->n_values; i++)
		if (st->values[i])
			return true;
	return false;
}

int sp_print_counters(const struct sp_stream *streams, size_t n, bool nonzero)
{
	char target[SPARKPERF_DEV_NAME_MAX + 16];
	FILE *f = sp_print_file();
	size_t i, k, w = 7;

	if (sp_print_is_json()) {
		json_object *arr = json_object_new_array();

		for (i = 0; arr && i < n; i++) {
			const struct sp_stream *st = &streams[i];
			json_object *o = json_object_new_object(), *c = json_object_new_object();

			if (!o || !c) {
				json_object_put(o);
				json_object_put(c);
				json_object_put(arr);
				return -ENOMEM;
			}
			json_stream_head(o, st);
			sp_json_add(o, "ts_ns", st->has_ts ? sp_json_u64(st->ts_ns) : NULL);
			sp_json_add(o, "read_ns", st->has_ts ? json_object_new_int64(st->read_ns) : NULL);
			for (k = 0; k < st->n_values && k < st->n_names; k++)
				if (!nonzero || st->values[k])
					sp_json_add(c, st->names[k], sp_json_u64(st->values[k]));
			sp_json_add(o, "counters", c);
			json_object_array_add(arr, o);
		}
		return sp_print_json(arr);
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < streams[i].n_names; k++)
			if (strlen(streams[i].names[k]) > w)
				w = strlen(streams[i].names[k]);
	fprintf(f, "%-8s %-16s %-*s %20s  %s\n", "SOURCE", "TARGET", (int)w, "COUNTER", "VALUE",
		"UNIT");
	for (i = 0; i < n; i++) {
		const struct sp_stream *st = &streams[i];

		if (nonzero && !stream_nonzero(st))
			continue;
		stream_target(st, target, sizeof(target));
		for (k = 0; k < st->n_values && k < st->n_names; k++) {
			if (nonzero && !st->values[k])
				continue;
			fprintf(f, "%-8s %-16s %-*s %20" PRIu64 "  %s\n",
				sp_counter_source_str(st->source), target, (int)w, st->names[k],
				st->values[k], unit_word(sp_counter_unit(st->names[k])));
		}
	}
	return 0;
}

/* ---- traces: show --------------------------------------------------------- */

static json_object *json_stream_info(const struct sp_stream *st)
{
	json_object *o = json_object_new_object(), *names = json_object_new_array();
	size_t i;

	if (!o || !names) {
		json_object_put(o);
		json_object_put(names);
		return NULL;
	}
	json_stream_head(o, st);
	sp_json_add(o, "period_us", json_object_new_int64(st->period_us));
	sp_json_add(o, "version", json_object_new_int64(st->version));
	sp_json_add(o, "truncated", json_object_new_boolean(st->truncated));
	sp_json_add(o, "samples", sp_json_u64(st->samples));
	sp_json_add(o, "missed", sp_json_u64(st->missed));
	sp_json_add(o, "read_ns_sum", sp_json_u64(st->read_ns_sum));
	sp_json_add(o, "read_max_ns", sp_json_u64(st->read_ns_max));
	sp_json_add(o, "late_max_ns", sp_json_u64(st->late_ns_max));
	for (i = 0; i < st->n_names; i++)
		json_object_array_add(names, json_object_new_string(st->names[i]));
	sp_json_add(o, "names", names);
	return o;
}

/* What every JSON description of a trace starts with. */
static void json_trace_head(json_object *o, const struct sp_trace *t)
{
	sp_json_add(o, "id", json_object_new_int64(t->id));
	sp_json_add(o, "state", json_object_new_string(sp_trace_state_str(t->state)));
	sp_json_add(o, "error", t->has_error || t->has_error_msg ?
	    sp_json_str_or_null(sp_session_error(t->has_error_msg, t->error_msg, t->has_error,
					  t->error)) : NULL);
	sp_json_add(o, "start_ns", sp_json_u64(t->start_ns));
	sp_json_add(o, "elapsed_ns", sp_json_u64(t->elapsed_ns));
}

static json_object *json_trace(const struct sp_trace *t)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	json_trace_head(o, t);
	sp_json_add(o, "duration_ms", t->has_duration ? json_object_new_int64(t->duration_ms) : NULL);
	sp_json_add(o, "buffer_bytes", json_object_new_int64(t->buffer_bytes));
	sp_json_add(o, "batch_ms", json_object_new_int64(t->batch_ms));
	sp_json_add(o, "cpu_ns", t->has_cpu ? sp_json_u64(t->cpu_ns) : NULL);
	sp_json_add(o, "slots", json_object_new_int64(t->slots));
	sp_json_add(o, "seq_next", sp_json_u64(t->seq_next));
	sp_json_add(o, "seq_oldest", sp_json_u64(t->seq_oldest));
	for (i = 0; i < t->n_streams; i++)
		json_object_array_add(arr, json_stream_info(&t->streams[i]));
	sp_json_add(o, "streams", arr);
	return o;
}

int sp_print_traces(const struct sp_trace *traces, size_t n)
{
	char target[SPARKPERF_DEV_NAME_MAX + 16];
	FILE *f = sp_print_file();
	size_t i, k;

	if (sp_print_is_json()) {
		json_object *arr = json_object_new_array();

		for (i = 0; arr && i < n; i++)
			json_object_array_add(arr, json_trace(&traces[i]));
		return sp_print_json(arr);
	}
	for (i = 0; i < n; i++) {
		const struct sp_trace *t = &traces[i];
		const char *why = sp_session_error(t->has_error_msg, t->error_msg, t->has_error,
						   t->error);

		fprintf(f, "%strace %u: %s, %.3f s, %zu stream%s, ring %u slots, next seq %" PRIu64
			"%s%s\n", i ? "\n" : "", t->id, sp_trace_state_str(t->state),
			(double)t->elapsed_ns / 1e9, t->n_streams, t->n_streams == 1 ? "" : "s",
			t->slots, t->seq_next, why ? ": " : "", why ? why : "");
		fprintf(f, "  %-5s %-8s %-16s %10s %8s %10s %8s %14s %13s\n", "INDEX", "SOURCE",
			"TARGET", "PERIOD[us]", "COUNTERS", "SAMPLES", "MISSED", "READ_MEAN[us]",
			"READ_MAX[us]");
		for (k = 0; k < t->n_streams; k++) {
			const struct sp_stream *st = &t->streams[k];

			fprintf(f, "  %-5u %-8s %-16s %10u %8zu %10" PRIu64 " %8" PRIu64
				" %14.3f %13.3f\n", st->index, sp_counter_source_str(st->source),
				stream_target(st, target, sizeof(target)), st->period_us,
				st->n_names, st->samples, st->missed,
				st->samples ? (double)st->read_ns_sum / (double)st->samples / 1e3 : 0,
				(double)st->read_ns_max / 1e3);
		}
	}
	return 0;
}

/* ---- traces: the report ---------------------------------------------------- */

static json_object *json_tl_counter(const struct sp_tl_counter *c)
{
	json_object *o = json_object_new_object();
	char key[64];
	double rate;

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(c->name));
	sp_json_add(o, "unit", json_object_new_string(unit_word(c->unit)));
	sp_json_add(o, "first", sp_json_u64(c->first));
	sp_json_add(o, "last", sp_json_u64(c->last));
	sp_json_add(o, "delta", sp_json_u64(c->delta));
	sp_json_add(o, "wraps", json_object_new_int64(c->wraps));
	sp_json_add(o, "resets", json_object_new_int64(c->resets));
	snprintf(key, sizeof(key), "mean_%s", rate_key(c->unit));
	sp_json_add(o, key, sp_tl_counter_mean_rate(c, &rate) ? sp_json_fixed(rate, 3) : NULL);
	snprintf(key, sizeof(key), "peak_%s", rate_key(c->unit));
	sp_json_add(o, key, c->has_peak ? sp_json_fixed(c->peak_rate, 3) : NULL);
	return o;
}

static json_object *json_tl_stream(const struct sp_tl_stream *st, bool changed_only)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	struct sp_tl_stream_stats s;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	sp_tl_stream_stats(st, &s);
	json_stream_head(o, &st->info);
	sp_json_add(o, "period_requested_us", json_object_new_int64(st->info.period_us));
	sp_json_add(o, "period_p50_ns", s.has_period ? sp_json_u64(s.period_p50_ns) : NULL);
	sp_json_add(o, "period_p99_ns", s.has_period ? sp_json_u64(s.period_p99_ns) : NULL);
	sp_json_add(o, "period_max_ns", s.has_period ? sp_json_u64(s.period_max_ns) : NULL);
	sp_json_add(o, "samples", sp_json_u64(s.samples));
	sp_json_add(o, "samples_received", sp_json_u64(st->received));
	sp_json_add(o, "missed", sp_json_u64(s.missed));
	sp_json_add(o, "read_mean_ns", s.has_read ? sp_json_fixed(s.read_mean_ns, 1) : NULL);
	sp_json_add(o, "read_max_ns", s.has_read ? sp_json_u64(s.read_max_ns) : NULL);
	sp_json_add(o, "late_max_ns", sp_json_u64(st->info.late_ns_max));
	sp_json_add(o, "table_versions", json_object_new_int64(s.versions));
	sp_json_add(o, "truncated", json_object_new_boolean(st->info.truncated));
	for (i = 0; i < st->n_counters; i++)
		if (!changed_only || st->counters[i].delta)
			json_object_array_add(arr, json_tl_counter(&st->counters[i]));
	sp_json_add(o, "counters", arr);
	return o;
}

json_object *sp_json_trace_report(const struct sp_tracelog *tl, bool all)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	const struct sp_trace *t = &tl->trace;
	double cpu;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	json_trace_head(o, t);
	sp_json_add(o, "cpu_ns", t->has_cpu ? sp_json_u64(t->cpu_ns) : NULL);
	sp_json_add(o, "cpu_ns_per_1000_samples", sp_tl_cpu_per_1000(tl, &cpu) ? sp_json_fixed(cpu, 1) : NULL);
	sp_json_add(o, "samples_received", sp_json_u64(tl->received));
	sp_json_add(o, "samples_lost", sp_json_u64(tl->lost));
	sp_json_add(o, "table_changes", json_object_new_int64(tl->table_changes));
	for (i = 0; i < tl->n_streams; i++)
		json_object_array_add(arr, json_tl_stream(&tl->streams[i], !all));
	sp_json_add(o, "streams", arr);
	return o;
}

/* "1000 us" as the period of a source, or "-" */
static void fmt_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%.1f", ns / 1e3);
}

static void print_report_counters(FILE *f, const struct sp_tracelog *tl, bool all)
{
	char target[SPARKPERF_DEV_NAME_MAX + 16], mean[40], peak[40];
	size_t i, k, unchanged = 0, w = 7;
	double rate;

	for (i = 0; i < tl->n_streams; i++)
		for (k = 0; k < tl->streams[i].n_counters; k++)
			if (strlen(tl->streams[i].counters[k].name) > w)
				w = strlen(tl->streams[i].counters[k].name);
	fprintf(f, "%-8s %-16s %-*s %20s %20s %16s %18s %18s\n", "SOURCE", "TARGET", (int)w,
		"COUNTER", "FIRST", "LAST", "DELTA", "MEAN_RATE", "PEAK_RATE");
	for (i = 0; i < tl->n_streams; i++) {
		const struct sp_tl_stream *st = &tl->streams[i];

		stream_target(&st->info, target, sizeof(target));
		for (k = 0; k < st->n_counters; k++) {
			const struct sp_tl_counter *c = &st->counters[k];

			if (!all && !c->delta) {
				unchanged++;
				continue;
			}
			if (sp_tl_counter_mean_rate(c, &rate))
				sp_fmt_counter_rate(mean, sizeof(mean), rate, c->unit);
			else
				snprintf(mean, sizeof(mean), "-");
			if (c->has_peak)
				sp_fmt_counter_rate(peak, sizeof(peak), c->peak_rate, c->unit);
			else
				snprintf(peak, sizeof(peak), "-");
			fprintf(f, "%-8s %-16s %-*s %20" PRIu64 " %20" PRIu64 " %16" PRIu64
				" %18s %18s%s\n", sp_counter_source_str(st->info.source), target,
				(int)w, c->name, c->first, c->last, c->delta, mean, peak,
				c->wraps || c->resets ? "  (wrapped or reset)" : "");
		}
	}
	if (unchanged)
		fprintf(f, "(%zu counter%s did not change)\n", unchanged,
			unchanged == 1 ? "" : "s");
}

static void print_report_streams(FILE *f, const struct sp_tracelog *tl)
{
	char target[SPARKPERF_DEV_NAME_MAX + 16], p50[24], p99[24], rmean[24], rmax[24];
	size_t i;

	fprintf(f, "%-8s %-16s %11s %11s %11s %10s %8s %14s %13s %7s\n", "SOURCE", "TARGET",
		"PERIOD[us]", "P50[us]", "P99[us]", "SAMPLES", "MISSED", "READ_MEAN[us]",
		"READ_MAX[us]", "TABLES");
	for (i = 0; i < tl->n_streams; i++) {
		const struct sp_tl_stream *st = &tl->streams[i];
		struct sp_tl_stream_stats s;

		sp_tl_stream_stats(st, &s);
		snprintf(p50, sizeof(p50), "-");
		snprintf(p99, sizeof(p99), "-");
		snprintf(rmean, sizeof(rmean), "-");
		snprintf(rmax, sizeof(rmax), "-");
		if (s.has_period) {
			fmt_us(p50, sizeof(p50), (double)s.period_p50_ns);
			fmt_us(p99, sizeof(p99), (double)s.period_p99_ns);
		}
		if (s.has_read) {
			snprintf(rmean, sizeof(rmean), "%.3f", s.read_mean_ns / 1e3);
			snprintf(rmax, sizeof(rmax), "%.3f", (double)s.read_max_ns / 1e3);
		}
		fprintf(f, "%-8s %-16s %11u %11s %11s %10" PRIu64 " %8" PRIu64 " %14s %13s %7u%s\n",
			sp_counter_source_str(st->info.source),
			stream_target(&st->info, target, sizeof(target)), st->info.period_us, p50,
			p99, s.samples, s.missed, rmean, rmax, s.versions,
			st->info.truncated ? "  (truncated)" : "");
	}
}

int sp_print_trace_report(const struct sp_tracelog *tl, const char *title, bool all,
			  const struct sp_env *env)
{
	const struct sp_trace *t = &tl->trace;
	const char *why = sp_session_error(t->has_error_msg, t->error_msg, t->has_error, t->error);
	FILE *f = sp_print_file();
	double cpu;

	if (sp_print_is_json()) {
		json_object *o = sp_json_trace_report(tl, all);

		if (o && env) {
			sp_json_add(o, "tool_version", sp_json_str_or_null(env->tool_version));
			sp_json_add(o, "module_version", sp_json_str_or_null(env->module_version));
			sp_json_add(o, "kernel_release", sp_json_str_or_null(env->kernel_release));
			sp_json_add(o, "host", sp_json_str_or_null(env->host));
			sp_json_add(o, "clock_source", sp_json_str_or_null(env->clock_source));
		}
		return sp_print_json(o);
	}
	fprintf(f, "%s trace %u: %s after %.3f s", title ? title : "Counter", t->id,
		sp_trace_state_str(t->state), (double)t->elapsed_ns / 1e9);
	if (sp_tl_cpu_per_1000(tl, &cpu))
		fprintf(f, ", sampler CPU %.1f us per 1000 samples", cpu / 1e3);
	fprintf(f, "%s%s\n", why ? ": " : "", why ? why : "");
	if (tl->lost)
		fprintf(f, "%" PRIu64 " sample%s lost (the ring overran before they were read)\n",
			tl->lost, tl->lost == 1 ? " was" : "s were");
	if (tl->table_changes)
		fprintf(f, "Counter name tables changed %u time%s during the trace: samples are "
			"named by their table version\n", tl->table_changes,
			tl->table_changes == 1 ? "" : "s");
	fprintf(f, "PERIOD: requested; P50/P99: achieved, between sample timestamps. "
		"Rates: bytes in Gbit/s (10^9 bit/s), packets in packet/s\n");
	print_report_streams(f, tl);
	fprintf(f, "\n");
	print_report_counters(f, tl, all);
	return 0;
}

/* ---- traces: the writers --------------------------------------------------- */

/* The previous reading of every counter of every stream, while writing. */
struct prev_state {
	bool *seen;
	uint64_t *value, *ts;
	size_t *base;			/* first counter index of each stream */
};

static int prev_init(struct prev_state *p, const struct sp_tracelog *tl)
{
	size_t i, n = 0;

	memset(p, 0, sizeof(*p));
	p->base = calloc(tl->n_streams + 1, sizeof(*p->base));
	if (!p->base)
		return -ENOMEM;
	for (i = 0; i < tl->n_streams; i++) {
		p->base[i] = n;
		n += tl->streams[i].n_counters;
	}
	p->seen = calloc(n + 1, sizeof(*p->seen));
	p->value = calloc(n + 1, sizeof(*p->value));
	p->ts = calloc(n + 1, sizeof(*p->ts));
	return p->seen && p->value && p->ts ? 0 : -ENOMEM;
}

static void prev_free(struct prev_state *p)
{
	free(p->seen);
	free(p->value);
	free(p->ts);
	free(p->base);
}

int sp_print_trace_csv(FILE *f, const struct sp_tracelog *tl)
{
	struct prev_state p;
	size_t i, k;
	int ret = prev_init(&p, tl);

	if (ret) {
		prev_free(&p);
		return ret;
	}
	fprintf(f, "time_ns,seq,stream,source,target,version,counter,value,delta,rate,rate_unit\n");
	for (i = 0; i < tl->n_samples; i++) {
		const struct sp_tl_sample *s = &tl->samples[i];
		const struct sp_tl_stream *st = sp_tl_find_stream(tl, s->stream);
		const struct sp_tl_table *t = st ? sp_tl_find_table(st, s->version) : NULL;
		char target[SPARKPERF_DEV_NAME_MAX + 16];
		size_t si;

		if (!t)
			continue;
		si = (size_t)(st - tl->streams);
		stream_target(&st->info, target, sizeof(target));
		for (k = 0; k < s->n && k < t->n; k++) {
			size_t c = p.base[si] + t->map[k];
			enum sp_counter_unit unit = st->counters[t->map[k]].unit;
			uint64_t d;

			fprintf(f, "%" PRIu64 ",%" PRIu64 ",%u,%s,%s,%u,%s,%" PRIu64 ",",
				s->ts_ns - tl->trace.start_ns, s->seq, s->stream,
				sp_counter_source_str(st->info.source), target, s->version, t->names[k],
				s->values[k]);
			if (p.seen[c] && s->ts_ns > p.ts[c]) {
				sp_counter_delta(p.value[c], s->values[k], &d);
				d = sp_tl_scaled_delta(t->names[k], d);
				fprintf(f, "%" PRIu64 ",%.3f,%s\n", d,
					sp_counter_rate(d, s->ts_ns - p.ts[c], unit),
					sp_counter_rate_unit(unit));
			} else {
				fprintf(f, ",,%s\n", sp_counter_rate_unit(unit));
			}
			p.seen[c] = true;
			p.value[c] = s->values[k];
			p.ts[c] = s->ts_ns;
		}
	}
	prev_free(&p);
	return ferror(f) ? -EIO : 0;
}

static json_object *json_trace_config(const struct sp_trace_config *c)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array(), *g;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	for (i = 0; i < c->n_targets; i++) {
		json_object *t = json_object_new_object();

		if (!t)
			continue;
		sp_json_add(t, c->targets[i].rdma ? "rdma_dev" : "netdev",
		    json_object_new_string(c->targets[i].name));
		if (c->targets[i].rdma)
			sp_json_add(t, "port", json_object_new_int64(c->targets[i].port ?
							     c->targets[i].port : 1));
		json_object_array_add(arr, t);
	}
	sp_json_add(o, "targets", arr);
	g = json_object_new_array();
	for (i = 0; g && i < c->n_globs; i++)
		json_object_array_add(g, json_object_new_string(c->globs[i]));
	sp_json_add(o, "globs", g);
	sp_json_add(o, "netdev_period_us", c->has_netdev_period ?
	    json_object_new_int64(c->netdev_period_us) : NULL);
	sp_json_add(o, "ethtool_period_us", c->has_ethtool_period ?
	    json_object_new_int64(c->ethtool_period_us) : NULL);
	sp_json_add(o, "rdma_period_us", c->has_rdma_period ?
	    json_object_new_int64(c->rdma_period_us) : NULL);
	sp_json_add(o, "duration_ms", c->has_duration ? json_object_new_int64(c->duration_ms) : NULL);
	sp_json_add(o, "buffer_bytes", c->has_buffer ? json_object_new_int64(c->buffer_bytes) : NULL);
	return o;
}

int sp_print_trace_json_file(FILE *f, const struct sp_tracelog *tl,
			     const struct sp_trace_config *cfg)
{
	json_object *doc = json_object_new_object(), *tr = json_object_new_object();
	json_object *streams = json_object_new_array(), *samples = json_object_new_array();
	const char *str;
	size_t i, k;

	if (!doc || !tr || !streams || !samples) {
		json_object_put(doc);
		json_object_put(tr);
		json_object_put(streams);
		json_object_put(samples);
		return -ENOMEM;
	}
	sp_json_add(tr, "id", json_object_new_int64(tl->trace.id));
	sp_json_add(tr, "state", json_object_new_string(sp_trace_state_str(tl->trace.state)));
	sp_json_add(tr, "start_ns", sp_json_u64(tl->trace.start_ns));
	sp_json_add(tr, "elapsed_ns", sp_json_u64(tl->trace.elapsed_ns));
	sp_json_add(tr, "config", cfg ? json_trace_config(cfg) : NULL);
	sp_json_add(doc, "trace", tr);
	for (i = 0; i < tl->n_streams; i++) {
		const struct sp_tl_stream *st = &tl->streams[i];
		json_object *o = json_object_new_object(), *tables = json_object_new_array();

		if (!o || !tables) {
			json_object_put(o);
			json_object_put(tables);
			continue;
		}
		json_stream_head(o, &st->info);
		sp_json_add(o, "period_us", json_object_new_int64(st->info.period_us));
		for (k = 0; k < st->n_tables; k++) {
			json_object *t = json_object_new_object(), *names = json_object_new_array();
			size_t j;

			if (!t || !names) {
				json_object_put(t);
				json_object_put(names);
				continue;
			}
			sp_json_add(t, "version", json_object_new_int64(st->tables[k].version));
			for (j = 0; j < st->tables[k].n; j++)
				json_object_array_add(names,
						      json_object_new_string(st->tables[k].names[j]));
			sp_json_add(t, "names", names);
			json_object_array_add(tables, t);
		}
		sp_json_add(o, "tables", tables);
		json_object_array_add(streams, o);
	}
	sp_json_add(doc, "streams", streams);
	for (i = 0; i < tl->n_samples; i++) {
		const struct sp_tl_sample *s = &tl->samples[i];
		json_object *o = json_object_new_object(), *v = json_object_new_array();

		if (!o || !v) {
			json_object_put(o);
			json_object_put(v);
			continue;
		}
		sp_json_add(o, "seq", sp_json_u64(s->seq));
		sp_json_add(o, "stream", json_object_new_int64(s->stream));
		sp_json_add(o, "version", json_object_new_int64(s->version));
		sp_json_add(o, "ts_ns", sp_json_u64(s->ts_ns));
		sp_json_add(o, "read_ns", json_object_new_int64(s->read_ns));
		for (k = 0; k < s->n; k++)
			json_object_array_add(v, sp_json_u64(s->values[k]));
		sp_json_add(o, "values", v);
		json_object_array_add(samples, o);
	}
	sp_json_add(doc, "samples", samples);
	sp_json_add(doc, "report", sp_json_trace_report(tl, true));
	str = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (str)
		fprintf(f, "%s\n", str);
	json_object_put(doc);
	if (!str)
		return -ENOMEM;
	return ferror(f) ? -EIO : 0;
}

/* ---- watch ----------------------------------------------------------------- */

void sp_print_view_screen(const char *text)
{
	/* home, clear to the end of the screen, then the view */
	fprintf(sp_print_file(), "\033[H\033[J%s", text);
	fflush(sp_print_file());
}

void sp_print_view_line(const char *line)
{
	fprintf(sp_print_file(), "%s\n", line);
	fflush(sp_print_file());
}

static json_object *json_view_port(const struct sp_view_port *p, const char *netdev,
				   const char *rdma_dev)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(p->name));
	sp_json_add(o, "netdev", sp_json_str_or_null(netdev));
	sp_json_add(o, "rdma_dev", sp_json_str_or_null(rdma_dev));
	sp_json_add(o, "source", json_object_new_string(p->source));
	sp_json_add(o, "tx_bits_per_second", sp_json_fixed(p->tx_bps, 0));
	sp_json_add(o, "rx_bits_per_second", sp_json_fixed(p->rx_bps, 0));
	sp_json_add(o, "tx_peak_bits_per_second", sp_json_fixed(p->tx_peak_bps, 0));
	sp_json_add(o, "rx_peak_bits_per_second", sp_json_fixed(p->rx_peak_bps, 0));
	sp_json_add(o, "link_bits_per_second", p->link_bps > 0 ? sp_json_fixed(p->link_bps, 0) : NULL);
	return o;
}

int sp_print_watch_json(const struct sp_view *v, const char *const *netdevs,
			const char *const *rdma_devs, const struct sp_watch_sum *sums,
			bool summary)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	double tx = 0, rx = 0;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return -ENOMEM;
	}
	sp_json_add(o, "type", json_object_new_string(summary ? "summary" : "sample"));
	sp_json_add(o, "elapsed_ns", json_object_new_int64((int64_t)(v->elapsed_s * 1e9)));
	sp_json_add(o, "period_ns", json_object_new_int64((int64_t)(v->period_s * 1e9)));
	for (i = 0; i < v->n_ports; i++) {
		json_object *p = json_view_port(&v->ports[i], netdevs[i], rdma_devs[i]);

		if (p && summary && sums) {
			sp_json_add(p, "tx_mean_bits_per_second", sp_json_fixed(sums[i].tx_mean_bps, 0));
			sp_json_add(p, "rx_mean_bits_per_second", sp_json_fixed(sums[i].rx_mean_bps, 0));
			sp_json_add(p, "tx_bytes", sp_json_u64(sums[i].tx_bytes));
			sp_json_add(p, "rx_bytes", sp_json_u64(sums[i].rx_bytes));
		}
		json_object_array_add(arr, p);
		tx += summary && sums ? sums[i].tx_mean_bps : v->ports[i].tx_bps;
		rx += summary && sums ? sums[i].rx_mean_bps : v->ports[i].rx_bps;
	}
	sp_json_add(o, "ports", arr);
	sp_json_add(o, summary ? "full_duplex_mean_bits_per_second" : "full_duplex_bits_per_second",
	    sp_json_fixed(tx + rx, 0));
	return sp_print_json_line(o) ? -ENOMEM : sp_print_flush();
}

int sp_print_watch_summary(const struct sp_view *v, const struct sp_watch_sum *sums)
{
	FILE *f = sp_print_file();
	double tx = 0, rx = 0;
	size_t i;

	fprintf(f, "watch: %.1f s, rates in Gbit/s (10^9 bit/s)\n", v->elapsed_s);
	fprintf(f, "%-32s %10s %10s %10s %10s %14s %14s  %s\n", "PORT", "TX_MEAN", "TX_PEAK",
		"RX_MEAN", "RX_PEAK", "TX_BYTES", "RX_BYTES", "SOURCE");
	for (i = 0; i < v->n_ports; i++) {
		const struct sp_view_port *p = &v->ports[i];

		fprintf(f, "%-32s %10.3f %10.3f %10.3f %10.3f %14" PRIu64 " %14" PRIu64 "  %s\n",
			p->name, sums[i].tx_mean_bps / 1e9, p->tx_peak_bps / 1e9,
			sums[i].rx_mean_bps / 1e9, p->rx_peak_bps / 1e9, sums[i].tx_bytes,
			sums[i].rx_bytes, p->source);
		tx += sums[i].tx_mean_bps;
		rx += sums[i].rx_mean_bps;
	}
	fprintf(f, "full duplex mean: %.3f Gbit/s (TX %.3f + RX %.3f)\n", (tx + rx) / 1e9,
		tx / 1e9, rx / 1e9);
	return 0;
}

/* ---- switch ------------------------------------------------------------- */

static json_object *json_sw_info(const struct sp_sw_info *sw)
{
	json_object *obj = json_object_new_object();

	if (!obj)
		return NULL;
	sp_json_add(obj, "host", json_object_new_string(sw->host));
	sp_json_add(obj, "port", json_object_new_int(sw->port));
	sp_json_add(obj, "version", sp_json_str_or_null(sw->version));
	sp_json_add(obj, "board", sp_json_str_or_null(sw->board));
	return obj;
}

static void print_sw_info(const struct sp_sw_info *sw)
{
	fprintf(sp_print_file(), "switch %s port %u: RouterOS %s%s%s\n", sw->host, sw->port,
		sw->version ? sw->version : "(version unknown)", sw->board ? ", " : "",
		sw->board ? sw->board : "");
}

/* A number the switch printed, as JSON: an integer, else the string, else null */
static json_object *jsw_number(const char *s)
{
	uint64_t v;

	if (!s)
		return NULL;
	if (!sp_parse_u64(s, 0, UINT64_MAX, &v))
		return json_object_new_uint64(v);
	return json_object_new_string(s);
}

/* A yes/no the switch printed (true/false over the API), as JSON */
static json_object *jsw_bool(const char *s)
{
	const char *v = sp_sw_settable(s);

	if (!v)
		return NULL;
	if (!strcmp(v, "yes") || !strcmp(v, "no"))
		return json_object_new_boolean(!strcmp(v, "yes"));
	return json_object_new_string(v);
}

static json_object *jsw_rate_bps(const char *rate)
{
	uint64_t bps;

	return rate && !sp_sw_rate_parse(rate, &bps) ? json_object_new_uint64(bps) : NULL;
}

static const char *dash(const char *s)
{
	return s ? s : "-";
}

static char *sw_port_cell(const void *rows, size_t row, size_t col)
{
	const struct sp_sw_port_status *p = (const struct sp_sw_port_status *)rows + row;

	switch (col) {
	case 0:
		return strdup(dash(p->name));
	case 1:
		return strdup(dash(p->status));
	case 2:
		return strdup(dash(p->rate));
	case 3:
		return strdup(dash(p->speed));
	case 4:
		return strdup(dash(sp_sw_settable(p->auto_negotiation)));
	case 5:
		return strdup(dash(p->fec_mode));
	case 6:
		return strdup(dash(p->mtu));
	default:
		return strdup(dash(p->l2mtu));
	}
}

int sp_print_switch_ports(const struct sp_sw_info *sw, const struct sp_sw_port_status *ports,
			  size_t n)
{
	static const char *const header[] = {
		"PORT", "STATUS", "RATE", "SPEED", "AUTONEG", "FEC", "MTU", "L2MTU",
	};
	json_object *obj, *arr, *o;
	size_t i;

	if (!sp_print_is_json()) {
		print_sw_info(sw);
		return sp_print_table(header, ARRAY_SIZE(header), n, sw_port_cell, ports);
	}
	obj = json_object_new_object();
	arr = json_object_new_array();
	if (!obj || !arr) {
		json_object_put(obj);
		json_object_put(arr);
		return -ENOMEM;
	}
	sp_json_add(obj, "switch", json_sw_info(sw));
	for (i = 0; i < n; i++) {
		o = json_object_new_object();
		if (!o) {
			json_object_put(obj);
			json_object_put(arr);
			return -ENOMEM;
		}
		sp_json_add(o, "name", sp_json_str_or_null(ports[i].name));
		sp_json_add(o, "status", sp_json_str_or_null(ports[i].status));
		sp_json_add(o, "rate", sp_json_str_or_null(ports[i].rate));
		sp_json_add(o, "rate_bits_per_second", jsw_rate_bps(ports[i].rate));
		sp_json_add(o, "speed", sp_json_str_or_null(ports[i].speed));
		sp_json_add(o, "auto_negotiation", jsw_bool(ports[i].auto_negotiation));
		sp_json_add(o, "fec_mode", sp_json_str_or_null(ports[i].fec_mode));
		sp_json_add(o, "mtu_bytes", jsw_number(ports[i].mtu));
		sp_json_add(o, "l2mtu_bytes", jsw_number(ports[i].l2mtu));
		json_object_array_add(arr, o);
	}
	sp_json_add(obj, "ports", arr);
	return sp_print_json(obj);
}

static json_object *json_sw_desired(const struct sp_sw_desired *d)
{
	json_object *obj = json_object_new_object(), *ports = json_object_new_array();
	size_t i;

	if (!obj || !ports) {
		json_object_put(obj);
		json_object_put(ports);
		return NULL;
	}
	for (i = 0; i < d->n_ports; i++)
		json_object_array_add(ports, json_object_new_string(d->ports[i]));
	sp_json_add(obj, "ports", ports);
	sp_json_add(obj, "speed", json_object_new_string(d->speed));
	sp_json_add(obj, "fec_mode", json_object_new_string(d->fec));
	sp_json_add(obj, "mtu_bytes", json_object_new_uint64(d->mtu));
	sp_json_add(obj, "l2mtu_bytes", json_object_new_uint64(d->l2mtu));
	sp_json_add(obj, "profile", json_object_new_string(sp_sw_profile_str(d->profile)));
	sp_json_add(obj, "roce_queue_cap_bits_per_second", json_object_new_uint64(d->queue_cap_bps));
	return obj;
}

static const char *const sw_action_str[] = {
	[SP_SW_SET] = "set",
	[SP_SW_ADD] = "add",
	[SP_SW_REMOVE] = "remove",
};

static json_object *json_sw_changes(const struct sp_sw_plan *p)
{
	json_object *arr = json_object_new_array(), *o, *props, *d;
	char label[128];
	size_t i, j;

	for (i = 0; arr && i < p->n; i++) {
		const struct sp_sw_change *c = &p->v[i];

		o = json_object_new_object();
		props = json_object_new_array();
		if (!o || !props) {
			json_object_put(o);
			json_object_put(props);
			json_object_put(arr);
			return NULL;
		}
		sp_json_add(o, "item", json_object_new_string(sp_sw_change_label(c, label, sizeof(label))));
		sp_json_add(o, "menu", json_object_new_string(c->menu));
		sp_json_add(o, "action", json_object_new_string(sw_action_str[c->action]));
		sp_json_add(o, "id", sp_json_str_or_null(c->id));
		for (j = 0; j < c->n; j++) {
			d = json_object_new_object();
			if (!d)
				continue;
			sp_json_add(d, "name", json_object_new_string(c->diffs[j].name));
			sp_json_add(d, "now", sp_json_str_or_null(c->diffs[j].from));
			sp_json_add(d, "want", sp_json_str_or_null(c->diffs[j].to));
			json_object_array_add(props, d);
		}
		sp_json_add(o, "properties", props);
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_sw_links(const struct sp_sw_link *links, size_t n)
{
	json_object *arr = json_object_new_array(), *o;
	size_t i;

	for (i = 0; arr && i < n; i++) {
		o = json_object_new_object();
		if (!o)
			continue;
		sp_json_add(o, "port", json_object_new_string(links[i].port));
		sp_json_add(o, "status", sp_json_str_or_null(links[i].status));
		sp_json_add(o, "rate", sp_json_str_or_null(links[i].rate));
		sp_json_add(o, "rate_bits_per_second", jsw_rate_bps(links[i].rate));
		sp_json_add(o, "speed", json_object_new_string(links[i].speed));
		sp_json_add(o, "ok", json_object_new_boolean(links[i].ok));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* One line of the ITEM PROPERTY NOW WANT table. */
struct sw_diff_row {
	char item[128];
	const char *property, *now, *want;
	char now_buf[64], want_buf[64];
};

static char *sw_diff_cell(const void *rows, size_t row, size_t col)
{
	const struct sw_diff_row *r = (const struct sw_diff_row *)rows + row;
	const char *cell[] = { r->item, r->property, r->now, r->want };

	return strdup(cell[col]);
}

/* The table of a plan's settings and of the links that are not up. */
static int print_sw_diffs(const struct sp_sw_plan *p, const struct sp_sw_link *links,
			  size_t n_links)
{
	static const char *const header[] = { "ITEM", "PROPERTY", "NOW", "WANT" };
	struct sw_diff_row *rows;
	size_t n = 0, i, j;
	int ret;

	rows = calloc(sp_sw_plan_settings(p) + n_links + 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		const struct sp_sw_change *c = &p->v[i];

		if (c->action == SP_SW_REMOVE) {
			sp_sw_change_label(c, rows[n].item, sizeof(rows[n].item));
			rows[n].property = "(row)";
			rows[n].now = "present";
			rows[n++].want = "absent";
		}
		for (j = 0; j < c->n; j++, n++) {
			sp_sw_change_label(c, rows[n].item, sizeof(rows[n].item));
			rows[n].property = c->diffs[j].name;
			rows[n].now = dash(sp_sw_settable(c->diffs[j].from));
			rows[n].want = c->diffs[j].to;
		}
	}
	for (i = 0; i < n_links; i++) {
		if (links[i].ok)
			continue;
		snprintf(rows[n].item, sizeof(rows[n].item), "%s", links[i].port);
		rows[n].property = "link";
		snprintf(rows[n].now_buf, sizeof(rows[n].now_buf), "%s%s%s",
			 dash(links[i].status), links[i].rate ? " " : "",
			 links[i].rate ? links[i].rate : "");
		snprintf(rows[n].want_buf, sizeof(rows[n].want_buf), "link-ok %s", links[i].speed);
		rows[n].now = rows[n].now_buf;
		rows[n].want = rows[n].want_buf;
		n++;
	}
	ret = sp_print_table(header, ARRAY_SIZE(header), n, sw_diff_cell, rows);
	free(rows);
	return ret;
}

/* "# TITLE" and the lines of text, or nothing without text */
static void print_sw_section(const char *title, const char *text)
{
	if (text && *text)
		fprintf(sp_print_file(), "\n# %s\n%s", title, text);
}

int sp_print_switch_changes(const struct sp_sw_info *sw, const struct sp_sw_plan *p)
{
	if (sp_print_is_json())
		return 0;
	print_sw_info(sw);
	if (!p->n) {
		fprintf(sp_print_file(), "as desired: nothing to change\n");
		return 0;
	}
	fprintf(sp_print_file(), "plan: %zu setting%s to change in %zu row%s\n", sp_sw_plan_settings(p),
		sp_sw_plan_settings(p) == 1 ? "" : "s", p->n, p->n == 1 ? "" : "s");
	return print_sw_diffs(p, NULL, 0);
}

/* The plan's API sentences: one line each (text), or arrays of words (JSON). */
static int sw_sentences(const struct sp_sw_plan *p, char **text, json_object *arr)
{
	struct sp_ros_sentence s;
	size_t len = 0, i, j;
	json_object *words;
	char *line;
	FILE *f;
	int ret = 0;

	f = open_memstream(text, &len);
	if (!f)
		return -ENOMEM;
	for (i = 0; !ret && i < p->n; i++) {
		ret = sp_sw_change_sentence(&p->v[i], &s);
		if (ret)
			break;
		line = sp_sw_sentence_line(&s);
		if (line)
			fprintf(f, "%s\n", line);
		free(line);
		words = arr ? json_object_new_array() : NULL;
		for (j = 0; words && j < s.n; j++)
			json_object_array_add(words, json_object_new_string(s.words[j]));
		if (words)
			json_object_array_add(arr, words);
		sp_ros_sentence_free(&s);
	}
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	return ret;
}

int sp_print_switch_plan(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			 const struct sp_sw_plan *p)
{
	char *sentences = NULL, *rsc = sp_sw_plan_rsc(p), *rollback = NULL;
	json_object *obj = NULL, *arr = NULL;
	struct sp_sw_plan inv;
	int ret = -ENOMEM;

	if (!sp_sw_plan_invert(p, &inv)) {
		rollback = sp_sw_plan_rsc(&inv);
		sp_sw_plan_free(&inv);
	}
	if (sp_print_is_json()) {
		obj = json_object_new_object();
		arr = json_object_new_array();
	}
	if (!rsc || !rollback || (sp_print_is_json() && (!obj || !arr)))
		goto out;
	ret = sw_sentences(p, &sentences, arr);
	if (ret)
		goto out;
	if (!sp_print_is_json()) {
		ret = sp_print_switch_changes(sw, p);
		print_sw_section("API sentences", sentences);
		print_sw_section("RouterOS script (.rsc)", rsc);
		print_sw_section("Rollback script (.rsc)", rollback);
		goto out;
	}
	sp_json_add(obj, "switch", json_sw_info(sw));
	sp_json_add(obj, "desired", json_sw_desired(d));
	sp_json_add(obj, "changes", json_sw_changes(p));
	sp_json_add(obj, "sentences", arr);
	arr = NULL;
	sp_json_add(obj, "rsc", json_object_new_string(rsc));
	sp_json_add(obj, "rollback_rsc", json_object_new_string(rollback));
	ret = sp_print_json(obj);
	obj = NULL;
out:
	json_object_put(obj);
	json_object_put(arr);
	free(sentences);
	free(rsc);
	free(rollback);
	return ret;
}

int sp_print_switch_verify(const struct sp_sw_info *sw, const struct sp_sw_desired *d,
			   const struct sp_sw_plan *diff, const struct sp_sw_link *links,
			   size_t n_links)
{
	bool as_desired = !diff->n;
	json_object *obj;
	size_t i;

	for (i = 0; i < n_links; i++)
		as_desired = as_desired && links[i].ok;
	if (!sp_print_is_json()) {
		print_sw_info(sw);
		if (as_desired) {
			fprintf(sp_print_file(), "as desired: %zu port%s, link%s up at %s\n", d->n_ports,
				d->n_ports == 1 ? "" : "s", d->n_ports == 1 ? "" : "s", d->speed);
			return 0;
		}
		fprintf(sp_print_file(), "not as desired:\n");
		return print_sw_diffs(diff, links, n_links);
	}
	obj = json_object_new_object();
	if (!obj)
		return -ENOMEM;
	sp_json_add(obj, "switch", json_sw_info(sw));
	sp_json_add(obj, "desired", json_sw_desired(d));
	sp_json_add(obj, "as_desired", json_object_new_boolean(as_desired));
	sp_json_add(obj, "differences", json_sw_changes(diff));
	sp_json_add(obj, "links", json_sw_links(links, n_links));
	return sp_print_json(obj);
}

void sp_print_switch_step(const char *step, const char *detail)
{
	if (sp_print_is_json())
		return;
	fprintf(sp_print_file(), "%s: %s\n", step, detail);
	fflush(sp_print_file());
}

int sp_print_switch_apply(const struct sp_sw_apply_report *r)
{
	json_object *obj, *steps, *o;
	size_t i;

	if (!sp_print_is_json())
		return 0;
	obj = json_object_new_object();
	steps = json_object_new_array();
	if (!obj || !steps) {
		json_object_put(obj);
		json_object_put(steps);
		return -ENOMEM;
	}
	sp_json_add(obj, "switch", json_sw_info(r->sw));
	sp_json_add(obj, "desired", json_sw_desired(r->desired));
	sp_json_add(obj, "changes", json_sw_changes(r->plan));
	sp_json_add(obj, "result", json_object_new_string(r->result));
	sp_json_add(obj, "error", sp_json_str_or_null(r->error));
	sp_json_add(obj, "backup", sp_json_str_or_null(r->backup));
	sp_json_add(obj, "switch_export", sp_json_str_or_null(r->export));
	for (i = 0; i < r->n_steps; i++) {
		o = json_object_new_object();
		if (!o)
			continue;
		sp_json_add(o, "step", json_object_new_string(r->steps[i].step));
		sp_json_add(o, "detail", sp_json_str_or_null(r->steps[i].detail));
		json_object_array_add(steps, o);
	}
	sp_json_add(obj, "steps", steps);
	sp_json_add(obj, "links", json_sw_links(r->links, r->n_links));
	return sp_print_json(obj);
}

/* ---- tune and check ------------------------------------------------------ */

static const char *const knob_state_names[] = {
	[SP_KNOB_OK] = "ok",
	[SP_KNOB_CHANGE] = "change",
	[SP_KNOB_SKIP] = "skip",
	[SP_KNOB_OBSERVED] = "observed",
};

/* A value on one line: runs of blanks (tcp_rmem has tabs) as one space. */
static char *one_line(const char *v)
{
	char *s = strdup(v), *w = s;
	const char *r;

	if (!s)
		return NULL;
	for (r = v; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			if (w != s && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	while (w != s && w[-1] == ' ')
		w--;
	*w = '\0';
	return s;
}

/* A value as a change line shows it: files by presence, DSCP tables "none" when empty. */
static char *change_value(const struct sp_change *c, bool has, const char *v)
{
	if (c->access == SP_ACCESS_FILE)
		return strdup(has && v ? "written" : "absent");
	if (!has || !v)
		return strdup("-");
	if (!*v)
		return strdup("none");
	return one_line(v);
}

/* The current value in the table: a file as absent, as recommended, or different. */
static char *knob_current(const struct sp_knob *k)
{
	if (k->ch.access == SP_ACCESS_FILE && k->ch.has_before) {
		if (k->recommended && !strcmp(k->ch.before, k->recommended))
			return strdup(k->spec->value[0] ? k->spec->value[0] : "written");
		return strdup("other content");
	}
	return change_value(&k->ch, k->ch.has_before, k->ch.before);
}

/* "1 (or 2)": the recommended value, then the others that are as good. */
static char *others_accepted(const char *v, const char *accept)
{
	char *s = NULL, *list = strdup(accept), *w, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	bool first = true;

	if (!m || !list) {
		if (m)
			fclose(m);
		free(s);
		free(list);
		return NULL;
	}
	fprintf(m, "%s", v);
	for (w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, v))
			continue;
		fprintf(m, "%s%s", first ? " (or " : ", ", w);
		first = false;
	}
	fprintf(m, "%s", first ? "" : ")");
	free(list);
	if (fclose(m)) {
		free(s);
		return NULL;
	}
	return s;
}

static char *knob_recommended(const struct sp_knob *k)
{
	const struct sp_knob_spec *s = k->spec;
	char *v, *r;

	if (!k->recommended)
		return strdup("-");
	if (k->ch.access == SP_ACCESS_FILE)
		return strdup(s && s->value[0] ? s->value[0] : "written");
	v = one_line(k->recommended);
	if (!v || !s)
		return v;
	switch (s->cmp) {
	case SP_CMP_AT_LEAST:
		r = sp_xprintf(">= %s", v);
		break;
	case SP_CMP_ONE_OF:
		r = others_accepted(v, s->accept);
		break;
	case SP_CMP_SUPERSET:
		r = sp_xprintf("has %s", v);
		break;
	default:
		return v;
	}
	free(v);
	return r;
}

static char *knob_cell(const void *rows, size_t row, size_t col)
{
	const struct sp_knob *k = (const struct sp_knob *)rows + row;

	switch (col) {
	case 0:
		return strdup(k->ch.name);
	case 1:
		if (k->state == SP_KNOB_OBSERVED && k->ch.has_before)
			return strdup(k->as_expected ? "ok" : "lags");
		return strdup(k->state == SP_KNOB_OBSERVED ? "-" : knob_state_names[k->state]);
	case 2:
		return knob_current(k);
	case 3:
		return knob_recommended(k);
	case 4:
		return strdup(k->where[0] ? k->where : "-");
	default:
		return strdup(k->note);
	}
}

static json_object *json_knob(const struct sp_knob *k)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(k->ch.name));
	sp_json_add(o, "state", json_object_new_string(knob_state_names[k->state]));
	sp_json_add(o, "current", k->ch.has_before ? sp_json_str_or_null(k->ch.before) : NULL);
	sp_json_add(o, "recommended", sp_json_str_or_null(k->recommended));
	sp_json_add(o, "target", k->state == SP_KNOB_CHANGE ? sp_json_str_or_null(k->ch.after) : NULL);
	sp_json_add(o, "where", sp_json_str_or_null(k->where[0] ? k->where : NULL));
	if (k->state == SP_KNOB_OBSERVED)
		sp_json_add(o, "as_expected", k->ch.has_before ? json_object_new_boolean(k->as_expected)
			: NULL);
	sp_json_add(o, "severity", k->spec ? json_object_new_string(k->spec->severity == SP_SEV_FAIL ?
							      "fail" : "warn") : NULL);
	sp_json_add(o, "reason", k->spec ? json_object_new_string(k->spec->reason) : NULL);
	sp_json_add(o, "note", sp_json_str_or_null(k->note[0] ? k->note : NULL));
	return o;
}

int sp_print_tune_plan(const struct sp_plan *plan)
{
	static const char *const header[] = {
		"KNOB", "STATE", "CURRENT", "RECOMMENDED", "WHERE", "NOTE"
	};
	json_object *arr;
	size_t i;

	if (!sp_print_is_json())
		return sp_print_table(header, ARRAY_SIZE(header), plan->n, knob_cell, plan->knobs);
	arr = json_object_new_array();
	for (i = 0; arr && i < plan->n; i++) {
		json_object *o = json_knob(&plan->knobs[i]);

		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			arr = NULL;
		}
	}
	return sp_print_json(arr);
}

static json_object *json_change(const struct sp_change *c)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(c->name));
	sp_json_add(o, "where", json_object_new_string(c->path));
	sp_json_add(o, "before", c->has_before ? sp_json_str_or_null(c->before) : NULL);
	sp_json_add(o, "after", sp_json_str_or_null(c->after));
	return o;
}

int sp_print_tune_changes(bool revert, const char *snapshot, const char *profile,
			  const struct sp_change *ch, size_t n)
{
	FILE *f = sp_print_file();
	size_t i;

	if (sp_print_is_json()) {
		json_object *o = json_object_new_object(), *arr = json_object_new_array();

		for (i = 0; o && arr && i < n; i++) {
			json_object *c = json_change(&ch[revert ? n - 1 - i : i]);

			if (!c || json_object_array_add(arr, c)) {
				json_object_put(c);
				json_object_put(arr);
				arr = NULL;
			}
		}
		if (!o || !arr) {
			json_object_put(o);
			json_object_put(arr);
			return -ENOMEM;
		}
		sp_json_add(o, "action", json_object_new_string(revert ? "revert" : "apply"));
		sp_json_add(o, "snapshot", sp_json_str_or_null(snapshot));
		sp_json_add(o, "profile", sp_json_str_or_null(profile && *profile ? profile : NULL));
		sp_json_add(o, "changes", arr);
		return sp_print_json(o);
	}
	if (!n) {
		fprintf(f, "Nothing to change: every knob is as profile %s recommends.\n", profile);
		return 0;
	}
	fprintf(f, "snapshot %s\n", snapshot);
	for (i = 0; i < n; i++) {
		const struct sp_change *c = &ch[revert ? n - 1 - i : i];
		char *before = change_value(c, c->has_before, c->before);
		char *after = change_value(c, c->after != NULL, c->after);

		if (!before || !after) {
			free(before);
			free(after);
			return -ENOMEM;
		}
		fprintf(f, "%s: %s -> %s\n", c->name, revert ? after : before,
			revert ? before : after);
		free(before);
		free(after);
	}
	fprintf(f, "%zu change%s %s\n", n, n == 1 ? "" : "s", revert ? "reverted" : "applied");
	return 0;
}

int sp_print_checklist(const struct sp_checklist *l)
{
	size_t width = 0, i;
	FILE *f = sp_print_file();

	if (sp_print_is_json()) {
		json_object *arr = json_object_new_array();

		for (i = 0; arr && i < l->n; i++) {
			const struct sp_check_item *it = &l->items[i];
			json_object *o = json_object_new_object();

			if (!o || json_object_array_add(arr, o)) {
				json_object_put(o);
				json_object_put(arr);
				return -ENOMEM;
			}
			sp_json_add(o, "name", json_object_new_string(it->name));
			sp_json_add(o, "status", json_object_new_string(sp_check_status_str(it->status)));
			sp_json_add(o, "detail", json_object_new_string(it->detail));
			sp_json_add(o, "fix", sp_json_str_or_null(it->fix[0] ? it->fix : NULL));
		}
		return sp_print_json(arr);
	}
	for (i = 0; i < l->n; i++)
		if (strlen(l->items[i].name) > width)
			width = strlen(l->items[i].name);
	for (i = 0; i < l->n; i++) {
		const struct sp_check_item *it = &l->items[i];
		char *detail = one_line(it->detail);

		if (!detail)
			return -ENOMEM;
		fprintf(f, "%-4s  %-*s  %s\n", sp_check_status_str(it->status), (int)width,
			it->name, detail);
		free(detail);
		if (it->fix[0] && it->status != SP_CHECK_PASS)
			fprintf(f, "%-4s  %-*s  fix: %s\n", "", (int)width, "", it->fix);
	}
	fprintf(f, "%zu passed, %zu warnings, %zu failed, %zu skipped\n",
		sp_check_count(l, SP_CHECK_PASS), sp_check_count(l, SP_CHECK_WARN),
		sp_check_count(l, SP_CHECK_FAIL), sp_check_count(l, SP_CHECK_SKIP));
	return 0;
}
