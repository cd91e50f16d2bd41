/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngd's settings, from the config file (rngd/config.c) and then the
 * command line (rngd/options.c), which overrides it. Parsing never exits
 * and never logs: it returns -EINVAL with one line in err, and main()
 * exits with RNGD_EXIT_USAGE.
 */
#ifndef RNGD_OPTIONS_H
#define RNGD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rngd/defaults.h"

/* Exit codes, documented in rngd(8). */
enum rngd_exit {
	RNGD_EXIT_OK = 0,
	RNGD_EXIT_FAILURE = 1,   /* runtime: no usable source, sink or device error */
	RNGD_EXIT_USAGE = 2,     /* bad option, bad config file line */
	RNGD_EXIT_RUNNING = 3,   /* another rngd holds the pid file */
};

enum rngd_on_fail {
	RNGD_ON_FAIL_DROP,       /* failed blocks are discarded */
	RNGD_ON_FAIL_MIX,        /* failed blocks go to the sink with 0 credit */
};


/* Source selection arguments, kept in the order given (config first). */
enum rngd_source_arg_kind {
	RNGD_SRC_FILE = 'r',     /* -r PATH: one more file source */
	RNGD_SRC_EXCLUDE = 'x',  /* -x NAME */
	RNGD_SRC_INCLUDE = 'n',  /* -n NAME */
	RNGD_SRC_OPTION = 'O',   /* -O NAME:KEY:VALUE */
};

struct rngd_source_arg {
	enum rngd_source_arg_kind kind;
	char *text;
};

/* A line for the log about how a peer's option was taken (rngd/compat.c):
 * parsing never logs, main() logs these once the log is up. */
struct rngd_note {
	int level;                  /* LOG_INFO, LOG_NOTICE or LOG_WARNING */
	char *text;
};

struct rngd_options {
	bool foreground;
	bool list;
	bool version;
	bool help;
	bool test_mode;
	bool quiet;
	bool debug;
	bool take_credit;
	bool restore_hwrng_quality;  /* --restore-hwrng-quality: that only, then exit */
	char *config_path;          /* NULL: RNGD_DEFAULT_CONFIG, missing is fine */
	bool config_read;           /* a config file was read: not missing, not /dev/null */
	char *random_device;        /* sink: character device => kernel, else file, "-" stdout */
	char *pidfile;              /* NULL: RNGD_DEFAULT_PIDFILE in the background only */
	char *user;                 /* -D user[:group], NULL: stay */
	char *stats_file;
	char *hwrng_sysfs;          /* NULL: the kernel's hw_random sysfs folder */
	char *state_dir;            /* NULL: RNGD_DEFAULT_STATE_DIR */
	unsigned int stats_interval_s;
	int watermark_bits;         /* -W, <0: the kernel sink's default */
	unsigned int random_step;   /* bytes per sink write */
	enum rngd_on_fail on_fail;
	unsigned int ready_timeout_ms;
	unsigned int open_wait_ms;     /* 0: as long as an open takes */
	unsigned int quarantine_after;   /* failed blocks in a row; 0: never */
	unsigned int retest_min_ms;
	unsigned int retest_max_ms;
	unsigned int topup_interval_s;
	unsigned int topup_bytes;
	/* The EGD server (rngd/egd_server.h): off unless egd_socket is set. */
	char *egd_socket;
	char *egd_socket_group;     /* NULL: "kvm" if that group exists */
	unsigned int egd_socket_mode;
	unsigned int egd_rate;      /* bytes/s per client, 0: unlimited */
	unsigned int egd_burst;
	unsigned int egd_clients;
	unsigned int egd_prime;     /* bytes pushed to each new client (QEMU) */
	struct rngd_source_arg *source_args;
	size_t n_source_args;
	/* rng-tools compatibility (rngd/compat.c, rngd(8) COMPATIBILITY). */
	double entropy_ceiling;     /* -e N: N/8, a cap on every source's credit; <0: none */
	bool ignorefail;            /* -i: on_fail is mix; noted once */
	bool use_slow_sources;      /* -u: accepted, noted */
	char *option_help;          /* -O SRC alone: print SRC's keys and exit */
	char *hwrng_select;         /* HRNGSELECT: written to rng_current before the take */
	struct rngd_note *notes;
	size_t n_notes;
};

#define RNGD_ERR_MAX 512

/* Format a one-line error into @err for the caller that decides to log it;
 * returns -EINVAL for tail calls. */
int rngd_fail(char err[RNGD_ERR_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void rngd_options_init(struct rngd_options *o);

/* Append a note for main() to log; -ENOMEM. */
int rngd_options_note(struct rngd_options *o, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rngd_options_free(struct rngd_options *o);

/*
 * Set one option by its long name ("rng-device") from the config file
 * (from_config: flags take yes/no) or the command line. -EINVAL with a
 * message in err (without file:line, the caller adds it).
 */
int rngd_options_set(struct rngd_options *o, const char *name, const char *value,
		     bool from_config, char err[RNGD_ERR_MAX]);

/*
 * Parse argv over @o. Returns 0 or -EINVAL with one line in err.
 * Re-entrant (resets getopt); argv is not modified.
 */
int rngd_options_parse_argv(struct rngd_options *o, int argc, char *const argv[],
			    char err[RNGD_ERR_MAX]);

/*
 * Load `key = value` lines from @path over @o. A missing file is an error
 * only when @must_exist. -EINVAL/-errno with "PATH:LINE: why" in err.
 */
int rngd_config_load(struct rngd_options *o, const char *path, bool must_exist,
		     char err[RNGD_ERR_MAX]);

/* defaults, then the config file (-c or the default), then argv; @o is
 * initialised whatever the result, so the caller frees it on failure too. */
int rngd_options_load(struct rngd_options *o, int argc, char *const argv[],
		      char err[RNGD_ERR_MAX]);

/* The --help text. */
void rngd_options_usage(FILE *out);

#endif
