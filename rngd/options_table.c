/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fips/fips.h"
#include "rngd/defaults.h"
#include "rngd/egd_proto.h"
#include "rngd/egd_server.h"
#include "rngd/options.h"
#include "rngd/options_table.h"
#include "sources/source.h"

_Static_assert(RNGD_DEFAULT_RANDOM_STEP == FIPS_BLOCK_BYTES, "the default write size is one FIPS block");

/* Where a bounded number goes: _Generic refuses to compile a field that is
 * not an unsigned int, the only type rngd_options_set() writes there. */
#define OPT_FIELD(f) (offsetof(struct rngd_options, f) + \
		      0 * sizeof(_Generic(((struct rngd_options *)0)->f, unsigned int: 1)))
#define WHOLE(id, f, needs, min, max) { id, OPT_FIELD(f), needs, min, max, false }
#define SECONDS_MS(id, f, min_ms, max_ms) { id, OPT_FIELD(f), "seconds", min_ms, max_ms, true }

/* The settings that are one bounded number. */
static const struct opt_number numbers[] = {
	WHOLE('s', random_step, "a byte count", 1, 65536),
	WHOLE('R', topup_interval_s, "seconds", 1, 86400),
	WHOLE(OPT_STATS_INTERVAL, stats_interval_s, "seconds", 1, 86400),
	SECONDS_MS(OPT_READY_TIMEOUT, ready_timeout_ms, 0, 60000),
	SECONDS_MS(OPT_OPEN_WAIT, open_wait_ms, 0, 3600000),
	WHOLE(OPT_QUARANTINE_AFTER, quarantine_after, "a block count", 0, 1000000),
	SECONDS_MS(OPT_RETEST_AFTER, retest_min_ms, 1, 86400000),
	SECONDS_MS(OPT_RETEST_MAX, retest_max_ms, 1, 86400000),
	WHOLE(OPT_TOPUP_INTERVAL, topup_interval_s, "seconds", 1, 86400),
	WHOLE(OPT_TOPUP_BYTES, topup_bytes, "a byte count", 1, 4096),
	WHOLE(OPT_EGD_RATE, egd_rate, "bytes per second", 0, 1000000000),
	WHOLE(OPT_EGD_BURST, egd_burst, "a byte count", 1, 16777216),
	WHOLE(OPT_EGD_CLIENTS, egd_clients, "a client count", 1, EGD_MAX_CLIENTS),
	WHOLE(OPT_EGD_PRIME, egd_prime, "a byte count", 0, EGD_MAX_PRIME),
};

