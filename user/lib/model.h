/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain C structs for what the sparkperf module (and, at the end, the
 * kernel's rtnetlink, DCB and ethtool netlink) reports. nl.c fills them from
 * netlink replies, print.c prints them; neither side sees the other's types.
 */
#ifndef SPARKPERF_CTL_MODEL_H
#define SPARKPERF_CTL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/dcbnl.h>
#include <linux/sparkperf.h>

#define SP_IFNAME_MAX 16	/* IFNAMSIZ, with the NUL */
#define SP_PARENT_MAX 64
#define SP_GID_LEN 16

struct sp_gid {
	uint32_t index;
	uint8_t type;			/* enum sparkperf_gid_type */
	uint8_t raw[SP_GID_LEN];	/* network byte order */
};

struct sp_port {
	uint32_t num;
	uint8_t state;			/* enum sparkperf_port_state */
	uint8_t phys_state;		/* enum sparkperf_port_phys_state */
	uint8_t link_layer;		/* enum sparkperf_link_layer */
	uint32_t active_mtu;		/* bytes */
	uint32_t max_mtu;		/* bytes */
	uint8_t active_speed;		/* enum sparkperf_port_speed */
	uint8_t active_width;		/* lanes */
	uint32_t rate_mbps;		/* 10^6 bit/s */
	bool has_netdev;		/* RoCE port with an Ethernet netdev */
	uint32_t netdev_ifindex;
	char netdev_name[SP_IFNAME_MAX];
	uint32_t netdev_mtu;		/* bytes */
	uint8_t netdev_operstate;	/* RFC 2863 IF_OPER_* */
	struct sp_gid *gids;
	size_t n_gids;
};

struct sp_dev {
	uint32_t index;
	char name[SPARKPERF_DEV_NAME_MAX];
	uint64_t node_guid;		/* host byte order */
	int32_t numa_node;		/* -1 when unknown */
	bool has_parent;
	char parent[SP_PARENT_MAX];	/* PCI name, e.g. 0000:01:00.0 */
	struct sp_port *ports;
	size_t n_ports;
};

struct sp_dev_list {
	struct sp_dev *devs;
	size_t n;
	size_t cap;
};

enum sp_dev_event_type {
	SP_DEV_EVENT_NEW,
	SP_DEV_EVENT_CHANGE,
	SP_DEV_EVENT_DEL,
};

struct sp_dev_event {
	enum sp_dev_event_type type;
	bool has_port;			/* SP_DEV_EVENT_CHANGE */
	uint32_t port;
	struct sp_dev dev;		/* index and name only for DEL */
};

struct sp_info {
	char version[64];
	char kernel[128];
	bool has_devices;
	uint32_t devices;
};

/* An IPv4 (len 4) or IPv6 (len 16) address, network byte order; len 0: any. */
#define SP_ADDR_MAX 16

struct sp_addr {
	uint8_t len;
	uint8_t raw[SP_ADDR_MAX];
};

#define SP_LAT_ERRMSG_MAX 256

/*
 * Appends the elem_size bytes at elem to the array *items of *n elements
 * (room for *cap), doubling it when full; 0 or -ENOMEM.
 */
int sp_array_add(void *items, size_t *n, size_t *cap, size_t elem_size, const void *elem);

void sp_dev_free(struct sp_dev *dev);
void sp_dev_list_free(struct sp_dev_list *list);
/* Appends a copy of *dev (taking ownership of its arrays); 0 or -ENOMEM. */
int sp_dev_list_add(struct sp_dev_list *list, struct sp_dev *dev);

/*
 * Why a session failed, in words: the module's message, else its errno
 * (negative or not) as strerror() says it; NULL when neither is known.
 */
const char *sp_session_error(bool has_msg, const char *msg, bool has_error, int32_t error);
/* true once the session has ended: DONE, STOPPED or FAILED */
bool sp_lat_state_final(unsigned int state);

/* ---- counters and traces ------------------------------------------------- */

#define SP_COUNTER_NAME_MAX 32	/* ETH_GSTRING_LEN, with the NUL */

typedef char sp_counter_name[SP_COUNTER_NAME_MAX];

/* What a trace or a counter read looks at: a netdev, or an RDMA device port. */
struct sp_trace_target {
	bool rdma;
	char name[SPARKPERF_DEV_NAME_MAX];
	uint32_t port;			/* rdma: 1-based; 0 sends none (the module's 1) */
};

/*
 * One stream: one source of one target, its name table and, from a
 * TRACE_GET, its sampling statistics; from a COUNTERS_GET, one reading.
 */
struct sp_stream {
	uint32_t index;
	uint8_t source;			/* enum sparkperf_counter_source */
	char target[SPARKPERF_DEV_NAME_MAX];
	bool has_ifindex;
	uint32_t ifindex;
	bool has_port;
	uint32_t port;
	uint32_t period_us;
	uint32_t version;		/* of the name table, from 1 */
	uint32_t slot_values;
	bool truncated;
	sp_counter_name *names;
	size_t n_names;
	uint64_t samples;
	uint64_t missed;
	uint64_t read_ns_sum;
	uint64_t read_ns_max;
	uint64_t late_ns_max;
	/* one reading (COUNTERS_GET): a value per name */
	uint64_t *values;
	size_t n_values;
	bool has_ts;
	uint64_t ts_ns;
	uint32_t read_ns;
};

struct sp_stream_list {
	struct sp_stream *streams;
	size_t n;
	size_t cap;
};

/* SPARKPERF_CMD_TRACE_GET (also the reply to TRACE_START and TRACE_END). */
struct sp_trace {
	uint32_t id;
	uint8_t state;			/* enum sparkperf_trace_state */
	bool has_error;
	int32_t error;
	bool has_error_msg;
	char error_msg[SP_LAT_ERRMSG_MAX];
	uint64_t start_ns;		/* CLOCK_MONOTONIC, the grid's origin */
	uint64_t elapsed_ns;
	bool has_duration;
	uint32_t duration_ms;
	uint32_t buffer_bytes;
	uint32_t batch_ms;
	bool has_cpu;
	uint64_t cpu_ns;		/* of the sampler thread */
	uint32_t slots;
	uint64_t seq_next;
	uint64_t seq_oldest;
	struct sp_stream *streams;
	size_t n_streams;
};

struct sp_trace_list {
	struct sp_trace *traces;
	size_t n;
	size_t cap;
};

/* A TRACE_START request; has_* as in struct sp_lat_config. */
struct sp_trace_config {
	struct sp_trace_target targets[SPARKPERF_TRACE_TARGETS_MAX];
	size_t n_targets;
	const char *globs[SPARKPERF_TRACE_GLOBS_MAX];
	size_t n_globs;			/* 0: every counter */
	bool has_netdev_period;
	uint32_t netdev_period_us;
	bool has_ethtool_period;
	uint32_t ethtool_period_us;
	bool has_rdma_period;
	uint32_t rdma_period_us;
	bool has_duration;
	uint32_t duration_ms;
	bool has_buffer;
	uint32_t buffer_bytes;
	bool has_batch;
	uint32_t batch_ms;
};

/* One sample of a TRACE_SAMPLES message; values point into the message. */
struct sp_trace_sample {
	uint64_t seq;
	uint32_t stream;
	uint32_t version;
	uint64_t ts_ns;			/* CLOCK_MONOTONIC, when the read started */
	uint32_t read_ns;
	const void *values;		/* n host-order __u64, 4-byte aligned only */
	size_t n;
};

/* One TRACE_SAMPLES message (a dump part or a multicast batch). */
struct sp_trace_samples {
	uint32_t id;
	uint64_t lost;			/* samples from the cursor on no longer kept */
	struct sp_trace_sample *s;
	size_t n;
};

/* Value i (< s->n) of a sample. */
uint64_t sp_trace_sample_value(const struct sp_trace_sample *s, size_t i);
void sp_trace_samples_free(struct sp_trace_samples *s);
void sp_stream_free(struct sp_stream *st);
/* A deep copy of src into dst (names and values); 0 or -ENOMEM. */
int sp_stream_copy(struct sp_stream *dst, const struct sp_stream *src);
void sp_stream_list_free(struct sp_stream_list *list);
int sp_stream_list_add(struct sp_stream_list *list, struct sp_stream *st);
void sp_trace_free(struct sp_trace *t);
void sp_trace_list_free(struct sp_trace_list *list);
int sp_trace_list_add(struct sp_trace_list *list, struct sp_trace *t);
/* true once a trace has ended: DONE, STOPPED or FAILED */
bool sp_trace_state_final(unsigned int state);

/* ---- the host's network, as rtnetlink, DCB and ethtool netlink report it ---- */

/* DSCP to priority APP entries of a netdev (IEEE 802.1Qaz, selector DSCP). */
#define SP_DSCP_COUNT 64

struct sp_dscp_map {
	bool has[SP_DSCP_COUNT];
	uint8_t prio[SP_DSCP_COUNT];
};

/* The DCB state of a netdev that has DCB (DCB_CMD_IEEE_GET). */
struct sp_dcb {
	bool has_pfc;
	struct ieee_pfc pfc;		/* as the driver reports it, for a SET */
	struct sp_dscp_map dscp;
};

/* The kernel's answer to "ip route get ADDR". */
struct sp_route {
	uint8_t type;			/* RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE ... */
	uint32_t oif;			/* 0: none */
	bool has_gateway;
	struct sp_addr gateway;
	bool has_prefsrc;
	struct sp_addr prefsrc;
	uint32_t mtu;			/* the route's MTU metric; 0: none */
};

/* A neighbour (ARP) entry. */
#define SP_LLADDR_MAX 32

struct sp_neigh {
	uint16_t state;			/* NUD_* */
	uint8_t lladdr_len;
	uint8_t lladdr[SP_LLADDR_MAX];
};

/* A netdev's link modes (ethtool netlink, LINKMODES_GET). */
struct sp_link_modes {
	bool has_speed;
	uint32_t speed_mbps;		/* now */
	uint32_t max_mbps;		/* the fastest mode both ends support; 0: none known */
	char max_mode[48];		/* its name: "200000baseCR4/Full" */
};

#endif
