// SPDX-License-Identifier: GPL-2.0
/* Sessions' memory: their intervals, lists of them, raw samples. */
#include <stdlib.h>
#include <string.h>

#include "session.h"

void sp_lat_free(struct sp_lat *lat)
{
	if (lat)
		SP_ARRAY_CLEAR(lat->intervals, lat->n_intervals);
}

SP_LIST_DEFINE(sp_lat_list, struct sp_lat_list, struct sp_lat, lats, sp_lat_free)

void sp_bw_free(struct sp_bw *bw)
{
	if (bw)
		SP_ARRAY_CLEAR(bw->intervals, bw->n_intervals);
}

SP_LIST_DEFINE(sp_bw_list, struct sp_bw_list, struct sp_bw, bws, sp_bw_free)

void sp_lat_samples_get(const struct sp_lat_samples *s, size_t i,
			uint64_t *start_ns, uint64_t *rtt_ns)
{
	const unsigned char *p = (const unsigned char *)s->data + i * 2 * sizeof(uint64_t);

	/* netlink attribute data is only 4-byte aligned */
	memcpy(start_ns, p, sizeof(*start_ns));
	memcpy(rtt_ns, p + sizeof(uint64_t), sizeof(*rtt_ns));
}
