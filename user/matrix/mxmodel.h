/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matrix's model: the hosts and their halves, the tests between two
 * halves, their results, and the document that holds a whole run; what the
 * worker (sparkperf-matrix) fills and sends, and what "sparkperf-ctl
 * matrix" prints. The fixed-size structs cross MPI as bytes: every rank runs
 * the same build (one package on every host).
 */
#ifndef SPARKPERF_CTL_MXMODEL_H
#define SPARKPERF_CTL_MXMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "lib/model.h"

#define SP_MX_HOSTS_MAX 64
#define SP_MX_HALVES_MAX 8
#define SP_MX_HOST_NAME_MAX 64
#define SP_MX_ERROR_MAX 160

struct sp_mx_half {
	char dev[SPARKPERF_DEV_NAME_MAX];	/* the RDMA device: its name in tables */
	char netdev[SP_IFNAME_MAX];
	struct in_addr addr;
	uint8_t prefix;
	int8_t port;			/* physical port: the netdev's "npN"; -1: not known */
};

struct sp_mx_host {
	char name[SP_MX_HOST_NAME_MAX];
	struct sp_mx_half halves[SP_MX_HALVES_MAX];
	uint32_t n_halves;
	char error[SP_MX_ERROR_MAX];	/* why it has no halves, or no server; "": none */
};

enum sp_mx_pattern {
	SP_MX_PAIRS,			/* one pair at a time per host: the tournament */
	SP_MX_ALL,			/* every pair at once (bw) */
	SP_MX_INCAST,			/* every host to one target at once (bw) */
	SP_MX_PROBE,			/* the reachability probe before the rounds */
};

const char *sp_mx_pattern_str(enum sp_mx_pattern p);	/* "pairs", ... */
int sp_mx_pattern_parse(const char *s, enum sp_mx_pattern *p);

/* One test: a client half to a server half, in a round of a pattern. */
struct sp_mx_test {
	uint8_t client, client_half;
	uint8_t server, server_half;
	uint8_t pattern;		/* enum sp_mx_pattern */
	uint16_t round;			/* 1-based */
};

struct sp_mx_result {
	struct sp_mx_test t;
	bool has_lat, has_bw;
	double one_way_p50_us, one_way_p99_us;
	double gbit_per_s;
	char error[SP_MX_ERROR_MAX];	/* "": every test asked for went well */
};

/* A half of one host reaches a half of another (its probe came back). */
struct sp_mx_link {
	uint8_t a, a_half, b, b_half;
};

enum sp_mx_cabling {
	SP_MX_CABLING_NONE,		/* no host reaches another */
	SP_MX_CABLING_DIRECT,		/* two hosts, cabled to each other */
	SP_MX_CABLING_SWITCHED,		/* a subnet holds every host */
	SP_MX_CABLING_TRIANGLE,
	SP_MX_CABLING_RING,
	SP_MX_CABLING_MIXED,
};

const char *sp_mx_cabling_str(enum sp_mx_cabling c);	/* "switched", ... */

struct sp_mx_topology {
	enum sp_mx_cabling cabling;
	bool direct[SP_MX_HOSTS_MAX][SP_MX_HOSTS_MAX];	/* a half of a reaches one of b */
	char mistake[256];		/* the known cabling mistake found; "": none */
};

struct sp_mx_config {
	bool lat, bw;			/* tests */
	uint64_t size_bytes;		/* of the bw messages */
	uint32_t duration_s;		/* of each bw run */
	enum sp_mx_pattern pattern;	/* pairs, or pairs and all, or pairs and incast */
};

/* A whole run: what the worker prints and "matrix show" reads. */
struct sp_mx_doc {
	char version[64];		/* of the worker */
	struct sp_mx_config cfg;
	struct sp_mx_host hosts[SP_MX_HOSTS_MAX];
	size_t n_hosts;
	struct sp_mx_link *links;
	size_t n_links, links_cap;
	struct sp_mx_topology topo;
	uint32_t rounds;
	struct sp_mx_result *results;
	size_t n_results, results_cap;
};

/* A new, empty document (calloc); NULL when out of memory. */
struct sp_mx_doc *sp_mx_doc_new(void);
void sp_mx_doc_free(struct sp_mx_doc *d);

/* Do two halves share a subnet (the shorter of their prefixes)? */
bool sp_mx_same_subnet(const struct sp_mx_half *a, const struct sp_mx_half *b);

/* "npN" at the end of a netdev's name: N; -1 otherwise. */
int sp_mx_netdev_port(const char *netdev);

#endif
