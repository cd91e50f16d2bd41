/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * TPM 1.2 source through TrouSerS (libtspi talking to tcsd).
 *
 * Tspi_TPM_GetRandom needs neither an EK nor ownership. tcsd is a separate
 * daemon that may be restarted under us: a lost connection is re-made with
 * exponential back-off inside read(), bounded by reconnect_timeout, so the
 * daemon sees a slow source rather than a dead one. TPM errors carry
 * libtspi's own error string.
 *
 * Credit 0.5 per bit: TPM 1.2 RNGs are a vendor-specific mix of a hardware
 * source and a DRBG the TCG specification does not pin down.
 */
#include <config.h>

#include <sys/socket.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tss/tspi.h>
#include <trousers/trousers.h>
#include <tss/tss_error.h>

#include "sources/backoff.h"
#include "sources/dl.h"
#include "sources/parse_num.h"
#include "sources/source.h"
#include "sources/tpm_tss.h"

struct tpm_tss_state {
	const struct tpm_tss_api *api;  /* NULL until libtspi is loaded into libtspi_api */
	struct tpm_tss_api libtspi_api;
	void *libtspi;                  /* dlopen() handle */
	char host[256];                 /* "" = libtspi's default (TSS_TCSD_HOSTNAME or localhost) */
	unsigned chunk;
	unsigned reconnect_timeout_s;
	TSS_HCONTEXT ctx;
	TSS_HTPM tpm;
	bool have_ctx, connected, open;
	unsigned long reconnects;
};

static const struct tpm_tss_state tpm_tss_defaults = {
	.chunk = TPM_TSS_CHUNK_DEFAULT,
	.reconnect_timeout_s = TPM_TSS_RECONNECT_TIMEOUT_S,
};

void tpm_tss_source_use_api(struct rng_source *src, const struct tpm_tss_api *api)
{
	struct tpm_tss_state *st = src->priv;

	st->api = api;
}

unsigned long tpm_tss_source_reconnects(const struct rng_source *src)
{
	const struct tpm_tss_state *st = src->priv;

	return st->reconnects;
}

/* ---- 1. Options ---------------------------------------------------------- */

static int tpm_tss_set_option(struct rng_source *src, const char *key, const char *value)
{
	struct tpm_tss_state *st = src->priv;
	unsigned long v;

	if (strcmp(key, "host") == 0) {
		if (rng_option_text(st->host, sizeof(st->host), value, false) < 0)
			return rng_source_why(src, -EINVAL, "host '%s' is empty or too long", value);
		return 0;
	}
	if (strcmp(key, "port") == 0) {
		if (rng_parse_uint(value, 1, 65535, &v) < 0)
			return rng_source_why(src, -EINVAL, "port '%s' is not 1..65535", value);
		/*
		 * libtspi takes tcsd's port only from TSS_TCSD_PORT. Options are
		 * parsed before any reader thread exists, so setting it here races
		 * with nothing.
		 */
		if (setenv("TSS_TCSD_PORT", value, 1) < 0)
			return rng_source_why(src, -errno, "cannot set TSS_TCSD_PORT");
		return 0;
	}
	if (strcmp(key, "chunk") == 0) {
		if (rng_parse_uint(value, 1, TPM_TSS_CHUNK_MAX, &v) < 0)
			return rng_source_why(src, -EINVAL, "chunk '%s' is not 1..%d", value, TPM_TSS_CHUNK_MAX);
		st->chunk = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "reconnect_timeout") == 0) {
		if (rng_parse_uint(value, 0, 86400, &v) < 0)
			return rng_source_why(src, -EINVAL, "reconnect_timeout '%s' is not 0..86400 seconds", value);
		st->reconnect_timeout_s = (unsigned)v;
		return 0;
	}
	return rng_source_why(src, -EINVAL,
			      "unknown option '%s' (known: host, port, chunk, reconnect_timeout)", key);
}

/* ---- 2. Connection ------------------------------------------------------- */

static const char *where(const struct tpm_tss_state *st)
{
	const char *env = getenv("TSS_TCSD_HOSTNAME");

	/* libtspi's own choice when no host is given. */
	return st->host[0] ? st->host : env && env[0] ? env : "localhost";
}

