/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deliberate faults, for the tests of the checks that must catch them.
 */
#ifndef SP_FAULT_H
#define SP_FAULT_H

#include <linux/types.h>

void sp_fault_init(void);
void sp_fault_uninit(void);
u32 sp_fault_corrupt_every(void);

#endif /* SP_FAULT_H */
