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

struct sp_server {
	uint32_t id;
	struct sp_addr addr;		/* len 0: listening on any address */
	uint16_t port;
	uint32_t active;		/* connections being served now */
	uint64_t served;		/* connections served since start */
};

struct sp_server_list {
	struct sp_server *servers;
	size_t n;
	size_t cap;
};

/*
 * A latency session's configuration. In a request, only the has_* fields
 * that are set are sent (the kernel applies its defaults to the others); in
 * a reply, they say which attributes the kernel echoed.
 */
struct sp_lat_config {
	struct sp_addr peer;
	bool has_port;
	uint16_t port;
	bool has_dev;
	char dev[SPARKPERF_DEV_NAME_MAX];
	bool has_op;
	uint8_t op;			/* enum sparkperf_lat_op */
	bool has_size;
	uint32_t size;			/* bytes */
	bool has_iters;
	uint64_t iters;
	bool has_duration;
	uint32_t duration_ms;
	bool has_warmup;
	uint32_t warmup;
	bool has_cpu;
	uint32_t cpu;
	bool has_samples_max;
	uint32_t samples_max;
	bool has_interval;
	uint32_t interval_ms;
};

/*
 * One completed interval of a session's series. Latency: end_ns since the
 * first measured round trip, count round trips, their p50, p99 and max
 * (round trip times). Bandwidth: end_ns since the session's START_NS, count
 * messages and bytes, both directions.
 */
struct sp_interval {
	uint64_t end_ns;
	uint64_t count;
	uint64_t p50_ns;
	uint64_t p99_ns;
	uint64_t max_ns;
	uint64_t bytes;
};

#define SP_LAT_ERRMSG_MAX 256

/* SPARKPERF_CMD_LAT_GET: one session; all times are round trips, in ns. */
struct sp_lat {
	uint32_t id;
	struct sp_lat_config cfg;	/* cfg.dev, cfg.cpu: the device and CPU used */
	uint8_t state;			/* enum sparkperf_lat_state */
	bool has_error;
	int32_t error;			/* negative errno */
	bool has_error_msg;
	char error_msg[SP_LAT_ERRMSG_MAX];
	uint64_t warmup_done;
	uint64_t count;
	uint64_t elapsed_ns;
	uint64_t yields;		/* between round trips */
	uint64_t rt_yields;	/* round trips that yielded inside */
	bool has_clock_res;
	uint32_t clock_res_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t sum_ns;
	uint64_t sumsq_hi;		/* 128-bit sum of squares, ns^2 */
	uint64_t sumsq_lo;
	uint64_t p50_ns;
	uint64_t p90_ns;
	uint64_t p99_ns;
	uint64_t p999_ns;
	uint64_t p9999_ns;
	uint64_t p99999_ns;
	struct sp_interval *intervals;
	size_t n_intervals;
};

struct sp_lat_list {
	struct sp_lat *lats;
	size_t n;
	size_t cap;
};

/*
 * A bandwidth session's configuration, with the conventions of struct
 * sp_lat_config. bidir and validate are flags: sent when true; in a reply,
 * true when the kernel echoed them.
 */
struct sp_bw_config {
	struct sp_addr peer;
	bool has_port;
	uint16_t port;
	bool has_dev;
	char dev[SPARKPERF_DEV_NAME_MAX];
	bool has_op;
	uint8_t op;			/* enum sparkperf_lat_op */
	bool has_size;
	uint32_t size;			/* bytes per message */
	bool has_qps;
	uint32_t qps;
	bool has_threads;
	uint32_t threads;
	bool has_depth;
	uint32_t depth;			/* work requests in flight per QP */
	bool has_signal;
	uint32_t signal;		/* a completion every this many */
	bool has_iters;
	uint64_t iters;			/* messages per QP */
	bool has_duration;
	uint32_t duration_ms;
	bool bidir;
	bool validate;
	bool has_interval;
	uint32_t interval_ms;
	bool has_start_at;
	uint64_t start_at_ns;		/* CLOCK_MONOTONIC */
};