static const char *port_of(void)
{
	const char *port = getenv("TSS_TCSD_PORT");

	return port ? port : "30003";
}

static bool is_comm_error(TSS_RESULT r)
{
	UINT32 code = ERROR_CODE(r);

	return code == ERROR_CODE(TSS_E_COMM_FAILURE) || code == ERROR_CODE(TSS_E_NO_CONNECTION) ||
	       code == ERROR_CODE(TSS_E_CONNECTION_FAILED) ||
	       code == ERROR_CODE(TSS_E_CONNECTION_BROKEN);
}

static void disconnect(struct tpm_tss_state *st)
{
	if (st->have_ctx)
		(void)st->api->context_close(st->ctx);
	st->have_ctx = false;
	st->connected = false;
}

/* One attempt: context, connection, TPM object. Returns 0 or the TSS result. */
static TSS_RESULT connect_once(struct tpm_tss_state *st)
{
	TSS_UNICODE *dest = NULL;
	TSS_RESULT r;

	disconnect(st);
	r = st->api->context_create(&st->ctx);
	if (r != TSS_SUCCESS)
		return r;
	st->have_ctx = true;
	if (st->host[0]) {
		dest = (TSS_UNICODE *)st->api->native_to_unicode((BYTE *)st->host, NULL);
		if (!dest)
			return TSS_E_OUTOFMEMORY;
	}
	r = st->api->context_connect(st->ctx, dest);
	free(dest);
	if (r == TSS_SUCCESS)
		r = st->api->context_get_tpm(st->ctx, &st->tpm);
	if (r != TSS_SUCCESS) {
		disconnect(st);
		return r;
	}
	st->connected = true;
	return TSS_SUCCESS;
}

/* Reconnects with exponential back-off for at most reconnect_timeout. */
static int reconnect(struct rng_source *src, struct tpm_tss_state *st)
{
	unsigned delay = TPM_TSS_BACKOFF_FIRST_MS;
	unsigned long waited_ms = 0, limit_ms = st->reconnect_timeout_s * 1000UL;
	unsigned attempts = 0;
	TSS_RESULT r;

	for (;;) {
		attempts++;
		r = connect_once(st);
		if (r == TSS_SUCCESS) {
			st->reconnects++;
			(void)rng_source_why(src, 0, "reconnected to tcsd at %s:%s after %u attempts",
					     where(st), port_of(), attempts);
			return 0;
		}
		if (!is_comm_error(r) || waited_ms >= limit_ms)
			break;
		st->api->sleep_ms(delay);
		waited_ms += delay;
		delay = rng_backoff_double(delay, TPM_TSS_BACKOFF_MAX_MS);
	}
	return rng_source_why(src, -ECONNREFUSED, "tcsd at %s:%s unreachable after %u attempts: %s",
			      where(st), port_of(), attempts, st->api->error_string(r));
}

/* ---- 3. Loading libtspi ------------------------------------------------ */

/* Connect to @addr within TPM_TSS_LISTEN_TIMEOUT_MS; 0 or -errno. */
static int tcp_connect_once(const struct sockaddr *addr, socklen_t addrlen)
{
	struct pollfd pfd = { .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = 0, fd;

	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, addr, addrlen) < 0) {
		err = errno;
		if (err == EINPROGRESS) {
			pfd.fd = fd;
			err = poll(&pfd, 1, TPM_TSS_LISTEN_TIMEOUT_MS);
			if (err == 0)
				err = ETIMEDOUT;
			else if (err < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
				err = errno;
		}
	}
	(void)close(fd);
	return -err;
}

/*
 * Is something listening where libtspi would connect? A plain TCP connect
 * before libtspi (and the libcrypto it pulls in, 1.5 MB resident) is
 * loaded, so a machine without tcsd never maps them. "localhost" is tried
 * as 127.0.0.1 and ::1 without getaddrinfo(), which would load the NSS
 * host modules into every daemon.
 */
