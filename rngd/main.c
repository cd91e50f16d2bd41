/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd: the process. Order matters here, for privileges and for users:
 *   1. options and config (exit 2 on a bad one), -h/-v/-l;
 *   2. logging, daemonising, the pid file (exit 3 if another rngd runs);
 *   3. the sink and every source opened, rng_quality taken, all as root;
 *   4. privileges dropped (-D), and only then the reader threads start,
 *      so none of them ever runs with more than CAP_SYS_ADMIN;
 *   5. the loop, until SIGTERM/SIGINT; then rng_quality restored.
 * SIGTERM/SIGINT during 1-4 are answered by the start-up watch
 * (rngd/startup_watch.h): exit 0 with a summary, whatever step hangs.
 * The only process-wide state of the daemon lives in this file (main()'s
 * struct rngd, rngd/daemon.h); the hwrng gate, the EGD socket and the
 * start-up checks are its steps in rngd/daemon_*.c.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "rngd/background.h"
#include "rngd/compat.h"
#include "rngd/credit.h"
#include "rngd/file_clash.h"
#include "rngd/daemon.h"
#include "rngd/egd_reserve.h"
#include "rngd/egd_server.h"
#include "rngd/file_kind.h"
#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_watch.h"
#include "rngd/log.h"
#include "rngd/loop.h"
#include "rngd/notify.h"
#include "rngd/options.h"
#include "rngd/privs.h"
#include "rngd/secret_mem.h"
#include "rngd/sink.h"
#include "rngd/sink_null.h"
#include "rngd/reload_check.h"
#include "rngd/source_list.h"
#include "rngd/source_set.h"
#include "rngd/startup_watch.h"
#include "sources/close_fd.h"

/* A usage error on one line: a value or a config line may hold control
 * characters (a stray CR, an escape sequence) that must not reach the
 * terminal as such. */
static void one_line(char *err)
{
	for (char *p = err; *p; p++)
		if (iscntrl((unsigned char)*p))
			*p = '?';
}

static void print_error_line(char *err)
{
	one_line(err);
	rngd_log_early(LOG_ERR, "%s", err);
}

static void phase(struct rngd *d, const char *what)
{
	rngd_startup_watch_phase(&d->watch, what);
}

/*
 * SIGTERM or SIGINT before the loop runs, from the start-up watch's
 * thread while the main thread may be stuck anywhere (a TPM call, a name
 * service, an open()): undo what outlives the process and _exit() at once.
 * Nothing was read from any source yet, so nothing was credited.
 */
static void stop_during_startup(void *ctx, const char *signal_name, const char *during)
{
	struct rngd *d = ctx;

	if (!d->log_ready)
		rngd_log_init(&d->log, true, LOG_NOTICE);
	rngd_log(&d->log, LOG_NOTICE, "rngd", "%s received while %s; exiting", signal_name, during);
	rngd_log(&d->log, LOG_NOTICE, "rngd",
		 "summary: sink %s: bytes written 0, bits credited 0, write errors 0 (stopped during start-up)",
		 d->sink_open ? d->sink.name : "none");
	if (d->hwq_taken) {
		hwrng_quality_restore(&d->hwq);
		if (d->hwq.note[0])
			rngd_log(&d->log, LOG_NOTICE, "hwrng", "%s", d->hwq.note);
	}
	if (d->egd_open)
		egd_server_unlink_own(&d->egd);
	pidfile_release(&d->pidfile_fd);
	notify_stopping();
	(void)fflush(stdout);
	_exit(RNGD_EXIT_OK);
}

static int log_level(const struct rngd_options *o)
{
	return o->debug ? LOG_DEBUG : o->quiet ? LOG_ERR : LOG_INFO;
}

