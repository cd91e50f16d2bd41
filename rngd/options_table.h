/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table of rngd's settings (rngd/options_table.c): each one's long
 * name (also its config-file key), short letter or id, value hint, where
 * it is allowed, and help line. The parser (rngd/options.c), the config
 * file (rngd/config.c through rngd_options_set()) and --help all read it.
 */
#ifndef RNGD_OPTIONS_TABLE_H
#define RNGD_OPTIONS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

enum opt_id {
	OPT_ON_FAIL = 256,
	OPT_STATS_FILE,
	OPT_STATS_INTERVAL,
	OPT_READY_TIMEOUT,
	OPT_OPEN_WAIT,
	OPT_NO_TAKE_CREDIT,
	OPT_TAKE_CREDIT,
	OPT_RESTORE_HWRNG_QUALITY,
	OPT_QUARANTINE_AFTER,
	OPT_RETEST_AFTER,
	OPT_RETEST_MAX,
	OPT_TOPUP_INTERVAL,
	OPT_TOPUP_BYTES,
	OPT_HWRNG_SYSFS,
	OPT_STATE_DIR,
	OPT_EGD_SOCKET,
	OPT_EGD_SOCKET_MODE,
	OPT_EGD_SOCKET_GROUP,
	OPT_EGD_RATE,
	OPT_EGD_BURST,
	OPT_EGD_CLIENTS,
	OPT_EGD_PRIME,
	OPT_COMPAT,
	OPT_DEFAULTS_FILE,
};

enum opt_where {
	WHERE_CLI = 1,
	WHERE_CONFIG = 2,
	WHERE_BOTH = 3,
};

/*
 * A setting that is one bounded number: the parser's check and --help's
 * range come from here, so the two cannot disagree.
 */
struct opt_number {
	int id;              /* the setting's, as in struct opt_def */
	size_t field;        /* offsetof() its unsigned int in struct rngd_options */
	const char *needs;   /* what an error says it needs: "a byte count" */
	unsigned long min, max;
	bool in_ms;          /* seconds with a fraction, kept and bounded in ms */
};

struct opt_def {
	const char *name;
	int id;              /* short letter or enum opt_id */
	const char *arg;     /* NULL: a flag */
	enum opt_where where;
	const char *help;
};

/* Room for every setting: options_table.c asserts the table fits, so a
 * parser can keep a view of it in a fixed array, not a VLA. */
#define RNGD_OPT_DEFS_MAX 96

extern const struct opt_def rngd_opt_defs[];
extern const size_t rngd_n_opt_defs;

/* The setting of that long name / id, or NULL. */
const struct opt_def *rngd_opt_by_name(const char *name);
const struct opt_def *rngd_opt_by_id(int id);
/* The bounds of the setting of that id, or NULL: not a bounded number. */
const struct opt_number *rngd_opt_number(int id);

#endif
