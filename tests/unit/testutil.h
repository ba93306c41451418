/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the Check suites. */
#ifndef SPARKPERF_TESTUTIL_H
#define SPARKPERF_TESTUTIL_H

#include <stdbool.h>
#include <stdio.h>

#include <netlink/msg.h>

/* What print.c writes, captured in memory. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

void cap_start(struct capture *c, bool json, bool pretty);
/* The captured text; free() it. */
char *cap_end(struct capture *c);

/* Concatenates messages into one datagram (a dump fills an skb this way) and frees them. */
size_t datagram(void *buf, size_t size, struct nl_msg **msgs, size_t n);

#endif
