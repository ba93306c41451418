// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <json-c/json.h>

#include <sys/utsname.h>

#include "file.h"
#include "halves.h"
#include "nl.h"
#include "print.h"
#include "parse.h"

const char *sp_halves_source_str(enum sp_halves_source s)
{
	static const char *const names[] = {
		[SP_HALVES_LOCAL] = "local", [SP_HALVES_SSH] = "ssh", [SP_HALVES_FILE] = "file",
	};

	return sp_enum_str(names, sizeof(names) / sizeof(names[0]), s, "unknown");
}

void sp_halves_free(struct sp_halves *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}

char *sp_half_name(const struct sp_half *h, char *buf, size_t len)
{
	if (h->netdev[0])
		snprintf(buf, len, "%s/%u (%s)", h->dev, h->port, h->netdev);
	else
		snprintf(buf, len, "%s/%u", h->dev, h->port);
	return buf;
}

struct in_addr sp_half_subnet(const struct sp_half *h, uint8_t prefix)
{
	struct in_addr net = { htonl(ntohl(h->addr.s_addr) & sp_prefix_mask(prefix)) };

	return net;
}

/* "0002:01:00.0" -> "01:00.0": where a function sits in its domain */
static const char *in_domain(const char *parent)
{
	const char *colon = strchr(parent, ':');

	return colon && strchr(colon + 1, ':') ? colon + 1 : NULL;
}

bool sp_halves_share_port(const struct sp_half *a, const struct sp_half *b)
{
	const char *pa = in_domain(a->parent), *pb = in_domain(b->parent);

	return pa && pb && !strcmp(pa, pb) && strcmp(a->parent, b->parent);
}

/* The first RoCE v2 GID of an IPv4 address: its index and address. */
static bool first_ipv4_gid(const struct sp_port *p, struct sp_half *h)
{
	char ip[SP_IPV4_STRLEN];
	size_t g;

	for (g = 0; g < p->n_gids; g++) {
		if (p->gids[g].type != SPARKPERF_GID_TYPE_ROCE_V2 ||
		    !sp_gid_ipv4(p->gids[g].raw, ip, sizeof(ip)))
			continue;
		h->gid_index = p->gids[g].index;
		memcpy(&h->addr, p->gids[g].raw + 12, sizeof(h->addr));
		return true;
	}
	return false;
}

int sp_halves_local(const struct sp_dev_list *devs, const struct sp_ifaddr *addrs,
		    size_t n_addrs, struct sp_halves *out)
{
	struct sp_half h;
	size_t i, j, a;
	int ret = 0;

	for (i = 0; !ret && i < devs->n; i++) {
		const struct sp_dev *d = &devs->devs[i];

		for (j = 0; !ret && j < d->n_ports; j++) {
			const struct sp_port *p = &d->ports[j];

			if (!p->has_netdev)
				continue;
			memset(&h, 0, sizeof(h));
			snprintf(h.dev, sizeof(h.dev), "%s", d->name);
			h.port = p->num;
			snprintf(h.netdev, sizeof(h.netdev), "%s", p->netdev_name);
			if (d->has_parent)
				snprintf(h.parent, sizeof(h.parent), "%s", d->parent);
			h.active = p->state == SPARKPERF_PORT_ACTIVE;
			h.has_ipv4 = first_ipv4_gid(p, &h);
			for (a = 0; h.has_ipv4 && a < n_addrs; a++)
				if (!strcmp(addrs[a].dev, h.netdev) &&
				    addrs[a].addr.s_addr == h.addr.s_addr)
					h.prefix = addrs[a].prefix;
			ret = sp_array_add(&out->v, &out->n, &out->cap, sizeof(h), &h);
		}
	}
	return ret;
}

