/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_SINK_NULL_H
#define RNGD_SINK_NULL_H

#include "rngd/sink.h"

/* The -t sink: wants everything, keeps nothing. */
void rng_sink_null_open(struct rng_sink *s);

#endif
