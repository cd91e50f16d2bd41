/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The source interface. A source only knows how to find, open, read and
 * close its entropy; it never credits itself. The daemon's gate (fips/)
 * and credit policy decide what its bytes are worth.
 *
 * Every function returns 0 (or a byte count) on success and a negative
 * errno on failure. A source logs nothing itself: it says why in
 * src->why (rng_source_why()), and the caller that decides logs once.
 */
#ifndef RNGD_SOURCE_H
#define RNGD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where the kernel's hw_random core publishes rng_current and
 * rng_quality: the one spelling of the path for sources and daemon. */
#define RNG_HWRNG_SYSFS_DIR "/sys/class/misc/hw_random"

/* Room for a dynamic loader's reason, which names a module's path twice. */
#define RNG_SOURCE_WHY_MAX 320

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
	 * The size of src->priv, allocated by rng_source_init() aligned to
	 * RNG_SOURCE_PRIV_ALIGN and filled from priv_defaults (NULL: zeros),
	 * and freed by rng_source_release(): no source allocates or frees
	 * its own state. 0: no priv.
	 */
	size_t priv_size;
	const void *priv_defaults;

	/*
	 * 0 if the source can work here, else -errno with a human reason in
	 * src->why ("no /dev/hwrng", "CPU lacks RDSEED/RDRAND"). Must not
	 * need privileges beyond what an unprivileged rngd -l has: a source
	 * that cannot tell without root says so in why and returns 0 or
	 * -EACCES. -ENODATA from open(): exhausted for good (a regular file
	 * read to its end), never retried, since re-reading would credit the
	 * same bytes twice; any other error: retried with back-off.
	 */
	int (*probe)(struct rng_source *src);
	int (*open)(struct rng_source *src);
	/*
	 * May block. Returns bytes read (>0, maybe fewer than @len), 0 for
	 * "no more for now" (the loop closes the source and re-opens it with
	 * back-off), -ENODEV for "the device went away" (a device source
	 * waits for a device event), -ECANCELED is the loop's own, and any
	 * other -errno is a read error, retried after a re-open. A read that
	 * blocks outside wait_fd() is never interrupted: at shutdown its
	 * thread is left behind to end with the process.
	 */
	ssize_t (*read)(struct rng_source *src, void *buf, size_t len);
	/* Ends what open() began; priv and its settings stay for a new open(). */
	void (*close)(struct rng_source *src);
	/* -O name:key:value; -EINVAL for an unknown key or bad value. NULL: no keys. */
	int (*set_option)(struct rng_source *src, const char *key, const char *value);
	/*
	 * Optional: let go of what priv holds beyond close() (an fd kept
	 * across re-opens, a loaded library) before rng_source_release()
	 * frees priv itself. NULL: priv holds nothing but memory.
	 */
	void (*release)(struct rng_source *src);
	/*
	 * Optional, called by the reader thread while the source is open: the
	 * fd that becomes readable when read() has data, so the loop can wait
	 * for it beside its stop fd and end a waiting reader at shutdown.
	 * read() must read from it. NULL or -1: read() is simply called.
	 */
	int (*wait_fd)(const struct rng_source *src);
	/*
	 * Optional, called by the reader thread while the source is open: an
	 * fd that becomes readable when the open should end and the source
	 * be opened afresh (a FIFO removed or replaced at its path while it
	 * waits for a writer), polled beside wait_fd(); read() is then called
	 * and returns 0 at once, unless wait_fd() has data by then. NULL or
	 * -1: none.
	 */
	int (*reopen_fd)(const struct rng_source *src);
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
	/*
	 * Optional fact, read by the main thread: true while the bytes come
	 * from this machine's own kernel generator (/dev/random,
	 * /dev/urandom: rng_stat_is_kernel_generator()). The daemon credits
	 * them nothing where its sink feeds that same kernel: they are the
	 * kernel's output, not new entropy. NULL: false.
	 */
	bool (*reads_kernel_generator)(const struct rng_source *src);
	/*
	 * Optional: the file or device the source is set to read, as
	 * written, or NULL for none. Read by the main thread before any
	 * reader starts, for the daemon's start-up check that no two sources
	 * read one regular file (each would credit its bytes) and that the
	 * file sink is not what a source reads (rngd would credit its own
	 * output again); and by its reader for the line of a first open
	 * after the start, so it must not change once set. NULL: the source
	 * reads no file.
	 */
	const char *(*path)(const struct rng_source *src);
};

