/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rngd/compat.c and compat_defaults.c: peer command lines to rngd's
 * options, rng-tools' source names/indexes/keys, Debian's defaults file. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/compat.h"
#include "sources/source.h"
#include "tests/lib/test_argv.h"

struct run {
	struct rngd_options o;
	char err[RNGD_ERR_MAX];
};

static int load_argv(struct run *run, int argc, char *argv[])
{
	run->err[0] = '\0';
	return rngd_compat_load(&run->o, argc, argv, run->err);
}

/* Load argv (NULL-terminated varargs after the program name). */
static int load(struct run *run, const char *prog, ...)
{
	char *argv[TEST_ARGV_MAX + 2];
	int argc;
	va_list ap;

	va_start(ap, prog);
	argc = test_argv_from(argv, prog, ap);
	va_end(ap);
	return load_argv(run, argc, argv);
}

static bool has_arg(const struct rngd_options *o, enum rngd_source_arg_kind kind, const char *text)
{
	for (size_t i = 0; i < o->n_source_args; i++)
		if (o->source_args[i].kind == kind && strcmp(o->source_args[i].text, text) == 0)
			return true;
	return false;
}

static bool has_note(const struct rngd_options *o, int level, const char *part)
{
	for (size_t i = 0; i < o->n_notes; i++)
		if (o->notes[i].level == level && strstr(o->notes[i].text, part))
			return true;
	return false;
}

/* A source argument (by its kind and whole text) or a note (by its level
 * and a part of its text) that a command line must leave, or must not. */
struct want {
	enum { ARG, NOTE } in;
	int kind_or_level;
	bool present;
	const char *text;
};

/* The words a table row gives a command line. */
#define ROW_WORDS_MAX 12

/* A command line that loads, and what it must leave: rows of a table,
 * @why naming the rule in a failure. */
struct reading {
	const char *why;
	const char *argv[ROW_WORDS_MAX];        /* up to the first NULL */
	struct want wants[6];           /* up to the first without text */
};

/* Load the words of @words up to its first NULL. */
static int load_row(struct run *run, const char *const words[ROW_WORDS_MAX])
{
	char *argv[ROW_WORDS_MAX + 1];
	int argc = 0;

	while (argc < ROW_WORDS_MAX && words[argc]) {
		argv[argc] = (char *)words[argc];
		argc++;
	}
	argv[argc] = NULL;
	return load_argv(run, argc, argv);
}

static void expect_readings(const struct reading *cases, size_t n)
{
	for (const struct reading *c = cases; c < cases + n; c++) {
		struct run r;
		int ret = load_row(&r, c->argv);

		if (ret != 0)
			fail_msg("%s: load returned %d (%s)", c->why, ret, r.err);
		for (size_t i = 0; i < sizeof(c->wants) / sizeof(c->wants[0]) && c->wants[i].text; i++) {
			const struct want *w = &c->wants[i];
			bool got = w->in == ARG ? has_arg(&r.o, w->kind_or_level, w->text)
						: has_note(&r.o, w->kind_or_level, w->text);

			if (got != w->present)
				fail_msg("%s: %s '%s' %s", c->why, w->in == ARG ? "source argument" : "note", w->text,
					 w->present ? "missing" : "there, but must not be");
		}
		rngd_options_free(&r.o);
	}
}

/* A command line that must not load: it returns @ret and, where @err is
 * set, says that whole message. */
struct refusal {
	const char *argv[ROW_WORDS_MAX];        /* up to the first NULL */
	int ret;
	const char *err;
};

static void expect_refusals(const struct refusal *cases, size_t n)
{
	for (const struct refusal *c = cases; c < cases + n; c++) {
		struct run r;
		int ret = load_row(&r, c->argv);
		char line[256] = "";

		for (size_t i = 0; i < ROW_WORDS_MAX && c->argv[i]; i++)
			snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", c->argv[i]);
		if (ret != c->ret)
			fail_msg("%s: returned %d (%s), want %d", line, ret, r.err, c->ret);
		if (c->err && strcmp(r.err, c->err) != 0)
			fail_msg("%s: got '%s', want '%s'", line, r.err, c->err);
		rngd_options_free(&r.o);
	}
}

