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

int sp_array_take(void *items, size_t *n, size_t *cap, size_t elem_size, void *elem)
{
	int ret = sp_array_add(items, n, cap, elem_size, elem);

	if (!ret)
		memset(elem, 0, elem_size);
	return ret;
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

SP_LIST_DEFINE(sp_dev_list, struct sp_dev_list, struct sp_dev, devs, sp_dev_free)

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

