// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl bench: runs the benchmarks the field uses between Sparks
 * (perftest, iperf3, nccl-tests under mpirun) and on one Spark (vLLM,
 * SGLang, TensorRT-LLM, llama.cpp, TensorRT's diffusion demo, the
 * fine-tuning playbook) as the DGX Spark performance guide and
 * the two-Spark blog run them, and turns what they print into one result
 * document: the exact command lines, how each ended, the parsed metrics with
 * their units, a verdict, and (trace) the devices' counters: a trace by the
 * module's sampler when it can, else sysfs snapshots. "bench parse"
 * makes the same document from an output saved earlier.
 *
 * Here: the arguments of each bench; benchusage.c holds its help.
 * benchcmd.c and cmd_*.c build the commands, benchexec.c runs a bench
 * (benchrun.c runs the commands and reads sysfs), benchparse.c and
 * parse_*.c read their outputs, benchjson.c and benchtext.c print the
 * document.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchexec.h"
#include "ncclenv.h"
#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/parse.h"
#include "lib/run.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Pairs (perftest) or clients (iperf3) of one run, hosts of an mpirun. */
#define BENCH_PEERS_MAX 8
#define BENCH_HOSTS_MAX 64

/* Deadlines of a group of clients or a step, when "timeout" is not given. */
#define NET_TIMEOUT_MS (300 * 1000)
#define NCCL_TIMEOUT_MS (1800 * 1000)
#define LLM_TIMEOUT_MS (3600 * 1000)
#define FINETUNE_TIMEOUT_MS (3 * 3600 * 1000)
#define TIMEOUT_MAX_MS (24 * 3600 * 1000U)

/* ---- arguments ------------------------------------------------------------------ */

#define COMMON_KV(c) \
	{ .key = "out", .what = "output directory", .type = SP_KV_STRING, .dst = &(c)->out }, \
	{ .key = "force", .type = SP_KV_FLAG, .dst = &(c)->force }, \
	{ .key = "timeout", .type = SP_KV_DURATION_MS, .min = 1000, .max = TIMEOUT_MAX_MS, \
	  .dst = &(c)->timeout_ms }, \
	{ .key = "trace", .type = SP_KV_FLAG, .dst = &(c)->trace }, \
	{ .key = "dry-run", .type = SP_KV_FLAG, .dst = &(c)->dry_run }

/* The options of the benches between two hosts (perftest, iperf3). */
#define PEER_KV(peer, duration, port, server, ssh) \
	{ .key = "peer", .what = "peer address list", .type = SP_KV_STRING, .dst = (peer) }, \
	{ .key = "duration", .type = SP_KV_U32, .min = 1, .max = 3600, .dst = (duration) }, \
	{ .key = "port", .type = SP_KV_U32, .min = 1, .max = 65535 - 8, .dst = (port) }, \
	{ .key = "server", .type = SP_KV_STRING, .dst = (server) }, \
	{ .key = "ssh", .what = "ssh host", .type = SP_KV_STRING, .dst = (ssh) }

static int parse_kv(const char *bench, int argc, char **argv, struct sp_kv *kv, size_t n)
{
	char err[256];

	if (sp_parse_kv(argc, argv, kv, n, err, sizeof(err)))
		return sp_usage_error("bench", "bench %s: %s", bench, err);
	return SP_EXIT_OK;
}

/* "A,B": at most max words; what names the list in errors. */
static int parse_words(const char *what, const char *s, struct sp_list *out, size_t max)
{
	size_t i;

	if (sp_parse_list(s, out))
		return sp_usage_error("bench", "Invalid %s: '%s' (A[,B...])", what, s);
	if (out->n > max)
		return sp_usage_error("bench", "Too many in the %s: %zu (at most %zu)", what,
				      out->n, max);
	for (i = 0; i < out->n; i++)
		if (!sp_bench_word_ok(out->items[i]))
			return sp_usage_error("bench", "Invalid %s item: '%s'", what,
					      out->items[i]);
	return SP_EXIT_OK;
}

/* "peer ADDR[,ADDR...]", which perftest and iperf3 require. */
static int parse_peers(const char *bench, const char *peer, struct sp_list *peers)
{
	if (!peer)
		return sp_usage_error("bench", "bench %s: missing 'peer ADDR[,ADDR...]'", bench);
	return parse_words("peer address list", peer, peers, BENCH_PEERS_MAX);
}