static int tcsd_listening(const struct tpm_tss_state *st)
{
	const char *host = where(st), *port = port_of();
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV }, *res, *ai;
	int err = -ECONNREFUSED;

	if (strcmp(host, "localhost") == 0) {
		unsigned long p = strtoul(port, NULL, 10);
		struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p),
					  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		struct sockaddr_in6 v6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)p),
					   .sin6_addr = IN6ADDR_LOOPBACK_INIT };

		err = tcp_connect_once((const struct sockaddr *)&v4, sizeof(v4));
		if (err < 0)
			err = tcp_connect_once((const struct sockaddr *)&v6, sizeof(v6));
		return err;
	}
	if (getaddrinfo(host, port, &hints, &res) != 0)
		return -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		err = tcp_connect_once(ai->ai_addr, ai->ai_addrlen);
		if (err == 0)
			break;
	}
	freeaddrinfo(res);
	return err;
}

/*
 * Ready to call libtspi: tests' tables are always ready; the real one is
 * loaded once tcsd is seen listening. Returns 0, or -ECONNREFUSED (tcsd
 * not there: worth retrying) or -ENODEV (libtspi missing) with src->why.
 */
static int api_ready(struct rng_source *src, struct tpm_tss_state *st, const char *doing)
{
	struct tpm_tss_api *t = &st->libtspi_api;
	const struct rng_dl_sym syms[] = {
		RNG_DL_SYM(t, context_create, Tspi_Context_Create),
		RNG_DL_SYM(t, context_connect, Tspi_Context_Connect),
		RNG_DL_SYM(t, context_get_tpm, Tspi_Context_GetTpmObject),
		RNG_DL_SYM(t, get_random, Tspi_TPM_GetRandom),
		RNG_DL_SYM(t, free_memory, Tspi_Context_FreeMemory),
		RNG_DL_SYM(t, context_close, Tspi_Context_Close),
		RNG_DL_SYM(t, error_string, Trspi_Error_String),
		RNG_DL_SYM(t, native_to_unicode, Trspi_Native_To_UNICODE),
	};
	int err;

	if (st->api)
		return 0;
	err = tcsd_listening(st);
	if (err < 0)
		return rng_source_why(src, -ECONNREFUSED, "%s TPM 1.2 through tcsd at %s:%s: nothing listening (%s)",
				      doing, where(st), port_of(), strerror(-err));
	err = rng_dl_load(src, TPM_TSS_SONAME, &st->libtspi, syms, sizeof(syms) / sizeof(syms[0]));
	if (err < 0)
		return err;
	t->sleep_ms = rng_sleep_ms;
	st->api = t;
	return 0;
}

/* Unload what api_ready() loaded; a test's fake API stays. */
static void api_unload(struct tpm_tss_state *st)
{
	if (st->api == &st->libtspi_api)
		st->api = NULL;
	rng_dl_unload(&st->libtspi);
}

/* ---- 4. The source ------------------------------------------------------- */

static int tpm_tss_probe(struct rng_source *src)
{
	struct tpm_tss_state *st = src->priv;
	bool had_api = st->api != NULL;
	TSS_RESULT r;
	int err;

	/* An open source's connection is not touched by a probe. */
	if (st->open)
		return 0;
	err = api_ready(src, st, "no");
	if (err == 0) {
		r = connect_once(st);
		disconnect(st);
		if (r != TSS_SUCCESS)
			err = rng_source_why(src, is_comm_error(r) ? -ECONNREFUSED : -ENODEV,
					     "no TPM 1.2 through tcsd at %s:%s: %s", where(st), port_of(),
					     st->api->error_string(r));
	}
	/* rngd -l probes and never closes: leave nothing loaded behind. */
	if (!had_api)
		api_unload(st);
	return err;
}

static int tpm_tss_open(struct rng_source *src)
{
	struct tpm_tss_state *st = src->priv;
	TSS_RESULT r;
	int err;

	err = api_ready(src, st, "cannot open");
	if (err < 0)
		return err;
	r = connect_once(st);
	if (r != TSS_SUCCESS)
		return rng_source_why(src, is_comm_error(r) ? -ECONNREFUSED : -ENODEV,
				      "cannot open TPM 1.2 through tcsd at %s:%s: %s", where(st),
				      port_of(), st->api->error_string(r));
	st->open = true;
	return 0;
}

