// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl watch: the live TX/RX view of some ports, from a counter
 * trace. Per port the bytes come from ethtool tx_bytes_phy/rx_bytes_phy
 * when the netdev has them (mlx5: every byte on the port, RoCE included),
 * else from netdev stats64 tx_bytes/rx_bytes (RDMA included only for
 * software RoCE, whose traffic goes through the netdev).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/tracenl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "lib/traceprint.h"
#include "lib/rate.h"
#include "lib/run.h"
#include "lib/tracerun.h"
#include "view.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WATCH_PERIOD_US_DEFAULT 100000
#define WATCH_VIEW_MAX 8192

static const char watch_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] watch dev DEV[,DEV...] [ period TIME ]\n"
	"               [ duration TIME ] [ scale { link | peak } ]\n"
	"       sparkperf-ctl watch help\n"
	"where  OPTIONS := { -j[son] }\n"
	"       DEV := a netdev or an RDMA device (its port's netdev); one row each\n"
	"       TIME := period: sampling and refresh, 1ms..60s, default 100ms;\n"
	"               duration: until Ctrl-C without it\n"
	"       scale: full scale of the bars, the port's link rate (default, where\n"
	"              known) or the highest peak seen\n"
	"Rates in Gbit/s (10^9 bit/s) from tx_bytes_phy/rx_bytes_phy (ethtool) when the\n"
	"netdev has them, else from netdev stats64 tx_bytes/rx_bytes.\n"
	"On a terminal the view is redrawn each period; otherwise one line per port\n"
	"and period; -j: one JSON object per line and period, then a summary object.\n";

static const char *const watch_globs[] = {
	"ethtool:tx_bytes_phy", "ethtool:rx_bytes_phy", "netdev:tx_bytes", "netdev:rx_bytes",
};

/* What the summary of watch adds per port. */
struct watch_sum {
	double tx_mean_bps, rx_mean_bps;	/* bit/s over the whole watch */
	uint64_t tx_bytes, rx_bytes;		/* counted during the watch */
};

struct wport {
	char name[SP_IFNAME_MAX + SPARKPERF_DEV_NAME_MAX + 8];
	const char *netdev, *rdma;
	int stream;			/* of the byte counters, -1: none */
	const char *source;
	struct sp_view_port v;
	struct watch_sum sum;
	uint64_t last_samples;		/* readings of the TX counter seen */
};

static const struct sp_tl_counter *find_counter(const struct sp_tl_stream *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n_counters; i++)
		if (!strcmp(st->counters[i].name, name))
			return &st->counters[i];
	return NULL;
}

/* The stream of source for netdev that has both counters, or -1. */
static int byte_stream(const struct sp_tracelog *tl, const char *netdev, unsigned int source,
		       const char *tx, const char *rx)
{
	size_t i;

	for (i = 0; i < tl->n_streams; i++) {
		const struct sp_tl_stream *st = &tl->streams[i];

		if (st->info.source == source && !strcmp(st->info.target, netdev) &&
		    find_counter(st, tx) && find_counter(st, rx))
			return (int)i;
	}
	return -1;
}

static void choose_sources(struct wport *ps, size_t n, const struct sp_tracelog *tl)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct wport *p = &ps[i];

		p->stream = byte_stream(tl, p->netdev, SPARKPERF_SRC_ETHTOOL, "tx_bytes_phy",
					"rx_bytes_phy");
		p->source = "ethtool tx_bytes_phy/rx_bytes_phy";
		if (p->stream < 0) {
			p->stream = byte_stream(tl, p->netdev, SPARKPERF_SRC_NETDEV, "tx_bytes",
						"rx_bytes");
			p->source = "netdev stats64 tx_bytes/rx_bytes (RDMA only if soft-RoCE)";
		}
		p->v.name = p->name;
		p->v.source = p->source;
	}
}

