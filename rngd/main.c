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
 * The only process-wide state of the daemon lives in this file.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <unistd.h>

#include "rngd/compat.h"
#include "rngd/egd_reserve.h"
#include "rngd/egd_server.h"
#include "rngd/egd_share.h"
#include "rngd/file_kind.h"
#include "rngd/hwrng_quality.h"
#include "rngd/hwrng_watch.h"
#include "rngd/log.h"
#include "rngd/loop.h"
#include "rngd/notify.h"
#include "rngd/options.h"
#include "rngd/privs.h"
#include "rngd/reader.h"
#include "rngd/secret_mem.h"
#include "rngd/sink.h"
#include "rngd/sink_null.h"
#include "rngd/source_set.h"
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
	struct rngd_loop loop;
	struct hwrng_quality hwq;
	bool hwq_taken;
	struct hwrng_watch hwrng_watch;
	bool hwrng_watched;
	int pidfile_fd;
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
	fprintf(stderr, "rngd: %s\n", err);
}

static void watch_lock(struct rngd *d)
{
	rngd_startup_watch_lock(&d->watch);
}

static void watch_unlock(struct rngd *d)
{
	rngd_startup_watch_unlock(&d->watch);
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
		 d->sink_open ? d->sink.ops->name : "none");
	if (d->hwq_taken) {
		hwrng_quality_restore(&d->hwq);
		if (d->hwq.note[0])
			rngd_log(&d->log, LOG_NOTICE, "hwrng", "%s", d->hwq.note);
	}
	if (d->egd_open && d->opts.egd_socket)
		(void)unlink(d->opts.egd_socket);
	notify_stopping();
	(void)fflush(stdout);
	_exit(RNGD_EXIT_OK);
}

static bool sink_is_none(const struct rngd_options *o)
{
	return o->random_device && strcmp(o->random_device, "none") == 0;
}

static void egd_limits_from(struct egd_limits *lim, const struct rngd_options *o)
{
	egd_limits_default(lim);
	lim->rate = o->egd_rate;
	lim->burst = o->egd_burst;
	lim->max_clients = o->egd_clients;
	lim->prime = o->egd_prime;
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
	c->stats_file = o->stats_file;
	c->test_mode = o->test_mode;
}

/* SIGHUP: the same sources, new settings. */
static int reload(struct rngd_loop *l, void *ctx)
{
	struct rngd *d = ctx;
	struct rngd_options fresh;
	struct rngd_loop_config lc;
	char err[RNGD_ERR_MAX];
	int r;

	r = rngd_compat_load(&fresh, d->argc, d->argv, err);
	if (r > 0)
		r = rngd_fail(err, "the command line prints and exits; nothing to reload");
	if (r == 0)
		r = rngd_source_set_reapply(&fresh, d->slots, d->n_slots, err);
	if (r < 0) {
		one_line(err);
		rngd_log(&d->log, LOG_ERR, "rngd", "%s", err);
		rngd_options_free(&fresh);
		return r;
	}
	rngd_options_free(&d->opts);
	d->opts = fresh;
	loop_config_from(&lc, &d->opts);
	rngd_loop_set_config(l, &lc);
	if (d->egd_open) {
		struct egd_limits lim;

		egd_limits_from(&lim, &d->opts);
		egd_server_set_limits(&d->egd, &lim);
	}
	rngd_log_set_level(&d->log, log_level(&d->opts));
	rngd_log(&d->log, LOG_INFO, "rngd", "configuration reloaded");
	return 0;
}

