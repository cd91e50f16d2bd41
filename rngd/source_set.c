/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips/fips.h"
#include "rngd/credit.h"
#include "rngd/source_set.h"

/* Instances of the file source beyond the first are file.2, file.3, ... */
#define MAX_FILE_SOURCES 16

/*
 * What the options change in a slot: its source and its settings. A build
 * points them into the slots; a reload points them at copies, so that a
 * bad -O changes nothing.
 */
struct slot_view {
	struct rng_source *src;
	struct rngd_slot_settings *set;
};

static struct slot_view view_of(struct rngd_slot *slot)
{
	return (struct slot_view){ rngd_slot_source_mut(slot), rngd_slot_settings(slot) };
}

static bool name_matches(const struct slot_view *s, const char *name)
{
	return strcmp(name, "all") == 0 || strcmp(s->src->name, name) == 0 ||
	       strcmp(s->src->ops->name, name) == 0;
}

/* Split "SRC:KEY:VALUE" (checked well-formed by the option parser). */
static void split_option(const char *text, char *src, size_t srclen, char *key, size_t keylen,
			 const char **value)
{
	const char *c1 = strchr(text, ':');
	const char *c2 = strchr(c1 + 1, ':');

	snprintf(src, srclen, "%.*s", (int)(c1 - text), text);
	snprintf(key, keylen, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	*value = c2 + 1;
}

static bool is_daemon_key(const char *key)
{
	return strcmp(key, "entropy_per_bit") == 0 || strcmp(key, "entropy") == 0 || strcmp(key, "priority") == 0;
}

bool rngd_source_arg_reapplied(const struct rngd_source_arg *a)
{
	char src[64], key[64];
	const char *value;

	if (a->kind != RNGD_SRC_OPTION)
		return false;
	split_option(a->text, src, sizeof(src), key, sizeof(key), &value);
	return is_daemon_key(key);
}

const char *rngd_source_arg_value_of(const struct rngd_source_arg *a, const char *key)
{
	char src[64], k[64];
	const char *value;

	if (a->kind != RNGD_SRC_OPTION)
		return NULL;
	split_option(a->text, src, sizeof(src), k, sizeof(k), &value);
	return strcmp(k, key) == 0 ? value : NULL;
}

/* Keys every source has, kept by the daemon; true if @key was one. */
static int daemon_key(struct slot_view *s, const char *key, const char *value, bool *handled,
		      char err[RNGD_ERR_MAX])
{
	char *end;

	*handled = true;
	if (strcmp(key, "entropy_per_bit") == 0 || strcmp(key, "entropy") == 0) {
		double v;

		errno = 0;
		v = strtod(value, &end);
		if (errno || *end || !credit_entropy_per_bit_valid(v))
			return rngd_fail(err, "-O %s:%s: needs a number 0.0..1.0, not '%s'", s->src->name, key, value);
		/* It would show as 0.000 and earn nothing, yet count as a
		 * credited source (not paced, a file's offset kept). */
		if (v > 0.0 && credit_bits_for(FIPS_BLOCK_BYTES, v) == 0)
			return rngd_fail(err, "-O %s:%s: %s is less than one bit a %d-bit block: 0 for none, or at "
					 "least %g", s->src->name, key, value, FIPS_BLOCK_BITS, 1.0 / FIPS_BLOCK_BITS);
		if (credit_exceeds_fixed(s->src->ops, v))
			return rngd_fail(err, "-O %s:%s: %s's credit is fixed at %.3f and cannot be raised", s->src->name,
				    key, s->src->ops->name, s->src->ops->default_entropy_per_bit);
		s->src->entropy_per_bit = v;
		s->set->credit_explicit = true;
		return 0;
	}
	if (strcmp(key, "priority") == 0) {
		long v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || !value[0] || v < -1000 || v > 1000)
			return rngd_fail(err, "-O %s:priority: needs an integer -1000..1000, not '%s'", s->src->name,
				    value);
		s->src->priority = (int)v;
		return 0;
	}
	*handled = false;
	return 0;
}

static int apply_option(struct slot_view *slots, size_t n, const char *text, bool reapply,
			char err[RNGD_ERR_MAX])
{
	char src[64], key[64];
	const char *value;
	bool matched = false;

	split_option(text, src, sizeof(src), key, sizeof(key), &value);
	/* An instance name ("file.2") wins over a source name ("file"). */
	bool exact = false;

	for (size_t i = 0; i < n; i++)
		if (strcmp(slots[i].src->name, src) == 0)
			exact = true;
	for (size_t i = 0; i < n; i++) {
		struct slot_view *s = &slots[i];
		bool handled;
		int r;

		if (exact ? strcmp(s->src->name, src) != 0 : strcmp(s->src->ops->name, src) != 0)
			continue;
		matched = true;
		r = daemon_key(s, key, value, &handled, err);
		if (r < 0)
			return r;
		if (handled || reapply)
			continue;
		if (!s->src->ops->set_option)
			return rngd_fail(err, "-O %s: source %s has no key '%s'", text, s->src->name, key);
		s->src->why[0] = '\0';
		r = s->src->ops->set_option(s->src, key, value);
		/* The source's own words when it gave a reason. */
		if (r < 0 && s->src->why[0])
			return rngd_fail(err, "-O %s: source %s: %s", text, s->src->name, s->src->why);
		if (r == -EINVAL)
			return rngd_fail(err, "-O %s: source %s: unknown key '%s' or bad value '%s'", text, s->src->name,
				    key, value);
		if (r < 0)
			return rngd_fail(err, "-O %s: %s", text, strerror(-r));
		s->set->explicit = true;
	}
	if (!matched)
		return rngd_fail(err, "-O %s: no source named '%s' (rngd -l lists them)", text, src);
	return 0;
}

