// SPDX-License-Identifier: GPL-2.0
/*
 * matrix/worker.c end to end, without MPI or a kernel: each rank a thread,
 * their collectives on a barrier and shared buffers (sp_mx_comm), each
 * host's halves given, and sparkperf-ctl a script that answers as the real
 * one's -j output does: servers, probes, lat and bw runs, one peer
 * unreachable, one link throttled. What rank 0 prints, progress and the
 * document, is read back as "matrix show" reads it.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <arpa/inet.h>

#include "lib/file.h"
#include "matrix/report.h"
#include "matrix/worker.h"
#include "testutil.h"

#define RANKS_MAX 8

struct shared {
	pthread_barrier_t barrier;
	const void *slot[RANKS_MAX];
};

struct rank {
	struct sp_mx_comm c;		/* first: the collectives cast back */
	struct shared *sh;
	const struct sp_mx_worker_cfg *cfg;
	FILE *out, *progress;
	int ret;
};

static struct shared *sh_of(struct sp_mx_comm *c)
{
	return ((struct rank *)c)->sh;
}

static int t_barrier(struct sp_mx_comm *c)
{
	pthread_barrier_wait(&sh_of(c)->barrier);
	return 0;
}

static int t_allgather(struct sp_mx_comm *c, const void *mine, void *all, size_t len)
{
	int r;

	sh_of(c)->slot[c->rank] = mine;
	t_barrier(c);
	for (r = 0; r < c->size; r++)
		memcpy((char *)all + (size_t)r * len, sh_of(c)->slot[r], len);
	return t_barrier(c);
}

static int t_bcast(struct sp_mx_comm *c, void *buf, size_t len)
{
	if (!c->rank)
		sh_of(c)->slot[0] = buf;
	t_barrier(c);
	if (c->rank)
		memcpy(buf, sh_of(c)->slot[0], len);
	return t_barrier(c);
}

static int t_gather(struct sp_mx_comm *c, const void *mine, void *all, size_t len)
{
	int r;

	sh_of(c)->slot[c->rank] = mine;
	t_barrier(c);
	for (r = 0; !c->rank && r < c->size; r++)
		memcpy((char *)all + (size_t)r * len, sh_of(c)->slot[r], len);
	return t_barrier(c);
}

static void *rank_main(void *arg)
{
	struct rank *r = arg;

	r->ret = sp_mx_worker_run(&r->c, r->cfg, r->out, r->progress);
	return NULL;
}

/*
 * a, b, c switched on 192.168.200.0/24; d on its own subnet (no path);
 * e's half answers no probe (10.9.9.9 is on a's second half's subnet).
 */
static void discover(struct sp_mx_host *me, int rank)
{
	static const char *const addrs[][2] = {
		{ "192.168.200.1", "10.9.9.1" }, { "192.168.200.2", NULL }, { "192.168.200.3", NULL },
		{ "172.16.0.4", NULL }, { "10.9.9.9", NULL },
	};
	int i;

	snprintf(me->name, sizeof(me->name), "%c", 'a' + rank);
	for (i = 0; i < 2 && addrs[rank][i]; i++) {
		struct sp_mx_half *h = &me->halves[me->n_halves++];

		snprintf(h->dev, sizeof(h->dev), "rxe%d", i);
		snprintf(h->netdev, sizeof(h->netdev), "eth%d", i);
		inet_pton(AF_INET, addrs[rank][i], &h->addr);
		h->prefix = 24;
		h->port = -1;
	}
}

