/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /etc/default/rng-tools-debian, read as data. Debian's init script
 * sources it (`. /etc/default/rng-tools-debian`) and runs
 * `rngd -r $HRNGDEVICE $RNGDOPTIONS` after writing $HRNGSELECT to
 * rng_current. rngd takes the same three variables with the shell's
 * assignment syntax (NAME=word, "double", 'single' quotes, backslash,
 * `export`, # comments) and runs nothing: a value that would need the
 * shell ($, backquote) is refused, any other line is ignored with a note.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "rngd/compat.h"

#define DEFAULTS_LINE_MAX 4096

/* One shell word from *p (quotes removed) into out; 0, or a reason. */
static const char *shell_word(const char **p, char *out, size_t outlen)
{
	const char *s = *p;
	size_t n = 0;

	while (*s && !isspace((unsigned char)*s) && *s != ';') {
		char c = *s++;

		if (c == '#' && n == 0 && s - 1 == *p)
			break;
		if (c == '$' || c == '`')
			return "needs the shell ($ or `): rngd reads this file, it never runs it";
		if (c == '\\') {
			if (!*s || *s == '\n')
				return "a line continuation: write the value on one line";
			c = *s++;
		} else if (c == '\'') {
			while (*s && *s != '\'') {
				if (n + 1 < outlen)
					out[n++] = *s;
				s++;
			}
			if (*s != '\'')
				return "an unterminated ' quote";
			s++;
			continue;
		} else if (c == '"') {
			while (*s && *s != '"') {
				c = *s++;
				if (c == '$' || c == '`')
					return "needs the shell ($ or `): rngd reads this file, it never runs it";
				if (c == '\\' && (*s == '"' || *s == '\\' || *s == '$' || *s == '`'))
					c = *s++;
				if (n + 1 < outlen)
					out[n++] = c;
			}
			if (*s != '"')
				return "an unterminated \" quote";
			s++;
			continue;
		}
		if (n + 1 < outlen)
			out[n++] = c;
	}
	if (n + 1 >= outlen)
		return "a value too long";
	out[n] = '\0';
	*p = s;
	return NULL;
}

/* The init script's unquoted $RNGDOPTIONS: split on blanks, nothing else. */
static int split_words(const char *value, struct rngd_argv *words)
{
	const char *s = value;

	while (*s) {
		const char *start;
		char word[DEFAULTS_LINE_MAX];

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		start = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		snprintf(word, sizeof(word), "%.*s", (int)(s - start), start);
		int r = rngd_argv_push(words, word);

		if (r < 0)
			return r;
	}
	return 0;
}

int rngd_compat_defaults_file(const char *path, struct rngd_argv *words, char **hwrng_select,
			      struct rngd_options *o, char err[RNGD_ERR_MAX])
{
	char device[DEFAULTS_LINE_MAX] = "", options[DEFAULTS_LINE_MAX] = "", select[DEFAULTS_LINE_MAX] = "";
	bool have_device = false, have_select = false;
	char line[DEFAULTS_LINE_MAX + 2];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f) {
		r = -errno;
		rngd_fail(err, "--defaults-file %s: %s", path, strerror(-r));
		return r;
	}
	while (r == 0 && fgets(line, sizeof(line), f)) {
		const char *s = line, *why;
		char name[64], value[DEFAULTS_LINE_MAX];
		size_t len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

		lineno++;
		if (strlen(line) > DEFAULTS_LINE_MAX && !strchr(line, '\n')) {
			r = rngd_fail(err, "%s:%u: line longer than %d bytes", path, lineno, DEFAULTS_LINE_MAX);
			break;
		}
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		if (strncmp(s, "export", 6) == 0 && (s[6] == ' ' || s[6] == '\t'))
			for (s += 6; isspace((unsigned char)*s);)
				s++;
		len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (len == 0 || len >= sizeof(name) || s[len] != '=' || isdigit((unsigned char)s[0])) {
			line[strcspn(line, "\n")] = '\0';
			r = rngd_options_note(o, LOG_WARNING, "%s:%u: not a variable assignment, not run: %.80s", path,
					      lineno, line);
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, s);
		s += len + 1;
		if (strcmp(name, "HRNGDEVICE") != 0 && strcmp(name, "RNGDOPTIONS") != 0 &&
		    strcmp(name, "HRNGSELECT") != 0)
			continue;   /* the init script reads no other variable */
		why = shell_word(&s, value, sizeof(value));
		while (!why && isspace((unsigned char)*s))
			s++;
		if (!why && *s && *s != '#')
			why = "more than one word: quote the value";
		if (why) {
			r = rngd_fail(err, "%s:%u: %s: %s", path, lineno, name, why);
			break;
		}
		if (strcmp(name, "HRNGDEVICE") == 0) {
			snprintf(device, sizeof(device), "%s", value);
			have_device = value[0] != '\0';
		} else if (strcmp(name, "RNGDOPTIONS") == 0) {
			snprintf(options, sizeof(options), "%s", value);
		} else {
			snprintf(select, sizeof(select), "%s", value);
			have_select = value[0] != '\0';
		}
	}
	if (r == 0 && ferror(f))
		r = rngd_fail(err, "%s: read error", path) < 0 ? -EIO : 0;
	(void)fclose(f);
	if (r < 0)
		return r;
	if (have_select && (strchr(select, '/') || strlen(select) >= 64))
		return rngd_fail(err, "%s: HRNGSELECT '%s' is not a hw_random device name", path, select);
	if (have_device) {
		r = rngd_argv_push(words, "--rng-device");
		if (r == 0)
			r = rngd_argv_push(words, device);
	} else {
		r = rngd_options_note(o, LOG_INFO,
				      "%s: no HRNGDEVICE: the hwrng source's /dev/hwrng (the init script would also "
				      "probe /dev/hw_random, /dev/hwrandom, /dev/intel_rng, /dev/i810_rng)", path);
	}
	if (r == 0)
		r = split_words(options, words);
	if (r == 0 && have_select) {
		free(*hwrng_select);
		*hwrng_select = strdup(select);
		if (!*hwrng_select)
			r = -ENOMEM;
	}
	if (r == -ENOMEM)
		rngd_fail(err, "out of memory");
	return r;
}
