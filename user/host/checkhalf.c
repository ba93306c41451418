// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's items of each half, and of memory: what DGX Spark owners
 * report going wrong between two Sparks (see sparkperf-ctl(8), CHECK, for
 * the sources of each threshold).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "doctor.h"

/* ---- PCIe ------------------------------------------------------------------------ */

static const char *first_netdev(const struct sp_dev *dev)
{
	size_t i;

	for (i = 0; i < dev->n_ports; i++)
		if (dev->ports[i].has_netdev)
			return dev->ports[i].netdev_name;
	return NULL;
}

static void pcie_link(struct sp_doctor *d, const struct sp_dev *dev, const char *name,
		      char *const *v)
{
	static const char fix_width[] = "a Spark half at x2 is the second controller before "
		"the 2026-04 BIOS: update it (fwupdmgr refresh && fwupdmgr update); else "
		"reseat the card or cable and check power (dmesg | grep -i -e pcie -e mlx5)";
	static const char fix_speed[] = "the link trained below its maximum: reseat the card "
		"or cable, check power (dmesg | grep -i -e pcie -e mlx5)";
	uint32_t width, max_width;
	double speed = strtod(v[2], NULL), max_speed = strtod(v[3], NULL);
	char w[32], s[48];
	bool narrow, slow;

	if (sp_parse_u32(v[0], 1, 32, &width) || sp_parse_u32(v[1], 1, 32, &max_width) ||
	    speed <= 0 || max_speed <= 0) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s reports an unknown PCIe link (x%s "
			      "of x%s, %s of %s)", dev->parent, v[0], v[1], v[2], v[3]);
		return;
	}
	if (d->n_pcie < SP_DOCTOR_PEERS) {
		struct sp_pcie_link *l = &d->pcie[d->n_pcie++];

		snprintf(l->dev, sizeof(l->dev), "%s", dev->name);
		l->width = width;
		l->speed_gt_per_s = speed;
	}
	narrow = width < max_width;
	slow = speed < max_speed;
	/* "x2 of x4", or "x4" at its maximum; sysfs says "32.0 GT/s PCIe" */
	if (narrow)
		snprintf(w, sizeof(w), "x%u of x%u", width, max_width);
	else
		snprintf(w, sizeof(w), "x%u", width);
	if (slow)
		snprintf(s, sizeof(s), "%.1f of %.1f GT/s", speed, max_speed);
	else
		snprintf(s, sizeof(s), "%.1f GT/s", speed);
	if (!narrow && !slow)
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "PCIe %s at %s, its maximum (%s)", w, s,
			      dev->parent);
	else
		sp_doctor_add(d, SP_CHECK_FAIL, name, narrow ? fix_width : fix_speed, "PCIe %s at "
			      "%s (%s): the link trained below its maximum%s", w, s, dev->parent,
			      narrow ? ", with fewer lanes" : "");
	sp_check_fact_u64(&d->list, "pcie_width", width);
	sp_check_fact_u64(&d->list, "pcie_max_width", max_width);
	sp_check_fact_num(&d->list, "pcie_speed_gt_per_s", speed, 1);
	sp_check_fact_num(&d->list, "pcie_max_speed_gt_per_s", max_speed, 1);
}

static void pcie_dev(struct sp_doctor *d, const struct sp_dev *dev)
{
	static const char *const attrs[] = {
		"current_link_width", "max_link_width", "current_link_speed", "max_link_speed",
	};
	const char *netdev = first_netdev(dev);
	char name[96], path[160], *v[4] = { NULL };
	size_t i;

	if (netdev)
		snprintf(name, sizeof(name), "pcie %s (%s)", dev->name, netdev);
	else
		snprintf(name, sizeof(name), "pcie %s", dev->name);
	if (!dev->has_parent) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s has no PCI function (software "
			      "RDMA)", dev->name);
		return;
	}
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev->parent, attrs[i]);
		if (sp_io_read_line(&d->io, path, &v[i]))
			break;
	}
	if (i < 4)
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s reports no PCIe link (%s)",
			      dev->parent, attrs[i]);
	else
		pcie_link(d, dev, name, v);
	sp_check_fact_str(&d->list, "device", dev->name);
	if (netdev)
		sp_check_fact_str(&d->list, "netdev", netdev);
	sp_check_fact_str(&d->list, "parent", dev->parent);
	for (i = 0; i < 4; i++)
		free(v[i]);
}

