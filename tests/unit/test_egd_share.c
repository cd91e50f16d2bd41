/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sharing sink: the kernel sink's demand first (the host's pool until
 * ready, then its top-ups), the reserve with what is left; a file sink and
 * the reserve take turns; -o none feeds the reserve only; 0-credit parts
 * never reach the reserve; each part goes to exactly one place.
 */
#include <config.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/lib/test_main.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "rngd/egd_share.h"

struct fake_sink {
	size_t demand;
	uint64_t next_ms;
	size_t written;
	unsigned int credit;
};

static size_t fake_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	struct fake_sink *f = s->priv;

	(void)now_ms;
	if (!f->demand)
		*next_ms = f->next_ms;
	return f->demand;
}

static int fake_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	struct fake_sink *f = s->priv;

	(void)buf;
	f->written += len;
	f->credit += credit_bits;
	return 0;
}

static void fake_close(struct rng_sink *s)
{
	(void)s;
}

static const struct rng_sink_ops fake_ops = {
	.demand = fake_demand, .write = fake_write, .close = fake_close,
};

/*
 * Each case: the sharing sink `out` in front of the fake sink `f` (or of
 * none), feeding the reserve `r`. Set-up empties them; tear-down closes
 * what open_share() opened.
 */
static struct fake_sink f;
static struct rng_sink inner = { .ops = &fake_ops, .name = "kernel", .priv = &f }, out;
static struct egd_share sh;
static struct egd_reserve r;
static bool share_is_open;
static uint64_t next_ms; /* when the last demand() said to ask again */

/* What the sharing sink is in front of: nothing (-o none), a file sink
 * (they take turns) or the kernel sink (its demand always wins). */
enum inner_kind { INNER_NONE, INNER_FILE, INNER_KERNEL };

static int setup(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	inner.feeds_this_kernel = false;
	share_is_open = false;
	return 0;
}

static void close_share(void)
{
	out.ops->close(&out);
	egd_reserve_destroy(&r);
	share_is_open = false;
}

static int teardown(void **state)
{
	(void)state;
	if (share_is_open)
		close_share();
	return 0;
}

static void open_share(enum inner_kind kind, size_t reserve_size)
{
	assert_int_equal(egd_reserve_init(&r, reserve_size), 0);
	egd_share_open(&out, &sh, kind == INNER_NONE ? NULL : &inner, &r, kind == INNER_KERNEL);
	share_is_open = true;
}

static size_t demand(void)
{
	/* 0, not a time the sinks here name: a stale one cannot pass. */
	next_ms = 0;
	return out.ops->demand(&out, 0, &next_ms);
}

static int write_part(const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	return out.ops->write(&out, buf, len, credit_bits);
}

static void test_host_first(void **state)
{
	uint8_t buf[2500];

	(void)state;
	f.demand = 2500;
	f.next_ms = 60000;
	memset(buf, 0x5a, sizeof(buf));
	open_share(INNER_KERNEL, 4096);
	assert_string_equal(out.name, "kernel+egd");
	/* Pool not ready: the kernel sink wants, and gets, everything. */
	for (int i = 0; i < 5; i++) {
		assert_int_equal(demand(), 2500);
		assert_int_equal(write_part(buf, 2500, 20000), 0);
	}
	assert_int_equal(f.written, 5 * 2500);
	assert_int_equal(egd_reserve_snapshot(&r).held, 0);
	/* Ready: the kernel wants nothing until its top-up; the guests get it. */
	f.demand = 0;
	assert_int_equal(demand(), 4096);
	assert_int_equal(write_part(buf, 2500, 20000), 0);
	assert_int_equal(egd_reserve_snapshot(&r).held, 2500);
	assert_int_equal(f.written, 5 * 2500);
	/* Over the reserve's low-water mark: no demand, the next time is the kernel's. */
	assert_int_equal(demand(), 0);
	assert_int_equal(next_ms, 60000);
	/* A top-up is due while the reserve also wants: the host wins. */
	uint8_t tmp[4096];

	assert_int_equal(egd_reserve_take(&r, tmp, 1000), 1000);
	f.demand = 64;
	assert_int_equal(demand(), 64);
	assert_int_equal(write_part(buf, 64, 512), 0);
	assert_int_equal(f.written, 5 * 2500 + 64);
	assert_int_equal(egd_reserve_snapshot(&r).held, 1500);
	f.demand = 0;
	assert_int_equal(demand(), 4096 - 1500);
}

static void test_file_sink_takes_turns(void **state)
{
	uint8_t buf[100];
	size_t to_reserve = 0;

	(void)state;
	f.demand = 2500;
	memset(buf, 1, sizeof(buf));
	open_share(INNER_FILE, 1u << 20);
	for (int i = 0; i < 100; i++) {
		assert_true(demand() > 0);
		assert_int_equal(write_part(buf, sizeof(buf), 800), 0);
		if (sh.last_write == EGD_ROUTE_RESERVE)
			to_reserve += sizeof(buf);
	}
	/* Every part went to one place, half each. */
	assert_int_equal(f.written + egd_reserve_snapshot(&r).held, 100 * sizeof(buf));
	assert_int_equal(to_reserve, 50 * sizeof(buf));
	assert_int_equal(egd_reserve_snapshot(&r).held, to_reserve);
}

