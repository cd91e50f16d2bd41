/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Linked into the TSan builds of rngd only (tests/tsan/tsan.mk). The TSan
 * runtime starts a thread of its own with the first pthread_create(); it
 * wakes ten times a second and never takes part in rngd's privilege drop,
 * so the scripts that count rngd's wake-ups (wait-states.sh,
 * daemon-device-events.sh) or check every thread's capabilities
 * (daemon-hwrng.sh) would measure the runtime instead of rngd. The
 * runtime stops that thread when told a sandbox is coming; it only does
 * housekeeping (memory flushes, profiles), not race detection.
 */
#include <pthread.h>
#include <string.h>

#include <sanitizer/common_interface_defs.h>

static void *nothing(void *arg)
{
	return arg;
}

__attribute__((constructor)) static void tsan_stop_background_thread(void)
{
	__sanitizer_sandbox_arguments args;
	pthread_t t;

	memset(&args, 0, sizeof(args));
	/* The runtime's thread starts with the first thread; start one. */
	if (pthread_create(&t, NULL, nothing, NULL) == 0)
		(void)pthread_join(t, NULL);
	__sanitizer_sandbox_on_notify(&args);
}
