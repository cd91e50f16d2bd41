/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop: one reader thread per source fills a small bounded
 * queue of blocks; the main thread waits on a signalfd and an eventfd
 * (bounded latency for SIGTERM/SIGUSR1 whatever the sources do), asks the
 * sink how much it wants, and only then takes blocks, highest priority
 * first, through each source's own gate to the sink. When the sink wants
 * nothing the queues fill, the reader threads block, and nothing spins.
 */
#ifndef RNGD_LOOP_H
#define RNGD_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "fips/fips.h"
#include "rngd/log.h"
#include "rngd/options.h"
#include "rngd/policy.h"
#include "rngd/sink.h"
#include "rngd/stats.h"
#include "sources/source.h"

/*
 * A watch the loop keeps beside its sources and sink (the hwrng device
 * watch, rngd/hwrng_watch.c): an fd polled with the loop's own and a job
 * run on every pass. The loop knows nothing else of it.
 */
struct rngd_loop_hook {
	/* The fd to poll for POLLIN, or -1 for none now. */
	int (*fd)(void *ctx);
	/* poll() found that fd ready: the next run() reads what waits. */
	void (*fd_ready)(void *ctx);
	/* Each pass, on the main thread: does what is due and returns the
	 * CLOCK_MONOTONIC ms of its next look (UINT64_MAX: none). */
	uint64_t (*run)(void *ctx, uint64_t now_ms);
};

/* Blocks queued per source: enough to ride over a slow read, small enough
 * that little is read ahead of demand. */
#define RNGD_QUEUE_BLOCKS 4
/* Re-open back-off of a source whose open or read failed. */
#define RNGD_REOPEN_MIN_MS 100u
#define RNGD_REOPEN_MAX_MS 30000u
/* A device source whose read found no device (ENODEV) waits this long for
 * the device watch to wake it (rngd/hwrng_watch.h): its safety poll. */
#define RNGD_DEVICE_WAIT_MS (5u * 60u * 1000u)

struct rngd_block {
	uint8_t data[FIPS_BLOCK_BYTES];
	bool seed;                     /* FIPS_SEED_BYTES for the continuous test */
	bool kernel_generator;         /* read from this kernel's own generator
					* (credit_is_circular() at the open it was
					* read through) */
};

enum rngd_slot_state {
	RNGD_SLOT_ACTIVE,
	RNGD_SLOT_QUARANTINED,
	RNGD_SLOT_EXHAUSTED,
	RNGD_SLOT_DOWN,                /* not open, retrying */
	RNGD_SLOT_WAITING,             /* open, one source call without an answer
					* for read_quiet_ms (a TPM that stopped
					* answering, a FIFO nobody writes) */
	RNGD_SLOT_DISABLED,
};

struct rngd_loop;

/*
 * One source instance and everything the daemon keeps about it: opaque
 * outside the loop (its definition is rngd/slot.h's). The slots are one
 * array, made and freed by rngd_slots_new() and rngd_slots_free() and
 * indexed by rngd_slot_at().
 */
struct rngd_slot;

/* What the options decide about a slot beside its source's own keys:
 * rngd/source_set.c sets them, the loop acts on them. */
struct rngd_slot_settings {
	bool enabled;                  /* runs: not left out by -x, -n or the
					* configuration */
	bool explicit;                 /* named by -r/-n/-O: failures are warnings */
	bool credit_explicit;          /* -O SRC:entropy_per_bit given: the source's
					* default_credit() does not apply */
};

struct rngd_loop_config {
	enum rngd_on_fail on_fail;
	unsigned int quarantine_after;
	unsigned int retest_min_ms, retest_max_ms;
	unsigned int random_step;
	unsigned int stats_interval_s;
	unsigned int ready_timeout_ms;
	unsigned int open_wait_ms;     /* rngd/start_open.c; 0: no bound */
	unsigned int read_quiet_ms;    /* RNGD_SLOT_WAITING after this; 0: never */
	unsigned int slow_call_ms;     /* a read() inside its source this long is
					* logged (rngd/slow_call.h); 0: never */
	const char *stats_file;
	bool test_mode;                /* credit nothing, print rates to stdout */
};


/*
 * The signals the loop handles through its signalfd. main() blocks them
 * before anything else, so one arriving during start-up waits for the
 * loop instead of killing rngd with the default action.
 */
void rngd_loop_signal_set(sigset_t *set);

/*
 * A loop over @slots feeding @sink, in *out; its fds are set up and the
 * signals it handles blocked in the calling thread (call before any thread
 * exists). 0 or -errno; on failure nothing is left to undo and *out is
 * NULL. The loop is opaque: its state is rngd/loop_state.h's, which only
 * the loop's own files include.
 */
int rngd_loop_new(struct rngd_loop **out, struct rngd_log *log, struct rng_sink *sink,
		  struct rngd_slot *slots, size_t n_slots, const struct rngd_loop_config *cfg);