int sp_halves_this_host(struct sp_halves *out, struct sp_nl_err *e)
{
	struct sp_dev_list devs = { 0 };
	struct sp_ifaddr *addrs = NULL;
	size_t n_addrs = 0;
	struct utsname uts;
	struct sp_nl nl;
	int ret = sp_nl_open(&nl);

	if (!ret)
		ret = sp_nl_dev_get(&nl, NULL, &devs);
	*e = nl.err;
	sp_nl_close(&nl);
	out->source = SP_HALVES_LOCAL;
	snprintf(out->host, sizeof(out->host), "%s", uname(&uts) ? "this host" : uts.nodename);
	/* without them the subnets are guessed, and the output says so */
	if (!ret && sp_host_ifaddrs(&addrs, &n_addrs))
		n_addrs = 0;
	if (!ret)
		ret = sp_halves_local(&devs, addrs, n_addrs, out);
	free(addrs);
	sp_dev_list_free(&devs);
	return ret;
}

/* ---- another host's -j output ------------------------------------------------ */

/* obj[key] as an unsigned number below 2^32; false when it is not one */
static bool jnum(json_object *obj, const char *key, uint32_t *out)
{
	json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	n = json_object_get_int64(v);
	if (n < 0 || n > UINT32_MAX)
		return false;
	*out = (uint32_t)n;
	return true;
}

static void copy(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

/* A -j dev port: a half when it has a netdev. */
static int dev_port(json_object *dev, json_object *port, struct sp_halves *out, char *err,
		    size_t len)
{
	const char *name = sp_json_get_str(dev, "name");
	const char *netdev = sp_json_get_str(port, "netdev"), *state, *gid, *type;
	json_object *gids, *g;
	uint8_t raw[16];
	char ip[SP_IPV4_STRLEN];
	struct sp_half h;
	size_t i;

	if (!netdev)
		return 0;
	memset(&h, 0, sizeof(h));
	state = sp_json_get_str(port, "state");
	if (!name || !state || !jnum(port, "port", &h.port))
		return sp_invalid(err, len, "a device without name, or a port without port and "
				  "state");
	copy(h.dev, sizeof(h.dev), name);
	copy(h.netdev, sizeof(h.netdev), netdev);
	copy(h.parent, sizeof(h.parent), sp_json_get_str(dev, "parent"));
	h.active = !strcmp(state, "ACTIVE");
	if (json_object_object_get_ex(port, "gids", &gids) &&
	    json_object_is_type(gids, json_type_array)) {
		for (i = 0; !h.has_ipv4 && i < json_object_array_length(gids); i++) {
			g = json_object_array_get_idx(gids, i);
			gid = sp_json_get_str(g, "gid");
			type = sp_json_get_str(g, "type");
			if (!gid || !type || strcmp(type, "RoCE v2") ||
			    inet_pton(AF_INET6, gid, raw) != 1 ||
			    !sp_gid_ipv4(raw, ip, sizeof(ip)) || !jnum(g, "index", &h.gid_index))
				continue;
			memcpy(&h.addr, raw + 12, sizeof(h.addr));
			h.has_ipv4 = true;
		}
	}
	return sp_array_add(&out->v, &out->n, &out->cap, sizeof(h), &h);
}

static int parse_devs(json_object *arr, struct sp_halves *out, char *err, size_t len)
{
	json_object *dev, *ports;
	size_t i, j;
	int ret = 0;

	for (i = 0; !ret && i < json_object_array_length(arr); i++) {
		dev = json_object_array_get_idx(arr, i);
		if (!json_object_object_get_ex(dev, "ports", &ports) ||
		    !json_object_is_type(ports, json_type_array))
			return sp_invalid(err, len, "device %zu has no ports", i);
		for (j = 0; !ret && j < json_object_array_length(ports); j++)
			ret = dev_port(dev, json_object_array_get_idx(ports, j), out, err, len);
	}
	return ret;
}

/* "192.168.200.12/24" or "192.168.200.12" (prefix not known) */
static bool parse_address(const char *s, struct sp_half *h)
{
	char ip[SP_IPV4_STRLEN];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	uint32_t prefix = 0;

	if (n >= sizeof(ip))
		return false;
	memcpy(ip, s, n);
	ip[n] = '\0';
	if (slash && sp_parse_u32(slash + 1, 1, 32, &prefix))
		return false;
	h->prefix = (uint8_t)prefix;
	return inet_pton(AF_INET, ip, &h->addr) == 1;
}

/* The half of dev/port, added when it is not there yet; NULL on -ENOMEM. */
static struct sp_half *half_of(struct sp_halves *out, const char *dev, uint32_t port)
{
	struct sp_half h;
	size_t i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].dev, dev) && out->v[i].port == port)
			return &out->v[i];
	memset(&h, 0, sizeof(h));
	copy(h.dev, sizeof(h.dev), dev);
	h.port = port;
	return sp_array_add(&out->v, &out->n, &out->cap, sizeof(h), &h) ? NULL :
	       &out->v[out->n - 1];
}

