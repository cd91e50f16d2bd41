# bench/daemon.mk: rngd end to end (64 MiB file -> file sink beside the
# peer's rngtest -p) and idle cost. Part of `make bench`; figures, not a
# pass/fail test.
EXTRA_DIST += bench/rngd-e2e bench/rngd-idle

.PHONY: bench-rngd-e2e bench-rngd-idle
bench-rngd-e2e: rngd/rngd
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' $(BASH) $(srcdir)/bench/rngd-e2e
bench-rngd-idle: rngd/rngd
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' $(BASH) $(srcdir)/bench/rngd-idle
bench: bench-rngd-e2e bench-rngd-idle
