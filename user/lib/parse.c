// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if.h>
#include <linux/sparkperf.h>

#include "model.h"
#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int sp_invalid(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Leading decimal digits of s into *out; returns the count, 0 if none. */
static size_t digits_u64(const char *s, uint64_t *out, bool *overflow)
{
	uint64_t v = 0;
	size_t n = 0;

	*overflow = false;
	for (; is_digit(s[n]); n++) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[n] - '0'), &v))
			*overflow = true;
	}
	*out = v;
	return n;
}

int sp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	bool overflow;
	uint64_t v;
	size_t n;

	if (!s)
		return -EINVAL;
	n = digits_u64(s, &v, &overflow);
	if (!n || s[n])
		return -EINVAL;
	if (overflow || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int sp_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret = sp_parse_u64(s, min, max, &v);

	if (ret)
		return ret;
	*out = (uint32_t)v;
	return 0;
}

static const struct {
	const char *suffix;
	uint64_t mult;
} size_units[] = {
	{ "", 1 },	{ "B", 1 },
	{ "K", 1ULL << 10 }, { "KiB", 1ULL << 10 },
	{ "M", 1ULL << 20 }, { "MiB", 1ULL << 20 },
	{ "G", 1ULL << 30 }, { "GiB", 1ULL << 30 },
};

int sp_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	bool overflow;
	uint64_t v;
	size_t n, i;

	if (!s)
		return -EINVAL;
	n = digits_u64(s, &v, &overflow);
	if (!n)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(size_units); i++) {
		if (strcmp(s + n, size_units[i].suffix))
			continue;
		if (overflow || __builtin_mul_overflow(v, size_units[i].mult, &v))
			return -ERANGE;
		if (v < min || v > max)
			return -ERANGE;
		*out = v;
		return 0;
	}
	return -EINVAL;
}

static const struct {
	const char *unit;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1ULL },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "", 1000000000ULL },
	{ "s", 1000000000ULL },
	{ "m", 60ULL * 1000000000ULL },
	{ "h", 3600ULL * 1000000000ULL },
};

int sp_parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
		      uint64_t *out_ns)
{
	uint64_t whole, frac = 0, frac_scale = 1, v;
	bool overflow = false, ovf;
	const char *p;
	size_t n, i;

	if (!s)
		return -EINVAL;
	n = digits_u64(s, &whole, &overflow);
	if (!n)
		return -EINVAL;
	p = s + n;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return -EINVAL;
		for (; is_digit(*p); p++) {
			/* 19 fraction digits is past any unit's resolution */
			if (frac_scale >= 1000000000000000000ULL)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_scale *= 10;
		}
	}
	for (i = 0; i < ARRAY_SIZE(duration_units); i++) {
		uint64_t unit = duration_units[i].ns, f;

		if (strcmp(p, duration_units[i].unit))
			continue;
		ovf = overflow || __builtin_mul_overflow(whole, unit, &v);
		/* the fraction must come to a whole number of ns */
		if (frac) {
			unsigned __int128 fr = (unsigned __int128)frac * unit;

			if (fr % frac_scale)
				return -EINVAL;
			f = (uint64_t)(fr / frac_scale);
			ovf = ovf || __builtin_add_overflow(v, f, &v);
		}
		if (ovf || v < min_ns || v > max_ns)
			return -ERANGE;
		*out_ns = v;
		return 0;
	}
	return -EINVAL;
}

int sp_parse_duration_ms(const char *s, uint32_t min_ms, uint32_t max_ms,
			 uint32_t *out_ms)
{
	uint64_t ns;
	int ret;

	/* parsed without limits first, so that "0.5ms" is invalid, not out of range */
	ret = sp_parse_duration(s, 0, UINT64_MAX, &ns);
	if (ret)
		return ret;
	if (ns % 1000000)
		return -EINVAL;
	if (ns / 1000000 < min_ms || ns / 1000000 > max_ms)
		return -ERANGE;
	*out_ms = (uint32_t)(ns / 1000000);
	return 0;
}

int sp_parse_size_range(const char *s, uint64_t min, uint64_t max,
			uint64_t *lo, uint64_t *hi)
{
	const char *dots;
	uint64_t a, b;
	char *first;
	int ret;

	if (!s)
		return -EINVAL;
	dots = strstr(s, "..");
	if (!dots) {
		ret = sp_parse_size(s, min, max, &a);
		if (!ret)
			*lo = *hi = a;
		return ret;
	}
	first = strndup(s, (size_t)(dots - s));
	if (!first)
		return -ENOMEM;
	ret = sp_parse_size(first, min, max, &a);
	free(first);
	if (ret)
		return ret;
	ret = sp_parse_size(dots + 2, min, max, &b);
	if (ret)
		return ret;
	if (a > b)
		return -EINVAL;
	*lo = a;
	*hi = b;
	return 0;
}

