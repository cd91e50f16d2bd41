/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A peer's command line translated to rngd's own through the peer's
 * option table (rngd/compat_peers.c); rng-tools' source names, indexes
 * and keys are resolved in rngd/compat_sources.c.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include "rngd/compat.h"
#include "rngd/compat_peers.h"
#include "rngd/options_table.h"
#include "sources/parse_num.h"
#include "sources/source.h"

/* ---- 1. A growable argv -------------------------------------------------- */

int rngd_argv_push(struct rngd_argv *a, const char *word)
{
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n] = strdup(word);
	if (!a->v[a->n])
		return -ENOMEM;
	a->v[++a->n] = NULL;
	return 0;
}

void rngd_argv_free(struct rngd_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

static int push2(struct rngd_argv *a, const char *opt, const char *value)
{
	int r = rngd_argv_push(a, opt);

	return r < 0 ? r : rngd_argv_push(a, value);
}

/* rngd's periods (--topup-interval, --stats-interval) stop at a day: a
 * peer's longer one becomes a day. */
static int push_period(struct rngd_argv *a, const char *opt, unsigned long seconds)
{
	char word[24];

	snprintf(word, sizeof(word), "%lu", seconds > 86400 ? 86400UL : seconds);
	return push2(a, opt, word);
}

/* A bound of PEER_SECONDS_ANY only keeps a peer's count in range (debian
 * -t, -T) and is left out of the message; a tighter one (-S) is named. */
#define PEER_SECONDS_ANY 4000000000UL

/* @value as whole seconds 0..@max into *seconds; else the error. */
static int parse_peer_seconds(const char *opt, const char *value, unsigned long max, unsigned long *seconds,
			      char err[RNGD_ERR_MAX])
{
	char bound[32] = "";

	if (rng_parse_uint(value, 0, max, seconds) == 0)
		return 0;
	if (max < PEER_SECONDS_ANY)
		snprintf(bound, sizeof(bound), " 0..%lu", max);
	return rngd_fail(err, "%s needs seconds%s, not '%s'", opt, bound, value);
}

/* The peer's 0 switches its periodic work off; rngd's stays on, so 0 is a
 * note saying what happens instead (@when_off), and N is @native N. */
static int push_period_or_note(struct rngd_argv *a, struct rngd_options *notes, const char *opt,
			       unsigned long seconds, const char *native, const char *when_off)
{
	if (seconds == 0)
		return rngd_options_note(notes, LOG_INFO, "%s 0: %s", opt, when_off);
	return push_period(a, native, seconds);
}

/* State of one peer command line's translation. */
struct translation {
	struct rngd_argv *out;
	struct rngd_options *notes;
	const char *peer;        /* for messages */
	enum rngd_personality personality;
	char *const *rest;       /* from a "--" on, passed as written, last */
	size_t n_rest;
	int help;                /* enum rngd_compat_print: its -? */
	bool padlock_driver;     /* -R viapadlock / --hrng=viapadlock: -r is not read */
	const char *rng_device;  /* the last -r, emitted at the end */
	char *entropy;           /* the last -H, emitted at the end */
};

static int set_driver(struct translation *t, const char *name, const char *opt, char err[RNGD_ERR_MAX])
{
	if (strcmp(name, "stream") == 0) {
		t->padlock_driver = false;
		return 0;
	}
	if (strcmp(name, "viapadlock") == 0) {
		t->padlock_driver = true;
		return 0;
	}
	return rngd_fail(err, "%s %s: %s knows stream and viapadlock", opt, name, t->peer);
}

static int act(struct translation *t, const struct peer_opt *p, const char *opt, const char *value,
	       char err[RNGD_ERR_MAX])
{
	char word[64];
	unsigned long n;
	struct rngd_options *o = t->notes;
	int r;

	switch (p->action) {
	case ACT_SAME:
		if (strcmp(p->native, "rng-device") == 0) {
			t->rng_device = value;
			return 0;
		}
		snprintf(word, sizeof(word), "--%s", p->native);
		return push2(t->out, word, value);
	case ACT_FLAG:
		/* The peer's help lists the peer's options, not rngd's. */
		if (strcmp(p->native, "help") == 0)
			return t->help;
		snprintf(word, sizeof(word), "--%s", p->native);
		return rngd_argv_push(t->out, word);
	case ACT_RNG_DRIVER:
		return set_driver(t, value, opt, err);
	case ACT_HRNG:
		if (strcmp(value, "help") == 0)
			return RNGD_COMPAT_PRINT_HRNGS;
		for (size_t i = 0; i < RNGD_PEER_HRNGS; i++)
			if (strcmp(value, rngd_peer_hrngs[i].name) == 0) {
				r = set_driver(t, rngd_peer_hrngs[i].driver, opt, err);
				if (r == 0)
					r = rngd_options_note(o, LOG_INFO, "%s=%s: %s; the peer's entropy default for it is not taken",
						 opt, value, rngd_peer_hrngs[i].what);
				return r;
			}
		return rngd_fail(err, "%s=%s: %s knows intelfwh, viakernel, viapadlock and help", opt, value, t->peer);
	case ACT_RNG_ENTROPY: {
		char *end;
		double v;

		errno = 0;
		v = strtod(value, &end);
		if (errno || *end || !value[0] || !(v >= 0.0 && v <= 1.0))
			return rngd_fail(err, "%s needs entropy per bit 0.0..1.0, not '%s'", opt, value);
		free(t->entropy);
		t->entropy = strdup(value);
		return t->entropy ? 0 : -ENOMEM;
	}
	case ACT_QUALITY:
		if (strcmp(value, "default") != 0 && strcmp(value, "low") != 0 && strcmp(value, "medium") != 0 &&
		    strcmp(value, "high") != 0)
			return rngd_fail(err, "%s needs default, low, medium or high, not '%s'", opt, value);
		return rngd_options_note(o, LOG_INFO,
			    "%s %s: noted; it tunes the peer's viapadlock driver only, and every block here is "
			    "gated the same way whatever the source", opt, value);
	case ACT_BUFFERS:
		if (rng_parse_uint(value, 0, 1000000, &n) < 0 || n == 0)
			return rngd_fail(err, "%s needs a buffer count, not '%s'", opt, value);
		return rngd_options_note(o, LOG_INFO, "%s %s: noted; each source here has its own reader thread and block buffer",
			    opt, value);
	case ACT_WATERMARK_PCT: {
		size_t len = strlen(value);

		if (len > 1 && value[len - 1] == '%') {
			char pct[16];

			snprintf(pct, sizeof(pct), "%.*s", (int)(len - 1), value);
			if (len - 1 >= sizeof(pct) || rng_parse_uint(pct, 0, 100, &n) < 0)
				return rngd_fail(err, "%s needs bits or 0..100%%, not '%s'", opt, value);
			/* The pool the percentage was of: 4096 bits before 5.18. */
			snprintf(word, sizeof(word), "%lu", n * 4096 / 100);
			r = rngd_options_note(o, LOG_INFO, "%s %s: %s bits of the 4096-bit pool (kernels before 5.18 only)", opt,
				     value, word);
			return r < 0 ? r : push2(t->out, "--fill-watermark", word);
		}
		return push2(t->out, "--fill-watermark", value);
	}
	case ACT_FEED_INTERVAL:
		r = parse_peer_seconds(opt, value, PEER_SECONDS_ANY, &n, err);
		return r < 0 ? r : push_period_or_note(t->out, o, opt, n, "--topup-interval",
						     "the peer then never force-feeds; rngd keeps its top-up "
						     "interval (kernels 5.18+ only)");
	case ACT_RNG_TIMEOUT:
		r = parse_peer_seconds(opt, value, PEER_SECONDS_ANY, &n, err);
		return r < 0 ? r : rngd_options_note(o, LOG_INFO, "%s %s: noted; rngd never gives up on a silent source, "
						     "it re-opens it with back-off and says so", opt, value);
	case ACT_STATS_INTERVAL:
		r = parse_peer_seconds(opt, value, 604800, &n, err);
		return r < 0 ? r : push_period_or_note(t->out, o, opt, n, "--stats-interval",
						     "no periodic statistics; rngd logs them on SIGUSR1 and at exit "
						     "as the peer does");
	case ACT_NO_SOURCE:
		if (strcmp(value, "1") == 0) {
			r = push2(t->out, "--exclude", p->native);
			/* rng-tools5 knew one TPM; its user meant none at all. */
			if (r == 0 && strcmp(p->native, "tpm") == 0 && rng_source_find("tpm2"))
				r = push2(t->out, "--exclude", "tpm2");
			return r;
		}
		if (strcmp(value, "0") == 0)
			return 0;
		return rngd_fail(err, "%s needs 1 or 0, not '%s'", opt, value);
	}
	return rngd_fail(err, "%s: unhandled", opt);
}

static const struct peer_opt *find_long(const struct peer_opt *table, const char *name, size_t len,
					bool *ambiguous)
{
	const struct peer_opt *hit = NULL;

	*ambiguous = false;
	for (const struct peer_opt *p = table; p->long_name; p++) {
		if (strncmp(p->long_name, name, len) != 0)
			continue;
		if (p->long_name[len] == '\0')
			return p;          /* exact */
		if (hit)
			*ambiguous = true;
		hit = p;                   /* a unique prefix, as argp and getopt take */
	}
	return *ambiguous ? NULL : hit;
}

static const struct peer_opt *find_short(const struct peer_opt *table, char c)
{
	for (const struct peer_opt *p = table; p->long_name; p++)
		if (p->short_name == c)
			return p;
	return NULL;
}

void rngd_compat_letter_hint(enum rngd_personality p, char c, char *buf, size_t size)
{
	const struct peer_opt *peer;
	const struct opt_def *d = rngd_opt_by_id((unsigned char)c);

	buf[0] = '\0';
	if (p != RNGD_PERSONALITY_RNG_TOOLS) {
		if (d)
			(void)snprintf(buf, size, "; for rngd's own -%c, write --%s", c, d->name);
		return;
	}
	if ((peer = find_short(rngd_peer_debian_opts, c)))
		(void)snprintf(buf, size, "; rng-tools-debian's -%c (--%s) is read with --compat=debian", c,
			       peer->long_name);
	else if ((peer = find_short(rngd_peer_rng_tools5_opts, c)))
		(void)snprintf(buf, size, "; rng-tools5's -%c (--%s) is read with --compat=rng-tools5", c,
			       peer->long_name);
}

/*
 * One peer command line (words[from..n)) onto t->out. Long options the
 * peer lacks pass through to rngd's own parser (--config, --hwrng-sysfs,
 * ...); short ones are the peer's only, so an unknown letter is an error.
 * Returns 0, 1 (--hrng=help printed: exit 0) or -errno.
 */
static int translate_peer(struct translation *t, const struct peer_opt *table, char *const words[], size_t n,
			  char err[RNGD_ERR_MAX])
{
	for (size_t i = 0; i < n; i++) {
		const char *w = words[i];
		int r;

		if (strcmp(w, "--") == 0) {
			/* The peers' getopt stops here: what follows is no
			 * option, and comes after the device's words. */
			t->rest = words + i;
			t->n_rest = n - i;
			break;
		} else if (w[0] != '-' || w[1] == '\0') {
			r = rngd_argv_push(t->out, w);
		} else if (w[1] == '-') {
			const char *eq = strchr(w, '=');
			size_t len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
			bool ambiguous;
			const struct peer_opt *p = find_long(table, w + 2, len, &ambiguous);
			const char *value = eq ? eq + 1 : NULL;
			char opt[64];

			if (ambiguous)
				return rngd_fail(err, "option '%.*s' is ambiguous (%s)", (int)len + 2, w, t->peer);
			if (!p) {
				r = rngd_argv_push(t->out, w);
				if (r < 0)
					return r;
				continue;
			}
			snprintf(opt, sizeof(opt), "--%s", p->long_name);
			if (p->has_arg && !value) {
				if (i + 1 >= n)
					return rngd_fail(err, "option '%s' needs a value (%s)", opt, t->peer);
				value = words[++i];
			} else if (!p->has_arg && value) {
				return rngd_fail(err, "option '%s' takes no value (%s)", opt, t->peer);
			}
			r = act(t, p, opt, value ? value : "", err);
		} else {
			r = 0;
			for (const char *c = w + 1; *c && r == 0; c++) {
				const struct peer_opt *p = find_short(table, *c);
				char opt[4] = { '-', *c, '\0', '\0' };
				const char *value = NULL;

				if (!p) {
					char hint[128];

					rngd_compat_letter_hint(t->personality, *c, hint, sizeof(hint));
					return rngd_fail(err, "unknown option '-%c' (%s)%s", *c, t->peer, hint);
				}
				if (p->has_arg) {
					if (c[1])
						value = c + 1;
					else if (i + 1 < n)
						value = words[++i];
					else
						return rngd_fail(err, "option '-%c' needs a value (%s)", *c, t->peer);
				}
				r = act(t, p, opt, value ? value : "", err);
				if (value)
					break;
			}
		}
		if (r != 0)
			return r;
	}
	return 0;
}

/* --option SOURCE:entropy_per_bit:VALUE with -H's VALUE whole: a value cut
 * to fit a buffer could read as another number ("1.0e-0...01" as 1.0). */
static int push_credit(struct rngd_argv *a, const char *source, const char *value)
{
	char *opt;
	int r;

	if (asprintf(&opt, "%s:entropy_per_bit:%s", source, value) < 0)
		return -ENOMEM;
	r = push2(a, "--option", opt);
	free(opt);
	return r;
}

/* The end of a peer command line: the device and its credit. */
static int translate_finish(struct translation *t)
{
	int r = 0;

	if (t->padlock_driver) {
		/* The peer reads the PadLock, no device. Its kernel driver, via-rng,
		 * serves the same RNG as /dev/hwrng: reading both would credit
		 * one device twice. */
		r = push2(t->out, "--include", "padlock");
		if (r == 0)
			r = push2(t->out, "--exclude", "hwrng");
		if (r == 0)
			r = rngd_options_note(t->notes, LOG_INFO, "the viapadlock driver reads the PadLock, no device: %s%s is not "
				 "read (via-rng serves the same RNG there), nor is the hwrng source",
				 t->rng_device ? "-r " : "/dev/hwrng", t->rng_device ? t->rng_device : "");
		if (r == 0 && t->entropy)
			r = push_credit(t->out, "padlock", t->entropy);
		return r;
	}
	if (t->rng_device)
		r = push2(t->out, "--rng-device", t->rng_device);
	/* rng-device: resolved with -r, the hwrng source or the file's instance. */
	if (r == 0 && t->entropy)
		r = push_credit(t->out, "rng-device", t->entropy);
	return r;
}

/*
 * A group of short options in rng-tools' words ("-fV"): its -V and -? are
 * rngd's --version and --help, so the group goes letter by letter; a
 * letter that takes a value keeps the rest of the word as it ("-fs64").
 */
static int push_rng_tools_group(struct rngd_argv *out, const char *w)
{
	for (const char *c = w + 1; *c; c++) {
		const struct opt_def *d = rngd_opt_by_id((unsigned char)*c);
		char one[3] = { '-', *c, '\0' };
		const char *word = one;
		char *with_value = NULL;
		int r;

		for (size_t k = 0; k < RNGD_PEER_RNG_TOOLS_WORDS; k++)
			if (strcmp(one, rngd_peer_rng_tools_words[k].peer) == 0)
				word = rngd_peer_rng_tools_words[k].native;
		if (word == one && d && d->arg && c[1] && asprintf(&with_value, "-%s", c) < 0)
			return -ENOMEM;
		r = rngd_argv_push(out, with_value ? with_value : word);
		free(with_value);
		if (r < 0 || (word == one && d && d->arg))
			return r;
	}
	return 0;
}

/* One personality's words (no --compat or --defaults-file among them)
 * onto @out in rngd's own: rng-tools 6's are rngd's but for a few renamed
 * long options; the others go through their option tables. */
int rngd_compat_translate_words(struct rngd_argv *out, struct rngd_options *notes, enum rngd_personality p,
				char *const words[], size_t n, char err[RNGD_ERR_MAX])
{
	struct translation t = { .out = out, .notes = notes };
	const struct peer_opt *table;
	int r = 0;

	if (p == RNGD_PERSONALITY_RNG_TOOLS) {
		for (size_t i = 0; i < n && r == 0; i++) {
			const char *w = words[i];
			char buf[RNGD_ERR_MAX];

			if (strcmp(w, "--") == 0) {
				/* getopt's end of options: the rest is passed as written. */
				for (; i < n && r == 0; i++)
					r = rngd_argv_push(out, words[i]);
				break;
			}

			for (size_t k = 0; k < RNGD_PEER_RNG_TOOLS_WORDS; k++) {
				size_t len = strlen(rngd_peer_rng_tools_words[k].peer);
				const struct opt_def *d = rngd_opt_by_name(rngd_peer_rng_tools_words[k].native + 2);

				if (strncmp(w, rngd_peer_rng_tools_words[k].peer, len) != 0 ||
				    (w[len] != '\0' && w[len] != '='))
					continue;
				/* Named as the user wrote it, not as translated. */
				if (w[len] == '=' && !(d && d->arg))
					return rngd_fail(err, "option '%s' takes no value",
							 rngd_peer_rng_tools_words[k].peer);
				snprintf(buf, sizeof(buf), "%s%s", rngd_peer_rng_tools_words[k].native, w + len);
				w = buf;
				break;
			}
			if (w == words[i] && w[0] == '-' && w[1] != '-' && w[1] != '\0' && w[2] != '\0' &&
			    strpbrk(w + 1, "V?"))
				r = push_rng_tools_group(out, w);
			else
				r = rngd_argv_push(out, w);
		}
		return r;
	}
	table = p == RNGD_PERSONALITY_DEBIAN ? rngd_peer_debian_opts : rngd_peer_rng_tools5_opts;
	t.peer = p == RNGD_PERSONALITY_DEBIAN ? "rng-tools-debian" : "rng-tools5";
	t.personality = p;
	t.help = p == RNGD_PERSONALITY_DEBIAN ? RNGD_COMPAT_PRINT_DEBIAN_HELP : RNGD_COMPAT_PRINT_RNG_TOOLS5_HELP;
	r = translate_peer(&t, table, words, n, err);
	if (r == 0)
		r = translate_finish(&t);
	for (size_t i = 0; i < t.n_rest && r == 0; i++)
		r = rngd_argv_push(out, t.rest[i]);
	free(t.entropy);
	return r;
}
