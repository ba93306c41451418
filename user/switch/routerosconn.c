// SPDX-License-Identifier: GPL-2.0
/* The connection to a RouterOS API: TCP with deadlines, TLS, tagged commands, login. */
#include <arpa/inet.h>
#include <errno.h>
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

/*
 * One send of out, or one read into in (the other NULL), of up to len bytes
 * once the socket is ready: the bytes moved, 0 at the end of the stream, or
 * a negative errno.
 */
static ssize_t conn_io(struct sp_ros_conn *c, const uint8_t *out, uint8_t *in, size_t len,
		       int64_t deadline)
{
	int chunk = len > INT32_MAX ? INT32_MAX : (int)len;
	ssize_t n;
	int ret;

	for (;;) {
		if (c->ssl) {
			ERR_clear_error();
			errno = 0;
			n = out ? SSL_write(c->ssl, out, chunk) : SSL_read(c->ssl, in, chunk);
			if (n > 0)
				return n;
			ret = ssl_wait(c, (int)n, deadline);
			if (ret)
				return ret == 1 ? 0 : ret;
		} else {
			n = out ? send(c->fd, out, len, MSG_NOSIGNAL) : recv(c->fd, in, len, 0);
			if (n >= 0)
				return n;
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -errno;
			ret = wait_fd(c->fd, out ? POLLOUT : POLLIN, deadline);
			if (ret)
				return ret;
		}
	}
}

/* Sends all of buf: 0 or a negative errno. */
static int conn_write(struct sp_ros_conn *c, const uint8_t *buf, size_t len, int64_t deadline)
{
	ssize_t n;

	while (len) {
		n = conn_io(c, buf, NULL, len, deadline);
		if (n <= 0)
			return n ? (int)n : -ECONNRESET;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
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
		n = conn_io(c, NULL, buf, sizeof(buf), deadline);
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
