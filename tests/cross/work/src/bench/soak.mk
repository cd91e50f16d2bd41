# bench/soak.mk: rngd under valgrind memcheck at full rate for
# SOAK_SECONDS (default 600): RSS flatness and leaks. Not part of make
# check. Owned by the hardening work.
EXTRA_DIST += bench/soak
.PHONY: soak
soak: rngd/rngd
	top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' $(BASH) $(srcdir)/bench/soak
