// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/benchrun.h"
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

/* ---- bench -------------------------------------------------------------- */

static json_object *jnum_if(bool has, double v)
{
	return has ? sp_json_num(v) : NULL;
}

static json_object *jstrv(char *const *v, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++)
		json_object_array_add(arr, json_object_new_string(v[i]));
	return arr;
}

static size_t strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

/* dir/name as one string, NULL without a name */
static json_object *jpath(const char *dir, const char *name)
{
	char *p;
	json_object *o;

	if (!name)
		return NULL;
	p = sp_xprintf("%s/%s", dir ? dir : ".", name);
	o = p ? json_object_new_string(p) : NULL;
	free(p);
	return o;
}

static json_object *json_bench_cmd(const struct sp_bench_cmd *c, const char *dir, bool dry_run)
{
	json_object *o = json_object_new_object();
	const struct sp_bench_exec *x = &c->x;
	char *line = sp_bench_cmdline(c);

	if (!o || !line) {
		json_object_put(o);
		free(line);
		return NULL;
	}
	sp_json_add(o, "name", json_object_new_string(c->name));
	sp_json_add(o, "role", json_object_new_string(sp_bench_role_str(c->role)));
	sp_json_add(o, "host", sp_json_str_or_null(c->host));
	sp_json_add(o, "argv", jstrv(c->argv, strv_len(c->argv)));
	sp_json_add(o, "env", jstrv(c->env, strv_len(c->env)));
	sp_json_add(o, "command_line", json_object_new_string(line));
	free(line);
	sp_json_add(o, "stdout", c->role == SP_BENCH_ROLE_MANUAL ? NULL : jpath(dir, c->stdout_name));
	sp_json_add(o, "stderr", c->role == SP_BENCH_ROLE_MANUAL ? NULL : jpath(dir, c->stderr_name));
	sp_json_add(o, "json_file", jpath(dir, c->json_name));
	if (dry_run)
		return o;
	sp_json_add(o, "ran", json_object_new_boolean(x->ran));
	sp_json_add(o, "exit_status", x->ran && x->exit_status != SP_BENCH_EXIT_UNKNOWN ?
	    json_object_new_int(x->exit_status) : NULL);
	sp_json_add(o, "signal", x->signal ? json_object_new_int(x->signal) : NULL);
	sp_json_add(o, "timed_out", json_object_new_boolean(x->timed_out));
	sp_json_add(o, "exec_error", sp_json_str_or_null(x->exec_error));
	sp_json_add(o, "elapsed_s", x->ran ? sp_json_fixed(x->elapsed_s, 3) : NULL);
	return o;
}

/* perftest */

static void json_pt_bw_value(json_object *row, const char *what, enum sp_perftest_unit unit,
			     double v)
{
	char key[48];

	snprintf(key, sizeof(key), "%s_gbit_per_s", what);
	sp_json_add(row, key, sp_json_num(sp_perftest_gbit_per_s(unit, v)));
	if (unit == SP_PERFTEST_UNIT_GBIT)
		return;
	snprintf(key, sizeof(key), unit == SP_PERFTEST_UNIT_MIB ? "%s_mib_per_s" :
		 "%s_unknown_unit", what);
	sp_json_add(row, key, sp_json_num(v));
}

static json_object *json_pt_rows(const struct sp_perftest *p)
{
	json_object *arr = json_object_new_array(), *r;
	size_t i;

	for (i = 0; arr && i < p->n_bw; i++) {
		const struct sp_perftest_bw_row *b = &p->bw[i];

		r = json_object_new_object();
		if (!r)
			continue;
		sp_json_add(r, "bytes", sp_json_u64(b->bytes));
		sp_json_add(r, "iterations", sp_json_u64(b->iterations));
		json_pt_bw_value(r, "bw_peak", p->unit, b->peak);
		json_pt_bw_value(r, "bw_average", p->unit, b->average);
		sp_json_add(r, "msg_rate_mpps", sp_json_num(b->msg_rate_mpps));
		json_object_array_add(arr, r);
	}
	for (i = 0; arr && i < p->n_lat; i++) {
		const struct sp_perftest_lat_row *l = &p->lat[i];

		r = json_object_new_object();
		if (!r)
			continue;
		sp_json_add(r, "bytes", sp_json_u64(l->bytes));
		sp_json_add(r, "iterations", sp_json_u64(l->iterations));
		sp_json_add(r, "t_min_us", jnum_if(l->full, l->t_min_us));
		sp_json_add(r, "t_max_us", jnum_if(l->full, l->t_max_us));
		sp_json_add(r, "t_typical_us", jnum_if(l->full, l->t_typical_us));
		sp_json_add(r, "t_avg_us", sp_json_num(l->t_avg_us));
		sp_json_add(r, "t_stdev_us", jnum_if(l->full, l->t_stdev_us));
		sp_json_add(r, "p99_us", jnum_if(l->full, l->p99_us));
		sp_json_add(r, "p99_9_us", jnum_if(l->full, l->p99_9_us));
		sp_json_add(r, "tps", jnum_if(!l->full, l->tps));
		json_object_array_add(arr, r);
	}
	return arr;
}

