/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Options and config file parsing: values, ranges, error lines, override order. */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"
#include "tests/lib/slurp.h"

#include "rngd/argv_scan.h"
#include "rngd/options.h"
#include "rngd/options_table.h"
#include "tests/lib/test_argv.h"
#include "sources/parse_num.h"

/* Parse "rngd" and the NULL-terminated words after @err. */
static int parse(struct rngd_options *o, char err[RNGD_ERR_MAX], ...)
{
	char *argv[TEST_ARGV_MAX + 2];
	va_list ap;
	int argc;

	va_start(ap, err);
	argc = test_argv_from(argv, "rngd", ap);
	va_end(ap);
	rngd_options_init(o);
	err[0] = '\0';
	return rngd_options_parse_argv(o, argc, argv, err);
}

static void test_init_sets_the_documented_defaults(void **state)
{
	struct rngd_options o;

	(void)state;
	rngd_options_init(&o);
	assert_false(o.foreground);
	assert_true(o.take_credit);
	assert_int_equal(o.on_fail, RNGD_ON_FAIL_DROP);
	assert_int_equal(o.random_step, 2500);
	assert_int_equal(o.watermark_bits, -1);
	assert_int_equal(o.ready_timeout_ms, 5000);
	assert_int_equal(o.open_wait_ms, 5000);
	assert_int_equal(o.quarantine_after, 3);
	assert_int_equal(o.stats_interval_s, 60);
	assert_int_equal(o.topup_interval_s, 60);
	assert_null(o.random_device);
	rngd_options_free(&o);
}

static void test_every_option(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	assert_int_equal(parse(&o, err, "-f", "-r", "/a", "-r", "/b:c", "-x", "hwrng", "-n", "file.2",
			       "-O", "file:path:/x:y", "-W", "100", "-s", "64", "-p", "/run/x.pid", "-D", "rngd:rngd",
			       "-q", "-d", "--on-fail=mix", "--stats-file=/tmp/m", "--stats-interval", "5",
			       "--ready-timeout=0.5", "--no-take-credit", "--retest-after=0.25", "--open-wait=0", NULL),
			 0);
	assert_true(o.foreground);
	assert_true(o.quiet);
	assert_true(o.debug);
	assert_false(o.take_credit);
	assert_int_equal(o.watermark_bits, 100);
	assert_int_equal(o.random_step, 64);
	assert_string_equal(o.pidfile, "/run/x.pid");
	assert_string_equal(o.user, "rngd:rngd");
	assert_int_equal(o.on_fail, RNGD_ON_FAIL_MIX);
	assert_string_equal(o.stats_file, "/tmp/m");
	assert_int_equal(o.stats_interval_s, 5);
	assert_int_equal(o.ready_timeout_ms, 500);
	assert_int_equal(o.retest_min_ms, 250);
	assert_int_equal(o.open_wait_ms, 0);
	/* Source arguments keep their order; a path may hold colons. */
	assert_int_equal(o.n_source_args, 5);
	assert_int_equal(o.source_args[0].kind, RNGD_SRC_FILE);
	assert_string_equal(o.source_args[1].text, "/b:c");
	assert_int_equal(o.source_args[2].kind, RNGD_SRC_EXCLUDE);
	assert_int_equal(o.source_args[3].kind, RNGD_SRC_INCLUDE);
	assert_int_equal(o.source_args[4].kind, RNGD_SRC_OPTION);
	assert_string_equal(o.source_args[4].text, "file:path:/x:y");
	rngd_options_free(&o);
}

static void test_background_after_foreground(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	assert_int_equal(parse(&o, err, "-f", "-b", NULL), 0);
	assert_false(o.foreground);
	rngd_options_free(&o);
}

struct bad_case {
	const char *opt, *val, *msg;
};

