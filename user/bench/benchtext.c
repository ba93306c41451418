// SPDX-License-Identifier: GPL-2.0
/*
 * A bench's document as text: each command with how it ended, a line or a
 * table per result, the sum, the counters that moved, the problems and the
 * verdict.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchprint.h"
#include "lib/print.h"
#include "lib/print.h"
#include "lib/spawn.h"
#include "lib/traceprint.h"

/* "> DIR/NAME" as a shell reads it: where a command's data goes. */
static void text_redirect(FILE *f, const char *dir, const char *name)
{
	char *path = sp_xprintf("%s/%s", dir, name), *q = path ? sp_shell_quote(path) : NULL;

	fprintf(f, " > %s", q ? q : "(out of memory)");
	free(q);
	free(path);
}

/* A file written before the commands run, as the guide writes it: a here-document. */
static void text_bench_file(FILE *f, const struct sp_bench_doc *doc)
{
	const char *indent = doc->dry_run ? "" : "  ", *p;
	size_t len;

	fprintf(f, "# %s: written first\n%scat", doc->file_name, indent);
	text_redirect(f, doc->out_dir, doc->file_name);
	fprintf(f, " <<'EOF'\n");
	for (p = doc->file_text; *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		fprintf(f, "%s%.*s\n", indent, (int)len, p);
	}
	fprintf(f, "%sEOF\n", indent);
}

static void text_bench_cmd(FILE *f, const struct sp_bench_cmd *c, const char *dir, bool dry_run)
{
	const struct sp_bench_exec *x = &c->x;
	char *line = sp_bench_cmdline(c);
	const char *p;
	size_t len;

	if (c->role == SP_BENCH_ROLE_MANUAL)
		fprintf(f, "# %s: start it on %s first\n", c->name, c->host);
	else if (c->host)
		fprintf(f, "# %s: on %s over ssh\n", c->name, c->host);
	else
		fprintf(f, "# %s\n", c->name);
	fprintf(f, "%s%s", dry_run ? "" : "  ", line ? line : "(out of memory)");
	if (c->stdout_is_data)
		text_redirect(f, dir, c->stdout_name);
	fputc('\n', f);
	free(line);
	if (dry_run || c->role == SP_BENCH_ROLE_MANUAL)
		return;
	if (x->exec_error)
		fprintf(f, "  -> not started: %s\n", x->exec_error);
	else if (!x->ran)
		fprintf(f, "  -> not run\n");
	else if (x->signal)
		fprintf(f, "  -> %s by signal %d after %.1f s\n",
			x->timed_out ? "stopped at its deadline" : "ended", x->signal, x->elapsed_s);
	else
		fprintf(f, "  -> exit %d after %.1f s\n", x->exit_status, x->elapsed_s);
	for (p = x->stderr_tail; p && *p; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		fprintf(f, "  stderr: %.*s\n", (int)len, p);
	}
}

static void text_perftest(FILE *f, const char *label, const struct sp_perftest *p)
{
	uint64_t bytes;
	double avg;
	size_t i, rows;

	if (sp_perftest_bw_average(p, &bytes, &avg)) {
		rows = sp_perftest_bw_rows(p, bytes);
		fprintf(f, "%s: %s%s%" PRIu64 " B: BW average ", label, p->test,
			p->test[0] ? ", " : "", bytes);
		/* no rate without its unit: the number as perftest printed it */
		if (p->unit == SP_PERFTEST_UNIT_UNKNOWN)
			fprintf(f, "%.2f in an unknown unit", avg);
		else
			fprintf(f, "%.3f Gbit/s", sp_perftest_gbit_per_s(p->unit, avg));
		if (p->unit == SP_PERFTEST_UNIT_MIB)
			fprintf(f, " (reported: %.2f %s)", avg, sp_perftest_unit_str(p->unit));
		if (rows > 1)
			fprintf(f, ", the mean of the rows of that size (%zu rows)", rows);
		/* -a: one row a size, the others in -j's rows */
		if (rows < p->n_bw)
			fprintf(f, ", the largest size of a sweep of %zu rows", p->n_bw);
		fputc('\n', f);
	}
	for (i = 0; i < p->n_lat; i++) {
		const struct sp_perftest_lat_row *l = &p->lat[i];

		if (l->full)
			fprintf(f, "%s: %s, %" PRIu64 " B x %" PRIu64 ": typical %.2f, avg %.2f, "
				"p99 %.2f, p99.9 %.2f, max %.2f usec (%s)\n", label, p->test,
				l->bytes, l->iterations, l->t_typical_us, l->t_avg_us, l->p99_us,
				l->p99_9_us, l->t_max_us,
				sp_perftest_lat_one_way(p) ? "one way: half the round trip" :
				"round trip");
		else
			fprintf(f, "%s: %s, %" PRIu64 " B: avg %.2f usec, %.0f transactions/s\n",
				label, p->test, l->bytes, l->t_avg_us, l->tps);
	}
}

