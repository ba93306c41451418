/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tuning snapshots: what "tune apply" is about to change, written before it
 * changes anything, as one JSON document (json-c) that "tune revert" replays
 * backwards. Versioned: a reader refuses other versions.
 *
 *   {"format":"sparkperf-tune-snapshot","version":1,"host":"spark1",
 *    "created":"2026-11-30T07:08:39Z","tool_version":"0.1.0",
 *    "profile":"throughput","changes":[
 *      {"name":"net.core.rmem_max","access":"line",
 *       "path":"/proc/sys/net/core/rmem_max","before":"212992",
 *       "after":"67108864"},
 *      {"name":"memlock","access":"file",
 *       "path":"/etc/security/limits.d/90-sparkperf.conf",
 *       "before":null,"after":"...","after_mode":420}, ...]}
 *
 * "before" null: the file was absent. configfs changes carry "group" and
 * "group_made"; files "before_mode" (when present) and "after_mode".
 */
#ifndef SPARKPERF_CTL_SNAPSHOT_H
#define SPARKPERF_CTL_SNAPSHOT_H

#include <stddef.h>

#include "knobs.h"

#define SP_SNAPSHOT_FORMAT "sparkperf-tune-snapshot"
#define SP_SNAPSHOT_VERSION 1

struct sp_snapshot {
	int version;
	char host[256];
	char created[32];		/* UTC, ISO 8601: 2026-11-30T07:08:39Z */
	char tool_version[64];
	char profile[16];
	struct sp_change *changes;
	size_t n;
};

/* The plan's changes, in order, with the given header fields. -ENOMEM. */
int sp_snapshot_from_plan(struct sp_snapshot *s, const struct sp_plan *plan,
			  const char *host, const char *created, const char *tool_version,
			  const char *profile);
void sp_snapshot_free(struct sp_snapshot *s);

/* The JSON document, pretty-printed, with a final newline; free() it. NULL on -ENOMEM. */
char *sp_snapshot_to_json(const struct sp_snapshot *s);

/*
 * Parses a document. -EINVAL with one line in err for anything that is not
 * a snapshot of this format and version, or is malformed.
 */
int sp_snapshot_parse(const char *json, struct sp_snapshot *s, char *err, size_t len);

/* "tune-20261130T070839Z-01.json": names sort by time; seq tells one second's apart. */
#define SP_SNAPSHOT_NAME_MAX 40
void sp_snapshot_name(long long unix_time, unsigned int seq, char *buf, size_t len);
/* Is name a snapshot file (not one already reverted)? */
bool sp_snapshot_name_valid(const char *name);

#endif
