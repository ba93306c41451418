// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

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
	static const struct {
		const char *word;
		enum sp_ros_reply type;
	} types[] = {
		{ "!re", SP_ROS_RE },
		{ "!done", SP_ROS_DONE },
		{ "!trap", SP_ROS_TRAP },
		{ "!fatal", SP_ROS_FATAL },
		{ "!empty", SP_ROS_EMPTY },
	};
	size_t i;

	for (i = 0; s->n && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(s->words[0], types[i].word))
			return types[i].type;
	return SP_ROS_UNKNOWN;
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
	size_t i;

	for (i = 0; i < r->n_rows; i++)
		sp_ros_sentence_free(&r->rows[i]);
	free(r->rows);
	free(r->ret);
	free(r->trap);
	free(r->fatal);
	memset(r, 0, sizeof(*r));
}

/* ---- connection --------------------------------------------------------- */

void sp_ros_init(struct sp_ros_conn *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int set_err(struct sp_ros_conn *c, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int set_err(struct sp_ros_conn *c, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return error;
}

/* Waits until fd is ready for events: 0, -ETIMEDOUT past deadline, -errno. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int64_t left;
	int ret;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ret = poll(&pfd, 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (ret > 0)
			return 0;
		if (!ret)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* One non-blocking connect() to ai within the deadline: 0 or -errno. */
static int connect_one(const struct addrinfo *ai, int64_t deadline, int *out)
{
	socklen_t len = sizeof(int);
	int fd, ret, err = 0, one = 1;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
		goto done;
	if (errno != EINPROGRESS) {
		ret = -errno;
		goto fail;
	}
	ret = wait_fd(fd, POLLOUT, deadline);
	if (ret)
		goto fail;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) || err) {
		ret = err ? -err : -errno;
		goto fail;
	}
done:
	/* commands are small and each waits for its reply */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*out = fd;
	return 0;
fail:
	close(fd);
	return ret;
}

static int tcp_connect(struct sp_ros_conn *c, const char *host, uint16_t port, int64_t deadline)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG };
	struct addrinfo *res, *ai;
	char service[8];
	int ret, gai;

	snprintf(service, sizeof(service), "%u", port);
	gai = getaddrinfo(host, service, &hints, &res);
	if (gai)
		return set_err(c, -ENOENT, "cannot resolve %s: %s", c->where, gai_strerror(gai));
	ret = -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		ret = connect_one(ai, deadline, &c->fd);
		if (!ret)
			break;
	}
	freeaddrinfo(res);
	if (ret == -ETIMEDOUT)
		return set_err(c, ret, "cannot connect to %s: no answer within %u ms", c->where,
			       c->timeout_ms);
	if (ret)
		return set_err(c, ret, "cannot connect to %s: %s", c->where, strerror(-ret));
	return 0;
}

/*
 * Waits for what an OpenSSL call that returned n needs: 0 to retry it,
 * 1 at a clean end of the stream, or a negative errno.
 */
static int ssl_wait(struct sp_ros_conn *c, int n, int64_t deadline)
{
	switch (SSL_get_error(c->ssl, n)) {
	case SSL_ERROR_WANT_READ:
		return wait_fd(c->fd, POLLIN, deadline);
	case SSL_ERROR_WANT_WRITE:
		return wait_fd(c->fd, POLLOUT, deadline);
	case SSL_ERROR_ZERO_RETURN:
		return 1;
	case SSL_ERROR_SYSCALL:
		return errno ? -errno : 1;
	default:
		return -EPROTO;
	}
}

/* The first queued OpenSSL error, or "unknown error". */
static const char *ssl_error(char *buf, size_t len)
{
	unsigned long e = ERR_get_error();

	if (!e)
		return "unknown error";
	ERR_error_string_n(e, buf, len);
	ERR_clear_error();
	return buf;
}

