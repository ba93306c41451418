// SPDX-License-Identifier: GPL-2.0
/* Switch plans: RouterOS versions, values as RouterOS compares them, the desired state. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "switchplan.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- versions ----------------------------------------------------------- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Leading digits of *p into *out, advancing *p: -EINVAL without any. */
static int read_uint(const char **p, unsigned int *out)
{
	unsigned long v = 0;

	if (!is_digit(**p))
		return -EINVAL;
	for (; is_digit(**p); (*p)++) {
		v = v * 10 + (unsigned long)(**p - '0');
		if (v > 1000000)
			return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

int sp_sw_version_parse(const char *s, struct sp_sw_version *v)
{
	struct sp_sw_version r = { 0 };
	const char *p = s;

	if (!s || read_uint(&p, &r.major) || *p++ != '.' || read_uint(&p, &r.minor))
		return -EINVAL;
	/* the rest ("beta2", " (stable)") does not order releases of a series */
	if (*p == '.' && is_digit(p[1])) {
		p++;
		read_uint(&p, &r.patch);
	}
	*v = r;
	return 0;
}

int sp_sw_version_cmp(const struct sp_sw_version *a, const struct sp_sw_version *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return 0;
}

bool sp_sw_has_unroll(const struct sp_sw_version *v)
{
	static const struct sp_sw_version unroll = { 7, 18, 0 };

	return sp_sw_version_cmp(v, &unroll) >= 0;
}

/* ---- values ------------------------------------------------------------- */

/* 1 for yes/true, 0 for no/false, -1 for anything else */
static int bool_value(const char *s)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true"))
		return 1;
	if (!strcmp(s, "no") || !strcmp(s, "false"))
		return 0;
	return -1;
}

int sp_sw_rate_parse(const char *s, uint64_t *bps)
{
	static const struct {
		char prefix;
		uint64_t mult;
	} units[] = {
		{ 'k', 1000ULL }, { 'M', 1000000ULL }, { 'G', 1000000000ULL },
		{ 'T', 1000000000000ULL },
	};
	uint64_t whole = 0, frac = 0, scale = 1, mult = 1, v, f;
	const char *p = s;
	size_t i;

	if (!s || !is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++)
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return -EINVAL;
	if (*p == '.') {
		if (!is_digit(*++p))
			return -EINVAL;
		for (; is_digit(*p) && scale < 1000000000000ULL; p++) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (is_digit(*p))
			return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (*p == units[i].prefix) {
			mult = units[i].mult;
			p++;
			break;
		}
	}
	if (!strcmp(p, "bps"))
		p += 3;
	if (*p)
		return -EINVAL;
	/* a fraction must come to whole bits per second */
	if (__builtin_mul_overflow(whole, mult, &v) || __builtin_mul_overflow(frac, mult, &f) ||
	    f % scale || __builtin_add_overflow(v, f / scale, &v))
		return -EINVAL;
	*bps = v;
	return 0;
}

char *sp_sw_rate_fmt(uint64_t bps, char *buf, size_t len)
{
	static const struct {
		const char *unit;
		uint64_t div;
	} units[] = {
		{ "Gbps", 1000000000ULL }, { "Mbps", 1000000ULL }, { "kbps", 1000ULL },
	};
	size_t i;

	if (!bps) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!(bps % units[i].div)) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(bps / units[i].div),
				 units[i].unit);
			return buf;
		}
	}
	snprintf(buf, len, "%llubps", (unsigned long long)bps);
	return buf;
}

bool sp_sw_value_eq(const char *have, const char *want)
{
	uint64_t a, b;
	int ba, bb;

	if (!strcmp(have, want))
		return true;
	ba = bool_value(have);
	bb = bool_value(want);
	if (ba >= 0 || bb >= 0)
		return ba == bb;
	return !sp_sw_rate_parse(have, &a) && !sp_sw_rate_parse(want, &b) && a == b;
}

const char *sp_sw_settable(const char *v)
{
	int b = v ? bool_value(v) : -1;

	return b < 0 ? v : b ? "yes" : "no";
}

