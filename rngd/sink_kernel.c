/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel sink: tested bytes go to the input pool through RNDADDENTROPY
 * with exactly the credit they earned.
 *
 * Since 5.18 the kernel counts credit only until the pool is first ready
 * (credit_init_bits() is a no-op afterwards), entropy_avail stops at 256,
 * write_wakeup_threshold does nothing and /dev/random never polls writable
 * once ready. So:
 *   1. Fill:   while getrandom(GRND_NONBLOCK) says EAGAIN, want data as fast
 *              as the sources give it.
 *   2. Top-up: once ready, want nothing until a timer (default 60 s, the
 *              kernel's reseed interval); then want topup_bytes, write
 *              them and ask for RNDRESEEDCRNG so they reach the CRNG now.
 * Older kernels (< 5.18; -W alone does not force it, only the
 * legacy_watermark setting used by tests does): the watermark path wants data while
 * entropy_avail is under the watermark, looking every poll interval.
 * Nothing here polls for POLLOUT or spins: when demand() is 0 it always
 * names a time in the future.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fips/fips.h"
#include "rngd/defaults.h"
#include "rngd/kernel_entropy.h"
#include "rngd/sink.h"

/* One gate block: the unit the loop tests and hands over. */
#define KSINK_FILL_BYTES FIPS_BLOCK_BYTES
#define KSINK_DEFAULT_POLL_MS 1000
/* Pre-5.18 kernels: rng-tools' default watermark, 3/4 of the pool. */
#define KSINK_WATERMARK_NUM 3
#define KSINK_WATERMARK_DEN 4
#define KSINK_LEGACY_POOL_BITS 4096
/* The first kernel with the "credit only until ready" input pool. */
#define KSINK_MODERN_MAJOR 5
#define KSINK_MODERN_MINOR 18

struct kernel_sink {
	const struct kernel_entropy_ops *k;
	int fd;
	bool watermark_path;
	bool pool_ready;
	bool topup_due;
	unsigned int watermark_bits;
	unsigned int topup_interval_s;
	size_t topup_bytes;
	size_t topup_done;
	uint64_t poll_ms;
	uint64_t now_ms;         /* the clock of the last demand() */
	uint64_t next_topup_ms;
	uint64_t hold_until_ms;  /* demand() is 0 until then */
	struct rng_sink_counters counted;
};

/* ---- configuration -------------------------------------------------- */

void rng_sink_kernel_config_default(struct rng_sink_kernel_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->device = RNGD_DEFAULT_RANDOM_DEVICE;
	cfg->topup_interval_s = RNGD_DEFAULT_TOPUP_INTERVAL_S;
	cfg->topup_bytes = RNGD_DEFAULT_TOPUP_BYTES;
	cfg->watermark_bits = -1;
	cfg->legacy_watermark = false;
	cfg->poll_interval_ms = KSINK_DEFAULT_POLL_MS;
}

static bool kernel_is_modern(const struct kernel_entropy_ops *k)
{
	unsigned int major = 0, minor = 0;

	/* Unknown means modern: that path never depends on POLLOUT. */
	if (k->version(&major, &minor) < 0)
		return true;
	return major > KSINK_MODERN_MAJOR ||
	       (major == KSINK_MODERN_MAJOR && minor >= KSINK_MODERN_MINOR);
}

static unsigned int watermark_for(const struct kernel_entropy_ops *k, int wanted)
{
	int pool = k->poolsize();

	if (pool <= 0)
		pool = KSINK_LEGACY_POOL_BITS;
	if (wanted < 0)
		return (unsigned int)pool / KSINK_WATERMARK_DEN * KSINK_WATERMARK_NUM;
	/* entropy_avail never exceeds the pool: a higher mark would feed forever. */
	return wanted > pool ? (unsigned int)pool : (unsigned int)wanted;
}

/* ---- demand: how much the kernel wants now -------------------------- */

static size_t watermark_demand(struct kernel_sink *ks, uint64_t now_ms, uint64_t *next_ms)
{
	int avail = ks->k->entropy_avail();

	if (avail >= 0 && (unsigned int)avail < ks->watermark_bits)
		return KSINK_FILL_BYTES;
	*next_ms = now_ms + ks->poll_ms;
	return 0;
}

static size_t kernel_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	struct kernel_sink *ks = s->priv;

	ks->now_ms = now_ms;
	if (ks->hold_until_ms > now_ms) {
		*next_ms = ks->hold_until_ms;
		return 0;
	}
	if (ks->watermark_path)
		return watermark_demand(ks, now_ms, next_ms);
	if (!ks->pool_ready) {
		/* An error reads as "not ready": filling is the safe side. */
		if (ks->k->pool_ready() <= 0)
			return KSINK_FILL_BYTES;
		/* The pool stays ready for the life of the kernel. */
		ks->pool_ready = true;
		ks->next_topup_ms = now_ms + (uint64_t)ks->topup_interval_s * 1000;
	}
	if (now_ms >= ks->next_topup_ms) {
		ks->topup_due = true;
		return ks->topup_bytes - ks->topup_done;
	}
	*next_ms = ks->next_topup_ms;
	return 0;
}

/* ---- write: RNDADDENTROPY, and RNDRESEEDCRNG after a top-up --------- */

/*
 * Before the pool is ready the kernel adds min(credit, what is left of its
 * 256 bits) to its count, which entropy_avail shows; afterwards nothing.
 * What this write made the count rise is what it really credited (other
 * kernel sources may add at the same moment: never more than @credit_bits
 * is taken for ours). Without entropy_avail, the credit handed over.
 */
