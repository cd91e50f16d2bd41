/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The EGD protocol without sockets: the parser on every command, and one
 * client's state machine on a fake clock: replies and their order, a
 * non-blocking read that gets what there is, a blocking read that waits
 * for the reserve and for tokens, the rate over simulated seconds,
 * flooding judged by bytes (QEMU's back-to-back reads pass), stalls, and
 * the accounting of unserved bytes back to zero.
 */
#include <config.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/lib/test_main.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "rngd/egd_proto.h"

#define PID 4242

static struct egd_limits lim;
static struct egd_reserve res;
static struct egd_conn conn;

static int setup(void **state)
{
	(void)state;
	egd_limits_default(&lim);
	lim.rate = 0;   /* unlimited unless a test says otherwise */
	if (egd_reserve_init(&res, 8192) < 0)
		return -1;
	egd_conn_init(&conn, &lim, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	egd_conn_wipe(&conn);
	egd_reserve_destroy(&res);
	return 0;
}

static void put_counting(size_t n, uint8_t start)
{
	uint8_t b[4096];

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(start + i);
	assert_int_equal(egd_reserve_put(&res, b, n), n);
}

/* Take all output, as if the socket wrote it. */
static size_t flush(uint8_t *dst, size_t cap, uint64_t now)
{
	size_t len;
	const uint8_t *p = egd_conn_output(&conn, &len);

	assert_true(len <= cap);
	memcpy(dst, p, len);
	egd_conn_consumed(&conn, len, now);
	return len;
}

static void test_request_parse_needs_whole_requests_and_refuses_writes(void **state)
{
	struct egd_request req;
	const uint8_t level[] = { 0x00 }, pid[] = { 0x04 }, nb[] = { 0x01, 200 }, blk[] = { 0x02, 64, 0x00 };
	const uint8_t wr[] = { 0x03, 0, 8, 1, 0xaa }, bad[] = { 0x05 }, ff[] = { 0xff, 1 };

	(void)state;
	assert_int_equal(egd_parse_request(level, 0, &req), 0);
	assert_int_equal(egd_parse_request(level, 1, &req), 1);
	assert_int_equal(req.cmd, EGD_CMD_LEVEL);
	assert_int_equal(egd_parse_request(pid, 1, &req), 1);
	assert_int_equal(req.cmd, EGD_CMD_PID);
	assert_int_equal(egd_parse_request(nb, 1, &req), 0);   /* needs its count */
	assert_int_equal(egd_parse_request(nb, 2, &req), 2);
	assert_int_equal(req.cmd, EGD_CMD_READ_NONBLOCK);
	assert_int_equal(req.n, 200);
	assert_int_equal(egd_parse_request(blk, 3, &req), 2);  /* one request at a time */
	assert_int_equal(req.n, 64);
	assert_int_equal(egd_parse_request(wr, 1, &req), -EPERM);
	assert_int_equal(egd_parse_request(wr, sizeof(wr), &req), -EPERM);
	assert_int_equal(egd_parse_request(bad, 1, &req), -EPROTO);
	assert_int_equal(egd_parse_request(ff, 2, &req), -EPROTO);
	/* Cost: what the reply may hold, at least 1. */
	req = (struct egd_request){ EGD_CMD_READ_BLOCK, 0 };
	assert_int_equal(egd_request_cost(&req), 1);
	req = (struct egd_request){ EGD_CMD_READ_NONBLOCK, 255 };
	assert_int_equal(egd_request_cost(&req), 256);
	req = (struct egd_request){ EGD_CMD_LEVEL, 0 };
	assert_int_equal(egd_request_cost(&req), 4);
}

static void test_level_pid_nonblocking(void **state)
{
	const uint8_t in[] = { 0x00, 0x04, 0x01, 10, 0x01, 250, 0x00 };
	uint8_t out[1024];
	size_t n;

	(void)state;
	put_counting(100, 1);
	assert_int_equal(egd_conn_input(&conn, in, sizeof(in), &lim, 1), 0);
	assert_int_equal(conn.q_count, 5);
	egd_conn_serve(&conn, &res, &lim, PID, 64, 1);
	n = flush(out, sizeof(out), 1);
	/* level 100 | pid "4242" | count 10 + 10 bytes | count 90 + 90 | level 0 */
	assert_int_equal(n, 4 + 5 + 11 + 91 + 4);
	assert_memory_equal(out, "\0\0\0\x64", 4);
	assert_memory_equal(out + 4, "\x04" "4242", 5);
	assert_int_equal(out[9], 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(out[10 + i], 1 + i);
	assert_int_equal(out[20], 90);
	for (int i = 0; i < 90; i++)
		assert_int_equal(out[21 + i], 11 + i);
	assert_memory_equal(out + 111, "\0\0\0\0", 4);
	/* An empty reserve: the non-blocking read says 0, at once. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x01, 5 }, 2, &lim, 2), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 64, 2);
	assert_int_equal(flush(out, sizeof(out), 2), 1);
	assert_int_equal(out[0], 0);
	assert_int_equal(conn.unserved, 0);
	assert_int_equal(conn.bytes_served, 100);
	assert_int_equal(conn.requests, 6);
}

static void test_blocking_waits_and_order(void **state)
{
	uint8_t out[1024];

	(void)state;
	/* A blocking read, then a level request that must wait behind it. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 100, 0x00 }, 3, &lim, 0), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 0);
	assert_int_equal(flush(out, sizeof(out), 0), 0);
	assert_true(egd_conn_waiting(&conn));
	put_counting(30, 50);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 1);
	/* Part of it now: a blocking read is a stream of exactly n bytes. */
	assert_int_equal(flush(out, sizeof(out), 1), 30);
	assert_int_equal(conn.q_count, 2);
	put_counting(200, 80);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 2);
	assert_int_equal(flush(out, sizeof(out), 2), 70 + 4);
	assert_int_equal(out[0], 80);
	assert_int_equal(out[69], (uint8_t)(80 + 69));
	/* The level reply follows, with what is left: 200 - 70. */
	assert_memory_equal(out + 70, "\0\0\0\x82", 4);
	assert_false(egd_conn_waiting(&conn));
	assert_int_equal(conn.unserved, 0);
	/* A zero-byte blocking read completes with nothing. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 0 }, 2, &lim, 3), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 3);
	assert_int_equal(flush(out, sizeof(out), 3), 0);
	assert_int_equal(conn.q_count, 0);
	assert_int_equal(conn.unserved, 0);
}

static void test_split_requests(void **state)
{
	uint8_t out[64];

	(void)state;
	put_counting(10, 1);
	/* One byte at a time, as a slow client might send it. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02 }, 1, &lim, 0), 0);
	assert_true(conn.has_partial);
	assert_int_equal(conn.q_count, 0);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 5 }, 1, &lim, 0), 0);
	assert_false(conn.has_partial);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 0);
	assert_int_equal(flush(out, sizeof(out), 0), 5);
}

static void test_refused_commands(void **state)
{
	(void)state;
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x00, 0x03, 0, 8, 1, 7 }, 6, &lim, 0), -EPERM);
	assert_int_equal(conn.refused, 0x03);
	egd_conn_init(&conn, &lim, 0);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x42 }, 1, &lim, 0), -EPROTO);
	assert_int_equal(conn.refused, 0x42);
	egd_conn_init(&conn, &lim, 0);
	/* An unknown command after a split first byte is seen, and named: not
	 * the count that finished the split request (the log said 0x00 for
	 * "02", then "01 07"). */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x01 }, 1, &lim, 0), 0);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 3, 0x99 }, 2, &lim, 0), -EPROTO);
	assert_int_equal(conn.refused, 0x99);
	egd_conn_init(&conn, &lim, 0);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02 }, 1, &lim, 0), 0);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x01, 0x07 }, 2, &lim, 0), -EPROTO);
	assert_int_equal(conn.refused, 0x07);
}

