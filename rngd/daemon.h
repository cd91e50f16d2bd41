/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's state, one struct rngd that main() owns (rngd/main.c: the
 * only process-wide state), and the start-up steps that main.c's run()
 * calls in order but that are each a concern of their own: the hwrng
 * gate (rngd/daemon_hwrng.c), the EGD socket (rngd/daemon_egd.c), the
 * sink (rngd/daemon_sink.c), the pid file and the checks of -r and -D
 * (rngd/daemon_checks.c).
 */
#ifndef RNGD_DAEMON_H
#define RNGD_DAEMON_H

#include <sys/stat.h>
#include <stdbool.h>
#include <stddef.h>

#include "rngd/egd_reserve.h"
#include "rngd/egd_server.h"
#include "rngd/egd_share.h"
#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_watch.h"
#include "rngd/log.h"
#include "rngd/loop.h"
#include "rngd/options.h"
#include "rngd/sink.h"
#include "rngd/startup_watch.h"

struct rngd {
	int argc;
	char **argv;
	struct rngd_options opts;
	struct rngd_log log;
	struct rng_sink sink;
	bool sink_open;
	bool sink_is_kernel;
	struct rngd_slot *slots;
	size_t n_slots;
	struct rngd_loop *loop;
	struct hwrng_quality hwq;
	bool hwq_taken;
	struct hwrng_watch *hwrng_watch;  /* NULL: no hwrng source */
	int pidfile_fd;
	int report_fd;   /* -b: the parent waits here for the start's result */
	/* The EGD server (--egd-socket): its reserve, and the sink the loop
	 * feeds, which shares between the real sink and the reserve. */
	struct egd_reserve egd_reserve;
	struct egd_server egd;
	struct egd_share egd_share;
	struct rng_sink egd_sink;
	bool egd_open;
	/* Answers SIGTERM/SIGINT until the loop runs. What its stop callback
	 * reads (log_ready, log, sink_open, sink, hwq_taken, hwq, egd_open)
	 * changes only under its lock. */
	struct rngd_startup_watch watch;
	bool log_ready;
};

/* What the start-up watch's stop callback reads changes under its lock. */
static inline void rngd_daemon_lock(struct rngd *d)
{
	rngd_startup_watch_lock(&d->watch);
}

static inline void rngd_daemon_unlock(struct rngd *d)
{
	rngd_startup_watch_unlock(&d->watch);
}

/* rngd/daemon_hwrng.c */
/* HRNGSELECT (--defaults-file) into rng_current, before any source opens. */
void rngd_daemon_select_hwrng(struct rngd *d);
/* rng_quality to 0 while rngd gates /dev/hwrng for the kernel (restored at exit). */
void rngd_daemon_take_hwrng_quality(struct rngd *d);
/* The device watch for the hwrng source, if one runs: 0, or -ENOMEM
 * (logged). */
int rngd_daemon_watch_hwrng(struct rngd *d);
/* --restore-hwrng-quality: an exit code (the note and any error logged). */
int rngd_restore_hwrng_quality(const struct rngd_options *o);

/* rngd/daemon_egd.c */
void rngd_daemon_egd_limits(struct egd_limits *lim, const struct rngd_options *o, struct rngd_log *log);
/* The socket, its reserve and the sharing sink, as root; 0 or -errno (logged). */
int rngd_daemon_open_egd(struct rngd *d);
/* Once the loop exists: its wake fd to the reserve, the served-bytes count. */
void rngd_daemon_egd_attach(struct rngd *d);
/* The EGD server's and the sharing sink's lines after the loop's own
 * (SIGUSR1: why "stats"; exit: "summary"); nothing without --egd-socket. */
void rngd_daemon_log_egd_stats(struct rngd *d, const char *why);

/* rngd/daemon_sink.c. The path -o names, the default if none. */
const char *rngd_daemon_sink_path(const struct rngd_options *o);
/* -o none: no sink, the EGD clients alone are fed. */
bool rngd_daemon_sink_is_none(const struct rngd_options *o);
/* -o names the kernel's random device (the default): what rngd -l
 * judges a source's credit against. */
bool rngd_daemon_sink_is_kernel(const struct rngd_options *o);
/* Open the sink -o names, logging what it feeds, or why not. */
int rngd_daemon_open_sink(struct rngd *d);

/* rngd/daemon_checks.c: each returns an exit code, 0 if fine. */
int rngd_daemon_lock_pidfile(struct rngd *d);
int rngd_check_file_sources(const struct rngd_options *o);
/* No regular file read by two enabled sources, no file or FIFO that the
 * sink writes read by one (exit 2, one line naming both). */
int rngd_check_shared_files(const struct rngd_options *o, struct rngd_slot *slots, size_t n);
/* The regular file or FIFO the sink path (standard output for -) names
 * now, into @st; false for none, a device or a path not there. */
bool rngd_sink_file_stat(const struct rngd_options *o, struct stat *st);
int rngd_check_user(const char *user_group);
/* In the background every path is absolute (exit 2 with the path if not). */
int rngd_check_background_paths(const struct rngd_options *o);

#endif
