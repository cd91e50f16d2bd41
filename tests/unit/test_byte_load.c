/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fips/byte_load.h on known answers: each load on the bytes 01 02 .. 08
 * (and on bytes with the high bit set, where a signed byte would spread
 * ones), at an odd address, so that a swapped or sign-extending load fails.
 */
#include <config.h>

#include <string.h>

#include "tests/lib/test_main.h"

#include "fips/byte_load.h"

static const uint8_t counting[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
static const uint8_t high[] = { 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8 };

static void test_be64_first_byte_is_most_significant(void **state)
{
	(void)state;
	assert_int_equal(load_be64(counting), UINT64_C(0x0102030405060708));
	assert_int_equal(load_be64(high), UINT64_C(0xf1f2f3f4f5f6f7f8));
}

static void test_le64_first_byte_is_least_significant(void **state)
{
	(void)state;
	assert_int_equal(load_le64(counting), UINT64_C(0x0807060504030201));
	assert_int_equal(load_le64(high), UINT64_C(0xf8f7f6f5f4f3f2f1));
}

static void test_le32_reads_four_bytes(void **state)
{
	(void)state;
	assert_int_equal(load_le32(counting), UINT32_C(0x04030201));
	assert_int_equal(load_le32(counting + 4), UINT32_C(0x08070605));
	assert_int_equal(load_le32(high), UINT32_C(0xf4f3f2f1));
}

/* The sites load from any byte of a block: no alignment is assumed. The
 * union makes b 8-byte aligned, so b + 1 is odd. */
static void test_loads_at_an_odd_address(void **state)
{
	union {
		uint64_t word[2];
		uint8_t b[16];
	} buf;

	(void)state;
	buf.b[0] = 0xaa;
	memcpy(buf.b + 1, counting, sizeof(counting));
	assert_int_equal((uintptr_t)(buf.b + 1) % 2, 1);
	assert_int_equal(load_be64(buf.b + 1), UINT64_C(0x0102030405060708));
	assert_int_equal(load_le64(buf.b + 1), UINT64_C(0x0807060504030201));
	assert_int_equal(load_le32(buf.b + 1), UINT32_C(0x04030201));
}

/* Each length takes the first @n bytes and nothing after them. */
static void test_le_upto64_stops_at_n(void **state)
{
	static const uint64_t want[] = {
		0, 0x01, 0x0201, 0x030201, 0x04030201, UINT64_C(0x0504030201),
		UINT64_C(0x060504030201), UINT64_C(0x07060504030201), UINT64_C(0x0807060504030201),
	};

	(void)state;
	for (size_t n = 0; n <= 8; n++)
		assert_int_equal(load_le_upto64(counting, n), want[n]);
	assert_int_equal(load_le_upto64(high, 3), UINT64_C(0xf3f2f1));
	assert_int_equal(load_le_upto64(high, 8), load_le64(high));
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_be64_first_byte_is_most_significant),
	cmocka_unit_test(test_le64_first_byte_is_least_significant),
	cmocka_unit_test(test_le32_reads_four_bytes),
	cmocka_unit_test(test_loads_at_an_odd_address),
	cmocka_unit_test(test_le_upto64_stops_at_n)
)
