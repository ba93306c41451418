// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracelog.h"

static struct sp_tl_stream *stream_of(struct sp_tracelog *tl, uint32_t index)
{
	size_t i;

	for (i = 0; i < tl->n_streams; i++)
		if (tl->streams[i].info.index == index)
			return &tl->streams[i];
	return NULL;
}

const struct sp_tl_stream *sp_tl_find_stream(const struct sp_tracelog *tl, uint32_t index)
{
	return stream_of((struct sp_tracelog *)tl, index);
}

const struct sp_tl_table *sp_tl_find_table(const struct sp_tl_stream *st, uint32_t version)
{
	size_t i;

	for (i = 0; i < st->n_tables; i++)
		if (st->tables[i].version == version)
			return &st->tables[i];
	return NULL;
}

/*
 * Room for one more of the n elements of size at *arr (realloc'ed): the
 * new one, zeroed (n is the caller's to count); NULL when out of memory.
 */
static void *grow_one(void *arr, size_t n, size_t size)
{
	void **items = arr;
	char *a = reallocarray(*items, n + 1, size);

	if (!a)
		return NULL;
	*items = a;
	memset(a + n * size, 0, size);
	return a + n * size;
}

/* The counter of name in st, added when new: its index, or -ENOMEM. */
static long counter_of(struct sp_tl_stream *st, const char *name)
{
	struct sp_tl_counter *c;
	size_t i;

	for (i = 0; i < st->n_counters; i++)
		if (!strcmp(st->counters[i].name, name))
			return (long)i;
	c = grow_one(&st->counters, st->n_counters, sizeof(*c));
	if (!c)
		return -ENOMEM;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->unit = sp_counter_unit(c->name);
	return (long)st->n_counters++;
}

