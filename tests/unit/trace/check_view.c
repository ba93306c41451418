// SPDX-License-Identifier: GPL-2.0
/*
 * The live view of "sparkperf-ctl watch" (user/view.c): a soft-RoCE port
 * (no link rate, scaled to its peak) and an mlx5 port (200 Gbit/s link)
 * rendered at 40, 80 and 120 columns and compared as text; widths clamped
 * to 40..160 and no line wider; snprintf-style lengths and truncation;
 * long and missing names; a view without traffic and one without ports;
 * where NOW and the PEAK marker land on a bar; the totals; the plain line.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/view.h"
#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define TITLE "sparkperf watch  spark1"
#define SRC_RXE "netdev stats64 tx_bytes/rx_bytes"
#define SRC_MLX5 "ethtool tx_bytes_phy/rx_bytes_phy"

/* rxe: 71 and 2 Mbit/s now, peaks 90 and 3; mlx5: 98.5 and 1.25 Gbit/s, peaks 150 and 1.5 */
static const struct sp_view_port two[] = {
	{ .name = "eth0 (rxe0)", .source = SRC_RXE, .tx_bps = 71e6, .rx_bps = 2e6,
	  .tx_peak_bps = 90e6, .rx_peak_bps = 3e6 },
	{ .name = "enp1s0f0np0 (rocep1s0f0)", .source = SRC_MLX5, .tx_bps = 98.5e9,
	  .rx_bps = 1.25e9, .tx_peak_bps = 150e9, .rx_peak_bps = 1.5e9, .link_bps = 200e9 },
};

static struct sp_view view_of(const struct sp_view_port *ports, size_t n, unsigned int width)
{
	return (struct sp_view){ .title = TITLE, .elapsed_s = 12.34, .period_s = 0.1,
				 .ports = ports, .n_ports = n, .width = width };
}

/* The rendered text, measured first; free() it. */
static char *render(const struct sp_view *v)
{
	size_t n = sp_view_render(NULL, 0, v);
	char *buf = malloc(n + 1);

	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(sp_view_render(buf, n + 1, v), n);
	ck_assert_uint_eq(strlen(buf), n);
	return buf;
}

/* Line k (from 0) of s, without its newline, into dst. */
static const char *line_of(const char *s, size_t k, char *dst, size_t size)
{
	const char *e;

	while (k--) {
		s = strchr(s, '\n');
		ck_assert_ptr_nonnull(s);
		s++;
	}
	e = strchr(s, '\n');
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_lt((size_t)(e - s), size);
	memcpy(dst, s, (size_t)(e - s));
	dst[e - s] = '\0';
	return dst;
}

/* The cells of the bar of line k, between its brackets. */
static const char *bar_of(const char *s, size_t k, char *dst, size_t size)
{
	char line[256];
	const char *a, *b;

	line_of(s, k, line, sizeof(line));
	a = strchr(line, '[');
	b = strrchr(line, ']');
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_lt((size_t)(b - a - 1), size);
	memcpy(dst, a + 1, (size_t)(b - a - 1));
	dst[b - a - 1] = '\0';
	return dst;
}

/* ---- the two-port view at three widths ----------------------------------- */

static const struct {
	unsigned int width;
	const char *want;
} widths[] = {
	{ 40,
		"sparkperf watch  spark1\n"
		"t=12.3 s  period 100 ms\n"
		"PORT     DIR        NOW     PEAK Gbit/s\n"
		"eth0     TX       0.071    0.090 [####|]\n"
		"         RX       0.002    0.003 [     ]\n"
		"  source: netdev stats64 tx_bytes/rx_by~\n"
		"enp1s0f~ TX      98.500  150.000 [## | ]\n"
		"         RX       1.250    1.500 [     ]\n"
		"  source: ethtool tx_bytes_phy/rx_bytes~\n"
		"total    TX      98.571  150.090\n"
		"         RX       1.252    1.503\n"
		"         TX+RX   99.823  151.593\n" },
	{ 80,
		"sparkperf watch  spark1                                  t=12.3 s  period 100 ms\n"
		"PORT        DIR    NOW Gbit/s  PEAK Gbit/s  [# NOW  | PEAK                     ]\n"
		"eth0 (rxe0) TX          0.071        0.090  [###########################      |]\n"
		"            RX          0.002        0.003  [|                                 ]\n"
		"  source: netdev stats64 tx_bytes/rx_bytes, full scale 0.090 Gbit/s (peak)\n"
		"enp1s0f0np0 TX         98.500      150.000  [#################        |        ]\n"
		"            RX          1.250        1.500  [                                  ]\n"
		"  source: ethtool tx_bytes_phy/rx_bytes_phy, full scale 200.000 Gbit/s (link)\n"
		"total       TX         98.571      150.090  sum over ports\n"
		"            RX          1.252        1.503  PEAK: sum of port peaks\n"
		"            TX+RX      99.823      151.593  full duplex\n" },
	{ 120,
		"sparkperf watch  spark1                                                       "
		"                   t=12.3 s  period 100 ms\n"
		"PORT                     DIR    NOW Gbit/s  PEAK Gbit/s  [# NOW  | PEAK       "
		"                                         ]\n"
		"eth0 (rxe0)              TX          0.071        0.090  [####################"
		"############################            |]\n"
		"                         RX          0.002        0.003  [#|                  "
		"                                         ]\n"
		"  source: netdev stats64 tx_bytes/rx_bytes, full scale 0.090 Gbit/s (peak)\n"
		"enp1s0f0np0 (rocep1s0f0) TX         98.500      150.000  [####################"
		"##########               |               ]\n"
		"                         RX          1.250        1.500  [                    "
		"                                         ]\n"
		"  source: ethtool tx_bytes_phy/rx_bytes_phy, full scale 200.000 Gbit/s (link)\n"
		"total                    TX         98.571      150.090  sum over ports\n"
		"                         RX          1.252        1.503  PEAK: sum of port peaks\n"
		"                         TX+RX      99.823      151.593  full duplex\n" },
};

