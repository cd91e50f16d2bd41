/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /etc/default/rng-tools-debian, read as data. Debian's init script
 * sources it (`. /etc/default/rng-tools-debian`) and runs
 * `rngd -r $HRNGDEVICE $RNGDOPTIONS` after writing $HRNGSELECT to
 * rng_current. rngd takes the same three variables with the shell's
 * assignment syntax (NAME=word, "double" and 'single' quotes that may
 * span lines, backslash and backslash-newline, `export` and `readonly`, several
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
#include "rngd/file_kind.h"
#include "sources/read_full.h"

#define DEFAULTS_VALUE_MAX 4096
/* The file is read whole: a value's quotes may span lines. */
#define DEFAULTS_FILE_MAX ((size_t)64 * 1024)

static const char needs_shell[] = "needs the shell ($, `, ~, &, |, <, >, ( or )): rngd reads this file, it never runs it";

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
	const char *start = c->s;
	size_t n = 0;
	bool too_long = false;

	while (!ends_word(*c->s)) {
		/* sh expands an unquoted ~ that starts an assignment's value or
		 * follows one of its colons (a home folder). */
		bool tilde_expands = c->s == start || c->s[-1] == ':';
		char ch = *c->s++;

		if (ch == '$' || ch == '`' || strchr("&|<>()", ch) || (ch == '~' && tilde_expands))
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

#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

/* Length of NAME in "NAME=" at @s, or 0 if @s is not an assignment. */
static size_t assignment_name(const char *s)
{
	size_t len = strspn(s, NAME_CHARS);

	return len > 0 && s[len] == '=' && !isdigit((unsigned char)s[0]) ? len : 0;
}

/* The length of a name alone (`export HRNGDEVICE`), or 0. */
static size_t bare_name(const char *s)
{
	size_t len = strspn(s, NAME_CHARS);

	/* Not before a backslash: sh joins "NAME\<newline>X" into one word. */
	return len > 0 && !isdigit((unsigned char)s[0]) && (s[len] == ' ' || s[len] == '\t' || ends_command(s[len])) ?
	       len : 0;
}

/* @s starts with the word @word: a blank follows it. */
static bool starts_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	return strncmp(s, word, n) == 0 && (s[n] == ' ' || s[n] == '\t');
}

/* sh's default IFS: a CR or a form feed is part of a word. */
#define IFS " \t\n"

/* The init script's unquoted $RNGDOPTIONS: split on IFS, nothing else. */
static int split_words(const char *value, struct rngd_argv *words)
{
	const char *s = value;

	while (*s) {
		const char *start;
		char word[DEFAULTS_VALUE_MAX];

		s += strspn(s, IFS);
		if (!*s)
			break;
		start = s;
		s += strcspn(s, IFS);
		snprintf(word, sizeof(word), "%.*s", (int)(s - start), start);
		int r = rngd_argv_push(words, word);

		if (r < 0)
			return r;
	}
	return 0;
}

/* The variables the init script reads; no other is kept. */
static const char *const read_vars[] = { "HRNGDEVICE", "RNGDOPTIONS", "HRNGSELECT" };

/* @name as one of read_vars (a string that outlives @name), or NULL. */
static const char *read_var(const char *name)
{
	for (size_t i = 0; i < sizeof(read_vars) / sizeof(read_vars[0]); i++)
		if (strcmp(name, read_vars[i]) == 0)
			return read_vars[i];
	return NULL;
}

/* The three values the init script uses, as the file leaves them. */
struct defaults {
	char device[DEFAULTS_VALUE_MAX], options[DEFAULTS_VALUE_MAX], select[DEFAULTS_VALUE_MAX];
	bool have_device, have_select;
	unsigned int passed_over_line; /* the first line rngd did not run, or 0 */
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

/* The first of the three variables named in @s's first @len bytes, or NULL. */
static const char *names_a_read_variable(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(read_vars) / sizeof(read_vars[0]); i++) {
		size_t n = strlen(read_vars[i]);

		for (const char *p = s; p + n <= s + len; p++)
			if (memcmp(p, read_vars[i], n) == 0)
				return read_vars[i];
	}
	return NULL;
}

/*
 * Text rngd passes over without running (a command, or the rest of a line
 * whose value needs the shell), from @c to the end of its line. Noted;
 * refused when it names one of the three variables (`unset HRNGDEVICE`,
 * `FOO=$X; HRNGDEVICE=...`): rngd cannot tell what sh would leave in
 * them. A later assignment to one is refused too (parse_command()).
 */
static int pass_over(struct cursor *c, struct defaults *d, const char *line_start, unsigned int line,
		     const char *path, struct rngd_options *o, char err[RNGD_ERR_MAX])
{
	size_t len = strcspn(c->s, "\n"), shown = strcspn(line_start, "\n");
	const char *named = names_a_read_variable(c->s, len);

	c->s += len;
	if (shown > 80)
		shown = 80;
	if (named)
		return rngd_fail(err, "%s:%u: %s: in a line rngd does not run (%.*s): it cannot tell what sh would "
				 "leave in it", path, line, named, (int)shown, line_start);
	if (!d->passed_over_line)
		d->passed_over_line = line;
	return rngd_options_note(o, LOG_WARNING, "%s:%u: not a variable assignment, not run: %.*s", path, line,
				 (int)shown, line_start);
}

/*
 * One command at @c: assignments (NAME=word ..., after an optional
 * `export` or `readonly`, which may also name a variable alone) kept in
 * @d; anything else is passed over (pass_over()). The command ends at a
 * newline, `;` or a comment.
 */
static int parse_command(struct cursor *c, struct defaults *d, const char *path, struct rngd_options *o,
			 char err[RNGD_ERR_MAX])
{
	const char *line_start = c->s;
	const char *last = NULL;
	char value[DEFAULTS_VALUE_MAX];
	unsigned int line = c->line;
	bool declaration = starts_word(c->s, "export") || starts_word(c->s, "readonly");

	if (declaration) {
		c->s += strcspn(c->s, " \t");
		skip_blanks(c);
	}
	while (!ends_command(*c->s)) {
		size_t len = assignment_name(c->s);
		const char *why;
		char name[64];

		/* `export NAME`, `readonly NAME`: sh leaves the value as it was. */
		if (len == 0 && declaration && bare_name(c->s)) {
			c->s += bare_name(c->s);
			skip_blanks(c);
			continue;
		}
		if (len == 0 && !last)
			return pass_over(c, d, line_start, line, path, o, err);
		if (len == 0)
			return rngd_fail(err, "%s:%u: %s: more than one word: quote the value (a command after an "
					 "assignment is not run)", path, line, last);
		/* A longer name is none of the three: its value is passed over. */
		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : 0), c->s);
		c->s += len + 1;
		why = shell_word(c, value, sizeof(value));
		if (why && !read_var(name))
			return pass_over(c, d, line_start, line, path, o, err);
		if (why)
			return rngd_fail(err, "%s:%u: %s: %s", path, line, name, why);
		/* After a command sh runs and rngd does not (an `if`, a
		 * here-document, a function): the value may not be sh's. */
		if (read_var(name) && d->passed_over_line)
			return rngd_fail(err, "%s:%u: %s: set after line %u, which rngd does not run: it cannot tell "
					 "whether sh would take this value", path, line, name, d->passed_over_line);
		keep(d, name, value);
		last = read_var(name) ? read_var(name) : "a variable";
		skip_blanks(c);
	}
	return 0;
}

