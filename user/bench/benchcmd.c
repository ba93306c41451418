// SPDX-License-Identifier: GPL-2.0
/*
 * The builders of benchcmd.h. Where an option is the guide's or the blog's,
 * the words and their order are theirs, so that a dry run reads like the
 * recipe it replaces.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchcmd.h"
#include "lib/parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The server's banners: it is ready for a client once it printed one. */
#define PERFTEST_READY "Waiting for client to connect"
#define IPERF3_READY "Server listening on"

/* ssh that fails at once instead of asking for a password or a host key */
static const char *const ssh_words[] = {
	"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
};

/* Servers write their banner at once, not when their stdio buffer fills. */
static const char *const line_buffered[] = { "stdbuf", "-oL" };

/* ---- building a command ------------------------------------------------------ */

struct builder {
	struct sp_bench_cmds *cmds;
	struct sp_bench_cmd *c;		/* the one being built */
	size_t argc, envc;
	int err;
};

static char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

/* Appends a formatted string to a NULL-terminated vector of n. */
static void push(struct builder *b, char ***vec, size_t *n, const char *fmt, va_list ap)
{
	char **v, *s;

	if (b->err)
		return;
	s = xvasprintf(fmt, ap);
	v = s ? realloc(*vec, (*n + 2) * sizeof(*v)) : NULL;
	if (!v) {
		free(s);
		b->err = -ENOMEM;
		return;
	}
	v[(*n)++] = s;
	v[*n] = NULL;
	*vec = v;
}

