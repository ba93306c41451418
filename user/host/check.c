// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl check: the preflight doctor. Before measuring, it checks
 * what makes RDMA between two Sparks slow or broken, and says for each
 * failure how to fix it (and which "tune" step does). Read-only, except
 * for the ICMP probes it sends and the GID indexes it remembers (doctor.h,
 * checkhalf.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <sys/utsname.h>

#include "checklist.h"
#include "doctor.h"
#include "lib/cmd.h"
#include "lib/err.h"
#include "host.h"
#include "hostnl.h"
#include "knobs.h"
#include "lib/nl.h"
#include "lib/parse.h"
#include "tuneprint.h"
#include "probe.h"
#include "lib/run.h"
#include "version.h"

#define MAX_PEERS SP_DOCTOR_PEERS
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* what a probe may take: three tries of one second */
#define PROBE_TRIES 3
#define PROBE_TIMEOUT_MS 1000
/* IPv4 and ICMP headers: a payload of MTU - 28 bytes fills a frame */
#define ICMP_OVERHEAD 28

static const char check_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] check [ peer ADDR[,ADDR...] ] [ gid-index N ]\n"
	"                  [ nccl-bytes SIZE ] [ peer-file FILE[,FILE...] ]\n"
	"                  [ probe { bw | none } ]\n"
	"       sparkperf-ctl check help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       ADDR := an IPv4 address of the other Spark's RDMA netdevs\n"
	"       N := the GID index perftest is given (-x N); NCCL_IB_GID_INDEX is read too\n"
	"       SIZE := the largest nccl-tests message planned (its -e): 16G\n"
	"       FILE := another host's 'sparkperf-ctl -j check' output (its firmware)\n"
	"Checks the module, the RDMA ports (state, rate against the link), and of each half\n"
	"(RDMA device) the PCIe link (current against maximum width and speed), the RoCE v2\n"
	"IPv4 GID index (against NCCL_IB_GID_INDEX and gid-index, and the previous check's,\n"
	"remembered in /var/lib/sparkperf or $SPARKPERF_STATE_DIR), the driver and firmware;\n"
	"the MTUs, the RoCE v2 GIDs, the multi-NIC sysctls, the memlock limit, MemAvailable\n"
	"(against 2 x SIZE), CmaTotal, a 256 MiB ibv_reg_mr on each RDMA device; with peers,\n"
	"the route, a jumbo probe (don't fragment, MTU - 28 bytes of ICMP payload) and the\n"
	"neighbour entry of each; then each port's RoCE MTU and its cause; last, with peers,\n"
	"unless probe none: from each half to each peer it reaches directly, a bandwidth\n"
	"probe (bw run " SP_PROBE_BW_ARGS ") and a latency probe (lat run\n"
	SP_PROBE_LAT_ARGS ") to the sparkperf server there (sparkperf-ctl server start on\n"
	"the peer). Exits 1 when an item fails.\n";

void sp_doctor_add(struct sp_doctor *d, enum sp_check_status st, const char *name,
		   const char *fix, const char *fmt, ...)
{
	char detail[sizeof(d->list.items->detail)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (!d->ret)
		d->ret = sp_check_add(&d->list, st, name, fix, "%s", detail);
}

bool sp_doctor_read_u32(struct sp_doctor *d, const char *path, uint32_t *v)
{
	char *s;
	bool ok;

	if (sp_io_read_line(&d->io, path, &s))
		return false;
	ok = !sp_parse_u32(s, 0, UINT32_MAX, v);
	free(s);
	return ok;
}

static bool netdev_mtu(struct sp_doctor *d, const char *dev, uint32_t *mtu)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", dev);
	return sp_doctor_read_u32(d, path, mtu);
}

/* ---- the module and its ports ------------------------------------------------ */

