/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Readiness probe for the QEMU guest. It only ever calls getrandom() with
 * GRND_NONBLOCK: a blocking call (or a /dev/random read) before the pool is
 * ready makes the kernel seed itself from CPU jitter within a second, which
 * would hide exactly what the guest scenarios measure.
 *
 *   guest-getrandom            print "ready" (exit 0) or "EAGAIN" (exit 1)
 *   guest-getrandom -w SECONDS poll every 20 ms; print "ready after S.SSS s"
 *                              (exit 0) or "not ready after SECONDS s" (exit 1)
 * Exit 2 on any other error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 1 ready, 0 not yet, -errno on another failure. */
static int pool_ready(void)
{
	unsigned char byte;

	if (getrandom(&byte, 1, GRND_NONBLOCK) == 1)
		return 1;
	if (errno == EAGAIN)
		return 0;
	return -errno;
}

int main(int argc, char **argv)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	double limit, start;
	char *end;
	int r;

	if (argc == 1) {
		r = pool_ready();
		if (r < 0) {
			fprintf(stderr, "guest-getrandom: %s\n", strerror(-r));
			return 2;
		}
		puts(r ? "ready" : "EAGAIN");
		return r ? 0 : 1;
	}
	if (argc != 3 || strcmp(argv[1], "-w") != 0) {
		fprintf(stderr, "usage: guest-getrandom [-w SECONDS]\n");
		return 2;
	}
	limit = strtod(argv[2], &end);
	if (*end || limit <= 0) {
		fprintf(stderr, "guest-getrandom: bad time-out %s\n", argv[2]);
		return 2;
	}
	start = now_s();
	for (;;) {
		r = pool_ready();
		if (r < 0) {
			fprintf(stderr, "guest-getrandom: %s\n", strerror(-r));
			return 2;
		}
		if (r) {
			printf("ready after %.3f s\n", now_s() - start);
			return 0;
		}
		if (now_s() - start >= limit) {
			printf("not ready after %g s\n", limit);
			return 1;
		}
		nanosleep(&tick, NULL);
	}
}