static int tls_configure(struct sp_ros_conn *c, const char *host, const struct sp_ros_tls *tls)
{
	char buf[256];
	unsigned char ip[16];

	c->ssl_ctx = SSL_CTX_new(TLS_client_method());
	if (!c->ssl_ctx)
		return set_err(c, -ENOMEM, "TLS setup failed: %s", ssl_error(buf, sizeof(buf)));
	SSL_CTX_set_min_proto_version(c->ssl_ctx, TLS1_2_VERSION);
	/* RouterOS may close TCP without a TLS close_notify: that is an end, not an attack */
	SSL_CTX_set_options(c->ssl_ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
	if (tls->verify) {
		SSL_CTX_set_verify(c->ssl_ctx, SSL_VERIFY_PEER, NULL);
		if (tls->ca_file ? !SSL_CTX_load_verify_locations(c->ssl_ctx, tls->ca_file, NULL)
				 : !SSL_CTX_set_default_verify_paths(c->ssl_ctx))
			return set_err(c, -EINVAL, "cannot load the CA certificates%s%s: %s",
				       tls->ca_file ? " of " : "", tls->ca_file ? tls->ca_file : "",
				       ssl_error(buf, sizeof(buf)));
	} else {
		/*
		 * api-ssl without a certificate speaks anonymous Diffie-Hellman
		 * only, which OpenSSL offers at security level 0 alone.
		 */
		SSL_CTX_set_verify(c->ssl_ctx, SSL_VERIFY_NONE, NULL);
		SSL_CTX_set_security_level(c->ssl_ctx, 0);
		SSL_CTX_set_cipher_list(c->ssl_ctx, "HIGH:@SECLEVEL=0");
	}
	c->ssl = SSL_new(c->ssl_ctx);
	if (!c->ssl || !SSL_set_fd(c->ssl, c->fd))
		return set_err(c, -ENOMEM, "TLS setup failed: %s", ssl_error(buf, sizeof(buf)));
	if (inet_pton(AF_INET, host, ip) != 1 && inet_pton(AF_INET6, host, ip) != 1) {
		SSL_set_tlsext_host_name(c->ssl, host);
		if (tls->verify)
			SSL_set1_host(c->ssl, host);
	} else if (tls->verify) {
		X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl), host);
	}
	return 0;
}

static int tls_handshake(struct sp_ros_conn *c, int64_t deadline)
{
	char buf[256];
	long verify;
	int n, ret;

	for (;;) {
		ERR_clear_error();
		errno = 0;
		n = SSL_connect(c->ssl);
		if (n == 1)
			return 0;
		ret = ssl_wait(c, n, deadline);
		if (ret)
			break;
	}
	verify = SSL_get_verify_result(c->ssl);
	if (SSL_get_verify_mode(c->ssl) != SSL_VERIFY_NONE && verify != X509_V_OK)
		return set_err(c, -EKEYREJECTED,
			       "TLS handshake with %s failed: its certificate was not accepted: %s",
			       c->where, X509_verify_cert_error_string(verify));
	if (ret == -ETIMEDOUT)
		return set_err(c, ret, "TLS handshake with %s failed: no answer within %u ms",
			       c->where, c->timeout_ms);
	if (ret == 1)
		return set_err(c, -EPROTO, "TLS handshake with %s failed: the switch closed the "
			       "connection (is api-ssl enabled on this port?)", c->where);
	return set_err(c, -EPROTO, "TLS handshake with %s failed: %s", c->where,
		       ret == -EPROTO ? ssl_error(buf, sizeof(buf)) : strerror(-ret));
}

int sp_ros_connect(struct sp_ros_conn *c, const char *host, uint16_t port,
		   const struct sp_ros_tls *tls, uint32_t timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int ret;

	signal(SIGPIPE, SIG_IGN);
	sp_ros_init(c);
	c->timeout_ms = timeout_ms;
	snprintf(c->where, sizeof(c->where), "switch %s port %u", host, port);
	ret = tcp_connect(c, host, port, deadline);
	if (!ret && tls->on) {
		ret = tls_configure(c, host, tls);
		if (!ret)
			ret = tls_handshake(c, deadline);
	}
	if (ret)
		sp_ros_close(c);
	return ret;
}

