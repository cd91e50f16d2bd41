/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sink rngd writes to (-o): the kernel's random device, a file, a
 * FIFO, standard output, or none. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "rngd/daemon.h"
#include "rngd/defaults.h"
#include "rngd/file_kind.h"
#include "rngd/sink_null.h"

const char *rngd_daemon_sink_path(const struct rngd_options *o)
{
	return o->random_device ? o->random_device : RNGD_DEFAULT_RANDOM_DEVICE;
}

bool rngd_daemon_sink_is_none(const struct rngd_options *o)
{
	return o->random_device && strcmp(o->random_device, "none") == 0;
}

bool rngd_daemon_sink_is_kernel(const struct rngd_options *o)
{
	const char *path = rngd_daemon_sink_path(o);
	struct stat st;

	return !o->test_mode && stat(path, &st) == 0 && S_ISCHR(st.st_mode) && file_kind_is_random_device(&st);
}

int rngd_daemon_open_sink(struct rngd *d)
{
	const char *path = rngd_daemon_sink_path(&d->opts);
	struct stat st;
	int r;

	if (d->opts.test_mode) {
		rng_sink_null_open(&d->sink);
		d->sink_open = true;
		return 0;
	}
	if (rngd_daemon_sink_is_none(&d->opts)) {
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
	rngd_daemon_lock(d);
	d->sink_open = true;
	rngd_daemon_unlock(d);
	if (d->sink_is_kernel) {
		char how[160];

		rngd_log(&d->log, LOG_INFO, "rngd", "feeding the kernel sink %s: %s", path,
			 rng_sink_kernel_describe(&d->sink, how, sizeof(how)));
	} else {
		rngd_log(&d->log, LOG_INFO, "rngd", "feeding the file sink %s", path);
	}
	return 0;
}