static void test_flooding_by_bytes(void **state)
{
	uint8_t reqs[2 * 64];

	(void)state;
	/* QEMU's pattern: sixteen 64-byte blocking reads back to back, nothing
	 * served yet (an empty reserve): 1024 bytes, well under the limit. */
	for (int i = 0; i < 16; i++) {
		reqs[2 * i] = 0x02;
		reqs[2 * i + 1] = 64;
	}
	assert_int_equal(egd_conn_input(&conn, reqs, 32, &lim, 0), 0);
	assert_int_equal(conn.unserved, 1024);
	/* Many small requests are fine as long as they are served. */
	put_counting(4000, 0);
	for (int round = 0; round < 200; round++) {
		uint8_t out[1024];

		assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x00, 0x00, 0x04 }, 3, &lim, 1), 0);
		egd_conn_serve(&conn, &res, &lim, PID, 64, 1);
		(void)flush(out, sizeof(out), 1);
		egd_conn_serve(&conn, &res, &lim, PID, 64, 1);
		(void)flush(out, sizeof(out), 1);
	}
	assert_int_equal(conn.unserved, 0);
	/* Bytes asked and not served: over the limit, whatever the count. */
	egd_reserve_destroy(&res);
	assert_int_equal(egd_reserve_init(&res, 8192), 0);
	egd_conn_init(&conn, &lim, 2);
	for (int i = 0; i < 32; i++) {
		reqs[2 * i] = 0x02;
		reqs[2 * i + 1] = 255;
	}
	assert_int_equal(egd_conn_input(&conn, reqs, 2 * 32, &lim, 2), 0);   /* 8160 */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 255 }, 2, &lim, 2), -ENOBUFS);
}

