// SPDX-License-Identifier: GPL-2.0
/* Pure argument parsers of sparkperf-ctl (user/parse.c). */
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/model.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(test_u64)
{
	uint64_t v = 7;

	ck_assert_int_eq(sp_parse_u64("0", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(sp_parse_u64("42", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(sp_parse_u64("007", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(sp_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(sp_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_u64("99999999999999999999999", 0, UINT64_MAX, &v), -ERANGE);

	v = 99;
	ck_assert_int_eq(sp_parse_u64("", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64(NULL, 0, 10, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64("-1", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64("+1", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64(" 1", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64("1 ", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64("12x", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64("0x10", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(sp_parse_u64("1e3", 0, 10000, &v), -EINVAL);
	ck_assert_uint_eq(v, 99);	/* untouched on failure */
}
END_TEST

START_TEST(test_u32_range)
{
	uint32_t v = 0;

	ck_assert_int_eq(sp_parse_u32("1", 1, 10, &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(sp_parse_u32("10", 1, 10, &v), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(sp_parse_u32("0", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_u32("11", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_u32("4294967295", 0, UINT32_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT32_MAX);
	ck_assert_int_eq(sp_parse_u32("4294967296", 0, UINT32_MAX, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_u32("abc", 0, UINT32_MAX, &v), -EINVAL);
}
END_TEST

START_TEST(test_size)
{
	static const struct {
		const char *s;
		uint64_t bytes;
	} ok[] = {
		{ "64", 64 },
		{ "64B", 64 },
		{ "4K", 4096 },
		{ "4KiB", 4096 },
		{ "1M", 1048576 },
		{ "8M", 8388608 },
		{ "8MiB", 8388608 },
		{ "1G", 1073741824 },
		{ "2GiB", 2147483648ULL },
		{ "0", 0 },
	};
	static const char *const bad[] = {
		"", "K", "4k", "4KB", "4MB", "1.5M", "-4K", "4 K", "4KK", "M4", "4T", "0x40",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		v = 12345;
		ck_assert_msg(sp_parse_size(ok[i].s, 0, UINT64_MAX, &v) == 0, "%s", ok[i].s);
		ck_assert_msg(v == ok[i].bytes, "%s: %llu", ok[i].s, (unsigned long long)v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(sp_parse_size(bad[i], 0, UINT64_MAX, &v) == -EINVAL, "'%s'", bad[i]);

	/* range in bytes, after the suffix */
	ck_assert_int_eq(sp_parse_size("8M", 1, 8 << 20, &v), 0);
	ck_assert_int_eq(sp_parse_size("9M", 1, 8 << 20, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_size("8388609", 1, 8 << 20, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_size("0", 1, 8 << 20, &v), -ERANGE);
	/* overflow of value x multiplier */
	ck_assert_int_eq(sp_parse_size("17179869184G", 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_size("17179869183G", 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 17179869183ULL << 30);
}
END_TEST

START_TEST(test_duration)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} ok[] = {
		{ "10", 10000000000ULL },
		{ "10s", 10000000000ULL },
		{ "500ms", 500000000ULL },
		{ "100us", 100000ULL },
		{ "250ns", 250ULL },
		{ "2m", 120000000000ULL },
		{ "1h", 3600000000000ULL },
		{ "1.5s", 1500000000ULL },
		{ "0.25", 250000000ULL },
		{ "1.5us", 1500ULL },
		{ "0.000000001", 1ULL },
		{ "0", 0 },
	};
	static const char *const bad[] = {
		"", "s", "10x", "10 s", "1.s", ".5s", "-1s", "1.5ns", "0.0000000001",
		"10S", "10sec", "1,5s", "1.2.3s",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		v = 1;
		ck_assert_msg(sp_parse_duration(ok[i].s, 0, UINT64_MAX, &v) == 0, "%s", ok[i].s);
		ck_assert_msg(v == ok[i].ns, "%s: %llu", ok[i].s, (unsigned long long)v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(sp_parse_duration(bad[i], 0, UINT64_MAX, &v) == -EINVAL, "'%s'", bad[i]);
	ck_assert_int_eq(sp_parse_duration("11s", 1000000000ULL, 10000000000ULL, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_duration("999ms", 1000000000ULL, 10000000000ULL, &v), -ERANGE);
	ck_assert_int_eq(sp_parse_duration("99999999999h", 0, UINT64_MAX, &v), -ERANGE);
}
END_TEST

START_TEST(test_list)
{
	struct sp_list l;

	ck_assert_int_eq(sp_parse_list("192.168.200.12,192.168.201.12", &l), 0);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_str_eq(l.items[0], "192.168.200.12");
	ck_assert_str_eq(l.items[1], "192.168.201.12");
	sp_list_free(&l);
	ck_assert_ptr_null(l.items);

	ck_assert_int_eq(sp_parse_list("rxe0", &l), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.items[0], "rxe0");
	sp_list_free(&l);

	ck_assert_int_eq(sp_parse_list("a,b,c", &l), 0);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_str_eq(l.items[2], "c");
	sp_list_free(&l);

	ck_assert_int_eq(sp_parse_list("", &l), -EINVAL);
	ck_assert_int_eq(sp_parse_list(",", &l), -EINVAL);
	ck_assert_int_eq(sp_parse_list("a,", &l), -EINVAL);
	ck_assert_int_eq(sp_parse_list(",a", &l), -EINVAL);
	ck_assert_int_eq(sp_parse_list("a,,b", &l), -EINVAL);
	ck_assert_ptr_null(l.items);
	sp_list_free(&l);

	/* a list may repeat; the sets among them ask */
	ck_assert_int_eq(sp_parse_list("a,b,a", &l), 0);
	ck_assert_str_eq(sp_list_repeated(&l), "a");
	sp_list_free(&l);
	ck_assert_int_eq(sp_parse_list("a,ab,b", &l), 0);
	ck_assert_ptr_null(sp_list_repeated(&l));
	sp_list_free(&l);
}
END_TEST

START_TEST(test_dev_name)
{
	char longname[80];

	ck_assert(sp_dev_name_valid("rxe0"));
	ck_assert(sp_dev_name_valid("rocep1s0f0"));
	ck_assert(!sp_dev_name_valid(""));
	ck_assert(!sp_dev_name_valid(NULL));
	ck_assert(!sp_dev_name_valid("a/b"));
	ck_assert(!sp_dev_name_valid("a b"));
	memset(longname, 'x', sizeof(longname));
	longname[63] = '\0';
	ck_assert(sp_dev_name_valid(longname));
	longname[63] = 'x';
	longname[64] = '\0';
	ck_assert(!sp_dev_name_valid(longname));
}
END_TEST

struct kv_fixture {
	uint32_t count;
	uint64_t size, duration;
	const char *peer;
	struct sp_list peers;
	struct sp_kv kv[5];
};

static void kv_init(struct kv_fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->kv[0] = (struct sp_kv){ .key = "count", .type = SP_KV_U32, .min = 1,
				   .max = UINT64_MAX, .dst = &f->count };
	f->kv[1] = (struct sp_kv){ .key = "size", .type = SP_KV_SIZE, .min = 1,
				   .max = 8 << 20, .dst = &f->size };
	f->kv[2] = (struct sp_kv){ .key = "duration", .type = SP_KV_DURATION,
				   .min = 1000000, .max = 3600000000000ULL,
				   .dst = &f->duration };
	f->kv[3] = (struct sp_kv){ .key = "peer", .type = SP_KV_STRING, .dst = &f->peer };
	f->kv[4] = (struct sp_kv){ .key = "peers", .what = "peer list",
				   .type = SP_KV_LIST, .dst = &f->peers };
}

static int kv_run(struct kv_fixture *f, char *err, size_t len, int argc, ...)
{
	char *argv[16];
	va_list ap;
	int i;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	err[0] = '\0';
	return sp_parse_kv(argc, argv, f->kv, ARRAY_SIZE(f->kv), err, len);
}

START_TEST(test_kv_ok)
{
	struct kv_fixture f;
	char err[256];

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 10, "count", "5", "size", "1M",
				"duration", "10s", "peer", "192.168.200.12",
				"peers", "a,b"), 0);
	ck_assert_uint_eq(f.count, 5);
	ck_assert_uint_eq(f.size, 1048576);
	ck_assert_uint_eq(f.duration, 10000000000ULL);
	ck_assert_str_eq(f.peer, "192.168.200.12");
	ck_assert_uint_eq(f.peers.n, 2);
	ck_assert_str_eq(f.peers.items[1], "b");
	ck_assert(f.kv[0].seen && f.kv[4].seen);
	sp_list_free(&f.peers);

	/* nothing given: nothing seen, defaults stay */
	kv_init(&f);
	f.count = 77;
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 0), 0);
	ck_assert_uint_eq(f.count, 77);
	ck_assert(!f.kv[0].seen);
}
END_TEST

START_TEST(test_kv_errors)
{
	struct kv_fixture f;
	char err[256];

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "count", "x"), -EINVAL);
	ck_assert_str_eq(err, "Invalid count: 'x'");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "count", "0"), -EINVAL);
	ck_assert_str_eq(err, "Invalid count: '0' (range 1..4294967295)");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "size", "16M"), -EINVAL);
	ck_assert_str_eq(err, "Invalid size: '16M' (range 1..8388608 bytes)");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "duration", "1us"), -EINVAL);
	ck_assert_str_eq(err, "Invalid duration: '1us' (range 1000000..3600000000000 ns)");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "cuont", "5"), -EINVAL);
	ck_assert_str_eq(err, "Unknown keyword 'cuont'");

	/* keywords match exactly: no prefixes */
	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "c", "5"), -EINVAL);
	ck_assert_str_eq(err, "Unknown keyword 'c'");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 1, "count"), -EINVAL);
	ck_assert_str_eq(err, "Missing value for 'count'");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 4, "count", "1", "count", "2"), -EINVAL);
	ck_assert_str_eq(err, "Duplicate keyword 'count'");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "peers", "a,,b"), -EINVAL);
	ck_assert_str_eq(err, "Invalid peer list: 'a,,b' (an empty item)");

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "peers", "a,b,c,b"), -EINVAL);
	ck_assert_str_eq(err, "Invalid peer list: 'a,b,c,b' ('b' given twice)");
	sp_list_free(&f.peers);

	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, sizeof(err), 2, "peer", ""), -EINVAL);
	ck_assert_str_eq(err, "Invalid peer: ''");

	/* a short error buffer is truncated, not overflowed */
	kv_init(&f);
	ck_assert_int_eq(kv_run(&f, err, 8, 2, "count", "x"), -EINVAL);
	ck_assert_str_eq(err, "Invalid");
}
END_TEST

START_TEST(test_duration_ms)
{
	uint32_t ms = 7;

	ck_assert_int_eq(sp_parse_duration_ms("10", 1, 3600000, &ms), 0);
	ck_assert_uint_eq(ms, 10000);
	ck_assert_int_eq(sp_parse_duration_ms("1.5", 1, 3600000, &ms), 0);
	ck_assert_uint_eq(ms, 1500);
	ck_assert_int_eq(sp_parse_duration_ms("0.001", 1, 3600000, &ms), 0);
	ck_assert_uint_eq(ms, 1);
	ck_assert_int_eq(sp_parse_duration_ms("250ms", 1, 3600000, &ms), 0);
	ck_assert_uint_eq(ms, 250);
	ck_assert_int_eq(sp_parse_duration_ms("2m", 1, 3600000, &ms), 0);
	ck_assert_uint_eq(ms, 120000);
	ck_assert_int_eq(sp_parse_duration_ms("1h", 1, 3600000, &ms), 0);
	ck_assert_uint_eq(ms, 3600000);
	ms = 7;
	/* not a whole number of milliseconds */
	ck_assert_int_eq(sp_parse_duration_ms("0.0005", 1, 3600000, &ms), -EINVAL);
	ck_assert_int_eq(sp_parse_duration_ms("1500us", 1, 3600000, &ms), -EINVAL);
	/* out of range */
	ck_assert_int_eq(sp_parse_duration_ms("0", 1, 3600000, &ms), -ERANGE);
	ck_assert_int_eq(sp_parse_duration_ms("3600.001", 1, 3600000, &ms), -ERANGE);
	ck_assert_int_eq(sp_parse_duration_ms("99999999999999999999", 1, 3600000, &ms), -ERANGE);
	/* not a duration */
	ck_assert_int_eq(sp_parse_duration_ms("", 1, 3600000, &ms), -EINVAL);
	ck_assert_int_eq(sp_parse_duration_ms("1.", 1, 3600000, &ms), -EINVAL);
	ck_assert_int_eq(sp_parse_duration_ms("-1", 1, 3600000, &ms), -EINVAL);
	ck_assert_int_eq(sp_parse_duration_ms("1 s", 1, 3600000, &ms), -EINVAL);
	ck_assert_uint_eq(ms, 7);
}
END_TEST

START_TEST(test_size_range)
{
	uint64_t lo = 0, hi = 0;

	ck_assert_int_eq(sp_parse_size_range("64", 1, 8 << 20, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 64);
	ck_assert_uint_eq(hi, 64);
	ck_assert_int_eq(sp_parse_size_range("2..8M", 1, 8 << 20, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 2);
	ck_assert_uint_eq(hi, 8 << 20);
	ck_assert_int_eq(sp_parse_size_range("4K..4K", 1, 8 << 20, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 4096);
	ck_assert_uint_eq(hi, 4096);
	ck_assert_int_eq(sp_parse_size_range("1KiB..64KiB", 1, 8 << 20, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 1024);
	ck_assert_uint_eq(hi, 65536);
	lo = hi = 9;
	ck_assert_int_eq(sp_parse_size_range("8..2", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range("2..16M", 1, 8 << 20, &lo, &hi), -ERANGE);
	ck_assert_int_eq(sp_parse_size_range("0..8", 1, 8 << 20, &lo, &hi), -ERANGE);
	ck_assert_int_eq(sp_parse_size_range("..8", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range("2..", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range("2...8", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range("2..8..16", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range("2-8", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range("2MB", 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_int_eq(sp_parse_size_range(NULL, 1, 8 << 20, &lo, &hi), -EINVAL);
	ck_assert_uint_eq(lo, 9);
	ck_assert_uint_eq(hi, 9);
}
END_TEST

START_TEST(test_size_sweep)
{
	uint64_t s[SP_SWEEP_MAX];
	size_t n, i;

	/* perftest -a: 2 .. 2^23 */
	n = sp_size_sweep(2, 8 << 20, s, SP_SWEEP_MAX);
	ck_assert_uint_eq(n, 23);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(s[i], 2ULL << i);
	n = sp_size_sweep(1, 8, s, SP_SWEEP_MAX);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(s[0], 1);
	ck_assert_uint_eq(s[3], 8);
	/* ends that are not powers of two are kept */
	n = sp_size_sweep(3, 10, s, SP_SWEEP_MAX);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(s[0], 3);
	ck_assert_uint_eq(s[1], 4);
	ck_assert_uint_eq(s[2], 8);
	ck_assert_uint_eq(s[3], 10);
	n = sp_size_sweep(100, 120, s, SP_SWEEP_MAX);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(s[1], 120);
	/* one size */
	n = sp_size_sweep(64, 64, s, SP_SWEEP_MAX);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(s[0], 64);
	/* the widest possible sweep fits SP_SWEEP_MAX */
	n = sp_size_sweep(1, UINT64_MAX, s, SP_SWEEP_MAX);
	ck_assert_uint_eq(n, SP_SWEEP_MAX);
	ck_assert_uint_eq(s[63], 1ULL << 63);
	ck_assert_uint_eq(s[64], UINT64_MAX);
	/* counted, not written, past max */
	n = sp_size_sweep(2, 8 << 20, s, 3);
	ck_assert_uint_eq(n, 23);
	/* nonsense */
	ck_assert_uint_eq(sp_size_sweep(0, 8, s, SP_SWEEP_MAX), 0);
	ck_assert_uint_eq(sp_size_sweep(9, 8, s, SP_SWEEP_MAX), 0);
}
END_TEST

START_TEST(test_addr)
{
	static const uint8_t v4[4] = { 192, 168, 200, 12 };
	char buf[SP_ADDR_STRLEN];
	struct sp_addr a;

	ck_assert_int_eq(sp_parse_addr("192.168.200.12", &a), 0);
	ck_assert_uint_eq(a.len, 4);
	ck_assert_mem_eq(a.raw, v4, 4);
	ck_assert_str_eq(sp_fmt_addr(&a, buf, sizeof(buf)), "192.168.200.12");
	ck_assert_int_eq(sp_parse_addr("fe80::5054:ff:fe12:3456", &a), 0);
	ck_assert_uint_eq(a.len, 16);
	ck_assert_uint_eq(a.raw[0], 0xfe);
	ck_assert_uint_eq(a.raw[15], 0x56);
	ck_assert_str_eq(sp_fmt_addr(&a, buf, sizeof(buf)), "fe80::5054:ff:fe12:3456");
	/* a mapped IPv4 address stays IPv6 */
	ck_assert_int_eq(sp_parse_addr("::ffff:10.0.2.15", &a), 0);
	ck_assert_uint_eq(a.len, 16);
	ck_assert_str_eq(sp_fmt_addr(&a, buf, sizeof(buf)), "::ffff:10.0.2.15");

	a.len = 9;
	ck_assert_int_eq(sp_parse_addr("spark2", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr("", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr("192.168.200", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr("192.168.200.256", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr(" 10.0.0.1", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr("fe80::1%eth0", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr("[::1]", &a), -EINVAL);
	ck_assert_int_eq(sp_parse_addr(NULL, &a), -EINVAL);
	ck_assert_uint_eq(a.len, 9);	/* untouched */

	a.len = 0;
	ck_assert_str_eq(sp_fmt_addr(&a, buf, sizeof(buf)), "any");
	a.len = 5;
	ck_assert_str_eq(sp_fmt_addr(&a, buf, sizeof(buf)), "?");
}
END_TEST

START_TEST(test_kv_duration_ms)
{
	uint32_t ms = 0;
	struct sp_kv kv[] = {
		{ .key = "duration", .type = SP_KV_DURATION_MS, .min = 1, .max = 3600000,
		  .dst = &ms },
	};
	char *ok[] = { "duration", "2.5" }, *bad[] = { "duration", "0.0001" },
	     *far[] = { "duration", "2h" };
	char err[128];

	ck_assert_int_eq(sp_parse_kv(2, ok, kv, 1, err, sizeof(err)), 0);
	ck_assert_uint_eq(ms, 2500);
	ck_assert(kv[0].seen);
	ck_assert_int_eq(sp_parse_kv(2, bad, kv, 1, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Invalid duration: '0.0001'");
	ck_assert_int_eq(sp_parse_kv(2, far, kv, 1, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Invalid duration: '2h' (range 1..3600000 ms)");
}
END_TEST

/* Flags: a keyword alone, anywhere among the pairs. */
START_TEST(test_kv_flag)
{
	bool bidir = false, validate = false;
	uint32_t qps = 0;
	struct sp_kv kv[] = {
		{ .key = "qps", .type = SP_KV_U32, .min = 1, .max = 64, .dst = &qps },
		{ .key = "bidir", .type = SP_KV_FLAG, .dst = &bidir },
		{ .key = "validate", .type = SP_KV_FLAG, .dst = &validate },
	};
	char *a[] = { "bidir", "qps", "4", "validate" }, *b[] = { "qps", "2" },
	     *dup[] = { "validate", "qps", "1", "validate" }, *val[] = { "bidir", "yes" },
	     *last[] = { "qps", "2", "bidir" };
	char err[128];

	ck_assert_int_eq(sp_parse_kv(4, a, kv, 3, err, sizeof(err)), 0);
	ck_assert(bidir && validate);
	ck_assert_uint_eq(qps, 4);
	ck_assert(kv[0].seen && kv[1].seen && kv[2].seen);

	bidir = validate = false;
	ck_assert_int_eq(sp_parse_kv(2, b, kv, 3, err, sizeof(err)), 0);
	ck_assert(!bidir && !validate);
	ck_assert(!kv[1].seen && !kv[2].seen);

	ck_assert_int_eq(sp_parse_kv(3, last, kv, 3, err, sizeof(err)), 0);
	ck_assert(bidir);

	ck_assert_int_eq(sp_parse_kv(4, dup, kv, 3, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Duplicate keyword 'validate'");
	/* a flag takes no value: what follows is the next keyword */
	ck_assert_int_eq(sp_parse_kv(2, val, kv, 3, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Unknown keyword 'yes'");
}
END_TEST

/* A table with a hole: value 1 has no name, value 3 is past the end. */
START_TEST(test_enum_names)
{
	static const char *const names[] = { [0] = "zero", [2] = "two" };
	unsigned int v = 7;

	ck_assert_str_eq(sp_enum_str(names, ARRAY_SIZE(names), 0, "?"), "zero");
	ck_assert_str_eq(sp_enum_str(names, ARRAY_SIZE(names), 1, "?"), "?");
	ck_assert_str_eq(sp_enum_str(names, ARRAY_SIZE(names), 2, "?"), "two");
	ck_assert_str_eq(sp_enum_str(names, ARRAY_SIZE(names), 3, "?"), "?");
	ck_assert_ptr_null(sp_enum_str(names, ARRAY_SIZE(names), 1, NULL));

	ck_assert_int_eq(sp_enum_parse(names, ARRAY_SIZE(names), "two", &v), 0);
	ck_assert_uint_eq(v, 2);
	ck_assert_int_eq(sp_enum_parse(names, ARRAY_SIZE(names), "one", &v), -EINVAL);
	ck_assert_int_eq(sp_enum_parse(names, ARRAY_SIZE(names), NULL, &v), -EINVAL);
	ck_assert_uint_eq(v, 2);
}
END_TEST

static Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("numbers");

	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_u32_range);
	tcase_add_test(tc, test_size);
	tcase_add_test(tc, test_duration);
	tcase_add_test(tc, test_duration_ms);
	tcase_add_test(tc, test_size_range);
	tcase_add_test(tc, test_size_sweep);
	suite_add_tcase(s, tc);

	tc = tcase_create("words");
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_dev_name);
	tcase_add_test(tc, test_kv_ok);
	tcase_add_test(tc, test_kv_errors);
	tcase_add_test(tc, test_kv_duration_ms);
	tcase_add_test(tc, test_kv_flag);
	tcase_add_test(tc, test_addr);
	tcase_add_test(tc, test_enum_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(parse_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