static void json_perftest(json_object *o, const struct sp_perftest *p)
{
	json_object *cnt = json_object_new_object();
	uint64_t bytes;
	double avg;
	bool bw = sp_perftest_bw_average(p, &bytes, &avg);
	size_t i;

	sp_json_add(o, "format", json_object_new_string(p->json ? "json" : "text"));
	sp_json_add(o, "test", sp_json_str_or_null(p->test[0] ? p->test : NULL));
	sp_json_add(o, "device", sp_json_str_or_null(p->device[0] ? p->device : NULL));
	sp_json_add(o, "server_side", json_object_new_boolean(p->server_side));
	sp_json_add(o, "qps", p->qps ? sp_json_u64(p->qps) : NULL);
	sp_json_add(o, "mtu_bytes", p->mtu ? sp_json_u64(p->mtu) : NULL);
	sp_json_add(o, "link_type", sp_json_str_or_null(p->link_type[0] ? p->link_type : NULL));
	sp_json_add(o, "kind", sp_json_str_or_null(p->kind == SP_PERFTEST_BW ? "bw" :
				    p->kind == SP_PERFTEST_LAT ? "lat" : NULL));
	sp_json_add(o, "unit_reported", sp_json_str_or_null(p->n_bw ? sp_perftest_unit_str(p->unit) : NULL));
	sp_json_add(o, "latency", sp_json_str_or_null(!p->n_lat ? NULL : sp_perftest_lat_one_way(p) ?
				       "one_way" : "round_trip"));
	sp_json_add(o, "rows", json_pt_rows(p));
	sp_json_add(o, "size_bytes", bw ? sp_json_u64(bytes) : NULL);
	sp_json_add(o, "bw_average_gbit_per_s", bw ? sp_json_num(sp_perftest_gbit_per_s(p->unit, avg)) : NULL);
	for (i = 0; cnt && i < p->n_counters; i++)
		sp_json_add(cnt, p->counters[i].name, sp_json_u64(p->counters[i].delta));
	sp_json_add(o, "counters", cnt);
	sp_json_add(o, "errors", jstrv(p->errors.v, p->errors.n));
	sp_json_add(o, "warnings", jstrv(p->warnings.v, p->warnings.n));
}

/* iperf3 */

static json_object *json_ip_end(const struct sp_iperf3_end *e)
{
	json_object *o;

	if (!e->has)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	sp_json_add(o, "bytes", sp_json_u64(e->bytes));
	sp_json_add(o, "seconds", sp_json_num(e->seconds));
	sp_json_add(o, "bits_per_second", sp_json_num(e->bits_per_second));
	sp_json_add(o, "retransmits", e->has_retransmits ? sp_json_u64(e->retransmits) : NULL);
	return o;
}

static void json_iperf3(json_object *o, const struct sp_iperf3 *r)
{
	json_object *arr = json_object_new_array(), *s;
	double gbps;
	size_t i;

	sp_json_add(o, "format", json_object_new_string(r->json ? "json" : "text"));
	sp_json_add(o, "version", sp_json_str_or_null(r->version[0] ? r->version : NULL));
	sp_json_add(o, "server_side", json_object_new_boolean(r->server_side));
	sp_json_add(o, "error", sp_json_str_or_null(r->error));
	sp_json_add(o, "streams_requested", r->num_streams ? sp_json_u64(r->num_streams) : NULL);
	sp_json_add(o, "duration_s", r->duration_s > 0 ? sp_json_num(r->duration_s) : NULL);
	for (i = 0; arr && i < r->n_streams; i++) {
		s = json_object_new_object();
		if (!s)
			continue;
		sp_json_add(s, "socket", json_object_new_int64(r->streams[i].socket));
		sp_json_add(s, "sender", json_ip_end(&r->streams[i].sender));
		sp_json_add(s, "receiver", json_ip_end(&r->streams[i].receiver));
		json_object_array_add(arr, s);
	}
	sp_json_add(o, "streams", arr);
	sp_json_add(o, "sum_sent", json_ip_end(&r->sum_sent));
	sp_json_add(o, "sum_received", json_ip_end(&r->sum_received));
	sp_json_add(o, "gbit_per_s", sp_iperf3_gbit_per_s(r, &gbps) ? sp_json_num(gbps) : NULL);
	sp_json_add(o, "cpu_host_percent", jnum_if(r->has_cpu, r->cpu_host_percent));
	sp_json_add(o, "cpu_remote_percent", jnum_if(r->has_cpu, r->cpu_remote_percent));
	sp_json_add(o, "congestion", sp_json_str_or_null(r->congestion[0] ? r->congestion : NULL));
}

