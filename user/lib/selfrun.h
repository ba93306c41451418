/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sparkperf-ctl's own "lat run" and "bw run", run as programs and read
 * from their -j output: check's probes (the tool runs itself) and the
 * matrix worker's tests, so that each is exactly the command a user can
 * run by hand.
 */
#ifndef SPARKPERF_CTL_LIB_SELFRUN_H
#define SPARKPERF_CTL_LIB_SELFRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_selfrun {
	const char *prog;		/* sparkperf-ctl: "/proc/self/exe" in the tool itself */
	const char *peer;		/* ADDR[,ADDR...] */
	const char *dev;		/* DEV[,DEV...], one per peer */
	const char *args;		/* the run's other words, ' '-separated */
	int64_t timeout_ms;
};

#define SP_SELFRUN_WHY_MAX 160

struct sp_selfrun_lat {
	bool ok;
	uint64_t rtt_p50_ns, rtt_p99_ns;
	char why[SP_SELFRUN_WHY_MAX];	/* !ok: why, one line */
};

/* Sessions of one bw run read: the matrix's patterns run a host's tests as one. */
#define SP_SELFRUN_SESSIONS 64

struct sp_selfrun_bw {
	bool ok;			/* every session measured, their sum in gbit_per_s */
	double gbit_per_s;
	size_t n;			/* sessions read */
	bool session_ok[SP_SELFRUN_SESSIONS];
	double session_gbit_per_s[SP_SELFRUN_SESSIONS];
	bool no_server;			/* the peer runs no sparkperf server */
	bool not_permitted;		/* sessions need CAP_NET_ADMIN */
	char why[SP_SELFRUN_WHY_MAX];	/* !ok: the first failure, one line */
};

/* sparkperf-ctl -j lat run peer P dev D ARGS */
void sp_selfrun_lat(const struct sp_selfrun *r, struct sp_selfrun_lat *out);
/* sparkperf-ctl -j bw run peer P dev D ARGS */
void sp_selfrun_bw(const struct sp_selfrun *r, struct sp_selfrun_bw *out);

#endif