const struct opt_def rngd_opt_defs[] = {
	{ "foreground", 'f', NULL, WHERE_BOTH, "stay in the foreground, log to stderr" },
	{ "background", 'b', NULL, WHERE_BOTH, "become a daemon (the default)" },
	{ "rng-device", 'r', "PATH", WHERE_BOTH, "a character device: the hwrng source's device; a regular file (read once) or FIFO: a file source" },
	{ "random-device", 'o', "PATH", WHERE_BOTH,
	  "sink: character device => kernel (default " RNGD_DEFAULT_RANDOM_DEVICE "), else a file; - is stdout" },
	{ "exclude", 'x', "NAME", WHERE_BOTH, "disable a source (a source name, an instance name, or all)" },
	{ "include", 'n', "NAME", WHERE_BOTH, "enable a source" },
	{ "list", 'l', NULL, WHERE_CLI, "list the sources compiled in, whether each is usable here and why not" },
	{ "option", 'O', "SRC:KEY:VALUE", WHERE_BOTH,
	  "set a source option (entropy_per_bit, priority, or the source's own keys); -O SRC lists them" },
	{ "fill-watermark", 'W', "BITS", WHERE_BOTH, "kernels before 5.18: keep entropy_avail at BITS" },
	{ "random-step", 's', "BYTES", WHERE_BOTH, "bytes handed to the sink per write (default " RNGD_STR(RNGD_DEFAULT_RANDOM_STEP) ")" },
	{ "pid-file", 'p', "PATH", WHERE_BOTH, "pid file, locked (default " RNGD_DEFAULT_PIDFILE " in the background)" },
	{ "drop-privileges", 'D', "USER[:GROUP]", WHERE_BOTH,
	  "after opening devices run as USER keeping only CAP_SYS_ADMIN" },
	{ "quiet", 'q', NULL, WHERE_BOTH, "log errors only" },
	{ "debug", 'd', NULL, WHERE_BOTH, "log debug messages" },
	{ "version", 'v', NULL, WHERE_CLI, "print the version and exit" },
	{ "test", 't', NULL, WHERE_CLI, "test mode: feed nothing, print each source's passing rate" },
	{ "config", 'c', "FILE", WHERE_CLI, "config file (default " RNGD_DEFAULT_CONFIG ")" },
	{ "help", 'h', NULL, WHERE_CLI, "this help" },
	{ "entropy-count", 'e', "BITS", WHERE_BOTH,
	  "rng-tools: cap every source's credit at BITS/8 per bit (1..8); never raises one" },
	{ "force-reseed", 'R', "SECONDS", WHERE_BOTH, "rng-tools: the same as --topup-interval" },
	{ "ignorefail", 'i', NULL, WHERE_BOTH, "rng-tools: --on-fail=mix (failed blocks are never credited)" },
	{ "use-slow-sources", 'u', NULL, WHERE_BOTH, "rng-tools: accepted; every source has its own thread" },
	{ "compat", OPT_COMPAT, "NAME", WHERE_CLI,
	  "read the command line as rng-tools (default; alias rng-tools6), debian (rng-tools-debian 2.3; "
	  "alias rng-tools-debian) or rng-tools5" },
	{ "defaults-file", OPT_DEFAULTS_FILE, "PATH", WHERE_CLI,
	  "take HRNGDEVICE, RNGDOPTIONS, HRNGSELECT from /etc/default/rng-tools-debian (not executed); "
	  "the rest of the command line is then read as rng-tools-debian's unless --compat says otherwise" },
	{ "on-fail", OPT_ON_FAIL, "drop|mix", WHERE_BOTH,
	  "failed blocks: discard (default), or mix into the sink with 0 credit" },
	{ "stats-file", OPT_STATS_FILE, "PATH", WHERE_BOTH, "write counters in Prometheus text format" },
	{ "stats-interval", OPT_STATS_INTERVAL, "SECONDS", WHERE_BOTH, "how often (default " RNGD_STR(RNGD_DEFAULT_STATS_INTERVAL_S) ")" },
	{ "ready-timeout", OPT_READY_TIMEOUT, "SECONDS", WHERE_BOTH,
	  "tell systemd READY after the first credited block or this long (default " RNGD_STR(RNGD_DEFAULT_READY_TIMEOUT_S) ")" },
	{ "open-wait", OPT_OPEN_WAIT, "SECONDS", WHERE_BOTH,
	  "at start, go on without a source still opening after this long, read once its open returns "
	  "(default " RNGD_STR(RNGD_DEFAULT_OPEN_WAIT_S) "; 0: wait as long as it takes)" },
	{ "no-take-credit", OPT_NO_TAKE_CREDIT, NULL, WHERE_CLI, "leave the kernel's rng_quality alone" },
	{ "take-credit", OPT_TAKE_CREDIT, "yes|no", WHERE_CONFIG, NULL },
	{ "restore-hwrng-quality", OPT_RESTORE_HWRNG_QUALITY, NULL, WHERE_CLI,
	  "put back the rng_quality a killed rngd left at 0 (--state-dir's record), and exit" },
	{ "quarantine-after", OPT_QUARANTINE_AFTER, "BLOCKS", WHERE_BOTH,
	  "quarantine a source after this many failed blocks in a row (default " RNGD_STR(RNGD_DEFAULT_QUARANTINE_AFTER) ", 0: never)" },
	{ "retest-after", OPT_RETEST_AFTER, "SECONDS", WHERE_BOTH,
	  "first re-test of a quarantined source, doubled each failure (default " RNGD_STR(RNGD_DEFAULT_RETEST_AFTER_S) ")" },
	{ "retest-max", OPT_RETEST_MAX, "SECONDS", WHERE_BOTH, "longest re-test back-off (default " RNGD_STR(RNGD_DEFAULT_RETEST_MAX_S) ")" },
	{ "topup-interval", OPT_TOPUP_INTERVAL, "SECONDS", WHERE_BOTH,
	  "kernels 5.18+: top-up period once the pool is ready (default " RNGD_STR(RNGD_DEFAULT_TOPUP_INTERVAL_S) ")" },
	{ "topup-bytes", OPT_TOPUP_BYTES, "BYTES", WHERE_BOTH, "kernels 5.18+: bytes per top-up (default " RNGD_STR(RNGD_DEFAULT_TOPUP_BYTES) ")" },
	{ "hwrng-sysfs", OPT_HWRNG_SYSFS, "DIR", WHERE_BOTH,
	  "where rng_quality and rng_current live (default " RNG_HWRNG_SYSFS_DIR ")" },
	{ "state-dir", OPT_STATE_DIR, "DIR", WHERE_BOTH,
	  "keeps rng_quality's original value and regular files' read offsets across restarts (default "
	  RNGD_DEFAULT_STATE_DIR ")" },
	{ "egd-socket", OPT_EGD_SOCKET, "PATH", WHERE_BOTH,
	  "serve tested bytes to EGD clients (QEMU rng-egd) on this unix socket; -o none: no other sink" },
	{ "egd-socket-mode", OPT_EGD_SOCKET_MODE, "OCTAL", WHERE_BOTH, "the socket's permissions (default " RNGD_STR(RNGD_DEFAULT_EGD_SOCKET_MODE) ")" },
	{ "egd-socket-group", OPT_EGD_SOCKET_GROUP, "GROUP", WHERE_BOTH,
	  "the socket's group (default " RNGD_DEFAULT_EGD_SOCKET_GROUP ", if it exists)" },
	{ "egd-rate", OPT_EGD_RATE, "BYTES/S", WHERE_BOTH, "bytes per second all EGD clients of one uid may take together (default " RNGD_STR(RNGD_DEFAULT_EGD_RATE) ", 0: unlimited)" },
	{ "egd-burst", OPT_EGD_BURST, "BYTES", WHERE_BOTH, "bytes an idle uid's EGD clients may take at once (default " RNGD_STR(RNGD_DEFAULT_EGD_BURST) ")" },
	{ "egd-clients", OPT_EGD_CLIENTS, "N", WHERE_BOTH, "EGD clients connected at once (default " RNGD_STR(RNGD_DEFAULT_EGD_CLIENTS) ")" },
	{ "egd-prime", OPT_EGD_PRIME, "BYTES", WHERE_BOTH,
	  "push this much to each new EGD client unasked: QEMU rng-egd across rngd restarts (default "
	  RNGD_STR(RNGD_DEFAULT_EGD_PRIME) ")" },
};

