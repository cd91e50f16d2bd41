/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading the options as a peer's user wrote them (rngd/compat.h): the
 * personality (--compat, the program name), --defaults-file, the words
 * translated by the personality's tables (rngd/compat.c), rngd's own
 * parser and config file (rngd/options.c), then rng-tools' source names
 * resolved (rngd/compat_sources.c) and the notes on changed meanings.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "rngd/compat.h"
#include "rngd/options_table.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int personality_by_name(const char *name, enum rngd_personality *p)
{
	if (strcmp(name, "rng-tools") == 0 || strcmp(name, "rng-tools6") == 0)
		*p = RNGD_PERSONALITY_RNG_TOOLS;
	else if (strcmp(name, "debian") == 0 || strcmp(name, "rng-tools-debian") == 0)
		*p = RNGD_PERSONALITY_DEBIAN;
	else if (strcmp(name, "rng-tools5") == 0)
		*p = RNGD_PERSONALITY_RNG_TOOLS5;
	else
		return -EINVAL;
	return 0;
}

/* @given (@len bytes) is --NAME or a prefix of it that names no other
 * option of rngd's, as rngd's own parser takes long options. */
static bool names_option(const char *given, size_t len, const char *name)
{
	size_t hits = 0;

	if (len == 0 || strncmp(given, name, len) != 0)
		return false;
	if (name[len] == '\0')
		return true;
	for (size_t k = 0; k < rngd_n_opt_defs; k++)
		hits += strncmp(rngd_opt_defs[k].name, given, len) == 0;
	return hits == 1;
}