/* nccl-tests */

static json_object *json_nccl_half(const struct sp_nccl_half *h)
{
	json_object *o;

	if (!h->has)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	sp_json_add(o, "time_us", sp_json_num(h->time_us));
	sp_json_add(o, "algbw_gb_per_s", sp_json_num(h->algbw_gb_per_s));
	sp_json_add(o, "busbw_gb_per_s", sp_json_num(h->busbw_gb_per_s));
	sp_json_add(o, "busbw_gbit_per_s", sp_json_num(h->busbw_gb_per_s * 8));
	sp_json_add(o, "wrong", jnum_if(h->has_wrong, h->wrong));
	return o;
}

static json_object *json_nccl_rows(const struct sp_nccl *n)
{
	json_object *arr = json_object_new_array(), *r;
	size_t i;

	for (i = 0; arr && i < n->n_rows; i++) {
		const struct sp_nccl_row *x = &n->rows[i];

		r = json_object_new_object();
		if (!r)
			continue;
		sp_json_add(r, "size_bytes", sp_json_u64(x->size_bytes));
		sp_json_add(r, "count", sp_json_u64(x->count));
		sp_json_add(r, "type", json_object_new_string(x->type));
		sp_json_add(r, "redop", sp_json_str_or_null(x->redop[0] ? x->redop : NULL));
		sp_json_add(r, "root", x->has_root ? json_object_new_int64(x->root) : NULL);
		sp_json_add(r, "out_of_place", json_nccl_half(&x->out_of_place));
		sp_json_add(r, "in_place", json_nccl_half(&x->in_place));
		json_object_array_add(arr, r);
	}
	return arr;
}

static json_object *json_nccl_summary(const struct sp_nccl *n)
{
	struct sp_nccl_summary s;
	json_object *o;

	sp_nccl_summarize(n, &s);
	if (!s.valid)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	sp_json_add(o, "size_bytes", sp_json_u64(s.size_bytes));
	sp_json_add(o, "algbw_gb_per_s", sp_json_num(s.algbw_gb_per_s));
	sp_json_add(o, "busbw_gb_per_s", sp_json_num(s.busbw_gb_per_s));
	sp_json_add(o, "per_direction_gbit_per_s", sp_json_num(s.per_direction_gbit_per_s));
	sp_json_add(o, "peak_busbw_gb_per_s", sp_json_num(s.peak_busbw_gb_per_s));
	sp_json_add(o, "ranks", s.ranks ? sp_json_u64(s.ranks) : NULL);
	sp_json_add(o, "hosts", s.hosts ? sp_json_u64(s.hosts) : NULL);
	return o;
}

