// SPDX-License-Identifier: GPL-2.0
/* Tuning snapshots: JSON round trip, what a reader refuses, file names. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/snapshot.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One change of each access, with what must survive: tabs, absence, modes, a group. */
static struct sp_knob knobs[] = {
	{ .state = SP_KNOB_CHANGE, .ch = {
		.name = "net.ipv4.tcp_rmem", .access = SP_ACCESS_LINE,
		.path = "/proc/sys/net/ipv4/tcp_rmem", .has_before = true,
		.before = "4096\t131072\t6291456", .after = "4096 131072 67108864" } },
	{ .state = SP_KNOB_OK, .ch = {
		.name = "net.core.wmem_max", .access = SP_ACCESS_LINE,
		.path = "/proc/sys/net/core/wmem_max", .has_before = true,
		.before = "536870912" } },
	{ .state = SP_KNOB_CHANGE, .ch = {
		.name = "roce-tos rxe0", .access = SP_ACCESS_CONFIGFS,
		.path = "/sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos",
		.group = "/sys/kernel/config/rdma_cm/rxe0", .group_made = true,
		.has_before = true, .before = "0", .after = "106" } },
	{ .state = SP_KNOB_CHANGE, .ch = {
		.name = "dscp-prio eth0", .access = SP_ACCESS_DSCP, .path = "eth0",
		.has_before = true, .before = "", .after = "26:3 48:6" } },
	{ .state = SP_KNOB_CHANGE, .ch = {
		.name = "memlock", .access = SP_ACCESS_FILE,
		.path = "/etc/security/limits.d/90-sparkperf.conf",
		.after = "* soft memlock unlimited\n\"quoted\" \\ back\n", .after_mode = 0644 } },
	{ .state = SP_KNOB_CHANGE, .ch = {
		.name = "sysctl.d", .access = SP_ACCESS_FILE, .path = "/etc/sysctl.d/90-sparkperf.conf",
		.has_before = true, .before = "old\n", .before_mode = 0600,
		.after = "new\n", .after_mode = 0644 } },
};

static struct sp_plan plan = { .knobs = knobs, .n = ARRAY_SIZE(knobs), .n_changes = 5 };

static void assert_change(const struct sp_change *a, const struct sp_change *b)
{
	ck_assert_str_eq(a->name, b->name);
	ck_assert_int_eq(a->access, b->access);
	ck_assert_str_eq(a->path, b->path);
	ck_assert_str_eq(a->group, b->group);
	ck_assert_int_eq(a->group_made, b->group_made);
	ck_assert_int_eq(a->has_before, b->has_before);
	if (a->has_before) {
		ck_assert_str_eq(a->before, b->before);
		ck_assert_uint_eq(a->before_mode, b->before_mode);
	} else {
		ck_assert_ptr_null(b->before);
	}
	ck_assert_str_eq(a->after, b->after);
	ck_assert_uint_eq(a->after_mode, b->after_mode);
}

START_TEST(test_round_trip)
{
	struct sp_snapshot s, back;
	char err[256], *json, *again;
	size_t i, j;

	ck_assert_int_eq(sp_snapshot_from_plan(&s, &plan, "spark1", "2026-11-30T07:08:39Z",
					       "0.1.0", "throughput"), 0);
	ck_assert_uint_eq(s.n, 5);	/* the changes only, in order */
	json = sp_snapshot_to_json(&s);
	ck_assert_ptr_nonnull(json);
	ck_assert_int_eq(sp_snapshot_parse(json, &back, err, sizeof(err)), 0);
	ck_assert_int_eq(back.version, SP_SNAPSHOT_VERSION);
	ck_assert_str_eq(back.host, "spark1");
	ck_assert_str_eq(back.created, "2026-11-30T07:08:39Z");
	ck_assert_str_eq(back.tool_version, "0.1.0");
	ck_assert_str_eq(back.profile, "throughput");
	ck_assert_uint_eq(back.n, s.n);
	for (i = 0, j = 0; i < ARRAY_SIZE(knobs); i++)
		if (knobs[i].state == SP_KNOB_CHANGE)
			assert_change(&knobs[i].ch, &back.changes[j++]);
	/* and the same document again */
	again = sp_snapshot_to_json(&back);
	ck_assert_str_eq(again, json);
	ck_assert_ptr_nonnull(strstr(json, "\"format\": \"sparkperf-tune-snapshot\""));
	ck_assert_ptr_nonnull(strstr(json, "\"before\": null"));
	free(json);
	free(again);
	sp_snapshot_free(&s);
	sp_snapshot_free(&back);
}
END_TEST

/* A valid document with one change whose members are the given JSON text. */
static int parse_change(const char *members, char *err, size_t len)
{
	struct sp_snapshot s;
	char doc[1024];
	int ret;

	snprintf(doc, sizeof(doc), "{\"format\":\"sparkperf-tune-snapshot\",\"version\":1,"
		 "\"host\":\"h\",\"changes\":[{%s}]}", members);
	ret = sp_snapshot_parse(doc, &s, err, len);
	if (!ret)
		sp_snapshot_free(&s);
	return ret;
}

