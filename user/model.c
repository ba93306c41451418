// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

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
	if (list->n == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 4;
		struct sp_dev *devs = reallocarray(list->devs, cap, sizeof(*devs));

		if (!devs)
			return -ENOMEM;
		list->devs = devs;
		list->cap = cap;
	}
	list->devs[list->n++] = *dev;
	memset(dev, 0, sizeof(*dev));
	return 0;
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
	if (list->n == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 4;
		struct sp_server *s = reallocarray(list->servers, cap, sizeof(*s));

		if (!s)
			return -ENOMEM;
		list->servers = s;
		list->cap = cap;
	}
	list->servers[list->n++] = *srv;
	return 0;
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
	if (list->n == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 4;
		struct sp_lat *l = reallocarray(list->lats, cap, sizeof(*l));

		if (!l)
			return -ENOMEM;
		list->lats = l;
		list->cap = cap;
	}
	list->lats[list->n++] = *lat;
	memset(lat, 0, sizeof(*lat));
	return 0;
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
