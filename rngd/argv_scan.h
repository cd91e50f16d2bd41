/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line, one option at a time, as getopt_long with "+:" reads
 * it: short options (clustered "-fq", value attached "-nhwrng" or next
 * "-n hwrng"), long options ("--name=value", "--name value", a unique
 * prefix of a name), "--" ends the options, and the first operand stops
 * the scan.
 *
 * Why not getopt_long: it is the only function rngd uses in its 64 kB of
 * libc, and libc's pages count in rngd's resident size as whole 64 kB
 * fault-around windows (tests/integration/idle-memory.sh). It
 * also keeps its state in globals (optind, optarg), re-initialised by a
 * glibc-only optind = 0; the scan's state here is the caller's.
 */
#ifndef RNGD_ARGV_SCAN_H
#define RNGD_ARGV_SCAN_H

#include <stdbool.h>
#include <stddef.h>

struct argv_opt {
	const char *name;       /* long name, without "--" */
	int id;                 /* > 0; below 256 it is also the short option letter */
	bool has_value;
};

struct argv_scan {
	int argc;
	char *const *argv;
	int next;               /* argv index of the next word */
	const char *cluster;    /* rest of a short-option cluster, or NULL */
	/* The outcome of the last call: */
	const char *value;      /* the option's value */
	const char *word;       /* the argv word it came from */
	const struct argv_opt *opt;   /* the option (also for ARGV_NEEDS_VALUE, ARGV_NO_VALUE) */
	char letter;            /* the short option letter, or 0 for a long one */
};

enum argv_scan_result {
	ARGV_END = 0,           /* no more options: s->next is the first operand, if any */
	ARGV_UNKNOWN = -1,      /* s->word; s->letter for a short one */
	ARGV_NEEDS_VALUE = -2,  /* s->opt, s->letter */
	ARGV_NO_VALUE = -3,     /* "--name=value" for an option without a value: s->opt */
	ARGV_AMBIGUOUS = -4,    /* a prefix of several long names: s->word */
};

void argv_scan_init(struct argv_scan *s, int argc, char *const argv[]);

/* The next option's id (> 0), or an enum argv_scan_result. */
int argv_scan_next(struct argv_scan *s, const struct argv_opt *opts, size_t n_opts);

#endif
