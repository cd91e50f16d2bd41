/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loop with fake sources and a fake sink: nothing is read or tested
 * while the sink wants nothing (calls counted), a source failing with EIO
 * is closed and re-opened, a block's credit is split exactly over -s
 * writes, and --on-fail=mix hands failed blocks over with zero credit.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/eventfd.h"
#include "rngd/loop.h"
#include "rngd/reader.h"
#include "rngd/slot.h"
#include "tests/lib/slurp.h"
#include "tests/lib/splitmix64.h"

static void sleep_ms(unsigned int ms)
{
	const struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	(void)nanosleep(&ts, NULL);
}

/* ---- fake source ------------------------------------------------------ */

struct fake_source {
	uint64_t state;           /* test_splitmix64() */
	bool zeros;
	int zeros_reads;          /* >0: reads 1..N return zeros, later ones random */
	int eio_after_reads;      /* >0: the Nth read returns -EIO, once */
	int stuck_after_reads;    /* >0: the Nth read ignores cancels for 2 s
				   * (before it reads fd, with use_fd) */
	int stuck_ms;             /* that read's length if not 0 */
	int stuck_done;           /* set when that read has returned */
	bool open_fails;          /* every open() fails with ENOENT */
	int fail_first_opens;     /* >0: opens 1..N fail with ENOENT */
	int open_hold_ms;         /* the first open() takes this long (a slow token) */
	bool use_fd;              /* reads wait on fd (a pipe nobody writes) */
	int read_ms;              /* each read of fd takes this long (a hwrng) */
	int fd;
	int open_fd;              /* fd while open, else -1: what wait_fd() says */
	int opens, reads, closes;
};

static int fake_open(struct rng_source *src)
{
	struct fake_source *f = src->priv;

	if (__atomic_add_fetch(&f->opens, 1, __ATOMIC_SEQ_CST) == 1 && f->open_hold_ms)
		(void)usleep((useconds_t)f->open_hold_ms * 1000u);
	if (f->open_fails || __atomic_load_n(&f->opens, __ATOMIC_SEQ_CST) <= f->fail_first_opens)
		return rng_source_why(src, -ENOENT, "open: %s", strerror(ENOENT));
	__atomic_store_n(&f->open_fd, f->use_fd ? f->fd : -1, __ATOMIC_SEQ_CST);
	return 0;
}

static ssize_t fake_read(struct rng_source *src, void *buf, size_t len)
{
	struct fake_source *f = src->priv;
	uint8_t *p = buf;
	int n = __atomic_add_fetch(&f->reads, 1, __ATOMIC_SEQ_CST);

	if (f->eio_after_reads && n == f->eio_after_reads)
		return rng_source_why(src, -EIO, "read: %s", strerror(EIO));
	if (f->stuck_after_reads && n == f->stuck_after_reads) {
		/* Like a read asleep in the kernel: a cancel cannot end it. */
		int old;

		(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
		sleep_ms(f->stuck_ms ? (unsigned int)f->stuck_ms : 2000);
		__atomic_store_n(&f->stuck_done, 1, __ATOMIC_SEQ_CST);
		(void)pthread_setcancelstate(old, NULL);
		return rng_source_why(src, -EIO, "read: %s", strerror(EIO));
	}
	if (f->use_fd) {
		ssize_t got;

		if (f->read_ms)
			sleep_ms((unsigned int)f->read_ms);
		got = read(f->fd, buf, len);

		return got < 0 ? rng_source_why(src, -errno, "read: %s", strerror(errno)) : got;
	}
	for (size_t i = 0; i < len; i++) {
		if (f->zeros || n <= f->zeros_reads) {
			p[i] = 0;
			continue;
		}
		p[i] = (uint8_t)(test_splitmix64(&f->state) >> 56);
	}
	return (ssize_t)len;
}

static void fake_close(struct rng_source *src)
{
	struct fake_source *f = src->priv;

	__atomic_add_fetch(&f->closes, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&f->open_fd, -1, __ATOMIC_SEQ_CST);
}

static int fake_wait_fd(const struct rng_source *src)
{
	struct fake_source *f = src->priv;

	return __atomic_load_n(&f->open_fd, __ATOMIC_SEQ_CST);
}

static const struct rng_source_ops fake_ops = {
	.name = "fake",
	.summary = "test source",
	.default_entropy_per_bit = 0.5,
	.default_priority = 0,
	.open = fake_open,
	.read = fake_read,
	.close = fake_close,
	.wait_fd = fake_wait_fd,
};

/* ---- fake sink -------------------------------------------------------- */

struct fake_sink {
	size_t demand;             /* 0: wants nothing */
	unsigned int demand_calls;
	size_t bytes;
	size_t stop_after_bytes;   /* SIGTERM ourselves once this much arrived */
	unsigned int writes;
	unsigned int credit;
	unsigned int max_write;
	unsigned int zero_credit_bytes;
};

static size_t sink_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	struct fake_sink *f = s->priv;

	f->demand_calls++;
	if (!f->demand)
		*next_ms = now_ms + 10000;
	return f->demand;
}

static int sink_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit)
{
	struct fake_sink *f = s->priv;

	(void)buf;
	f->writes++;
	f->bytes += len;
	f->credit += credit;
	if (credit == 0)
		f->zero_credit_bytes += (unsigned int)len;
	if (len > f->max_write)
		f->max_write = (unsigned int)len;
	if (f->stop_after_bytes && f->bytes >= f->stop_after_bytes) {
		f->stop_after_bytes = 0;
		(void)kill(getpid(), SIGTERM);
	}
	return 0;
}

static void sink_close(struct rng_sink *s)
{
	(void)s;
}

static const struct rng_sink_ops fake_sink_ops = {
	.demand = sink_demand, .write = sink_write, .close = sink_close,
};

/* ---- harness ---------------------------------------------------------- */

/*
 * pthread_create() as the code under test sees it (the test links with
 * -Wl,--wrap=pthread_create): with thread_creates_left at 0 it fails
 * with EAGAIN, as glibc does out of threads; -1 means no limit.
 */
int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
static int thread_creates_left = -1;

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	if (thread_creates_left == 0)
		return EAGAIN;
	if (thread_creates_left > 0)
		thread_creates_left--;
	return __real_pthread_create(t, attr, fn, arg);
}

