/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Options: one table (rngd/options_table.c) gives every setting its long
 * name (also its config file key), its short letter (rng-tools 6
 * compatible where the meaning carries over) and its help line, so the
 * command line, the config file and --help cannot drift apart; this file
 * reads them into struct rngd_options.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "rngd/argv_scan.h"
#include "rngd/options.h"
#include "rngd/options_table.h"
#include "sources/parse_num.h"
#include "sources/source.h"

int rngd_fail(char err[RNGD_ERR_MAX], const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(err, RNGD_ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void rngd_options_init(struct rngd_options *o)
{
	memset(o, 0, sizeof(*o));
	o->take_credit = true;
	o->stats_interval_s = RNGD_DEFAULT_STATS_INTERVAL_S;
	o->watermark_bits = -1;
	o->random_step = RNGD_DEFAULT_RANDOM_STEP;
	o->on_fail = RNGD_ON_FAIL_DROP;
	o->ready_timeout_ms = RNGD_DEFAULT_READY_TIMEOUT_S * 1000u;
	o->open_wait_ms = RNGD_DEFAULT_OPEN_WAIT_S * 1000u;
	o->quarantine_after = RNGD_DEFAULT_QUARANTINE_AFTER;
	o->retest_min_ms = RNGD_DEFAULT_RETEST_AFTER_S * 1000u;
	o->retest_max_ms = RNGD_DEFAULT_RETEST_MAX_S * 1000u;
	o->topup_interval_s = RNGD_DEFAULT_TOPUP_INTERVAL_S;
	o->topup_bytes = RNGD_DEFAULT_TOPUP_BYTES;
	o->egd_socket_mode = RNGD_DEFAULT_EGD_SOCKET_MODE;
	o->egd_rate = RNGD_DEFAULT_EGD_RATE;
	o->egd_burst = RNGD_DEFAULT_EGD_BURST;
	o->egd_clients = RNGD_DEFAULT_EGD_CLIENTS;
	o->egd_prime = RNGD_DEFAULT_EGD_PRIME;
	o->entropy_ceiling = -1.0;
}

int rngd_options_note(struct rngd_options *o, int level, const char *fmt, ...)
{
	struct rngd_note *n = realloc(o->notes, (o->n_notes + 1) * sizeof(*n));
	va_list ap;
	int len;

	if (!n)
		return -ENOMEM;
	o->notes = n;
	va_start(ap, fmt);
	len = vasprintf(&n[o->n_notes].text, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	n[o->n_notes++].level = level;
	return 0;
}

void rngd_options_free(struct rngd_options *o)
{
	free(o->config_path);
	free(o->random_device);
	free(o->pidfile);
	free(o->user);
	free(o->stats_file);
	free(o->hwrng_sysfs);
	free(o->egd_socket);
	free(o->egd_socket_group);
	free(o->state_dir);
	free(o->option_help);
	free(o->hwrng_select);
	for (size_t i = 0; i < o->n_notes; i++)
		free(o->notes[i].text);
	free(o->notes);
	for (size_t i = 0; i < o->n_source_args; i++)
		free(o->source_args[i].text);
	free(o->source_args);
	memset(o, 0, sizeof(*o));
}

/* Seconds with an optional fraction, to milliseconds within [min_ms, max_ms].
 * Decimal only, as the whole numbers are: strtod() alone would take 1e3,
 * 0x10 and inf. */
static int parse_seconds_ms(const char *v, unsigned long min_ms, unsigned long max_ms, unsigned int *out)
{
	size_t digits = strspn(v, "0123456789");
	char *end;
	double s;

	if (v[digits] == '.')
		digits += 1 + strspn(v + digits + 1, "0123456789");
	if (digits != strlen(v) || strcmp(v, ".") == 0 || !v[0])
		return -EINVAL;
	errno = 0;
	s = strtod(v, &end);
	if (errno || *end || !isfinite(s) || s * 1000.0 < (double)min_ms || s * 1000.0 > (double)max_ms)
		return -EINVAL;
	/* Non-negative and bounded by max_ms: round half up without libm. */
	*out = (unsigned int)(s * 1000.0 + 0.5);
	/* Not 0 ("no bound" or "none" for some), but rounded to it. */
	if (*out == 0 && s > 0)
		return -EDOM;
	return 0;
}

/* An option's name as an error shows it: 'key', -s or --name. */
#define OPT_SHOWN_MAX 64

/* @value as a whole number min..max into *field; else the error, @what
 * naming the unit the option needs. */
static int set_uint(unsigned int *field, const char *shown, const char *value, const char *what,
		    unsigned long min, unsigned long max, char err[RNGD_ERR_MAX])
{
	unsigned long n;

	if (rng_parse_uint(value, min, max, &n) < 0)
		return rngd_fail(err, "%s needs %s %lu..%lu, not '%s'", shown, what, min, max, value);
	*field = (unsigned int)n;
	return 0;
}

/* @value as seconds (a fraction allowed) into *field_ms within min_ms..max_ms;
 * else the error. */
static int set_seconds_ms(unsigned int *field_ms, const char *shown, const char *value, unsigned long min_ms,
			  unsigned long max_ms, char err[RNGD_ERR_MAX])
{
	int r = parse_seconds_ms(value, min_ms, max_ms, field_ms);

	if (r == -EDOM)
		return rngd_fail(err, "%s needs 0 or at least 0.001 seconds (a millisecond is its step), not '%s'",
				 shown, value);
	if (r < 0)
		return rngd_fail(err, "%s needs seconds %g..%g, not '%s'", shown, (double)min_ms / 1000.0,
				 (double)max_ms / 1000.0, value);
	return 0;
}

/* A setting of the table's bounded numbers (rngd/options_table.h). */
static int set_number(struct rngd_options *o, const struct opt_number *num, const char *shown, const char *value,
		      char err[RNGD_ERR_MAX])
{
	unsigned int *field = (unsigned int *)((char *)o + num->field);

	if (num->in_ms)
		return set_seconds_ms(field, shown, value, num->min, num->max, err);
	return set_uint(field, shown, value, num->needs, num->min, num->max, err);
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int set_string(char **field, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

/* @value, which must not be empty, into *field; else the error, @what
 * naming what the option needs. */
static int set_nonempty_string(char **field, const char *shown, const char *value, const char *what,
			       char err[RNGD_ERR_MAX])
{
	int r;

	if (!value[0])
		return rngd_fail(err, "%s needs %s", shown, what);
	r = set_string(field, value);
	return r < 0 ? rngd_fail(err, "%s: %s", shown, strerror(-r)) : 0;
}

static int add_source_arg(struct rngd_options *o, enum rngd_source_arg_kind kind, const char *v)
{
	struct rngd_source_arg *a = realloc(o->source_args, (o->n_source_args + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	o->source_args = a;
	a[o->n_source_args].text = strdup(v);
	if (!a[o->n_source_args].text)
		return -ENOMEM;
	a[o->n_source_args].kind = kind;
	o->n_source_args++;
	return 0;
}

/* SRC:KEY:VALUE with non-empty SRC and KEY; VALUE may hold colons (paths). */
static bool source_option_well_formed(const char *v)
{
	const char *c1 = strchr(v, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

	return c1 && c2 && c1 > v && c2 > c1 + 1 && c2[1] != '\0';
}

static bool source_name_well_formed(const char *v)
{
	if (!v[0] || strlen(v) >= 32)
		return false;
	for (const char *p = v; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_' || *p == '.'))
			return false;
	return true;
}

/*
 * @d's setting from @value. @shown is the setting as its errors name it:
 * 'key' in the config file, the option as the command line spelt it
 * (-s, --random-step).
 */
static int set_option(struct rngd_options *o, const struct opt_def *d, const char *shown, const char *value,
		      bool from_config, char err[RNGD_ERR_MAX])
{
	const char *name = d->name;
	const struct opt_number *num = rngd_opt_number(d->id);
	unsigned long n;
	bool flag = true;
	int r = 0;

	if (!d->arg || d->id == OPT_TAKE_CREDIT) {
		/* Flags: bare on the command line, yes/no in the config file. */
		if (from_config) {
			if (!value || parse_bool(value, &flag) < 0)
				return rngd_fail(err, "%s needs yes or no, not '%s'", shown, value ? value : "");
		} else if (value) {
			return rngd_fail(err, "option '--%s' takes no value", name);
		}
	} else if (!value) {
		return rngd_fail(err, "option '--%s' needs a value (%s)", name, d->arg);
	}
	if (!value)
		value = "";   /* flags: never read below, but no path sees NULL */
	if (num)
		return set_number(o, num, shown, value, err);

	switch (d->id) {
	case 'f': o->foreground = flag; break;
	case 'b': o->foreground = !flag; break;
	case 'l': o->list = flag; break;
	case 'v': o->version = flag; break;
	case 'h': o->help = flag; break;
	case 't': o->test_mode = flag; break;
	case 'q': o->quiet = flag; break;
	case 'd': o->debug = flag; break;
	case OPT_NO_TAKE_CREDIT: o->take_credit = false; break;
	case OPT_RESTORE_HWRNG_QUALITY: o->restore_hwrng_quality = flag; break;
	case OPT_TAKE_CREDIT: o->take_credit = flag; break;
	case 'c': r = set_string(&o->config_path, value); break;
	case 'o':
		return set_nonempty_string(&o->random_device, shown, value, "a path or -", err);
	case 'p':
		return set_nonempty_string(&o->pidfile, shown, value, "a path", err);
	case 'D':
		if (!value[0] || value[0] == ':')
			return rngd_fail(err, "%s needs USER or USER:GROUP, not '%s'", shown, value);
		r = set_string(&o->user, value);
		break;
	case OPT_STATS_FILE:
		return set_nonempty_string(&o->stats_file, shown, value, "a path", err);
	case OPT_HWRNG_SYSFS:
		if (value[0] != '/')
			return rngd_fail(err, "%s needs an absolute path, not '%s'", shown, value);
		r = set_string(&o->hwrng_sysfs, value);
		break;
	case OPT_STATE_DIR:
		if (value[0] != '/')
			return rngd_fail(err, "%s needs an absolute path, not '%s'", shown, value);
		r = set_string(&o->state_dir, value);
		break;
	case 'r':
		if (!value[0])
			return rngd_fail(err, "%s needs a path", shown);
		r = add_source_arg(o, RNGD_SRC_FILE, value);
		break;
	case 'x':
	case 'n':
		if (!source_name_well_formed(value))
			return rngd_fail(err, "%s needs a source name, not '%s'", shown, value);
		r = add_source_arg(o, (enum rngd_source_arg_kind)d->id, value);
		break;
	case 'O':
		/* rng-tools: -O SRC alone lists SRC's keys; a config line that
		 * did so would make the daemon print and exit 0. */
		if (!strchr(value, ':') && source_name_well_formed(value)) {
			if (from_config)
				return rngd_fail(err, "%s needs SOURCE:KEY:VALUE, not '%s' (rngd -O %s lists its keys)",
						 shown, value, value);
			r = set_string(&o->option_help, value);
			break;
		}
		if (!source_option_well_formed(value))
			return rngd_fail(err, "%s needs SOURCE:KEY:VALUE, not '%s'", shown, value);
		r = add_source_arg(o, RNGD_SRC_OPTION, value);
		break;
	case 'W':
		if (rng_parse_uint(value, 0, 4096, &n) < 0)
			return rngd_fail(err, "%s needs a number of bits 0..4096, not '%s'", shown, value);
		o->watermark_bits = (int)n;
		break;
	case 'e':
		if (rng_parse_uint(value, 1, 8, &n) < 0)
			return rngd_fail(err, "%s needs bits per byte 1..8, not '%s'", shown, value);
		o->entropy_ceiling = (double)n / 8.0;
		break;
	case 'i':
		o->ignorefail = flag;
		o->on_fail = flag ? RNGD_ON_FAIL_MIX : RNGD_ON_FAIL_DROP;
		break;
	case 'u': o->use_slow_sources = flag; break;
	case OPT_COMPAT:
	case OPT_DEFAULTS_FILE:
		/* Read by rngd_compat_load() before this parser runs; seen here
		 * only by callers that skip it, where they change nothing. */
		break;
	case OPT_ON_FAIL:
		if (strcmp(value, "drop") == 0)
			o->on_fail = RNGD_ON_FAIL_DROP;
		else if (strcmp(value, "mix") == 0)
			o->on_fail = RNGD_ON_FAIL_MIX;
		else
			return rngd_fail(err, "%s needs drop or mix, not '%s'", shown, value);
		break;
	case OPT_EGD_SOCKET:
		if (value[0] != '/' || strlen(value) >= 108)
			return rngd_fail(err, "%s needs an absolute path under 108 bytes, not '%s'", shown, value);
		r = set_string(&o->egd_socket, value);
		break;
	case OPT_EGD_SOCKET_GROUP:
		return set_nonempty_string(&o->egd_socket_group, shown, value, "a group name or number", err);
	case OPT_EGD_SOCKET_MODE: {
		char *end;

		errno = 0;
		n = strtoul(value, &end, 8);
		if (!value[0] || value[0] == '-' || value[0] == '+' || value[0] == ' ' || *end || errno || n > 0777)
			return rngd_fail(err, "%s needs octal permissions 0..0777, not '%s'", shown, value);
		o->egd_socket_mode = (unsigned int)n;
		break;
	}
	default:
		return rngd_fail(err, "unhandled option '%s'", name);
	}
	if (r < 0)
		return rngd_fail(err, "%s: %s", shown, strerror(-r));
	return 0;
}

int rngd_options_set(struct rngd_options *o, const char *name, const char *value,
		     bool from_config, char err[RNGD_ERR_MAX])
{
	const struct opt_def *d = rngd_opt_by_name(name);
	char shown[OPT_SHOWN_MAX];

	if (!d || !(d->where & (from_config ? WHERE_CONFIG : WHERE_CLI)))
		return rngd_fail(err, from_config ? "unknown key '%s'" : "unknown option '--%s'", name);
	(void)snprintf(shown, sizeof(shown), from_config ? "'%s'" : "--%s", name);
	return set_option(o, d, shown, value, from_config, err);
}

int rngd_options_parse_argv(struct rngd_options *o, int argc, char *const argv[],
			    char err[RNGD_ERR_MAX])
{
	struct argv_opt cli[RNGD_OPT_DEFS_MAX];
	struct argv_scan scan;
	size_t n = 0;

	for (size_t i = 0; i < rngd_n_opt_defs; i++)
		if (rngd_opt_defs[i].where & WHERE_CLI)
			cli[n++] = (struct argv_opt){ rngd_opt_defs[i].name, rngd_opt_defs[i].id, rngd_opt_defs[i].arg != NULL };
	argv_scan_init(&scan, argc, argv);
	for (;;) {
		int c = argv_scan_next(&scan, cli, n);
		const struct opt_def *d;
		char shown[OPT_SHOWN_MAX];
		int r;

		if (c == ARGV_END)
			break;
		if (c == ARGV_UNKNOWN && scan.letter)
			return rngd_fail(err, "unknown option '-%c'", scan.letter);
		if (c == ARGV_UNKNOWN)
			return rngd_fail(err, "unknown option '%s'", scan.word);
		if (c == ARGV_AMBIGUOUS)
			return rngd_fail(err, "ambiguous option '%s': a prefix of several options", scan.word);
		d = rngd_opt_by_id(scan.opt->id);
		if (!d)
			return rngd_fail(err, "unknown option");
		if (c == ARGV_NO_VALUE)
			return rngd_fail(err, "option '--%s' takes no value", d->name);
		if (c == ARGV_NEEDS_VALUE && scan.letter)
			return rngd_fail(err, "option '-%c' needs a value (%s)", scan.letter, d->arg);
		if (c == ARGV_NEEDS_VALUE)
			return rngd_fail(err, "option '--%s' needs a value (%s)", d->name, d->arg);
		if (scan.letter)
			(void)snprintf(shown, sizeof(shown), "-%c", scan.letter);
		else
			(void)snprintf(shown, sizeof(shown), "--%s", d->name);
		r = set_option(o, d, shown, scan.value, false, err);
		if (r < 0)
			return r;
	}
	if (scan.next < argc)
		return rngd_fail(err, "unexpected argument '%s'", argv[scan.next]);
	return 0;
}

int rngd_options_load(struct rngd_options *o, int argc, char *const argv[],
		      char err[RNGD_ERR_MAX])
{
	struct rngd_options first;
	const char *path;
	bool explicit;
	int r;

	/* Whatever the result, @o is for rngd_options_free(): a reload frees
	 * what a failed load left (it freed stack garbage when the first
	 * pass failed, a Debian defaults file's RNGDOPTIONS edited). */
	rngd_options_init(o);
	/* A first pass finds -c and reports command line errors before the file's. */
	rngd_options_init(&first);
	r = rngd_options_parse_argv(&first, argc, argv, err);
	if (r < 0) {
		rngd_options_free(&first);
		return r;
	}
	if (first.restore_hwrng_quality && (first.list || first.test_mode)) {
		const char *mode = first.list ? "-l" : "-t";

		rngd_options_free(&first);
		return rngd_fail(err, "--restore-hwrng-quality does that alone: not with %s", mode);
	}
	if (first.list || first.version || first.help) {
		rngd_options_free(&first);
		return rngd_options_parse_argv(o, argc, argv, err);
	}
	explicit = first.config_path != NULL;
	path = explicit ? first.config_path : RNGD_DEFAULT_CONFIG;
	r = rngd_config_load(o, path, explicit, err);
	if (r < 0 && first.restore_hwrng_quality) {
		/* A file edited wrong since rngd started must not keep a killed
		 * rngd's 0 in rng_quality: the command line's settings and the
		 * defaults then, and the file's error said. */
		rngd_options_free(o);
		rngd_options_init(o);
		r = rngd_options_note(o, LOG_WARNING, "%s; --restore-hwrng-quality goes on without the file", err);
	}
	rngd_options_free(&first);
	if (r < 0)
		return r;
	return rngd_options_parse_argv(o, argc, argv, err);
}
