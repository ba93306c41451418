// SPDX-License-Identifier: GPL-2.0
/*
 * The layout of the live view, for a width w of 40 to 160 columns (a wider
 * terminal gets 160):
 *
 *   <title>                                        t=12.3 s  period 100 ms
 *   PORT         DIR    NOW Gbit/s  PEAK Gbit/s  [# NOW  | PEAK          ]
 *   <name>       TX          0.071        0.090  [#####          |       ]
 *                RX          0.002        0.003  [                       ]
 *     source: <source>, full scale <x> Gbit/s (link|peak)
 *   ...                                            (one block per port)
 *   total        TX          0.071        0.090  sum over ports
 *                RX          0.002        0.003  PEAK: sum of port peaks
 *                TX+RX       0.073        0.093  full duplex
 *
 * Below 64 columns the value columns narrow to 8 ("NOW", "PEAK") and the
 * unit moves to the bar's header. The name column takes the longest name,
 * up to half of what the fixed columns leave; the bar takes the rest, so
 * that every bar line is exactly w wide. A port's bars go to its link rate;
 * the ports without one share one scale, the largest rate or peak among
 * them ("peak"), so that a fast port of known speed does not flatten them.
 * The PEAK of the totals is the sum of the ports' peaks, which need not
 * have been simultaneous. Bytes are taken as columns: names and sources
 * are ASCII.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "view.h"

#define VIEW_MIN_W 40
#define VIEW_MAX_W 160
#define WIDE_W 64		/* from here: unit in the value headers */
#define NAME_MIN_W 8		/* the name column is never cut below this */
#define DIR_W 5			/* "TX+RX" */
#define TOTAL_NAME "total"

struct out {
	char *buf;
	size_t len;
	size_t pos;		/* what was needed so far */
};

static void __attribute__((format(printf, 2, 3)))
out_add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (o->pos < o->len)
		n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->pos += (size_t)n;
}

struct layout {
	size_t w;		/* columns of the view */
	size_t name_w;
	size_t val_w;		/* NOW and PEAK */
	size_t gap;		/* spaces after NOW and after PEAK */
	size_t bar_w;		/* inside the brackets */
	bool wide;
	double peak_bps;	/* the scale of the ports without a link rate */
};

/* Columns of a row but the name and the bar's cells. */
static size_t fixed_w(const struct layout *l)
{
	return 1 + DIR_W + 1 + l->val_w + l->gap + l->val_w + l->gap + 2;
}

/* A rate, for display: NaN, infinities and negatives as 0. */
static double clean(double x)
{
	return isfinite(x) && x > 0 ? x : 0;
}

/*
 * @s cut to @max columns into @dst (at least @max + 1 bytes): the part
 * before " (" where that fits ("eth0 (rxe0)" -> "eth0"), else the head and
 * a '~'. Returns the length.
 */
static size_t fit(char *dst, const char *s, size_t max, bool at_paren)
{
	const char *p = at_paren ? strstr(s, " (") : NULL;
	size_t n = strlen(s);

	if (n <= max) {
		memcpy(dst, s, n);
	} else if (p && p > s && (size_t)(p - s) <= max) {
		n = (size_t)(p - s);
		memcpy(dst, s, n);
	} else if (max) {
		n = max - 1;
		memcpy(dst, s, n);
		dst[n++] = '~';
	} else {
		n = 0;
	}
	dst[n] = '\0';
	return n;
}

static size_t fit_name(char *dst, const char *name, size_t max)
{
	return fit(dst, name ? name : "?", max, true);
}

/* Gbit/s with 3 decimals, at most 8 characters. */
static void gbit(char *dst, size_t size, double bps)
{
	double g = clean(bps) / 1e9;

	if (g >= 9999.9995)
		snprintf(dst, size, ">9999");
	else
		snprintf(dst, size, "%.3f", g);
}

static bool has_link(const struct sp_view_port *p)
{
	return isfinite(p->link_bps) && p->link_bps > 0;
}

