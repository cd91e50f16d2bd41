# bench/local.mk: the gate's throughput benchmark (bench/fips-throughput).
# `make bench` prints figures; it is not a pass/fail timed test.
EXTRA_DIST += bench/fips-throughput bench/popcount-pass.c

.PHONY: bench-fips-throughput
bench-fips-throughput: rngtest
	top_builddir='$(abs_top_builddir)' CC='$(CC)' $(BASH) $(srcdir)/bench/fips-throughput
bench: bench-fips-throughput