static void json_nccl(json_object *o, const struct sp_nccl *n)
{
	json_object *devs = json_object_new_array(), *sigs = json_object_new_array(), *d;
	size_t i;

	sp_json_add(o, "format", json_object_new_string(n->json ? "json" : "text"));
	sp_json_add(o, "json_version", n->json_version ? json_object_new_int(n->json_version) : NULL);
	sp_json_add(o, "nccl_tests_version", sp_json_str_or_null(n->version[0] ? n->version : NULL));
	sp_json_add(o, "nccl_version", n->nccl_version ? sp_json_u64(n->nccl_version) : NULL);
	sp_json_add(o, "collective", sp_json_str_or_null(n->collective[0] ? n->collective : NULL));
	sp_json_add(o, "threads", n->nthreads ? sp_json_u64(n->nthreads) : NULL);
	sp_json_add(o, "gpus_per_thread", n->ngpus ? sp_json_u64(n->ngpus) : NULL);
	for (i = 0; devs && i < n->n_devs; i++) {
		d = json_object_new_object();
		if (!d)
			continue;
		sp_json_add(d, "rank", json_object_new_int(n->devs[i].rank));
		sp_json_add(d, "host", json_object_new_string(n->devs[i].host));
		sp_json_add(d, "device", json_object_new_int(n->devs[i].device));
		sp_json_add(d, "bus", sp_json_str_or_null(n->devs[i].bus[0] ? n->devs[i].bus : NULL));
		sp_json_add(d, "name", sp_json_str_or_null(n->devs[i].name[0] ? n->devs[i].name : NULL));
		json_object_array_add(devs, d);
	}
	sp_json_add(o, "devices", devs);
	sp_json_add(o, "old_error_column", json_object_new_boolean(n->old_error_column));
	sp_json_add(o, "rows", json_nccl_rows(n));
	sp_json_add(o, "out_of_bounds", n->has_out_of_bounds ? sp_json_u64(n->out_of_bounds) : NULL);
	sp_json_add(o, "avg_busbw_gb_per_s", jnum_if(n->has_avg_busbw, n->avg_busbw_gb_per_s));
	sp_json_add(o, "summary", json_nccl_summary(n));
	sp_json_add(o, "network", sp_json_str_or_null(n->network[0] ? n->network : NULL));
	sp_json_add(o, "ib_devices", sp_json_str_or_null(n->ib_devices));
	sp_json_add(o, "ib_no_device", json_object_new_boolean(n->ib_no_device));
	sp_json_add(o, "usage_printed", json_object_new_boolean(n->usage));
	sp_json_add(o, "rank_exit_status", n->has_rank_exit ? json_object_new_int(n->rank_exit) : NULL);
	sp_json_add(o, "json_file", sp_json_str_or_null(n->json_file));
	for (i = 0; sigs && i < n->n_sigs; i++) {
		d = json_object_new_object();
		if (!d)
			continue;
		sp_json_add(d, "code", json_object_new_string(n->sigs[i].code));
		sp_json_add(d, "line", json_object_new_string(n->sigs[i].line));
		json_object_array_add(sigs, d);
	}
	sp_json_add(o, "failures", sigs);
	sp_json_add(o, "warnings", jstrv(n->warnings.v, n->warnings.n));
}

/* LLM benchmarks */

static void json_llm(json_object *o, const struct sp_llm *l)
{
	json_object *m = json_object_new_object();
	size_t i;

	sp_json_add(o, "kind", sp_json_str_or_null(l->kind));
	sp_json_add(o, "completed", l->has_completed ? sp_json_u64(l->completed) : NULL);
	sp_json_add(o, "failed", l->has_failed ? sp_json_u64(l->failed) : NULL);
	sp_json_add(o, "requested", l->has_requested ? sp_json_u64(l->requested) : NULL);
	for (i = 0; m && i < l->n_metrics; i++)
		sp_json_add(m, l->metrics[i].name, sp_json_num(l->metrics[i].value));
	sp_json_add(o, "metrics", m);
	sp_json_add(o, "error", sp_json_str_or_null(l->error));
}

static json_object *json_bench_result(const struct sp_bench_result *r)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	sp_json_add(o, "tool", json_object_new_string(sp_bench_tool_str(r->tool)));
	sp_json_add(o, "label", sp_json_str_or_null(r->label));
	sp_json_add(o, "command", r->command >= 0 ? json_object_new_int(r->command) : NULL);
	sp_json_add(o, "source", sp_json_str_or_null(r->source));
	switch (r->tool) {
	case SP_BENCH_PERFTEST:
		json_perftest(o, &r->u.perftest);
		break;
	case SP_BENCH_IPERF3:
		json_iperf3(o, &r->u.iperf3);
		break;
	case SP_BENCH_NCCL:
		json_nccl(o, &r->u.nccl);
		break;
	case SP_BENCH_NONE:
		break;
	default:
		json_llm(o, &r->u.llm);
		break;
	}
	return o;
}

/*
 * What the results add up to: the rates of pairs or clients that ran side
 * by side (perftest BW, iperf3), or the best nccl-tests run (a sweep).
 */
struct bench_sum {
	bool valid;
	double gbit_per_s;		/* the sum */
	size_t parts;
	const struct sp_bench_result *best;	/* nccl */
	struct sp_nccl_summary best_s;
};