static void test_bad_values(void **state)
{
	static const struct bad_case cases[] = {
		{ "-W", "4097", "needs a number of bits 0..4096" },
		{ "-W", "-1", "needs a number of bits" },
		{ "-W", "12abc", "needs a number of bits" },
		{ "-W", "", "needs a number of bits" },
		{ "-W", "99999999999999999999999", "needs a number of bits" },
		{ "-s", "0", "needs a byte count 1..65536" },
		{ "-s", "65537", "needs a byte count" },
		{ "--stats-interval", "0", "needs seconds 1..86400" },
		{ "--ready-timeout", "61", "needs seconds 0..60" },
		{ "--ready-timeout", "nan", "needs seconds" },
		{ "--open-wait", "3600.001", "needs seconds 0..3600" },
		{ "--open-wait", "-1", "needs seconds 0..3600" },
		{ "--retest-after", "0", "needs seconds 0.001..86400" },
		{ "--retest-after", "1e3", "needs seconds 0.001..86400, not '1e3'" },
		{ "--ready-timeout", "0x10", "needs seconds 0..60, not '0x10'" },
		{ "--open-wait", ".", "needs seconds 0..3600, not '.'" },
		{ "--open-wait", "1.2.3", "needs seconds 0..3600, not '1.2.3'" },
		/* Not 0, which is "no bound", but rounded to it. */
		{ "--open-wait", "0.0001", "needs 0 or at least 0.001 seconds" },
		{ "--ready-timeout", "0.0004", "needs 0 or at least 0.001 seconds" },
		{ "--on-fail", "keep", "needs drop or mix, not 'keep'" },
		{ "-O", "hwrng:device", "needs SOURCE:KEY:VALUE" },
		{ "-O", "bad name", "needs SOURCE:KEY:VALUE" },
		{ "-O", "hwrng:device", "needs SOURCE:KEY:VALUE" },
		{ "-O", ":k:v", "needs SOURCE:KEY:VALUE" },
		{ "-O", "hwrng::v", "needs SOURCE:KEY:VALUE" },
		{ "-O", "hwrng:k:", "needs SOURCE:KEY:VALUE" },
		{ "-x", "bad name", "needs a source name" },
		{ "-n", "", "needs a source name" },
		{ "-D", ":grp", "needs USER or USER:GROUP" },
		{ "-r", "", "needs a path" },
	};
	/* The whole message, for the settings that share one check. */
	static const struct bad_case whole[] = {
		{ "-o", "", "-o needs a path or -" },
		{ "-p", "", "-p needs a path" },
		{ "--stats-file", "", "--stats-file needs a path" },
		{ "--egd-socket-group", "", "--egd-socket-group needs a group name or number" },
	};
	char err[RNGD_ERR_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rngd_options o;

		assert_int_equal(parse(&o, err, cases[i].opt, cases[i].val, NULL), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("%s %s: got '%s', want '%s'", cases[i].opt, cases[i].val, err, cases[i].msg);
		/* Named as typed, not as the config file's key. */
		if (strncmp(err, cases[i].opt, strlen(cases[i].opt)) != 0 || err[strlen(cases[i].opt)] != ' ')
			fail_msg("%s %s: '%s' does not name the option as typed", cases[i].opt, cases[i].val, err);
		assert_null(strchr(err, '\n'));
		rngd_options_free(&o);
	}
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		struct rngd_options o;

		assert_int_equal(parse(&o, err, whole[i].opt, whole[i].val, NULL), -EINVAL);
		if (strcmp(err, whole[i].msg) != 0)
			fail_msg("%s '%s': got '%s', want '%s'", whole[i].opt, whole[i].val, err, whole[i].msg);
		rngd_options_free(&o);
	}
}

static void test_usage_errors(void **state)
{
	/* Up to three words a row (the unused ones NULL), and the whole message. */
	static const struct {
		const char *words[3];
		const char *err;
	} cases[] = {
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "-z" }, "unknown option '-z'" },
		{ { "-fz" }, "unknown option '-z'" },
		{ { "-r" }, "option '-r' needs a value (PATH)" },
		{ { "--stats-file" }, "option '--stats-file' needs a value (PATH)" },
		{ { "extra" }, "unexpected argument 'extra'" },
		/* An operand stops parsing where it stands (getopt must not permute
		 * it behind later options), so the error names the right word. */
		{ { "--foreground", "round", "--onr=0.25" }, "unexpected argument 'round'" },
		{ { "--foreground=yes" }, "option '--foreground' takes no value" },
		/* A prefix of several options is none of them. */
		{ { "--stats", "5" }, "ambiguous option '--stats': a prefix of several options" },
	};
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *w = cases[i].words;

		assert_int_equal(parse(&o, err, w[0], w[1], w[2], NULL), -EINVAL);
		if (strcmp(err, cases[i].err) != 0)
			fail_msg("%s: got '%s', want '%s'", w[0], err, cases[i].err);
		rngd_options_free(&o);
	}
	/* A unique prefix is the option (as getopt_long took it). */
	assert_int_equal(parse(&o, err, "--stats-int", "5", NULL), 0);
	assert_int_equal(o.stats_interval_s, 5);
	rngd_options_free(&o);
	/* Config-only and command-line-only keys stay where they belong. */
	assert_int_equal(parse(&o, err, "--take-credit=no", NULL), -EINVAL);
	rngd_options_free(&o);
}

