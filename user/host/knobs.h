/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host tuning knobs of "sparkperf-ctl tune": what each knob is, where it
 * lives, the value each profile recommends and why (the knob table,
 * knobs.c); the plan (every knob's current and target value, knobplan.c,
 * with the persisted files of knobpersist.c); and the changes that apply
 * makes, undoes when a step fails, and that revert replays backwards
 * (knobio.c).
 *
 * Every path is relative to a root directory and every effect goes through
 * struct sp_knob_io, so that the unit tests run all of it against a tree in
 * a temporary directory, with failures wherever they want them.
 */
#ifndef SPARKPERF_CTL_KNOBS_H
#define SPARKPERF_CTL_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hostnl.h"
#include "lib/model.h"

enum sp_profile {
	SP_PROFILE_THROUGHPUT,
	SP_PROFILE_LATENCY,
};

#define SP_PROFILE_COUNT 2

const char *sp_profile_name(enum sp_profile p);
/* "throughput" or "latency"; -EINVAL otherwise */
int sp_parse_profile(const char *s, enum sp_profile *p);

/* What a knob is; it says where the knob lives and how many there are. */
enum sp_knob_kind {
	SP_KNOB_SYSCTL,		/* /proc/sys/<name with dots as slashes> */
	SP_KNOB_MTU,		/* /sys/class/net/<netdev>/mtu, one per managed netdev */
	SP_KNOB_ROCE_MTU,	/* read-only: the active MTU of each RDMA device's port */
	SP_KNOB_GOVERNOR,	/* .../cpufreq/<policy>/scaling_governor, one per policy */
	SP_KNOB_IRQ,		/* /proc/irq/<n>/smp_affinity_list, the managed netdevs' IRQs */
	SP_KNOB_ROCE_TOS,	/* rdma_cm configfs default_roce_tos, one per RDMA device */
	SP_KNOB_DSCP,		/* DSCP to priority APP entries (DCB netlink), per netdev */
	SP_KNOB_PFC,		/* the PFC-enabled priorities (DCB netlink), per netdev */
	SP_KNOB_MEMLOCK,	/* /etc/security/limits.d/90-sparkperf.conf */
	SP_KNOB_SYSCTL_CONF,	/* persist: /etc/sysctl.d/90-sparkperf.conf */
	SP_KNOB_NETPLAN,	/* persist: /etc/netplan/90-sparkperf.yaml (the MTUs) */
};

/* When a current value is as recommended. */
enum sp_knob_cmp {
	SP_CMP_EQUAL,		/* the same string */
	SP_CMP_AT_LEAST,	/* each blank-separated number at least the recommended one */
	SP_CMP_ONE_OF,		/* one of spec->accept (the recommended value is the first) */
	SP_CMP_CPUS,		/* the same CPU set, however the cpulist spells it */
	SP_CMP_SUPERSET,	/* holds every recommended DSCP:PRIO entry */
};

enum sp_severity {
	SP_SEV_WARN,		/* slower than it could be */
	SP_SEV_FAIL,		/* RDMA traffic breaks or is lost */
};

struct sp_knob_spec {
	enum sp_knob_kind kind;
	const char *name;			/* the sysctl, or the knob's name */
	enum sp_knob_cmp cmp;
	const char *value[SP_PROFILE_COUNT];	/* NULL: not managed by that profile */
	const char *accept;			/* SP_CMP_ONE_OF: "2 0" */
	bool multi_nic;				/* only where two netdevs share a subnet */
	enum sp_severity severity;
	const char *reason;			/* why this value, one sentence */
};

/* The knob table: sysctls first, in the order apply changes them. */
extern const struct sp_knob_spec sp_knob_specs[];
extern const size_t sp_knob_n_specs;

/* The spec of a kind (the first row of the table that has it). */
const struct sp_knob_spec *sp_knob_spec_of(enum sp_knob_kind kind);

/* ---- effects -------------------------------------------------------------- */

/* How a value is read and written. */
enum sp_access {
	SP_ACCESS_LINE,		/* one line in a file that exists (procfs, sysfs) */
	SP_ACCESS_CONFIGFS,	/* a line in a configfs group made on demand */
	SP_ACCESS_FILE,		/* a whole file that may be absent, with its mode */
	SP_ACCESS_DSCP,		/* a netdev's DSCP APP entries: "26:3 48:6", "" */
	SP_ACCESS_PFC,		/* a netdev's PFC-enabled priorities: "3", "none" */
};

