/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The EGD socket at start-up: reserve, server, sharing sink, loop hooks. */
#include <config.h>

#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "rngd/daemon.h"

/* Descriptors the daemon holds beside its EGD clients: sources, sinks,
 * its signalfd and eventfds, the device watch, the listening socket. */
#define EGD_FDS_BESIDE_CLIENTS 64u

void rngd_daemon_egd_limits(struct egd_limits *lim, const struct rngd_options *o, struct rngd_log *log)
{
	struct rlimit rl;

	egd_limits_default(lim);
	lim->rate = o->egd_rate;
	lim->burst = o->egd_burst;
	lim->max_clients = o->egd_clients;
	lim->prime = o->egd_prime;
	/* Past the open-file limit, accept() fails and a newcomer waits in
	 * the backlog behind idle connections the cap would have evicted. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (rlim_t)lim->max_clients + EGD_FDS_BESIDE_CLIENTS > rl.rlim_cur) {
		unsigned int fit = rl.rlim_cur > EGD_FDS_BESIDE_CLIENTS + 1 ?
					   (unsigned int)(rl.rlim_cur - EGD_FDS_BESIDE_CLIENTS) : 1;

		rngd_log(log, LOG_WARNING, "egd",
			 "--egd-clients %u: the open-file limit (RLIMIT_NOFILE %llu) leaves room for %u; at most %u clients",
			 lim->max_clients, (unsigned long long)rl.rlim_cur, fit, fit);
		lim->max_clients = fit;
	}
}

/* The soft open-file limit raised, within the hard one, to what the most
 * clients --egd-clients allows need (systemd's soft default is 1024). */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)EGD_MAX_CLIENTS + EGD_FDS_BESIDE_CLIENTS;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}

static uint64_t egd_served(void *ctx)
{
	struct rngd *d = ctx;

	return egd_server_bytes_served(&d->egd);
}

void rngd_daemon_log_egd_stats(struct rngd *d, const char *why)
{
	if (!d->egd_open)
		return;
	egd_server_log_stats(&d->egd, why);
	rngd_log(&d->log, LOG_NOTICE, "egd",
		 "%s: sharing with sink %s: bytes to the reserve %" PRIu64 " (condensed from %" PRIu64
		 " credited bits), dropped (0 credit) %" PRIu64, why,
		 d->egd_share.inner ? d->egd_share.inner->name : "none", d->egd_share.bytes_to_reserve,
		 d->egd_share.condenser.bits_in, d->egd_share.bytes_dropped);
}

/* As root, before privileges drop: the socket is bound, chmod'ed and
 * chown'ed here; the server thread starts after the drop. */
int rngd_daemon_open_egd(struct rngd *d)
{
	struct egd_server_config cfg;
	int r;

	r = egd_reserve_init(&d->egd_reserve, EGD_RESERVE_DEFAULT_BYTES);
	if (r < 0) {
		rngd_log(&d->log, LOG_ERR, "egd", "cannot set up the reserve: %s", strerror(-r));
		return r;
	}
	egd_server_config_default(&cfg);
	cfg.path = d->opts.egd_socket;
	cfg.mode = (mode_t)d->opts.egd_socket_mode;
	cfg.group = d->opts.egd_socket_group;
	raise_fd_limit();
	rngd_daemon_egd_limits(&cfg.limits, &d->opts, &d->log);
	r = egd_server_open(&d->egd, &cfg, &d->egd_reserve, &d->log);
	if (r < 0) {
		egd_server_close(&d->egd);
		egd_reserve_destroy(&d->egd_reserve);
		return r;
	}
	egd_share_open(&d->egd_sink, &d->egd_share, d->sink_open ? &d->sink : NULL, &d->egd_reserve,
		       d->sink_is_kernel);
	if (d->egd_share.condense_error)
		rngd_log(&d->log, LOG_WARNING, "egd",
			 "cannot condense with SHA-512 (%s): only sources credited 1.0 entropy per bit feed the reserve",
			 strerror(-d->egd_share.condense_error));
	rngd_daemon_lock(d);
	d->egd_open = true;
	rngd_daemon_unlock(d);
	return 0;
}

void rngd_daemon_egd_attach(struct rngd *d)
{
	/* The reserve wakes the loop when it wants bytes again. */
	egd_reserve_set_want_wake(&d->egd_reserve, rngd_loop_wake_fd(d->loop));
	/* What the host's pool took is counted by the sink inside. */
	rngd_loop_set_egd(d->loop, egd_served, d, d->sink_open ? &d->sink : NULL);
}
