/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LD_PRELOAD fault shim: reads (or writes) on file descriptors opened on
 * one chosen path fail or shrink at seeded random points, so tests can
 * drive rngd's source and sink error paths with a real file behind them.
 *
 * Environment (read once, at the first open of FAULT_PATH):
 *   FAULT_PATH     the path (as passed to open) whose reads get faults
 *   FAULT_SEED     PRNG seed (default 1): the same seed, the same faults
 *   FAULT_RATE     faults per 1000 reads (default 100)
 *   FAULT_KINDS    comma list of eio, eintr, eagain, short, eof (default all)
 *   FAULT_SKIP     reads left alone before the first fault (default 0)
 *   FAULT_MAX      faults to inject in all; then the faults clear (default: no end)
 *   FAULT_DELAY_US sleep this long in every read of the path (slow source)
 *   FAULT_OPEN_DELAY_US  sleep this long in every open of the path (an
 *                  open that takes its time, as a TPM's behind a slow tcsd)
 *   FAULT_LOG      append one line per injected fault: "read N: KIND"
 *   FAULT_WRITES   1: the faults hit write() instead of read(); eof
 *                  means ENOSPC there
 *   FAULT_NSS_DELAY_US  sleep this long in getpwnam_r()/getgrnam_r(): a
 *                  name service (LDAP, sssd) that hangs
 *   FAULT_NSS_SKIP name service calls left alone before the slow ones
 *
 * A short read (write) really reads (writes), fewer bytes than asked
 * (1..len-1); every other fault consumes nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Relative: this library is built by its own rule, without -I. */
#include "../lib/splitmix64.h"

#define MAX_TRACKED_FD 4096

enum fault_kind { FAULT_EIO, FAULT_EINTR, FAULT_EAGAIN, FAULT_SHORT, FAULT_EOF, FAULT_KINDS_N };

static const char *const kind_names[FAULT_KINDS_N] = { "eio", "eintr", "eagain", "short", "eof" };

/* The shim's own state: a preloaded library has no caller to own it. */
static struct {
	pthread_mutex_t lock;
	bool configured;
	const char *path;
	uint64_t rng;
	unsigned int rate;
	unsigned int kinds[FAULT_KINDS_N];
	unsigned int nkinds;
	unsigned long skip, max, injected, reads;
	unsigned long delay_us, open_delay_us;
	bool writes;
	const char *log;
	bool tracked[MAX_TRACKED_FD];
} shim = { .lock = PTHREAD_MUTEX_INITIALIZER };

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static void configure_locked(void)
{
	const char *kinds = getenv("FAULT_KINDS");

	shim.configured = true;
	shim.path = getenv("FAULT_PATH");
	shim.rng = env_ulong("FAULT_SEED", 1);
	shim.rate = (unsigned int)env_ulong("FAULT_RATE", 100);
	shim.skip = env_ulong("FAULT_SKIP", 0);
	shim.max = env_ulong("FAULT_MAX", (unsigned long)-1);
	shim.delay_us = env_ulong("FAULT_DELAY_US", 0);
	shim.open_delay_us = env_ulong("FAULT_OPEN_DELAY_US", 0);
	shim.log = getenv("FAULT_LOG");
	shim.writes = env_ulong("FAULT_WRITES", 0) != 0;
	for (unsigned int k = 0; k < FAULT_KINDS_N; k++)
		if (!kinds || !*kinds || strstr(kinds, kind_names[k]))
			shim.kinds[shim.nkinds++] = k;
}

static uint64_t next_random_locked(void)
{
	return test_splitmix64(&shim.rng);
}

static void sleep_us(unsigned long us);

/* Notes whether @fd, just opened on @path, is on FAULT_PATH; returns @fd,
 * FAULT_OPEN_DELAY_US later if it is. */
static int track(const char *path, int fd)
{
	unsigned long delay = 0;

	if (fd < 0 || fd >= MAX_TRACKED_FD || !path)
		return fd;
	pthread_mutex_lock(&shim.lock);
	if (!shim.configured)
		configure_locked();
	shim.tracked[fd] = shim.path && strcmp(path, shim.path) == 0;
	if (shim.tracked[fd])
		delay = shim.open_delay_us;
	pthread_mutex_unlock(&shim.lock);
	if (delay)
		sleep_us(delay);
	return fd;
}

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "faultshim: no %s\n", name);
		abort();
	}
	return f;
}

/*
 * The function the wrapper @fn stands in front of (libc's), looked up at
 * the wrapper's first call and kept in a static of its own, so the shim
 * needs no constructor.
 */