static int write_filling(struct kernel_sink *ks, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	int before = credit_bits ? ks->k->entropy_avail() : -1;
	int after, r;

	r = ks->k->add_entropy(ks->fd, buf, len, credit_bits);
	if (r < 0)
		return r;
	ks->counted.bytes_filling += len;
	if (credit_bits == 0)
		return 0;
	after = ks->k->entropy_avail();
	if (before >= 0 && after >= 0)
		ks->counted.bits_counted += after <= before ? 0 :
			(unsigned int)(after - before) > credit_bits ? credit_bits : (unsigned int)(after - before);
	else
		ks->counted.bits_counted += credit_bits;
	return 0;
}

static int kernel_write(struct rng_sink *s, const uint8_t *buf, size_t len,
			unsigned int credit_bits)
{
	struct kernel_sink *ks = s->priv;
	int r;

	if (len == 0)
		return 0;
	/* rand_pool_info counts in int; a byte carries at most 8 bits. */
	if (len > (size_t)INT_MAX / 8 || credit_bits > len * 8)
		return -EINVAL;
	if (ks->watermark_path) {
		r = ks->k->add_entropy(ks->fd, buf, len, credit_bits);
		if (r < 0)
			goto failed;
		/* Old kernels count what they are given (up to the pool size). */
		ks->counted.bits_counted += credit_bits;
		ks->counted.bytes_filling += len;
		/* Zero-credit bytes cannot raise the count: no point hurrying. */
		if (credit_bits == 0)
			ks->hold_until_ms = ks->now_ms + ks->poll_ms;
		return 0;
	}
	if (!ks->pool_ready) {
		r = write_filling(ks, buf, len, credit_bits);
		if (r < 0)
			goto failed;
		return 0;
	}
	r = ks->k->add_entropy(ks->fd, buf, len, credit_bits);
	if (r < 0)
		goto failed;
	ks->counted.bytes_after_ready += len;
	if (!ks->topup_due)
		return 0;
	ks->topup_done += len;
	if (ks->topup_done < ks->topup_bytes)
		return 0;
	ks->topup_done = 0;
	ks->topup_due = false;
	ks->next_topup_ms = ks->now_ms + (uint64_t)ks->topup_interval_s * 1000;
	/* Without a reseed the new bytes would wait for the CRNG's own timer. */
	r = ks->k->reseed(ks->fd);
	if (r == 0)
		ks->counted.reseeds++;
	return r;
failed:
	/* Retrying at once would fail the same way: back off. */
	ks->hold_until_ms = ks->now_ms + ks->poll_ms;
	return r;
}

static void kernel_counters(const struct rng_sink *s, struct rng_sink_counters *out)
{
	const struct kernel_sink *ks = s->priv;

	*out = ks->counted;
	out->pool_phases = !ks->watermark_path;
	out->filling = ks->watermark_path || !ks->pool_ready;
}

static void kernel_close(struct rng_sink *s)
{
	struct kernel_sink *ks = s->priv;

	if (!ks)
		return;
	if (ks->fd >= 0)
		ks->k->close_device(ks->fd);
	free(ks);
	s->priv = NULL;
}

static const struct rng_sink_ops kernel_sink_ops = {
	.demand = kernel_demand,
	.write = kernel_write,
	.close = kernel_close,
	.counters = kernel_counters,
};

/* ---- open ------------------------------------------------------------ */

int rng_sink_kernel_open_ops(struct rng_sink *s, const struct rng_sink_kernel_config *cfg,
			     const struct kernel_entropy_ops *k)
{
	struct kernel_sink *ks;
	const char *device = cfg->device ? cfg->device : RNGD_DEFAULT_RANDOM_DEVICE;
	int fd;

	if (cfg->topup_interval_s == 0 || cfg->topup_bytes == 0 || cfg->poll_interval_ms == 0)
		return -EINVAL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	fd = k->open_device(device);
	if (fd < 0) {
		free(ks);
		return fd;
	}
	ks->k = k;
	ks->fd = fd;
	ks->topup_interval_s = cfg->topup_interval_s;
	ks->topup_bytes = cfg->topup_bytes;
	ks->poll_ms = cfg->poll_interval_ms;
	ks->watermark_path = cfg->legacy_watermark || !kernel_is_modern(k);
	if (ks->watermark_path)
		ks->watermark_bits = watermark_for(k, cfg->watermark_bits);
	s->ops = &kernel_sink_ops;
	s->name = "kernel";
	s->priv = ks;
	s->feeds_this_kernel = k->is_this_kernel;
	return 0;
}

const char *rng_sink_kernel_describe(const struct rng_sink *s, char *buf, size_t size)
{
	const struct kernel_sink *ks = s->priv;

	if (ks->watermark_path)
		(void)snprintf(buf, size, "watermark %u bits, checked every %llu ms",
			       ks->watermark_bits, (unsigned long long)ks->poll_ms);
	/* Asked at start-up, before the first demand() has looked: a pool
	 * made ready by an earlier rngd or the kernel itself is not "filling". */
	else if (!ks->pool_ready && ks->k->pool_ready() <= 0)
		(void)snprintf(buf, size, "filling until the pool is ready");
	else
		(void)snprintf(buf, size, "pool ready; topping up %zu bytes every %u s",
			       ks->topup_bytes, ks->topup_interval_s);
	return buf;
}