/* "server none|local|ssh" and "ssh HOST". */
static int parse_server(const char *bench, const char *server, const char *ssh_host,
			enum sp_bench_server *out)
{
	if (server && sp_bench_server_parse(server, out))
		return sp_usage_error("bench", "bench %s: invalid server '%s' (none, local, ssh)",
				      bench, server);
	if (ssh_host && !sp_bench_word_ok(ssh_host))
		return sp_usage_error("bench", "bench %s: invalid ssh host '%s'", bench, ssh_host);
	/* the servers of "none" and "local" are not started over ssh */
	if (ssh_host && *out != SP_BENCH_SERVER_SSH)
		return sp_usage_error("bench", "bench %s: 'ssh HOST' is for 'server ssh'", bench);
	return SP_EXIT_OK;
}

/*
 * The last check of perftest and iperf3, the output directory. Their
 * clients go to the peers; their deadline grows by the clients' duration.
 */
static int peer_prepare(struct sp_bench *b, const struct sp_list *peers, uint32_t duration_s,
			const char *const **out, size_t *n_out)
{
	*out = (const char *const *)peers->items;
	*n_out = peers->n;
	b->default_timeout_ms += (int64_t)duration_s * 1000;
	return sp_bench_prepare(b);
}

/* ---- bench perftest ------------------------------------------------------------------ */

enum { PT_DEV, PT_PEER_DEV, PT_TEST, PT_SIZE, PT_QPS, PT_ITERS, PT_GID };

static int bench_perftest(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_bench b = { .name = "perftest", .default_timeout_ms = NET_TIMEOUT_MS };
	const char *peer = NULL, *dev = NULL, *peer_dev = NULL, *test = NULL, *server = NULL;
	struct sp_bench_perftest_opts o = { .gid_index = -1 };
	struct sp_list peers = { 0 }, devs = { 0 }, pdevs = { 0 };
	uint32_t port = 0, gid = 0;
	struct sp_kv kv[] = {
		[PT_DEV] = { .key = "dev", .type = SP_KV_STRING, .dst = &dev },
		[PT_PEER_DEV] = { .key = "peer-dev", .type = SP_KV_STRING, .dst = &peer_dev },
		[PT_TEST] = { .key = "test", .type = SP_KV_STRING, .dst = &test },
		[PT_SIZE] = { .key = "size", .type = SP_KV_SIZE, .min = 1, .max = 1ULL << 31,
			      .dst = &o.size },
		[PT_QPS] = { .key = "qps", .type = SP_KV_U32, .min = 1, .max = 16384, .dst = &o.qps },
		[PT_ITERS] = { .key = "iters", .type = SP_KV_U64, .min = 5, .max = 1000000000000ULL,
			       .dst = &o.iters },
		[PT_GID] = { .key = "gid-index", .type = SP_KV_U32, .max = 255, .dst = &gid },
		PEER_KV(&peer, &o.duration_s, &port, &server, &o.ssh_host),
		COMMON_KV(&b.c),
	};
	size_t i;
	int rc, built;

	(void)ctx;
	rc = parse_kv("perftest", argc, argv, kv, ARRAY_SIZE(kv));
	if (!rc)
		rc = parse_peers("perftest", peer, &peers);
	if (!rc && dev)
		rc = parse_words("device list", dev, &devs, BENCH_PEERS_MAX);
	if (!rc && peer_dev)
		rc = parse_words("peer device list", peer_dev, &pdevs, BENCH_PEERS_MAX);
	if (!rc && ((dev && devs.n != peers.n) || (peer_dev && pdevs.n != peers.n)))
		rc = sp_usage_error("bench", "bench perftest: give one device per peer address");
	if (!rc && test && sp_perftest_test_parse(test, &o.test))
		rc = sp_usage_error("bench", "bench perftest: invalid test '%s'", test);
	if (!rc)
		rc = parse_server("perftest", server, o.ssh_host, &o.server);
	if (!rc && o.iters && o.duration_s)
		rc = sp_usage_error("bench", "bench perftest: 'iters' and 'duration' cannot be "
				    "used together");
	if (!rc)
		rc = peer_prepare(&b, &peers, o.duration_s, &o.peers, &o.n_peers);
	if (rc)
		goto out;
	o.devs = (const char *const *)devs.items;
	o.n_devs = devs.n;
	o.peer_devs = (const char *const *)pdevs.items;
	o.n_peer_devs = pdevs.n;
	o.port = (uint16_t)port;
	if (kv[PT_GID].seen)
		o.gid_index = (int)gid;
	built = sp_bench_perftest_cmds(&o, &b.cmds);
	for (i = 0; !built && b.c.trace && i < peers.n; i++)
		built = devs.n ? sp_bench_devices_add_rdma(&b.devs, devs.items[i]) :
			sp_bench_devices_add_route(&b.devs, peers.items[i]);
	rc = sp_bench_finish(&b, built, argc, argv);
out:
	sp_list_free(&peers);
	sp_list_free(&devs);
	sp_list_free(&pdevs);
	return rc;
}