struct signal_later {
	int sig;
	long ms;
};

/* A thread that sends @sig to the process @ms after it starts. */
static void *send_signal_later(void *arg)
{
	const struct signal_later *sl = arg;

	sleep_ms((unsigned int)sl->ms);
	(void)kill(getpid(), sl->sig);
	return NULL;
}

/* @n slots, each enabled, the i-th on the fake source @src[i] (seeded by the caller). */
static struct rngd_slot *fake_slots_new(struct fake_source *src, size_t n)
{
	struct rngd_slot *slots = calloc(n, sizeof(*slots));

	assert_non_null(slots);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(rng_source_init(&slots[i].src, &fake_ops), 0);
		slots[i].src.priv = &src[i];
		slots[i].settings.enabled = true;
	}
	return slots;
}

/* A slot whose source is the fake one behind @src, enabled, seeded. */
static struct rngd_slot *fake_slot_new(struct fake_source *src)
{
	src->state = 0x9E3779B97F4A7C15ULL;
	return fake_slots_new(src, 1);
}

/* A pipe source's writer: after @start_ms, the seed, then a block of
 * random bytes every @pace_ms until stopped, each write one read's worth
 * (a write the full pipe refuses is tried again at the next pace). */
struct paced_writer {
	unsigned int start_ms, pace_ms;
	int fds[2];
	int stop;
	uint64_t state;
	pthread_t thread;
	bool running;              /* paced_stop() joins it, teardown_run() too */
};

struct run {
	struct fake_source src;
	struct fake_sink sink;
	struct rngd_loop_config cfg;
	struct rngd_slot *slot;
	int exit_code;
	long run_ms;               /* rngd_loop_run(), SIGTERM included */
	enum rngd_slot_state state_at_end; /* right after rngd_loop_run() */
	bool abandoned;            /* a reader missed its stop: slot and run leaked */
	struct paced_writer writer; /* paced_start() */
	/* >0: late reads said by @probe_at_ms into the run, in @late_by_probe */
	unsigned int probe_at_ms;
	unsigned int late_by_probe;
	const char *log_to;        /* set: the run's log lines, info and up, in this file */
};

/* What the main thread said by r->probe_at_ms; calls_late is its, under
 * the slot's lock. */
static void *probe_late_reads(void *arg)
{
	struct run *r = arg;

	sleep_ms(r->probe_at_ms);
	(void)pthread_mutex_lock(&r->slot->lock);
	r->late_by_probe = r->slot->calls_late;
	(void)pthread_mutex_unlock(&r->slot->lock);
	return NULL;
}

static void run_loop_sink(struct run *r, unsigned int term_after_ms, struct rng_sink *real_sink);
static void paced_stop(struct run *r);

/* The slots and the queues their readers were given (rngd_slots_free() frees them in rngd). */
static void free_slots(struct rngd_slot *slots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(slots[i].ring);
	free(slots);
}

static void free_slot(struct rngd_slot *slot)
{
	free_slots(slot, 1);
}

static void run_loop(struct run *r, unsigned int term_after_ms)
{
	run_loop_sink(r, term_after_ms, NULL);
}

/* Runs the loop until the sink has had @bytes, when it sends the SIGTERM itself. */
static void run_loop_until_bytes(struct run *r, size_t bytes)
{
	r->sink.stop_after_bytes = bytes;
	run_loop(r, 0);
}