static void bench_sum(const struct sp_bench_doc *doc, struct bench_sum *s)
{
	struct sp_nccl_summary ns;
	uint64_t bytes;
	double v;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < doc->n_results; i++) {
		const struct sp_bench_result *r = &doc->results[i];

		if (r->tool == SP_BENCH_PERFTEST &&
		    sp_perftest_bw_average(&r->u.perftest, &bytes, &v) &&
		    isfinite(sp_perftest_gbit_per_s(r->u.perftest.unit, v))) {
			s->gbit_per_s += sp_perftest_gbit_per_s(r->u.perftest.unit, v);
			s->parts++;
		} else if (r->tool == SP_BENCH_IPERF3 && sp_iperf3_gbit_per_s(&r->u.iperf3, &v)) {
			s->gbit_per_s += v;
			s->parts++;
		} else if (r->tool == SP_BENCH_NCCL) {
			sp_nccl_summarize(&r->u.nccl, &ns);
			if (ns.valid && (!s->best || ns.busbw_gb_per_s > s->best_s.busbw_gb_per_s)) {
				s->best = r;
				s->best_s = ns;
			}
		}
	}
	s->valid = s->parts > 0 || s->best;
}

static json_object *json_bench_summary(const struct sp_bench_doc *doc)
{
	struct bench_sum s;
	json_object *o;

	bench_sum(doc, &s);
	if (!s.valid)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	if (s.parts) {
		sp_json_add(o, "gbit_per_s", sp_json_num(s.gbit_per_s));
		sp_json_add(o, "parts", sp_json_u64(s.parts));
	}
	if (s.best) {
		sp_json_add(o, "best", json_object_new_string(s.best->label));
		sp_json_add(o, "size_bytes", sp_json_u64(s.best_s.size_bytes));
		sp_json_add(o, "busbw_gb_per_s", sp_json_num(s.best_s.busbw_gb_per_s));
		sp_json_add(o, "per_direction_gbit_per_s", sp_json_num(s.best_s.per_direction_gbit_per_s));
	}
	return o;
}

/* counters */

static double bench_interval_s(const struct sp_bench_counters *c)
{
	return c->end_ns > c->start_ns ? (double)(c->end_ns - c->start_ns) / 1e9 : 0;
}

/* Bytes counters: also as Gbit/s. */
static bool bench_counter_bytes(const char *name)
{
	return strstr(name, "bytes") || sp_bench_counter_scale(name) != 1;
}

static json_object *json_bench_counter(const struct sp_bench_counter *k, double secs)
{
	json_object *o = json_object_new_object();
	uint64_t d = 0, scale = sp_bench_counter_scale(k->name);
	bool ok = sp_bench_counter_delta(k, &d);

	if (!o)
		return NULL;
	sp_json_add(o, "name", json_object_new_string(k->name));
	sp_json_add(o, "delta", ok ? sp_json_u64(d) : NULL);
	sp_json_add(o, "per_s", ok && secs > 0 ? sp_json_num((double)d / secs) : NULL);
	if (bench_counter_bytes(k->name)) {
		sp_json_add(o, "bytes", ok ? sp_json_u64(d * scale) : NULL);
		sp_json_add(o, "gbit_per_s", ok && secs > 0 ? sp_json_num((double)(d * scale) * 8 / secs / 1e9) :
		    NULL);
	}
	return o;
}

static json_object *json_bench_counters(const struct sp_bench_counters *c)
{
	json_object *o = json_object_new_object(), *devs = json_object_new_array(), *d, *arr;
	double secs = bench_interval_s(c);
	size_t i, k;

	if (!o || !devs) {
		json_object_put(o);
		json_object_put(devs);
		return NULL;
	}
	sp_json_add(o, "source", json_object_new_string(c->source));
	sp_json_add(o, "interval_s", sp_json_fixed(secs, 3));
	for (i = 0; i < c->n; i++) {
		const struct sp_bench_counter_set *s = &c->sets[i];

		d = json_object_new_object();
		arr = json_object_new_array();
		if (!d || !arr) {
			json_object_put(d);
			json_object_put(arr);
			continue;
		}
		sp_json_add(d, "kind", json_object_new_string(s->kind));
		sp_json_add(d, "dev", json_object_new_string(s->dev));
		if (s->port) {
			sp_json_add(d, "port", json_object_new_int((int)s->port));
			sp_json_add(d, "netdev", sp_json_str_or_null(s->netdev));
		}
		for (k = 0; k < s->n; k++)
			json_object_array_add(arr, json_bench_counter(&s->c[k], secs));
		sp_json_add(d, "counters", arr);
		json_object_array_add(devs, d);
	}
	sp_json_add(o, "devices", devs);
	return o;
}

