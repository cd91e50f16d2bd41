/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peers' option tables, shared by the translation (rngd/compat.c) and
 * the peers' help (rngd/compat_peers.c); nothing else includes it. */
#ifndef RNGD_COMPAT_PEERS_H
#define RNGD_COMPAT_PEERS_H

#include <stdbool.h>

/* What a peer option becomes. */
enum peer_action {
	ACT_SAME,            /* rngd's option of the name in `native`, value as given */
	ACT_FLAG,            /* rngd's flag in `native` */
	ACT_RNG_DRIVER,      /* debian -R: stream or viapadlock */
	ACT_HRNG,            /* debian --hrng=NAME */
	ACT_RNG_ENTROPY,     /* debian -H: the rng device's source's credit */
	ACT_QUALITY,         /* debian -Q: checked, noted */
	ACT_BUFFERS,         /* debian -B: checked, noted */
	ACT_WATERMARK_PCT,   /* debian -W N[%] */
	ACT_FEED_INTERVAL,   /* debian -t, --timeout: the top-up interval */
	ACT_RNG_TIMEOUT,     /* debian -T: noted */
	ACT_STATS_INTERVAL,  /* debian -S */
	ACT_NO_SOURCE,       /* rng-tools5 -d/-n 1|0: exclude `native` */
};

struct peer_opt {
	char short_name;     /* 0: long only */
	const char *long_name;
	bool has_arg;
	enum peer_action action;
	const char *native;  /* rngd's long option, or the source for ACT_NO_SOURCE */
	const char *help;    /* what it becomes here, for the peer's --help */
};

/* rng-tools-debian 2.3 and rng-tools5 5-4.1, each ended by a NULL long_name. */
extern const struct peer_opt rngd_peer_debian_opts[];
extern const struct peer_opt rngd_peer_rng_tools5_opts[];

/* A rng-tools 6.17 spelling that rngd's own table does not have. */
struct rngd_peer_word {
	const char *peer;
	const char *native;
};

#define RNGD_PEER_RNG_TOOLS_WORDS 4
extern const struct rngd_peer_word rngd_peer_rng_tools_words[RNGD_PEER_RNG_TOOLS_WORDS];

/* debian --hrng=NAME: the peer's "known-good defaults" for a device. Its
 * entropy defaults are not taken (a peer's default credit never applies). */
struct rngd_peer_hrng {
	const char *name;
	const char *driver;   /* "stream": the -r device; "viapadlock": padlock */
	const char *what;
};

#define RNGD_PEER_HRNGS 3
extern const struct rngd_peer_hrng rngd_peer_hrngs[RNGD_PEER_HRNGS];

#endif /* RNGD_COMPAT_PEERS_H */