/* A file edited on Windows: its CRs would end up in HRNGDEVICE (a device
 * never there) and in messages. Line ends only: sh would keep them all,
 * and its init script would fail where rngd reads the values. */
static void crlf_to_lf(char *text)
{
	char *out = text;

	for (const char *in = text; *in; in++)
		if (!(in[0] == '\r' && in[1] == '\n'))
			*out++ = *in;
	*out = '\0';
}

/* The whole file, NUL-terminated, in a buffer of its own; 0 or -errno.
 * Only a regular file (or /dev/null) is opened: a FIFO nobody writes
 * would hold the start, or a SIGHUP, for ever. */
static int read_whole(const char *path, char **text, char err[RNGD_ERR_MAX])
{
	char why[RNGD_ERR_MAX];
	struct stat st;
	ssize_t n;
	int fd, r = 0;

	*text = NULL;
	fd = file_kind_open_settings(path, "defaults file", &st, why, sizeof(why));
	if (fd < 0) {
		rngd_fail(err, "--defaults-file %s", why);
		return fd;
	}
	*text = malloc(DEFAULTS_FILE_MAX + 1);
	if (!*text) {
		(void)close(fd);
		return -ENOMEM;
	}
	n = rng_read_full(fd, *text, DEFAULTS_FILE_MAX + 1);
	(void)close(fd);
	if (n < 0) {
		r = (int)n;
		rngd_fail(err, "--defaults-file %s: %s", path, strerror(-r));
	} else if ((size_t)n > DEFAULTS_FILE_MAX)
		r = rngd_fail(err, "%s: larger than %zu bytes", path, DEFAULTS_FILE_MAX);
	else if (memchr(*text, '\0', (size_t)n))
		r = rngd_fail(err, "%s: holds a NUL byte: not a shell file", path);
	if (r < 0) {
		free(*text);
		*text = NULL;
		return r;
	}
	(*text)[n] = '\0';
	crlf_to_lf(*text);
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