static int open_sink(struct rngd *d)
{
	const char *path = d->opts.random_device ? d->opts.random_device : RNGD_DEFAULT_RANDOM_DEVICE;
	struct stat st;
	int r;

	if (d->opts.test_mode) {
		rng_sink_null_open(&d->sink);
		d->sink_open = true;
		return 0;
	}
	if (sink_is_none(&d->opts)) {
		rngd_log(&d->log, LOG_INFO, "rngd", "no sink (-o none): tested bytes go to EGD clients only");
		return 0;
	}
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISCHR(st.st_mode)) {
		struct rng_sink_kernel_config kc;

		/* Its ioctls would fail at the first write, maybe a minute on.
		 * /dev/null stays allowed: tests use it as a kernel sink that
		 * must never be written to. */
		if (!file_kind_is_random_device(&st) && !file_kind_is_dev_null(&st)) {
			rngd_log(&d->log, LOG_ERR, "rngd",
				 "sink %s: a character device but not the kernel's random device (1:8 or 1:9)", path);
			return -ENOTTY;
		}

		rng_sink_kernel_config_default(&kc);
		kc.device = path;
		kc.topup_interval_s = d->opts.topup_interval_s;
		kc.topup_bytes = d->opts.topup_bytes;
		kc.watermark_bits = d->opts.watermark_bits;
		r = rng_sink_kernel_open(&d->sink, &kc);
		d->sink_is_kernel = true;
	} else {
		r = rng_sink_file_open(&d->sink, path);
		if (r == 0 && strcmp(path, "-") != 0) {
			const char *kernel_fs = file_kind_kernel_fs_at(path);

			if (kernel_fs) {
				d->sink.ops->close(&d->sink);
				rngd_log(&d->log, LOG_ERR, "rngd",
					 "sink %s: a kernel file (%s), not a file to write random bytes to", path,
					 kernel_fs);
				return -EINVAL;
			}
		}
	}
	if (r < 0) {
		rngd_log(&d->log, LOG_ERR, "rngd", "cannot open the %s sink %s: %s",
			 d->sink_is_kernel ? "kernel" : "file", path, strerror(-r));
		return r;
	}
	watch_lock(d);
	d->sink_open = true;
	watch_unlock(d);
	if (d->sink_is_kernel) {
		char how[160];

		rngd_log(&d->log, LOG_INFO, "rngd", "feeding the kernel sink %s: %s", path,
			 rng_sink_kernel_describe(&d->sink, how, sizeof(how)));
	} else {
		rngd_log(&d->log, LOG_INFO, "rngd", "feeding the file sink %s", path);
	}
	return 0;
}

/* The misc device whose fd follows rng_current (linux's HWRNG_MINOR). */
#define HWRNG_MISC_MAJOR 10
#define HWRNG_MISC_MINOR 183

static struct rngd_slot *hwrng_slot(struct rngd *d)
{
	for (size_t i = 0; i < d->n_slots; i++)
		if (d->slots[i].src.ops == &rng_source_hwrng_ops && d->slots[i].enabled)
			return &d->slots[i];
	return NULL;
}

/* Only when rngd gates /dev/hwrng for the kernel: a file sink (tests,
 * pipes) must not take the kernel's hwrng credit away. */
static void take_hwrng_quality(struct rngd *d)
{
	struct rngd_slot *hw = hwrng_slot(d);
	const char *state_dir = d->opts.state_dir ? d->opts.state_dir : RNGD_DEFAULT_STATE_DIR;
	int r;

	if (!hw || !hw->is_open || !d->sink_is_kernel)
		return;
	if (!d->opts.take_credit) {
		rngd_log(&d->log, LOG_INFO, hw->src.name, "--no-take-credit: the kernel's rng_quality left alone");
		return;
	}
	/* Held until hwq_taken says what the stop callback must restore. */
	watch_lock(d);
	r = hwrng_quality_take(&d->hwq, d->opts.hwrng_sysfs, state_dir);
	if (r == -EBUSY) {
		watch_unlock(d);
		rngd_log(&d->log, LOG_WARNING, hw->src.name,
			 "another rngd holds the rng_quality record in %s and gates rng_quality: "
			 "this one leaves rng_quality alone", state_dir);
		return;
	}
	if (r < 0) {
		rngd_log(&d->log, LOG_WARNING, hw->src.name,
			 "cannot set rng_quality to 0 (%s): the kernel may credit the same bytes untested",
			 strerror(-r));
		watch_unlock(d);
		return;
	}
	d->hwq_taken = true;
	watch_unlock(d);
	rngd_log(&d->log, LOG_NOTICE, hw->src.name, "%s",
		 d->hwq.note[0] ? d->hwq.note : "rng_quality set to 0 while rngd gates /dev/hwrng");
}

/* Device events for the hwrng source: taken rng_quality follows the
 * current device, and a reader that found no device waits for one. */
