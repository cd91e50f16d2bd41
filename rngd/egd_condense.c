/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Condensing credited bytes for the EGD reserve (see egd_condense.h).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rngd/egd_condense.h"
#include "sources/sha512.h"

int egd_condenser_init(struct egd_condenser *c)
{
	struct sha512 *md;

	memset(c, 0, sizeof(*c));
	md = malloc(sizeof(*md));
	if (!md)
		return -ENOMEM;
	sha512_init(md);
	c->md = md;
	return 0;
}

void egd_condenser_destroy(struct egd_condenser *c)
{
	if (c->md) {
		explicit_bzero(c->md, sizeof(struct sha512));
		free(c->md);
	}
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
		sha512_update(c->md, buf, n);
		c->absorbed_any = true;
		c->absorbed_bits += got;
		c->bits_in += got;
		buf += n;
		len -= n;
		credit_bits -= got;
		if (c->absorbed_bits >= EGD_CONDENSE_IN_BITS) {
			uint8_t out[EGD_CONDENSE_OUT_BYTES];

			sha512_final(c->md, out);
			c->absorbed_bits = 0;
			c->absorbed_any = false;
			c->bytes_out += sizeof(out);
			emit(ctx, out, sizeof(out));
			explicit_bzero(out, sizeof(out));
		}
	}
	return 0;
}
