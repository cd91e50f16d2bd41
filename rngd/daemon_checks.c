/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Start-up checks that end rngd before anything opens: the pid file (exit
 * 3 if another rngd holds it), -r paths, files read twice or read and
 * written, and the -D user (exit 2). */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "rngd/daemon.h"
#include "rngd/defaults.h"
#include "rngd/file_kind.h"
#include "rngd/loop.h"
#include "rngd/privs.h"
#include "rngd/source_set.h"

int rngd_daemon_lock_pidfile(struct rngd *d)
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
int rngd_check_file_sources(const struct rngd_options *o)
{
	for (size_t i = 0; i < o->n_source_args; i++) {
		const char *path = o->source_args[i].text;
		const char *kernel_fs;
		struct stat st;

		if (o->source_args[i].kind != RNGD_SRC_FILE || stat(path, &st) < 0)
			continue;
		if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) {
			rngd_log_early(LOG_ERR, "-r %s: is %s, not a regular file, FIFO or character device", path,
				file_kind_name(st.st_mode));
			return RNGD_EXIT_USAGE;
		}
		kernel_fs = S_ISREG(st.st_mode) ? file_kind_kernel_fs_at(path) : NULL;
		if (kernel_fs) {
			rngd_log_early(LOG_ERR, "-r %s: is a kernel file (%s), not an entropy source", path, kernel_fs);
			return RNGD_EXIT_USAGE;
		}
	}
	return 0;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The path enabled slot @i's source reads, stat()ed into @st; NULL if none. */
static const char *slot_file(struct rngd_slot *slots, size_t i, struct stat *st)
{
	struct rngd_slot *slot = rngd_slot_at(slots, i);
	const struct rng_source *src = rngd_slot_source(slot);
	const char *path = rngd_slot_enabled(slot) && src->ops->path ? src->ops->path(src) : NULL;

	return path && stat(path, st) == 0 ? path : NULL;
}

bool rngd_sink_file_stat(const struct rngd_options *o, struct stat *st)
{
	const char *sink = rngd_daemon_sink_path(o);

	return !o->test_mode && strcmp(sink, "none") != 0 &&
	       (strcmp(sink, "-") == 0 ? fstat(STDOUT_FILENO, st) : stat(sink, st)) == 0 &&
	       (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode));
}

int rngd_check_shared_files(const struct rngd_options *o, struct rngd_slot *slots, size_t n)
{
	const char *sink = rngd_daemon_sink_path(o);
	struct stat sink_st;
	bool sink_is_file = rngd_sink_file_stat(o, &sink_st);

	for (size_t i = 0; i < n; i++) {
		struct stat a, b;
		const char *path = slot_file(slots, i, &a);
		const char *name = rngd_slot_source(rngd_slot_at(slots, i))->name;

		if (!path)
			continue;
		/* The sink appends what passed to the file the source reads
		 * on, a few hundred blocks behind: credited again, for ever. */
		if (sink_is_file && same_file(&a, &sink_st)) {
			rngd_log_early(LOG_ERR, "%s reads %s, the file the sink (-o %s) writes: rngd would read and "
				"credit its own output again", name, path, sink);
			return RNGD_EXIT_USAGE;
		}
		/* Each reader of a regular file reads all of it: a device or
		 * a FIFO gives each byte to one reader only. */
		if (!S_ISREG(a.st_mode))
			continue;
		for (size_t k = i + 1; k < n; k++) {
			const char *other = slot_file(slots, k, &b);

			if (other && same_file(&a, &b)) {
				rngd_log_early(LOG_ERR, "%s (%s) and %s (%s) read the same file: its bytes would be "
					"credited twice", name, path, rngd_slot_source(rngd_slot_at(slots, k))->name,
					other);
				return RNGD_EXIT_USAGE;
			}
		}
	}
	return 0;
}

/* @path, given as @option @given: see refuse_relative(). */
static int refuse_relative_in(const char *option, const char *given, const char *path)
{
	if (!path || path[0] == '/')
		return 0;
	rngd_log_early(LOG_ERR, "%s %s: a relative path, but rngd in the background works from / "
		"(give an absolute path, or run with -f)", option, given);
	return RNGD_EXIT_USAGE;
}

/* A path the daemon opens after daemon(3) has moved it to /, or opens
 * again at a SIGHUP: relative, it would name another file or none.
 * (--hwrng-sysfs, --state-dir and --egd-socket are absolute everywhere.) */
static int refuse_relative(const char *option, const char *path)
{
	return refuse_relative_in(option, path, path);
}

int rngd_check_background_paths(const struct rngd_options *o)
{
	const char *sink = o->random_device;
	int r = 0;

	if (o->foreground || o->test_mode)
		return 0;
	/* The daemon's standard output is /dev/null: every tested byte would
	 * go there, as fast as the sources give them. */
	if (sink && strcmp(sink, "-") == 0) {
		rngd_log_early(LOG_ERR, "-o -: standard output, which rngd in the background does not have (run with -f)");
		return RNGD_EXIT_USAGE;
	}
	if (sink && strcmp(sink, "none") == 0)
		sink = NULL;
	r = refuse_relative("-c", o->config_path);
	if (r == 0)
		r = refuse_relative("-o", sink);
	if (r == 0)
		r = refuse_relative("-p", o->pidfile);
	if (r == 0)
		r = refuse_relative("--stats-file", o->stats_file);
	for (size_t i = 0; i < o->n_source_args && r == 0; i++) {
		const struct rngd_source_arg *a = &o->source_args[i];
		const char *path = rngd_source_arg_value_of(a, "path");

		if (a->kind == RNGD_SRC_FILE)
			r = refuse_relative("-r", a->text);
		else if (path)
			r = refuse_relative_in("-O", a->text, path);
	}
	return r;
}

/* -D names a user (and group) that exist: a bad -D is a usage error,
 * found before anything is opened. Exit code, 0 if fine. */
int rngd_check_user(const char *user_group)
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
		rngd_log_early(LOG_ERR, "-D %s: no group '%s'", user_group, colon + 1);
		return RNGD_EXIT_USAGE;
	}
	if (r == -ESRCH) {
		rngd_log_early(LOG_ERR, "-D %s: no user '%.*s'", user_group,
			(int)(colon ? (size_t)(colon - user_group) : strlen(user_group)), user_group);
		return RNGD_EXIT_USAGE;
	}
	if (r == -EINVAL) {
		rngd_log_early(LOG_ERR, "-D %s: needs USER or USER:GROUP", user_group);
		return RNGD_EXIT_USAGE;
	}
	rngd_log_early(LOG_ERR, "-D %s: cannot look the name up: %s", user_group, strerror(-r));
	return RNGD_EXIT_FAILURE;
}