/* True if @data ends in TPM_TSS_ZERO_TAIL zero bytes: the stack filled less than asked. */
static bool zero_tail(const BYTE *data, UINT32 n)
{
	BYTE any = 0;

	if (n < 2 * TPM_TSS_ZERO_TAIL)
		return false;
	for (UINT32 i = n - TPM_TSS_ZERO_TAIL; i < n; i++)
		any |= data[i];
	return any == 0;
}

static ssize_t tpm_tss_read(struct rng_source *src, void *buf, size_t len)
{
	struct tpm_tss_state *st = src->priv;
	unsigned char *out = buf;
	size_t done = 0;
	int broken = 0;

	if (!st || !st->open)
		return rng_source_why(src, -EBADF, "read before open");
	while (done < len) {
		UINT32 n = (UINT32)(len - done < st->chunk ? len - done : st->chunk);
		BYTE *data = NULL;
		TSS_RESULT r;

		if (!st->connected) {
			int err = reconnect(src, st);

			if (err < 0)
				return done ? (ssize_t)done : err;
		}
		r = st->api->get_random(st->tpm, n, &data);
		if (r == TSS_SUCCESS && data && zero_tail(data, n)) {
			/* Drop the whole chunk (its length is unknowable) and ask for less. */
			explicit_bzero(data, n);
			(void)st->api->free_memory(st->ctx, data);
			if (n / 2 < 2 * TPM_TSS_ZERO_TAIL)
				return done ? (ssize_t)done
					    : rng_source_why(src, -EIO, "Tspi_TPM_GetRandom keeps returning zero-filled data");
			st->chunk = n / 2;
			(void)rng_source_why(src, 0, "Tspi_TPM_GetRandom(%u) came back with a zero-filled tail "
					     "(truncated by the TSS); requests lowered to %u bytes", n, st->chunk);
			continue;
		}
		if (r == TSS_SUCCESS && data) {
			memcpy(out + done, data, n);
			explicit_bzero(data, n);
			(void)st->api->free_memory(st->ctx, data);
			done += n;
			broken = 0;
			continue;
		}
		if (data)
			(void)st->api->free_memory(st->ctx, data);
		if (r == TSS_SUCCESS)
			return rng_source_why(src, -EIO, "Tspi_TPM_GetRandom returned success without data");
		if (is_comm_error(r)) {
			/* tcsd went away: drop the context; the loop reconnects. */
			(void)rng_source_why(src, 0, "lost tcsd at %s:%s: %s", where(st), port_of(),
					     st->api->error_string(r));
			disconnect(st);
			/* A link that breaks again right after each reconnect is not tcsd restarting. */
			if (++broken > TPM_TSS_LINK_RETRIES)
				return done ? (ssize_t)done
					    : rng_source_why(src, -EIO, "tcsd at %s:%s drops every request: %s",
							     where(st), port_of(), st->api->error_string(r));
			continue;
		}
		if (done)
			return (ssize_t)done;
		return rng_source_why(src, -EIO, "Tspi_TPM_GetRandom: %s", st->api->error_string(r));
	}
	return (ssize_t)done;
}

static void tpm_tss_close(struct rng_source *src)
{
	struct tpm_tss_state *st = src->priv;

	disconnect(st);
	st->open = false;
}

static void tpm_tss_release(struct rng_source *src)
{
	api_unload(src->priv);
}

const struct rng_source_ops rng_source_tpm_ops = {
	.name = "tpm",
	.summary = "TPM 1.2 RNG through TrouSerS (tcsd)",
	.keys = "host=localhost port=30003 chunk=1024 reconnect_timeout=30",
	.default_entropy_per_bit = TPM_TSS_ENTROPY_PER_BIT,
	.default_priority = 5,
	.priv_size = sizeof(struct tpm_tss_state),
	.priv_defaults = &tpm_tss_defaults,
	.probe = tpm_tss_probe,
	.open = tpm_tss_open,
	.read = tpm_tss_read,
	.close = tpm_tss_close,
	.set_option = tpm_tss_set_option,
	.release = tpm_tss_release,
};