void sp_check_pcie(struct sp_doctor *d)
{
	size_t i;

	for (i = 0; d->module && i < d->devs.n; i++)
		pcie_dev(d, &d->devs.devs[i]);
}

/* ---- GID index --------------------------------------------------------------------- */

static const struct sp_port *half_port(const struct sp_doctor *d, const struct sp_half *h)
{
	size_t i, j;

	for (i = 0; i < d->devs.n; i++)
		for (j = 0; j < d->devs.devs[i].n_ports; j++)
			if (!strcmp(d->devs.devs[i].name, h->dev) &&
			    d->devs.devs[i].ports[j].num == h->port)
				return &d->devs.devs[i].ports[j];
	return NULL;
}

/* "fe80::1 (RoCE v1, link-local)" for the GID at index i of the half's port */
static void gid_at(const struct sp_port *p, uint32_t i, char *buf, size_t len)
{
	char gid[SP_GID_STRLEN];
	size_t g;

	for (g = 0; p && g < p->n_gids; g++) {
		if (p->gids[g].index != i)
			continue;
		sp_fmt_gid(p->gids[g].raw, gid, sizeof(gid));
		snprintf(buf, len, "%s (%s%s)", gid, sp_gid_type_str(p->gids[g].type),
			 p->gids[g].raw[0] == 0xfe && (p->gids[g].raw[1] & 0xc0) == 0x80 ?
			 ", link-local" : "");
		return;
	}
	snprintf(buf, len, "not in its GID table");
}

/*
 * What is wrong with a GID index that "what" pins (value as given), for
 * half h, in why; false when nothing is. Empty and 0 are the link-local
 * trap: an empty NCCL_IB_GID_INDEX in a compose file parses as 0.
 */
static bool pin_wrong(const struct sp_port *p, const struct sp_half *h, const char *what,
		      const char *value, char *why, size_t len)
{
	char gid[SP_GID_STRLEN + 32];
	uint32_t n;

	if (!*value) {
		gid_at(p, 0, gid, sizeof(gid));
		snprintf(why, len, "%s is empty, which parses as 0, the link-local trap: index 0 "
			 "is %s", what, gid);
		return true;
	}
	/* NCCL's default: it finds each HCA's RoCE v2 IPv4 GID itself */
	if (!strcmp(value, "-1"))
		return false;
	if (sp_parse_u32(value, 0, UINT32_MAX, &n)) {
		snprintf(why, len, "%s '%s' is no GID index", what, value);
		return true;
	}
	if (n == h->gid_index)
		return false;
	gid_at(p, n, gid, sizeof(gid));
	snprintf(why, len, "%s %u is %s%s", what, n, n ? "" : "the link-local trap: ", gid);
	return true;
}

static void half_facts(struct sp_doctor *d, const struct sp_half *h)
{
	sp_check_fact_str(&d->list, "device", h->dev);
	sp_check_fact_u64(&d->list, "port", h->port);
	sp_check_fact_str(&d->list, "netdev", h->netdev);
	if (h->parent[0])
		sp_check_fact_str(&d->list, "parent", h->parent);
}

static void fmt_half_addr(const struct sp_half *h, char *buf, size_t len)
{
	char ip[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &h->addr, ip, sizeof(ip));
	if (h->prefix)
		snprintf(buf, len, "%s/%u", ip, h->prefix);
	else
		snprintf(buf, len, "%s", ip);
}

