// SPDX-License-Identifier: GPL-2.0
/*
 * The iperf3 commands of benchcmd.h: a server and a client per peer address,
 * each client pinned to its CPUs when asked; the CPU sets.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmdbuild.h"

/* The server's banner: it is ready for a client once it printed it. */
#define IPERF3_READY "Server listening on"

int sp_bench_iperf3_cmds(const struct sp_bench_iperf3_opts *o, struct sp_bench_cmds *out)
{
	struct sp_bench_builder b = { .cmds = out };
	uint16_t base = o->port ? o->port : 5201;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < o->n_peers; i++) {
		sp_bench_server_new(&b, o->server, o->ssh_host, o->peers[i], IPERF3_READY, i);
		sp_bench_arg(&b, "iperf3");
		sp_bench_arg(&b, "-s");
		/* a server we start serves this one test; the user's may stay */
		if (o->server != SP_BENCH_SERVER_NONE)
			sp_bench_arg(&b, "-1");
		sp_bench_opt(&b, "-B", "%s", o->peers[i]);
		sp_bench_opt(&b, "-p", "%u", (unsigned int)(base + i));
	}
	for (i = 0; i < o->n_peers; i++) {
		sp_bench_cmd_new(&b, SP_BENCH_ROLE_CLIENT, SP_BENCH_IPERF3, "client %zu", i + 1);
		if (o->cpus) {
			sp_bench_arg(&b, "taskset");
			sp_bench_opt(&b, "-c", "%s", o->cpus[i]);
		}
		sp_bench_arg(&b, "iperf3");
		sp_bench_opt(&b, "-c", "%s", o->peers[i]);
		sp_bench_opt(&b, "-p", "%u", (unsigned int)(base + i));
		if (o->streams)
			sp_bench_opt(&b, "-P", "%u", o->streams);
		if (o->duration_s)
			sp_bench_opt(&b, "-t", "%u", o->duration_s);
		sp_bench_arg(&b, "-J");
		sp_bench_field(&b, &b.c->label, "-> %s%s%s", o->peers[i], o->cpus ? " cpus " : "",
			       o->cpus ? o->cpus[i] : "");
	}
	return sp_bench_done(&b);
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