static void watch_hwrng(struct rngd *d)
{
	struct rngd_slot *hw = hwrng_slot(d);
	struct stat st;

	if (!hw)
		return;
	hwrng_watch_open(&d->hwrng_watch, &d->log, hw, d->hwq_taken ? &d->hwq : NULL, rngd_now_ms());
	d->hwrng_watched = true;
	rngd_loop_set_hwrng_watch(&d->loop, &d->hwrng_watch);
	/* Only /dev/hwrng's fd outlives its device: another device's ENODEV
	 * is for good, and its reader re-opens with back-off. */
	rngd_slot_set_device_events(hw, hw->is_open && fstat(hw->src.fd, &st) == 0 && S_ISCHR(st.st_mode) &&
				    major(st.st_rdev) == HWRNG_MISC_MAJOR && minor(st.st_rdev) == HWRNG_MISC_MINOR);
}

/* How peer options were taken, and every source whose credit the user's
 * own words changed (-e, -H, -O ...:entropy_per_bit): one line each. */
static void log_compat_notes(struct rngd *d)
{
	for (size_t i = 0; i < d->opts.n_notes; i++)
		rngd_log(&d->log, d->opts.notes[i].level, "rngd", "%s", d->opts.notes[i].text);
	for (size_t i = 0; i < d->n_slots; i++) {
		const struct rng_source *s = &d->slots[i].src;

		if (d->slots[i].enabled && s->entropy_per_bit != s->ops->default_entropy_per_bit)
			rngd_log(&d->log, LOG_NOTICE, s->name, "earns %.3f bits per bit, as written (default %.3f)",
				 s->entropy_per_bit, s->ops->default_entropy_per_bit);
	}
}

/* HRNGSELECT (--defaults-file): written to rng_current before any source
 * opens and before rng_quality is taken, as Debian's init script does. */
static void select_hwrng(struct rngd *d)
{
	const char *dir = d->opts.hwrng_sysfs ? d->opts.hwrng_sysfs : RNG_HWRNG_SYSFS_DIR;
	char path[4096];
	FILE *f;

	if (!d->opts.hwrng_select)
		return;
	snprintf(path, sizeof(path), "%s/rng_current", dir);
	f = fopen(path, "we");
	if (f) {
		int bad = fputs(d->opts.hwrng_select, f) < 0;

		if (fclose(f) != 0 || bad)
			f = NULL;
	}
	if (!f) {
		/* The init script goes on too: the device then stays the kernel's choice. */
		rngd_log(&d->log, LOG_WARNING, "hwrng", "HRNGSELECT: cannot write %s to %s: %s", d->opts.hwrng_select,
			 path, strerror(errno));
		return;
	}
	rngd_log(&d->log, LOG_NOTICE, "hwrng", "HRNGSELECT: %s written to %s", d->opts.hwrng_select, path);
}

static uint64_t egd_served(void *ctx)
{
	struct rngd *d = ctx;

	return egd_server_bytes_served(&d->egd);
}

static void log_egd_stats(void *ctx, const char *why)
{
	struct rngd *d = ctx;

	egd_server_log_stats(&d->egd, why);
	rngd_log(&d->log, LOG_NOTICE, "egd",
		 "%s: sharing with sink %s: bytes to the reserve %" PRIu64 " (condensed from %" PRIu64
		 " credited bits), dropped (0 credit) %" PRIu64, why,
		 d->egd_share.inner ? d->egd_share.inner->ops->name : "none", d->egd_share.bytes_to_reserve,
		 d->egd_share.condenser.bits_in, d->egd_share.bytes_dropped);
}

/* As root, before privileges drop: the socket is bound, chmod'ed and
 * chown'ed here; the server thread starts after the drop. */
static int open_egd(struct rngd *d)
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
	egd_limits_from(&cfg.limits, &d->opts);
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
	watch_lock(d);
	d->egd_open = true;
	watch_unlock(d);
	return 0;
}

