// SPDX-License-Identifier: GPL-2.0
/*
 * The output directory of a bench and its files (benchrun.h): checked,
 * made, read whole (within a limit), written.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "benchrun.h"

int sp_bench_outdir_check(const char *want, bool force)
{
	struct dirent *e;
	struct stat st;
	int ret = 0;
	DIR *d;

	if (stat(want, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	d = force ? NULL : opendir(want);
	while (d && !ret && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ret = -ENOTEMPTY;
	if (d)
		closedir(d);
	return ret;
}

int sp_bench_outdir(const char *want, char *path, size_t len)
{
	char tmpl[] = "/tmp/sparkperf-bench-XXXXXX";

	if (!want) {
		if (!mkdtemp(tmpl))
			return -errno;
		want = tmpl;
	} else if (mkdir(want, 0755) && errno != EEXIST) {
		return -errno;
	}
	if (!realpath(want, path) || strlen(path) >= len)
		return errno ? -errno : -ENAMETOOLONG;
	return 0;
}

void sp_bench_join(char *buf, const char *dir, const char *name)
{
	snprintf(buf, PATH_MAX, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
}

char *sp_bench_read_stream(FILE *f)
{
	size_t len = 0, size = 0, got;
	char *buf = NULL, *p;
	int e = 0;

	errno = 0;
	for (;;) {
		if (len > SP_BENCH_FILE_MAX) {
			e = EFBIG;
			break;
		}
		/* doubled: a large input is not copied again at every 64 KiB */
		if (len + 1 >= size) {
			size = size ? size * 2 : 65536;
			p = realloc(buf, size);
			if (!p) {
				e = ENOMEM;
				break;
			}
			buf = p;
		}
		got = fread(buf + len, 1, size - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	if (!e && ferror(f))
		e = errno ? errno : EIO;
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

char *sp_bench_read_file(const char *dir, const char *name)
{
	char path[PATH_MAX], *buf;
	FILE *f;
	int e;

	sp_bench_join(path, dir, name);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	buf = sp_bench_read_stream(f);
	e = errno;
	fclose(f);
	errno = e;
	return buf;
}

int sp_bench_write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;
	int ret = 0;

	sp_bench_join(path, dir, name);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
