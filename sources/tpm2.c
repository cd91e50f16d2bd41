/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TPM 2.0 source through tss2-esys: Esys_GetRandom over a TCTI, by default
 * the kernel's resource manager /dev/tpmrm0 (shared safely with other TPM
 * users), or any TCTI string given with -O tpm2:tcti:... ("swtpm:host=
 * 127.0.0.1,port=2321", "mssim:...", "device:/dev/tpm0").
 *
 * A TPM 2.0 returns at most one digest's worth (64 bytes on SHA-512 TPMs,
 * often 32 or 48) per TPM2_GetRandom; the answer's size is what counts.
 * A broken connection (TCTI or I/O error) is dropped and made again once
 * per read; the daemon's back-off paces further attempts.
 *
 * Credit 0.5 per bit: the TPM 2.0 RNG is a DRBG seeded from a vendor
 * entropy source we cannot examine.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

#include "sources/dl.h"
#include "sources/source.h"

#define TPM2_DEFAULT_DEVICE "/dev/tpmrm0"
#define TPM2_DEFAULT_TCTI "device:" TPM2_DEFAULT_DEVICE
#define TPM2_ASK_BYTES 64               /* sizeof(TPMU_HA): the most one answer holds */
#define TPM2_BUSY_RETRIES 10            /* TPM2_RC_RETRY/YIELDED/TESTING in a row */
#define TPM2_ENTROPY_PER_BIT 0.5
#define TPM2_ESYS_SONAME "libtss2-esys.so.0"
#define TPM2_TCTILDR_SONAME "libtss2-tctildr.so.0"
#define TPM2_RC_SONAME "libtss2-rc.so.0"

/*
 * The tss2 calls, dlopen()ed by the first probe or open that gets past
 * the device check (sources/dl.h): a machine without a TPM 2.0 never maps
 * tss2 nor the libcrypto it pulls in.
 */
struct tpm2_lib {
	void *esys_handle, *tctildr_handle, *rc_handle;
	TSS2_RC (*tctildr_initialize)(const char *conf, TSS2_TCTI_CONTEXT **ctx);
	void (*tctildr_finalize)(TSS2_TCTI_CONTEXT **ctx);
	TSS2_RC (*esys_initialize)(ESYS_CONTEXT **esys, TSS2_TCTI_CONTEXT *tcti, TSS2_ABI_VERSION *abi);
	void (*esys_finalize)(ESYS_CONTEXT **esys);
	TSS2_RC (*esys_get_random)(ESYS_CONTEXT *esys, ESYS_TR s1, ESYS_TR s2, ESYS_TR s3,
				   UINT16 bytes, TPM2B_DIGEST **random);
	void (*esys_free)(void *ptr);
	const char *(*rc_decode)(TSS2_RC rc);
	bool loaded;
};

struct tpm2_state {
	char tcti[512];
	struct tpm2_lib lib;
	TSS2_TCTI_CONTEXT *tcti_ctx;
	ESYS_CONTEXT *esys;
	bool open;
};

static const struct tpm2_state tpm2_defaults = {
	.tcti = TPM2_DEFAULT_TCTI,
};

static int tpm2_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct tpm2_state *st = src->priv;

	return rng_option_only_text(src, key, value, "tcti", st->tcti, sizeof(st->tcti), false);
}

/* Load the three tss2 libraries once; 0, or -ENODEV naming the missing one. */
static int lib_ready(struct rng_source *src, struct tpm2_lib *l)
{
	const struct rng_dl_sym tctildr[] = {
		RNG_DL_SYM(l, tctildr_initialize, Tss2_TctiLdr_Initialize),
		RNG_DL_SYM(l, tctildr_finalize, Tss2_TctiLdr_Finalize),
	};
	const struct rng_dl_sym esys[] = {
		RNG_DL_SYM(l, esys_initialize, Esys_Initialize),
		RNG_DL_SYM(l, esys_finalize, Esys_Finalize),
		RNG_DL_SYM(l, esys_get_random, Esys_GetRandom),
		RNG_DL_SYM(l, esys_free, Esys_Free),
	};
	const struct rng_dl_sym rc[] = {
		RNG_DL_SYM(l, rc_decode, Tss2_RC_Decode),
	};
	int err;

	if (l->loaded)
		return 0;
	err = rng_dl_load(src, TPM2_TCTILDR_SONAME, &l->tctildr_handle, tctildr,
			  sizeof(tctildr) / sizeof(tctildr[0]));
	if (err == 0)
		err = rng_dl_load(src, TPM2_ESYS_SONAME, &l->esys_handle, esys, sizeof(esys) / sizeof(esys[0]));
	if (err == 0)
		err = rng_dl_load(src, TPM2_RC_SONAME, &l->rc_handle, rc, sizeof(rc) / sizeof(rc[0]));
	l->loaded = err == 0;
	return err;
}

