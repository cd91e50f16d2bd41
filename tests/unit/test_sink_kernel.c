/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel sink's feeding policy with every kernel call mocked: nothing
 * here can reach this machine's pool. A small fake kernel records each
 * call, so tests count them and check their order.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "fips/fips.h"
#include "rngd/kernel_entropy.h"
#include "rngd/sink.h"

#define FAKE_FD 42
#define TRACE_MAX 256

static struct fake_kernel {
	unsigned int major, minor;
	int ready;            /* what pool_ready() answers */
	int avail, poolsize;
	int open_ret, add_ret, reseed_ret;
	bool expect_credit;   /* add_entropy checks credit with cmocka */
	bool model_init_bits; /* avail plays 5.18+'s init_bits: credit counts
			       * until 256, then the pool is ready */
	unsigned int n_open, n_close, n_add, n_reseed, n_ready, n_avail, n_poolsize;
	size_t bytes_added;
	unsigned long bits_credited;
	char trace[TRACE_MAX]; /* 'A' add, 'R' reseed, in call order */
	size_t n_trace;
} fk;

static void trace(char c)
{
	if (fk.n_trace + 1 < sizeof(fk.trace))
		fk.trace[fk.n_trace++] = c;
}

static int fake_open_device(const char *path)
{
	fk.n_open++;
	assert_string_equal(path, "/dev/random");
	return fk.open_ret ? fk.open_ret : FAKE_FD;
}

static void fake_close_device(int fd)
{
	assert_int_equal(fd, FAKE_FD);
	fk.n_close++;
}

static int fake_add_entropy(int fd, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	assert_int_equal(fd, FAKE_FD);
	assert_non_null(buf);
	if (fk.expect_credit) {
		check_expected(len);
		check_expected(credit_bits);
	}
	fk.n_add++;
	trace('A');
	if (fk.add_ret)
		return fk.add_ret;
	fk.bytes_added += len;
	fk.bits_credited += credit_bits;
	if (fk.model_init_bits && !fk.ready) {
		fk.avail += credit_bits > 256 ? 256 : (int)credit_bits;
		if (fk.avail >= 256) {
			fk.avail = 256;
			fk.ready = 1;
		}
	}
	return 0;
}

static int fake_reseed(int fd)
{
	assert_int_equal(fd, FAKE_FD);
	fk.n_reseed++;
	trace('R');
	return fk.reseed_ret;
}

static int fake_pool_ready(void)
{
	fk.n_ready++;
	return fk.ready;
}

static int fake_entropy_avail(void)
{
	fk.n_avail++;
	return fk.avail;
}

static int fake_poolsize(void)
{
	fk.n_poolsize++;
	return fk.poolsize;
}

static int fake_version(unsigned int *major, unsigned int *minor)
{
	*major = fk.major;
	*minor = fk.minor;
	return 0;
}

/* A kernel of this version, with the pool that version has: 4096 bits
 * before 5.18's rewrite, 256 since. */
static void fake_kernel_version(unsigned int major, unsigned int minor)
{
	fk.major = major;
	fk.minor = minor;
	fk.poolsize = major > 5 || (major == 5 && minor >= 18) ? 256 : 4096;
}

static const struct kernel_entropy_ops fake_ops = {
	.open_device = fake_open_device,
	.close_device = fake_close_device,
	.add_entropy = fake_add_entropy,
	.reseed = fake_reseed,
	.pool_ready = fake_pool_ready,
	.entropy_avail = fake_entropy_avail,
	.poolsize = fake_poolsize,
	.version = fake_version,
};

/*
 * Each case drives one sink. Set-up gives it the default configuration,
 * which a case changes before open_sink(); tear-down closes the sink if the
 * case left it open, and checks that each sink opened closed its device once.
 */
static struct rng_sink sink;
static struct rng_sink_kernel_config cfg;
static bool sink_is_open;
static unsigned int sinks_opened;
static uint64_t next_ms; /* when the last demand() said to ask again */

static int setup(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof(fk));
	fake_kernel_version(6, 1);
	rng_sink_kernel_config_default(&cfg);
	sink_is_open = false;
	sinks_opened = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (sink_is_open)
		sink.ops->close(&sink);
	assert_int_equal(fk.n_close, sinks_opened);
	return 0;
}

