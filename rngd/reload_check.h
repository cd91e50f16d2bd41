/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RNGD_RELOAD_CHECK_H
#define RNGD_RELOAD_CHECK_H

#include "rngd/options.h"

/*
 * SIGHUP: may @fresh (the config and command line read again) replace
 * @running? 0, or -EINVAL with err naming what only a restart applies (or
 * the config file that vanished); the caller then keeps @running whole.
 */
int rngd_reload_check(const struct rngd_options *running, const struct rngd_options *fresh,
		      char err[RNGD_ERR_MAX]);

#endif
