/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd -l: every compiled-in source, usable here or why not. The probes
 * run side by side, each on a thread of its own, and the list waits for
 * them up to --open-wait: a probe that hangs (a tcsd that accepts and
 * never answers) is listed as giving no answer instead of holding the
 * command for ever.
 */
#ifndef RNGD_SOURCE_LIST_H
#define RNGD_SOURCE_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rngd/loop.h"

/*
 * Print the list of @slots to @out, waiting up to @wait_ms (0: as long as
 * it takes) for the probes; credits as they would be with a sink that
 * feeds this kernel when @to_kernel (none for its own generator). Returns 0; 1 when a probe was still running
 * at the end: its thread still uses its slot, so the caller must neither
 * free the slots nor run exit handlers under it (flush and _exit());
 * -ENOMEM, with nothing printed.
 */
int rngd_source_list(FILE *out, struct rngd_slot *slots, size_t n, unsigned int wait_ms, bool to_kernel);

#endif
