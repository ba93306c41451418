// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "version.h"

static void vsentence(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char buf[512];
	size_t len;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	len = strlen(buf);
	fprintf(f, "%s%s%s\n", prefix, buf,
		len && (buf[len - 1] == '.' || buf[len - 1] == '!' || buf[len - 1] == '?') ? "" : ".");
}

void sp_err(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsentence(f, "Error: ", fmt, ap);
	va_end(ap);
}

int sp_usage_error(const char *object, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'sparkperf-ctl %s%shelp')\n", object ? object : "",
		object ? " " : "");
	return SP_EXIT_USAGE;
}

static void missing_attr(FILE *f, const struct sp_nl_err *e, bool sentence)
{
	const char *name = e->has_miss_nest ? NULL : sp_nl_attr_name(e->cmd, e->miss_type);
	char what[96];

	if (name)
		snprintf(what, sizeof(what), "%s", name);
	else
		snprintf(what, sizeof(what), "type %u%s", e->miss_type,
			 e->has_miss_nest ? " in a nested attribute" : "");
	if (sentence)
		fprintf(f, "Error: missing required attribute %s.\n", what);
	else
		fprintf(f, "Missing required attribute %s\n", what);
}

void sp_report_nl_error(FILE *f, const char *object, const char *command,
			int error, const struct sp_nl_err *e)
{
	if (e && e->has_msg) {
		sp_err(f, "%s", e->msg);
		if (e->has_miss_type)
			missing_attr(f, e, false);
		return;
	}
	if (e && e->has_miss_type) {
		missing_attr(f, e, true);
		return;
	}
	if (error > 0)
		error = -error;
	fprintf(f, "sparkperf-ctl: %s%s%s: %s\n", object, command ? " " : "",
		command ? command : "", strerror(error ? -error : EIO));
}

void sp_report_module_missing(FILE *f)
{
	/* "dkms install" alone fails unless the sources are in /usr/src: README's way */
	sp_err(f, "the sparkperf kernel module is not loaded and could not be loaded; "
	       "install it from the sparkperf %s sources with 'sudo make dkms-install' "
	       "(see their README) and run 'sudo modprobe sparkperf'", SPARKPERF_PKG_VERSION);
}

int sp_report_open_error(const char *object, const char *command, int error,
			 const struct sp_nl_err *e)
{
	if (error == -ENOENT)
		sp_report_module_missing(stderr);
	else
		sp_report_nl_error(stderr, object, command, error, e);
	return SP_EXIT_ERROR;
}