/* rng-tools' -e: a ceiling on the defaults, applied before -O so a credit
 * written per source still wins; it never raises one. */
static void cap_credit(const struct rngd_options *o, struct slot_view *slots, size_t n)
{
	if (o->entropy_ceiling < 0.0)
		return;
	for (size_t i = 0; i < n; i++) {
		slots[i].src->credit_ceiling = o->entropy_ceiling;
		if (slots[i].src->entropy_per_bit > o->entropy_ceiling)
			slots[i].src->entropy_per_bit = o->entropy_ceiling;
	}
}

static bool known_name(const struct slot_view *slots, size_t n, const char *name)
{
	if (strcmp(name, "all") == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (name_matches(&slots[i], name))
			return true;
	return false;
}

int rngd_source_set_build(const struct rngd_options *o, struct rngd_slot **out, size_t *n_out,
			  char err[RNGD_ERR_MAX])
{
	size_t n_reg = 0, n_files = 0, n = 0, max;
	struct rngd_slot *slots;
	struct slot_view *views;
	bool registry_file_taken = false;
	int r = 0;

	for (const struct rng_source_ops *const *p = rng_source_registry; *p; p++)
		n_reg++;
	for (size_t i = 0; i < o->n_source_args; i++)
		if (o->source_args[i].kind == RNGD_SRC_FILE)
			n_files++;
	if (n_files > MAX_FILE_SOURCES)
		return rngd_fail(err, "at most %d file sources (-r)", MAX_FILE_SOURCES);
	max = n_reg + n_files;
	slots = rngd_slots_new(max);
	views = calloc(max ? max : 1, sizeof(*views));
	if (!slots || !views) {
		free(views);
		rngd_slots_free(slots, 0);
		return rngd_fail(err, "out of memory");
	}
	for (size_t i = 0; i < max; i++)
		views[i] = view_of(rngd_slot_at(slots, i));

	/* Every compiled-in source is enabled by default; one that cannot
	 * work here is skipped at start with a log line. */
	for (const struct rng_source_ops *const *p = rng_source_registry; *p && r == 0; p++) {
		r = rng_source_init(views[n].src, *p);
		if (r < 0)
			break;
		views[n].set->enabled = true;
		n++;
	}
	if (r < 0) {
		free(views);
		rngd_slots_free(slots, n);
		return rngd_fail(err, "out of memory");
	}
	cap_credit(o, views, n);
	for (size_t i = 0; i < o->n_source_args && r == 0; i++) {
		const struct rngd_source_arg *a = &o->source_args[i];
		struct slot_view *file = NULL;

		switch (a->kind) {
		case RNGD_SRC_FILE:
			/* The first -r fills the registry's "file" instance, later ones add file.N. */
			for (size_t k = 0; k < n && !file && !registry_file_taken; k++)
				if (views[k].src->ops == &rng_source_file_ops)
					file = &views[k];
			registry_file_taken = true;
			if (!file) {
				unsigned int existing = 0;

				for (size_t k = 0; k < n; k++)
					existing += views[k].src->ops == &rng_source_file_ops;
				if (rng_source_init(views[n].src, &rng_source_file_ops) < 0) {
					r = rngd_fail(err, "out of memory");
					break;
				}
				file = &views[n++];
				snprintf(file->src->name, sizeof(file->src->name), "file.%u", existing + 1);
			}
			r = file->src->ops->set_option(file->src, "path", a->text);
			if (r < 0)
				r = rngd_fail(err, "-r %s: bad path", a->text);
			file->set->enabled = true;
			file->set->explicit = true;
			break;
		case RNGD_SRC_EXCLUDE:
		case RNGD_SRC_INCLUDE:
			if (!known_name(views, n, a->text)) {
				r = rngd_fail(err, "-%c %s: no source named '%s' (rngd -l lists them)", a->kind, a->text,
					 a->text);
				break;
			}
			for (size_t k = 0; k < n; k++) {
				if (!name_matches(&views[k], a->text))
					continue;
				views[k].set->enabled = a->kind == RNGD_SRC_INCLUDE;
				if (a->kind == RNGD_SRC_INCLUDE && strcmp(a->text, "all") != 0)
					views[k].set->explicit = true;
			}
			break;
		case RNGD_SRC_OPTION:
			r = apply_option(views, n, a->text, false, err);
			break;
		}
	}
	/*
	 * A credited regular file's read offset outlives the run (rngd.8,
	 * --state-dir): without it, a restart would credit the same bytes
	 * again. A file credited nothing at start is read from its start by
	 * each run (gating a file twice is fine) and, keeping no offset, can
	 * earn no credit until a restart (a SIGHUP cannot raise it). Test mode
	 * (-t) credits nothing anyway and keeps no offset ("dry_run"): a dry
	 * run must not use up the file for the real one.
	 */
	for (size_t k = 0; k < n && r == 0; k++)
		if (views[k].src->ops == &rng_source_file_ops &&
		    credit_entropy_per_bit(views[k].src, views[k].set->credit_explicit, false) > 0 &&
		    (o->test_mode ? views[k].src->ops->set_option(views[k].src, "dry_run", "yes")
				  : views[k].src->ops->set_option(views[k].src, "state_dir",
								  o->state_dir ? o->state_dir
									       : RNGD_DEFAULT_STATE_DIR)) < 0)
			r = rngd_fail(err, "--state-dir %s: too long", o->state_dir);
	free(views);
	if (r < 0) {
		rngd_slots_free(slots, n);
		return r;
	}
	*out = slots;
	*n_out = n;
	return 0;
}

/*
 * A credit set on a source that may credit nothing now (a regular file
 * credited 0 at start keeps no read offset, or lost its record): without
 * a record its bytes could be credited again by the next run, so the
 * credit does not take. Said at every reload that sets one, naming each
 * such source, rather than "configuration reloaded" in silence.
 */
static void note_credit_not_given(const struct rng_source *live, double credit, char *names, size_t len)
{
	size_t used = strlen(names);

	if (credit <= 0.0 || credit_allowed(live) || used >= len - 1)
		return;
	(void)snprintf(names + used, len - used, "%s%s", used ? ", " : "", live->name);
}

int rngd_source_set_reapply(const struct rngd_options *o, struct rngd_slot *slots, size_t n,
			    char err[RNGD_ERR_MAX])
{
	/* A slot's source and settings as the reload would leave them. */
	struct trial {
		struct rng_source src;
		struct rngd_slot_settings set;
	} *next;
	struct slot_view *views;
	char not_given[200] = "";
	int r = 0;

	/*
	 * The new settings are built on trial sources that hold only a
	 * source's name, ops and the daemon's keys, and are committed only
	 * when every -O is valid: a failed reload changes nothing. Nothing
	 * else is copied: the readers still run and write a source's why
	 * (and its priv) as they re-open it, and a reload calls no source's
	 * own set_option(), so a trial has no priv.
	 */
	next = calloc(n ? n : 1, sizeof(*next));
	views = calloc(n ? n : 1, sizeof(*views));
	if (!next || !views) {
		free(next);
		free(views);
		return rngd_fail(err, "out of memory");
	}
	/* Back to the defaults first, so a key removed from the config goes away. */
	for (size_t i = 0; i < n; i++) {
		const struct rng_source *live = rngd_slot_source(rngd_slot_at(slots, i));

		next[i].src.ops = live->ops;
		memcpy(next[i].src.name, live->name, sizeof(next[i].src.name));
		next[i].src.entropy_per_bit = live->ops->default_entropy_per_bit;
		next[i].src.priority = live->ops->default_priority;
		next[i].src.credit_ceiling = 1.0;
		next[i].set.credit_explicit = false;
		views[i] = (struct slot_view){ &next[i].src, &next[i].set };
	}
	cap_credit(o, views, n);
	for (size_t i = 0; i < o->n_source_args && r == 0; i++) {
		if (o->source_args[i].kind != RNGD_SRC_OPTION)
			continue;
		r = apply_option(views, n, o->source_args[i].text, true, err);
	}
	if (r == 0) {
		err[0] = '\0';
		for (size_t i = 0; i < n; i++) {
			struct slot_view live = view_of(rngd_slot_at(slots, i));

			note_credit_not_given(live.src, next[i].src.entropy_per_bit, not_given, sizeof(not_given));
			live.src->entropy_per_bit = next[i].src.entropy_per_bit;
			live.src->credit_ceiling = next[i].src.credit_ceiling;
			live.src->priority = next[i].src.priority;
			live.set->credit_explicit = next[i].set.credit_explicit;
		}
	}
	if (r == 0 && not_given[0])
		(void)snprintf(err, RNGD_ERR_MAX,
			       "%s: the credit set does not take: a regular file credited 0 at start, or whose "
			       "read offset could not be kept, keeps no offset record, so its bytes earn nothing "
			       "until rngd is restarted with the credit set", not_given);
	free(views);
	free(next);
	return r;
}