static void rhel_args(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-D", "daemon:daemon", "-x", "pkcs11", "-x", "nist",
			      "-x", "qrypt", "-x", "namedpipe", "-x", "jitter", "-e", "4", "-R", "300", "-i", "-u",
			      NULL), 0);
	assert_string_equal(r.o.user, "daemon:daemon");
	assert_true(has_arg(&r.o, RNGD_SRC_EXCLUDE, "file"));
	/* pkcs11 exists where libp11 was found at build time. */
	if (rng_source_find("pkcs11")) {
		assert_int_equal(r.o.n_source_args, 2);
		assert_true(has_arg(&r.o, RNGD_SRC_EXCLUDE, "pkcs11"));
	} else {
		assert_int_equal(r.o.n_source_args, 1);
		assert_true(has_note(&r.o, LOG_INFO, "-x pkcs11: this rngd has no pkcs11 source"));
	}
	assert_true(has_note(&r.o, LOG_INFO, "-x nist: this rngd has no nist source; nothing to exclude"));
	assert_true(fabs(r.o.entropy_ceiling - 0.5) < 1e-9);
	assert_int_equal(r.o.topup_interval_s, 300);
	assert_int_equal(r.o.on_fail, RNGD_ON_FAIL_MIX);
	assert_true(has_note(&r.o, LOG_NOTICE, "never credited"));
	assert_true(has_note(&r.o, LOG_INFO, "-u (use-slow-sources)"));
	rngd_options_free(&r.o);
}

/* What -r makes of paths that are, or are not yet, devices. */
static const struct reading devices[] = {
	{ "HRNGDEVICE=/dev/urandom, Debian's old advice: no promise of the hwrng credit the kernel sink will not give",
	  { "rngd", "-c", "/dev/null", "-r", "/dev/urandom" },
	  { { NOTE, LOG_INFO, true, "-r /dev/urandom: the kernel's random device, read by the hwrng source; "
				    "credited nothing while the sink is this kernel" },
	    { NOTE, LOG_INFO, false, "credited as hwrng" } } },
	/* The same sources at a start or reload before and after it appears. */
	{ "a node under /dev not there yet is a device to come; a missing path elsewhere is a file source",
	  { "rngd", "-c", "/dev/null", "-r", "/dev/rngd-test-not-there", "-r", "/nonexistent/rngd-fifo" },
	  { { ARG, RNGD_SRC_OPTION, true, "hwrng:device:/dev/rngd-test-not-there" },
	    { ARG, RNGD_SRC_INCLUDE, true, "hwrng" },
	    { ARG, RNGD_SRC_FILE, true, "/nonexistent/rngd-fifo" },
	    { ARG, RNGD_SRC_FILE, false, "/dev/rngd-test-not-there" },
	    { NOTE, LOG_INFO, true, "-r /dev/rngd-test-not-there: not there yet, taken for a device" } } },
	{ "a file key meant for a -r device: no file source runs, so said",
	  { "rngd", "-c", "/dev/null", "-r", "/dev/zero", "-O", "file:entropy_per_bit:1" },
	  { { NOTE, LOG_WARNING, true, "-O file:entropy_per_bit:1: no file source runs: -r /dev/zero is a "
				       "character device, read by the hwrng source (its keys: -O hwrng:...)" } } },
	{ "a file key with a file source of its own: nothing to say",
	  { "rngd", "-c", "/dev/null", "-r", "/dev/zero", "-r", "/nonexistent/f", "-O", "file:entropy_per_bit:1" },
	  { { NOTE, LOG_WARNING, false, "no file source runs" } } },
};

/* rng-tools' pkcs11 keys as its rngd_pkcs11.c reads them: engine_path is
 * the module libp11 loads, chunk_size the calls a 2500-byte block takes. */