static void arg(struct builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg(struct builder *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push(b, &b->c->argv, &b->argc, fmt, ap);
	va_end(ap);
}

static void words(struct builder *b, const char *const *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		arg(b, "%s", w[i]);
}

/* Sets a malloc'ed string field from a format; an error is remembered. */
static void field(struct builder *b, char **dst, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void field(struct builder *b, char **dst, const char *fmt, ...)
{
	va_list ap;

	if (b->err)
		return;
	va_start(ap, fmt);
	*dst = xvasprintf(fmt, ap);
	va_end(ap);
	if (!*dst)
		b->err = -ENOMEM;
}

/*
 * A new command "name" of role: its output files are named after it
 * ("client 1": client-1.stdout, client-1.stderr).
 */
static void cmd_new(struct builder *b, enum sp_bench_role role, enum sp_bench_tool tool,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void cmd_new(struct builder *b, enum sp_bench_role role, enum sp_bench_tool tool,
		    const char *fmt, ...)
{
	struct sp_bench_cmd *v;
	va_list ap;
	char *p;

	if (b->err)
		return;
	v = realloc(b->cmds->v, (b->cmds->n + 1) * sizeof(*v));
	if (!v) {
		b->err = -ENOMEM;
		return;
	}
	b->cmds->v = v;
	b->c = &v[b->cmds->n++];
	memset(b->c, 0, sizeof(*b->c));
	b->c->role = role;
	b->c->tool = tool;
	b->c->x.exit_status = SP_BENCH_EXIT_UNKNOWN;
	b->argc = b->envc = 0;
	va_start(ap, fmt);
	b->c->name = xvasprintf(fmt, ap);
	va_end(ap);
	if (!b->c->name) {
		b->err = -ENOMEM;
		return;
	}
	field(b, &b->c->stdout_name, "%s.stdout", b->c->name);
	field(b, &b->c->stderr_name, "%s.stderr", b->c->name);
	for (p = b->c->stdout_name; p && *p; p++)
		if (*p == ' ' || *p == '/')
			*p = '-';
	for (p = b->c->stderr_name; p && *p; p++)
		if (*p == ' ' || *p == '/')
			*p = '-';
	/* an empty environment is a vector too */
	b->c->env = calloc(1, sizeof(*b->c->env));
	if (!b->c->env)
		b->err = -ENOMEM;
}

static int done(struct builder *b)
{
	if (b->err)
		sp_bench_cmds_free(b->cmds);
	return b->err;
}

static void strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void sp_bench_cmds_free(struct sp_bench_cmds *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct sp_bench_cmd *x = &c->v[i];

		free(x->name);
		free(x->host);
		strv_free(x->argv);
		strv_free(x->env);
		free(x->stdout_name);
		free(x->stderr_name);
		free(x->json_name);
		free(x->label);
		free(x->x.exec_error);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

const char *sp_bench_role_str(enum sp_bench_role role)
{
	static const char *const names[] = {
		[SP_BENCH_ROLE_SERVER] = "server", [SP_BENCH_ROLE_MANUAL] = "manual",
		[SP_BENCH_ROLE_CLIENT] = "client", [SP_BENCH_ROLE_STEP] = "step",
	};

	return names[role];
}

/* ---- the command line as text -------------------------------------------------- */

/* Characters no shell reads specially, in any position. */
static bool plain_word(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=,@%+-", *w))
			return false;
	return true;
}

char *sp_bench_quote(const char *word)
{
	size_t len = 2, i = 0;
	const char *p;
	char *out;

	if (plain_word(word))
		return strdup(word);
	for (p = word; *p; p++)
		len += *p == '\'' ? 4 : 1;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	out[i++] = '\'';
	for (p = word; *p; p++) {
		if (*p == '\'') {
			memcpy(out + i, "'\\''", 4);
			i += 4;
		} else {
			out[i++] = *p;
		}
	}
	out[i++] = '\'';
	out[i] = '\0';
	return out;
}

/* Appends the quoted words of v to the stream, a blank before each but the first. */
static bool put_words(FILE *f, char *const *v, bool *first)
{
	size_t i;

	for (i = 0; v && v[i]; i++) {
		char *q = sp_bench_quote(v[i]);

		if (!q)
			return false;
		fprintf(f, "%s%s", *first ? "" : " ", q);
		*first = false;
		free(q);
	}
	return true;
}

char *sp_bench_cmdline(const struct sp_bench_cmd *c)
{
	char *buf = NULL;
	size_t len = 0;
	bool first = true, ok;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ok = put_words(f, c->env, &first) && put_words(f, c->argv, &first);
	if (fclose(f) || !ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* ---- servers --------------------------------------------------------------------- */

/* The index of s in names[n], or -EINVAL. */
static int name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return (int)i;
	return -EINVAL;
}

static const char *const server_names[] = {
	[SP_BENCH_SERVER_NONE] = "none", [SP_BENCH_SERVER_LOCAL] = "local",
	[SP_BENCH_SERVER_SSH] = "ssh",
};

int sp_bench_server_parse(const char *s, enum sp_bench_server *out)
{
	int i = name_index(server_names, ARRAY_SIZE(server_names), s);

	if (i < 0)
		return i;
	*out = (enum sp_bench_server)i;
	return 0;
}

const char *sp_bench_server_str(enum sp_bench_server s)
{
	return server_names[s];
}

/*
 * A server command: on this host or over ssh, line-buffered so that its
 * banner can be awaited; with "server none", what the user starts on the
 * peer (as is: it is theirs to run).
 */
static void server_new(struct builder *b, enum sp_bench_server server, const char *ssh_host,
		       const char *peer, const char *ready, size_t i)
{
	cmd_new(b, server == SP_BENCH_SERVER_NONE ? SP_BENCH_ROLE_MANUAL : SP_BENCH_ROLE_SERVER,
		SP_BENCH_NONE, "server %zu", i + 1);
	if (b->err)
		return;
	b->c->ready = ready;
	if (server == SP_BENCH_SERVER_SSH) {
		field(b, &b->c->host, "%s", ssh_host ? ssh_host : peer);
		words(b, ssh_words, ARRAY_SIZE(ssh_words));
		arg(b, "%s", b->c->host ? b->c->host : "");
	} else if (server == SP_BENCH_SERVER_NONE) {
		field(b, &b->c->host, "%s", peer);
	}
	if (server != SP_BENCH_SERVER_NONE)
		words(b, line_buffered, ARRAY_SIZE(line_buffered));
}

/* ---- perftest -------------------------------------------------------------------- */

static const struct {
	const char *name;
	const char *binary;
	bool bw;
} perftest_tests[] = {
	[SP_PERFTEST_WRITE_BW] = { "write_bw", "ib_write_bw", true },
	[SP_PERFTEST_WRITE_LAT] = { "write_lat", "ib_write_lat", false },
	[SP_PERFTEST_READ_BW] = { "read_bw", "ib_read_bw", true },
	[SP_PERFTEST_READ_LAT] = { "read_lat", "ib_read_lat", false },
	[SP_PERFTEST_SEND_BW] = { "send_bw", "ib_send_bw", true },
	[SP_PERFTEST_SEND_LAT] = { "send_lat", "ib_send_lat", false },
};

int sp_perftest_test_parse(const char *s, enum sp_perftest_test *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(perftest_tests); i++) {
		if (!strcmp(s, perftest_tests[i].name)) {
			*out = (enum sp_perftest_test)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sp_perftest_test_str(enum sp_perftest_test t)
{
	return perftest_tests[t].name;
}

const char *sp_perftest_test_binary(enum sp_perftest_test t)
{
	return perftest_tests[t].binary;
}

bool sp_perftest_test_is_bw(enum sp_perftest_test t)
{
	return perftest_tests[t].bw;
}

/*
 * One side of a pair: the guide's "-d DEV -i 1 -p PORT -F --report_gbits",
 * then the options both sides must be given alike (perftest's SYMMETRIC
 * ones), then the server's address for a client.
 */
static void perftest_args(struct builder *b, const struct sp_bench_perftest_opts *o,
			  const char *dev, uint16_t port, const char *peer)
{
	arg(b, "%s", perftest_tests[o->test].binary);
	if (dev) {
		arg(b, "-d");
		arg(b, "%s", dev);
	}
	arg(b, "-i");
	arg(b, "1");
	arg(b, "-p");
	arg(b, "%u", port);
	arg(b, "-F");
	if (perftest_tests[o->test].bw)
		arg(b, "--report_gbits");
	if (o->size) {
		arg(b, "-s");
		arg(b, "%" PRIu64, o->size);
	}
	if (o->qps) {
		arg(b, "-q");
		arg(b, "%u", o->qps);
	}
	if (o->iters) {
		arg(b, "-n");
		arg(b, "%" PRIu64, o->iters);
	}
	if (o->duration_s) {
		arg(b, "-D");
		arg(b, "%u", o->duration_s);
	}
	if (o->gid_index >= 0) {
		arg(b, "-x");
		arg(b, "%d", o->gid_index);
	}
	if (peer)
		arg(b, "%s", peer);
}

int sp_bench_perftest_cmds(const struct sp_bench_perftest_opts *o, struct sp_bench_cmds *out)
{
	struct builder b = { .cmds = out };
	uint16_t base = o->port ? o->port : perftest_tests[o->test].bw ? 12000 : 13000;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < o->n_peers; i++) {
		const char *dev = o->n_devs ? o->devs[i] : NULL;
		const char *peer_dev = o->n_peer_devs ? o->peer_devs[i] : dev;

		server_new(&b, o->server, o->ssh_host, o->peers[i], PERFTEST_READY, i);
		perftest_args(&b, o, peer_dev, (uint16_t)(base + i), NULL);
	}
	for (i = 0; i < o->n_peers; i++) {
		const char *dev = o->n_devs ? o->devs[i] : NULL;

		cmd_new(&b, SP_BENCH_ROLE_CLIENT, SP_BENCH_PERFTEST, "client %zu", i + 1);
		perftest_args(&b, o, dev, (uint16_t)(base + i), o->peers[i]);
		field(&b, &b.c->label, "%s%s-> %s", dev ? dev : "", dev ? " " : "", o->peers[i]);
	}
	return done(&b);
}

/* ---- iperf3 ---------------------------------------------------------------------- */

int sp_bench_iperf3_cmds(const struct sp_bench_iperf3_opts *o, struct sp_bench_cmds *out)
{
	struct builder b = { .cmds = out };
	uint16_t base = o->port ? o->port : 5201;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < o->n_peers; i++) {
		server_new(&b, o->server, o->ssh_host, o->peers[i], IPERF3_READY, i);
		arg(&b, "iperf3");
		arg(&b, "-s");
		/* a server we start serves this one test; the user's may stay */
		if (o->server != SP_BENCH_SERVER_NONE)
			arg(&b, "-1");
		arg(&b, "-B");
		arg(&b, "%s", o->peers[i]);
		arg(&b, "-p");
		arg(&b, "%u", (unsigned int)(base + i));
	}
	for (i = 0; i < o->n_peers; i++) {
		cmd_new(&b, SP_BENCH_ROLE_CLIENT, SP_BENCH_IPERF3, "client %zu", i + 1);
		if (o->cpus) {
			arg(&b, "taskset");
			arg(&b, "-c");
			arg(&b, "%s", o->cpus[i]);
		}
		arg(&b, "iperf3");
		arg(&b, "-c");
		arg(&b, "%s", o->peers[i]);
		arg(&b, "-p");
		arg(&b, "%u", (unsigned int)(base + i));
		if (o->streams) {
			arg(&b, "-P");
			arg(&b, "%u", o->streams);
		}
		if (o->duration_s) {
			arg(&b, "-t");
			arg(&b, "%u", o->duration_s);
		}
		arg(&b, "-J");
		field(&b, &b.c->label, "-> %s%s%s", o->peers[i], o->cpus ? " cpus " : "",
		      o->cpus ? o->cpus[i] : "");
	}
	return done(&b);
}

static bool cpuset_valid(const char *s)
{
	return *s && strspn(s, "0123456789,-") == strlen(s) && strlen(s) < SP_BENCH_CPUSET_LEN;
}

int sp_bench_cpus_parse(const char *s, unsigned int ncpus, size_t n,
			char (*sets)[SP_BENCH_CPUSET_LEN])
{
	const char *p = s, *slash;
	size_t i;

	if (!strcmp(s, "auto")) {
		unsigned int per = n ? ncpus / (unsigned int)n : 0;

		if (!per)
			return -ERANGE;
		for (i = 0; i < n; i++) {
			unsigned int first = (unsigned int)i * per, last = first + per - 1;

			if (per == 1)
				snprintf(sets[i], SP_BENCH_CPUSET_LEN, "%u", first);
			else
				snprintf(sets[i], SP_BENCH_CPUSET_LEN, "%u-%u", first, last);
		}
		return 0;
	}
	for (i = 0; i < n; i++) {
		size_t len;

		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (!len || len >= SP_BENCH_CPUSET_LEN || (i + 1 < n) != !!slash)
			return -EINVAL;
		memcpy(sets[i], p, len);
		sets[i][len] = '\0';
		if (!cpuset_valid(sets[i]))
			return -EINVAL;
		p += len + 1;
	}
	return 0;
}

/* ---- nccl-tests -------------------------------------------------------------------- */

static const char *const nccl_tests[] = {
	[SP_NCCL_SENDRECV] = "sendrecv", [SP_NCCL_ALL_REDUCE] = "all_reduce",
	[SP_NCCL_ALL_GATHER] = "all_gather",
};

int sp_nccl_test_parse(const char *s, enum sp_nccl_test *out)
{
	int i = name_index(nccl_tests, ARRAY_SIZE(nccl_tests), s);

	if (i < 0)
		return i;
	*out = (enum sp_nccl_test)i;
	return 0;
}

const char *sp_nccl_test_str(enum sp_nccl_test t)
{
	return nccl_tests[t];
}

/* A size as nccl-tests reads it (K, M, G are powers of 1024): 256M, 4G. */
static void nccl_size(char *buf, size_t len, uint64_t bytes)
{
	static const struct {
		char suffix;
		unsigned int shift;
	} units[] = { { 'G', 30 }, { 'M', 20 }, { 'K', 10 } };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (bytes && !(bytes & ((1ULL << units[i].shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", bytes >> units[i].shift,
				 units[i].suffix);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, bytes);
}

/* NAME=VALUE for the ranks: mpirun -x on its command line, else the environment. */
static void nccl_env(struct builder *b, bool mpirun, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void nccl_env(struct builder *b, bool mpirun, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (mpirun) {
		arg(b, "-x");
		push(b, &b->c->argv, &b->argc, fmt, ap);
	} else {
		push(b, &b->c->env, &b->envc, fmt, ap);
	}
	va_end(ap);
}

/* mpirun's words before the environment: ranks, hosts, the ssh it uses, interfaces. */
static void nccl_mpirun(struct builder *b, const struct sp_bench_nccl_opts *o, uint32_t np)
{
	uint32_t slots = o->n_hosts ? (np + (uint32_t)o->n_hosts - 1) / (uint32_t)o->n_hosts : 0;
	char *hosts = NULL;
	size_t i, len = 0;
	FILE *f;

	arg(b, "mpirun");
	arg(b, "-np");
	arg(b, "%u", np);
	if (o->n_hosts) {
		f = open_memstream(&hosts, &len);
		if (!f) {
			b->err = -ENOMEM;
			return;
		}
		for (i = 0; i < o->n_hosts; i++)
			fprintf(f, "%s%s:%u", i ? "," : "", o->hosts[i], slots);
		if (fclose(f))
			b->err = -ENOMEM;
		arg(b, "-H");
		arg(b, "%s", hosts ? hosts : "");
		free(hosts);
		arg(b, "--mca");
		arg(b, "plm_rsh_agent");
		arg(b, "ssh -o BatchMode=yes -o ConnectTimeout=10");
	}
	if (o->oob_if) {
		arg(b, "--mca");
		arg(b, "btl_tcp_if_include");
		arg(b, "%s", o->oob_if);
		arg(b, "--mca");
		arg(b, "oob_tcp_if_include");
		arg(b, "%s", o->oob_if);
	}
	arg(b, "-x");
	arg(b, "LD_LIBRARY_PATH");
}

int sp_bench_nccl_cmds(const struct sp_bench_nccl_opts *o, struct sp_bench_cmds *out)
{
	struct builder b = { .cmds = out };
	uint32_t np = o->np ? o->np : o->n_hosts ? (uint32_t)o->n_hosts : 1;
	size_t runs = o->n_channels ? o->n_channels : 1, i;
	const char *test = nccl_tests[o->test];
	bool mpirun = o->n_hosts || np > 1;
	char lo[32], hi[32], cpp[32];

	memset(out, 0, sizeof(*out));
	nccl_size(lo, sizeof(lo), o->min_bytes);
	nccl_size(hi, sizeof(hi), o->max_bytes);
	for (i = 0; i < runs; i++) {
		cpp[0] = '\0';
		if (o->n_channels)
			snprintf(cpp, sizeof(cpp), "-cpp%u", o->channels[i]);
		cmd_new(&b, SP_BENCH_ROLE_STEP, SP_BENCH_NCCL, "%s_perf%s", test, cpp);
		if (mpirun)
			nccl_mpirun(&b, o, np);
		if (o->oob_if)
			nccl_env(&b, mpirun, "NCCL_SOCKET_IFNAME=%s", o->oob_if);
		if (o->hca)
			nccl_env(&b, mpirun, "NCCL_IB_HCA=%s", o->hca);
		if (o->n_channels)
			nccl_env(&b, mpirun, "NCCL_NCHANNELS_PER_NET_PEER=%u", o->channels[i]);
		/* the transport NCCL chose: socket fallback shows only here */
		nccl_env(&b, mpirun, "NCCL_DEBUG=INFO");
		nccl_env(&b, mpirun, "NCCL_DEBUG_SUBSYS=INIT,NET");
		arg(&b, "%s/%s_perf", o->bin_dir, test);
		arg(&b, "-b");
		arg(&b, "%s", lo);
		arg(&b, "-e");
		arg(&b, "%s", hi);
		arg(&b, "-f");
		arg(&b, "2");
		arg(&b, "-g");
		arg(&b, "%u", o->gpus ? o->gpus : 1);
		arg(&b, "-n");
		arg(&b, "%u", o->iters ? o->iters : 30);
		arg(&b, "-w");
		arg(&b, "%u", o->warmup ? o->warmup : 5);
		if (b.err)
			break;
		field(&b, &b.c->json_name, "%s.json", b.c->name);
		arg(&b, "-J");
		arg(&b, "%s/%s", o->out_dir, b.c->json_name ? b.c->json_name : "");
		if (o->n_channels)
			field(&b, &b.c->label, "channels-per-peer %u", o->channels[i]);
		else
			field(&b, &b.c->label, "%s", test);
	}
	return done(&b);
}

/* ---- LLM benchmarks ------------------------------------------------------------------ */

const char sp_bench_trtllm_config[] =
	"kv_cache_config:\n"
	"  dtype: \"auto\"\n"
	"cuda_graph_config:\n"
	"  enable_padding: true\n";

/* The tools: their modes (the first is the default), the guide's image. */
static const struct {
	const char *modes[2];
	const char *image;
} llm_tools[] = {
	[SP_LLM_VLLM] = { { "serve", "throughput" }, "nvcr.io/nvidia/vllm:25.12-py3" },
	[SP_LLM_SGLANG] = { { "serve", "offline" }, "nvcr.io/nvidia/sglang:25.12-py3" },
	[SP_LLM_TRTLLM] = { { "throughput" }, "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc6" },
	/* the guide builds llama.cpp and runs it on the host */
	[SP_LLM_LLAMA] = { { "bench" }, NULL },
};

const char *sp_bench_llm_default_mode(enum sp_llm_tool tool)
{
	return llm_tools[tool].modes[0];
}

bool sp_bench_llm_mode_valid(enum sp_llm_tool tool, const char *mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(llm_tools[tool].modes); i++)
		if (llm_tools[tool].modes[i] && !strcmp(mode, llm_tools[tool].modes[i]))
			return true;
	return false;
}

struct llm_ctx {
	const struct sp_bench_llm_opts *o;
	const char *image;		/* NULL: on this host */
	const char *dir;		/* the output directory as the tool sees it */
	uint32_t isl, osl, conc, prompts;
	bool in_process;		/* the engine runs in the container: the guide's ulimits */
};

/*
 * The guide's "docker run" (less -it: the output is captured), with the
 * output directory mounted, HF_TOKEN passed by name (its value never shows
 * in a command line), then the image.
 */
static void llm_container(struct builder *b, const struct llm_ctx *x)
{
	if (!x->image)
		return;
	arg(b, "docker");
	arg(b, "run");
	arg(b, "--rm");
	arg(b, "--gpus");
	arg(b, "all");
	arg(b, "--ipc");
	arg(b, "host");
	arg(b, "--network");
	arg(b, "host");
	if (x->in_process) {
		arg(b, "--ulimit");
		arg(b, "memlock=-1");
		arg(b, "--ulimit");
		arg(b, "stack=67108864");
	}
	arg(b, "-e");
	arg(b, "HF_TOKEN");
	arg(b, "-v");
	arg(b, "%s/.cache/huggingface:/root/.cache/huggingface", x->o->home);
	arg(b, "-v");
	arg(b, "%s:%s", x->o->out_dir, SP_BENCH_CONTAINER_OUT);
	arg(b, "%s", x->image);
}

static void llm_step(struct builder *b, const struct llm_ctx *x, enum sp_bench_tool tool,
		     const char *name)
{
	cmd_new(b, SP_BENCH_ROLE_STEP, tool, "%s", name);
	llm_container(b, x);
}

/* "--key value" */
static void opt(struct builder *b, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void opt(struct builder *b, const char *key, const char *fmt, ...)
{
	va_list ap;

	arg(b, "%s", key);
	va_start(ap, fmt);
	push(b, &b->c->argv, &b->argc, fmt, ap);
	va_end(ap);
}

/* The synthetic workload of the guide's clients: random prompts of ISL tokens, OSL out. */
static void random_dataset(struct builder *b, const struct llm_ctx *x)
{
	opt(b, "--dataset-name", "random");
	opt(b, "--num-prompts", "%u", x->prompts);
	opt(b, "--random-input-len", "%u", x->isl);
	opt(b, "--random-output-len", "%u", x->osl);
}

static void vllm_serve(struct builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_VLLM, "vllm-bench-serve");
	arg(b, "vllm");
	arg(b, "bench");
	arg(b, "serve");
	opt(b, "--base-url", "%s", x->o->url ? x->o->url : "http://127.0.0.1:8000");
	opt(b, "--endpoint", "/v1/completions");
	opt(b, "--model", "%s", x->o->model);
	random_dataset(b, x);
	opt(b, "--percentile-metrics", "ttft,tpot,itl,e2el");
	opt(b, "--max-concurrency", "%u", x->conc);
	opt(b, "--request-rate", "inf");
	arg(b, "--save-result");
	opt(b, "--result-dir", "%s", x->dir);
	opt(b, "--result-filename", "vllm-serve.json");
	field(b, &b->c->json_name, "vllm-serve.json");
}

/* The words of a command as one quoted shell string (for the container's shell). */
static char *joined(char *const *v)
{
	struct sp_bench_cmd c = { .argv = (char **)v };

	return sp_bench_cmdline(&c);
}

static void vllm_throughput(struct builder *b, const struct llm_ctx *x)
{
	struct sp_bench_cmds inner = { 0 };
	struct builder ib = { .cmds = &inner };
	char *script;

	/* the guide installs "datasets" first, in the same container: one shell */
	cmd_new(&ib, SP_BENCH_ROLE_STEP, SP_BENCH_NONE, "inner");
	arg(&ib, "vllm");
	arg(&ib, "bench");
	arg(&ib, "throughput");
	opt(&ib, "--model", "%s", x->o->model);
	opt(&ib, "--dataset-name", "random");
	opt(&ib, "--num-prompts", "%u", x->prompts);
	opt(&ib, "--input-len", "%u", x->isl);
	opt(&ib, "--output-len", "%u", x->osl);
	opt(&ib, "--max-model-len", "%u", x->isl + x->osl);
	opt(&ib, "--gpu-memory-utilization", "0.8");
	opt(&ib, "--output-json", "%s/vllm-throughput.json", x->dir);
	script = ib.err ? NULL : joined(inner.v[0].argv);
	sp_bench_cmds_free(&inner);
	if (!script) {
		b->err = -ENOMEM;
		return;
	}
	llm_step(b, x, SP_BENCH_VLLM, "vllm-bench-throughput");
	if (x->image) {
		arg(b, "bash");
		arg(b, "-lc");
		arg(b, "pip install -q datasets && %s", script);
	} else {
		arg(b, "sh");
		arg(b, "-c");
		arg(b, "%s", script);
	}
	free(script);
	field(b, &b->c->json_name, "vllm-throughput.json");
}

static void sglang_serve(struct builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_SGLANG, "sglang-bench-serving");
	arg(b, "python3");
	arg(b, "-m");
	arg(b, "sglang.bench_serving");
	opt(b, "--backend", "sglang");
	if (x->o->url) {
		opt(b, "--base-url", "%s", x->o->url);
	} else {
		opt(b, "--host", "127.0.0.1");
		opt(b, "--port", "30000");
	}
	opt(b, "--model", "%s", x->o->model);
	random_dataset(b, x);
	opt(b, "--max-concurrency", "%u", x->conc);
	opt(b, "--output-file", "%s/sglang-serve.jsonl", x->dir);
	field(b, &b->c->json_name, "sglang-serve.jsonl");
}

static void sglang_offline(struct builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_SGLANG, "sglang-bench-offline-throughput");
	arg(b, "python3");
	arg(b, "-m");
	arg(b, "sglang.bench_offline_throughput");
	opt(b, "--model-path", "%s", x->o->model);
	random_dataset(b, x);
	opt(b, "--result-filename", "%s/sglang-offline.jsonl", x->dir);
	field(b, &b->c->json_name, "sglang-offline.jsonl");
}

/* The guide's offline run, its "set -e" script as three steps. */
static void trtllm_throughput(struct builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_NONE, "hf-download");
	arg(b, "hf");
	arg(b, "download");
	arg(b, "%s", x->o->model);

	/* the dataset is prepare_dataset.py's stdout */
	llm_step(b, x, SP_BENCH_NONE, "prepare-dataset");
	arg(b, "python");
	arg(b, "benchmarks/cpp/prepare_dataset.py");
	opt(b, "--tokenizer", "%s", x->o->model);
	arg(b, "--stdout");
	arg(b, "token-norm-dist");
	opt(b, "--num-requests", "%u", x->prompts);
	opt(b, "--input-mean", "%u", x->isl);
	opt(b, "--input-stdev", "0");
	opt(b, "--output-mean", "%u", x->osl);
	opt(b, "--output-stdev", "0");
	if (!b->err) {
		free(b->c->stdout_name);
		b->c->stdout_name = NULL;
		field(b, &b->c->stdout_name, "dataset.txt");
	}

	llm_step(b, x, SP_BENCH_TRTLLM, "trtllm-bench");
	arg(b, "trtllm-bench");
	opt(b, "-m", "%s", x->o->model);
	arg(b, "throughput");
	opt(b, "--dataset", "%s/dataset.txt", x->dir);
	opt(b, "--backend", "pytorch");
	opt(b, "--tp", "1");
	opt(b, "--max_num_tokens", "%u", x->isl + x->osl);
	opt(b, "--concurrency", "%u", x->conc);
	opt(b, "--max_batch_size", "%u", x->conc);
	opt(b, "--kv_cache_free_gpu_mem_fraction", "0.95");
	opt(b, "--extra_llm_api_options", "%s/%s", x->dir, SP_BENCH_TRTLLM_CONFIG_NAME);
	opt(b, "--report_json", "%s/trtllm-report.json", x->dir);
	field(b, &b->c->json_name, "trtllm-report.json");
}

/* The guide's llama-bench, its results one JSON line per test on stdout. */
static void llama_bench(struct builder *b, const struct llm_ctx *x)
{
	llm_step(b, x, SP_BENCH_LLAMA, "llama-bench");
	arg(b, "%s", x->o->llama_bench ? x->o->llama_bench : "llama-bench");
	opt(b, "-m", "%s", x->o->model);
	opt(b, "-t", "%u", x->o->threads ? x->o->threads : 1);
	opt(b, "-p", "%u", x->isl);
	opt(b, "-n", "%u", x->osl);
	opt(b, "-ngl", "99");
	opt(b, "-dio", "1");
	opt(b, "-fa", "1");
	opt(b, "-o", "jsonl");
	if (!b->err) {
		free(b->c->stdout_name);
		b->c->stdout_name = NULL;
		field(b, &b->c->stdout_name, "llama-bench.jsonl");
		field(b, &b->c->json_name, "llama-bench.jsonl");
	}
}

int sp_bench_llm_cmds(const struct sp_bench_llm_opts *o, struct sp_bench_cmds *out)
{
	const char *mode = o->mode ? o->mode : llm_tools[o->tool].modes[0];
	const char *image = o->image ? o->image : llm_tools[o->tool].image;
	struct builder b = { .cmds = out };
	struct llm_ctx x = {
		.o = o,
		.image = image && strcmp(image, "none") ? image : NULL,
		.isl = o->isl ? o->isl : 128,
		.osl = o->osl ? o->osl : 128,
		.conc = o->concurrency ? o->concurrency : 1,
		.prompts = o->prompts ? o->prompts : 1,
	};
	size_t i;

	memset(out, 0, sizeof(*out));
	x.dir = x.image ? SP_BENCH_CONTAINER_OUT : o->out_dir;
	x.in_process = strcmp(mode, "serve") != 0;
	if (!sp_bench_llm_mode_valid(o->tool, mode))
		return -EINVAL;
	switch (o->tool) {
	case SP_LLM_VLLM:
		if (x.in_process)
			vllm_throughput(&b, &x);
		else
			vllm_serve(&b, &x);
		break;
	case SP_LLM_SGLANG:
		if (x.in_process)
			sglang_offline(&b, &x);
		else
			sglang_serve(&b, &x);
		break;
	case SP_LLM_TRTLLM:
		trtllm_throughput(&b, &x);
		break;
	case SP_LLM_LLAMA:
		llama_bench(&b, &x);
		break;
	}
	for (i = 0; !b.err && i < out->n; i++)
		if (out->v[i].tool != SP_BENCH_NONE)
			field(&b, &out->v[i].label, "%s %s", sp_bench_tool_str(out->v[i].tool),
			      mode);
	return done(&b);
}

/* ---- numbers ------------------------------------------------------------------------ */

int sp_bench_parse_number(const char *s, double *out)
{
	char *end;
	double v;

	if (!*s || strspn(s, "0123456789.") != strlen(s))
		return -EINVAL;
	v = strtod(s, &end);
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}
