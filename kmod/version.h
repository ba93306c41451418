/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SP_VERSION_H
#define SP_VERSION_H

#define SPARKPERF_VERSION "0.1.0"

#endif /* SP_VERSION_H */