static void gid_index_half(struct sp_doctor *d, const struct sp_half *h,
			   const struct sp_doctor_opts *o)
{
	const struct sp_port *p = half_port(d, h);
	char name[96], hname[SP_HALF_NAME_MAX], addr[32], arg[16], fix[320];
	char why[2][160] = { "", "" };
	bool env_bad = false, arg_bad = false;

	snprintf(name, sizeof(name), "gid-index %s", sp_half_name(h, hname, sizeof(hname)));
	if (!h->has_ipv4) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "no RoCE v2 GID of an IPv4 address "
			      "(the NCCL and perftest GID)");
	} else {
		fmt_half_addr(h, addr, sizeof(addr));
		snprintf(arg, sizeof(arg), "%u", o->gid_index);
		if (o->nccl_gid_index)
			env_bad = pin_wrong(p, h, "NCCL_IB_GID_INDEX", o->nccl_gid_index, why[0],
					    sizeof(why[0]));
		if (o->has_gid_index)
			arg_bad = pin_wrong(p, h, "gid-index", arg, why[1], sizeof(why[1]));
		snprintf(fix, sizeof(fix), "leave NCCL_IB_GID_INDEX unset (NCCL finds each HCA's "
			 "RoCE v2 IPv4 GID itself), or give this half %u (perftest: -x %u): the "
			 "indexes differ per half and host, and move when addresses do",
			 h->gid_index, h->gid_index);
		if (env_bad || arg_bad)
			sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "RoCE v2 IPv4 GID index %u "
				      "(%s), but %s%s%s", h->gid_index, addr, why[0],
				      env_bad && arg_bad ? "; " : "", why[1]);
		else
			sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "RoCE v2 IPv4 GID index %u "
				      "(%s)%s", h->gid_index, addr,
				      o->nccl_gid_index || o->has_gid_index ? ", as pinned" : "");
	}
	half_facts(d, h);
	sp_check_fact_str(&d->list, "state", h->active ? "ACTIVE" : "not ACTIVE");
	if (h->has_ipv4) {
		sp_check_fact_str(&d->list, "address", addr);
		sp_check_fact_u64(&d->list, "gid_index", h->gid_index);
	}
}

void sp_check_gid_index(struct sp_doctor *d, const struct sp_doctor_opts *o)
{
	size_t i;

	for (i = 0; d->module && i < d->halves.n; i++)
		gid_index_half(d, &d->halves.v[i], o);
}

/* ---- GID index drift ------------------------------------------------------------ */

#define GID_STATE_FILE "gid-index"

/* The line after p's, NULL after the last one. */
static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

/* The index a half had in the state file's "DEV PORT INDEX" lines; false: not there. */
static bool previous_index(const char *state, const struct sp_half *h, uint32_t *index)
{
	char dev[SPARKPERF_DEV_NAME_MAX];
	unsigned int port, i;
	const char *line;

	for (line = state; line && *line; line = next_line(line))
		if (sscanf(line, "%63s %u %u", dev, &port, &i) == 3 && !strcmp(dev, h->dev) &&
		    port == h->port) {
			*index = i;
			return true;
		}
	return false;
}

static void drift_moved(struct sp_doctor *d, const struct sp_half *h, uint32_t previous)
{
	char name[96], hname[SP_HALF_NAME_MAX];

	snprintf(name, sizeof(name), "gid-drift %s", sp_half_name(h, hname, sizeof(hname)));
	sp_doctor_add(d, SP_CHECK_WARN, name, "leave NCCL_IB_GID_INDEX unset (NCCL finds the RoCE "
		      "v2 IPv4 GID itself); an address added or removed on any netdev (by "
		      "NetworkManager, docker, a second address) moves the indexes", "RoCE v2 IPv4 "
		      "GID index %u, %u at the previous check: a pinned NCCL_IB_GID_INDEX or "
		      "perftest -x now picks another GID on this half", h->gid_index, previous);
	half_facts(d, h);
	sp_check_fact_u64(&d->list, "gid_index", h->gid_index);
	sp_check_fact_u64(&d->list, "previous_gid_index", previous);
}

/* Writes text to the state file: the directory made, the file replaced at once. */
static int state_write(struct sp_doctor *d, const char *path, const char *text)
{
	int ret = d->state_io.mkdir(&d->state_io, d->state_dir);

	if (ret && ret != -EEXIST)
		return ret;
	return d->state_io.write(&d->state_io, path, text, true, 0644);
}