static void check_module(struct sp_doctor *d)
{
	struct utsname uts;
	char fix[160];
	struct sp_info info;
	struct sp_nl nl;
	int ret = sp_nl_open(&nl);

	if (!ret)
		ret = sp_nl_info_get(&nl, &info);
	if (!ret)
		ret = sp_nl_dev_get(&nl, NULL, &d->devs);
	sp_nl_close(&nl);
	if (ret) {
		snprintf(fix, sizeof(fix), "modprobe sparkperf (installed by dkms install "
			 "sparkperf/%s)", SPARKPERF_PKG_VERSION);
		sp_doctor_add(d, SP_CHECK_FAIL, "module", fix, "%s", ret == -ENOENT ?
			      "the sparkperf module is not loaded and cannot be loaded" :
			      nl.err.has_msg ? nl.err.msg : strerror(-ret));
	} else {
		d->module = true;
		sp_doctor_add(d, SP_CHECK_PASS, "module", NULL, "sparkperf %s loaded, %zu RDMA "
			      "device%s", info.version, d->devs.n, d->devs.n == 1 ? "" : "s");
	}
	/* which host's check this is, when another host reads its -j */
	if (!uname(&uts))
		sp_check_fact_str(&d->list, "host", uts.nodename);
}

/* "rxe0/1" */
static void port_name(const struct sp_dev *dev, const struct sp_port *p, const char *what,
		      char *buf, size_t len)
{
	snprintf(buf, len, "%s %s/%u", what, dev->name, p->num);
}

static void check_port_state(struct sp_doctor *d, const struct sp_dev *dev, const struct sp_port *p)
{
	char name[96], fix[160];

	port_name(dev, p, "port", name, sizeof(name));
	if (p->state == SPARKPERF_PORT_ACTIVE) {
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "ACTIVE, %s%s%s",
			      sp_phys_state_str(p->phys_state), p->has_netdev ? ", netdev " : "",
			      p->has_netdev ? p->netdev_name : "");
		return;
	}
	snprintf(fix, sizeof(fix), "check the cable and the other end; bring the netdev up "
		 "(ip link set dev %s up)", p->has_netdev ? p->netdev_name : "NETDEV");
	sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%s, %s", sp_port_state_str(p->state),
		      sp_phys_state_str(p->phys_state));
}

/* The rate of the port against what its netdev and the link partner can do. */
static void check_port_rate(struct sp_doctor *d, struct sp_nl *et, bool et_ok,
			    const struct sp_dev *dev, const struct sp_port *p)
{
	char name[96], rate[SP_RATE_STRLEN], max[SP_RATE_STRLEN];
	struct sp_link_modes m;
	int ret;

	port_name(dev, p, "rate", name, sizeof(name));
	sp_fmt_rate(p->rate_mbps, rate, sizeof(rate));
	if (!p->has_netdev) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s; no netdev to compare with", rate);
		return;
	}
	if (!et_ok) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s; no ethtool netlink in this kernel",
			      rate);
		return;
	}
	ret = sp_nl_link_modes(et, p->netdev_name, &m);
	if (ret || !m.max_mbps) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "%s; %s reports no link modes%s", rate,
			      p->netdev_name, ret ? "" : " (a virtual NIC)");
		return;
	}
	sp_fmt_rate(m.max_mbps, max, sizeof(max));
	if (p->rate_mbps >= m.max_mbps) {
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%s, the fastest mode of %s (%s)", rate,
			      p->netdev_name, m.max_mode);
		return;
	}
	sp_doctor_add(d, SP_CHECK_WARN, name, "reseat or replace the cable; on a switch, fix the "
		      "port's speed (e.g. RouterOS speed=200G-baseCR4 auto-negotiation=no) and FEC",
		      "%s, but %s and its partner can do %s (%s): a degraded link", rate,
		      p->netdev_name, max, m.max_mode);
}