static void run_loop_sink(struct run *r, unsigned int term_after_ms, struct rng_sink *real_sink)
{
	struct rngd_log log;
	struct rng_sink fake = { .ops = &fake_sink_ops, .name = "fake", .priv = &r->sink };
	struct rng_sink sink = real_sink ? *real_sink : fake;
	const struct signal_later term = { SIGTERM, (long)term_after_ms };
	struct rngd_loop *loop;
	struct timespec t0, t1;
	pthread_t t, probe;
	int saved_stderr = -1, log_fd = -1;

	r->slot = fake_slot_new(&r->src);
	/* Kept, retrying, like a named device; a slow one is named too (an
	 * unnamed source still opening does not count as usable). */
	r->slot->settings.explicit = r->src.open_fails || r->src.open_hold_ms || r->src.fail_first_opens;
	rngd_log_init(&log, true, r->log_to ? LOG_INFO : LOG_CRIT);
	if (r->log_to) {
		saved_stderr = dup(STDERR_FILENO);
		log_fd = open(r->log_to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		assert_true(saved_stderr >= 0 && log_fd >= 0 && dup2(log_fd, STDERR_FILENO) == STDERR_FILENO);
	}
	assert_int_equal(rngd_loop_new(&loop, &log, &sink, r->slot, 1, &r->cfg), 0);
	if (r->probe_at_ms)
		assert_int_equal(pthread_create(&probe, NULL, probe_late_reads, r), 0);
	assert_int_equal(rngd_loop_open_sources(loop), 1);
	if (term_after_ms)
		assert_int_equal(pthread_create(&t, NULL, send_signal_later, (void *)&term), 0);
	(void)clock_gettime(CLOCK_MONOTONIC, &t0);
	r->exit_code = rngd_loop_run(loop);
	(void)clock_gettime(CLOCK_MONOTONIC, &t1);
	r->run_ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	r->state_at_end = rngd_slot_state(r->slot);
	if (r->log_to) {
		(void)dup2(saved_stderr, STDERR_FILENO);
		(void)close(saved_stderr);
		(void)close(log_fd);
	}
	if (term_after_ms)
		(void)pthread_join(t, NULL);
	if (r->probe_at_ms)
		(void)pthread_join(probe, NULL);
	rngd_loop_destroy(loop);
	/* A reader left stuck still owns its slot, as in rngd until exit()
	 * (the loop is freed already: the ASan build would catch a reader
	 * that touched it): keep the slot until the reader has finished. */
	if (r->slot->stuck && !r->src.stuck_after_reads) {
		/* A reader that missed its stop: it may still wake and touch
		 * the slot and its fake source (in *r), so both are left to
		 * the process, not freed. */
		r->abandoned = true;
		rngd_log_close(&log);
		fail_msg("a reader did not stop within the grace period, and its source never blocked");
	}
	if (r->slot->stuck) {
		while (!__atomic_load_n(&r->src.stuck_done, __ATOMIC_SEQ_CST))
			(void)usleep(10000);
		(void)usleep(200000);
		/* The reader's last touch of the slot is reader_stopping()'s
		 * unlock: taking the lock orders it before the free below. */
		(void)pthread_mutex_lock(&r->slot->lock);
		(void)pthread_mutex_unlock(&r->slot->lock);
		/* What exit() would reclaim, left by rngd_loop_destroy(). */
		if (r->slot->gate_ready)
			fips_gate_destroy(&r->slot->gate);
	}
	rngd_log_close(&log);
}

static void default_cfg(struct rngd_loop_config *c)
{
	memset(c, 0, sizeof(*c));
	c->on_fail = RNGD_ON_FAIL_DROP;
	c->quarantine_after = 3;
	c->retest_min_ms = 1000;
	c->retest_max_ms = 10000;
	c->random_step = FIPS_BLOCK_BYTES;
	c->stats_interval_s = 60;
	c->ready_timeout_ms = 5000;
	c->open_wait_ms = 5000;
	/* "waiting" after 1 ms in one source call: only the states logged
	 * and asserted change, never what is read or credited. */
	c->read_quiet_ms = 1;
	/* As rngd runs: every test passes through the late-read check. */
	c->slow_call_ms = 60000;
}

/* A run of the loop with the default settings, its sink wanting all it gets. */
static int setup_run(void **state)
{
	struct run *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	default_cfg(&r->cfg);
	r->sink.demand = 1 << 20;
	*state = r;
	return 0;
}

static int teardown_run(void **state)
{
	struct run *r = *state;

	if (r->abandoned)
		return 0;
	paced_stop(r);
	if (r->slot)
		free_slot(r->slot);
	free(r);
	return 0;
}

static void test_nothing_read_without_demand(void **state)
{
	struct run *r = *state;

	r->sink.demand = 0;
	run_loop(r, 600);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	/* The seed and RNGD_QUEUE_BLOCKS blocks fill the queue; then the reader blocks. */
	assert_true(r->src.reads <= RNGD_QUEUE_BLOCKS + 1);
	assert_int_equal(r->sink.writes, 0);
	assert_int_equal(r->slot->stats.blocks_passed + r->slot->stats.blocks_failed, 0);
	/* demand() is asked when woken by a queued block, not in a loop. */
	if (r->sink.demand_calls > RNGD_QUEUE_BLOCKS + 4)
		fail_msg("demand() called %u times in 600 ms with nothing wanted", r->sink.demand_calls);
}

static void test_eio_closes_and_reopens(void **state)
{
	struct run *r = *state;

	r->src.eio_after_reads = 6;
	run_loop_until_bytes(r, 20 * FIPS_BLOCK_BYTES);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	assert_true(r->src.opens >= 2);
	assert_true(r->src.closes >= 1);
	assert_true(r->slot->stats.read_errors >= 1);
	assert_true(r->sink.bytes >= 20 * FIPS_BLOCK_BYTES);
}

/* An open that outlasts --open-wait: the start goes on without it, and
 * the thread inside it reads the source once it returns, opened once. */
static void test_slow_open_is_read_by_its_opener(void **state)
{
	struct run *r = *state;

	r->cfg.open_wait_ms = 100;
	r->src.open_hold_ms = 600;
	run_loop_until_bytes(r, 4 * FIPS_BLOCK_BYTES);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	/* The loop ran while the open went on, and got the bytes after it. */
	assert_true(r->run_ms >= 400);
	assert_int_equal(__atomic_load_n(&r->src.opens, __ATOMIC_SEQ_CST), 1);
	assert_true(r->sink.bytes >= 4 * FIPS_BLOCK_BYTES);
}

static void *write_paced(void *arg)
{
	struct paced_writer *w = arg;
	uint8_t blk[FIPS_BLOCK_BYTES];
	size_t len = FIPS_SEED_BYTES;

	sleep_ms(w->start_ms);
	while (!__atomic_load_n(&w->stop, __ATOMIC_SEQ_CST)) {
		for (size_t i = 0; i < len; i++)
			blk[i] = (uint8_t)(test_splitmix64(&w->state) >> 56);
		if (write(w->fds[1], blk, len) == (ssize_t)len)
			len = sizeof(blk);
		else if (errno != EAGAIN)
			break;
		sleep_ms(w->pace_ms);
	}
	return NULL;
}

/* @r's source reads a pipe that @r->writer fills from a thread. */
static void paced_start(struct run *r, unsigned int start_ms, unsigned int pace_ms)
{
	struct paced_writer *w = &r->writer;

	w->start_ms = start_ms;
	w->pace_ms = pace_ms;
	w->state = 42;
	assert_int_equal(pipe2(w->fds, O_CLOEXEC), 0);
	assert_int_equal(fcntl(w->fds[1], F_SETFL, O_NONBLOCK), 0);
	r->src.use_fd = true;
	r->src.fd = w->fds[0];
	assert_int_equal(pthread_create(&w->thread, NULL, write_paced, w), 0);
	w->running = true;
}

/* Also from teardown_run(), after a failed assertion left it running. */
static void paced_stop(struct run *r)
{
	struct paced_writer *w = &r->writer;

	if (!w->running)
		return;
	w->running = false;
	__atomic_store_n(&w->stop, 1, __ATOMIC_SEQ_CST);
	(void)pthread_join(w->thread, NULL);
	(void)close(w->fds[0]);
	(void)close(w->fds[1]);
}

/* The first read starts 100 ms in, once its fd has data (the loop asleep
 * since it saw no read running), and takes 900 ms, a limit of
 * @slow_call_ms; nothing but the ready time-out (@ready_ms) wakes the loop
 * while it runs. The late line and its end must each have been said @said
 * times (0 or 1), the line within 150 ms of the limit. */
static void run_with_a_late_read(void **state, unsigned int slow_call_ms, unsigned int ready_ms,
				 unsigned int said)
{
	struct run *r = *state;

	r->cfg.slow_call_ms = slow_call_ms;
	r->cfg.ready_timeout_ms = ready_ms;
	r->src.stuck_after_reads = 1;
	r->src.stuck_ms = 900;
	paced_start(r, 100, 20);
	r->probe_at_ms = 100 + slow_call_ms + 150;
	run_loop(r, 1500);
	paced_stop(r);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	assert_true(r->src.reads > 1);
	if (r->probe_at_ms < 1000 && r->late_by_probe != said)
		fail_msg("a read late at %u ms not said by %u ms", 100 + slow_call_ms, r->probe_at_ms);
	assert_int_equal(r->slot->calls_late, said);
	assert_int_equal(r->slot->calls_back, said);
}

/*
 * A read that does not return (a TPM daemon stopped, a token that blocks)
 * is said at its limit, though nothing else wakes the loop (a file sink,
 * -o none with EGD), and its end once it returns; the reads after it are
 * quick and say nothing. Before, only SIGUSR1, STATUS= and the stats file
 * showed it; a look only at the loop's other wake-ups missed it here.
 */
static void test_late_read_is_said_at_its_limit(void **state)
{
	run_with_a_late_read(state, 300, 10000, 1);
}

/* A wake-up between the line and the read's end (the ready time-out at
 * 600 ms) does not say it again. */
static void test_late_read_is_said_once(void **state)
{
	run_with_a_late_read(state, 300, 600, 1);
}

/* Under the limit: nothing said. */
static void test_read_under_the_limit_is_not_said(void **state)
{
	run_with_a_late_read(state, 1200, 10000, 0);
}

static void test_stuck_reader_does_not_block_exit(void **state)
{
	struct run *r = *state;

	r->src.stuck_after_reads = 1;
	run_loop(r, 200);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	if (r->run_ms >= 1500)
		fail_msg("SIGTERM took %ld ms with a reader that ignores cancels", r->run_ms);
	assert_true(r->slot->stuck);
	/* Inside one source call for longer than read_quiet_ms: not "active"
	 * (a TPM that stopped answering showed as active for ever). */
	assert_int_equal(r->state_at_end, RNGD_SLOT_WAITING);
	assert_string_equal(rngd_slot_state_name(r->state_at_end), "waiting");
}

/*
 * A reader waiting on its source's fd (a FIFO or device with nothing to
 * read) ends on its own at SIGTERM: joined, not left behind or cancelled,
 * and its source closed. Cancelled, it left its source unclosed; under
 * ThreadSanitizer the cancel itself was reported.
 */
static void test_reader_waiting_on_fd_stops_on_its_own(void **state)
{
	struct run *r = *state;
	int p[2];

	assert_int_equal(pipe(p), 0);
	r->src.use_fd = true;
	r->src.fd = p[0];
	run_loop(r, 200);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	assert_false(r->slot->stuck);
	assert_false(r->slot->abandoned);
	assert_int_equal(r->src.closes, 1);
	/* 200 ms to SIGTERM; a reader given up on would add 300 ms. */
	if (r->run_ms >= 500)
		fail_msg("SIGTERM took %ld ms with a reader waiting on its fd", r->run_ms);
	(void)close(p[0]);
	(void)close(p[1]);
}

/*
 * A source whose reads wait on its fd and then take @read_ms (a hwrng),
 * a block each @pace_ms, read as its data comes for @run_ms, with a
 * late-read limit of @slow_call_ms: each block costs the loop one wake-up
 * (the block queued) and its passes (test, write, nothing left), never
 * one more.
 */
static void run_paced_source(void **state, unsigned int slow_call_ms, unsigned int pace_ms, int read_ms,
			     unsigned int run_ms)
{
	struct run *r = *state;
	unsigned int blocks, bound;

	r->cfg.slow_call_ms = slow_call_ms;
	r->src.read_ms = read_ms;
	paced_start(r, 0, pace_ms);
	run_loop(r, run_ms);
	paced_stop(r);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	blocks = (unsigned int)(r->slot->stats.blocks_passed + r->slot->stats.blocks_failed);
	/* Three passes a block; a loop woken once more per block, four. */
	bound = 3 * blocks + blocks / 2 + 4;
	print_message("paced source, limit %u ms: %u blocks in %ld ms, demand() asked %u times (bound %u)\n",
		      slow_call_ms, blocks, r->run_ms, r->sink.demand_calls, bound);
	assert_true(blocks >= 10);
	if (r->sink.demand_calls > bound)
		fail_msg("%u passes of the loop for %u blocks: woken per read", r->sink.demand_calls, blocks);
}

/* The late-read watch woke the loop at each read's start while it slept
 * with no read in flight: a wake-up per block for nothing (a stalled sink
 * was asked 9 times in 2 s under TSan). */
static void test_paced_source_costs_no_wake_up_per_read(void **state)
{
	run_paced_source(state, 60000, 20, 2, 1000);
}

/* Each read sets the loop's timer to its limit, 25 ms on, before the next
 * read (50 ms on) could set it again; the block it queues wakes the loop
 * first, which must clear that timer, or it wakes the loop again at the
 * limit for a read long returned. */
static void test_returned_read_leaves_no_timer(void **state)
{
	run_paced_source(state, 25, 50, 5, 1500);
}

static void test_credit_split_over_steps(void **state)
{
	struct run *r = *state;

	r->cfg.random_step = 1000;
	run_loop_until_bytes(r, 10 * FIPS_BLOCK_BYTES);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	/* Its reader is out of every source call once stopped (read_quiet_ms
	 * is 1 ms here). */
	assert_true(r->state_at_end != RNGD_SLOT_WAITING);
	assert_int_equal(r->sink.max_write, 1000);
	assert_int_equal(r->sink.bytes % 500, 0);
	/* entropy_per_bit 0.5: 4 bits per byte, however the block was cut. */
	assert_int_equal(r->sink.credit, r->sink.bytes * 4);
	assert_int_equal(r->slot->stats.bits_credited, r->sink.credit);
}

static void test_mix_gives_zero_credit(void **state)
{
	struct run *r = *state;

	r->cfg.on_fail = RNGD_ON_FAIL_MIX;
	r->cfg.quarantine_after = 1000000;   /* never reached: read on at full speed */
	r->src.zeros = true;
	run_loop_until_bytes(r, 5 * FIPS_BLOCK_BYTES);
	assert_int_equal(r->sink.credit, 0);
	assert_int_equal(r->sink.zero_credit_bytes, r->sink.bytes);
	assert_true(r->slot->stats.blocks_failed >= 5);
	assert_int_equal(r->slot->stats.blocks_passed, 0);
	assert_int_equal(r->slot->stats.bytes_mixed, r->sink.bytes);
}

/* A failed block is mixed once, as much as one write takes, and its rest
 * dropped: a sink taking 64 bytes at a time (a top-up) gets fresh passing
 * blocks right after it, not 40 writes of the same zeros. */
static void test_mix_takes_one_write_per_failed_block(void **state)
{
	struct run *r = *state;

	r->cfg.on_fail = RNGD_ON_FAIL_MIX;
	r->cfg.quarantine_after = 1000000;
	r->sink.demand = 64;
	r->src.zeros_reads = 2;   /* the gate's seed block, then one that fails */
	run_loop_until_bytes(r, 2 * FIPS_BLOCK_BYTES);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	assert_int_equal(r->slot->stats.blocks_failed, 1);
	assert_int_equal(r->slot->stats.bytes_mixed, 64);
	assert_int_equal(r->sink.zero_credit_bytes, 64);
	assert_int_equal(r->sink.max_write, 64);
	/* Everything else came from passing blocks, credited in full. */
	assert_int_equal(r->sink.credit, (r->sink.bytes - 64) * 4);
}

static void test_drop_quarantines(void **state)
{
	struct run *r = *state;

	r->src.zeros = true;
	run_loop(r, 400);
	assert_int_equal(r->sink.bytes, 0);
	assert_int_equal(r->slot->stats.quarantines, 1);
	/* 3 failures quarantine it; the 1 s re-test is not due within 400 ms. */
	assert_int_equal(r->slot->stats.blocks_failed, 3);
	assert_int_equal(r->slot->stats.retests_failed, 0);
	assert_int_equal(r->slot->stats.returns_to_service, 0);
}

/* A source that recovers: quarantined, its first re-test blocks fail (more
 * zero blocks than the queue and the blocks before the quarantine hold),
 * then one passes and it is back in service: the counters, not the log,
 * say so. */
static void test_quarantine_retests_and_return_are_counted(void **state)
{
	struct run *r = *state;

	r->cfg.retest_min_ms = 20;
	r->cfg.retest_max_ms = 40;
	r->src.zeros_reads = 3 + RNGD_QUEUE_BLOCKS + 6;
	run_loop_until_bytes(r, 4 * FIPS_BLOCK_BYTES);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	assert_int_equal(r->slot->stats.quarantines, 1);
	assert_true(r->slot->stats.retests_failed >= 1);
	assert_int_equal(r->slot->stats.returns_to_service, 1);
	assert_true(r->sink.bytes >= 4 * FIPS_BLOCK_BYTES);
}

/* A source that cannot be opened is retried with back-off (100, 200, 400,
 * 800 ms...), not in a loop: the condition variable the pause waits on
 * must time out on the clock its deadline comes from. */
static void test_open_failure_backs_off(void **state)
{
	struct run *r = *state;

	r->src.open_fails = true;
	run_loop(r, 1000);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	/* One open at start-up, then 0.1 + 0.2 + 0.4 s of pauses within 1 s. */
	if (r->src.opens > 6)
		fail_msg("%d opens in 1 s: the back-off does not wait", r->src.opens);
	if (r->src.opens < 3)
		fail_msg("only %d opens in 1 s: no retry", r->src.opens);
}

/*
 * A named source whose open failed at start opens later (a device that
 * appears): its first open is "opened", with the credit it is read at,
 * and says what that open said, not the last failure's reason, which
 * most opens leave in place when they succeed ("hwrng: opened again open
 * /dev/hwrng: No such file ...").
 */
static void test_open_after_failures_drops_the_old_reason(void **state)
{
	struct run *r = *state;
	char path[] = "/tmp/test_daemon_loop_log.XXXXXX";
	int fd = mkstemp(path);
	char *text, *line, *end;
	size_t len;

	assert_true(fd >= 0);
	(void)close(fd);
	r->log_to = path;
	r->src.fail_first_opens = 2;
	run_loop(r, 1000);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	assert_true(r->src.opens >= 3);
	assert_true(r->src.reads > 0);
	text = (char *)test_slurp(path, &len);
	assert_non_null(text);
	line = strstr(text, "fake: opened after 2 failed opens in ");
	if (!line)
		fail_msg("no first-open line in: %s", text);
	end = strchr(line, '\n');
	if (end)
		*end = '\0';
	assert_non_null(strstr(line, " entropy bits per bit credited, priority "));
	assert_null(strstr(line, "No such file"));
	assert_null(strstr(end ? end + 1 : "", "fake: opened"));   /* said once */
	free(text);
	(void)unlink(path);
}

/* What the reader of a stalled FIFO does: nothing for @ms, then drains
 * it, so a loop stuck inside the sink's write() still ends. */
struct drain {
	int fd;
	unsigned int after_ms;
};

static void *drain_later(void *arg)
{
	struct drain *d = arg;
	uint8_t buf[65536];

	sleep_ms(d->after_ms);
	(void)fcntl(d->fd, F_SETFL, O_NONBLOCK);
	for (int i = 0; i < 200; i++) {
		if (read(d->fd, buf, sizeof(buf)) <= 0)
			(void)usleep(10000);
	}
	return NULL;
}

/* The real file sink, with its demand() calls counted. */
static struct rng_sink counted_inner;
static unsigned int counted_demands, counted_zero_demands;

static size_t counted_demand(struct rng_sink *s, uint64_t now_ms, uint64_t *next_ms)
{
	size_t n = counted_inner.ops->demand(&counted_inner, now_ms, next_ms);

	(void)s;
	counted_demands++;
	counted_zero_demands += n == 0;
	return n;
}

static int counted_write(struct rng_sink *s, const uint8_t *buf, size_t len, unsigned int credit)
{
	(void)s;
	return counted_inner.ops->write(&counted_inner, buf, len, credit);
}

static int counted_wait_fd(struct rng_sink *s, short *events)
{
	(void)s;
	return counted_inner.ops->wait_fd ? counted_inner.ops->wait_fd(&counted_inner, events) : -1;
}

static const struct rng_sink_ops counted_ops = {
	.demand = counted_demand, .write = counted_write, .close = sink_close,
	.wait_fd = counted_wait_fd,
};

/* A file sink on a FIFO whose reader stopped reading: the loop waits for
 * POLLOUT beside its signalfd (no timer: it used to ask the sink again
 * every 200 ms), answers SIGTERM at once, and costs no CPU; a reader
 * that drains the FIFO later gets the rest. */
static void test_stalled_fifo_sink_sleeps(void **state)
{
	char dir[] = "/tmp/loop-fifo.XXXXXX", path[64];
	struct rng_sink sink = { .ops = &counted_ops, .name = "counted" };
	struct drain d = { -1, 3000 };
	struct timespec c0, c1;
	pthread_t t;
	struct run *r = *state;
	long cpu_ms;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	d.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	assert_true(d.fd >= 0);
	assert_int_equal(rng_sink_file_open(&counted_inner, path), 0);
	counted_demands = counted_zero_demands = 0;
	assert_int_equal(pthread_create(&t, NULL, drain_later, &d), 0);
	(void)clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	run_loop_sink(r, 2000, &sink);
	(void)clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	(void)pthread_join(t, NULL);
	counted_inner.ops->close(&counted_inner);
	(void)close(d.fd);
	(void)unlink(path);
	(void)rmdir(dir);
	cpu_ms = (c1.tv_sec - c0.tv_sec) * 1000 + (c1.tv_nsec - c0.tv_nsec) / 1000000;
	print_message("stalled FIFO sink: SIGTERM at 2 s, run %ld ms, %ld ms CPU, %" PRIu64
		      " blocks passed, demand() answered 0 %u times\n",
		      r->run_ms, cpu_ms, r->slot->stats.blocks_passed, counted_zero_demands);
	assert_int_equal(r->exit_code, RNGD_EXIT_OK);
	if (r->run_ms > 2500)
		fail_msg("SIGTERM at 2 s answered after %ld ms", r->run_ms);
	if (cpu_ms > 300)
		fail_msg("%ld ms CPU in 2 s with a stalled sink", cpu_ms);
	/* Stalled for most of 2 s: asked once when it filled, then again only
	 * on a wake-up from a reader queueing a block (at most the queue). */
	if (counted_zero_demands > RNGD_QUEUE_BLOCKS + 3)
		fail_msg("the stalled sink was asked %u times in 2 s: polled on a timer", counted_zero_demands);
	assert_true(r->slot->stats.blocks_passed >= 10);
}

static bool all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

/* Tested bytes do not outlive the loop: the reader's queue
 * and the pending block are wiped once the loop is done with them. */
static void test_queue_wiped(void **state)
{
	struct run *r = *state;

	r->sink.demand = FIPS_BLOCK_BYTES;
	run_loop_until_bytes(r, 3 * FIPS_BLOCK_BYTES);
	assert_true(r->sink.bytes >= 3 * FIPS_BLOCK_BYTES);
	assert_non_null(r->slot->ring);
	assert_true(all_zero(r->slot->ring, RNGD_QUEUE_BLOCKS * sizeof(*r->slot->ring)));
}

/* The names users see in the stats lines, STATUS= and the
 * rngd_source_state label (rngd.8, state): one each, none "?". */
static void test_slot_state_names(void **state)
{
	static const char *const want[] = { "active", "quarantined", "exhausted", "down", "waiting", "disabled" };

	(void)state;
	for (int st = RNGD_SLOT_ACTIVE; st <= RNGD_SLOT_DISABLED; st++)
		assert_string_equal(rngd_slot_state_name((enum rngd_slot_state)st), want[st]);
	assert_int_equal(RNGD_SLOT_DISABLED + 1, sizeof(want) / sizeof(want[0]));
	assert_string_equal(rngd_slot_state_name((enum rngd_slot_state)(RNGD_SLOT_DISABLED + 1)), "?");
}

/* The snapshot copies each field from its own place: a reader open after
 * errors must not look closed, nor its read errors show 0 or the reopens
 * counter beside them. */
static void test_reader_snapshot_fields(void **state)
{
	struct fake_source src = { 0 };
	struct rngd_slot *slot = fake_slot_new(&src);
	struct rngd_reader_snapshot snap;

	(void)state;
	assert_int_equal(pthread_mutex_init(&slot->lock, NULL), 0);
	snap = rngd_slot_reader_snapshot(slot);
	assert_false(snap.open);
	assert_int_equal(snap.read_errors, 0);
	slot->is_open = true;
	slot->read_errors = 3;
	slot->reopens = 5;
	snap = rngd_slot_reader_snapshot(slot);
	assert_true(snap.open);
	assert_int_equal(snap.read_errors, 3);
	slot->is_open = false;
	snap = rngd_slot_reader_snapshot(slot);
	assert_false(snap.open);
	assert_int_equal(snap.read_errors, 3);
	(void)pthread_mutex_destroy(&slot->lock);
	free_slot(slot);
}

/* A sink that says the kernel pool is still filling (credit counts). */
static void filling_counters(const struct rng_sink *s, struct rng_sink_counters *out)
{
	const struct fake_sink *f = s->priv;

	memset(out, 0, sizeof(*out));
	out->pool_phases = true;
	out->filling = true;
	out->bits_counted = f->credit;
}

static const struct rng_sink_ops filling_sink_ops = {
	.demand = sink_demand, .write = sink_write, .close = sink_close,
	.counters = filling_counters,
};

/*
 * Until the pool is ready, credited blocks go first, whatever
 * the priorities, and zero-credit ones (a source credited 0, like
 * sysstat) are paced to one a second instead of holding the sink.
 */
static void test_credited_first_while_filling(void **state)
{
	struct fake_source src[2] = { { .state = 1 }, { .state = 2 } };   /* zero-credit, credited */
	struct fake_sink fs = { .demand = 1 << 20, .stop_after_bytes = 12 * FIPS_BLOCK_BYTES };
	struct rng_sink sink = { .ops = &filling_sink_ops, .name = "filling", .priv = &fs };
	struct rngd_loop_config cfg;
	struct rngd_slot *slots = fake_slots_new(src, 2);
	struct rngd_log log;
	struct rngd_loop *loop;

	(void)state;
	default_cfg(&cfg);
	slots[0].src.entropy_per_bit = 0.0;
	slots[0].src.priority = 100;
	slots[0].settings.credit_explicit = true;
	slots[1].src.priority = -100;
	rngd_log_init(&log, true, LOG_CRIT);
	assert_int_equal(rngd_loop_new(&loop, &log, &sink, slots, 2, &cfg), 0);
	assert_int_equal(rngd_loop_open_sources(loop), 2);
	assert_int_equal(rngd_loop_run(loop), 0);
	/* Twelve blocks in well under a second: at most one of them zero-credit. */
	assert_true(fs.zero_credit_bytes <= FIPS_BLOCK_BYTES);
	assert_true(slots[1].stats.bytes_to_sink >= 11 * FIPS_BLOCK_BYTES);
	assert_int_equal(slots[1].stats.bits_credited, fs.credit);
	rngd_loop_destroy(loop);
	rngd_log_close(&log);
	free_slots(slots, 2);
}

/* One slot with a fake source and a sink that wants nothing, for the tests
 * that drive rngd_loop_run() call by call with signals. */
struct signal_run {
	struct fake_sink fs;
	struct rng_sink sink;
	struct fake_source src;
	struct rngd_slot *slot;
	struct rngd_log log;
	struct rngd_loop *loop;
	int last;               /* the last call's return: < 0, its readers still run */
};

static int setup_signal_run(void **state)
{
	struct signal_run *r = calloc(1, sizeof(*r));
	struct rngd_loop_config cfg;

	assert_non_null(r);
	r->sink = (struct rng_sink){ .ops = &fake_sink_ops, .name = "fake", .priv = &r->fs };
	r->slot = fake_slot_new(&r->src);
	default_cfg(&cfg);
	rngd_log_init(&r->log, true, LOG_CRIT);
	assert_int_equal(rngd_loop_new(&r->loop, &r->log, &r->sink, r->slot, 1, &cfg), 0);
	assert_int_equal(rngd_loop_open_sources(r->loop), 1);
	assert_int_equal(__atomic_load_n(&r->src.opens, __ATOMIC_SEQ_CST), 1);
	*state = r;
	return 0;
}

/* One rngd_loop_run() call, @sig sent to the process @ms after it began. */
static int signal_run_call(struct signal_run *r, int sig, long ms)
{
	const struct signal_later sl = { sig, ms };
	pthread_t t;
	int ret;

	assert_int_equal(pthread_create(&t, NULL, send_signal_later, (void *)&sl), 0);
	ret = rngd_loop_run(r->loop);
	(void)pthread_join(t, NULL);
	r->last = ret;
	return ret;
}

static int teardown_signal_run(void **state)
{
	struct signal_run *r = *state;

	/* A test that failed between two calls left the readers running:
	 * rngd only destroys a loop that has stopped them. */
	if (r->last < 0)
		(void)signal_run_call(r, SIGTERM, 0);
	rngd_loop_destroy(r->loop);
	rngd_log_close(&r->log);
	free_slot(r->slot);
	free(r);
	return 0;
}

/* SIGHUP hands the reload to the caller by a return value; the readers
 * keep running, and the next call re-opens every source and goes on. */
/*
 * A reader thread that cannot start ends the run with an error, through
 * the same exit as SIGTERM: the readers that did start are stopped and
 * joined, and the final stats file and summary are written (main.c adds
 * the EGD server's summary after the loop's).
 */
static void test_reader_start_failure_ends_through_the_exit_path(void **state)
{
	struct fake_source src[2] = { { .state = 1 }, { .state = 2 } };
	struct fake_sink fs = { .demand = 1 << 20 };
	struct rng_sink sink = { .ops = &fake_sink_ops, .name = "fake", .priv = &fs };
	struct rngd_slot *slots = fake_slots_new(src, 2);
	char dir[] = "/tmp/rngd-loop.XXXXXX", path[64];
	struct rngd_loop_config cfg;
	struct rngd_log log;
	struct rngd_loop *loop;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/stats", dir);
	default_cfg(&cfg);
	cfg.stats_file = path;
	rngd_log_init(&log, true, LOG_CRIT);
	assert_int_equal(rngd_loop_new(&loop, &log, &sink, slots, 2, &cfg), 0);
	assert_int_equal(rngd_loop_open_sources(loop), 2);
	thread_creates_left = 1;   /* the first reader starts, the second cannot */
	assert_int_equal(rngd_loop_run(loop), RNGD_EXIT_FAILURE);
	thread_creates_left = -1;
	assert_true(slots[0].started);
	assert_false(slots[0].stuck);
	assert_false(slots[1].started);
	assert_int_equal(fs.credit, 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
	rngd_loop_destroy(loop);
	rngd_log_close(&log);
	(void)unlink(path);
	(void)rmdir(dir);
	free_slots(slots, 2);
}

static void test_sighup_returns_reload_and_resume_reopens(void **state)
{
	struct signal_run *r = *state;

	assert_int_equal(signal_run_call(r, SIGHUP, 100), RNGD_LOOP_RELOAD);
	assert_true(r->slot->started);
	assert_int_equal(__atomic_load_n(&r->src.closes, __ATOMIC_SEQ_CST), 0);
	assert_int_equal(signal_run_call(r, SIGTERM, 200), RNGD_EXIT_OK);
	/* The reader re-opened on the resume, not on the signal itself. */
	assert_true(__atomic_load_n(&r->src.opens, __ATOMIC_SEQ_CST) >= 2);
	assert_true(__atomic_load_n(&r->src.closes, __ATOMIC_SEQ_CST) >= 1);
}

/* SIGUSR1: the loop logs its own counters and returns RNGD_LOOP_STATS, so
 * the caller can add the lines it owns; the resume goes on without
 * re-opening anything (only a reload re-opens). */
static void test_sigusr1_returns_stats_and_resume_keeps_sources(void **state)
{
	struct signal_run *r = *state;

	assert_int_equal(signal_run_call(r, SIGUSR1, 100), RNGD_LOOP_STATS);
	assert_true(r->slot->started);
	assert_int_equal(signal_run_call(r, SIGTERM, 200), RNGD_EXIT_OK);
	/* Opened once at start, never again. */
	assert_int_equal(__atomic_load_n(&r->src.opens, __ATOMIC_SEQ_CST), 1);
}

/* A stand-in for the device watch behind the loop's hook: an eventfd,
 * and a next look asked for every @every_ms. */
struct hook_probe {
	int fd;
	uint64_t every_ms;
	unsigned int ready_calls, run_calls;
};

static int probe_fd(void *ctx)
{
	return ((struct hook_probe *)ctx)->fd;
}

static void probe_fd_ready(void *ctx)
{
	struct hook_probe *p = ctx;

	p->ready_calls++;
	(void)rngd_eventfd_take(p->fd);
}

static uint64_t probe_run(void *ctx, uint64_t now_ms)
{
	struct hook_probe *p = ctx;

	p->run_calls++;
	return now_ms + p->every_ms;
}

static const struct rngd_loop_hook probe_hook = {
	.fd = probe_fd,
	.fd_ready = probe_fd_ready,
	.run = probe_run,
};

static void *poke_after_100ms(void *arg)
{
	(void)usleep(100000);
	rngd_eventfd_poke(*(const int *)arg);
	return NULL;
}

/*
 * The hook's fd is polled with the loop's own: a write to it brings one
 * fd_ready(). Its run() is called on every pass and its deadline is kept:
 * asking every 50 ms over 500 ms in which nothing else happens gives
 * about ten calls (about three, from other wake-ups, if the deadline
 * were ignored).
 */
static void test_hook_fd_and_deadline_drive_the_loop(void **state)
{
	struct signal_run *r = *state;
	struct hook_probe p = { .fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), .every_ms = 50 };
	pthread_t t;

	assert_true(p.fd >= 0);
	rngd_loop_set_hook(r->loop, &probe_hook, &p);
	assert_int_equal(pthread_create(&t, NULL, poke_after_100ms, &p.fd), 0);
	assert_int_equal(signal_run_call(r, SIGUSR1, 500), RNGD_LOOP_STATS);
	(void)pthread_join(t, NULL);
	rngd_loop_set_hook(r->loop, NULL, NULL);
	(void)close(p.fd);
	print_message("hook: %u fd_ready, %u run in 500 ms at one look per 50 ms\n", p.ready_calls,
		      p.run_calls);
	assert_int_equal(p.ready_calls, 1);
	if (p.run_calls < 5 || p.run_calls > 40)
		fail_msg("run() called %u times in 500 ms at one look per 50 ms", p.run_calls);
}

/* A reload's settings replace the loop's, but -t stays as the loop
 * started either way: its sink was chosen for it. */
static void test_set_config_keeps_test_mode(void **state)
{
	struct fake_sink fs = { .demand = 0 };
	struct rng_sink sink = { .ops = &fake_sink_ops, .name = "fake", .priv = &fs };
	struct rngd_loop_config cfg, fresh;
	struct rngd_slot *slots = calloc(1, sizeof(*slots));
	struct rngd_log log;
	struct rngd_loop *loop;

	(void)state;
	assert_non_null(slots);
	default_cfg(&cfg);
	cfg.test_mode = true;
	rngd_log_init(&log, true, LOG_CRIT);
	assert_int_equal(rngd_loop_new(&loop, &log, &sink, slots, 0, &cfg), 0);
	fresh = cfg;
	fresh.test_mode = false;
	fresh.quarantine_after = 9;
	fresh.random_step = 64;
	rngd_loop_set_config(loop, &fresh);
	assert_true(rngd_loop_config(loop)->test_mode);
	assert_int_equal(rngd_loop_config(loop)->quarantine_after, 9);
	assert_int_equal(rngd_loop_config(loop)->random_step, 64);
	rngd_loop_destroy(loop);

	/* And a loop started without -t stays without it. */
	cfg.test_mode = false;
	assert_int_equal(rngd_loop_new(&loop, &log, &sink, slots, 0, &cfg), 0);
	fresh.test_mode = true;
	rngd_loop_set_config(loop, &fresh);
	assert_false(rngd_loop_config(loop)->test_mode);
	rngd_loop_destroy(loop);
	rngd_log_close(&log);
	free(slots);
}

#define RNGD_TEST_SETUP setup_run
#define RNGD_TEST_TEARDOWN teardown_run

RNGD_TEST_MAIN(
	RNGD_FIXTURE_TEST(test_nothing_read_without_demand),
	RNGD_FIXTURE_TEST(test_eio_closes_and_reopens),
	RNGD_FIXTURE_TEST(test_slow_open_is_read_by_its_opener),
	RNGD_FIXTURE_TEST(test_stuck_reader_does_not_block_exit),
	RNGD_FIXTURE_TEST(test_late_read_is_said_at_its_limit),
	RNGD_FIXTURE_TEST(test_late_read_is_said_once),
	RNGD_FIXTURE_TEST(test_read_under_the_limit_is_not_said),
	RNGD_FIXTURE_TEST(test_reader_waiting_on_fd_stops_on_its_own),
	RNGD_FIXTURE_TEST(test_credit_split_over_steps),
	RNGD_FIXTURE_TEST(test_mix_gives_zero_credit),
	RNGD_FIXTURE_TEST(test_mix_takes_one_write_per_failed_block),
	RNGD_FIXTURE_TEST(test_drop_quarantines),
	RNGD_FIXTURE_TEST(test_quarantine_retests_and_return_are_counted),
	RNGD_FIXTURE_TEST(test_open_failure_backs_off),
	RNGD_FIXTURE_TEST(test_open_after_failures_drops_the_old_reason),
	RNGD_FIXTURE_TEST(test_stalled_fifo_sink_sleeps),
	RNGD_FIXTURE_TEST(test_paced_source_costs_no_wake_up_per_read),
	RNGD_FIXTURE_TEST(test_returned_read_leaves_no_timer),
	RNGD_FIXTURE_TEST(test_queue_wiped),
	cmocka_unit_test(test_slot_state_names),
	cmocka_unit_test(test_reader_snapshot_fields),
	cmocka_unit_test(test_credited_first_while_filling),
	cmocka_unit_test(test_set_config_keeps_test_mode),
	cmocka_unit_test(test_reader_start_failure_ends_through_the_exit_path),
	cmocka_unit_test_setup_teardown(test_sighup_returns_reload_and_resume_reopens, setup_signal_run,
					teardown_signal_run),
	cmocka_unit_test_setup_teardown(test_sigusr1_returns_stats_and_resume_keeps_sources, setup_signal_run,
					teardown_signal_run),
	cmocka_unit_test_setup_teardown(test_hook_fd_and_deadline_drive_the_loop, setup_signal_run,
					teardown_signal_run)
)
