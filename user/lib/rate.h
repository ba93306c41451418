/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rates from raw cumulative counters: what a counter counts (by its name),
 * the difference of two readings across 32- and 64-bit wraps and driver
 * resets, and the rate in the counter's unit. Pure: no I/O.
 */
#ifndef SPARKPERF_CTL_RATE_H
#define SPARKPERF_CTL_RATE_H

#include <stdint.h>

/* What one unit of a counter is, decided from its name. */
enum sp_counter_unit {
	SP_UNIT_EVENTS,		/* anything else: events, per second */
	SP_UNIT_BYTES,		/* "*bytes*", "*octets*", "*_data": rate in bit/s */
	SP_UNIT_PACKETS,	/* "*packets*", "*pkts*", "*_frames*": packet/s */
	SP_UNIT_USEC,		/* "*_duration*" (mlx5 pause time, µs): µs/s */
};

enum sp_counter_unit sp_counter_unit(const char *name);

/* The unit of the rate, as printed: "bit/s", "packet/s", "us/s", "1/s". */
const char *sp_counter_rate_unit(enum sp_counter_unit unit);
/* What one unit is, in words: "bytes", "packets", "us", "events". */
const char *sp_counter_unit_word(enum sp_counter_unit unit);
/*
 * The JSON key of a rate: "gbit_per_s", "packets_per_s", "us_per_s",
 * "per_s"; as in every data rate of the JSON, bytes in Gbit/s, not the bit/s
 * of sp_counter_rate().
 */
const char *sp_counter_rate_key(enum sp_counter_unit unit);

/* How two successive readings of a counter relate. */
enum sp_delta_kind {
	SP_DELTA_OK,		/* cur >= prev: delta = cur - prev */
	SP_DELTA_WRAP32,	/* a 32-bit counter wrapped once */
	SP_DELTA_WRAP64,	/* a 64-bit counter wrapped once */
	SP_DELTA_RESET,		/* went back to a smaller count: delta = cur */
};

/*
 * The increase from @prev to @cur in *@delta, and how it was found. A
 * decrease is a wrap only where a wrap is the plausible reading (see
 * rate.c); otherwise it is a reset and the increase is counted from zero.
 */
enum sp_delta_kind sp_counter_delta(uint64_t prev, uint64_t cur,
				    uint64_t *delta);

/*
 * @delta of a counter of @unit over @dt_ns as a rate in
 * sp_counter_rate_unit(@unit) (bytes are multiplied by 8); 0 for dt_ns 0.
 */
double sp_counter_rate(uint64_t delta, uint64_t dt_ns,
		       enum sp_counter_unit unit);

#endif
