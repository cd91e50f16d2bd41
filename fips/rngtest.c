/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rngtest: run the gate (fips/fips.h) over standard input and report what
 * it found, as a drop-in for rng-tools' rngtest: the same options, the same
 * stderr lines and the same exit codes, plus the repeated-block test and,
 * with --sp800-90b, the SP 800-90B health tests.
 *
 * Sections:
 *   1. options      parse the command line into struct options
 *   2. input/output read() and write() loops (EINTR, EAGAIN, short counts)
 *   3. statistics   the peer's report lines
 *   4. the test run seed, read in chunks, test whole blocks, pipe good ones
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fips/fips.h"
#include "fips/rngtest_stats.h"

#define PROGNAME "rngtest"
#define LOG_PREFIX PROGNAME ": "

/* rng-tools' exit codes (its exits.h), which scripts test for. */
enum rngtest_exit {
	RNGTEST_EXIT_PASS = 0,    /* every block passed */
	RNGTEST_EXIT_FAIL = 1,    /* a block failed, or no block was tested */
	RNGTEST_EXIT_USAGE = 10,
	RNGTEST_EXIT_IO = 11,
	RNGTEST_EXIT_OS = 12,
};

/*
 * One read() asks for up to this many blocks: few enough system calls that
 * reading costs less than testing, little enough memory to stay in L2.
 */
#define READ_CHUNK_BLOCKS 64
#define READ_CHUNK_BYTES (READ_CHUNK_BLOCKS * FIPS_BLOCK_BYTES)
#define NS_PER_SEC UINT64_C(1000000000)

/*
 * Set by the SIGINT/SIGTERM handler, read by the loops. A signal handler
 * can reach nothing but a static object, so this one flag is the program's
 * only mutable static state.
 */
static volatile sig_atomic_t stop_signal;

/* ==== 1. options ==================================================== */

struct options {
	uint64_t blockcount;      /* 0: until end of input */
	uint64_t blockstats;      /* 0: no periodic report */
	uint64_t timedstats_s;    /* 0: no periodic report */
	bool pipe;
	struct fips_gate_config gate;
};

enum long_only_option {
	OPT_USAGE = 256,
	OPT_SP800_90B,
	OPT_SP800_90B_ENTROPY,
	OPT_SP800_90B_SAMPLE_BITS,
	OPT_SP800_90B_ALPHA,
};

static const struct option long_options[] = {
	{ "blockcount", required_argument, NULL, 'c' },
	{ "blockstats", required_argument, NULL, 'b' },
	{ "timedstats", required_argument, NULL, 't' },
	{ "pipe", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ "usage", no_argument, NULL, OPT_USAGE },
	{ "version", no_argument, NULL, 'V' },
	{ "sp800-90b", no_argument, NULL, OPT_SP800_90B },
	{ "sp800-90b-entropy", required_argument, NULL, OPT_SP800_90B_ENTROPY },
	{ "sp800-90b-sample-bits", required_argument, NULL, OPT_SP800_90B_SAMPLE_BITS },
	{ "sp800-90b-alpha", required_argument, NULL, OPT_SP800_90B_ALPHA },
	{ NULL, 0, NULL, 0 },
};

static void print_help(FILE *out)
{
	fputs("Usage: " PROGNAME " [OPTION...]\n"
	      "Check the randomness of data using FIPS 140-2 RNG tests.\n\n"
	      "  -b, --blockstats=n         Dump statistics every n blocks (default: 0)\n"
	      "  -c, --blockcount=n         Exit after processing n blocks (default: 0)\n"
	      "  -p, --pipe                 Enable pipe mode: work silently, and echo to\n"
	      "                             stdout all good blocks\n"
	      "  -t, --timedstats=n         Dump statistics every n seconds (default: 0)\n"
	      "      --sp800-90b            Also run the SP 800-90B repetition count and\n"
	      "                             adaptive proportion tests\n"
	      "      --sp800-90b-entropy=H  Claimed min-entropy per sample (default: 6)\n"
	      "      --sp800-90b-sample-bits=N  Sample size, 1 or 8 bits (default: 8)\n"
	      "      --sp800-90b-alpha=L    False-positive rate 2^L (default: -30)\n"
	      "  -h, -?, --help             Give this help list\n"
	      "      --usage                Give a short usage message\n"
	      "  -V, --version              Print program version\n\n"
	      "FIPS tests operate on 20000-bit blocks.  Data is read from stdin.  Statistics\n"
	      "and messages are sent to stderr.\n\n"
	      "Exit status: 0 if every block passed, 1 if a block failed or none was\n"
	      "tested, 10 for bad options, 11 for an input/output error, 12 for an\n"
	      "operating system error.\n", out);
}

