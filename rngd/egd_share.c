/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sharing sink (see egd_share.h for the policy).
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "rngd/egd_share.h"

static size_t share_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	struct egd_share *sh = s->priv;
	uint64_t inner_next = RNG_SINK_NEVER;
	size_t inner = sh->inner ? sh->inner->ops->demand(sh->inner, now_ms, &inner_next) : 0;
	size_t want = egd_reserve_snapshot(sh->reserve).want;

	sh->inner_want = inner;
	if (inner > 0 && want > 0 && !sh->host_first)
		/* A sink that always wants: take turns. */
		sh->route = sh->last_write == EGD_ROUTE_SINK ? EGD_ROUTE_RESERVE : EGD_ROUTE_SINK;
	else if (inner > 0)
		sh->route = EGD_ROUTE_SINK;
	else if (want > 0)
		sh->route = EGD_ROUTE_RESERVE;
	else
		sh->route = EGD_ROUTE_NONE;
	switch (sh->route) {
	case EGD_ROUTE_SINK:
		return inner;
	case EGD_ROUTE_RESERVE:
		return want;
	default:
		/* The reserve pokes the loop's eventfd when it wants again. */
		*next_ms = inner_next;
		return 0;
	}
}

static void reserve_put(void *ctx, const uint8_t *out, size_t len)
{
	struct egd_share *sh = ctx;
	size_t n = egd_reserve_put(sh->reserve, out, len);

	sh->bytes_to_reserve += n;
	sh->bytes_lost_full += len - n;
}

static int share_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	struct egd_share *sh = s->priv;
	size_t n;

	/* A zero-credit part is of no use to the reserve: the inner sink takes
	 * it when it asked for bytes too (taking turns with a file sink). */
	if (sh->inner && (sh->route == EGD_ROUTE_SINK || (credit_bits == 0 && sh->inner_want > 0))) {
		sh->last_write = EGD_ROUTE_SINK;
		return sh->inner->ops->write(sh->inner, buf, len, credit_bits);
	}
	sh->last_write = EGD_ROUTE_RESERVE;
	/* Only what is worth 8 bits a byte enters the reserve (egd_condense.h). */
	n = egd_condense(&sh->condenser, buf, len, credit_bits, reserve_put, sh);
	sh->bytes_dropped += n;
	return 0;
}

static bool share_credit_only(const struct rng_sink *s)
{
	const struct egd_share *sh = s->priv;

	/* With the inner sink wanting too (a file sink, taking turns), a
	 * zero-credit block goes there instead (share_write()). */
	return sh->route == EGD_ROUTE_RESERVE && sh->inner_want == 0;
}

/* The reserve pokes the loop's eventfd itself; only the inner sink may
 * need an fd watched (a stalled pipe). */
static int share_wait_fd(struct rng_sink *s, short *events)
{
	struct egd_share *sh = s->priv;

	if (!sh->inner || !sh->inner->ops->wait_fd)
		return -1;
	return sh->inner->ops->wait_fd(sh->inner, events);
}

static void share_close(struct rng_sink *s)
{
	struct egd_share *sh = s->priv;

	egd_condenser_destroy(&sh->condenser);
}

static const struct rng_sink_ops share_ops = {
	.demand = share_demand,
	.write = share_write,
	.close = share_close,
	.wait_fd = share_wait_fd,
	.credit_only = share_credit_only,
};

void egd_share_open(struct rng_sink *out, struct egd_share *sh, struct rng_sink *inner,
		    struct egd_reserve *reserve, bool host_first)
{
	memset(sh, 0, sizeof(*sh));
	sh->inner = inner;
	sh->reserve = reserve;
	sh->host_first = host_first;
	sh->route = sh->last_write = EGD_ROUTE_NONE;
	/* Without a hash only full-entropy parts can enter (the caller logs it). */
	sh->condense_error = egd_condenser_init(&sh->condenser);
	snprintf(sh->name, sizeof(sh->name), "%s%s", inner ? inner->name : "", inner ? "+egd" : "egd");
	/* Named after what it wraps: "kernel+egd". */
	out->ops = &share_ops;
	out->name = sh->name;
	out->priv = sh;
	/* What reaches the host's kernel decides: a credit fed back to it
	 * would be circular, whatever part the clients get. */
	out->feeds_this_kernel = inner && inner->feeds_this_kernel;
}