START_TEST(test_widths)
{
	struct sp_view v = view_of(two, 2, widths[_i].width);
	char *out = render(&v);

	ck_assert_str_eq(out, widths[_i].want);
	free(out);
}
END_TEST

/* Below 40 is 40, above 160 is 160; no line is wider, every bar line is exactly that. */
START_TEST(test_width_limits)
{
	struct sp_view v = view_of(two, 2, 40);
	char *at40 = render(&v), *at160, *out, *s, *e;
	unsigned int w;

	v.width = 0;
	out = render(&v);
	ck_assert_str_eq(out, at40);
	free(out);
	v.width = 39;
	out = render(&v);
	ck_assert_str_eq(out, at40);
	free(out);
	v.width = 160;
	at160 = render(&v);
	v.width = 1000;
	out = render(&v);
	ck_assert_str_eq(out, at160);
	free(out);

	for (w = 40; w <= 200; w++) {
		size_t cols = w > 160 ? 160 : w;

		v.width = w;
		out = render(&v);
		for (s = out; *s; s = e + 1) {
			e = strchr(s, '\n');
			ck_assert_ptr_nonnull(e);
			ck_assert_msg((size_t)(e - s) <= cols, "width %u: %.*s", w,
				      (int)(e - s), s);
			ck_assert_msg(e[-1] != ' ', "width %u: trailing space: %.*s", w,
				      (int)(e - s), s);
			if (e[-1] == ']')
				ck_assert_uint_eq((size_t)(e - s), cols);
		}
		free(out);
	}
	free(at40);
	free(at160);
}
END_TEST

/* ---- lengths, like snprintf ---------------------------------------------- */

START_TEST(test_length)
{
	struct sp_view v = view_of(two, 2, 80);
	char *full = render(&v), buf[2048];
	size_t n = strlen(full);

	ck_assert_uint_eq(sp_view_render(NULL, 0, &v), n);
	ck_assert_uint_eq(sp_view_render(NULL, 100, &v), n);

	/* len 0: nothing written */
	buf[0] = 'x';
	ck_assert_uint_eq(sp_view_render(buf, 0, &v), n);
	ck_assert_int_eq(buf[0], 'x');

	ck_assert_uint_eq(sp_view_render(buf, 1, &v), n);
	ck_assert_str_eq(buf, "");

	/* cut at any length: the head, NUL-terminated */
	ck_assert_uint_eq(sp_view_render(buf, 100, &v), n);
	ck_assert_uint_eq(strlen(buf), 99);
	ck_assert(!strncmp(buf, full, 99));

	ck_assert_uint_eq(sp_view_render(buf, n, &v), n);
	ck_assert_uint_eq(strlen(buf), n - 1);
	ck_assert(!strncmp(buf, full, n - 1));

	memset(buf, 'x', sizeof(buf));
	ck_assert_uint_eq(sp_view_render(buf, n + 1, &v), n);
	ck_assert_str_eq(buf, full);
	ck_assert_int_eq(buf[n + 1], 'x');

	ck_assert_uint_eq(sp_view_render(buf, sizeof(buf), NULL), 0);
	ck_assert_str_eq(buf, "");
	free(full);
}
END_TEST

