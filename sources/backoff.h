/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Retry delays that double after each failure, up to a ceiling: the
 * readers' re-opens, a quarantined source's re-tests, the TPM source's
 * reconnects to tcsd. Here in sources/ so that both the sources and rngd
 * (which may include sources/ but not the other way round) share one copy.
 */
#ifndef RNGD_SOURCES_BACKOFF_H
#define RNGD_SOURCES_BACKOFF_H

/*
 * @ms doubled, or @max_ms if that is less. Compared before doubling: a
 * delay above UINT_MAX / 2 would wrap to a short one instead of reaching
 * the ceiling. For every @ms that does not wrap the result is that of
 * "ms * 2 > max_ms ? max_ms : ms * 2".
 */
static inline unsigned int rng_backoff_double(unsigned int ms, unsigned int max_ms)
{
	return ms > max_ms / 2 ? max_ms : ms * 2;
}

#endif