/* Sends all of buf: 0 or a negative errno. */
static int conn_write(struct sp_ros_conn *c, const uint8_t *buf, size_t len, int64_t deadline)
{
	ssize_t n;
	int ret;

	while (len) {
		if (c->ssl) {
			ERR_clear_error();
			errno = 0;
			n = SSL_write(c->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
			if (n <= 0) {
				ret = ssl_wait(c, (int)n, deadline);
				if (ret)
					return ret == 1 ? -ECONNRESET : ret;
				continue;
			}
		} else {
			n = send(c->fd, buf, len, MSG_NOSIGNAL);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno != EAGAIN)
					return -errno;
				ret = wait_fd(c->fd, POLLOUT, deadline);
				if (ret)
					return ret;
				continue;
			}
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reads what is there (at least a byte): its length, 0 at the end, -errno. */
static ssize_t conn_read(struct sp_ros_conn *c, uint8_t *buf, size_t len, int64_t deadline)
{
	ssize_t n;
	int ret;

	for (;;) {
		if (c->ssl) {
			ERR_clear_error();
			errno = 0;
			n = SSL_read(c->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
			if (n > 0)
				return n;
			ret = ssl_wait(c, (int)n, deadline);
			if (ret)
				return ret == 1 ? 0 : ret;
		} else {
			n = recv(c->fd, buf, len, 0);
			if (n >= 0)
				return n;
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -errno;
			ret = wait_fd(c->fd, POLLIN, deadline);
			if (ret)
				return ret;
		}
	}
}

/* The connection failed: closes it and says why. */
static int lost(struct sp_ros_conn *c, int error, const char *cmd)
{
	if (error == -ETIMEDOUT)
		set_err(c, error, "no reply from %s to %s within %u ms", c->where, cmd,
			c->timeout_ms);
	else if (error == -EPROTO || error == -EMSGSIZE)
		set_err(c, -EPROTO, "%s sent something that is not the RouterOS API in reply "
			"to %s", c->where, cmd);
	else if (error == -ECONNRESET || error == -EPIPE)
		set_err(c, -ECONNRESET, "%s closed the connection during %s", c->where, cmd);
	else
		set_err(c, error, "connection to %s failed during %s: %s", c->where, cmd,
			strerror(-error));
	sp_ros_close(c);
	return error == -EPIPE ? -ECONNRESET : error == -EMSGSIZE ? -EPROTO : error;
}

/* Reads sentences into res until the reply to tag is complete. */
static int read_reply(struct sp_ros_conn *c, const char *tag, struct sp_ros_result *res,
		      int64_t deadline)
{
	struct sp_ros_sentence s;
	uint8_t buf[4096];
	const char *t;
	ssize_t n;
	int ret;

	for (;;) {
		ret = sp_ros_decoder_next(&c->dec, &s);
		if (ret < 0)
			return ret;
		if (ret == 1) {
			t = sp_ros_tag(&s);
			/* one command at a time: untagged replies are ours too */
			if (t && strcmp(t, tag)) {
				sp_ros_sentence_free(&s);
				continue;
			}
			ret = sp_ros_result_add(res, &s);
			if (ret)
				return ret < 0 ? ret : 0;
			continue;
		}
		n = conn_read(c, buf, sizeof(buf), deadline);
		if (n < 0)
			return (int)n;
		if (!n)
			return -ECONNRESET;
		ret = sp_ros_decoder_feed(&c->dec, buf, (size_t)n);
		if (ret)
			return ret;
	}
}

int sp_ros_call(struct sp_ros_conn *c, const struct sp_ros_sentence *cmd,
		struct sp_ros_result *res)
{
	int64_t deadline = now_ms() + c->timeout_ms;
	struct sp_ros_sentence tagged;
	struct sp_ros_buf out = { 0 };
	char tag[16], tag_word[24];
	int ret;

	if (c->fd < 0)
		return set_err(c, -ENOTCONN, "not connected to %s", c->where);
	snprintf(tag, sizeof(tag), "%u", ++c->tag);
	snprintf(tag_word, sizeof(tag_word), ".tag=%s", tag);
	/* the command's own words, not copied, and the tag */
	tagged.n = cmd->n + 1;
	tagged.words = calloc(tagged.n, sizeof(*tagged.words));
	if (!tagged.words)
		return set_err(c, -ENOMEM, "out of memory");
	memcpy(tagged.words, cmd->words, cmd->n * sizeof(*cmd->words));
	tagged.words[cmd->n] = tag_word;
	ret = sp_ros_encode(&out, &tagged);
	free(tagged.words);
	if (!ret)
		ret = conn_write(c, out.data, out.len, deadline);
	sp_ros_buf_free(&out);
	if (!ret)
		ret = read_reply(c, tag, res, deadline);
	if (ret)
		return lost(c, ret, cmd->n ? cmd->words[0] : "an empty command");
	if (res->fatal) {
		set_err(c, -ECONNRESET, "%s ended the session: %s", c->where, res->fatal);
		sp_ros_close(c);
		return -ECONNRESET;
	}
	return 0;
}

int sp_ros_login(struct sp_ros_conn *c, const char *user, const char *password)
{
	struct sp_ros_sentence login = { 0 };
	struct sp_ros_result res = { 0 };
	int ret;

	ret = sp_ros_sentence_add(&login, "/login");
	if (!ret)
		ret = sp_ros_sentence_add(&login, "=name=%s", user);
	if (!ret)
		ret = sp_ros_sentence_add(&login, "=password=%s", password);
	if (ret) {
		sp_ros_sentence_free(&login);
		return set_err(c, ret, "out of memory");
	}
	ret = sp_ros_call(c, &login, &res);
	sp_ros_sentence_free(&login);
	if (!ret && res.trap)
		ret = set_err(c, -EACCES, "login as '%s' on %s refused: %s", user, c->where,
			      res.trap);
	else if (!ret && res.ret)
		/* the challenge of RouterOS before 6.43 */
		ret = set_err(c, -EPROTONOSUPPORT, "%s asked for the challenge login of RouterOS "
			      "before 6.43; upgrade it to RouterOS 7", c->where);
	sp_ros_result_free(&res);
	return ret;
}

void sp_ros_close(struct sp_ros_conn *c)
{
	if (c->ssl) {
		/* best effort, never blocking: the socket is non-blocking */
		if (SSL_is_init_finished(c->ssl))
			SSL_shutdown(c->ssl);
		SSL_free(c->ssl);
		c->ssl = NULL;
	}
	if (c->ssl_ctx) {
		SSL_CTX_free(c->ssl_ctx);
		c->ssl_ctx = NULL;
	}
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	sp_ros_decoder_free(&c->dec);
	ERR_clear_error();
}