/* "--NAME=VALUE" or "--NAME VALUE" at argv[*i]: the value, *i advanced. */
static const char *long_value(int argc, char *const argv[], int *i, const char *name, bool *missing)
{
	const char *w = argv[*i];
	const char *eq;
	size_t len;

	*missing = false;
	if (strncmp(w, "--", 2) != 0)
		return NULL;
	eq = strchr(w + 2, '=');
	len = eq ? (size_t)(eq - (w + 2)) : strlen(w + 2);
	if (!names_option(w + 2, len, name))
		return NULL;
	if (eq)
		return eq + 1;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

/*
 * A "--" in RNGDOPTIONS: the peer's command line ends with them, so one
 * last ends nothing and goes; words after it would be the peer's
 * operands, which it has none of. (Left in, it would end the options of
 * rngd's own command line that follows.) A "--" that is an option's value
 * ("-p --", a pid file named so) is taken for the end too.
 */
static int end_at_double_dash(struct rngd_argv *w, const char *path, char err[RNGD_ERR_MAX])
{
	for (size_t i = 0; i < w->n; i++) {
		if (strcmp(w->v[i], "--") != 0)
			continue;
		if (i + 1 < w->n)
			return rngd_fail(err, "%s: RNGDOPTIONS: unexpected argument '%.200s' after '--'", path,
					 w->v[i + 1]);
		free(w->v[i]);
		w->v[i] = NULL;
		w->n = i;
		break;
	}
	return 0;
}

/* rngd's words in @w parsed on their own: 0, or their first error. */
static int check_alone(const struct rngd_argv *w, char err[RNGD_ERR_MAX])
{
	struct rngd_options alone;
	int r;

	rngd_options_init(&alone);
	r = rngd_options_parse_argv(&alone, (int)w->n, w->v, err);
	rngd_options_free(&alone);
	return r;
}

/* Step 1: personality, --defaults-file and the peer's words to rngd's. */
static int translate(struct rngd_argv *out, struct rngd_options *notes, char **hwrng_select,
		     enum rngd_personality *personality, int argc, char *const argv[], char err[RNGD_ERR_MAX])
{
	enum rngd_personality p = RNGD_PERSONALITY_RNG_TOOLS;
	struct rngd_argv words = { 0 }, defaults = { 0 };
	bool chosen = false, missing;
	const char *defaults_path = NULL;
	int r = 0;

	if (argc > 0) {
		const char *prog = base_name(argv[0]);

		if (strcmp(prog, "rngd-debian") == 0)
			p = RNGD_PERSONALITY_DEBIAN, chosen = true;
		else if (strcmp(prog, "rngd5") == 0)
			p = RNGD_PERSONALITY_RNG_TOOLS5, chosen = true;
	}
	r = rngd_argv_push(out, argc > 0 ? argv[0] : "rngd");
	/* --compat and --defaults-file are read first, wherever they stand. */
	for (int i = 1; i < argc && r == 0; i++) {
		const char *v;

		if (strcmp(argv[i], "--") == 0)
			break;
		if ((v = long_value(argc, argv, &i, "compat", &missing)) || missing) {
			if (missing || personality_by_name(v, &p) < 0)
				r = rngd_fail(err, "--compat needs rng-tools, debian or rng-tools5, not '%s'", v ? v : "");
			chosen = true;
		} else if ((v = long_value(argc, argv, &i, "defaults-file", &missing)) || missing) {
			if (missing || !v[0])
				r = rngd_fail(err, "--defaults-file needs a path");
			defaults_path = v;
		} else {
			r = rngd_argv_push(&words, argv[i]);
		}
	}
	for (int i = 1; i < argc && r == 0; i++)
		if (strcmp(argv[i], "--") == 0)
			for (; i < argc && r == 0; i++)
				r = rngd_argv_push(&words, argv[i]);
	if (r == 0 && defaults_path) {
		/* Its RNGDOPTIONS are rng-tools-debian's, and so is the rest of
		 * the line unless --compat says otherwise. */
		if (!chosen)
			p = RNGD_PERSONALITY_DEBIAN;
		r = rngd_compat_defaults_file(defaults_path, &defaults, hwrng_select, notes, err);
		if (r == 0)
			r = end_at_double_dash(&defaults, defaults_path, err);
		if (r == 0) {
			r = rngd_compat_translate_words(out, notes, RNGD_PERSONALITY_DEBIAN, defaults.v, defaults.n,
							err);
			/* Its words alone (all @out holds yet), so that a bad value
			 * is told with the file it is in, not as the command line's. */
			if (r == 0)
				r = check_alone(out, err);
			if (r < 0 && !strstr(err, defaults_path)) {
				char why[RNGD_ERR_MAX];

				snprintf(why, sizeof(why), "%s", err);
				rngd_fail(err, "%s: RNGDOPTIONS: %.400s", defaults_path, why);
			}
		}
	}
	if (r == 0)
		r = rngd_compat_translate_words(out, notes, p, words.v, words.n, err);
	*personality = p;
	rngd_argv_free(&words);
	rngd_argv_free(&defaults);
	return r;
}

int rngd_compat_load(struct rngd_options *o, int argc, char *const argv[], char err[RNGD_ERR_MAX])
{
	struct rngd_argv native = { 0 };
	struct rngd_options notes;
	enum rngd_personality p = RNGD_PERSONALITY_RNG_TOOLS;
	char *hwrng_select = NULL;
	int r;

	rngd_options_init(&notes);
	r = translate(&native, &notes, &hwrng_select, &p, argc, argv, err);
	if (r == 0) {
		r = rngd_options_load(o, (int)native.n, native.v, err);
		/* rng-tools 6's words are rngd's: the letter rngd's parser did
		 * not know may be another peer's. */
		if (r == -EINVAL && p == RNGD_PERSONALITY_RNG_TOOLS && strncmp(err, "unknown option '-", 17) == 0 &&
		    err[17] && err[17] != '-' && strcmp(err + 18, "'") == 0) {
			char hint[128];

			rngd_compat_letter_hint(p, err[17], hint, sizeof(hint));
			if (hint[0])
				rngd_fail(err, "unknown option '-%c'%s", err[17], hint);
		}
	} else {
		rngd_options_init(o);
		if (r == -ENOMEM)
			rngd_fail(err, "out of memory");
	}
	rngd_argv_free(&native);
	/* The translation's notes first, in the order they were made. */
	for (size_t i = 0; i < notes.n_notes && r == 0; i++)
		r = rngd_options_note(o, notes.notes[i].level, "%s", notes.notes[i].text);
	rngd_options_free(&notes);
	if (r == 0) {
		o->hwrng_select = hwrng_select;
		hwrng_select = NULL;
		r = rngd_compat_resolve_sources(o, err);
	}
	free(hwrng_select);
	if (r == 0 && o->ignorefail)
		r = rngd_options_note(o, LOG_NOTICE, "-i (ignorefail): failed blocks are mixed in with no credit "
			 "(--on-fail=mix), never credited");
	if (r == 0 && o->use_slow_sources)
		r = rngd_options_note(o, LOG_INFO, "-u (use-slow-sources): every source here reads in its own thread, so a "
			 "slow one never holds back another");
	if (r == 0 && o->entropy_ceiling >= 0.0)
		r = rngd_options_note(o, LOG_NOTICE, "-e %.0f: every source's credit capped at %.3f bits per bit; -e never "
			 "raises one", o->entropy_ceiling * 8.0, o->entropy_ceiling);
	if (r == -ENOMEM)
		rngd_fail(err, "out of memory");
	return r;
}
