// SPDX-License-Identifier: GPL-2.0
/*
 * The messages of counters and traces (tracenl.h), built and parsed with
 * the attribute tables of lib/nlcore.h and sent through its transactions.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nlcore.h"
#include "tracenl.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- request builders ------------------------------------------------- */

/* SPARKPERF_A_TRACE_TARGET t, nested in the message. */
static int put_target(struct nl_msg *m, const struct sp_trace_target *t)
{
	struct nlattr *nest = nla_nest_start(m, SPARKPERF_A_TRACE_TARGET);

	if (!nest)
		return -ENOMEM;
	if (t->rdma) {
		if (nla_put_string(m, SPARKPERF_A_TARGET_RDMA_DEV, t->name) < 0)
			return -ENOMEM;
		if (t->port && nla_put_u32(m, SPARKPERF_A_TARGET_RDMA_PORT, t->port) < 0)
			return -ENOMEM;
	} else if (nla_put_string(m, SPARKPERF_A_TARGET_NETDEV, t->name) < 0) {
		return -ENOMEM;
	}
	nla_nest_end(m, nest);
	return 0;
}

static bool target_valid(const struct sp_trace_target *t)
{
	size_t max = t->rdma ? SPARKPERF_DEV_NAME_MAX : SP_IFNAME_MAX;

	return t->name[0] && strnlen(t->name, max) < max && t->port <= 255;
}

/* SPARKPERF_A_TRACE_GLOBS, when there are globs. */
static int put_globs(struct nl_msg *m, const char *const *globs, size_t n)
{
	struct nlattr *nest;
	size_t i;

	if (!n)
		return 0;
	nest = nla_nest_start(m, SPARKPERF_A_TRACE_GLOBS);
	if (!nest)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (nla_put_string(m, SPARKPERF_A_TRACE_GLOB, globs[i]) < 0)
			return -ENOMEM;
	nla_nest_end(m, nest);
	return 0;
}

static bool globs_valid(const char *const *globs, size_t n)
{
	size_t i;

	if (n > SPARKPERF_TRACE_GLOBS_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!globs[i] || !globs[i][0])
			return false;
	return true;
}

int sp_nl_counters_get_msg(int family, const struct sp_trace_target *t,
			   const char *const *globs, size_t n_globs, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (!target_valid(t) || !globs_valid(globs, n_globs))
		return -EINVAL;
	ret = sp_nl_req(family, SPARKPERF_CMD_COUNTERS_GET, NLM_F_ACK, out);
	if (ret)
		return ret;
	if (put_target(*out, t) || put_globs(*out, globs, n_globs))
		return sp_nl_req_fail(out);
	return 0;
}

int sp_nl_trace_start_msg(int family, const struct sp_trace_config *c, struct nl_msg **out)
{
	struct nlattr *nest;
	size_t i;
	int ret;

	*out = NULL;
	if (!c->n_targets || c->n_targets > SPARKPERF_TRACE_TARGETS_MAX ||
	    !globs_valid(c->globs, c->n_globs))
		return -EINVAL;
	for (i = 0; i < c->n_targets; i++)
		if (!target_valid(&c->targets[i]))
			return -EINVAL;
	ret = sp_nl_req(family, SPARKPERF_CMD_TRACE_START, NLM_F_ACK, out);
	if (ret)
		return ret;
	nest = nla_nest_start(*out, SPARKPERF_A_TRACE_TARGETS);
	if (!nest)
		return sp_nl_req_fail(out);
	for (i = 0; i < c->n_targets; i++)
		if (put_target(*out, &c->targets[i]))
			return sp_nl_req_fail(out);
	nla_nest_end(*out, nest);
	if (put_globs(*out, c->globs, c->n_globs))
		return sp_nl_req_fail(out);
#define PUT32(has, attr, v) \
	do { \
		if (c->has && nla_put_u32(*out, attr, c->v) < 0) \
			return sp_nl_req_fail(out); \
	} while (0)
	PUT32(has_netdev_period, SPARKPERF_A_TRACE_NETDEV_PERIOD_US, netdev_period_us);
	PUT32(has_ethtool_period, SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US, ethtool_period_us);
	PUT32(has_rdma_period, SPARKPERF_A_TRACE_RDMA_PERIOD_US, rdma_period_us);
	PUT32(has_duration, SPARKPERF_A_TRACE_DURATION_MS, duration_ms);
	PUT32(has_buffer, SPARKPERF_A_TRACE_BUFFER_BYTES, buffer_bytes);
	PUT32(has_batch, SPARKPERF_A_TRACE_BATCH_MS, batch_ms);
#undef PUT32
	return 0;
}