/* priv's alignment: a cache line, which Padlock's XSTORE scratch needs. */
#define RNG_SOURCE_PRIV_ALIGN 64

struct rng_source {
	const struct rng_source_ops *ops;
	char name[32];                  /* ops->name, or an instance name: "file.2" */
	double entropy_per_bit;         /* claimed credit per bit, 0.0 for dubious */
	double credit_ceiling;          /* -e: cap on the default credit, 1.0: none */
	int priority;
	char why[RNG_SOURCE_WHY_MAX];   /* last probe/open failure reason */
	void *priv;                     /* the source's own state, ops->priv_size bytes */
};

/* Every source compiled into this build, NULL-terminated (sources/registry.c). */
extern const struct rng_source_ops *const rng_source_registry[];

/* Find a source's ops by name, or NULL. */
const struct rng_source_ops *rng_source_find(const char *name);

/* Initialise @src for @ops with its defaults and allocate its priv:
 * 0, or -ENOMEM with @src holding no allocation. */
int rng_source_init(struct rng_source *src, const struct rng_source_ops *ops);

/* release() if the source has one, then free priv; the caller has
 * closed the source already. Safe on an @src whose init failed. */
void rng_source_release(struct rng_source *src);

/* The fd the reader may wait on, or -1 (see wait_fd). */
int rng_source_wait_fd(const struct rng_source *src);
/* The fd that asks for a fresh open, or -1 (see reopen_fd). */
int rng_source_reopen_fd(const struct rng_source *src);

/* Record a reason in src->why, printf-style. Returns @err (a -errno) for tail calls. */
int rng_source_why(struct rng_source *src, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Copy an -O text value into a fixed field of a source's state. 0, or
 * -EINVAL with the field untouched when @value is empty, does not fit in
 * @size bytes with its NUL, or (@absolute_path) does not start with '/'.
 */
int rng_option_text(char *dst, size_t size, const char *value, bool absolute_path);

/*
 * set_option() of a source whose only -O key, @name, is such a text, kept
 * in @dst: 0, or -EINVAL with src->why naming the unknown key or saying
 * what the value must be.
 */
int rng_option_only_text(struct rng_source *src, const char *key, const char *value, const char *name,
			 char *dst, size_t size, bool absolute_path);

/* Sleep @ms milliseconds, resuming after EINTR: the back-off of sources
 * whose hardware says "not now" (TPM, RNDR, DARN). */
void rng_sleep_ms(unsigned int ms);

/* Each source's ops, and when it is built (sources/registry.c lists them). */
extern const struct rng_source_ops rng_source_hwrng_ops;    /* sources/hwrng.c */
extern const struct rng_source_ops rng_source_file_ops;     /* sources/file.c */
extern const struct rng_source_ops rng_source_padlock_ops;  /* sources/padlock.c, x86 */
extern const struct rng_source_ops rng_source_rdrand_ops;   /* sources/rdrand.c, x86 */
extern const struct rng_source_ops rng_source_tpm_ops;      /* sources/tpm_tss.c, HAVE_LIBTSPI */
extern const struct rng_source_ops rng_source_tpm2_ops;     /* sources/tpm2.c, HAVE_TSS2_ESYS */
extern const struct rng_source_ops rng_source_sysstat_ops;  /* sources/sysstat.c, RNGD_SYSSTAT */
extern const struct rng_source_ops rng_source_rndr_ops;     /* sources/rndr.c, arm64 */
extern const struct rng_source_ops rng_source_darn_ops;     /* sources/darn.c, 64-bit POWER */
extern const struct rng_source_ops rng_source_pkcs11_ops;   /* sources/pkcs11.c, HAVE_P11KIT */

#endif /* RNGD_SOURCE_H */
