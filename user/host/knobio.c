// SPDX-License-Identifier: GPL-2.0
/* The knobs' effects: file operations under a root, and the changes apply and revert write. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "knobs.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the file operations ------------------------------------------------------ */

/* root + path; -ENAMETOOLONG */
static int full_path(const struct sp_knob_io *io, const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", io->root, path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int files_read(struct sp_knob_io *io, const char *path, char **data, unsigned int *mode)
{
	char full[4096], chunk[4096];
	size_t len = 0;
	struct stat st;
	char *buf = NULL;
	FILE *m;
	ssize_t got;
	int fd, ret;

	*data = NULL;
	ret = full_path(io, path, full, sizeof(full));
	if (ret)
		return ret;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	m = open_memstream(&buf, &len);
	if (!m) {
		close(fd);
		return -ENOMEM;
	}
	/* procfs and sysfs report a size of 4096 or 0: read to the end */
	while ((got = read(fd, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)got, m);
	ret = got < 0 ? -errno : 0;
	close(fd);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(buf);
		return ret;
	}
	*data = buf;
	if (mode)
		*mode = st.st_mode & 07777;
	return 0;
}

static int write_all(int fd, const char *data, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, data, len);
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A new file beside the old one, renamed over it: readers see one or the other. */
static int replace_file(const char *full, const char *data, unsigned int mode)
{
	char tmp[4096 + 16];
	int fd, ret;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.spXXXXXX", full) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, data, strlen(data));
	if (!ret && fchmod(fd, mode))
		ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, full))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int files_write(struct sp_knob_io *io, const char *path, const char *data, bool replace,
		       unsigned int mode)
{
	char full[4096];
	ssize_t n;
	int fd, ret;

	ret = full_path(io, path, full, sizeof(full));
	if (ret)
		return ret;
	if (replace)
		return replace_file(full, data, mode);
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one write(2): procfs and sysfs take a value from one call */
	n = write(fd, data, strlen(data));
	ret = n < 0 ? -errno : (size_t)n != strlen(data) ? -EIO : 0;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int files_remove(struct sp_knob_io *io, const char *path)
{
	char full[4096];
	int ret = full_path(io, path, full, sizeof(full));

	if (ret)
		return ret;
	return unlink(full) && errno != ENOENT ? -errno : 0;
}

static int files_mkdir(struct sp_knob_io *io, const char *path)
{
	char full[4096];
	int ret = full_path(io, path, full, sizeof(full));

	if (ret)
		return ret;
	return mkdir(full, 0755) ? -errno : 0;
}

static int files_rmdir(struct sp_knob_io *io, const char *path)
{
	char full[4096];
	int ret = full_path(io, path, full, sizeof(full));

	if (ret)
		return ret;
	return rmdir(full) ? -errno : 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sp_io_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static int files_list(struct sp_knob_io *io, const char *path, char ***names, size_t *n)
{
	char full[4096], **v = NULL, **grown;
	size_t cap = 0, count = 0;
	struct dirent *e;
	DIR *d;
	int ret = full_path(io, path, full, sizeof(full));

	*names = NULL;
	*n = 0;
	if (ret)
		return ret;
	d = opendir(full);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			v = grown;
		}
		v[count] = strdup(e->d_name);
		if (!v[count]) {
			ret = -ENOMEM;
			break;
		}
		count++;
	}
	closedir(d);
	if (ret) {
		sp_io_names_free(v, count);
		return ret;
	}
	if (count)
		qsort(v, count, sizeof(*v), cmp_names);
	*names = v;
	*n = count;
	return 0;
}

void sp_knob_io_files(struct sp_knob_io *io, const char *root)
{
	memset(io, 0, sizeof(*io));
	io->root = root ? root : "";
	io->read = files_read;
	io->write = files_write;
	io->remove = files_remove;
	io->mkdir = files_mkdir;
	io->rmdir = files_rmdir;
	io->list = files_list;
}

int sp_io_read_line(struct sp_knob_io *io, const char *path, char **value)
{
	size_t len;
	int ret = io->read(io, path, value, NULL);

	if (ret)
		return ret;
	len = strlen(*value);
	if (len && (*value)[len - 1] == '\n')
		(*value)[len - 1] = '\0';
	return 0;
}

bool sp_io_is_dir(struct sp_knob_io *io, const char *path)
{
	char **names;
	size_t n;

	if (io->list(io, path, &names, &n))
		return false;
	sp_io_names_free(names, n);
	return true;
}

/* ---- changes ----------------------------------------------------------------- */

