// SPDX-License-Identifier: GPL-2.0
/*
 * The perftest commands of benchcmd.h: a server and a client per pair, with
 * the guide's options.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cmdbuild.h"

/* The server's banner: it is ready for a client once it printed it. */
#define PERFTEST_READY "Waiting for client to connect"

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
static void perftest_args(struct sp_bench_builder *b, const struct sp_bench_perftest_opts *o,
			  const char *dev, uint16_t port, const char *peer)
{
	sp_bench_arg(b, "%s", perftest_tests[o->test].binary);
	if (dev)
		sp_bench_opt(b, "-d", "%s", dev);
	sp_bench_opt(b, "-i", "1");
	sp_bench_opt(b, "-p", "%u", port);
	sp_bench_arg(b, "-F");
	if (perftest_tests[o->test].bw)
		sp_bench_arg(b, "--report_gbits");
	if (o->size)
		sp_bench_opt(b, "-s", "%" PRIu64, o->size);
	if (o->qps)
		sp_bench_opt(b, "-q", "%u", o->qps);
	if (o->iters)
		sp_bench_opt(b, "-n", "%" PRIu64, o->iters);
	if (o->duration_s)
		sp_bench_opt(b, "-D", "%u", o->duration_s);
	if (o->gid_index >= 0)
		sp_bench_opt(b, "-x", "%d", o->gid_index);
	if (peer)
		sp_bench_arg(b, "%s", peer);
}

int sp_bench_perftest_cmds(const struct sp_bench_perftest_opts *o, struct sp_bench_cmds *out)
{
	struct sp_bench_builder b = { .cmds = out };
	uint16_t base = o->port ? o->port : perftest_tests[o->test].bw ? 12000 : 13000;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < o->n_peers; i++) {
		const char *dev = o->n_devs ? o->devs[i] : NULL;
		const char *peer_dev = o->n_peer_devs ? o->peer_devs[i] : dev;

		sp_bench_server_new(&b, o->server, o->ssh_host, o->peers[i], PERFTEST_READY, i);
		perftest_args(&b, o, peer_dev, (uint16_t)(base + i), NULL);
	}
	for (i = 0; i < o->n_peers; i++) {
		const char *dev = o->n_devs ? o->devs[i] : NULL;

		sp_bench_cmd_new(&b, SP_BENCH_ROLE_CLIENT, SP_BENCH_PERFTEST, "client %zu", i + 1);
		perftest_args(&b, o, dev, (uint16_t)(base + i), o->peers[i]);
		sp_bench_field(&b, &b.c->label, "%s%s-> %s", dev ? dev : "", dev ? " " : "",
			       o->peers[i]);
	}
	return sp_bench_done(&b);
}