static int try_open(void)
{
	return rng_sink_kernel_open_ops(&sink, &cfg, &fake_ops);
}

static void open_sink(void)
{
	unsigned int opens = fk.n_open;

	assert_int_equal(try_open(), 0);
	assert_int_equal(fk.n_open, opens + 1);
	sink_is_open = true;
	sinks_opened++;
}

static void close_sink(void)
{
	sink.ops->close(&sink);
	sink_is_open = false;
}

static size_t demand(uint64_t now_ms)
{
	/* A zero demand that names no time is caught, not hidden by an older one. */
	next_ms = RNG_SINK_NEVER;
	return sink.ops->demand(&sink, now_ms, &next_ms);
}

static const uint8_t block[FIPS_BLOCK_BYTES];

static int write_block(size_t len, unsigned int credit_bits)
{
	return sink.ops->write(&sink, block, len, credit_bits);
}

/* ---- credit -------------------------------------------------------------- */

static void test_credit_passed_exactly(void **state)
{
	const unsigned int credits[] = { 0, 1, 7, 1000, FIPS_BLOCK_BITS - 1, FIPS_BLOCK_BITS };

	(void)state;
	open_sink();
	fk.expect_credit = true;
	for (size_t i = 0; i < sizeof(credits) / sizeof(credits[0]); i++) {
		expect_value(fake_add_entropy, len, sizeof(block));
		expect_value(fake_add_entropy, credit_bits, credits[i]);
		assert_int_equal(write_block(sizeof(block), credits[i]), 0);
	}
	/* One byte carries at most 8 bits: more is a caller bug, never passed on. */
	assert_int_equal(write_block(10, 81), -EINVAL);
	expect_value(fake_add_entropy, len, 10);
	expect_value(fake_add_entropy, credit_bits, 80);
	assert_int_equal(write_block(10, 80), 0);
	assert_int_equal(fk.n_add, 7);
	/* Nothing to write is not a kernel call. */
	assert_int_equal(write_block(0, 0), 0);
	assert_int_equal(fk.n_add, 7);
	close_sink();
	assert_int_equal(fk.n_close, 1);
}

/* ---- 5.18+: fill until ready ---------------------------------------------- */

static void test_fill_before_ready(void **state)
{
	(void)state;
	fk.ready = 0;
	open_sink();
	for (int i = 0; i < 10; i++) {
		assert_int_equal(demand(1000 + (uint64_t)i), FIPS_BLOCK_BYTES);
		assert_int_equal(write_block(FIPS_BLOCK_BYTES, 8000), 0);
	}
	assert_int_equal(fk.n_ready, 10);
	assert_int_equal(fk.n_add, 10);
	assert_int_equal(fk.bits_credited, 80000);
	/* Filling never reseeds; it reads entropy_avail around each credited
	 * write to count what the kernel took (here the fake's count stays 0). */
	assert_int_equal(fk.n_reseed, 0);
	assert_int_equal(fk.n_avail, 20);

	/* The kernel says ready: the next top-up is one interval away. */
	fk.ready = 1;
	assert_int_equal(demand(5000), 0);
	assert_int_equal(next_ms, 5000 + 60 * 1000);
}

/*
 * A zero-credit write (sysstat, a failed block mixed in) while
 * the pool fills must not hold the sink back: a credited block right after
 * it goes straight in (and, with the EGD socket, to the host, not to the
 * reserve as a zero demand would route it). The loop paces zero-credit
 * blocks itself.
 */
static void test_zero_credit_before_ready_holds_nothing_back(void **state)
{
	struct rng_sink_counters c;

	(void)state;
	open_sink();
	assert_int_equal(demand(1000), FIPS_BLOCK_BYTES);
	assert_int_equal(write_block(FIPS_BLOCK_BYTES, 0), 0);
	assert_int_equal(demand(1001), FIPS_BLOCK_BYTES);
	assert_int_equal(write_block(FIPS_BLOCK_BYTES, 10000), 0);
	sink.ops->counters(&sink, &c);
	assert_true(c.pool_phases && c.filling);
	assert_int_equal(c.bytes_filling, 2 * FIPS_BLOCK_BYTES);
}

/*
 * The counters say what the kernel took: the rise of its count
 * while the pool filled (at most 256 bits in all), then bytes mixed in
 * after it was ready and the reseeds they triggered.
 */
