/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sinks take tested bytes and the credit they earned. The loop asks a sink
 * how much it wants before reading sources, so nothing is read, tested or
 * written while no sink asks for data (no busy loop once the pool is full).
 */
#ifndef RNGD_SINK_H
#define RNGD_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RNG_SINK_NEVER UINT64_MAX

struct rng_sink;

/*
 * What a sink's consumer really took (rngd.8, COUNTERS). The kernel since
 * 5.18 counts credit only until its pool is first ready, and at most 256
 * bits in all; after that it mixes bytes in and ignores the count.
 */
struct rng_sink_counters {
	bool pool_phases;           /* the kernel sink's modern path: the fields
				     * below split at the pool's readiness */
	bool filling;               /* credit counts now (pool not ready yet) */
	uint64_t bits_counted;      /* credit the consumer counted: for the kernel,
				     * the rise of its count (entropy_avail) that
				     * rngd's writes made while the pool was filling;
				     * for a file, the credit the bytes earned */
	uint64_t bytes_filling;     /* bytes handed while the pool was filling */
	uint64_t bytes_after_ready; /* bytes mixed in after it was ready */
	uint64_t reseeds;           /* RNDRESEEDCRNG after those top-ups */
};

struct rng_sink_ops {
	/*
	 * Bytes wanted now (0: none). When 0, *next_ms is the CLOCK_MONOTONIC
	 * time in ms to ask again, or RNG_SINK_NEVER. May block briefly on
	 * nothing: it only looks at state and cheap kernel queries.
	 */
	size_t (*demand)(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms);
	/* Hand over @len tested bytes worth @credit_bits; -errno on failure. */
	int (*write)(struct rng_sink *s, const uint8_t *buf, size_t len,
		     unsigned int credit_bits);
	void (*close)(struct rng_sink *s);
	/*
	 * Optional. When demand() returned 0: an fd and the poll() events
	 * that mean "ask demand() again" (a stalled pipe: POLLOUT), so the
	 * loop waits for it together with its signalfd instead of polling on
	 * a timer; -1 for none.
	 */
	int (*wait_fd)(struct rng_sink *s, short *events);
	/* Optional: what the consumer took so far. NULL: every credit bit
	 * handed over counts (test sinks). */
	void (*counters)(const struct rng_sink *s, struct rng_sink_counters *out);
	/*
	 * Optional, asked after demand(): true when the bytes it asked for go
	 * where only credited bytes are of use (the EGD reserve, which drops
	 * the rest). The loop then takes no zero-credit block for them:
	 * reading, testing and dropping such blocks as fast as a source gives
	 * them would be a busy loop. NULL: false.
	 */
	bool (*credit_only)(const struct rng_sink *s);
};

struct rng_sink {
	const struct rng_sink_ops *ops;
	const char *name;  /* "kernel", "file", "kernel+egd": for logs and stats */
	void *priv;
	/*
	 * The bytes reach the kernel whose generator this machine's
	 * /dev/random and /dev/urandom are (the kernel sink on the real
	 * kernel calls, or the EGD sharing sink around it): a source that
	 * reads that generator earns nothing here (rngd/credit.h).
	 */
	bool feeds_this_kernel;
};

/* -o PATH (not a character device) or "-" for stdout: passing bytes only. */
int rng_sink_file_open(struct rng_sink *s, const char *path);

struct rng_sink_kernel_config {
	const char *device;            /* default "/dev/random" */
	unsigned int topup_interval_s; /* after the pool is ready; default 60 */
	unsigned int topup_bytes;      /* bytes mixed per top-up; default 64 */
	int watermark_bits;            /* -W: pre-5.18 kernels; <0 means default */
	bool legacy_watermark;         /* force the watermark path (auto on < 5.18) */
	/*
	 * Watermark path: how often entropy_avail is looked at, and how long
	 * demand() stays 0 after a zero-credit write under the watermark
	 * (more of it could not raise the count). Both paths: how long
	 * demand() stays 0 after a failed write. Default 1000; 0 is invalid.
	 * While a modern kernel's pool fills, a zero-credit write holds
	 * nothing back: credited blocks must not wait behind it (the loop
	 * paces zero-credit blocks itself, rngd.8).
	 */
	unsigned int poll_interval_ms;
};

void rng_sink_kernel_config_default(struct rng_sink_kernel_config *cfg);
/*
 * Opens cfg->device O_WRONLY: call before privileges drop. -EINVAL for a
 * zero topup_interval_s, topup_bytes or poll_interval_ms; -errno of open().
 * write() returns the -errno of RNDADDENTROPY or RNDRESEEDCRNG (-ENOTTY
 * when the device is not the kernel's random device).
 */
int rng_sink_kernel_open(struct rng_sink *s, const struct rng_sink_kernel_config *cfg);
/* For logs and STATUS=: the sink's phase in words, written into @buf. */
const char *rng_sink_kernel_describe(const struct rng_sink *s, char *buf, size_t size);

#endif /* RNGD_SINK_H */
