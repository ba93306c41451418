// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-ctl matrix: the pairwise latency and bandwidth matrix of N
 * hosts. The command checks its arguments, runs mpirun with one
 * sparkperf-matrix a host (worker.c does the work), passes the worker's
 * progress through and reads its result, the JSON document on its
 * stdout; then prints it (report.h), and writes the CSV and the heatmap.
 * "matrix show" does the same from a saved document: the Slurm path.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "heatmap.h"
#include "launch.h"
#include "mxargs.h"
#include "report.h"
#include "lib/cmd.h"
#include "lib/err.h"
#include "lib/file.h"
#include "lib/print.h"
#include "lib/spawn.h"

/* A document, saved or from mpirun: a few MB for 64 hosts of 8 halves. */
#define DOC_FILE_MAX (64 << 20)
#define DEFAULT_TIMEOUT_MS 3600000ULL

static const char matrix_usage[] =
	"Usage: sparkperf-ctl [ OPTIONS ] matrix run { hosts HOST[,HOST...] | hostfile FILE }\n"
	"                  [ tests TEST[,TEST...] ] [ size SIZE ] [ duration SECS ]\n"
	"                  [ pattern { pairs | all | incast } ] [ heatmap PICTURE ] [ csv CSV ]\n"
	"                  [ timeout TIME ] [ dry-run ] [ mpirun ARG... ]\n"
	"       sparkperf-ctl [ OPTIONS ] matrix show JSON [ heatmap PICTURE ] [ csv CSV ]\n"
	"       sparkperf-ctl matrix help\n"
	"where  OPTIONS := { -j[son] | -p[retty] }\n"
	"       HOST := a host mpirun reaches over ssh (BatchMode), 2 to 64, each once;\n"
	"               'matrix hosts ...' is 'matrix run hosts ...'\n"
	"       FILE := mpirun's hostfile: a host per line (slots=N ignored), # comments\n"
	"       TEST := { lat | bw } (default both): lat, 64-byte RDMA writes for 1 s;\n"
	"               bw, SIZE writes over 4 QPs for SECS seconds\n"
	"       SIZE := bytes (K = 1024, M = 1048576), 1..8M, default 1M\n"
	"       SECS := 1..3600, default 5\n"
	"       pattern := pairs (default): every pair of hosts, both ways, no host in two\n"
	"               tests at once; all: then every pair at once; incast: then every\n"
	"               host to one target at once, each host the target in turn\n"
	"       PICTURE := FILE.png or FILE.svg: a heatmap drawn with gnuplot\n"
	"       CSV := a file, a row per result\n"
	"       TIME := the whole run's limit (s, m, h), default 1h\n"
	"       ARG := the rest of the line: mpirun's own options (--allow-run-as-root, ...)\n"
	"       JSON := sparkperf-matrix's output, saved\n"
	"Runs sparkperf-matrix on every host with mpirun -H, one a host (Open MPI over\n"
	"ssh). It probes each pair of halves (RDMA ports) that share a subnet, names the\n"
	"cabling (switched, direct, triangle, ring, mixed), then tests every pair that\n"
	"reached each other, in rounds, with progress on stderr. Prints an N x N table\n"
	"per half and test, client rows, server columns, and the outliers: a bandwidth\n"
	"below 0.5 x, or a latency above 2 x, the median of the same half and pattern.\n"
	"dry-run prints the mpirun line and runs nothing. show prints a saved result, as\n"
	"Slurm makes one: srun -N4 --ntasks-per-node=1 sparkperf-matrix > r.json.\n"
	"Exits 1 when a test failed or found an outlier.\n";

static int matrix_error(const char *fmt, const char *arg)
{
	return sp_usage_error("matrix", fmt, arg);
}

/* ---- the result ------------------------------------------------------------------- */

static bool any_failure(const struct sp_mx_doc *d)
{
	struct sp_mx_outliers o;
	bool bad = false;
	size_t i;

	for (i = 0; i < d->n_results; i++)
		bad = bad || *d->results[i].error;
	for (i = 0; i < d->n_hosts; i++)
		bad = bad || *d->hosts[i].error;
	if (sp_mx_find_outliers(d, &o))
		return true;
	bad = bad || o.n;
	sp_mx_outliers_free(&o);
	return bad;
}

