/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hwrng gate at start-up: HRNGSELECT, rng_quality taken, the device watch. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "rngd/daemon.h"
#include "rngd/device_watch.h"
#include "rngd/reader.h"
#include "sources/hwrng.h"
#include "sources/source.h"

static struct rngd_slot *hwrng_slot(struct rngd *d)
{
	for (size_t i = 0; i < d->n_slots; i++) {
		struct rngd_slot *slot = rngd_slot_at(d->slots, i);

		if (rngd_slot_source(slot)->ops == &rng_source_hwrng_ops && rngd_slot_enabled(slot))
			return slot;
	}
	return NULL;
}

/* Where rng_current, rng_quality and dev are: --hwrng-sysfs or the kernel's. */
static const char *hwrng_sysfs_dir(const struct rngd *d)
{
	return d->opts.hwrng_sysfs ? d->opts.hwrng_sysfs : RNG_HWRNG_SYSFS_DIR;
}

/* The kernel's hwrng device as its sysfs folder names it ("10:183"), so a
 * --hwrng-sysfs stand-in names the stand-in device; 10:183 if unreadable. */
static uint64_t kernel_hwrng_rdev(const struct rngd *d)
{
	const char *dir = hwrng_sysfs_dir(d);
	unsigned int maj = HWRNG_KERNEL_DEVICE_MAJOR, min = HWRNG_KERNEL_DEVICE_MINOR;
	char path[4096];
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/dev", dir);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%u:%u", &maj, &min) != 2) {
			maj = HWRNG_KERNEL_DEVICE_MAJOR;
			min = HWRNG_KERNEL_DEVICE_MINOR;
		}
		(void)fclose(f);
	}
	return (uint64_t)makedev(maj, min);
}

/* Not gating the hwrng: put back what an earlier rngd's unclean exit left
 * at 0, which no later rngd would otherwise do. */
static void recover_hwrng_quality(struct rngd *d, const char *who, const char *state_dir)
{
	struct hwrng_quality q;
	int r = hwrng_quality_recover(&q, d->opts.hwrng_sysfs, state_dir);

	if (q.note[0])
		rngd_log(&d->log, LOG_NOTICE, who, "%s", q.note);
	if (r < 0)
		rngd_log(&d->log, LOG_WARNING, who,
			 "the rng_quality record in %s (left by an unclean exit) cannot be acted on: %s", state_dir,
			 strerror(-r));
}

/*
 * An rngd killed without its clean-up (SIGKILL, the OOM killer, a crash)
 * leaves rng_quality at 0: the kernel then credits its hwrng for nobody
 * until the next rngd starts, and if none does (the unit stopped, failed
 * for good, or its package removed) until reboot. The unit's
 * ExecStopPost= runs this at every stop; after a clean exit there is no
 * record and nothing to do.
 */
int rngd_restore_hwrng_quality(const struct rngd_options *o)
{
	const char *state_dir = o->state_dir ? o->state_dir : RNGD_DEFAULT_STATE_DIR;
	struct hwrng_quality q;
	int r;

	/* A configuration that could not be read, and the peers' options'
	 * warnings; not their information lines, at every stop. */
	for (size_t i = 0; i < o->n_notes; i++)
		if (o->notes[i].level <= LOG_WARNING)
			rngd_log_early(o->notes[i].level, "%s", o->notes[i].text);
	r = hwrng_quality_recover(&q, o->hwrng_sysfs, state_dir);
	if (q.note[0])
		rngd_log_early(LOG_NOTICE, "hwrng: %s", q.note);
	if (r < 0) {
		rngd_log_early(LOG_ERR, "hwrng: cannot restore rng_quality from the record in %s: %s", state_dir,
			       strerror(-r));
		return RNGD_EXIT_FAILURE;
	}
	return RNGD_EXIT_OK;
}