/* A table of st->names as version: appended with its map. */
static int add_table(struct sp_tl_stream *st, const struct sp_stream *src)
{
	struct sp_tl_table *t;
	size_t i;
	long k;

	if (sp_tl_find_table(st, src->version))
		return 0;
	t = grow_one(&st->tables, st->n_tables, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->version = src->version;
	if (src->n_names) {
		t->names = calloc(src->n_names, sizeof(*t->names));
		t->map = calloc(src->n_names, sizeof(*t->map));
		if (!t->names || !t->map) {
			free(t->names);
			free(t->map);
			return -ENOMEM;
		}
		memcpy(t->names, src->names, src->n_names * sizeof(*t->names));
	}
	t->n = src->n_names;
	st->n_tables++;
	for (i = 0; i < t->n; i++) {
		k = counter_of(st, t->names[i]);
		if (k < 0)
			return (int)k;
		t->map[i] = (size_t)k;
	}
	return 0;
}

/* The kernel's view of a stream (names of the newest table kept). */
static int set_info(struct sp_tl_stream *st, const struct sp_stream *src, bool names)
{
	struct sp_stream copy;
	int ret;

	if (!names) {
		sp_counter_name *n = st->info.names;
		size_t nn = st->info.n_names;
		uint32_t version = st->info.version;

		st->info = *src;
		st->info.names = n;
		st->info.n_names = nn;
		st->info.version = version;
		st->info.values = NULL;
		st->info.n_values = 0;
		return 0;
	}
	ret = sp_stream_copy(&copy, src);
	if (ret)
		return ret;
	free(copy.values);
	copy.values = NULL;
	copy.n_values = 0;
	sp_stream_free(&st->info);
	st->info = copy;
	return 0;
}

int sp_tl_init(struct sp_tracelog *tl, const struct sp_trace *t, bool keep)
{
	size_t i;
	int ret;

	memset(tl, 0, sizeof(*tl));
	tl->keep = keep;
	tl->trace = *t;
	tl->trace.streams = NULL;
	tl->trace.n_streams = 0;
	/*
	 * From the trace's first sample, not the reply's SEQ_NEXT: the thread
	 * may have read before the reply was built, and those samples are
	 * this trace's too (the socket listened before TRACE_START).
	 */
	tl->next_seq = 0;
	if (!t->n_streams)
		return 0;
	tl->streams = calloc(t->n_streams, sizeof(*tl->streams));
	if (!tl->streams)
		return -ENOMEM;
	tl->n_streams = t->n_streams;
	for (i = 0; i < t->n_streams; i++) {
		ret = set_info(&tl->streams[i], &t->streams[i], true);
		if (!ret)
			ret = add_table(&tl->streams[i], &t->streams[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void sp_tl_free(struct sp_tracelog *tl)
{
	size_t i, k;

	for (i = 0; i < tl->n_streams; i++) {
		struct sp_tl_stream *st = &tl->streams[i];

		for (k = 0; k < st->n_tables; k++) {
			free(st->tables[k].names);
			free(st->tables[k].map);
		}
		free(st->tables);
		free(st->counters);
		free(st->gaps_ns);
		sp_stream_free(&st->info);
	}
	free(tl->streams);
	for (i = 0; i < tl->n_samples; i++)
		free(tl->samples[i].values);
	free(tl->samples);
	sp_trace_free(&tl->trace);
	memset(tl, 0, sizeof(*tl));
}

int sp_tl_table(struct sp_tracelog *tl, const struct sp_stream *st)
{
	struct sp_tl_stream *s = stream_of(tl, st->index);
	int ret;

	if (!s)
		return 0;	/* not a stream of the trace: nothing to map */
	if (sp_tl_find_table(s, st->version))
		return 0;
	ret = add_table(s, st);
	if (ret)
		return ret;
	tl->table_changes++;
	if (st->version > s->info.version)
		return set_info(s, st, true);
	return 0;
}

int sp_tl_update(struct sp_tracelog *tl, const struct sp_trace *t)
{
	struct sp_stream *keep = tl->trace.streams;
	size_t n = tl->trace.n_streams, i;

	tl->trace = *t;
	tl->trace.streams = keep;
	tl->trace.n_streams = n;
	for (i = 0; i < t->n_streams; i++) {
		struct sp_tl_stream *s = stream_of(tl, t->streams[i].index);

		if (!s)
			continue;
		if (t->streams[i].version > s->info.version && t->streams[i].n_names) {
			int ret = add_table(s, &t->streams[i]);

			if (!ret)
				ret = set_info(s, &t->streams[i], true);
			if (ret)
				return ret;
			tl->table_changes++;
		} else {
			set_info(s, &t->streams[i], false);
		}
	}
	return 0;
}

void sp_tl_lost(struct sp_tracelog *tl, uint64_t n)
{
	tl->lost += n;
}

uint64_t sp_tl_scaled_delta(const char *name, uint64_t delta)
{
	if (!strcmp(name, "port_xmit_data") || !strcmp(name, "port_rcv_data"))
		return delta * 4;
	return delta;
}

static void counter_reading(struct sp_tl_counter *c, uint64_t v, uint64_t ts)
{
	uint64_t d;

	if (!c->samples++) {
		c->first = c->last = v;
		c->first_ts_ns = c->last_ts_ns = ts;
		return;
	}
	switch (sp_counter_delta(c->last, v, &d)) {
	case SP_DELTA_WRAP32:
	case SP_DELTA_WRAP64:
		c->wraps++;
		break;
	case SP_DELTA_RESET:
		c->resets++;
		break;
	default:
		break;
	}
	d = sp_tl_scaled_delta(c->name, d);
	c->delta += d;
	if (ts > c->last_ts_ns) {
		c->rate = sp_counter_rate(d, ts - c->last_ts_ns, c->unit);
		c->has_rate = true;
		if (!c->has_peak || c->rate > c->peak_rate)
			c->peak_rate = c->rate;
		c->has_peak = true;
	}
	c->last = v;
	c->last_ts_ns = ts;
}

static int keep_sample(struct sp_tracelog *tl, const struct sp_trace_sample *s)
{
	struct sp_tl_sample k = {
		.seq = s->seq, .stream = s->stream, .version = s->version, .ts_ns = s->ts_ns,
		.read_ns = s->read_ns, .n = s->n,
	};
	size_t i;

	if (s->n) {
		k.values = calloc(s->n, sizeof(*k.values));
		if (!k.values)
			return -ENOMEM;
		for (i = 0; i < s->n; i++)
			k.values[i] = sp_trace_sample_value(s, i);
	}
	if (sp_array_add(&tl->samples, &tl->n_samples, &tl->cap_samples, sizeof(k), &k)) {
		free(k.values);
		return -ENOMEM;
	}
	return 0;
}

int sp_tl_add(struct sp_tracelog *tl, const struct sp_trace_sample *s)
{
	struct sp_tl_stream *st;
	const struct sp_tl_table *t;
	size_t i, n;

	if (s->seq < tl->next_seq)
		return 0;
	tl->lost += s->seq - tl->next_seq;
	tl->next_seq = s->seq + 1;
	tl->received++;
	st = stream_of(tl, s->stream);
	if (!st)
		return 0;
	t = sp_tl_find_table(st, s->version);
	if (!t) {
		st->unmapped++;
		return 0;
	}
	st->received++;
	if (st->has_ts && s->ts_ns >= st->last_ts_ns) {
		if (sp_array_add(&st->gaps_ns, &st->n_gaps, &st->cap_gaps, sizeof(uint64_t),
				 &(uint64_t){ s->ts_ns - st->last_ts_ns }))
			return -ENOMEM;
	}
	if (!st->has_ts)
		st->first_ts_ns = s->ts_ns;
	st->has_ts = true;
	st->last_ts_ns = s->ts_ns;
	st->read_ns_sum += s->read_ns;
	if (s->read_ns > st->read_ns_max)
		st->read_ns_max = s->read_ns;
	n = s->n < t->n ? s->n : t->n;
	for (i = 0; i < n; i++)
		counter_reading(&st->counters[t->map[i]], sp_trace_sample_value(s, i), s->ts_ns);
	return tl->keep ? keep_sample(tl, s) : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t sp_tl_percentile(uint64_t *v, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

void sp_tl_stream_stats(const struct sp_tl_stream *st, struct sp_tl_stream_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->samples = st->info.samples ? st->info.samples : st->received;
	s->missed = st->info.missed;
	s->versions = (unsigned int)st->n_tables;
	if (st->n_gaps) {
		uint64_t *g = malloc(st->n_gaps * sizeof(*g));

		if (g) {
			memcpy(g, st->gaps_ns, st->n_gaps * sizeof(*g));
			s->period_p50_ns = sp_tl_percentile(g, st->n_gaps, 50);
			s->period_p99_ns = sp_tl_percentile(g, st->n_gaps, 99);
			s->period_max_ns = g[st->n_gaps - 1];
			s->has_period = true;
			free(g);
		}
	}
	if (st->info.samples) {
		s->has_read = true;
		s->read_mean_ns = (double)st->info.read_ns_sum / (double)st->info.samples;
		s->read_max_ns = st->info.read_ns_max;
	} else if (st->received) {
		s->has_read = true;
		s->read_mean_ns = (double)st->read_ns_sum / (double)st->received;
		s->read_max_ns = st->read_ns_max;
	}
}

bool sp_tl_cpu_per_sample(const struct sp_tracelog *tl, double *ns)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < tl->n_streams; i++)
		n += tl->streams[i].info.samples ? tl->streams[i].info.samples :
		     tl->streams[i].received;
	if (!tl->trace.has_cpu || !n)
		return false;
	*ns = (double)tl->trace.cpu_ns / (double)n;
	return true;
}

bool sp_tl_counter_mean_rate(const struct sp_tl_counter *c, double *rate)
{
	if (c->samples < 2 || c->last_ts_ns <= c->first_ts_ns)
		return false;
	*rate = sp_counter_rate(c->delta, c->last_ts_ns - c->first_ts_ns, c->unit);
	return true;
}
