/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which sources run: one instance per compiled-in source, plus one "file"
 * instance per -r PATH, then -x/-n/-O applied in the order given.
 */
#ifndef RNGD_SOURCE_SET_H
#define RNGD_SOURCE_SET_H

#include <stdbool.h>

#include "rngd/loop.h"
#include "rngd/options.h"

/* Build the slots (an array from rngd_slots_new() in *out, for
 * rngd_slots_free()). 0 or -EINVAL with err set. */
int rngd_source_set_build(const struct rngd_options *o, struct rngd_slot **out, size_t *n,
			  char err[RNGD_ERR_MAX]);

/*
 * SIGHUP: re-apply the daemon-level keys (entropy_per_bit, priority) of
 * -O from @o to existing slots. Source selection and a source's own keys
 * take effect at the next start. 0 or -EINVAL with err set; on 0, err
 * is empty or a warning for the caller to log (a credit raised on a
 * source whose bytes may earn none now: it does not take).
 */
int rngd_source_set_reapply(const struct rngd_options *o, struct rngd_slot *slots, size_t n,
			    char err[RNGD_ERR_MAX]);

/* True for the -O args a reload applies (a daemon-level key); every
 * other source arg takes effect at the next start. */
bool rngd_source_arg_reapplied(const struct rngd_source_arg *a);

/* The VALUE of an -O SRC:KEY:VALUE arg whose KEY is @key, else NULL. */
const char *rngd_source_arg_value_of(const struct rngd_source_arg *a, const char *key);

#endif