int sp_nl_trace_stop_msg(int family, uint32_t id, struct nl_msg **out)
{
	return sp_nl_id_req(family, SPARKPERF_CMD_TRACE_STOP, NLM_F_ACK, SPARKPERF_A_TRACE_ID,
			    true, id, out);
}

int sp_nl_trace_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return sp_nl_id_req(family, SPARKPERF_CMD_TRACE_GET, has_id ? NLM_F_ACK : NLM_F_DUMP,
			    SPARKPERF_A_TRACE_ID, has_id, id, out);
}

int sp_nl_trace_samples_msg(int family, uint32_t id, bool has_cursor, uint64_t cursor,
			    struct nl_msg **out)
{
	int ret = sp_nl_id_req(family, SPARKPERF_CMD_TRACE_SAMPLES, NLM_F_DUMP,
			       SPARKPERF_A_TRACE_ID, true, id, out);

	if (ret)
		return ret;
	if (has_cursor && nla_put_u64(*out, SPARKPERF_A_TRACE_CURSOR, cursor) < 0)
		return sp_nl_req_fail(out);
	return 0;
}

/* ---- reply parsers ---------------------------------------------------- */

/* A counter name (SPARKPERF_A_STREAM_NAME): at most SP_COUNTER_NAME_MAX - 1 bytes. */
static int get_counter_name(struct nlattr *a, void *name, const char **why)
{
	if (sp_nl_get_str(a, name, SP_COUNTER_NAME_MAX))
		return sp_nl_bad(why, "SPARKPERF_A_STREAM_NAME");
	return 0;
}

#define ST(a, k, m) FIELD(struct sp_stream, SPARKPERF_A_STREAM_##a, k, m)
static const struct field stream_fields[] = {
	FIELD_REQ(struct sp_stream, SPARKPERF_A_STREAM_INDEX, F_U32, index),
	FIELD_REQ(struct sp_stream, SPARKPERF_A_STREAM_SOURCE, F_U8, source),
	FIELD_REQ(struct sp_stream, SPARKPERF_A_STREAM_TARGET, F_STR, target),
	FIELD_HAS(struct sp_stream, SPARKPERF_A_STREAM_IFINDEX, F_U32, ifindex, has_ifindex),
	FIELD_HAS(struct sp_stream, SPARKPERF_A_STREAM_PORT, F_U32, port, has_port),
	ST(PERIOD_US, F_U32, period_us),
	ST(VERSION, F_U32, version),
	ST(SLOT_VALUES, F_U32, slot_values),
	ST(TRUNCATED, F_FLAG, truncated),
	ST(SAMPLES, F_U64, samples),
	ST(MISSED, F_U64, missed),
	ST(READ_NS_SUM, F_U64, read_ns_sum),
	ST(READ_NS_MAX, F_U64, read_ns_max),
	ST(LATE_NS_MAX, F_U64, late_ns_max),
	FIELD_HAS(struct sp_stream, SPARKPERF_A_STREAM_TS_NS, F_U64, ts_ns, has_ts),
	ST(READ_NS, F_U32, read_ns),
	FIELD_ARRAY(struct sp_stream, SPARKPERF_A_STREAM_NAMES, SPARKPERF_A_STREAM_NAME,
		    get_counter_name, names, n_names),
};
#undef ST

#define SA(a, k, m) FIELD_REQ(struct sp_trace_sample, SPARKPERF_A_SAMPLE_##a, k, m)
static const struct field sample_fields[] = {
	SA(SEQ, F_U64, seq),
	SA(STREAM, F_U32, stream),
	SA(VERSION, F_U32, version),
	SA(TS_NS, F_U64, ts_ns),
	SA(READ_NS, F_U32, read_ns),
};
#undef SA

/* The id that TRACE_TABLE carries, and what begins TRACE_SAMPLES. */
struct trace_id {
	uint32_t id;
};

static const struct field id_fields[] = {
	FIELD_REQ(struct trace_id, SPARKPERF_A_TRACE_ID, F_U32, id),
};