/* ---- names, missing values, no traffic ------------------------------------ */

START_TEST(test_long_names)
{
	static const struct sp_view_port ports[] = {
		{ .name = "a-very-long-interface-name-without-rdma", .tx_bps = 1e9,
		  .tx_peak_bps = 2e9 },
		{ .name = "enp1s0f0np0 (rocep1s0f0)", .source = SRC_MLX5, .link_bps = 200e9 },
		{ .name = NULL, .source = "x", .tx_bps = NAN, .rx_bps = -1,
		  .rx_peak_bps = -0.0, .tx_peak_bps = INFINITY },
	};
	struct sp_view v = view_of(ports, 3, 80);
	char *out;

	v.title = "a title far too long for forty columns of a narrow terminal";
	v.elapsed_s = 3.25;
	v.period_s = 0.01;
	out = render(&v);
	/* the name column: half of 80 - 35 at most */
	ck_assert_str_eq(out,
		"a title far too long for forty columns of a narrow terminal\n"
		"t=3.2 s  period 10 ms\n"
		"PORT                   DIR    NOW Gbit/s  PEAK Gbit/s  [# NOW  | PEAK          ]\n"
		"a-very-long-interface~ TX          1.000        2.000  [############          |]\n"
		"                       RX          0.000        0.000  [                       ]\n"
		"  source: unknown, full scale 2.000 Gbit/s (peak)\n"
		"enp1s0f0np0            TX          0.000        0.000  [                       ]\n"
		"                       RX          0.000        0.000  [                       ]\n"
		"  source: ethtool tx_bytes_phy/rx_bytes_phy, full scale 200.000 Gbit/s (link)\n"
		"?                      TX          0.000        0.000  [                       ]\n"
		"                       RX          0.000        0.000  [                       ]\n"
		"  source: x, full scale 2.000 Gbit/s (peak)\n"
		"total                  TX          1.000        2.000  sum over ports\n"
		"                       RX          0.000        0.000  PEAK: sum of port peaks\n"
		"                       TX+RX       1.000        2.000  full duplex\n");
	free(out);

	v.width = 40;
	out = render(&v);
	ck_assert_str_eq(out,
		"a title far too long for forty columns ~\n"
		"t=3.2 s  period 10 ms\n"
		"PORT     DIR        NOW     PEAK Gbit/s\n"
		"a-very-~ TX       1.000    2.000 [### |]\n"
		"         RX       0.000    0.000 [     ]\n"
		"  source: unknown, full scale 2.000 Gbi~\n"
		"enp1s0f~ TX       0.000    0.000 [     ]\n"
		"         RX       0.000    0.000 [     ]\n"
		"  source: ethtool tx_bytes_phy/rx_bytes~\n"
		"?        TX       0.000    0.000 [     ]\n"
		"         RX       0.000    0.000 [     ]\n"
		"  source: x, full scale 2.000 Gbit/s (p~\n"
		"total    TX       1.000    2.000\n"
		"         RX       0.000    0.000\n"
		"         TX+RX    1.000    2.000\n");
	free(out);
}
END_TEST

START_TEST(test_zero_rates)
{
	static const struct sp_view_port ports[] = {
		{ .name = "eth0 (rxe0)", .source = SRC_RXE },
		{ .name = "enp1s0f0np0 (rocep1s0f0)", .source = SRC_MLX5, .link_bps = 200e9 },
	};
	struct sp_view v = view_of(ports, 2, 80);
	char *out;

	v.elapsed_s = 0;
	out = render(&v);
	ck_assert_str_eq(out,
		"sparkperf watch  spark1                                   t=0.0 s  period 100 ms\n"
		"PORT        DIR    NOW Gbit/s  PEAK Gbit/s  [# NOW  | PEAK                     ]\n"
		"eth0 (rxe0) TX          0.000        0.000  [                                  ]\n"
		"            RX          0.000        0.000  [                                  ]\n"
		"  source: netdev stats64 tx_bytes/rx_bytes, full scale 0.000 Gbit/s (peak)\n"
		"enp1s0f0np0 TX          0.000        0.000  [                                  ]\n"
		"            RX          0.000        0.000  [                                  ]\n"
		"  source: ethtool tx_bytes_phy/rx_bytes_phy, full scale 200.000 Gbit/s (link)\n"
		"total       TX          0.000        0.000  sum over ports\n"
		"            RX          0.000        0.000  PEAK: sum of port peaks\n"
		"            TX+RX       0.000        0.000  full duplex\n");
	free(out);
}
END_TEST