/*
 * Only when rngd gates /dev/hwrng for the kernel: a file sink (tests,
 * pipes) must not take the kernel's hwrng credit away, nor may another
 * device read as hwrng (-r /dev/ttyACM0), which would leave the kernel's
 * device credited by nobody. The slot may not be open yet: a /dev/hwrng
 * still to come (retried, or still opening) is gated from its first
 * block, and the device watch zeroes the device that then becomes current.
 */
void rngd_daemon_take_hwrng_quality(struct rngd *d)
{
	struct rngd_slot *hw = hwrng_slot(d);
	const char *state_dir = d->opts.state_dir ? d->opts.state_dir : RNGD_DEFAULT_STATE_DIR;
	const struct rng_source *src;
	const char *who;
	int r;

	/* -t feeds nothing and touches nothing of the kernel's. */
	if (d->opts.test_mode)
		return;
	if (!hw || !d->sink_is_kernel) {
		recover_hwrng_quality(d, "hwrng", state_dir);
		return;
	}
	src = rngd_slot_source(hw);
	who = src->name;
	if (!hwrng_source_reads_kernel_hwrng(src, kernel_hwrng_rdev(d))) {
		rngd_log(&d->log, LOG_INFO, who, "%s is not the kernel's hwrng device: its rng_quality left alone",
			 src->ops->path(src));
		recover_hwrng_quality(d, who, state_dir);
		return;
	}
	if (!d->opts.take_credit) {
		rngd_log(&d->log, LOG_INFO, who, "--no-take-credit: the kernel's rng_quality left alone");
		recover_hwrng_quality(d, who, state_dir);
		return;
	}
	/* Held until hwq_taken says what the stop callback must restore. */
	rngd_daemon_lock(d);
	r = hwrng_quality_take(&d->hwq, d->opts.hwrng_sysfs, state_dir);
	if (r == -EBUSY) {
		rngd_daemon_unlock(d);
		rngd_log(&d->log, LOG_WARNING, who,
			 "another rngd holds the rng_quality record in %s and gates rng_quality: "
			 "this one leaves rng_quality alone", state_dir);
		return;
	}
	if (r < 0) {
		rngd_log(&d->log, LOG_WARNING, who,
			 "cannot set rng_quality to 0 (%s): the kernel may credit the same bytes untested",
			 strerror(-r));
		rngd_daemon_unlock(d);
		return;
	}
	d->hwq_taken = true;
	rngd_daemon_unlock(d);
	rngd_log(&d->log, LOG_NOTICE, who, "%s",
		 d->hwq.note[0] ? d->hwq.note : "rng_quality set to 0 while rngd gates /dev/hwrng");
}

/* Device events for the hwrng source: taken rng_quality follows the
 * current device, and a reader that found no device waits for one. */
int rngd_daemon_watch_hwrng(struct rngd *d)
{
	struct rngd_slot *hw = hwrng_slot(d);

	if (!hw)
		return 0;
	d->hwrng_watch = hwrng_watch_new(&d->log, hw, d->hwq_taken ? &d->hwq : NULL, device_watch_socket(),
					 rngd_now_ms());
	if (!d->hwrng_watch) {
		/* Without it a reader that lost its device would wait for good. */
		rngd_log(&d->log, LOG_ERR, rngd_slot_source(hw)->name, "cannot watch the device: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	rngd_loop_set_hook(d->loop, &hwrng_watch_hook, d->hwrng_watch);
	/* Only /dev/hwrng's fd outlives its device: another device's ENODEV
	 * is for good, and its reader re-opens with back-off. */
	rngd_slot_set_device_events(hw, hwrng_source_follows_device(rngd_slot_source(hw)));
	return 0;
}

/* HRNGSELECT (--defaults-file): written to rng_current before any source
 * opens and before rng_quality is taken, as Debian's init script does. */
void rngd_daemon_select_hwrng(struct rngd *d)
{
	const char *dir = hwrng_sysfs_dir(d);
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