static void loop_config_from(struct rngd_loop_config *c, const struct rngd_options *o)
{
	c->on_fail = o->on_fail;
	c->quarantine_after = o->quarantine_after;
	c->retest_min_ms = o->retest_min_ms;
	c->retest_max_ms = o->retest_max_ms < o->retest_min_ms ? o->retest_min_ms : o->retest_max_ms;
	c->random_step = o->random_step;
	c->stats_interval_s = o->stats_interval_s;
	c->ready_timeout_ms = o->ready_timeout_ms;
	c->open_wait_ms = o->open_wait_ms;
	c->read_quiet_ms = RNGD_READ_QUIET_MS;
	c->slow_call_ms = RNGD_READ_QUIET_MS;
	c->stats_file = o->stats_file;
	c->test_mode = o->test_mode;
}

/* What @i's source earns now, as the loop credits it (its default's
 * facts, -e, a file's kept offset), not the bare setting. */
static double slot_credit(struct rngd *d, size_t i)
{
	struct rngd_slot *slot = rngd_slot_at(d->slots, i);

	return credit_entropy_per_bit(rngd_slot_source(slot), rngd_slot_settings(slot)->credit_explicit, false);
}

/* After a reload: each source whose credit it changed, one line. */
static void log_credit_changes(struct rngd *d, const double *before)
{
	for (size_t i = 0; i < d->n_slots && before; i++) {
		struct rngd_slot *slot = rngd_slot_at(d->slots, i);
		double now = slot_credit(d, i);

		if (rngd_slot_enabled(slot) && now != before[i])
			rngd_log(&d->log, LOG_NOTICE, rngd_slot_source(slot)->name, "earns %.3f bits per bit%s (was %.3f)",
				 now, rngd_slot_settings(slot)->credit_explicit ? ", as written" : "", before[i]);
	}
}

/* SIGHUP: the same sources, new settings; 0 or -errno (logged here). */
static int reload(struct rngd *d)
{
	struct rngd_options fresh;
	struct rngd_loop_config lc;
	char err[RNGD_ERR_MAX];
	double *before = calloc(d->n_slots ? d->n_slots : 1, sizeof(*before));
	int r;

	for (size_t i = 0; i < d->n_slots && before; i++)
		before[i] = slot_credit(d, i);

	r = rngd_compat_load(&fresh, d->argc, d->argv, err);
	/* A defaults file's RNGDOPTIONS can gain -V or --list: the next start
	 * would print and exit, so the reload is refused like --hrng=help. */
	if (r > 0 || (r == 0 && (fresh.list || fresh.version || fresh.help || fresh.option_help)))
		r = rngd_fail(err, "the command line prints and exits; nothing to reload");
	if (r == 0)
		r = rngd_reload_check(&d->opts, &fresh, err);
	if (r == 0)
		r = rngd_source_set_reapply(&fresh, d->slots, d->n_slots, err);
	if (r < 0) {
		/* One line with the cause: it is what quiet = yes still shows. */
		one_line(err);
		rngd_log(&d->log, LOG_ERR, "rngd", "configuration not reloaded (%s); keeping the old one", err);
		rngd_options_free(&fresh);
		free(before);
		return r;
	}
	rngd_options_free(&d->opts);
	d->opts = fresh;
	loop_config_from(&lc, &d->opts);
	rngd_loop_set_config(d->loop, &lc);
	if (d->egd_open) {
		struct egd_limits lim;

		rngd_daemon_egd_limits(&lim, &d->opts, &d->log);
		egd_server_set_limits(&d->egd, &lim);
	}
	rngd_log_set_level(&d->log, log_level(&d->opts));
	if (err[0])
		rngd_log(&d->log, LOG_WARNING, "rngd", "%s", err);
	/* What the new configuration was warned of (a defaults file's line
	 * not run): the notes of a start, but for the informative ones. */
	for (size_t i = 0; i < d->opts.n_notes; i++)
		if (d->opts.notes[i].level <= LOG_WARNING)
			rngd_log(&d->log, d->opts.notes[i].level, "rngd", "%s", d->opts.notes[i].text);
	log_credit_changes(d, before);
	free(before);
	rngd_log(&d->log, LOG_INFO, "rngd", "configuration reloaded");
	return 0;
}

/* The file or FIFO a file sink writes, so that no source reads it
 * (rngd/file_clash.c): fstat()ed now that it is open. */
