/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure argument parsers and value formatters: no I/O, no globals, no netlink.
 * Parsers return 0, -EINVAL (not a valid value) or -ERANGE (valid but outside
 * [min, max]).
 */
#ifndef SPARKPERF_CTL_PARSE_H
#define SPARKPERF_CTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A parser's reason, one line into err (len bytes); returns -EINVAL. */
int sp_invalid(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Decimal only: no sign, no blanks, no base prefix. */
int sp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int sp_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/*
 * Sizes in bytes: an integer with an optional suffix B, K or KiB (2^10),
 * M or MiB (2^20), G or GiB (2^30). "KB"/"MB"/"GB" are rejected as ambiguous.
 */
int sp_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Durations in nanoseconds: a decimal number (fraction allowed: "1.5s") with
 * an optional unit ns, us, ms, s (the default), m or h. The value must be a
 * whole number of nanoseconds.
 */
int sp_parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
		      uint64_t *out_ns);

/*
 * A duration as sp_parse_duration() reads it ("1.5" is 1.5 s, "250ms"), in
 * whole milliseconds: -EINVAL when it is not a whole number of them.
 */
int sp_parse_duration_ms(const char *s, uint32_t min_ms, uint32_t max_ms,
			 uint32_t *out_ms);

/*
 * "A..B" (sizes as sp_parse_size() reads them, A <= B) or a single size A
 * (then *lo == *hi). Both ends must lie in [min, max].
 */
int sp_parse_size_range(const char *s, uint64_t min, uint64_t max,
			uint64_t *lo, uint64_t *hi);

/*
 * The sizes of a sweep from lo to hi: lo, every power of two above lo and
 * below hi, then hi (2..8M: 2, 4, ..., 8M; 3..10: 3, 4, 8, 10). Writes at
 * most max of them and returns how many there are (lo <= hi, lo >= 1).
 */
size_t sp_size_sweep(uint64_t lo, uint64_t hi, uint64_t *out, size_t max);

/* Largest number of sizes in a sweep: 1 .. 2^63 and then 2^64 - 1. */
#define SP_SWEEP_MAX 65

/* "a,b,c": no empty items. */
struct sp_list {
	char **items;
	size_t n;
	char *buf;
};

int sp_parse_list(const char *s, struct sp_list *out);
void sp_list_free(struct sp_list *list);

/*
 * The first item an earlier one repeats, NULL when each is there once: for
 * the lists that are sets (devices to read, switch ports to change), where a
 * repeat does the work twice; lists matched item by item to another may
 * repeat.
 */
const char *sp_list_repeated(const struct sp_list *list);

/* RDMA device names: 1 .. SPARKPERF_DEV_NAME_MAX - 1 bytes, no '/' or blanks. */
bool sp_dev_name_valid(const char *s);

struct sp_addr;

/*
 * A numeric IPv4 ("192.168.200.12": 4 bytes) or IPv6 ("fe80::1": 16 bytes)
 * address, network byte order. No host names, no "%scope". -EINVAL otherwise.
 */
int sp_parse_addr(const char *s, struct sp_addr *out);

struct sp_net;

/*
 * A network "ADDR/PREFIX", or an address alone (/32, /128): -EINVAL for a
 * bad address or prefix, -EDOM when bits after the prefix are set (*out
 * then holds the network they belong to, to suggest).
 */
int sp_parse_net(const char *s, struct sp_net *out);

/*
 * Why a is no host to connect to, NULL when it is one: "unspecified"
 * (0.0.0.0/8, ::), "multicast" (224.0.0.0/4, ff00::/8), "broadcast"
 * (255.255.255.255), IPv4-mapped ones too.
 */
const char *sp_addr_not_unicast(const struct sp_addr *a);

/*
 * Names of an enum's values: names[v] is v's name, NULL where v has none.
 * sp_enum_str() gives fallback for a value without a name; sp_enum_parse()
 * gives a name's value, -EINVAL for a name not in the table (or NULL).
 */
const char *sp_enum_str(const char *const *names, size_t n, unsigned int v, const char *fallback);
int sp_enum_parse(const char *const *names, size_t n, const char *s, unsigned int *v);

/* "write", "send", "read" to enum sparkperf_lat_op; -EINVAL otherwise. */
int sp_parse_lat_op(const char *s, uint8_t *op);

