// SPDX-License-Identifier: GPL-2.0
/*
 * probe bw: from each half, a short bandwidth run and a latency run of the
 * module to the peer's sparkperf server, judged. Only a bandwidth probe
 * shows the degraded ConnectX-7 state (a clean 200G link, PCIe x4, clean
 * counters, and 8 to 25 Gbit/s per half). The probes are sparkperf-ctl's
 * own "bw run" and "lat run", run as programs, so that each item names the
 * command that repeats it by hand (see sparkperf-ctl(8), CHECK).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "doctor.h"
#include "lib/print.h"
#include "lib/selfrun.h"

/* A 2 s run with its connection and teardown, under emulation too. */
#define PROBE_TIMEOUT_MS 60000

/*
 * A ConnectX-7 half: below 80 Gbit/s fails, as the DGX Spark playbooks'
 * check-connectx-bandwidth does; below 90 % of what its link and PCIe
 * allow warns (a healthy half moves ~112 Gbit/s with 4 QPs, its PCIe Gen5
 * x4 ~115).
 */
#define CX7_FAIL_GBIT 80.0
#define EXPECTED_WARN 0.9
#define PCI_VENDOR_MELLANOX 0x15b3
#define PCI_DEVICE_CONNECTX7 0x1021
/* PCIe: 128b/130b from 8 GT/s on (8b/10b below), 24 bytes of a TLP per 256-byte payload */
#define PCIE_TLP_EFFICIENCY (256.0 / 280.0)
/* Another NIC, against its best sibling half: below half fails, below 80 % warns. */
#define SIBLING_FAIL 0.5
#define SIBLING_WARN 0.8

/* ---- running the probes ---------------------------------------------------------- */

static void probe_bw(const struct sp_probe_target *t, struct sp_probe_result *r)
{
	const struct sp_selfrun run = {
		.prog = "/proc/self/exe", .peer = t->peer, .dev = t->dev,
		.args = SP_PROBE_BW_ARGS, .timeout_ms = PROBE_TIMEOUT_MS,
	};
	struct sp_selfrun_bw bw;

	sp_selfrun_bw(&run, &bw);
	r->has_bw = bw.ok;
	r->gbit_per_s = bw.gbit_per_s;
	r->no_server = bw.no_server;
	r->not_permitted = bw.not_permitted;
	snprintf(r->bw_error, sizeof(r->bw_error), "%s", bw.why);
}

static void probe_lat(const struct sp_probe_target *t, struct sp_probe_result *r)
{
	const struct sp_selfrun run = {
		.prog = "/proc/self/exe", .peer = t->peer, .dev = t->dev,
		.args = SP_PROBE_LAT_ARGS, .timeout_ms = PROBE_TIMEOUT_MS,
	};
	struct sp_selfrun_lat lat;

	sp_selfrun_lat(&run, &lat);
	r->has_lat = lat.ok;
	r->rtt_p50_ns = lat.rtt_p50_ns;
	r->rtt_p99_ns = lat.rtt_p99_ns;
	snprintf(r->lat_error, sizeof(r->lat_error), "%s", lat.why);
}

int sp_check_probe_run(const struct sp_probe_target *t, struct sp_probe_result *r)
{
	memset(r, 0, sizeof(*r));
	probe_bw(t, r);
	/* no server, no permission: the latency probe would only say so again */
	if (r->no_server || r->not_permitted)
		snprintf(r->lat_error, sizeof(r->lat_error), "%s", r->bw_error);
	else
		probe_lat(t, r);
	return 0;
}

/* ---- judging ------------------------------------------------------------------------ */

static const struct sp_port *target_port(const struct sp_doctor *d, const struct sp_probe_target *t,
					 const struct sp_dev **dev)
{
	size_t i, j;

	for (i = 0; i < d->devs.n; i++) {
		if (strcmp(d->devs.devs[i].name, t->dev))
			continue;
		*dev = &d->devs.devs[i];
		for (j = 0; j < (*dev)->n_ports; j++)
			if ((*dev)->ports[j].has_netdev &&
			    !strcmp((*dev)->ports[j].netdev_name, t->netdev))
				return &(*dev)->ports[j];
	}
	return NULL;
}

/* A PCI function's ID file ("0x15b3"), 0 when it cannot be read. */
static uint32_t pci_id(struct sp_doctor *d, const char *parent, const char *file)
{
	char path[128], *s;
	uint32_t id;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", parent, file);
	if (sp_io_read_line(&d->io, path, &s))
		return 0;
	id = (uint32_t)strtoul(s, NULL, 16);
	free(s);
	return id;
}