/* SPARKPERF_CMD_BW_GET: one session. Bytes and messages are payload. */
struct sp_bw {
	uint32_t id;
	struct sp_bw_config cfg;	/* cfg.dev: the device used */
	uint8_t state;			/* enum sparkperf_lat_state */
	bool has_error;
	int32_t error;			/* negative errno */
	bool has_error_msg;
	char error_msg[SP_LAT_ERRMSG_MAX];
	bool has_start;
	uint64_t start_ns;		/* CLOCK_MONOTONIC, first work request */
	uint64_t elapsed_ns;		/* from then to the last completion */
	uint64_t tx_bytes;
	uint64_t tx_msgs;
	uint64_t rx_bytes;
	uint64_t rx_msgs;
	bool has_validate_errors;
	uint64_t validate_errors;
	bool has_cpu;
	uint64_t cpu_ns;		/* CPU time of the sending threads */
	struct sp_interval *intervals;	/* end_ns since start_ns */
	size_t n_intervals;
};

struct sp_bw_list {
	struct sp_bw *bws;
	size_t n;
	size_t cap;
};

/* SPARKPERF_CMD_BW_PROGRESS on the "progress" group. */
struct sp_bw_progress {
	uint32_t id;
	uint8_t state;
	uint64_t tx_bytes;
	uint64_t rx_bytes;
	bool has_interval;		/* sent at the end of an interval */
	struct sp_interval interval;
};

/* SPARKPERF_CMD_LAT_PROGRESS on the "progress" group. */
struct sp_lat_progress {
	uint32_t id;
	uint8_t state;
	uint64_t count;
	uint64_t warmup_done;
	bool has_interval;		/* sent at the end of an interval */
	struct sp_interval interval;
};

/* One SPARKPERF_CMD_LAT_SAMPLES message: n raw samples, not yet decoded. */
struct sp_lat_samples {
	uint32_t id;
	uint64_t first;			/* measured-iteration number of the first */
	const void *data;		/* n pairs of host-order __u64: start_ns, rtt_ns */
	size_t n;
};

/* Sample i of a chunk (i < n): its start and round trip time, in ns. */
void sp_lat_samples_get(const struct sp_lat_samples *s, size_t i,
			uint64_t *start_ns, uint64_t *rtt_ns);

/*
 * Appends the elem_size bytes at elem to the array *items of *n elements
 * (room for *cap), doubling it when full; 0 or -ENOMEM.
 */
int sp_array_add(void *items, size_t *n, size_t *cap, size_t elem_size, const void *elem);

void sp_dev_free(struct sp_dev *dev);
void sp_dev_list_free(struct sp_dev_list *list);
/* Appends a copy of *dev (taking ownership of its arrays); 0 or -ENOMEM. */
int sp_dev_list_add(struct sp_dev_list *list, struct sp_dev *dev);

/* The same for servers and sessions. */
void sp_server_list_free(struct sp_server_list *list);
int sp_server_list_add(struct sp_server_list *list, const struct sp_server *srv);
void sp_lat_free(struct sp_lat *lat);
void sp_lat_list_free(struct sp_lat_list *list);
int sp_lat_list_add(struct sp_lat_list *list, struct sp_lat *lat);
void sp_bw_free(struct sp_bw *bw);
void sp_bw_list_free(struct sp_bw_list *list);
int sp_bw_list_add(struct sp_bw_list *list, struct sp_bw *bw);
/*
 * Why a session failed, in words: the module's message, else its errno
 * (negative or not) as strerror() says it; NULL when neither is known.
 */
const char *sp_session_error(bool has_msg, const char *msg, bool has_error, int32_t error);
/* true once the session has ended: DONE, STOPPED or FAILED */
bool sp_lat_state_final(unsigned int state);

/* ---- the host's network, as rtnetlink and ethtool netlink report it ---- */

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

/* A netdev's link modes (ethtool netlink, LINKMODES_GET). */
struct sp_link_modes {
	bool has_speed;
	uint32_t speed_mbps;		/* now */
	uint32_t max_mbps;		/* the fastest mode both ends support; 0: none known */
	char max_mode[48];		/* its name: "200000baseCR4/Full" */
};

#endif
