/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD protocol without I/O (see egd_proto.h).
 *
 *   1. Parser        one request from the head of a byte buffer
 *   2. Rate limit    a token bucket per client, in milli-bytes
 *   3. Client        queue requests, judge flooding, produce replies in
 *                    order, account every reply byte until written
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rngd/defaults.h"
#include "rngd/egd_proto.h"

/* ---- 1. Parser ---------------------------------------------------------- */

int egd_parse_request(const uint8_t *buf, size_t len, struct egd_request *req)
{
	if (len == 0)
		return 0;
	switch (buf[0]) {
	case EGD_CMD_LEVEL:
	case EGD_CMD_PID:
		*req = (struct egd_request){ .cmd = buf[0], .n = 0 };
		return 1;
	case EGD_CMD_READ_NONBLOCK:
	case EGD_CMD_READ_BLOCK:
		if (len < 2)
			return 0;
		*req = (struct egd_request){ .cmd = buf[0], .n = buf[1] };
		return 2;
	case EGD_CMD_WRITE:
		return -EPERM;
	default:
		return -EPROTO;
	}
}

/* The longest decimal pid: pid_max is at most 2^22, but pid_t is 32 bits. */
#define EGD_PID_REPLY_MAX (1u + 10u)

size_t egd_request_cost(const struct egd_request *req)
{
	switch (req->cmd) {
	case EGD_CMD_LEVEL:
		return 4;
	case EGD_CMD_READ_NONBLOCK:
		return 1u + req->n;
	case EGD_CMD_READ_BLOCK:
		return req->n ? req->n : 1u;
	case EGD_CMD_PID:
		return EGD_PID_REPLY_MAX;
	default:
		return 1;
	}
}

const char *egd_cmd_name(uint8_t cmd)
{
	switch (cmd) {
	case EGD_CMD_LEVEL: return "entropy level";
	case EGD_CMD_READ_NONBLOCK: return "non-blocking read";
	case EGD_CMD_READ_BLOCK: return "blocking read";
	case EGD_CMD_WRITE: return "write entropy";
	case EGD_CMD_PID: return "pid";
	default: return "unknown";
	}
}

void egd_limits_default(struct egd_limits *lim)
{
	lim->rate = RNGD_DEFAULT_EGD_RATE;
	lim->burst = RNGD_DEFAULT_EGD_BURST;
	lim->max_clients = RNGD_DEFAULT_EGD_CLIENTS;
	lim->max_unserved = EGD_DEFAULT_MAX_UNSERVED;
	lim->stall_ms = EGD_DEFAULT_STALL_MS;
	lim->prime = 0;
}

/* ---- 2. Rate limit ------------------------------------------------------ */

static void bucket_refill(struct egd_bucket *b, const struct egd_limits *lim, uint64_t now_ms)
{
	uint64_t cap = (uint64_t)lim->burst * 1000u;

	if (now_ms > b->last_ms) {
		uint64_t add = (now_ms - b->last_ms) * lim->rate;

		b->millibytes = add > cap - b->millibytes ? cap : b->millibytes + add;
	}
	if (b->millibytes > cap)   /* the burst was lowered by a reload */
		b->millibytes = cap;
	b->last_ms = now_ms;
}

static size_t bucket_allow(const struct egd_bucket *b, const struct egd_limits *lim, size_t want)
{
	uint64_t have;

	if (lim->rate == 0)
		return want;
	have = b->millibytes / 1000u;
	return have < want ? (size_t)have : want;
}

static void bucket_spend(struct egd_bucket *b, const struct egd_limits *lim, size_t n)
{
	if (lim->rate)
		b->millibytes -= (uint64_t)n * 1000u;
}

/* The smallest part worth waking up for: a whole small read, else a chunk
 * (never more than the bucket can ever hold). */
static size_t min_part(const struct egd_conn *c, const struct egd_limits *lim)
{
	const struct egd_request *req = &c->queue[c->q_head];
	size_t left = (size_t)req->n - c->head_done;
	size_t need = left < EGD_SERVE_CHUNK ? left : EGD_SERVE_CHUNK;

	if (need > lim->burst)
		need = lim->burst;
	return need ? need : 1;
}

void egd_bucket_init(struct egd_bucket *b, const struct egd_limits *lim, uint64_t now_ms)
{
	b->millibytes = (uint64_t)lim->burst * 1000u;
	b->last_ms = now_ms;
}

bool egd_bucket_full(const struct egd_bucket *b, const struct egd_limits *lim, uint64_t now_ms)
{
	struct egd_bucket t = *b;

	bucket_refill(&t, lim, now_ms);
	return t.millibytes >= (uint64_t)lim->burst * 1000u;
}

