/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tested bytes are secrets: the kernel mixes them into the CRNG that keys
 * everything on the machine. Besides wiping each copy once used
 * (explicit_bzero in the loop, the gate's repeat history, the kernel
 * interface), rngd keeps them out of core dumps.
 */
#ifndef RNGD_SECRET_MEM_H
#define RNGD_SECRET_MEM_H

/*
 * prctl(PR_SET_DUMPABLE, 0): no core dump of this process (its reader
 * queues, pending block and repeat histories hold tested bytes), and no
 * ptrace attach or /proc/PID/mem read by an unprivileged user. 0 or -errno.
 */
int secret_mem_no_core_dumps(void);

#endif
