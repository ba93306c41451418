// SPDX-License-Identifier: GPL-2.0
/*
 * The run of one bench (benchexec.h): its commands run (or shown: dry-run),
 * the counters of its devices around them, their outputs parsed and judged
 * into one document, printed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchexec.h"
#include "benchprint.h"
#include "lib/err.h"
#include "lib/nl.h"
#include "lib/run.h"
#include "lib/tracerun.h"

/* What a dry run shows for the output directory it did not create. */
#define DRY_RUN_DIR "/tmp/sparkperf-bench-XXXXXX"

/* ---- what is traced -------------------------------------------------------------- */

static bool listed(const struct sp_bench_lines *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

static int add_unique(struct sp_bench_lines *l, const char *s)
{
	return listed(l, s) ? 0 : sp_bench_lines_add(l, s);
}

/* The RDMA devices, and the netdevs under them. */
int sp_bench_devices_add_rdma(struct sp_bench_devices *d, const char *dev)
{
	char nd[64];
	int ret = add_unique(&d->rdma, dev);

	if (!ret && !sp_bench_rdma_netdev("/sys", dev, nd, sizeof(nd)))
		ret = add_unique(&d->netdevs, nd);
	return ret;
}

/* The netdev of the route to addr, and the RDMA devices on it. */
int sp_bench_devices_add_route(struct sp_bench_devices *d, const char *addr)
{
	struct sp_bench_lines rdma = { 0 };
	char nd[64];
	size_t i;
	int ret;

	if (sp_bench_route_netdev(addr, nd, sizeof(nd)))
		return 0;
	ret = add_unique(&d->netdevs, nd);
	if (!ret)
		ret = sp_bench_netdev_rdma("/sys", nd, &rdma);
	for (i = 0; !ret && i < rdma.n; i++)
		ret = add_unique(&d->rdma, rdma.v[i]);
	sp_bench_lines_free(&rdma);
	return ret;
}

int sp_bench_devices_add_netdev(struct sp_bench_devices *d, const char *netdev)
{
	return add_unique(&d->netdevs, netdev);
}

static void devices_free(struct sp_bench_devices *d)
{
	sp_bench_lines_free(&d->netdevs);
	sp_bench_lines_free(&d->rdma);
}

/* ---- one bench, from its commands to its document ------------------------------------- */

/* Moves the problems of a judgement into the document's verdict, under result. */
int sp_bench_file_problems(struct sp_bench_doc *doc, struct sp_bench_verdict *v, int result)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < v->n; i++) {
		ret = sp_bench_problem_add(&doc->verdict, v->problems[i].level, v->problems[i].code,
					   "%s", v->problems[i].message);
		if (!ret)
			doc->verdict.problems[doc->verdict.n - 1].result = result;
	}
	sp_bench_verdict_free(v);
	return ret;
}

/* Parses text as the tool's output into r, and judges it. 0 or -ENOMEM. */
int sp_bench_parse_judge(struct sp_bench_result *r, const char *text, const char *json,
			 int exit_status, const struct sp_bench *b, enum sp_perftest_unit unit,
			 struct sp_bench_verdict *v)
{
	struct sp_nccl j;
	int ret;

