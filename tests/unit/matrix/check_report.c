// SPDX-License-Identifier: GPL-2.0
/*
 * matrix/report*.c and heatmap.c on a small fixture: three switched hosts,
 * one half each, the pair b -> c throttled: the outlier named by host and
 * half, the text tables, the CSV and the JSON exactly, the JSON read
 * back, and the heatmap drawn by gnuplot when it is installed.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "matrix/heatmap.h"
#include "matrix/report.h"
#include "matrix/topology.h"
#include "testutil.h"

static struct sp_mx_doc *d;

static void setup(void)
{
	d = sp_mx_doc_new();
	ck_assert_ptr_nonnull(d);
	snprintf(d->version, sizeof(d->version), "0.1.0");
	d->cfg = (struct sp_mx_config){ .lat = true, .bw = true, .size_bytes = 1 << 20,
					.duration_s = 5, .pattern = SP_MX_PAIRS };
	mx_host(d, "a", "rxe0 eth0 192.168.200.11/24", NULL);
	mx_host(d, "b", "rxe0 eth0 192.168.200.12/24", NULL);
	mx_host(d, "c", "rxe0 eth0 192.168.200.13/24", NULL);
	ck_assert_int_eq(sp_mx_candidates(d), 0);
	sp_mx_topology(d);
	d->rounds = 6;
	mx_pair(d, 0, 1, 92.5, 1.5, 2.25, NULL);
	mx_pair(d, 1, 0, 93.0, 1.5, 2.0, NULL);
	mx_pair(d, 0, 2, 91.5, 1.75, 2.5, NULL);
	mx_pair(d, 2, 0, 92.0, 1.5, 2.0, NULL);
	mx_pair(d, 1, 2, 12.25, 1.5, 2.0, NULL);
	mx_pair(d, 2, 1, -1, 6.0, 9.0, "bw: Connection refused");
}

static void teardown(void)
{
	sp_mx_doc_free(d);
}

START_TEST(test_outliers)
{
	struct sp_mx_outliers o;

	ck_assert_int_eq(sp_mx_find_outliers(d, &o), 0);
	ck_assert_uint_eq(o.n, 2);
	/* b -> c: 12.25 Gbit/s against a median of 92 */
	ck_assert_uint_eq(o.v[0].result, 4);
	ck_assert_int_eq(o.v[0].metric, SP_MX_BW);
	ck_assert_double_eq_tol(o.v[0].median, 92.0, 1e-9);
	/* c -> b: 6 us against a median of 1.5 */
	ck_assert_uint_eq(o.v[1].result, 5);
	ck_assert_int_eq(o.v[1].metric, SP_MX_P50);
	ck_assert_double_eq_tol(o.v[1].median, 1.5, 1e-9);
	sp_mx_outliers_free(&o);
}
END_TEST

static const char text_want[] =
	"matrix of 3 hosts: cabling switched, 6 rounds; tests lat, bw (1MiB messages, 5 s); "
	"pattern pairs\n"
	"\n"
	"bandwidth from rxe0, client (row) to server (column):\n"
	"rxe0[Gbit/s]  a      b       c\n"
	"a             -      92.50   91.50\n"
	"b             93.00  -       12.25*\n"
	"c             92.00  failed  -\n"
	"\n"
	"one-way latency p50 from rxe0, client (row) to server (column):\n"
	"rxe0[us]  a     b      c\n"
	"a         -     1.50   1.75\n"
	"b         1.50  -      1.50\n"
	"c         1.50  6.00*  -\n"
	"\n"
	"one-way latency p99 from rxe0, client (row) to server (column):\n"
	"rxe0[us]  a     b     c\n"
	"a         -     2.25  2.50\n"
	"b         2.00  -     2.00\n"
	"c         2.00  9.00  -\n"
	"\n"
	"outliers (* above; bandwidth below 0.50 x, latency above 1/0.50 x the median of the "
	"same half and pattern):\n"
	"  pairs bandwidth: 12.25 Gbit/s, median 92.00 Gbit/s: look at b rxe0 (eth0) and c rxe0 "
	"(eth0)\n"
	"  pairs one-way latency p50: 6.00 us, median 1.50 us: look at c rxe0 (eth0) and b rxe0 "
	"(eth0)\n"
	"\n"
	"failures:\n"
	"  pairs round 1, c rxe0 (eth0) -> b rxe0 (eth0): bw: Connection refused\n";

START_TEST(test_text)
{
	struct capture c;
	char *out;

	cap_start(&c, false, false);
	ck_assert_int_eq(sp_mx_print_text(d), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out, text_want);
	free(out);
}
END_TEST

