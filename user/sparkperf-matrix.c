// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf-matrix: the matrix worker, one rank per host, started by
 * mpirun (sparkperf-ctl matrix does) or srun. main() and the ranks'
 * communication are here, the one file that includes mpi.h; the worker
 * itself is matrix/worker.c, on libsparkperf-ctl.a.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <mpi.h>

#include "matrix/worker.h"
#include "lib/cmd.h"
#include "lib/err.h"

static int mpi_err(int rc)
{
	return rc == MPI_SUCCESS ? 0 : -EIO;
}

static int mpi_allgather(struct sp_mx_comm *c, const void *mine, void *all, size_t len)
{
	(void)c;
	return len > INT_MAX ? -E2BIG :
	       mpi_err(MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE,
				     MPI_COMM_WORLD));
}

static int mpi_bcast(struct sp_mx_comm *c, void *buf, size_t len)
{
	(void)c;
	return len > INT_MAX ? -E2BIG :
	       mpi_err(MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD));
}

static int mpi_gather(struct sp_mx_comm *c, const void *mine, void *all, size_t len)
{
	(void)c;
	return len > INT_MAX ? -E2BIG :
	       mpi_err(MPI_Gather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
				  MPI_COMM_WORLD));
}

static int mpi_barrier(struct sp_mx_comm *c)
{
	(void)c;
	return mpi_err(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
	struct sp_mx_comm comm = {
		.allgather = mpi_allgather, .bcast = mpi_bcast,
		.gather = mpi_gather, .barrier = mpi_barrier,
	};
	static struct sp_mx_worker_cfg cfg;
	char err[256];
	int ret;

	if (argc > 1 && sp_is_help(argv[1])) {
		fputs(sp_mx_worker_usage, stdout);
		return SP_EXIT_OK;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &comm.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &comm.size);
	/* every rank has the same words: rank 0 alone says what is wrong */
	if (sp_mx_worker_args(argc - 1, argv + 1, &cfg, err, sizeof(err))) {
		if (!comm.rank)
			fprintf(stderr, "sparkperf-matrix: %s\n%s", err, sp_mx_worker_usage);
		MPI_Finalize();
		return SP_EXIT_USAGE;
	}
	ret = sp_mx_worker_run(&comm, &cfg, stdout, stderr);
	/* a rank that broke leaves the others waiting in a collective: end them all */
	if (ret)
		MPI_Abort(MPI_COMM_WORLD, ret);
	MPI_Finalize();
	return ret;
}