static void tell_loop_the_sink_file(struct rngd *d)
{
	struct stat st;

	if (d->sink_open && !d->sink_is_kernel && rngd_sink_file_stat(&d->opts, &st))
		rngd_loop_set_sink_file(d->loop, &st);
}

/* How peer options were taken, and every source whose credit the user's
 * own words changed (-e, -H, -O ...:entropy_per_bit): one line each. */
static void log_compat_notes(struct rngd *d)
{
	for (size_t i = 0; i < d->opts.n_notes; i++)
		rngd_log(&d->log, d->opts.notes[i].level, "rngd", "%s", d->opts.notes[i].text);
	for (size_t i = 0; i < d->n_slots; i++) {
		const struct rngd_slot *slot = rngd_slot_at(d->slots, i);
		const struct rng_source *s = rngd_slot_source(slot);

		if (rngd_slot_enabled(slot) && s->entropy_per_bit != s->ops->default_entropy_per_bit)
			rngd_log(&d->log, LOG_NOTICE, s->name, "earns %.3f bits per bit, as written (default %.3f)",
				 s->entropy_per_bit, s->ops->default_entropy_per_bit);
	}
}

static int run(struct rngd *d)
{
	struct rngd_loop_config lc;
	char err[RNGD_ERR_MAX];
	int r;

	r = rngd_source_set_build(&d->opts, &d->slots, &d->n_slots, err);
	if (r < 0) {
		print_error_line(err);
		return RNGD_EXIT_USAGE;
	}
	if (d->opts.list) {
		int code;

		r = rngd_source_list(stdout, d->slots, d->n_slots, d->opts.open_wait_ms,
				     rngd_daemon_sink_is_kernel(&d->opts));
		if (r < 0)
			rngd_log_early(LOG_ERR, "cannot list the sources: out of memory");
		code = r >= 0 && rngd_stdout_written() ? RNGD_EXIT_OK : RNGD_EXIT_FAILURE;
		if (r > 0)   /* a probe still runs on its slot: nothing is freed */
			_exit(code);
		return code;
	}
	if (d->opts.option_help) {
		if (rngd_compat_print_keys(stdout, d->opts.option_help, d->slots, d->n_slots, err) < 0) {
			print_error_line(err);
			return RNGD_EXIT_USAGE;
		}
		return rngd_stdout_written() ? RNGD_EXIT_OK : RNGD_EXIT_FAILURE;
	}
	r = rngd_check_file_sources(&d->opts);
	if (r == 0)
		r = rngd_check_shared_files(&d->opts, d->slots, d->n_slots);
	if (r == 0)
		r = rngd_check_background_paths(&d->opts);
	if (r != 0)
		return r;
	if (d->opts.user) {
		phase(d, "looking up the -D user");
		r = rngd_check_user(d->opts.user);
		if (r != 0)
			return r;
	}
	rngd_daemon_lock(d);
	rngd_log_init(&d->log, d->opts.foreground || d->opts.test_mode, log_level(&d->opts));
	d->log_ready = true;
	rngd_daemon_unlock(d);
	log_compat_notes(d);
	if (!d->opts.foreground && !d->opts.test_mode) {
		/* Threads do not survive fork(): the child starts its own watch. */
		rngd_startup_watch_stop(&d->watch);
		r = rngd_background_start(&d->report_fd);
		if (r < 0) {
			rngd_log(&d->log, LOG_ERR, "rngd", "cannot become a daemon: %s", strerror(-r));
			return RNGD_EXIT_FAILURE;
		}
		(void)rngd_startup_watch_start(&d->watch);
	}
	phase(d, "locking the pid file");
	r = rngd_daemon_lock_pidfile(d);
	if (r != 0)
		return r;
	phase(d, "opening the sink");
	if (rngd_daemon_open_sink(d) < 0)
		return RNGD_EXIT_FAILURE;
	phase(d, "opening the EGD socket");
	if (d->opts.egd_socket && rngd_daemon_open_egd(d) < 0)
		return RNGD_EXIT_FAILURE;
	loop_config_from(&lc, &d->opts);
	r = rngd_loop_new(&d->loop, &d->log, d->egd_open ? &d->egd_sink : &d->sink, d->slots,
			  d->n_slots, &lc);
	if (r < 0) {
		rngd_log(&d->log, LOG_ERR, "rngd", "cannot set up the event loop: %s", strerror(-r));
		return RNGD_EXIT_FAILURE;
	}
	if (d->egd_open)
		rngd_daemon_egd_attach(d);
	tell_loop_the_sink_file(d);
	rngd_daemon_select_hwrng(d);
	phase(d, "opening the sources");
	if (rngd_loop_open_sources(d->loop) == 0) {
		rngd_log(&d->log, LOG_ERR, "rngd", "no usable entropy source (rngd -l says why)");
		return RNGD_EXIT_FAILURE;
	}
	rngd_daemon_take_hwrng_quality(d);
	if (rngd_daemon_watch_hwrng(d) < 0)
		return RNGD_EXIT_FAILURE;
	if (d->opts.user) {
		phase(d, "dropping privileges");
		r = privs_drop(d->opts.user);
		if (r < 0) {
			rngd_log(&d->log, LOG_ERR, "rngd", "cannot drop privileges to %s: %s", d->opts.user,
				 r == -ESRCH ? "the user or group is gone since start-up" : strerror(-r));
			return RNGD_EXIT_FAILURE;
		}
		rngd_log(&d->log, LOG_INFO, "rngd", "running as %s with CAP_SYS_ADMIN only", d->opts.user);
	}
	/* From here the loop's signalfd answers: a signal that came in the
	 * meantime is still pending for it. The loop's first wait is for the
	 * first credited block. */
	rngd_startup_watch_park(&d->watch);
	if (d->egd_open && egd_server_start(&d->egd) < 0)
		return RNGD_EXIT_FAILURE;
	/* Started: a background rngd's parent exits 0 now. */
	rngd_background_report(&d->report_fd, RNGD_EXIT_OK);
	while ((r = rngd_loop_run(d->loop)) < 0) {
		if (-r & RNGD_LOOP_WANTS_STATS)
			rngd_daemon_log_egd_stats(d, "stats");
		if (-r & RNGD_LOOP_WANTS_RELOAD)
			(void)reload(d);
	}
	rngd_daemon_log_egd_stats(d, "summary");
	notify_stopping();
	return r;
}