static void test_parse_twice(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(parse(&o, err, "-s", "128", NULL), 0);
		assert_int_equal(o.random_step, 128);
		rngd_options_free(&o);
	}
}

static char *write_config(const char *text)
{
	static char path[] = "/tmp/test_daemon_options.XXXXXX";
	char *p = strdup(path);
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return p;
}

static int load_config(struct rngd_options *o, const char *text, char err[RNGD_ERR_MAX], char **path)
{
	int r;

	*path = write_config(text);
	rngd_options_init(o);
	err[0] = '\0';
	r = rngd_config_load(o, *path, true, err);
	return r;
}

static void test_config_values(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX], *path;

	(void)state;
	assert_int_equal(load_config(&o, "# a comment\n\n   \n  foreground   =   yes  \nrandom-step=100\n"
				     "take-credit = off\non-fail = mix\nrng-device = /dev/my rng\n"
				     "option = hwrng:device:/dev/x\nquiet = NO\n", err, &path), 0);
	assert_true(o.foreground);
	assert_int_equal(o.random_step, 100);
	assert_false(o.take_credit);
	assert_int_equal(o.on_fail, RNGD_ON_FAIL_MIX);
	assert_false(o.quiet);
	assert_int_equal(o.n_source_args, 2);
	assert_string_equal(o.source_args[0].text, "/dev/my rng");
	rngd_options_free(&o);
	unlink(path);
	free(path);
}

static void test_config_errors(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "foreground = yes\nbogus = 1\n", ":2: unknown key 'bogus'" },
		{ "quiet\n", ":1: expected 'key = value', got 'quiet'" },
		{ "= 3\n", ":1: missing key before '='" },
		{ "\n\nrandom-step = many\n", ":3: 'random-step' needs a byte count 1..65536, not 'many'" },
		{ "foreground = maybe\n", ":1: 'foreground' needs yes or no, not 'maybe'" },
		{ "list = yes\n", ":1: unknown key 'list'" },
		{ "config = /etc/other\n", ":1: unknown key 'config'" },
		{ "on-fail =\n", ":1: 'on-fail' needs drop or mix, not ''" },
	};
	char err[RNGD_ERR_MAX], *path;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rngd_options o;

		assert_int_equal(load_config(&o, cases[i].text, err, &path), -EINVAL);
		if (strncmp(err, path, strlen(path)) != 0 || !strstr(err, cases[i].msg))
			fail_msg("config '%s': got '%s', want '%s%s'", cases[i].text, err, path, cases[i].msg);
		rngd_options_free(&o);
		unlink(path);
		free(path);
	}
}

static void test_config_long_line(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX], *path;
	char *text = malloc(10000);

	(void)state;
	memset(text, 'a', 9998);
	text[9998] = '\n';
	text[9999] = '\0';
	assert_int_equal(load_config(&o, text, err, &path), -EINVAL);
	assert_non_null(strstr(err, ":1: line longer than"));
	rngd_options_free(&o);
	unlink(path);
	free(path);
	free(text);
}

static void test_missing_config(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];

	(void)state;
	rngd_options_init(&o);
	assert_int_equal(rngd_config_load(&o, "/nonexistent/rngd.conf", false, err), 0);
	assert_int_equal(rngd_config_load(&o, "/nonexistent/rngd.conf", true, err), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/rngd.conf: No such file"));
	rngd_options_free(&o);
}

