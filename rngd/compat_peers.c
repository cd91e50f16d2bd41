/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The peers' option tables (rngd/compat_peers.h): which peer option
 * becomes which of rngd's, and the help that lists them. Tables, not code
 * paths, so rngd(8)'s COMPATIBILITY section and tests/compat/ can be
 * checked against them line by line; rngd/compat.c translates with them.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "rngd/compat.h"
#include "rngd/compat_peers.h"

/* rng-tools-debian 2.3, rngd(8) OPTIONS (tests/compat/compat-peer-options.sh
 * checks every option of the package's own page is here). */
const struct peer_opt rngd_peer_debian_opts[] = {
	{ 'b', "background", false, ACT_FLAG, "background", "rngd --background" },
	{ 'f', "foreground", false, ACT_FLAG, "foreground", "rngd --foreground" },
	{ 'S', "stats-interval", true, ACT_STATS_INTERVAL, NULL, "rngd --stats-interval, seconds" },
	{ 'R', "rng-driver", true, ACT_RNG_DRIVER, NULL, "stream: the -r device; viapadlock: the padlock source, no device read" },
	{ 'o', "random-device", true, ACT_SAME, "random-device", "rngd --random-device" },
	{ 'r', "rng-device", true, ACT_SAME, "rng-device", "rngd --rng-device" },
	{ 0, "hrng", true, ACT_HRNG, NULL, "intelfwh, viakernel: the hwrng source; viapadlock: padlock; help" },
	{ 'H', "rng-entropy", true, ACT_RNG_ENTROPY, NULL, "the credit of the -r device (viapadlock: of padlock), bits per bit" },
	{ 'Q', "rng-quality", true, ACT_QUALITY, NULL, "checked, then noted: nothing to tune here" },
	{ 'B', "rng-buffers", true, ACT_BUFFERS, NULL, "checked, then noted: nothing to tune here" },
	{ 's', "random-step", true, ACT_SAME, "random-step", "rngd --random-step" },
	{ 'W', "fill-watermark", true, ACT_WATERMARK_PCT, NULL, "rngd --fill-watermark, bits or N% of the pool" },
	{ 't', "feed-interval", true, ACT_FEED_INTERVAL, NULL, "rngd --topup-interval, seconds" },
	{ 0, "timeout", true, ACT_FEED_INTERVAL, NULL, "rngd --topup-interval, seconds" },
	{ 'T', "rng-timeout", true, ACT_RNG_TIMEOUT, NULL, "checked, then noted: nothing to tune here" },
	{ 'p', "pidfile", true, ACT_SAME, "pid-file", "rngd --pid-file" },
	{ '?', "help", false, ACT_FLAG, "help", "this list" },
	{ 0, "usage", false, ACT_FLAG, "help", "this list (argp's short usage in the peer)" },
	{ 'V', "version", false, ACT_FLAG, "version", "rngd --version" },
	{ 0, NULL, false, ACT_SAME, NULL, NULL },
};