/* Documents refused as a whole, and changes refused one by one. */
static const struct {
	const char *doc;
	const char *err;
} docs[] = {
	{ "{", "not JSON: unexpected end of data" },
	{ "[]", "not a sparkperf tuning snapshot" },
	{ "{\"format\":\"other\",\"version\":1}", "not a sparkperf tuning snapshot" },
	{ "{\"format\":\"sparkperf-tune-snapshot\",\"version\":2,\"host\":\"h\","
	  "\"changes\":[]}", "snapshot version 2, this sparkperf-ctl reads version 1" },
	{ "{\"format\":\"sparkperf-tune-snapshot\",\"version\":1,\"changes\":[]}",
	  "a bad host, created, tool_version or profile" },
	{ "{\"format\":\"sparkperf-tune-snapshot\",\"version\":1,\"host\":\"h\"}",
	  "the snapshot has no list of changes" },
};
static const struct {
	const char *members;
	const char *err;
} changes[] = {
	{ "\"name\":\"x\",\"access\":\"teleport\",\"path\":\"/x\",\"before\":\"1\","
	  "\"after\":\"2\"", "change 0: a bad name, access or path" },
	{ "\"name\":\"x\",\"access\":\"line\",\"path\":\"/x\",\"before\":null,"
	  "\"after\":\"2\"", "x: only a file can be absent" },
	{ "\"name\":\"x\",\"access\":\"line\",\"path\":\"proc/x\",\"before\":\"1\","
	  "\"after\":\"2\"", "x: not a netdev or an absolute path: proc/x" },
	{ "\"name\":\"x\",\"access\":\"file\",\"path\":\"/etc/../../x\",\"before\":null,"
	  "\"after\":\"2\",\"after_mode\":420",
	  "x: not a netdev or an absolute path: /etc/../../x" },
	{ "\"name\":\"x\",\"access\":\"file\",\"path\":\"/x\",\"before\":null,"
	  "\"after\":\"2\",\"after_mode\":99999", "x: a bad file mode" },
	{ "\"name\":\"x\",\"access\":\"dscp\",\"path\":\"a/b\",\"before\":\"\","
	  "\"after\":\"26:3\"", "x: not a netdev or an absolute path: a/b" },
	{ "\"name\":\"x\",\"access\":\"configfs\",\"path\":\"/a/b\",\"group\":\"/c\","
	  "\"group_made\":true,\"before\":\"0\",\"after\":\"1\"", "x: a bad configfs group" },
	{ "\"name\":\"x\",\"access\":\"line\",\"path\":\"/x\",\"before\":1,\"after\":\"2\"",
	  "x: a bad \"before\" or \"after\"" },
};

START_TEST(test_refused_doc)
{
	struct sp_snapshot s;
	char err[256];

	ck_assert_int_eq(sp_snapshot_parse(docs[_i].doc, &s, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, docs[_i].err);
}
END_TEST

START_TEST(test_refused_change)
{
	char err[256];

	ck_assert_int_eq(parse_change(changes[_i].members, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, changes[_i].err);
}
END_TEST

/* And a good one, for contrast: a configfs group above its path. */
START_TEST(test_configfs_change)
{
	char err[256];

	ck_assert_int_eq(parse_change("\"name\":\"x\",\"access\":\"configfs\",\"path\":\"/c/p\","
				      "\"group\":\"/c\",\"group_made\":false,\"before\":\"0\","
				      "\"after\":\"1\"", err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_names)
{
	char a[SP_SNAPSHOT_NAME_MAX], b[SP_SNAPSHOT_NAME_MAX];

	sp_snapshot_name(0, 1, a, sizeof(a));
	ck_assert_str_eq(a, "tune-19700101T000000Z-01.json");
	sp_snapshot_name(1796022519LL, 2, a, sizeof(a));
	ck_assert_str_eq(a, "tune-20261130T070839Z-02.json");
	/* names sort as their times and sequence numbers do */
	sp_snapshot_name(1796022519LL, 10, b, sizeof(b));
	ck_assert_int_lt(strcmp(a, b), 0);
	sp_snapshot_name(1796022520LL, 1, a, sizeof(a));
	ck_assert_int_gt(strcmp(a, b), 0);
	ck_assert(sp_snapshot_name_valid(a));
	ck_assert(!sp_snapshot_name_valid("tune-20261130T070839Z-02.json.reverted"));
	ck_assert(!sp_snapshot_name_valid("../tune-x.json"));
	ck_assert(!sp_snapshot_name_valid("other.json"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("snapshot");

	tcase_add_test(tc, test_round_trip);
	tcase_add_loop_test(tc, test_refused_doc, 0, ARRAY_SIZE(docs));
	tcase_add_loop_test(tc, test_refused_change, 0, ARRAY_SIZE(changes));
	tcase_add_test(tc, test_configfs_change);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
