/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A source call that does not return, said in the log (rngd/slow_call.h). */
#include <config.h>

#include <stdbool.h>
#include <syslog.h>

#include "rngd/log.h"
#include "rngd/loop_state.h"
#include "rngd/slot.h"
#include "rngd/slow_call.h"

/* Set in call_since_ms by the main thread once it said the read is late:
 * the reader's exchange at the read's end sees it, so "answered" follows
 * "no answer" exactly, for the same read, with no race between the two. */
#define SLOW_CALL_SAID (UINT64_C(1) << 63)

ssize_t rngd_slow_call_read(struct rngd_slot *s, void *buf, size_t len)
{
	uint64_t since = rngd_now_ms(), was;
	ssize_t n;

	__atomic_store_n(&s->call_since_ms, since, __ATOMIC_SEQ_CST);
	n = s->src.ops->read(&s->src, buf, len);
	was = __atomic_exchange_n(&s->call_since_ms, 0, __ATOMIC_SEQ_CST);
	s->call_said_ms = (was & SLOW_CALL_SAID) ? rngd_now_ms() - since : 0;
	return n;
}

void rngd_slow_call_said_back(struct rngd_slot *s)
{
	if (!s->call_said_ms)
		return;
	s->calls_back++;
	rngd_log(s->loop->log, LOG_NOTICE, s->src.name, "answered again: that read returned after %.1f s",
		 (double)s->call_said_ms / 1000.0);
	s->call_said_ms = 0;
}

uint64_t rngd_slow_call_check(struct rngd_slot *s, uint64_t now)
{
	unsigned int limit = s->loop->cfg.slow_call_ms;
	uint64_t since = __atomic_load_n(&s->call_since_ms, __ATOMIC_SEQ_CST);

	if (!limit || !s->started || !since || (since & SLOW_CALL_SAID))
		return UINT64_MAX;
	if (now - since < limit)
		return since + limit;
	/* Fails if that read returned (or another began) meanwhile. */
	if (!__atomic_compare_exchange_n(&s->call_since_ms, &since, since | SLOW_CALL_SAID, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return UINT64_MAX;
	s->calls_late++;
	rngd_log(s->loop->log, LOG_WARNING, s->src.name,
		 "no answer for %.0f s: still inside one read (a device, token or daemon that stopped answering)",
		 (double)(now - since) / 1000.0);
	return UINT64_MAX;
}