void sp_check_gid_drift(struct sp_doctor *d)
{
	char path[PATH_MAX], *state = NULL, *now = NULL, *list = NULL;
	size_t i, moved = 0, listed = 0, len = 0, llen = 0;
	FILE *f = open_memstream(&now, &len), *l = open_memstream(&list, &llen);
	uint32_t previous;
	int ret;

	if (!f || !l) {
		d->ret = -ENOMEM;
		goto out;
	}
	if (!d->module) {
		sp_doctor_add(d, SP_CHECK_SKIP, "gid-drift", NULL, "the module lists the GIDs");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/" GID_STATE_FILE, d->state_dir);
	if (d->state_io.read(&d->state_io, path, &state, NULL))
		state = NULL;
	for (i = 0; i < d->halves.n; i++) {
		const struct sp_half *h = &d->halves.v[i];

		if (!h->has_ipv4)
			continue;
		fprintf(f, "%s %u %u\n", h->dev, h->port, h->gid_index);
		fprintf(l, "%s%s/%u %u", listed++ ? ", " : "", h->dev, h->port, h->gid_index);
		if (previous_index(state, h, &previous) && previous != h->gid_index) {
			drift_moved(d, h, previous);
			moved++;
		}
	}
	if (fclose(f) | fclose(l)) {
		f = l = NULL;
		d->ret = -ENOMEM;
		goto out;
	}
	f = l = NULL;
	if (!listed) {
		sp_doctor_add(d, SP_CHECK_SKIP, "gid-drift", NULL, "no RoCE v2 IPv4 GID to follow");
		goto out;
	}
	ret = state_write(d, path, now);
	if (ret && !state)
		sp_doctor_add(d, SP_CHECK_SKIP, "gid-drift", NULL, "cannot remember the GID "
			      "indexes in %s: %s (run check as root, or set SPARKPERF_STATE_DIR)",
			      d->state_dir, strerror(-ret));
	else if (!moved)
		sp_doctor_add(d, SP_CHECK_PASS, "gid-drift", NULL, "%s: %s%s%s", state ? "as at "
			      "the previous check" : "remembered for the next check", list,
			      ret ? "; cannot update " : "", ret ? path : "");
out:
	if (f)
		fclose(f);
	if (l)
		fclose(l);
	free(state);
	free(now);
	free(list);
}

/* ---- driver and firmware ------------------------------------------------------------ */

static bool same_driver(const struct sp_drvinfo *a, const char *driver, const char *version,
			const char *fw)
{
	return !strcmp(a->driver, driver) && !strcmp(a->version, version) &&
	       !strcmp(a->fw_version, fw);
}

/* "mlx5_core 6.8.0, firmware 28.45.4028" */
static void fmt_driver(char *buf, size_t len, const char *driver, const char *version,
		       const char *fw)
{
	snprintf(buf, len, "%s %s, %s%s", driver, version, fw[0] ? "firmware " : "no firmware "
		 "version", fw);
}

static void firmware_half(struct sp_doctor *d, const struct sp_half *h, struct sp_drvinfo *ref,
			  const struct sp_half **ref_half)
{
	char name[96], hname[SP_HALF_NAME_MAX], what[160], other[160];
	struct sp_drvinfo info;
	int ret = d->drvinfo(h->netdev, &info);

	snprintf(name, sizeof(name), "firmware %s", sp_half_name(h, hname, sizeof(hname)));
	if (ret) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "ethtool -i of %s: %s", h->netdev,
			      strerror(-ret));
		return;
	}
	fmt_driver(what, sizeof(what), info.driver, info.version, info.fw_version);
	if (!*ref_half) {
		*ref = info;
		*ref_half = h;
	}
	if (same_driver(ref, info.driver, info.version, info.fw_version)) {
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%s (%s)", what, info.bus_info);
	} else {
		fmt_driver(other, sizeof(other), ref->driver, ref->version, ref->fw_version);
		sp_doctor_add(d, SP_CHECK_WARN, name, "update every ConnectX-7 function alike "
			      "(fwupdmgr update), then power the host off and on (AC off: a warm "
			      "reboot keeps the old firmware running)", "%s (%s), but %s has %s: "
			      "the halves differ", what, info.bus_info, (*ref_half)->dev, other);
	}
	half_facts(d, h);
	sp_check_fact_str(&d->list, "driver", info.driver);
	sp_check_fact_str(&d->list, "driver_version", info.version);
	sp_check_fact_str(&d->list, "firmware_version", info.fw_version);
	sp_check_fact_str(&d->list, "bus_info", info.bus_info);
}

