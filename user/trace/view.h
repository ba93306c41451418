/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live view of "sparkperf-ctl watch": per port TX and RX bars in
 * Gbit/s, NOW and PEAK, and the full-duplex aggregate, rendered into a
 * string so that layouts can be compared in unit tests. Pure: no I/O.
 */
#ifndef SPARKPERF_CTL_VIEW_H
#define SPARKPERF_CTL_VIEW_H

#include <stdbool.h>
#include <stddef.h>

/* One port of the view; rates in bit/s. */
struct sp_view_port {
	const char *name;	/* "eth0 (rxe0)", "enp1s0f0np0 (rocep1s0f0)" */
	const char *source;	/* counters the rates come from, e.g.
				 * "ethtool tx_bytes_phy/rx_bytes_phy" */
	double tx_bps, rx_bps;		/* over the last period */
	double tx_peak_bps, rx_peak_bps;	/* since the view started */
	double link_bps;	/* full scale of the bars; 0: scale to the peak */
};

struct sp_view {
	const char *title;	/* first line, e.g. "sparkperf watch  spark1" */
	double elapsed_s;
	double period_s;	/* sampling period of the byte counters */
	const struct sp_view_port *ports;
	size_t n_ports;
	unsigned int width;	/* terminal columns; at least 40 used */
};

/*
 * Renders @v as lines of at most @v->width columns (plain text, no escape
 * sequences; the caller clears and homes the screen) into @buf of @len
 * bytes, NUL-terminated. Returns the length it needed, like snprintf.
 */
size_t sp_view_render(char *buf, size_t len, const struct sp_view *v);

/*
 * One plain line per port for a stdout that is not a terminal:
 * "t=1.20s eth0 (rxe0) tx 0.071 Gbit/s rx 0.002 Gbit/s [netdev ...]".
 * Same return convention.
 */
size_t sp_view_line(char *buf, size_t len, const struct sp_view *v,
		    size_t port);

#endif