static void layout(struct layout *l, const struct sp_view *v)
{
	char name[VIEW_MAX_W + 1];
	size_t i, cap, n;

	l->w = v->width < VIEW_MIN_W ? VIEW_MIN_W :
	       v->width > VIEW_MAX_W ? VIEW_MAX_W : v->width;
	l->wide = l->w >= WIDE_W;
	l->val_w = l->wide ? strlen("PEAK Gbit/s") : strlen("9999.999");
	l->gap = l->wide ? 2 : 1;
	cap = (l->w - fixed_w(l)) / 2;
	if (cap < NAME_MIN_W)
		cap = NAME_MIN_W;
	l->name_w = strlen(TOTAL_NAME);
	l->peak_bps = 0;
	for (i = 0; i < v->n_ports; i++) {
		const struct sp_view_port *p = &v->ports[i];

		n = fit_name(name, p->name, cap);
		if (n > l->name_w)
			l->name_w = n;
		if (has_link(p))
			continue;
		l->peak_bps = fmax(l->peak_bps, clean(p->tx_peak_bps));
		l->peak_bps = fmax(l->peak_bps, clean(p->rx_peak_bps));
		l->peak_bps = fmax(l->peak_bps, clean(p->tx_bps));
		l->peak_bps = fmax(l->peak_bps, clean(p->rx_bps));
	}
	l->bar_w = l->w - fixed_w(l) - l->name_w;
}

/* Cells of @x on a bar of @n cells for @scale, rounded, at most @n. */
static size_t cells(double x, double scale, size_t n)
{
	double c;

	x = clean(x);
	if (!(scale > 0) || !x)
		return 0;
	c = x / scale * (double)n + 0.5;
	return c >= (double)n ? n : (size_t)c;
}

/* The name, direction and values of a row, without a trailing space. */
static void row_head(struct out *o, const struct layout *l, const char *name,
		     const char *dir, double now, double peak)
{
	char a[16], b[16];

	gbit(a, sizeof(a), now);
	gbit(b, sizeof(b), peak);
	out_add(o, "%-*s %-*s %*s%*s%*s", (int)l->name_w, name, DIR_W, dir,
		(int)l->val_w, a, (int)l->gap, "", (int)l->val_w, b);
}

/* The bar after the row's values: '#' up to NOW, '|' in PEAK's last cell. */
static void row_bar(struct out *o, const struct layout *l, double now,
		    double peak, double scale)
{
	size_t fill = cells(now, scale, l->bar_w);
	size_t mark = cells(peak, scale, l->bar_w);
	char bar[VIEW_MAX_W + 1];
	size_t i;

	for (i = 0; i < l->bar_w; i++)
		bar[i] = i < fill ? '#' : ' ';
	if (mark)
		bar[mark - 1] = '|';
	bar[l->bar_w] = '\0';
	out_add(o, "%*s[%s]\n", (int)l->gap, "", bar);
}

/* A row of the totals, with @tail after the values where it fits. */
static void total_row(struct out *o, const struct layout *l, const char *name,
		      const char *dir, double now, double peak, const char *tail)
{
	size_t used = fixed_w(l) - l->gap - 2 + l->name_w;

	row_head(o, l, name, dir, now, peak);
	if (used + l->gap + strlen(tail) <= l->w)
		out_add(o, "%*s%s", (int)l->gap, "", tail);
	out_add(o, "\n");
}

/* A line of text cut to the view's width. */
static void text_line(struct out *o, const struct layout *l, const char *s)
{
	char cut[VIEW_MAX_W + 1];

	fit(cut, s, l->w, false);
	out_add(o, "%s\n", cut);
}

