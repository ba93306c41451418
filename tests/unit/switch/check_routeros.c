// SPDX-License-Identifier: GPL-2.0
/* The RouterOS API client: framing and replies (routeros.c), one connection (routerosconn.c). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "switch/routeros.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Every length at a boundary of the encoding, and its bytes. */
static const struct {
	uint32_t len;
	size_t n;
	uint8_t bytes[SP_ROS_LEN_BYTES_MAX];
} lengths[] = {
	{ 0, 1, { 0x00 } },
	{ 0x7F, 1, { 0x7F } },
	{ 0x80, 2, { 0x80, 0x80 } },
	{ 0x3FFF, 2, { 0xBF, 0xFF } },
	{ 0x4000, 3, { 0xC0, 0x40, 0x00 } },
	{ 0x1FFFFF, 3, { 0xDF, 0xFF, 0xFF } },
	{ 0x200000, 4, { 0xE0, 0x20, 0x00, 0x00 } },
	{ 0xFFFFFFF, 4, { 0xEF, 0xFF, 0xFF, 0xFF } },
	{ 0x10000000, 5, { 0xF0, 0x10, 0x00, 0x00, 0x00 } },
	{ 0xFFFFFFFF, 5, { 0xF0, 0xFF, 0xFF, 0xFF, 0xFF } },
};

START_TEST(test_len_encode)
{
	uint8_t out[SP_ROS_LEN_BYTES_MAX];
	size_t n;

	n = sp_ros_len_encode(lengths[_i].len, out);
	ck_assert_uint_eq(n, lengths[_i].n);
	ck_assert_mem_eq(out, lengths[_i].bytes, n);
}
END_TEST

START_TEST(test_len_decode)
{
	uint8_t buf[SP_ROS_LEN_BYTES_MAX + 2];
	size_t n = lengths[_i].n, used = 99, cut;
	uint32_t len = 7;

	/* followed by more bytes: only the length is taken */
	memcpy(buf, lengths[_i].bytes, n);
	memset(buf + n, 0x41, 2);
	ck_assert_int_eq(sp_ros_len_decode(buf, n + 2, &len, &used), 0);
	ck_assert_uint_eq(len, lengths[_i].len);
	ck_assert_uint_eq(used, n);
	/* every shorter prefix asks for more */
	for (cut = 0; cut < n; cut++)
		ck_assert_int_eq(sp_ros_len_decode(buf, cut, &len, &used), -EAGAIN);
}
END_TEST

START_TEST(test_len_control_bytes)
{
	uint8_t buf[SP_ROS_LEN_BYTES_MAX] = { 0 };
	uint32_t len;
	size_t used;
	int b;

	for (b = 0xF8; b <= 0xFF; b++) {
		buf[0] = (uint8_t)b;
		ck_assert_int_eq(sp_ros_len_decode(buf, sizeof(buf), &len, &used), -EPROTO);
	}
	for (b = 0xF1; b <= 0xF7; b++) {
		buf[0] = (uint8_t)b;
		ck_assert_int_eq(sp_ros_len_decode(buf, sizeof(buf), &len, &used), -EMSGSIZE);
	}
}
END_TEST

/* A sentence of the NULL-terminated words. */
static void sentence_of(struct sp_ros_sentence *s, const char *const *words)
{
	memset(s, 0, sizeof(*s));
	ck_assert_int_eq(sp_ros_sentence_add_words(s, words), 0);
}

START_TEST(test_encode_sentence)
{
	static const uint8_t want[] = {
		6, '/', 'l', 'o', 'g', 'i', 'n',
		11, '=', 'n', 'a', 'm', 'e', '=', 'a', 'd', 'm', 'i', 'n',
		10, '=', 'p', 'a', 's', 's', 'w', 'o', 'r', 'd', '=',
		0,
	};
	struct sp_ros_sentence s;
	struct sp_ros_buf b = { 0 };

	sentence_of(&s, SP_ROS_WORDS("/login", "=name=admin", "=password="));
	ck_assert_int_eq(sp_ros_encode(&b, &s), 0);
	ck_assert_uint_eq(b.len, sizeof(want));
	ck_assert_mem_eq(b.data, want, sizeof(want));
	sp_ros_sentence_free(&s);
	sp_ros_buf_free(&b);
}
END_TEST

/* A word of len bytes: 'a', 'b', ... 'z', 'a', ... */
static char *long_word(size_t len)
{
	char *w = malloc(len + 1);
	size_t i;

	ck_assert_ptr_nonnull(w);
	for (i = 0; i < len; i++)
		w[i] = (char)('a' + i % 26);
	w[len] = '\0';
	return w;
}

