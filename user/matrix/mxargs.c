// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mxargs.h"

void sp_mx_test_args_init(struct sp_mx_test_args *a)
{
	memset(a, 0, sizeof(*a));
	a->size = SP_MX_DEFAULT_SIZE;
	a->duration_s = SP_MX_DEFAULT_DURATION_S;
}

int sp_mx_config_make(const struct sp_mx_test_args *a, struct sp_mx_config *cfg, char *err,
		      size_t len)
{
	size_t i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < a->tests.n; i++) {
		if (!strcmp(a->tests.items[i], "lat"))
			cfg->lat = true;
		else if (!strcmp(a->tests.items[i], "bw"))
			cfg->bw = true;
		else
			return sp_invalid(err, len, "Invalid test: '%s' (lat or bw)",
					  a->tests.items[i]);
	}
	if (!a->tests.n)
		cfg->lat = cfg->bw = true;
	if (a->pattern && (sp_mx_pattern_parse(a->pattern, &cfg->pattern) ||
			   cfg->pattern == SP_MX_PROBE))
		return sp_invalid(err, len, "Invalid pattern: '%s' (pairs, all or incast)",
				  a->pattern);
	if (cfg->pattern != SP_MX_PAIRS && !cfg->bw)
		return sp_invalid(err, len, "pattern %s runs bandwidth tests: add bw to tests",
				  a->pattern);
	cfg->size_bytes = a->size;
	cfg->duration_s = a->duration_s;
	return 0;
}

void sp_mx_config_words(const struct sp_mx_config *cfg,
			char words[SP_MX_CONFIG_WORDS][SP_MX_CONFIG_WORD_MAX])
{
	snprintf(words[0], SP_MX_CONFIG_WORD_MAX, "tests");
	snprintf(words[1], SP_MX_CONFIG_WORD_MAX, "%s%s%s", cfg->lat ? "lat" : "",
		 cfg->lat && cfg->bw ? "," : "", cfg->bw ? "bw" : "");
	snprintf(words[2], SP_MX_CONFIG_WORD_MAX, "size");
	sp_fmt_size(cfg->size_bytes, words[3], SP_MX_CONFIG_WORD_MAX);
	snprintf(words[4], SP_MX_CONFIG_WORD_MAX, "duration");
	snprintf(words[5], SP_MX_CONFIG_WORD_MAX, "%" PRIu32, cfg->duration_s);
	snprintf(words[6], SP_MX_CONFIG_WORD_MAX, "pattern");
	snprintf(words[7], SP_MX_CONFIG_WORD_MAX, "%s", sp_mx_pattern_str(cfg->pattern));
}

int sp_mx_sibling(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/%s", self, name) >= len)
		return -ENAMETOOLONG;
	return 0;
}
