/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checker for the fault-injection tests; shares only the gate library with
 * rngd.
 *
 *   gen BLOCKS OUT       4 seed bytes and BLOCKS blocks: mostly random, every
 *                        5th biased (fails monobit), every 7th a copy of the
 *                        block 3 back (fails the repeated-block test); the
 *                        last 8 are random
 *   verify IN SINK [--to-end]
 *                        SINK must be whole 2500-byte blocks, each a
 *                        contiguous piece of IN found after the previous one
 *                        (nothing invented, cut short, reordered or sent
 *                        twice), each passing a gate that sees the sink's
 *                        blocks in order, no two alike. --to-end: the last
 *                        block ends within 3 blocks of IN's end (the source
 *                        was read on after the faults cleared). Prints
 *                        "blocks N realigned M" (M: blocks not on IN's own
 *                        block grid, i.e. after a dropped partial block).
 *   prefix EXPECT SINK   SINK must be a byte prefix of EXPECT; prints its
 *                        length in bytes and whole blocks
 *   feed FIFO IN         write IN to the FIFO, re-opening it whenever the
 *                        reader goes away (EPIPE), until all is written
 *   slowread FIFO OUT BPS
 *                        copy the FIFO to OUT at about BPS bytes a second
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fips/fips.h"
#include "tests/lib/slurp.h"
#include "tests/lib/splitmix64.h"

#define B FIPS_BLOCK_BYTES

