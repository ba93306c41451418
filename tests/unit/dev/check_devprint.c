// SPDX-License-Identifier: GPL-2.0
/*
 * Output of the dev and server objects (dev/devprint.c, dev/serverprint.c),
 * captured in memory: the device table and JSON, events, the server lines
 * and list.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/if.h>

#include "dev/devprint.h"
#include "dev/serverprint.h"
#include "lib/model.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- fixtures ----------------------------------------------------------- */

static void set_gid(struct sp_gid *g, uint32_t index, uint8_t type, const char *addr)
{
	g->index = index;
	g->type = type;
	ck_assert_int_eq(inet_pton(AF_INET6, addr, g->raw), 1);
}

/*
 * rxe0: port 1 RoCE (eth0) with GIDs RoCE v1 link-local, RoCE v2 10.0.2.15,
 * RoCE v2 192.168.200.12 and RoCE v1 10.0.2.15 (not a v2 address);
 * port 2 InfiniBand, no netdev, one IB GID.
 */
static void make_rxe0(struct sp_dev *d)
{
	struct sp_port *p;

	memset(d, 0, sizeof(*d));
	d->index = 3;
	strcpy(d->name, "rxe0");
	d->node_guid = 0x505400fffe123456ULL;
	d->numa_node = -1;
	d->has_parent = true;
	strcpy(d->parent, "0000:00:02.0");
	d->n_ports = 2;
	d->ports = calloc(2, sizeof(*d->ports));
	ck_assert_ptr_nonnull(d->ports);

	p = &d->ports[0];
	p->num = 1;
	p->state = SPARKPERF_PORT_ACTIVE;
	p->phys_state = SPARKPERF_PHYS_LINK_UP;
	p->link_layer = SPARKPERF_LINK_LAYER_ETHERNET;
	p->active_mtu = 1024;
	p->max_mtu = 4096;
	p->active_speed = SPARKPERF_SPEED_EDR;
	p->active_width = 4;
	p->rate_mbps = 100000;
	p->has_netdev = true;
	p->netdev_ifindex = 2;
	strcpy(p->netdev_name, "eth0");
	p->netdev_mtu = 1500;
	p->netdev_operstate = IF_OPER_UP;
	p->n_gids = 4;
	p->gids = calloc(4, sizeof(*p->gids));
	ck_assert_ptr_nonnull(p->gids);
	set_gid(&p->gids[0], 0, SPARKPERF_GID_TYPE_ROCE_V1, "fe80::5054:ff:fe12:3456");
	set_gid(&p->gids[1], 1, SPARKPERF_GID_TYPE_ROCE_V2, "::ffff:10.0.2.15");
	set_gid(&p->gids[2], 2, SPARKPERF_GID_TYPE_ROCE_V2, "::ffff:192.168.200.12");
	set_gid(&p->gids[3], 3, SPARKPERF_GID_TYPE_ROCE_V1, "::ffff:10.0.2.15");

	p = &d->ports[1];
	p->num = 2;
	p->state = SPARKPERF_PORT_DOWN;
	p->phys_state = SPARKPERF_PHYS_DISABLED;
	p->link_layer = SPARKPERF_LINK_LAYER_INFINIBAND;
	p->active_mtu = 2048;
	p->max_mtu = 4096;
	p->active_speed = SPARKPERF_SPEED_SDR;
	p->active_width = 1;
	p->rate_mbps = 2500;
	p->n_gids = 1;
	p->gids = calloc(1, sizeof(*p->gids));
	ck_assert_ptr_nonnull(p->gids);
	set_gid(&p->gids[0], 0, SPARKPERF_GID_TYPE_IB, "fe80::2:c903:f:1234");
}

