/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The source interface. A source only knows how to find, open, read and
 * close its entropy; it never credits itself. The daemon's gate (fips/)
 * and credit policy decide what its bytes are worth.
 *
 * Every function returns 0 (or a byte count) on success and a negative
 * errno on failure. A source logs nothing itself except through the
 * rng_source_log() hook the daemon installs, so the caller that decides
 * logs once.
 */
#ifndef RNGD_SOURCE_H
#define RNGD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where the kernel's hw_random core publishes rng_current and
 * rng_quality: the one spelling of the path for sources and daemon. */
#define RNG_HWRNG_SYSFS_DIR "/sys/class/misc/hw_random"

#define RNG_SOURCE_WHY_MAX 160

struct rng_source;

struct rng_source_ops {
	const char *name;               /* "hwrng", "file", "tpm", ... */
	const char *summary;            /* one line for rngd -l and the man page */
	const char *keys;               /* its -O keys as "key=default ...", for rngd -O NAME */
	double default_entropy_per_bit; /* conservative: what an untested device earns */
	int default_priority;           /* higher is read first */
	/*
	 * The credit can never be raised above default_entropy_per_bit (a
	 * source that is dubious by construction): the daemon refuses such
	 * an -O instead of letting the source undo it later.
	 */
	bool credit_fixed;

	/*
	 * 0 if the source can work here, else -errno with a human reason in
	 * src->why ("no /dev/hwrng", "CPU lacks RDSEED/RDRAND"). Must not
	 * need privileges beyond what an unprivileged rngd -l has: a source
	 * that cannot tell without root says so in why and returns 0 or
	 * -EACCES.
	 */
	int (*probe)(struct rng_source *src);
	int (*open)(struct rng_source *src);
	/* May block; returns bytes read (>0), 0 on end of data, or -errno. */
	ssize_t (*read)(struct rng_source *src, void *buf, size_t len);
	void (*close)(struct rng_source *src);
	/* -O name:key:value; -EINVAL for an unknown key or bad value. NULL: no keys. */
	int (*set_option)(struct rng_source *src, const char *key, const char *value);
	/*
	 * Optional: free src->priv for good (close() may be followed by a new
	 * open(), so it keeps priv). NULL: the source keeps nothing in priv
	 * that needs freeing.
	 */
	void (*destroy)(struct rng_source *src);
	/*
	 * Optional: the default credit given what the last probe() or open()
	 * found (RDSEED rather than RDRAND). Called by the daemon's main
	 * thread only, while the reader thread may be re-opening the source,
	 * so it reads the fact atomically. NULL: default_entropy_per_bit.
	 * A source never writes src->entropy_per_bit: it reports facts, the
	 * daemon alone decides credit (and caps a credit_fixed source).
	 */
	double (*default_credit)(const struct rng_source *src);
	/*
	 * Optional fact, read by the main thread: false when the bytes now
	 * being read must earn no credit whatever the setting (a regular
	 * file whose read offset cannot be kept across restarts: its bytes
	 * would be credited again by the next run). NULL: true.
	 */
	bool (*may_credit)(const struct rng_source *src);
};

/*
 * Return codes with a fixed meaning for the daemon's loop:
 *  open() -> -ENODATA: the source is exhausted for good (a regular file
 *            read to its end); never retried, since re-reading would
 *            credit the same bytes twice.
 *  read() -> 0: end of data for now; the loop closes the source and
 *            re-opens it with back-off.
 */

struct rng_source {
	const struct rng_source_ops *ops;
	char name[32];                  /* ops->name, or "file:PATH"-style instance name */
	double entropy_per_bit;         /* claimed credit per bit, 0.0 for dubious */
	double credit_ceiling;          /* -e: cap on the default credit, 1.0: none */
	int priority;
	int fd;                         /* the device fd while open, else -1: main.c
					 * looks at it to tell a character device
					 * (device events); the loop polls it beside
					 * its stop fd before each read(), so read()
					 * must read from it */
	char why[RNG_SOURCE_WHY_MAX];   /* last probe/open failure reason */
	void *priv;                     /* the source's own state */
};

/* Every source compiled into this build, NULL-terminated (sources/registry.c). */
extern const struct rng_source_ops *const rng_source_registry[];

/* Find a source's ops by name, or NULL. */
const struct rng_source_ops *rng_source_find(const char *name);

/* Initialise @src for @ops with its defaults (fd -1, empty why). */
void rng_source_init(struct rng_source *src, const struct rng_source_ops *ops);

/* Record a reason in src->why, printf-style. Returns @err (a -errno) for tail calls. */
int rng_source_why(struct rng_source *src, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * read(2) until @len bytes or end of file, retrying EINTR; returns bytes
 * read (short only at EOF), or -errno. The one helper every fd-based
 * source uses.
 */
ssize_t rng_read_full(int fd, void *buf, size_t len);

/* Sleep @ms milliseconds, resuming after EINTR: the back-off of sources
 * whose hardware says "not now" (TPM, RNDR, DARN). */
void rng_sleep_ms(unsigned int ms);

/* destroy() if the source has one; the caller has closed it already. */
void rng_source_destroy(struct rng_source *src);

extern const struct rng_source_ops rng_source_hwrng_ops;
extern const struct rng_source_ops rng_source_file_ops;
/* Issue 4's sources declare their ops here as they land. */
extern const struct rng_source_ops rng_source_padlock_ops;  /* sources/padlock.c */
extern const struct rng_source_ops rng_source_rdrand_ops;   /* sources/rdrand.c */
extern const struct rng_source_ops rng_source_tpm_ops;      /* sources/tpm_tss.c, HAVE_LIBTSPI */
extern const struct rng_source_ops rng_source_tpm2_ops;     /* sources/tpm2.c, HAVE_TSS2_ESYS */
extern const struct rng_source_ops rng_source_sysstat_ops;  /* sources/sysstat.c, RNGD_SYSSTAT */
/* Issue 17's. */
extern const struct rng_source_ops rng_source_rndr_ops;     /* sources/rndr.c, arm64 */
extern const struct rng_source_ops rng_source_darn_ops;     /* sources/darn.c, 64-bit POWER */
extern const struct rng_source_ops rng_source_pkcs11_ops;   /* sources/pkcs11.c, HAVE_P11KIT */

#endif /* RNGD_SOURCE_H */
