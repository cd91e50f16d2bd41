/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness: the command-line parser (rngd_options_parse_argv).
 * The input is split at NUL bytes into argv[1..]. Checks: 0 or -EINVAL
 * with one non-empty line in err; a second parse of the same argv into
 * fresh options gives the same result (getopt is reset, so parsing twice
 * is safe, as rngd_options_load relies on); every numeric setting stays
 * in range.
 *
 * Each parse gets its own copy of the argv array: GNU getopt permutes argv
 * (non-options move to the end) although options.h says argv is not
 * modified, and a parse of an already permuted argv may then name another
 * word in its error message (reported to the options' owner; this harness
 * checks the parser, not that contract).
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rngd/options.h"
#include "tests/fuzz/fuzz_check.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_options(const struct rngd_options *o)
{
	FUZZ_CHECK(o->random_step >= 1 && o->random_step <= 65536);
	FUZZ_CHECK(o->watermark_bits >= -1 && o->watermark_bits <= 4096);
	FUZZ_CHECK(o->stats_interval_s >= 1 && o->stats_interval_s <= 86400);
	FUZZ_CHECK(o->ready_timeout_ms <= 60000);
	FUZZ_CHECK(o->retest_min_ms >= 1 && o->retest_max_ms >= 1);
	FUZZ_CHECK(o->topup_bytes >= 1 && o->topup_bytes <= 4096);
	for (size_t i = 0; i < o->n_source_args; i++)
		FUZZ_CHECK(o->source_args[i].text && o->source_args[i].text[0]);
}

static bool same_options(const struct rngd_options *a, const struct rngd_options *b)
{
	if (a->n_source_args != b->n_source_args || a->random_step != b->random_step ||
	    a->foreground != b->foreground || a->watermark_bits != b->watermark_bits ||
	    a->on_fail != b->on_fail || a->take_credit != b->take_credit)
		return false;
	for (size_t i = 0; i < a->n_source_args; i++)
		if (a->source_args[i].kind != b->source_args[i].kind ||
		    strcmp(a->source_args[i].text, b->source_args[i].text) != 0)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	char *argv[MAX_ARGS + 2], *argv2[MAX_ARGS + 2];
	struct rngd_options o1, o2;
	char err1[RNGD_ERR_MAX], err2[RNGD_ERR_MAX];
	int argc = 1, r1, r2;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = (char *)"rngd";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; argc++) {
		argv[argc] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	memcpy(argv2, argv, sizeof(argv));

	err1[0] = err2[0] = '\0';
	rngd_options_init(&o1);
	rngd_options_init(&o2);
	r1 = rngd_options_parse_argv(&o1, argc, argv, err1);
	r2 = rngd_options_parse_argv(&o2, argc, argv2, err2);
	FUZZ_CHECK(r1 == 0 || r1 == -EINVAL || r1 == -ENOMEM);
	FUZZ_CHECK(r1 == r2);
	if (r1 < 0) {
		size_t len = strnlen(err1, sizeof(err1));

		FUZZ_CHECK(len > 0 && len < sizeof(err1));
		FUZZ_CHECK(strcmp(err1, err2) == 0);
	} else {
		check_options(&o1);
		FUZZ_CHECK(same_options(&o1, &o2));
	}
	rngd_options_free(&o1);
	rngd_options_free(&o2);
	free(buf);
	return 0;
}