static void test_counters_are_what_the_kernel_took(void **state)
{
	struct rng_sink_counters c;

	(void)state;
	fk.model_init_bits = true;
	cfg.topup_interval_s = 10;
	open_sink();
	assert_int_equal(demand(1000), FIPS_BLOCK_BYTES);
	assert_int_equal(write_block(64, 200), 0);
	sink.ops->counters(&sink, &c);
	assert_int_equal(c.bits_counted, 200);
	assert_int_equal(demand(1001), FIPS_BLOCK_BYTES);
	/* 64 bytes claimed at 8 bits a byte: 512 bits handed over, 56 counted. */
	assert_int_equal(write_block(64, 512), 0);
	sink.ops->counters(&sink, &c);
	assert_int_equal(c.bits_counted, 256);
	assert_int_equal(c.bytes_filling, 2 * 64);
	assert_true(c.filling);
	assert_int_equal(demand(2000), 0);
	sink.ops->counters(&sink, &c);
	assert_false(c.filling);
	assert_int_equal(demand(12000), 64);
	assert_int_equal(write_block(64, 512), 0);
	sink.ops->counters(&sink, &c);
	assert_int_equal(c.bits_counted, 256);
	assert_int_equal(c.bytes_after_ready, 64);
	assert_int_equal(c.reseeds, 1);
	assert_int_equal(fk.n_reseed, 1);
}

/*
 * A stand-in for rngd's loop on a virtual clock: read a source only when
 * the sink asks, otherwise sleep until the time it names.
 */
struct loop_counts {
	unsigned int iterations, source_reads;
};

static struct loop_counts run_loop(uint64_t start_ms, uint64_t end_ms)
{
	struct loop_counts c = { 0, 0 };
	uint64_t now = start_ms;

	while (now < end_ms) {
		size_t want = demand(now);

		c.iterations++;
		assert_true(c.iterations < 10000);
		if (want) {
			size_t len = want < sizeof(block) ? want : sizeof(block);

			c.source_reads++;
			assert_int_equal(write_block(len, (unsigned int)len * 8), 0);
			continue;
		}
		assert_true(next_ms > now); /* zero demand always names a future time */
		now = next_ms;
	}
	return c;
}

static void test_after_ready_no_feeding_until_timer(void **state)
{
	struct loop_counts c;
	unsigned int ready_calls;

	(void)state;
	fk.ready = 1;
	open_sink();
	assert_int_equal(demand(1000), 0);
	assert_int_equal(next_ms, 61000);
	ready_calls = fk.n_ready;
	assert_int_equal(ready_calls, 1);

	/* Asked again and again before the timer: no kernel call at all. */
	for (uint64_t t = 1001; t < 61000; t += 997) {
		assert_int_equal(demand(t), 0);
		assert_int_equal(next_ms, 61000);
	}
	assert_int_equal(fk.n_ready, ready_calls);
	assert_int_equal(fk.n_add + fk.n_reseed + fk.n_avail, 0);

	/* Ten virtual minutes of loop: exactly one 64-byte top-up a minute. */
	c = run_loop(1000, 1000 + 10 * 60 * 1000);
	assert_int_equal(c.source_reads, 9);
	assert_int_equal(fk.n_add, 9);
	assert_int_equal(fk.n_reseed, 9);
	assert_int_equal(fk.bytes_added, 9 * 64);
	assert_true(c.iterations <= 2 * 9 + 1);
	assert_int_equal(fk.n_ready, ready_calls);
}

static void test_topup_then_reseed(void **state)
{
	(void)state;
	cfg.topup_interval_s = 30;
	cfg.topup_bytes = 100;
	fk.ready = 1;
	open_sink();
	assert_int_equal(demand(0), 0);
	assert_int_equal(next_ms, 30000);
	assert_int_equal(demand(30000), 100);
	/* A short write: the top-up is not complete, no reseed yet. */
	assert_int_equal(write_block(40, 320), 0);
	assert_int_equal(fk.n_reseed, 0);
	assert_int_equal(demand(30001), 60);
	assert_int_equal(write_block(60, 0), 0);
	assert_string_equal(fk.trace, "AAR");
	assert_int_equal(fk.bytes_added, 100);
	/* Next top-up one interval after the one that completed. */
	assert_int_equal(demand(30002), 0);
	assert_int_equal(next_ms, 30001 + 30000);
}

