/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz harness for the EGD request parser and a client's state machine.
 * The input is a script: the first byte picks the limits, then each
 * chunk's first byte says what happens next (bytes from the client, time
 * passing, entropy arriving, the socket writing some of the reply).
 * Invariants checked on every step: the parser consumes 0..2 bytes and
 * only for the commands it knows; the unserved count equals queued costs
 * plus unwritten reply bytes; output never exceeds its buffer; a verdict
 * ends the script.
 *
 * Built with -DEGD_LIBFUZZER it is a libFuzzer target (make check-long);
 * otherwise main() replays a fixed-seed stream of random scripts plus any
 * files named on the command line (make check, under ASan+UBSan).
 */
#include <config.h>

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rngd/egd_proto.h"
#include "tests/lib/splitmix64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(x) do { if (!(x)) { fprintf(stderr, "invariant failed: %s (line %d)\n", #x, __LINE__); abort(); } } while (0)

static void check_parser(const uint8_t *data, size_t size)
{
	struct egd_request req;
	int n = egd_parse_request(data, size, &req);

	if (size == 0) {
		CHECK(n == 0);
		return;
	}
	switch (data[0]) {
	case 0x00: case 0x04:
		CHECK(n == 1 && req.cmd == data[0]);
		break;
	case 0x01: case 0x02:
		CHECK(size < 2 ? n == 0 : (n == 2 && req.cmd == data[0] && req.n == data[1]));
		break;
	case 0x03:
		CHECK(n == -EPERM);
		break;
	default:
		CHECK(n == -EPROTO);
	}
}

static uint64_t queued_cost(const struct egd_conn *c)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < c->q_count; i++) {
		const struct egd_request *q = &c->queue[(c->q_head + i) % EGD_QUEUE_MAX];

		sum += egd_request_cost(q);
		if (i == 0 && q->cmd == EGD_CMD_READ_BLOCK)
			sum -= c->head_done;
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct egd_conn conn;
	struct egd_reserve res;
	struct egd_limits lim;
	uint8_t fill[256];
	uint64_t now = 0;
	size_t off = 1;

	check_parser(data, size);
	if (size < 1)
		return 0;
	egd_limits_default(&lim);
	lim.rate = (uint32_t)(data[0] & 0x0f) * 100u;    /* 0: unlimited */
	lim.burst = 1u + (uint32_t)(data[0] >> 4) * 50u;
	lim.max_unserved = 600;
	lim.stall_ms = 500;
	if (egd_reserve_init(&res, 1024) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(fill); i++)
		fill[i] = (uint8_t)(i | 1);
	egd_conn_init(&conn, &lim, now);
	while (off < size) {
		uint8_t op = data[off++];
		size_t len = (size_t)(op & 0x3f);
		size_t out;
		int r = 0;

		if (len > size - off)
			len = size - off;
		switch (op >> 6) {
		case 0:    /* client bytes */
			if (len > egd_conn_read_room(&conn))
				len = egd_conn_read_room(&conn);
			r = egd_conn_input(&conn, data + off, len, &lim, now);
			off += len;
			break;
		case 1:    /* time passes */
			now += (uint64_t)len * 37u;
			break;
		case 2:    /* entropy arrives */
			(void)egd_reserve_put(&res, fill, (size_t)len * 4u);
			break;
		default:   /* the socket writes part of the reply */
			(void)egd_conn_output(&conn, &out);
			egd_conn_consumed(&conn, out < len ? out : len, now);
			break;
		}
		if (r < 0) {
			CHECK(r == -EPERM || r == -EPROTO || r == -ENOBUFS);
			break;
		}
		(void)egd_conn_serve(&conn, &res, &lim, 1234, EGD_SERVE_CHUNK, now);
		(void)egd_conn_output(&conn, &out);
		CHECK(conn.out_len <= EGD_OUT_MAX && conn.out_off <= conn.out_len);
		CHECK(conn.unserved == queued_cost(&conn) + out);
		CHECK(conn.q_count <= EGD_QUEUE_MAX);
		(void)egd_conn_stalled(&conn, &lim, now);
		(void)egd_conn_tokens_at(&conn, &lim, now);
	}
	egd_conn_wipe(&conn);
	egd_reserve_destroy(&res);
	return 0;
}

#ifndef EGD_LIBFUZZER
static int run_file(const char *path)
{
	static uint8_t buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		return 1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return LLVMFuzzerTestOneInput(buf, n);
}

/* A well-formed script, mostly valid requests, now and then a bad byte:
 * random bytes alone end almost every script at its first command. */
static size_t make_script(uint8_t *buf, size_t cap, uint64_t *x)
{
	size_t len = 0, steps = 1 + test_splitmix64(x) % 400;

	buf[len++] = (uint8_t)test_splitmix64(x);
	while (steps-- && len + 64 < cap) {
		uint64_t v = test_splitmix64(x);
		uint8_t n = (uint8_t)(1 + v % 20);

		switch ((v >> 8) % 4) {
		case 0:
			buf[len++] = n;   /* op 0: n client bytes follow */
			for (uint8_t i = 0; i < n; i++) {
				uint64_t w = test_splitmix64(x);

				buf[len++] = w % 2000 == 0 ? (uint8_t)(w >> 16) : (uint8_t)((w >> 16) % 5 == 3 ? 2 : (w >> 16) % 5);
			}
			break;
		default:
			buf[len++] = (uint8_t)(((v >> 8) % 4) << 6 | n);
			break;
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	static uint8_t buf[16384];
	uint64_t x = 0x9e3779b97f4a7c15ull;   /* fixed seed: the run is reproducible */
	int runs = 20000;

	for (int i = 1; i < argc; i++)
		if (run_file(argv[i]) != 0)
			return 1;
	for (int i = 0; i < runs; i++) {
		size_t len;

		if (i % 4 == 0) {
			/* Raw random bytes too: the parser's error paths. */
			len = 1 + (size_t)(test_splitmix64(&x) % 256);
			for (size_t k = 0; k < len; k++)
				buf[k] = (uint8_t)test_splitmix64(&x);
		} else {
			len = make_script(buf, sizeof(buf), &x);
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("ok: %d fuzz scripts replayed\n", runs);
	return 0;
}
#endif