static void title_lines(struct out *o, const struct layout *l,
			const struct sp_view *v)
{
	const char *title = v->title ? v->title : "";
	char right[64];
	size_t n;

	snprintf(right, sizeof(right), "t=%.1f s  period %g ms",
		 clean(v->elapsed_s), clean(v->period_s) * 1e3);
	n = strlen(title);
	if (n + 2 + strlen(right) <= l->w) {
		out_add(o, "%s%*s\n", title, (int)(l->w - n), right);
	} else {
		text_line(o, l, title);
		text_line(o, l, right);
	}
}

static void header_line(struct out *o, const struct layout *l)
{
	static const char legend[] = "# NOW  | PEAK";

	out_add(o, "%-*s %-*s %*s%*s%*s%*s", (int)l->name_w, "PORT", DIR_W, "DIR",
		(int)l->val_w, l->wide ? "NOW Gbit/s" : "NOW", (int)l->gap, "",
		(int)l->val_w, l->wide ? "PEAK Gbit/s" : "PEAK", (int)l->gap, "");
	if (!l->wide)
		out_add(o, "Gbit/s");
	else if (l->bar_w >= strlen(legend))
		out_add(o, "[%-*s]", (int)l->bar_w, legend);
	else
		out_add(o, "[%*s]", (int)l->bar_w, "");
	out_add(o, "\n");
}

static void port_block(struct out *o, const struct layout *l,
		       const struct sp_view_port *p)
{
	bool link = has_link(p);
	double scale = link ? p->link_bps : l->peak_bps;
	char name[VIEW_MAX_W + 1], line[512], full[16];

	fit_name(name, p->name, l->name_w);
	row_head(o, l, name, "TX", p->tx_bps, p->tx_peak_bps);
	row_bar(o, l, p->tx_bps, p->tx_peak_bps, scale);
	row_head(o, l, "", "RX", p->rx_bps, p->rx_peak_bps);
	row_bar(o, l, p->rx_bps, p->rx_peak_bps, scale);
	gbit(full, sizeof(full), scale);
	snprintf(line, sizeof(line), "  source: %s, full scale %s Gbit/s (%s)",
		 p->source ? p->source : "unknown", full,
		 link ? "link" : "peak");
	text_line(o, l, line);
}

size_t sp_view_render(char *buf, size_t len, const struct sp_view *v)
{
	struct out o = { .buf = buf, .len = buf ? len : 0 };
	double tx = 0, rx = 0, tx_peak = 0, rx_peak = 0;
	struct layout l;
	size_t i;

	if (o.len)
		buf[0] = '\0';
	if (!v)
		return 0;
	layout(&l, v);
	title_lines(&o, &l, v);
	header_line(&o, &l);
	if (!v->n_ports)
		out_add(&o, "no ports\n");
	for (i = 0; i < v->n_ports; i++) {
		const struct sp_view_port *p = &v->ports[i];

		port_block(&o, &l, p);
		tx += clean(p->tx_bps);
		rx += clean(p->rx_bps);
		tx_peak += clean(p->tx_peak_bps);
		rx_peak += clean(p->rx_peak_bps);
	}
	total_row(&o, &l, TOTAL_NAME, "TX", tx, tx_peak, "sum over ports");
	total_row(&o, &l, "", "RX", rx, rx_peak, "PEAK: sum of port peaks");
	total_row(&o, &l, "", "TX+RX", tx + rx, tx_peak + rx_peak, "full duplex");
	return o.pos;
}

size_t sp_view_line(char *buf, size_t len, const struct sp_view *v,
		    size_t port)
{
	struct out o = { .buf = buf, .len = buf ? len : 0 };
	const struct sp_view_port *p;

	if (o.len)
		buf[0] = '\0';
	if (!v || port >= v->n_ports)
		return 0;
	p = &v->ports[port];
	out_add(&o, "t=%.2fs %s tx %.3f Gbit/s rx %.3f Gbit/s", clean(v->elapsed_s),
		p->name ? p->name : "?", clean(p->tx_bps) / 1e9, clean(p->rx_bps) / 1e9);
	if (p->source)
		out_add(&o, " [%s]", p->source);
	return o.pos;
}