static void pkcs11_keys_as_rng_tools_meant_them(void **state)
{
	struct run r;

	(void)state;
	if (!rng_source_find("pkcs11"))
		skip();
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-O", "pkcs11:engine_path:/usr/lib/opensc-pkcs11.so",
			      "-O", "pkcs11:chunk_size:1", NULL), 0);
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "pkcs11:module:/usr/lib/opensc-pkcs11.so"));
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "pkcs11:chunk:2500"));
	assert_true(has_note(&r.o, LOG_INFO, "pkcs11:chunk_size:1: 1 call a 2500-byte block, pkcs11:chunk:2500"));
	rngd_options_free(&r.o);
	/* Its upper bound; more calls than bytes is still a byte a call, never
	 * that many bytes. */
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-O", "pkcs11:chunk_size:2500", "-O",
			      "pkcs11:chunk_size:5000", NULL), 0);
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "pkcs11:chunk:1"));
	assert_false(has_arg(&r.o, RNGD_SRC_OPTION, "pkcs11:chunk:5000"));
	assert_true(has_note(&r.o, LOG_WARNING, "pkcs11:chunk_size:5000: 5000 calls a 2500-byte block, pkcs11:chunk:1"));
	rngd_options_free(&r.o);
	/* No number of calls: refused in rng-tools' terms, not rngd's
	 * "chunk '0' is not 1..65536 bytes", a key the user never wrote. */
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-O", "pkcs11:chunk_size:0", NULL), -EINVAL);
	assert_string_equal(r.err, "-O pkcs11:chunk_size:0: rng-tools' chunk_size needs how many calls fill a "
				   "2500-byte block (1 or more), not '0'");
	rngd_options_free(&r.o);
}

static void indexes_keys_and_devices(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-x", "5", "-n", "0", "-n", "qrypt", "-r", "/dev/null",
			      "-r", "/etc/hostname", "-O", "namedpipe:path:/run/p", "-O", "namedpipe:timeout:5", "-O",
			      "rdrand:use_aes:1", "-O", "jitter:thread_count:4", NULL), 0);
	for (size_t i = 0; i < r.o.n_source_args; i++)
		assert_null(strstr(r.o.source_args[i].text, "use_aes"));
	assert_true(has_note(&r.o, LOG_INFO, "-x 5: rng-tools' index 5 is its nist source"));
	assert_true(has_arg(&r.o, RNGD_SRC_INCLUDE, "hwrng"));
	assert_true(has_note(&r.o, LOG_WARNING, "-n qrypt: this rngd has no qrypt source; use "));
	/* A character device: the hwrng source's device, not a file source. */
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "hwrng:device:/dev/null"));
	assert_false(has_arg(&r.o, RNGD_SRC_FILE, "/dev/null"));
	assert_true(has_arg(&r.o, RNGD_SRC_FILE, "/etc/hostname"));
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "file:path:/run/p"));
	assert_true(has_note(&r.o, LOG_INFO, "namedpipe:timeout:5: noted"));
	assert_true(has_note(&r.o, LOG_INFO, "rdrand:use_aes:1: noted"));
	assert_true(has_note(&r.o, LOG_INFO, "key thread_count ignored"));
	rngd_options_free(&r.o);
	/* Two devices: the last one is hwrng's, neither is a file source. */
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-r", "/dev/null", "-r", "/dev/zero", NULL), 0);
	assert_int_equal(r.o.n_source_args, 4);
	assert_string_equal(r.o.source_args[2].text, "hwrng:device:/dev/zero");
	rngd_options_free(&r.o);
	rngd_options_free(&r.o);
	expect_readings(devices, sizeof(devices) / sizeof(devices[0]));
}

/*
 * Only a whole decimal 0..10 is an index: a last index, a leading zero, and
 * near misses (one past the table, trailing junk, a sign, a blank, a value
 * that wraps to 5 modulo 2^64) that must stay names.
 */
static void index_edges(void **state)
{
	static const char *const not_indexes[] = { "11", "5x", "+5", " 5", "18446744073709551621" };
	struct run r;

	(void)state;
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-x", "10", "-x", "05", NULL), 0);
	assert_true(has_note(&r.o, LOG_INFO, "-x 10: rng-tools' index 10 is its namedpipe source"));
	assert_true(has_note(&r.o, LOG_INFO, "-x 05: rng-tools' index 5 is its nist source"));
	rngd_options_free(&r.o);
	for (size_t i = 0; i < sizeof(not_indexes) / sizeof(not_indexes[0]); i++) {
		(void)load(&r, "rngd", "-c", "/dev/null", "-x", not_indexes[i], NULL);
		assert_false(has_note(&r.o, LOG_INFO, "rng-tools' index"));
		rngd_options_free(&r.o);
	}
}