/* The EGD server's count of bytes served to its clients so far, for the
 * sink's counters; @host_sink is the host's own sink inside the EGD
 * sharing sink (NULL with -o none). */
void rngd_loop_set_egd(struct rngd_loop *l, uint64_t (*bytes_served)(void *ctx), void *ctx,
		       struct rng_sink *host_sink);
/* The one hook, its calls given @ctx (NULL @hook: none). */
void rngd_loop_set_hook(struct rngd_loop *l, const struct rngd_loop_hook *hook, void *ctx);
/* An eventfd that wakes the loop when written (for the EGD reserve). */
int rngd_loop_wake_fd(const struct rngd_loop *l);
/* New settings after a reload (SIGHUP). Test mode (-t) stays as the loop
 * started: the sink was chosen for it. */
void rngd_loop_set_config(struct rngd_loop *l, const struct rngd_loop_config *cfg);
/* The settings the loop runs with now. */
const struct rngd_loop_config *rngd_loop_config(const struct rngd_loop *l);

/* Open every enabled source once, in this thread (before privileges drop).
 * Returns how many are usable now (open, or retrying a FIFO/device). */
size_t rngd_loop_open_sources(struct rngd_loop *l);

/*
 * What rngd_loop_run() returns beside the exit codes (>= 0): the
 * negative of the RNGD_LOOP_WANTS_* bits the signals since the last call
 * asked for, with the readers still running. RNGD_LOOP_RELOAD (SIGHUP):
 * re-read the configuration (rngd_loop_set_config()); RNGD_LOOP_STATS
 * (SIGUSR1): the loop has logged its counters, the caller adds what the
 * loop does not own (the EGD server's). Both in one call: -(1 | 2).
 */
#define RNGD_LOOP_WANTS_RELOAD 1
#define RNGD_LOOP_WANTS_STATS 2
#define RNGD_LOOP_RELOAD (-RNGD_LOOP_WANTS_RELOAD)
#define RNGD_LOOP_STATS (-RNGD_LOOP_WANTS_STATS)

/*
 * Start the reader threads, run until SIGTERM/SIGINT, stop the threads
 * and log the summary; returns an exit code (enum rngd_exit), or, with the
 * readers running, what a signal asks of the caller (above). Calling it
 * again goes on, after re-opening every source if a reload was asked.
 */
int rngd_loop_run(struct rngd_loop *l);

/*
 * Close the sources, wipe what is queued, close the fds and free the loop
 * (NULL: nothing). A reader left stuck in a source call keeps its slot and
 * source: once its call returns it touches only its slot's lock
 * (rngd/reader.c). One still inside the start's open keeps the loop too,
 * which rngd_slot_open() reads when the open returns: the process is
 * about to exit. Returns true when such a thread was left.
 */
bool rngd_loop_destroy(struct rngd_loop *l);

/* Log every source's counters (SIGUSR1, exit). */
void rngd_loop_log_stats(struct rngd_loop *l, const char *why);

/* @n zeroed slots (rngd/slot.c), or NULL: out of memory. */
struct rngd_slot *rngd_slots_new(size_t n);
/*
 * Release the first @n slots' sources and free the array. A slot whose
 * reader was abandoned keeps its source unreleased (its state is
 * unknown); one whose reader is still stuck in the kernel owns pointers
 * into the array, so from there on nothing is freed: the process is about
 * to exit.
 */
void rngd_slots_free(struct rngd_slot *slots, size_t n);
/* The @i-th of @slots: outside the loop a slot is opaque, so no array
 * index can reach it. */
struct rngd_slot *rngd_slot_at(struct rngd_slot *slots, size_t i);

/* A slot's source and whether it runs: the daemon's files read these,
 * never a slot's fields. */
const struct rng_source *rngd_slot_source(const struct rngd_slot *s);
bool rngd_slot_enabled(const struct rngd_slot *s);
/* The same source and the settings, to change in place: while the slots
 * are built (rngd/source_set.c), and on a reload, between two runs of
 * the loop. The readers still run then and read and write a source's
 * name, why and priv: a reload changes only the daemon's keys
 * (entropy_per_bit, credit_ceiling, priority) and the settings, which
 * only the main thread reads. */
struct rng_source *rngd_slot_source_mut(struct rngd_slot *s);
struct rngd_slot_settings *rngd_slot_settings(struct rngd_slot *s);

const char *rngd_slot_state_name(enum rngd_slot_state s);
enum rngd_slot_state rngd_slot_state(struct rngd_slot *s);

/* Reset @slot's gate (a new device behind the same source). */
void rngd_slot_reset_gate(struct rngd_slot *slot);
/* Make @slot's reader re-open its source and read now (SIGHUP, a device
 * event), whatever it is waiting for. */
void rngd_slot_wake(struct rngd_slot *slot);

#endif