static void text_iperf3(FILE *f, const char *label, const struct sp_iperf3 *r)
{
	double gbps;

	if (!sp_iperf3_gbit_per_s(r, &gbps))
		return;
	fprintf(f, "%s: %.3f Gbit/s %s", label, gbps, r->sum_received.has ? "received" : "sent");
	if (r->sum_sent.has && r->sum_sent.has_retransmits)
		fprintf(f, ", %" PRIu64 " retransmits", r->sum_sent.retransmits);
	if (r->n_streams)
		fprintf(f, ", %zu stream%s", r->n_streams, r->n_streams == 1 ? "" : "s");
	fputc('\n', f);
}

static void cell_half(char *cell, const struct sp_nccl_half *h, bool bus)
{
	if (!h->has)
		snprintf(cell, SP_CELL_MAX, "-");
	else
		snprintf(cell, SP_CELL_MAX, "%.2f", bus ? h->busbw_gb_per_s : h->algbw_gb_per_s);
}

enum { NC_SIZE, NC_TIME, NC_ALG, NC_BUS, NC_BUS_IP, NC_GBIT, NC_WRONG, NC_COLS };

static const struct sp_fixed_col nccl_col[NC_COLS] = {
	[NC_SIZE] = { "size[B]", 12 },
	[NC_TIME] = { "time[us]", 9 },
	[NC_ALG] = { "algbw[GB/s]", 0 },
	[NC_BUS] = { "busbw[GB/s]", 0 },
	[NC_BUS_IP] = { "in-place", 0 },
	[NC_GBIT] = { "busbw x 8[Gbit/s]", 0 },
	[NC_WRONG] = { "#wrong", 0 },
};

static void text_nccl(FILE *f, const char *label, const struct sp_nccl *n)
{
	char cell[NC_COLS][SP_CELL_MAX];
	struct sp_nccl_summary s;
	size_t i;

	sp_nccl_summarize(n, &s);
	fprintf(f, "%s: %s%s%s\n", label, n->collective[0] ? n->collective : "nccl-tests",
		n->network[0] ? ", network " : "", n->network);
	if (!n->n_rows)
		return;
	sp_print_fixed(nccl_col, NC_COLS, NULL, NULL);
	for (i = 0; i < n->n_rows; i++) {
		const struct sp_nccl_row *r = &n->rows[i];
		const struct sp_nccl_half *h = &r->out_of_place;
		bool wrong = h->has_wrong || r->in_place.has_wrong;

		snprintf(cell[NC_SIZE], SP_CELL_MAX, "%" PRIu64, r->size_bytes);
		snprintf(cell[NC_TIME], SP_CELL_MAX, "%.2f", h->time_us);
		cell_half(cell[NC_ALG], h, false);
		cell_half(cell[NC_BUS], h, true);
		cell_half(cell[NC_BUS_IP], &r->in_place, true);
		snprintf(cell[NC_GBIT], SP_CELL_MAX, "%.1f", h->busbw_gb_per_s * 8);
		snprintf(cell[NC_WRONG], SP_CELL_MAX, "%s", !wrong ? "N/A" :
			 (h->has_wrong && h->wrong > 0) ||
			 (r->in_place.has_wrong && r->in_place.wrong > 0) ? "yes" : "0");
		sp_print_fixed(nccl_col, NC_COLS, cell, NULL);
	}
	fprintf(f, "at %" PRIu64 " B: busbw %.2f GB/s = %.1f Gbit/s each way (2 ranks), peak "
		"busbw %.2f GB/s", s.size_bytes, s.busbw_gb_per_s, s.per_direction_gbit_per_s,
		s.peak_busbw_gb_per_s);
	if (n->has_avg_busbw)
		fprintf(f, ", avg busbw %.4g GB/s (all sizes)", n->avg_busbw_gb_per_s);
	fputc('\n', f);
}

