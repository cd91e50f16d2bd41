/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a SIGHUP may change. A reload applies the loop's settings, the
 * credits and priorities of -O, -e, the EGD limits and the log level to
 * the sources, sink and devices opened at start; everything else was used
 * once, at start. A reload whose options differ in any of those is
 * refused as a whole, naming them: applying the rest would log
 * "configuration reloaded" over a setting that did not take, and a credit
 * line could land on another source than the one it was written for (a
 * -r device missing at the reload is a file source, and -H's credit goes
 * with it).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rngd/reload_check.h"
#include "rngd/source_set.h"

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The i-th source arg a reload does not apply, counting from @from; n if none. */
static size_t next_start_only(const struct rngd_options *o, size_t from)
{
	while (from < o->n_source_args && rngd_source_arg_reapplied(&o->source_args[from]))
		from++;
	return from;
}

/* -r, -x, -n and a source's own -O keys, in order (the credit keys left out). */
static bool same_sources(const struct rngd_options *a, const struct rngd_options *b)
{
	size_t i = next_start_only(a, 0), k = next_start_only(b, 0);

	for (; i < a->n_source_args && k < b->n_source_args; i = next_start_only(a, i + 1), k = next_start_only(b, k + 1))
		if (a->source_args[i].kind != b->source_args[k].kind ||
		    strcmp(a->source_args[i].text, b->source_args[k].text) != 0)
			return false;
	return i == a->n_source_args && k == b->n_source_args;
}

static void add_name(char *buf, size_t len, size_t *off, const char *name)
{
	if (*off < len)
		*off += (size_t)snprintf(buf + *off, len - *off, "%s%s", *off ? ", " : "", name);
}

int rngd_reload_check(const struct rngd_options *running, const struct rngd_options *fresh,
		      char err[RNGD_ERR_MAX])
{
	const char *config = running->config_path ? running->config_path : RNGD_DEFAULT_CONFIG;
	char names[RNGD_ERR_MAX / 2];
	size_t off = 0;

	names[0] = '\0';
	/* A missing default file means "no settings" at start; on a reload it
	 * would silently undo every line that lowered a credit. */
	if (running->config_read && !fresh->config_read && same_text(running->config_path, fresh->config_path))
		return rngd_fail(err, "%s was read at start and is gone now", config);
	if (!same_sources(running, fresh))
		add_name(names, sizeof(names), &off, "the sources (-r, -x, -n, a source's own -O keys)");
	if (!same_text(running->random_device, fresh->random_device))
		add_name(names, sizeof(names), &off, "random-device");
	if (!same_text(running->pidfile, fresh->pidfile))
		add_name(names, sizeof(names), &off, "pid-file");
	if (!same_text(running->user, fresh->user))
		add_name(names, sizeof(names), &off, "drop-privileges");
	if (!same_text(running->hwrng_sysfs, fresh->hwrng_sysfs))
		add_name(names, sizeof(names), &off, "hwrng-sysfs");
	if (!same_text(running->hwrng_select, fresh->hwrng_select))
		add_name(names, sizeof(names), &off, "HRNGSELECT");
	if (!same_text(running->state_dir, fresh->state_dir))
		add_name(names, sizeof(names), &off, "state-dir");
	if (running->take_credit != fresh->take_credit)
		add_name(names, sizeof(names), &off, "take-credit");
	if (running->watermark_bits != fresh->watermark_bits)
		add_name(names, sizeof(names), &off, "fill-watermark");
	if (running->topup_interval_s != fresh->topup_interval_s)
		add_name(names, sizeof(names), &off, "topup-interval");
	if (running->topup_bytes != fresh->topup_bytes)
		add_name(names, sizeof(names), &off, "topup-bytes");
	if (!same_text(running->egd_socket, fresh->egd_socket))
		add_name(names, sizeof(names), &off, "egd-socket");
	if (!same_text(running->egd_socket_group, fresh->egd_socket_group))
		add_name(names, sizeof(names), &off, "egd-socket-group");
	if (running->egd_socket_mode != fresh->egd_socket_mode)
		add_name(names, sizeof(names), &off, "egd-socket-mode");
	if (off)
		return rngd_fail(err, "%s changed, which only a restart applies", names);
	return 0;
}
