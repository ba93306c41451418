/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink messages of counters and traces: COUNTERS_GET, TRACE_START,
 * TRACE_STOP, TRACE_GET, TRACE_SAMPLES (a dump from a cursor) and the
 * "trace" multicast group (samples, table changes, the end), on the core
 * of lib/nl.c. Builders and parsers work without a socket (unit tests).
 */
#ifndef SPARKPERF_CTL_TRACENL_H
#define SPARKPERF_CTL_TRACENL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/msg.h>

#include "nl.h"
#include "tracemodel.h"

/*
 * Counters and traces. COUNTERS_GET of one target (globs may be NULL, n 0:
 * every counter): one stream per source that has counters.
 */
int sp_nl_counters_get_msg(int family, const struct sp_trace_target *t,
			   const char *const *globs, size_t n_globs, struct nl_msg **out);
/* -EINVAL without targets, with too many, or with a bad name or glob. */
int sp_nl_trace_start_msg(int family, const struct sp_trace_config *cfg, struct nl_msg **out);
int sp_nl_trace_stop_msg(int family, uint32_t id, struct nl_msg **out);
/* has_id: that trace (NLM_F_ACK); else every trace (NLM_F_DUMP). */
int sp_nl_trace_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out);
/* A dump of the samples from cursor on (has_cursor false: the oldest kept). */
int sp_nl_trace_samples_msg(int family, uint32_t id, bool has_cursor, uint64_t cursor,
			    struct nl_msg **out);

/* COUNTERS_GET reply: one stream with names and values; release with sp_stream_free(). */
int sp_nl_parse_counters(struct nlmsghdr *nlh, struct sp_stream *st, const char **why);
/* TRACE_GET, TRACE_START and TRACE_END; release with sp_trace_free(). */
int sp_nl_parse_trace(struct nlmsghdr *nlh, struct sp_trace *t, const char **why);
/* TRACE_TABLE: the trace's id and its one stream; release with sp_stream_free(). */
int sp_nl_parse_trace_table(struct nlmsghdr *nlh, uint32_t *id, struct sp_stream *st,
			    const char **why);
/*
 * TRACE_SAMPLES: s->s is allocated (sp_trace_samples_free(), also on
 * failure), each sample's values point into the message.
 */
int sp_nl_parse_trace_samples(struct nlmsghdr *nlh, struct sp_trace_samples *s,
			      const char **why);

int sp_nl_counters_get(struct sp_nl *nl, const struct sp_trace_target *t,
		       const char *const *globs, size_t n_globs, struct sp_stream_list *list);
/* TRACE_START: the new trace (its name tables) in *t. It lives as long as nl->sk. */
int sp_nl_trace_start(struct sp_nl *nl, const struct sp_trace_config *cfg, struct sp_trace *t);
int sp_nl_trace_stop(struct sp_nl *nl, uint32_t id);
int sp_nl_trace_get(struct sp_nl *nl, uint32_t id, struct sp_trace *t);
/* Every trace; the dump is retried up to 3 times if interrupted. */
int sp_nl_trace_list(struct sp_nl *nl, struct sp_trace_list *list);
/* The samples from cursor on: fn for each message (as sp_nl_lat_samples). */
typedef int (*sp_nl_trace_samples_fn)(const struct sp_trace_samples *s, void *arg);
int sp_nl_trace_samples(struct sp_nl *nl, uint32_t id, bool has_cursor, uint64_t cursor,
			sp_nl_trace_samples_fn fn, void *arg);

/*
 * The "trace" group (CAP_NET_ADMIN), on its own non-blocking socket, with
 * the conventions of the events above (-ENOBUFS: messages were lost; catch
 * up with sp_nl_trace_samples() from the next sequence number wanted). fn
 * sees every trace's messages, the caller filters by id.
 */
enum sp_trace_event_type {
	SP_TRACE_EV_SAMPLES,		/* samples */
	SP_TRACE_EV_TABLE,		/* stream: its new version and names */
	SP_TRACE_EV_END,		/* trace: the final TRACE_GET attributes */
};

struct sp_trace_event {
	enum sp_trace_event_type type;
	uint32_t id;
	struct sp_trace_samples samples;
	struct sp_stream stream;
	struct sp_trace trace;
};

/* One multicast message; -EOPNOTSUPP for another command. */
int sp_nl_parse_trace_event(struct nlmsghdr *nlh, struct sp_trace_event *ev, const char **why);
void sp_trace_event_free(struct sp_trace_event *ev);
int sp_nl_trace_open(struct sp_nl *nl);
int sp_nl_trace_fd(const struct sp_nl *nl);
typedef int (*sp_nl_trace_fn)(const struct sp_trace_event *ev, void *arg);
int sp_nl_trace_recv(struct sp_nl *nl, sp_nl_trace_fn fn, void *arg);
int sp_nl_trace_feed(struct sp_nl *nl, void *buf, size_t len, sp_nl_trace_fn fn, void *arg);

#endif