/* "key value" pairs. */
enum sp_kv_type {
	SP_KV_U32,	/* dst: uint32_t * */
	SP_KV_U64,	/* dst: uint64_t * */
	SP_KV_SIZE,	/* dst: uint64_t *, bytes */
	SP_KV_DURATION,	/* dst: uint64_t *, ns */
	SP_KV_DURATION_MS, /* dst: uint32_t *, whole ms; min, max in ms */
	SP_KV_STRING,	/* dst: const char ** (points into argv) */
	SP_KV_LIST,	/* dst: struct sp_list *, free with sp_list_free; each item once */
	SP_KV_FLAG,	/* dst: bool *; a keyword alone, without a value */
};

struct sp_kv {
	const char *key;	/* keyword, matched exactly */
	const char *what;	/* name used in messages; NULL: key */
	enum sp_kv_type type;
	uint64_t min, max;	/* numeric types */
	void *dst;
	bool seen;		/* set by sp_parse_kv */
};

/*
 * Parses argv[0..argc-1] as "key value" pairs (and flags) into the table. On failure
 * returns -EINVAL and writes one line (no newline), e.g. "Invalid count: 'x'",
 * into err. Lists already parsed stay allocated: free them either way.
 */
int sp_parse_kv(int argc, char **argv, struct sp_kv *kv, size_t n_kv,
		char *err, size_t err_len);

/* Network device names: 1 .. IFNAMSIZ - 1 bytes, no '/', ':' or blanks; not "." or "..". */
bool sp_netdev_name_valid(const char *s);

/* A CPU list as the kernel writes one ("0-3,8,10-11"), CPUs 0 .. SP_CPUS_MAX - 1. */
#define SP_CPUS_MAX 4096

struct sp_cpuset {
	uint64_t bits[SP_CPUS_MAX / 64];
};

/* -EINVAL for bad syntax or an empty list, -ERANGE for a CPU past SP_CPUS_MAX - 1. */
int sp_parse_cpulist(const char *s, struct sp_cpuset *set);

/* Formatters. Each returns buf. */
#define SP_GUID_STRLEN 20	/* "xxxx:xxxx:xxxx:xxxx" + NUL */
#define SP_GID_STRLEN 46	/* INET6_ADDRSTRLEN */
#define SP_IPV4_STRLEN 16	/* INET_ADDRSTRLEN */
#define SP_RATE_STRLEN 32
#define SP_ADDR_STRLEN 46	/* INET6_ADDRSTRLEN */

char *sp_fmt_guid(uint64_t guid, char *buf, size_t len);
/* Bytes as sp_parse_size() reads them back: "64KiB", "8MiB", "1000B" */
#define SP_SIZE_STRLEN 24
char *sp_fmt_size(uint64_t bytes, char *buf, size_t len);
char *sp_fmt_gid(const uint8_t gid[16], char *buf, size_t len);
/* true and the dotted quad when the GID is an IPv4-mapped address */
bool sp_gid_ipv4(const uint8_t gid[16], char *buf, size_t len);
/* Mbit/s as a plain Gbit/s number: 100000 -> "100", 2500 -> "2.5" */
char *sp_fmt_gbps(uint32_t mbps, char *buf, size_t len);
/* Mbit/s with unit: "100 Gbit/s" */
char *sp_fmt_rate(uint32_t mbps, char *buf, size_t len);

/* An address as inet_ntop() writes it; "any" when a->len is 0. */
char *sp_fmt_addr(const struct sp_addr *a, char *buf, size_t len);

/* A network as sp_parse_net() reads it back: "192.168.200.0/24" */
#define SP_NET_STRLEN (SP_ADDR_STRLEN + 4)
char *sp_fmt_net(const struct sp_net *n, char *buf, size_t len);

/* Latency operations and session states: "write", ...; "running", ... */
const char *sp_lat_op_str(unsigned int op);		/* "unknown" if unknown */
const char *sp_lat_state_str(unsigned int state);	/* "unknown" if unknown */
/* Counter sources and trace states: "netdev", "ethtool", "rdma"; "running", ... */
const char *sp_counter_source_str(unsigned int src);	/* "unknown" if unknown */
const char *sp_trace_state_str(unsigned int state);	/* "unknown" if unknown */

/* Names as rdma(8) and ibv_devinfo(1) print them. */
const char *sp_port_state_str(unsigned int state);	/* ACTIVE, ..., UNKNOWN */
const char *sp_phys_state_str(unsigned int state);	/* LINK_UP, ..., UNKNOWN */
const char *sp_link_layer_str(unsigned int ll);		/* Ethernet, InfiniBand */
const char *sp_speed_str(unsigned int speed);		/* EDR, ...; NULL if unknown */
const char *sp_gid_type_str(unsigned int type);		/* IB, RoCE v1, RoCE v2 */
const char *sp_operstate_str(unsigned int operstate);	/* up, down, ... */

#endif