static int lock_pidfile(struct rngd *d)
{
	const char *path = d->opts.pidfile;
	pid_t holder = 0;
	char why[160];
	int fd;

	if (!path && !d->opts.foreground && !d->opts.test_mode)
		path = RNGD_DEFAULT_PIDFILE;
	if (!path)
		return 0;
	fd = pidfile_lock_why(path, &holder, why, sizeof(why));
	if (fd == -EEXIST) {
		if (holder)
			rngd_log(&d->log, LOG_ERR, "rngd", "another rngd (pid %ld) holds %s; exiting",
				 (long)holder, path);
		else
			rngd_log(&d->log, LOG_ERR, "rngd", "another rngd holds %s; exiting", path);
		return RNGD_EXIT_RUNNING;
	}
	if (fd < 0) {
		rngd_log(&d->log, LOG_ERR, "rngd", "pid file %s: %s", path, why);
		return RNGD_EXIT_FAILURE;
	}
	d->pidfile_fd = fd;
	return 0;
}

/*
 * Each -r path that exists is something a file source can read: a
 * regular file, a FIFO or a character device, and no kernel file (reading
 * /proc/kmsg consumes the kernel's log). A missing one is waited for.
 * Exit code, 0 if fine.
 */
static int check_file_sources(const struct rngd_options *o)
{
	for (size_t i = 0; i < o->n_source_args; i++) {
		const char *path = o->source_args[i].text;
		const char *kernel_fs;
		struct stat st;

		if (o->source_args[i].kind != RNGD_SRC_FILE || stat(path, &st) < 0)
			continue;
		if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) {
			fprintf(stderr, "rngd: -r %s: is %s, not a regular file, FIFO or character device\n", path,
				file_kind_name(st.st_mode));
			return RNGD_EXIT_USAGE;
		}
		kernel_fs = S_ISREG(st.st_mode) ? file_kind_kernel_fs_at(path) : NULL;
		if (kernel_fs) {
			fprintf(stderr, "rngd: -r %s: is a kernel file (%s), not an entropy source\n", path, kernel_fs);
			return RNGD_EXIT_USAGE;
		}
	}
	return 0;
}

/* -D names a user (and group) that exist: a bad -D is a usage error,
 * found before anything is opened. Exit code, 0 if fine. */
static int check_user(const char *user_group)
{
	const char *unknown;
	const char *colon = strchr(user_group, ':');
	uid_t uid;
	gid_t gid;
	int r;

	r = privs_resolve(user_group, &uid, &gid, &unknown);
	if (r == 0)
		return 0;
	if (r == -ESRCH && unknown && strcmp(unknown, "group") == 0) {
		fprintf(stderr, "rngd: -D %s: no group '%s'\n", user_group, colon + 1);
		return RNGD_EXIT_USAGE;
	}
	if (r == -ESRCH) {
		fprintf(stderr, "rngd: -D %s: no user '%.*s'\n", user_group,
			(int)(colon ? (size_t)(colon - user_group) : strlen(user_group)), user_group);
		return RNGD_EXIT_USAGE;
	}
	if (r == -EINVAL) {
		fprintf(stderr, "rngd: -D %s: needs USER or USER:GROUP\n", user_group);
		return RNGD_EXIT_USAGE;
	}
	fprintf(stderr, "rngd: -D %s: cannot look the name up: %s\n", user_group, strerror(-r));
	return RNGD_EXIT_FAILURE;
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
		rngd_source_set_list(stdout, d->slots, d->n_slots);
		return RNGD_EXIT_OK;
	}
	if (d->opts.option_help) {
		if (rngd_compat_print_keys(stdout, d->opts.option_help, d->slots, d->n_slots, err) < 0) {
			print_error_line(err);
			return RNGD_EXIT_USAGE;
		}
		return RNGD_EXIT_OK;
	}
	r = check_file_sources(&d->opts);
	if (r != 0)
		return r;
	if (d->opts.user) {
		phase(d, "looking up the -D user");
		r = check_user(d->opts.user);
		if (r != 0)
			return r;
	}
	watch_lock(d);
	rngd_log_init(&d->log, d->opts.foreground || d->opts.test_mode, log_level(&d->opts));
	d->log_ready = true;
	watch_unlock(d);
	log_compat_notes(d);
	if (!d->opts.foreground && !d->opts.test_mode) {
		/* Threads do not survive fork(): the child starts its own watch. */
		rngd_startup_watch_stop(&d->watch);
		if (daemon(0, 0) < 0) {
			rngd_log(&d->log, LOG_ERR, "rngd", "cannot become a daemon: %s", strerror(errno));
			return RNGD_EXIT_FAILURE;
		}
		(void)rngd_startup_watch_start(&d->watch);
	}
	phase(d, "locking the pid file");
	r = lock_pidfile(d);
	if (r != 0)
		return r;
	phase(d, "opening the sink");
	if (open_sink(d) < 0)
		return RNGD_EXIT_FAILURE;
	phase(d, "opening the EGD socket");
	if (d->opts.egd_socket && open_egd(d) < 0)
		return RNGD_EXIT_FAILURE;
	loop_config_from(&lc, &d->opts);
	r = rngd_loop_init(&d->loop, &d->log, d->egd_open ? &d->egd_sink : &d->sink, d->slots,
			   d->n_slots, &lc);
	if (r < 0) {
		rngd_log(&d->log, LOG_ERR, "rngd", "cannot set up the event loop: %s", strerror(-r));
		return RNGD_EXIT_FAILURE;
	}
	rngd_loop_set_reload(&d->loop, reload, d);
	if (d->egd_open) {
		/* The reserve wakes the loop when it wants bytes again. */
		egd_reserve_set_want_wake(&d->egd_reserve, rngd_loop_wake_fd(&d->loop));
		/* What the host's pool took is counted by the sink inside. */
		rngd_loop_set_egd(&d->loop, log_egd_stats, egd_served, d, d->sink_open ? &d->sink : NULL);
	}
	select_hwrng(d);
	phase(d, "opening the sources");
	if (rngd_loop_open_sources(&d->loop) == 0) {
		rngd_log(&d->log, LOG_ERR, "rngd", "no usable entropy source (rngd -l says why)");
		return RNGD_EXIT_FAILURE;
	}
	take_hwrng_quality(d);
	watch_hwrng(d);
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
	r = rngd_loop_run(&d->loop);
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