/* sparkperf-ctl as its -j output goes; every call logged. */
static const char fake_ctl[] =
	"#!/bin/sh\n"
	"echo \"$*\" >> \"$(dirname \"$0\")/calls\"\n"
	"case \"$*\" in\n"
	"'-j server show') echo '[]' ;;\n"
	"'-j server start') echo '{\"id\":7,\"port\":18520}' ;;\n"
	"'-j server stop id 7') ;;\n"
	"*'lat run peer 10.9.9.'*) echo 'Error: rdma_cm: address resolution timed out.' >&2;"
	" exit 1 ;;\n"
	"*'lat run '*) echo '[{\"state\":\"done\",\"rtt_p50_ns\":3000,\"rtt_p99_ns\":5000}]' ;;\n"
	"*'bw run peer 192.168.200.3 dev rxe0 '*) echo '[{\"sessions\":[{\"state\":\"done\","
	"\"gbit_per_s\":10.5}],\"aggregate\":{\"gbit_per_s\":10.5}}]' ;;\n"
	"*'bw run peer 192.168.200.'*','*) echo '[{\"sessions\":[{\"state\":\"done\","
	"\"gbit_per_s\":40.0},{\"state\":\"failed\",\"error_msg\":\"QP error\"}],"
	"\"aggregate\":{\"gbit_per_s\":40.0}}]' ;;\n"
	"*'bw run '*) echo '[{\"sessions\":[{\"state\":\"done\",\"gbit_per_s\":90.0}],"
	"\"aggregate\":{\"gbit_per_s\":90.0}}]' ;;\n"
	"*) echo \"fake ctl: $*\" >&2; exit 2 ;;\n"
	"esac\n";

static char dir[64];
/* each rank's host: discover(), or a test's own */
static void (*hook)(struct sp_mx_host *me, int rank) = discover;

static void setup(void)
{
	char path[128];
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/check_worker.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sparkperf-ctl", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(fake_ctl, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
}

static void teardown(void)
{
	tree_remove(dir);
}

/* Runs n ranks; rank 0's stdout and stderr into *out and *progress (free them). */
static void run_ranks(int n, enum sp_mx_pattern pattern, char **out, char **progress)
{
	struct sp_mx_worker_cfg cfg = {
		.run = { .lat = true, .bw = true, .size_bytes = 1 << 20, .duration_s = 1,
			 .pattern = pattern },
		.discover = hook,
	};
	struct rank ranks[RANKS_MAX];
	pthread_t th[RANKS_MAX];
	struct shared sh = { 0 };
	size_t out_len = 0, prog_len = 0;
	int i;

	snprintf(cfg.ctl, sizeof(cfg.ctl), "%s/sparkperf-ctl", dir);
	pthread_barrier_init(&sh.barrier, NULL, (unsigned int)n);
	*out = *progress = NULL;
	for (i = 0; i < n; i++) {
		ranks[i] = (struct rank){
			.c = { .rank = i, .size = n, .allgather = t_allgather, .bcast = t_bcast,
			       .gather = t_gather, .barrier = t_barrier },
			.sh = &sh, .cfg = &cfg,
			.out = i ? NULL : open_memstream(out, &out_len),
			.progress = i ? NULL : open_memstream(progress, &prog_len),
		};
		ck_assert_int_eq(pthread_create(&th[i], NULL, rank_main, &ranks[i]), 0);
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(ranks[i].ret, 0);
	}
	fclose(ranks[0].out);
	fclose(ranks[0].progress);
	pthread_barrier_destroy(&sh.barrier);
}

static struct sp_mx_doc *read_doc(const char *out)
{
	struct sp_mx_doc *d = sp_mx_doc_new();
	char err[256];

