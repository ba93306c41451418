// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mxmodel.h"
#include "lib/ifaddr.h"
#include "lib/parse.h"

static const char *const pattern_names[] = {
	[SP_MX_PAIRS] = "pairs",
	[SP_MX_ALL] = "all",
	[SP_MX_INCAST] = "incast",
	[SP_MX_PROBE] = "probe",
};

const char *sp_mx_pattern_str(enum sp_mx_pattern p)
{
	return sp_enum_str(pattern_names, sizeof(pattern_names) / sizeof(pattern_names[0]), p,
			   "unknown");
}

int sp_mx_pattern_parse(const char *s, enum sp_mx_pattern *p)
{
	unsigned int v;
	int ret = sp_enum_parse(pattern_names, sizeof(pattern_names) / sizeof(pattern_names[0]),
				s, &v);

	if (!ret)
		*p = (enum sp_mx_pattern)v;
	return ret;
}

const char *sp_mx_cabling_str(enum sp_mx_cabling c)
{
	static const char *const names[] = {
		[SP_MX_CABLING_NONE] = "none",
		[SP_MX_CABLING_DIRECT] = "direct",
		[SP_MX_CABLING_SWITCHED] = "switched",
		[SP_MX_CABLING_TRIANGLE] = "triangle",
		[SP_MX_CABLING_RING] = "ring",
		[SP_MX_CABLING_MIXED] = "mixed",
	};

	return sp_enum_str(names, sizeof(names) / sizeof(names[0]), c, "unknown");
}

struct sp_mx_doc *sp_mx_doc_new(void)
{
	return calloc(1, sizeof(struct sp_mx_doc));
}

void sp_mx_doc_free(struct sp_mx_doc *d)
{
	if (!d)
		return;
	free(d->links);
	free(d->results);
	free(d);
}

bool sp_mx_same_subnet(const struct sp_mx_half *a, const struct sp_mx_half *b)
{
	uint8_t prefix = a->prefix < b->prefix ? a->prefix : b->prefix;
	uint32_t mask = htonl(sp_prefix_mask(prefix));

	/* a prefix not known (0) matches nothing: every address would */
	return prefix && (a->addr.s_addr & mask) == (b->addr.s_addr & mask);
}

int sp_mx_netdev_port(const char *netdev)
{
	const char *np = strrchr(netdev, 'n');
	const char *d;

	if (!np || np[1] != 'p' || !isdigit((unsigned char)np[2]))
		return -1;
	for (d = np + 2; *d; d++)
		if (!isdigit((unsigned char)*d))
			return -1;
	return atoi(np + 2) > 100 ? -1 : atoi(np + 2);
}
