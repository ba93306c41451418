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