static void test_unasked_write_after_ready_does_not_reseed(void **state)
{
	(void)state;
	fk.ready = 1;
	open_sink();
	assert_int_equal(demand(0), 0);
	assert_int_equal(write_block(64, 512), 0);
	assert_string_equal(fk.trace, "A");
	assert_int_equal(demand(1), 0);
	assert_int_equal(next_ms, 60000);
}

/* ---- watermark path ------------------------------------------------------ */

static void test_legacy_watermark_old_kernel(void **state)
{
	struct loop_counts c;

	(void)state;
	fake_kernel_version(5, 17);
	open_sink();
	/* Default: 3/4 of the pool, like rng-tools. */
	fk.avail = 3071;
	assert_int_equal(demand(0), FIPS_BLOCK_BYTES);
	fk.avail = 3072;
	assert_int_equal(demand(0), 0);
	assert_int_equal(next_ms, 1000);
	assert_int_equal(fk.n_ready, 0);

	/* Above the mark for a minute: one look a second, never a write. */
	c = run_loop(0, 60000);
	assert_int_equal(c.source_reads, 0);
	assert_int_equal(c.iterations, 60);
	assert_int_equal(fk.n_avail, 2 + 60);
	assert_int_equal(fk.n_add + fk.n_reseed + fk.n_ready, 0);

	/* Credited writes under the mark go straight on; zero credit waits. */
	fk.avail = 100;
	assert_int_equal(demand(70000), FIPS_BLOCK_BYTES);
	assert_int_equal(write_block(FIPS_BLOCK_BYTES, 4000), 0);
	assert_int_equal(demand(70001), FIPS_BLOCK_BYTES);
	assert_int_equal(write_block(FIPS_BLOCK_BYTES, 0), 0);
	assert_int_equal(demand(70002), 0);
	assert_int_equal(next_ms, 71001);
	assert_int_equal(fk.n_reseed, 0);
}

static void test_legacy_watermark_forced(void **state)
{
	char text[128];

	(void)state;
	cfg.legacy_watermark = true;
	cfg.watermark_bits = 4000;
	cfg.poll_interval_ms = 250;
	fk.poolsize = 256;
	fk.ready = 1;
	open_sink();
	/* entropy_avail stops at 256 on 5.18+: a higher mark would feed forever. */
	fk.avail = 256;
	assert_int_equal(demand(0), 0);
	assert_int_equal(next_ms, 250);
	fk.avail = 255;
	assert_int_equal(demand(0), FIPS_BLOCK_BYTES);
	assert_string_equal(rng_sink_kernel_describe(&sink, text, sizeof(text)),
			    "watermark 256 bits, checked every 250 ms");
	/* Unreadable entropy_avail: wait, do not feed blindly. */
	fk.avail = -EACCES;
	assert_int_equal(demand(10), 0);
	assert_int_equal(next_ms, 260);
	assert_int_equal(fk.n_ready, 0);
}

/* An empty pool on this kernel: which of its two counts the sink's first
 * demand() reads to decide it wants a block. */
static void check_first_demand_reads(unsigned int major, unsigned int minor,
				     unsigned int ready_calls, unsigned int avail_calls)
{
	fake_kernel_version(major, minor);
	fk.ready = 0;
	fk.avail = 0;
	fk.n_ready = 0;
	fk.n_avail = 0;
	open_sink();
	assert_int_equal(demand(0), FIPS_BLOCK_BYTES);
	assert_int_equal(fk.n_ready, ready_calls);
	assert_int_equal(fk.n_avail, avail_calls);
	close_sink();
}

static void test_version_boundary(void **state)
{
	(void)state;
	check_first_demand_reads(5, 18, 1, 0);
	check_first_demand_reads(4, 19, 0, 1);
}

/* ---- errors --------------------------------------------------------------- */