static json_object *json_bench_verdict(const struct sp_bench_verdict *v)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array(), *p;
	size_t i;

	if (!o || !arr) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	sp_json_add(o, "status", json_object_new_string(sp_bench_level_str(v->level)));
	for (i = 0; i < v->n; i++) {
		p = json_object_new_object();
		if (!p)
			continue;
		sp_json_add(p, "level", json_object_new_string(sp_bench_level_str(v->problems[i].level)));
		sp_json_add(p, "code", json_object_new_string(v->problems[i].code));
		sp_json_add(p, "message", json_object_new_string(v->problems[i].message));
		sp_json_add(p, "result", v->problems[i].result >= 0 ?
		    json_object_new_int(v->problems[i].result) : NULL);
		json_object_array_add(arr, p);
	}
	sp_json_add(o, "problems", arr);
	return o;
}

static int print_bench_json(const struct sp_bench_doc *doc)
{
	json_object *o = json_object_new_object(), *cmds = json_object_new_array(), *res;
	size_t i;

	if (!o || !cmds) {
		json_object_put(o);
		json_object_put(cmds);
		return -ENOMEM;
	}
	sp_json_add(o, "bench", json_object_new_string(doc->bench));
	sp_json_add(o, "dry_run", json_object_new_boolean(doc->dry_run));
	sp_json_add(o, "tool_version", sp_json_str_or_null(doc->env ? doc->env->tool_version : NULL));
	sp_json_add(o, "module_version", sp_json_str_or_null(doc->env ? doc->env->module_version : NULL));
	sp_json_add(o, "kernel_release", sp_json_str_or_null(doc->env ? doc->env->kernel_release : NULL));
	sp_json_add(o, "host", sp_json_str_or_null(doc->env ? doc->env->host : NULL));
	sp_json_add(o, "arguments", jstrv(doc->args, doc->n_args));
	sp_json_add(o, "out_dir", sp_json_str_or_null(doc->out_dir));
	if (doc->input) {
		json_object *in = json_object_new_object();

		if (in) {
			sp_json_add(in, "file", json_object_new_string(doc->input));
			sp_json_add(in, "exit_status", doc->input_exit == SP_BENCH_EXIT_UNKNOWN ? NULL :
			    json_object_new_int(doc->input_exit));
		}
		sp_json_add(o, "input", in);
	}
	for (i = 0; doc->cmds && i < doc->cmds->n; i++)
		json_object_array_add(cmds, json_bench_cmd(&doc->cmds->v[i], doc->out_dir,
							   doc->dry_run));
	sp_json_add(o, "commands", cmds);
	if (!doc->dry_run) {
		res = json_object_new_array();
		for (i = 0; res && i < doc->n_results; i++)
			json_object_array_add(res, json_bench_result(&doc->results[i]));
		sp_json_add(o, "results", res);
		sp_json_add(o, "summary", json_bench_summary(doc));
		sp_json_add(o, "counters_source", doc->trace ? json_object_new_string("kernel trace") :
		    doc->counters ? json_object_new_string("sysfs snapshots") : NULL);
		sp_json_add(o, "trace", doc->trace ? sp_json_trace_report(doc->trace, false) : NULL);
		sp_json_add(o, "counters", doc->counters ? json_bench_counters(doc->counters) : NULL);
		sp_json_add(o, "verdict", json_bench_verdict(&doc->verdict));
	}
	return sp_print_json(o);
}

/* ---- bench: text ---- */

static void text_bench_cmd(FILE *f, const struct sp_bench_cmd *c, bool dry_run)
{
	const struct sp_bench_exec *x = &c->x;
	char *line = sp_bench_cmdline(c);

	if (c->role == SP_BENCH_ROLE_MANUAL)
		fprintf(f, "# %s: start it on %s first\n", c->name, c->host);
	else if (c->host)
		fprintf(f, "# %s: on %s over ssh\n", c->name, c->host);
	else
		fprintf(f, "# %s\n", c->name);
	fprintf(f, "%s%s\n", dry_run ? "" : "  ", line ? line : "(out of memory)");
	free(line);
	if (dry_run || c->role == SP_BENCH_ROLE_MANUAL)
		return;
	if (x->exec_error)
		fprintf(f, "  -> not started: %s\n", x->exec_error);
	else if (!x->ran)
		fprintf(f, "  -> not run\n");
	else if (x->signal)
		fprintf(f, "  -> %s by signal %d after %.1f s\n",
			x->timed_out ? "stopped at its deadline" : "ended", x->signal, x->elapsed_s);
	else
		fprintf(f, "  -> exit %d after %.1f s\n", x->exit_status, x->elapsed_s);
}