	switch (r->tool) {
	case SP_BENCH_PERFTEST:
		ret = sp_perftest_parse(text, unit, &r->u.perftest);
		return ret ? ret : sp_perftest_judge(&r->u.perftest, exit_status, v);
	case SP_BENCH_IPERF3:
		ret = sp_iperf3_parse(text, &r->u.iperf3);
		return ret ? ret : sp_iperf3_judge(&r->u.iperf3, exit_status, v);
	case SP_BENCH_NCCL:
		ret = sp_nccl_parse(text, &r->u.nccl);
		if (!ret && json) {
			ret = sp_nccl_parse(json, &j);
			if (!ret)
				sp_nccl_take_json_numbers(&r->u.nccl, &j);
			sp_nccl_free(&j);
		}
		return ret ? ret : sp_nccl_judge(&r->u.nccl, exit_status, b->hosts, b->min_busbw, v);
	case SP_BENCH_IMAGEGEN:
	case SP_BENCH_FINETUNE:
		ret = r->tool == SP_BENCH_IMAGEGEN ? sp_imagegen_parse(text, &r->u.llm) :
		      sp_finetune_parse(text, &r->u.llm);
		return ret ? ret : sp_gen_judge(&r->u.llm, exit_status, v);
	case SP_BENCH_NONE:
		return 0;
	default:
		ret = sp_llm_parse((enum sp_llm_tool)(r->tool - SP_BENCH_VLLM), text, b->requested,
				   &r->u.llm);
		return ret ? ret : sp_llm_judge(&r->u.llm, exit_status, v);
	}
}

/* stdout then stderr: perftest and nccl-tests say why they failed on either. */
static char *output_of(const char *dir, const struct sp_bench_cmd *c, bool with_stderr)
{
	char *out = sp_bench_read_file(dir, c->stdout_name);
	char *err = with_stderr ? sp_bench_read_file(dir, c->stderr_name) : NULL;
	char *all = NULL;

	if (asprintf(&all, "%s%s", out ? out : "", err ? err : "") < 0)
		all = NULL;
	free(out);
	free(err);
	return all;
}

/* A step or client that did not end with status 0: the problem, naming its stderr. */
static int judge_ended(const struct sp_bench_cmd *c, const char *dir, struct sp_bench_verdict *v)
{
	if (c->x.signal)
		return sp_bench_problem_add(v, SP_BENCH_FAIL, "exit_status",
					    "%s ended by signal %d; see %s/%s", c->name,
					    c->x.signal, dir, c->stderr_name);
	if (!c->x.exit_status || c->x.exit_status == SP_BENCH_EXIT_UNKNOWN)
		return 0;
	return sp_bench_problem_add(v, SP_BENCH_FAIL, "exit_status",
				    "%s exited with status %d; see %s/%s", c->name,
				    c->x.exit_status, dir, c->stderr_name);
}

/*
 * What the parsers do not see: a step without results of its own that
 * failed (the dataset of trtllm-bench), a command that never ran because
 * one before it failed. Servers answer for themselves through their clients.
 */
static int judge_unparsed(const struct sp_bench_cmd *c, const char *dir,
			  struct sp_bench_verdict *v)
{
	if (c->role != SP_BENCH_ROLE_STEP && c->role != SP_BENCH_ROLE_CLIENT)
		return 0;
	if (!c->x.ran)
		return c->x.exec_error ? 0 : sp_bench_problem_add(v, SP_BENCH_FAIL, "not_run",
			"%s did not run: what it needed failed first", c->name);
	return c->tool == SP_BENCH_NONE ? judge_ended(c, dir, v) : 0;
}

/* A command that ran but left no result file to parse (a container never started). */
static int judge_no_file(const struct sp_bench_cmd *c, const char *dir, const char *name,
			 int error, struct sp_bench_verdict *v)
{
	int ret = judge_ended(c, dir, v);

	if (!ret)
		ret = sp_bench_problem_add(v, SP_BENCH_FAIL, "no_result",
					   "%s left no result: cannot read %s/%s: %s", c->name,
					   dir, name, strerror(error));
	return ret;
}

/* How much of a failed command's stderr the document shows: why it failed, mostly. */
#define STDERR_TAIL_LINES 5
#define STDERR_TAIL_MAX 2048