	ck_assert_msg(!sp_mx_doc_parse(out, d, err, sizeof(err)), "%s: %s", err, out);
	return d;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

START_TEST(test_pairs)
{
	struct sp_mx_outliers o;
	struct sp_mx_doc *d;
	char *out, *progress, *calls, path[128];
	size_t i;

	run_ranks(5, SP_MX_PAIRS, &out, &progress);
	d = read_doc(out);
	ck_assert_uint_eq(d->n_hosts, 5);
	/* a, b, c each way (6) reached; a rxe1 <-> e both ways failed */
	ck_assert_uint_eq(d->n_links, 6);
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_MIXED);
	ck_assert(!d->topo.direct[0][3] && !d->topo.direct[0][4]);
	/* 2 failed probes, 6 pairs measured; a tournament of 3 hosts on 5 ranks */
	ck_assert_uint_eq(d->n_results, 8);
	ck_assert_uint_eq(d->rounds, 6);
	for (i = 0; i < d->n_results; i++) {
		const struct sp_mx_result *r = &d->results[i];

		if (r->t.pattern == SP_MX_PROBE) {
			ck_assert_str_eq(r->error, "probe: Error: rdma_cm: address resolution timed out.");
			continue;
		}
		ck_assert_str_eq(r->error, "");
		ck_assert(r->has_lat && r->has_bw);
		ck_assert_double_eq_tol(r->one_way_p50_us, 1.5, 1e-9);
		ck_assert_double_eq_tol(r->one_way_p99_us, 2.5, 1e-9);
		ck_assert_double_eq_tol(r->gbit_per_s, r->t.server == 2 ? 10.5 : 90.0, 1e-9);
	}
	/* both pairs towards c are the outliers of their kind */
	ck_assert_int_eq(sp_mx_find_outliers(d, &o), 0);
	ck_assert_uint_eq(o.n, 2);
	ck_assert_uint_eq(d->results[o.v[0].result].t.server, 2);
	sp_mx_outliers_free(&o);
	ck_assert(starts_with(progress, "matrix of 5 hosts: probing every pair of halves that "
			      "share a subnet\n"));
	ck_assert_ptr_nonnull(strstr(progress, "probe 1/"));
	ck_assert_ptr_nonnull(strstr(progress, "cabling mixed: 6 of the pairs of halves reached "
				     "each other\n"));
	ck_assert_ptr_nonnull(strstr(progress, "round 1/6: "));
	ck_assert_ptr_nonnull(strstr(progress, "a rxe0 -> c rxe0: lat one-way p50 1.50 us, p99 "
				     "2.50 us, bw 10.50 Gbit/s\n"));
	ck_assert_ptr_nonnull(strstr(progress, "a rxe1 -> e rxe0: failed: probe: Error: rdma_cm: "
				     "address resolution timed out.\n"));
	/* every server started is stopped; the tests as a user types them */
	snprintf(path, sizeof(path), "%s/calls", dir);
	ck_assert_int_eq(sp_file_read(path, 1 << 20, &calls), 0);
	ck_assert_uint_eq(count(calls, "-j server start\n"), 5);
	ck_assert_uint_eq(count(calls, "-j server stop id 7\n"), 5);
	ck_assert_ptr_nonnull(strstr(calls, "-j lat run peer 192.168.200.2 dev rxe0 size 64 iters 20\n"));
	ck_assert_ptr_nonnull(strstr(calls, "-j lat run peer 192.168.200.2 dev rxe0 size 64 "
				     "duration 1\n"));
	ck_assert_ptr_nonnull(strstr(calls, "-j bw run peer 192.168.200.2 dev rxe0 size 1MiB qps 4 "
				     "duration 1\n"));
	free(calls);
	sp_mx_doc_free(d);
	free(out);
	free(progress);
}
END_TEST

START_TEST(test_all)
{
	struct sp_mx_doc *d;
	char *out, *progress;
	size_t i, all = 0, failed = 0;

	run_ranks(3, SP_MX_ALL, &out, &progress);
	d = read_doc(out);
	ck_assert_uint_eq(d->rounds, 6 + 1);
	for (i = 0; i < d->n_results; i++) {
		const struct sp_mx_result *r = &d->results[i];

		if (r->t.pattern != SP_MX_ALL)
			continue;
		all++;
		ck_assert_uint_eq(r->t.round, 7);
		/* each host's two sessions in one bw run: the first moved, the second failed */
		if (r->has_bw)
			ck_assert_double_eq_tol(r->gbit_per_s, 40.0, 1e-9);
		else
			failed += !strcmp(r->error, "bw: QP error");
	}
	ck_assert_uint_eq(all, 6);
	ck_assert_uint_eq(failed, 3);
	sp_mx_doc_free(d);
	free(out);
	free(progress);
}
END_TEST