/* A peer's halves (its -j check) against the first half here. */
static void firmware_peer(struct sp_doctor *d, const struct sp_halves *peer,
			  const struct sp_drvinfo *ref)
{
	char name[96], here[160], list[256] = "";
	size_t i, known = 0, len = 0;

	snprintf(name, sizeof(name), "firmware %.80s", peer->host[0] ? peer->host : peer->origin);
	for (i = 0; i < peer->n; i++) {
		const struct sp_half *h = &peer->v[i];

		if (!h->driver[0])
			continue;
		known++;
		if (!same_driver(ref, h->driver, h->driver_version, h->firmware_version) &&
		    len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %s %s, %s",
						len ? "; " : "", h->dev, h->driver,
						h->driver_version, h->firmware_version);
	}
	fmt_driver(here, sizeof(here), ref->driver, ref->version, ref->fw_version);
	if (!known)
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s has no firmware items (the output "
			      "of -j dev? give the host's -j check)", peer->origin);
	else if (len)
		sp_doctor_add(d, SP_CHECK_WARN, name, "the same driver and firmware on every host "
			      "(fwupdmgr update, then AC off and on)", "%s; here %s: the hosts "
			      "differ", list, here);
	else
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%zu half%s as here: %s", known,
			      known == 1 ? "" : "s", here);
}

void sp_check_firmware(struct sp_doctor *d, const struct sp_doctor_opts *o)
{
	const struct sp_half *ref_half = NULL;
	struct sp_drvinfo ref;
	size_t i;

	for (i = 0; d->module && i < d->halves.n; i++)
		firmware_half(d, &d->halves.v[i], &ref, &ref_half);
	for (i = 0; ref_half && i < o->n_peer_files; i++)
		firmware_peer(d, &o->peer_files[i], &ref);
}

/* ---- memory ------------------------------------------------------------------------ */

/* A "Key:   123 kB" line of /proc/meminfo in bytes; false when it has none. */
static bool meminfo_bytes(const char *meminfo, const char *key, uint64_t *bytes)
{
	const char *p = meminfo;
	size_t klen = strlen(key);
	unsigned long long kib;

	for (; p && *p; p = next_line(p)) {
		if (!strncmp(p, key, klen) && p[klen] == ':' &&
		    sscanf(p + klen + 1, "%llu", &kib) == 1) {
			*bytes = (uint64_t)kib * 1024;
			return true;
		}
	}
	return false;
}

/* MemAvailable is no round number: "22.4GiB" */
static void fmt_gib(uint64_t bytes, char *buf, size_t len)
{
	snprintf(buf, len, "%.1fGiB", (double)bytes / (1ULL << 30));
}

void sp_check_memory(struct sp_doctor *d, const struct sp_doctor_opts *o)
{
	char *meminfo = NULL, avail_s[SP_SIZE_STRLEN], size_s[SP_SIZE_STRLEN];
	char need_s[SP_SIZE_STRLEN], cma_s[SP_SIZE_STRLEN];
	uint64_t avail, cma, need = 2 * o->nccl_bytes;
	int ret = d->io.read(&d->io, "/proc/meminfo", &meminfo, NULL);

	if (ret || !meminfo_bytes(meminfo, "MemAvailable", &avail)) {
		sp_doctor_add(d, SP_CHECK_SKIP, "memory", NULL, "no MemAvailable in "
			      "/proc/meminfo%s%s", ret ? ": " : "", ret ? strerror(-ret) : "");
		free(meminfo);
		return;
	}
	fmt_gib(avail, avail_s, sizeof(avail_s));
	sp_fmt_size(o->nccl_bytes, size_s, sizeof(size_s));
	sp_fmt_size(need, need_s, sizeof(need_s));
	if (!o->nccl_bytes)
		sp_doctor_add(d, SP_CHECK_PASS, "memory", NULL, "MemAvailable %s", avail_s);
	else if (need > avail)
		sp_doctor_add(d, SP_CHECK_FAIL, "memory", "a smaller largest size (bench nccl "
			      "sizes 256M..4G), or free memory first", "nccl-tests with %s "
			      "messages allocate about %s (2 x the size), more than MemAvailable "
			      "%s: on a Spark the GPU's memory is this unified memory, and a host "
			      "out of it freezes", size_s, need_s, avail_s);
	else
		sp_doctor_add(d, SP_CHECK_PASS, "memory", NULL, "MemAvailable %s: room for "
			      "nccl-tests with %s messages (about 2 x %s)", avail_s, size_s, size_s);
	sp_check_fact_u64(&d->list, "mem_available_bytes", avail);
	if (o->nccl_bytes) {
		sp_check_fact_u64(&d->list, "nccl_bytes", o->nccl_bytes);
		sp_check_fact_u64(&d->list, "nccl_needed_bytes", need);
	}

	if (!meminfo_bytes(meminfo, "CmaTotal", &cma) || !cma)
		sp_doctor_add(d, SP_CHECK_WARN, "cma", "a kernel with CMA (CONFIG_CMA) and a "
			      "reserve (cma=SIZE on its command line)", "%s: registering large "
			      "buffers (ibv_reg_mr) can fail with ENOMEM, as on a DGX OS 7.0 "
			      "kernel", strstr(meminfo, "CmaTotal:") ? "CmaTotal 0" : "no CmaTotal "
			      "in /proc/meminfo (a kernel without CMA)");
	else
		sp_doctor_add(d, SP_CHECK_PASS, "cma", NULL, "CmaTotal %s",
			      sp_fmt_size(cma, cma_s, sizeof(cma_s)));
	if (strstr(meminfo, "CmaTotal:"))
		sp_check_fact_u64(&d->list, "cma_total_bytes", cma);
	free(meminfo);
}

