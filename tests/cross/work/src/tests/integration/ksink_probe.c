/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Drives the real kernel sink (kernel_entropy_linux) once, for
 * ksink-device.sh, which runs it in a private mount namespace with a
 * regular file bound over /dev/random. It refuses to run when
 * /dev/random is a character device, so it can never feed this
 * machine's pool, even run by hand.
 *
 * Prints what the sink did; exit 0 when the write failed with ENOTTY (the
 * clear error RNDADDENTROPY gives on a file), 1 otherwise, 2 on misuse.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rngd/sink.h"

int main(int argc, char **argv)
{
	struct rng_sink_kernel_config cfg;
	struct rng_sink sink;
	struct timespec ts;
	struct stat st;
	uint8_t bytes[64] = { 0 };
	uint64_t now, next = 0;
	char text[128];
	size_t want;
	int r;

	rng_sink_kernel_config_default(&cfg);
	if (argc == 2 && !strcmp(argv[1], "--watermark"))
		cfg.legacy_watermark = true;
	else if (argc != 1) {
		fprintf(stderr, "usage: ksink_probe [--watermark]\n");
		return 2;
	}
	if (stat(cfg.device, &st) < 0 || S_ISCHR(st.st_mode)) {
		fprintf(stderr, "ksink_probe: refusing: %s is a character device or missing; "
				"run under unshare -m with a regular file bound over it\n",
			cfg.device);
		return 2;
	}
	r = rng_sink_kernel_open(&sink, &cfg);
	if (r < 0) {
		fprintf(stderr, "ksink_probe: open %s: %s\n", cfg.device, strerror(-r));
		return 1;
	}
	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	want = sink.ops->demand(&sink, now, &next);
	printf("phase: %s\n", rng_sink_kernel_describe(&sink, text, sizeof(text)));
	if (want)
		printf("demand: %zu bytes\n", want);
	else
		printf("demand: 0, ask again in %llu ms\n", (unsigned long long)(next - now));
	r = sink.ops->write(&sink, bytes, sizeof(bytes), 0);
	printf("write: %s\n", r < 0 ? strerror(-r) : "ok");
	sink.ops->close(&sink);
	return r == -ENOTTY ? 0 : 1;
}
