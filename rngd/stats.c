/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rngd/stats.h"

void rngd_stats_format(char *buf, size_t len, const struct rngd_source_stats *st)
{
	size_t off;
	int n;

	n = snprintf(buf, len, "bytes read %" PRIu64 ", blocks passed %" PRIu64 ", failed %" PRIu64 " (",
		     st->bytes_read, st->blocks_passed, st->blocks_failed);
	off = n > 0 ? (size_t)n : 0;
	for (int t = 0; t < FIPS_TEST_MAX && off < len; t++) {
		const char *name = fips_test_name((enum fips_test)t);

		n = snprintf(buf + off, len - off, "%s%s %" PRIu64, t ? ", " : "", name ? name : "?",
			     st->failures[t]);
		off += n > 0 ? (size_t)n : 0;
	}
	if (off < len)
		(void)snprintf(buf + off, len - off,
			       "), bits credited %" PRIu64 ", bytes to sink %" PRIu64 ", bytes mixed %" PRIu64
			       ", quarantines %" PRIu64 ", re-tests failed %" PRIu64 ", returns to service %" PRIu64
			       ", reopens %" PRIu64 ", read errors %" PRIu64,
			       st->bits_credited, st->bytes_to_sink, st->bytes_mixed, st->quarantines,
			       st->retests_failed, st->returns_to_service, st->reopens, st->read_errors);
}

void rngd_sink_stats_format(char *buf, size_t len, const struct rngd_sink_stats *st)
{
	size_t off;
	int n;

	if (st->pool_phases)
		n = snprintf(buf, len,
			     "bytes written %" PRIu64 ", bits credited %" PRIu64 " while the pool was filling (%" PRIu64
			     " bytes), bytes mixed after it was ready %" PRIu64 ", reseeds %" PRIu64 ", %s",
			     st->bytes_written, st->bits_credited, st->bytes_filling, st->bytes_after_ready,
			     st->reseeds, st->filling ? "filling" : "ready");
	else
		n = snprintf(buf, len, "bytes written %" PRIu64 ", bits credited %" PRIu64, st->bytes_written,
			     st->bits_credited);
	off = n > 0 ? (size_t)n : 0;
	if (st->egd && off < len) {
		n = snprintf(buf + off, len - off, ", bytes served to EGD clients %" PRIu64, st->egd_bytes_served);
		off += n > 0 ? (size_t)n : 0;
	}
	if (off < len)
		(void)snprintf(buf + off, len - off, ", write errors %" PRIu64, st->write_errors);
}

void rngd_stats_format_rate(char *buf, size_t len, const struct rngd_stats_entry *e, double secs)
{
	(void)snprintf(buf, len, "%s: %.0f passing bytes/s (%" PRIu64 " blocks passed, %" PRIu64 " failed, %s)",
		       e->name, secs > 0 ? (double)(e->st->blocks_passed * FIPS_BLOCK_BYTES) / secs : 0.0,
		       e->st->blocks_passed, e->st->blocks_failed, e->state);
}

void rngd_sink_stats_format_status(char *buf, size_t len, const char *sources, const struct rngd_sink_stats *st)
{
	char egd[80] = "";

	if (!sources || !sources[0])
		sources = "none";
	if (st->egd)
		(void)snprintf(egd, sizeof(egd), "; %" PRIu64 " bytes served to EGD clients", st->egd_bytes_served);
	/* The counters first: systemd keeps the first 256 bytes, so a long
	 * source list is what gets cut, never a number. */
	if (!st->pool_phases)
		(void)snprintf(buf, len, "%" PRIu64 " bits credited%s; sources: %s", st->bits_credited, egd, sources);
	else if (st->filling)
		(void)snprintf(buf, len, "pool filling: %" PRIu64 " bits credited%s; sources: %s", st->bits_credited,
			       egd, sources);
	else
		(void)snprintf(buf, len,
			       "pool ready: %" PRIu64 " bits credited while filling, %" PRIu64
			       " bytes mixed since, %" PRIu64 " reseeds%s; sources: %s",
			       st->bits_credited, st->bytes_after_ready, st->reseeds, egd, sources);
}

/* Prometheus label values escape backslash, quote and newline. */
static void put_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

struct counter_def {
	const char *name;
	const char *help;
	size_t offset;
};

#define COUNTER(field, metric, text) { metric, text, offsetof(struct rngd_source_stats, field) }

static const struct counter_def source_counters[] = {
	COUNTER(bytes_read, "rngd_source_bytes_read_total", "Bytes read from the source."),
	COUNTER(blocks_passed, "rngd_source_blocks_passed_total", "20000-bit blocks that passed the gate."),
	COUNTER(blocks_failed, "rngd_source_blocks_failed_total", "Blocks that failed at least one test."),
	COUNTER(bits_credited, "rngd_source_bits_credited_total", "Entropy bits credited to the sink."),
	COUNTER(bytes_to_sink, "rngd_source_bytes_to_sink_total", "Passing bytes handed to the sink."),
	COUNTER(bytes_mixed, "rngd_source_bytes_mixed_total", "Failed bytes mixed in with zero credit."),
	COUNTER(quarantines, "rngd_source_quarantines_total", "Times the source was quarantined."),
	COUNTER(retests_failed, "rngd_source_retests_failed_total", "Re-test blocks that failed in quarantine."),
	COUNTER(returns_to_service, "rngd_source_returns_to_service_total", "Re-tests passed, ending a quarantine."),
	COUNTER(reopens, "rngd_source_opens_total", "Times the source was opened."),
	COUNTER(read_errors, "rngd_source_read_errors_total", "Failed reads (an end of data is none)."),
};

