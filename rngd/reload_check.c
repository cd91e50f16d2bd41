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
#include <stddef.h>
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

/* The settings used once, at start, as rngd_options holds them. */
enum field_kind { FIELD_TEXT, FIELD_UINT, FIELD_INT, FIELD_BOOL };

static const struct start_only {
	const char *name;
	size_t offset;
	enum field_kind kind;
} start_only[] = {
	{ "random-device", offsetof(struct rngd_options, random_device), FIELD_TEXT },
	{ "pid-file", offsetof(struct rngd_options, pidfile), FIELD_TEXT },
	{ "drop-privileges", offsetof(struct rngd_options, user), FIELD_TEXT },
	{ "hwrng-sysfs", offsetof(struct rngd_options, hwrng_sysfs), FIELD_TEXT },
	{ "HRNGSELECT", offsetof(struct rngd_options, hwrng_select), FIELD_TEXT },
	{ "state-dir", offsetof(struct rngd_options, state_dir), FIELD_TEXT },
	{ "take-credit", offsetof(struct rngd_options, take_credit), FIELD_BOOL },
	{ "open-wait", offsetof(struct rngd_options, open_wait_ms), FIELD_UINT },
	{ "fill-watermark", offsetof(struct rngd_options, watermark_bits), FIELD_INT },
	{ "topup-interval", offsetof(struct rngd_options, topup_interval_s), FIELD_UINT },
	{ "topup-bytes", offsetof(struct rngd_options, topup_bytes), FIELD_UINT },
	{ "egd-socket", offsetof(struct rngd_options, egd_socket), FIELD_TEXT },
	{ "egd-socket-group", offsetof(struct rngd_options, egd_socket_group), FIELD_TEXT },
	{ "egd-socket-mode", offsetof(struct rngd_options, egd_socket_mode), FIELD_UINT },
};

static bool same_field(const struct rngd_options *a, const struct rngd_options *b, const struct start_only *f)
{
	const char *pa = (const char *)a + f->offset, *pb = (const char *)b + f->offset;

	switch (f->kind) {
	case FIELD_TEXT:
		return same_text(*(char *const *)(const void *)pa, *(char *const *)(const void *)pb);
	case FIELD_UINT:
		return *(const unsigned int *)(const void *)pa == *(const unsigned int *)(const void *)pb;
	case FIELD_INT:
		return *(const int *)(const void *)pa == *(const int *)(const void *)pb;
	case FIELD_BOOL:
		return *(const bool *)(const void *)pa == *(const bool *)(const void *)pb;
	}
	return false;
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
	for (size_t i = 0; i < sizeof(start_only) / sizeof(start_only[0]); i++)
		if (!same_field(running, fresh, &start_only[i]))
			add_name(names, sizeof(names), &off, start_only[i].name);
	if (off)
		return rngd_fail(err, "%s changed, which only a restart applies", names);
	return 0;
}