size_t sp_size_sweep(uint64_t lo, uint64_t hi, uint64_t *out, size_t max)
{
	uint64_t p;
	size_t n = 0;

	if (!lo || lo > hi)
		return 0;
	if (n < max)
		out[n] = lo;
	n++;
	/* the smallest power of two above lo */
	p = 1;
	while (p <= lo && p < (1ULL << 63))
		p <<= 1;
	for (; p > lo && p < hi; p <<= 1) {
		if (n < max)
			out[n] = p;
		n++;
		if (p == 1ULL << 63)
			break;
	}
	if (hi > lo) {
		if (n < max)
			out[n] = hi;
		n++;
	}
	return n;
}

int sp_parse_addr(const char *s, struct sp_addr *out)
{
	struct sp_addr a = { 0 };

	if (!s)
		return -EINVAL;
	if (inet_pton(AF_INET, s, a.raw) == 1)
		a.len = 4;
	else if (inet_pton(AF_INET6, s, a.raw) == 1)
		a.len = 16;
	else
		return -EINVAL;
	*out = a;
	return 0;
}

int sp_parse_net(const char *s, struct sp_net *out)
{
	char buf[INET6_ADDRSTRLEN + 4];
	const char *slash = s ? strchr(s, '/') : NULL;
	uint64_t prefix;
	bool host_bits = false;
	unsigned int i;

	if (!s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%.*s", slash ? (int)(slash - s) : (int)strlen(s), s);
	if (sp_parse_addr(buf, &out->addr))
		return -EINVAL;
	prefix = out->addr.len * 8;
	if (slash && sp_parse_u64(slash + 1, 0, out->addr.len * 8, &prefix))
		return -EINVAL;
	out->prefix = (uint8_t)prefix;
	for (i = 0; i < out->addr.len; i++) {
		unsigned int keep = prefix >= 8 * (i + 1) ? 8 : prefix > 8 * i ? prefix - 8 * i : 0;
		uint8_t mask = (uint8_t)(0xff00 >> keep);

		host_bits |= out->addr.raw[i] & (uint8_t)~mask;
		out->addr.raw[i] &= mask;
	}
	return host_bits ? -EDOM : 0;
}

const char *sp_addr_not_unicast(const struct sp_addr *a)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const uint8_t zero[16];
	const uint8_t *v4 = a->len == 4 ? a->raw : NULL;

	if (a->len == 16 && !memcmp(a->raw, v4mapped, sizeof(v4mapped)))
		v4 = a->raw + 12;
	if (v4) {
		if (v4[0] == 0)
			return "unspecified";
		if (v4[0] >= 224 && v4[0] < 240)
			return "multicast";
		if (v4[0] == 255 && v4[1] == 255 && v4[2] == 255 && v4[3] == 255)
			return "broadcast";
		return NULL;
	}
	if (!memcmp(a->raw, zero, sizeof(zero)))
		return "unspecified";
	return a->raw[0] == 0xff ? "multicast" : NULL;
}

char *sp_fmt_net(const struct sp_net *n, char *buf, size_t len)
{
	char addr[SP_ADDR_STRLEN];

	snprintf(buf, len, "%s/%u", sp_fmt_addr(&n->addr, addr, sizeof(addr)), n->prefix);
	return buf;
}

