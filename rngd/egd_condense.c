/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Condensing credited bytes for the EGD reserve (see egd_condense.h).
 */
#include <config.h>

#include <errno.h>
#include <string.h>

#ifdef HAVE_LIBGCRYPT
#include <gcrypt.h>
#endif

#include "rngd/egd_condense.h"

#ifdef HAVE_LIBGCRYPT
static int gcrypt_ready(void)
{
	if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P))
		return 0;
	if (!gcry_check_version(GCRYPT_VERSION))
		return -ENOTSUP;
	/* Secure memory needs mlock rights rngd does not keep; state is wiped instead. */
	(void)gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	(void)gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return 0;
}
#endif

int egd_condenser_init(struct egd_condenser *c)
{
	memset(c, 0, sizeof(*c));
#ifdef HAVE_LIBGCRYPT
	gcry_md_hd_t md;
	int r = gcrypt_ready();

	if (r < 0)
		return r;
	if (gcry_md_open(&md, GCRY_MD_SHA512, 0) != 0)
		return -ENOMEM;
	c->md = md;
	return 0;
#else
	return -ENOTSUP;
#endif
}

void egd_condenser_destroy(struct egd_condenser *c)
{
#ifdef HAVE_LIBGCRYPT
	if (c->md)
		gcry_md_close(c->md);   /* wipes the state it frees */
#endif
	memset(c, 0, sizeof(*c));
}

bool egd_condenser_hashes(const struct egd_condenser *c)
{
	return c->md != NULL;
}

/* Credit of the first @n of @len bytes worth @credit bits, rounded down. */
static unsigned int credit_of(unsigned int credit, size_t len, size_t n)
{
	return (unsigned int)((uint64_t)credit * n / len);
}

size_t egd_condense(struct egd_condenser *c, const uint8_t *buf, size_t len, unsigned int credit_bits,
		    void (*emit)(void *ctx, const uint8_t *out, size_t n), void *ctx)
{
	if (len == 0)
		return 0;
	if (credit_bits == 0)
		return len;
	if ((uint64_t)credit_bits >= (uint64_t)len * 8u) {
		/* Full entropy by the operator's word: one byte per 8 bits. */
		c->bits_in += (uint64_t)len * 8u;
		c->bytes_out += len;
		emit(ctx, buf, len);
		return 0;
	}
#ifdef HAVE_LIBGCRYPT
	if (!c->md)
		return len;
	while (len > 0) {
		unsigned int need = EGD_CONDENSE_IN_BITS - c->absorbed_bits;
		size_t n = len;
		unsigned int got = credit_bits;

		if (credit_bits >= need) {
			/* The shortest slice whose share of the credit covers need. */
			n = (size_t)(((uint64_t)need * len + credit_bits - 1) / credit_bits);
			if (n > len)
				n = len;
			while (credit_of(credit_bits, len, n) < need && n < len)
				n++;
			got = credit_of(credit_bits, len, n);
		}
		gcry_md_write(c->md, buf, n);
		c->absorbed_any = true;
		c->absorbed_bits += got;
		c->bits_in += got;
		buf += n;
		len -= n;
		credit_bits -= got;
		if (c->absorbed_bits >= EGD_CONDENSE_IN_BITS) {
			uint8_t out[EGD_CONDENSE_OUT_BYTES];

			memcpy(out, gcry_md_read(c->md, GCRY_MD_SHA512), sizeof(out));
			gcry_md_reset(c->md);
			c->absorbed_bits = 0;
			c->absorbed_any = false;
			c->bytes_out += sizeof(out);
			emit(ctx, out, sizeof(out));
			explicit_bzero(out, sizeof(out));
		}
	}
	return 0;
#else
	(void)emit;
	(void)ctx;
	return len;
#endif
}
