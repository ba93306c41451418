// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "file.h"

int sp_file_read(const char *path, size_t max, char **text)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;
	int ret = 0;

	*text = NULL;
	if (!f)
		return -errno;
	*text = malloc(max + 1);
	if (!*text)
		ret = -ENOMEM;
	else
		n = fread(*text, 1, max + 1, f);
	if (!ret && ferror(f))
		ret = -EIO;
	else if (!ret && n > max)
		ret = -EFBIG;
	fclose(f);
	if (ret) {
		free(*text);
		*text = NULL;
		return ret;
	}
	(*text)[n] = '\0';
	return 0;
}
