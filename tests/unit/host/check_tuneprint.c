// SPDX-License-Identifier: GPL-2.0
/* What tune show, apply, revert and the checklists print, as text and as JSON. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "host/checklist.h"
#include "host/knobs.h"
#include "host/tuneprint.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct sp_knob knobs[3];

static struct sp_plan make_plan(void)
{
	static const struct sp_plan p = { .knobs = knobs, .n = ARRAY_SIZE(knobs), .n_changes = 2 };

	memset(knobs, 0, sizeof(knobs));
	knobs[0] = (struct sp_knob){
		.spec = &sp_knob_specs[2], .state = SP_KNOB_CHANGE, .recommended = "4096 87380 67108864",
		.where = "/proc/sys/net/ipv4/tcp_rmem", .ch = {
			.name = "net.ipv4.tcp_rmem", .access = SP_ACCESS_LINE,
			.path = "/proc/sys/net/ipv4/tcp_rmem", .has_before = true,
			.before = "4096\t131072\t6291456", .after = "4096 131072 67108864" } };
	knobs[1] = (struct sp_knob){
		.spec = sp_knob_spec_of(SP_KNOB_MEMLOCK), .state = SP_KNOB_CHANGE,
		.recommended = "conf\n", .where = "/etc/security/limits.d/90-sparkperf.conf",
		.note = "this session: 8MiB", .ch = {
			.name = "memlock", .access = SP_ACCESS_FILE,
			.path = "/etc/security/limits.d/90-sparkperf.conf", .after = "conf\n",
			.after_mode = 0644 } };
	knobs[2] = (struct sp_knob){
		.spec = sp_knob_spec_of(SP_KNOB_ROCE_MTU), .state = SP_KNOB_OBSERVED,
		.recommended = "4096", .where = "rxe0 port 1 (follows mtu eth0)", .ch = {
			.name = "roce-mtu rxe0", .has_before = true, .before = "1024" } };
	return p;
}

START_TEST(test_plan_text)
{
	struct sp_plan p = make_plan();
	struct capture c;
	char *out;

	ck_assert_str_eq(knobs[0].spec->name, "net.ipv4.tcp_rmem");
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_tune_plan(&p), 0);
	out = cap_end(&c);
	ck_assert_uint_eq(count_lines(out), 4);
	ck_assert(starts_with(out, "KNOB               STATE   CURRENT              "
			      "RECOMMENDED             WHERE"));
	/* blanks as one space; at-least values marked; files by presence */
	ck_assert_ptr_nonnull(strstr(out, "\nnet.ipv4.tcp_rmem  change  4096 131072 6291456  "
				     ">= 4096 87380 67108864  /proc/sys/net/ipv4/tcp_rmem"));
	ck_assert_ptr_nonnull(strstr(out, "\nmemlock            change  absent               "
				     "unlimited"));
	ck_assert_ptr_nonnull(strstr(out, "this session: 8MiB\n"));
	ck_assert_ptr_nonnull(strstr(out, "\nroce-mtu rxe0      lags    1024"));
	free(out);
}
END_TEST

START_TEST(test_plan_json)
{
	static const char *const keys[] = {
		"name", "state", "current", "recommended", "target", "where", "severity",
		"reason", "note",
	};
	struct sp_plan p = make_plan();
	json_object *arr, *o;
	struct capture c;
	char *out;

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_tune_plan(&p), 0);
	out = cap_end(&c);
	arr = json_tokener_parse(out);
	ck_assert_int_eq(json_object_array_length(arr), 3);
	o = json_object_array_get_idx(arr, 0);
	assert_keys(o, keys, ARRAY_SIZE(keys));
	/* one form for every value: blanks as one space, without the table's ">= " */
	assert_str(o, "current", "4096 131072 6291456");
	assert_str(o, "recommended", "4096 87380 67108864");
	assert_str(o, "target", "4096 131072 67108864");
	assert_str(o, "severity", "warn");
	assert_null(o, "note");
	/* a file by the value it sets, not its content */
	o = json_object_array_get_idx(arr, 1);
	assert_null(o, "current");
	assert_str(o, "recommended", "unlimited");
	assert_str(o, "target", "unlimited");
	o = json_object_array_get_idx(arr, 2);
	assert_str(o, "state", "observed");
	assert_bool(o, "as_expected", false);
	json_object_put(arr);
	free(out);
}
END_TEST

/* The text of apply, revert (last change first) and of nothing to change. */
static const struct {
	bool revert;
	const char *snapshot;
	const char *profile;
	size_t n;
	const char *want;
} changes_text[] = {
	{ false, "/s.json", "throughput", 2,
	  "snapshot /s.json\n"
	  "net.ipv4.tcp_rmem: 4096 131072 6291456 -> 4096 131072 67108864\n"
	  "memlock: absent -> written\n"
	  "2 changes applied\n" },
	{ true, "/s.json", "throughput", 2,
	  "snapshot /s.json\n"
	  "memlock: written -> absent\n"
	  "net.ipv4.tcp_rmem: 4096 131072 67108864 -> 4096 131072 6291456\n"
	  "2 changes reverted\n" },
	{ false, NULL, "latency", 0,
	  "Nothing to change: every knob is as profile latency recommends.\n" },
};

