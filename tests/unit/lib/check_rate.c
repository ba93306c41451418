// SPDX-License-Identifier: GPL-2.0
/*
 * Rates from raw counters (user/rate.c): the unit of counters named as
 * ethtool -S (mlx5, virtio), netdev stats64, rxe and RDMA hw_counters name
 * them; the delta of two readings (plain, a 32-bit wrap, a 64-bit wrap, a
 * reset) at the boundaries of each rule; the rate in each unit.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/rate.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define TWO32 (1ULL << 32)
#define TWO63 (1ULL << 63)

/* ---- units ---------------------------------------------------------------- */

static const struct {
	const char *name;
	enum sp_counter_unit unit;
} names[] = {
	/* mlx5 ethtool -S */
	{ "tx_bytes_phy", SP_UNIT_BYTES },
	{ "rx_bytes_phy", SP_UNIT_BYTES },
	{ "rx_prio3_bytes", SP_UNIT_BYTES },
	{ "tx_vport_rdma_unicast_bytes", SP_UNIT_BYTES },
	{ "tx_vport_rdma_unicast_packets", SP_UNIT_PACKETS },
	{ "rx_packets_phy", SP_UNIT_PACKETS },
	{ "rx_oversize_pkts_phy", SP_UNIT_PACKETS },
	{ "rx_prio3_pause_duration", SP_UNIT_USEC },
	{ "tx_prio3_pause_duration", SP_UNIT_USEC },
	{ "rx_prio3_pause", SP_UNIT_EVENTS },
	{ "rx_prio3_pause_transition", SP_UNIT_EVENTS },
	{ "rx_crc_errors_phy", SP_UNIT_EVENTS },
	{ "rx_discards_phy", SP_UNIT_EVENTS },
	{ "rx_out_of_buffer", SP_UNIT_EVENTS },
	/* netdev stats64, virtio ethtool -S */
	{ "tx_bytes", SP_UNIT_BYTES },
	{ "rx_packets", SP_UNIT_PACKETS },
	{ "rx_queue_0_bytes", SP_UNIT_BYTES },
	{ "rx_queue_0_packets", SP_UNIT_PACKETS },
	/* IB PMA counters (4-octet words: still "bytes" by name) */
	{ "port_xmit_data", SP_UNIT_BYTES },
	{ "port_rcv_data", SP_UNIT_BYTES },
	{ "port_xmit_packets", SP_UNIT_PACKETS },
	/* RDMA hw_counters: rxe, mlx5 */
	{ "sent_pkts", SP_UNIT_PACKETS },
	{ "rcvd_pkts", SP_UNIT_PACKETS },
	{ "np_cnp_sent", SP_UNIT_EVENTS },
	{ "np_ecn_marked_roce_packets", SP_UNIT_PACKETS },
	{ "cc_rx_ce_pkts", SP_UNIT_PACKETS },
	{ "out_of_sequence", SP_UNIT_EVENTS },
	/* frames, octets */
	{ "a_frames_transmitted_ok", SP_UNIT_PACKETS },
	{ "a_octets_received_ok", SP_UNIT_BYTES },
	/* "_data" only at the end */
	{ "rx_data_errors", SP_UNIT_EVENTS },
	{ "", SP_UNIT_EVENTS },
};

START_TEST(test_unit_names)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		ck_assert_msg(sp_counter_unit(names[i].name) == names[i].unit,
			      "%s: unit %d, want %d", names[i].name,
			      sp_counter_unit(names[i].name), names[i].unit);
	ck_assert_int_eq(sp_counter_unit(NULL), SP_UNIT_EVENTS);
}
END_TEST

/* What each unit is called: as a rate, in words, in the JSON key of a rate. */
static const struct {
	enum sp_counter_unit unit;
	const char *rate_unit, *word, *rate_key;
} unit_strings[] = {
	{ SP_UNIT_BYTES, "bit/s", "bytes", "gbit_per_s" },
	{ SP_UNIT_PACKETS, "packet/s", "packets", "packets_per_s" },
	{ SP_UNIT_USEC, "us/s", "us", "us_per_s" },
	{ SP_UNIT_EVENTS, "1/s", "events", "per_s" },
	/* a value beyond the enum reads as events */
	{ (enum sp_counter_unit)99, "1/s", "events", "per_s" },
};

START_TEST(test_rate_unit_strings)
{
	enum sp_counter_unit unit = unit_strings[_i].unit;

	ck_assert_str_eq(sp_counter_rate_unit(unit), unit_strings[_i].rate_unit);
	ck_assert_str_eq(sp_counter_unit_word(unit), unit_strings[_i].word);
	ck_assert_str_eq(sp_counter_rate_key(unit), unit_strings[_i].rate_key);
}
END_TEST

/* ---- deltas --------------------------------------------------------------- */

static void check_delta(uint64_t prev, uint64_t cur, enum sp_delta_kind kind,
			uint64_t want)
{
	uint64_t d = 0xdeadbeef;
	enum sp_delta_kind k = sp_counter_delta(prev, cur, &d);

	ck_assert_msg(k == kind, "%#llx -> %#llx: kind %d, want %d",
		      (unsigned long long)prev, (unsigned long long)cur, k, kind);
	ck_assert_msg(d == want, "%#llx -> %#llx: delta %#llx, want %#llx",
		      (unsigned long long)prev, (unsigned long long)cur,
		      (unsigned long long)d, (unsigned long long)want);
}

