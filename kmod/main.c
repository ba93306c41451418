// SPDX-License-Identifier: GPL-2.0
/*
 * sparkperf: RDMA link measurement from the kernel.
 */

#include <linux/module.h>
#include <net/genetlink.h>
#include <linux/sparkperf.h>

#include "device.h"
#include "fault.h"
#include "netlink.h"
#include "trace.h"
#include "server.h"
#include "session.h"

static int __init sp_mod_init(void)
{
	int ret;

	/* Its notifiers before the family: a trace may start at once. */
	ret = sp_trace_init();
	if (ret < 0)
		return ret;

	/* Its workqueue before the family can start a server. */
	ret = sp_server_init();
	if (ret < 0)
		goto err_server;

	/* The family next: the RDMA client announces devices on it. */
	ret = sp_genl_init();
	if (ret < 0)
		goto err_genl;

	ret = sp_device_init();
	if (ret < 0)
		goto err_device;

	ret = sp_session_init();
	if (ret < 0)
		goto err_session;

	sp_fault_init();
	pr_info("version %s loaded\n", SPARKPERF_VERSION);
	return 0;

err_session:
	sp_device_uninit();
err_device:
	sp_genl_uninit();
err_genl:
	sp_server_uninit();
err_server:
	sp_trace_uninit();
	return ret;
}

/*
 * Traces, sessions and servers go first, while the family they report on
 * still exists; each refuses new objects before it tears down the old
 * ones. Servers return once every connection's teardown has run (their
 * cm handlers, work and threads are module text).
 */
static void __exit sp_mod_exit(void)
{
	sp_trace_uninit();
	sp_session_uninit();
	sp_server_uninit();
	sp_device_uninit();
	sp_genl_uninit();
	sp_fault_uninit();
	pr_info("unloaded\n");
}

module_init(sp_mod_init);
module_exit(sp_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RDMA link latency, bandwidth and counter measurement");
MODULE_AUTHOR("The sparkperf developers");
MODULE_VERSION(SPARKPERF_VERSION);
MODULE_ALIAS_GENL_FAMILY(SPARKPERF_GENL_NAME);