/* The padlock source, the device unread; nor /dev/hwrng, which via-rng
 * serves from the same RNG. */
static const struct reading viapadlock[] = {
	{ "-R viapadlock with a -r device",
	  { "rngd", "--compat=debian", "--config=/dev/null", "-R", "viapadlock", "-r", "/dev/null" },
	  { { ARG, RNGD_SRC_INCLUDE, true, "padlock" },
	    { ARG, RNGD_SRC_OPTION, false, "hwrng:device:/dev/null" },
	    { ARG, RNGD_SRC_EXCLUDE, true, "hwrng" },
	    { NOTE, LOG_INFO, true, "reads the PadLock, no device: -r /dev/null is not read" } } },
	{ "--hrng=viapadlock without a device",
	  { "rngd", "--compat=debian", "--config=/dev/null", "--hrng=viapadlock" },
	  { { ARG, RNGD_SRC_INCLUDE, true, "padlock" },
	    { ARG, RNGD_SRC_EXCLUDE, true, "hwrng" },
	    { NOTE, LOG_INFO, true, "reads the PadLock, no device: /dev/hwrng is not read" } } },
};

static const struct refusal debian_refused[] = {
	/* rng-tools 6 letters that mean something else or nothing there. */
	{ { "rngd", "--compat=debian", "-x", "hwrng" }, -EINVAL,
	  "unknown option '-x' (rng-tools-debian); for rngd's own -x, write --exclude" },
	{ { "rngd", "--compat=debian", "-R", "bogus" }, -EINVAL, NULL },
	{ { "rngd", "--compat=nope" }, -EINVAL, NULL },
	/* Shortened as every long option may be: read, not passed over. */
	{ { "rngd", "--comp=debian", "-x", "hwrng" }, -EINVAL,
	  "unknown option '-x' (rng-tools-debian); for rngd's own -x, write --exclude" },
	{ { "rngd", "--comp", "nope" }, -EINVAL, "--compat needs rng-tools, debian or rng-tools5, not 'nope'" },
	{ { "rngd", "--defaults=/nonexistent/rng-tools-debian" }, -ENOENT,
	  "--defaults-file /nonexistent/rng-tools-debian: No such file or directory" },
	/* Without the personality, -H is nobody's rng-tools 6 option. */
	{ { "rngd", "-c", "/dev/null", "-H", "1.0" }, -EINVAL, NULL },
};

/* 0.1, in more characters than any option buffer of compat.c once held. */
#define LONG_TENTH "1.0e-00000000000000000000000000000000000000000000000000000000000001"

static void debian_personality(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(load(&r, "/usr/sbin/rngd-debian", "--config=/dev/null", "-r", "/dev/null", "-W", "90%",
			      "-t", "1", "-S", "0", "-Q", "high", "-B", "3", "-T", "10", "-H", "1.0", "-p", "/run/x.pid",
			      "--hrng=viakernel", NULL), 0);
	assert_int_equal(r.o.watermark_bits, 3686);
	assert_int_equal(r.o.topup_interval_s, 1);
	assert_string_equal(r.o.pidfile, "/run/x.pid");
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "hwrng:device:/dev/null"));
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "hwrng:entropy_per_bit:1.0"));
	assert_true(has_note(&r.o, LOG_NOTICE, "-H 1.0 (rng-tools-debian): the hwrng source's credit"));
	rngd_options_free(&r.o);

	/* -H is passed whole however long: cut to fit a buffer, 0.1 written
	 * this way read as 1.0, ten times the credit. */
	assert_int_equal(load(&r, "/usr/sbin/rngd-debian", "--config=/dev/null", "-r", "/dev/null", "-H", LONG_TENTH, NULL),
			 0);
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "hwrng:entropy_per_bit:" LONG_TENTH));
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "/usr/sbin/rngd-debian", "--config=/dev/null", "--hrng=viapadlock", "-H", LONG_TENTH,
			      NULL), 0);
	assert_true(has_arg(&r.o, RNGD_SRC_OPTION, "padlock:entropy_per_bit:" LONG_TENTH));
	rngd_options_free(&r.o);

	expect_readings(viapadlock, sizeof(viapadlock) / sizeof(viapadlock[0]));

	expect_refusals(debian_refused, sizeof(debian_refused) / sizeof(debian_refused[0]));
}

