/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TPM 1.2 (TrouSerS) source on a fake libtspi: chunking, freeing, reconnect with back-off. */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "tests/lib/fake_hw.h"
#include "tests/lib/source_fixture.h"

#include <tss/tspi.h>
#include <trousers/trousers.h>
#include <tss/tss_error.h>

#include "sources/source.h"
#include "sources/tpm_tss.h"

struct fake_tspi {
	int creates, connects, closes, get_tpms, frees, randoms;
	int live_contexts, live_buffers;
	int fail_connects;              /* connects refused before one succeeds; -1 forever */
	int comm_fail_after;            /* GetRandom calls before the link drops; -1 never */
	TSS_RESULT random_error;        /* a non-comm TPM error to return, 0 none */
	UINT32 lens[64];
	int last_destination_set;
	int link_stays_broken;
	unsigned char next;
	UINT32 fill_limit;              /* bytes really filled per call, 0 = all (the truncation bug) */
};

static struct fake_tspi tspi; /* test fixture, reset by setup() */

static TSS_RESULT fake_create(TSS_HCONTEXT *ctx)
{
	tspi.creates++;
	tspi.live_contexts++;
	*ctx = 0x1000 + (TSS_HCONTEXT)tspi.creates;
	return TSS_SUCCESS;
}

static TSS_RESULT fake_connect(TSS_HCONTEXT ctx, TSS_UNICODE *dest)
{
	(void)ctx;
	tspi.connects++;
	tspi.last_destination_set = dest != NULL;
	if (tspi.fail_connects < 0)
		return TSS_LAYER_TSP | TSS_E_COMM_FAILURE;
	if (tspi.fail_connects > 0) {
		tspi.fail_connects--;
		return TSS_LAYER_TSP | TSS_E_COMM_FAILURE;
	}
	return TSS_SUCCESS;
}

static TSS_RESULT fake_get_tpm(TSS_HCONTEXT ctx, TSS_HTPM *tpm)
{
	tspi.get_tpms++;
	*tpm = ctx + 0x100;
	return TSS_SUCCESS;
}

static TSS_RESULT fake_random(TSS_HTPM tpm, UINT32 len, BYTE **data)
{
	(void)tpm;
	if (tspi.randoms < 64)
		tspi.lens[tspi.randoms] = len;
	tspi.randoms++;
	if (tspi.comm_fail_after == 0) {
		/* One broken link; -2 keeps it broken for good. */
		if (!tspi.link_stays_broken)
			tspi.comm_fail_after = -1;
		return TSS_LAYER_TSP | TSS_E_COMM_FAILURE;
	}
	if (tspi.comm_fail_after > 0)
		tspi.comm_fail_after--;
	if (tspi.random_error)
		return tspi.random_error;
	*data = malloc(len);
	assert_non_null(*data);
	memset(*data, 0, len);
	for (UINT32 i = 0; i < len && (!tspi.fill_limit || i < tspi.fill_limit); i++)
		(*data)[i] = tspi.next++;
	tspi.live_buffers++;
	return TSS_SUCCESS;
}

static TSS_RESULT fake_free(TSS_HCONTEXT ctx, BYTE *mem)
{
	(void)ctx;
	tspi.frees++;
	tspi.live_buffers--;
	free(mem);
	return TSS_SUCCESS;
}

static TSS_RESULT fake_close(TSS_HCONTEXT ctx)
{
	(void)ctx;
	tspi.closes++;
	tspi.live_contexts--;
	return TSS_SUCCESS;
}

static const struct tpm_tss_api fake_api = {
	.context_create = fake_create,
	.context_connect = fake_connect,
	.context_get_tpm = fake_get_tpm,
	.get_random = fake_random,
	.free_memory = fake_free,
	.context_close = fake_close,
	/* libtspi's own strings and conversion (linked into this test). */
	.error_string = Trspi_Error_String,
	.native_to_unicode = Trspi_Native_To_UNICODE,
	.sleep_ms = fake_backoff_sleep,
};