/* A second device with a long name, a NUMA node and no parent, to check alignment. */
static void make_mlx(struct sp_dev *d)
{
	memset(d, 0, sizeof(*d));
	d->index = 7;
	strcpy(d->name, "rocep1s0f0np0");
	d->node_guid = 0x0c42a10300112233ULL;
	d->numa_node = 1;
	d->n_ports = 1;
	d->ports = calloc(1, sizeof(*d->ports));
	ck_assert_ptr_nonnull(d->ports);
	d->ports[0] = (struct sp_port){
		.num = 1, .state = SPARKPERF_PORT_ACTIVE, .phys_state = SPARKPERF_PHYS_LINK_UP,
		.link_layer = SPARKPERF_LINK_LAYER_ETHERNET, .active_mtu = 4096,
		.max_mtu = 4096, .active_speed = SPARKPERF_SPEED_HDR, .active_width = 4,
		.rate_mbps = 200000, .has_netdev = true, .netdev_ifindex = 12,
		.netdev_mtu = 9000, .netdev_operstate = IF_OPER_LOWERLAYERDOWN,
	};
	strcpy(d->ports[0].netdev_name, "enp1s0f0np0");
}


static size_t count_char(const char *s, char ch)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == ch;
	return n;
}

/* ---- text table --------------------------------------------------------- */

static const char *const headers[] = {
	"DEV", "PORT", "STATE", "PHYS", "LINK", "RATE", "MTU ACT/MAX", "NETDEV",
	"NUMA", "PCI", "IPV4 (ROCE V2 GID)",
};

/* Each cell starts where its header starts, after blanks; the last ends the line. */
static void assert_row(const char *header, const char *row, const char *const *cells)
{
	size_t i, hlen = strcspn(header, "\n"), rlen = strcspn(row, "\n");

	for (i = 0; i < ARRAY_SIZE(headers); i++) {
		const char *h = strstr(header, headers[i]);
		size_t pos, clen = strlen(cells[i]);

		ck_assert_ptr_nonnull(h);
		ck_assert(h - header < (ptrdiff_t)hlen);
		pos = (size_t)(h - header);
		ck_assert_msg(pos + clen <= rlen, "row too short for %s: '%.*s'", headers[i],
			      (int)rlen, row);
		ck_assert_msg(!strncmp(row + pos, cells[i], clen),
			      "column %s: expected '%s' at %zu in '%.*s'", headers[i],
			      cells[i], pos, (int)rlen, row);
		if (pos)
			ck_assert_msg(row[pos - 1] == ' ', "column %s not separated", headers[i]);
		if (i + 1 < ARRAY_SIZE(headers))
			ck_assert_msg(row[pos + clen] == ' ', "column %s too wide", headers[i]);
		else
			ck_assert_uint_eq(pos + clen, rlen);
	}
}

START_TEST(test_text_table)
{
	static const char *const row1[] = {
		"rxe0", "1", "ACTIVE", "LINK_UP", "Ethernet", "100 Gbit/s (4X EDR)",
		"1024/4096 B", "eth0 (1500 B, up)", "-", "0000:00:02.0",
		"10.0.2.15 (gid 1), 192.168.200.12 (gid 2)",
	};
	static const char *const row2[] = {
		"rxe0", "2", "DOWN", "DISABLED", "InfiniBand", "2.5 Gbit/s (1X SDR)",
		"2048/4096 B", "-", "-", "0000:00:02.0", "-",
	};
	static const char *const row3[] = {
		"rocep1s0f0np0", "1", "ACTIVE", "LINK_UP", "Ethernet", "200 Gbit/s (4X HDR)",
		"4096/4096 B", "enp1s0f0np0 (9000 B, lowerlayerdown)", "1", "-", "-",
	};
	struct sp_dev devs[2];
	struct capture c;
	char *out, *l2, *l3, *l4;

	make_rxe0(&devs[0]);
	make_mlx(&devs[1]);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_devs(devs, 2), 0);
	out = cap_end(&c);

	/* header + one line per port */
	ck_assert_uint_eq(count_char(out, '\n'), 4);
	ck_assert(!strncmp(out, "DEV ", 4));
	l2 = strchr(out, '\n') + 1;
	l3 = strchr(l2, '\n') + 1;
	l4 = strchr(l3, '\n') + 1;
	assert_row(out, l2, row1);
	assert_row(out, l3, row2);
	assert_row(out, l4, row3);
	/* a RoCE v1 GID is not listed as an address */
	ck_assert_ptr_null(strstr(out, "(gid 3)"));
	free(out);
	sp_dev_free(&devs[0]);
	sp_dev_free(&devs[1]);
}
END_TEST

