/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A client of the RouterOS API, the protocol MikroTik RouterOS serves on TCP
 * port 8728 and, inside TLS, on 8729.
 *
 * Framing is pure (no I/O, unit-tested): a word is its length, encoded in 1
 * to 5 bytes, then its bytes; a sentence is words ended by an empty word.
 * The first word of a sentence the client sends is a command
 * ("/interface/ethernet/print"), the others are attributes ("=mtu=9000"),
 * API attributes (".tag=3") or queries. The switch answers every command
 * with !re (one row) sentences, !trap (the command failed), !empty (no rows,
 * RouterOS 7.18 and later) and finally !done; !fatal means it is closing the
 * connection.
 *
 * The connection adds TCP with a deadline on connect and on every reply,
 * TLS through OpenSSL, the login of RouterOS 6.43 and later, and a tag on
 * every command so that a reply is only ever taken for its own command.
 */
#ifndef SPARKPERF_CTL_ROUTEROS_H
#define SPARKPERF_CTL_ROUTEROS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_ROS_PORT 8728
#define SP_ROS_TLS_PORT 8729

/* ---- framing (pure) ----------------------------------------------------- */

/* A length takes 1 to 5 bytes. */
#define SP_ROS_LEN_BYTES_MAX 5

/*
 * Limits on what a switch may send: RouterOS words and replies are small,
 * and a peer that claims a 4 GiB word must not make us allocate it.
 */
#define SP_ROS_WORD_MAX (1U << 20)
#define SP_ROS_SENTENCE_WORDS_MAX 4096

/*
 * Writes the encoding of len into out, big-endian: < 0x80 one byte,
 * < 0x4000 two (| 0x8000), < 0x200000 three (| 0xC00000), < 0x10000000
 * four (| 0xE0000000), else 0xF0 and four bytes. Returns the byte count.
 */
size_t sp_ros_len_encode(uint32_t len, uint8_t out[SP_ROS_LEN_BYTES_MAX]);

/*
 * Reads a length from the avail bytes at buf: 0 with *len and *used (bytes
 * taken) set, -EAGAIN when more bytes are needed, -EPROTO for a first byte of
 * 0xF8 or more (reserved control bytes), -EMSGSIZE for 0xF1 to 0xF7 (lengths
 * over 32 bits).
 */
int sp_ros_len_decode(const uint8_t *buf, size_t avail, uint32_t *len, size_t *used);

/* A sentence: words[0 .. n-1], each a NUL-terminated copy. */
struct sp_ros_sentence {
	char **words;
	size_t n;
};