START_TEST(test_decode_split_anywhere)
{
	/* words whose lengths take 1, 2 and 3 bytes, at the boundaries */
	static const size_t lens[] = { 3, 0x7F, 0x80, 0x3FFF, 0x4000, 1 };
	struct sp_ros_sentence s = { 0 }, got;
	struct sp_ros_decoder d = { 0 };
	struct sp_ros_buf b = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		char *w = long_word(lens[i]);

		ck_assert_int_eq(sp_ros_sentence_add(&s, "%s", w), 0);
		free(w);
	}
	ck_assert_int_eq(sp_ros_encode(&b, &s), 0);
	/* one byte at a time: nothing until the last byte */
	for (i = 0; i < b.len; i++) {
		ck_assert_int_eq(sp_ros_decoder_feed(&d, b.data + i, 1), 0);
		ck_assert_int_eq(sp_ros_decoder_next(&d, &got), i + 1 == b.len ? 1 : 0);
	}
	ck_assert_uint_eq(got.n, s.n);
	for (i = 0; i < s.n; i++)
		ck_assert_str_eq(got.words[i], s.words[i]);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &got), 0);
	sp_ros_sentence_free(&got);
	sp_ros_sentence_free(&s);
	sp_ros_buf_free(&b);
	sp_ros_decoder_free(&d);
}
END_TEST

START_TEST(test_decode_several_and_empty)
{
	/* "!re =a=1", an empty sentence (ignored), "!done" */
	static const uint8_t bytes[] = {
		3, '!', 'r', 'e', 4, '=', 'a', '=', '1', 0,
		0,
		5, '!', 'd', 'o', 'n', 'e', 0,
	};
	struct sp_ros_decoder d = { 0 };
	struct sp_ros_sentence s;

	ck_assert_int_eq(sp_ros_decoder_feed(&d, bytes, sizeof(bytes)), 0);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &s), 1);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.words[1], "=a=1");
	sp_ros_sentence_free(&s);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &s), 1);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_str_eq(s.words[0], "!done");
	sp_ros_sentence_free(&s);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &s), 0);
	sp_ros_decoder_free(&d);
}
END_TEST

START_TEST(test_decode_refuses)
{
	/* a 2 MiB word (over the limit), announced only */
	static const uint8_t big[] = { 3, '!', 'r', 'e', 0xE0, 0x20, 0x00, 0x00 };
	static const uint8_t control[] = { 3, '!', 'r', 'e', 0xF8 };
	struct sp_ros_decoder d = { 0 };
	struct sp_ros_sentence s;

	ck_assert_int_eq(sp_ros_decoder_feed(&d, big, sizeof(big)), 0);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &s), -EMSGSIZE);
	sp_ros_decoder_free(&d);
	ck_assert_int_eq(sp_ros_decoder_feed(&d, control, sizeof(control)), 0);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &s), -EPROTO);
	sp_ros_decoder_free(&d);
}
END_TEST

/* The attributes of one row: a name and its value, NULL when absent. */
static const struct {
	const char *name, *value;
} attrs[] = {
	{ "name", "qsfp56-dd-1-1" }, { "comment", "a=b=c" }, { "empty", "" }, { ".id", "*1A" },
	{ "nam", NULL }, { "missing", NULL }, { "!re", NULL }, { ".tag", NULL },
};

START_TEST(test_attributes)
{
	struct sp_ros_sentence s;
	const char *v;

	sentence_of(&s, SP_ROS_WORDS("!re", "=name=qsfp56-dd-1-1", "=comment=a=b=c", "=empty=",
				     ".tag=7", "=.id=*1A"));
	v = sp_ros_attr(&s, attrs[_i].name);
	if (attrs[_i].value)
		ck_assert_str_eq(v, attrs[_i].value);
	else
		ck_assert_ptr_null(v);
	ck_assert_str_eq(sp_ros_tag(&s), "7");
	sp_ros_sentence_free(&s);
}
END_TEST

START_TEST(test_reply_types)
{
	static const struct {
		const char *word;
		enum sp_ros_reply type;
	} types[] = {
		{ "!re", SP_ROS_RE }, { "!done", SP_ROS_DONE }, { "!trap", SP_ROS_TRAP },
		{ "!fatal", SP_ROS_FATAL }, { "!empty", SP_ROS_EMPTY }, { "!new", SP_ROS_UNKNOWN },
		{ "=x=1", SP_ROS_UNKNOWN },
	};
	struct sp_ros_sentence s = { 0 };
	size_t i;

	ck_assert_int_eq(sp_ros_reply_type(&s), SP_ROS_UNKNOWN);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		sentence_of(&s, SP_ROS_WORDS(types[i].word));
		ck_assert_int_eq(sp_ros_reply_type(&s), types[i].type);
		sp_ros_sentence_free(&s);
	}
}
END_TEST