static void text_perftest(FILE *f, const char *label, const struct sp_perftest *p)
{
	uint64_t bytes;
	double avg;
	size_t i;

	if (sp_perftest_bw_average(p, &bytes, &avg)) {
		fprintf(f, "%s: %s, %" PRIu64 " B: BW average %.3f Gbit/s", label, p->test, bytes,
			sp_perftest_gbit_per_s(p->unit, avg));
		if (p->unit != SP_PERFTEST_UNIT_GBIT)
			fprintf(f, " (reported: %.2f %s)", avg, sp_perftest_unit_str(p->unit));
		if (p->n_bw > 1)
			fprintf(f, ", the mean of the rows of that size (%zu rows)", p->n_bw);
		fputc('\n', f);
	}
	for (i = 0; i < p->n_lat; i++) {
		const struct sp_perftest_lat_row *l = &p->lat[i];

		if (l->full)
			fprintf(f, "%s: %s, %" PRIu64 " B x %" PRIu64 ": typical %.2f, avg %.2f, "
				"p99 %.2f, p99.9 %.2f, max %.2f usec (%s)\n", label, p->test,
				l->bytes, l->iterations, l->t_typical_us, l->t_avg_us, l->p99_us,
				l->p99_9_us, l->t_max_us,
				sp_perftest_lat_one_way(p) ? "one way: half the round trip" :
				"round trip");
		else
			fprintf(f, "%s: %s, %" PRIu64 " B: avg %.2f usec, %.0f transactions/s\n",
				label, p->test, l->bytes, l->t_avg_us, l->tps);
	}
}

static void text_iperf3(FILE *f, const char *label, const struct sp_iperf3 *r)
{
	double gbps;

	if (!sp_iperf3_gbit_per_s(r, &gbps))
		return;
	fprintf(f, "%s: %.3f Gbit/s %s", label, gbps, r->sum_received.has ? "received" : "sent");
	if (r->sum_sent.has && r->sum_sent.has_retransmits)
		fprintf(f, ", %" PRIu64 " retransmits", r->sum_sent.retransmits);
	if (r->n_streams)
		fprintf(f, ", %zu stream%s", r->n_streams, r->n_streams == 1 ? "" : "s");
	fputc('\n', f);
}

static void cell_half(char *cell, const struct sp_nccl_half *h, bool bus)
{
	if (!h->has)
		snprintf(cell, SP_CELL_MAX, "-");
	else
		snprintf(cell, SP_CELL_MAX, "%.2f", bus ? h->busbw_gb_per_s : h->algbw_gb_per_s);
}

enum { NC_SIZE, NC_TIME, NC_ALG, NC_BUS, NC_BUS_IP, NC_GBIT, NC_WRONG, NC_COLS };

static const struct sp_fixed_col nccl_col[NC_COLS] = {
	[NC_SIZE] = { "size[B]", 12 },
	[NC_TIME] = { "time[us]", 9 },
	[NC_ALG] = { "algbw[GB/s]", 0 },
	[NC_BUS] = { "busbw[GB/s]", 0 },
	[NC_BUS_IP] = { "in-place", 0 },
	[NC_GBIT] = { "busbw x 8[Gbit/s]", 0 },
	[NC_WRONG] = { "#wrong", 0 },
};

static void text_nccl(FILE *f, const char *label, const struct sp_nccl *n)
{
	char cell[NC_COLS][SP_CELL_MAX];
	struct sp_nccl_summary s;
	size_t i;

	sp_nccl_summarize(n, &s);
	fprintf(f, "%s: %s%s%s\n", label, n->collective[0] ? n->collective : "nccl-tests",
		n->network[0] ? ", network " : "", n->network);
	if (!n->n_rows)
		return;
	sp_print_fixed(nccl_col, NC_COLS, NULL, NULL);
	for (i = 0; i < n->n_rows; i++) {
		const struct sp_nccl_row *r = &n->rows[i];
		const struct sp_nccl_half *h = &r->out_of_place;
		bool wrong = h->has_wrong || r->in_place.has_wrong;

		snprintf(cell[NC_SIZE], SP_CELL_MAX, "%" PRIu64, r->size_bytes);
		snprintf(cell[NC_TIME], SP_CELL_MAX, "%.2f", h->time_us);
		cell_half(cell[NC_ALG], h, false);
		cell_half(cell[NC_BUS], h, true);
		cell_half(cell[NC_BUS_IP], &r->in_place, true);
		snprintf(cell[NC_GBIT], SP_CELL_MAX, "%.1f", h->busbw_gb_per_s * 8);
		snprintf(cell[NC_WRONG], SP_CELL_MAX, "%s", !wrong ? "N/A" :
			 (h->has_wrong && h->wrong > 0) ||
			 (r->in_place.has_wrong && r->in_place.wrong > 0) ? "yes" : "0");
		sp_print_fixed(nccl_col, NC_COLS, cell, NULL);
	}
	fprintf(f, "at %" PRIu64 " B: busbw %.2f GB/s = %.1f Gbit/s each way (2 ranks), peak "
		"busbw %.2f GB/s", s.size_bytes, s.busbw_gb_per_s, s.per_direction_gbit_per_s,
		s.peak_busbw_gb_per_s);
	if (n->has_avg_busbw)
		fprintf(f, ", avg busbw %.4g GB/s (all sizes)", n->avg_busbw_gb_per_s);
	fputc('\n', f);
}

