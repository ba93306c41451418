// SPDX-License-Identifier: GPL-2.0
/* The RouterOS API without I/O: framing of words and sentences, replies. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/model.h"
#include "lib/parse.h"
#include "routeros.h"

/* ---- framing ------------------------------------------------------------ */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A length below "below" takes n bytes, the first one marked with "mark". */
static const struct {
	uint32_t below, mark;
	size_t n;
} len_forms[] = {
	{ 0x80, 0x00, 1 },
	{ 0x4000, 0x8000, 2 },
	{ 0x200000, 0xC00000, 3 },
	{ 0x10000000, 0xE0000000, 4 },
};

size_t sp_ros_len_encode(uint32_t len, uint8_t out[SP_ROS_LEN_BYTES_MAX])
{
	uint64_t v = (uint64_t)0xF0 << 32 | len;	/* else: 0xF0 and four bytes */
	size_t n = 5, i;

	for (i = 0; i < ARRAY_SIZE(len_forms); i++) {
		if (len < len_forms[i].below) {
			v = len | len_forms[i].mark;
			n = len_forms[i].n;
			break;
		}
	}
	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	return n;
}

int sp_ros_len_decode(const uint8_t *buf, size_t avail, uint32_t *len, size_t *used)
{
	uint8_t first;
	uint64_t v = 0;
	size_t n, i;

	if (!avail)
		return -EAGAIN;
	first = buf[0];
	if (first >= 0xF8)
		return -EPROTO;
	if (first > 0xF0)
		return -EMSGSIZE;	/* a length over 32 bits */
	/* the leading one bits of the first byte count the bytes that follow */
	n = first < 0x80 ? 1 : first < 0xC0 ? 2 : first < 0xE0 ? 3 : first < 0xF0 ? 4 : 5;
	if (avail < n)
		return -EAGAIN;
	for (i = 0; i < n; i++)
		v = v << 8 | buf[i];
	/* drops the marking bits */
	*len = (uint32_t)(v & (n < 5 ? len_forms[n - 1].below - 1 : UINT32_MAX));
	*used = n;
	return 0;
}

static int add_word(struct sp_ros_sentence *s, char *word)
{
	char **words = realloc(s->words, (s->n + 1) * sizeof(*words));

	if (!words)
		return -ENOMEM;
	s->words = words;
	s->words[s->n++] = word;
	return 0;
}

int sp_ros_sentence_add(struct sp_ros_sentence *s, const char *fmt, ...)
{
	va_list ap;
	char *word;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&word, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	ret = add_word(s, word);
	if (ret)
		free(word);
	return ret;
}

int sp_ros_sentence_add_words(struct sp_ros_sentence *s, const char *const *words)
{
	int ret = 0;

	for (; !ret && *words; words++)
		ret = sp_ros_sentence_add(s, "%s", *words);
	return ret;
}

void sp_ros_sentence_free(struct sp_ros_sentence *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		explicit_bzero(s->words[i], strlen(s->words[i]));
		free(s->words[i]);
	}
	free(s->words);
	s->words = NULL;
	s->n = 0;
}

static int buf_reserve(struct sp_ros_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;
	uint8_t *data;

	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more)
		cap *= 2;
	/* not realloc: the old block may hold a password and must be zeroed */
	data = malloc(cap);
	if (!data)
		return -ENOMEM;
	if (b->len)
		memcpy(data, b->data, b->len);
	if (b->data) {
		explicit_bzero(b->data, b->cap);
		free(b->data);
	}
	b->data = data;
	b->cap = cap;
	return 0;
}