/* Adds a reply sentence of the words to r; returns what add says. */
#define reply(r, ...) reply_words(r, SP_ROS_WORDS(__VA_ARGS__))
static int reply_words(struct sp_ros_result *r, const char *const *words)
{
	struct sp_ros_sentence s;
	int ret;

	sentence_of(&s, words);
	ret = sp_ros_result_add(r, &s);
	ck_assert_uint_eq(s.n, 0);	/* always taken */
	return ret;
}

START_TEST(test_result_rows)
{
	struct sp_ros_result r = { 0 };

	ck_assert_int_eq(reply(&r, "!re", "=name=a"), 0);
	ck_assert_int_eq(reply(&r, "!re", "=name=b"), 0);
	ck_assert_int_eq(reply(&r, "!done", "=ret=*9"), 1);
	ck_assert_uint_eq(r.n_rows, 2);
	ck_assert_str_eq(sp_ros_attr(&r.rows[1], "name"), "b");
	ck_assert_str_eq(r.ret, "*9");
	ck_assert_ptr_null(r.trap);
	ck_assert_ptr_null(r.fatal);
	sp_ros_result_free(&r);
}
END_TEST

START_TEST(test_result_trap)
{
	struct sp_ros_result r = { 0 };

	ck_assert_int_eq(reply(&r, "!trap", "=category=1", "=message=input does not match any "
			       "value of fec-mode"), 0);
	ck_assert_int_eq(reply(&r, "!trap", "=message=a second trap"), 0);
	ck_assert_int_eq(reply(&r, "!done"), 1);
	ck_assert_str_eq(r.trap, "input does not match any value of fec-mode");
	sp_ros_result_free(&r);

	ck_assert_int_eq(reply(&r, "!trap"), 0);
	ck_assert_int_eq(reply(&r, "!done"), 1);
	ck_assert_str_eq(r.trap, "failure (no message)");
	sp_ros_result_free(&r);
}
END_TEST

START_TEST(test_result_empty_fatal_unknown)
{
	struct sp_ros_result r = { 0 };

	/* !empty (RouterOS 7.18) then !done: no rows */
	ck_assert_int_eq(reply(&r, "!empty"), 0);
	ck_assert_int_eq(reply(&r, "!newthing", "=x=1"), 0);
	ck_assert_int_eq(reply(&r, "!done"), 1);
	ck_assert_uint_eq(r.n_rows, 0);
	ck_assert_ptr_null(r.trap);
	sp_ros_result_free(&r);

	ck_assert_int_eq(reply(&r, "!fatal", "not logged in"), 1);
	ck_assert_str_eq(r.fatal, "not logged in");
	sp_ros_result_free(&r);
}
END_TEST

/* ---- one connection, over a socket pair --------------------------------- */

struct pair {
	struct sp_ros_conn c;
	int peer;
};

static void pair_open(struct pair *p, uint32_t timeout_ms)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
	sp_ros_init(&p->c);
	p->c.fd = sv[0];
	p->c.timeout_ms = timeout_ms;
	snprintf(p->c.where, sizeof(p->c.where), "switch test port 1");
	p->peer = sv[1];
}

/* The peer sends a sentence of the words. */
#define peer_send(p, ...) peer_send_words(p, SP_ROS_WORDS(__VA_ARGS__))
static void peer_send_words(struct pair *p, const char *const *words)
{
	struct sp_ros_sentence s;
	struct sp_ros_buf b = { 0 };

	sentence_of(&s, words);
	ck_assert_int_eq(sp_ros_encode(&b, &s), 0);
	ck_assert_int_eq(write(p->peer, b.data, b.len), (ssize_t)b.len);
	sp_ros_sentence_free(&s);
	sp_ros_buf_free(&b);
}

