/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SHA-512 (sources/sha512.c): the FIPS 180-4 example messages (empty,
 * "abc", the two-block 896-bit message, a million 'a'), lengths around the
 * padding boundaries (111/112 bytes: the length field just fits or not;
 * 127/128/129: a block edge), every split of a message into two updates,
 * and a second message after a digest (final re-initialises).
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "sources/sha512.h"

static void hex(const uint8_t d[SHA512_DIGEST_LEN], char out[2 * SHA512_DIGEST_LEN + 1])
{
	for (int i = 0; i < SHA512_DIGEST_LEN; i++)
		(void)snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void check(const void *msg, size_t len, const char *want)
{
	struct sha512 s;
	uint8_t d[SHA512_DIGEST_LEN];
	char got[2 * SHA512_DIGEST_LEN + 1];

	sha512_init(&s);
	sha512_update(&s, msg, len);
	sha512_final(&s, d);
	hex(d, got);
	assert_string_equal(got, want);
}

/* (i * 131 + 7) mod 256: the pattern the EGD tests feed. */
static void pattern(uint8_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)(i * 131u + 7u);
}

static void test_fips_examples(void **state)
{
	static const char two_block[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	struct sha512 s;
	uint8_t a[1000], d[SHA512_DIGEST_LEN];
	char got[2 * SHA512_DIGEST_LEN + 1];

	(void)state;
	check("", 0, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
	check("abc", 3, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
	check(two_block, strlen(two_block), "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");
	memset(a, 'a', sizeof(a));
	sha512_init(&s);
	for (int i = 0; i < 1000; i++)
		sha512_update(&s, a, sizeof(a));
	sha512_final(&s, d);
	hex(d, got);
	assert_string_equal(got, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b");
}

/* Digests from an independent implementation (Python's hashlib). */
static const struct {
	size_t len;
	const char *digest;
} patterns[] = {
	{ 111, "ca42f829cbc9e2c24e0cdcf754d6cc5794c6e7a7467b37d88706d1e7d8a8ed17e49c0485cb4423d43970135539ec7acaeeaeac1bf275757fa2b946532fd1a557" },
	{ 112, "ff7d52fc3a61de5265b1f12a31ddaf4d7b1d810512d9ff05a1749e9af2b6e154aca9df6f38f74d1fe9e9a17e2751c28e0a9f22a0cff74af4a11551da33c04384" },
	{ 127, "d1b18bf347c967bf6b44ccbed5afa82c532c3c67b12300fdb7c92c00ad046ecdbb073335d1d765884712c3c9d9a097bbd6b52ae3bf57f4a69886db984df980ff" },
	{ 128, "f225e70ebaf47c24482148ef1610c2eafaf640fbee9f860c0f883b79a72e764f3a788f69ce19b09aaa2b38eba4c0631f4ea86b0a8c01c623e9c8966d8bffe956" },
	{ 129, "b54f0317be5b89da560cacd77a26276f4b38a630cde21f1dcfa6762fed691aa2b9758c7a429696996e7b6c35ebbc6888b833a92a399e285759a20332e12c0e12" },
	{ 255, "46fd3a6f1b59e66650f00f2aa479e3320ff8e26473c1327ca81f6842e79fc65e39960148455d5e77e9b7d101bf2bbe22b7a517a09e25a813d87f51990ee2c894" },
	{ 256, "6c8ee98ccddf57d6260246e0f0c625b9e5716a84905c6988916b15c327dbb8755a3cbcddb3b40312be2ca1d286a0600107e1d77c14c5ff9f15afa4f47d426cff" },
	{ 1000, "7881dc60b1a8061810f37f35e9b90cd7725a42f8bbdd7eb516dba2563b4b1d89a2f92967fb721d93a72df061f52a038b6e62473161cd132b3390101909c58b2e" },
};

static void test_padding_edges(void **state)
{
	uint8_t buf[1000];

	(void)state;
	pattern(buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		check(buf, patterns[i].len, patterns[i].digest);
}

static void test_any_split_same_digest(void **state)
{
	uint8_t buf[300], whole[SHA512_DIGEST_LEN], part[SHA512_DIGEST_LEN];
	struct sha512 s;

	(void)state;
	pattern(buf, sizeof(buf));
	sha512_init(&s);
	sha512_update(&s, buf, sizeof(buf));
	sha512_final(&s, whole);
	for (size_t cut = 0; cut <= sizeof(buf); cut++) {
		sha512_update(&s, buf, cut);     /* final left s initialised */
		sha512_update(&s, buf + cut, sizeof(buf) - cut);
		sha512_final(&s, part);
		assert_memory_equal(part, whole, sizeof(whole));
	}
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_fips_examples),
	cmocka_unit_test(test_padding_edges),
	cmocka_unit_test(test_any_split_same_digest)
)
