/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD protocol, server side, without any I/O: a request parser (a pure
 * function, fed directly by the fuzz harness) and one client's state
 * machine: the queue of requests it sent, its rate limit, and the reply
 * bytes waiting to be written. rngd/egd_server.c does the sockets.
 *
 * The subset served (every number is one byte unless said otherwise):
 *   0x00           entropy level: reply u32 big-endian, bytes held ready
 *   0x01 n         non-blocking read: reply count (0..n) then count bytes
 *   0x02 n         blocking read: reply exactly n bytes, when ready
 *   0x03 ...       a client writing entropy: refused, the client is
 *                  disconnected (clients never inject data)
 *   0x04           pid: reply length then the daemon's pid in decimal
 * Any other command disconnects the client. Replies go out in request
 * order, so a level or pid request queued behind a blocking read waits.
 *
 * Flooding is judged by bytes: every request adds the reply bytes it asks
 * for to the client's "unserved" count, written bytes take them off; past
 * the limit the client is dropped. QEMU's rng-egd backend sends several
 * 64-byte blocking reads back to back, which stays far below it.
 */
#ifndef RNGD_EGD_PROTO_H
#define RNGD_EGD_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rngd/egd_reserve.h"

enum egd_cmd {
	EGD_CMD_LEVEL = 0x00,
	EGD_CMD_READ_NONBLOCK = 0x01,
	EGD_CMD_READ_BLOCK = 0x02,
	EGD_CMD_WRITE = 0x03,
	EGD_CMD_PID = 0x04,
};

struct egd_request {
	uint8_t cmd;
	uint8_t n;            /* bytes asked by a read; 0 otherwise */
};

/*
 * Parse the request at the start of @buf. Returns the bytes it takes (1 or
 * 2) with *req filled, 0 if @len is too short to tell, -EPERM for 0x03 (a
 * client writing entropy), -EPROTO for an unknown command.
 */
int egd_parse_request(const uint8_t *buf, size_t len, struct egd_request *req);

/* Reply bytes @req may produce at most (the flooding measure). At least
 * one, so a stream of zero-byte reads still counts. */
size_t egd_request_cost(const struct egd_request *req);

/* Limits shared by every client of a server. */
struct egd_limits {
	uint32_t rate;            /* bytes/s per client; 0: unlimited */
	uint32_t burst;           /* bucket size in bytes (>= 1) */
	uint32_t max_clients;
	uint32_t max_unserved;    /* bytes requested and not yet served */
	uint32_t stall_ms;        /* a reply unread or a request unfinished this long */
	uint32_t prime;           /* bytes pushed unasked to each new client; 0: none */
};

/* Sixteen of QEMU's 255-byte requests in flight, with room to spare. */
#define EGD_DEFAULT_MAX_UNSERVED 8192u
#define EGD_DEFAULT_STALL_MS 30000u
/* Priming must stay well inside the flooding limit. */
#define EGD_MAX_PRIME 4096u

void egd_limits_default(struct egd_limits *lim);

/* Requests queued per client; reading stops (no flood verdict) when full. */
#define EGD_QUEUE_MAX 256u
/* Reply bytes buffered per client: the largest reply (1 + 255) fits. */
#define EGD_OUT_MAX 1024u
/* Blocking reads are served in parts of at most this much per turn, so
 * one greedy client cannot take a whole refill while others wait. */
#define EGD_SERVE_CHUNK 64u

struct egd_bucket {
	uint64_t millibytes;      /* tokens x 1000, to keep ms arithmetic exact */
	uint64_t last_ms;
};

