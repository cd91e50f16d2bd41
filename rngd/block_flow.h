/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A block's way from a queue through its gate to the sink (rngd/block_flow.c). */
#ifndef RNGD_BLOCK_FLOW_H
#define RNGD_BLOCK_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rngd_loop;
struct rngd_slot;

/* True while the slot's source reads this kernel's own generator and the
 * sink feeds that kernel: its bytes earn nothing (rngd/credit.h). */
bool rngd_slot_circular(const struct rngd_loop *l, const struct rngd_slot *s);

/* Once a slot's life, after an open that found its source reading this
 * kernel's own generator while the sink feeds that kernel: say that its
 * bytes earn nothing. The thread that opens the source calls it. */
void rngd_slot_warn_circular(struct rngd_loop *l, struct rngd_slot *s);

/* True while the host's kernel pool is filling (credit counts). */
bool rngd_flow_host_filling(const struct rngd_loop *l);

/* Quarantined sources whose re-test is due read again. */
void rngd_flow_resume_due_retests(struct rngd_loop *l, uint64_t now);

/* The source whose block goes next, or NULL (rngd_policy_pick). */
struct rngd_slot *rngd_flow_pick(struct rngd_loop *l, uint64_t now);

/* Sources active or retrying (not quarantined, exhausted or disabled). */
size_t rngd_flow_count_usable(struct rngd_loop *l);

/* Take @s's oldest block through its gate; a passing (or, with
 * --on-fail=mix, a failed) block becomes the pending one. */
void rngd_flow_process_block(struct rngd_loop *l, struct rngd_slot *s, uint64_t now);

/* Write up to @demand bytes of the pending block; 0 or the sink's -errno. */
int rngd_flow_write_pending(struct rngd_loop *l, size_t demand);

#endif
