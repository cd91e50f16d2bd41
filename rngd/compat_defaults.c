/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /etc/default/rng-tools-debian, read as data. Debian's init script
 * sources it (`. /etc/default/rng-tools-debian`) and runs
 * `rngd -r $HRNGDEVICE $RNGDOPTIONS` after writing $HRNGSELECT to
 * rng_current. rngd takes the same three variables with the shell's
 * assignment syntax (NAME=word, "double" and 'single' quotes that may
 * span lines, backslash and backslash-newline, `export`, several
 * assignments on a line or after `;`, # comments) and runs nothing: a
 * value that would need the shell ($, backquote, & | < > ( )) is refused,
 * any other command is ignored with a note.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "rngd/compat.h"

#define DEFAULTS_VALUE_MAX 4096
/* The file is read whole: a value's quotes may span lines. */
#define DEFAULTS_FILE_MAX ((size_t)64 * 1024)

static const char needs_shell[] = "needs the shell ($, `, &, |, <, >, ( or )): rngd reads this file, it never runs it";

/* Where the parse is: the text left and the line it is on. */
struct cursor {
	const char *s;
	unsigned int line;
};

/* Past blanks and backslash-newline continuations, as the shell skips
 * them between words. */
static void skip_blanks(struct cursor *c)
{
	for (;;) {
		if (*c->s == ' ' || *c->s == '\t') {
			c->s++;
		} else if (c->s[0] == '\\' && c->s[1] == '\n') {
			c->s += 2;
			c->line++;
		} else {
			return;
		}
	}
}

static bool ends_word(char ch)
{
	return ch == '\0' || ch == ' ' || ch == '\t' || ch == '\n' || ch == ';';
}

static bool ends_command(char ch)
{
	return ch == '\0' || ch == '\n' || ch == ';' || ch == '#';
}

/* Appends @ch unless @out is full (then too_long is set). */
static void put(char *out, size_t outlen, size_t *n, char ch, bool *too_long)
{
	if (*n + 1 < outlen)
		out[(*n)++] = ch;
	else
		*too_long = true;
}

/*
 * One shell word at @c (quotes and escapes removed) into @out; NULL, or a
 * reason. 'single' quotes keep all, newlines too; "double" ones let \
 * escape " \ $ ` and join lines at a backslash-newline, as outside quotes.
 */
static const char *shell_word(struct cursor *c, char *out, size_t outlen)
{
	size_t n = 0;
	bool too_long = false;

	while (!ends_word(*c->s)) {
		char ch = *c->s++;

		if (ch == '$' || ch == '`' || strchr("&|<>()", ch))
			return needs_shell;
		if (ch == '\\') {
			if (*c->s == '\0')
				return "a backslash at the end of the file";
			ch = *c->s++;
			if (ch == '\n') {
				c->line++;
				continue;
			}
		} else if (ch == '\'') {
			while (*c->s && *c->s != '\'') {
				c->line += *c->s == '\n';
				put(out, outlen, &n, *c->s++, &too_long);
			}
			if (*c->s != '\'')
				return "an unterminated ' quote";
			c->s++;
			continue;
		} else if (ch == '"') {
			while (*c->s && *c->s != '"') {
				ch = *c->s++;
				if (ch == '$' || ch == '`')
					return needs_shell;
				if (ch == '\\' && c->s[0] == '\n') {
					c->s++;
					c->line++;
					continue;
				}
				if (ch == '\\' && (*c->s == '"' || *c->s == '\\' || *c->s == '$' || *c->s == '`'))
					ch = *c->s++;
				c->line += ch == '\n';
				put(out, outlen, &n, ch, &too_long);
			}
			if (*c->s != '"')
				return "an unterminated \" quote";
			c->s++;
			continue;
		}
		put(out, outlen, &n, ch, &too_long);
	}
	if (too_long)
		return "a value too long";
	out[n] = '\0';
	return NULL;
}

/* Length of NAME in "NAME=" at @s, or 0 if @s is not an assignment. */
static size_t assignment_name(const char *s)
{
	size_t len = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

	return len > 0 && s[len] == '=' && !isdigit((unsigned char)s[0]) ? len : 0;
}

/* The init script's unquoted $RNGDOPTIONS: split on blanks, nothing else. */
static int split_words(const char *value, struct rngd_argv *words)
{
	const char *s = value;

	while (*s) {
		const char *start;
		char word[DEFAULTS_VALUE_MAX];

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

static bool is_read(const char *name)
{
	return strcmp(name, "HRNGDEVICE") == 0 || strcmp(name, "RNGDOPTIONS") == 0 || strcmp(name, "HRNGSELECT") == 0;
}

/* The three values the init script uses, as the file leaves them. */
struct defaults {
	char device[DEFAULTS_VALUE_MAX], options[DEFAULTS_VALUE_MAX], select[DEFAULTS_VALUE_MAX];
	bool have_device, have_select;
};

static void keep(struct defaults *d, const char *name, const char *value)
{
	if (strcmp(name, "HRNGDEVICE") == 0) {
		snprintf(d->device, sizeof(d->device), "%s", value);
		d->have_device = value[0] != '\0';
	} else if (strcmp(name, "RNGDOPTIONS") == 0) {
		snprintf(d->options, sizeof(d->options), "%s", value);
	} else if (strcmp(name, "HRNGSELECT") == 0) {
		snprintf(d->select, sizeof(d->select), "%s", value);
		d->have_select = value[0] != '\0';
	}   /* the init script reads no other variable */
}

/*
 * One command at @c: assignments (NAME=word ..., after an optional
 * `export`) kept in @d; anything else is not run and costs a note. The
 * command ends at a newline, `;` or a comment.
 */
static int parse_command(struct cursor *c, struct defaults *d, const char *path, struct rngd_options *o,
			 char err[RNGD_ERR_MAX])
{
	const char *line_start = c->s;
	const char *last = NULL;
	char name[64], last_name[64], value[DEFAULTS_VALUE_MAX];
	unsigned int line = c->line;

	if (strncmp(c->s, "export", 6) == 0 && (c->s[6] == ' ' || c->s[6] == '\t')) {
		c->s += 6;
		skip_blanks(c);
	}
	while (!ends_command(*c->s)) {
		size_t len = assignment_name(c->s);
		const char *why;

		if (len == 0 && !last) {
			size_t shown = strcspn(line_start, "\n");

			c->s = line_start + shown;
			return rngd_options_note(o, LOG_WARNING, "%s:%u: not a variable assignment, not run: %.*s", path,
						 line, (int)(shown > 80 ? 80 : shown), line_start);
		}
		if (len == 0 || len >= sizeof(name))
			return rngd_fail(err, "%s:%u: %s: more than one word: quote the value", path, line,
					 last ? last : "a name");
		snprintf(name, sizeof(name), "%.*s", (int)len, c->s);
		c->s += len + 1;
		why = shell_word(c, value, sizeof(value));
		if (why && !is_read(name)) {
			/* The init script reads no other variable: whatever it
			 * holds, the rest of its line is passed over. */
			c->s += strcspn(c->s, "\n");
			return 0;
		}
		if (why)
			return rngd_fail(err, "%s:%u: %s: %s", path, line, name, why);
		keep(d, name, value);
		snprintf(last_name, sizeof(last_name), "%s", name);
		last = last_name;
		skip_blanks(c);
	}
	return 0;
}

/* The whole file, NUL-terminated, in a buffer of its own; 0 or -errno. */
static int read_whole(const char *path, char **text, char err[RNGD_ERR_MAX])
{
	FILE *f = fopen(path, "re");
	size_t n;
	int r = 0;

	*text = NULL;
	if (!f) {
		r = -errno;
		rngd_fail(err, "--defaults-file %s: %s", path, strerror(-r));
		return r;
	}
	*text = malloc(DEFAULTS_FILE_MAX + 1);
	if (!*text) {
		(void)fclose(f);
		return -ENOMEM;
	}
	n = fread(*text, 1, DEFAULTS_FILE_MAX + 1, f);
	if (ferror(f)) {
		rngd_fail(err, "%s: read error", path);
		r = -EIO;
	} else if (n > DEFAULTS_FILE_MAX)
		r = rngd_fail(err, "%s: larger than %zu bytes", path, DEFAULTS_FILE_MAX);
	else if (memchr(*text, '\0', n))
		r = rngd_fail(err, "%s: holds a NUL byte: not a shell file", path);
	(void)fclose(f);
	if (r < 0) {
		free(*text);
		*text = NULL;
		return r;
	}
	(*text)[n] = '\0';
	return 0;
}

int rngd_compat_defaults_file(const char *path, struct rngd_argv *words, char **hwrng_select,
			      struct rngd_options *o, char err[RNGD_ERR_MAX])
{
	struct defaults *d = calloc(1, sizeof(*d));
	struct cursor c = { .line = 1 };
	char *text = NULL;
	int r;

	if (!d) {
		rngd_fail(err, "out of memory");
		return -ENOMEM;
	}
	r = read_whole(path, &text, err);
	c.s = text;
	while (r == 0 && text && *c.s) {
		skip_blanks(&c);
		if (*c.s == '\n') {
			c.line++;
			c.s++;
		} else if (*c.s == ';') {
			c.s++;
		} else if (*c.s == '#') {
			c.s += strcspn(c.s, "\n");
		} else if (*c.s) {
			r = parse_command(&c, d, path, o, err);
		}
	}
	free(text);
	if (r == 0 && d->have_select && (strchr(d->select, '/') || strlen(d->select) >= 64))
		r = rngd_fail(err, "%s: HRNGSELECT '%s' is not a hw_random device name", path, d->select);
	if (r == 0 && d->have_device) {
		r = rngd_argv_push(words, "--rng-device");
		if (r == 0)
			r = rngd_argv_push(words, d->device);
	} else if (r == 0) {
		r = rngd_options_note(o, LOG_INFO,
				      "%s: no HRNGDEVICE: the hwrng source's /dev/hwrng (the init script would also "
				      "probe /dev/hw_random, /dev/hwrandom, /dev/intel_rng, /dev/i810_rng)", path);
	}
	if (r == 0)
		r = split_words(d->options, words);
	if (r == 0 && d->have_select) {
		free(*hwrng_select);
		*hwrng_select = strdup(d->select);
		if (!*hwrng_select)
			r = -ENOMEM;
	}
	free(d);
	if (r == -ENOMEM)
		rngd_fail(err, "out of memory");
	return r;
}
