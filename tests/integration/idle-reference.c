/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The smallest C daemon: logs one line to stderr and waits for a signal.
 * Its VmHWM (mem_reference_hwm, tests/integration/mem-lib.sh) is the floor
 * that libc and the loader cost any program on this machine, the yardstick
 * idle-memory.sh and bench/rngd-idle print rngd's VmHWM against.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	fprintf(stderr, "idle-reference: waiting\n");
	pause();
	return 0;
}