/* The last lines of the stderr of a command that did not end with status 0. 0 or -ENOMEM. */
static int stderr_tail(const char *dir, struct sp_bench_cmd *c)
{
	char *text, *end, *start;
	size_t n = 0;
	bool empty;

	if (!c->x.ran || (!c->x.exit_status && !c->x.signal) || !c->stderr_name)
		return 0;
	text = sp_bench_read_file(dir, c->stderr_name);
	if (!text)
		return errno == ENOMEM ? -ENOMEM : 0;
	for (end = text + strlen(text); end > text && strchr(" \t\r\n", end[-1]); end--)
		;
	*end = '\0';
	for (start = end; start > text; start--)
		if (start[-1] == '\n' && ++n == STDERR_TAIL_LINES)
			break;
	if (end - start > STDERR_TAIL_MAX)
		start = end - STDERR_TAIL_MAX;
	empty = !*start;
	c->x.stderr_tail = empty ? NULL : strdup(start);
	free(text);
	return !empty && !c->x.stderr_tail ? -ENOMEM : 0;
}

/* The results of the commands that ran and have a parser. 0 or -ENOMEM. */
static int collect_results(struct sp_bench *b, struct sp_bench_doc *doc)
{
	size_t i;
	int ret = 0;

	doc->results = calloc(b->cmds.n ? b->cmds.n : 1, sizeof(*doc->results));
	if (!doc->results)
		return -ENOMEM;
	for (i = 0; !ret && i < b->cmds.n; i++) {
		struct sp_bench_cmd *c = &b->cmds.v[i];
		struct sp_bench_result *r = &doc->results[doc->n_results];
		struct sp_bench_verdict v = { 0 };
		bool nccl = c->tool == SP_BENCH_NCCL;
		const char *name = c->json_name && !nccl ? c->json_name : c->stdout_name;
		char *text, *json = NULL;

		ret = stderr_tail(b->out_dir, c);
		if (!ret)
			ret = judge_unparsed(c, b->out_dir, &doc->verdict);
		if (ret || c->tool == SP_BENCH_NONE || !c->x.ran)
			continue;
		/* iperf3's stdout is one JSON document: its stderr stays apart */
		text = c->json_name && !nccl ? sp_bench_read_file(b->out_dir, c->json_name) :
		       output_of(b->out_dir, c, c->tool != SP_BENCH_IPERF3);
		if (!text && errno != ENOMEM) {
			ret = judge_no_file(c, b->out_dir, name, errno, &doc->verdict);
			continue;
		}
		if (nccl && c->json_name)
			json = sp_bench_read_file(b->out_dir, c->json_name);
		r->tool = c->tool;
		r->command = (int)i;
		r->label = strdup(c->label ? c->label : c->name);
		if (asprintf(&r->source, "%s/%s", b->out_dir, name) < 0)
			r->source = NULL;
		ret = !text || !r->label || !r->source ? -ENOMEM :
		      sp_bench_parse_judge(r, text, json, c->x.exit_status, b, SP_PERFTEST_UNIT_GBIT,
					   &v);
		if (!ret)
			ret = sp_bench_file_problems(doc, &v, (int)doc->n_results);
		doc->n_results++;
		free(text);
		free(json);
	}
	return ret;
}

static void env_collect(struct sp_run_env *e, bool with_module)
{
	struct sp_nl nl;

	if (with_module && !sp_nl_open(&nl)) {
		sp_run_env_collect(&nl, e);
		sp_nl_close(&nl);
	} else {
		sp_run_env_collect(NULL, e);
	}
}

static void doc_free(struct sp_bench_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->n_results; i++)
		sp_bench_result_free(&doc->results[i]);
	free(doc->results);
	sp_bench_verdict_free(&doc->verdict);
}

