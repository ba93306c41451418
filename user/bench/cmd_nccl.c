// SPDX-License-Identifier: GPL-2.0
/*
 * The nccl-tests commands of benchcmd.h: one step per channels-per-peer
 * value, under mpirun when it spans hosts or ranks, as the blog runs them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdbuild.h"
#include "lib/parse.h"

static const char *const nccl_tests[] = {
	[SP_NCCL_SENDRECV] = "sendrecv", [SP_NCCL_ALL_REDUCE] = "all_reduce",
	[SP_NCCL_ALL_GATHER] = "all_gather",
};

SP_BENCH_NAMES(sp_nccl_test_parse, sp_nccl_test_str, enum sp_nccl_test, nccl_tests)

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
static void nccl_env(struct sp_bench_builder *b, bool mpirun, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void nccl_env(struct sp_bench_builder *b, bool mpirun, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (mpirun) {
		sp_bench_arg(b, "-x");
		sp_bench_push(b, &b->c->argv, &b->argc, fmt, ap);
	} else {
		sp_bench_push(b, &b->c->env, &b->envc, fmt, ap);
	}
	va_end(ap);
}

int sp_nccl_host_slots(const char *host, uint32_t *slots)
{
	const char *colon = strchr(host, ':');

	if (!colon || strchr(colon + 1, ':'))
		return 0;
	return sp_parse_u32(colon + 1, 1, 4096, slots) ? -EINVAL : 1;
}

/* The slots the hosts carry, and how many hosts carry none. */
static uint32_t nccl_given_slots(const struct sp_bench_nccl_opts *o, uint32_t *without)
{
	uint32_t sum = 0, slots;
	size_t i;

	*without = 0;
	for (i = 0; i < o->n_hosts; i++) {
		if (sp_nccl_host_slots(o->hosts[i], &slots) > 0)
			sum += slots;
		else
			(*without)++;
	}
	return sum;
}

/* mpirun's words before the environment: ranks, hosts, the ssh it uses, interfaces. */
static void nccl_mpirun(struct sp_bench_builder *b, const struct sp_bench_nccl_opts *o, uint32_t np)
{
	uint32_t without, given = nccl_given_slots(o, &without), slots = 1, own;
	char *hosts = NULL;
	size_t i, len = 0;
	FILE *f;

	sp_bench_arg(b, "mpirun");
	sp_bench_opt(b, "-np", "%u", np);
	if (o->n_hosts) {
		/* the ranks the hosts with slots do not take, shared by the others */
		if (without && np > given)
			slots = (np - given + without - 1) / without;
		f = open_memstream(&hosts, &len);
		if (!f) {
			b->err = -ENOMEM;
			return;
		}
		/* "a:2" is the user's: as is */
		for (i = 0; i < o->n_hosts; i++) {
			if (sp_nccl_host_slots(o->hosts[i], &own) > 0)
				fprintf(f, "%s%s", i ? "," : "", o->hosts[i]);
			else
				fprintf(f, "%s%s:%u", i ? "," : "", o->hosts[i], slots);
		}
		if (fclose(f))
			b->err = -ENOMEM;
		sp_bench_opt(b, "-H", "%s", hosts ? hosts : "");
		free(hosts);
		sp_bench_arg(b, "--mca");
		sp_bench_arg(b, "plm_rsh_agent");
		sp_bench_arg(b, "ssh -o BatchMode=yes -o ConnectTimeout=10");
	}
	if (o->oob_if) {
		sp_bench_arg(b, "--mca");
		sp_bench_arg(b, "btl_tcp_if_include");
		sp_bench_arg(b, "%s", o->oob_if);
		sp_bench_arg(b, "--mca");
		sp_bench_arg(b, "oob_tcp_if_include");
		sp_bench_arg(b, "%s", o->oob_if);
	}
	sp_bench_opt(b, "-x", "LD_LIBRARY_PATH");
}

int sp_bench_nccl_cmds(const struct sp_bench_nccl_opts *o, struct sp_bench_cmds *out)
{
	struct sp_bench_builder b = { .cmds = out };
	uint32_t without = 0, given = nccl_given_slots(o, &without);
	uint32_t np = o->np ? o->np : o->n_hosts ? given + without : 1;
	size_t runs = o->n_channels ? o->n_channels : 1, i, j;
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
		sp_bench_cmd_new(&b, SP_BENCH_ROLE_STEP, SP_BENCH_NCCL, "%s_perf%s", test, cpp);
		if (mpirun)
			nccl_mpirun(&b, o, np);
		if (o->oob_if)
			nccl_env(&b, mpirun, "NCCL_SOCKET_IFNAME=%s", o->oob_if);
		if (o->hca)
			nccl_env(&b, mpirun, "NCCL_IB_HCA=%s", o->hca);
		for (j = 0; j < o->n_env; j++)
			nccl_env(&b, mpirun, "%s", o->env[j]);
		if (o->n_channels)
			nccl_env(&b, mpirun, "NCCL_NCHANNELS_PER_NET_PEER=%u", o->channels[i]);
		/* the transport NCCL chose: socket fallback shows only here */
		nccl_env(&b, mpirun, "NCCL_DEBUG=INFO");
		nccl_env(&b, mpirun, "NCCL_DEBUG_SUBSYS=INIT,NET");
		sp_bench_arg(&b, "%s/%s_perf", o->bin_dir, test);
		sp_bench_opt(&b, "-b", "%s", lo);
		sp_bench_opt(&b, "-e", "%s", hi);
		sp_bench_opt(&b, "-f", "2");
		sp_bench_opt(&b, "-g", "%u", o->gpus ? o->gpus : 1);
		sp_bench_opt(&b, "-n", "%u", o->iters ? o->iters : 30);
		sp_bench_opt(&b, "-w", "%u", o->warmup ? o->warmup : 5);
		if (b.err)
			break;
		sp_bench_field(&b, &b.c->json_name, "%s.json", b.c->name);
		sp_bench_opt(&b, "-J", "%s/%s", o->out_dir, b.c->json_name ? b.c->json_name : "");
		if (o->n_channels)
			sp_bench_field(&b, &b.c->label, "channels-per-peer %u", o->channels[i]);
		else
			sp_bench_field(&b, &b.c->label, "%s", test);
	}
	return sp_bench_done(&b);
}
