/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <string.h>

#include "rngd/argv_scan.h"

void argv_scan_init(struct argv_scan *s, int argc, char *const argv[])
{
	memset(s, 0, sizeof(*s));
	s->argc = argc;
	s->argv = argv;
	s->next = 1;
}

static const struct argv_opt *find_letter(const struct argv_opt *opts, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (opts[i].id == (unsigned char)c)
			return &opts[i];
	return NULL;
}

/* An exact name wins over prefixes; several prefixes are ambiguous. */
static const struct argv_opt *find_long(const struct argv_opt *opts, size_t n, const char *name,
					size_t len, bool *ambiguous)
{
	const struct argv_opt *hit = NULL;

	*ambiguous = false;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(opts[i].name, name, len) != 0)
			continue;
		if (opts[i].name[len] == '\0')
			return &opts[i];
		if (hit)
			*ambiguous = true;
		hit = &opts[i];
	}
	return *ambiguous ? NULL : hit;
}

static int scan_long(struct argv_scan *s, const struct argv_opt *opts, size_t n)
{
	const char *name = s->word + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	bool ambiguous;

	if (len == 0)
		return ARGV_UNKNOWN;       /* "--=value" names nothing */
	s->opt = find_long(opts, n, name, len, &ambiguous);
	if (ambiguous)
		return ARGV_AMBIGUOUS;
	if (!s->opt)
		return ARGV_UNKNOWN;
	if (!s->opt->has_value)
		return eq ? ARGV_NO_VALUE : s->opt->id;
	if (eq) {
		s->value = eq + 1;
		return s->opt->id;
	}
	if (s->next >= s->argc)
		return ARGV_NEEDS_VALUE;
	s->value = s->argv[s->next++];
	return s->opt->id;
}

static int scan_letter(struct argv_scan *s, const struct argv_opt *opts, size_t n)
{
	s->letter = *s->cluster++;
	s->opt = find_letter(opts, n, s->letter);
	if (!*s->cluster)
		s->cluster = NULL;
	if (!s->opt)
		return ARGV_UNKNOWN;
	if (!s->opt->has_value)
		return s->opt->id;
	if (s->cluster) {              /* "-nhwrng" */
		s->value = s->cluster;
		s->cluster = NULL;
		return s->opt->id;
	}
	if (s->next >= s->argc)
		return ARGV_NEEDS_VALUE;
	s->value = s->argv[s->next++];
	return s->opt->id;
}

int argv_scan_next(struct argv_scan *s, const struct argv_opt *opts, size_t n_opts)
{
	s->value = NULL;
	s->opt = NULL;
	s->letter = 0;
	if (s->cluster)
		return scan_letter(s, opts, n_opts);
	if (s->next >= s->argc)
		return ARGV_END;
	s->word = s->argv[s->next];
	if (s->word[0] != '-' || s->word[1] == '\0')
		return ARGV_END;       /* an operand ("-" is one too) */
	s->next++;
	if (s->word[1] == '-') {
		if (s->word[2] == '\0')
			return ARGV_END;       /* "--" */
		return scan_long(s, opts, n_opts);
	}
	s->cluster = s->word + 1;
	return scan_letter(s, opts, n_opts);
}