static void die(const char *what)
{
	fprintf(stderr, "faultcheck: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t next_random(void)
{
	return test_splitmix64(&rng_state);
}

static void random_bytes(uint8_t *p, size_t n)
{
	FILE *f = fopen("/dev/urandom", "rb");

	if (!f || fread(p, 1, n, f) != n)
		die("/dev/urandom");
	fclose(f);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *buf = test_slurp(path, len);

	if (!buf)
		die(path);
	return buf;
}

static int gen(long blocks, const char *out)
{
	uint8_t *all = malloc((size_t)blocks * B + FIPS_SEED_BYTES);
	FILE *f = fopen(out, "wb");

	if (!all || !f)
		die(out);
	random_bytes(all, (size_t)blocks * B + FIPS_SEED_BYTES);
	for (long i = 0; i < blocks - 8; i++) {
		uint8_t *b = all + FIPS_SEED_BYTES + (size_t)i * B;

		if (i % 5 == 4) {
			for (size_t k = 0; k < B; k++) {
				uint8_t v = 0;

				for (int bit = 0; bit < 8; bit++)
					v = (uint8_t)(v << 1 | (next_random() % 100 < 60));
				b[k] = v;
			}
		} else if (i % 7 == 6 && i >= 3) {
			memcpy(b, b - 3 * B, B);
		}
	}
	if (fwrite(all, 1, (size_t)blocks * B + FIPS_SEED_BYTES, f) != (size_t)blocks * B + FIPS_SEED_BYTES ||
	    fclose(f) != 0)
		die(out);
	free(all);
	return 0;
}

static int verify(const char *in, const char *sink, int to_end)
{
	size_t li, ls, pos = FIPS_SEED_BYTES, realigned = 0, last_end = 0;
	uint8_t *pi = slurp(in, &li), *ps = slurp(sink, &ls);
	struct fips_gate_config cfg;
	struct fips_gate g;

	if (ls % B) {
		fprintf(stderr, "faultcheck: sink holds %zu bytes, not whole blocks (a block cut short)\n", ls);
		return 1;
	}
	fips_gate_config_default(&cfg);
	/* Their state spans blocks this check never sees: the ones that
	 * failed rngd's gate, and partial blocks it dropped. The lagged
	 * repeat's table keeps what fewer blocks leave in it, so it could
	 * find a repeat that rngd's, after more blocks, no longer holds:
	 * sink block 80 at input offset 450569 "failed" here once (mask
	 * 0x20) in a run whose rngd had gated it correctly. */
	cfg.sp800_90b = false;
	cfg.lagged_repeat = false;
	if (fips_gate_init(&g, &cfg) < 0)
		die("fips_gate_init");
	fips_gate_seed(&g, pi);
	for (size_t off = 0; off < ls; off += B) {
		const uint8_t *blk = ps + off;
		const uint8_t *at = pos + B <= li ? memmem(pi + pos, li - pos, blk, B) : NULL;
		unsigned int mask;

		if (!at) {
			fprintf(stderr, "faultcheck: sink block %zu is not a piece of the input after offset %zu\n",
				off / B, pos);
			return 1;
		}
		pos = (size_t)(at - pi) + B;
		last_end = pos;
		if ((pos - FIPS_SEED_BYTES) % B)
			realigned++;
		mask = fips_gate_check(&g, blk);
		if (mask) {
			fprintf(stderr, "faultcheck: sink block %zu (input offset %zu) fails the gate (mask 0x%x)\n",
				off / B, pos - B, mask);
			return 1;
		}
	}
	if (to_end && last_end + 3 * B < li) {
		fprintf(stderr, "faultcheck: the sink stops at input offset %zu of %zu: not read to the end\n",
			last_end, li);
		return 1;
	}
	printf("blocks %zu realigned %zu end %zu of %zu\n", ls / B, realigned, last_end, li);
	fips_gate_destroy(&g);
	free(pi);
	free(ps);
	return 0;
}

static int prefix(const char *expect, const char *sink)
{
	size_t le, ls;
	uint8_t *pe = slurp(expect, &le), *ps = slurp(sink, &ls);

	if (ls > le || memcmp(pe, ps, ls) != 0) {
		fprintf(stderr, "faultcheck: sink (%zu bytes) is not a prefix of the expected stream\n", ls);
		return 1;
	}
	printf("bytes %zu blocks %zu rest %zu\n", ls, ls / B, ls % B);
	return 0;
}

static int feed(const char *fifo, const char *in)
{
	size_t len, off = 0;
	uint8_t *p = slurp(in, &len);

	signal(SIGPIPE, SIG_IGN);
	while (off < len) {
		int fd = open(fifo, O_WRONLY | O_CLOEXEC);

		if (fd < 0)
			die(fifo);
		while (off < len) {
			ssize_t n = write(fd, p + off, len - off > 4096 ? 4096 : len - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EPIPE)
				break;
			if (n < 0)
				die("write");
			off += (size_t)n;
		}
		close(fd);
	}
	free(p);
	return 0;
}

static int slowread(const char *fifo, const char *out, long bps)
{
	int fd = open(fifo, O_RDONLY | O_CLOEXEC);
	FILE *f = fopen(out, "wb");
	uint8_t buf[256];
	size_t piece = bps >= 2560 ? sizeof(buf) : (size_t)(bps / 10 > 0 ? bps / 10 : 1);
	struct timespec pause = { 0, (long)(1e9 * (double)piece / (double)bps) };

	if (fd < 0 || !f)
		die(fifo);
	for (;;) {
		ssize_t n = read(fd, buf, piece);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n || fflush(f) != 0)
			die(out);
		nanosleep(&pause, NULL);
	}
	if (fclose(f) != 0)
		die(out);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "gen") == 0)
		return gen(strtol(argv[2], NULL, 10), argv[3]);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "verify") == 0)
		return verify(argv[2], argv[3], argc == 5 && strcmp(argv[4], "--to-end") == 0);
	if (argc == 4 && strcmp(argv[1], "prefix") == 0)
		return prefix(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "feed") == 0)
		return feed(argv[2], argv[3]);
	if (argc == 5 && strcmp(argv[1], "slowread") == 0)
		return slowread(argv[2], argv[3], strtol(argv[4], NULL, 10));
	fprintf(stderr, "usage: faultcheck gen BLOCKS OUT | verify IN SINK [--to-end] | prefix EXPECT SINK |"
		" feed FIFO IN | slowread FIFO OUT BPS\n");
	return 2;
}