static void test_command_line_overrides_config(void **state)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];
	char *path = write_config("random-step = 100\non-fail = mix\nrng-device = /from/config\n");
	char *argv[] = { "rngd", "-c", path, "-s", "200", "-r", "/from/cli", NULL };

	(void)state;
	assert_int_equal(rngd_options_load(&o, 7, argv, err), 0);
	assert_int_equal(o.random_step, 200);         /* command line wins */
	assert_int_equal(o.on_fail, RNGD_ON_FAIL_MIX); /* config kept */
	assert_int_equal(o.n_source_args, 2);          /* config's sources come first */
	assert_string_equal(o.source_args[0].text, "/from/config");
	assert_string_equal(o.source_args[1].text, "/from/cli");
	rngd_options_free(&o);

	/* A command line error is reported before the config is even read,
	 * and what the failed load leaves can be freed: a reload frees it (it
	 * freed garbage when a Debian RNGDOPTIONS gained a bad value). */
	char *bad[] = { "rngd", "-c", "/nonexistent", "--bogus", NULL };
	memset(&o, 0xa5, sizeof(o));
	assert_int_equal(rngd_options_load(&o, 4, bad, err), -EINVAL);
	assert_string_equal(err, "unknown option '--bogus'");
	rngd_options_free(&o);
	unlink(path);
	free(path);
}

/* What --help prints, for free(). */
static char *usage_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	rngd_options_usage(out);
	assert_int_equal(fclose(out), 0);
	return text;
}

/* Every "(default N)" that --help prints is the value rngd starts with:
 * setting the option to the printed number changes nothing. */
static void test_help_prints_the_defaults_in_effect(void **state)
{
	struct rngd_options start, set;
	char err[RNGD_ERR_MAX];
	char *text = usage_text(), *line, *save = NULL;
	int checked = 0;

	(void)state;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64], value[32];
		const char *opt = strstr(line, "--");
		const char *def = strstr(line, "(default ");

		if (!opt || !def || sscanf(opt + 2, "%63[a-z0-9-]", name) != 1 ||
		    sscanf(def + 9, "%31[0-9]", value) != 1)
			continue;
		rngd_options_init(&start);
		rngd_options_init(&set);
		err[0] = '\0';
		assert_int_equal(rngd_options_set(&set, name, value, false, err), 0);
		if (memcmp(&start, &set, sizeof(start)) != 0)
			fail_msg("--help says --%s defaults to %s, rngd starts with another value", name, value);
		rngd_options_free(&start);
		rngd_options_free(&set);
		checked++;
	}
	free(text);
	/* random-step, stats-interval, ready-timeout, open-wait,
	 * quarantine-after, retest-after, retest-max, topup-interval,
	 * topup-bytes and the five EGD numbers. */
	assert_int_equal(checked, 14);
}

/* @bound one step further out: a millisecond for the SECONDS that take a
 * fraction, else 1. */
static void beyond_by(char out[40], const struct opt_number *num, const char *bound, int dir)
{
	if (num->in_ms)
		snprintf(out, 40, "%.3f", strtod(bound, NULL) + dir * 0.001);
	else
		snprintf(out, 40, "%lu", strtoul(bound, NULL, 10) + (unsigned long)(long)dir);
}

/* Every "[MIN..MAX]" that --help prints is what the parser takes: both
 * ends, and neither one step beyond. */
/* Every key of the config file is in rngd.conf(5), as man groff spells it. */
static void test_every_config_key_in_rngd_conf_5(void **state)
{
	const char *srcdir = getenv("top_srcdir");
	char path[4096];
	char *text;
	size_t len;

	(void)state;
	if (!srcdir)
		skip();
	snprintf(path, sizeof(path), "%s/man/rngd.conf.5", srcdir);
	text = (char *)test_slurp(path, &len);
	assert_non_null(text);
	for (size_t i = 0; i < rngd_n_opt_defs; i++) {
		char groff[128];
		size_t n = 0;

		if (!(rngd_opt_defs[i].where & WHERE_CONFIG))
			continue;
		for (const char *c = rngd_opt_defs[i].name; *c && n + 3 < sizeof(groff); c++) {
			if (*c == '-')
				groff[n++] = '\\';
			groff[n++] = *c;
		}
		groff[n] = '\0';
		if (!strstr(text, groff))
			fail_msg("rngd.conf(5) does not document the key '%s'", rngd_opt_defs[i].name);
	}
	free(text);
}

