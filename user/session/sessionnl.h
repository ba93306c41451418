/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink messages of lat and bw sessions (the conventions of
 * lib/nl.h): request builders, reply parsers, the transactions and the
 * progress group's readers. Both kinds share one implementation.
 */
#ifndef SPARKPERF_CTL_SESSION_SESSIONNL_H
#define SPARKPERF_CTL_SESSION_SESSIONNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <netlink/msg.h>

#include "lib/nl.h"
#include "session.h"

/*
 * SPARKPERF_CMD_LAT_RUN with cfg's peer (4 or 16 bytes, required) and every
 * other attribute whose has_* is set; -EINVAL for a bad peer, an empty or
 * too long device name, or both iterations and a duration.
 */
int sp_nl_lat_run_msg(int family, const struct sp_lat_config *cfg, struct nl_msg **out);
int sp_nl_lat_stop_msg(int family, uint32_t id, struct nl_msg **out);
/* has_id: that session (NLM_F_ACK); else every session (NLM_F_DUMP). */
int sp_nl_lat_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out);
/* A dump of the session's kept samples. */
int sp_nl_lat_samples_msg(int family, uint32_t id, struct nl_msg **out);
/*
 * SPARKPERF_CMD_BW_RUN with the same conventions: peer required, every
 * attribute whose has_* is set, BIDIR and VALIDATE when true.
 */
int sp_nl_bw_run_msg(int family, const struct sp_bw_config *cfg, struct nl_msg **out);
int sp_nl_bw_stop_msg(int family, uint32_t id, struct nl_msg **out);
/* has_id: that session (NLM_F_ACK); else every bandwidth session (NLM_F_DUMP). */
int sp_nl_bw_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out);

/* The SPARKPERF_A_LAT_ID of a LAT_RUN reply. */
int sp_nl_parse_lat_id(struct nlmsghdr *nlh, uint32_t *id, const char **why);
/* LAT_GET; release with sp_lat_free() (also on failure). */
int sp_nl_parse_lat(struct nlmsghdr *nlh, struct sp_lat *lat, const char **why);
/* LAT_PROGRESS; -EOPNOTSUPP for another command. */
int sp_nl_parse_lat_progress(struct nlmsghdr *nlh, struct sp_lat_progress *p,
			     const char **why);
/* LAT_SAMPLES; s->data points into the message. */
int sp_nl_parse_lat_samples(struct nlmsghdr *nlh, struct sp_lat_samples *s,
			    const char **why);
/* The SPARKPERF_A_BW_ID of a BW_RUN reply. */
int sp_nl_parse_bw_id(struct nlmsghdr *nlh, uint32_t *id, const char **why);
/*
 * BW_GET; release with sp_bw_free() (also on failure). Only ID and STATE
 * are required: every other attribute may be missing.
 */
int sp_nl_parse_bw(struct nlmsghdr *nlh, struct sp_bw *bw, const char **why);
/* BW_PROGRESS; -EOPNOTSUPP for another command. */
int sp_nl_parse_bw_progress(struct nlmsghdr *nlh, struct sp_bw_progress *p, const char **why);

/* LAT_RUN: the new session's id. The session lives as long as nl->sk. */
int sp_nl_lat_run(struct sp_nl *nl, const struct sp_lat_config *cfg, uint32_t *id);
int sp_nl_lat_stop(struct sp_nl *nl, uint32_t id);
/* One session; *lat is released with sp_lat_free(). */
int sp_nl_lat_get(struct sp_nl *nl, uint32_t id, struct sp_lat *lat);
/* Every session; the dump is retried up to 3 times if interrupted. */
int sp_nl_lat_list(struct sp_nl *nl, struct sp_lat_list *list);
/*
 * The session's kept samples, oldest first: fn for each message, which may
 * return a negative errno to fail (the rest of the dump is drained).
 */
typedef int (*sp_nl_samples_fn)(const struct sp_lat_samples *s, void *arg);
int sp_nl_lat_samples(struct sp_nl *nl, uint32_t id, sp_nl_samples_fn fn, void *arg);

/* BW_RUN: the new session's id. The session lives as long as nl->sk. */
int sp_nl_bw_run(struct sp_nl *nl, const struct sp_bw_config *cfg, uint32_t *id);
int sp_nl_bw_stop(struct sp_nl *nl, uint32_t id);
/* One session, with its intervals; *bw is released with sp_bw_free(). */
int sp_nl_bw_get(struct sp_nl *nl, uint32_t id, struct sp_bw *bw);
/* Every bandwidth session (no intervals); the dump is retried as above. */
int sp_nl_bw_list(struct sp_nl *nl, struct sp_bw_list *list);

/*
 * The messages of the "progress" group (joined with sp_nl_progress_open()),
 * with the conventions of the events (lib/nl.h): fn sees every session's
 * progress, the caller filters by id; the other kind's messages are skipped.
 */
typedef int (*sp_nl_lat_progress_fn)(const struct sp_lat_progress *p, void *arg);
int sp_nl_lat_progress_recv(struct sp_nl *nl, sp_nl_lat_progress_fn fn, void *arg);
int sp_nl_lat_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			    sp_nl_lat_progress_fn fn, void *arg);
typedef int (*sp_nl_bw_progress_fn)(const struct sp_bw_progress *p, void *arg);
int sp_nl_bw_progress_recv(struct sp_nl *nl, sp_nl_bw_progress_fn fn, void *arg);
int sp_nl_bw_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			   sp_nl_bw_progress_fn fn, void *arg);

#endif
