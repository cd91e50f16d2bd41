/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <sys/prctl.h>

#include "rngd/secret_mem.h"

int secret_mem_no_core_dumps(void)
{
	/* Whole-process rather than MADV_DONTDUMP per buffer: tested bytes
	 * pass through stack frames and malloc'd copies too. */
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}
