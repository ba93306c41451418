// SPDX-License-Identifier: GPL-2.0
/*
 * The attribute half of the netlink core (nlcore.h): request headers, and
 * the tables of struct field that build a request and parse a reply, so
 * that each message names its attributes once and one loop reads them, and
 * the attributes' names that an extended ACK's missing attribute is told by.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sparkperf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nlcore.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- request headers --------------------------------------------------- */

int sp_nl_req(int family, uint8_t cmd, int flags, struct nl_msg **out)
{
	struct nl_msg *msg = nlmsg_alloc();

	*out = NULL;
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
			 NLM_F_REQUEST | flags, cmd, SPARKPERF_GENL_VERSION)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	*out = msg;
	return 0;
}

int sp_nl_req_fail(struct nl_msg **out)
{
	nlmsg_free(*out);
	*out = NULL;
	return -ENOMEM;
}

int sp_nl_id_req(int family, uint8_t cmd, int flags, int attr, bool has_id, uint32_t id,
		 struct nl_msg **out)
{
	int ret = sp_nl_req(family, cmd, flags, out);

	if (ret)
		return ret;
	if (has_id && nla_put_u32(*out, attr, id) < 0)
		return sp_nl_req_fail(out);
	return 0;
}

int sp_rtnl_req(uint16_t type, int flags, size_t hdr_len, void **hdr, struct nl_msg **out)
{
	struct nl_msg *msg = nlmsg_alloc_simple(type, NLM_F_REQUEST | flags);

	*out = NULL;
	if (!msg)
		return -ENOMEM;
	*hdr = nlmsg_reserve(msg, hdr_len, NLMSG_ALIGNTO);
	if (!*hdr) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	memset(*hdr, 0, hdr_len);
	*out = msg;
	return 0;
}

bool sp_nl_addr_valid(const struct sp_addr *a)
{
	return a->len == 4 || a->len == 16;
}

/* ---- single attributes ------------------------------------------------- */

int sp_nl_bad(const char **why, const char *reason)
{
	if (why)
		*why = reason;
	return -EBADMSG;
}

/* The bytes of each integer kind: its attribute holds exactly that many. */
static const size_t int_size[] = {
	[F_U8] = 1, [F_U16] = 2, [F_U32] = 4, [F_U64] = 8, [F_S32] = 4,
};

/* An integer of size bytes, in host order as netlink carries it. */
static int get_int(const struct nlattr *a, void *v, size_t size)
{
	if (nla_len(a) < 0 || (size_t)nla_len(a) != size)
		return -EBADMSG;
	memcpy(v, nla_data(a), size);
	return 0;
}

int sp_nl_get_u32(const struct nlattr *a, uint32_t *v)
{
	return get_int(a, v, sizeof(*v));
}

int sp_nl_get_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = nla_data(a), *nul;
	int len = nla_len(a);

	nul = len > 0 ? memchr(s, '\0', (size_t)len) : NULL;
	if (!nul || (size_t)(nul - s) >= size)
		return -EBADMSG;
	memcpy(buf, s, (size_t)(nul - s) + 1);
	return 0;
}

