// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracemodel.h"

uint64_t sp_trace_sample_value(const struct sp_trace_sample *s, size_t i)
{
	uint64_t v;

	/* netlink attribute data is only 4-byte aligned */
	memcpy(&v, (const unsigned char *)s->values + i * sizeof(v), sizeof(v));
	return v;
}

void sp_trace_samples_free(struct sp_trace_samples *s)
{
	if (!s)
		return;
	free(s->s);
	s->s = NULL;
	s->n = 0;
}

void sp_stream_free(struct sp_stream *st)
{
	if (!st)
		return;
	free(st->names);
	free(st->values);
	st->names = NULL;
	st->values = NULL;
	st->n_names = 0;
	st->n_values = 0;
}

int sp_stream_copy(struct sp_stream *dst, const struct sp_stream *src)
{
	*dst = *src;
	dst->names = NULL;
	dst->values = NULL;
	if (src->n_names) {
		dst->names = calloc(src->n_names, sizeof(*dst->names));
		if (!dst->names)
			goto fail;
		memcpy(dst->names, src->names, src->n_names * sizeof(*dst->names));
	}
	if (src->n_values) {
		dst->values = calloc(src->n_values, sizeof(*dst->values));
		if (!dst->values)
			goto fail;
		memcpy(dst->values, src->values, src->n_values * sizeof(*dst->values));
	}
	return 0;
fail:
	sp_stream_free(dst);
	return -ENOMEM;
}

SP_LIST_DEFINE(sp_stream_list, struct sp_stream_list, struct sp_stream, streams, sp_stream_free)

void sp_trace_free(struct sp_trace *t)
{
	if (!t)
		return;
	SP_ARRAY_RELEASE(t->streams, t->n_streams, sp_stream_free);
	t->streams = NULL;
	t->n_streams = 0;
}

SP_LIST_DEFINE(sp_trace_list, struct sp_trace_list, struct sp_trace, traces, sp_trace_free)

bool sp_trace_state_final(unsigned int state)
{
	return state == SPARKPERF_TRACE_STATE_DONE || state == SPARKPERF_TRACE_STATE_STOPPED ||
	       state == SPARKPERF_TRACE_STATE_FAILED;
}
