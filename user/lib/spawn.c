// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"
#include "spawn.h"

/* Between SIGTERM and SIGKILL at the deadline. */
#define KILL_GRACE_MS 3000

struct stream {
	int fd;
	char *buf;
	size_t len, max;
};

/* Reads what is there; false at the end of the stream (or on an error). */
static bool stream_read(struct stream *s)
{
	char chunk[4096];
	ssize_t got = read(s->fd, chunk, sizeof(chunk));
	size_t keep;

	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (got <= 0)
		return false;
	keep = s->len + (size_t)got > s->max ? s->max - s->len : (size_t)got;
	memcpy(s->buf + s->len, chunk, keep);
	s->len += keep;
	s->buf[s->len] = '\0';
	return true;
}

/* err < 0: the child keeps our stderr. */
static void child(char *const argv[], bool path, int out, int err, int report)
{
	int in = open("/dev/null", O_RDONLY);
	int e;

	if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || (err >= 0 && dup2(err, 2) < 0))
		_exit(127);
	if (path)
		execvp(argv[0], argv);
	else
		execv(argv[0], argv);
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Reads both streams until they end, or the deadline (then the child is stopped). */
static void drain(struct stream *st, pid_t pid, int64_t timeout_ms, struct sp_spawn *s)
{
	int64_t deadline = sp_run_now_ms() + timeout_ms, left;
	struct pollfd pfd[2];
	bool open_[2] = { st[0].fd >= 0, st[1].fd >= 0 }, termed = false;
	nfds_t n, i;

	while (open_[0] || open_[1]) {
		n = 0;
		for (i = 0; i < 2; i++)
			if (open_[i])
				pfd[n++] = (struct pollfd){ .fd = st[i].fd, .events = POLLIN };
		left = deadline - sp_run_now_ms();
		if (left <= 0) {
			/* stopped: its streams end with it */
			kill(pid, termed ? SIGKILL : SIGTERM);
			s->timed_out = true;
			deadline = sp_run_now_ms() + KILL_GRACE_MS;
			if (termed)
				break;
			termed = true;
			continue;
		}
		if (poll(pfd, n, (int)(left > 1000 ? 1000 : left)) < 0 && errno != EINTR)
			break;
		for (i = 0; i < n; i++) {
			size_t k = pfd[i].fd == st[0].fd ? 0 : 1;

			if (pfd[i].revents && !stream_read(&st[k]))
				open_[k] = false;
		}
	}
}

/* The child's stdout, its stderr, and the pipe exec() closes unless it fails. */
enum { P_OUT, P_ERR, P_REPORT, P_N };

static void close_ends(int (*p)[2], int end)
{
	int i;

	for (i = 0; i < P_N; i++)
		if (p[i][end] >= 0)
			close(p[i][end]);
}

int sp_spawn_capture(char *const argv[], int64_t timeout_ms, struct sp_spawn *s)
{
	return sp_spawn_run(argv, timeout_ms, NULL, s);
}

int sp_spawn_run(char *const argv[], int64_t timeout_ms, const struct sp_spawn_opts *opts,
		 struct sp_spawn *s)
{
	static const struct sp_spawn_opts plain;
	const struct sp_spawn_opts *o = opts ? opts : &plain;
	size_t keep = o->keep_max ? o->keep_max : SP_SPAWN_KEEP_MAX;
	int p[P_N][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, ret = 0, e, i;
	struct stream st[2];
	pid_t pid = -1;

	memset(s, 0, sizeof(*s));
	s->out = calloc(1, keep + 1);
	s->err = calloc(1, keep + 1);
	if (!s->out || !s->err)
		ret = -ENOMEM;
	for (i = 0; i < P_N && !ret; i++)
		if ((i != P_ERR || !o->pass_err) && pipe2(p[i], O_CLOEXEC))
			ret = -errno;
	if (!ret) {
		pid = fork();
		if (pid < 0)
			ret = -errno;
		else if (!pid)
			child(argv, o->path, p[P_OUT][1], p[P_ERR][1], p[P_REPORT][1]);
	}
	close_ends(p, 1);
	if (!ret) {
		/* exec closes the report pipe: nothing to read means it started */
		if (read(p[P_REPORT][0], &e, sizeof(e)) == sizeof(e))
			s->exec_errno = e;
		st[0] = (struct stream){ .fd = p[P_OUT][0], .buf = s->out, .max = keep };
		st[1] = (struct stream){ .fd = p[P_ERR][0], .buf = s->err, .max = keep };
		if (!s->exec_errno)
			drain(st, pid, timeout_ms, s);
		while (waitpid(pid, &s->status, 0) < 0 && errno == EINTR)
			;
	}
	close_ends(p, 0);
	if (ret)
		sp_spawn_free(s);
	return ret;
}

void sp_spawn_free(struct sp_spawn *s)
{
	free(s->out);
	free(s->err);
	s->out = NULL;
	s->err = NULL;
}

void sp_spawn_last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (start = end; start > text && start[-1] != '\n'; start--)
		;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/* Characters no shell reads specially, in any position. */
static bool plain_word(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=,@%+-", *w))
			return false;
	return true;
}

char *sp_shell_quote(const char *word)
{
	size_t len = 2, i = 0;
	const char *p;
	char *out;

	if (plain_word(word))
		return strdup(word);
	for (p = word; *p; p++)
		len += *p == '\'' ? 4 : 1;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	out[i++] = '\'';
	for (p = word; *p; p++) {
		if (*p == '\'') {
			memcpy(out + i, "'\\''", 4);
			i += 4;
		} else {
			out[i++] = *p;
		}
	}
	out[i++] = '\'';
	out[i] = '\0';
	return out;
}
