// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

int sp_array_add(void *items, size_t *n, size_t *cap, size_t elem_size, const void *elem)
{
	void **arr = items;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;
		void *a = reallocarray(*arr, c, elem_size);

		if (!a)
			return -ENOMEM;
		*arr = a;
		*cap = c;
	}
	memcpy((char *)*arr + *n * elem_size, elem, elem_size);
	(*n)++;
	return 0;
}

void sp_dev_free(struct sp_dev *dev)
{
	size_t i;

	if (!dev)
		return;
	for (i = 0; i < dev->n_ports; i++)
		free(dev->ports[i].gids);
	free(dev->ports);
	dev->ports = NULL;
	dev->n_ports = 0;
}

void sp_dev_list_free(struct sp_dev_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->n; i++)
		sp_dev_free(&list->devs[i]);
	free(list->devs);
	memset(list, 0, sizeof(*list));
}

int sp_dev_list_add(struct sp_dev_list *list, struct sp_dev *dev)
{
	int ret = sp_array_add(&list->devs, &list->n, &list->cap, sizeof(*dev), dev);

	if (!ret)
		memset(dev, 0, sizeof(*dev));
	return ret;
}

void sp_server_list_free(struct sp_server_list *list)
{
	if (!list)
		return;
	free(list->servers);
	memset(list, 0, sizeof(*list));
}

int sp_server_list_add(struct sp_server_list *list, const struct sp_server *srv)
{
	return sp_array_add(&list->servers, &list->n, &list->cap, sizeof(*srv), srv);
}

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
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->n; i++)
		sp_lat_free(&list->lats[i]);
	free(list->lats);
	memset(list, 0, sizeof(*list));
}

int sp_lat_list_add(struct sp_lat_list *list, struct sp_lat *lat)
{
	int ret = sp_array_add(&list->lats, &list->n, &list->cap, sizeof(*lat), lat);

	if (!ret)
		memset(lat, 0, sizeof(*lat));
	return ret;
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
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->n; i++)
		sp_bw_free(&list->bws[i]);
	free(list->bws);
	memset(list, 0, sizeof(*list));
}

int sp_bw_list_add(struct sp_bw_list *list, struct sp_bw *bw)
{
	int ret = sp_array_add(&list->bws, &list->n, &list->cap, sizeof(*bw), bw);

	if (!ret)
		memset(bw, 0, sizeof(*bw));
	return ret;
}

const char *sp_session_error(bool has_msg, const char *msg, bool has_error, int32_t error)
{
	int e = error < 0 ? -error : error;

	if (has_msg)
		return msg;
	if (has_error && e)
		return strerror(e);
	return NULL;
}

bool sp_lat_state_final(unsigned int state)
{
	return state == SPARKPERF_LAT_STATE_DONE || state == SPARKPERF_LAT_STATE_STOPPED ||
	       state == SPARKPERF_LAT_STATE_FAILED;
}

void sp_lat_samples_get(const struct sp_lat_samples *s, size_t i,
			uint64_t *start_ns, uint64_t *rtt_ns)
{
	const unsigned char *p = (const unsigned char *)s->data + i * 2 * sizeof(uint64_t);

	/* netlink attribute data is only 4-byte aligned */
	memcpy(start_ns, p, sizeof(*start_ns));
	memcpy(rtt_ns, p + sizeof(uint64_t), sizeof(*rtt_ns));
}
