/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The config file (rngd.conf(5)): `key = value` lines whose keys are the
 * long option names; blank lines and lines starting with # are ignored.
 * The first bad line stops the load with "PATH:LINE: why".
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rngd/options.h"

#define CONFIG_LINE_MAX 4096

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

int rngd_config_load(struct rngd_options *o, const char *path, bool must_exist,
		     char err[RNGD_ERR_MAX])
{
	char line[CONFIG_LINE_MAX + 2];
	char why[RNGD_ERR_MAX];
	unsigned int lineno = 0;
	FILE *f;
	int r = 0;

	f = fopen(path, "re");
	if (!f) {
		r = -errno;
		if (r == -ENOENT && !must_exist)
			return 0;
		snprintf(err, RNGD_ERR_MAX, "%s: %s", path, strerror(-r));
		return r;
	}
	while (fgets(line, sizeof(line), f)) {
		char *key, *value, *eq;
		size_t len = strlen(line);

		lineno++;
		if (len > CONFIG_LINE_MAX && line[len - 1] != '\n') {
			snprintf(err, RNGD_ERR_MAX, "%s:%u: line longer than %d bytes", path, lineno,
				 CONFIG_LINE_MAX);
			r = -EINVAL;
			break;
		}
		key = trim(line);
		if (!key[0] || key[0] == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			snprintf(err, RNGD_ERR_MAX, "%s:%u: expected 'key = value', got '%.60s'", path,
				 lineno, key);
			r = -EINVAL;
			break;
		}
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
		if (!key[0]) {
			snprintf(err, RNGD_ERR_MAX, "%s:%u: missing key before '='", path, lineno);
			r = -EINVAL;
			break;
		}
		r = rngd_options_set(o, key, value, true, why);
		if (r < 0) {
			snprintf(err, RNGD_ERR_MAX, "%s:%u: %.400s", path, lineno, why);
			break;
		}
	}
	if (r == 0 && ferror(f)) {
		r = -EIO;
		snprintf(err, RNGD_ERR_MAX, "%s: read error", path);
	}
	(void)fclose(f);
	return r;
}