/*
 * One malloc arena for every thread, and a fixed mmap threshold. Else a
 * reader that re-opens its source after SIGHUP gets an arena of its own,
 * and a large buffer freed once (sysstat's value table) raises glibc's
 * dynamic threshold, so the next comes from the heap and is touched: 170
 * kB more resident for nothing. rngd's allocations are few and small.
 */
static void malloc_for_a_small_daemon(void)
{
#if defined(M_ARENA_MAX) && defined(M_MMAP_THRESHOLD)
	(void)mallopt(M_ARENA_MAX, 1);
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

/*
 * Started with standard input, output or error closed (`<&- >&-`): the
 * first files rngd opens would take their numbers, a log line would go
 * into one, and the background fork's /dev/null would land on another.
 * The number is taken by /dev/null opened the other way round, so that
 * it stays closed for its use: `rngd -h >&-` fails with EBADF like any
 * other write to a closed output, instead of printing into /dev/null.
 */
static void open_closed_std_fds(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* The lower numbers are open: open() takes this one. */
		got = open("/dev/null", (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_NOCTTY);
		if (got >= 0 && got != fd)
			(void)close(got);
	}
}

int main(int argc, char *argv[])
{
	static struct rngd d = { .pidfile_fd = -1, .report_fd = -1 };
	char err[RNGD_ERR_MAX];
	sigset_t handled;
	bool threads_left;
	int code;

	open_closed_std_fds();
	rngd_loop_signal_set(&handled);
	(void)sigprocmask(SIG_BLOCK, &handled, NULL);
	/* Some daemons take it for "reopen logs": it must not kill rngd and
	 * leave rng_quality at 0 (nothing of rngd's needs it). */
	(void)signal(SIGUSR2, SIG_IGN);
	malloc_for_a_small_daemon();
	/* tss2 writes its own unprefixed ERROR/WARNING lines to stderr on
	 * every failed connect, past rngd's rate limit: the tpm2 source says
	 * why in one line. An admin's TSS2_LOG keeps them. Set before the
	 * first thread, so no getenv() can run beside it. */
	(void)setenv("TSS2_LOG", "all+none", 0);
	/* Before any source is read: tested bytes never reach a core file. */
	code = secret_mem_no_core_dumps();
	if (code < 0)
		rngd_log_early(LOG_WARNING, "warning: cannot make the process non-dumpable: %s", strerror(-code));
	d.argc = argc;
	d.argv = argv;
	rngd_startup_watch_init(&d.watch, stop_during_startup, &d);
	/* Named first: a signal already pending is read as the watch starts. */
	phase(&d, "reading the configuration");
	/* Without it a SIGTERM still waits for the loop, as before. */
	(void)rngd_startup_watch_start(&d.watch);
	code = rngd_compat_load(&d.opts, argc, argv, err);
	if (code != 0) {
		if (code < 0)
			print_error_line(err);
		else
			rngd_compat_print(stdout, code, argc > 0 ? argv[0] : "rngd");
		rngd_startup_watch_destroy(&d.watch);
		rngd_options_free(&d.opts);
		return code < 0 ? RNGD_EXIT_USAGE : rngd_stdout_written() ? RNGD_EXIT_OK : RNGD_EXIT_FAILURE;
	}
	phase(&d, "starting");
	if (d.opts.help || d.opts.version) {
		if (d.opts.help)
			rngd_options_usage(stdout);
		else
			printf("rngd %s\n", PACKAGE_VERSION);
		rngd_options_free(&d.opts);
		return rngd_stdout_written() ? RNGD_EXIT_OK : RNGD_EXIT_FAILURE;
	}

	if (d.opts.restore_hwrng_quality) {
		code = rngd_restore_hwrng_quality(&d.opts);
		rngd_startup_watch_destroy(&d.watch);
		rngd_options_free(&d.opts);
		return code;
	}
	if (rngd_daemon_sink_is_none(&d.opts) && !d.opts.egd_socket && !d.opts.list && !d.opts.option_help &&
	    !d.opts.test_mode) {
		rngd_log_early(LOG_ERR, "-o none needs --egd-socket: there would be nobody to feed");
		rngd_options_free(&d.opts);
		return RNGD_EXIT_USAGE;
	}
	code = run(&d);
	rngd_startup_watch_destroy(&d.watch);

	if (d.hwq_taken) {
		hwrng_quality_restore(&d.hwq);
		if (d.hwq.note[0])
			rngd_log(&d.log, LOG_NOTICE, "hwrng", "%s", d.hwq.note);
	}
	hwrng_watch_free(d.hwrng_watch);
	if (d.egd_open) {
		egd_server_stop(&d.egd);
		egd_server_close(&d.egd);
		d.egd_sink.ops->close(&d.egd_sink);
		egd_reserve_destroy(&d.egd_reserve);
	}
	threads_left = rngd_loop_destroy(d.loop);
	if (d.sink_open)
		d.sink.ops->close(&d.sink);
	if (d.slots)
		rngd_slots_free(d.slots, d.n_slots);
	pidfile_release(&d.pidfile_fd);
	if (d.log.max_level)
		rngd_log_close(&d.log);
	rngd_options_free(&d.opts);
	/* A start that failed in the background: its parent exits with the
	 * same code as rngd -f would, once everything is put back. */
	rngd_background_report(&d.report_fd, code);
	/* A reader left inside a source's library call (a hung tcsd): exit()
	 * would run that library's destructors under it. */
	if (threads_left) {
		(void)fflush(NULL);
		_exit(code);
	}
	return code;
}
