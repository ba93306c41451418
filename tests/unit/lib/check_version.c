// SPDX-License-Identifier: GPL-2.0
/* The version printer (lib/show.c), text and JSON, captured in memory. */
#include <check.h>
#include <stdlib.h>
#include <json-c/json.h>

#include "lib/model.h"
#include "lib/info.h"
#include "testutil.h"

START_TEST(test_version)
{
	struct sp_info info = { .version = "0.1.0", .kernel = "6.1.0-18-amd64",
				.has_devices = true, .devices = 1 };
	struct capture c;
	json_object *doc, *mod;
	char *out;

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_print_version("0.1.0", &info, NULL), 0);
	info.devices = 2;
	ck_assert_int_eq(sp_print_version("0.1.0", &info, NULL), 0);
	ck_assert_int_eq(sp_print_version("0.1.0-3-gabcdef", NULL, "not loaded"), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"sparkperf-ctl 0.1.0\nmodule: 0.1.0 (kernel 6.1.0-18-amd64, 1 RDMA device)\n"
		"sparkperf-ctl 0.1.0\nmodule: 0.1.0 (kernel 6.1.0-18-amd64, 2 RDMA devices)\n"
		"sparkperf-ctl 0.1.0-3-gabcdef\nmodule: not loaded\n");
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_version("0.1.0", &info, NULL), 0);
	out = cap_end(&c);
	doc = json_tokener_parse(out);
	assert_str(doc, "version", "0.1.0");
	mod = get(doc, "module");
	assert_str(mod, "version", "0.1.0");
	assert_str(mod, "kernel", "6.1.0-18-amd64");
	assert_int(mod, "devices", 2);
	json_object_put(doc);
	free(out);

	cap_start(&c, true, false);
	ck_assert_int_eq(sp_print_version("0.1.0", NULL, "not loaded"), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, "{\"version\":\"0.1.0\",\"module\":null,\"module_status\":\"not loaded\"}\n");
	free(out);
}
END_TEST

static Suite *version_suite(void)
{
	Suite *s = suite_create("version");
	TCase *tc = tcase_create("version");

	tcase_add_test(tc, test_version);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(version_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
