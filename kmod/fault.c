// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate faults, set in debugfs (root only): sparkperf/corrupt_every N
 * makes every N-th data message of a validating bandwidth connection set
 * up afterwards arrive corrupted, so that a test can prove validation
 * catches each one, in every slot. 0, the default, injects nothing.
 * Debian's kernels lack CONFIG_FAULT_INJECTION, whose attributes this
 * would otherwise use.
 */

#include <linux/debugfs.h>

#include "fault.h"

static struct dentry *sp_fault_dir;
static u32 sp_corrupt_every;

u32 sp_fault_corrupt_every(void)
{
	return READ_ONCE(sp_corrupt_every);
}

/* Without debugfs there is nothing to set, and nothing fails. */
void sp_fault_init(void)
{
	sp_fault_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_u32("corrupt_every", 0600, sp_fault_dir,
			   &sp_corrupt_every);
}

void sp_fault_uninit(void)
{
	debugfs_remove(sp_fault_dir);
}