/* ---- 3. Client ---------------------------------------------------------- */

void egd_conn_share_bucket(struct egd_conn *c, struct egd_bucket *b)
{
	c->bucket = b ? b : &c->own_bucket;
}

void egd_conn_init(struct egd_conn *c, const struct egd_limits *lim, uint64_t now_ms)
{
	memset(c, 0, sizeof(*c));
	/* A new client starts with a full bucket: its first burst is free
	 * (the server shares one bucket per peer uid: egd_conn_share_bucket). */
	egd_bucket_init(&c->own_bucket, lim, now_ms);
	c->bucket = &c->own_bucket;
	c->last_progress_ms = now_ms;
}

void egd_conn_wipe(struct egd_conn *c)
{
	explicit_bzero(c->out, sizeof(c->out));
	c->out_off = c->out_len = 0;
}

void egd_conn_prime(struct egd_conn *c, const struct egd_limits *lim)
{
	uint32_t left = lim->prime < EGD_MAX_PRIME ? lim->prime : EGD_MAX_PRIME;

	while (left > 0 && c->q_count < EGD_QUEUE_MAX) {
		struct egd_request req = { .cmd = EGD_CMD_READ_BLOCK, .n = (uint8_t)(left < 255 ? left : 255) };

		c->queue[(c->q_head + c->q_count) % EGD_QUEUE_MAX] = req;
		c->q_count++;
		c->unserved += req.n;
		left -= req.n;
	}
}

size_t egd_conn_read_room(const struct egd_conn *c)
{
	return EGD_QUEUE_MAX - c->q_count;
}

static int enqueue(struct egd_conn *c, const struct egd_request *req, const struct egd_limits *lim)
{
	c->queue[(c->q_head + c->q_count) % EGD_QUEUE_MAX] = *req;
	c->q_count++;
	c->requests++;
	c->unserved += egd_request_cost(req);
	return c->unserved > lim->max_unserved ? -ENOBUFS : 0;
}