START_TEST(test_incast)
{
	struct sp_mx_doc *d;
	char *out, *progress;
	size_t i, incast = 0;

	run_ranks(3, SP_MX_INCAST, &out, &progress);
	d = read_doc(out);
	/* the tournament's 6, then a round per target, two senders each */
	ck_assert_uint_eq(d->rounds, 6 + 3);
	for (i = 0; i < d->n_results; i++) {
		const struct sp_mx_result *r = &d->results[i];

		if (r->t.pattern != SP_MX_INCAST)
			continue;
		incast++;
		ck_assert_uint_eq(r->t.round, 7 + r->t.server);
		ck_assert(r->has_bw);
	}
	ck_assert_uint_eq(incast, 6);
	ck_assert_ptr_nonnull(strstr(progress, "round 9/9: a rxe0 -> c rxe0: bw 10.50 Gbit/s\n"));
	sp_mx_doc_free(d);
	free(out);
	free(progress);
}
END_TEST

/* Rank 1's host without its module: in the document, tested by nobody. */
static void discover_one_broken(struct sp_mx_host *me, int rank)
{
	discover(me, rank);
	if (rank == 1) {
		me->n_halves = 0;
		snprintf(me->error, sizeof(me->error), "cannot read its halves: the sparkperf "
			 "module is not loaded");
	}
}

START_TEST(test_host_without_halves)
{
	struct sp_mx_doc *d;
	char *out, *progress;

	hook = discover_one_broken;
	run_ranks(3, SP_MX_PAIRS, &out, &progress);
	hook = discover;
	d = read_doc(out);
	ck_assert_str_eq(d->hosts[1].error, "cannot read its halves: the sparkperf module is not "
			 "loaded");
	ck_assert_uint_eq(d->hosts[1].n_halves, 0);
	/* a <-> c only, each way */
	ck_assert_uint_eq(d->n_links, 2);
	ck_assert_uint_eq(d->n_results, 2);
	ck_assert_int_eq(d->topo.cabling, SP_MX_CABLING_MIXED);
	sp_mx_doc_free(d);
	free(out);
	free(progress);
}
END_TEST

START_TEST(test_args)
{
	char *ok[] = { "tests", "bw", "size", "64K", "duration", "3", "pattern", "incast", "ctl",
		       "/x/sparkperf-ctl" };
	char *bad[] = { "pattern", "probe" };
	struct sp_mx_worker_cfg cfg;
	char err[256];

	ck_assert_int_eq(sp_mx_worker_args(10, ok, &cfg, err, sizeof(err)), 0);
	ck_assert(!cfg.run.lat && cfg.run.bw);
	ck_assert_uint_eq(cfg.run.size_bytes, 65536);
	ck_assert_uint_eq(cfg.run.duration_s, 3);
	ck_assert_int_eq(cfg.run.pattern, SP_MX_INCAST);
	ck_assert_str_eq(cfg.ctl, "/x/sparkperf-ctl");
	ck_assert_int_eq(sp_mx_worker_args(2, bad, &cfg, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "Invalid pattern: 'probe' (pairs, all or incast)");
	/* without ctl: the one beside this program */
	ck_assert_int_eq(sp_mx_worker_args(0, ok, &cfg, err, sizeof(err)), 0);
	ck_assert(cfg.run.lat && cfg.run.bw);
	ck_assert_ptr_nonnull(strstr(cfg.ctl, "/matrix/sparkperf-ctl"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("worker");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_pairs);
	tcase_add_test(tc, test_all);
	tcase_add_test(tc, test_incast);
	tcase_add_test(tc, test_host_without_halves);
	tcase_add_test(tc, test_args);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return run_suite(suite());
}