/* New readings since the last view: the rates of the last period. true when any. */
static bool update(struct wport *ps, size_t n, const struct sp_tracelog *tl)
{
	bool any = false;
	size_t i;

	for (i = 0; i < n; i++) {
		struct wport *p = &ps[i];
		const struct sp_tl_stream *st;
		const struct sp_tl_counter *tx, *rx;
		bool phy;
		double secs;

		if (p->stream < 0)
			continue;
		st = &tl->streams[p->stream];
		phy = st->info.source == SPARKPERF_SRC_ETHTOOL;
		tx = find_counter(st, phy ? "tx_bytes_phy" : "tx_bytes");
		rx = find_counter(st, phy ? "rx_bytes_phy" : "rx_bytes");
		if (!tx || !rx || tx->samples == p->last_samples)
			continue;
		p->last_samples = tx->samples;
		any = true;
		p->v.tx_bps = tx->has_rate ? tx->rate : 0;
		p->v.rx_bps = rx->has_rate ? rx->rate : 0;
		if (tx->has_peak && tx->peak_rate > p->v.tx_peak_bps)
			p->v.tx_peak_bps = tx->peak_rate;
		if (rx->has_peak && rx->peak_rate > p->v.rx_peak_bps)
			p->v.rx_peak_bps = rx->peak_rate;
		p->sum.tx_bytes = tx->delta;
		p->sum.rx_bytes = rx->delta;
		secs = tx->last_ts_ns > tx->first_ts_ns ?
		       (double)(tx->last_ts_ns - tx->first_ts_ns) / 1e9 : 0;
		p->sum.tx_mean_bps = secs > 0 ? 8.0 * (double)tx->delta / secs : 0;
		p->sum.rx_mean_bps = secs > 0 ? 8.0 * (double)rx->delta / secs : 0;
	}
	return any;
}

static unsigned int term_width(void)
{
	struct winsize ws;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

/* The live view on a terminal: home, clear, text (from sp_view_render); flushed. */
static void print_view_screen(const char *text)
{
	fprintf(sp_print_file(), "\033[H\033[J%s", text);
	fflush(sp_print_file());
}

static void print_view_line(const char *line)
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
	sp_json_add(o, "tx_gbit_per_s", sp_json_gbit_per_s(p->tx_bps));
	sp_json_add(o, "rx_gbit_per_s", sp_json_gbit_per_s(p->rx_bps));
	sp_json_add(o, "tx_peak_gbit_per_s", sp_json_gbit_per_s(p->tx_peak_bps));
	sp_json_add(o, "rx_peak_gbit_per_s", sp_json_gbit_per_s(p->rx_peak_bps));
	sp_json_add(o, "link_gbit_per_s", p->link_bps > 0 ? sp_json_gbit_per_s(p->link_bps) : NULL);
	return o;
}

/*
 * watch -j: one compact JSON object per line, {"type": "sample" or
 * "summary", "elapsed_ns", "period_ns", "ports": [...], ...}; flushed.
 */
static int print_watch_json(const struct sp_view *v, const char *const *netdevs,
			    const char *const *rdma_devs, const struct watch_sum *sums,
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
			sp_json_add(p, "tx_mean_gbit_per_s", sp_json_gbit_per_s(sums[i].tx_mean_bps));
			sp_json_add(p, "rx_mean_gbit_per_s", sp_json_gbit_per_s(sums[i].rx_mean_bps));
			sp_json_add(p, "tx_bytes", sp_json_u64(sums[i].tx_bytes));
			sp_json_add(p, "rx_bytes", sp_json_u64(sums[i].rx_bytes));
		}
		json_object_array_add(arr, p);
		tx += summary && sums ? sums[i].tx_mean_bps : v->ports[i].tx_bps;
		rx += summary && sums ? sums[i].rx_mean_bps : v->ports[i].rx_bps;
	}
	sp_json_add(o, "ports", arr);
	sp_json_add(o, summary ? "full_duplex_mean_gbit_per_s" : "full_duplex_gbit_per_s",
		    sp_json_gbit_per_s(tx + rx));
	return sp_print_json_line(o) ? -ENOMEM : sp_print_flush();
}

/* The text summary at the end of watch: mean and peak per port, the aggregate. */
static int print_watch_summary(const struct sp_view *v, const struct watch_sum *sums)
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

struct watch {
	struct wport *ports;
	size_t n;
	struct sp_view_port *vp;
	const char **netdevs, **rdmas;
	struct sp_view v;
	char title[128];
	bool tty, json;
};

static void draw(struct watch *w, double elapsed_s)
{
	static char buf[WATCH_VIEW_MAX];
	size_t i;

	for (i = 0; i < w->n; i++)
		w->vp[i] = w->ports[i].v;
	w->v.elapsed_s = elapsed_s;
	if (w->json) {
		print_watch_json(&w->v, w->netdevs, w->rdmas, NULL, false);
		return;
	}
	if (w->tty) {
		w->v.width = term_width();
		sp_view_render(buf, sizeof(buf), &w->v);
		print_view_screen(buf);
		return;
	}
	for (i = 0; i < w->n; i++) {
		sp_view_line(buf, sizeof(buf), &w->v, i);
		print_view_line(buf);
	}
}