static void test_errors_propagate(void **state)
{
	(void)state;
	fk.ready = 1;
	open_sink();
	assert_int_equal(demand(60000), 0);
	assert_int_equal(demand(120000), 64);
	fk.add_ret = -EPERM;
	assert_int_equal(write_block(64, 512), -EPERM);
	assert_int_equal(fk.n_reseed, 0);
	/* A failed write backs off instead of retrying in a tight loop. */
	assert_int_equal(demand(120001), 0);
	assert_int_equal(next_ms, 121000);
	fk.add_ret = 0;
	fk.reseed_ret = -ENOTTY;
	assert_int_equal(demand(121000), 64);
	assert_int_equal(write_block(64, 512), -ENOTTY);
	/* The top-up is done even though the reseed failed: no spinning. */
	assert_int_equal(demand(121001), 0);
	assert_int_equal(next_ms, 181000);
	close_sink();

	/* Only the open the device refuses reaches it; bad configs do not. */
	fk.n_open = 0;
	fk.open_ret = -EACCES;
	assert_int_equal(try_open(), -EACCES);
	fk.open_ret = 0;
	cfg.topup_interval_s = 0;
	assert_int_equal(try_open(), -EINVAL);
	rng_sink_kernel_config_default(&cfg);
	cfg.topup_bytes = 0;
	assert_int_equal(try_open(), -EINVAL);
	rng_sink_kernel_config_default(&cfg);
	cfg.poll_interval_ms = 0;
	assert_int_equal(try_open(), -EINVAL);
	assert_int_equal(fk.n_open, 1);
}

static void test_defaults_and_describe(void **state)
{
	char text[128];

	(void)state;
	memset(&cfg, 0xa5, sizeof(cfg));
	rng_sink_kernel_config_default(&cfg);
	assert_string_equal(cfg.device, "/dev/random");
	assert_int_equal(cfg.topup_interval_s, 60);
	assert_int_equal(cfg.topup_bytes, 64);
	assert_true(cfg.watermark_bits < 0);
	assert_false(cfg.legacy_watermark);
	assert_int_equal(cfg.poll_interval_ms, 1000);

	open_sink();
	assert_string_equal(sink.name, "kernel");
	assert_string_equal(rng_sink_kernel_describe(&sink, text, sizeof(text)),
			    "filling until the pool is ready");
	fk.ready = 1;
	assert_int_equal(demand(0), 0);
	assert_string_equal(rng_sink_kernel_describe(&sink, text, sizeof(text)),
			    "pool ready; topping up 64 bytes every 60 s");
	close_sink();

	/* A pool already ready at start-up (an earlier rngd, a kernel that
	 * credits its own devices) is described as ready before any demand. */
	open_sink();
	assert_string_equal(rng_sink_kernel_describe(&sink, text, sizeof(text)),
			    "pool ready; topping up 64 bytes every 60 s");
}

/* Whether the sink feeds the kernel whose generator /dev/urandom is
 * (rngd/credit.h zeroes credit read from it) is the kernel calls' to say. */
static void test_feeds_this_kernel_only_through_its_calls(void **state)
{
	struct kernel_entropy_ops this_kernel = fake_ops;

	(void)state;
	memset(&sink, 0xa5, sizeof(sink));
	open_sink();
	assert_false(sink.feeds_this_kernel);
	close_sink();
	this_kernel.is_this_kernel = true;
	assert_int_equal(rng_sink_kernel_open_ops(&sink, &cfg, &this_kernel), 0);
	sinks_opened++;
	assert_true(sink.feeds_this_kernel);
	/* Closed here: the sink keeps a pointer to this frame's calls. */
	sink.ops->close(&sink);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_credit_passed_exactly),
	RNGD_FIXTURE_TEST(test_fill_before_ready),
	RNGD_FIXTURE_TEST(test_zero_credit_before_ready_holds_nothing_back),
	RNGD_FIXTURE_TEST(test_counters_are_what_the_kernel_took),
	RNGD_FIXTURE_TEST(test_after_ready_no_feeding_until_timer),
	RNGD_FIXTURE_TEST(test_topup_then_reseed),
	RNGD_FIXTURE_TEST(test_unasked_write_after_ready_does_not_reseed),
	RNGD_FIXTURE_TEST(test_legacy_watermark_old_kernel),
	RNGD_FIXTURE_TEST(test_legacy_watermark_forced),
	RNGD_FIXTURE_TEST(test_version_boundary),
	RNGD_FIXTURE_TEST(test_errors_propagate),
	RNGD_FIXTURE_TEST(test_feeds_this_kernel_only_through_its_calls),
	RNGD_FIXTURE_TEST(test_defaults_and_describe)
)