/* A -j check item: gid-index (a half), firmware (its driver), module (the host). */
static int check_item(json_object *item, struct sp_halves *out)
{
	const char *name = sp_json_get_str(item, "name"), *dev, *s;
	json_object *facts;
	struct sp_half *h;
	uint32_t port = 1;

	if (!name || !json_object_object_get_ex(item, "facts", &facts) ||
	    !json_object_is_type(facts, json_type_object))
		return 0;
	if (!strcmp(name, "module")) {
		copy(out->host, sizeof(out->host), sp_json_get_str(facts, "host"));
		return 0;
	}
	dev = sp_json_get_str(facts, "device");
	if (!dev || (strncmp(name, "gid-index ", 10) && strncmp(name, "firmware ", 9)))
		return 0;
	jnum(facts, "port", &port);
	h = half_of(out, dev, port);
	if (!h)
		return -ENOMEM;
	copy(h->netdev, sizeof(h->netdev), sp_json_get_str(facts, "netdev"));
	if (name[0] == 'f') {
		copy(h->driver, sizeof(h->driver), sp_json_get_str(facts, "driver"));
		copy(h->driver_version, sizeof(h->driver_version), sp_json_get_str(facts, "driver_version"));
		copy(h->firmware_version, sizeof(h->firmware_version),
		     sp_json_get_str(facts, "firmware_version"));
		return 0;
	}
	copy(h->parent, sizeof(h->parent), sp_json_get_str(facts, "parent"));
	s = sp_json_get_str(facts, "state");
	h->active = s && !strcmp(s, "ACTIVE");
	s = sp_json_get_str(facts, "address");
	h->has_ipv4 = s && parse_address(s, h) && jnum(facts, "gid_index", &h->gid_index);
	return 0;
}

int sp_halves_parse(const char *text, struct sp_halves *out, char *err, size_t len)
{
	enum json_tokener_error jerr;
	json_object *root = json_tokener_parse_verbose(text, &jerr), *first;
	size_t i;
	int ret = 0;

	if (!root)
		return sp_invalid(err, len, "not JSON: %s", json_tokener_error_desc(jerr));
	if (!json_object_is_type(root, json_type_array)) {
		json_object_put(root);
		return sp_invalid(err, len, "not an array (-j dev or -j check)");
	}
	first = json_object_array_get_idx(root, 0);
	if (first && sp_json_get_str(first, "status")) {
		for (i = 0; !ret && i < json_object_array_length(root); i++)
			ret = check_item(json_object_array_get_idx(root, i), out);
	} else if (first) {
		ret = parse_devs(root, out, err, len);
	}
	json_object_put(root);
	return ret;
}

/* A -j output is small: past this a file is something else. */
#define HALVES_FILE_MAX (16 << 20)

int sp_halves_read_file(const char *path, struct sp_halves *out, char *err, size_t len)
{
	char *text, why[200];
	int ret = sp_file_read(path, HALVES_FILE_MAX, &text);

	out->source = SP_HALVES_FILE;
	snprintf(out->origin, sizeof(out->origin), "%s", path);
	if (ret == -EFBIG)
		sp_invalid(err, len, "%s: larger than a -j output", path);
	else if (ret && ret != -ENOMEM)
		sp_invalid(err, len, "cannot read %s: %s", path, strerror(-ret));
	if (!ret) {
		ret = sp_halves_parse(text, out, why, sizeof(why));
		if (ret == -EINVAL)
			sp_invalid(err, len, "%s: %s", path, why);
	}
	if (!ret && !out->host[0])
		snprintf(out->host, sizeof(out->host), "%s", path);
	free(text);
	return ret;
}