static void lib_unload(struct tpm2_lib *l)
{
	rng_dl_unload(&l->rc_handle);
	rng_dl_unload(&l->esys_handle);
	rng_dl_unload(&l->tctildr_handle);
	l->loaded = false;
}

static void disconnect(struct tpm2_state *st)
{
	if (st->esys)
		st->lib.esys_finalize(&st->esys);
	if (st->tcti_ctx)
		st->lib.tctildr_finalize(&st->tcti_ctx);
	st->esys = NULL;
	st->tcti_ctx = NULL;
}

static TSS2_RC connect_tpm(struct tpm2_state *st)
{
	TSS2_RC rc;

	disconnect(st);
	rc = st->lib.tctildr_initialize(st->tcti, &st->tcti_ctx);
	if (rc != TSS2_RC_SUCCESS) {
		st->tcti_ctx = NULL;
		return rc;
	}
	rc = st->lib.esys_initialize(&st->esys, st->tcti_ctx, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		st->esys = NULL;
		disconnect(st);
	}
	return rc;
}

static bool is_busy(TSS2_RC rc)
{
	return rc == TPM2_RC_RETRY || rc == TPM2_RC_YIELDED || rc == TPM2_RC_TESTING;
}

/* Nothing answers now, whoever should: worth another try later. */
static bool is_transient(TSS2_RC rc)
{
	TSS2_RC base = rc & ~TSS2_RC_LAYER_MASK;

	return base == TSS2_BASE_RC_IO_ERROR || base == TSS2_BASE_RC_TRY_AGAIN;
}

static bool is_link_error(TSS2_RC rc)
{
	return (rc & TSS2_RC_LAYER_MASK) == TSS2_TCTI_RC_LAYER || is_transient(rc);
}

/*
 * A TCTI that could not connect: -ECONNREFUSED when nothing answers yet (a
 * swtpm, mssim or tpm2-abrmd that starts after rngd, a device not there
 * yet), which a named source retries; -ENODEV for a TCTI that can never
 * work (no such TCTI, a malformed configuration).
 */
static int connect_error(struct rng_source *src, const struct tpm2_state *st, TSS2_RC rc)
{
	return rng_source_why(src, is_transient(rc) ? -ECONNREFUSED : -ENODEV, "TCTI '%s' unusable: %s", st->tcti,
			      st->lib.rc_decode(rc));
}

/* One TPM2_GetRandom; returns bytes (> 0) or a TSS2 error through *rc. */
static size_t get_random(struct tpm2_state *st, unsigned char *out, size_t len, TSS2_RC *rc)
{
	TPM2B_DIGEST *random = NULL;
	size_t n;
	int busy = 0;

	do {
		*rc = st->lib.esys_get_random(st->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				     (UINT16)(len < TPM2_ASK_BYTES ? len : TPM2_ASK_BYTES), &random);
	} while (is_busy(*rc) && ++busy < TPM2_BUSY_RETRIES);
	if (*rc != TSS2_RC_SUCCESS || !random)
		return 0;
	n = random->size < len ? random->size : len;
	memcpy(out, random->buffer, n);
	explicit_bzero(random->buffer, sizeof(random->buffer));
	st->lib.esys_free(random);
	return n;
}

static int tpm2_probe(struct rng_source *src)
{
	struct tpm2_state *st = src->priv;
	bool was_loaded = st->lib.loaded;
	unsigned char byte;
	TSS2_RC rc;
	int err = 0;

	if (st->open)
		return 0;
	/*
	 * Check the default device first: the TCTI loader logs its own errors
	 * to stderr, which rngd -l should not print on every TPM-less machine.
	 */
	if (strcmp(st->tcti, TPM2_DEFAULT_TCTI) == 0 && access(TPM2_DEFAULT_DEVICE, F_OK) != 0)
		err = rng_source_why(src, -ENODEV, "no %s (no TPM 2.0, or tpm_tis/tpm_crb not loaded)",
				     TPM2_DEFAULT_DEVICE);
	else if (strcmp(st->tcti, TPM2_DEFAULT_TCTI) == 0 &&
		 access(TPM2_DEFAULT_DEVICE, R_OK | W_OK) != 0)
		err = rng_source_why(src, -EACCES, "%s exists but needs root or the tss group",
				     TPM2_DEFAULT_DEVICE);
	else if ((err = lib_ready(src, &st->lib)) < 0)
		;
	else if ((rc = connect_tpm(st)) != TSS2_RC_SUCCESS)
		err = connect_error(src, st, rc);
	else if (get_random(st, &byte, 1, &rc) == 0)
		err = rng_source_why(src, -EIO, "TPM2_GetRandom through '%s': %s", st->tcti,
				     st->lib.rc_decode(rc));
	disconnect(st);
	/* rngd -l probes and never closes: leave nothing loaded behind. */
	if (!was_loaded)
		lib_unload(&st->lib);
	return err;
}

