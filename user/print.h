/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only code of sparkperf-ctl that writes to standard output. Data goes
 * to the stream given to sp_print_init() (stdout in the tool, a memstream in
 * the unit tests), as text or as JSON built with json-c.
 */
#ifndef SPARKPERF_CTL_PRINT_H
#define SPARKPERF_CTL_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>

#include "model.h"

/* out == NULL: stdout. pretty implies JSON. */
void sp_print_init(FILE *out, bool json, bool pretty);
bool sp_print_is_json(void);

/* Free text (help screens). */
void sp_print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Devices: text, a table with one line per port; JSON, one array of device
 * objects (also for a single device). 0 or -ENOMEM.
 */
int sp_print_devs(const struct sp_dev *devs, size_t n);

/* One event: one text line, or one compact JSON object on one line; flushed. */
int sp_print_event(const struct sp_dev_event *ev);

/*
 * The tool's and the module's versions; info == NULL when the module could
 * not be asked, with module_status saying why (e.g. "not loaded").
 */
int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status);

/* Flushes the stream: 0, or -errno if anything failed to be written. */
int sp_print_flush(void);

/* JSON building blocks, shared with the tests. The caller owns the result. */
json_object *sp_json_dev(const struct sp_dev *dev);
json_object *sp_json_port(const struct sp_port *port);

#endif