/* debian -t, -T and -S: whole seconds, the bound named for -S's week only;
 * 0 is a note, and a period longer than rngd's day is a day. */
static void debian_seconds(void **state)
{
	static const struct refusal bad[] = {
		{ { "rngd-debian", "--config=/dev/null", "-t", "x" }, -EINVAL, "-t needs seconds, not 'x'" },
		{ { "rngd-debian", "--config=/dev/null", "--feed-interval", "4000000001" }, -EINVAL,
		  "--feed-interval needs seconds, not '4000000001'" },
		{ { "rngd-debian", "--config=/dev/null", "--timeout", "" }, -EINVAL, "--timeout needs seconds, not ''" },
		{ { "rngd-debian", "--config=/dev/null", "-T", "-1" }, -EINVAL, "-T needs seconds, not '-1'" },
		{ { "rngd-debian", "--config=/dev/null", "-S", "604801" }, -EINVAL,
		  "-S needs seconds 0..604800, not '604801'" },
		{ { "rngd-debian", "--config=/dev/null", "--stats-interval", "1.5" }, -EINVAL,
		  "--stats-interval needs seconds 0..604800, not '1.5'" },
	};
	struct run r;

	(void)state;
	expect_refusals(bad, sizeof(bad) / sizeof(bad[0]));

	assert_int_equal(load(&r, "rngd-debian", "--config=/dev/null", "-t", "0", "-S", "0", "-T", "4000000000", NULL),
			 0);
	assert_int_equal(r.o.topup_interval_s, RNGD_DEFAULT_TOPUP_INTERVAL_S);
	assert_int_equal(r.o.stats_interval_s, RNGD_DEFAULT_STATS_INTERVAL_S);
	assert_true(has_note(&r.o, LOG_INFO, "-t 0: the peer then never force-feeds; rngd keeps its top-up interval"));
	assert_true(has_note(&r.o, LOG_INFO, "-S 0: no periodic statistics; rngd logs them on SIGUSR1"));
	assert_true(has_note(&r.o, LOG_INFO, "-T 4000000000: noted; rngd never gives up on a silent source"));
	rngd_options_free(&r.o);

	assert_int_equal(load(&r, "rngd-debian", "--config=/dev/null", "--timeout=4000000000", "-S", "604800", NULL), 0);
	assert_int_equal(r.o.topup_interval_s, 86400);
	assert_int_equal(r.o.stats_interval_s, 86400);
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "rngd-debian", "--config=/dev/null", "-t", "7", "-S", "9", NULL), 0);
	assert_int_equal(r.o.topup_interval_s, 7);
	assert_int_equal(r.o.stats_interval_s, 9);
	rngd_options_free(&r.o);
}

static void rng_tools5_personality(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(load(&r, "rngd5", "--config=/dev/null", "-d", "1", "-n", "0", "-v", NULL), 0);
	assert_true(has_arg(&r.o, RNGD_SRC_EXCLUDE, "rdrand"));
	assert_false(has_arg(&r.o, RNGD_SRC_EXCLUDE, "tpm"));
	assert_true(r.o.list);
	rngd_options_free(&r.o);
	/* "No TPM" leaves out both TPM sources (tpm2 where it is built). */
	assert_int_equal(load(&r, "rngd5", "--config=/dev/null", "-n", "1", NULL), 0);
	assert_true(has_arg(&r.o, RNGD_SRC_EXCLUDE, "tpm"));
	assert_int_equal(has_arg(&r.o, RNGD_SRC_EXCLUDE, "tpm2"), rng_source_find("tpm2") != NULL);
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "rngd5", "-d", "2", NULL), -EINVAL);
	rngd_options_free(&r.o);
}