static void test_none_and_zero_credit(void **state)
{
	uint8_t buf[300];

	(void)state;
	memset(buf, 7, sizeof(buf));
	open_share(INNER_NONE, 1024);
	assert_string_equal(out.name, "egd");
	assert_int_equal(demand(), 1024);
	/* A failed block mixed with 0 credit, or a 0-credit source: dropped. */
	assert_int_equal(write_part(buf, 300, 0), 0);
	assert_int_equal(egd_reserve_snapshot(&r).held, 0);
	assert_int_equal(sh.bytes_dropped, 300);
	assert_int_equal(write_part(buf, 300, 2400), 0);
	assert_int_equal(egd_reserve_snapshot(&r).held, 300);
	assert_int_equal(sh.bytes_to_reserve, 300);
	/* Over the low-water mark: nothing wanted, and no timer (it pokes). */
	assert_int_equal(write_part(buf, 300, 2400), 0);
	assert_int_equal(demand(), 0);
	assert_int_equal(next_ms, RNG_SINK_NEVER);
}

/* While only the reserve asks, no zero-credit block is of use: the loop is
 * told to take none (it read, tested and dropped them as fast as a source
 * gave them). Taking turns with a file sink, a zero-credit part goes to the
 * file; with the kernel sink asking first, the question does not arise. */
static void test_zero_credit_is_not_taken_for_the_reserve(void **state)
{
	uint8_t buf[300];

	(void)state;
	memset(buf, 7, sizeof(buf));
	open_share(INNER_NONE, 1024);
	assert_true(demand() > 0);
	assert_true(out.ops->credit_only(&out));
	close_share();

	f.demand = 2500;
	open_share(INNER_FILE, 1u << 20);
	for (int i = 0; i < 4; i++) {
		assert_true(demand() > 0);
		assert_false(out.ops->credit_only(&out));
		assert_int_equal(write_part(buf, sizeof(buf), 0), 0);
	}
	assert_int_equal(f.written, 4 * sizeof(buf));
	assert_int_equal(egd_reserve_snapshot(&r).held, 0);
	close_share();

	f.demand = 0;
	open_share(INNER_KERNEL, 1u << 20);
	assert_true(demand() > 0);
	assert_true(out.ops->credit_only(&out));
	f.demand = 64;
	assert_int_equal(demand(), 64);
	assert_false(out.ops->credit_only(&out));
}

/* RDRAND-like parts: a 2500-byte block credited 39 bits (1/512 bit per
 * bit) must not reach guests as 2500 bytes of entropy. The reserve gets
 * SHA-512 digests, 64 bytes per 576 credited bits: never more bytes than
 * credited bits / 8, at any point of the stream. */
static void test_low_credit_is_condensed(void **state)
{
	uint8_t buf[2500];
	uint64_t credited = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131u + 7u);
	open_share(INNER_NONE, 1u << 20);
	assert_int_equal(sh.condense_error, 0);
	for (int i = 0; i < 100; i++) {
		/* In -s 1000 parts, as the loop cuts a block: 1000/1000/500. */
		static const size_t parts[] = { 1000, 1000, 500 };
		static const unsigned int credits[] = { 15, 16, 8 };
		size_t off = 0;

		for (int p = 0; p < 3; p++) {
			size_t held;

			assert_true(demand() > 0);
			assert_int_equal(write_part(buf + off, parts[p], credits[p]), 0);
			off += parts[p];
			credited += credits[p];
			held = egd_reserve_snapshot(&r).held;
			if (held * 8 > credited)
				fail_msg("%zu bytes in the reserve from %" PRIu64 " credited bits", held,
					 credited);
		}
	}
	/* 3900 bits: six outputs of 64 bytes (6 x 576 = 3456), 444 bits held back. */
	assert_int_equal(credited, 3900);
	assert_int_equal(egd_reserve_snapshot(&r).held, 6 * 64);
	assert_int_equal(sh.bytes_to_reserve, 6 * 64);
	assert_int_equal(sh.condenser.bits_in, 3900);
	/* The output is a hash, not the input: no 16-byte run of it appears. */
	uint8_t got[6 * 64];

	assert_int_equal(egd_reserve_take(&r, got, sizeof(got)), sizeof(got));
	for (size_t k = 0; k + 16 <= sizeof(got); k += 16)
		assert_null(memmem(buf, sizeof(buf), got + k, 16));
	/* Half credit (a source at 0.5): 10000 bits a block, with the 444 held
	 * back 10444 bits: 18 outputs. */
	assert_int_equal(write_part(buf, 2500, 10000), 0);
	assert_int_equal(egd_reserve_snapshot(&r).held, 18 * 64);
}

/* A source of /dev/urandom earns nothing on the sharing sink in front of
 * this machine's kernel (the host would count its own output), and keeps
 * its credit with -o none: the clients are other kernels. */
static void test_feeds_this_kernel_as_what_it_wraps(void **state)
{
	(void)state;
	inner.feeds_this_kernel = true;
	open_share(INNER_KERNEL, 4096);
	assert_true(out.feeds_this_kernel);
	close_share();
	inner.feeds_this_kernel = false;
	open_share(INNER_KERNEL, 4096);
	assert_false(out.feeds_this_kernel);
	close_share();
	inner.feeds_this_kernel = true;
	open_share(INNER_NONE, 4096);
	assert_false(out.feeds_this_kernel);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_host_first),
	RNGD_FIXTURE_TEST(test_file_sink_takes_turns),
	RNGD_FIXTURE_TEST(test_none_and_zero_credit),
	RNGD_FIXTURE_TEST(test_low_credit_is_condensed),
	RNGD_FIXTURE_TEST(test_feeds_this_kernel_as_what_it_wraps),
	RNGD_FIXTURE_TEST(test_zero_credit_is_not_taken_for_the_reserve)
)
