/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matrix as a heatmap, drawn by gnuplot (Debian: gnuplot-nox): a
 * panel per half, client rows, server columns, each cell coloured by its
 * bandwidth (one-way latency p50 when only lat ran) and labelled with it.
 * PNG (pngcairo) or SVG, by the file's extension.
 */
#ifndef SPARKPERF_CTL_MXHEATMAP_H
#define SPARKPERF_CTL_MXHEATMAP_H

#include <stddef.h>
#include <stdio.h>

#include "mxmodel.h"

/* gnuplot's terminal for a picture's path: "pngcairo", "svg"; NULL for neither. */
const char *sp_mx_heatmap_terminal(const char *path);

/* The gnuplot script that draws d into path (its terminal known). 0 or -errno. */
int sp_mx_heatmap_script(const struct sp_mx_doc *d, const char *path, FILE *f);

/*
 * Draws d into path with the gnuplot found in PATH. 0, or -errno with one
 * line in err (gnuplot missing, or what it said).
 */
int sp_mx_heatmap(const struct sp_mx_doc *d, const char *path, char *err, size_t len);

#endif
