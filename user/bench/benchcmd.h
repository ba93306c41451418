/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command lines of "sparkperf-ctl bench": from the options of a bench to
 * the exact argv (and environment) of every program it runs, as the DGX
 * Spark performance guide and the two-Spark blog run them. Pure: no I/O; the
 * runner (benchrun.h) executes them with fork/exec, no shell.
 */
#ifndef SPARKPERF_CTL_BENCHCMD_H
#define SPARKPERF_CTL_BENCHCMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchparse.h"

/* ---- commands -------------------------------------------------------------- */

/*
 * A word that reaches a remote shell (ssh) or a command line: names,
 * addresses and lists of them only, never an option.
 */
bool sp_bench_word_ok(const char *s);

enum sp_bench_role {
	SP_BENCH_ROLE_SERVER,	/* started first, in the background; its banner awaited */
	SP_BENCH_ROLE_MANUAL,	/* the server the user starts on the peer: printed, not run */
	SP_BENCH_ROLE_CLIENT,	/* the clients of a run, started together */
	SP_BENCH_ROLE_STEP,	/* one after another, each to its end; a failure stops them */
};

/* "server", "manual", "client", "step" */
const char *sp_bench_role_str(enum sp_bench_role role);

/* How a command ended (filled in by the runner). */
struct sp_bench_exec {
	bool ran;
	int exit_status;		/* SP_BENCH_EXIT_UNKNOWN: killed, or never ran */
	int signal;			/* the signal that ended it, 0: none */
	bool timed_out;			/* killed at the deadline */
	char *exec_error;		/* it could not be started: strerror() */
	char *stderr_tail;		/* it failed: the last lines of its stderr, NULL: none */
	double elapsed_s;
};

struct sp_bench_cmd {
	char *name;			/* "client 1", "server 1", "trtllm-bench" */
	enum sp_bench_role role;
	char *host;			/* where a server runs (ssh, or the user), NULL: here */
	char **argv;			/* NULL-terminated */
	char **env;			/* NAME=VALUE added to its environment, NULL-terminated */
	char *stdout_name;		/* file names in the output directory */
	char *stderr_name;
	/* stdout is data (a dataset, results), not a log: shown as "> FILE" */
	bool stdout_is_data;
	/*
	 * The JSON results file the tool writes, in the output directory: read
	 * instead of stdout, or for nccl-tests (-J) as well as it; NULL: none.
	 */
	char *json_name;
	const char *ready;		/* a server is up once its stdout says this */
	enum sp_bench_tool tool;	/* whose output it is; SP_BENCH_NONE: not parsed */
	char *label;			/* what its result is called: "rxe0 -> 192.168.200.13" */
	struct sp_bench_exec x;
};

struct sp_bench_cmds {
	struct sp_bench_cmd *v;
	size_t n;
};

void sp_bench_cmds_free(struct sp_bench_cmds *c);

/*
 * The command as a shell would take it: the added environment, then the
 * words, quoted where a shell would read them otherwise. malloc'ed; NULL on
 * no memory.
 */
char *sp_bench_cmdline(const struct sp_bench_cmd *c);

/* ---- where the server side comes from ----------------------------------------- */

enum sp_bench_server {
	SP_BENCH_SERVER_NONE,	/* already running on the peer: its command is printed */
	SP_BENCH_SERVER_LOCAL,	/* on this host (the peer address is one of its own) */
	SP_BENCH_SERVER_SSH,	/* "ssh HOST CMD", BatchMode: no password prompt */
};

int sp_bench_server_parse(const char *s, enum sp_bench_server *out);
const char *sp_bench_server_str(enum sp_bench_server s);

/* ---- perftest ------------------------------------------------------------------ */

enum sp_perftest_test {
	SP_PERFTEST_WRITE_BW, SP_PERFTEST_WRITE_LAT, SP_PERFTEST_READ_BW, SP_PERFTEST_READ_LAT,
	SP_PERFTEST_SEND_BW, SP_PERFTEST_SEND_LAT,
};

/* "write_bw" ... to the test; -EINVAL otherwise. */
int sp_perftest_test_parse(const char *s, enum sp_perftest_test *out);
const char *sp_perftest_test_str(enum sp_perftest_test t);
/* "ib_write_bw" */
const char *sp_perftest_test_binary(enum sp_perftest_test t);
bool sp_perftest_test_is_bw(enum sp_perftest_test t);