int sp_nl_get_str_cut(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = nla_data(a);
	int len = nla_len(a);
	size_t n;

	if (len <= 0 || !memchr(s, '\0', (size_t)len))
		return -EBADMSG;
	n = strlen(s);
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

int sp_nl_get_addr(const struct nlattr *a, struct sp_addr *addr)
{
	int len = nla_len(a);

	if (len != 4 && len != 16)
		return -EBADMSG;
	memset(addr, 0, sizeof(*addr));
	addr->len = (uint8_t)len;
	memcpy(addr->raw, nla_data(a), (size_t)len);
	return 0;
}

/* ---- tables ------------------------------------------------------------ */

static size_t count_nested(struct nlattr *nest, int type)
{
	struct nlattr *pos;
	size_t n = 0;
	int rem;

	nla_for_each_nested(pos, nest, rem)
		if (nla_type(pos) == type)
			n++;
	return n;
}

/* An F_ARRAY: the entries of nest into base's array; see struct field. */
static int get_array(struct nlattr *nest, const struct field *f, char *base, const char **why)
{
	size_t count = count_nested(nest, f->entry), *n = (size_t *)(base + f->count);
	struct nlattr *pos;
	char *arr;
	int rem, ret;

	if (!count)
		return 0;
	arr = calloc(count, f->size);
	if (!arr)
		return -ENOMEM;
	memcpy(base + f->off, &arr, sizeof(arr));
	nla_for_each_nested(pos, nest, rem) {
		if (nla_type(pos) != f->entry)
			continue;
		ret = f->get(pos, arr + *n * f->size, why);
		(*n)++;
		if (ret)
			return ret;
	}
	return 0;
}

static int get_field(const struct nlattr *a, const struct field *f, void *p)
{
	switch (f->kind) {
	case F_FLAG:
		*(bool *)p = true;
		return 0;
	case F_ADDR:
		return sp_nl_get_addr(a, p);
	case F_STR:
		return sp_nl_get_str(a, p, f->size);
	case F_STR_CUT:
		return sp_nl_get_str_cut(a, p, f->size);
	case F_ARRAY:
		return -EINVAL;		/* read by get_array() */
	default:
		return get_int(a, p, int_size[f->kind]);
	}
}

int sp_nl_get_fields(struct nlattr **tb, const struct field *f, size_t n, void *dst,
		     const char **why)
{
	char *base = dst;
	int ret;

	for (; n; n--, f++) {
		struct nlattr *a = tb[f->type];

		if (!a) {
			if (f->required)
				return sp_nl_bad(why, f->name);
			continue;
		}
		if (f->kind == F_ARRAY) {
			ret = get_array(a, f, base, why);
			if (ret)
				return ret;
			continue;
		}
		if (get_field(a, f, base + f->off))
			return sp_nl_bad(why, f->name);
		if (f->has)
			*(bool *)(base + f->has - 1) = true;
	}
	return 0;
}

int sp_nl_parse_fields(struct nlmsghdr *nlh, struct nlattr **tb, int maxtype,
		       const struct field *f, size_t n, void *dst, const char **why)
{
	if (genlmsg_parse(nlh, 0, tb, maxtype, NULL) < 0)
		return sp_nl_bad(why, "truncated message");
	return sp_nl_get_fields(tb, f, n, dst, why);
}

int sp_nl_parse_nested(struct nlattr *attr, struct nlattr **tb, int maxtype, const char *name,
		       const struct field *f, size_t n, void *dst, const char **why)
{
	if (nla_parse_nested(tb, maxtype, attr, NULL) < 0)
		return sp_nl_bad(why, name);
	return sp_nl_get_fields(tb, f, n, dst, why);
}

int sp_nl_parse_reply(struct nlmsghdr *nlh, const struct sp_nl_reply *r, void *dst,
		      const char **why)
{
	struct nlattr **tb = calloc((size_t)r->maxtype + 1, sizeof(*tb));
	int ret;

	memset(dst, 0, r->size);
	if (!tb)
		return -ENOMEM;
	ret = sp_nl_parse_fields(nlh, tb, r->maxtype, r->fields, r->n, dst, why);
	free(tb);
	return ret;
}

static int put_field(struct nl_msg *m, const struct field *f, const void *p)
{
	const struct sp_addr *a = p;

	switch (f->kind) {
	case F_FLAG:
		return *(const bool *)p ? nla_put_flag(m, f->type) : 0;
	case F_ADDR:
		return a->len ? nla_put(m, f->type, a->len, a->raw) : 0;
	case F_STR:
	case F_STR_CUT:
		return nla_put_string(m, f->type, p);
	case F_ARRAY:
		return -EINVAL;
	default:
		return nla_put(m, f->type, (int)int_size[f->kind], p);
	}
}

int sp_nl_put_fields(struct nl_msg *m, const struct field *f, size_t n, const void *src)
{
	const char *base = src;

	for (; n; n--, f++) {
		if (f->has && !*(const bool *)(base + f->has - 1))
			continue;
		if (put_field(m, f, base + f->off) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* ---- names, for the kernel's "missing attribute" --------------------- */

#define N(x) [x] = #x
static const char *const dev_attr_names[] = {
	N(SPARKPERF_A_DEV_PAD),
	N(SPARKPERF_A_DEV_INDEX),
	N(SPARKPERF_A_DEV_NAME),
	N(SPARKPERF_A_DEV_NODE_GUID),
	N(SPARKPERF_A_DEV_NUMA_NODE),
	N(SPARKPERF_A_DEV_PARENT),
	N(SPARKPERF_A_DEV_PORTS),
	N(SPARKPERF_A_DEV_EVENT_PORT),
};

static const char *const info_attr_names[] = {
	N(SPARKPERF_A_INFO_VERSION),
	N(SPARKPERF_A_INFO_KERNEL),
	N(SPARKPERF_A_INFO_DEVICES),
};

static const char *const server_attr_names[] = {
	N(SPARKPERF_A_SERVER_PAD),
	N(SPARKPERF_A_SERVER_ID),
	N(SPARKPERF_A_SERVER_ADDR),
	N(SPARKPERF_A_SERVER_PORT),
	N(SPARKPERF_A_SERVER_ACTIVE),
	N(SPARKPERF_A_SERVER_SERVED),
};

static const char *const lat_attr_names[] = {
	N(SPARKPERF_A_LAT_PAD),
	N(SPARKPERF_A_LAT_ID),
	N(SPARKPERF_A_LAT_PEER),
	N(SPARKPERF_A_LAT_PORT),
	N(SPARKPERF_A_LAT_DEV),
	N(SPARKPERF_A_LAT_OP),
	N(SPARKPERF_A_LAT_SIZE),
	N(SPARKPERF_A_LAT_ITERS),
	N(SPARKPERF_A_LAT_DURATION_MS),
	N(SPARKPERF_A_LAT_WARMUP),
	N(SPARKPERF_A_LAT_CPU),
	N(SPARKPERF_A_LAT_SAMPLES_MAX),
	N(SPARKPERF_A_LAT_INTERVAL_MS),
	N(SPARKPERF_A_LAT_STATE),
	N(SPARKPERF_A_LAT_ERROR),
	N(SPARKPERF_A_LAT_ERROR_MSG),
	N(SPARKPERF_A_LAT_WARMUP_DONE),
	N(SPARKPERF_A_LAT_COUNT),
	N(SPARKPERF_A_LAT_ELAPSED_NS),
	N(SPARKPERF_A_LAT_YIELDS),
	N(SPARKPERF_A_LAT_RT_YIELDS),
	N(SPARKPERF_A_LAT_CLOCK_RES_NS),
	N(SPARKPERF_A_LAT_MIN_NS),
	N(SPARKPERF_A_LAT_MAX_NS),
	N(SPARKPERF_A_LAT_SUM_NS),
	N(SPARKPERF_A_LAT_SUMSQ_HI),
	N(SPARKPERF_A_LAT_SUMSQ_LO),
	N(SPARKPERF_A_LAT_P50_NS),
	N(SPARKPERF_A_LAT_P90_NS),
	N(SPARKPERF_A_LAT_P99_NS),
	N(SPARKPERF_A_LAT_P999_NS),
	N(SPARKPERF_A_LAT_P9999_NS),
	N(SPARKPERF_A_LAT_P99999_NS),
	N(SPARKPERF_A_LAT_INTERVALS),
	N(SPARKPERF_A_LAT_INTERVAL),
	N(SPARKPERF_A_SAMPLES_FIRST),
	N(SPARKPERF_A_SAMPLES_DATA),
};

static const char *const bw_attr_names[] = {
	N(SPARKPERF_A_BW_PAD),
	N(SPARKPERF_A_BW_ID),
	N(SPARKPERF_A_BW_PEER),
	N(SPARKPERF_A_BW_PORT),
	N(SPARKPERF_A_BW_DEV),
	N(SPARKPERF_A_BW_OP),
	N(SPARKPERF_A_BW_SIZE),
	N(SPARKPERF_A_BW_QPS),
	N(SPARKPERF_A_BW_THREADS),
	N(SPARKPERF_A_BW_DEPTH),
	N(SPARKPERF_A_BW_SIGNAL),
	N(SPARKPERF_A_BW_ITERS),
	N(SPARKPERF_A_BW_DURATION_MS),
	N(SPARKPERF_A_BW_BIDIR),
	N(SPARKPERF_A_BW_VALIDATE),
	N(SPARKPERF_A_BW_INTERVAL_MS),
	N(SPARKPERF_A_BW_START_AT_NS),
	N(SPARKPERF_A_BW_STATE),
	N(SPARKPERF_A_BW_ERROR),
	N(SPARKPERF_A_BW_ERROR_MSG),
	N(SPARKPERF_A_BW_START_NS),
	N(SPARKPERF_A_BW_ELAPSED_NS),
	N(SPARKPERF_A_BW_TX_BYTES),
	N(SPARKPERF_A_BW_TX_MSGS),
	N(SPARKPERF_A_BW_RX_BYTES),
	N(SPARKPERF_A_BW_RX_MSGS),
	N(SPARKPERF_A_BW_VALIDATE_ERRORS),
	N(SPARKPERF_A_BW_CPU_NS),
	N(SPARKPERF_A_BW_INTERVALS),
	N(SPARKPERF_A_BW_INTERVAL),
};

static const char *const trace_attr_names[] = {
	N(SPARKPERF_A_TRACE_PAD),
	N(SPARKPERF_A_TRACE_ID),
	N(SPARKPERF_A_TRACE_TARGETS),
	N(SPARKPERF_A_TRACE_TARGET),
	N(SPARKPERF_A_TRACE_GLOBS),
	N(SPARKPERF_A_TRACE_GLOB),
	N(SPARKPERF_A_TRACE_NETDEV_PERIOD_US),
	N(SPARKPERF_A_TRACE_ETHTOOL_PERIOD_US),
	N(SPARKPERF_A_TRACE_RDMA_PERIOD_US),
	N(SPARKPERF_A_TRACE_DURATION_MS),
	N(SPARKPERF_A_TRACE_BUFFER_BYTES),
	N(SPARKPERF_A_TRACE_BATCH_MS),
	N(SPARKPERF_A_TRACE_STATE),
	N(SPARKPERF_A_TRACE_ERROR),
	N(SPARKPERF_A_TRACE_ERROR_MSG),
	N(SPARKPERF_A_TRACE_START_NS),
	N(SPARKPERF_A_TRACE_ELAPSED_NS),
	N(SPARKPERF_A_TRACE_SLOTS),
	N(SPARKPERF_A_TRACE_SEQ_NEXT),
	N(SPARKPERF_A_TRACE_SEQ_OLDEST),
	N(SPARKPERF_A_TRACE_STREAMS),
	N(SPARKPERF_A_TRACE_STREAM),
	N(SPARKPERF_A_TRACE_CURSOR),
	N(SPARKPERF_A_TRACE_LOST),
	N(SPARKPERF_A_TRACE_SAMPLES),
	N(SPARKPERF_A_TRACE_SAMPLE),
	N(SPARKPERF_A_TRACE_CPU_NS),
};
#undef N

const char *sp_nl_attr_name(uint8_t cmd, uint32_t type)
{
	const char *const *names;
	size_t n;

	switch (cmd) {
	case SPARKPERF_CMD_INFO_GET:
		names = info_attr_names;
		n = ARRAY_SIZE(info_attr_names);
		break;
	case SPARKPERF_CMD_DEV_GET:
		names = dev_attr_names;
		n = ARRAY_SIZE(dev_attr_names);
		break;
	case SPARKPERF_CMD_SERVER_START:
	case SPARKPERF_CMD_SERVER_STOP:
	case SPARKPERF_CMD_SERVER_GET:
		names = server_attr_names;
		n = ARRAY_SIZE(server_attr_names);
		break;
	case SPARKPERF_CMD_LAT_RUN:
	case SPARKPERF_CMD_LAT_STOP:
	case SPARKPERF_CMD_LAT_GET:
	case SPARKPERF_CMD_LAT_SAMPLES:
		names = lat_attr_names;
		n = ARRAY_SIZE(lat_attr_names);
		break;
	case SPARKPERF_CMD_BW_RUN:
	case SPARKPERF_CMD_BW_STOP:
	case SPARKPERF_CMD_BW_GET:
		names = bw_attr_names;
		n = ARRAY_SIZE(bw_attr_names);
		break;
	case SPARKPERF_CMD_COUNTERS_GET:
	case SPARKPERF_CMD_TRACE_START:
	case SPARKPERF_CMD_TRACE_STOP:
	case SPARKPERF_CMD_TRACE_GET:
	case SPARKPERF_CMD_TRACE_SAMPLES:
		names = trace_attr_names;
		n = ARRAY_SIZE(trace_attr_names);
		break;
	default:
		return NULL;
	}
	return type < n ? names[type] : NULL;
}
