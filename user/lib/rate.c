// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>

#include "rate.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * The name tells what is counted, not everything about it. It cannot tell:
 * - the scale: port_xmit_data and port_rcv_data (IB PMA, and mlx5 on RoCE)
 *   count 4-octet words (octets / 4): they classify as bytes, and the caller
 *   multiplies their delta by 4;
 * - the width: mlx5 RDMA Q counters (out_of_sequence, ...) are 32-bit, most
 *   others 64-bit (sp_counter_delta() copes with both);
 * - the time unit of a *_duration counter: µs on mlx5 (rx_prioN_pause_
 *   duration), assumed for every driver;
 * - what a byte counter includes: *_phy counts headers and FCS, netdev and
 *   vport counters do not.
 * Names are matched as the drivers spell them (lower case).
 */
enum sp_counter_unit sp_counter_unit(const char *name)
{
	if (!name)
		return SP_UNIT_EVENTS;
	if (strstr(name, "_duration"))
		return SP_UNIT_USEC;
	if (strstr(name, "bytes") || strstr(name, "octets") || ends_with(name, "_data"))
		return SP_UNIT_BYTES;
	if (strstr(name, "packets") || strstr(name, "pkts") || strstr(name, "_frames"))
		return SP_UNIT_PACKETS;
	return SP_UNIT_EVENTS;
}

/* What each unit is called: in words, as a rate, in the JSON key of a rate. */
static const struct {
	const char *word, *rate_unit, *rate_key;
} units[] = {
	[SP_UNIT_EVENTS] = { "events", "1/s", "per_s" },
	[SP_UNIT_BYTES] = { "bytes", "bit/s", "gbit_per_s" },
	[SP_UNIT_PACKETS] = { "packets", "packet/s", "packets_per_s" },
	[SP_UNIT_USEC] = { "us", "us/s", "us_per_s" },
};

static unsigned int unit_index(enum sp_counter_unit unit)
{
	return (unsigned int)unit < sizeof(units) / sizeof(units[0]) ? unit : SP_UNIT_EVENTS;
}

const char *sp_counter_rate_unit(enum sp_counter_unit unit)
{
	return units[unit_index(unit)].rate_unit;
}

const char *sp_counter_unit_word(enum sp_counter_unit unit)
{
	return units[unit_index(unit)].word;
}

const char *sp_counter_rate_key(enum sp_counter_unit unit)
{
	return units[unit_index(unit)].rate_key;
}

/*
 * A decrease is read as one wrap only when the increase it implies is less
 * than half the counter's range: a counter sampled often enough never moves
 * that far in one period, while a reset (driver reload, counters cleared,
 * device re-created) from a large value to a small one would otherwise read
 * as an increase of almost the whole range. Without knowing the width, a
 * previous value that fits in 32 bits is tried as a 32-bit counter first; a
 * 64-bit counter can wrap only from its upper half. The one ambiguity left:
 * a 64-bit counter reset from [2^31, 2^32) to a small value reads as a
 * 32-bit wrap, an error below 2^31 once per reset.
 */
enum sp_delta_kind sp_counter_delta(uint64_t prev, uint64_t cur,
				    uint64_t *delta)
{
	const uint64_t half32 = 1ULL << 31, half64 = 1ULL << 63;
	enum sp_delta_kind kind;
	uint64_t d;

	if (cur >= prev) {
		d = cur - prev;
		kind = SP_DELTA_OK;
	} else if (prev <= UINT32_MAX && (1ULL << 32) - prev + cur < half32) {
		d = (1ULL << 32) - prev + cur;
		kind = SP_DELTA_WRAP32;
	} else if (prev >= half64 && cur - prev < half64) {
		d = cur - prev;	/* modulo 2^64: 2^64 - prev + cur */
		kind = SP_DELTA_WRAP64;
	} else {
		d = cur;
		kind = SP_DELTA_RESET;
	}
	if (delta)
		*delta = d;
	return kind;
}

double sp_counter_rate(uint64_t delta, uint64_t dt_ns,
		       enum sp_counter_unit unit)
{
	double r;

	if (!dt_ns)
		return 0;
	r = (double)delta * 1e9 / (double)dt_ns;
	return unit == SP_UNIT_BYTES ? r * 8 : r;
}