#define REAL(fn)                                                                        \
	({                                                                              \
		static __typeof__(fn) *real_;                                           \
											\
		if (!real_)                                                             \
			real_ = real(#fn);                                              \
		real_;                                                                  \
	})

/*
 * The mode argument, there only with O_CREAT or O_TMPFILE. A macro, as
 * va_start() has to run in the variadic wrapper itself.
 */
#define MODE_ARG(flags)                                                                 \
	({                                                                              \
		va_list ap_;                                                            \
		mode_t mode_ = 0;                                                       \
											\
		va_start(ap_, flags);                                                   \
		if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)              \
			mode_ = (mode_t)va_arg(ap_, int);                               \
		va_end(ap_);                                                            \
		mode_;                                                                  \
	})

int open(const char *path, int flags, ...)
{
	return track(path, REAL(open)(path, flags, MODE_ARG(flags)));
}

int open64(const char *path, int flags, ...)
{
	return track(path, REAL(open64)(path, flags, MODE_ARG(flags)));
}

int __open_2(const char *path, int flags);
int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags);
int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	return track(path, REAL(openat)(dirfd, path, flags, MODE_ARG(flags)));
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	return openat(dirfd, path, flags, MODE_ARG(flags));
}

int close(int fd)
{
	if (fd >= 0 && fd < MAX_TRACKED_FD) {
		pthread_mutex_lock(&shim.lock);
		shim.tracked[fd] = false;
		pthread_mutex_unlock(&shim.lock);
	}
	return REAL(close)(fd);
}

static void log_fault(const char *op, unsigned long call_no, const char *kind)
{
	FILE *f;

	if (!shim.log)
		return;
	f = fopen(shim.log, "ae");
	if (!f)
		return;
	fprintf(f, "%s %lu: %s\n", op, call_no, kind);
	fclose(f);
}

static void sleep_us(unsigned long us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Whether this read or write on @fd gets a fault, which, and how short. */
static enum fault_kind decide(int fd, bool is_write, size_t len, size_t *short_len)
{
	enum fault_kind kind = FAULT_KINDS_N;
	unsigned long delay = 0;

	if (fd < 0 || fd >= MAX_TRACKED_FD)
		return kind;
	pthread_mutex_lock(&shim.lock);
	if (shim.tracked[fd] && shim.writes == is_write) {
		unsigned long call_no = ++shim.reads;

		delay = shim.delay_us;
		if (call_no > shim.skip && shim.injected < shim.max && shim.nkinds &&
		    next_random_locked() % 1000 < shim.rate) {
			kind = shim.kinds[next_random_locked() % shim.nkinds];
			if (kind == FAULT_SHORT && len < 2)
				kind = FAULT_KINDS_N;
			else
				shim.injected++;
			if (kind == FAULT_SHORT)
				*short_len = 1 + next_random_locked() % (len - 1);
		}
		if (kind != FAULT_KINDS_N)
			log_fault(is_write ? "write" : "read", call_no, kind_names[kind]);
	}
	pthread_mutex_unlock(&shim.lock);
	if (delay)
		sleep_us(delay);
	return kind;
}

/*
 * read() and write() share the fault decision: true when the call must
 * not reach the kernel, with *@ret what it returns instead (eof is 0 on
 * a read, ENOSPC on a write); false when it goes through with *@len
 * bytes, fewer than asked for a short fault.
 */
static bool fault_instead(int fd, bool is_write, size_t *len, ssize_t *ret)
{
	size_t short_len = 0;

	*ret = -1;
	switch (decide(fd, is_write, *len, &short_len)) {
	case FAULT_EIO: errno = EIO; return true;
	case FAULT_EINTR: errno = EINTR; return true;
	case FAULT_EAGAIN: errno = EAGAIN; return true;
	case FAULT_EOF:
		if (is_write)
			errno = ENOSPC;
		else
			*ret = 0;
		return true;
	case FAULT_SHORT: *len = short_len; return false;
	case FAULT_KINDS_N: break;
	}
	return false;
}

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t ret;

	if (fault_instead(fd, false, &len, &ret))
		return ret;
	return REAL(read)(fd, buf, len);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t ret;

	if (fault_instead(fd, true, &len, &ret))
		return ret;
	return REAL(write)(fd, buf, len);
}

ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		abort();
	return read(fd, buf, len);
}

/* A hung name service: getpwnam_r()/getgrnam_r() sleep, then answer. */
static void nss_pause(void)
{
	static unsigned long calls;
	unsigned long delay = env_ulong("FAULT_NSS_DELAY_US", 0);
	unsigned long call_no;

	pthread_mutex_lock(&shim.lock);
	call_no = ++calls;
	pthread_mutex_unlock(&shim.lock);
	if (delay && call_no > env_ulong("FAULT_NSS_SKIP", 0))
		sleep_us(delay);
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t len, struct passwd **found)
{
	nss_pause();
	return REAL(getpwnam_r)(name, pw, buf, len, found);
}

int getgrnam_r(const char *name, struct group *gr, char *buf, size_t len, struct group **found)
{
	nss_pause();
	return REAL(getgrnam_r)(name, gr, buf, len, found);
}
