/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The preflight doctor ("check"): what its items read and where they write
 * their lines. check.c runs it (the module, the ports, the MTUs, the GIDs
 * of every address, the sysctls, the peers' routes and paths); checkhalf.c
 * holds the items of each half that DGX Spark owners trip over (a half at
 * PCIe x2, a pinned GID index that is wrong or moved, RoCE MTU 1024 and
 * its cause, firmware that differs) and the memory ones. Every file is
 * read through io, so that the unit tests point it at a fake sysfs and
 * procfs tree.
 */
#ifndef SPARKPERF_CTL_DOCTOR_H
#define SPARKPERF_CTL_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checklist.h"
#include "knobs.h"
#include "lib/halves.h"
#include "lib/ifaddr.h"
#include "lib/model.h"
#include "lib/parse.h"

#define SP_DOCTOR_PEERS 16

/* ethtool -i of a netdev (struct ethtool_drvinfo's strings). */
struct sp_drvinfo {
	char driver[32];
	char version[32];
	char fw_version[32];
	char bus_info[32];
};

/* A jumbo probe to a peer whose path's MTU is smaller than the netdev's. */
struct sp_jumbo_short {
	char netdev[SP_IFNAME_MAX];
	char peer[SP_ADDR_STRLEN];
};

/* A half's PCIe link as trained, for what the bandwidth probe can expect of it. */
struct sp_pcie_link {
	char dev[SPARKPERF_DEV_NAME_MAX];
	uint32_t width;
	double speed_gt_per_s;
};

/* A half and a peer address that its netdev reaches directly: what probe bw measures. */
struct sp_probe_target {
	char dev[SPARKPERF_DEV_NAME_MAX];
	char netdev[SP_IFNAME_MAX];
	char peer[SP_ADDR_STRLEN];
};

/* What the probes of one target measured; an error says why a probe has no figure. */
struct sp_probe_result {
	bool has_bw;
	double gbit_per_s;
	bool has_lat;
	uint64_t rtt_p50_ns;
	uint64_t rtt_p99_ns;
	bool no_server;			/* the peer runs no sparkperf server */
	bool not_permitted;		/* sessions need CAP_NET_ADMIN */
	char bw_error[160];
	char lat_error[160];
};

/* What check was told: the GID index that NCCL and perftest will use, the planned NCCL size. */
struct sp_doctor_opts {
	const char *nccl_gid_index;	/* NCCL_IB_GID_INDEX as set; NULL: unset */
	bool has_gid_index;		/* gid-index N (perftest's -x) */
	uint32_t gid_index;
	uint64_t nccl_bytes;		/* nccl-bytes SIZE; 0: not given */
	const struct sp_halves *peer_files;	/* peer-file FILE,...: other hosts' halves */
	size_t n_peer_files;
	bool probe;			/* probe bw (the default with peers); probe none */
};

struct sp_doctor {
	struct sp_checklist list;
	struct sp_knob_io io;		/* sysfs and procfs: the running system's, or a tree */
	struct sp_knob_io state_io;	/* the state directory's files */
	const char *state_dir;		/* where the GID indexes are remembered */
	/* ethtool -i: sp_host_drvinfo(); the tests give a table */
	int (*drvinfo)(const char *netdev, struct sp_drvinfo *out);
	bool module;
	struct sp_dev_list devs;
	struct sp_ifaddr *addrs;
	size_t n_addrs;
	struct sp_halves halves;	/* of devs and addrs */
	struct sp_jumbo_short short_paths[SP_DOCTOR_PEERS];
	size_t n_short_paths;
	struct sp_pcie_link pcie[SP_DOCTOR_PEERS];
	size_t n_pcie;
	struct sp_probe_target probe_targets[SP_DOCTOR_PEERS];
	size_t n_probe_targets;
	/* the bandwidth and latency probes of a target: sp_check_probe_run(); the tests give figures */
	int (*probe)(const struct sp_probe_target *t, struct sp_probe_result *r);
	/* ibv_reg_mr of bytes on an RDMA device: sp_host_register(); the tests give errors */
	int (*reg)(const char *dev, uint64_t bytes, uint64_t *ns);
	int ret;			/* -ENOMEM stops it */
};

/* An item (nothing once ret is set). */
void sp_doctor_add(struct sp_doctor *d, enum sp_check_status st, const char *name,
		   const char *fix, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The fix of a path whose MTU is smaller than the netdev's. */
extern const char sp_doctor_jumbo_fix[];

/* A number from a one-line file; false when it is absent or not a number. */
bool sp_doctor_read_u32(struct sp_doctor *d, const char *path, uint32_t *v);

/* ---- checkhalf.c -------------------------------------------------------------- */

/* Each RDMA device's PCIe link, current against maximum width and speed, named by half. */
void sp_check_pcie(struct sp_doctor *d);
/* Each half's RoCE v2 IPv4 GID index, against NCCL_IB_GID_INDEX and gid-index. */
void sp_check_gid_index(struct sp_doctor *d, const struct sp_doctor_opts *o);
/* The GID indexes against those of the previous check, remembered in state_dir. */
void sp_check_gid_drift(struct sp_doctor *d);
/* Each half's driver and firmware, against the other halves and the peers' files. */
void sp_check_firmware(struct sp_doctor *d, const struct sp_doctor_opts *o);
/* MemAvailable against nccl-tests' 2 x SIZE, and CmaTotal. */
void sp_check_memory(struct sp_doctor *d, const struct sp_doctor_opts *o);
/* Each port's RoCE active MTU and its cause: this end's netdev, or a short path. */
void sp_check_roce_mtu(struct sp_doctor *d);

/* ---- checkreg.c --------------------------------------------------------------------- */

/* What the registration item registers on each RDMA device. */
#define SP_REG_BYTES (256ULL << 20)

/*
 * Registers bytes of this process's memory with ibv_reg_mr(), as NCCL does
 * its buffers, and releases them: 0 and the time ibv_reg_mr() took in *ns,
 * or -errno (-ENODEV: libibverbs does not see the device).
 */
int sp_host_register(const char *dev, uint64_t bytes, uint64_t *ns);
/* SP_REG_BYTES registered on each RDMA device (d->reg), against ENOMEM. */
void sp_check_register(struct sp_doctor *d);

/* ---- checkprobe.c ------------------------------------------------------------------ */

/* The probes' shape: what a user runs by hand to repeat one. */
#define SP_PROBE_BW_ARGS "size 1M qps 4 duration 2"
#define SP_PROBE_LAT_ARGS "size 64 duration 1"

/*
 * Runs "sparkperf-ctl -j bw run" and "lat run" with SP_PROBE_*_ARGS to the
 * target (this very program, /proc/self/exe) and reads their JSON. 0, or
 * -errno when they could not be run at all.
 */
int sp_check_probe_run(const struct sp_probe_target *t, struct sp_probe_result *r);
/*
 * The probes of every target (d->probe), each judged: a ConnectX-7 half
 * against the figures Spark owners see, any other NIC against its best
 * sibling half.
 */
void sp_check_probe(struct sp_doctor *d);

#endif