static void test_rate_limit(void **state)
{
	uint8_t out[1024];
	uint64_t now = 0, got = 0;

	(void)state;
	lim.rate = 1000;
	lim.burst = 200;
	egd_conn_init(&conn, &lim, 0);
	/* A generous reserve: only tokens limit. Read 20 s of 64-byte requests. */
	egd_reserve_destroy(&res);
	assert_int_equal(egd_reserve_init(&res, 1u << 20), 0);
	for (int i = 0; i < 8; i++)
		put_counting(4096, 0);
	while (now < 20000) {
		uint64_t at;

		while (conn.q_count < 4)
			assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 64 }, 2, &lim, now), 0);
		egd_conn_serve(&conn, &res, &lim, PID, 64, now);
		got += flush(out, sizeof(out), now);
		at = egd_conn_tokens_at(&conn, &lim, now);
		/* UINT64_MAX: tokens enough, only this call's part limit stopped it. */
		now = at != UINT64_MAX && at > now ? at : now + 1;
	}
	/* burst + rate x time, exactly, to the part size */
	assert_true(got >= 200 + 20000 - 64);
	assert_true(got <= 200 + 20000);
	/* A non-blocking read gets no more than the tokens either. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x01, 255 }, 2, &lim, now), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 64, now + 50);
	(void)flush(out, sizeof(out), now + 50);
	/* The remaining blocking reads come first; then the count byte. */
	assert_true(conn.bytes_served <= 200 + 20050);
}

/* A client with tokens enough that waits for an empty reserve has no
 * token deadline: the reserve wakes the server when bytes arrive. A
 * deadline of "now" made the server poll with a zero time-out. */
static void test_tokens_at_empty_reserve(void **state)
{
	uint8_t out[1024];

	(void)state;
	lim.rate = 1000;
	lim.burst = 200;
	egd_conn_init(&conn, &lim, 0);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 64 }, 2, &lim, 0), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 64, 0);
	assert_int_equal(flush(out, sizeof(out), 0), 0);
	assert_true(egd_conn_waiting(&conn));
	assert_true(egd_conn_tokens_at(&conn, &lim, 5) == UINT64_MAX);
	/* Short of tokens: a deadline in the future, never now. */
	put_counting(200, 0);
	egd_conn_serve(&conn, &res, &lim, PID, 200, 10);
	assert_int_equal(flush(out, sizeof(out), 10), 64);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 64, 0x02, 64, 0x02, 64 }, 6, &lim, 10), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 200, 10);
	(void)flush(out, sizeof(out), 10);
	(void)flush(out, sizeof(out), 10);
	uint64_t at = egd_conn_tokens_at(&conn, &lim, 10);

	assert_true(at > 10 && at != UINT64_MAX);
}

/* A client that queues blocking reads and does not read the replies: once
 * its reply buffer is full it has no token deadline (its POLLOUT makes
 * room). A deadline of "now" spun the EGD thread at 100 % of a core for as
 * long as such a client stayed connected. */
static void test_tokens_at_full_reply_buffer(void **state)
{
	size_t len;

	(void)state;
	lim.rate = 16384;
	lim.burst = 16384;
	egd_conn_init(&conn, &lim, 0);
	put_counting(4096, 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 255 }, 2, &lim, 0), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 4096, 0);
	(void)egd_conn_output(&conn, &len);
	assert_int_equal(len, EGD_OUT_MAX);
	assert_true(egd_conn_waiting(&conn));
	assert_true(egd_conn_tokens_at(&conn, &lim, 5) == UINT64_MAX);
	/* Once it reads, the wait is for tokens again: here it has them. */
	egd_conn_consumed(&conn, len, 6);
	assert_true(egd_conn_tokens_at(&conn, &lim, 6) == 6);
}

