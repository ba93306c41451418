// SPDX-License-Identifier: GPL-2.0
/* The files that tune apply persist writes: the plan's values at every boot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"

/* What a knob's value is once apply has run: NULL when unknown. */
static const char *value_after(const struct sp_knob *k)
{
	switch (k->state) {
	case SP_KNOB_CHANGE:
		return k->ch.after;
	case SP_KNOB_OK:
		return k->ch.before;
	default:
		/* absent here (an image being prepared): what the profile asks */
		return k->ch.has_before ? NULL : k->recommended;
	}
}

static bool applies(const struct sp_knob *k)
{
	/* a multi-NIC sysctl that is not needed is not persisted either */
	return !(k->spec && k->spec->multi_nic && k->state == SP_KNOB_SKIP);
}

char *sp_persist_sysctl_conf(const struct sp_plan *plan, enum sp_profile profile)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "# Written by sparkperf-ctl tune apply persist (profile %s),\n"
		"# removed by sparkperf-ctl tune revert.\n", sp_profile_name(profile));
	for (i = 0; i < plan->n; i++) {
		const struct sp_knob *k = &plan->knobs[i];
		const char *v = value_after(k);

		if (k->spec && k->spec->kind == SP_KNOB_SYSCTL && v && applies(k))
			fprintf(m, "%s = %s\n", k->ch.name, v);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *sp_persist_netplan(const struct sp_plan *plan, enum sp_profile profile)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);
	bool any = false;

	if (!m)
		return NULL;
	fprintf(m, "# Written by sparkperf-ctl tune apply persist (profile %s),\n"
		"# removed by sparkperf-ctl tune revert. netplan merges these MTUs\n"
		"# into the definitions of the same interfaces in other files.\n"
		"network:\n  version: 2\n", sp_profile_name(profile));
	for (i = 0; i < plan->n; i++) {
		const struct sp_knob *k = &plan->knobs[i];
		const char *v = value_after(k);

		if (!k->spec || k->spec->kind != SP_KNOB_MTU || !v || !strchr(k->ch.name, ' '))
			continue;
		if (!any)
			fprintf(m, "  ethernets:\n");
		any = true;
		fprintf(m, "    %s:\n      mtu: %s\n", strchr(k->ch.name, ' ') + 1, v);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}
