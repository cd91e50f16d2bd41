/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness: the config file parser (rngd/config.c over
 * rngd/options.c). The input is the whole file, handed over through a
 * memfd because the parser opens a path. Beyond "no crash, no leak" under
 * ASan/UBSan it checks the parser's contract: 0 or a negative errno, and
 * on failure exactly one non-empty line in err naming the file; on success
 * every numeric setting inside its documented range.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rngd/options.h"
#include "tests/fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int config_fd = -1;
static char config_path[64];

static void check_options(const struct rngd_options *o)
{
	FUZZ_CHECK(o->random_step >= 1 && o->random_step <= 65536);
	FUZZ_CHECK(o->watermark_bits >= -1 && o->watermark_bits <= 4096);
	FUZZ_CHECK(o->stats_interval_s >= 1 && o->stats_interval_s <= 86400);
	FUZZ_CHECK(o->ready_timeout_ms <= 60000);
	FUZZ_CHECK(o->quarantine_after <= 1000000);
	FUZZ_CHECK(o->retest_min_ms >= 1 && o->retest_min_ms <= 86400000);
	FUZZ_CHECK(o->retest_max_ms >= 1 && o->retest_max_ms <= 86400000);
	FUZZ_CHECK(o->topup_interval_s >= 1 && o->topup_interval_s <= 86400);
	FUZZ_CHECK(o->topup_bytes >= 1 && o->topup_bytes <= 4096);
	FUZZ_CHECK(o->on_fail == RNGD_ON_FAIL_DROP || o->on_fail == RNGD_ON_FAIL_MIX);
	/* Command-line-only settings cannot come from a file. */
	FUZZ_CHECK(!o->list && !o->version && !o->help && !o->test_mode && !o->config_path);
	for (size_t i = 0; i < o->n_source_args; i++) {
		const struct rngd_source_arg *a = &o->source_args[i];

		FUZZ_CHECK(a->text && a->text[0]);
		FUZZ_CHECK(a->kind == RNGD_SRC_FILE || a->kind == RNGD_SRC_EXCLUDE ||
		      a->kind == RNGD_SRC_INCLUDE || a->kind == RNGD_SRC_OPTION);
	}
	if (o->hwrng_sysfs)
		FUZZ_CHECK(o->hwrng_sysfs[0] == '/');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rngd_options o;
	char err[RNGD_ERR_MAX];
	int r;

	if (config_fd < 0) {
		config_fd = memfd_create("fuzz-rngd.conf", 0);
		if (config_fd < 0)
			abort();
		snprintf(config_path, sizeof(config_path), "/proc/self/fd/%d", config_fd);
	}
	if (ftruncate(config_fd, 0) < 0 || pwrite(config_fd, data, size, 0) != (ssize_t)size)
		abort();

	memset(err, 0x5a, sizeof(err));
	rngd_options_init(&o);
	r = rngd_config_load(&o, config_path, true, err);
	FUZZ_CHECK(r == 0 || (r < 0 && r > -4096));
	if (r < 0) {
		size_t len = strnlen(err, sizeof(err));

		FUZZ_CHECK(len > 0 && len < sizeof(err));
		FUZZ_CHECK(!strchr(err, '\n'));
		FUZZ_CHECK(strncmp(err, config_path, strlen(config_path)) == 0);
	} else {
		check_options(&o);
	}
	rngd_options_free(&o);
	return 0;
}