static const char *const access_names[] = {
	[SP_ACCESS_LINE] = "line",
	[SP_ACCESS_CONFIGFS] = "configfs",
	[SP_ACCESS_FILE] = "file",
	[SP_ACCESS_DSCP] = "dscp",
	[SP_ACCESS_PFC] = "pfc",
};

const char *sp_access_name(enum sp_access a)
{
	return sp_enum_str(access_names, ARRAY_SIZE(access_names), a, "unknown");
}

int sp_parse_access(const char *s, enum sp_access *a)
{
	unsigned int v;
	int ret = sp_enum_parse(access_names, ARRAY_SIZE(access_names), s, &v);

	if (!ret)
		*a = (enum sp_access)v;
	return ret;
}

void sp_change_free(struct sp_change *c)
{
	free(c->before);
	free(c->after);
	c->before = NULL;
	c->after = NULL;
}

int sp_change_copy(struct sp_change *dst, const struct sp_change *src)
{
	*dst = *src;
	dst->before = src->before ? strdup(src->before) : NULL;
	dst->after = src->after ? strdup(src->after) : NULL;
	if ((src->before && !dst->before) || (src->after && !dst->after)) {
		sp_change_free(dst);
		return -ENOMEM;
	}
	return 0;
}

static int write_line(struct sp_knob_io *io, const char *path, const char *value)
{
	char *line;
	int ret;

	if (asprintf(&line, "%s\n", value) < 0)
		return -ENOMEM;
	ret = io->write(io, path, line, false, 0);
	free(line);
	return ret;
}

/*
 * Writes one side of a change: the after value (apply) or the before value
 * (undo, revert). A failure leaves a "<where>: <reason>" line in msg.
 */
static int change_write(struct sp_knob_io *io, const struct sp_change *c, bool before,
			char *msg, size_t len)
{
	const char *v = before ? (c->has_before ? c->before : NULL) : c->after;
	const char *where = c->path;
	int ret = 0;

	io->msg[0] = '\0';
	switch (c->access) {
	case SP_ACCESS_LINE:
		ret = v ? write_line(io, c->path, v) : -EINVAL;
		break;
	case SP_ACCESS_CONFIGFS:
		if (!before && c->group_made) {
			ret = io->mkdir(io, c->group);
			if (ret == -EEXIST)
				ret = 0;
			if (ret) {
				where = c->group;
				break;
			}
		}
		ret = v ? write_line(io, c->path, v) : -EINVAL;
		/* the group goes with the value it was made for */
		if (c->group_made && (before || ret)) {
			int r = io->rmdir(io, c->group);

			if (!ret && r && r != -ENOENT) {
				ret = r;
				where = c->group;
			}
		}
		break;
	case SP_ACCESS_FILE:
		ret = v ? io->write(io, c->path, v, true, before ? c->before_mode : c->after_mode)
			: io->remove(io, c->path);
		break;
	case SP_ACCESS_DSCP:
	case SP_ACCESS_PFC:
		ret = io->dcb_write ? io->dcb_write(io, c->path, c->access, v ? v : "")
				    : -EOPNOTSUPP;
		break;
	}
	if (ret)
		snprintf(msg, len, "%s: %s", where, io->msg[0] ? io->msg : strerror(-ret));
	return ret;
}

int sp_changes_apply(struct sp_knob_io *io, const struct sp_change *ch, size_t n,
		     struct sp_apply_report *r)
{
	char msg[sizeof(r->undo_msg)];
	size_t i, j;
	int ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		ret = change_write(io, &ch[i], false, r->msg, sizeof(r->msg));
		if (!ret) {
			r->done++;
			continue;
		}
		r->failed = true;
		r->failed_at = i;
		r->error = ret;
		/* all or nothing: back to where apply started, last change first */
		for (j = i; j-- > 0;) {
			if (!change_write(io, &ch[j], true, msg, sizeof(msg)))
				continue;
			if (!r->undo_failures++) {
				r->undo_failed_at = j;
				snprintf(r->undo_msg, sizeof(r->undo_msg), "%s", msg);
			}
		}
		return ret;
	}
	return 0;
}

int sp_changes_revert(struct sp_knob_io *io, const struct sp_change *ch, size_t n,
		      struct sp_apply_report *r)
{
	char msg[sizeof(r->msg)];
	size_t j;
	int ret;

	memset(r, 0, sizeof(*r));
	for (j = n; j-- > 0;) {
		ret = change_write(io, &ch[j], true, msg, sizeof(msg));
		if (!ret) {
			r->done++;
		} else if (!r->failed) {
			r->failed = true;
			r->failed_at = j;
			r->error = ret;
			snprintf(r->msg, sizeof(r->msg), "%s", msg);
		}
	}
	return r->error;
}