START_TEST(test_delta_ok)
{
	check_delta(0, 0, SP_DELTA_OK, 0);
	check_delta(5, 5, SP_DELTA_OK, 0);
	check_delta(UINT32_MAX, UINT32_MAX, SP_DELTA_OK, 0);
	check_delta(UINT64_MAX, UINT64_MAX, SP_DELTA_OK, 0);
	check_delta(100, 250, SP_DELTA_OK, 150);
	/* a 32-bit value growing past 2^32: a 64-bit counter, no wrap */
	check_delta(UINT32_MAX, TWO32, SP_DELTA_OK, 1);
	check_delta(0, UINT64_MAX, SP_DELTA_OK, UINT64_MAX);
}
END_TEST

START_TEST(test_delta_wrap32)
{
	check_delta(UINT32_MAX, 0, SP_DELTA_WRAP32, 1);
	check_delta(0xFFFFFFF0, 0x10, SP_DELTA_WRAP32, 0x20);
	/* the largest increase still read as a wrap: 2^31 - 1 */
	check_delta(TWO32 - 0x100, 0x7FFFFEFF, SP_DELTA_WRAP32, 0x7FFFFFFF);
	/* one more would be half the range: a reset */
	check_delta(TWO32 - 0x100, 0x7FFFFF00, SP_DELTA_RESET, 0x7FFFFF00);
	/* from the lower half, every decrease is more than half the range */
	check_delta(0x7FFFFFFF, 0, SP_DELTA_RESET, 0);
	check_delta(1000, 10, SP_DELTA_RESET, 10);
}
END_TEST

START_TEST(test_delta_wrap64)
{
	check_delta(UINT64_MAX - 1, 2, SP_DELTA_WRAP64, 4);
	check_delta(UINT64_MAX, 0, SP_DELTA_WRAP64, 1);
	/* from the upper half: increases below 2^63 wrap */
	check_delta(TWO63 + 1, 0, SP_DELTA_WRAP64, TWO63 - 1);
	check_delta(TWO63 + 1, 1, SP_DELTA_RESET, 1);
	check_delta(TWO63, 0, SP_DELTA_RESET, 0);
	/* a value just above 32 bits never wraps as 32-bit */
	check_delta(TWO32 + 5, 3, SP_DELTA_RESET, 3);
	check_delta(TWO32, UINT32_MAX, SP_DELTA_RESET, UINT32_MAX);
	check_delta(TWO63 - 1, 0, SP_DELTA_RESET, 0);
}
END_TEST

START_TEST(test_delta_null)
{
	ck_assert_int_eq(sp_counter_delta(UINT32_MAX, 0, NULL), SP_DELTA_WRAP32);
}
END_TEST

/* ---- rates ---------------------------------------------------------------- */

START_TEST(test_rates)
{
	/* 1250 bytes in 100 µs: 100 Mbit/s */
	ck_assert_double_eq(sp_counter_rate(1250, 100000, SP_UNIT_BYTES), 1e8);
	/* 25 GB in 1 s: 200 Gbit/s */
	ck_assert_double_eq(sp_counter_rate(25000000000ULL, 1000000000ULL, SP_UNIT_BYTES),
			    2e11);
	/* 500 packets in 50 ms */
	ck_assert_double_eq(sp_counter_rate(500, 50000000, SP_UNIT_PACKETS), 1e4);
	/* 25 ms of pause in 100 ms: 250000 µs/s, a quarter of the time */
	ck_assert_double_eq(sp_counter_rate(25000, 100000000, SP_UNIT_USEC), 250000);
	/* 3 CNPs in 1.5 s */
	ck_assert_double_eq(sp_counter_rate(3, 1500000000, SP_UNIT_EVENTS), 2);
	ck_assert_double_eq(sp_counter_rate(0, 100000000, SP_UNIT_BYTES), 0);
	ck_assert_double_eq_tol(sp_counter_rate(UINT64_MAX, 1, SP_UNIT_BYTES),
				8e9 * 18446744073709551615.0, 1e20);
}
END_TEST

START_TEST(test_rate_zero_dt)
{
	ck_assert_double_eq(sp_counter_rate(1000, 0, SP_UNIT_BYTES), 0);
	ck_assert_double_eq(sp_counter_rate(1000, 0, SP_UNIT_PACKETS), 0);
	ck_assert_double_eq(sp_counter_rate(1000, 0, SP_UNIT_USEC), 0);
	ck_assert_double_eq(sp_counter_rate(1000, 0, SP_UNIT_EVENTS), 0);
}
END_TEST

/* A wrapped reading through to the rate, as the CLI chains them. */
START_TEST(test_chain)
{
	uint64_t d;

	ck_assert_int_eq(sp_counter_delta(0xFFFFFF00, 0x00000100, &d), SP_DELTA_WRAP32);
	ck_assert_double_eq(sp_counter_rate(d, 1000, sp_counter_unit("sent_pkts")), 512e6);
}
END_TEST

static Suite *rate_suite(void)
{
	Suite *s = suite_create("rate");
	TCase *tc = tcase_create("unit");

	tcase_add_test(tc, test_unit_names);
	tcase_add_loop_test(tc, test_rate_unit_strings, 0, ARRAY_SIZE(unit_strings));
	suite_add_tcase(s, tc);

	tc = tcase_create("delta");
	tcase_add_test(tc, test_delta_ok);
	tcase_add_test(tc, test_delta_wrap32);
	tcase_add_test(tc, test_delta_wrap64);
	tcase_add_test(tc, test_delta_null);
	suite_add_tcase(s, tc);

	tc = tcase_create("rate");
	tcase_add_test(tc, test_rates);
	tcase_add_test(tc, test_rate_zero_dt);
	tcase_add_test(tc, test_chain);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(rate_suite());
}