/* ---- bench iperf3 -------------------------------------------------------------------- */

/* The first CPU of the sets that this process may not run on (taskset would fail), or -1. */
static int cpu_missing(char (*sets)[SP_BENCH_CPUSET_LEN], size_t n)
{
	struct sp_cpuset want;
	cpu_set_t allowed;
	size_t i, cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	for (i = 0; i < n; i++) {
		if (sp_parse_cpulist(sets[i], &want))
			return SP_CPUS_MAX;
		for (cpu = 0; cpu < SP_CPUS_MAX; cpu++) {
			if ((want.bits[cpu / 64] >> (cpu % 64) & 1) &&
			    (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)))
				return (int)cpu;
		}
	}
	return -1;
}

static int bench_iperf3(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_bench b = { .name = "iperf3", .default_timeout_ms = NET_TIMEOUT_MS };
	const char *peer = NULL, *cpus = NULL, *server = NULL;
	char sets[BENCH_PEERS_MAX][SP_BENCH_CPUSET_LEN];
	struct sp_bench_iperf3_opts o = { 0 };
	struct sp_list peers = { 0 };
	uint32_t port = 0;
	struct sp_kv kv[] = {
		{ .key = "streams", .type = SP_KV_U32, .min = 1, .max = 128, .dst = &o.streams },
		{ .key = "cpus", .type = SP_KV_STRING, .dst = &cpus },
		PEER_KV(&peer, &o.duration_s, &port, &server, &o.ssh_host),
		COMMON_KV(&b.c),
	};
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;
	int rc, built, ret, cpu;

	(void)ctx;
	rc = parse_kv("iperf3", argc, argv, kv, ARRAY_SIZE(kv));
	if (!rc)
		rc = parse_peers("iperf3", peer, &peers);
	if (!rc && cpus) {
		ret = sp_bench_cpus_parse(cpus, ncpus > 0 ? (unsigned int)ncpus : 1, peers.n, sets);
		if (ret)
			rc = sp_usage_error("bench", "bench iperf3: invalid cpus '%s' (%s)", cpus,
					    ret == -ERANGE ? "fewer CPUs than clients" :
					    "one list per peer address, '/' between them");
		cpu = ret ? -1 : cpu_missing(sets, peers.n);
		if (cpu >= SP_CPUS_MAX)
			rc = sp_usage_error("bench", "bench iperf3: invalid cpus '%s' (CPU lists: "
					    "0-3,8)", cpus);
		else if (cpu >= 0)
			rc = sp_usage_error("bench", "bench iperf3: invalid cpus '%s' (this host has "
					    "no CPU %d to run on)", cpus, cpu);
		o.cpus = sets;
	}
	if (!rc)
		rc = parse_server("iperf3", server, o.ssh_host, &o.server);
	if (!rc)
		rc = peer_prepare(&b, &peers, o.duration_s, &o.peers, &o.n_peers);
	if (rc)
		goto out;
	o.port = (uint16_t)port;
	built = sp_bench_iperf3_cmds(&o, &b.cmds);
	for (i = 0; !built && b.c.trace && i < peers.n; i++)
		built = sp_bench_devices_add_route(&b.devs, peers.items[i]);
	rc = sp_bench_finish(&b, built, argc, argv);
out:
	sp_list_free(&peers);
	return rc;
}

/* ---- bench nccl ------------------------------------------------------------------------ */

enum {
	NC_HOSTS, NC_TEST, NC_HCA, NC_SIZES, NC_CPP, NC_NP, NC_GPUS, NC_ITERS, NC_WARMUP,
	NC_DIR, NC_OOB, NC_MIN, NC_N
};

/* "channels-per-peer N|sweep" */
static int parse_channels(const char *s, struct sp_bench_nccl_opts *o)
{
	static const uint32_t sweep[] = SP_NCCL_CHANNEL_SWEEP;

	if (!strcmp(s, "sweep")) {
		memcpy(o->channels, sweep, sizeof(sweep));
		o->n_channels = ARRAY_SIZE(sweep);
		return 0;
	}
	o->n_channels = 1;
	return sp_parse_u32(s, 1, 64, &o->channels[0]);
}

/* Where nccl-tests builds its binaries in the playbook: ~/nccl-tests/build. */
static const char *default_bin_dir(char *buf, size_t len)
{
	const char *home = getenv("HOME");

	snprintf(buf, len, "%s/nccl-tests/build", home ? home : "");
	return buf;
}

