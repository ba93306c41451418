/* SPDX-License-Identifier: GPL-2.0 */
/* A whole text file, bounded: what another program wrote (-j outputs, hostfiles). */
#ifndef SPARKPERF_CTL_LIB_FILE_H
#define SPARKPERF_CTL_LIB_FILE_H

#include <stddef.h>

/*
 * path's bytes, NUL-terminated, into *text (free() it). 0, or -errno
 * (-EFBIG past max bytes) with *text NULL.
 */
int sp_file_read(const char *path, size_t max, char **text);

#endif
