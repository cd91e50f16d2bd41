/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VIA PadLock RNG source (VIA C3 Nehemiah onward, Zhaoxin).
 *
 * XSTORE stores 8 >> divisor bytes at EDI and returns in EAX the byte count
 * (bits 4:0) plus a copy of the RNG control MSR. A store is used only when
 * the count is exactly what the divisor asks for, the MSR copy says the RNG
 * is enabled, the whitener is on and the string filter did not fire;
 * anything else is a "no data" result and is retried, boundedly.
 *
 * Divisor 3 (one byte per XSTORE, every 8th bit) is the default because
 * adjacent raw bits of the Nehemiah RNG are measurably correlated
 * (Cryptography Research's evaluation); its credit of 0.5 per bit is below
 * the 0.75 that evaluation supports for the whitened output. The string
 * filter is left as the firmware set it but its failures are rejected:
 * FIPS failures in our gate are what we want to see.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sources/padlock.h"
#include "sources/source.h"

#if defined(__x86_64__) || defined(__i386__)
static uint32_t native_xstore(void *buf, uint32_t edx)
{
	uint32_t eax;

	/* xstore (0F A7 C0): ES:EDI destination, EDX divisor, EAX status. */
	__asm__ __volatile__(".byte 0x0f, 0xa7, 0xc0"
			     : "=a"(eax), "+D"(buf), "+d"(edx)
			     :
			     : "memory");
	return eax;
}
#else
static uint32_t native_xstore(void *buf, uint32_t edx)
{
	(void)buf;
	(void)edx;
	return 0; /* never reached: probe refuses without CPUID */
}
#endif

const struct padlock_hw padlock_hw_native = {
	.cpuid = cpuid_native,
	.xstore = native_xstore,
};

struct padlock_state {
	const struct padlock_hw *hw;
	unsigned divisor;
	int open;
	/* XSTORE writes whole words and some parts overrun: give it a cache line. */
	unsigned char scratch[64] __attribute__((aligned(64)));
};

static const struct padlock_state padlock_defaults = {
	.hw = &padlock_hw_native,
	.divisor = PADLOCK_DIVISOR_DEFAULT,
};

void padlock_source_use_hw(struct rng_source *src, const struct padlock_hw *hw)
{
	struct padlock_state *st = src->priv;

	st->hw = hw;
}

static int padlock_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct padlock_state *st;

	if (strcmp(key, "divisor") != 0)
		return rng_source_why(src, -EINVAL, "unknown option '%s' (known: divisor)", key);
	if (strlen(value) != 1 || value[0] < '0' || value[0] > '0' + PADLOCK_DIVISOR_MAX)
		return rng_source_why(src, -EINVAL, "divisor '%s' is not 0, 1, 2 or 3", value);
	st = src->priv;
	st->divisor = (unsigned)(value[0] - '0');
	return 0;
}

static int padlock_probe(struct rng_source *src)
{
	const struct padlock_state *st = src->priv;
	const struct padlock_hw *hw = st->hw;
	char why[RNG_SOURCE_WHY_MAX];
	int err = cpuid_padlock_rng(hw->cpuid, why, sizeof(why));

	if (err == -ENOTSUP)
		return rng_source_why(src, -ENODEV, "not an x86 CPU: no PadLock");
	if (err < 0)
		return rng_source_why(src, err, "%s", why);
	return 0;
}

static int padlock_open(struct rng_source *src)
{
	struct padlock_state *st = src->priv;
	int err;

	err = padlock_probe(src);
	if (err < 0)
		return err;
	st->open = 1;
	return 0;
}

enum store_result { STORE_OK, STORE_EMPTY, STORE_DISABLED, STORE_RAW, STORE_FILTER };

static enum store_result check_store(uint32_t eax, unsigned want)
{
	if (!(eax & PADLOCK_MSR_RNG_ENABLED))
		return STORE_DISABLED;
	if (eax & PADLOCK_MSR_RAW_BITS)
		return STORE_RAW;
	if (eax & PADLOCK_MSR_STRFILT_FAILED)
		return STORE_FILTER;
	if ((eax & PADLOCK_XSTORE_COUNT_MASK) != want)
		return STORE_EMPTY;
	return STORE_OK;
}

static ssize_t padlock_read(struct rng_source *src, void *buf, size_t len)
{
	struct padlock_state *st = src->priv;
	unsigned char *out = buf;
	size_t done = 0;
	unsigned want;
	int empty = 0;

	if (!st->open)
		return rng_source_why(src, -EBADF, "read before open");
	want = 8u >> st->divisor;
	while (done < len) {
		uint32_t eax;
		size_t n;

		memset(st->scratch, 0, sizeof(st->scratch));
		eax = st->hw->xstore(st->scratch, st->divisor);
		switch (check_store(eax, want)) {
		case STORE_OK:
			break;
		case STORE_DISABLED:
			return rng_source_why(src, -EIO, "XSTORE reports the RNG disabled (MSR 0x110B = 0x%08x)", eax);
		case STORE_RAW:
			return rng_source_why(src, -EIO, "XSTORE reports the whitener bypassed (raw bits, MSR 0x110B = 0x%08x)", eax);
		case STORE_FILTER:
			/* The filter saw a long repeated string: drop this store, keep going. */
		case STORE_EMPTY:
			if (++empty % PADLOCK_XSTORE_RETRIES == 0) {
				const struct timespec pause = { .tv_sec = 0, .tv_nsec = 10000 };

				if (empty >= PADLOCK_XSTORE_RETRIES * PADLOCK_EMPTY_ROUNDS) {
					if (done)
						return (ssize_t)done;
					return rng_source_why(src, -EIO, "XSTORE gave no data %d times in a row (last EAX 0x%08x)",
							      empty, eax);
				}
				(void)nanosleep(&pause, NULL);
			}
			continue;
		}
		empty = 0;
		n = len - done < want ? len - done : want;
		memcpy(out + done, st->scratch, n);
		done += n;
	}
	memset(st->scratch, 0, sizeof(st->scratch));
	return (ssize_t)done;
}

static void padlock_close(struct rng_source *src)
{
	struct padlock_state *st = src->priv;

	explicit_bzero(st->scratch, sizeof(st->scratch));
	st->open = 0;
}

const struct rng_source_ops rng_source_padlock_ops = {
	.name = "padlock",
	.summary = "VIA/Zhaoxin PadLock RNG (XSTORE instruction)",
	.keys = "divisor=3: XSTORE quality divisor 0..3",
	.default_entropy_per_bit = PADLOCK_ENTROPY_PER_BIT,
	.default_priority = 9,
	.priv_size = sizeof(struct padlock_state),
	.priv_defaults = &padlock_defaults,
	.probe = padlock_probe,
	.open = padlock_open,
	.read = padlock_read,
	.close = padlock_close,
	.set_option = padlock_set_option,
};