const size_t rngd_n_opt_defs = sizeof(rngd_opt_defs) / sizeof(rngd_opt_defs[0]);
_Static_assert(sizeof(rngd_opt_defs) / sizeof(rngd_opt_defs[0]) <= RNGD_OPT_DEFS_MAX,
	       "raise RNGD_OPT_DEFS_MAX");

const struct opt_def *rngd_opt_by_name(const char *name)
{
	for (size_t i = 0; i < rngd_n_opt_defs; i++)
		if (strcmp(rngd_opt_defs[i].name, name) == 0)
			return &rngd_opt_defs[i];
	return NULL;
}

const struct opt_number *rngd_opt_number(int id)
{
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (numbers[i].id == id)
			return &numbers[i];
	return NULL;
}

const struct opt_def *rngd_opt_by_id(int id)
{
	for (size_t i = 0; i < rngd_n_opt_defs; i++)
		if (rngd_opt_defs[i].id == id)
			return &rngd_opt_defs[i];
	return NULL;
}

void rngd_options_usage(FILE *out)
{
	fprintf(out, "Usage: rngd [OPTION]...\n"
		"Test entropy sources block by block (FIPS 140-2, SP 800-90B) and feed\n"
		"passing blocks to the kernel or a file with the credit they earned.\n\n");
	for (size_t i = 0; i < rngd_n_opt_defs; i++) {
		const struct opt_def *d = &rngd_opt_defs[i];
		const struct opt_number *num = rngd_opt_number(d->id);
		char left[64];

		if (!(d->where & WHERE_CLI))
			continue;
		if (d->id < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->id, d->name, d->arg ? "=" : "",
				 d->arg ? d->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->name, d->arg ? "=" : "",
				 d->arg ? d->arg : "");
		fprintf(out, "  %-34s %s", left, d->help);
		if (num && num->in_ms)
			fprintf(out, " [%g..%g]", (double)num->min / 1000.0, (double)num->max / 1000.0);
		else if (num)
			fprintf(out, " [%lu..%lu]", num->min, num->max);
		fputc('\n', out);
	}
	fprintf(out, "\nExit status: 0 success, 1 runtime failure, 2 bad option or config line,\n"
		"3 another rngd holds the pid file. See rngd(8) and rngd.conf(5).\n");
}