static void write_metrics(FILE *f, const struct rngd_stats_entry *e, size_t n,
			  const struct rngd_sink_stats *sink, const char *sink_name)
{
	for (size_t c = 0; c < sizeof(source_counters) / sizeof(source_counters[0]); c++) {
		const struct counter_def *d = &source_counters[c];

		fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", d->name, d->help, d->name);
		for (size_t i = 0; i < n; i++) {
			uint64_t v;

			memcpy(&v, (const char *)e[i].st + d->offset, sizeof(v));
			fprintf(f, "%s{source=\"", d->name);
			put_label(f, e[i].name);
			fprintf(f, "\"} %" PRIu64 "\n", v);
		}
	}
	fputs("# HELP rngd_source_test_failures_total Blocks that failed each test.\n"
	      "# TYPE rngd_source_test_failures_total counter\n", f);
	for (size_t i = 0; i < n; i++) {
		for (int t = 0; t < FIPS_TEST_MAX; t++) {
			fputs("rngd_source_test_failures_total{source=\"", f);
			put_label(f, e[i].name);
			fprintf(f, "\",test=\"%s\"} %" PRIu64 "\n", fips_test_name((enum fips_test)t),
				e[i].st->failures[t]);
		}
	}
	fputs("# HELP rngd_source_state The source's state (1 for the current one).\n"
	      "# TYPE rngd_source_state gauge\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("rngd_source_state{source=\"", f);
		put_label(f, e[i].name);
		fprintf(f, "\",state=\"%s\"} 1\n", e[i].state);
	}
	fprintf(f, "# HELP rngd_sink_bytes_written_total Bytes written to the sink.\n"
		"# TYPE rngd_sink_bytes_written_total counter\n"
		"rngd_sink_bytes_written_total{sink=\"%s\"} %" PRIu64 "\n"
		"# HELP rngd_sink_bits_credited_total Entropy bits the sink counted (kernel: while its pool filled).\n"
		"# TYPE rngd_sink_bits_credited_total counter\n"
		"rngd_sink_bits_credited_total{sink=\"%s\"} %" PRIu64 "\n"
		"# HELP rngd_sink_write_errors_total Failed sink writes.\n"
		"# TYPE rngd_sink_write_errors_total counter\n"
		"rngd_sink_write_errors_total{sink=\"%s\"} %" PRIu64 "\n",
		sink_name, sink->bytes_written, sink_name, sink->bits_credited, sink_name,
		sink->write_errors);
	if (sink->pool_phases)
		fprintf(f, "# HELP rngd_sink_bytes_filling_total Bytes mixed into the kernel pool while it was filling.\n"
			"# TYPE rngd_sink_bytes_filling_total counter\n"
			"rngd_sink_bytes_filling_total{sink=\"%s\"} %" PRIu64 "\n"
			"# HELP rngd_sink_bytes_after_ready_total Bytes mixed in after the pool was ready (no credit counts).\n"
			"# TYPE rngd_sink_bytes_after_ready_total counter\n"
			"rngd_sink_bytes_after_ready_total{sink=\"%s\"} %" PRIu64 "\n"
			"# HELP rngd_sink_reseeds_total CRNG reseeds (RNDRESEEDCRNG) after top-ups.\n"
			"# TYPE rngd_sink_reseeds_total counter\n"
			"rngd_sink_reseeds_total{sink=\"%s\"} %" PRIu64 "\n"
			"# HELP rngd_sink_pool_ready 1 once the kernel pool is ready.\n"
			"# TYPE rngd_sink_pool_ready gauge\n"
			"rngd_sink_pool_ready{sink=\"%s\"} %d\n",
			sink_name, sink->bytes_filling, sink_name, sink->bytes_after_ready, sink_name, sink->reseeds,
			sink_name, sink->filling ? 0 : 1);
	if (sink->egd)
		fprintf(f, "# HELP rngd_egd_bytes_served_total Bytes served to EGD clients.\n"
			"# TYPE rngd_egd_bytes_served_total counter\n"
			"rngd_egd_bytes_served_total %" PRIu64 "\n", sink->egd_bytes_served);
}

int rngd_stats_write_prometheus(const char *path, const struct rngd_stats_entry *e, size_t n,
				const struct rngd_sink_stats *sink, const char *sink_name)
{
	char tmp[4200];
	FILE *f;
	int fd, r = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* Whatever is at PATH.tmp goes, and the file is new: an open of a
	 * FIFO left there would block the loop until someone read it, and a
	 * link (symbolic or hard) would have its target written. */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return -errno;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		(void)close(fd);
		(void)unlink(tmp);
		return r;
	}
	write_metrics(f, e, n, sink, sink_name);
	if (fflush(f) != 0 || ferror(f))
		r = -EIO;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		(void)unlink(tmp);
	return r;
}
