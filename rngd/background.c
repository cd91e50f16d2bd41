/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rngd/background.h"
#include "rngd/log.h"
#include "rngd/options.h"
#include "sources/close_fd.h"

/* The child's status when it ended without a report: a crash, a signal,
 * or an _exit() of the start-up watch (SIGTERM while starting: 0). */
static int status_of_child(pid_t child)
{
	int status;

	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return RNGD_EXIT_FAILURE;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return RNGD_EXIT_FAILURE;
}

/*
 * The start's report, or -1 once the child has ended without one. A
 * SIGTERM or SIGINT for the waiting command (Ctrl-C, timeout(1)) is the
 * start's to answer: passed to the child, which stops in whatever phase
 * it is in (rngd.8, SIGNALS), and its end is then the command's.
 */
static int wait_for_report(int result_fd, pid_t child)
{
	sigset_t stop;
	int sfd;

	(void)sigemptyset(&stop);
	(void)sigaddset(&stop, SIGTERM);
	(void)sigaddset(&stop, SIGINT);
	/* Blocked since main() began: read through a signalfd. */
	sfd = signalfd(-1, &stop, SFD_CLOEXEC);
	for (;;) {
		struct pollfd pfd[2] = { { .fd = result_fd, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };
		struct signalfd_siginfo si;
		uint8_t code;

		if (poll(pfd, sfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents) {
			ssize_t n = read(result_fd, &code, 1);

			if (n < 0 && errno == EINTR)
				continue;
			rng_close_fd(&sfd);
			return n == 1 ? code : -1;
		}
		if (sfd >= 0 && (pfd[1].revents & POLLIN) && read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			(void)kill(child, (int)si.ssi_signo);
	}
	rng_close_fd(&sfd);
	return -1;
}

static _Noreturn void parent_waits(int result_fd, pid_t child)
{
	int report = wait_for_report(result_fd, child);
	uint8_t code = (uint8_t)(report >= 0 ? report : status_of_child(child));

	if (code != RNGD_EXIT_OK)
		rngd_log_early(LOG_ERR, "the daemon did not start (exit %u); the system log says why", code);
	_exit(code);
}

/* What daemon(0, 0) does in its child. */
static int detach(void)
{
	int null;

	if (setsid() < 0 || chdir("/") < 0)
		return -errno;
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return -errno;
	for (int fd = 0; fd <= 2; fd++)
		if (dup2(null, fd) < 0) {
			int r = -errno;

			(void)close(null);
			return r;
		}
	if (null > 2)
		(void)close(null);
	return 0;
}

int rngd_background_start(int *report_fd)
{
	int p[2];
	pid_t child;
	int r;

	*report_fd = -1;
	/* A socket, not a pipe: send() with MSG_NOSIGNAL to a parent killed
	 * meanwhile is EPIPE, not a SIGPIPE that would kill rngd before its
	 * clean-up (rng_quality restored) on the way out. */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
		return -errno;
	child = fork();
	if (child < 0) {
		r = -errno;
		(void)close(p[0]);
		(void)close(p[1]);
		return r;
	}
	if (child > 0) {
		(void)close(p[1]);
		parent_waits(p[0], child);
	}
	(void)close(p[0]);
	r = detach();
	if (r < 0) {
		/* The parent says "did not start"; the caller logs why. */
		(void)close(p[1]);
		return r;
	}
	*report_fd = p[1];
	return 0;
}

void rngd_background_report(int *report_fd, int code)
{
	uint8_t byte = (uint8_t)code;

	if (*report_fd < 0)
		return;
	/* The parent may be gone (killed): nothing to tell then. */
	(void)!send(*report_fd, &byte, 1, MSG_NOSIGNAL);
	rng_close_fd(report_fd);
}