/* How many u64s a VALUES attribute v carries; -EBADMSG (named name) if not whole ones. */
static int get_values(const struct nlattr *v, const char *name, size_t *n, const char **why)
{
	int len = v ? nla_len(v) : -1;

	if (len < 0 || len % sizeof(uint64_t))
		return sp_nl_bad(why, name);
	*n = (size_t)len / sizeof(uint64_t);
	return 0;
}

/*
 * One SPARKPERF_A_TRACE_STREAM (attr) into st, zeroed by the caller; release
 * st with sp_stream_free(). Its values, when it has any, match its names.
 */
static int get_stream(struct nlattr *attr, void *dst, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_STREAM_MAX + 1], *v;
	struct sp_stream *st = dst;
	size_t n = 0;
	int ret;

	ret = sp_nl_parse_nested(attr, tb, SPARKPERF_A_STREAM_MAX, "SPARKPERF_A_TRACE_STREAM",
				 stream_fields, ARRAY_SIZE(stream_fields), st, why);
	if (ret || !tb[SPARKPERF_A_STREAM_VALUES])
		return ret;
	v = tb[SPARKPERF_A_STREAM_VALUES];
	if (get_values(v, "SPARKPERF_A_STREAM_VALUES", &n, why) || n != st->n_names)
		return sp_nl_bad(why, "SPARKPERF_A_STREAM_VALUES");
	if (n) {
		st->values = calloc(n, sizeof(*st->values));
		if (!st->values)
			return -ENOMEM;
		memcpy(st->values, nla_data(v), n * sizeof(*st->values));
	}
	st->n_values = n;
	return 0;
}

#define TR(a, k, m) FIELD(struct sp_trace, SPARKPERF_A_TRACE_##a, k, m)
static const struct field trace_fields[] = {
	FIELDS_STATUS(struct sp_trace, SPARKPERF_A_TRACE),
	TR(START_NS, F_U64, start_ns),
	TR(ELAPSED_NS, F_U64, elapsed_ns),
	FIELD_HAS(struct sp_trace, SPARKPERF_A_TRACE_DURATION_MS, F_U32, duration_ms,
		  has_duration),
	TR(BUFFER_BYTES, F_U32, buffer_bytes),
	TR(BATCH_MS, F_U32, batch_ms),
	FIELD_HAS(struct sp_trace, SPARKPERF_A_TRACE_CPU_NS, F_U64, cpu_ns, has_cpu),
	TR(SLOTS, F_U32, slots),
	TR(SEQ_NEXT, F_U64, seq_next),
	TR(SEQ_OLDEST, F_U64, seq_oldest),
	/* counted as read, so that sp_trace_free() frees a stream's names */
	FIELD_ARRAY(struct sp_trace, SPARKPERF_A_TRACE_STREAMS, SPARKPERF_A_TRACE_STREAM,
		    get_stream, streams, n_streams),
};
#undef TR

int sp_nl_parse_counters(struct nlmsghdr *nlh, struct sp_stream *st, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_TRACE_MAX + 1];

	memset(st, 0, sizeof(*st));
	if (genlmsg_parse(nlh, 0, tb, SPARKPERF_A_TRACE_MAX, NULL) < 0)
		return sp_nl_bad(why, "truncated message");
	if (!tb[SPARKPERF_A_TRACE_STREAM])
		return sp_nl_bad(why, "SPARKPERF_A_TRACE_STREAM");
	return get_stream(tb[SPARKPERF_A_TRACE_STREAM], st, why);
}

static const struct sp_nl_reply trace_reply =
	SP_NL_REPLY(struct sp_trace, SPARKPERF_A_TRACE_MAX, trace_fields);

int sp_nl_parse_trace(struct nlmsghdr *nlh, struct sp_trace *t, const char **why)
{
	return sp_nl_parse_reply(nlh, &trace_reply, t, why);
}