static int write_csv(const struct sp_mx_doc *d, const char *path)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f) {
		sp_err(stderr, "cannot write %s: %s", path, strerror(errno));
		return SP_EXIT_ERROR;
	}
	ret = sp_mx_write_csv(d, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		sp_err(stderr, "cannot write %s: %s", path, strerror(-ret));
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* Prints d, writes its CSV and heatmap; the command's exit status. */
static int render(const struct sp_mx_doc *d, const char *heatmap, const char *csv)
{
	char err[512];
	int status = SP_EXIT_OK, ret;

	ret = sp_print_is_json() ? sp_print_json(sp_mx_doc_json(d)) : sp_mx_print_text(d);
	if (ret) {
		sp_err(stderr, "cannot print the matrix: %s", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	if (csv)
		status = write_csv(d, csv);
	if (heatmap && sp_mx_heatmap(d, heatmap, err, sizeof(err))) {
		sp_err(stderr, "%s", err);
		status = SP_EXIT_ERROR;
	}
	return status || any_failure(d) ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/* The picture's and the CSV's names, checked before anything runs. */
static int check_outputs(const char *heatmap)
{
	if (heatmap && !sp_mx_heatmap_terminal(heatmap))
		return matrix_error("Invalid heatmap: '%s' (FILE.png or FILE.svg)", heatmap);
	return SP_EXIT_OK;
}

/* ---- show ----------------------------------------------------------------------- */

static int matrix_show(const struct sp_ctx *ctx, int argc, char **argv)
{
	const char *heatmap = NULL, *csv = NULL;
	struct sp_kv kv[] = {
		{ "heatmap", "heatmap file", SP_KV_STRING, 0, 0, &heatmap, false },
		{ "csv", "CSV file", SP_KV_STRING, 0, 0, &csv, false },
	};
	struct sp_mx_doc *d;
	char err[256], *text;
	int status, ret;

	(void)ctx;
	if (sp_help_requested(argc, argv, matrix_usage))
		return SP_EXIT_OK;
	if (!argc)
		return sp_usage_error("matrix", "show needs the JSON file of a run");
	if (sp_kv_args_end("matrix", matrix_usage, argc - 1, argv + 1, kv, ARRAY_SIZE(kv), &status))
		return status;
	status = check_outputs(heatmap);
	if (status)
		return status;
	ret = sp_file_read(argv[0], DOC_FILE_MAX, &text);
	if (ret) {
		sp_err(stderr, "cannot read %s: %s", argv[0], strerror(-ret));
		return SP_EXIT_ERROR;
	}
	d = sp_mx_doc_new();
	ret = d ? sp_mx_doc_parse(text, d, err, sizeof(err)) : -ENOMEM;
	free(text);
	if (ret)
		sp_err(stderr, "%s: %s", argv[0], ret == -EINVAL ? err : strerror(-ret));
	status = ret ? SP_EXIT_ERROR : render(d, heatmap, csv);
	sp_mx_doc_free(d);
	return status;
}

/* ---- run ------------------------------------------------------------------------ */

struct run_args {
	struct sp_list hosts;
	const char *hostfile, *heatmap, *csv;
	struct sp_mx_test_args t;
	uint64_t timeout_ns;
	bool dry_run;
	int argc;			/* the keywords: up to "mpirun" */
	char **extra;			/* after it */
	int n_extra;
};

/* "mpirun" where a keyword stands: the rest of the line is mpirun's. */
static void split_mpirun(int argc, char **argv, struct run_args *a)
{
	int i = 0;

	a->argc = argc;
	while (i < argc) {
		if (!strcmp(argv[i], "mpirun")) {
			a->argc = i;
			a->extra = argv + i + 1;
			a->n_extra = argc - i - 1;
			return;
		}
		i += strcmp(argv[i], "dry-run") ? 2 : 1;
	}
}

/* Every argument checked, the hosts read: SP_EXIT_OK, or the usage error's status. */
static int run_args_parse(int argc, char **argv, struct run_args *a, struct sp_mx_config *cfg)
{
	struct sp_kv kv[] = {
		{ "hosts", "host list", SP_KV_LIST, 0, 0, &a->hosts, false },
		{ "hostfile", NULL, SP_KV_STRING, 0, 0, &a->hostfile, false },
		SP_MX_TEST_KV(&a->t),
		{ "heatmap", "heatmap file", SP_KV_STRING, 0, 0, &a->heatmap, false },
		{ "csv", "CSV file", SP_KV_STRING, 0, 0, &a->csv, false },
		{ "timeout", NULL, SP_KV_DURATION, 1000000000ULL, 24 * 3600 * 1000000000ULL,
		  &a->timeout_ns, false },
		{ "dry-run", NULL, SP_KV_FLAG, 0, 0, &a->dry_run, false },
	};
	char err[256];
	int status;

	split_mpirun(argc, argv, a);
	if (a->extra && !a->n_extra)
		return sp_usage_error("matrix", "mpirun needs its arguments after it "
				      "(or leave it out)");
	if (sp_kv_args_end("matrix", matrix_usage, a->argc, argv, kv, ARRAY_SIZE(kv), &status))
		return status;
	if (!a->hosts.n == !a->hostfile)
		return sp_usage_error("matrix", "Give hosts or hostfile, one of them");
	if (sp_mx_config_make(&a->t, cfg, err, sizeof(err)))
		return sp_usage_error("matrix", "%s", err);
	status = check_outputs(a->heatmap);
	if (status)
		return status;
	if (a->hostfile && sp_mx_hostfile_read(a->hostfile, &a->hosts, err, sizeof(err)))
		return sp_usage_error("matrix", "%s", err);
	if (sp_list_repeated(&a->hosts))
		return matrix_error("Host '%s' given twice: one worker a host",
				    sp_list_repeated(&a->hosts));
	if (a->hosts.n < 2 || a->hosts.n > SP_MX_HOSTS_MAX)
		return sp_usage_error("matrix", "%zu hosts: a matrix takes 2 to %d", a->hosts.n,
				      SP_MX_HOSTS_MAX);
	return SP_EXIT_OK;
}

static int dry_run(char **argv)
{
	char *line = sp_mx_argv_line(argv);
	json_object *o;
	int ret = -ENOMEM;

	if (line && sp_print_is_json()) {
		o = json_object_new_object();
		sp_json_add(o, "command", json_object_new_string(line));
		ret = sp_print_json(o);
	} else if (line) {
		sp_print_text("%s\n", line);
		ret = 0;
	}
	free(line);
	return ret ? SP_EXIT_ERROR : SP_EXIT_OK;
}

/*
 * The worker's document: rank 0's last line that is a JSON object (a
 * warning of MPI's or of a rank's shell on stdout is no part of it).
 */
static const char *doc_line(const char *out)
{
	const char *line = out, *found = out;

	for (; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (*line == '{')
			found = line;
	return found;
}

/* How mpirun ended without a document; err: why its stdout is none. */
static void no_result(const struct sp_spawn *s, const char *err, int64_t timeout_ms)
{
	char how[64];

	if (s->timed_out)
		snprintf(how, sizeof(how), "was stopped at the timeout (%lld s)",
			 (long long)(timeout_ms / 1000));
	else if (WIFEXITED(s->status))
		snprintf(how, sizeof(how), "exited %d", WEXITSTATUS(s->status));
	else
		snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(s->status));
	sp_err(stderr, "mpirun %s and gave no result%s%s", how, *s->out ? ": " : "",
	       *s->out ? err : "");
}

/* mpirun, its progress passed through, its result read. */
static int launch(char **argv, const struct run_args *a)
{
	/* the whole document: a few MB for 64 hosts with every pattern */
	static const struct sp_spawn_opts opts = { .path = true, .pass_err = true,
						   .keep_max = DOC_FILE_MAX };
	int64_t timeout_ms = (int64_t)(a->timeout_ns ? a->timeout_ns / 1000000 :
				       DEFAULT_TIMEOUT_MS);
	struct sp_mx_doc *d = NULL;
	char err[256] = "";
	struct sp_spawn s;
	int ret, status;

	ret = sp_spawn_run(argv, timeout_ms, &opts, &s);
	if (ret) {
		sp_err(stderr, "cannot run mpirun: %s", strerror(-ret));
		return SP_EXIT_ERROR;
	}
	if (s.exec_errno == ENOENT) {
		sp_err(stderr, "mpirun is not installed: the matrix runs its workers with Open MPI "
		       "(apt-get install openmpi-bin)");
	} else if (s.exec_errno) {
		sp_err(stderr, "cannot run mpirun: %s", strerror(s.exec_errno));
	} else {
		d = sp_mx_doc_new();
		ret = d ? sp_mx_doc_parse(doc_line(s.out), d, err, sizeof(err)) : -ENOMEM;
		if (ret)
			no_result(&s, err, timeout_ms);
	}
	status = d && !ret ? render(d, a->heatmap, a->csv) : SP_EXIT_ERROR;
	sp_mx_doc_free(d);
	sp_spawn_free(&s);
	return status;
}

static int matrix_run(const struct sp_ctx *ctx, int argc, char **argv)
{
	struct run_args a = { 0 };
	struct sp_mx_config cfg;
	struct sp_mx_launch l = { 0 };
	char worker[PATH_MAX], **mpirun = NULL;
	int status;

	(void)ctx;
	sp_mx_test_args_init(&a.t);
	status = run_args_parse(argc, argv, &a, &cfg);
	if (!status && sp_mx_sibling("sparkperf-matrix", worker, sizeof(worker))) {
		sp_err(stderr, "cannot find sparkperf-matrix beside sparkperf-ctl");
		status = SP_EXIT_ERROR;
	}
	if (!status) {
		l = (struct sp_mx_launch){ .hosts = &a.hosts, .worker = worker, .cfg = &cfg,
					   .extra = a.extra, .n_extra = (size_t)a.n_extra };
		mpirun = sp_mx_mpirun_argv(&l);
		if (!mpirun) {
			sp_err(stderr, "%s", strerror(ENOMEM));
			status = SP_EXIT_ERROR;
		}
	}
	if (!status)
		status = a.dry_run ? dry_run(mpirun) : launch(mpirun, &a);
	sp_mx_argv_free(mpirun);
	sp_list_free(&a.hosts);
	sp_list_free(&a.t.tests);
	return status;
}

int sp_cmd_matrix(const struct sp_ctx *ctx, int argc, char **argv)
{
	static const struct sp_cmd cmds[] = {
		{ "run", matrix_run },
		{ "show", matrix_show },
	};

	/* "matrix hosts ..." is "matrix run hosts ...": the issue's, and mpirun's, order */
	if (argc && (!strcmp(argv[0], "hosts") || !strcmp(argv[0], "hostfile")))
		return matrix_run(ctx, argc, argv);
	return sp_cmd_dispatch(ctx, "matrix", cmds, ARRAY_SIZE(cmds), matrix_usage, argc, argv);
}
