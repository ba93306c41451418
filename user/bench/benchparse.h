/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure parsers of what the benchmarks that "sparkperf-ctl bench" runs print:
 * perftest (text in every label variant, and the not-quite-JSON of
 * --out_json), iperf3 (-J, and the text), nccl-tests (the text table, -J) and
 * the mpirun around it, vLLM, SGLang, TensorRT-LLM and llama-bench results.
 * Each parser takes the whole saved output of one command (stdout, then
 * stderr) as one string, and fills a struct; no I/O, no globals. Each judge
 * turns a parsed output and the command's exit status into problems.
 *
 * Units are in the field names: _gbit_per_s (10^9 bit/s), _gb_per_s (10^9
 * byte/s, nccl-tests' GB/s), _mib_per_s (2^20 byte/s), _us, _ms, _s.
 */
#ifndef SPARKPERF_CTL_BENCHPARSE_H
#define SPARKPERF_CTL_BENCHPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An exit status that is not known (bench parse without one). */
#define SP_BENCH_EXIT_UNKNOWN (-1)

/* What two DGX Sparks must reach: NVIDIA's spark_cluster_setup.py threshold. */
#define SP_NCCL_TWO_SPARKS_MIN_BUSBW_GB_PER_S 21.875

/* ---- what was wrong ---------------------------------------------------------- */

enum sp_bench_level { SP_BENCH_OK, SP_BENCH_WARN, SP_BENCH_FAIL };

struct sp_bench_problem {
	enum sp_bench_level level;
	const char *code;		/* static: "exit_status", "no_result", ... */
	char *message;			/* one sentence */
	int result;			/* the result it is about, -1: the run */
};

struct sp_bench_verdict {
	enum sp_bench_level level;	/* the worst problem's; OK without any */
	struct sp_bench_problem *problems;
	size_t n;
};

/* "ok", "warn", "fail" */
const char *sp_bench_level_str(enum sp_bench_level level);
/* 0 or -ENOMEM; result: -1 until the verdict is filed under a result. */
int sp_bench_problem_add(struct sp_bench_verdict *v, enum sp_bench_level level, const char *code,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void sp_bench_verdict_free(struct sp_bench_verdict *v);

/* Room for one more element of size in *arr (n in use); false: out of memory. */
bool sp_bench_grow(void **arr, size_t n, size_t size);
#define GROW(arr, n) sp_bench_grow((void **)&(arr), (n), sizeof(*(arr)))

/*
 * Frees an array of n elements of size bytes and the malloc'ed string each
 * holds at offset (a name, a message, a line; offset 0 of a char *: the
 * element itself).
 */
void sp_bench_free_named(void *arr, size_t n, size_t size, size_t offset);
#define FREE_NAMED(arr, n, type, member) \
	sp_bench_free_named((arr), (n), sizeof(type), offsetof(type, member))

/*
 * The numbers of an output that are out of the range of what they count or
 * measure (a negative count, more than its field holds, a rate that is not
 * finite): kept as written, never read as some other number, and the judge
 * fails the result with them ("invalid_value").
 */
#define SP_BENCH_INVALID_KEPT 4

struct sp_bench_invalid {
	size_t n;			/* all of them; the first SP_BENCH_INVALID_KEPT kept */
	char what[SP_BENCH_INVALID_KEPT][160];	/* "completed is -1, not a whole number in 0..N" */
};

/* Lines copied out of an output, trimmed. */
struct sp_bench_lines {
	char **v;
	size_t n;
};

/* Appends a copy of s; 0 or -ENOMEM. */
int sp_bench_lines_add(struct sp_bench_lines *l, const char *s);
void sp_bench_lines_free(struct sp_bench_lines *l);

/*
 * A saved output whose last line is "exit=N" or "rc=N" (what "CMD; echo
 * exit=$?" appends): N, else SP_BENCH_EXIT_UNKNOWN.
 */
int sp_bench_exit_trailer(const char *text);

/* ---- perftest (ib_write_bw, ib_write_lat, ib_read_lat, ib_send_bw, ...) ---- */

enum sp_perftest_kind { SP_PERFTEST_KIND_UNKNOWN, SP_PERFTEST_BW, SP_PERFTEST_LAT };

/* The unit of BW peak and BW average: --report_gbits or not. */
enum sp_perftest_unit {
	SP_PERFTEST_UNIT_UNKNOWN,	/* no header (an excerpt), JSON without "unit" */
	SP_PERFTEST_UNIT_GBIT,		/* "[Gb/sec]": 10^9 bit/s */
	SP_PERFTEST_UNIT_MIB,		/* "[MiB/sec]", and "[MB/sec]" of old builds: 2^20 byte/s */
};

struct sp_perftest_bw_row {
	uint64_t bytes;
	uint64_t iterations;
	double peak;			/* in the unit of the result; 0.00 when not measured */
	double average;
	double msg_rate_mpps;
};

/* Latencies in usec; one way (half the round trip) except for read and atomics. */
struct sp_perftest_lat_row {
	uint64_t bytes;
	uint64_t iterations;
	bool full;			/* all of min .. 99.9%; else duration mode: avg and tps */
	double t_min_us, t_max_us, t_typical_us, t_avg_us, t_stdev_us, p99_us, p99_9_us;
	double tps;			/* duration mode: transactions per second */
};

/* "-W" (--report-counters) lines: "hw_counters/sent_pkts=132132" */
struct sp_perftest_counter {
	char *name;
	uint64_t delta;
};

struct sp_perftest {
	bool json;			/* --out_json's file */
	bool server_side;		/* the "Waiting for client to connect" banner */
	char test[64];			/* "RDMA_Write BW Test"; "" unknown */
	char device[64];
	uint32_t qps;			/* 0: not said */
	uint32_t mtu;
	char link_type[32];
	enum sp_perftest_kind kind;
	enum sp_perftest_unit unit;
	struct sp_perftest_bw_row *bw;
	size_t n_bw;
	struct sp_perftest_lat_row *lat;
	size_t n_lat;
	struct sp_perftest_counter *counters;
	size_t n_counters;
	struct sp_bench_lines errors;	/* "Couldn't connect to ...", ... */
	struct sp_bench_lines warnings;	/* "Conflicting CPU frequency ...", ... */
	struct sp_bench_invalid invalid;
};

/*
 * Text or --out_json output (told apart by its first character). unit is
 * the unit of its BW values when the output does not say it (the command
 * line did: --report_gbits): a JSON file, text without its header (an
 * excerpt). 0 or -ENOMEM.
 */
int sp_perftest_parse(const char *text, enum sp_perftest_unit unit, struct sp_perftest *out);
void sp_perftest_free(struct sp_perftest *p);

/* A BW value in the result's unit as Gbit/s; NAN when the unit is unknown. */
double sp_perftest_gbit_per_s(enum sp_perftest_unit unit, double value);
/* "Gbit/s", "MiB/s", "unknown" */
const char *sp_perftest_unit_str(enum sp_perftest_unit unit);

/*
 * The bandwidth of the result: the mean BW average of the rows of the largest
 * message size (the interval lines of --run_infinitely are one size), in the
 * result's unit. false without BW rows.
 */
bool sp_perftest_bw_average(const struct sp_perftest *p, uint64_t *bytes, double *average);
/* The BW rows of that message size: of a -a sweep one each, of --run_infinitely all. */
size_t sp_perftest_bw_rows(const struct sp_perftest *p, uint64_t bytes);

/* Does the test report half the round trip (write, send), not all of it (read)? */
bool sp_perftest_lat_one_way(const struct sp_perftest *p);

/* An output without a result row fails, also a server's. */
int sp_perftest_judge(const struct sp_perftest *p, int exit_status, struct sp_bench_verdict *v);

/* ---- iperf3 ---------------------------------------------------------------- */

struct sp_iperf3_end {
	bool has;
	uint64_t bytes;
	double seconds;
	double bits_per_second;
	bool has_retransmits;
	uint64_t retransmits;
};

struct sp_iperf3_stream {
	int64_t socket;			/* -1 in text output ("[  5]": 5) unknown */
	struct sp_iperf3_end sender, receiver;
};

struct sp_iperf3 {
	bool json;
	bool server_side;		/* text: "Server listening on" */
	char version[32];		/* "iperf 3.12" */
	char *error;			/* "error" key, or "iperf3: error - ..." */
	uint32_t num_streams;
	double duration_s;
	struct sp_iperf3_stream *streams;
	size_t n_streams;
	struct sp_iperf3_end sum_sent, sum_received;
	bool has_cpu;
	double cpu_host_percent, cpu_remote_percent;
	char congestion[32];
	struct sp_bench_invalid invalid;
};

/* -J output or text (told apart by the first character). 0 or -ENOMEM. */
int sp_iperf3_parse(const char *text, struct sp_iperf3 *out);
void sp_iperf3_free(struct sp_iperf3 *r);
/* What arrived (sum_received), else what was sent; false with neither. */
bool sp_iperf3_gbit_per_s(const struct sp_iperf3 *r, double *gbit_per_s);
int sp_iperf3_judge(const struct sp_iperf3 *r, int exit_status, struct sp_bench_verdict *v);

/* ---- nccl-tests and mpirun -------------------------------------------------- */

struct sp_nccl_half {
	bool has;
	double time_us;
	double algbw_gb_per_s;
	double busbw_gb_per_s;
	bool has_wrong;			/* false: "N/A" (not validated) */
	double wrong;			/* #wrong, or the old "error" column */
};

struct sp_nccl_row {
	uint64_t size_bytes;
	uint64_t count;
	char type[16];
	char redop[16];			/* "" in old formats */
	bool has_root;
	int64_t root;
	struct sp_nccl_half out_of_place, in_place;
};

struct sp_nccl_dev {
	int rank;
	char host[64];
	int device;
	char bus[32];
	char name[64];
};

/* A line that says the run failed, and what kind of failure it is. */
struct sp_nccl_signature {
	const char *code;		/* static: "nccl_failure", "launch", ... */
	char *line;
};

struct sp_nccl {
	bool json;
	int json_version;
	char version[32];		/* nccl-tests' ("2.19.6"); "" unknown */
	uint32_t nccl_version;		/* 22809: NCCL 2.28.9; 0 unknown */
	char collective[48];		/* "sendrecv_perf" */
	uint32_t nthreads, ngpus;	/* 0: not said */
	struct sp_nccl_dev *devs;
	size_t n_devs;
	struct sp_nccl_row *rows;
	size_t n_rows;
	bool old_error_column;		/* "error" (max deviation) instead of "#wrong" */
	bool has_out_of_bounds;
	uint64_t out_of_bounds;
	bool out_of_bounds_ok;
	bool has_avg_busbw;
	double avg_busbw_gb_per_s;
	int avg_busbw_check;		/* NCCL_TESTS_MIN_BW: 1 OK, -1 FAILED, 0 unchecked */
	char *json_file;		/* "# Writing JSON output to ..." */
	/* the transport, from NCCL_DEBUG=INFO lines */
	char network[16];		/* "Using network IB" / "Socket"; "" not said */
	char *ib_devices;		/* "NET/IB : Using [0]rocep1s0f1:1/RoCE ..." */
	bool ib_no_device;		/* "NET/IB : No device found" */
	bool usage;			/* nccl-tests printed its usage (exit 0!) */
	bool has_rank_exit;
	int rank_exit;			/* mpirun's "Exit code: N" */
	struct sp_nccl_signature *sigs;
	size_t n_sigs;
	struct sp_bench_lines warnings;	/* "NCCL WARN" lines */
	struct sp_bench_invalid invalid;
};

/* Text (NCCL INFO lines, mpirun prefixes and boxes interleaved) or -J JSON. */
int sp_nccl_parse(const char *text, struct sp_nccl *out);
void sp_nccl_free(struct sp_nccl *n);

/*
 * A run's stdout and its -J file: the JSON's numbers (more digits) replace
 * the text's rows, out-of-bounds count and average; the rest (transport,
 * failures) stays the text's. The JSON is left empty of rows.
 */
void sp_nccl_take_json_numbers(struct sp_nccl *text, struct sp_nccl *json);

struct sp_nccl_summary {
	bool valid;			/* there is a row */
	uint64_t size_bytes;		/* the largest size */
	double algbw_gb_per_s;		/* at that size: out-of-place and in-place, averaged */
	double busbw_gb_per_s;
	double per_direction_gbit_per_s; /* busbw x 8: a 2-rank run's rate each way */
	double peak_busbw_gb_per_s;	/* the best of every row and half */
	size_t ranks;			/* devices listed */
	size_t hosts;			/* distinct host names among them */
};

void sp_nccl_summarize(const struct sp_nccl *n, struct sp_nccl_summary *s);

/*
 * hosts: the hosts the run spanned, 0 to count them in the devices list (a
 * socket fallback fails a run of several, is a warning when their number is
 * not known, and nothing on one host);
 * min_busbw_gb_per_s: warn under it at the largest size, 0 for the
 * topology's (two hosts of one rank each: two Sparks), < 0 for none.
 */
int sp_nccl_judge(const struct sp_nccl *n, int exit_status, size_t hosts,
		  double min_busbw_gb_per_s, struct sp_bench_verdict *v);

/* ---- LLM benchmarks ------------------------------------------------------------ */

enum sp_llm_tool { SP_LLM_VLLM, SP_LLM_SGLANG, SP_LLM_TRTLLM, SP_LLM_LLAMA };

struct sp_bench_metric {
	char *name;			/* with its unit: "mean_ttft_ms" */
	double value;
};

struct sp_llm {
	enum sp_llm_tool tool;
	const char *kind;		/* "serve", "throughput", "offline", "report", "llama-bench" */
	struct sp_bench_metric *metrics;
	size_t n_metrics;
	bool has_completed, has_failed, has_requested;
	uint64_t completed, failed, requested;
	char *error;			/* why nothing could be read */
	struct sp_bench_invalid invalid;
};

/*
 * vLLM --save-result (or --output-json of bench throughput), SGLang JSONL
 * (the last line: this run), TensorRT-LLM --report_json, llama-bench -o jsonl
 * (or -o json). requested: the prompts asked for, 0 if unknown. 0 or -ENOMEM.
 */
int sp_llm_parse(enum sp_llm_tool tool, const char *text, uint64_t requested, struct sp_llm *out);
void sp_llm_free(struct sp_llm *l);
/* Failed requests fail the run even when the exit status was 0. */
int sp_llm_judge(const struct sp_llm *l, int exit_status, struct sp_bench_verdict *v);

/* ---- image generation and fine-tuning ------------------------------------------ */

/*
 * Their results are metrics as an LLM benchmark's are (struct sp_llm, its
 * tool unused). Image generation: TensorRT demo/Diffusion's latency tables
 * (parse_imagegen.c), one per run; completed: the runs. Fine-tuning: the
 * Hugging Face Trainer's log lines (parse_finetune.c) and the memory peak
 * that the bench's sitecustomize.py prints; completed: the training runs
 * that ended; failed (when there are some): the last one's logged steps
 * whose loss is not a number. 0 or -ENOMEM.
 */
int sp_imagegen_parse(const char *text, struct sp_llm *out);
int sp_finetune_parse(const char *text, struct sp_llm *out);
/* No result fails the run, a number out of range and a non-finite training loss too. */
int sp_gen_judge(const struct sp_llm *l, int exit_status, struct sp_bench_verdict *v);

/* ---- one parsed output, of any tool ------------------------------------------- */

enum sp_bench_tool {
	SP_BENCH_PERFTEST, SP_BENCH_IPERF3, SP_BENCH_NCCL, SP_BENCH_VLLM, SP_BENCH_SGLANG,
	SP_BENCH_TRTLLM, SP_BENCH_LLAMA, SP_BENCH_IMAGEGEN, SP_BENCH_FINETUNE, SP_BENCH_NONE,
};

/* "perftest", "iperf3", "nccl", "vllm", "sglang", "trtllm", "llama", "imagegen", "finetune" */
const char *sp_bench_tool_str(enum sp_bench_tool tool);
/* Those names, and "mpirun" (nccl's launcher); -EINVAL otherwise. */
int sp_bench_tool_parse(const char *s, enum sp_bench_tool *tool);

struct sp_bench_result {
	enum sp_bench_tool tool;
	char *label;			/* "rxe0 -> 192.168.200.13", "channels-per-peer 4" */
	int command;			/* the command whose output it is, -1: a file */
	char *source;			/* the file that was read */
	union {
		struct sp_perftest perftest;
		struct sp_iperf3 iperf3;
		struct sp_nccl nccl;
		struct sp_llm llm;	/* vllm, sglang, trtllm, llama, imagegen, finetune */
	} u;
};

void sp_bench_result_free(struct sp_bench_result *r);

#endif