/*
 * No hca: the HCAs (and the GID index when stable, the merge and routing
 * settings) that nccl env finds for the hosts, the same on every one.
 */
static int nccl_auto(struct sp_bench *b, struct sp_bench_nccl_opts *o, const struct sp_list *hl,
		     struct sp_nccl_auto *a)
{
	char err[600];
	size_t i;

	if (sp_nccl_auto((const char *const *)hl->items, hl->n, b->c.dry_run, a, err, sizeof(err))) {
		sp_err(stderr, "%s", err);
		return SP_EXIT_ERROR;
	}
	o->hca = a->hca[0] ? a->hca : NULL;
	for (i = 0; i < a->n_env; i++)
		a->env_ptr[i] = a->env[i];
	o->env = a->env_ptr;
	o->n_env = a->n_env;
	b->hca_source = a->source;
	return SP_EXIT_OK;
}

static int bench_nccl(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct sp_bench b = { .name = "nccl", .default_timeout_ms = NCCL_TIMEOUT_MS };
	const char *hosts = NULL, *test = NULL, *sizes = NULL, *cpp = NULL, *min = NULL;
	struct sp_bench_nccl_opts o = {
		.min_bytes = 256ULL << 20, .max_bytes = 4ULL << 30,
	};
	struct sp_list hl = { 0 };
	char bin_dir[4096];
	struct sp_kv kv[] = {
		[NC_HOSTS] = { .key = "hosts", .what = "host list", .type = SP_KV_STRING,
			       .dst = &hosts },
		[NC_TEST] = { .key = "test", .type = SP_KV_STRING, .dst = &test },
		[NC_HCA] = { .key = "hca", .type = SP_KV_STRING, .dst = &o.hca },
		[NC_SIZES] = { .key = "sizes", .type = SP_KV_STRING, .dst = &sizes },
		[NC_CPP] = { .key = "channels-per-peer", .type = SP_KV_STRING, .dst = &cpp },
		[NC_NP] = { .key = "np", .what = "rank count", .type = SP_KV_U32, .min = 1,
			    .max = 4096, .dst = &o.np },
		[NC_GPUS] = { .key = "gpus", .type = SP_KV_U32, .min = 1, .max = 64,
			      .dst = &o.gpus },
		[NC_ITERS] = { .key = "iters", .type = SP_KV_U32, .min = 1, .max = 1000000,
			       .dst = &o.iters },
		[NC_WARMUP] = { .key = "warmup", .type = SP_KV_U32, .min = 1, .max = 1000000,
				.dst = &o.warmup },
		[NC_DIR] = { .key = "nccl-tests", .what = "nccl-tests directory",
			     .type = SP_KV_STRING, .dst = &o.bin_dir },
		[NC_OOB] = { .key = "oob-if", .what = "interface", .type = SP_KV_STRING,
			     .dst = &o.oob_if },
		[NC_MIN] = { .key = "min-busbw", .type = SP_KV_STRING, .dst = &min },
		COMMON_KV(&b.c),
	};
	struct sp_bench_lines hca = { 0 };
	struct sp_nccl_auto env;
	uint32_t slots;
	size_t i;
	int rc, built;

	/* "bench nccl env": what nccl env prints, the environment this bench would give */
	if (argc && !strcmp(argv[0], "env"))
		return sp_nccl_env_cmd(ctx, argc - 1, argv + 1);
	rc = parse_kv("nccl", argc, argv, kv, ARRAY_SIZE(kv));
	if (!rc && hosts)
		rc = parse_words("host list", hosts, &hl, BENCH_HOSTS_MAX);
	for (i = 0; !rc && i < hl.n; i++) {
		if (sp_nccl_host_slots(hl.items[i], &slots) < 0)
			rc = sp_usage_error("bench", "bench nccl: invalid host '%s' (HOST or "
					    "HOST:SLOTS, SLOTS 1..4096)", hl.items[i]);
	}
	if (!rc && test && sp_nccl_test_parse(test, &o.test))
		rc = sp_usage_error("bench", "bench nccl: invalid test '%s' (sendrecv, all_reduce, "
				    "all_gather)", test);
	if (!rc && sizes && sp_parse_size_range(sizes, 1, 1ULL << 40, &o.min_bytes, &o.max_bytes))
		rc = sp_usage_error("bench", "bench nccl: invalid sizes '%s' (A..B)", sizes);
	if (!rc && cpp && parse_channels(cpp, &o))
		rc = sp_usage_error("bench", "bench nccl: invalid channels-per-peer '%s' (1..64 "
				    "or sweep)", cpp);
	if (!rc && min && (sp_bench_parse_number(min, &b.min_busbw) || b.min_busbw <= 0))
		rc = sp_usage_error("bench", "bench nccl: invalid min-busbw '%s' (GB/s)", min);
	if (!rc && o.hca && !sp_bench_word_ok(o.hca[0] == '^' || o.hca[0] == '=' ? o.hca + 1 : o.hca))
		rc = sp_usage_error("bench", "bench nccl: invalid hca '%s'", o.hca);
	if (!rc && o.oob_if && !sp_bench_word_ok(o.oob_if))
		rc = sp_usage_error("bench", "bench nccl: invalid oob-if '%s'", o.oob_if);
	if (!rc)
		rc = sp_bench_prepare(&b);
	if (!rc && !o.hca && hl.n)
		rc = nccl_auto(&b, &o, &hl, &env);
	else if (o.hca)
		b.hca_source = "the hca argument";
	if (rc)
		goto out;
	o.hosts = (const char *const *)hl.items;
	o.n_hosts = hl.n;
	if (!o.bin_dir)
		o.bin_dir = default_bin_dir(bin_dir, sizeof(bin_dir));
	o.out_dir = b.out_dir;
	b.hosts = hl.n;
	built = sp_bench_nccl_cmds(&o, &b.cmds);
	if (!built && b.c.trace) {
		built = sp_bench_hca_devs("/sys", o.hca, &hca);
		for (i = 0; !built && i < hca.n; i++)
			built = sp_bench_devices_add_rdma(&b.devs, hca.v[i]);
		if (!built && o.oob_if)
			built = sp_bench_devices_add_netdev(&b.devs, o.oob_if);
	}
	rc = sp_bench_finish(&b, built, argc, argv);
out:
	sp_bench_lines_free(&hca);
	sp_list_free(&hl);
	return rc;
}

