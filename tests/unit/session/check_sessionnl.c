// SPDX-License-Identifier: GPL-2.0
/*
 * What lat and bw sessions share on the wire (session/sessionnl.c), one
 * table row per kind and request: the requests that name a session by its
 * id (STOP, GET, the GET dump, the samples dump), built and inspected.
 */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "session/sessionnl.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The builders in one shape: (family, has_id, id, out). */
static int lat_stop(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	(void)has_id;
	return sp_nl_lat_stop_msg(family, id, out);
}

static int lat_samples(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	(void)has_id;
	return sp_nl_lat_samples_msg(family, id, out);
}

static int bw_stop(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	(void)has_id;
	return sp_nl_bw_stop_msg(family, id, out);
}

static const struct id_request {
	const char *what;
	int (*build)(int family, bool has_id, uint32_t id, struct nl_msg **out);
	bool has_id;
	uint32_t id;
	uint8_t cmd;
	int flags;
	int id_attr;			/* the one attribute when has_id, else none */
} id_requests[] = {
	{ "lat stop", lat_stop, true, 42, SPARKPERF_CMD_LAT_STOP, NLM_F_ACK, SPARKPERF_A_LAT_ID },
	{ "lat get", sp_nl_lat_get_msg, true, 42, SPARKPERF_CMD_LAT_GET, NLM_F_ACK,
	  SPARKPERF_A_LAT_ID },
	{ "lat dump", sp_nl_lat_get_msg, false, 0, SPARKPERF_CMD_LAT_GET, NLM_F_DUMP,
	  SPARKPERF_A_LAT_ID },
	{ "lat samples", lat_samples, true, 9, SPARKPERF_CMD_LAT_SAMPLES, NLM_F_DUMP,
	  SPARKPERF_A_LAT_ID },
	{ "bw stop", bw_stop, true, 42, SPARKPERF_CMD_BW_STOP, NLM_F_ACK, SPARKPERF_A_BW_ID },
	{ "bw get", sp_nl_bw_get_msg, true, 43, SPARKPERF_CMD_BW_GET, NLM_F_ACK,
	  SPARKPERF_A_BW_ID },
	{ "bw dump", sp_nl_bw_get_msg, false, 0, SPARKPERF_CMD_BW_GET, NLM_F_DUMP,
	  SPARKPERF_A_BW_ID },
};

/* The larger of the two attribute spaces. */
#define ATTR_MAX \
	(SPARKPERF_A_LAT_MAX > SPARKPERF_A_BW_MAX ? SPARKPERF_A_LAT_MAX : SPARKPERF_A_BW_MAX)

START_TEST(test_build_id_request)
{
	const struct id_request *r = &id_requests[_i];
	struct nlattr *tb[ATTR_MAX + 1];
	struct nl_msg *msg;

	ck_assert_msg(r->build(FAMILY, r->has_id, r->id, &msg) == 0, "%s", r->what);
	req_parse(msg, tb, ATTR_MAX, r->cmd, r->flags);
	ck_assert_int_eq(count_attrs(msg), r->has_id ? 1 : 0);
	if (r->has_id) {
		assert_attr(tb, r->id_attr, 4);
		ck_assert_uint_eq(nla_get_u32(tb[r->id_attr]), r->id);
	}
	nlmsg_free(msg);
}
END_TEST

static Suite *sessionnl_suite(void)
{
	Suite *s = suite_create("sessionnl");
	TCase *tc = tcase_create("build");

	tcase_add_loop_test(tc, test_build_id_request, 0, ARRAY_SIZE(id_requests));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sessionnl_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