static char *write_file(const char *text)
{
	char *path = strdup("/tmp/test_compat.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* Frees what one rngd_compat_defaults_file() call left and removes its file. */
static void defaults_file_done(struct rngd_argv *words, char **select, struct rngd_options *o, char *path)
{
	rngd_argv_free(words);
	free(*select);
	*select = NULL;
	rngd_options_free(o);
	unlink(path);
	free(path);
}

/* @text, a defaults file, reads as -r /dev/hwrng -s 64, with no note. */
static void expect_hwrng_step_64(const char *text)
{
	struct rngd_argv words = { 0 };
	struct rngd_options o;
	char *select = NULL, err[RNGD_ERR_MAX], *path = write_file(text);

	rngd_options_init(&o);
	assert_int_equal(rngd_compat_defaults_file(path, &words, &select, &o, err), 0);
	assert_int_equal(words.n, 4);
	assert_string_equal(words.v[1], "/dev/hwrng");
	assert_string_equal(words.v[3], "64");
	assert_int_equal(o.n_notes, 0);
	defaults_file_done(&words, &select, &o, path);
}

static void defaults_file(void **state)
{
	struct rngd_argv words = { 0 };
	struct rngd_options o;
	char *select = NULL, err[RNGD_ERR_MAX];
	char *path = write_file("# comment\n"
				"export HRNGDEVICE='/dev/hw rng'\n"
				"RNGDOPTIONS=\"--fill-watermark=90% \\\"--feed-interval=1\" # trailing\n"
				"HRNGSELECT=virtio_rng.0\n"
				"OTHER=$(reboot)\n"
				"echo hello\n");

	(void)state;
	rngd_options_init(&o);
	assert_int_equal(rngd_compat_defaults_file(path, &words, &select, &o, err), 0);
	assert_int_equal(words.n, 4);
	assert_string_equal(words.v[0], "--rng-device");
	assert_string_equal(words.v[1], "/dev/hw rng");
	assert_string_equal(words.v[2], "--fill-watermark=90%");
	assert_string_equal(words.v[3], "\"--feed-interval=1");
	assert_string_equal(select, "virtio_rng.0");
	assert_true(has_note(&o, LOG_WARNING, ":6: not a variable assignment, not run: echo hello"));
	defaults_file_done(&words, &select, &o, path);

	/* What sh takes too (the init script sources the file): a quoted value
	 * over lines, backslash-newline in and out of quotes, two assignments
	 * on a line or after ';'; a later line's number is still right. */
	static const char as_sh_takes_it[] = "RNGDOPTIONS=\"--fill-watermark=90% \\\n"
					     "  --feed-interval=1\n"
					     "  -s 64\"\n"
					     "HRNGDEVICE=/dev/a; HRNGSELECT=via\\\n"
					     "_rng OTHER='$(x)' HRNGDEVICE=/dev/b\n";
	char text[256];

	snprintf(text, sizeof(text), "%sexport RNGDOPTIONS=\"$RNGDOPTIONS -v\"\n", as_sh_takes_it);
	path = write_file(text);
	rngd_options_init(&o);
	assert_int_equal(rngd_compat_defaults_file(path, &words, &select, &o, err), -EINVAL);
	assert_non_null(strstr(err, ":6: RNGDOPTIONS: needs the shell"));
	defaults_file_done(&words, &select, &o, path);
	path = write_file(as_sh_takes_it);
	rngd_options_init(&o);
	assert_int_equal(rngd_compat_defaults_file(path, &words, &select, &o, err), 0);
	text[0] = '\0';
	for (size_t i = 0; i < words.n; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s", i ? " " : "", words.v[i]);
	assert_string_equal(text, "--rng-device /dev/b --fill-watermark=90% --feed-interval=1 -s 64");
	assert_string_equal(select, "via_rng");
	defaults_file_done(&words, &select, &o, path);

	/* A file edited on Windows, a name too long to be one of the three:
	 * read as sh reads it, but for the CRs of the line ends. */
	expect_hwrng_step_64("HRNGDEVICE=/dev/hwrng\r\nRNGDOPTIONS=\"-s 64\"\r\n"
			     "A123456789012345678901234567890123456789012345678901234567890123456789=1\r\n");

	/* `export NAME` and `readonly NAME` leave the value as sh does;
	 * `export -n`, which rngd does not read, names one of the three. */
	expect_hwrng_step_64("HRNGDEVICE=/dev/hwrng\nexport HRNGDEVICE\nreadonly HRNGDEVICE RNGDOPTIONS=\"-s 64\"\n"
			     "export \\\n  HRNGSELECT HRNGDEVICE # comment\nreadonly RNGDOPTIONS;export HRNGSELECT\n");

	/* Refused: what needs the shell, and what sh may set otherwise than
	 * rngd would (an assignment after a line rngd does not run, a line
	 * that names one of the three). */
	const char *bad[] = { "RNGDOPTIONS=\"-W $X\"\n", "HRNGDEVICE=`x`\n", "RNGDOPTIONS=\"unterminated\n\n",
			      "HRNGDEVICE=/dev/a /dev/b\n", "HRNGSELECT=../x\n", "RNGDOPTIONS=-s|x\n",
			      "RNGDOPTIONS=-s\\", "HRNGDEVICE=~/hwrng\n",
			      "if [ -c /dev/hwrng ]; then\n HRNGDEVICE=/dev/hwrng\nelse\n HRNGDEVICE=/dev/urandom\nfi\n",
			      ": <<EOF\nHRNGDEVICE=/dev/x\nEOF\n", "FOO=$HOME; HRNGDEVICE=/dev/y\n",
			      "HRNGDEVICE=/dev/a\nunset HRNGDEVICE\n", ": ${HRNGDEVICE:=/dev/pd}\n",
			      "export -n HRNGDEVICE\n", "export HRNGDEVICE\\x=/dev/x\n",
			      "export FOO\\\nHRNGDEVICE=/dev/x\n" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = write_file(bad[i]);
		rngd_options_init(&o);
		assert_int_equal(rngd_compat_defaults_file(path, &words, &select, &o, err), -EINVAL);
		assert_non_null(strstr(err, path));
		defaults_file_done(&words, &select, &o, path);
	}
	rngd_options_init(&o);
	assert_true(rngd_compat_defaults_file("/nonexistent/x", &words, &select, &o, err) < 0);
	rngd_options_free(&o);
}

/* --defaults-file @path gives @want, its error saying @says (NULL: none),
 * and no words. */
static void expect_defaults_kind(const char *path, int want, const char *says)
{
	struct rngd_argv words = { 0 };
	struct rngd_options o;
	char *select = NULL, err[RNGD_ERR_MAX] = "";

	rngd_options_init(&o);
	assert_int_equal(rngd_compat_defaults_file(path, &words, &select, &o, err), want);
	if (says && !strstr(err, says))
		fail_msg("--defaults-file %s: said '%s'", path, err);
	assert_int_equal(words.n, 0);
	rngd_argv_free(&words);
	free(select);
	rngd_options_free(&o);
}

/* What is not a regular file is refused before it is opened, as -c's
 * config file is: a FIFO nobody writes held the start for ever. */
static void defaults_file_of_another_kind(void **state)
{
	char fifo[] = "/tmp/test_compat_fifo.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(fifo));
	assert_int_equal(rmdir(fifo), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(10);   /* an open that blocks fails the test instead of hanging it */
	expect_defaults_kind(fifo, -EINVAL, "is a FIFO, not a defaults file");
	expect_defaults_kind("/tmp", -EISDIR, "--defaults-file /tmp: is a directory, not a defaults file");
	expect_defaults_kind("/dev/zero", -EINVAL, "--defaults-file /dev/zero: is a character device, not a defaults file");
	expect_defaults_kind("/proc/version", -EINVAL,
			     "--defaults-file /proc/version: is a kernel file (procfs), not a defaults file");
	expect_defaults_kind("/dev/null", 0, NULL);
	alarm(0);
	unlink(fifo);
}

/*
 * A bad word in RNGDOPTIONS is told with the file it is in, also when
 * only rngd's own parser refuses its translation; a "--" there ends the
 * peer's words, not rngd's command line after them.
 */
static void defaults_file_errors_name_the_file(void **state)
{
	static const struct {
		const char *options;
		int want;
		const char *says;       /* after "PATH: RNGDOPTIONS: " */
	} cases[] = {
		{ "-s 0", -EINVAL, "--random-step needs a byte count 1..65536, not '0'" },
		{ "-W 99999", -EINVAL, "--fill-watermark needs a number of bits 0..4096, not '99999'" },
		{ "--bogus", -EINVAL, "unknown option '--bogus'" },
		{ "-- -f", -EINVAL, "unexpected argument '-f' after '--'" },
		{ "-s 64 --", 0, NULL },
	};
	char want[RNGD_ERR_MAX + 64];
	struct run run;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[128], *path, opt[80];

		snprintf(text, sizeof(text), "HRNGDEVICE=/dev/null\nRNGDOPTIONS=\"%s\"\n", cases[i].options);
		path = write_file(text);
		snprintf(opt, sizeof(opt), "--defaults-file=%s", path);
		assert_int_equal(load(&run, "rngd", opt, "-f", NULL), cases[i].want);
		if (cases[i].says) {
			snprintf(want, sizeof(want), "%s: RNGDOPTIONS: %s", path, cases[i].says);
			if (strcmp(run.err, want) != 0)
				fail_msg("RNGDOPTIONS=\"%s\": said '%s', want '%s'", cases[i].options, run.err, want);
		} else {
			assert_true(run.o.foreground);   /* the -f after the file's "--" was read */
		}
		rngd_options_free(&run.o);
		unlink(path);
		free(path);
	}
	/* On a peer's own command line, "--" ends its options as getopt's does,
	 * after the words its -r and -H become. */
	assert_int_equal(load(&run, "rngd", "--compat=debian", "--", "-f", NULL), -EINVAL);
	assert_string_equal(run.err, "unexpected argument '-f'");
	rngd_options_free(&run.o);
	assert_int_equal(load(&run, "rngd", "--compat=rng-tools5", "--config=/dev/null", "-r", "/dev/null", "--", NULL), 0);
	assert_true(has_arg(&run.o, RNGD_SRC_OPTION, "hwrng:device:/dev/null"));
	rngd_options_free(&run.o);
}

/* rng-tools' -V and -? inside a group of short options, as its argp
 * reads them; a letter that takes a value keeps the rest of the word;
 * after "--" nothing is an option. */
static void rng_tools_short_groups(void **state)
{
	struct run r;

	(void)state;
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-fV", NULL), 0);
	assert_true(r.o.version && r.o.foreground);
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-?q", NULL), 0);
	assert_true(r.o.help && r.o.quiet);
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-Vfs64", NULL), 0);
	assert_true(r.o.version && r.o.foreground);
	assert_int_equal(r.o.random_step, 64);
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "-fs0V", NULL), -EINVAL);
	assert_string_equal(r.err, "-s needs a byte count 1..65536, not '0V'");
	rngd_options_free(&r.o);
	assert_int_equal(load(&r, "rngd", "-c", "/dev/null", "--", "-V", NULL), -EINVAL);
	assert_string_equal(r.err, "unexpected argument '-V'");
	rngd_options_free(&r.o);
}

/* A letter the personality lacks names the one that has it. */
static void unknown_letters_hint_the_personality(void **state)
{
	static const struct {
		const char *compat, *letter, *says;
	} cases[] = {
		{ "--compat=rng-tools", "-S", "unknown option '-S'; rng-tools-debian's -S (--stats-interval) is read with "
					      "--compat=debian" },
		{ "--compat=rng-tools", "-Z", "unknown option '-Z'" },
		{ "--compat=debian", "-c", "unknown option '-c' (rng-tools-debian); for rngd's own -c, write --config" },
		{ "--compat=rng-tools5", "-x", "unknown option '-x' (rng-tools5); for rngd's own -x, write --exclude" },
	};
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(load(&r, "rngd", cases[i].compat, cases[i].letter, "1", NULL), -EINVAL);
		if (strcmp(r.err, cases[i].says) != 0)
			fail_msg("%s %s: said '%s', want '%s'", cases[i].compat, cases[i].letter, r.err, cases[i].says);
		rngd_options_free(&r.o);
	}
}

RNGD_TEST_MAIN(
	cmocka_unit_test(rhel_args),
	cmocka_unit_test(indexes_keys_and_devices),
	cmocka_unit_test(pkcs11_keys_as_rng_tools_meant_them),
	cmocka_unit_test(index_edges),
	cmocka_unit_test(debian_personality),
	cmocka_unit_test(debian_seconds),
	cmocka_unit_test(rng_tools5_personality),
	cmocka_unit_test(defaults_file),
	cmocka_unit_test(defaults_file_of_another_kind),
	cmocka_unit_test(defaults_file_errors_name_the_file),
	cmocka_unit_test(rng_tools_short_groups),
	cmocka_unit_test(unknown_letters_hint_the_personality)
)