static void check_ports(struct sp_doctor *d)
{
	struct sp_nl et;
	bool et_ok;
	size_t i, j;

	if (!d->module) {
		sp_doctor_add(d, SP_CHECK_SKIP, "ports", NULL, "the module lists the RDMA ports");
		return;
	}
	if (!d->devs.n) {
		sp_doctor_add(d, SP_CHECK_FAIL, "ports", "load the NIC's RDMA driver (mlx5_ib), or "
			      "add soft-RoCE: rdma link add rxe0 type rxe netdev NETDEV", "the "
			      "module sees no RDMA device");
		return;
	}
	et_ok = !sp_nl_open_ethtool(&et);
	for (i = 0; i < d->devs.n; i++) {
		const struct sp_dev *dev = &d->devs.devs[i];

		for (j = 0; j < dev->n_ports; j++) {
			check_port_state(d, dev, &dev->ports[j]);
			check_port_rate(d, &et, et_ok, dev, &dev->ports[j]);
		}
	}
	if (et_ok)
		sp_nl_close(&et);
}

/* ---- MTUs, GIDs, sysctls, limits ----------------------------------------------- */

struct mtu_seen {
	char dev[SP_IFNAME_MAX];
	uint32_t mtu;
};

static void mtu_add(struct sp_doctor *d, struct mtu_seen *seen, size_t *n, const char *dev)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(seen[i].dev, dev))
			return;
	if (*n < MAX_PEERS * 2 && netdev_mtu(d, dev, &seen[*n].mtu)) {
		snprintf(seen[*n].dev, sizeof(seen[*n].dev), "%s", dev);
		(*n)++;
	}
}

/* One MTU on every RDMA netdev and every netdev a peer is reached by. */
static void check_mtus(struct sp_doctor *d, const struct sp_route *routes, size_t n_peers)
{
	struct mtu_seen seen[MAX_PEERS * 2];
	char list[256] = "", fix[320], ifname[IF_NAMESIZE];
	size_t n = 0, i, j, len = 0;
	bool same = true;

	for (i = 0; i < d->devs.n; i++)
		for (j = 0; j < d->devs.devs[i].n_ports; j++)
			if (d->devs.devs[i].ports[j].has_netdev)
				mtu_add(d, seen, &n, d->devs.devs[i].ports[j].netdev_name);
	for (i = 0; i < n_peers; i++)
		if (routes[i].oif && if_indextoname(routes[i].oif, ifname))
			mtu_add(d, seen, &n, ifname);
	if (!n) {
		sp_doctor_add(d, SP_CHECK_SKIP, "mtu", NULL, "no RDMA netdev and no peer to check");
		return;
	}
	for (i = 0; i < n; i++) {
		same = same && seen[i].mtu == seen[0].mtu;
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %u",
						i ? ", " : "", seen[i].dev, seen[i].mtu);
	}
	if (same) {
		sp_doctor_add(d, SP_CHECK_PASS, "mtu", NULL, "%s", list);
		return;
	}
	len = (size_t)snprintf(fix, sizeof(fix), "sparkperf-ctl tune apply dev ");
	for (i = 0; i < n && len < sizeof(fix); i++)
		len += (size_t)snprintf(fix + len, sizeof(fix) - len, "%s%s", i ? "," : "",
					seen[i].dev);
	if (len < sizeof(fix))
		snprintf(fix + len, sizeof(fix) - len, " (the same MTU, 9000, on every one)");
	sp_doctor_add(d, SP_CHECK_FAIL, "mtu", fix, "not the same on every path: %s", list);
}

static const struct sp_port *port_of_netdev(const struct sp_doctor *d, const char *netdev,
					    const struct sp_dev **dev)
{
	size_t i, j;

	for (i = 0; i < d->devs.n; i++) {
		for (j = 0; j < d->devs.devs[i].n_ports; j++) {
			const struct sp_port *p = &d->devs.devs[i].ports[j];

			if (p->has_netdev && !strcmp(p->netdev_name, netdev)) {
				*dev = &d->devs.devs[i];
				return p;
			}
		}
	}
	return NULL;
}

