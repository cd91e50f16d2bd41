/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * EGD-style system sampler.
 *
 * Samples counters an outside observer cannot read exactly at the same
 * instant (interrupts per CPU, scheduler and VM statistics, disk and
 * network counters, hwmon temperatures and fans) and the nanosecond
 * timestamps of the sampling itself, and hashes them with SHA-512
 * (sources/sha512.c), chaining the previous state in. Output blocks are a second,
 * domain-separated hash of the state, so the output never reveals the
 * chain.
 *
 * Its credit is fixed at 0: how much of this an attacker on the same host
 * (or on the network, for the interrupt and packet counters) can predict
 * is unknowable, so the daemon may only mix it in without credit. Neither
 * the defaults nor -O can raise it.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sources/close_fd.h"
#include "sources/sha512.h"
#include "sources/read_full.h"
#include "sources/source.h"
#include "sources/sysstat.h"
#include "sources/sysstat_parse.h"

/* ---- 1. What is sampled -------------------------------------------------- */

typedef int (*parse_fn)(const char *text, size_t len, struct sysstat_values *out);

static const struct {
	const char *path;
	parse_fn parse;
} proc_files[] = {
	{ "/proc/interrupts", sysstat_parse_interrupts },
	{ "/proc/stat", sysstat_parse_stat },
	{ "/proc/diskstats", sysstat_parse_diskstats },
	{ "/proc/vmstat", sysstat_parse_vmstat },
	{ "/proc/net/dev", sysstat_parse_netdev },
};
#define N_PROC_FILES (sizeof(proc_files) / sizeof(proc_files[0]))

static const char *const hwmon_patterns[] = {
	"/sys/class/hwmon/*/temp*_input",
	"/sys/class/hwmon/*/fan*_input",
};

enum {
	DIGEST_LEN = SHA512_DIGEST_LEN,
	FILE_MAX = 1 << 20,             /* no statistics file is larger on sane machines */
	VALUES_MAX = 1 << 16,
	HWMON_MAX = 64,
};

struct sysstat_state {
	char root[256];                 /* prefix for every path ("" = the real system) */
	char *paths[N_PROC_FILES + HWMON_MAX];
	parse_fn parsers[N_PROC_FILES + HWMON_MAX];
	size_t n_paths;
	struct sha512 md;
	unsigned char chain[DIGEST_LEN];
	uint64_t samples;
	char *text;
	size_t text_cap;
	struct sysstat_values vals;
	struct sysstat_stats stats;
	int open;
};

/* ---- 2. Options: the root folder (its 0 credit is .credit_fixed) -------- */

static int sysstat_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct sysstat_state *st = src->priv;
	int r = rng_option_only_text(src, key, value, "root", st->root, sizeof(st->root), true);

	if (r < 0)
		return r;
	/* "/" and "" both mean the real system. */
	if (strcmp(st->root, "/") == 0)
		st->root[0] = '\0';
	return 0;
}

/* ---- 3. Sampling --------------------------------------------------------- */

static int add_path(struct sysstat_state *st, const char *path, parse_fn parse)
{
	size_t n = strlen(st->root) + strlen(path) + 1;
	char *p;

	if (st->n_paths >= N_PROC_FILES + HWMON_MAX)
		return 0;
	p = malloc(n);
	if (!p)
		return -ENOMEM;
	(void)snprintf(p, n, "%s%s", st->root, path);
	st->paths[st->n_paths] = p;
	st->parsers[st->n_paths] = parse;
	st->n_paths++;
	return 0;
}

static int find_files(struct sysstat_state *st)
{
	char pattern[512];

	for (size_t i = 0; i < N_PROC_FILES; i++)
		if (add_path(st, proc_files[i].path, proc_files[i].parse) < 0)
			return -ENOMEM;
	for (size_t i = 0; i < sizeof(hwmon_patterns) / sizeof(hwmon_patterns[0]); i++) {
		glob_t g;

		(void)snprintf(pattern, sizeof(pattern), "%s%s", st->root, hwmon_patterns[i]);
		if (glob(pattern, 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++) {
			/* The glob already carries the root prefix. */
			char *p = strdup(g.gl_pathv[j]);

			if (!p || st->n_paths >= N_PROC_FILES + HWMON_MAX) {
				free(p);
				break;
			}
			st->paths[st->n_paths] = p;
			st->parsers[st->n_paths] = sysstat_parse_integer;
			st->n_paths++;
		}
		globfree(&g);
	}
	return 0;
}

/* Reads a whole file into st->text; returns its length or -errno. */
static ssize_t slurp(struct sysstat_state *st, const char *path)
{
	size_t len = 0;
	int fd RNG_CLOSE_ON_RETURN = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (len == st->text_cap) {
			size_t cap = st->text_cap ? st->text_cap * 2 : 16384;
			char *t;

			if (cap > FILE_MAX)
				return -EFBIG;
			t = realloc(st->text, cap);
			if (!t)
				return -ENOMEM;
			st->text = t;
			st->text_cap = cap;
		}
		n = rng_read_full(fd, st->text + len, st->text_cap - len);
		if (n < 0)
			return n;
		len += (size_t)n;
		/* Short of the buffer only at end of file. */
		if (len < st->text_cap)
			break;
	}
	return (ssize_t)len;
}

static void hash_u64(struct sha512 *md, uint64_t v)
{
	sha512_update(md, &v, sizeof(v));
}