START_TEST(test_no_path_cells)
{
	struct capture c;
	char *out;

	/* c on another subnet: no path to it, which is not "failed" */
	d->hosts[2].halves[0].addr.s_addr = htonl(0x0a000001);
	ck_assert_int_eq(sp_mx_candidates(d), 0);
	sp_mx_topology(d);
	d->n_results = 2;
	d->cfg.lat = false;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_mx_print_text(d), 0);
	out = cap_end(&c);
	ck_assert_str_eq(out,
		"matrix of 3 hosts: cabling mixed, 6 rounds; tests bw (1MiB messages, 5 s); "
		"pattern pairs\n"
		"no direct path: a <-> c, b <-> c\n"
		"reached:\n"
		"  a rxe0 (eth0) <-> b rxe0 (eth0)\n"
		"\n"
		"bandwidth from rxe0, client (row) to server (column):\n"
		"rxe0[Gbit/s]  a        b        c\n"
		"a             -        92.50    no path\n"
		"b             93.00    -        no path\n"
		"c             no path  no path  -\n");
	free(out);
}
END_TEST

START_TEST(test_one_way_link)
{
	struct capture c;
	char *out;

	/* a reached b, b's probe back failed: the cable is named one way */
	d->hosts[2].halves[0].addr.s_addr = htonl(0x0a000001);
	ck_assert_int_eq(sp_mx_candidates(d), 0);
	ck_assert_uint_eq(d->n_links, 2);
	d->n_links = 1;
	sp_mx_topology(d);
	d->n_results = 0;
	cap_start(&c, false, false);
	ck_assert_int_eq(sp_mx_print_text(d), 0);
	out = cap_end(&c);
	ck_assert_msg(strstr(out, "reached:\n  a rxe0 (eth0) -> b rxe0 (eth0)\n"), "%s", out);
	free(out);
}
END_TEST

START_TEST(test_csv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(sp_mx_write_csv(d, f), 0);
	fclose(f);
	ck_assert_str_eq(buf,
		"pattern,round,client,client_half,server,server_half,gbit_per_s,one_way_p50_us,"
		"one_way_p99_us,outlier,error\n"
		"pairs,1,a,rxe0,b,rxe0,92.500,1.500,2.250,false,\n"
		"pairs,1,b,rxe0,a,rxe0,93.000,1.500,2.000,false,\n"
		"pairs,1,a,rxe0,c,rxe0,91.500,1.750,2.500,false,\n"
		"pairs,1,c,rxe0,a,rxe0,92.000,1.500,2.000,false,\n"
		"pairs,1,b,rxe0,c,rxe0,12.250,1.500,2.000,true,\n"
		"pairs,1,c,rxe0,b,rxe0,,6.000,9.000,true,\"bw: Connection refused\"\n");
	free(buf);
}
END_TEST