static void print_usage(FILE *out)
{
	fputs("Usage: " PROGNAME " [-p?hV] [-b n] [-c n] [-t n] [--blockstats=n]\n"
	      "            [--blockcount=n] [--pipe] [--timedstats=n] [--sp800-90b]\n"
	      "            [--sp800-90b-entropy=H] [--sp800-90b-sample-bits=1|8]\n"
	      "            [--sp800-90b-alpha=L] [--help] [--usage] [--version]\n",
	      out);
}

static void print_version(FILE *out)
{
	fputs(PROGNAME " (" PACKAGE_NAME ") " PACKAGE_VERSION "\n"
	      "This is free software; see the source for copying conditions.  There is NO\n"
	      "warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n",
	      out);
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(LOG_PREFIX, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROGNAME " --help' for more information.\n", stderr);
	return -EINVAL;
}

/* A decimal count, digits only: the peer rejects signs, hex and trailing junk. */
static int parse_count(const char *arg, uint64_t *out)
{
	uint64_t v = 0;
	const char *p;

	if (*arg == '\0')
		return -EINVAL;
	for (p = arg; *p; p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (digit > 9 || v > (UINT64_MAX - digit) / 10)
			return -EINVAL;
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

static int parse_real(const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end != '\0' || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Whether all that was printed reached standard output; if not, one line. */
static bool stdout_written(void)
{
	int err = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;

	if (err)
		fprintf(stderr, LOG_PREFIX "error writing to output: %s\n", strerror(err));
	return !err;
}

/*
 * Returns 1 to go on, 0 after --help/--usage/--version (exit 0), or
 * -EINVAL after printing why the command line is wrong.
 */
static int parse_options(int argc, char **argv, struct options *opt)
{
	double real;
	uint64_t n;
	int c;

	memset(opt, 0, sizeof(*opt));
	fips_gate_config_default(&opt->gate);
	opt->gate.sp800_90b = false;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:c:t:phV", long_options, NULL)) != -1) {
		switch (c) {
		case 'b':
		case 'c':
		case 't':
			if (parse_count(optarg, &n) < 0)
				return usage_error("invalid number '%s': expected a decimal count",
						   optarg);
			if (c == 'b')
				opt->blockstats = n;
			else if (c == 'c')
				opt->blockcount = n;
			else
				opt->timedstats_s = n;
			break;
		case 'p':
			opt->pipe = true;
			break;
		case 'h':
			print_help(stdout);
			return 0;
		case '?':
			/* -? is help, as in the peer; getopt reports it as unknown. */
			if (optopt == '?') {
				print_help(stdout);
				return 0;
			}
			if (optopt == 0 || strncmp(argv[optind - 1], "--", 2) == 0)
				return usage_error("unrecognized, ambiguous or malformed option '%s'",
						   argv[optind - 1]);
			return usage_error("invalid option -- '%c'", optopt);
		case ':':
			return usage_error("option '%s' requires an argument",
					   argv[optind - 1]);
		case OPT_USAGE:
			print_usage(stdout);
			return 0;
		case 'V':
			print_version(stdout);
			return 0;
		case OPT_SP800_90B:
			opt->gate.sp800_90b = true;
			break;
		case OPT_SP800_90B_ENTROPY:
			if (parse_real(optarg, &real) < 0 || real <= 0.0)
				return usage_error("invalid min-entropy '%s': expected a number > 0",
						   optarg);
			opt->gate.min_entropy = real;
			opt->gate.sp800_90b = true;
			break;
		case OPT_SP800_90B_SAMPLE_BITS:
			if (parse_count(optarg, &n) < 0 || (n != 1 && n != 8))
				return usage_error("invalid sample size '%s': expected 1 or 8",
						   optarg);
			opt->gate.sample_bits = (unsigned int)n;
			opt->gate.sp800_90b = true;
			break;
		case OPT_SP800_90B_ALPHA:
			/* Above -1 (a false positive at least every other
			 * block) the cut-offs fail random data. */
			if (parse_real(optarg, &real) < 0 || real > -1.0 || real < SP800_90B_ALPHA_LOG2_MIN)
				return usage_error("invalid alpha exponent '%s': expected a number from %.0f to -1, such as -30",
						   optarg, SP800_90B_ALPHA_LOG2_MIN);
			opt->gate.alpha_log2 = real;
			opt->gate.sp800_90b = true;
			break;
		default:
			return usage_error("unexpected option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s': input is read from stdin",
				   argv[optind]);
	if (opt->gate.sp800_90b && opt->gate.min_entropy > opt->gate.sample_bits)
		return usage_error("min-entropy %g exceeds the %u bits of a sample",
				   opt->gate.min_entropy, opt->gate.sample_bits);
	return 1;
}

/* ==== 2. input/output =============================================== */

/* Wait for a non-blocking descriptor; a signal just returns early. */
static void wait_ready(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	(void)poll(&pfd, 1, -1);
}

/*
 * One read(): bytes read, 0 at end of input, -EINTR when a stop signal
 * arrived, or another negative errno.
 */
static ssize_t read_some(int fd, uint8_t *buf, size_t len)
{
	for (;;) {
		ssize_t r = read(fd, buf, len);

		if (r >= 0)
			return r;
		if (errno == EINTR) {
			if (stop_signal)
				return -EINTR;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			wait_ready(fd, POLLIN);
			if (stop_signal)
				return -EINTR;
		} else {
			return -errno;
		}
	}
}

/* Fill @buf completely: @len, or fewer at end of input, or negative errno. */
static ssize_t read_full(int fd, uint8_t *buf, size_t len, uint64_t *counted)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read_some(fd, buf + got, len - got);

		if (r < 0)
			return r;
		if (r == 0)
			break;
		got += (size_t)r;
		*counted += (uint64_t)r;
	}
	return (ssize_t)got;
}

/*
 * Write all of @buf: 0 or a negative errno; -EINTR once a stop signal
 * came. One block a write: a pipe takes a write of up to PIPE_BUF bytes
 * whole or not at all, so a signal that interrupts a reader-stalled pipe
 * leaves whole blocks behind, and is seen at once rather than after the
 * rest of a large write blocked again (as the peer, whose writes are one
 * block each).
 */
static int write_full(int fd, const uint8_t *buf, size_t len, uint64_t *counted)
{
	_Static_assert(FIPS_BLOCK_BYTES <= PIPE_BUF, "a block must fit one atomic pipe write");
	while (len > 0) {
		ssize_t r;

		if (stop_signal)
			return -EINTR;
		r = write(fd, buf, len < FIPS_BLOCK_BYTES ? len : FIPS_BLOCK_BYTES);

		if (r < 0) {
			if (errno == EINTR) {
				if (stop_signal)
					return -EINTR;
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				wait_ready(fd, POLLOUT);
				if (stop_signal)
					return -EINTR;
				continue;
			}
			return -errno;
		}
		if (r == 0)
			return -EIO;
		buf += r;
		len -= (size_t)r;
		*counted += (uint64_t)r;
	}
	return 0;
}

/* ==== 3. statistics ================================================= */

struct run {
	struct options opt;
	struct fips_gate gate;
	uint64_t bytes_received;
	uint64_t bytes_sent;
	uint64_t blocks_done;
	uint64_t blocks_since_report;
	uint64_t start_ns;
	uint64_t last_report_ns;
	struct rngtest_bw_stat input_speed;
	struct rngtest_bw_stat test_speed;
	struct rngtest_bw_stat output_speed;
	int status;               /* an error exit code, or RNGTEST_EXIT_PASS */
	bool done;
	bool output_stopped;      /* a stop signal cut a write short */
};

/* The peer's names, in the order of enum fips_test. */
static const char *const fips140_line_names[] = {
	[FIPS_TEST_MONOBIT] = "FIPS 140-2(2001-10-10) Monobit",
	[FIPS_TEST_POKER] = "FIPS 140-2(2001-10-10) Poker",
	[FIPS_TEST_RUNS] = "FIPS 140-2(2001-10-10) Runs",
	[FIPS_TEST_LONG_RUN] = "FIPS 140-2(2001-10-10) Long run",
	[FIPS_TEST_CONTINUOUS] = "FIPS 140-2(2001-10-10) Continuous run",
};

static void report_count(const char *label, uint64_t value)
{
	fprintf(stderr, LOG_PREFIX "%s: %" PRIu64 "\n", label, value);
}

static void report_speed(const char *label, const struct rngtest_bw_stat *s)
{
	char line[256];

	rngtest_bw_format(line, sizeof(line), LOG_PREFIX, label, s);
	fprintf(stderr, "%s\n", line);
}

/*
 * @buffered: bytes read ahead but not tested yet. The peer reads one block
 * at a time, so a report between blocks counts only what was tested.
 */
static void report_stats(const struct run *run, size_t buffered)
{
	const struct fips_counters *c = &run->gate.counters;
	char label[96];
	size_t t;

	report_count("bits received from input", (run->bytes_received - buffered) * 8);
	if (run->opt.pipe)
		report_count("bits sent to output", run->bytes_sent * 8);
	report_count("FIPS 140-2 successes", c->passed);
	report_count("FIPS 140-2 failures", c->failed);
	for (t = 0; t < sizeof(fips140_line_names) / sizeof(fips140_line_names[0]); t++)
		report_count(fips140_line_names[t], c->failures[t]);
	snprintf(label, sizeof(label), "Repeated block (last %d)", FIPS_REPEAT_HISTORY);
	report_count(label, c->failures[FIPS_TEST_REPEAT_BLOCK]);
	if (run->opt.gate.sp800_90b) {
		snprintf(label, sizeof(label), "SP 800-90B Repetition count (C=%d)",
			 run->gate.rct_cutoff);
		report_count(label, c->failures[FIPS_TEST_SP800_RCT]);
		snprintf(label, sizeof(label), "SP 800-90B Adaptive proportion (W=%u; C=%d)",
			 sp800_90b_apt_window(run->opt.gate.sample_bits),
			 run->gate.apt_cutoff);
		report_count(label, c->failures[FIPS_TEST_SP800_APT]);
	}
	report_speed("input channel speed", &run->input_speed);
	report_speed("FIPS tests speed", &run->test_speed);
	if (run->opt.pipe)
		report_speed("output channel speed", &run->output_speed);
	fprintf(stderr, LOG_PREFIX "Program run time: %" PRIu64 " microseconds\n",
		(rngtest_now_ns() - run->start_ns) / 1000);
}

/* ==== 4. the test run =============================================== */

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static int install_signal_handlers(void)
{
	static const int signals[] = { SIGINT, SIGTERM };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked read() must return so the report comes out. */
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		if (sigaction(signals[i], &sa, NULL) < 0) {
			int err = errno;

			fprintf(stderr, LOG_PREFIX "unable to install handler for %s: %s\n",
				strsignal(signals[i]), strerror(err));
			return -err;
		}
	}
	return 0;
}

static void fail_io(struct run *run, const char *what, int err)
{
	fprintf(stderr, LOG_PREFIX "error %s: %s\n", what, strerror(-err));
	run->status = RNGTEST_EXIT_IO;
	run->done = true;
}

/* Send the passing blocks in [from, to) to stdout as one write. */
static void send_good(struct run *run, const uint8_t *from, const uint8_t *to)
{
	uint64_t t0, sent = 0;
	int r;

	if (from == to || run->status || run->output_stopped)
		return;
	t0 = rngtest_now_ns();
	r = write_full(STDOUT_FILENO, from, (size_t)(to - from), &sent);
	run->bytes_sent += sent;
	if (r == -EINTR) {
		/* Nothing more may follow a block cut short. */
		run->output_stopped = true;
		run->done = true;
		return;
	}
	if (r < 0) {
		fail_io(run, "writing to output", r);
		return;
	}
	rngtest_bw_add(&run->output_speed, sent * 8, rngtest_now_ns() - t0);
}

static bool report_due(struct run *run, uint64_t now_ns)
{
	const struct options *o = &run->opt;

	if (o->blockstats && ++run->blocks_since_report >= o->blockstats)
		return true;
	/* Divided, not multiplied: -t takes any 64-bit count of seconds. */
	return o->timedstats_s &&
	       (now_ns - run->last_report_ns) / NS_PER_SEC >= o->timedstats_s;
}

/*
 * Test every whole block in @buf[0, @len) and return the bytes consumed.
 * Consecutive passing blocks are sent together (send_good()).
 */
static size_t test_blocks(struct run *run, const uint8_t *buf, size_t len)
{
	const uint8_t *good_from = buf;
	size_t off;

	for (off = 0; off + FIPS_BLOCK_BYTES <= len && !run->done; off += FIPS_BLOCK_BYTES) {
		const uint8_t *block = buf + off;
		uint64_t t0 = rngtest_now_ns(), t1;
		unsigned int failed = fips_gate_check(&run->gate, block);

		t1 = rngtest_now_ns();
		rngtest_bw_add(&run->test_speed, FIPS_BLOCK_BITS, t1 - t0);
		if (failed) {
			if (run->opt.pipe)
				send_good(run, good_from, block);
			good_from = block + FIPS_BLOCK_BYTES;
		}
		if (run->opt.blockcount && ++run->blocks_done >= run->opt.blockcount) {
			run->done = true;
		} else if (report_due(run, t1)) {
			if (run->opt.pipe)
				send_good(run, good_from, block + FIPS_BLOCK_BYTES);
			good_from = block + FIPS_BLOCK_BYTES;
			report_stats(run, len - off - FIPS_BLOCK_BYTES);
			run->last_report_ns = rngtest_now_ns();
			run->blocks_since_report = 0;
		}
	}
	if (run->opt.pipe)
		send_good(run, good_from, buf + off);
	return off;
}

/* How many bytes the next read may ask for without passing -c's end. */
static size_t read_budget(const struct run *run, size_t have)
{
	uint64_t blocks_left;

	if (!run->opt.blockcount)
		return READ_CHUNK_BYTES - have;
	blocks_left = run->opt.blockcount - run->blocks_done;
	if (blocks_left >= READ_CHUNK_BLOCKS)
		return READ_CHUNK_BYTES - have;
	return (size_t)blocks_left * FIPS_BLOCK_BYTES - have;
}

static void test_stream(struct run *run, uint8_t *buf)
{
	size_t have = 0;

	while (!run->done && !stop_signal) {
		uint64_t t0 = rngtest_now_ns();
		ssize_t r = read_some(STDIN_FILENO, buf + have, read_budget(run, have));
		size_t used;

		if (r == -EINTR)
			break;
		if (r < 0) {
			fail_io(run, "reading input", (int)r);
			break;
		}
		if (r == 0) {
			if (!run->opt.pipe)
				fprintf(stderr, LOG_PREFIX "entropy source exhausted!\n");
			break;
		}
		rngtest_bw_add(&run->input_speed, (uint64_t)r * 8, rngtest_now_ns() - t0);
		run->bytes_received += (uint64_t)r;
		have += (size_t)r;
		used = test_blocks(run, buf, have);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
}

/*
 * Like the peer: in pipe mode the first 32 bits are thrown away as possibly
 * stale generator state; the next 32 bits seed the continuous test.
 * Returns 0, or an exit code when the input ends or fails first.
 */
static int read_seed(struct run *run, uint8_t seed[FIPS_SEED_BYTES])
{
	int round;

	for (round = run->opt.pipe ? 0 : 1; round < 2; round++) {
		ssize_t r = read_full(STDIN_FILENO, seed, FIPS_SEED_BYTES,
				      &run->bytes_received);

		if (r == -EINTR)
			return RNGTEST_EXIT_FAIL;
		if (r < 0) {
			fprintf(stderr, LOG_PREFIX "error reading input: %s\n",
				strerror((int)-r));
			return RNGTEST_EXIT_IO;
		}
		if (r < FIPS_SEED_BYTES) {
			if (!run->opt.pipe)
				fprintf(stderr, LOG_PREFIX "entropy source exhausted!\n");
			return RNGTEST_EXIT_FAIL;
		}
	}
	return 0;
}

static int setup_gate(struct run *run)
{
	int r = fips_gate_init(&run->gate, &run->opt.gate);

	if (r == -EINVAL) {
		fprintf(stderr, LOG_PREFIX "invalid SP 800-90B parameters: H=%g per %u-bit sample, alpha=2^%g\n",
			run->opt.gate.min_entropy, run->opt.gate.sample_bits,
			run->opt.gate.alpha_log2);
		return RNGTEST_EXIT_USAGE;
	}
	if (r < 0) {
		fprintf(stderr, LOG_PREFIX "cannot set up the tests: %s\n", strerror(-r));
		return RNGTEST_EXIT_OS;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t seed[FIPS_SEED_BYTES];
	struct run run;
	uint8_t *buf;
	int r;

	memset(&run, 0, sizeof(run));
	run.start_ns = rngtest_now_ns();
	r = parse_options(argc, argv, &run.opt);
	if (r < 0)
		return RNGTEST_EXIT_USAGE;
	if (r == 0)   /* --help, --usage, --version: printed, if stdout took it */
		return stdout_written() ? RNGTEST_EXIT_PASS : RNGTEST_EXIT_IO;
	if (install_signal_handlers() < 0)
		return RNGTEST_EXIT_OS;
	r = setup_gate(&run);
	if (r)
		return r;
	/* 64-byte alignment lets the gate's word loads start on cache lines. */
	buf = aligned_alloc(64, READ_CHUNK_BYTES);
	if (!buf) {
		fprintf(stderr, LOG_PREFIX "cannot allocate the input buffer: %s\n",
			strerror(ENOMEM));
		fips_gate_destroy(&run.gate);
		return RNGTEST_EXIT_OS;
	}

	if (!run.opt.pipe) {
		print_version(stderr);
		fprintf(stderr, "\n" LOG_PREFIX "starting FIPS tests...\n");
		if (run.opt.gate.sp800_90b)
			fprintf(stderr, LOG_PREFIX "SP 800-90B: %u-bit samples, H=%g, alpha=2^%g, RCT C=%d, APT W=%u C=%d\n",
				run.opt.gate.sample_bits, run.opt.gate.min_entropy,
				run.opt.gate.alpha_log2, run.gate.rct_cutoff,
				sp800_90b_apt_window(run.opt.gate.sample_bits),
				run.gate.apt_cutoff);
	}

	r = read_seed(&run, seed);
	if (r == 0) {
		fips_gate_seed(&run.gate, seed);
		run.last_report_ns = rngtest_now_ns();
		test_stream(&run, buf);
		report_stats(&run, 0);
		r = run.status;
		if (r == RNGTEST_EXIT_PASS &&
		    (run.gate.counters.failed || !run.gate.counters.passed))
			r = RNGTEST_EXIT_FAIL;
	}
	free(buf);
	fips_gate_destroy(&run.gate);
	return r;
}
