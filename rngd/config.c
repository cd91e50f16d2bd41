/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The config file (rngd.conf(5)): `key = value` lines whose keys are the
 * long option names; blank lines and lines starting with # are ignored.
 * The first bad line stops the load with "PATH:LINE: why".
 *
 * Only a regular file on a real file system is read, and at most
 * CONFIG_SIZE_MAX bytes of it, so that a mistaken -c (/dev/zero, a FIFO
 * nobody writes, a file under /proc, a huge log) ends at once with one
 * line naming what the path is instead of reading forever. /dev/null is
 * the one exception: "-c /dev/null" has always meant "no config".
 * Files written on other systems load as written: CRLF line ends are
 * spaces like any other, a UTF-8 byte order mark before the first line is
 * skipped; a NUL byte (a binary or UTF-16 file) is an error.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/file_kind.h"
#include "rngd/options.h"
#include "sources/read_full.h"

#define CONFIG_LINE_MAX 4096
/* rngd.conf(5) and rngd(8) FILES: a config file holds at most 1 MiB. */
#define CONFIG_SIZE_MAX (1024 * 1024)
#define UTF8_BOM "\xEF\xBB\xBF"

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/*
 * Open @path if it is a config file: 0 with *fd, 1 for "nothing to read"
 * (/dev/null, or a missing default file), or -errno with err set.
 */
static int open_config(const char *path, bool must_exist, int *fd, char err[RNGD_ERR_MAX])
{
	struct stat st;

	if (!path[0]) {
		snprintf(err, RNGD_ERR_MAX, "the config file name is empty (-c needs a path)");
		return -EINVAL;
	}
	*fd = file_kind_open_settings(path, "config file", &st, err, RNGD_ERR_MAX);
	if (*fd == -ENOENT && !must_exist)
		return 1;
	if (*fd < 0)
		return *fd;
	if (file_kind_is_dev_null(&st)) {
		(void)close(*fd);
		return 1;
	}
	if (st.st_size > CONFIG_SIZE_MAX) {
		snprintf(err, RNGD_ERR_MAX, "%s: is %lld bytes, more than the %d (1 MiB) a config file may hold",
			 path, (long long)st.st_size, CONFIG_SIZE_MAX);
		(void)close(*fd);
		return -EFBIG;
	}
	return 0;
}

/* One line (without its '\n'), numbered @lineno. 0 or -errno with err set. */
static int parse_line(struct rngd_options *o, const char *path, unsigned int lineno, const char *text,
		      size_t len, char err[RNGD_ERR_MAX])
{
	char line[CONFIG_LINE_MAX + 1];
	char why[RNGD_ERR_MAX];
	char *key, *value, *eq;
	int r;

	if (len > CONFIG_LINE_MAX)
		return rngd_fail(err, "%s:%u: line longer than %d bytes", path, lineno, CONFIG_LINE_MAX);
	if (memchr(text, '\0', len))
		return rngd_fail(err, "%s:%u: a NUL byte: a binary or UTF-16 file, not a config file", path,
				 lineno);
	memcpy(line, text, len);
	line[len] = '\0';
	key = trim(line);
	if (!key[0] || key[0] == '#')
		return 0;
	eq = strchr(key, '=');
	if (!eq)
		return rngd_fail(err, "%s:%u: expected 'key = value', got '%.60s'", path, lineno, key);
	*eq = '\0';
	value = trim(eq + 1);
	key = trim(key);
	if (!key[0])
		return rngd_fail(err, "%s:%u: missing key before '='", path, lineno);
	r = rngd_options_set(o, key, value, true, why);
	if (r < 0)
		snprintf(err, RNGD_ERR_MAX, "%s:%u: %.400s", path, lineno, why);
	return r;
}

int rngd_config_load(struct rngd_options *o, const char *path, bool must_exist,
		     char err[RNGD_ERR_MAX])
{
	unsigned int lineno = 0;
	size_t len, off = 0;
	ssize_t got;
	char *text;
	int fd = -1, r;

	r = open_config(path, must_exist, &fd, err);
	if (r != 0)
		return r < 0 ? r : 0;
	o->config_read = true;
	/* One byte more than allowed tells a file that grew past the bound. */
	text = malloc(CONFIG_SIZE_MAX + 1);
	if (!text) {
		(void)close(fd);
		snprintf(err, RNGD_ERR_MAX, "%s: out of memory", path);
		return -ENOMEM;
	}
	got = rng_read_full(fd, text, CONFIG_SIZE_MAX + 1);
	(void)close(fd);
	len = got < 0 ? 0 : (size_t)got;
	if (got < 0) {
		r = (int)got;
		snprintf(err, RNGD_ERR_MAX, "%s: read error: %s", path, strerror(-r));
	} else if (len > CONFIG_SIZE_MAX) {
		snprintf(err, RNGD_ERR_MAX, "%s: more than the %d bytes (1 MiB) a config file may hold", path,
			 CONFIG_SIZE_MAX);
		r = -EFBIG;
	}
	if (r == 0 && len >= sizeof(UTF8_BOM) - 1 && memcmp(text, UTF8_BOM, sizeof(UTF8_BOM) - 1) == 0)
		off = sizeof(UTF8_BOM) - 1;
	while (r == 0 && off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t line_len = nl ? (size_t)(nl - (text + off)) : len - off;

		r = parse_line(o, path, ++lineno, text + off, line_len, err);
		off += line_len + 1;
	}
	free(text);
	return r;
}