struct egd_conn {
	struct egd_request queue[EGD_QUEUE_MAX];
	unsigned int q_head, q_count;
	unsigned int head_done;   /* bytes of the head blocking read already replied */
	uint8_t partial;          /* first byte of an unfinished request */
	bool has_partial;
	uint8_t refused;          /* the command byte of an -EPERM or -EPROTO */
	uint8_t out[EGD_OUT_MAX];
	size_t out_off, out_len;
	uint64_t unserved;
	struct egd_bucket *bucket;    /* own_bucket, or one shared by its peer uid */
	struct egd_bucket own_bucket;
	uint64_t last_progress_ms;
	bool starved;             /* the last serve() found the reserve empty */
	/* Counters for statistics. */
	uint64_t bytes_served;    /* entropy bytes handed over */
	uint64_t requests;
};

/* A full bucket (lim->burst) as of @now_ms. */
void egd_bucket_init(struct egd_bucket *b, const struct egd_limits *lim, uint64_t now_ms);

/* True if @b would be full again by @now_ms (as good as a new one). */
bool egd_bucket_full(const struct egd_bucket *b, const struct egd_limits *lim, uint64_t now_ms);

void egd_conn_init(struct egd_conn *c, const struct egd_limits *lim, uint64_t now_ms);

/*
 * Rate-limit @c from @b from now on, a bucket shared with the other
 * connections of the same peer (and kept after they close), so opening
 * more connections or reconnecting never buys more bytes. NULL: its own.
 * @b must outlive the connection.
 */
void egd_conn_share_bucket(struct egd_conn *c, struct egd_bucket *b);

/* Wipe the reply buffer (it may hold entropy bytes). */
void egd_conn_wipe(struct egd_conn *c);

/*
 * Queue lim->prime bytes for a new client as if it had asked for them
 * (blocking reads): QEMU's rng-egd loses the request in flight when the
 * server restarts and never sends it again, but it takes any bytes that
 * arrive for the requests it still holds. Not for other EGD clients: it
 * puts bytes ahead of their first reply.
 */
void egd_conn_prime(struct egd_conn *c, const struct egd_limits *lim);

/* How many bytes the server may read from the socket now without
 * overflowing the queue (each request is at least one byte). */
size_t egd_conn_read_room(const struct egd_conn *c);

/*
 * Bytes received: parse and queue them. 0, or the verdict to disconnect:
 * -EPERM (0x03), -EPROTO (unknown command), -ENOBUFS (flooding).
 * @len must not exceed egd_conn_read_room().
 */
int egd_conn_input(struct egd_conn *c, const uint8_t *buf, size_t len,
		   const struct egd_limits *lim, uint64_t now_ms);

/*
 * Turn queued requests into reply bytes while the reply buffer has room,
 * taking entropy from @r within the rate limit; at most @max_entropy
 * entropy bytes this call. Returns the entropy bytes served.
 */
size_t egd_conn_serve(struct egd_conn *c, struct egd_reserve *r, const struct egd_limits *lim,
		      pid_t pid, size_t max_entropy, uint64_t now_ms);

/* Reply bytes ready to write: pointer and length. */
const uint8_t *egd_conn_output(const struct egd_conn *c, size_t *len);

/* @n reply bytes were written to the socket. */
void egd_conn_consumed(struct egd_conn *c, size_t n, uint64_t now_ms);

/* True if the head of the queue waits for entropy (reserve or tokens). */
bool egd_conn_waiting(const struct egd_conn *c);

/*
 * When the rate limit lets the head request go on (CLOCK ms), or
 * UINT64_MAX if it does not wait for tokens (nothing waiting, no rate
 * limit, or tokens enough but the last serve() found the reserve empty:
 * then it waits for the reserve's wake-up only).
 */
uint64_t egd_conn_tokens_at(const struct egd_conn *c, const struct egd_limits *lim, uint64_t now_ms);

/* A reply unread, or a request left unfinished, for lim->stall_ms. */
bool egd_conn_stalled(const struct egd_conn *c, const struct egd_limits *lim, uint64_t now_ms);

/* When egd_conn_stalled() may turn true, or UINT64_MAX. */
uint64_t egd_conn_stall_at(const struct egd_conn *c, const struct egd_limits *lim);

const char *egd_cmd_name(uint8_t cmd);

#endif
