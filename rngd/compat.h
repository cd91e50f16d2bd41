/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng-tools compatibility: the command lines and config files rng-tools
 * users already have start this rngd (rngd(8), COMPATIBILITY).
 *
 * A personality says how the command line is read:
 *   rng-tools   rng-tools 6.17, the default: its options are rngd's own
 *               (rngd/options.c), plus the source names, indexes and keys
 *               resolved here;
 *   debian      rng-tools-debian 2.3 (Debian's `rng-tools`);
 *   rng-tools5  rng-tools5 5-4.1.
 * --compat=NAME chooses one, and so does the program name (a symlink
 * named rngd-debian or rngd5). --defaults-file reads Debian's
 * /etc/default/rng-tools-debian (rngd/compat_defaults.c).
 *
 * A peer's default credit never applies: only a value the user wrote
 * (-e, -H, -O ...:entropy_per_bit) changes what a source earns.
 */
#ifndef RNGD_COMPAT_H
#define RNGD_COMPAT_H

#include <stdio.h>

#include "rngd/loop.h"
#include "rngd/options.h"

enum rngd_personality {
	RNGD_PERSONALITY_RNG_TOOLS,
	RNGD_PERSONALITY_DEBIAN,
	RNGD_PERSONALITY_RNG_TOOLS5,
};

/* A growable argv (NULL-terminated in v). */
struct rngd_argv {
	char **v;
	size_t n;
	size_t cap;
};

int rngd_argv_push(struct rngd_argv *a, const char *word);
void rngd_argv_free(struct rngd_argv *a);

/*
 * rngd_options_load() for any personality: the peer's command line is
 * translated to rngd's own (notes for what changed meaning), loaded, and
 * rng-tools' source names, indexes and keys resolved against this build.
 * 0, an enum rngd_compat_print value for a peer's help (the caller
 * prints it with rngd_compat_print() and exits 0), or -EINVAL/-errno with
 * one line in err (exit 2).
 */
int rngd_compat_load(struct rngd_options *o, int argc, char *const argv[], char err[RNGD_ERR_MAX]);

/* What a peer's own help option asks to print (rng-tools 6's -? is rngd's
 * --help, whose options are rngd's own). */
enum rngd_compat_print {
	RNGD_COMPAT_PRINT_HRNGS = 1,       /* debian --hrng=help */
	RNGD_COMPAT_PRINT_DEBIAN_HELP,     /* rngd-debian -?, --help */
	RNGD_COMPAT_PRINT_RNG_TOOLS5_HELP, /* rngd5 -?, --help */
};

/*
 * --defaults-file: the shell-variable assignments HRNGDEVICE, RNGDOPTIONS
 * and HRNGSELECT of /etc/default/rng-tools-debian, never executed. Pushes
 * rng-tools-debian words (-r DEVICE, then RNGDOPTIONS split on blanks as
 * the init script's unquoted $RNGDOPTIONS is) onto @words and sets
 * *hwrng_select (malloc'd, NULL if unset). Notes go to @o.
 */
int rngd_compat_defaults_file(const char *path, struct rngd_argv *words, char **hwrng_select,
			      struct rngd_options *o, char err[RNGD_ERR_MAX]);

/* @what (enum rngd_compat_print): --hrng's names and what each becomes,
 * or a peer's options and what each becomes here. */
void rngd_compat_print(FILE *out, int what, const char *prog);

/* rngd/compat.c: one personality's words (no --compat or --defaults-file
 * among them) onto @out as rngd's own options, with notes on what changed
 * meaning; 0 or -errno with @err. */
int rngd_compat_translate_words(struct rngd_argv *out, struct rngd_options *notes, enum rngd_personality p,
				char *const words[], size_t n, char err[RNGD_ERR_MAX]);

/* A hint for a short option @c that personality @p does not know: another
 * personality's (rng-tools 6), or rngd's own (the peers); "" for none. */
void rngd_compat_letter_hint(enum rngd_personality p, char c, char *buf, size_t size);

/* rngd/compat_sources.c: rng-tools' source names, indexes and keys in
 * o->source_args resolved to rngd's sources (called by rngd_compat_load()
 * once the command line is translated); 0, or -errno with @err set
 * (a peer's key whose value means nothing in its own terms). */
int rngd_compat_resolve_sources(struct rngd_options *o, char err[RNGD_ERR_MAX]);

/* -O SRC alone: SRC's keys and their values in @slots, or -EINVAL. */
int rngd_compat_print_keys(FILE *out, const char *name, struct rngd_slot *slots, size_t n,
			   char err[RNGD_ERR_MAX]);

#endif