int sp_nl_parse_trace_table(struct nlmsghdr *nlh, uint32_t *id, struct sp_stream *st,
			    const char **why)
{
	struct nlattr *tb[SPARKPERF_A_TRACE_MAX + 1], *pos;
	struct trace_id tid;
	int rem, ret;

	memset(st, 0, sizeof(*st));
	ret = sp_nl_parse_fields(nlh, tb, SPARKPERF_A_TRACE_MAX, id_fields,
				ARRAY_SIZE(id_fields), &tid, why);
	if (ret)
		return ret;
	*id = tid.id;
	if (!tb[SPARKPERF_A_TRACE_STREAMS])
		return sp_nl_bad(why, "SPARKPERF_A_TRACE_STREAMS");
	nla_for_each_nested(pos, tb[SPARKPERF_A_TRACE_STREAMS], rem)
		if (nla_type(pos) == SPARKPERF_A_TRACE_STREAM)
			return get_stream(pos, st, why);
	return sp_nl_bad(why, "SPARKPERF_A_TRACE_STREAM");
}

/* One SPARKPERF_A_TRACE_SAMPLE into an entry that get_array() zeroed. */
static int get_sample(struct nlattr *attr, void *dst, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_SAMPLE_MAX + 1];
	struct sp_trace_sample *s = dst;
	int ret;

	ret = sp_nl_parse_nested(attr, tb, SPARKPERF_A_SAMPLE_MAX, "SPARKPERF_A_TRACE_SAMPLE",
				 sample_fields, ARRAY_SIZE(sample_fields), s, why);
	if (!ret)
		ret = get_values(tb[SPARKPERF_A_SAMPLE_VALUES], "SPARKPERF_A_SAMPLE_VALUES", &s->n,
				 why);
	if (!ret)
		s->values = nla_data(tb[SPARKPERF_A_SAMPLE_VALUES]);
	return ret;
}

static const struct field samples_fields[] = {
	FIELD_REQ(struct sp_trace_samples, SPARKPERF_A_TRACE_ID, F_U32, id),
	FIELD(struct sp_trace_samples, SPARKPERF_A_TRACE_LOST, F_U64, lost),
	FIELD_ARRAY(struct sp_trace_samples, SPARKPERF_A_TRACE_SAMPLES, SPARKPERF_A_TRACE_SAMPLE,
		    get_sample, s, n),
};

static const struct sp_nl_reply samples_reply =
	SP_NL_REPLY(struct sp_trace_samples, SPARKPERF_A_TRACE_MAX, samples_fields);

int sp_nl_parse_trace_samples(struct nlmsghdr *nlh, struct sp_trace_samples *s,
			      const char **why)
{
	return sp_nl_parse_reply(nlh, &samples_reply, s, why);
}

/* ---- the socket ------------------------------------------------------- */

SP_NL_LIST_FNS(stream, struct sp_stream, sp_nl_parse_counters, sp_stream_list_add,
	       sp_stream_free, sp_stream_list_free)

int sp_nl_counters_get(struct sp_nl *nl, const struct sp_trace_target *t,
		       const char *const *globs, size_t n_globs, struct sp_stream_list *list)
{
	struct nl_msg *msg;
	int ret;

	memset(list, 0, sizeof(*list));
	ret = sp_nl_counters_get_msg(nl->family, t, globs, n_globs, &msg);
	ret = sp_nl_transact_each(nl, ret, msg, SPARKPERF_CMD_COUNTERS_GET, stream_add, list,
				  NULL);
	if (ret)
		stream_reset(list);
	return ret;
}

int sp_nl_trace_start(struct sp_nl *nl, const struct sp_trace_config *cfg, struct sp_trace *t)
{
	struct nl_msg *msg;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = sp_nl_trace_start_msg(nl->family, cfg, &msg);
	ret = sp_nl_transact_reply(nl, ret, msg, SPARKPERF_CMD_TRACE_START, &trace_reply, t);
	if (ret)
		sp_trace_free(t);
	return ret;
}

int sp_nl_trace_stop(struct sp_nl *nl, uint32_t id)
{
	struct nl_msg *msg;
	int ret = sp_nl_trace_stop_msg(nl->family, id, &msg);

	return sp_nl_transact_ack(nl, ret, msg, SPARKPERF_CMD_TRACE_STOP);
}

int sp_nl_trace_get(struct sp_nl *nl, uint32_t id, struct sp_trace *t)
{
	struct nl_msg *msg;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = sp_nl_trace_get_msg(nl->family, true, id, &msg);
	ret = sp_nl_transact_reply(nl, ret, msg, SPARKPERF_CMD_TRACE_GET, &trace_reply, t);
	if (ret)
		sp_trace_free(t);
	return ret;
}

static int trace_dump_msg(int family, struct nl_msg **out)
{
	return sp_nl_trace_get_msg(family, false, 0, out);
}

