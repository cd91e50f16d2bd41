/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rngd/credit.h"
#include "rngd/deadline.h"
#include "rngd/reader.h"
#include "rngd/source_list.h"
#include "rngd/thread_stack.h"

/* What the list's probes share: the count still running, and the
 * condition the last one of them signals. */
struct probe_board {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t running;
};

struct probe_job {
	struct probe_board *board;
	struct rng_source *src;
	int r;
	bool done;   /* under board->lock: r and src->why are final */
};

static int probe_of(struct rng_source *src)
{
	return src->ops->probe ? src->ops->probe(src) : 0;
}

static void *probe_main(void *arg)
{
	struct probe_job *job = arg;
	struct probe_board *board = job->board;
	int r = probe_of(job->src);

	(void)pthread_mutex_lock(&board->lock);
	job->r = r;
	job->done = true;
	if (--board->running == 0)
		(void)pthread_cond_signal(&board->cond);
	(void)pthread_mutex_unlock(&board->lock);
	return NULL;
}

static int board_init(struct probe_board *board)
{
	board->running = 0;
	(void)pthread_mutex_init(&board->lock, NULL);
	/* Timed against CLOCK_MONOTONIC, as the deadline probes_wait() takes. */
	return rngd_cond_init_monotonic(&board->cond);
}

/* Start a probe for each job. One that gets no thread is not probed
 * here: unbounded, a hung probe would hold the list again. */
static void probes_start(struct probe_board *board, struct probe_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pthread_t t;
		int r;

		(void)pthread_mutex_lock(&board->lock);
		board->running++;
		(void)pthread_mutex_unlock(&board->lock);
		r = rngd_thread_start(&t, probe_main, &jobs[i]);
		if (r == 0) {
			(void)pthread_detach(t);
			continue;
		}
		(void)pthread_mutex_lock(&board->lock);
		board->running--;
		jobs[i].r = rng_source_why(jobs[i].src, -r, "not probed: no thread for it (%s)", strerror(r));
		jobs[i].done = true;
		(void)pthread_mutex_unlock(&board->lock);
	}
}

/* Wait for the probes up to @wait_ms (0: until all are done); true if
 * all are. */
static bool probes_wait(struct probe_board *board, unsigned int wait_ms)
{
	struct timespec deadline;
	bool all_done;

	rngd_deadline_after_ms(CLOCK_MONOTONIC, &deadline, wait_ms);
	(void)pthread_mutex_lock(&board->lock);
	while (board->running > 0) {
		if (wait_ms == 0)
			(void)pthread_cond_wait(&board->cond, &board->lock);
		else if (pthread_cond_timedwait(&board->cond, &board->lock, &deadline) == ETIMEDOUT)
			break;
	}
	all_done = board->running == 0;
	(void)pthread_mutex_unlock(&board->lock);
	return all_done;
}

static const char *usable_word(int r)
{
	return r == 0 ? "yes" : r == -EACCES || r == -EPERM ? "as-root" : "no";
}

static void print_row(FILE *out, struct rngd_slot *slot, const struct probe_job *job, unsigned int wait_ms,
		      bool to_kernel)
{
	const struct rng_source *src = rngd_slot_source(slot);
	const struct rngd_slot_settings *set = rngd_slot_settings(slot);
	const char *summary = src->ops->summary ? src->ops->summary : "";

	/* A probe still running may write why and the state its credit
	 * depends on (e.g. which instruction it found): neither is read. */
	if (job->done)
		fprintf(out, "%-10s %-8s %-8.3f %-7d %s%s%s%s\n", src->name, usable_word(job->r),
			credit_entropy_per_bit(src, set->credit_explicit, to_kernel && credit_is_circular(src)),
			src->priority, summary, src->why[0] ? " [" : "", src->why, src->why[0] ? "]" : "");
	else
		fprintf(out, "%-10s %-8s %-8s %-7d %s [the probe gave no answer in %.1f s]\n", src->name, "no", "-",
			src->priority, summary, wait_ms / 1000.0);
	if (!set->enabled)
		fprintf(out, "%-10s (disabled by -x)\n", "");
}

int rngd_source_list(FILE *out, struct rngd_slot *slots, size_t n, unsigned int wait_ms, bool to_kernel)
{
	struct probe_board *board = malloc(sizeof(*board));
	struct probe_job *jobs = calloc(n ? n : 1, sizeof(*jobs));
	bool all_done;

	if (!board || !jobs || board_init(board) < 0) {
		free(board);
		free(jobs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		jobs[i] = (struct probe_job){ .board = board, .src = rngd_slot_source_mut(rngd_slot_at(slots, i)) };
	probes_start(board, jobs, n);
	all_done = probes_wait(board, wait_ms);
	fprintf(out, "%-10s %-8s %-8s %-7s %s\n", "SOURCE", "USABLE", "ENTROPY", "PRIO", "DETAILS");
	(void)pthread_mutex_lock(&board->lock);
	for (size_t i = 0; i < n; i++)
		print_row(out, rngd_slot_at(slots, i), &jobs[i], wait_ms, to_kernel);
	(void)pthread_mutex_unlock(&board->lock);
	if (!all_done)
		return 1;   /* board and jobs stay: a probe still writes them */
	(void)pthread_cond_destroy(&board->cond);
	(void)pthread_mutex_destroy(&board->lock);
	free(board);
	free(jobs);
	return 0;
}