static bool is_connectx7(struct sp_doctor *d, const struct sp_dev *dev)
{
	return dev && dev->has_parent &&
	       pci_id(d, dev->parent, "vendor") == PCI_VENDOR_MELLANOX &&
	       pci_id(d, dev->parent, "device") == PCI_DEVICE_CONNECTX7;
}

/* What the half's PCIe link can carry, in Gbit/s; 0 when unknown. */
static double pcie_gbit(const struct sp_doctor *d, const char *dev, char *what, size_t len)
{
	const struct sp_pcie_link *l;
	size_t i;

	for (i = 0; i < d->n_pcie; i++) {
		l = &d->pcie[i];
		if (strcmp(l->dev, dev))
			continue;
		snprintf(what, len, "PCIe x%u at %.1f GT/s", l->width, l->speed_gt_per_s);
		return l->width * l->speed_gt_per_s * (l->speed_gt_per_s >= 8.0 ? 128.0 / 130 : 0.8) *
		       PCIE_TLP_EFFICIENCY;
	}
	return 0;
}

/* The best figure of another half of this host, and its device. */
static double best_sibling(const struct sp_doctor *d, const struct sp_probe_result *res, size_t k,
			   const char **dev)
{
	double best = 0;
	size_t i;

	for (i = 0; i < d->n_probe_targets; i++) {
		if (!res[i].has_bw || !strcmp(d->probe_targets[i].dev, d->probe_targets[k].dev) ||
		    res[i].gbit_per_s <= best)
			continue;
		best = res[i].gbit_per_s;
		*dev = d->probe_targets[i].dev;
	}
	return best;
}

static void judge_connectx7(struct sp_doctor *d, const char *name, const struct sp_port *p,
			    const struct sp_probe_target *t, double gbit, const char *shape)
{
	static const char fix_degraded[] = "the degraded ConnectX-7 state: update the firmware "
		"(fwupdmgr refresh && fwupdmgr update), shut down and drain AC power (unplug for "
		"a minute), then check again; see this half's pcie item";
	char pcie[48] = "", allows[96] = "";
	double link = p ? p->rate_mbps / 1000.0 : 0, bus = pcie_gbit(d, t->dev, pcie, sizeof(pcie));
	double expected = bus && (!link || bus < link) ? bus : link;

	if (expected)
		snprintf(allows, sizeof(allows), "; its %s allows %.0f Gbit/s",
			 expected == bus ? pcie : "link", expected);
	if (gbit < CX7_FAIL_GBIT)
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix_degraded, "%.1f Gbit/s to %s (%s), below "
			      "the %.0f Gbit/s a ConnectX-7 half must move%s", gbit, t->peer, shape,
			      CX7_FAIL_GBIT, allows);
	else if (expected && gbit < EXPECTED_WARN * expected)
		sp_doctor_add(d, SP_CHECK_WARN, name, "look at the peer's half and the switch port, "
			      "and repeat the probe by hand", "%.1f Gbit/s to %s (%s), below %.0f %% of "
			      "what it should move%s", gbit, t->peer, shape, EXPECTED_WARN * 100,
			      allows);
	else
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%.1f Gbit/s to %s (%s)%s", gbit, t->peer,
			      shape, allows);
	if (expected)
		sp_check_fact_num(&d->list, "expected_gbit_per_s", expected, 1);
}

static void judge_other(struct sp_doctor *d, const char *name, const struct sp_port *p,
			const struct sp_probe_target *t, double gbit, const char *shape,
			double sibling, const char *sibling_dev)
{
	char link[48] = "";

	if (p && p->rate_mbps)
		snprintf(link, sizeof(link), "; its port says %.0f Gbit/s",
			 p->rate_mbps / 1000.0);
	if (!sibling)
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%.3g Gbit/s to %s (%s)%s; no other "
			      "half to compare with, and no figure known for this NIC", gbit,
			      t->peer, shape, link);
	else if (gbit < SIBLING_FAIL * sibling)
		sp_doctor_add(d, SP_CHECK_FAIL, name, "look at this half's cable, the peer's half "
			      "and the switch port between (a shaper, errors, a slow link)", "%.3g "
			      "Gbit/s to %s (%s), %.0f %% of what %s moves (%.3g)%s", gbit, t->peer,
			      shape, 100 * gbit / sibling, sibling_dev, sibling, link);
	else if (gbit >= sibling)
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%.3g Gbit/s to %s (%s), the most of "
			      "the halves; next %s (%.3g)%s", gbit, t->peer, shape, sibling_dev,
			      sibling, link);
	else
		sp_doctor_add(d, gbit < SIBLING_WARN * sibling ? SP_CHECK_WARN : SP_CHECK_PASS, name,
			      gbit < SIBLING_WARN * sibling ? "repeat the probe by hand; look at the "
			      "link if it stays low" : NULL, "%.3g Gbit/s to %s (%s), %.0f %% of what "
			      "%s moves (%.3g)%s", gbit, t->peer, shape, 100 * gbit / sibling,
			      sibling_dev, sibling, link);
	if (sibling)
		sp_check_fact_num(&d->list, "sibling_gbit_per_s", sibling, 3);
}