static int setup(void **state)
{
	struct rng_source *src = fixture_source_new(&rng_source_tpm_ops);

	fake_hw_reset();
	memset(&tspi, 0, sizeof(tspi));
	tspi.comm_fail_after = -1;
	tpm_tss_source_use_api(src, &fake_api);
	*state = src;
	return 0;
}

static int teardown(void **state)
{
	struct rng_source *src = *state;

	fixture_source_free(src);
	/* Every context closed, every buffer handed back. */
	assert_int_equal(tspi.live_contexts, 0);
	assert_int_equal(tspi.live_buffers, 0);
	return 0;
}

static void test_probe_leaves_nothing_open(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->probe(src), 0);
	assert_int_equal(tspi.live_contexts, 0);
	tspi.fail_connects = -1;
	assert_int_equal(src->ops->probe(src), -ECONNREFUSED);
	assert_why_mentions(src, "tcsd");
	assert_int_equal(tspi.live_contexts, 0);
}

static void test_chunks_and_frees(void **state)
{
	struct rng_source *src = *state;
	static unsigned char buf[10000];

	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(tspi.randoms, 10);
	for (int i = 0; i < 9; i++)
		assert_int_equal(tspi.lens[i], TPM_TSS_CHUNK_DEFAULT);
	assert_int_equal(tspi.lens[9], 10000 - 9 * TPM_TSS_CHUNK_DEFAULT);
	assert_int_equal(tspi.frees, 10);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], (unsigned char)i);
}

static void test_truncated_response_detected(void **state)
{
	struct rng_source *src = *state;
	static unsigned char buf[6000];

	/* tcsd's TCP device: at most 2034 bytes really arrive per call. */
	tspi.fill_limit = 2034;
	assert_int_equal(src->ops->set_option(src, "chunk", "4096"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(tspi.lens[0], 4096);
	assert_int_equal(tspi.lens[1], 2048);
	assert_int_equal(tspi.lens[2], 1024);
	assert_why_mentions(src, "zero-filled");
	/* No zero run anywhere: the truncated chunks were dropped whole. */
	for (size_t i = 0; i + TPM_TSS_ZERO_TAIL <= sizeof(buf); i++) {
		int zeros = 0;

		for (size_t j = i; j < i + TPM_TSS_ZERO_TAIL; j++)
			zeros += buf[j] == 0;
		assert_true(zeros < TPM_TSS_ZERO_TAIL);
	}
}

static void test_chunk_option(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[100];

	assert_int_equal(src->ops->set_option(src, "chunk", "32"), 0);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), 100);
	assert_int_equal(tspi.randoms, 4);
	assert_int_equal(tspi.lens[3], 4);
}

static void test_reconnect_with_backoff(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[8192];

	assert_int_equal(src->ops->set_option(src, "chunk", "4096"), 0);
	assert_int_equal(src->ops->open(src), 0);
	/* First chunk fine, then tcsd dies and comes back after 4 refused connects. */
	tspi.comm_fail_after = 1;
	tspi.fail_connects = 4;
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	assert_int_equal(tpm_tss_source_reconnects(src), 1);
	assert_int_equal(fake_backoff.count, 4);
	assert_int_equal(fake_backoff.ms[0], TPM_TSS_BACKOFF_FIRST_MS);
	assert_int_equal(fake_backoff.ms[1], 2 * TPM_TSS_BACKOFF_FIRST_MS);
	assert_int_equal(fake_backoff.ms[2], 4 * TPM_TSS_BACKOFF_FIRST_MS);
	assert_int_equal(fake_backoff.ms[3], 8 * TPM_TSS_BACKOFF_FIRST_MS);
	assert_why_mentions(src, "reconnected");
	/* The bytes keep coming from the fake in order: nothing lost or doubled. */
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], (unsigned char)i);
}

