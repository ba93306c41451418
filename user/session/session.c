// SPDX-License-Identifier: GPL-2.0
/* Sessions' memory: their intervals, lists of them, raw samples. */
#include <stdlib.h>
#include <string.h>

#include "session.h"

void sp_lat_free(struct sp_lat *lat)
{
	if (!lat)
		return;
	free(lat->intervals);
	lat->intervals = NULL;
	lat->n_intervals = 0;
}

void sp_lat_list_free(struct sp_lat_list *list)
{
	if (!list)
		return;
	SP_ARRAY_RELEASE(list->lats, list->n, sp_lat_free);
	memset(list, 0, sizeof(*list));
}

int sp_lat_list_add(struct sp_lat_list *list, struct sp_lat *lat)
{
	return sp_array_take(&list->lats, &list->n, &list->cap, sizeof(*lat), lat);
}

void sp_bw_free(struct sp_bw *bw)
{
	if (!bw)
		return;
	free(bw->intervals);
	bw->intervals = NULL;
	bw->n_intervals = 0;
}

void sp_bw_list_free(struct sp_bw_list *list)
{
	if (!list)
		return;
	SP_ARRAY_RELEASE(list->bws, list->n, sp_bw_free);
	memset(list, 0, sizeof(*list));
}

int sp_bw_list_add(struct sp_bw_list *list, struct sp_bw *bw)
{
	return sp_array_take(&list->bws, &list->n, &list->cap, sizeof(*bw), bw);
}

void sp_lat_samples_get(const struct sp_lat_samples *s, size_t i,
			uint64_t *start_ns, uint64_t *rtt_ns)
{
	const unsigned char *p = (const unsigned char *)s->data + i * 2 * sizeof(uint64_t);

	/* netlink attribute data is only 4-byte aligned */
	memcpy(start_ns, p, sizeof(*start_ns));
	memcpy(rtt_ns, p + sizeof(uint64_t), sizeof(*rtt_ns));
}