int egd_conn_input(struct egd_conn *c, const uint8_t *buf, size_t len,
		   const struct egd_limits *lim, uint64_t now_ms)
{
	struct egd_request req;
	size_t off = 0;
	int n, r;

	if (len == 0)
		return 0;
	c->last_progress_ms = now_ms;
	if (c->has_partial) {
		uint8_t two[2] = { c->partial, buf[0] };

		n = egd_parse_request(two, 2, &req);
		if (n < 0) {
			c->refused = two[0];
			return n;
		}
		c->has_partial = false;
		off = 1;
		r = enqueue(c, &req, lim);
		if (r < 0)
			return r;
	}
	while (off < len) {
		if (c->q_count == EGD_QUEUE_MAX)
			return -EOVERFLOW;   /* the caller read more than read_room() */
		n = egd_parse_request(buf + off, len - off, &req);
		if (n < 0) {
			c->refused = buf[off];
			return n;
		}
		if (n == 0) {
			c->partial = buf[off];
			c->has_partial = true;
			break;
		}
		off += (size_t)n;
		r = enqueue(c, &req, lim);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Make the reply buffer contiguous from its start. */
static void out_compact(struct egd_conn *c)
{
	size_t left = c->out_len - c->out_off;

	if (c->out_off == 0)
		return;
	memmove(c->out, c->out + c->out_off, left);
	explicit_bzero(c->out + left, c->out_len - left);
	c->out_off = 0;
	c->out_len = left;
}

/* The head request produced @replied bytes in all: release the rest of
 * what it reserved in the flooding count. */
static void complete_head(struct egd_conn *c, size_t replied)
{
	size_t cost = egd_request_cost(&c->queue[c->q_head]);

	c->unserved -= cost - replied;
	c->q_head = (c->q_head + 1) % EGD_QUEUE_MAX;
	c->q_count--;
	c->head_done = 0;
}

size_t egd_conn_serve(struct egd_conn *c, struct egd_reserve *r, const struct egd_limits *lim,
		      pid_t pid, size_t max_entropy, uint64_t now_ms)
{
	size_t served = 0;

	bucket_refill(c->bucket, lim, now_ms);
	out_compact(c);
	c->starved = false;
	while (c->q_count > 0) {
		const struct egd_request *req = &c->queue[c->q_head];
		size_t room = EGD_OUT_MAX - c->out_len;
		uint8_t *o = c->out + c->out_len;

		if (req->cmd == EGD_CMD_LEVEL) {
			size_t held = egd_reserve_snapshot(r).held;
			uint32_t v = held > UINT32_MAX ? UINT32_MAX : (uint32_t)held;

			if (room < 4)
				break;
			o[0] = (uint8_t)(v >> 24);
			o[1] = (uint8_t)(v >> 16);
			o[2] = (uint8_t)(v >> 8);
			o[3] = (uint8_t)v;
			c->out_len += 4;
			complete_head(c, 4);
		} else if (req->cmd == EGD_CMD_PID) {
			char digits[16];
			int len = snprintf(digits, sizeof(digits), "%ld", (long)pid);

			if (len <= 0 || (size_t)len + 1 > EGD_PID_REPLY_MAX)
				len = 0;
			if (room < (size_t)len + 1)
				break;
			o[0] = (uint8_t)len;
			memcpy(o + 1, digits, (size_t)len);
			c->out_len += (size_t)len + 1;
			complete_head(c, (size_t)len + 1);
		} else if (req->cmd == EGD_CMD_READ_NONBLOCK) {
			size_t k;

			if (room < 1u + req->n)
				break;
			/* Whatever is there now, within the rate limit: never waits. */
			k = bucket_allow(c->bucket, lim, req->n);
			k = egd_reserve_take(r, o + 1, k);
			o[0] = (uint8_t)k;
			bucket_spend(c->bucket, lim, k);
			c->out_len += 1 + k;
			c->bytes_served += k;
			served += k;
			complete_head(c, 1 + k);
		} else {
			size_t left = (size_t)req->n - c->head_done;
			size_t k = left;

			if (left == 0) {
				complete_head(c, req->n);
				continue;
			}
			if (bucket_allow(c->bucket, lim, min_part(c, lim)) < min_part(c, lim))
				break;   /* waits for tokens: egd_conn_tokens_at() */
			if (k > room)
				k = room;
			if (k > max_entropy - served)
				k = max_entropy - served;
			k = bucket_allow(c->bucket, lim, k);
			if (k == 0)
				break;
			k = egd_reserve_take(r, o, k);
			if (k == 0) {
				c->starved = true;
				break;   /* waits for the reserve, which wakes the server */
			}
			bucket_spend(c->bucket, lim, k);
			c->out_len += k;
			c->head_done += (unsigned int)k;
			c->bytes_served += k;
			served += k;
			if (c->head_done == req->n)
				complete_head(c, req->n);
		}
	}
	return served;
}

const uint8_t *egd_conn_output(const struct egd_conn *c, size_t *len)
{
	*len = c->out_len - c->out_off;
	return c->out + c->out_off;
}

void egd_conn_consumed(struct egd_conn *c, size_t n, uint64_t now_ms)
{
	if (n == 0)
		return;
	/* Written bytes leave this process's memory: wipe our copy now. */
	explicit_bzero(c->out + c->out_off, n);
	c->out_off += n;
	c->unserved -= n;
	c->last_progress_ms = now_ms;
	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
}

bool egd_conn_waiting(const struct egd_conn *c)
{
	return c->q_count > 0 && c->queue[c->q_head].cmd == EGD_CMD_READ_BLOCK;
}

uint64_t egd_conn_tokens_at(const struct egd_conn *c, const struct egd_limits *lim, uint64_t now_ms)
{
	struct egd_bucket b = *c->bucket;
	uint64_t need;

	if (!egd_conn_waiting(c) || lim->rate == 0)
		return UINT64_MAX;
	/* The reply buffer is full: the client reading its replies (POLLOUT)
	 * makes room, not the clock; a deadline of now would poll in a loop
	 * for as long as the client does not read. */
	if (c->out_len >= EGD_OUT_MAX)
		return UINT64_MAX;
	bucket_refill(&b, lim, now_ms);
	need = (uint64_t)min_part(c, lim) * 1000u;
	/* Tokens enough and the reserve found empty: the reserve wakes the
	 * server when bytes arrive; a deadline of now would poll in a loop. */
	if (b.millibytes >= need)
		return c->starved ? UINT64_MAX : now_ms;
	return now_ms + (need - b.millibytes + lim->rate - 1) / lim->rate;
}

static bool conn_pending(const struct egd_conn *c)
{
	return c->out_len > c->out_off || c->has_partial;
}

bool egd_conn_stalled(const struct egd_conn *c, const struct egd_limits *lim, uint64_t now_ms)
{
	return conn_pending(c) && now_ms - c->last_progress_ms >= lim->stall_ms;
}

uint64_t egd_conn_stall_at(const struct egd_conn *c, const struct egd_limits *lim)
{
	return conn_pending(c) ? c->last_progress_ms + lim->stall_ms : UINT64_MAX;
}