/* The client sent exactly the words. */
#define peer_got(p, ...) peer_got_words(p, SP_ROS_WORDS(__VA_ARGS__))
static void peer_got_words(struct pair *p, const char *const *words)
{
	struct sp_ros_decoder d = { 0 };
	struct sp_ros_sentence s;
	uint8_t buf[4096];
	ssize_t n;
	size_t i;

	n = read(p->peer, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(sp_ros_decoder_feed(&d, buf, (size_t)n), 0);
	ck_assert_int_eq(sp_ros_decoder_next(&d, &s), 1);
	for (i = 0; words[i]; i++) {
		ck_assert_uint_lt(i, s.n);
		ck_assert_str_eq(s.words[i], words[i]);
	}
	ck_assert_uint_eq(s.n, i);
	sp_ros_sentence_free(&s);
	sp_ros_decoder_free(&d);
}

START_TEST(test_call_tags)
{
	struct sp_ros_result res = { 0 };
	struct sp_ros_sentence cmd;
	struct pair p;

	pair_open(&p, 100);
	sentence_of(&cmd, SP_ROS_WORDS("/interface/ethernet/print", "=.proplist=name"));
	/* a late reply to another command is not taken */
	peer_send(&p, "!re", "=name=stale", ".tag=99");
	peer_send(&p, "!re", "=name=qsfp56-dd-1-1", ".tag=1");
	peer_send(&p, "!done", ".tag=1");
	ck_assert_int_eq(sp_ros_call(&p.c, &cmd, &res), 0);
	ck_assert_uint_eq(res.n_rows, 1);
	ck_assert_str_eq(sp_ros_attr(&res.rows[0], "name"), "qsfp56-dd-1-1");
	peer_got(&p, "/interface/ethernet/print", "=.proplist=name", ".tag=1");
	sp_ros_result_free(&res);

	/* no reply: the deadline ends it, and the connection */
	ck_assert_int_eq(sp_ros_call(&p.c, &cmd, &res), -ETIMEDOUT);
	ck_assert_str_eq(p.c.err, "no reply from switch test port 1 to /interface/ethernet/print "
			 "within 100 ms");
	ck_assert_int_eq(p.c.fd, -1);
	sp_ros_result_free(&res);
	sp_ros_sentence_free(&cmd);
	close(p.peer);
}
END_TEST

START_TEST(test_call_closed_and_fatal)
{
	struct sp_ros_result res = { 0 };
	struct sp_ros_sentence cmd;
	struct pair p;

	sentence_of(&cmd, SP_ROS_WORDS("/safe-mode/take"));
	pair_open(&p, 1000);
	peer_send(&p, "!fatal", "session terminated on request");
	ck_assert_int_eq(sp_ros_call(&p.c, &cmd, &res), -ECONNRESET);
	ck_assert_str_eq(p.c.err, "switch test port 1 ended the session: session terminated "
			 "on request");
	sp_ros_result_free(&res);
	close(p.peer);

	pair_open(&p, 1000);
	close(p.peer);
	ck_assert_int_eq(sp_ros_call(&p.c, &cmd, &res), -ECONNRESET);
	ck_assert_str_eq(p.c.err, "switch test port 1 closed the connection during "
			 "/safe-mode/take");
	ck_assert_int_eq(p.c.fd, -1);
	sp_ros_result_free(&res);
	sp_ros_sentence_free(&cmd);
}
END_TEST

START_TEST(test_login)
{
	struct pair p;

	pair_open(&p, 1000);
	peer_send(&p, "!done", ".tag=1");
	ck_assert_int_eq(sp_ros_login(&p.c, "admin", "pw=with=equals"), 0);
	peer_got(&p, "/login", "=name=admin", "=password=pw=with=equals", ".tag=1");

	/* refused: the switch's message, never the password */
	peer_send(&p, "!trap", "=message=invalid user name or password (6)", ".tag=2");
	peer_send(&p, "!done", ".tag=2");
	ck_assert_int_eq(sp_ros_login(&p.c, "admin", "s3cret"), -EACCES);
	ck_assert_str_eq(p.c.err, "login as 'admin' on switch test port 1 refused: invalid user "
			 "name or password (6)");
	ck_assert_ptr_null(strstr(p.c.err, "s3cret"));

	/* the challenge of RouterOS before 6.43 */
	peer_send(&p, "!done", "=ret=ebddd18303a54111e2dea05a92ab46b4", ".tag=3");
	ck_assert_int_eq(sp_ros_login(&p.c, "admin", "s3cret"), -EPROTONOSUPPORT);
	sp_ros_close(&p.c);
	close(p.peer);
}
END_TEST

static Suite *routeros_suite(void)
{
	Suite *s = suite_create("routeros");
	TCase *tc = tcase_create("framing");

	tcase_add_loop_test(tc, test_len_encode, 0, ARRAY_SIZE(lengths));
	tcase_add_loop_test(tc, test_len_decode, 0, ARRAY_SIZE(lengths));
	tcase_add_test(tc, test_len_control_bytes);
	tcase_add_test(tc, test_encode_sentence);
	tcase_add_test(tc, test_decode_split_anywhere);
	tcase_add_test(tc, test_decode_several_and_empty);
	tcase_add_test(tc, test_decode_refuses);
	suite_add_tcase(s, tc);

	tc = tcase_create("replies");
	tcase_add_loop_test(tc, test_attributes, 0, ARRAY_SIZE(attrs));
	tcase_add_test(tc, test_reply_types);
	tcase_add_test(tc, test_result_rows);
	tcase_add_test(tc, test_result_trap);
	tcase_add_test(tc, test_result_empty_fatal_unknown);
	suite_add_tcase(s, tc);

	tc = tcase_create("connection");
	tcase_add_test(tc, test_call_tags);
	tcase_add_test(tc, test_call_closed_and_fatal);
	tcase_add_test(tc, test_login);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(routeros_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