/* ---- bench vllm, sglang, trtllm, llama ------------------------------------------------- */

/* http[s]://HOST[:PORT][/PATH]: a name or an IPv4 address, or an IPv6 one in brackets. */
static bool url_ok(const char *url)
{
	const char *host = strstr(url, "://"), *end;
	uint32_t port;
	char digits[8];
	size_t len;

	if (!host || (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)))
		return false;
	host += 3;
	if (*host == '[') {
		end = strchr(host, ']');
		if (!end || end == host + 1 ||
		    strspn(host + 1, "0123456789abcdefABCDEF:.") != (size_t)(end - host - 1))
			return false;
		end++;
	} else {
		end = host + strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789.-");
		if (end == host || *host == '-' || *host == '.')
			return false;
	}
	if (*end == ':') {
		len = strcspn(end + 1, "/");
		if (!len || len >= sizeof(digits))
			return false;
		memcpy(digits, end + 1, len);
		digits[len] = '\0';
		if (sp_parse_u32(digits, 1, 65535, &port))
			return false;
		end += 1 + len;
	}
	return !*end || (*end == '/' && !strpbrk(end, " \t\n"));
}

enum {
	LL_MODEL, LL_MODE, LL_IMAGE, LL_ISL, LL_OSL, LL_CONC, LL_PROMPTS, LL_URL, LL_LLAMA,
	LL_THREADS, LL_N
};

/* One Spark: every RDMA port traced, for multi-node work that would use them. */
static int trace_all_rdma(struct sp_bench *b)
{
	struct sp_bench_lines all = { 0 };
	size_t i;
	int ret = sp_bench_hca_devs("/sys", NULL, &all);

	for (i = 0; !ret && i < all.n; i++)
		ret = sp_bench_devices_add_rdma(&b->devs, all.v[i]);
	sp_bench_lines_free(&all);
	return ret;
}