START_TEST(test_text_unknowns)
{
	struct sp_dev d;
	struct capture c;
	char *out;

	make_mlx(&d);
	d.ports[0].state = 99;
	d.ports[0].phys_state = 42;
	d.ports[0].active_speed = SPARKPERF_SPEED_UNKNOWN;
	d.ports[0].netdev_operstate = 200;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_devs(&d, 1), 0);
	out = cap_end(&c);
	ck_assert_ptr_nonnull(strstr(out, " UNKNOWN "));
	ck_assert_ptr_nonnull(strstr(out, "200 Gbit/s (4X) "));
	ck_assert_ptr_nonnull(strstr(out, "(9000 B, unknown)"));
	free(out);

	/* no rate at all */
	d.ports[0].rate_mbps = 0;
	d.ports[0].active_width = 0;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_devs(&d, 1), 0);
	out = cap_end(&c);
	ck_assert_ptr_nonnull(strstr(out, " Ethernet  -  "));
	free(out);
	sp_dev_free(&d);
}
END_TEST

START_TEST(test_text_empty)
{
	struct capture c;
	char *out;

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_devs(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

static const char *const dev_keys[] = {
	"index", "name", "node_guid", "numa_node", "parent", "ports",
};
static const char *const port_keys[] = {
	"port", "state", "physical_state", "link_layer", "active_mtu_bytes", "max_mtu_bytes",
	"active_speed", "active_width", "rate_gbit_per_s", "netdev", "netdev_ifindex",
	"netdev_mtu_bytes", "netdev_operstate", "gids",
};

static void assert_rxe0(json_object *dev)
{
	json_object *ports, *p, *gids, *g;

	assert_keys(dev, dev_keys, ARRAY_SIZE(dev_keys));
	assert_int(dev, "index", 3);
	assert_str(dev, "name", "rxe0");
	assert_str(dev, "node_guid", "5054:00ff:fe12:3456");
	assert_int(dev, "numa_node", -1);
	assert_str(dev, "parent", "0000:00:02.0");
	ports = get(dev, "ports");
	ck_assert(json_object_is_type(ports, json_type_array));
	ck_assert_uint_eq(json_object_array_length(ports), 2);

	p = json_object_array_get_idx(ports, 0);
	assert_keys(p, port_keys, ARRAY_SIZE(port_keys));
	assert_int(p, "port", 1);
	assert_str(p, "state", "ACTIVE");
	assert_str(p, "physical_state", "LINK_UP");
	assert_str(p, "link_layer", "Ethernet");
	assert_int(p, "active_mtu_bytes", 1024);
	assert_int(p, "max_mtu_bytes", 4096);
	assert_str(p, "active_speed", "EDR");
	assert_int(p, "active_width", 4);
	ck_assert(json_object_is_type(get(p, "rate_gbit_per_s"), json_type_double));
	ck_assert(json_object_get_double(get(p, "rate_gbit_per_s")) == 100.0);
	assert_str(p, "netdev", "eth0");
	assert_int(p, "netdev_ifindex", 2);
	assert_int(p, "netdev_mtu_bytes", 1500);
	assert_str(p, "netdev_operstate", "up");
	gids = get(p, "gids");
	ck_assert_uint_eq(json_object_array_length(gids), 4);
	g = json_object_array_get_idx(gids, 0);
	assert_int(g, "index", 0);
	assert_str(g, "type", "RoCE v1");
	assert_str(g, "gid", "fe80::5054:ff:fe12:3456");
	g = json_object_array_get_idx(gids, 1);
	assert_int(g, "index", 1);
	assert_str(g, "type", "RoCE v2");
	assert_str(g, "gid", "::ffff:10.0.2.15");
	g = json_object_array_get_idx(gids, 2);
	assert_str(g, "gid", "::ffff:192.168.200.12");

	p = json_object_array_get_idx(ports, 1);
	assert_keys(p, port_keys, ARRAY_SIZE(port_keys));
	assert_int(p, "port", 2);
	assert_str(p, "state", "DOWN");
	assert_str(p, "physical_state", "DISABLED");
	assert_str(p, "link_layer", "InfiniBand");
	assert_str(p, "active_speed", "SDR");
	assert_int(p, "active_width", 1);
	ck_assert(json_object_get_double(get(p, "rate_gbit_per_s")) == 2.5);
	assert_null(p, "netdev");
	assert_null(p, "netdev_ifindex");
	assert_null(p, "netdev_mtu_bytes");
	assert_null(p, "netdev_operstate");
	g = json_object_array_get_idx(get(p, "gids"), 0);
	assert_str(g, "type", "IB");
	assert_str(g, "gid", "fe80::2:c903:f:1234");
}

START_TEST(test_json_devs)
{
	struct sp_dev devs[2];
	struct capture c;
	json_object *doc, *d;
	char *out;

	make_rxe0(&devs[0]);
	make_mlx(&devs[1]);
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_devs(devs, 2), 0);
	out = cap_end(&c);

	/* one compact document on one line, keys in the documented order */
	ck_assert_uint_eq(count_char(out, '\n'), 1);
	ck_assert(!strncmp(out, "[{\"index\":3,\"name\":\"rxe0\",\"node_guid\":\"5054:00ff:fe12:3456\","
			   "\"numa_node\":-1,\"parent\":\"0000:00:02.0\",\"ports\":[{\"port\":1,", 108));
	ck_assert_ptr_nonnull(strstr(out, "\"rate_gbit_per_s\":100.0,"));
	ck_assert_ptr_nonnull(strstr(out, "\"rate_gbit_per_s\":2.5,"));
	ck_assert_ptr_nonnull(strstr(out, "\"netdev\":null,"));

	doc = json_tokener_parse(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_is_type(doc, json_type_array));
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	assert_rxe0(json_object_array_get_idx(doc, 0));

	d = json_object_array_get_idx(doc, 1);
	assert_str(d, "name", "rocep1s0f0np0");
	assert_str(d, "node_guid", "0c42:a103:0011:2233");
	assert_int(d, "numa_node", 1);
	assert_null(d, "parent");
	d = json_object_array_get_idx(get(d, "ports"), 0);
	assert_str(d, "netdev_operstate", "lowerlayerdown");
	ck_assert(json_object_get_double(get(d, "rate_gbit_per_s")) == 200.0);
	ck_assert_uint_eq(json_object_array_length(get(d, "gids")), 0);

	json_object_put(doc);
	free(out);
	sp_dev_free(&devs[0]);
	sp_dev_free(&devs[1]);
}
END_TEST

START_TEST(test_json_one_and_none)
{
	struct sp_dev d;
	struct capture c;
	json_object *doc;
	char *out;

	/* "dev show DEV" is an array of one */
	make_rxe0(&d);
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_devs(&d, 1), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	ck_assert(json_object_is_type(doc, json_type_array));
	ck_assert_uint_eq(json_object_array_length(doc), 1);
	assert_rxe0(json_object_array_get_idx(doc, 0));
	json_object_put(doc);
	free(out);
	sp_dev_free(&d);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_devs(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "[]\n");
	free(out);
}
END_TEST

START_TEST(test_json_pretty)
{
	struct sp_dev d;
	struct capture c;
	json_object *doc;
	char *out;

	make_rxe0(&d);
	cap_start(&c, false, true);	/* -p alone means pretty JSON */
	ck_assert(sp_print_is_json());
	ck_assert_int_eq(sp_print_devs(&d, 1), 0);
	out = cap_end(&c);
	ck_assert(count_char(out, '\n') > 20);
	ck_assert_ptr_nonnull(strstr(out, "\n    \"index\": 3,\n"));
	ck_assert_ptr_nonnull(strstr(out, "\"rate_gbit_per_s\": 100.0,"));
	doc = json_tokener_parse(out);
	ck_assert_ptr_nonnull(doc);
	assert_rxe0(json_object_array_get_idx(doc, 0));
	json_object_put(doc);
	free(out);
	sp_dev_free(&d);
}
END_TEST

START_TEST(test_json_unknown_speed)
{
	struct sp_dev d;
	struct capture c;
	json_object *doc, *p;
	char *out;

	make_mlx(&d);
	d.ports[0].active_speed = 77;
	d.ports[0].rate_mbps = 53125;
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_devs(&d, 1), 0);
	out = cap_end(&c);
	ck_assert_ptr_nonnull(strstr(out, "\"active_speed\":null,"));
	ck_assert_ptr_nonnull(strstr(out, "\"rate_gbit_per_s\":53.125,"));
	doc = json_tokener_parse(out);
	p = json_object_array_get_idx(get(json_object_array_get_idx(doc, 0), "ports"), 0);
	assert_null(p, "active_speed");
	ck_assert(json_object_get_double(get(p, "rate_gbit_per_s")) == 53.125);
	json_object_put(doc);
	free(out);
	sp_dev_free(&d);
}
END_TEST

