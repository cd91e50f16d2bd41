/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "sources/sysstat_parse.h"

/* ---- 1. Lines, tokens and numbers over a bounded buffer ------------------ */

struct cursor {
	const char *p, *end;
};

struct span {
	const char *p;
	size_t len;
};

void sysstat_values_push(struct sysstat_values *vals, uint64_t value)
{
	if (vals->n < vals->cap)
		vals->v[vals->n++] = value;
	else
		vals->dropped++;
}

/* Next line without its newline; false at the end of the buffer. */
static bool next_line(struct cursor *c, struct cursor *line)
{
	const char *nl;

	if (c->p >= c->end)
		return false;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	line->p = c->p;
	line->end = nl ? nl : c->end;
	c->p = nl ? nl + 1 : c->end;
	return true;
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/* Next whitespace-separated token of a line; false when none is left. */
static bool next_token(struct cursor *line, struct span *tok)
{
	while (line->p < line->end && is_blank(*line->p))
		line->p++;
	if (line->p >= line->end)
		return false;
	tok->p = line->p;
	while (line->p < line->end && !is_blank(*line->p))
		line->p++;
	tok->len = (size_t)(line->p - tok->p);
	return true;
}

static bool line_is_empty(struct cursor line)
{
	struct span tok;

	return !next_token(&line, &tok);
}

/* An unsigned decimal that fits 64 bits; false for anything else. */
static bool parse_u64(struct span tok, uint64_t *value)
{
	uint64_t v = 0;

	if (tok.len == 0)
		return false;
	for (size_t i = 0; i < tok.len; i++) {
		unsigned d = (unsigned char)tok.p[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*value = v;
	return true;
}

/* The rest of a line must be numbers; returns how many, or -EINVAL. */
static int numbers_to_end(struct cursor *line, struct sysstat_values *out)
{
	struct span tok;
	uint64_t v;
	int n = 0;

	while (next_token(line, &tok)) {
		if (!parse_u64(tok, &v))
			return -EINVAL;
		sysstat_values_push(out, v);
		n++;
	}
	return n;
}

/* ---- 2. The file formats ------------------------------------------------- */

int sysstat_parse_interrupts(const char *text, size_t len, struct sysstat_values *out)
{
	struct cursor c = { text, text + len }, line;
	struct span tok;
	size_t ncpu = 0;
	int total = 0;

	if (!next_line(&c, &line))
		return -EINVAL;
	while (next_token(&line, &tok)) {
		if (tok.len < 4 || memcmp(tok.p, "CPU", 3) != 0)
			return -EINVAL;
		ncpu++;
	}
	if (ncpu == 0)
		return -EINVAL;
	while (next_line(&c, &line)) {
		uint64_t v;

		if (line_is_empty(line))
			continue;
		if (!next_token(&line, &tok) || tok.p[tok.len - 1] != ':')
			return -EINVAL;
		/* Per-CPU counts, then free text (which may itself hold digits). */
		for (size_t i = 0; i < ncpu && next_token(&line, &tok); i++) {
			if (!parse_u64(tok, &v))
				break;
			sysstat_values_push(out, v);
			total++;
		}
	}
	return total;
}

/*
 * The lines from @c on, each a name and then one or more numbers (just one
 * with @one_each); blank lines are skipped. @skip_name moves a line past
 * its name, false when the line does not begin the way the file's do.
 * Returns how many numbers, or -EINVAL.
 */
static int numbers_after_names(struct cursor c, bool (*skip_name)(struct cursor *line), bool one_each,
			       struct sysstat_values *out)
{
	struct cursor line;
	int total = 0;

	while (next_line(&c, &line)) {
		int n;

		if (line_is_empty(line))
			continue;
		if (!skip_name(&line))
			return -EINVAL;
		n = numbers_to_end(&line, out);
		if (n <= 0 || (one_each && n != 1))
			return -EINVAL;
		total += n;
	}
	return total;
}

/* /proc/stat and /proc/vmstat: a name that is not a number. */
static bool skip_word(struct cursor *line)
{
	struct span tok;
	uint64_t v;

	return next_token(line, &tok) && !parse_u64(tok, &v);
}

/* Lines of "name n n n ..." (with @one_each, "name n"), at least one number. */
static int parse_named_lines(const char *text, size_t len, struct sysstat_values *out, bool one_each)
{
	const struct cursor c = { text, text + len };
	int total = numbers_after_names(c, skip_word, one_each, out);

	return total > 0 ? total : -EINVAL;
}

int sysstat_parse_stat(const char *text, size_t len, struct sysstat_values *out)
{
	return parse_named_lines(text, len, out, false);
}

int sysstat_parse_vmstat(const char *text, size_t len, struct sysstat_values *out)
{
	return parse_named_lines(text, len, out, true);
}

/* /proc/diskstats: "major minor name", the device numbers in decimal. */
static bool skip_device(struct cursor *line)
{
	struct span major, minor, name;
	uint64_t v;

	return next_token(line, &major) && next_token(line, &minor) && next_token(line, &name) &&
	       parse_u64(major, &v) && parse_u64(minor, &v);
}

int sysstat_parse_diskstats(const char *text, size_t len, struct sysstat_values *out)
{
	const struct cursor c = { text, text + len };

	/* A machine without block devices has an empty diskstats. */
	return numbers_after_names(c, skip_device, false, out);
}

/* /proc/net/dev: "iface:". Old kernels glue the first counter to the colon: "eth0:1234". */
static bool skip_interface(struct cursor *line)
{
	const char *colon = memchr(line->p, ':', (size_t)(line->end - line->p));

	if (!colon || colon == line->p)
		return false;
	line->p = colon + 1;
	return true;
}

int sysstat_parse_netdev(const char *text, size_t len, struct sysstat_values *out)
{
	struct cursor c = { text, text + len }, line;

	for (int i = 0; i < 2; i++)
		if (!next_line(&c, &line) || !memchr(line.p, '|', (size_t)(line.end - line.p)))
			return -EINVAL;
	return numbers_after_names(c, skip_interface, false, out);
}

int sysstat_parse_integer(const char *text, size_t len, struct sysstat_values *out)
{
	struct cursor c = { text, text + len }, line;
	struct span tok;
	uint64_t v;
	bool negative;

	if (!next_line(&c, &line) || !next_token(&line, &tok))
		return -EINVAL;
	negative = tok.p[0] == '-';
	if (negative) {
		tok.p++;
		tok.len--;
	}
	if (!parse_u64(tok, &v) || next_token(&line, &tok) || c.p != c.end)
		return -EINVAL;
	/* Two's complement keeps -5 and 5 distinct in the hash. */
	sysstat_values_push(out, negative ? (uint64_t)0 - v : v);
	return 1;
}