static int bench_llm(enum sp_llm_tool tool, int argc, char **argv)
{
	struct sp_bench b = {
		.name = sp_bench_tool_str((enum sp_bench_tool)(SP_BENCH_VLLM + tool)),
		.default_timeout_ms = LLM_TIMEOUT_MS,
	};
	struct sp_bench_llm_opts o = { .tool = tool };
	struct sp_kv kv[] = {
		[LL_MODEL] = { .key = "model", .type = SP_KV_STRING, .dst = &o.model },
		[LL_MODE] = { .key = "mode", .type = SP_KV_STRING, .dst = &o.mode },
		[LL_IMAGE] = { .key = "image", .type = SP_KV_STRING, .dst = &o.image },
		[LL_ISL] = { .key = "isl", .what = "input length", .type = SP_KV_U32, .min = 1,
			     .max = 1 << 20, .dst = &o.isl },
		[LL_OSL] = { .key = "osl", .what = "output length", .type = SP_KV_U32, .min = 1,
			     .max = 1 << 20, .dst = &o.osl },
		[LL_CONC] = { .key = "concurrency", .type = SP_KV_U32, .min = 1, .max = 65536,
			      .dst = &o.concurrency },
		[LL_PROMPTS] = { .key = "prompts", .type = SP_KV_U32, .min = 1, .max = 1 << 24,
				 .dst = &o.prompts },
		[LL_URL] = { .key = "url", .type = SP_KV_STRING, .dst = &o.url },
		[LL_LLAMA] = { .key = "llama-bench", .what = "llama-bench path",
			       .type = SP_KV_STRING, .dst = &o.llama_bench },
		[LL_THREADS] = { .key = "threads", .type = SP_KV_U32, .min = 1, .max = 4096,
				 .dst = &o.threads },
		COMMON_KV(&b.c),
	};
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n_kv = ARRAY_SIZE(kv);
	int rc, built;

	rc = parse_kv(b.name, argc, argv, kv, n_kv);
	if (!rc && !o.model)
		rc = sp_usage_error("bench", "bench %s: missing 'model %s'", b.name,
				    tool == SP_LLM_LLAMA ? "FILE" : "MODEL");
	if (!rc && o.mode && !sp_bench_llm_mode_valid(tool, o.mode))
		rc = sp_usage_error("bench", "bench %s: invalid mode '%s' (default %s)", b.name,
				    o.mode, sp_bench_llm_default_mode(tool));
	if (!rc && o.url && strcmp(o.mode ? o.mode : sp_bench_llm_default_mode(tool), "serve"))
		rc = sp_usage_error("bench", "bench %s: url is for mode serve", b.name);
	if (!rc && o.url && !url_ok(o.url))
		rc = sp_usage_error("bench", "bench %s: invalid url '%s' (http[s]://HOST[:PORT]"
				    "[/PATH])", b.name, o.url);
	/* llama-bench runs its tests one by one, and no prompts but its own */
	if (!rc && tool == SP_LLM_LLAMA && (kv[LL_CONC].seen || kv[LL_PROMPTS].seen))
		rc = sp_usage_error("bench", "bench llama: concurrency and prompts are not "
				    "llama-bench's");
	if (!rc && kv[LL_CONC].seen && !sp_bench_llm_concurrent(tool, o.mode))
		rc = sp_usage_error("bench", "bench %s: concurrency is for mode serve", b.name);
	if (!rc && (o.llama_bench || kv[LL_THREADS].seen) && tool != SP_LLM_LLAMA)
		rc = sp_usage_error("bench", "bench %s: llama-bench and threads are for llama",
				    b.name);
	if (!rc)
		rc = sp_bench_prepare(&b);
	if (rc)
		return rc;
	o.home = getenv("HOME") ? getenv("HOME") : "/root";
	o.out_dir = b.out_dir;
	if (!o.threads && ncpus > 0)
		o.threads = (uint32_t)ncpus;
	b.requested = tool == SP_LLM_LLAMA ? 0 : o.prompts ? o.prompts : 1;
	if (tool == SP_LLM_TRTLLM) {
		b.file_name = SP_BENCH_TRTLLM_CONFIG_NAME;
		b.file_text = sp_bench_trtllm_config;
	}
	built = sp_bench_llm_cmds(&o, &b.cmds);
	if (!built && b.c.trace)
		built = trace_all_rdma(&b);
	return sp_bench_finish(&b, built, argc, argv);
}

#define LLM_BENCH(name, tool) \
	static int bench_##name(const struct sp_ctx *ctx, int argc, char **argv) \
	{ \
		(void)ctx; \
		return bench_llm(tool, argc, argv); \
	}

LLM_BENCH(vllm, SP_LLM_VLLM)
LLM_BENCH(sglang, SP_LLM_SGLANG)
LLM_BENCH(trtllm, SP_LLM_TRTLLM)
LLM_BENCH(llama, SP_LLM_LLAMA)

/* ---- bench imagegen, finetune ---------------------------------------------------------- */

enum { GN_TEST, GN_BATCH, GN_STEPS, GN_IMAGE, GN_DIR, GN_N };

/* "test A,B": each known, once (so no more than there are). */
static int parse_tests(const char *bench, const char *test, struct sp_list *tests,
		       bool (*valid)(const char *name), const char *names)
{
	size_t i, j;
	int rc = parse_words("test list", test, tests, BENCH_PEERS_MAX);

	for (i = 0; !rc && i < tests->n; i++) {
		if (!valid(tests->items[i]))
			return sp_usage_error("bench", "bench %s: invalid test '%s' (%s)", bench,
					      tests->items[i], names);
		for (j = 0; j < i; j++)
			if (!strcmp(tests->items[i], tests->items[j]))
				return sp_usage_error("bench", "bench %s: test '%s' given twice",
						      bench, tests->items[i]);
	}
	return rc;
}