START_TEST(test_json)
{
	json_object *o = sp_mx_doc_json(d);
	const char *text;
	char *vocab;
	FILE *f;

	ck_assert_ptr_nonnull(o);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	f = fopen("matrix/report.json", "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	/* too long for Check's message: the document stays in matrix/report.json */
	ck_assert_msg(!strcmp(text,
		"{\"version\":\"0.1.0\",\"config\":{\"tests\":[\"lat\",\"bw\"],\"size_bytes\":1048576,"
		"\"duration_s\":5,\"pattern\":\"pairs\"},\"hosts\":["
		"{\"name\":\"a\",\"halves\":[{\"dev\":\"rxe0\",\"netdev\":\"eth0\","
		"\"addr\":\"192.168.200.11/24\",\"phys_port\":null}],\"error\":null},"
		"{\"name\":\"b\",\"halves\":[{\"dev\":\"rxe0\",\"netdev\":\"eth0\","
		"\"addr\":\"192.168.200.12/24\",\"phys_port\":null}],\"error\":null},"
		"{\"name\":\"c\",\"halves\":[{\"dev\":\"rxe0\",\"netdev\":\"eth0\","
		"\"addr\":\"192.168.200.13/24\",\"phys_port\":null}],\"error\":null}],"
		"\"topology\":{\"cabling\":\"switched\",\"mistake\":null,\"no_direct_path\":[],"
		"\"links\":["
		"{\"client\":\"a\",\"client_half\":\"rxe0\",\"server\":\"b\",\"server_half\":\"rxe0\"},"
		"{\"client\":\"a\",\"client_half\":\"rxe0\",\"server\":\"c\",\"server_half\":\"rxe0\"},"
		"{\"client\":\"b\",\"client_half\":\"rxe0\",\"server\":\"a\",\"server_half\":\"rxe0\"},"
		"{\"client\":\"b\",\"client_half\":\"rxe0\",\"server\":\"c\",\"server_half\":\"rxe0\"},"
		"{\"client\":\"c\",\"client_half\":\"rxe0\",\"server\":\"a\",\"server_half\":\"rxe0\"},"
		"{\"client\":\"c\",\"client_half\":\"rxe0\",\"server\":\"b\",\"server_half\":\"rxe0\"}]},"
		"\"rounds\":6,\"results\":["
		"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"a\",\"client_half\":\"rxe0\","
		"\"server\":\"b\",\"server_half\":\"rxe0\",\"gbit_per_s\":92.500,"
		"\"one_way_p50_us\":1.500,\"one_way_p99_us\":2.250,\"error\":null,\"outlier\":false},"
		"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"b\",\"client_half\":\"rxe0\","
		"\"server\":\"a\",\"server_half\":\"rxe0\",\"gbit_per_s\":93.000,"
		"\"one_way_p50_us\":1.500,\"one_way_p99_us\":2.000,\"error\":null,\"outlier\":false},"
		"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"a\",\"client_half\":\"rxe0\","
		"\"server\":\"c\",\"server_half\":\"rxe0\",\"gbit_per_s\":91.500,"
		"\"one_way_p50_us\":1.750,\"one_way_p99_us\":2.500,\"error\":null,\"outlier\":false},"
		"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"c\",\"client_half\":\"rxe0\","
		"\"server\":\"a\",\"server_half\":\"rxe0\",\"gbit_per_s\":92.000,"
		"\"one_way_p50_us\":1.500,\"one_way_p99_us\":2.000,\"error\":null,\"outlier\":false},"
		"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"b\",\"client_half\":\"rxe0\","
		"\"server\":\"c\",\"server_half\":\"rxe0\",\"gbit_per_s\":12.250,"
		"\"one_way_p50_us\":1.500,\"one_way_p99_us\":2.000,\"error\":null,\"outlier\":true},"
		"{\"pattern\":\"pairs\",\"round\":1,\"client\":\"c\",\"client_half\":\"rxe0\","
		"\"server\":\"b\",\"server_half\":\"rxe0\",\"gbit_per_s\":null,"
		"\"one_way_p50_us\":6.000,\"one_way_p99_us\":9.000,"
		"\"error\":\"bw: Connection refused\",\"outlier\":true}],"
		"\"outliers\":["
		"{\"metric\":\"bandwidth\",\"pattern\":\"pairs\",\"client\":\"b\",\"client_half\":\"rxe0\","
		"\"server\":\"c\",\"server_half\":\"rxe0\",\"gbit_per_s\":12.250,"
		"\"median_gbit_per_s\":92.000},"
		"{\"metric\":\"one_way_p50\",\"pattern\":\"pairs\",\"client\":\"c\",\"client_half\":\"rxe0\","
		"\"server\":\"b\",\"server_half\":\"rxe0\",\"one_way_p50_us\":6.000,"
		"\"median_one_way_p50_us\":1.500}]}"), "the JSON differs: see matrix/report.json");
	/* the vocabulary's rules */
	vocab = shell_out("jq -n -e -r -f ../json-vocabulary.jq < matrix/report.json");
	ck_assert_str_eq(vocab, "true\n");
	free(vocab);
	unlink("matrix/report.json");
	json_object_put(o);
}
END_TEST

START_TEST(test_json_read_back)
{
	json_object *o = sp_mx_doc_json(d);
	struct sp_mx_doc *back = sp_mx_doc_new();
	struct capture c1, c2;
	char err[256], *t1, *t2;

	ck_assert_int_eq(sp_mx_doc_parse(json_object_to_json_string(o), back, err, sizeof(err)), 0);
	ck_assert_uint_eq(back->n_hosts, 3);
	ck_assert_uint_eq(back->n_links, 6);
	ck_assert_uint_eq(back->n_results, 6);
	ck_assert_int_eq(back->topo.cabling, SP_MX_CABLING_SWITCHED);
	cap_start(&c1, false, false);
	sp_mx_print_text(d);
	t1 = cap_end(&c1);
	cap_start(&c2, false, false);
	sp_mx_print_text(back);
	t2 = cap_end(&c2);
	ck_assert_str_eq(t2, t1);
	free(t1);
	free(t2);
	json_object_put(o);
	sp_mx_doc_free(back);
}
END_TEST

START_TEST(test_json_refused)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "[]", "not a matrix document (a JSON object)" },
		{ "{\"config\":{\"tests\":[],\"size_bytes\":1,\"duration_s\":1,\"pattern\":\"pairs\"},"
		  "\"rounds\":0,\"version\":\"x\"}", "document: no hosts" },
		{ "{\"config\":{\"tests\":[],\"size_bytes\":1,\"duration_s\":1,\"pattern\":\"x\"}}",
		  "config: no pattern 'x'" },
		{ "{\"config\":{\"tests\":[],\"size_bytes\":1,\"duration_s\":1,\"pattern\":\"pairs\"},"
		  "\"rounds\":0,\"version\":\"x\",\"hosts\":[{\"name\":\"a\",\"halves\":[{\"dev\":\"r\","
		  "\"netdev\":\"e\",\"addr\":\"10.0.0.300/24\",\"phys_port\":null}]}]}",
		  "hosts[0].halves[0]: addr is no IPv4 ADDR[/PREFIX]" },
		{ "{\"config\":{\"tests\":[],\"size_bytes\":1,\"duration_s\":1,\"pattern\":\"pairs\"},"
		  "\"rounds\":0,\"version\":\"x\",\"hosts\":[],\"topology\":{\"links\":[]},"
		  "\"results\":[{\"pattern\":\"pairs\",\"round\":1,\"client\":\"a\",\"client_half\":\"r\","
		  "\"server\":\"b\",\"server_half\":\"r\"}]}",
		  "results[0]: client a r is not in hosts" },
	};
	struct sp_mx_doc *x;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		x = sp_mx_doc_new();
		ck_assert_int_eq(sp_mx_doc_parse(cases[i].text, x, err, sizeof(err)), -EINVAL);
		ck_assert_str_eq(err, cases[i].err);
		sp_mx_doc_free(x);
	}
}
END_TEST