struct sp_bench_perftest_opts {
	const char *const *peers;	/* one pair per peer address, in parallel */
	size_t n_peers;
	const char *const *devs;	/* this host's RDMA device per peer; n 0: perftest's pick */
	size_t n_devs;
	const char *const *peer_devs;	/* the server's device per peer; n 0: devs */
	size_t n_peer_devs;
	enum sp_perftest_test test;
	uint64_t size;			/* bytes per message; 0: perftest's default */
	uint32_t qps;			/* 0: 1 */
	uint64_t iters;			/* 0: perftest's default */
	uint32_t duration_s;		/* 0: iterations */
	uint16_t port;			/* of the first pair, the next +1; 0: 12000 (BW), 13000 */
	int gid_index;			/* -1: perftest's */
	enum sp_bench_server server;
	const char *ssh_host;		/* SERVER_SSH: NULL, the first peer */
};

/* Servers (or what to start on the peer), then one client per peer. 0 or -ENOMEM. */
int sp_bench_perftest_cmds(const struct sp_bench_perftest_opts *o, struct sp_bench_cmds *out);

/* ---- iperf3 -------------------------------------------------------------------- */

#define SP_BENCH_CPUSET_LEN 64

struct sp_bench_iperf3_opts {
	const char *const *peers;	/* one client per peer address (per NIC) */
	size_t n_peers;
	uint32_t streams;		/* -P; 0: 1 */
	uint32_t duration_s;		/* -t; 0: iperf3's 10 */
	uint16_t port;			/* of the first client, the next +1; 0: 5201 */
	char (*cpus)[SP_BENCH_CPUSET_LEN];	/* per client: taskset -c SET; NULL: not pinned */
	enum sp_bench_server server;
	const char *ssh_host;
};

int sp_bench_iperf3_cmds(const struct sp_bench_iperf3_opts *o, struct sp_bench_cmds *out);

/*
 * "cpus LIST": CPU sets separated by '/' ("0-7/8-15"), each as taskset -c
 * takes it (digits, ',' and '-'), one per client; "auto": ncpus CPUs in n
 * contiguous disjoint sets. -EINVAL (malformed, or not n sets), -ERANGE (auto:
 * fewer CPUs than clients).
 */
int sp_bench_cpus_parse(const char *s, unsigned int ncpus, size_t n,
			char (*sets)[SP_BENCH_CPUSET_LEN]);

/* ---- nccl-tests ---------------------------------------------------------------- */

enum sp_nccl_test { SP_NCCL_SENDRECV, SP_NCCL_ALL_REDUCE, SP_NCCL_ALL_GATHER };

int sp_nccl_test_parse(const char *s, enum sp_nccl_test *out);
const char *sp_nccl_test_str(enum sp_nccl_test t);

/* NCCL_NCHANNELS_PER_NET_PEER values of "channels-per-peer sweep" */
#define SP_NCCL_CHANNEL_SWEEP { 1, 2, 4, 8, 16 }
#define SP_NCCL_CHANNELS_MAX 8

struct sp_bench_nccl_opts {
	const char *const *hosts;	/* mpirun -H HOST:1,...; n 0: this host, no mpirun */
	size_t n_hosts;
	enum sp_nccl_test test;
	const char *hca;		/* NCCL_IB_HCA, as NCCL reads it; NULL: NCCL's pick */
	const char *const *env;		/* more NAME=VALUE for the ranks (nccl env's) */
	size_t n_env;
	uint64_t min_bytes, max_bytes;	/* -b -e, -f 2 */
	uint32_t channels[SP_NCCL_CHANNELS_MAX];	/* one run each; n 0: NCCL's default */
	size_t n_channels;
	uint32_t np;			/* ranks; 0: one per host (1 without hosts) */
	uint32_t gpus;			/* -g: GPUs per rank; 0: 1 */
	uint32_t iters, warmup;		/* -n -w; 0: the blog's 30 and 5 */
	const char *bin_dir;		/* where the *_perf binaries are */
	const char *oob_if;		/* NCCL_SOCKET_IFNAME, mpirun's tcp interfaces */
	const char *out_dir;		/* -J lands here (rank 0's host) */
};