/* Each IPv4 address of an RDMA netdev has its RoCE v2 GID, or RDMA-CM cannot use it. */
static void check_gids(struct sp_doctor *d)
{
	char name[96], ip[INET_ADDRSTRLEN], gip[SP_IPV4_STRLEN];
	const struct sp_dev *dev;
	const struct sp_port *p;
	size_t i, g;
	bool any = false;

	for (i = 0; d->module && i < d->n_addrs; i++) {
		p = port_of_netdev(d, d->addrs[i].dev, &dev);
		if (!p)
			continue;
		any = true;
		inet_ntop(AF_INET, &d->addrs[i].addr, ip, sizeof(ip));
		snprintf(name, sizeof(name), "gid %s", ip);
		for (g = 0; g < p->n_gids; g++)
			if (p->gids[g].type == SPARKPERF_GID_TYPE_ROCE_V2 &&
			    sp_gid_ipv4(p->gids[g].raw, gip, sizeof(gip)) && !strcmp(gip, ip))
				break;
		if (g < p->n_gids)
			sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "RoCE v2 GID index %u of %s/%u "
				      "(%s)", p->gids[g].index, dev->name, p->num, d->addrs[i].dev);
		else
			sp_doctor_add(d, SP_CHECK_FAIL, name, "re-add the address (ip addr del, "
				      "then add, on the netdev) and check the RDMA device with "
				      "'rdma link show'", "no RoCE v2 GID on %s/%u for this "
				      "address of %s", dev->name, p->num, d->addrs[i].dev);
	}
	if (!any)
		sp_doctor_add(d, SP_CHECK_SKIP, "gid", NULL, d->module ? "no IPv4 address on an "
			      "RDMA netdev" : "the module lists the GIDs");
}

/* The value in effect for a netdev: the larger of conf/all and conf/<dev>. */
static bool conf_value(struct sp_doctor *d, const char *dev, const char *knob, uint32_t *v)
{
	uint32_t all, own;
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/all/%s", knob);
	if (!sp_doctor_read_u32(d, path, &all))
		return false;
	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/%s", dev, knob);
	if (!sp_doctor_read_u32(d, path, &own))
		return false;
	*v = all > own ? all : own;
	return true;
}

static void check_multi_nic(struct sp_doctor *d)
{
	static const char fix[] = "sparkperf-ctl tune apply (net.ipv4.conf.all.arp_ignore=1, "
				  "arp_announce=2, rp_filter=2)";
	uint32_t ignore, announce, rp;
	char what[160], name[64];
	size_t i, j;
	bool *shared;

	shared = calloc(d->n_addrs ? d->n_addrs : 1, sizeof(*shared));
	if (!shared) {
		d->ret = -ENOMEM;
		return;
	}
	if (!sp_subnets_shared(d->addrs, d->n_addrs, shared, what, sizeof(what))) {
		sp_doctor_add(d, SP_CHECK_SKIP, "multi-nic", NULL, "no two netdevs share an IPv4 "
			      "subnet");
		free(shared);
		return;
	}
	for (i = 0; i < d->n_addrs; i++) {
		for (j = 0; j < i && strcmp(d->addrs[j].dev, d->addrs[i].dev); j++)
			;
		if (!shared[i] || j < i)
			continue;	/* not shared, or that netdev is done */
		snprintf(name, sizeof(name), "multi-nic %s", d->addrs[i].dev);
		if (!conf_value(d, d->addrs[i].dev, "arp_ignore", &ignore) ||
		    !conf_value(d, d->addrs[i].dev, "arp_announce", &announce) ||
		    !conf_value(d, d->addrs[i].dev, "rp_filter", &rp))
			sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "cannot read its sysctls");
		else if (ignore >= 1 && ignore <= 2 && announce == 2 && rp != 1)
			sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "arp_ignore %u, arp_announce "
				      "%u, rp_filter %u (%s)", ignore, announce, rp, what);
		else
			sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "arp_ignore %u, arp_announce "
				      "%u, rp_filter %u with %s: ARP answers and RoCE v2 packets "
				      "go astray", ignore, announce, rp, what);
	}
	free(shared);
}