static int buf_add(struct sp_ros_buf *b, const void *data, size_t len)
{
	int ret = buf_reserve(b, len);

	if (ret)
		return ret;
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

int sp_ros_encode(struct sp_ros_buf *b, const struct sp_ros_sentence *s)
{
	uint8_t hdr[SP_ROS_LEN_BYTES_MAX];
	size_t i, n, len;
	int ret;

	for (i = 0; i < s->n; i++) {
		len = strlen(s->words[i]);
		if (len > UINT32_MAX)
			return -EMSGSIZE;
		n = sp_ros_len_encode((uint32_t)len, hdr);
		ret = buf_add(b, hdr, n);
		if (!ret)
			ret = buf_add(b, s->words[i], len);
		if (ret)
			return ret;
	}
	return buf_add(b, "", 1);
}

void sp_ros_buf_free(struct sp_ros_buf *b)
{
	if (b->data) {
		explicit_bzero(b->data, b->cap);
		free(b->data);
	}
	memset(b, 0, sizeof(*b));
}

int sp_ros_decoder_feed(struct sp_ros_decoder *d, const void *data, size_t len)
{
	/* drop what was decoded before growing */
	if (d->pos) {
		memmove(d->in.data, d->in.data + d->pos, d->in.len - d->pos);
		d->in.len -= d->pos;
		d->pos = 0;
	}
	return buf_add(&d->in, data, len);
}

int sp_ros_decoder_next(struct sp_ros_decoder *d, struct sp_ros_sentence *out)
{
	struct sp_ros_sentence s = { 0 };
	size_t pos = d->pos, used;
	uint32_t len;
	char *word;
	int ret;

	for (;;) {
		ret = sp_ros_len_decode(d->in.data + pos, d->in.len - pos, &len, &used);
		if (ret == -EAGAIN)
			break;
		if (ret)
			goto fail;
		if (!len) {
			pos += used;
			d->pos = pos;
			if (!s.n)	/* an empty sentence: ignored */
				continue;
			*out = s;
			return 1;
		}
		if (len > SP_ROS_WORD_MAX || s.n >= SP_ROS_SENTENCE_WORDS_MAX) {
			ret = -EMSGSIZE;
			goto fail;
		}
		if (d->in.len - pos - used < len)
			break;
		word = strndup((const char *)d->in.data + pos + used, len);
		if (!word || add_word(&s, word)) {
			free(word);
			ret = -ENOMEM;
			goto fail;
		}
		pos += used + len;
	}
	/* incomplete: decoded again from d->pos once more bytes came */
	ret = 0;
fail:
	sp_ros_sentence_free(&s);
	return ret;
}

void sp_ros_decoder_free(struct sp_ros_decoder *d)
{
	sp_ros_buf_free(&d->in);
	d->pos = 0;
}

/* ---- replies ------------------------------------------------------------ */

enum sp_ros_reply sp_ros_reply_type(const struct sp_ros_sentence *s)
{
	static const char *const words[] = {
		[SP_ROS_RE] = "!re",
		[SP_ROS_DONE] = "!done",
		[SP_ROS_TRAP] = "!trap",
		[SP_ROS_FATAL] = "!fatal",
		[SP_ROS_EMPTY] = "!empty",
	};
	unsigned int type;

	if (!s->n || sp_enum_parse(words, sizeof(words) / sizeof(words[0]), s->words[0], &type))
		return SP_ROS_UNKNOWN;
	return (enum sp_ros_reply)type;
}

const char *sp_ros_attr(const struct sp_ros_sentence *s, const char *name)
{
	size_t len = strlen(name), i;

	for (i = 1; i < s->n; i++) {
		const char *w = s->words[i];

		if (w[0] == '=' && !strncmp(w + 1, name, len) && w[1 + len] == '=')
			return w + len + 2;
	}
	return NULL;
}

const char *sp_ros_tag(const struct sp_ros_sentence *s)
{
	size_t i;

	for (i = 1; i < s->n; i++)
		if (!strncmp(s->words[i], ".tag=", 5))
			return s->words[i] + 5;
	return NULL;
}

/* Copies *dst = value once: the first trap or !done value wins. */
static int keep_first(char **dst, const char *value)
{
	if (*dst || !value)
		return 0;
	*dst = strdup(value);
	return *dst ? 0 : -ENOMEM;
}

/* The reason of a !fatal: its first word that is not an attribute. */
static const char *fatal_reason(const struct sp_ros_sentence *s)
{
	size_t i;

	for (i = 1; i < s->n; i++)
		if (s->words[i][0] != '=' && s->words[i][0] != '.')
			return s->words[i];
	return "no reason given";
}

int sp_ros_result_add(struct sp_ros_result *r, struct sp_ros_sentence *s)
{
	struct sp_ros_sentence *rows;
	int ret = 0;

	switch (sp_ros_reply_type(s)) {
	case SP_ROS_RE:
		rows = realloc(r->rows, (r->n_rows + 1) * sizeof(*rows));
		if (!rows) {
			ret = -ENOMEM;
			break;
		}
		r->rows = rows;
		r->rows[r->n_rows++] = *s;
		memset(s, 0, sizeof(*s));
		return 0;
	case SP_ROS_DONE:
		ret = keep_first(&r->ret, sp_ros_attr(s, "ret"));
		if (!ret)
			ret = 1;
		break;
	case SP_ROS_TRAP:
		/* a trap without a message still marks the command as failed */
		ret = keep_first(&r->trap, sp_ros_attr(s, "message") ?: "failure (no message)");
		break;
	case SP_ROS_FATAL:
		ret = keep_first(&r->fatal, fatal_reason(s));
		if (!ret)
			ret = 1;
		break;
	case SP_ROS_EMPTY:	/* no rows; !done follows */
	case SP_ROS_UNKNOWN:	/* a reply type from a newer RouterOS: skipped */
		break;
	}
	sp_ros_sentence_free(s);
	return ret;
}

void sp_ros_result_free(struct sp_ros_result *r)
{
	SP_ARRAY_RELEASE(r->rows, r->n_rows, sp_ros_sentence_free);
	free(r->ret);
	free(r->trap);
	free(r->fatal);
	memset(r, 0, sizeof(*r));
}
