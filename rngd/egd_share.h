/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sharing tested bytes between rngd's sink and the EGD reserve: a sink
 * that wraps the real one (or none: `-o none`), so the loop needs no
 * change: it asks demand(), takes blocks through the gate, and write()
 * sends each part where the last demand() came from.
 *
 * Policy, as documented in rngd(8):
 *   - The host's own pool first: while the kernel sink wants bytes (it
 *     fills until the pool is ready, then wants a top-up every interval),
 *     it gets them; the reserve gets what the kernel does not want.
 *   - A file sink always wants; it and the reserve take turns part by part,
 *     so neither starves.
 *   - Only credited bytes enter the reserve: a part written with 0 credit
 *     (a failed block mixed by --on-fail=mix, a source credited 0 such as
 *     sysstat, -t) is never served as entropy. While only the reserve
 *     asks, credit_only() tells the loop to take no zero-credit block at
 *     all (reading and dropping them would be a busy loop); taking turns
 *     with a file sink, such a part goes to the file; otherwise (-t) it
 *     is dropped.
 *   - Every byte in the reserve is worth 8 bits of credit: a part of less
 *     than full credit is condensed with SHA-512 (rngd/egd_condense.h),
 *     so the bytes served never exceed the bits credited / 8.
 *   - Each byte goes to one place: the sink or the reserve, never both.
 */
#ifndef RNGD_EGD_SHARE_H
#define RNGD_EGD_SHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "rngd/egd_condense.h"
#include "rngd/egd_reserve.h"
#include "rngd/sink.h"

enum egd_share_route {
	EGD_ROUTE_NONE,
	EGD_ROUTE_SINK,
	EGD_ROUTE_RESERVE,
};

struct egd_share {
	struct rng_sink *inner;        /* NULL: no sink, EGD only */
	struct egd_reserve *reserve;
	bool host_first;
	enum egd_share_route route;    /* where the last demand() came from */
	size_t inner_want;             /* what the inner sink asked at that demand() */
	enum egd_share_route last_write;
	char name[32];
	struct egd_condenser condenser;
	int condense_error;            /* 0, or why only full-entropy parts pass */
	uint64_t bytes_to_reserve;     /* bytes put into the reserve (condensed) */
	uint64_t bytes_dropped;        /* input bytes not admitted: 0 credit, or no hash */
	uint64_t bytes_lost_full;      /* admitted bytes the full reserve did not take */
};

/*
 * Make @out a sink that shares between @inner (may be NULL) and @reserve.
 * @host_first: @inner is the kernel sink (its demand always wins).
 * @sh must outlive @out; closing @out leaves @inner open and frees the
 * condenser.
 */
void egd_share_open(struct rng_sink *out, struct egd_share *sh, struct rng_sink *inner,
		    struct egd_reserve *reserve, bool host_first);

#endif