START_TEST(test_no_ports)
{
	struct sp_view v = view_of(NULL, 0, 40);
	char *out = render(&v);

	ck_assert_str_eq(out,
		"sparkperf watch  spark1\n"
		"t=12.3 s  period 100 ms\n"
		"PORT  DIR        NOW     PEAK Gbit/s\n"
		"no ports\n"
		"total TX       0.000    0.000\n"
		"      RX       0.000    0.000\n"
		"      TX+RX    0.000    0.000\n");
	free(out);
}
END_TEST

/* ---- bars ------------------------------------------------------------------ */

/* One port "p0" at 80 columns: a bar of 80 - 35 - 5 = 40 cells. */
static char *one_bar(double tx, double tx_peak, double link, char *bar, size_t size)
{
	struct sp_view_port p = { .name = "p0", .source = "s", .tx_bps = tx,
				  .tx_peak_bps = tx_peak, .link_bps = link };
	struct sp_view v = view_of(&p, 1, 80);
	char *out = render(&v);

	bar_of(out, 2, bar, size);
	ck_assert_uint_eq(strlen(bar), 40);
	free(out);
	return bar;
}

START_TEST(test_peak_marker)
{
	char bar[64];

	/* half of the link: the 20th cell */
	ck_assert_str_eq(one_bar(0, 50e9, 100e9, bar, sizeof(bar)),
			 "                   |                    ");
	/* NOW a quarter, PEAK three quarters */
	ck_assert_str_eq(one_bar(25e9, 75e9, 100e9, bar, sizeof(bar)),
			 "##########                   |          ");
	/* NOW at PEAK: the marker ends the fill */
	ck_assert_str_eq(one_bar(50e9, 50e9, 100e9, bar, sizeof(bar)),
			 "###################|                    ");
	/* at and above the link rate: the last cell, never past it */
	ck_assert_str_eq(one_bar(0, 100e9, 100e9, bar, sizeof(bar)),
			 "                                       |");
	ck_assert_str_eq(one_bar(300e9, 300e9, 100e9, bar, sizeof(bar)),
			 "#######################################|");
	/* under half a cell: nothing; over half a cell: the first */
	ck_assert_str_eq(one_bar(1e9, 1e9, 100e9, bar, sizeof(bar)),
			 "                                        ");
	ck_assert_str_eq(one_bar(0, 1.5e9, 100e9, bar, sizeof(bar)),
			 "|                                       ");
	/* no link rate: the peak is the full scale */
	ck_assert_str_eq(one_bar(1e6, 4e6, 0, bar, sizeof(bar)),
			 "##########                             |");
	ck_assert_str_eq(one_bar(1e6, 4e6, NAN, bar, sizeof(bar)),
			 "##########                             |");
}
END_TEST

/*
 * Ports without a link rate share the largest of their peaks as full
 * scale; a port with a link rate neither uses it nor sets it.
 */
START_TEST(test_shared_scale)
{
	static const struct sp_view_port ports[] = {
		{ .name = "p0", .tx_bps = 1e6, .tx_peak_bps = 2e6 },
		{ .name = "p1", .rx_bps = 4e6, .rx_peak_bps = 4e6 },
		{ .name = "p2", .tx_bps = 100e9, .tx_peak_bps = 100e9, .link_bps = 100e9 },
	};
	struct sp_view v = view_of(ports, 3, 80);
	char *out = render(&v), bar[64], line[256];

	ck_assert_str_eq(bar_of(out, 2, bar, sizeof(bar)),
			 "##########         |                    ");
	ck_assert_str_eq(bar_of(out, 6, bar, sizeof(bar)),
			 "#######################################|");
	ck_assert_str_eq(line_of(out, 4, line, sizeof(line)),
			 "  source: unknown, full scale 0.004 Gbit/s (peak)");
	ck_assert_str_eq(line_of(out, 7, line, sizeof(line)),
			 "  source: unknown, full scale 0.004 Gbit/s (peak)");
	ck_assert_str_eq(bar_of(out, 8, bar, sizeof(bar)),
			 "#######################################|");
	ck_assert_str_eq(line_of(out, 10, line, sizeof(line)),
			 "  source: unknown, full scale 100.000 Gbit/s (link)");
	free(out);
}
END_TEST

/* ---- totals ---------------------------------------------------------------- */