static void test_help_prints_the_ranges_in_effect(void **state)
{
	char err[RNGD_ERR_MAX];
	char *text = usage_text(), *line, *save = NULL;
	int checked = 0;

	(void)state;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64], inside[80], beyond[40], range[200];
		char *dots;
		const char *min, *max;
		const char *opt = strstr(line, "--");
		const char *bounds = strrchr(line, '[');
		const struct opt_number *num;
		struct rngd_options o;

		if (!opt || !bounds || sscanf(opt + 2, "%63[a-z0-9-]", name) != 1 ||
		    sscanf(bounds, "[%79[^]]]", inside) != 1 || !(dots = strstr(inside, "..")))
			continue;
		*dots = '\0';   /* "." is in both numbers: MIN ends at the ".." */
		min = inside;
		max = dots + 2;
		assert_non_null(rngd_opt_by_name(name));
		num = rngd_opt_number(rngd_opt_by_name(name)->id);
		assert_non_null(num);
		snprintf(range, sizeof(range), " %s..%s, not '", min, max);
		rngd_options_init(&o);
		assert_int_equal(rngd_options_set(&o, name, min, false, err), 0);
		assert_int_equal(rngd_options_set(&o, name, max, false, err), 0);
		beyond_by(beyond, num, max, +1);
		assert_int_equal(rngd_options_set(&o, name, beyond, false, err), -EINVAL);
		if (!strstr(err, range))
			fail_msg("--help gives --%s as [%s..%s], but its error says: %s", name, min, max, err);
		if (strtod(min, NULL) > 0) {
			beyond_by(beyond, num, min, -1);
			assert_int_equal(rngd_options_set(&o, name, beyond, false, err), -EINVAL);
		}
		rngd_options_free(&o);
		checked++;
	}
	free(text);
	/* The defaults test's 14 but --egd-socket-mode (octal, its own check),
	 * and -R (--topup-interval's old name). */
	assert_int_equal(checked, 14);
}

/* ---- the scanner itself (rngd/argv_scan.c), on a table of its own ------ */

static const struct argv_opt scan_opts[] = {
	{ "alpha", 'a', false },
	{ "beta", 'b', true },
	{ "long-only", 300, true },
	{ "long", 301, false },
	{ "longer", 302, false },
};
#define N_SCAN_OPTS (sizeof(scan_opts) / sizeof(scan_opts[0]))

static int scan_next(struct argv_scan *s)
{
	return argv_scan_next(s, scan_opts, N_SCAN_OPTS);
}

static void test_argv_scan_short_forms(void **state)
{
	char *argv[] = { "p", "-ab1", "-b", "2", "-a", "-ba", "--", "-a", NULL };
	struct argv_scan s;

	(void)state;
	argv_scan_init(&s, 8, argv);
	assert_int_equal(scan_next(&s), 'a');
	assert_int_equal(scan_next(&s), 'b');       /* value attached in a cluster */
	assert_string_equal(s.value, "1");
	assert_int_equal(scan_next(&s), 'b');       /* value in the next word */
	assert_string_equal(s.value, "2");
	assert_int_equal(scan_next(&s), 'a');
	assert_int_equal(scan_next(&s), 'b');       /* "-ba": the rest is b's value */
	assert_string_equal(s.value, "a");
	assert_int_equal(scan_next(&s), ARGV_END);  /* "--" */
	assert_int_equal(s.next, 7);                /* the "-a" after it is an operand */
}

static void test_argv_scan_long_forms(void **state)
{
	char *argv[] = { "p", "--beta=x=y", "--beta", "", "--long-o", "v", "--long", "--longe", "-", NULL };
	struct argv_scan s;

	(void)state;
	argv_scan_init(&s, 9, argv);
	assert_int_equal(scan_next(&s), 'b');
	assert_string_equal(s.value, "x=y");        /* split at the first '=' only */
	assert_int_equal(scan_next(&s), 'b');
	assert_string_equal(s.value, "");           /* an empty word is a value */
	assert_int_equal(scan_next(&s), 300);       /* unique prefix */
	assert_string_equal(s.value, "v");
	assert_int_equal(scan_next(&s), 301);       /* exact name beats its longer relatives */
	assert_int_equal(scan_next(&s), 302);
	assert_int_equal(scan_next(&s), ARGV_END);  /* "-" is an operand */
	assert_int_equal(s.next, 8);
}