static void judge_bw(struct sp_doctor *d, const struct sp_probe_result *res, size_t k)
{
	static const char shape[] = "4 QPs, 1 MiB writes, 2 s";
	const struct sp_probe_target *t = &d->probe_targets[k];
	const struct sp_probe_result *r = &res[k];
	const char *sibling_dev = NULL;
	const struct sp_dev *dev = NULL;
	const struct sp_port *p = target_port(d, t, &dev);
	char name[96], fix[160];
	double sibling;

	snprintf(name, sizeof(name), "probe-bw %s %s", t->dev, t->peer);
	if (r->not_permitted) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "the module's sessions need "
			      "CAP_NET_ADMIN: run check as root to measure %s", t->peer);
	} else if (r->no_server) {
		snprintf(fix, sizeof(fix), "start one there (sparkperf-ctl server start), or leave "
			 "the probes out (check ... probe none)");
		sp_doctor_add(d, SP_CHECK_WARN, name, fix, "no sparkperf server answers at %s: not "
			      "measured", t->peer);
	} else if (!r->has_bw) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, "repeat it by hand (sparkperf-ctl bw run peer "
			      "ADDR dev DEV " SP_PROBE_BW_ARGS ") and see the kernel log there and "
			      "on the peer", "the bandwidth probe to %s failed: %s", t->peer,
			      r->bw_error);
	} else if (is_connectx7(d, dev)) {
		judge_connectx7(d, name, p, t, r->gbit_per_s, shape);
	} else {
		sibling = best_sibling(d, res, k, &sibling_dev);
		judge_other(d, name, p, t, r->gbit_per_s, shape, sibling, sibling_dev);
	}
	sp_check_fact_str(&d->list, "device", t->dev);
	sp_check_fact_str(&d->list, "netdev", t->netdev);
	sp_check_fact_str(&d->list, "peer", t->peer);
	if (r->has_bw)
		sp_check_fact_num(&d->list, "gbit_per_s", r->gbit_per_s, 3);
}

static void judge_lat(struct sp_doctor *d, const struct sp_probe_result *r,
		      const struct sp_probe_target *t)
{
	char name[96];

	snprintf(name, sizeof(name), "probe-lat %s %s", t->dev, t->peer);
	if (r->not_permitted)
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "the module's sessions need "
			      "CAP_NET_ADMIN: run check as root to measure %s", t->peer);
	else if (r->no_server)
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "no sparkperf server answers at %s",
			      t->peer);
	else if (!r->has_lat)
		sp_doctor_add(d, SP_CHECK_FAIL, name, "repeat it by hand (sparkperf-ctl lat run peer "
			      "ADDR dev DEV " SP_PROBE_LAT_ARGS ") and see the kernel log there and "
			      "on the peer", "the latency probe to %s failed: %s", t->peer,
			      r->lat_error);
	else
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "64-byte write round trips to %s: p50 "
			      "%.2f us, p99 %.2f us", t->peer, r->rtt_p50_ns / 1000.0,
			      r->rtt_p99_ns / 1000.0);
	sp_check_fact_str(&d->list, "device", t->dev);
	sp_check_fact_str(&d->list, "peer", t->peer);
	if (r->has_lat) {
		sp_check_fact_u64(&d->list, "rtt_p50_ns", r->rtt_p50_ns);
		sp_check_fact_u64(&d->list, "rtt_p99_ns", r->rtt_p99_ns);
	}
}

void sp_check_probe(struct sp_doctor *d)
{
	struct sp_probe_result res[SP_DOCTOR_PEERS];
	size_t i;

	if (!d->module) {
		sp_doctor_add(d, SP_CHECK_SKIP, "probe", NULL, "the module runs the probes");
		return;
	}
	if (!d->n_probe_targets) {
		sp_doctor_add(d, SP_CHECK_SKIP, "probe", NULL, "no peer reached directly from an "
			      "RDMA netdev");
		return;
	}
	/* all first: each half is judged against the others */
	for (i = 0; i < d->n_probe_targets; i++)
		if (d->probe(&d->probe_targets[i], &res[i]))
			d->ret = -ENOMEM;
	for (i = 0; i < d->n_probe_targets && !d->ret; i++) {
		judge_bw(d, res, i);
		judge_lat(d, &res[i], &d->probe_targets[i]);
	}
}