static void test_reconnect_gives_up(void **state)
{
	struct rng_source *src = *state;
	unsigned char buf[64];
	unsigned long total = 0;

	assert_int_equal(src->ops->set_option(src, "reconnect_timeout", "20"), 0);
	assert_int_equal(src->ops->open(src), 0);
	tspi.comm_fail_after = 0;
	tspi.link_stays_broken = 1;
	tspi.fail_connects = -1;
	assert_read_fails(src, sizeof(buf), -ECONNREFUSED, "unreachable");
	for (int i = 0; i < fake_backoff.count && i < 64; i++) {
		assert_true(fake_backoff.ms[i] <= TPM_TSS_BACKOFF_MAX_MS);
		total += fake_backoff.ms[i];
	}
	/* Bounded: stops once 20 s of back-off have passed. */
	assert_true(total >= 20000 && total < 20000 + TPM_TSS_BACKOFF_MAX_MS);
	/* A later read (the daemon's re-try) connects again once tcsd is back. */
	tspi.fail_connects = 0;
	tspi.comm_fail_after = -1;
	assert_int_equal(src->ops->read(src, buf, sizeof(buf)), (ssize_t)sizeof(buf));
}

static void test_link_broken_every_time(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->open(src), 0);
	/* Connects succeed but every request dies: bounded, not an endless loop. */
	tspi.comm_fail_after = 0;
	tspi.link_stays_broken = 1;
	assert_read_fails(src, 64, -EIO, "drops every request");
	assert_int_equal(tspi.randoms, TPM_TSS_LINK_RETRIES + 1);
}

static void test_tpm_error_is_reported(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->open(src), 0);
	tspi.random_error = TSS_LAYER_TPM | 0x7; /* TPM_DISABLED */
	assert_read_fails(src, 64, -EIO, "Tspi_TPM_GetRandom: ");
	/* Trspi_Error_String gave a word, not an empty string. */
	assert_true(strlen(src->why) > strlen("Tspi_TPM_GetRandom: "));
	assert_int_equal(fake_backoff.count, 0); /* TPM errors are not connection trouble */
}

static void test_port_exported_to_tcsd_env_and_bad_options_rejected(void **state)
{
	struct rng_source *src = *state;
	static const struct option_case port_cases[] = {
		{ "port", "0", -EINVAL }, { "port", "65536", -EINVAL }, { "port", "30x", -EINVAL },
		{ "port", "31999", 0 },   { NULL, NULL, 0 },
	};
	static const struct option_case other_cases[] = {
		{ "chunk", "4097", -EINVAL }, { "chunk", "0", -EINVAL }, { "host", "", -EINVAL },
		{ "colour", "red", -EINVAL }, { "host", "127.0.0.1", 0 }, { NULL, NULL, 0 },
	};

	assert_set_options(src, port_cases);
	assert_string_equal(getenv("TSS_TCSD_PORT"), "31999");
	assert_set_options(src, other_cases);
	assert_int_equal(src->ops->open(src), 0);
	assert_int_equal(tspi.last_destination_set, 1);
}

static void test_reopen_keeps_options(void **state)
{
	struct rng_source *src = *state;

	assert_int_equal(src->ops->set_option(src, "chunk", "16"), 0);
	assert_int_equal(src->ops->open(src), 0);
	src->ops->close(src);
	assert_int_equal(tspi.live_contexts, 0);
	assert_source_reopens(src, 64);
	assert_int_equal(tspi.randoms, 4); /* chunk 16 survived the reopen */
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_probe_leaves_nothing_open),
	RNGD_FIXTURE_TEST(test_chunks_and_frees),
	RNGD_FIXTURE_TEST(test_chunk_option),
	RNGD_FIXTURE_TEST(test_truncated_response_detected),
	RNGD_FIXTURE_TEST(test_reconnect_with_backoff),
	RNGD_FIXTURE_TEST(test_reconnect_gives_up),
	RNGD_FIXTURE_TEST(test_link_broken_every_time),
	RNGD_FIXTURE_TEST(test_tpm_error_is_reported),
	RNGD_FIXTURE_TEST(test_port_exported_to_tcsd_env_and_bad_options_rejected),
	RNGD_FIXTURE_TEST(test_reopen_keeps_options)
)
