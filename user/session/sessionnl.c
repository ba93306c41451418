// SPDX-License-Identifier: GPL-2.0
/*
 * The session client: lat and bw sessions, as the kernel's session.c serves
 * them, in one shape (RUN, STOP, GET, a GET dump, PROGRESS on the
 * "progress" group) over two attribute spaces. Each operation is written
 * once, parameterised by a struct kind (commands, attributes, tables); the
 * typed functions of sessionnl.h name the kind.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "lib/nlcore.h"
#include "sessionnl.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- attribute tables ---------------------------------------------------- */

/*
 * What both kinds of session are configured with first: the peer, its port,
 * the device, the operation and the message size.
 */
#define FIELDS_SESSION_CONFIG(st, prefix) \
	FIELD(st, prefix##_PEER, F_ADDR, peer), \
	FIELD_HAS(st, prefix##_PORT, F_U16, port, has_port), \
	FIELD_HAS(st, prefix##_DEV, F_STR, dev, has_dev), \
	FIELD_HAS(st, prefix##_OP, F_U8, op, has_op), \
	FIELD_HAS(st, prefix##_SIZE, F_U32, size, has_size)

/* How long a session runs: a number of iterations or a duration (not both). */
#define FIELDS_SESSION_LENGTH(st, prefix) \
	FIELD_HAS(st, prefix##_ITERS, F_U64, iters, has_iters), \
	FIELD_HAS(st, prefix##_DURATION_MS, F_U32, duration_ms, has_duration)

#define LC(a, k, m, h) FIELD_HAS(struct sp_lat_config, SPARKPERF_A_LAT_##a, k, m, h)
static const struct field lat_config_fields[] = {
	FIELDS_SESSION_CONFIG(struct sp_lat_config, SPARKPERF_A_LAT),
	FIELDS_SESSION_LENGTH(struct sp_lat_config, SPARKPERF_A_LAT),
	LC(WARMUP, F_U32, warmup, has_warmup),
	LC(CPU, F_U32, cpu, has_cpu),
	LC(SAMPLES_MAX, F_U32, samples_max, has_samples_max),
	LC(INTERVAL_MS, F_U32, interval_ms, has_interval),
	LC(COMPLETION, F_U8, completion, has_completion),
};
#undef LC

#define BC(a, k, m, h) FIELD_HAS(struct sp_bw_config, SPARKPERF_A_BW_##a, k, m, h)
static const struct field bw_config_fields[] = {
	FIELDS_SESSION_CONFIG(struct sp_bw_config, SPARKPERF_A_BW),
	BC(QPS, F_U32, qps, has_qps),
	BC(THREADS, F_U32, threads, has_threads),
	BC(DEPTH, F_U32, depth, has_depth),
	BC(SIGNAL, F_U32, signal, has_signal),
	FIELDS_SESSION_LENGTH(struct sp_bw_config, SPARKPERF_A_BW),
	FIELD(struct sp_bw_config, SPARKPERF_A_BW_BIDIR, F_FLAG, bidir),
	FIELD(struct sp_bw_config, SPARKPERF_A_BW_VALIDATE, F_FLAG, validate),
	BC(INTERVAL_MS, F_U32, interval_ms, has_interval),
	BC(START_AT_NS, F_U64, start_at_ns, has_start_at),
};
#undef BC

#define IV(a, k, m) FIELD(struct sp_interval, SPARKPERF_A_INTERVAL_##a, k, m)
static const struct field interval_fields[] = {
	FIELD_REQ(struct sp_interval, SPARKPERF_A_INTERVAL_END_NS, F_U64, end_ns),
	IV(COUNT, F_U64, count),
	IV(P50_NS, F_U64, p50_ns),
	IV(P99_NS, F_U64, p99_ns),
	IV(MAX_NS, F_U64, max_ns),
	IV(BYTES, F_U64, bytes),
};
#undef IV

/* One interval, the nested attribute attr (named name). */
static int get_interval(struct nlattr *attr, const char *name, void *iv, const char **why)
{
	struct nlattr *tb[SPARKPERF_A_INTERVAL_MAX + 1];

	memset(iv, 0, sizeof(struct sp_interval));
	return sp_nl_parse_nested(attr, tb, SPARKPERF_A_INTERVAL_MAX, name, interval_fields,
				  ARRAY_SIZE(interval_fields), iv, why);
}

/* One entry of a GET's list of intervals. */
static int get_interval_entry(struct nlattr *attr, void *iv, const char **why)
{
	return get_interval(attr, "SPARKPERF_A_LAT_INTERVALS_ENTRY", iv, why);
}

/* The intervals of a GET, read after its results and configuration. */
static const struct field lat_intervals[] = {
	FIELD_ARRAY(struct sp_lat, SPARKPERF_A_LAT_INTERVALS, SPARKPERF_A_LAT_INTERVALS_ENTRY,
		    get_interval_entry, intervals, n_intervals),
};

static const struct field bw_intervals[] = {
	FIELD_ARRAY(struct sp_bw, SPARKPERF_A_BW_INTERVALS, SPARKPERF_A_LAT_INTERVALS_ENTRY,
		    get_interval_entry, intervals, n_intervals),
};

#define LR(a, k, m) FIELD(struct sp_lat, SPARKPERF_A_LAT_##a, k, m)
static const struct field lat_fields[] = {
	FIELDS_STATUS(struct sp_lat, SPARKPERF_A_LAT),
	LR(WARMUP_DONE, F_U64, warmup_done),
	LR(COUNT, F_U64, count),
	LR(ELAPSED_NS, F_U64, elapsed_ns),
	LR(YIELDS, F_U64, yields),
	LR(RT_YIELDS, F_U64, rt_yields),
	FIELD_HAS(struct sp_lat, SPARKPERF_A_LAT_CLOCK_RES_NS, F_U32, clock_res_ns, has_clock_res),
	LR(MIN_NS, F_U64, min_ns),
	LR(MAX_NS, F_U64, max_ns),
	LR(SUM_NS, F_U64, sum_ns),
	LR(SUMSQ_HI, F_U64, sumsq_hi),
	LR(SUMSQ_LO, F_U64, sumsq_lo),
	LR(P50_NS, F_U64, p50_ns),
	LR(P90_NS, F_U64, p90_ns),
	LR(P99_NS, F_U64, p99_ns),
	LR(P999_NS, F_U64, p999_ns),
	LR(P9999_NS, F_U64, p9999_ns),
	LR(P99999_NS, F_U64, p99999_ns),
};
#undef LR

#define BR(a, k, m) FIELD(struct sp_bw, SPARKPERF_A_BW_##a, k, m)
static const struct field bw_fields[] = {
	FIELDS_STATUS(struct sp_bw, SPARKPERF_A_BW),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_START_NS, F_U64, start_ns, has_start),
	BR(ELAPSED_NS, F_U64, elapsed_ns),
	BR(TX_BYTES, F_U64, tx_bytes),
	BR(TX_MSGS, F_U64, tx_msgs),
	BR(RX_BYTES, F_U64, rx_bytes),
	BR(RX_MSGS, F_U64, rx_msgs),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_VALIDATE_ERRORS, F_U64, validate_errors,
		  has_validate_errors),
	FIELD_HAS(struct sp_bw, SPARKPERF_A_BW_CPU_NS, F_U64, cpu_ns, has_cpu),
};
#undef BR

static const struct field lat_progress_fields[] = {
	FIELDS_ID_STATE(struct sp_lat_progress, SPARKPERF_A_LAT),
	FIELD(struct sp_lat_progress, SPARKPERF_A_LAT_COUNT, F_U64, count),
	FIELD(struct sp_lat_progress, SPARKPERF_A_LAT_WARMUP_DONE, F_U64, warmup_done),
};

static const struct field bw_progress_fields[] = {
	FIELDS_ID_STATE(struct sp_bw_progress, SPARKPERF_A_BW),
	FIELD(struct sp_bw_progress, SPARKPERF_A_BW_TX_BYTES, F_U64, tx_bytes),
	FIELD(struct sp_bw_progress, SPARKPERF_A_BW_RX_BYTES, F_U64, rx_bytes),
};

static const struct field samples_fields[] = {
	FIELD_REQ(struct sp_lat_samples, SPARKPERF_A_LAT_ID, F_U32, id),
	FIELD_REQ(struct sp_lat_samples, SPARKPERF_A_SAMPLES_FIRST, F_U64, first),
};

/* ---- the two kinds ------------------------------------------------------- */

/* The larger of the two attribute spaces of sessions. */
#define SESSION_ATTR_MAX \
	(SPARKPERF_A_LAT_MAX > SPARKPERF_A_BW_MAX ? SPARKPERF_A_LAT_MAX : SPARKPERF_A_BW_MAX)

enum kind_type { KIND_LAT, KIND_BW };

/* What tells a latency session from a bandwidth one on the wire. */
struct kind {
	enum kind_type type;
	uint8_t run_cmd, stop_cmd, get_cmd, progress_cmd;
	int maxtype;
	int id_attr;
	const char *id_name;
	int interval_attr;		/* the interval of a PROGRESS */
	const char *interval_name;
	const struct field *config, *fields, *progress, *intervals;
	size_t n_config, n_fields, n_progress;
};

/* Both kinds follow one naming scheme: T is LAT or BW, t is lat or bw. */
#define KIND(T, t) { \
	KIND_##T, SPARKPERF_CMD_##T##_RUN, SPARKPERF_CMD_##T##_STOP, SPARKPERF_CMD_##T##_GET, \
	SPARKPERF_CMD_##T##_PROGRESS, SPARKPERF_A_##T##_MAX, SPARKPERF_A_##T##_ID, \
	"SPARKPERF_A_" #T "_ID", SPARKPERF_A_##T##_INTERVAL, "SPARKPERF_A_" #T "_INTERVAL", \
	t##_config_fields, t##_fields, t##_progress_fields, t##_intervals, \
	ARRAY_SIZE(t##_config_fields), ARRAY_SIZE(t##_fields), ARRAY_SIZE(t##_progress_fields), \
}

static const struct kind lat_kind = KIND(LAT, lat);
static const struct kind bw_kind = KIND(BW, bw);

/* A session, or a progress message, of either kind. */
union session {
	struct sp_lat lat;
	struct sp_bw bw;
};

union progress {
	struct sp_lat_progress lat;
	struct sp_bw_progress bw;
};

/* ---- request builders ---------------------------------------------------- */

/*
 * A RUN: the peer (required), not both iterations and a duration, a device
 * name that fits.
 */
static int run_msg(int family, const struct kind *k, const void *cfg,
		   const struct sp_addr *peer, bool iters_and_duration, bool has_dev,
		   const char *dev, struct nl_msg **out)
{
	int ret;

	*out = NULL;
	if (!sp_nl_addr_valid(peer) || iters_and_duration)
		return -EINVAL;
	if (has_dev && (!dev[0] || strnlen(dev, SPARKPERF_DEV_NAME_MAX) >= SPARKPERF_DEV_NAME_MAX))
		return -EINVAL;
	ret = sp_nl_req(family, k->run_cmd, NLM_F_ACK, out);
	if (ret)
		return ret;
	if (sp_nl_put_fields(*out, k->config, k->n_config, cfg))
		return sp_nl_req_fail(out);
	return 0;
}

int sp_nl_lat_run_msg(int family, const struct sp_lat_config *c, struct nl_msg **out)
{
	return run_msg(family, &lat_kind, c, &c->peer, c->has_iters && c->has_duration,
		       c->has_dev, c->dev, out);
}

int sp_nl_bw_run_msg(int family, const struct sp_bw_config *c, struct nl_msg **out)
{
	return run_msg(family, &bw_kind, c, &c->peer, c->has_iters && c->has_duration,
		       c->has_dev, c->dev, out);
}

static int stop_msg(int family, const struct kind *k, uint32_t id, struct nl_msg **out)
{
	return sp_nl_id_req(family, k->stop_cmd, NLM_F_ACK, k->id_attr, true, id, out);
}

int sp_nl_lat_stop_msg(int family, uint32_t id, struct nl_msg **out)
{
	return stop_msg(family, &lat_kind, id, out);
}

int sp_nl_bw_stop_msg(int family, uint32_t id, struct nl_msg **out)
{
	return stop_msg(family, &bw_kind, id, out);
}

static int get_msg(int family, const struct kind *k, bool has_id, uint32_t id,
		   struct nl_msg **out)
{
	return sp_nl_id_req(family, k->get_cmd, has_id ? NLM_F_ACK : NLM_F_DUMP, k->id_attr,
			    has_id, id, out);
}

int sp_nl_lat_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return get_msg(family, &lat_kind, has_id, id, out);
}

int sp_nl_bw_get_msg(int family, bool has_id, uint32_t id, struct nl_msg **out)
{
	return get_msg(family, &bw_kind, has_id, id, out);
}

int sp_nl_lat_samples_msg(int family, uint32_t id, struct nl_msg **out)
{
	return sp_nl_id_req(family, SPARKPERF_CMD_LAT_SAMPLES, NLM_F_DUMP, SPARKPERF_A_LAT_ID,
			    true, id, out);
}

/* ---- reply parsers ------------------------------------------------------- */

/* The id of a RUN reply. */
static int parse_id(const struct kind *k, struct nlmsghdr *nlh, uint32_t *id, const char **why)
{
	const struct field f = {
		.name = k->id_name, .type = k->id_attr, .kind = F_U32, .required = true,
		.size = sizeof(*id),
	};
	struct nlattr *tb[SESSION_ATTR_MAX + 1];

	return sp_nl_parse_fields(nlh, tb, SESSION_ATTR_MAX, &f, 1, id, why);
}

int sp_nl_parse_lat_id(struct nlmsghdr *nlh, uint32_t *id, const char **why)
{
	return parse_id(&lat_kind, nlh, id, why);
}

int sp_nl_parse_bw_id(struct nlmsghdr *nlh, uint32_t *id, const char **why)
{
	return parse_id(&bw_kind, nlh, id, why);
}

/* A GET: its results into dst, its configuration into cfg, its intervals. */
static int parse_session(const struct kind *k, struct nlmsghdr *nlh, void *dst, void *cfg,
			 const char **why)
{
	struct nlattr *tb[SESSION_ATTR_MAX + 1];
	int ret;

	ret = sp_nl_parse_fields(nlh, tb, k->maxtype, k->fields, k->n_fields, dst, why);
	if (!ret)
		ret = sp_nl_get_fields(tb, k->config, k->n_config, cfg, why);
	if (!ret)
		ret = sp_nl_get_fields(tb, k->intervals, 1, dst, why);
	return ret;
}

int sp_nl_parse_lat(struct nlmsghdr *nlh, struct sp_lat *lat, const char **why)
{
	memset(lat, 0, sizeof(*lat));
	return parse_session(&lat_kind, nlh, lat, &lat->cfg, why);
}

int sp_nl_parse_bw(struct nlmsghdr *nlh, struct sp_bw *bw, const char **why)
{
	memset(bw, 0, sizeof(*bw));
	return parse_session(&bw_kind, nlh, bw, &bw->cfg, why);
}

/* A PROGRESS: its fields into dst and, when it carries one, its interval. */
static int parse_progress(const struct kind *k, struct nlmsghdr *nlh, void *dst, bool *has_ivl,
			  struct sp_interval *ivl, const char **why)
{
	struct nlattr *tb[SESSION_ATTR_MAX + 1];
	struct genlmsghdr *ghdr;
	int ret;

	if (!genlmsg_valid_hdr(nlh, 0))
		return sp_nl_bad(why, "truncated message");
	ghdr = nlmsg_data(nlh);
	if (ghdr->cmd != k->progress_cmd)
		return -EOPNOTSUPP;
	ret = sp_nl_parse_fields(nlh, tb, k->maxtype, k->progress, k->n_progress, dst, why);
	if (ret || !tb[k->interval_attr])
		return ret;
	*has_ivl = true;
	return get_interval(tb[k->interval_attr], k->interval_name, ivl, why);
}

int sp_nl_parse_lat_progress(struct nlmsghdr *nlh, struct sp_lat_progress *p,
			     const char **why)
{
	memset(p, 0, sizeof(*p));
	return parse_progress(&lat_kind, nlh, p, &p->has_interval, &p->interval, why);
}

int sp_nl_parse_bw_progress(struct nlmsghdr *nlh, struct sp_bw_progress *p, const char **why)
{
	memset(p, 0, sizeof(*p));
	return parse_progress(&bw_kind, nlh, p, &p->has_interval, &p->interval, why);
}

int sp_nl_parse_lat_samples(struct nlmsghdr *nlh, struct sp_lat_samples *s,
			    const char **why)
{
	struct nlattr *tb[SPARKPERF_A_LAT_MAX + 1], *data;
	int len, ret;

	memset(s, 0, sizeof(*s));
	ret = sp_nl_parse_fields(nlh, tb, SPARKPERF_A_LAT_MAX, samples_fields,
				ARRAY_SIZE(samples_fields), s, why);
	if (ret)
		return ret;
	data = tb[SPARKPERF_A_SAMPLES_DATA];
	len = data ? nla_len(data) : -1;
	if (len < 0 || len % (2 * sizeof(uint64_t)))
		return sp_nl_bad(why, "SPARKPERF_A_SAMPLES_DATA");
	s->data = nla_data(data);
	s->n = (size_t)len / (2 * sizeof(uint64_t));
	return 0;
}

/* ---- either kind, by its type -------------------------------------------- */

static int session_parse(const struct kind *k, struct nlmsghdr *nlh, union session *s,
			 const char **why)
{
	return k->type == KIND_LAT ? sp_nl_parse_lat(nlh, &s->lat, why) :
				     sp_nl_parse_bw(nlh, &s->bw, why);
}

static void session_free(const struct kind *k, union session *s)
{
	if (k->type == KIND_LAT)
		sp_lat_free(&s->lat);
	else
		sp_bw_free(&s->bw);
}

/* Appends *s to list (a struct sp_lat_list or sp_bw_list), taking it over. */
static int list_add(const struct kind *k, void *list, union session *s)
{
	return k->type == KIND_LAT ? sp_lat_list_add(list, &s->lat) :
				     sp_bw_list_add(list, &s->bw);
}

static void list_free(const struct kind *k, void *list)
{
	if (k->type == KIND_LAT)
		sp_lat_list_free(list);
	else
		sp_bw_list_free(list);
}

/* ---- transactions -------------------------------------------------------- */

/* What a parse or list callback of a transaction works on. */
struct kind_dst {
	const struct kind *k;
	void *dst;
};

static int id_cb(struct nlmsghdr *nlh, void *arg, const char **why)
{
	struct kind_dst *d = arg;

	return parse_id(d->k, nlh, d->dst, why);
}

static int run(struct sp_nl *nl, const struct kind *k, int ret, struct nl_msg *msg,
	       uint32_t *id)
{
	struct kind_dst d = { k, id };

	return sp_nl_transact_parse(nl, ret, msg, k->run_cmd, id_cb, &d);
}

int sp_nl_lat_run(struct sp_nl *nl, const struct sp_lat_config *cfg, uint32_t *id)
{
	struct nl_msg *msg;
	int ret = sp_nl_lat_run_msg(nl->family, cfg, &msg);

	return run(nl, &lat_kind, ret, msg, id);
}

int sp_nl_bw_run(struct sp_nl *nl, const struct sp_bw_config *cfg, uint32_t *id)
{
	struct nl_msg *msg;
	int ret = sp_nl_bw_run_msg(nl->family, cfg, &msg);

	return run(nl, &bw_kind, ret, msg, id);
}

static int stop(struct sp_nl *nl, const struct kind *k, uint32_t id)
{
	struct nl_msg *msg;
	int ret = stop_msg(nl->family, k, id, &msg);

	return sp_nl_transact_ack(nl, ret, msg, k->stop_cmd);
}

int sp_nl_lat_stop(struct sp_nl *nl, uint32_t id)
{
	return stop(nl, &lat_kind, id);
}

int sp_nl_bw_stop(struct sp_nl *nl, uint32_t id)
{
	return stop(nl, &bw_kind, id);
}

static int session_cb(struct nlmsghdr *nlh, void *arg, const char **why)
{
	struct kind_dst *d = arg;

	return session_parse(d->k, nlh, d->dst, why);
}

/* One session into *s, released on failure. */
static int get(struct sp_nl *nl, const struct kind *k, uint32_t id, union session *s)
{
	struct kind_dst d = { k, s };
	struct nl_msg *msg;
	int ret;

	ret = get_msg(nl->family, k, true, id, &msg);
	ret = sp_nl_transact_parse(nl, ret, msg, k->get_cmd, session_cb, &d);
	if (ret)
		session_free(k, s);
	return ret;
}

int sp_nl_lat_get(struct sp_nl *nl, uint32_t id, struct sp_lat *lat)
{
	union session s = { 0 };
	int ret = get(nl, &lat_kind, id, &s);

	*lat = s.lat;
	return ret;
}

int sp_nl_bw_get(struct sp_nl *nl, uint32_t id, struct sp_bw *bw)
{
	union session s = { 0 };
	int ret = get(nl, &bw_kind, id, &s);

	*bw = s.bw;
	return ret;
}

static int lat_dump_msg(int family, struct nl_msg **out)
{
	return get_msg(family, &lat_kind, false, 0, out);
}

static int bw_dump_msg(int family, struct nl_msg **out)
{
	return get_msg(family, &bw_kind, false, 0, out);
}

static int item_add(struct nlmsghdr *nlh, void *arg, const char **why)
{
	struct kind_dst *d = arg;
	union session s;
	int ret = session_parse(d->k, nlh, &s, why);

	if (!ret)
		ret = list_add(d->k, d->dst, &s);
	session_free(d->k, &s);
	return ret;
}

static void list_reset(void *arg)
{
	struct kind_dst *d = arg;

	list_free(d->k, d->dst);
}

/* Every session of kind k into list (emptied first); the dump is retried. */
static int list(struct sp_nl *nl, const struct kind *k,
		int (*dump_msg)(int family, struct nl_msg **out), void *lst)
{
	struct kind_dst d = { k, lst };

	return sp_nl_dump_list(nl, dump_msg, k->get_cmd, item_add, &d, list_reset,
			       "session list");
}

int sp_nl_lat_list(struct sp_nl *nl, struct sp_lat_list *l)
{
	memset(l, 0, sizeof(*l));
	return list(nl, &lat_kind, lat_dump_msg, l);
}

int sp_nl_bw_list(struct sp_nl *nl, struct sp_bw_list *l)
{
	memset(l, 0, sizeof(*l));
	return list(nl, &bw_kind, bw_dump_msg, l);
}

/* ---- samples ------------------------------------------------------------- */

/* The caller's fn and arg, for every message of the dump. */
struct samples_reader {
	sp_nl_samples_fn fn;
	void *arg;
};

static int samples_each(struct nlmsghdr *nlh, void *arg, const char **why)
{
	const struct samples_reader *r = arg;
	struct sp_lat_samples s;
	int ret = sp_nl_parse_lat_samples(nlh, &s, why);

	return ret ? ret : r->fn(&s, r->arg);
}

int sp_nl_lat_samples(struct sp_nl *nl, uint32_t id, sp_nl_samples_fn fn, void *arg)
{
	struct samples_reader r = { .fn = fn, .arg = arg };
	struct nl_msg *msg;
	int ret = sp_nl_lat_samples_msg(nl->family, id, &msg);

	return sp_nl_transact_each(nl, ret, msg, SPARKPERF_CMD_LAT_SAMPLES, samples_each, &r,
				   "the samples changed during the dump");
}

/* ---- the progress group -------------------------------------------------- */

/* The reader of one kind's progress messages: its callback, by the kind's type. */
struct progress_ctx {
	const struct kind *k;
	sp_nl_lat_progress_fn lat_fn;
	sp_nl_bw_progress_fn bw_fn;
	void *arg;
};

static int progress_one(struct nlmsghdr *nlh, void *arg)
{
	const struct progress_ctx *c = arg;
	union progress p;
	int ret;

	memset(&p, 0, sizeof(p));
	if (c->k->type == KIND_LAT)
		ret = parse_progress(c->k, nlh, &p.lat, &p.lat.has_interval, &p.lat.interval, NULL);
	else
		ret = parse_progress(c->k, nlh, &p.bw, &p.bw.has_interval, &p.bw.interval, NULL);
	if (ret)
		return ret;
	return (c->k->type == KIND_LAT ? c->lat_fn(&p.lat, c->arg) : c->bw_fn(&p.bw, c->arg)) != 0;
}

/*
 * Kind k's progress, to lat_fn or bw_fn: buf NULL, every pending datagram
 * of the group; else the one of len bytes.
 */
static int progress_read(struct sp_nl *nl, const struct kind *k, sp_nl_lat_progress_fn lat_fn,
			 sp_nl_bw_progress_fn bw_fn, void *arg, void *buf, size_t len)
{
	struct progress_ctx c = { .k = k, .lat_fn = lat_fn, .bw_fn = bw_fn, .arg = arg };

	if (!buf)
		return sp_nl_mcast_recv(nl, nl->pr_sk, progress_one, &c, &nl->bad_progress);
	return sp_nl_mcast_feed(nl, buf, len, progress_one, &c, &nl->bad_progress);
}

int sp_nl_lat_progress_recv(struct sp_nl *nl, sp_nl_lat_progress_fn fn, void *arg)
{
	return progress_read(nl, &lat_kind, fn, NULL, arg, NULL, 0);
}

int sp_nl_lat_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			    sp_nl_lat_progress_fn fn, void *arg)
{
	return progress_read(nl, &lat_kind, fn, NULL, arg, buf, len);
}

int sp_nl_bw_progress_recv(struct sp_nl *nl, sp_nl_bw_progress_fn fn, void *arg)
{
	return progress_read(nl, &bw_kind, NULL, fn, arg, NULL, 0);
}

int sp_nl_bw_progress_feed(struct sp_nl *nl, void *buf, size_t len,
			   sp_nl_bw_progress_fn fn, void *arg)
{
	return progress_read(nl, &bw_kind, NULL, fn, arg, buf, len);
}