int main(int argc, char *argv[])
{
	static struct rngd d = { .pidfile_fd = -1 };
	char err[RNGD_ERR_MAX];
	sigset_t handled;
	int code;

	rngd_loop_signal_set(&handled);
	(void)sigprocmask(SIG_BLOCK, &handled, NULL);
	malloc_for_a_small_daemon();
	/* Before any source is read: tested bytes never reach a core file. */
	code = secret_mem_no_core_dumps();
	if (code < 0)
		fprintf(stderr, "rngd: warning: cannot make the process non-dumpable: %s\n", strerror(-code));
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
			rngd_compat_print_hrngs(stdout);
		rngd_startup_watch_destroy(&d.watch);
		rngd_options_free(&d.opts);
		return code < 0 ? RNGD_EXIT_USAGE : RNGD_EXIT_OK;
	}
	phase(&d, "starting");
	if (d.opts.help) {
		rngd_options_usage(stdout);
		rngd_options_free(&d.opts);
		return RNGD_EXIT_OK;
	}
	if (d.opts.version) {
		printf("rngd %s\n", PACKAGE_VERSION);
		rngd_options_free(&d.opts);
		return RNGD_EXIT_OK;
	}

	if (sink_is_none(&d.opts) && !d.opts.egd_socket && !d.opts.list && !d.opts.test_mode) {
		fprintf(stderr, "rngd: -o none needs --egd-socket: there would be nobody to feed\n");
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
	if (d.hwrng_watched)
		hwrng_watch_close(&d.hwrng_watch);
	if (d.egd_open) {
		egd_server_stop(&d.egd);
		egd_server_close(&d.egd);
		d.egd_sink.ops->close(&d.egd_sink);
		egd_reserve_destroy(&d.egd_reserve);
	}
	if (d.loop.log)
		rngd_loop_destroy(&d.loop);
	if (d.sink_open)
		d.sink.ops->close(&d.sink);
	if (d.slots)
		rngd_source_set_free(d.slots, d.n_slots);
	if (d.pidfile_fd >= 0)
		(void)close(d.pidfile_fd);
	if (d.log.max_level)
		rngd_log_close(&d.log);
	rngd_options_free(&d.opts);
	return code;
}