static void text_llm(FILE *f, const char *label, const struct sp_llm *l)
{
	size_t i;

	fprintf(f, "%s (%s):", label, l->kind ? l->kind : "?");
	if (l->has_completed)
		fprintf(f, " %" PRIu64 " completed", l->completed);
	if (l->has_failed)
		fprintf(f, ", %" PRIu64 " failed", l->failed);
	if (l->has_requested)
		fprintf(f, " of %" PRIu64, l->requested);
	fputc('\n', f);
	for (i = 0; i < l->n_metrics; i++)
		fprintf(f, "  %-40s %.10g\n", l->metrics[i].name, l->metrics[i].value);
}

static void text_bench_counters(FILE *f, const struct sp_bench_counters *c)
{
	double secs = sp_bench_counters_interval_s(c);
	size_t i, k;
	uint64_t d;

	fprintf(f, "counters (%s, %.2f s; only those that moved):\n", c->source, secs);
	for (i = 0; i < c->n; i++) {
		const struct sp_bench_counter_set *s = &c->sets[i];

		for (k = 0; k < s->n; k++) {
			const struct sp_bench_counter *x = &s->c[k];
			uint64_t scale = sp_bench_counter_scale(x->name);

			if (!sp_bench_counter_delta(x, &d) || !d)
				continue;
			if (s->port)
				fprintf(f, "  %s/%u  %-28s +%" PRIu64, s->dev, s->port, x->name, d);
			else
				fprintf(f, "  %s  %-28s +%" PRIu64, s->dev, x->name, d);
			if (sp_bench_counter_is_bytes(x->name) && secs > 0)
				fprintf(f, "  (%.3f Gbit/s)", sp_bench_gbit_per_s(d * scale, secs));
			fputc('\n', f);
		}
	}
}

static int print_bench_text(const struct sp_bench_doc *doc)
{
	FILE *f = sp_print_file();
	struct sp_bench_sum s;
	size_t i;

	if (doc->hca_source)
		fprintf(f, "# NCCL_IB_HCA: %s\n", doc->hca_source);
	if (doc->file_name)
		text_bench_file(f, doc);
	for (i = 0; doc->cmds && i < doc->cmds->n; i++)
		text_bench_cmd(f, &doc->cmds->v[i], doc->out_dir, doc->dry_run);
	if (doc->dry_run)
		return 0;
	if (doc->input) {
		fprintf(f, "%s output %s", doc->results[0].label, doc->input);
		if (doc->input_exit != SP_BENCH_EXIT_UNKNOWN)
			fprintf(f, " (exit status %d)", doc->input_exit);
		fputc('\n', f);
	}
	for (i = 0; i < doc->n_results; i++) {
		const struct sp_bench_result *r = &doc->results[i];

		switch (r->tool) {
		case SP_BENCH_PERFTEST:
			text_perftest(f, r->label, &r->u.perftest);
			break;
		case SP_BENCH_IPERF3:
			text_iperf3(f, r->label, &r->u.iperf3);
			break;
		case SP_BENCH_NCCL:
			text_nccl(f, r->label, &r->u.nccl);
			break;
		case SP_BENCH_NONE:
			break;
		default:
			text_llm(f, r->label, &r->u.llm);
			break;
		}
	}
	sp_bench_add_up(doc, &s);
	if (s.parts > 1)
		fprintf(f, "sum: %.3f Gbit/s (%zu side by side)\n", s.gbit_per_s, s.parts);
	if (doc->counters)
		text_bench_counters(f, doc->counters);
	if (doc->trace) {
		sp_print_trace_report(doc->trace, "\nCounters during the bench:", false, NULL);
		fputc('\n', f);
	}
	for (i = 0; i < doc->verdict.n; i++)
		fprintf(f, "%s: %s: %s\n", sp_bench_level_str(doc->verdict.problems[i].level),
			doc->verdict.problems[i].code, doc->verdict.problems[i].message);
	fprintf(f, "verdict: %s\n", sp_bench_level_str(doc->verdict.level));
	if (doc->out_dir && doc->cmds)
		fprintf(f, "output: %s\n", doc->out_dir);
	return 0;
}

int sp_print_bench(const struct sp_bench_doc *doc)
{
	return sp_print_is_json() ? sp_print_bench_json(doc) : print_bench_text(doc);
}
