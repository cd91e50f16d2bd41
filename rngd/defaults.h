/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every built-in default of a setting the user can change, in one place:
 * rngd_options_init(), the sinks and the EGD server take their values from
 * here, and --help prints the same macros (RNGD_STR) instead of a retyped
 * number, so the help cannot drift from what rngd does.
 */
#ifndef RNGD_DEFAULTS_H
#define RNGD_DEFAULTS_H

#define RNGD_STR_(x) #x
#define RNGD_STR(x) RNGD_STR_(x)

#define RNGD_DEFAULT_CONFIG "/etc/rngd.conf"
#define RNGD_DEFAULT_RANDOM_DEVICE "/dev/random"
#define RNGD_DEFAULT_PIDFILE "/run/rngd.pid"
/* Holds the rng_quality record (rngd/hwrng_quality.h); tmpfs on purpose. */
#define RNGD_DEFAULT_STATE_DIR "/run/rngd"

/* rng-tools' default write size: one FIPS block. A literal so that --help
 * prints it (RNGD_STR); rngd/options_table.c asserts it is the block. */
#define RNGD_DEFAULT_RANDOM_STEP 2500
#define RNGD_DEFAULT_STATS_INTERVAL_S 60
#define RNGD_DEFAULT_READY_TIMEOUT_S 5
/* --open-wait: a source's probe and open at start; rngd goes on without
 * one that takes longer, whose reader takes the open over
 * (rngd/start_open.c). */
#define RNGD_DEFAULT_OPEN_WAIT_S 5
/* A source whose one call has given nothing for this long shows as
 * "waiting" (status, stats): a TPM 1.2 answers 64 bytes in 1.5-4 s. */
#define RNGD_READ_QUIET_MS 60000
#define RNGD_DEFAULT_QUARANTINE_AFTER 3
#define RNGD_DEFAULT_RETEST_AFTER_S 1
#define RNGD_DEFAULT_RETEST_MAX_S 3600

/* Kernels 5.18+: once the pool is ready, 64 bytes a minute keep the
 * kernel reseeding from tested input without waking rngd more often. */
#define RNGD_DEFAULT_TOPUP_INTERVAL_S 60
#define RNGD_DEFAULT_TOPUP_BYTES 64

#define RNGD_DEFAULT_EGD_SOCKET_MODE 0660
/* The group QEMU runs as on Debian and Fedora; used when it exists. */
#define RNGD_DEFAULT_EGD_SOCKET_GROUP "kvm"
#define RNGD_DEFAULT_EGD_RATE 16384
#define RNGD_DEFAULT_EGD_BURST 16384
#define RNGD_DEFAULT_EGD_CLIENTS 64
#define RNGD_DEFAULT_EGD_PRIME 0

#endif
