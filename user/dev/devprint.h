/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printers of dev show and dev monitor: devices and their ports as a
 * table or JSON, device events as lines.
 */
#ifndef SPARKPERF_CTL_DEV_DEVPRINT_H
#define SPARKPERF_CTL_DEV_DEVPRINT_H

#include <stddef.h>

#include "lib/model.h"

/*
 * Devices: text, a table with one line per port; JSON, one array of device
 * objects (also for a single device). 0 or -ENOMEM.
 */
int sp_print_devs(const struct sp_dev *devs, size_t n);

/* One event: one text line, or one compact JSON object on one line; flushed. */
int sp_print_event(const struct sp_dev_event *ev);

#endif