static void check_memlock(struct sp_doctor *d)
{
	char size[SP_SIZE_STRLEN];
	uint64_t bytes;

	if (sp_host_memlock(&bytes))
		sp_doctor_add(d, SP_CHECK_SKIP, "memlock", NULL, "cannot read RLIMIT_MEMLOCK");
	else if (bytes == UINT64_MAX)
		sp_doctor_add(d, SP_CHECK_PASS, "memlock", NULL, "unlimited");
	else
		sp_doctor_add(d, SP_CHECK_WARN, "memlock", "sparkperf-ctl tune apply (limits.d), "
			      "then log in again; root is not limited", "%s in this session: RDMA "
			      "programs of other users than root may fail to register memory",
			      sp_fmt_size(bytes, size, sizeof(size)));
}

/* ---- peers ------------------------------------------------------------------- */

static const char *nud_str(uint16_t state)
{
	switch (state) {
	case NUD_REACHABLE:
		return "REACHABLE";
	case NUD_STALE:
		return "STALE";
	case NUD_DELAY:
		return "DELAY";
	case NUD_PROBE:
		return "PROBE";
	case NUD_PERMANENT:
		return "PERMANENT";
	case NUD_NOARP:
		return "NOARP";
	case NUD_INCOMPLETE:
		return "INCOMPLETE";
	case NUD_FAILED:
		return "FAILED";
	default:
		return "NONE";
	}
}

/* A peer reached directly from a half: the probes measure it. */
static void probe_target_add(struct sp_doctor *d, const struct sp_dev *dev, const char *ifname,
			     const char *ip)
{
	struct sp_probe_target *t;

	if (d->n_probe_targets == SP_DOCTOR_PEERS)
		return;
	t = &d->probe_targets[d->n_probe_targets++];
	snprintf(t->dev, sizeof(t->dev), "%s", dev->name);
	snprintf(t->netdev, sizeof(t->netdev), "%s", ifname);
	snprintf(t->peer, sizeof(t->peer), "%s", ip);
}

/* The route to a peer (looked up before: ret); its netdev in ifname. false: none. */
static bool check_route(struct sp_doctor *d, struct sp_nl *rt, int ret, const char *ip,
			const struct sp_route *r, char *ifname)
{
	const struct sp_dev *dev;
	char name[96], fix[200], gw[SP_ADDR_STRLEN];

	snprintf(name, sizeof(name), "route %s", ip);
	if (ret || (r->type != RTN_UNICAST && r->type != RTN_LOCAL) || !r->oif ||
	    !if_indextoname(r->oif, ifname)) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, "give an RDMA netdev an address in the "
			      "peer's subnet (ip addr add ADDR/24 dev NETDEV)", "no route to "
			      "%s%s%s", ip, ret ? ": " : "",
			      ret ? (rt->err.has_msg ? rt->err.msg : strerror(-ret)) : "");
		return false;
	}
	if (r->type == RTN_LOCAL) {
		sp_doctor_add(d, SP_CHECK_WARN, name, "name the other Spark's address", "%s is an "
			      "address of this host (%s)", ip, ifname);
		return true;
	}
	if (d->module && !port_of_netdev(d, ifname, &dev)) {
		snprintf(fix, sizeof(fix), "give the RDMA netdev an address in %s's subnet, so "
			 "that the route to it leaves there", ip);
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%s is reached via %s, which has no "
			      "RDMA device", ip, ifname);
	} else if (r->has_gateway) {
		sp_doctor_add(d, SP_CHECK_WARN, name, "put both ends in one subnet (a Spark pair "
			      "needs no router)", "via %s on %s: routed, not direct",
			      sp_fmt_addr(&r->gateway, gw, sizeof(gw)), ifname);
	} else {
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "direct on %s%s%s", ifname,
			      r->has_prefsrc ? " from " : "",
			      r->has_prefsrc ? sp_fmt_addr(&r->prefsrc, gw, sizeof(gw)) : "");
		if (d->module)
			probe_target_add(d, dev, ifname, ip);
	}
	return true;
}

const char sp_doctor_jumbo_fix[] = "the same MTU (9000) on the peer's netdev (sparkperf-ctl "
				   "tune apply there) and l2mtu 9216 on every switch port between";

