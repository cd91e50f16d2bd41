/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD reserve: a ring of gate-passed bytes, each taken once and wiped
 * where it lay (see egd_reserve.h for the contract).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rngd/egd_reserve.h"
#include "rngd/eventfd.h"

int egd_reserve_init(struct egd_reserve *r, size_t capacity)
{
	memset(r, 0, sizeof(*r));
	r->data_fd = r->want_fd = -1;
	if (capacity < EGD_RESERVE_MIN_BYTES || capacity > EGD_RESERVE_MAX_BYTES)
		return -EINVAL;
	r->buf = calloc(1, capacity);
	if (!r->buf)
		return -ENOMEM;
	/* Keep tested bytes out of swap when allowed; not fatal otherwise. */
	(void)mlock(r->buf, capacity);
	r->capacity = capacity;
	r->low_water = capacity / 2;
	if (pthread_mutex_init(&r->lock, NULL) != 0) {
		free(r->buf);
		r->buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

void egd_reserve_destroy(struct egd_reserve *r)
{
	if (!r->buf)
		return;
	explicit_bzero(r->buf, r->capacity);
	(void)munlock(r->buf, r->capacity);
	free(r->buf);
	r->buf = NULL;
	r->held = r->head = 0;
	(void)pthread_mutex_destroy(&r->lock);
}

void egd_reserve_set_data_wake(struct egd_reserve *r, int fd)
{
	r->data_fd = fd;
}

void egd_reserve_set_want_wake(struct egd_reserve *r, int fd)
{
	r->want_fd = fd;
}

size_t egd_reserve_put(struct egd_reserve *r, const uint8_t *buf, size_t len)
{
	size_t n, tail, first;

	(void)pthread_mutex_lock(&r->lock);
	n = r->capacity - r->held;
	if (n > len)
		n = len;
	tail = (r->head + r->held) % r->capacity;
	first = r->capacity - tail < n ? r->capacity - tail : n;
	memcpy(r->buf + tail, buf, first);
	memcpy(r->buf, buf + first, n - first);
	r->held += n;
	r->bytes_in += n;
	(void)pthread_mutex_unlock(&r->lock);
	if (n)
		rngd_eventfd_poke(r->data_fd);
	return n;
}

size_t egd_reserve_take(struct egd_reserve *r, uint8_t *out, size_t len)
{
	size_t n, first;
	bool crossed;

	(void)pthread_mutex_lock(&r->lock);
	n = r->held < len ? r->held : len;
	first = r->capacity - r->head < n ? r->capacity - r->head : n;
	memcpy(out, r->buf + r->head, first);
	explicit_bzero(r->buf + r->head, first);
	memcpy(out + first, r->buf, n - first);
	explicit_bzero(r->buf, n - first);
	/* The loop waits for this edge only: it asked and got 0 before. */
	crossed = r->held > r->low_water && r->held - n <= r->low_water;
	r->head = (r->head + n) % r->capacity;
	r->held -= n;
	r->bytes_out += n;
	if (r->held == 0)
		r->head = 0;
	(void)pthread_mutex_unlock(&r->lock);
	if (crossed)
		rngd_eventfd_poke(r->want_fd);
	return n;
}

struct egd_reserve_snapshot egd_reserve_snapshot(struct egd_reserve *r)
{
	struct egd_reserve_snapshot snap;

	(void)pthread_mutex_lock(&r->lock);
	snap.held = r->held;
	snap.want = r->held <= r->low_water ? r->capacity - r->held : 0;
	snap.bytes_in = r->bytes_in;
	snap.bytes_out = r->bytes_out;
	(void)pthread_mutex_unlock(&r->lock);
	return snap;
}
