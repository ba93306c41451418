// SPDX-License-Identifier: GPL-2.0
/*
 * The registration item: SP_REG_BYTES of memory registered on each RDMA
 * device, the way NCCL registers its buffers (ibv_reg_mr() of this
 * process's pages, which pins them), so that ENOMEM shows here before an
 * all_reduce fails with it: a locked-memory limit, memory that cannot be
 * pinned, a driver that cannot map that much.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <infiniband/verbs.h>

#include "doctor.h"
#include "lib/run.h"

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (i = 0; i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

int sp_host_register(const char *dev, uint64_t bytes, uint64_t *ns)
{
	struct ibv_context *ctx = open_dev(dev);
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr;
	uint64_t start;
	void *buf;
	int ret = 0;

	if (!ctx)
		return -ENODEV;
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		ret = errno ? -errno : -ENOMEM;
	buf = ret ? MAP_FAILED : mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ret && buf == MAP_FAILED)
		ret = -errno;
	if (!ret) {
		start = sp_run_now_ns();
		mr = ibv_reg_mr(pd, buf, bytes, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ);
		*ns = sp_run_now_ns() - start;
		if (!mr)
			ret = errno ? -errno : -ENOMEM;
		else
			ibv_dereg_mr(mr);
	}
	if (buf != MAP_FAILED)
		munmap(buf, bytes);
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return ret;
}

void sp_check_register(struct sp_doctor *d)
{
	static const char fix_nomem[] = "raise the locked-memory limit (sparkperf-ctl tune apply, "
		"then log in again; root is not limited) and free memory (see the memory and cma "
		"items) before NCCL registers its buffers";
	char name[96], size[SP_SIZE_STRLEN];
	uint64_t ns = 0;
	size_t i;
	int ret;

	sp_fmt_size(SP_REG_BYTES, size, sizeof(size));
	if (!d->module || !d->devs.n) {
		sp_doctor_add(d, SP_CHECK_SKIP, "register", NULL, "no RDMA device listed");
		return;
	}
	for (i = 0; i < d->devs.n; i++) {
		const char *dev = d->devs.devs[i].name;

		snprintf(name, sizeof(name), "register %s", dev);
		ret = d->reg(dev, SP_REG_BYTES, &ns);
		if (!ret)
			sp_doctor_add(d, SP_CHECK_PASS, name, NULL, "%s registered with ibv_reg_mr in "
				      "%.1f ms", size, ns / 1e6);
		else if (ret == -ENODEV)
			sp_doctor_add(d, SP_CHECK_SKIP, name, NULL, "libibverbs does not see %s (its "
				      "provider, ibverbs-providers, missing?)", dev);
		else
			sp_doctor_add(d, SP_CHECK_FAIL, name, ret == -ENOMEM || ret == -EAGAIN ?
				      fix_nomem : "see the kernel log (dmesg) for the driver's reason",
				      "ibv_reg_mr of %s failed: %s, as NCCL's registration of its "
				      "buffers would", size, strerror(-ret));
		sp_check_fact_str(&d->list, "device", dev);
		sp_check_fact_u64(&d->list, "bytes", SP_REG_BYTES);
		if (!ret)
			sp_check_fact_u64(&d->list, "register_ns", ns);
	}
}
