/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PKCS#11 source's pieces that tests reach without a token: the CKR_*
 * names, the PIN file rules and the option parser's limits.
 */
#ifndef RNGD_SOURCES_PKCS11_H
#define RNGD_SOURCES_PKCS11_H

#include <stddef.h>

#include "sources/source.h"

#define PKCS11_CHUNK_DEFAULT 64     /* bytes per C_GenerateRandom: what small smart cards take */
#define PKCS11_CHUNK_MAX 65536
#define PKCS11_PIN_MAX 256

/* "CKR_PIN_INCORRECT" for 0xA0, "CKR_0x..." for codes it does not know (in @buf). */
const char *pkcs11_rv_name(unsigned long rv, char *buf, size_t len);

/*
 * The first line of @path into @pin (without its line end; what follows
 * it is not read past @pin_len - 1 bytes and not looked at). -EPERM if the
 * file is readable by others (a PIN must not be), -EINVAL if the first
 * line is empty or longer than @pin_len - 2 characters, -errno if it
 * cannot be read; the reason in @why.
 */
int pkcs11_read_pin_file(const char *path, char *pin, size_t pin_len, char *why, size_t why_len);

#endif /* RNGD_SOURCES_PKCS11_H */