/* The guide's Image Generation (imagegen) and Fine-tuning (finetune) sections. */
static int bench_gen(enum sp_bench_tool tool, int argc, char **argv)
{
	bool img = tool == SP_BENCH_IMAGEGEN;
	struct sp_bench b = {
		.name = sp_bench_tool_str(tool),
		.default_timeout_ms = img ? LLM_TIMEOUT_MS : FINETUNE_TIMEOUT_MS,
	};
	struct sp_bench_gen_opts o = { 0 };
	const char *test = NULL, *dkey = img ? "demo" : "playbooks";
	struct sp_list tests = { 0 };
	char dir[4096];
	struct sp_kv kv[] = {
		[GN_TEST] = { .key = "test", .what = "test list", .type = SP_KV_STRING, .dst = &test },
		[GN_BATCH] = { .key = "batch", .what = "batch size", .type = SP_KV_U32, .min = 1,
			       .max = 256, .dst = &o.batch },
		[GN_STEPS] = { .key = "steps", .what = "denoising steps", .type = SP_KV_U32,
			       .min = 1, .max = 10000, .dst = &o.steps },
		[GN_IMAGE] = { .key = "image", .type = SP_KV_STRING, .dst = &o.image },
		[GN_DIR] = { .key = dkey, .what = "directory", .type = SP_KV_STRING, .dst = &o.dir },
		COMMON_KV(&b.c),
	};
	int rc, built;

	rc = parse_kv(b.name, argc, argv, kv, ARRAY_SIZE(kv));
	if (!rc && test)
		rc = parse_tests(b.name, test, &tests, img ? sp_bench_imagegen_test_valid :
				 sp_bench_finetune_test_valid, img ? "flux, sdxl" : "lora, qlora, full");
	if (!rc && !img && (kv[GN_BATCH].seen || kv[GN_STEPS].seen))
		rc = sp_usage_error("bench", "bench finetune: batch and steps are for imagegen");
	if (!rc && o.dir && (!o.image || strcmp(o.image, "none")))
		rc = sp_usage_error("bench", "bench %s: %s is for image none", b.name, dkey);
	if (!rc)
		rc = sp_bench_prepare(&b);
	if (rc)
		goto out;
	o.tests = (const char *const *)tests.items;
	o.n_tests = tests.n;
	o.home = getenv("HOME") ? getenv("HOME") : "/root";
	o.out_dir = b.out_dir;
	if (!o.dir) {
		snprintf(dir, sizeof(dir), "%s/%s", o.home,
			 img ? "TensorRT/demo/Diffusion" : "dgx-spark-playbooks");
		o.dir = dir;
	}
	if (!img) {
		b.file_name = SP_BENCH_FINETUNE_HOOK_NAME;
		b.file_text = sp_bench_finetune_hook;
	}
	built = img ? sp_bench_imagegen_cmds(&o, &b.cmds) : sp_bench_finetune_cmds(&o, &b.cmds);
	if (!built && b.c.trace)
		built = trace_all_rdma(&b);
	rc = sp_bench_finish(&b, built, argc, argv);
out:
	sp_list_free(&tests);
	return rc;
}

static int bench_imagegen(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return bench_gen(SP_BENCH_IMAGEGEN, argc, argv);
}

static int bench_finetune(const struct sp_ctx *ctx, int argc, char **argv)
{
	(void)ctx;
	return bench_gen(SP_BENCH_FINETUNE, argc, argv);
}

/* ---- bench parse --------------------------------------------------------------------- */

enum { PA_UNIT, PA_EXIT, PA_HOSTS, PA_MIN, PA_PROMPTS, PA_N };