/* A word the scanner refuses, and what it says of it besides the error. */
struct scan_refusal {
	char *word;
	int first;      /* what comes before the error, from the same cluster: an id, or 0 */
	int error;
	char letter;    /* the refused short option, or 0 for a long one */
	int opt_id;     /* the option found, or 0 for none */
};

static void test_argv_scan_errors(void **state)
{
	static const struct scan_refusal refusals[] = {
		{ "-ax", 'a', ARGV_UNKNOWN, 'x', 0 },
		{ "--gamma=1", 0, ARGV_UNKNOWN, 0, 0 },
		{ "--lo", 0, ARGV_AMBIGUOUS, 0, 0 },
		{ "--alpha=1", 0, ARGV_NO_VALUE, 0, 'a' },
		{ "-ab", 'a', ARGV_NEEDS_VALUE, 'b', 'b' },
		{ "--beta", 0, ARGV_NEEDS_VALUE, 0, 'b' },
		{ "--=x", 0, ARGV_UNKNOWN, 0, 0 },      /* not a prefix of every name */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct scan_refusal *r = &refusals[i];
		char *argv[] = { "p", r->word, NULL };
		struct argv_scan s;
		int got, opt_id;

		argv_scan_init(&s, 2, argv);
		if (r->first && (got = scan_next(&s)) != r->first)
			fail_msg("%s: %d before the error, want %d", r->word, got, r->first);
		got = scan_next(&s);
		opt_id = s.opt ? s.opt->id : 0;
		if (got != r->error || s.letter != r->letter || opt_id != r->opt_id || strcmp(s.word, r->word) != 0)
			fail_msg("%s: got %d, letter %d, option %d, word \"%s\"; want %d, letter %d, option %d",
				 r->word, got, s.letter, opt_id, s.word, r->error, r->letter, r->opt_id);
	}
}

/* sources/parse_num.c, which options and the sources' -O settings share. */
static void test_parse_uint_takes_digits_within_range_only(void **state)
{
	static const char *const bad[] = { "", "-1", "+1", " 1", "\t1", "1 ", "12abc", "0x10",
					   "99999999999999999999999" };
	unsigned long v = 7;

	(void)state;
	assert_int_equal(rng_parse_uint("10", 10, 20, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(rng_parse_uint("20", 10, 20, &v), 0);
	assert_int_equal(v, 20);
	assert_int_equal(rng_parse_uint("0012", 10, 20, &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(rng_parse_uint("9", 10, 20, &v), -EINVAL);
	assert_int_equal(rng_parse_uint("21", 10, 20, &v), -EINVAL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rng_parse_uint(bad[i], 0, ~0ul, &v), -EINVAL);
	assert_int_equal(v, 12);           /* untouched on error */
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_init_sets_the_documented_defaults),
	cmocka_unit_test(test_parse_uint_takes_digits_within_range_only),
	cmocka_unit_test(test_argv_scan_short_forms),
	cmocka_unit_test(test_argv_scan_long_forms),
	cmocka_unit_test(test_argv_scan_errors),
	cmocka_unit_test(test_help_prints_the_defaults_in_effect),
	cmocka_unit_test(test_every_config_key_in_rngd_conf_5),
	cmocka_unit_test(test_help_prints_the_ranges_in_effect),
	cmocka_unit_test(test_every_option),
	cmocka_unit_test(test_background_after_foreground),
	cmocka_unit_test(test_bad_values),
	cmocka_unit_test(test_usage_errors),
	cmocka_unit_test(test_parse_twice),
	cmocka_unit_test(test_config_values),
	cmocka_unit_test(test_config_errors),
	cmocka_unit_test(test_config_long_line),
	cmocka_unit_test(test_missing_config),
	cmocka_unit_test(test_command_line_overrides_config)
)