/* A probe found the path's MTU smaller than the netdev's: the RoCE MTU item names the cause. */
static void short_path_add(struct sp_doctor *d, const char *ifname, const char *ip)
{
	struct sp_jumbo_short *s;

	if (d->n_short_paths == SP_DOCTOR_PEERS)
		return;
	s = &d->short_paths[d->n_short_paths++];
	snprintf(s->netdev, sizeof(s->netdev), "%s", ifname);
	snprintf(s->peer, sizeof(s->peer), "%s", ip);
}

static void check_jumbo(struct sp_doctor *d, const struct sp_addr *peer, const char *ip,
			const struct sp_route *r, const char *ifname)
{
	const char *fix = sp_doctor_jumbo_fix;
	char name[96];
	struct in_addr a;
	struct sp_probe p, small;
	uint32_t mtu;
	int ret;

	snprintf(name, sizeof(name), "jumbo %s", ip);
	if (!netdev_mtu(d, ifname, &mtu)) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "cannot read the MTU of %s", ifname);
		return;
	}
	if (r->mtu && r->mtu < mtu)
		mtu = r->mtu;
	if (mtu > IP_MAXPACKET)
		mtu = IP_MAXPACKET;	/* loopback's 65536 */
	memcpy(&a, peer->raw, sizeof(a));
	ret = sp_probe_echo(&a, ifname, mtu - ICMP_OVERHEAD, PROBE_TRIES, PROBE_TIMEOUT_MS, &p);
	if (ret) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "cannot send ICMP: %s (run as root, or "
			      "allow ping sockets: net.ipv4.ping_group_range)", strerror(-ret));
		return;
	}
	if (p.send_error) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%u-byte frames with DF cannot leave "
			      "%s: %s", mtu, ifname, strerror(p.send_error));
		short_path_add(d, ifname, ip);
	} else if (p.replied && p.frag_max && p.frag_max < mtu) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%u-byte frames with DF reach %s via "
			      "%s, but the reply came back in fragments of %u bytes: the peer's "
			      "MTU is %u, not %u", mtu, ip, ifname, p.frag_max, p.frag_max, mtu);
		short_path_add(d, ifname, ip);
	} else if (p.replied) {
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%u-byte frames with DF reach %s via "
			      "%s and come back whole (%.2f ms)", mtu, ip, ifname, p.rtt_ms);
	} else if (p.frag_needed) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%u-byte frames with DF to %s via %s: a "
			      "router needs fragments of %u bytes", mtu, ip, ifname, p.frag_needed);
		short_path_add(d, ifname, ip);
	} else if (!sp_probe_echo(&a, ifname, 56, PROBE_TRIES, PROBE_TIMEOUT_MS, &small) &&
		   small.replied) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%u-byte frames with DF do not reach %s "
			      "via %s, small ones do: the path's MTU is smaller", mtu, ip, ifname);
		short_path_add(d, ifname, ip);
	} else {
		sp_doctor_add(d, SP_CHECK_FAIL, name, "check the cable, both addresses and any "
			      "firewall (ping the peer)", "%s does not answer ICMP echo via %s", ip,
			      ifname);
	}
}

