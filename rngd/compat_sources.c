/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rng-tools' source names, indexes and keys, and what they mean here:
 * -x/-n by name or index, -O SRC:KEY:VALUE with the peer's keys, -r of a
 * device, all resolved into rngd's own source arguments after the
 * personalities' option tables (rngd/compat.c) have translated the
 * command line. A table, so rngd(8)'s COMPATIBILITY section and
 * tests/compat/ can be checked against it line by line.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include "fips/fips.h"
#include "rngd/compat.h"
#include "sources/kernel_generator.h"
#include "sources/parse_num.h"
#include "sources/source.h"

/* rng-tools 6.17's sources by index (rngd.h's enum), with what to use here. */
static const struct {
	const char *name;
	const char *here;     /* rngd's source, or NULL */
	const char *instead;  /* for -n of a source rngd has not */
} peer_sources[] = {
	{ "hwrng", "hwrng", NULL },
	{ "tpm", "tpm", "tpm2 for TPM 2.0, or hwrng where the tpm-rng driver serves /dev/hwrng" },
	{ "rdrand", "rdrand", NULL },
	{ "darn", "darn", "hwrng where the kernel serves the platform's RNG (darn is built on POWER only)" },
	{ "rndr", "rndr", "hwrng where the kernel serves the platform's RNG (rndr is built on arm64 only)" },
	{ "nist", NULL, "nothing: a public beacon is known to everyone and is no secret entropy" },
	{ "jitter", NULL, "the kernel's own jitter entropy, which seeds the pool without rngd" },
	{ "pkcs11", "pkcs11", "hwrng where the token's driver serves /dev/hwrng (pkcs11 needs libp11 at build)" },
	{ "rtlsdr", NULL, "-r on a FIFO fed by an SDR entropy tool (file source, no credit unless -O)" },
	{ "qrypt", NULL, "nothing: a remote service's bytes are not secret from its operator" },
	{ "namedpipe", "file", NULL },
};

#define N_PEER_SOURCES (sizeof(peer_sources) / sizeof(peer_sources[0]))

/* A numeric index to rng-tools' name; @name itself otherwise. */
static const char *peer_name(const char *name, struct rngd_options *o, const char *opt, int *r)
{
	unsigned long i;

	*r = 0;
	if (rng_parse_uint(name, 0, N_PEER_SOURCES - 1, &i) < 0)
		return name;
	*r = rngd_options_note(o, LOG_INFO, "%s %s: rng-tools' index %lu is its %s source", opt, name, i, peer_sources[i].name);
	return peer_sources[i].name;
}