const char *sp_access_name(enum sp_access a);	/* "line", "configfs", ... */
int sp_parse_access(const char *s, enum sp_access *a);

/*
 * Files and netlink, as the knobs see them. Paths are absolute and relative
 * to root ("" is the running system). Functions return 0 or -errno, and may
 * leave a precise reason (an extended ACK) in msg.
 */
struct sp_knob_io {
	const char *root;
	/* the whole file, NUL-terminated, and its permission bits; -ENOENT when absent */
	int (*read)(struct sp_knob_io *io, const char *path, char **data, unsigned int *mode);
	/*
	 * replace: the whole file, created or atomically replaced with mode;
	 * otherwise written in place, in one write(2), as procfs and sysfs want.
	 */
	int (*write)(struct sp_knob_io *io, const char *path, const char *data, bool replace,
		     unsigned int mode);
	int (*remove)(struct sp_knob_io *io, const char *path);
	int (*mkdir)(struct sp_knob_io *io, const char *path);
	int (*rmdir)(struct sp_knob_io *io, const char *path);
	/* the names in a directory, sorted, without "." and ".."; free each and the array */
	int (*list)(struct sp_knob_io *io, const char *path, char ***names, size_t *n);
	/* SP_ACCESS_DSCP and SP_ACCESS_PFC; NULL when not reachable (under a root) */
	int (*dcb_read)(struct sp_knob_io *io, const char *dev, enum sp_access what,
			char **value);
	int (*dcb_write)(struct sp_knob_io *io, const char *dev, enum sp_access what,
			 const char *value);
	char msg[256];
	void *priv;
};

/* The file operations on the tree under root; dcb_* NULL. */
void sp_knob_io_files(struct sp_knob_io *io, const char *root);

/* A file's content, trailing newline removed (a one-line value); NULL if absent. */
int sp_io_read_line(struct sp_knob_io *io, const char *path, char **value);
/* Can path be listed (a directory)? */
bool sp_io_is_dir(struct sp_knob_io *io, const char *path);
/* Frees what io->list() returned. */
void sp_io_names_free(char **names, size_t n);

/* What one knob changes: its value before and the one apply writes. */
struct sp_change {
	char name[80];
	enum sp_access access;
	char path[256];		/* the file, or the netdev for DSCP and PFC */
	char group[160];	/* SP_ACCESS_CONFIGFS: the group directory */
	bool group_made;	/* SP_ACCESS_CONFIGFS: apply makes it, revert removes it */
	bool has_before;	/* false: the file was absent */
	char *before;
	unsigned int before_mode;
	char *after;		/* NULL: the file is removed */
	unsigned int after_mode;
};

void sp_change_free(struct sp_change *c);
/* A deep copy; -ENOMEM. */
int sp_change_copy(struct sp_change *dst, const struct sp_change *src);

/* What the last sp_changes_apply() or sp_changes_revert() did. */
struct sp_apply_report {
	size_t done;		/* changes written (apply) or restored (revert) */
	bool failed;
	size_t failed_at;	/* index of the (first) change that failed */
	int error;
	char msg[520];		/* "<path>: <reason>" */
	size_t undo_failures;	/* apply: changes the undo could not restore */
	size_t undo_failed_at;	/* the first of them */
	char undo_msg[520];
};

/*
 * Writes each change's after value, in order. When one fails, writes the
 * before values of those already done, last first, and reports both.
 * Returns 0 or the failing step's -errno.
 */
int sp_changes_apply(struct sp_knob_io *io, const struct sp_change *ch, size_t n,
		     struct sp_apply_report *r);

/*
 * Writes every change's before value, last first. It goes on past a failure
 * (restoring as much as it can) and reports the first one; n - r->done did
 * not come back.
 */
int sp_changes_revert(struct sp_knob_io *io, const struct sp_change *ch, size_t n,
		      struct sp_apply_report *r);

/* ---- the plan --------------------------------------------------------------- */

/* What tune show, check and apply were asked for. */
struct sp_tune_opts {
	enum sp_profile profile;
	char (*devs)[SP_IFNAME_MAX];	/* NULL: the netdevs of the RDMA ports */
	size_t n_devs;
	const char *irq_cpus;		/* NULL: IRQ affinity left alone */
	const char *pfc;		/* "3", "3,4", "none"; NULL: PFC left alone */
	bool persist;
};