/* ---- servers ----------------------------------------------------------- */

START_TEST(test_servers)
{
	struct sp_net nets[2];
	struct sp_server s[2] = {
		{ .id = 1, .port = 18520, .conns_max = 256, .threads_max = 256,
		  .bytes_max = 1 << 30 },
		{ .id = 2, .port = 18521, .active = 1, .served = 42, .rejected = 3, .conns_max = 4,
		  .threads_max = 2, .threads = 1, .bytes_max = 16 << 20, .bytes = 2 << 20,
		  .allow = nets, .n_allow = 2 },
	};
	json_object *doc, *allow;
	struct capture c;
	char *out;

	ck_assert_int_eq(sp_parse_addr("192.168.200.13", &s[1].addr), 0);
	ck_assert_int_eq(sp_parse_net("192.168.200.0/24", &nets[0]), 0);
	ck_assert_int_eq(sp_parse_net("fd00::/64", &nets[1]), 0);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_server(&s[0]), 0);
	ck_assert_int_eq(sp_print_server(&s[1]), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "server 1 listening on any port 18520, for every peer; at most 256 "
			 "connections, 256 threads, 1GiB of buffers\n"
			 "server 2 listening on 192.168.200.13 port 18521, for 192.168.200.0/24,"
			 "fd00::/64; at most 4 connections, 2 threads, 16MiB of buffers\n");
	free(out);

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_servers(s, 2), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "ID  ADDR            PORT   CONNS  THREADS  BUFFERS     SERVED  "
			 "REJECTED  ALLOW\n"
			 "1   any             18520  0/256  0/256    0B/1GiB     0       0         any\n"
			 "2   192.168.200.13  18521  1/4    1/2      2MiB/16MiB  42      3         "
			 "192.168.200.0/24,fd00::/64\n");
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_server(&s[0]), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "{\"id\":1,\"addr\":null,\"port\":18520,\"active\":0,\"max_conns\":256,"
			 "\"threads\":0,\"max_threads\":256,\"buffer_bytes\":0,"
			 "\"max_buffer_bytes\":1073741824,\"served\":0,\"rejected\":0,"
			 "\"allow\":null}\n");
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_servers(s, 2), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	ck_assert_uint_eq(json_object_array_length(doc), 2);
	assert_str(json_object_array_get_idx(doc, 1), "addr", "192.168.200.13");
	assert_int(json_object_array_get_idx(doc, 1), "served", 42);
	assert_int(json_object_array_get_idx(doc, 1), "rejected", 3);
	assert_int(json_object_array_get_idx(doc, 1), "buffer_bytes", 2 << 20);
	assert_int(json_object_array_get_idx(doc, 1), "max_conns", 4);
	allow = get(json_object_array_get_idx(doc, 1), "allow");
	ck_assert_uint_eq(json_object_array_length(allow), 2);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(allow, 1)), "fd00::/64");
	json_object_put(doc);
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_servers(NULL, 0), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "[]\n");
	free(out);
}
END_TEST

