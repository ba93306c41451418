/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the Check suites. */
#ifndef SPARKPERF_TESTUTIL_H
#define SPARKPERF_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <check.h>
#include <json-c/json.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

/* What print.c writes, captured in memory. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

void cap_start(struct capture *c, bool json, bool pretty);
/* The captured text; free() it. */
char *cap_end(struct capture *c);

/* Concatenates messages into one datagram (a dump fills an skb this way) and frees them. */
size_t datagram(void *buf, size_t size, struct nl_msg **msgs, size_t n);

/* ---- netlink messages of the tests ---------------------------------------- */

#define FAMILY 0x1f	/* any dynamic generic netlink id */
#define SEQ 4242	/* the sequence number of the requests and their answers */

/* A message of the family, sequence number SEQ: a reply, or a multicast one. */
struct nl_msg *genl_new(uint8_t cmd, int flags);
/* The NLMSG_ERROR answering req (error 0: the ACK), echoing it unless NLM_F_CAPPED. */
struct nl_msg *error_new(struct nl_msg *req, int error, int flags);
/* The NLMSG_DONE of a dump of SEQ, carrying error. */
struct nl_msg *done_msg(int error);

/* A request as built: its headers checked, its attributes (up to max) in tb. */
struct genlmsghdr *req_parse(struct nl_msg *msg, struct nlattr **tb, int max, uint8_t cmd,
			     int flags);
/* Its top-level attributes. */
int count_attrs(struct nl_msg *msg);
/* Attribute type is present with exactly len bytes of payload. */
void assert_attr(struct nlattr **tb, int type, int len);

/* ---- JSON and text output ------------------------------------------------- */

/* obj[key], which must exist */
json_object *get(json_object *obj, const char *key);
void assert_int(json_object *obj, const char *key, int64_t want);
void assert_str(json_object *obj, const char *key, const char *want);
void assert_bool(json_object *obj, const char *key, bool want);
/* a JSON float within tol of want */
void assert_double(json_object *obj, const char *key, double want, double tol);
void assert_null(json_object *obj, const char *key);
/* exactly these keys, in this order */
void assert_keys(json_object *obj, const char *const *keys, size_t n);

struct sp_bench_verdict;

/* A bench verdict's problem codes in order, ' '-separated ("exit_status no_result"). */
const char *bench_codes(const struct sp_bench_verdict *v);

struct sp_dev_list;

/*
 * A RoCE device of one port as the module reports a Spark half: port 1 on
 * netdev (ACTIVE or DOWN), its RoCE MTU, fe80:: GIDs at 0 (RoCE v1) and 1
 * (v2), an IPv4 address's at v2_index - 1 and v2_index (ipv4 NULL: none);
 * parent NULL: software RDMA.
 */
void dev_add_half(struct sp_dev_list *l, const char *name, const char *parent,
		  const char *netdev, bool active, uint32_t netdev_mtu, uint32_t active_mtu,
		  const char *ipv4, uint32_t v2_index);
/* The halves of spark1 (the fakenl "spark" scenario): port 0's up, port 1's down. */
void dev_spark1(struct sp_dev_list *l);

struct sp_half;

/*
 * A half as read: its device (port 1), netdev, PCI function, ACTIVE or not,
 * and the index of its IPv4 RoCE v2 GID (-1: it has none).
 */
void assert_half(const struct sp_half *h, const char *dev, const char *netdev,
		 const char *parent, bool active, int gid_index);

struct sp_mx_doc;

/*
 * A host of a matrix document: its name, then its halves as "DEV NETDEV
 * ADDR/PREFIX" strings, NULL-terminated (the physical port from the
 * netdev's npN).
 */
void mx_host(struct sp_mx_doc *d, const char *name, ...);
/*
 * A result of the pairs rounds (round 1): client and server host indexes,
 * half 0 of each, bw (< 0: none), one-way p50 and p99 (p50 < 0: none),
 * error (NULL: none).
 */
void mx_pair(struct sp_mx_doc *d, unsigned int client, unsigned int server, double gbit,
	     double p50_us, double p99_us, const char *error);

/* s begins with prefix */
bool starts_with(const char *s, const char *prefix);
/* newlines in s */
size_t count_lines(const char *s);

/* Runs every test of s (CK_NORMAL output); EXIT_SUCCESS when all pass. */
int run_suite(Suite *s);

/* The stdout of a shell command line, which must exit 0; free() it. */
char *shell_out(const char *cmd);

/* ---- trees in temporary directories (tune) -------------------------------- */

/*
 * Every path under dir but ./var (the snapshots), sorted, with its mode and
 * for files a hash of their bytes: two trees compare as strings. free() it.
 */
char *tree_digest(const char *dir);
/* Removes dir and everything under it. */
void tree_remove(const char *dir);

/*
 * ---- the real sparkperf-ctl, against fakenl.so (cli/ suites, which define
 * TESTUTIL_CLI before including this) ----------------------------------------
 */
#ifdef TESTUTIL_CLI
#define CLI "../../user/sparkperf-ctl"

struct result {
	int rc;
	char *out;
	char *err;
	char *log;			/* the requests fakenl.so answered */
	double secs;
};

extern char tmpdir[64];		/* /tmp/check_cli.XXXXXX, one per test */
/* Not NULL: the tool runs with this PATH (the wrapper is still found on the test's). */
extern const char *child_path;

/* The fixture of a CLI test case: tmpdir made, then removed with what it holds. */
void cli_setup(void);
void cli_teardown(void);
/* tmpdir/name into buf[PATH_MAX] */
void path(char *buf, const char *name);
/* A whole file, "" if it cannot be read; free() it. */
char *slurp(const char *path);
/*
 * Runs the tool (under $CLI_WRAPPER, e.g. "valgrind -q --error-exitcode=99")
 * with the fakenl scenario; the arguments end with NULL.
 */
void run(struct result *r, const char *scenario, ...);
void result_free(struct result *r);
#endif

#endif
