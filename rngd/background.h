/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Going to the background so that the command that started rngd still
 * learns how the start went: daemon(3) returned 0 to it at once, before
 * the pid file, the sink or a single source was opened, so init scripts
 * (start-stop-daemon, the peers' own) reported success for a start that
 * failed a moment later in the child.
 */
#ifndef RNGD_BACKGROUND_H
#define RNGD_BACKGROUND_H

/*
 * Forks. The parent waits for the child's start-up result and exits with
 * it (never returns); the child, in a new session, working from /, with
 * its standard streams on /dev/null (as daemon(0, 0) leaves them),
 * returns 0 with *@report_fd open for rngd_background_report(). -errno
 * if there is no child (the caller is still the foreground process).
 */
int rngd_background_start(int *report_fd);

/*
 * Tells the waiting parent to exit with @code (an RNGD_EXIT_* value) and
 * closes *@report_fd, which then is -1: only the first report counts, so
 * the success report before the loop and a failure report on the way out
 * can both be called. Nothing for -1.
 */
void rngd_background_report(int *report_fd, int code);

#endif /* RNGD_BACKGROUND_H */
