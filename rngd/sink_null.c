/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -t (test mode) sink: always wants data and discards it, so the loop
 * runs the sources and gates flat out and -t can print their rates.
 */
#include <config.h>

#include "rngd/sink_null.h"

static size_t null_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	(void)s;
	(void)now_ms;
	*next_ms = RNG_SINK_NEVER;
	return 64u * 1024u;
}

static int null_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	(void)s;
	(void)buf;
	(void)len;
	(void)credit_bits;
	return 0;
}

static void null_close(struct rng_sink *s)
{
	(void)s;
}

static const struct rng_sink_ops null_sink_ops = {
	.demand = null_demand,
	.write = null_write,
	.close = null_close,
};

void rng_sink_null_open(struct rng_sink *s)
{
	s->ops = &null_sink_ops;
	s->name = "test";
	s->priv = NULL;
	s->feeds_this_kernel = false;
}