SP_NL_LIST_FNS(trace, struct sp_trace, sp_nl_parse_trace, sp_trace_list_add, sp_trace_free,
	       sp_trace_list_free)

int sp_nl_trace_list(struct sp_nl *nl, struct sp_trace_list *list)
{
	memset(list, 0, sizeof(*list));
	return sp_nl_dump_list(nl, trace_dump_msg, SPARKPERF_CMD_TRACE_GET, trace_add, list,
			       trace_reset, "trace list");
}

/* The caller's fn and arg, for every message of a dump or of the group. */
struct trace_reader {
	sp_nl_trace_samples_fn samples_fn;
	sp_nl_trace_fn fn;
	void *arg;
};

static int samples_each(struct nlmsghdr *nlh, void *arg, const char **why)
{
	const struct trace_reader *r = arg;
	struct sp_trace_samples s;
	int ret = sp_nl_parse_trace_samples(nlh, &s, why);

	if (!ret)
		ret = r->samples_fn(&s, r->arg);
	sp_trace_samples_free(&s);
	return ret;
}

int sp_nl_trace_samples(struct sp_nl *nl, uint32_t id, bool has_cursor, uint64_t cursor,
			sp_nl_trace_samples_fn fn, void *arg)
{
	struct trace_reader r = { .samples_fn = fn, .arg = arg };
	struct nl_msg *msg;
	int ret = sp_nl_trace_samples_msg(nl->family, id, has_cursor, cursor, &msg);

	return sp_nl_transact_each(nl, ret, msg, SPARKPERF_CMD_TRACE_SAMPLES, samples_each, &r,
				   "the samples changed during the dump");
}

int sp_nl_trace_open(struct sp_nl *nl)
{
	return sp_nl_mcast_open(nl, SPARKPERF_MCGRP_TRACE, &nl->tr_sk);
}

int sp_nl_trace_fd(const struct sp_nl *nl)
{
	return nl->tr_sk ? nl_socket_get_fd(nl->tr_sk) : -1;
}

int sp_nl_parse_trace_event(struct nlmsghdr *nlh, struct sp_trace_event *ev, const char **why)
{
	struct genlmsghdr *ghdr;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (!genlmsg_valid_hdr(nlh, 0))
		return sp_nl_bad(why, "truncated message");
	ghdr = nlmsg_data(nlh);
	switch (ghdr->cmd) {
	case SPARKPERF_CMD_TRACE_SAMPLES:
		ev->type = SP_TRACE_EV_SAMPLES;
		ret = sp_nl_parse_trace_samples(nlh, &ev->samples, why);
		ev->id = ev->samples.id;
		return ret;
	case SPARKPERF_CMD_TRACE_TABLE:
		ev->type = SP_TRACE_EV_TABLE;
		return sp_nl_parse_trace_table(nlh, &ev->id, &ev->stream, why);
	case SPARKPERF_CMD_TRACE_END:
		ev->type = SP_TRACE_EV_END;
		ret = sp_nl_parse_trace(nlh, &ev->trace, why);
		ev->id = ev->trace.id;
		return ret;
	default:
		return -EOPNOTSUPP;
	}
}

void sp_trace_event_free(struct sp_trace_event *ev)
{
	sp_trace_samples_free(&ev->samples);
	sp_stream_free(&ev->stream);
	sp_trace_free(&ev->trace);
}

static int trace_one(struct nlmsghdr *nlh, void *arg)
{
	const struct trace_reader *f = arg;
	struct sp_trace_event ev;
	int ret = sp_nl_parse_trace_event(nlh, &ev, NULL);

	if (!ret)
		ret = f->fn(&ev, f->arg) != 0;
	sp_trace_event_free(&ev);
	return ret;
}

int sp_nl_trace_feed(struct sp_nl *nl, void *buf, size_t len, sp_nl_trace_fn fn, void *arg)
{
	struct trace_reader f = { .fn = fn, .arg = arg };

	return sp_nl_mcast_feed(nl, buf, len, trace_one, &f, &nl->bad_trace);
}

int sp_nl_trace_recv(struct sp_nl *nl, sp_nl_trace_fn fn, void *arg)
{
	struct trace_reader f = { .fn = fn, .arg = arg };

	return sp_nl_mcast_recv(nl, nl->tr_sk, trace_one, &f, &nl->bad_trace);
}