START_TEST(test_totals)
{
	static const struct sp_view_port ports[] = {
		{ .name = "enp1s0f0np0", .tx_bps = 90e9, .rx_bps = 10e9, .tx_peak_bps = 95e9,
		  .rx_peak_bps = 12e9, .link_bps = 100e9 },
		{ .name = "enp1s0f1np1", .tx_bps = 80e9, .rx_bps = 20e9, .tx_peak_bps = 96e9,
		  .rx_peak_bps = 22e9, .link_bps = 100e9 },
		{ .name = "enP2p1s0f0np0", .tx_bps = 100e9, .rx_bps = 100e9,
		  .tx_peak_bps = 100e9, .rx_peak_bps = 100e9, .link_bps = 100e9 },
		{ .name = "enP2p1s0f1np1", .tx_bps = 0.002e9, .rx_bps = -5,
		  .tx_peak_bps = 0.002e9, .rx_peak_bps = NAN, .link_bps = 100e9 },
	};
	struct sp_view v = view_of(ports, 4, 80);
	char *out = render(&v), line[256];

	/* 4 ports of 3 lines after the 2 of the title and the header */
	ck_assert_uint_eq(count_lines(out), 2 + 4 * 3 + 3);
	ck_assert_str_eq(line_of(out, 14, line, sizeof(line)),
			 "total         TX        270.002      291.002  sum over ports");
	ck_assert_str_eq(line_of(out, 15, line, sizeof(line)),
			 "              RX        130.000      134.000  PEAK: sum of port peaks");
	ck_assert_str_eq(line_of(out, 16, line, sizeof(line)),
			 "              TX+RX     400.002      425.002  full duplex");
	free(out);

	/* up to 9999.999 Gbit/s in the narrow columns, then ">9999" */
	{
		static const struct sp_view_port big[] = {
			{ .name = "a", .tx_bps = 9999.999e9, .tx_peak_bps = 1e13 },
		};
		struct sp_view w = view_of(big, 1, 40);

		out = render(&w);
		ck_assert_str_eq(line_of(out, 3, line, sizeof(line)),
				 "a     TX    9999.999    >9999 [#######|]");
		ck_assert_str_eq(line_of(out, 6, line, sizeof(line)),
				 "total TX    9999.999    >9999");
		free(out);
	}
}
END_TEST

/* ---- the plain line ---------------------------------------------------------- */

START_TEST(test_line)
{
	struct sp_view v = view_of(two, 2, 80);
	static const char want0[] =
		"t=12.34s eth0 (rxe0) tx 0.071 Gbit/s rx 0.002 Gbit/s "
		"[netdev stats64 tx_bytes/rx_bytes]";
	static const char want1[] =
		"t=12.34s enp1s0f0np0 (rocep1s0f0) tx 98.500 Gbit/s rx 1.250 Gbit/s "
		"[ethtool tx_bytes_phy/rx_bytes_phy]";
	char buf[256];

	ck_assert_uint_eq(sp_view_line(buf, sizeof(buf), &v, 0), strlen(want0));
	ck_assert_str_eq(buf, want0);
	ck_assert_uint_eq(sp_view_line(buf, sizeof(buf), &v, 1), strlen(want1));
	ck_assert_str_eq(buf, want1);

	/* measured, cut */
	ck_assert_uint_eq(sp_view_line(NULL, 0, &v, 0), strlen(want0));
	ck_assert_uint_eq(sp_view_line(buf, 9, &v, 0), strlen(want0));
	ck_assert_str_eq(buf, "t=12.34s");

	/* no such port */
	ck_assert_uint_eq(sp_view_line(buf, sizeof(buf), &v, 2), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_uint_eq(sp_view_line(buf, sizeof(buf), NULL, 0), 0);
}
END_TEST

START_TEST(test_line_missing)
{
	static const struct sp_view_port p = { .name = "eth1", .tx_bps = -1, .rx_bps = NAN };
	struct sp_view v = view_of(&p, 1, 80);
	char buf[256];

	v.elapsed_s = 1.2;
	sp_view_line(buf, sizeof(buf), &v, 0);
	ck_assert_str_eq(buf, "t=1.20s eth1 tx 0.000 Gbit/s rx 0.000 Gbit/s");
}
END_TEST

static Suite *view_suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("render");

	tcase_add_loop_test(tc, test_widths, 0, ARRAY_SIZE(widths));
	tcase_add_test(tc, test_width_limits);
	tcase_add_test(tc, test_length);
	tcase_add_test(tc, test_long_names);
	tcase_add_test(tc, test_zero_rates);
	tcase_add_test(tc, test_no_ports);
	suite_add_tcase(s, tc);

	tc = tcase_create("bars");
	tcase_add_test(tc, test_peak_marker);
	tcase_add_test(tc, test_shared_scale);
	tcase_add_test(tc, test_totals);
	suite_add_tcase(s, tc);

	tc = tcase_create("line");
	tcase_add_test(tc, test_line);
	tcase_add_test(tc, test_line_missing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(view_suite());
}