static int bench_parse(const struct sp_ctx *ctx, int argc, char **argv)
{
	const char *unit = NULL, *min = NULL;
	uint32_t exit_status = 0, hosts = 0;
	struct sp_bench b = { .name = "parse" };
	struct sp_kv kv[] = {
		[PA_UNIT] = { .key = "unit", .type = SP_KV_STRING, .dst = &unit },
		[PA_EXIT] = { .key = "exit", .what = "exit status", .type = SP_KV_U32, .max = 255,
			      .dst = &exit_status },
		[PA_HOSTS] = { .key = "hosts", .what = "host count", .type = SP_KV_U32, .min = 1,
			       .max = 4096, .dst = &hosts },
		[PA_MIN] = { .key = "min-busbw", .type = SP_KV_STRING, .dst = &min },
		[PA_PROMPTS] = { .key = "prompts", .type = SP_KV_U64, .min = 1, .max = 1 << 24,
				 .dst = &b.requested },
	};
	enum sp_perftest_unit pt_unit = SP_PERFTEST_UNIT_UNKNOWN;
	struct sp_bench_doc doc = { .bench = "parse", .input_exit = SP_BENCH_EXIT_UNKNOWN };
	struct sp_bench_verdict v = { 0 };
	struct sp_bench_result *r;
	struct sp_run_env env;
	enum sp_bench_tool tool;
	char *text;
	int rc, ret;

	(void)ctx;
	if (argc < 2)
		return sp_usage_error("bench", "bench parse: missing %s", argc ? "FILE" : "TOOL FILE");
	if (sp_bench_tool_parse(argv[0], &tool))
		return sp_usage_error("bench", "bench parse: unknown tool '%s'", argv[0]);
	rc = parse_kv("parse", argc - 2, argv + 2, kv, ARRAY_SIZE(kv));
	if (!rc && unit && strcmp(unit, "gbit") && strcmp(unit, "mib"))
		rc = sp_usage_error("bench", "bench parse: invalid unit '%s' (gbit or mib)", unit);
	if (!rc && min && (sp_bench_parse_number(min, &b.min_busbw) || b.min_busbw <= 0))
		rc = sp_usage_error("bench", "bench parse: invalid min-busbw '%s' (GB/s)", min);
	if (rc)
		return rc;
	if (unit)
		pt_unit = !strcmp(unit, "gbit") ? SP_PERFTEST_UNIT_GBIT : SP_PERFTEST_UNIT_MIB;
	/* "-": standard input, as a pipe gives it */
	text = strcmp(argv[1], "-") ? sp_bench_read_file(NULL, argv[1]) :
	       sp_bench_read_stream(stdin);
	if (!text && errno == EFBIG) {
		sp_err(stderr, "cannot read %s: larger than %d MiB, more than a benchmark's output",
		       argv[1], SP_BENCH_FILE_MAX >> 20);
		return SP_EXIT_ERROR;
	}
	if (!text) {
		sp_err(stderr, "cannot read %s: %s", argv[1], strerror(errno ? errno : EIO));
		return SP_EXIT_ERROR;
	}
	b.hosts = hosts;
	doc.input = argv[1];
	doc.input_exit = kv[PA_EXIT].seen ? (int)exit_status : sp_bench_exit_trailer(text);
	doc.args = argv;
	doc.n_args = (size_t)argc;
	/* where the output was made is not known: only this tool's version */
	sp_run_env_collect(NULL, &env);
	env.env.host = env.env.kernel_release = env.env.clock_source = NULL;
	doc.env = &env.env;
	r = doc.results = calloc(1, sizeof(*doc.results));
	ret = r ? 0 : -ENOMEM;
	if (!ret) {
		doc.n_results = 1;
		r->tool = tool;
		r->command = -1;
		r->label = strdup(argv[0]);
		r->source = strdup(argv[1]);
		ret = !r->label || !r->source ? -ENOMEM :
		      sp_bench_parse_judge(r, text, NULL, doc.input_exit, &b, pt_unit, &v);
	}
	if (!ret)
		ret = sp_bench_file_problems(&doc, &v, 0);
	free(text);
	return sp_bench_end_doc(&doc, ret);
}

static const struct sp_cmd bench_cmds[] = {
	{ "perftest", bench_perftest },
	{ "iperf3", bench_iperf3 },
	{ "nccl", bench_nccl },
	{ "vllm", bench_vllm },
	{ "sglang", bench_sglang },
	{ "trtllm", bench_trtllm },
	{ "llama", bench_llama },
	{ "imagegen", bench_imagegen },
	{ "finetune", bench_finetune },
	{ "parse", bench_parse },
};

int sp_cmd_bench(const struct sp_ctx *ctx, int argc, char **argv)
{
	if (!argc)
		return sp_usage_error("bench", "Missing bench: perftest, iperf3, nccl, vllm, sglang, "
				      "trtllm, llama, imagegen, finetune or parse");
	/* "bench perftest help" as well as "bench help" */
	if (argc > 1 && sp_help_requested(argc - 1, argv + 1, sp_bench_usage))
		return SP_EXIT_OK;
	return sp_cmd_dispatch(ctx, "bench", bench_cmds, ARRAY_SIZE(bench_cmds), sp_bench_usage,
			       argc, argv);
}