static void text_llm(FILE *f, const char *label, const struct sp_llm *l)
{
	size_t i;

	fprintf(f, "%s (%s):", label, l->kind ? l->kind : "?");
	if (l->has_completed)
		fprintf(f, " %" PRIu64 " completed", l->completed);
	if (l->has_failed)
		fprintf(f, ", %" PRIu64 " failed", l->failed);
	if (l->has_requested)
		fprintf(f, " of %" PRIu64, l->requested);
	fputc('\n', f);
	for (i = 0; i < l->n_metrics; i++)
		fprintf(f, "  %-40s %.10g\n", l->metrics[i].name, l->metrics[i].value);
}

static void text_bench_counters(FILE *f, const struct sp_bench_counters *c)
{
	double secs = bench_interval_s(c);
	size_t i, k;
	uint64_t d;

	fprintf(f, "counters (%s, %.2f s; only those that moved):\n", c->source, secs);
	for (i = 0; i < c->n; i++) {
		const struct sp_bench_counter_set *s = &c->sets[i];

		for (k = 0; k < s->n; k++) {
			const struct sp_bench_counter *x = &s->c[k];
			uint64_t scale = sp_bench_counter_scale(x->name);

			if (!sp_bench_counter_delta(x, &d) || !d)
				continue;
			if (s->port)
				fprintf(f, "  %s/%u  %-28s +%" PRIu64, s->dev, s->port, x->name, d);
			else
				fprintf(f, "  %s  %-28s +%" PRIu64, s->dev, x->name, d);
			if (bench_counter_bytes(x->name) && secs > 0)
				fprintf(f, "  (%.3f Gbit/s)", (double)(d * scale) * 8 / secs / 1e9);
			fputc('\n', f);
		}
	}
}

static int print_bench_text(const struct sp_bench_doc *doc)
{
	FILE *f = sp_print_file();
	struct bench_sum s;
	size_t i;

	for (i = 0; doc->cmds && i < doc->cmds->n; i++)
		text_bench_cmd(f, &doc->cmds->v[i], doc->dry_run);
	if (doc->dry_run)
		return 0;
	if (doc->input) {
		fprintf(f, "%s output %s", doc->results[0].label, doc->input);
		if (doc->input_exit != SP_BENCH_EXIT_UNKNOWN)
			fprintf(f, " (exit status %d)", doc->input_exit);
		fputc('\n', f);
	}
	for (i = 0; i < doc->n_results; i++) {
		const struct sp_bench_result *r = &doc->results[i];

		switch (r->tool) {
		case SP_BENCH_PERFTEST:
			text_perftest(f, r->label, &r->u.perftest);
			break;
		case SP_BENCH_IPERF3:
			text_iperf3(f, r->label, &r->u.iperf3);
			break;
		case SP_BENCH_NCCL:
			text_nccl(f, r->label, &r->u.nccl);
			break;
		case SP_BENCH_NONE:
			break;
		default:
			text_llm(f, r->label, &r->u.llm);
			break;
		}
	}
	bench_sum(doc, &s);
	if (s.parts > 1)
		fprintf(f, "sum: %.3f Gbit/s (%zu side by side)\n", s.gbit_per_s, s.parts);
	if (doc->counters)
		text_bench_counters(f, doc->counters);
	if (doc->trace) {
		sp_print_trace_report(doc->trace, "\nCounters during the bench:", false, NULL);
		fputc('\n', f);
	}
	for (i = 0; i < doc->verdict.n; i++)
		fprintf(f, "%s: %s: %s\n", sp_bench_level_str(doc->verdict.problems[i].level),
			doc->verdict.problems[i].code, doc->verdict.problems[i].message);
	fprintf(f, "verdict: %s\n", sp_bench_level_str(doc->verdict.level));
	if (doc->out_dir && doc->cmds)
		fprintf(f, "output: %s\n", doc->out_dir);
	return 0;
}

int sp_print_bench(const struct sp_bench_doc *doc)
{
	return sp_print_is_json() ? print_bench_json(doc) : print_bench_text(doc);
}
