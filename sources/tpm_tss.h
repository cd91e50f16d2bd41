/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TPM 1.2 (TrouSerS) source's library seam: libtspi is dlopen()ed
 * into this table by the first probe or open that finds tcsd listening
 * (sources/dl.h); tests replace libtspi's calls and the back-off sleep
 * through tpm_tss_source_use_api().
 */
#ifndef RNGD_SOURCES_TPM_TSS_H
#define RNGD_SOURCES_TPM_TSS_H

#include <stdint.h>

#include <tss/tspi.h>

#include "sources/source.h"

#define TPM_TSS_CHUNK_MAX 4096          /* bytes per Tspi_TPM_GetRandom, at most */
/*
 * Default request size. tcsd's TCP device (swtpm, QEMU setups) truncates
 * responses beyond a 2048-byte buffer, i.e. more than 2034 random bytes,
 * and Tspi_TPM_GetRandom then returns success with a zero-filled tail.
 */
#define TPM_TSS_CHUNK_DEFAULT 1024
#define TPM_TSS_ZERO_TAIL 8             /* zero bytes ending a chunk that mean truncation (2^-64) */
#define TPM_TSS_BACKOFF_FIRST_MS 100
#define TPM_TSS_BACKOFF_MAX_MS 5000
#define TPM_TSS_RECONNECT_TIMEOUT_S 30  /* a read gives up reconnecting after this */
#define TPM_TSS_LINK_RETRIES 3        /* broken links in a row, each reconnected, per read */
#define TPM_TSS_ENTROPY_PER_BIT 0.5
#define TPM_TSS_SONAME "libtspi.so.1"
#define TPM_TSS_LISTEN_TIMEOUT_MS 3000  /* the pre-check's TCP connect to tcsd, at most */

struct tpm_tss_api {
	TSS_RESULT (*context_create)(TSS_HCONTEXT *ctx);
	TSS_RESULT (*context_connect)(TSS_HCONTEXT ctx, TSS_UNICODE *destination);
	TSS_RESULT (*context_get_tpm)(TSS_HCONTEXT ctx, TSS_HTPM *tpm);
	TSS_RESULT (*get_random)(TSS_HTPM tpm, UINT32 len, BYTE **data);
	TSS_RESULT (*free_memory)(TSS_HCONTEXT ctx, BYTE *mem);
	TSS_RESULT (*context_close)(TSS_HCONTEXT ctx);
	char *(*error_string)(TSS_RESULT r);
	BYTE *(*native_to_unicode)(BYTE *string, UINT32 *size);
	void (*sleep_ms)(unsigned ms);
};

/* Use @api instead of libtspi (tests), after rng_source_init(). */
void tpm_tss_source_use_api(struct rng_source *src, const struct tpm_tss_api *api);

/* How many times the open source re-established its tcsd connection. */
unsigned long tpm_tss_source_reconnects(const struct rng_source *src);

#endif /* RNGD_SOURCES_TPM_TSS_H */