char *sp_fmt_addr(const struct sp_addr *a, char *buf, size_t len)
{
	int af = a->len == 4 ? AF_INET : a->len == 16 ? AF_INET6 : 0;

	if (!a->len)
		snprintf(buf, len, "any");
	else if (!af || !inet_ntop(af, a->raw, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

static const char *const lat_op_names[] = {
	[SPARKPERF_LAT_OP_WRITE] = "write",
	[SPARKPERF_LAT_OP_SEND] = "send",
	[SPARKPERF_LAT_OP_READ] = "read",
};

const char *sp_enum_str(const char *const *names, size_t n, unsigned int v, const char *fallback)
{
	return v < n && names[v] ? names[v] : fallback;
}

int sp_enum_parse(const char *const *names, size_t n, const char *s, unsigned int *v)
{
	unsigned int i;

	for (i = 0; s && i < n; i++) {
		if (names[i] && !strcmp(s, names[i])) {
			*v = i;
			return 0;
		}
	}
	return -EINVAL;
}

int sp_parse_lat_op(const char *s, uint8_t *op)
{
	unsigned int v;
	int ret = sp_enum_parse(lat_op_names, ARRAY_SIZE(lat_op_names), s, &v);

	if (!ret)
		*op = (uint8_t)v;
	return ret;
}

int sp_parse_list(const char *s, struct sp_list *out)
{
	size_t n = 1, i = 0;
	char *buf, *p;

	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return -EINVAL;
	for (p = (char *)s; *p; p++)
		if (*p == ',')
			n++;
	buf = strdup(s);
	if (!buf)
		return -ENOMEM;
	out->items = calloc(n, sizeof(*out->items));
	if (!out->items) {
		free(buf);
		return -ENOMEM;
	}
	out->buf = buf;
	for (p = buf;; p++) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (!*p) {
			sp_list_free(out);
			return -EINVAL;
		}
		out->items[i++] = p;
		if (!comma)
			break;
		p = comma;
	}
	out->n = i;
	return 0;
}

const char *sp_list_repeated(const struct sp_list *list)
{
	size_t i, k;

	for (i = 1; i < list->n; i++)
		for (k = 0; k < i; k++)
			if (!strcmp(list->items[i], list->items[k]))
				return list->items[i];
	return NULL;
}

void sp_list_free(struct sp_list *list)
{
	if (!list)
		return;
	free(list->items);
	free(list->buf);
	memset(list, 0, sizeof(*list));
}

bool sp_dev_name_valid(const char *s)
{
	size_t len;

	if (!s)
		return false;
	len = strlen(s);
	if (!len || len >= SPARKPERF_DEV_NAME_MAX)
		return false;
	return !strpbrk(s, "/ \t\n");
}

bool sp_netdev_name_valid(const char *s)
{
	size_t len;

	if (!s)
		return false;
	len = strlen(s);
	if (!len || len >= IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	return !strpbrk(s, "/: \t\n");
}

/* "A" or "A-B" at *p, advancing p; the CPUs into set. */
static int cpu_range(const char **p, struct sp_cpuset *set)
{
	uint64_t lo, hi, c;
	bool overflow;
	size_t n;

	n = digits_u64(*p, &lo, &overflow);
	if (!n)
		return -EINVAL;
	*p += n;
	hi = lo;
	if (**p == '-') {
		(*p)++;
		n = digits_u64(*p, &hi, &overflow);
		if (!n)
			return -EINVAL;
		*p += n;
	}
	if (overflow || hi >= SP_CPUS_MAX)
		return -ERANGE;
	if (lo > hi)
		return -EINVAL;
	for (c = lo; c <= hi; c++)
		set->bits[c / 64] |= 1ULL << (c % 64);
	return 0;
}

int sp_parse_cpulist(const char *s, struct sp_cpuset *set)
{
	int ret;

	memset(set, 0, sizeof(*set));
	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		ret = cpu_range(&s, set);
		if (ret)
			return ret;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

static const char *range_unit(enum sp_kv_type type)
{
	switch (type) {
	case SP_KV_SIZE:
		return " bytes";
	case SP_KV_DURATION:
		return " ns";
	case SP_KV_DURATION_MS:
		return " ms";
	default:
		return "";
	}
}

static int parse_one(struct sp_kv *kv, const char *val)
{
	uint64_t v;
	int ret;

	switch (kv->type) {
	case SP_KV_U32:
		ret = sp_parse_u64(val, kv->min, kv->max > UINT32_MAX ? UINT32_MAX : kv->max, &v);
		if (!ret)
			*(uint32_t *)kv->dst = (uint32_t)v;
		return ret;
	case SP_KV_U64:
		return sp_parse_u64(val, kv->min, kv->max, kv->dst);
	case SP_KV_SIZE:
		return sp_parse_size(val, kv->min, kv->max, kv->dst);
	case SP_KV_DURATION:
		return sp_parse_duration(val, kv->min, kv->max, kv->dst);
	case SP_KV_DURATION_MS:
		return sp_parse_duration_ms(val, (uint32_t)kv->min,
					    kv->max > UINT32_MAX ? UINT32_MAX : (uint32_t)kv->max,
					    kv->dst);
	case SP_KV_STRING:
		if (!*val)
			return -EINVAL;
		*(const char **)kv->dst = val;
		return 0;
	case SP_KV_LIST:
		return sp_parse_list(val, kv->dst);
	case SP_KV_FLAG:
		break;
	}
	return -EINVAL;
}

int sp_parse_kv(int argc, char **argv, struct sp_kv *kv, size_t n_kv,
		char *err, size_t err_len)
{
	int i, step = 2;
	size_t k;

	for (k = 0; k < n_kv; k++)
		kv[k].seen = false;

	for (i = 0; i < argc; i += step) {
		struct sp_kv *e = NULL;
		const char *what;
		int ret;

		for (k = 0; k < n_kv; k++) {
			if (!strcmp(argv[i], kv[k].key)) {
				e = &kv[k];
				break;
			}
		}
		if (!e) {
			snprintf(err, err_len, "Unknown keyword '%s'", argv[i]);
			return -EINVAL;
		}
		what = e->what ? e->what : e->key;
		if (e->seen) {
			snprintf(err, err_len, "Duplicate keyword '%s'", e->key);
			return -EINVAL;
		}
		step = e->type == SP_KV_FLAG ? 1 : 2;
		if (e->type == SP_KV_FLAG) {
			*(bool *)e->dst = true;
			e->seen = true;
			continue;
		}
		if (i + 1 >= argc) {
			snprintf(err, err_len, "Missing value for '%s'", e->key);
			return -EINVAL;
		}
		ret = parse_one(e, argv[i + 1]);
		if (ret == -ERANGE) {
			uint64_t max = e->max;

			if ((e->type == SP_KV_U32 || e->type == SP_KV_DURATION_MS) &&
			    max > UINT32_MAX)
				max = UINT32_MAX;
			snprintf(err, err_len,
				 "Invalid %s: '%s' (range %" PRIu64 "..%" PRIu64 "%s)",
				 what, argv[i + 1], e->min, max, range_unit(e->type));
			return -EINVAL;
		}
		if (ret == -ENOMEM) {
			snprintf(err, err_len, "Out of memory");
			return -ENOMEM;
		}
		if (ret) {
			snprintf(err, err_len, "Invalid %s: '%s'%s", what, argv[i + 1],
				 e->type == SP_KV_LIST ? " (an empty item)" : "");
			return -EINVAL;
		}
		e->seen = true;
		if (e->type == SP_KV_LIST && sp_list_repeated(e->dst)) {
			snprintf(err, err_len, "Invalid %s: '%s' ('%s' given twice)", what,
				 argv[i + 1], sp_list_repeated(e->dst));
			return -EINVAL;
		}
	}
	return 0;
}

char *sp_fmt_guid(uint64_t guid, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x",
		 (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
	return buf;
}

char *sp_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes && !(bytes % (1ULL << 30)))
		snprintf(buf, len, "%" PRIu64 "GiB", bytes >> 30);
	else if (bytes && !(bytes % (1ULL << 20)))
		snprintf(buf, len, "%" PRIu64 "MiB", bytes >> 20);
	else if (bytes && !(bytes % (1ULL << 10)))
		snprintf(buf, len, "%" PRIu64 "KiB", bytes >> 10);
	else
		snprintf(buf, len, "%" PRIu64 "B", bytes);
	return buf;
}

char *sp_fmt_gid(const uint8_t gid[16], char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

bool sp_gid_ipv4(const uint8_t gid[16], char *buf, size_t len)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	if (memcmp(gid, prefix, sizeof(prefix)))
		return false;
	return inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len) != NULL;
}

char *sp_fmt_gbps(uint32_t mbps, char *buf, size_t len)
{
	unsigned int whole = mbps / 1000, frac = mbps % 1000;

	if (!frac)
		snprintf(buf, len, "%u", whole);
	else if (frac % 100 == 0)
		snprintf(buf, len, "%u.%u", whole, frac / 100);
	else if (frac % 10 == 0)
		snprintf(buf, len, "%u.%02u", whole, frac / 10);
	else
		snprintf(buf, len, "%u.%03u", whole, frac);
	return buf;
}

char *sp_fmt_rate(uint32_t mbps, char *buf, size_t len)
{
	char num[SP_RATE_STRLEN];

	snprintf(buf, len, "%s Gbit/s", sp_fmt_gbps(mbps, num, sizeof(num)));
	return buf;
}

/* Defines fn(v): the name of v in the rows given (designated initializers), fallback if none. */
#define ENUM_STR(fn, fallback, ...)						\
	const char *fn(unsigned int v)						\
	{									\
		static const char *const names[] = { __VA_ARGS__ };		\
										\
		return sp_enum_str(names, ARRAY_SIZE(names), v, fallback);	\
	}

const char *sp_lat_op_str(unsigned int op)
{
	return sp_enum_str(lat_op_names, ARRAY_SIZE(lat_op_names), op, "unknown");
}

ENUM_STR(sp_counter_source_str, "unknown",
	 [SPARKPERF_SRC_NETDEV] = "netdev",
	 [SPARKPERF_SRC_ETHTOOL] = "ethtool",
	 [SPARKPERF_SRC_RDMA] = "rdma")

ENUM_STR(sp_trace_state_str, "unknown",
	 [SPARKPERF_TRACE_STATE_RUNNING] = "running",
	 [SPARKPERF_TRACE_STATE_DONE] = "done",
	 [SPARKPERF_TRACE_STATE_STOPPED] = "stopped",
	 [SPARKPERF_TRACE_STATE_FAILED] = "failed")

ENUM_STR(sp_lat_state_str, "unknown",
	 [SPARKPERF_LAT_STATE_CONNECTING] = "connecting",
	 [SPARKPERF_LAT_STATE_RUNNING] = "running",
	 [SPARKPERF_LAT_STATE_DONE] = "done",
	 [SPARKPERF_LAT_STATE_STOPPED] = "stopped",
	 [SPARKPERF_LAT_STATE_FAILED] = "failed")

ENUM_STR(sp_port_state_str, "UNKNOWN",
	 [SPARKPERF_PORT_NOP] = "NOP",
	 [SPARKPERF_PORT_DOWN] = "DOWN",
	 [SPARKPERF_PORT_INIT] = "INIT",
	 [SPARKPERF_PORT_ARMED] = "ARMED",
	 [SPARKPERF_PORT_ACTIVE] = "ACTIVE",
	 [SPARKPERF_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER")

ENUM_STR(sp_phys_state_str, "UNKNOWN",
	 [SPARKPERF_PHYS_UNKNOWN] = "UNKNOWN",
	 [SPARKPERF_PHYS_SLEEP] = "SLEEP",
	 [SPARKPERF_PHYS_POLLING] = "POLLING",
	 [SPARKPERF_PHYS_DISABLED] = "DISABLED",
	 [SPARKPERF_PHYS_TRAINING] = "TRAINING",
	 [SPARKPERF_PHYS_LINK_UP] = "LINK_UP",
	 [SPARKPERF_PHYS_LINK_ERROR_RECOVERY] = "LINK_ERROR_RECOVERY",
	 [SPARKPERF_PHYS_PHY_TEST] = "PHY_TEST")

ENUM_STR(sp_link_layer_str, "Unknown",
	 [SPARKPERF_LINK_LAYER_UNSPECIFIED] = "Unspecified",
	 [SPARKPERF_LINK_LAYER_INFINIBAND] = "InfiniBand",
	 [SPARKPERF_LINK_LAYER_ETHERNET] = "Ethernet")

ENUM_STR(sp_speed_str, NULL,
	 [SPARKPERF_SPEED_UNKNOWN] = NULL,
	 [SPARKPERF_SPEED_SDR] = "SDR",
	 [SPARKPERF_SPEED_DDR] = "DDR",
	 [SPARKPERF_SPEED_QDR] = "QDR",
	 [SPARKPERF_SPEED_FDR10] = "FDR10",
	 [SPARKPERF_SPEED_FDR] = "FDR",
	 [SPARKPERF_SPEED_EDR] = "EDR",
	 [SPARKPERF_SPEED_HDR] = "HDR",
	 [SPARKPERF_SPEED_NDR] = "NDR",
	 [SPARKPERF_SPEED_XDR] = "XDR")

ENUM_STR(sp_gid_type_str, "unknown",
	 [SPARKPERF_GID_TYPE_IB] = "IB",
	 [SPARKPERF_GID_TYPE_ROCE_V1] = "RoCE v1",
	 [SPARKPERF_GID_TYPE_ROCE_V2] = "RoCE v2")

ENUM_STR(sp_operstate_str, "unknown",
	 [IF_OPER_UNKNOWN] = "unknown",
	 [IF_OPER_NOTPRESENT] = "notpresent",
	 [IF_OPER_DOWN] = "down",
	 [IF_OPER_LOWERLAYERDOWN] = "lowerlayerdown",
	 [IF_OPER_TESTING] = "testing",
	 [IF_OPER_DORMANT] = "dormant",
	 [IF_OPER_UP] = "up")
