/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source-dump: open one source through the registry, as rngd would, and
 * write N of its bytes to stdout. Lets the integration tests drive a source
 * without the daemon and pipe it into rngtest.
 *
 *   source-dump [-v] [-n BYTES] [-c CHUNK] [-d MS] [-O KEY:VALUE]... SOURCE
 *
 * -d pauses MS milliseconds between reads, so a test can act (kill tcsd)
 * while a dump is still running.
 * -O takes the source's own keys ("tcti:swtpm:host=..." keeps every colon
 * after the first in the value). -v prints each new src->why on stderr
 * (connection lost, reconnected, ...) and a rate summary at the end.
 * Exit: 0 all bytes written, 1 the source failed (its reason on stderr),
 * 2 usage.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fips/fips.h"
#include "sources/source.h"

#define MAX_OPTIONS 16

static double now_s(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(void)
{
	fprintf(stderr, "usage: source-dump [-v] [-n BYTES] [-c CHUNK] [-d MS] [-O KEY:VALUE]... SOURCE\n");
	return 2;
}

static int write_all(const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(STDOUT_FILENO, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *options[MAX_OPTIONS];
	size_t n_options = 0, chunk = FIPS_BLOCK_BYTES; /* one gate block by default */
	unsigned long long want = FIPS_BLOCK_BYTES;
	const struct rng_source_ops *ops;
	struct rng_source src;
	char last_why[RNG_SOURCE_WHY_MAX] = "";
	unsigned char *buf;
	unsigned long long done = 0;
	int verbose = 0, opt, status = 0;
	unsigned long delay_ms = 0;
	double t0;
	char *end;
	ssize_t r;

	while ((opt = getopt(argc, argv, "vn:c:d:O:")) != -1) {
		switch (opt) {
		case 'v':
			verbose = 1;
			break;
		case 'n':
			errno = 0;
			want = strtoull(optarg, &end, 10);
			if (errno || *end || optarg[0] == '-')
				return usage();
			break;
		case 'c':
			errno = 0;
			chunk = strtoul(optarg, &end, 10);
			if (errno || *end || chunk == 0 || chunk > (1u << 20))
				return usage();
			break;
		case 'd':
			errno = 0;
			delay_ms = strtoul(optarg, &end, 10);
			if (errno || *end || delay_ms > 60000)
				return usage();
			break;
		case 'O':
			if (n_options == MAX_OPTIONS || !strchr(optarg, ':'))
				return usage();
			options[n_options++] = optarg;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc - 1)
		return usage();
	/* A reader that goes away is the normal end of a pipe test. */
	(void)signal(SIGPIPE, SIG_IGN);

	ops = rng_source_find(argv[optind]);
	if (!ops) {
		fprintf(stderr, "source-dump: no source '%s' in this build\n", argv[optind]);
		return 2;
	}
	if (rng_source_init(&src, ops) < 0) {
		fprintf(stderr, "source-dump: %s: %s\n", ops->name, src.why);
		return 1;
	}
	for (size_t i = 0; i < n_options; i++) {
		char key[64];
		const char *colon = strchr(options[i], ':');
		int e;

		(void)snprintf(key, sizeof(key), "%.*s", (int)(colon - options[i]), options[i]);
		e = ops->set_option ? ops->set_option(&src, key, colon + 1) : -EINVAL;
		if (e < 0) {
			fprintf(stderr, "source-dump: %s: -O %s: %s%s%s\n", ops->name, options[i], strerror(-e),
				src.why[0] ? ": " : "", src.why);
			rng_source_release(&src);
			return 2;
		}
	}
	r = ops->probe(&src);
	if (r < 0) {
		fprintf(stderr, "source-dump: %s: unavailable: %s\n", ops->name, src.why);
		rng_source_release(&src);
		return 1;
	}
	r = ops->open(&src);
	if (r < 0) {
		fprintf(stderr, "source-dump: %s: cannot open: %s\n", ops->name, src.why);
		rng_source_release(&src);
		return 1;
	}
	if (verbose)
		fprintf(stderr, "source-dump: %s: opened, entropy_per_bit %.6f%s%s\n", ops->name,
			src.entropy_per_bit, src.why[0] ? ", " : "", src.why);
	(void)snprintf(last_why, sizeof(last_why), "%s", src.why);

	buf = malloc(chunk);
	if (!buf) {
		fprintf(stderr, "source-dump: out of memory\n");
		ops->close(&src);
		rng_source_release(&src);
		return 1;
	}
	t0 = now_s();
	while (done < want) {
		size_t n = want - done < chunk ? (size_t)(want - done) : chunk;

		r = ops->read(&src, buf, n);
		if (verbose && strcmp(last_why, src.why) != 0) {
			fprintf(stderr, "source-dump: %s: after %llu bytes: %s\n", ops->name, done, src.why);
			(void)snprintf(last_why, sizeof(last_why), "%s", src.why);
		}
		if (r < 0) {
			fprintf(stderr, "source-dump: %s: read failed after %llu bytes: %s (%s)\n", ops->name, done,
				src.why, strerror((int)-r));
			status = 1;
			break;
		}
		if (r == 0) {
			fprintf(stderr, "source-dump: %s: end of data after %llu bytes\n", ops->name, done);
			status = 1;
			break;
		}
		if (write_all(buf, (size_t)r) < 0) {
			fprintf(stderr, "source-dump: write to stdout failed after %llu bytes: %s\n", done,
				strerror(errno));
			status = 1;
			break;
		}
		done += (unsigned long long)r;
		if (delay_ms) {
			struct timespec pause = { .tv_sec = (time_t)(delay_ms / 1000),
						  .tv_nsec = (long)(delay_ms % 1000) * 1000000L };

			(void)nanosleep(&pause, NULL);
		}
	}
	if (verbose) {
		double dt = now_s() - t0;

		fprintf(stderr, "source-dump: %s: %llu bytes in %.3f s (%.1f KiB/s)\n", ops->name, done, dt,
			dt > 0 ? (double)done / 1024.0 / dt : 0.0);
	}
	explicit_bzero(buf, chunk);
	free(buf);
	ops->close(&src);
	rng_source_release(&src);
	return status;
}