/* ---- events ------------------------------------------------------------- */

START_TEST(test_event_json)
{
	static const char *const event_keys[] = { "event", "port", "dev" };
	static const char *const del_dev_keys[] = { "index", "name" };
	struct sp_dev_event ev = { .type = SP_DEV_EVENT_CHANGE, .has_port = true, .port = 2 };
	struct capture c;
	json_object *doc;
	char *out;

	make_rxe0(&ev.dev);
	cap_start(&c, true, true);	/* JSON lines stay compact even with -p */
	ck_assert_int_eq(sp_print_event(&ev), 0);
	ev.type = SP_DEV_EVENT_NEW;
	ck_assert_int_eq(sp_print_event(&ev), 0);
	ev.type = SP_DEV_EVENT_DEL;
	ck_assert_int_eq(sp_print_event(&ev), 0);
	out = cap_end(&c);
	ck_assert_uint_eq(count_char(out, '\n'), 3);

	doc = json_tokener_parse(strtok(out, "\n"));
	ck_assert_ptr_nonnull(doc);
	assert_keys(doc, event_keys, ARRAY_SIZE(event_keys));
	assert_str(doc, "event", "change");
	assert_int(doc, "port", 2);
	assert_rxe0(get(doc, "dev"));
	json_object_put(doc);

	doc = json_tokener_parse(strtok(NULL, "\n"));
	ck_assert_ptr_nonnull(doc);
	assert_str(doc, "event", "new");
	ck_assert(!json_object_object_get_ex(doc, "port", NULL));
	assert_rxe0(get(doc, "dev"));
	json_object_put(doc);

	doc = json_tokener_parse(strtok(NULL, "\n"));
	ck_assert_ptr_nonnull(doc);
	assert_str(doc, "event", "del");
	assert_keys(get(doc, "dev"), del_dev_keys, ARRAY_SIZE(del_dev_keys));
	assert_int(get(doc, "dev"), "index", 3);
	assert_str(get(doc, "dev"), "name", "rxe0");
	json_object_put(doc);

	free(out);
	sp_dev_free(&ev.dev);
}
END_TEST