/* Appends one word, formatted. 0 or -ENOMEM. */
int sp_ros_sentence_add(struct sp_ros_sentence *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends the words of a NULL-terminated array. 0 or -ENOMEM. */
int sp_ros_sentence_add_words(struct sp_ros_sentence *s, const char *const *words);
/* Such an array: SP_ROS_WORDS("/export", "=file=x") */
#define SP_ROS_WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* Frees the words, zeroed first: a login sentence holds a password. */
void sp_ros_sentence_free(struct sp_ros_sentence *s);

/* A growing byte buffer. */
struct sp_ros_buf {
	uint8_t *data;
	size_t len, cap;
};

/* Appends the encoding of s (its words, then the empty word). 0 or -ENOMEM. */
int sp_ros_encode(struct sp_ros_buf *b, const struct sp_ros_sentence *s);
/* Frees the buffer, zeroed first. */
void sp_ros_buf_free(struct sp_ros_buf *b);

/* Bytes in, sentences out: the bytes may arrive split anywhere. */
struct sp_ros_decoder {
	struct sp_ros_buf in;
	size_t pos;		/* first byte not yet decoded */
};

int sp_ros_decoder_feed(struct sp_ros_decoder *d, const void *data, size_t len);
/*
 * The next complete sentence into *out (empty sentences are skipped): 1, or
 * 0 when more bytes are needed, -EPROTO (a control byte), -EMSGSIZE (a word
 * or sentence over the limits above), -ENOMEM.
 */
int sp_ros_decoder_next(struct sp_ros_decoder *d, struct sp_ros_sentence *out);
void sp_ros_decoder_free(struct sp_ros_decoder *d);

/* ---- replies (pure) ----------------------------------------------------- */

enum sp_ros_reply {
	SP_ROS_RE,
	SP_ROS_DONE,
	SP_ROS_TRAP,
	SP_ROS_FATAL,
	SP_ROS_EMPTY,
	SP_ROS_UNKNOWN,
};

enum sp_ros_reply sp_ros_reply_type(const struct sp_ros_sentence *s);

/*
 * The value of the attribute word "=name=value" (the value may hold '='),
 * or NULL. API attributes are named with their dot: sp_ros_attr(s, ".id").
 */
const char *sp_ros_attr(const struct sp_ros_sentence *s, const char *name);

/* The value of the ".tag=" word, or NULL. */
const char *sp_ros_tag(const struct sp_ros_sentence *s);

/* The whole reply to one command. */
struct sp_ros_result {
	struct sp_ros_sentence *rows;	/* the !re sentences, in order */
	size_t n_rows;
	char *ret;	/* "=ret=" of !done (add: the new row's .id), or NULL */
	char *trap;	/* "=message=" of the first !trap: the command failed */
	char *fatal;	/* the reason of a !fatal: the connection is closing */
};

/*
 * Adds one reply sentence, taking its words (s is emptied): 1 when the
 * reply is complete (!done, or !fatal), 0 when more is to come, -ENOMEM.
 */
int sp_ros_result_add(struct sp_ros_result *r, struct sp_ros_sentence *s);
void sp_ros_result_free(struct sp_ros_result *r);

/* ---- connection --------------------------------------------------------- */

struct ssl_ctx_st;
struct ssl_st;

struct sp_ros_tls {
	bool on;		/* false: plain TCP, the password in clear text */
	bool verify;		/* check the certificate and that it names the host */
	const char *ca_file;	/* PEM CA certificates; NULL: the system's store */
};

struct sp_ros_conn {
	int fd;			/* -1: closed */
	struct ssl_ctx_st *ssl_ctx;
	struct ssl_st *ssl;
	struct sp_ros_decoder dec;
	uint32_t timeout_ms;	/* connect, TLS handshake, and each reply */
	unsigned int tag;	/* of the last command sent */
	char where[300];	/* "switch HOST port N", for messages */
	char err[512];		/* the last failure, a sentence */
};

void sp_ros_init(struct sp_ros_conn *c);

/*
 * Connects to host (a name or an address) within timeout_ms, and starts TLS
 * when tls->on. Ignores SIGPIPE for the process: a switch that goes away
 * must be an error, not the end of the tool. 0, or a negative errno with
 * c->err set: -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH ..., -ENOENT (no such
 * host), -EKEYREJECTED (the certificate was not accepted), -EPROTO (any
 * other TLS failure).
 */
int sp_ros_connect(struct sp_ros_conn *c, const char *host, uint16_t port,
		   const struct sp_ros_tls *tls, uint32_t timeout_ms);

/*
 * The login of RouterOS 6.43 and later: the name and password in one /login.
 * -EACCES when refused (c->err holds the switch's message, never the
 * password), -EPROTONOSUPPORT for a switch that asks for the older
 * challenge login, or an error of sp_ros_call().
 */
int sp_ros_login(struct sp_ros_conn *c, const char *user, const char *password);

/*
 * Sends cmd with a fresh tag and collects its reply into *res (which must be
 * zeroed): 0 once !done came, also when the command failed (res->trap).
 * A negative errno when the connection failed (-ECONNRESET: closed by the
 * switch, or !fatal; -ETIMEDOUT: no complete reply within the timeout;
 * -EPROTO: not the RouterOS API): c->err says what happened, the
 * connection is closed, and res holds what came before.
 */
int sp_ros_call(struct sp_ros_conn *c, const struct sp_ros_sentence *cmd,
		struct sp_ros_result *res);

/* Closes the connection (TLS close_notify first, when it is up). */
void sp_ros_close(struct sp_ros_conn *c);

#endif