static int tpm2_open(struct rng_source *src)
{
	struct tpm2_state *st = src->priv;
	TSS2_RC rc;
	int err;

	err = lib_ready(src, &st->lib);
	if (err < 0)
		return err;
	rc = connect_tpm(st);
	if (rc != TSS2_RC_SUCCESS)
		return connect_error(src, st, rc);
	st->open = true;
	/* Named in the "opened" line, in place of what the probe said. */
	return rng_source_why(src, 0, "through '%s'", st->tcti);
}

static ssize_t tpm2_read(struct rng_source *src, void *buf, size_t len)
{
	struct tpm2_state *st = src->priv;
	unsigned char *out = buf;
	size_t done = 0;
	bool reconnected = false;

	if (!st || !st->open)
		return rng_source_why(src, -EBADF, "read before open");
	while (done < len) {
		TSS2_RC rc = TSS2_RC_SUCCESS;
		size_t n = 0;

		if (st->esys)
			n = get_random(st, out + done, len - done, &rc);
		if (n) {
			done += n;
			continue;
		}
		if (st->esys && !is_link_error(rc))
			return done ? (ssize_t)done
				    : rng_source_why(src, -EIO, "TPM2_GetRandom: %s", st->lib.rc_decode(rc));
		/* The link broke (or was broken by an earlier read): make it once more. */
		if (reconnected)
			return done ? (ssize_t)done
				    : rng_source_why(src, -ECONNREFUSED, "TPM through '%s' lost: %s",
						     st->tcti, st->lib.rc_decode(rc));
		reconnected = true;
		rc = connect_tpm(st);
		if (rc != TSS2_RC_SUCCESS)
			return done ? (ssize_t)done
				    : rng_source_why(src, -ECONNREFUSED, "cannot reconnect TCTI '%s': %s",
						     st->tcti, st->lib.rc_decode(rc));
	}
	return (ssize_t)done;
}

static void tpm2_close(struct rng_source *src)
{
	struct tpm2_state *st = src->priv;

	disconnect(st);
	st->open = false;
}

static void tpm2_release(struct rng_source *src)
{
	struct tpm2_state *st = src->priv;

	lib_unload(&st->lib);
}

/*
 * Credited only through a TCTI that reaches a TPM chip: the kernel's
 * device, the access broker in front of it, or a TPM on SPI or I2C. Any
 * other (swtpm, mssim, libtpms, a pcap or cmd wrapper) may be a simulator:
 * software seeded from some machine's own kernel, no noise of its own.
 * 0 then unless the user sets a credit. Only the main thread sets and
 * reads the TCTI.
 */
static double tpm2_default_credit(const struct rng_source *src)
{
	static const char *const chip[] = { "device", "tabrmd", "spi", "i2c" };
	const struct tpm2_state *st = src->priv;
	const char *name;

	if (!st)
		return TPM2_ENTROPY_PER_BIT;
	name = st->tcti;
	/* The library's own name names the same TCTI. */
	if (strncmp(name, "libtss2-tcti-", 13) == 0)
		name += 13;
	for (size_t i = 0; i < sizeof(chip) / sizeof(chip[0]); i++)
		if (strncmp(name, chip[i], strlen(chip[i])) == 0)
			return TPM2_ENTROPY_PER_BIT;
	return 0.0;
}

const struct rng_source_ops rng_source_tpm2_ops = {
	.name = "tpm2",
	.summary = "TPM 2.0 RNG through tss2-esys (/dev/tpmrm0 or a TCTI)",
	.keys = "tcti=device:/dev/tpmrm0: the TSS2 TCTI",
	.default_entropy_per_bit = TPM2_ENTROPY_PER_BIT,
	.default_credit = tpm2_default_credit,
	.default_priority = 6,
	.priv_size = sizeof(struct tpm2_state),
	.priv_defaults = &tpm2_defaults,
	.probe = tpm2_probe,
	.open = tpm2_open,
	.read = tpm2_read,
	.close = tpm2_close,
	.set_option = tpm2_set_option,
	.release = tpm2_release,
};