/*
 * A host of an mpirun as "-H" takes it: HOST, or HOST:SLOTS (one ':', so
 * that an IPv6 address is a host). 1 and the slots, 0 without them,
 * -EINVAL for slots out of 1..4096.
 */
int sp_nccl_host_slots(const char *host, uint32_t *slots);

/*
 * One step per channels-per-peer value; a host that carries its slots is
 * passed as is, the others get an equal share of np (default: the slots,
 * one a host without). 0 or -ENOMEM.
 */
int sp_bench_nccl_cmds(const struct sp_bench_nccl_opts *o, struct sp_bench_cmds *out);

/* ---- LLM benchmarks ------------------------------------------------------------ */

/* Where a container sees the output directory. */
#define SP_BENCH_CONTAINER_OUT "/sparkperf-out"

struct sp_bench_llm_opts {
	enum sp_llm_tool tool;
	const char *mode;		/* vllm: serve|throughput; sglang: serve|offline */
	const char *model;		/* Hugging Face handle, or a GGUF file (llama) */
	const char *image;		/* NULL: the guide's; "none": run on this host */
	uint32_t isl, osl;		/* input / output tokens; 0: 128 */
	uint32_t concurrency;		/* 0: 1 */
	uint32_t prompts;		/* 0: 1 */
	const char *url;		/* serve: the server; NULL: the guide's address */
	const char *home;		/* $HOME: its Hugging Face cache is mounted */
	const char *out_dir;
	const char *llama_bench;	/* llama-bench's path; NULL: "llama-bench" */
	uint32_t threads;		/* llama-bench -t: the CPUs (nproc) */
};

/* "serve" for vllm and sglang, "throughput" for trtllm, "bench" for llama */
const char *sp_bench_llm_default_mode(enum sp_llm_tool tool);
/* Is mode one of the tool's? */
bool sp_bench_llm_mode_valid(enum sp_llm_tool tool, const char *mode);
/* Does the tool's run in mode (NULL: its default) take a concurrency? */
bool sp_bench_llm_concurrent(enum sp_llm_tool tool, const char *mode);

int sp_bench_llm_cmds(const struct sp_bench_llm_opts *o, struct sp_bench_cmds *out);

/* The guide's /tmp/extra-llm-api-config.yml, written to the output directory. */
extern const char sp_bench_trtllm_config[];
#define SP_BENCH_TRTLLM_CONFIG_NAME "extra-llm-api-config.yml"

/* ---- image generation and fine-tuning ------------------------------------------ */

/* The guide's container of both: TensorRT's demo/Diffusion, the fine-tuning playbook. */
#define SP_BENCH_PYTORCH_IMAGE "nvcr.io/nvidia/pytorch:25.12-py3"

struct sp_bench_gen_opts {
	const char *const *tests;	/* imagegen: flux, sdxl; finetune: lora, qlora, full */
	size_t n_tests;			/* 0: all of them, in that order */
	uint32_t batch, steps;		/* imagegen; 0: the guide's for each model */
	const char *image;		/* NULL: the guide's; "none": run on this host */
	const char *dir;		/* image none: demo/Diffusion, or the playbooks' clone */
	const char *home;		/* $HOME: its Hugging Face cache is mounted */
	const char *out_dir;
};

/* Is name one of the bench's tests? */
bool sp_bench_imagegen_test_valid(const char *name);
bool sp_bench_finetune_test_valid(const char *name);
/* One step per test. 0, -EINVAL (a test unknown) or -ENOMEM. */
int sp_bench_imagegen_cmds(const struct sp_bench_gen_opts *o, struct sp_bench_cmds *out);
int sp_bench_finetune_cmds(const struct sp_bench_gen_opts *o, struct sp_bench_cmds *out);

/*
 * What makes the fine-tuning scripts' python print its CUDA memory peak at
 * exit (they print none): a sitecustomize.py written to the output
 * directory, which is on the script's PYTHONPATH.
 */
extern const char sp_bench_finetune_hook[];
#define SP_BENCH_FINETUNE_HOOK_NAME "sitecustomize.py"

/* ---- numbers on the command line ------------------------------------------------ */

/* A decimal number >= 0 ("21.875"); -EINVAL otherwise. */
int sp_bench_parse_number(const char *s, double *out);

#endif