/* The RoCE active MTU of an RDMA device's port, as the module reports it. */
struct sp_roce_mtu {
	char dev[SPARKPERF_DEV_NAME_MAX];
	uint32_t port;
	uint32_t active_mtu;		/* bytes */
};

/* What the planner cannot read from files. */
struct sp_host_facts {
	bool shared_subnet;		/* two netdevs have addresses in one IPv4 subnet */
	char shared_what[160];		/* "eth0 and eth1 share 192.168.200.0/24" */
	bool has_memlock;		/* this session's RLIMIT_MEMLOCK is known */
	uint64_t memlock_bytes;		/* UINT64_MAX: unlimited */
	bool roce_known;		/* false: unknown, for the reason below */
	const char *roce_unknown;
	const struct sp_roce_mtu *roce;
	size_t n_roce;
};

enum sp_knob_state {
	SP_KNOB_OK,		/* as recommended */
	SP_KNOB_CHANGE,		/* apply writes ch.after */
	SP_KNOB_SKIP,		/* not there, not supported, not readable: note says why */
	SP_KNOB_OBSERVED,	/* read-only: follows other knobs (the RoCE MTU) */
};

struct sp_knob {
	const struct sp_knob_spec *spec;	/* NULL for an observed row */
	char where[256];		/* the path, or "DCB netlink, <netdev>" */
	struct sp_change ch;		/* name, access, path; before = current */
	char *recommended;		/* NULL: nothing to recommend */
	enum sp_knob_state state;
	bool as_expected;		/* SP_KNOB_OBSERVED */
	char note[200];
};

struct sp_plan {
	struct sp_knob *knobs;
	size_t n;
	size_t cap;
	size_t n_changes;
};

/*
 * Reads every knob the options manage and decides its target. Fails (-errno,
 * one line in err) only for what the user named: a netdev that does not
 * exist. Knobs that are absent or not supported are SP_KNOB_SKIP rows.
 */
int sp_plan_build(struct sp_knob_io *io, const struct sp_tune_opts *o,
		  const struct sp_host_facts *f, struct sp_plan *plan, char *err, size_t len);
void sp_plan_free(struct sp_plan *plan);

/* ---- pure helpers, shared with the tests ----------------------------------- */

/* Does current satisfy recommended under cmp? */
bool sp_knob_satisfied(enum sp_knob_cmp cmp, const char *accept, const char *recommended,
		       const char *current);
/*
 * The value apply writes: the recommended one, except for SP_CMP_AT_LEAST
 * (each number the larger of the two: "4096 131072 67108864") and
 * SP_CMP_SUPERSET (the union of the entries). NULL on -ENOMEM.
 */
char *sp_knob_target(enum sp_knob_cmp cmp, const char *recommended, const char *current);
/* Is word one of the blank-separated words of list? */
bool sp_knob_word_in(const char *word, const char *list);

/* The RoCE MTU (256..4096) that a netdev MTU gives: the kernel's iboe_get_mtu(). */
uint32_t sp_roce_mtu_for(uint32_t netdev_mtu);

/* DSCP APP entries as the knobs spell them: "26:3 48:6", sorted by DSCP. */
int sp_dscp_map_parse(const char *s, struct sp_dscp_map *m);
/* "" for none; malloc'ed, NULL on -ENOMEM */
char *sp_dscp_map_format(const struct sp_dscp_map *m);

/* The entries to delete from, and to add to, from to make it to. */
void sp_dscp_map_diff(const struct sp_dscp_map *from, const struct sp_dscp_map *to,
		      struct sp_dscp_map *del, struct sp_dscp_map *add);
size_t sp_dscp_map_count(const struct sp_dscp_map *m);

/* PFC priorities "3", "3,4" or "none" as a bit mask of priorities. */
int sp_pfc_parse(const char *s, uint8_t *mask);
void sp_pfc_format(uint8_t mask, char *buf, size_t len);

/*
 * What tune apply persist writes, from the plan's values once applied:
 * /etc/sysctl.d's file (the sysctls) and netplan's (the MTUs); NULL on
 * -ENOMEM.
 */
char *sp_persist_sysctl_conf(const struct sp_plan *plan, enum sp_profile profile);
char *sp_persist_netplan(const struct sp_plan *plan, enum sp_profile profile);

#endif
