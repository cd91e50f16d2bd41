/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a SIGHUP may change (rngd/reload_check.c): credits yes, sources, sink and devices no. */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/reload_check.h"
#include "tests/lib/test_argv.h"

/* Parse "rngd" and the NULL-terminated words after @o into @o. */
static void parse(struct rngd_options *o, ...)
{
	char *argv[TEST_ARGV_MAX + 2];
	char err[RNGD_ERR_MAX];
	va_list ap;
	int argc;

	va_start(ap, o);
	argc = test_argv_from(argv, "rngd", ap);
	va_end(ap);
	rngd_options_init(o);
	assert_int_equal(rngd_options_parse_argv(o, argc, argv, err), 0);
}

/* rngd_reload_check() of two command lines, err kept in @err. */
static int check(struct rngd_options *running, struct rngd_options *fresh, char err[RNGD_ERR_MAX])
{
	int r;

	err[0] = '\0';
	r = rngd_reload_check(running, fresh, err);
	rngd_options_free(running);
	rngd_options_free(fresh);
	return r;
}

static void test_credit_priority_and_loop_settings_reload(void **state)
{
	struct rngd_options a, b;
	char err[RNGD_ERR_MAX];

	(void)state;
	parse(&a, "-x", "tpm", "-r", "/dev/x", "-O", "hwrng:entropy_per_bit:0.1", "--on-fail=drop", NULL);
	parse(&b, "-x", "tpm", "-O", "hwrng:entropy_per_bit:0.3", "-O", "file:priority:4", "-r", "/dev/x",
	      "--on-fail=mix", "-e", "2", "--stats-file=/run/s", "--egd-rate=9", "-q", NULL);
	assert_int_equal(check(&a, &b, err), 0);
	assert_string_equal(err, "");
}

static void test_source_selection_and_own_keys_need_a_restart(void **state)
{
	static const char *const changed[][4] = {
		{ "-x", "hwrng", NULL, NULL },                    /* a source left out */
		{ "-r", "/dev/y", NULL, NULL },                   /* another file */
		{ "-O", "hwrng:device:/dev/z", NULL, NULL },      /* a source's own key */
		/* -r of a device that was a character device at start and is
		 * missing now resolves to a file source: -H's credit with it. */
		{ "-O", "hwrng:device:/dev/x", "-n", "hwrng" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(changed) / sizeof(changed[0]); i++) {
		struct rngd_options a, b;
		char err[RNGD_ERR_MAX];

		parse(&a, "-r", "/dev/x", "-O", "file:entropy_per_bit:0.1", NULL);
		parse(&b, changed[i][0], changed[i][1], changed[i][2], changed[i][3], NULL);
		assert_int_equal(check(&a, &b, err), -EINVAL);
		assert_non_null(strstr(err, "the sources (-r, -x, -n, a source's own -O keys) changed"));
		assert_non_null(strstr(err, "only a restart applies"));
	}
}

static void test_each_start_only_setting_is_named(void **state)
{
	static const struct {
		const char *option;
		const char *name;
	} settings[] = {
		{ "--random-device=/tmp/sink", "random-device" },
		{ "--pid-file=/tmp/p", "pid-file" },
		{ "--drop-privileges=nosuchuser", "drop-privileges" },
		{ "--hwrng-sysfs=/tmp/sys", "hwrng-sysfs" },
		{ "--state-dir=/tmp/state", "state-dir" },
		{ "--open-wait=30", "open-wait" },
		{ "--no-take-credit", "take-credit" },
		{ "--fill-watermark=100", "fill-watermark" },
		{ "--topup-interval=5", "topup-interval" },
		{ "--force-reseed=5", "topup-interval" },
		{ "--topup-bytes=128", "topup-bytes" },
		{ "--egd-socket=/tmp/egd", "egd-socket" },
		{ "--egd-socket-group=kvm", "egd-socket-group" },
		{ "--egd-socket-mode=0600", "egd-socket-mode" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		struct rngd_options a, b;
		char err[RNGD_ERR_MAX], want[128];

		parse(&a, NULL);
		parse(&b, settings[i].option, NULL);
		assert_int_equal(check(&a, &b, err), -EINVAL);
		snprintf(want, sizeof(want), "%s changed, which only a restart applies", settings[i].name);
		assert_string_equal(err, want);
	}
}

static void test_several_changes_named_together(void **state)
{
	struct rngd_options a, b;
	char err[RNGD_ERR_MAX];

	(void)state;
	parse(&a, NULL);
	parse(&b, "-x", "all", "--topup-bytes=128", "--drop-privileges=nobody", NULL);
	assert_int_equal(check(&a, &b, err), -EINVAL);
	assert_string_equal(err, "the sources (-r, -x, -n, a source's own -O keys), drop-privileges, topup-bytes changed, "
				 "which only a restart applies");
}

/* A config file read at start and missing at the reload is not "no settings". */
static void test_config_gone_since_start_refused(void **state)
{
	char path[] = "/tmp/rngd-reload-check.XXXXXX";
	struct rngd_options a, b;
	char err[RNGD_ERR_MAX];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "option = hwrng:entropy_per_bit:0.1\n", 35), 35);
	assert_int_equal(close(fd), 0);
	parse(&a, NULL);
	assert_int_equal(rngd_config_load(&a, path, false, err), 0);
	assert_true(a.config_read);
	assert_int_equal(unlink(path), 0);
	parse(&b, NULL);
	assert_int_equal(rngd_config_load(&b, path, false, err), 0);
	assert_false(b.config_read);
	assert_int_equal(check(&a, &b, err), -EINVAL);
	assert_string_equal(err, "/etc/rngd.conf was read at start and is gone now");
}

/* No file at start: one that appears later is read, and /dev/null is "none". */
static void test_config_appearing_later_reloads(void **state)
{
	struct rngd_options a, b;
	char err[RNGD_ERR_MAX];

	(void)state;
	parse(&a, NULL);
	assert_int_equal(rngd_config_load(&a, "/nonexistent/rngd.conf", false, err), 0);
	assert_false(a.config_read);
	parse(&b, NULL);
	assert_int_equal(rngd_config_load(&b, "/dev/null", true, err), 0);
	assert_false(b.config_read);
	b.config_read = true;
	assert_int_equal(check(&a, &b, err), 0);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_credit_priority_and_loop_settings_reload),
	cmocka_unit_test(test_source_selection_and_own_keys_need_a_restart),
	cmocka_unit_test(test_each_start_only_setting_is_named),
	cmocka_unit_test(test_several_changes_named_together),
	cmocka_unit_test(test_config_gone_since_start_refused),
	cmocka_unit_test(test_config_appearing_later_reloads)
)