static int peer_source(const char *name)
{
	for (size_t i = 0; i < N_PEER_SOURCES; i++)
		if (strcmp(peer_sources[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* In this build: a registry name, a file instance or all. */
static bool in_build(const char *name)
{
	return strcmp(name, "all") == 0 || rng_source_find(name) || strncmp(name, "file.", 5) == 0;
}

static int add_arg(struct rngd_source_arg **args, size_t *n, enum rngd_source_arg_kind kind, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));
static int add_arg(struct rngd_source_arg **args, size_t *n, enum rngd_source_arg_kind kind, const char *fmt,
		   ...)
{
	struct rngd_source_arg *a = realloc(*args, (*n + 1) * sizeof(*a));
	va_list ap;
	int len;

	if (!a)
		return -ENOMEM;
	*args = a;
	va_start(ap, fmt);
	len = vasprintf(&a[*n].text, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	a[(*n)++].kind = kind;
	return 0;
}

/* State while resolving: which source the last -r went to. */
struct resolution {
	unsigned int files;         /* -r to the file source so far */
	char rng_device_source[32]; /* for debian -H: "hwrng", "file", "file.2" ... */
	const char *hwrng_device;   /* the last -r that went to hwrng, or NULL */
};

static int resolve_file(struct rngd_options *o, struct resolution *res, const char *path,
			struct rngd_source_arg **out, size_t *n)
{
	struct stat st;
	bool found = stat(path, &st) == 0;

	/* A node under /dev that is not there yet is a device still to come
	 * (a module loading, hot-plug): resolved as it will be once there, so
	 * a start or reload while it is missing means the same sources. */
	if ((found && S_ISCHR(st.st_mode)) || (!found && errno == ENOENT && strncmp(path, "/dev/", 5) == 0)) {
		int r;

		/* rng-tools' meaning: -r names the hwrng source's device, read
		 * once as hwrng, not a second reader of the same device; a later
		 * one replaces it, as the peers' single -r does (Debian's
		 * defaults file then its command line). */
		snprintf(res->rng_device_source, sizeof(res->rng_device_source), "hwrng");
		res->hwrng_device = path;
		r = add_arg(out, n, RNGD_SRC_OPTION, "hwrng:device:%s", path);
		if (r == 0)
			r = add_arg(out, n, RNGD_SRC_INCLUDE, "hwrng");
		if (r == 0 && found && rng_stat_is_kernel_generator(&st))
			r = rngd_options_note(o, LOG_INFO, "-r %s: the kernel's random device, read by the hwrng "
					      "source; credited nothing while the sink is this kernel", path);
		else if (r == 0)
			r = rngd_options_note(o, LOG_INFO, "-r %s: %s, read by the hwrng source and credited as hwrng", path,
					      found ? "a character device" : "not there yet, taken for a device");
		return r;
	}
	res->files++;
	if (res->files == 1)
		snprintf(res->rng_device_source, sizeof(res->rng_device_source), "file");
	else
		snprintf(res->rng_device_source, sizeof(res->rng_device_source), "file.%u", res->files);
	return add_arg(out, n, RNGD_SRC_FILE, "%s", path);
}

static int resolve_select(struct rngd_options *o, const struct rngd_source_arg *a, struct rngd_source_arg **out,
			  size_t *n)
{
	char opt[4] = { '-', (char)a->kind, '\0', '\0' };
	int r;
	const char *name = peer_name(a->text, o, opt, &r);
	int k;

	if (r < 0)
		return r;
	k = peer_source(name);
	if (k >= 0 && peer_sources[k].here && strcmp(peer_sources[k].here, name) != 0) {
		r = rngd_options_note(o, LOG_INFO, "%s %s: rng-tools' %s is rngd's %s source", opt, a->text, name,
			 peer_sources[k].here);
		if (r < 0)
			return r;
		name = peer_sources[k].here;
	}
	if (k >= 0 && !in_build(name)) {
		if (a->kind == RNGD_SRC_EXCLUDE)
			return rngd_options_note(o, LOG_INFO, "-x %s: this rngd has no %s source; nothing to exclude", a->text, name);
		return rngd_options_note(o, LOG_WARNING, "-n %s: this rngd has no %s source; use %s", a->text, name,
			    peer_sources[k].instead ? peer_sources[k].instead : "another source");
	}
	return add_arg(out, n, a->kind, "%s", name);
}

/*
 * rng-tools' pkcs11:chunk_size is how many calls fill a 2500-byte block
 * (1 to 2500; its default 1 is one call); rngd's pkcs11:chunk is bytes per
 * call. More than 2500 calls, which rng-tools refuses, is one byte a call,
 * with a warning (as bytes it would mean the opposite); a value that is no
 * count of calls is refused in rng-tools' terms (told in rngd's, it would
 * name a key and a range the user never wrote).
 */
static int pkcs11_chunk_size(struct rngd_options *o, const char *text, const char *value,
			     struct rngd_source_arg **out, size_t *n, char err[RNGD_ERR_MAX])
{
	unsigned long calls, bytes;
	int r;

	if (rng_parse_uint(value, 1, ULONG_MAX, &calls) < 0)
		return rngd_fail(err, "-O %s: rng-tools' chunk_size needs how many calls fill a %d-byte block "
				 "(1 or more), not '%s'", text, FIPS_BLOCK_BYTES, value);
	bytes = calls > FIPS_BLOCK_BYTES ? 1 : FIPS_BLOCK_BYTES / calls;
	r = rngd_options_note(o, calls > FIPS_BLOCK_BYTES ? LOG_WARNING : LOG_INFO,
			      "-O %s: %lu call%s a %d-byte block, pkcs11:chunk:%lu (bytes a call)", text, calls,
			      calls == 1 ? "" : "s", FIPS_BLOCK_BYTES, bytes);
	return r < 0 ? r : add_arg(out, n, RNGD_SRC_OPTION, "pkcs11:chunk:%lu", bytes);
}

static int resolve_option(struct rngd_options *o, struct resolution *res, const char *text,
			  struct rngd_source_arg **out, size_t *n, char err[RNGD_ERR_MAX])
{
	const char *c1 = strchr(text, ':');
	const char *c2 = strchr(c1 + 1, ':');
	char src[64], key[64];
	const char *name;
	int k, r;

	snprintf(src, sizeof(src), "%.*s", (int)(c1 - text), text);
	snprintf(key, sizeof(key), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	if (strcmp(src, "rng-device") == 0) {
		/* debian -H: the source -r went to, hwrng when -r was not given. */
		name = res->rng_device_source[0] ? res->rng_device_source : "hwrng";
		r = rngd_options_note(o, LOG_NOTICE, "-H %s (rng-tools-debian): the %s source's credit, as written", c2 + 1, name);
		return r < 0 ? r : add_arg(out, n, RNGD_SRC_OPTION, "%s:%s:%s", name, key, c2 + 1);
	}
	name = peer_name(src, o, "-O", &r);
	if (r < 0)
		return r;
	k = peer_source(name);
	if (k >= 0 && peer_sources[k].here)
		name = peer_sources[k].here;
	if (k >= 0 && !in_build(name))
		return rngd_options_note(o, LOG_INFO, "-O %s: this rngd has no %s source; key %s ignored", text, peer_sources[k].name,
			    key);
	if (k >= 0 && strcmp(peer_sources[k].name, "pkcs11") == 0 && strcmp(key, "chunk_size") == 0)
		return pkcs11_chunk_size(o, text, c2 + 1, out, n, err);
	if (k >= 0 && strcmp(peer_sources[k].name, "pkcs11") == 0 && strcmp(key, "engine_path") == 0) {
		/* libp11's PKCS11_CTX_load() of that path: a PKCS#11 module. */
		r = rngd_options_note(o, LOG_INFO, "-O %s: the PKCS#11 module, pkcs11:module", text);
		return r < 0 ? r : add_arg(out, n, RNGD_SRC_OPTION, "pkcs11:module:%s", c2 + 1);
	}
	if (k >= 0 && strcmp(key, "use_aes") == 0)
		return rngd_options_note(o, LOG_INFO, "-O %s: noted; rngd never stretches a source through AES, the gate "
			    "sees and credits only its raw output", text);
	if (k >= 0 && strcmp(key, "timeout") == 0 && strcmp(peer_sources[k].name, "namedpipe") == 0)
		return rngd_options_note(o, LOG_INFO, "-O %s: noted; the file source re-opens a FIFO whose writer left, with "
			    "back-off, and never gives up on it", text);
	return add_arg(out, n, RNGD_SRC_OPTION, "%s:%s:%s", name, key, c2 + 1);
}

/*
 * "-r /dev/TRNG -O file:entropy_per_bit:1": the user meant the device's
 * credit, but the device is hwrng's and no file source runs, so the key
 * changes nothing. Said once, naming the key that would.
 */
static int note_file_keys_without_file(struct rngd_options *o, const struct resolution *res,
				       const struct rngd_source_arg *args, size_t n)
{
	if (res->files > 0 || !res->hwrng_device)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char *t = args[i].text;

		if (args[i].kind == RNGD_SRC_OPTION && strncmp(t, "file:path:", 10) == 0)
			return 0;   /* a file source of its own */
	}
	for (size_t i = 0; i < n; i++) {
		const char *t = args[i].text;

		if (args[i].kind == RNGD_SRC_OPTION && strncmp(t, "file:", 5) == 0)
			return rngd_options_note(o, LOG_WARNING,
						 "-O %s: no file source runs: -r %s is a character device, read by the "
						 "hwrng source (its keys: -O hwrng:...)", t, res->hwrng_device);
	}
	return 0;
}

/* Rewrite o->source_args in rngd's own terms, in the order given. */
int rngd_compat_resolve_sources(struct rngd_options *o, char err[RNGD_ERR_MAX])
{
	struct rngd_source_arg *out = NULL;
	struct resolution res = { 0 };
	size_t n = 0;
	int r = 0;

	for (size_t i = 0; i < o->n_source_args && r == 0; i++) {
		const struct rngd_source_arg *a = &o->source_args[i];

		switch (a->kind) {
		case RNGD_SRC_FILE:
			r = resolve_file(o, &res, a->text, &out, &n);
			break;
		case RNGD_SRC_EXCLUDE:
		case RNGD_SRC_INCLUDE:
			r = resolve_select(o, a, &out, &n);
			break;
		case RNGD_SRC_OPTION:
			r = resolve_option(o, &res, a->text, &out, &n, err);
			break;
		}
	}
	if (r == 0)
		r = note_file_keys_without_file(o, &res, out, n);
	for (size_t i = 0; i < o->n_source_args; i++)
		free(o->source_args[i].text);
	free(o->source_args);
	o->source_args = out;
	o->n_source_args = n;
	return r;
}

int rngd_compat_print_keys(FILE *out, const char *name, struct rngd_slot *slots, size_t n,
			   char err[RNGD_ERR_MAX])
{
	bool found = false;
	int k = peer_source(name);
	unsigned long idx;

	if (rng_parse_uint(name, 0, N_PEER_SOURCES - 1, &idx) == 0)
		k = (int)idx;
	if (k >= 0) {
		if (!peer_sources[k].here || !in_build(peer_sources[k].here))
			return rngd_fail(err, "-O %s: this rngd has no %s source; use %s", name, peer_sources[k].name,
					 peer_sources[k].instead ? peer_sources[k].instead : "another source");
		name = peer_sources[k].here;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rng_source *s = rngd_slot_source(rngd_slot_at(slots, i));

		if (strcmp(s->name, name) != 0 && strcmp(s->ops->name, name) != 0)
			continue;
		found = true;
		fprintf(out, "%s: entropy_per_bit=%.3f priority=%d%s%s\n", s->name, s->entropy_per_bit, s->priority,
			s->ops->keys ? " " : "", s->ops->keys ? s->ops->keys : "");
	}
	if (!found)
		return rngd_fail(err, "-O %s: no source named '%s' (rngd -l lists them)", name, name);
	return 0;
}
