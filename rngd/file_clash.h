/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One file read twice, or read and written: a source that opens a regular
 * file another source reads (each would credit its bytes), or the file or
 * FIFO the sink writes (rngd would read and credit its own output again).
 * rngd_check_shared_files() refuses what the paths show at start; this
 * catches what they cannot (a file made later, a link moved, -o - into a
 * file), when the source opens.
 */
#ifndef RNGD_FILE_CLASH_H
#define RNGD_FILE_CLASH_H

#include <sys/stat.h>

struct rngd_loop;
struct rngd_slot;

/* The file or FIFO the sink writes (@st from fstat() of its fd), or NULL
 * for none: set once, before the sources open. */
void rngd_loop_set_sink_file(struct rngd_loop *l, const struct stat *st);

/* The source's open(), then the check: 0, -errno of the open, or -EBUSY
 * with the source closed and its why saying which file and why. */
int rngd_slot_open(struct rngd_loop *l, struct rngd_slot *s);

#endif /* RNGD_FILE_CLASH_H */
