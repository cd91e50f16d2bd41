/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rngd/log.h"

static const char *const level_names[] = {
	[LOG_EMERG] = "emergency", [LOG_ALERT] = "alert", [LOG_CRIT] = "critical",
	[LOG_ERR] = "error", [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice",
	[LOG_INFO] = "info", [LOG_DEBUG] = "debug",
};

uint64_t rngd_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * True when standard error is the journal's stream (systemd sets
 * JOURNAL_STREAM to its "DEVICE:INODE"): each line then starts with its
 * syslog priority, "<3>", which journald reads as the line's priority;
 * without it every line is "info" and `journalctl -p err` finds nothing.
 */
static bool stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	char end;

	if (!js || sscanf(js, "%llu:%llu%c", &dev, &ino, &end) != 2 || fstat(STDERR_FILENO, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void rngd_log_init(struct rngd_log *l, bool to_stderr, int max_level)
{
	l->to_stderr = to_stderr;
	l->journal = to_stderr && stderr_is_journal();
	l->max_level = max_level;
	(void)pthread_mutex_init(&l->lock, NULL);
	if (!to_stderr)
		openlog("rngd", LOG_PID, LOG_DAEMON);
}

void rngd_log_early(int level, const char *fmt, ...)
{
	va_list ap;

	if (stderr_is_journal())
		fprintf(stderr, "<%d>", level & 7);
	fputs("rngd: ", stderr);
	va_start(ap, fmt);
	(void)vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool rngd_stdout_written(void)
{
	int err = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;

	if (!err)
		return true;
	rngd_log_early(LOG_ERR, "cannot write to standard output: %s", strerror(err));
	return false;
}

void rngd_log_set_level(struct rngd_log *l, int max_level)
{
	__atomic_store_n(&l->max_level, max_level, __ATOMIC_RELAXED);
}

static bool level_dropped(const struct rngd_log *l, int level)
{
	return level > __atomic_load_n(&l->max_level, __ATOMIC_RELAXED);
}

void rngd_log_close(struct rngd_log *l)
{
	if (!l->to_stderr)
		closelog();
	(void)pthread_mutex_destroy(&l->lock);
}

static void log_va(struct rngd_log *l, int level, const char *who, const char *suffix,
		   const char *fmt, va_list ap)
{
	char msg[1024];

	if (level_dropped(l, level))
		return;
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	(void)pthread_mutex_lock(&l->lock);
	if (l->journal) {
		/* The journal names the program itself ("rngd[PID]:"). */
		fprintf(stderr, "<%d>%s: %s: %s%s\n", level & 7, level_names[level & 7], who, msg, suffix);
		(void)fflush(stderr);
	} else if (l->to_stderr) {
		fprintf(stderr, "rngd: %s: %s: %s%s\n", level_names[level & 7], who, msg, suffix);
		(void)fflush(stderr);
	} else {
		syslog(level, "%s: %s%s", who, msg, suffix);
	}
	(void)pthread_mutex_unlock(&l->lock);
}

void rngd_log(struct rngd_log *l, int level, const char *who, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_va(l, level, who, "", fmt, ap);
	va_end(ap);
}

bool rngd_ratelimit_allow(struct rngd_ratelimit *rl, uint64_t now_ms, unsigned long *suppressed_before)
{
	*suppressed_before = 0;
	if (rl->in_window == 0 || now_ms - rl->window_start_ms >= RNGD_RATELIMIT_WINDOW_MS) {
		*suppressed_before = rl->suppressed;
		rl->suppressed = 0;
		rl->window_start_ms = now_ms;
		rl->in_window = 0;
	}
	if (rl->in_window >= (rl->burst ? rl->burst : RNGD_RATELIMIT_BURST)) {
		rl->suppressed++;
		return false;
	}
	rl->in_window++;
	return true;
}

bool rngd_log_limited(struct rngd_log *l, struct rngd_ratelimit *rl, uint64_t now_ms,
		      int level, const char *who, const char *fmt, ...)
{
	unsigned long suppressed;
	char suffix[80] = "";
	va_list ap;

	if (level_dropped(l, level))
		return false;
	(void)pthread_mutex_lock(&l->lock);
	bool allow = rngd_ratelimit_allow(rl, now_ms, &suppressed);
	(void)pthread_mutex_unlock(&l->lock);
	if (!allow)
		return false;
	if (suppressed)
		snprintf(suffix, sizeof(suffix), " (%lu similar message%s suppressed)", suppressed,
			 suppressed == 1 ? "" : "s");
	va_start(ap, fmt);
	log_va(l, level, who, suffix, fmt, ap);
	va_end(ap);
	return true;
}
