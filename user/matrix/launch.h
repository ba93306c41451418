/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Launching the worker: the hosts (a list, or mpirun's hostfile), and the
 * mpirun command line that starts one sparkperf-matrix per host, as
 * nccl-tests are started on DGX OS.
 */
#ifndef SPARKPERF_CTL_MXLAUNCH_H
#define SPARKPERF_CTL_MXLAUNCH_H

#include <stddef.h>

#include "mxmodel.h"
#include "lib/parse.h"

/*
 * mpirun's hostfile: a host per line, "NAME [slots=N] [max_slots=N]",
 * '#' comments and blank lines; each host's name into hosts (its slots
 * are not needed: one worker a host). path names the file in errors.
 * -EINVAL with "PATH:LINE: why" in err; -ENOMEM.
 */
int sp_mx_hostfile_parse(const char *text, const char *path, struct sp_list *hosts, char *err,
			 size_t len);

/* The same of a file (up to 1 MiB). -errno or -EINVAL with one line in err. */
int sp_mx_hostfile_read(const char *path, struct sp_list *hosts, char *err, size_t len);

struct sp_mx_launch {
	const struct sp_list *hosts;
	const char *worker;		/* sparkperf-matrix's path, the same on every host */
	const struct sp_mx_config *cfg;
	char *const *extra;		/* the words after "mpirun": mpirun's own options */
	size_t n_extra;
};

/*
 * "mpirun -H H1,H2 -np N --map-by ppr:1:node --mca plm_rsh_agent 'ssh -o
 * BatchMode=yes -o ConnectTimeout=10' EXTRA... WORKER tests ... pattern P":
 * a NULL-terminated argv of malloc'ed words (sp_mx_argv_free()); NULL when
 * out of memory.
 */
char **sp_mx_mpirun_argv(const struct sp_mx_launch *l);
void sp_mx_argv_free(char **argv);

/* The words as a shell line, quoted where needed; malloc'ed, NULL when out of memory. */
char *sp_mx_argv_line(char *const *argv);

#endif
