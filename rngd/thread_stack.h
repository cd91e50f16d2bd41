/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every rngd thread (source readers, the start's opener, the EGD server,
 * the start-up watch) starts with an explicit, small stack instead of glibc's 8 MB default
 * (the RLIMIT_STACK of the caller). The deepest use measured is well under
 * a tenth of it: bench/rngd-idle reports the resident part of each thread
 * stack (touched pages, i.e. the high-water mark), 12-32 kB with every
 * default source; a source's library (libtspi, tss2 TCTIs, PKCS#11
 * modules, getaddrinfo inside them) runs on the reader's stack, hence the
 * margin. Sanitizer builds keep the default: their frames are far larger.
 */
#ifndef RNGD_THREAD_STACK_H
#define RNGD_THREAD_STACK_H

#include <pthread.h>

#define RNGD_THREAD_STACK_SIZE (256 * 1024)

/* pthread_create() with RNGD_THREAD_STACK_SIZE; 0 or a positive error number like it. */
static inline int rngd_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return pthread_create(thread, NULL, fn, arg);
#else
	pthread_attr_t attr;
	int r = pthread_attr_init(&attr);

	if (r != 0)
		return r;
	r = pthread_attr_setstacksize(&attr, RNGD_THREAD_STACK_SIZE);
	if (r == 0)
		r = pthread_create(thread, &attr, fn, arg);
	(void)pthread_attr_destroy(&attr);
	return r;
#endif
}

#endif /* RNGD_THREAD_STACK_H */