START_TEST(test_event_text)
{
	struct sp_dev_event ev = { .type = SP_DEV_EVENT_NEW };
	struct capture c;
	char *out;

	make_rxe0(&ev.dev);
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_event(&ev), 0);
	ev.type = SP_DEV_EVENT_CHANGE;
	ev.has_port = true;
	ev.port = 1;
	ck_assert_int_eq(sp_print_event(&ev), 0);
	ev.type = SP_DEV_EVENT_DEL;
	ck_assert_int_eq(sp_print_event(&ev), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"rxe0 (index 3) added: port 1 ACTIVE LINK_UP Ethernet 100 Gbit/s (4X EDR) "
		"mtu 1024/4096 B netdev eth0 (1500 B, up) ipv4 10.0.2.15 (gid 1), "
		"192.168.200.12 (gid 2); port 2 DOWN DISABLED InfiniBand 2.5 Gbit/s (1X SDR) "
		"mtu 2048/4096 B\n"
		"rxe0 (index 3) changed port 1: port 1 ACTIVE LINK_UP Ethernet 100 Gbit/s (4X EDR) "
		"mtu 1024/4096 B netdev eth0 (1500 B, up) ipv4 10.0.2.15 (gid 1), "
		"192.168.200.12 (gid 2); port 2 DOWN DISABLED InfiniBand 2.5 Gbit/s (1X SDR) "
		"mtu 2048/4096 B\n"
		"rxe0 (index 3) removed\n");
	free(out);
	sp_dev_free(&ev.dev);
}
END_TEST

static Suite *devprint_suite(void)
{
	Suite *s = suite_create("devprint");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_text_table);
	tcase_add_test(tc, test_text_unknowns);
	tcase_add_test(tc, test_text_empty);
	suite_add_tcase(s, tc);

	tc = tcase_create("json");
	tcase_add_test(tc, test_json_devs);
	tcase_add_test(tc, test_json_one_and_none);
	tcase_add_test(tc, test_json_pretty);
	tcase_add_test(tc, test_json_unknown_speed);
	suite_add_tcase(s, tc);

	tc = tcase_create("events");
	tcase_add_test(tc, test_event_json);
	tcase_add_test(tc, test_event_text);
	suite_add_tcase(s, tc);

	tc = tcase_create("servers");
	tcase_add_test(tc, test_servers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(devprint_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
