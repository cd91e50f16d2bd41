/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's loop with the real kernel sink over mocked kernel calls,
 * for tests/integration/wait-states.sh: the "kernel sink after the pool is
 * ready" wait state cannot be reached with the real /dev/random on a test
 * machine (guard.sh covers it with a file, where RNDADDENTROPY fails).
 *
 *   wait-ksink SOURCE-PATH
 *
 * Reads SOURCE-PATH (a file source: regular file, FIFO or device), gates
 * it as rngd does, and feeds a kernel sink whose kernel is a mock on a
 * post-5.18 kernel whose pool is ready: it wants a top-up every 60 s and
 * nothing in between. Prints "running" once the loop is about to start,
 * runs until SIGTERM, then prints "adds N bytes B" (calls the mock saw).
 * Nothing here opens /dev/random or any device but SOURCE-PATH.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rngd/kernel_entropy.h"
#include "rngd/loop.h"

static unsigned long mock_adds, mock_bytes;

static int mock_open_device(const char *path)
{
	(void)path;
	return 1000;   /* never used as an fd: every call on it is mocked */
}

static void mock_close_device(int fd)
{
	(void)fd;
}

static int mock_add_entropy(int fd, const uint8_t *buf, size_t len, unsigned int credit_bits)
{
	(void)fd;
	(void)buf;
	(void)credit_bits;
	mock_adds++;
	mock_bytes += len;
	return 0;
}

static int mock_reseed(int fd)
{
	(void)fd;
	return 0;
}

static int mock_pool_ready(void)
{
	return 1;
}

static int mock_entropy_avail(void)
{
	return 256;
}

static int mock_poolsize(void)
{
	return 256;
}

static int mock_version(unsigned int *major, unsigned int *minor)
{
	*major = 6;
	*minor = 1;
	return 0;
}

static const struct kernel_entropy_ops mock_kernel = {
	.open_device = mock_open_device,
	.close_device = mock_close_device,
	.add_entropy = mock_add_entropy,
	.reseed = mock_reseed,
	.pool_ready = mock_pool_ready,
	.entropy_avail = mock_entropy_avail,
	.poolsize = mock_poolsize,
	.version = mock_version,
};

int main(int argc, char **argv)
{
	struct rng_sink_kernel_config kcfg;
	struct rngd_loop_config cfg = {
		.on_fail = RNGD_ON_FAIL_DROP,
		.quarantine_after = 3,
		.retest_min_ms = 1000,
		.retest_max_ms = 3600u * 1000u,
		.random_step = FIPS_BLOCK_BYTES,
		.stats_interval_s = 60,
		.ready_timeout_ms = 60000,
	};
	struct rngd_slot *slot;
	struct rngd_loop *loop;
	struct rngd_log log;
	struct rng_sink sink;
	sigset_t set;
	int r, code;

	if (argc != 2) {
		fprintf(stderr, "usage: wait-ksink SOURCE-PATH\n");
		return 2;
	}
	rngd_loop_signal_set(&set);
	(void)pthread_sigmask(SIG_BLOCK, &set, NULL);
	slot = calloc(1, sizeof(*slot));
	if (!slot)
		return 1;
	if (rng_source_init(&slot->src, &rng_source_file_ops) < 0)
		return 1;
	r = slot->src.ops->set_option(&slot->src, "path", argv[1]);
	if (r < 0) {
		fprintf(stderr, "wait-ksink: %s: %s\n", argv[1], strerror(-r));
		return 2;
	}
	slot->enabled = slot->explicit = true;
	rng_sink_kernel_config_default(&kcfg);
	r = rng_sink_kernel_open_ops(&sink, &kcfg, &mock_kernel);
	if (r < 0) {
		fprintf(stderr, "wait-ksink: kernel sink: %s\n", strerror(-r));
		return 1;
	}
	rngd_log_init(&log, true, LOG_NOTICE);
	r = rngd_loop_new(&loop, &log, &sink, slot, 1, &cfg);
	if (r < 0 || rngd_loop_open_sources(loop) == 0) {
		fprintf(stderr, "wait-ksink: cannot set up the loop: %s\n", r < 0 ? strerror(-r) : "no source");
		return 1;
	}
	printf("running\n");
	(void)fflush(stdout);
	code = rngd_loop_run(loop);
	rngd_loop_destroy(loop);
	sink.ops->close(&sink);
	rng_source_release(&slot->src);
	free(slot->ring);
	free(slot);
	rngd_log_close(&log);
	printf("adds %lu bytes %lu\n", mock_adds, mock_bytes);
	return code;
}