int sp_sw_speed_bps(const char *speed, uint64_t *bps)
{
	const char *dash = speed ? strchr(speed, '-') : NULL;
	char rate[32];
	size_t len;

	/* "200G-baseCR4": the rate is what comes before "-base" */
	if (!dash || strncmp(dash, "-base", 5) || !dash[5])
		return -EINVAL;
	len = (size_t)(dash - speed);
	if (!len || len >= sizeof(rate) || !strchr("MG", speed[len - 1]))
		return -EINVAL;
	memcpy(rate, speed, len);
	rate[len] = '\0';
	return sp_sw_rate_parse(rate, bps);
}

bool sp_sw_link_ok(const char *status, const char *rate, const char *speed)
{
	uint64_t have, want;

	return status && rate && !strcmp(status, "link-ok") && !sp_sw_rate_parse(rate, &have) &&
	       !sp_sw_speed_bps(speed, &want) && have == want;
}

/* ---- desired state ------------------------------------------------------ */

static const struct {
	const char *name;
	struct sp_sw_version since;	/* the RouterOS that has what it needs */
	const char *needs;
} profiles[] = {
	[SP_SW_PROFILE_NONE] = { "none", { 0, 0, 0 }, NULL },
	[SP_SW_PROFILE_CLASSIFY] = { "classify", { 7, 15, 0 },
		"QoS hardware offloading with DSCP maps and per-queue egress rates" },
	[SP_SW_PROFILE_LOSSLESS] = { "lossless", { 7, 15, 0 },
		"priority flow control (PFC)" },
};

int sp_sw_profile_parse(const char *s, enum sp_sw_profile *p)
{
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(profiles); i++) {
		if (!strcmp(s, profiles[i].name)) {
			*p = (enum sp_sw_profile)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sp_sw_profile_str(enum sp_sw_profile p)
{
	return (size_t)p < ARRAY_SIZE(profiles) ? profiles[p].name : "unknown";
}

static const char *const fec_modes[] = { "auto", "fec74", "fec91", "off" };

int sp_sw_desired_check(const struct sp_sw_desired *d, char *err, size_t len)
{
	char cap[32];
	uint64_t bps;
	size_t i;

	if (sp_sw_speed_bps(d->speed, &bps)) {
		snprintf(err, len, "Invalid speed: '%s' (a RouterOS link mode such as "
			 "200G-baseCR4)", d->speed);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(fec_modes) && strcmp(d->fec, fec_modes[i]); i++)
		;
	if (i == ARRAY_SIZE(fec_modes)) {
		snprintf(err, len, "Invalid fec: '%s' (fec91, auto, fec74 or off)", d->fec);
		return -EINVAL;
	}
	if (d->mtu > d->l2mtu) {
		snprintf(err, len, "mtu %u is more than l2mtu %u: RouterOS would clamp the MTU "
			 "to the L2MTU without a word", d->mtu, d->l2mtu);
		return -EINVAL;
	}
	if (d->queue_cap_bps && d->profile == SP_SW_PROFILE_NONE) {
		snprintf(err, len, "queue-cap needs profile classify or lossless");
		return -EINVAL;
	}
	if (d->queue_cap_bps && !d->force) {
		snprintf(err, len, "queue-cap %s refused: a cap on the RoCE queue halved NCCL "
			 "bandwidth in field tests (egress-rate-queue3=100Gbps: 23.8 to 11.1 GB/s); "
			 "add 'force yes' to set it anyway",
			 sp_sw_rate_fmt(d->queue_cap_bps, cap, sizeof(cap)));
		return -EINVAL;
	}
	return 0;
}

int sp_sw_version_check(const struct sp_sw_desired *d, const struct sp_sw_version *v,
			const char *version, char *err, size_t len)
{
	const struct sp_sw_version *since = &profiles[d->profile].since;

	if (sp_sw_version_cmp(v, since) >= 0)
		return 0;
	snprintf(err, len, "profile %s needs %s, which RouterOS has from %u.%u on; "
		 "this switch runs %s", profiles[d->profile].name, profiles[d->profile].needs,
		 since->major, since->minor, version);
	return -EOPNOTSUPP;
}
