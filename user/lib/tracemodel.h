/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters and traces as the CLI holds them: what a trace looks at
 * (targets), its streams (a source of a target, its name table, its
 * statistics or one reading), the trace itself, the request that starts
 * one and the samples it sends. Plain structs, filled by tracenl.c.
 */
#ifndef SPARKPERF_CTL_TRACEMODEL_H
#define SPARKPERF_CTL_TRACEMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define SP_COUNTER_NAME_MAX 32	/* ETH_GSTRING_LEN, with the NUL */

typedef char sp_counter_name[SP_COUNTER_NAME_MAX];

/* What a trace or a counter read looks at: a netdev, or an RDMA device port. */
struct sp_trace_target {
	bool rdma;
	char name[SPARKPERF_DEV_NAME_MAX];
	uint32_t port;			/* rdma: 1-based; 0 sends none (the module's 1) */
};

/*
 * One stream: one source of one target, its name table and, from a
 * TRACE_GET, its sampling statistics; from a COUNTERS_GET, one reading.
 */
struct sp_stream {
	uint32_t index;
	uint8_t source;			/* enum sparkperf_counter_source */
	char target[SPARKPERF_DEV_NAME_MAX];
	bool has_ifindex;
	uint32_t ifindex;
	bool has_port;
	uint32_t port;
	uint32_t period_us;
	uint32_t version;		/* of the name table, from 1 */
	uint32_t slot_values;
	bool truncated;
	sp_counter_name *names;
	size_t n_names;
	uint64_t samples;
	uint64_t missed;
	uint64_t read_ns_sum;
	uint64_t read_ns_max;
	uint64_t late_ns_max;
	/* one reading (COUNTERS_GET): a value per name */
	uint64_t *values;
	size_t n_values;
	bool has_ts;
	uint64_t ts_ns;
	uint32_t read_ns;
};

struct sp_stream_list {
	struct sp_stream *streams;
	size_t n;
	size_t cap;
};

/* SPARKPERF_CMD_TRACE_GET (also the reply to TRACE_START and TRACE_END). */
struct sp_trace {
	uint32_t id;
	uint8_t state;			/* enum sparkperf_trace_state */
	bool has_error;
	int32_t error;
	bool has_error_msg;
	char error_msg[SP_LAT_ERRMSG_MAX];
	uint64_t start_ns;		/* CLOCK_MONOTONIC, the grid's origin */
	uint64_t elapsed_ns;
	bool has_duration;
	uint32_t duration_ms;
	uint32_t buffer_bytes;
	uint32_t batch_ms;
	bool has_cpu;
	uint64_t cpu_ns;		/* of the sampler thread */
	uint32_t slots;
	uint64_t seq_next;
	uint64_t seq_oldest;
	struct sp_stream *streams;
	size_t n_streams;
};

struct sp_trace_list {
	struct sp_trace *traces;
	size_t n;
	size_t cap;
};

/* A TRACE_START request; has_* as in struct sp_lat_config. */
struct sp_trace_config {
	struct sp_trace_target targets[SPARKPERF_TRACE_TARGETS_MAX];
	size_t n_targets;
	const char *globs[SPARKPERF_TRACE_GLOBS_MAX];
	size_t n_globs;			/* 0: every counter */
	bool has_netdev_period;
	uint32_t netdev_period_us;
	bool has_ethtool_period;
	uint32_t ethtool_period_us;
	bool has_rdma_period;
	uint32_t rdma_period_us;
	bool has_duration;
	uint32_t duration_ms;
	bool has_buffer;
	uint32_t buffer_bytes;
	bool has_batch;
	uint32_t batch_ms;
};

/* One sample of a TRACE_SAMPLES message; values point into the message. */
struct sp_trace_sample {
	uint64_t seq;
	uint32_t stream;
	uint32_t version;
	uint64_t ts_ns;			/* CLOCK_MONOTONIC, when the read started */
	uint32_t read_ns;
	const void *values;		/* n host-order __u64, 4-byte aligned only */
	size_t n;
};

/* One TRACE_SAMPLES message (a dump part or a multicast batch). */
struct sp_trace_samples {
	uint32_t id;
	uint64_t lost;			/* samples from the cursor on no longer kept */
	struct sp_trace_sample *s;
	size_t n;
};

/* Value i (< s->n) of a sample. */
uint64_t sp_trace_sample_value(const struct sp_trace_sample *s, size_t i);
void sp_trace_samples_free(struct sp_trace_samples *s);
void sp_stream_free(struct sp_stream *st);
/* A deep copy of src into dst (names and values); 0 or -ENOMEM. */
int sp_stream_copy(struct sp_stream *dst, const struct sp_stream *src);
void sp_stream_list_free(struct sp_stream_list *list);
int sp_stream_list_add(struct sp_stream_list *list, struct sp_stream *st);
void sp_trace_free(struct sp_trace *t);
void sp_trace_list_free(struct sp_trace_list *list);
int sp_trace_list_add(struct sp_trace_list *list, struct sp_trace *t);
/* true once a trace has ended: DONE, STOPPED or FAILED */
bool sp_trace_state_final(unsigned int state);

#endif