/* The netdev's speed as full scale where the RDMA port told none (ethtool netlink). */
static void link_speeds(struct watch *w)
{
	struct sp_link_modes m;
	struct sp_nl et;
	size_t i;

	for (i = 0; i < w->n && w->ports[i].v.link_bps > 0; i++)
		;
	if (i == w->n || sp_nl_open_ethtool(&et))
		return;
	for (i = 0; i < w->n; i++)
		if (w->ports[i].v.link_bps <= 0 && !sp_nl_link_modes(&et, w->ports[i].netdev, &m) &&
		    m.has_speed && m.speed_mbps && m.speed_mbps != UINT32_MAX)
			w->ports[i].v.link_bps = m.speed_mbps * 1e6;
	sp_nl_close(&et);
}

static int watch_loop(struct sp_run *r, struct sp_tracerun *t, struct watch *w,
		      const struct sp_trace_config *cfg)
{
	int64_t start = sp_run_now_ms(), deadline = 0, now;
	bool stopped = false;
	int ret;

	if (cfg->has_duration)
		deadline = start + cfg->duration_ms + 2000;
	while (!t->ended) {
		struct pollfd pfd = { .fd = sp_tracerun_fd(t), .events = POLLIN };
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 500000000 };

		if (!stopped && sp_run_signal_pending(&r->sig)) {
			ret = sp_nl_trace_stop(&t->nl, t->tl.trace.id);
			if (ret && ret != -ENOENT)
				return ret;
			stopped = true;
			deadline = sp_run_now_ms() + 2000;
		}
		now = sp_run_now_ms();
		if (deadline && now >= deadline)
			break;
		if (ppoll(&pfd, 1, &ts, &r->sig.wait_mask) < 0 && errno != EINTR)
			return -errno;
		ret = sp_tracerun_recv(t);
		if (ret)
			return ret;
		if (update(w->ports, w->n, &t->tl))
			draw(w, (double)(sp_run_now_ms() - start) / 1000);
	}
	return 0;
}