static void check_neigh(struct sp_doctor *d, struct sp_nl *rt, const struct sp_addr *peer,
			const char *ip, const struct sp_route *r, const char *ifname)
{
	static const char fix[] = "check that the peer has this address on its RDMA netdev "
				  "(arping -I NETDEV ADDR); two netdevs in one subnet need "
				  "sparkperf-ctl tune apply (arp_ignore, arp_announce)";
	char name[96], mac[3 * SP_LLADDR_MAX];
	struct sp_neigh n;
	size_t i, len = 0;
	int ret;

	snprintf(name, sizeof(name), "neigh %s", ip);
	if (r->type == RTN_LOCAL || r->has_gateway) {
		sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "not a direct neighbour");
		return;
	}
	ret = sp_nl_neigh_get(rt, r->oif, peer, &n);
	if (ret) {
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "no neighbour entry on %s%s%s", ifname,
			      ret == -ENOENT ? "" : ": ", ret == -ENOENT ? "" : strerror(-ret));
		return;
	}
	mac[0] = '\0';
	for (i = 0; i < n.lladdr_len; i++)
		len += (size_t)snprintf(mac + len, sizeof(mac) - len, "%s%02x", i ? ":" : "",
					n.lladdr[i]);
	if (n.state & (NUD_INCOMPLETE | NUD_FAILED) || !n.lladdr_len)
		sp_doctor_add(d, SP_CHECK_FAIL, name, fix, "%s on %s: no answer to ARP",
			      nud_str(n.state), ifname);
	else
		sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%s on %s (%s)", mac, ifname,
			      nud_str(n.state));
}

static void check_peers(struct sp_doctor *d, struct sp_nl *rt, const struct sp_addr *peers,
			size_t n, const struct sp_route *routes, const int *route_ret)
{
	char ip[SP_ADDR_STRLEN], ifname[IF_NAMESIZE], name[64];
	size_t i;

	for (i = 0; i < n; i++) {
		sp_fmt_addr(&peers[i], ip, sizeof(ip));
		if (peers[i].len != 4) {
			snprintf(name, sizeof(name), "peer %s", ip);
			sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "IPv6 peers are not checked "
				      "yet");
			continue;
		}
		if (!check_route(d, rt, route_ret[i], ip, &routes[i], ifname))
			continue;
		check_jumbo(d, &peers[i], ip, &routes[i], ifname);
		/* after the probe, which made the kernel resolve the neighbour */
		check_neigh(d, rt, &peers[i], ip, &routes[i], ifname);
	}
}

/* ---- the command --------------------------------------------------------------- */

static void run_checks(struct sp_doctor *d, const struct sp_addr *peers, size_t n_peers,
		       const struct sp_doctor_opts *o)
{
	struct sp_route routes[MAX_PEERS] = { 0 };
	int route_ret[MAX_PEERS] = { 0 }, ret;
	struct sp_nl rt;
	size_t i;

	check_module(d);
	check_ports(d);
	ret = sp_host_ifaddrs(&d->addrs, &d->n_addrs);
	if (ret)
		sp_doctor_add(d, SP_CHECK_SKIP, "addresses", NULL, "cannot list them: %s",
			      strerror(-ret));
	if (sp_halves_local(&d->devs, d->addrs, d->n_addrs, &d->halves))
		d->ret = -ENOMEM;
	sp_check_pcie(d);
	ret = sp_rtnl_open(&rt);
	/* the routes first: the MTU check looks at the netdevs they leave by */
	for (i = 0; !ret && i < n_peers; i++)
		if (peers[i].len == 4)
			route_ret[i] = sp_nl_route_get(&rt, &peers[i], &routes[i]);
	check_mtus(d, routes, n_peers);
	check_gids(d);
	sp_check_gid_index(d, o);
	sp_check_gid_drift(d);
	sp_check_firmware(d, o);
	check_multi_nic(d);
	check_memlock(d);
	sp_check_memory(d, o);
	sp_check_register(d);
	if (n_peers && ret)
		sp_doctor_add(d, SP_CHECK_SKIP, "peers", NULL, "no rtnetlink socket: %s",
			      strerror(-ret));
	else if (n_peers)
		check_peers(d, &rt, peers, n_peers, routes, route_ret);
	if (!ret)
		sp_nl_close(&rt);
	/* after the jumbo probes, which find a path's MTU smaller than a netdev's */
	sp_check_roce_mtu(d);
	/* last: the module's sessions to the peers' servers, with the paths known */
	if (n_peers && o->probe)
		sp_check_probe(d);
}