START_TEST(test_changes_text)
{
	struct sp_change ch[2];
	struct capture c;
	char *out;

	make_plan();
	ch[0] = knobs[0].ch;
	ch[1] = knobs[1].ch;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_tune_changes(changes_text[_i].revert, changes_text[_i].snapshot,
					       changes_text[_i].profile,
					       changes_text[_i].n ? ch : NULL,
					       changes_text[_i].n), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, changes_text[_i].want);
	free(out);
}
END_TEST

START_TEST(test_changes_json)
{
	struct sp_change ch[2];
	json_object *o, *arr;
	struct capture c;
	char *out;

	make_plan();
	ch[0] = knobs[0].ch;
	ch[1] = knobs[1].ch;
	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_tune_changes(true, "/s.json", "throughput", ch, 2), 0);
	out = cap_end(&c);
	o = json_tokener_parse(out);
	assert_str(o, "action", "revert");
	assert_str(o, "snapshot", "/s.json");
	arr = get(o, "changes");
	ck_assert_int_eq(json_object_array_length(arr), 2);
	assert_str(json_object_array_get_idx(arr, 0), "name", "memlock");
	assert_null(json_object_array_get_idx(arr, 0), "before");
	assert_str(json_object_array_get_idx(arr, 0), "after", "written");
	assert_str(json_object_array_get_idx(arr, 1), "before", "4096 131072 6291456");
	assert_str(json_object_array_get_idx(arr, 1), "after", "4096 131072 67108864");
	json_object_put(o);
	free(out);
}
END_TEST

/* No knobs: no table at all, an empty JSON array. */
static const struct {
	bool json;
	const char *want;
} plan_empty[] = {
	{ false, "" },
	{ true, "[]\n" },
};

START_TEST(test_plan_empty)
{
	struct sp_plan p = { 0 };
	struct capture c;
	char *out;

	cap_start(&c, plan_empty[_i].json, false);
	ck_assert_int_eq(sp_print_tune_plan(&p), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, plan_empty[_i].want);
	free(out);
}
END_TEST

START_TEST(test_checklist)
{
	struct sp_checklist l = { 0 };
	json_object *arr, *o;
	struct capture c;
	char *out;
	size_t i;

	/* no item yet: nothing to hold a fact */
	sp_check_fact_str(&l, "device", "rxe0");
	ck_assert_int_eq(sp_check_add(&l, SP_CHECK_PASS, "module", NULL, "sparkperf %s", "0.1"), 0);
	ck_assert_int_eq(sp_check_add(&l, SP_CHECK_FAIL, "jumbo 192.168.200.13", "set the MTU",
				      "fragments of %u bytes\tvia eth0", 1500), 0);
	ck_assert_int_eq(sp_check_add(&l, SP_CHECK_SKIP, "pcie rxe0", "unused", "software"), 0);
	/* facts: -j only, of the last item, as many as there is room for */
	sp_check_fact_str(&l, "device", "rxe0");
	sp_check_fact_u64(&l, "pcie_width", 2);
	sp_check_fact_num(&l, "pcie_speed_gt_per_s", 32, 1);
	for (i = 0; i < SP_CHECK_FACTS; i++)
		sp_check_fact_u64(&l, "pcie_max_width", i);
	ck_assert_uint_eq(l.items[2].n_facts, SP_CHECK_FACTS);
	ck_assert_uint_eq(sp_check_count(&l, SP_CHECK_FAIL), 1);

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_checklist(&l), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
			 "pass  module                sparkperf 0.1\n"
			 "fail  jumbo 192.168.200.13  fragments of 1500 bytes via eth0\n"
			 "                            fix: set the MTU\n"
			 "skip  pcie rxe0             software\n"
			 "                            fix: unused\n"
			 "1 passed, 0 warnings, 1 failed, 1 skipped\n");
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_checklist(&l), 0);
	out = cap_end(&c);
	arr = json_tokener_parse(out);
	ck_assert_int_eq(json_object_array_length(arr), 3);
	o = json_object_array_get_idx(arr, 0);
	assert_str(o, "status", "pass");
	assert_null(o, "fix");
	o = json_object_array_get_idx(arr, 1);
	assert_str(o, "name", "jumbo 192.168.200.13");
	assert_str(o, "detail", "fragments of 1500 bytes\tvia eth0");
	assert_str(o, "fix", "set the MTU");
	assert_null(o, "facts");
	o = get(json_object_array_get_idx(arr, 2), "facts");
	assert_str(o, "device", "rxe0");
	assert_int(o, "pcie_width", 2);
	assert_double(o, "pcie_speed_gt_per_s", 32, 0);
	assert_int(o, "pcie_max_width", 4);
	json_object_put(arr);
	free(out);
	sp_checklist_free(&l);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tuneprint");
	TCase *tc = tcase_create("tuneprint");

	tcase_add_test(tc, test_plan_text);
	tcase_add_test(tc, test_plan_json);
	tcase_add_loop_test(tc, test_plan_empty, 0, ARRAY_SIZE(plan_empty));
	tcase_add_loop_test(tc, test_changes_text, 0, ARRAY_SIZE(changes_text));
	tcase_add_test(tc, test_changes_json);
	tcase_add_test(tc, test_checklist);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