/* Prints the document; the exit status it earns. */
static int print_doc(struct sp_bench_doc *doc)
{
	int ret = sp_print_bench(doc);

	if (ret) {
		sp_err(stderr, "cannot print the results: %s", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	return doc->verdict.level == SP_BENCH_FAIL ? SP_EXIT_ERROR : SP_EXIT_OK;
}

int sp_bench_end_doc(struct sp_bench_doc *doc, int error)
{
	int rc = SP_EXIT_ERROR;

	if (error)
		sp_err(stderr, "%s", strerror(-error));
	else
		rc = print_doc(doc);
	doc_free(doc);
	return rc;
}

/* ---- the counters: the module's trace, else sysfs snapshots ---------------------------- */

/* How often a kernel trace's ring is read while the commands run (it holds ~1 min). */
#define TRACE_DRAIN_MS 1000

struct counters {
	struct sp_tracerun tr;
	bool kernel;			/* tr runs */
	int64_t next_drain_ms;
	struct sp_bench_counters sysfs;
	bool snapshots;			/* sysfs was read before */
};

/* Why there is no kernel trace, in one line on stderr. */
static void trace_fallback(const struct sp_tracerun *r, int error)
{
	const char *why = strerror(-error);

	if (!r->open && error == -ENOENT)
		why = "the sparkperf module is not loaded";
	else if (r->no_target)
		why = "no device to trace";
	else if (error == -EPERM || error == -EACCES)
		why = "tracing needs CAP_NET_ADMIN";
	else if (r->nl.err.has_msg)
		why = r->nl.err.msg;
	fprintf(stderr, "Warning: no kernel trace (%s): counters from sysfs snapshots.\n", why);
}

/*
 * Before the commands: a trace of the devices by the module (its RDMA
 * devices, then its netdevs), else the first sysfs snapshot. 0 or -errno.
 */
static int counters_begin(const struct sp_bench *b, struct counters *c)
{
	size_t n = 0, i;
	const char **names = calloc(b->devs.rdma.n + b->devs.netdevs.n + 1, sizeof(*names));
	int ret;

	memset(c, 0, sizeof(*c));
	if (!names)
		return -ENOMEM;
	for (i = 0; i < b->devs.rdma.n; i++)
		names[n++] = b->devs.rdma.v[i];
	for (i = 0; i < b->devs.netdevs.n; i++)
		names[n++] = b->devs.netdevs.v[i];
	ret = sp_tracerun_for_run(&c->tr, "bench", b->name, names, n, NULL, 0, false);
	free(names);
	if (!ret) {
		c->kernel = true;
		c->next_drain_ms = sp_run_now_ms() + TRACE_DRAIN_MS;
		return 0;
	}
	trace_fallback(&c->tr, ret);
	sp_tracerun_close(&c->tr);
	ret = sp_bench_counters_begin(&c->sysfs, "/sys", (const char *const *)b->devs.netdevs.v,
				      b->devs.netdevs.n, (const char *const *)b->devs.rdma.v,
				      b->devs.rdma.n);
	c->snapshots = !ret;
	if (ret)
		sp_bench_counters_free(&c->sysfs);
	return ret;
}

/* While the commands run: the trace's ring read before it overruns. */
static void counters_tick(void *arg)
{
	struct counters *c = arg;

	if (!c->kernel || sp_run_now_ms() < c->next_drain_ms)
		return;
	/* a failure is the finish's to report */
	c->next_drain_ms = sp_tracerun_drain(&c->tr) ? INT64_MAX :
			   sp_run_now_ms() + TRACE_DRAIN_MS;
}

/* After them: the trace ended and read back, or the second snapshot; into doc. */
static void counters_end(const struct sp_bench *b, struct counters *c,
			 struct sp_bench_doc *doc)
{
	int ret;

	if (c->snapshots) {
		sp_bench_counters_end(&c->sysfs, "/sys");
		doc->counters = &c->sysfs;
	}
	if (!c->kernel)
		return;
	ret = sp_tracerun_finish(&c->tr);
	if (ret)
		sp_report_nl_error(stderr, "bench", b->name, ret, &c->tr.nl.err);
	else
		doc->trace = &c->tr.tl;
}

static void counters_free(struct counters *c)
{
	if (c->kernel)
		sp_tracerun_close(&c->tr);
	if (c->snapshots)
		sp_bench_counters_free(&c->sysfs);
}

/* Runs what b holds (or shows it: dry-run) and prints its document. */
static int bench_exec(struct sp_bench *b, int argc, char **argv)
{
	struct sp_bench_doc doc = {
		.bench = b->name, .dry_run = b->c.dry_run, .args = argv, .n_args = (size_t)argc,
		.input_exit = SP_BENCH_EXIT_UNKNOWN, .cmds = &b->cmds,
	};
	struct sp_bench_run_cfg cfg = {
		.dir = b->out_dir,
		.timeout_ms = b->c.timeout_ms ? b->c.timeout_ms : b->default_timeout_ms,
	};
	struct counters *counters = NULL;
	struct sp_run_env env;
	struct sp_run_sig sig = { 0 };
	int ret, rc;

	env_collect(&env, !b->c.dry_run);
	doc.env = &env.env;
	doc.out_dir = b->out_dir;
	doc.file_name = b->file_name;
	doc.file_text = b->file_text;
	doc.hca_source = b->hca_source;
	if (b->c.dry_run)
		return sp_bench_end_doc(&doc, 0);
	if (b->file_name) {
		ret = sp_bench_write_file(b->out_dir, b->file_name, b->file_text);
		if (ret) {
			sp_err(stderr, "cannot write %s/%s: %s", b->out_dir, b->file_name,
			       strerror(-ret));
			return SP_EXIT_ERROR;
		}
	}
	/* from here on Ctrl-C stops the commands, and the trace is still read and reported */
	sp_run_signals_catch(&sig);
	cfg.sig = &sig;
	if (b->c.trace) {
		counters = malloc(sizeof(*counters));
		ret = counters ? counters_begin(b, counters) : -ENOMEM;
		if (ret) {
			sp_run_signals_restore(&sig);
			free(counters);
			sp_err(stderr, "%s", strerror(-ret));
			return SP_EXIT_ERROR;
		}
		cfg.tick = counters_tick;
		cfg.tick_arg = counters;
	}
	ret = sp_bench_run(&b->cmds, &cfg, &doc.verdict);
	if (counters)
		counters_end(b, counters, &doc);
	sp_run_signals_restore(&sig);
	if (!ret)
		ret = collect_results(b, &doc);
	rc = sp_bench_end_doc(&doc, ret);
	if (counters)
		counters_free(counters);
	free(counters);
	return rc;
}

int sp_bench_prepare(struct sp_bench *b)
{
	int ret;

	if (b->c.force && !b->c.out)
		return sp_usage_error("bench", "bench %s: force is for 'out DIR'", b->name);
	ret = b->c.out ? sp_bench_outdir_check(b->c.out, b->c.force) : 0;
	if (ret == -ENOTDIR)
		return sp_usage_error("bench", "bench %s: out '%s' is not a directory", b->name,
				      b->c.out);
	if (ret == -ENOTEMPTY)
		return sp_usage_error("bench", "bench %s: out '%s' is not empty: 'force' "
				      "overwrites its files", b->name, b->c.out);
	if (ret)
		return sp_usage_error("bench", "bench %s: out '%s': %s", b->name, b->c.out,
				      strerror(-ret));
	if (b->c.dry_run) {
		snprintf(b->out_dir, sizeof(b->out_dir), "%s", b->c.out ? b->c.out : DRY_RUN_DIR);
		return SP_EXIT_OK;
	}
	ret = sp_bench_outdir(b->c.out, b->out_dir, sizeof(b->out_dir));
	if (ret) {
		sp_err(stderr, "cannot make the output directory %s: %s",
		       b->c.out ? b->c.out : "in /tmp", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	return SP_EXIT_OK;
}

/* Builds (build's return: 0, -ENOMEM, -EINVAL), runs, prints, frees. */
int sp_bench_finish(struct sp_bench *b, int built, int argc, char **argv)
{
	int rc = SP_EXIT_ERROR;

	if (built)
		sp_err(stderr, "%s", strerror(-built));
	else
		rc = bench_exec(b, argc, argv);
	sp_bench_cmds_free(&b->cmds);
	devices_free(&b->devs);
	return rc;
}