/* peer-file FILE,...: the other hosts' -j check. 0 or an exit status. */
static int read_peer_files(const struct sp_list *files, struct sp_halves *out)
{
	char err[320];
	size_t i;
	int ret;

	for (i = 0; i < files->n; i++) {
		ret = sp_halves_read_file(files->items[i], &out[i], err, sizeof(err));
		if (ret) {
			sp_err(stderr, "%s", ret == -ENOMEM ? strerror(ENOMEM) : err);
			return SP_EXIT_ERROR;
		}
	}
	return 0;
}

enum { CK_PEER, CK_GID, CK_BYTES, CK_FILES, CK_PROBE };

int sp_cmd_check(const struct sp_ctx *ctx, int argc, char **argv)
{
	const char *peer_s = NULL, *probe_s = "bw", *state_dir = getenv("SPARKPERF_STATE_DIR");
	struct sp_list files = { 0 };
	struct sp_doctor_opts o = { .nccl_gid_index = getenv("NCCL_IB_GID_INDEX") };
	struct sp_kv kv[] = {
		[CK_PEER] = { .key = "peer", .what = "peer address list", .type = SP_KV_STRING,
			      .dst = &peer_s },
		[CK_GID] = { .key = "gid-index", .what = "GID index", .type = SP_KV_U32,
			     .max = 255, .dst = &o.gid_index },
		[CK_BYTES] = { .key = "nccl-bytes", .what = "NCCL message size",
			       .type = SP_KV_SIZE, .min = 1, .max = 1ULL << 40,
			       .dst = &o.nccl_bytes },
		[CK_FILES] = { .key = "peer-file", .what = "peer file list", .type = SP_KV_LIST,
			       .dst = &files },
		[CK_PROBE] = { .key = "probe", .what = "probe", .type = SP_KV_STRING,
			       .dst = &probe_s },
	};
	struct sp_halves peer_files[MAX_PEERS] = { 0 };
	struct sp_addr peers[MAX_PEERS];
	struct sp_doctor d;
	size_t n_peers = 0, i;
	char err[256];
	int ret;

	(void)ctx;
	if (sp_help_requested(argc, argv, check_usage))
		return SP_EXIT_OK;
	if (sp_parse_kv(argc, argv, kv, ARRAY_SIZE(kv), err, sizeof(err))) {
		sp_list_free(&files);
		return sp_usage_error("check", "%s", err);
	}
	o.has_gid_index = kv[CK_GID].seen;
	o.probe = !strcmp(probe_s, "bw");
	ret = strcmp(probe_s, "bw") && strcmp(probe_s, "none") ?
	      sp_usage_error("check", "Invalid probe: '%s' (bw or none)", probe_s) : 0;
	if (!ret && files.n > MAX_PEERS)
		ret = sp_usage_error("check", "Too many peer files: %zu (at most %d)", files.n,
				     MAX_PEERS);
	if (!ret && peer_s)
		ret = sp_run_parse_peers("check", peer_s, peers, MAX_PEERS, &n_peers);
	if (!ret)
		ret = read_peer_files(&files, peer_files);
	o.peer_files = peer_files;
	o.n_peer_files = files.n;
	memset(&d, 0, sizeof(d));
	sp_knob_io_files(&d.io, "");
	sp_knob_io_files(&d.state_io, "");
	d.state_dir = state_dir && *state_dir ? state_dir : "/var/lib/sparkperf";
	d.drvinfo = sp_host_drvinfo;
	d.probe = sp_check_probe_run;
	d.reg = sp_host_register;
	if (!ret) {
		run_checks(&d, peers, n_peers, &o);
		ret = d.ret ? d.ret : sp_print_checklist(&d.list);
		if (ret)
			sp_err(stderr, "%s", strerror(-ret));
		ret = ret ? SP_EXIT_ERROR : sp_check_count(&d.list, SP_CHECK_FAIL) ? 1 : SP_EXIT_OK;
	}
	for (i = 0; i < files.n && i < MAX_PEERS; i++)
		sp_halves_free(&peer_files[i]);
	sp_list_free(&files);
	sp_checklist_free(&d.list);
	sp_dev_list_free(&d.devs);
	sp_halves_free(&d.halves);
	free(d.addrs);
	return ret;
}