/* rng-tools5 5-4.1, rngd(8) OPTIONS; -e and -i are in its parser too. */
const struct peer_opt rngd_peer_rng_tools5_opts[] = {
	{ 'b', "background", false, ACT_FLAG, "background", "rngd --background" },
	{ 'f', "foreground", false, ACT_FLAG, "foreground", "rngd --foreground" },
	{ 'p', "pid-file", true, ACT_SAME, "pid-file", "rngd --pid-file" },
	{ 'o', "random-device", true, ACT_SAME, "random-device", "rngd --random-device" },
	{ 'r', "rng-device", true, ACT_SAME, "rng-device", "rngd --rng-device" },
	{ 's', "random-step", true, ACT_SAME, "random-step", "rngd --random-step" },
	{ 'W', "fill-watermark", true, ACT_SAME, "fill-watermark", "rngd --fill-watermark, bits" },
	{ 'd', "no-drng", true, ACT_NO_SOURCE, "rdrand", "1: rngd -x rdrand; 0: it runs" },
	{ 'n', "no-tpm", true, ACT_NO_SOURCE, "tpm", "1: rngd -x tpm, and -x tpm2 where built; 0: they run" },
	{ 'e', "entropy-count", true, ACT_SAME, "entropy-count", "rngd --entropy-count" },
	{ 'i', "ignorefail", false, ACT_FLAG, "ignorefail", "rngd --ignorefail" },
	{ 'q', "quiet", false, ACT_FLAG, "quiet", "rngd --quiet" },
	{ 'v', "verbose", false, ACT_FLAG, "list", "rngd --list: the sources and why each runs or not; exits" },
	{ '?', "help", false, ACT_FLAG, "help", "this list" },
	{ 0, "usage", false, ACT_FLAG, "help", "this list (argp's short usage in the peer)" },
	{ 'V', "version", false, ACT_FLAG, "version", "rngd --version" },
	{ 0, NULL, false, ACT_SAME, NULL, NULL },
};

/* rng-tools 6.17 spellings that rngd's own table does not have. */
const struct rngd_peer_word rngd_peer_rng_tools_words[RNGD_PEER_RNG_TOOLS_WORDS] = {
	{ "-?", "--help" },
	/* argp's short usage line; the help is what a script gets here. */
	{ "--usage", "--help" },
	{ "-V", "--version" },
	{ "--force_reseed", "--force-reseed" },
};

/* debian --hrng=NAME: the peer's "known-good defaults" for a device. Its
 * entropy defaults are not taken (a peer's default credit never applies). */
const struct rngd_peer_hrng rngd_peer_hrngs[RNGD_PEER_HRNGS] = {
	{ "intelfwh", "stream", "Intel FWH (82802AB/AC) RNG through the kernel's /dev/hwrng" },
	{ "viakernel", "stream", "VIA RNG through the kernel's /dev/hwrng" },
	{ "viapadlock", "viapadlock", "VIA PadLock RNG read with XSTORE (rngd's padlock source)" },
};

static void print_peer_help(FILE *out, const char *prog, const char *peer, const struct peer_opt *table)
{
	const char *slash = strrchr(prog, '/');

	/* The name alone, as argp's usage line (the peers') has it. */
	if (slash)
		prog = slash + 1;
	fprintf(out, "Usage: %s [OPTION]...\n"
		"Options are read as %s's and become rngd's own (rngd(8) COMPATIBILITY):\n", prog, peer);
	for (const struct peer_opt *p = table; p->long_name; p++) {
		char opt[48];

		if (p->short_name)
			(void)snprintf(opt, sizeof(opt), "-%c, --%s%s", p->short_name, p->long_name,
				       p->has_arg ? "=VALUE" : "");
		else
			(void)snprintf(opt, sizeof(opt), "    --%s%s", p->long_name, p->has_arg ? "=VALUE" : "");
		fprintf(out, "  %-28s %s\n", opt, p->help);
	}
	fprintf(out, "Any other long option is rngd's own: rngd --help lists them.\n");
}

void rngd_compat_print(FILE *out, int what, const char *prog)
{
	if (what == RNGD_COMPAT_PRINT_DEBIAN_HELP) {
		print_peer_help(out, prog, "rng-tools-debian 2.3", rngd_peer_debian_opts);
	} else if (what == RNGD_COMPAT_PRINT_RNG_TOOLS5_HELP) {
		print_peer_help(out, prog, "rng-tools5 5-4.1", rngd_peer_rng_tools5_opts);
	} else {
		fprintf(out, "rng-tools-debian --hrng names, as this rngd takes them:\n");
		for (size_t i = 0; i < RNGD_PEER_HRNGS; i++)
			fprintf(out, "  %-11s %s\n", rngd_peer_hrngs[i].name, rngd_peer_hrngs[i].what);
	}
}