static int watch_run(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_port_pair pairs[SPARKPERF_TRACE_TARGETS_MAX];
	struct sp_trace_config cfg = { 0 };
	const char *dev = NULL, *period = NULL, *scale = "link";
	struct sp_kv kv[] = {
		{ .key = "dev", .what = "device list", .type = SP_KV_STRING, .dst = &dev },
		{ .key = "period", .type = SP_KV_STRING, .dst = &period },
		{ .key = "duration", .type = SP_KV_DURATION_MS, .min = 1,
		  .max = SPARKPERF_TRACE_DURATION_MS_MAX, .dst = &cfg.duration_ms },
		{ .key = "scale", .type = SP_KV_STRING, .dst = &scale },
	};
	struct sp_list devs = { 0 };
	struct watch w = { 0 };
	uint32_t period_us = WATCH_PERIOD_US_DEFAULT;
	size_t n_pairs = 0, i, k;
	struct sp_tracerun t;
	struct sp_run r;
	uint64_t ns;
	int rc, ret;

	if (sp_kv_args_end("watch", watch_usage, argc, argv, kv, ARRAY_SIZE(kv), &ret))
		return ret;
	if (!dev)
		return sp_usage_error("watch", "Missing 'dev DEV[,DEV...]'");
	if (strcmp(scale, "link") && strcmp(scale, "peak"))
		return sp_usage_error("watch", "Invalid scale: '%s' (link or peak)", scale);
	if (period) {
		ret = sp_parse_duration(period, 1000000, 60000000000ULL, &ns);
		if (ret || ns % 1000)
			return sp_usage_error("watch", "Invalid period: '%s' (1ms..60s)", period);
		period_us = (uint32_t)(ns / 1000);
	}
	cfg.has_duration = kv[2].seen;
	cfg.has_netdev_period = cfg.has_ethtool_period = true;
	cfg.netdev_period_us = cfg.ethtool_period_us = period_us;
	cfg.has_batch = true;
	cfg.batch_ms = period_us / 1000 > 1000 ? 1000 : period_us / 1000;
	for (i = 0; i < ARRAY_SIZE(watch_globs); i++)
		cfg.globs[i] = watch_globs[i];
	cfg.n_globs = ARRAY_SIZE(watch_globs);
	rc = sp_port_names_parse("watch", dev, &devs);
	if (rc)
		goto out_args;

	rc = sp_run_start(&r, "watch");
	if (rc)
		goto out_args;
	rc = sp_port_pairs_resolve(&r.ctl, "watch", "run", &devs, pairs, ARRAY_SIZE(pairs),
				   &n_pairs);
	if (rc)
		goto out_run;
	/* one row per netdev; the byte counters are the netdev's */
	w.ports = calloc(n_pairs, sizeof(*w.ports));
	w.vp = calloc(n_pairs, sizeof(*w.vp));
	w.netdevs = calloc(n_pairs, sizeof(*w.netdevs));
	w.rdmas = calloc(n_pairs, sizeof(*w.rdmas));
	if (!w.ports || !w.vp || !w.netdevs || !w.rdmas) {
		sp_err(stderr, "%s", strerror(ENOMEM));
		rc = SP_EXIT_ERROR;
		goto out_run;
	}
	for (i = 0; i < n_pairs; i++) {
		struct wport *p = &w.ports[w.n];

		if (!pairs[i].has_netdev) {
			fprintf(stderr, "Warning: %s port %u has no netdev: not shown.\n",
				pairs[i].rdma, pairs[i].port);
			continue;
		}
		for (k = 0; k < cfg.n_targets; k++)
			if (!strcmp(cfg.targets[k].name, pairs[i].netdev))
				break;
		if (k == cfg.n_targets) {
			if (cfg.n_targets == SPARKPERF_TRACE_TARGETS_MAX)
				continue;
			cfg.targets[cfg.n_targets].rdma = false;
			snprintf(cfg.targets[cfg.n_targets].name,
				 sizeof(cfg.targets[0].name), "%s", pairs[i].netdev);
			cfg.n_targets++;
		}
		p->netdev = pairs[i].netdev;
		p->rdma = pairs[i].has_rdma ? pairs[i].rdma : NULL;
		sp_port_pair_label(&pairs[i], p->name, sizeof(p->name));
		if (!strcmp(scale, "link"))
			p->v.link_bps = pairs[i].rate_mbps * 1e6;
		w.netdevs[w.n] = p->netdev;
		w.rdmas[w.n] = p->rdma;
		w.n++;
	}
	if (!strcmp(scale, "link"))
		link_speeds(&w);
	if (!w.n) {
		sp_err(stderr, "no netdev to watch in '%s'", dev);
		rc = SP_EXIT_ERROR;
		goto out_run;
	}
	rc = sp_tracerun_start(&t, "watch", "run", &cfg, NULL, 0, false, true);
	if (rc)
		goto out_trace;
	choose_sources(w.ports, w.n, &t.tl);
	for (i = 0; i < w.n; i++)
		if (w.ports[i].stream < 0) {
			sp_err(stderr, "%s has no byte counters", w.ports[i].netdev);
			rc = SP_EXIT_ERROR;
			goto out_trace;
		}
	w.json = ctx->json;
	w.tty = !w.json && isatty(STDOUT_FILENO);
	snprintf(w.title, sizeof(w.title), "sparkperf watch  %s", r.env.env.host ?
		 r.env.env.host : "");
	w.v.title = w.title;
	w.v.period_s = period_us / 1e6;
	w.v.ports = w.vp;
	w.v.n_ports = w.n;
	w.v.width = 80;
	ret = watch_loop(&r, &t, &w, &cfg);
	if (!ret)
		ret = sp_tracerun_finish(&t);
	if (ret) {
		sp_report_nl_error(stderr, "watch", "run", ret, &t.nl.err);
		rc = SP_EXIT_ERROR;
	}
	update(w.ports, w.n, &t.tl);
	for (i = 0; i < w.n; i++)
		w.vp[i] = w.ports[i].v;
	w.v.elapsed_s = (double)t.tl.trace.elapsed_ns / 1e9;
	{
		struct watch_sum *sums = calloc(w.n, sizeof(*sums));

		for (i = 0; sums && i < w.n; i++)
			sums[i] = w.ports[i].sum;
		if (!sums)
			rc = SP_EXIT_ERROR;
		else if (w.json)
			print_watch_json(&w.v, w.netdevs, w.rdmas, sums, true);
		else
			print_watch_summary(&w.v, sums);
		free(sums);
	}
	if (sp_tracerun_failed(&t))
		rc = SP_EXIT_ERROR;
out_trace:
	sp_tracerun_close(&t);
out_run:
	free(w.ports);
	free(w.vp);
	free(w.netdevs);
	free(w.rdmas);
	sp_run_end(&r);
out_args:
	sp_list_free(&devs);
	return rc;
}

static const struct sp_cmd watch_cmds[] = {
	{ "run", watch_run },
};

int sp_cmd_watch(const struct sp_ctx *ctx, int argc, char **argv)
{
	/* "watch dev X": no command word */
	if (argc && !sp_is_help(argv[0]) && strcmp(argv[0], "run"))
		return watch_run(ctx, argc, argv);
	return sp_cmd_dispatch(ctx, "watch", watch_cmds, ARRAY_SIZE(watch_cmds), watch_usage,
			       argc, argv);
}