START_TEST(test_heatmap_script)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_str_eq(sp_mx_heatmap_terminal("m.PNG"), "pngcairo");
	ck_assert_str_eq(sp_mx_heatmap_terminal("dir.d/m.svg"), "svg");
	ck_assert_ptr_null(sp_mx_heatmap_terminal("m.jpg"));
	ck_assert_int_eq(sp_mx_heatmap_script(d, "it's.svg", f), 0);
	fclose(f);
	ck_assert(starts_with(buf, "set terminal svg size 460,460 font 'sans,10'\n"
			      "set output 'it''s.svg'\n"));
	ck_assert_ptr_nonnull(strstr(buf, "set xtics ('a' 0, 'b' 1, 'c' 2)\n"));
	/* one scale from 0 to the best pair, for every panel */
	ck_assert_ptr_nonnull(strstr(buf, "set cbrange [0:93.000]\n"));
	ck_assert_ptr_nonnull(strstr(buf, "$m0 << EOD\nNaN 92.500 91.500\n93.000 NaN 12.250\n"
				     "92.000 NaN NaN\nEOD\n"));
	free(buf);
}
END_TEST

START_TEST(test_heatmap_png)
{
	char path[] = "/tmp/check_heatmap.XXXXXX", png[64], err[256], magic[8] = { 0 };
	FILE *f;

	if (system("command -v gnuplot >/dev/null 2>&1")) {
		fprintf(stderr, "test_heatmap_png: no gnuplot (gnuplot-nox): skipped\n");
		return;
	}
	ck_assert_ptr_nonnull(mkdtemp(path));
	snprintf(png, sizeof(png), "%s/m.png", path);
	ck_assert_msg(!sp_mx_heatmap(d, png, err, sizeof(err)), "%s", err);
	f = fopen(png, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(magic, 1, 8, f), 8);
	fseek(f, 0, SEEK_END);
	ck_assert_int_gt(ftell(f), 1000);
	fclose(f);
	ck_assert_int_eq(memcmp(magic, "\x89PNG\r\n\x1a\n", 8), 0);
	unlink(png);
	rmdir(path);
}
END_TEST

START_TEST(test_heatmap_no_gnuplot)
{
	char err[256];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;

	setenv("PATH", "/nonexistent", 1);
	ck_assert_int_eq(sp_mx_heatmap(d, "/tmp/never.png", err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "gnuplot is not installed: the heatmap needs it (apt-get install "
			 "gnuplot-nox)");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_outliers);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_no_path_cells);
	tcase_add_test(tc, test_one_way_link);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_json_read_back);
	tcase_add_test(tc, test_json_refused);
	tcase_add_test(tc, test_heatmap_script);
	tcase_add_test(tc, test_heatmap_png);
	tcase_add_test(tc, test_heatmap_no_gnuplot);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
