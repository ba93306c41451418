// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/wait.h>

#include "heatmap.h"
#include "report.h"
#include "lib/spawn.h"

/* Drawing a few panels takes well under a second. */
#define GNUPLOT_TIMEOUT_MS 60000

const char *sp_mx_heatmap_terminal(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strcasecmp(dot, ".png"))
		return "pngcairo";
	if (dot && !strcasecmp(dot, ".svg"))
		return "svg";
	return NULL;
}

/* s as a gnuplot single-quoted string: '' is a quote in it. */
static void quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		fprintf(f, *s == '\'' ? "''" : "%c", *s);
	fputc('\'', f);
}

static void host_tics(const struct sp_mx_doc *d, FILE *f, const char *axis)
{
	size_t a;

	fprintf(f, "set %s (", axis);
	for (a = 0; a < d->n_hosts; a++) {
		fprintf(f, "%s", a ? ", " : "");
		quoted(f, d->hosts[a].name);
		fprintf(f, " %zu", a);
	}
	fprintf(f, ")\n");
}

/*
 * The top of the colour scale, which starts at 0 and is the same in every
 * panel: the halves compare, and healthy pairs a few per cent apart look
 * alike while the slow one stands out (a scale from the least value to the
 * most paints them as far apart as they can be).
 */
static double scale_max(const struct sp_mx_doc *d, const char **halves, size_t n,
			enum sp_mx_metric m)
{
	const struct sp_mx_result *r;
	double v, max = 0;
	size_t i, a, b;

	for (i = 0; i < n; i++)
		for (a = 0; a < d->n_hosts; a++)
			for (b = 0; b < d->n_hosts; b++) {
				r = a == b ? NULL : sp_mx_pair_result(d, a, halves[i], b);
				if (r && sp_mx_metric_value(r, m, &v) && v > max)
					max = v;
			}
	return max > 0 ? max : 1;
}

/* A half's matrix as an inline data block, NaN where there is no value. */
static void panel(const struct sp_mx_doc *d, const char *half, enum sp_mx_metric m, size_t k,
		  FILE *f)
{
	const struct sp_mx_result *r;
	size_t a, b;
	double v;

	fprintf(f, "$m%zu << EOD\n", k);
	for (a = 0; a < d->n_hosts; a++) {
		for (b = 0; b < d->n_hosts; b++) {
			r = a == b ? NULL : sp_mx_pair_result(d, a, half, b);
			if (r && sp_mx_metric_value(r, m, &v))
				fprintf(f, "%s%.3f", b ? " " : "", v);
			else
				fprintf(f, "%sNaN", b ? " " : "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "EOD\nset title ");
	quoted(f, half);
	/* NaN != NaN: no label where there is no value */
	fprintf(f, "\nplot $m%zu matrix with image notitle, $m%zu matrix using 1:2:"
		"($3 == $3 ? sprintf('%%.3g', $3) : '') with labels notitle\n", k, k);
}

int sp_mx_heatmap_script(const struct sp_mx_doc *d, const char *path, FILE *f)
{
	const char *halves[SP_MX_HOSTS_MAX * SP_MX_HALVES_MAX];
	size_t n = sp_mx_half_names(d, halves, sizeof(halves) / sizeof(halves[0])), i;
	const char *term = sp_mx_heatmap_terminal(path);
	enum sp_mx_metric m = d->cfg.bw ? SP_MX_BW : SP_MX_P50;
	const char *unit = m == SP_MX_BW ? "Gbit/s" : "us";

	if (!term)
		return -EINVAL;
	/* a panel 460 pixels wide per half, side by side */
	fprintf(f, "set terminal %s size %zu,460 font 'sans,10'\nset output ", term,
		(n ? n : 1) * 460);
	quoted(f, path);
	fprintf(f, "\nset multiplot layout 1,%zu title '%s [%s], client (row) to server "
		"(column)'\n", n ? n : 1, m == SP_MX_BW ? "bandwidth" : "one-way latency p50",
		unit);
	/* latency: low is good, so the palette runs the other way */
	fprintf(f, "set palette rgbformulae %s\n", m == SP_MX_BW ? "33,13,10" : "-33,-13,-10");
	host_tics(d, f, "xtics");
	host_tics(d, f, "ytics");
	fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n", d->n_hosts - 1,
		d->n_hosts - 1);
	fprintf(f, "set xlabel 'server'\nset ylabel 'client'\nset cblabel '%s'\n", unit);
	fprintf(f, "set cbrange [0:%.3f]\n", scale_max(d, halves, n, m));
	for (i = 0; i < n; i++)
		panel(d, halves[i], m, i, f);
	fprintf(f, "unset multiplot\n");
	return ferror(f) ? -EIO : 0;
}

int sp_mx_heatmap(const struct sp_mx_doc *d, const char *path, char *err, size_t len)
{
	static const struct sp_spawn_opts opts = { .path = true };
	char script[] = "/tmp/sparkperf-heatmap-XXXXXX", why[256];
	char *argv[] = { "gnuplot", script, NULL };
	struct sp_spawn s;
	int fd = mkstemp(script), ret;
	bool failed;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, len, "cannot write the gnuplot script: %s", strerror(-ret));
		return ret;
	}
	ret = sp_mx_heatmap_script(d, path, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret)
		ret = sp_spawn_run(argv, GNUPLOT_TIMEOUT_MS, &opts, &s);
	unlink(script);
	if (ret) {
		snprintf(err, len, "cannot run gnuplot: %s", strerror(-ret));
		return ret;
	}
	failed = !WIFEXITED(s.status) || WEXITSTATUS(s.status);
	if (s.exec_errno == ENOENT)
		snprintf(err, len, "gnuplot is not installed: the heatmap needs it "
			 "(apt-get install gnuplot-nox)");
	else if (s.exec_errno)
		snprintf(err, len, "cannot run gnuplot: %s", strerror(s.exec_errno));
	else if (failed) {
		sp_spawn_last_line(s.err, why, sizeof(why));
		snprintf(err, len, "gnuplot failed to draw %s: %s", path,
			 *why ? why : "no reason given");
	}
	ret = s.exec_errno ? -s.exec_errno : failed ? -EIO : 0;
	sp_spawn_free(&s);
	return ret;
}