/* ---- RoCE MTU ---------------------------------------------------------------------- */

/* A jumbo probe out of netdev that found the path's MTU smaller. */
static const struct sp_jumbo_short *short_path(const struct sp_doctor *d, const char *netdev)
{
	size_t i;

	for (i = 0; i < d->n_short_paths; i++)
		if (!strcmp(d->short_paths[i].netdev, netdev))
			return &d->short_paths[i];
	return NULL;
}

static void roce_mtu_port(struct sp_doctor *d, const struct sp_dev *dev, const struct sp_port *p)
{
	const struct sp_jumbo_short *sp = short_path(d, p->netdev_name);
	uint32_t want = sp_roce_mtu_for(p->netdev_mtu);
	const char *cause = NULL;
	char name[96];

	snprintf(name, sizeof(name), "roce-mtu %s/%u", dev->name, p->num);
	if (p->active_mtu < want) {
		cause = "device";
		sp_doctor_add(d, SP_CHECK_WARN, name, "the RDMA device did not follow the netdev's "
			      "MTU: check 'rdma link show' and the driver's messages", "%u bytes, "
			      "MTU %u of %s gives %u", p->active_mtu, p->netdev_mtu, p->netdev_name,
			      want);
	} else if (p->active_mtu < 4096) {
		cause = "netdev";
		sp_doctor_add(d, SP_CHECK_WARN, name, "sparkperf-ctl tune apply (MTU 9000 on both "
			      "ends, and on the switch)", "%u bytes: MTU %u of %s on this end "
			      "gives %u; 4096 needs an MTU of at least 4192 (4096 and 96 bytes of "
			      "RoCE headers), 9000 gives it", p->active_mtu, p->netdev_mtu,
			      p->netdev_name, p->active_mtu);
	} else if (sp) {
		cause = "peer_or_switch";
		sp_doctor_add(d, SP_CHECK_WARN, name, sp_doctor_jumbo_fix, "%u bytes here (MTU %u of %s), "
			      "but full frames do not reach %s: the peer or the switch has a "
			      "smaller MTU, and a connection runs at the smaller RoCE MTU of its "
			      "two ends", p->active_mtu, p->netdev_mtu, p->netdev_name, sp->peer);
	} else {
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%u bytes from MTU %u of %s",
			      p->active_mtu, p->netdev_mtu, p->netdev_name);
	}
	sp_check_fact_str(&d->list, "device", dev->name);
	sp_check_fact_u64(&d->list, "port", p->num);
	sp_check_fact_str(&d->list, "netdev", p->netdev_name);
	sp_check_fact_u64(&d->list, "active_mtu_bytes", p->active_mtu);
	sp_check_fact_u64(&d->list, "netdev_mtu_bytes", p->netdev_mtu);
	if (cause)
		sp_check_fact_str(&d->list, "cause", cause);
}

void sp_check_roce_mtu(struct sp_doctor *d)
{
	size_t i, j;

	for (i = 0; d->module && i < d->devs.n; i++)
		for (j = 0; j < d->devs.devs[i].n_ports; j++)
			if (d->devs.devs[i].ports[j].has_netdev)
				roce_mtu_port(d, &d->devs.devs[i], &d->devs.devs[i].ports[j]);
}