static void hash_time(struct sha512 *md, clockid_t clock)
{
	struct timespec ts;

	(void)clock_gettime(clock, &ts);
	hash_u64(md, (uint64_t)ts.tv_sec);
	hash_u64(md, (uint64_t)ts.tv_nsec);
}

/* Folds one sample of every file into the chain. Returns files read. */
static size_t sample(struct sysstat_state *st)
{
	struct sha512 *md = &st->md;
	size_t files_read = 0;

	sha512_init(md);
	sha512_update(md, "S", 1);
	sha512_update(md, st->chain, sizeof(st->chain));
	hash_u64(md, st->samples++);
	hash_time(md, CLOCK_REALTIME);
	for (size_t i = 0; i < st->n_paths; i++) {
		ssize_t len;
		int n;

		hash_time(md, CLOCK_MONOTONIC_RAW);
		len = slurp(st, st->paths[i]);
		hash_time(md, CLOCK_MONOTONIC_RAW);
		hash_u64(md, (uint64_t)i);
		if (len < 0) {
			hash_u64(md, (uint64_t)-len);
			continue;
		}
		st->vals.n = 0;
		n = st->parsers[i](st->text, (size_t)len, &st->vals);
		if (n < 0) {
			/* Recovered fault: the file is skipped for this sample and counted. */
			st->stats.parse_errors++;
			hash_u64(md, (uint64_t)-n);
			continue;
		}
		files_read++;
		hash_u64(md, st->vals.n);
		sha512_update(md, st->vals.v, st->vals.n * sizeof(st->vals.v[0]));
		st->stats.values += st->vals.n;
	}
	hash_time(md, CLOCK_MONOTONIC_RAW);
	sha512_final(md, st->chain);
	st->stats.samples++;
	return files_read;
}

/* ---- 4. The source ------------------------------------------------------- */

static int sysstat_probe(struct rng_source *src)
{
	const struct sysstat_state *st = src->priv;
	char path[512];

	/* /proc/stat exists wherever Linux does; without it there is nothing to sample. */
	(void)snprintf(path, sizeof(path), "%s/proc/stat", st->root);
	if (access(path, R_OK) != 0)
		return rng_source_why(src, -errno, "cannot read %s", path);
	return 0;
}

/* Frees what open() acquired; the options stay for a later open(). */
static void release_open(struct sysstat_state *st)
{
	explicit_bzero(&st->md, sizeof(st->md));
	for (size_t i = 0; i < st->n_paths; i++)
		free(st->paths[i]);
	st->n_paths = 0;
	explicit_bzero(st->chain, sizeof(st->chain));
	free(st->text);
	st->text = NULL;
	st->text_cap = 0;
	free(st->vals.v);
	memset(&st->vals, 0, sizeof(st->vals));
	st->open = 0;
}

static void sysstat_close(struct rng_source *src)
{
	release_open(src->priv);
}

static int open_failed(struct rng_source *src, int err, const char *why)
{
	release_open(src->priv);
	return rng_source_why(src, err, "%s", why);
}

static int sysstat_open(struct rng_source *src)
{
	struct sysstat_state *st = src->priv;
	int err;

	if (st->open)
		return 0;
	err = sysstat_probe(src);
	if (err < 0)
		return err;
	sha512_init(&st->md);
	st->vals.v = calloc(VALUES_MAX, sizeof(st->vals.v[0]));
	st->vals.cap = st->vals.v ? VALUES_MAX : 0;
	if (!st->vals.v || find_files(st) < 0)
		return open_failed(src, -ENOMEM, "out of memory");
	if (sample(st) == 0)
		return open_failed(src, -ENOENT, "no statistics file could be read (root option?)");
	st->open = 1;
	return 0;
}

static ssize_t sysstat_read(struct rng_source *src, void *buf, size_t len)
{
	struct sysstat_state *st = src->priv;
	unsigned char *out = buf;
	size_t done = 0;

	if (!st || !st->open)
		return rng_source_why(src, -EBADF, "read before open");
	while (done < len) {
		size_t n = len - done < DIGEST_LEN ? len - done : DIGEST_LEN;

		(void)sample(st);
		uint8_t digest[DIGEST_LEN];

		sha512_init(&st->md);
		sha512_update(&st->md, "O", 1);
		sha512_update(&st->md, st->chain, sizeof(st->chain));
		sha512_final(&st->md, digest);
		memcpy(out + done, digest, n);
		explicit_bzero(digest, sizeof(digest));
		done += n;
	}
	return (ssize_t)done;
}

int sysstat_source_stats(const struct rng_source *src, struct sysstat_stats *stats)
{
	const struct sysstat_state *st = src->priv;

	if (!st || !st->open)
		return -EBADF;
	*stats = st->stats;
	stats->files = st->n_paths;
	return 0;
}

const struct rng_source_ops rng_source_sysstat_ops = {
	.name = "sysstat",
	.summary = "hash of system statistics and sampling times (EGD-style, never credited)",
	.keys = "root=/: where proc and sys are read",
	.default_entropy_per_bit = 0.0,
	.default_priority = -10,
	.credit_fixed = true,
	.priv_size = sizeof(struct sysstat_state),
	.probe = sysstat_probe,
	.open = sysstat_open,
	.read = sysstat_read,
	.close = sysstat_close,
	.set_option = sysstat_set_option,
};