static void test_stall_only_on_unread_reply_or_half_request(void **state)
{
	(void)state;
	lim.stall_ms = 1000;
	put_counting(100, 0);
	/* Idle, or waiting for entropy: never a stall. */
	assert_false(egd_conn_stalled(&conn, &lim, 50000));
	assert_int_equal(egd_conn_stall_at(&conn, &lim), UINT64_MAX);
	/* A reply nobody reads. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 10 }, 2, &lim, 100), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 64, 100);
	assert_int_equal(egd_conn_stall_at(&conn, &lim), 1100);
	assert_false(egd_conn_stalled(&conn, &lim, 1099));
	assert_true(egd_conn_stalled(&conn, &lim, 1100));
	/* Reading it resets the clock. */
	egd_conn_consumed(&conn, 10, 1050);
	assert_false(egd_conn_stalled(&conn, &lim, 3000));
	/* Half a request left unfinished. */
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x01 }, 1, &lim, 4000), 0);
	assert_true(egd_conn_stalled(&conn, &lim, 5000));
}

static void test_output_wiped_once_written_and_on_conn_wipe(void **state)
{
	size_t len;

	(void)state;
	put_counting(50, 1);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x02, 50 }, 2, &lim, 0), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 64, 0);
	(void)egd_conn_output(&conn, &len);
	assert_int_equal(len, 50);
	/* Written bytes are wiped at once; the rest on egd_conn_wipe(). */
	egd_conn_consumed(&conn, 20, 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(conn.out[i], 0);
	egd_conn_wipe(&conn);
	for (size_t i = 0; i < sizeof(conn.out); i++)
		assert_int_equal(conn.out[i], 0);
}

static void test_prime_pushes_bytes_first_counted_as_request_and_capped(void **state)
{
	uint8_t out[1024];

	(void)state;
	lim.prime = 300;
	egd_conn_init(&conn, &lim, 0);
	egd_conn_prime(&conn, &lim);
	/* Bytes as if asked for: they count against flooding like a request. */
	assert_int_equal(conn.q_count, 2);
	assert_int_equal(conn.unserved, 300);
	assert_int_equal(conn.requests, 0);
	put_counting(400, 1);
	assert_int_equal(egd_conn_input(&conn, (const uint8_t[]){ 0x00 }, 1, &lim, 0), 0);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 0);
	egd_conn_serve(&conn, &res, &lim, PID, 1000, 0);
	/* The pushed bytes first, then the reply to the client's own request. */
	assert_int_equal(flush(out, sizeof(out), 0), 300 + 4);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[299], (uint8_t)300);
	assert_memory_equal(out + 300, "\0\0\0\x64", 4);
	assert_int_equal(conn.unserved, 0);
	/* Capped: never more than EGD_MAX_PRIME. */
	lim.prime = 100000;
	egd_conn_init(&conn, &lim, 0);
	egd_conn_prime(&conn, &lim);
	assert_int_equal(conn.unserved, EGD_MAX_PRIME);
}

#define RNGD_TEST_SETUP setup
#define RNGD_TEST_TEARDOWN teardown

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_request_parse_needs_whole_requests_and_refuses_writes),
	RNGD_FIXTURE_TEST(test_level_pid_nonblocking),
	RNGD_FIXTURE_TEST(test_blocking_waits_and_order),
	RNGD_FIXTURE_TEST(test_split_requests),
	RNGD_FIXTURE_TEST(test_refused_commands),
	RNGD_FIXTURE_TEST(test_flooding_by_bytes),
	RNGD_FIXTURE_TEST(test_rate_limit),
	RNGD_FIXTURE_TEST(test_tokens_at_empty_reserve),
	RNGD_FIXTURE_TEST(test_tokens_at_full_reply_buffer),
	RNGD_FIXTURE_TEST(test_stall_only_on_unread_reply_or_half_request),
	RNGD_FIXTURE_TEST(test_output_wiped_once_written_and_on_conn_wipe),
	RNGD_FIXTURE_TEST(test_prime_pushes_bytes_first_counted_as_request_and_capped)
)
