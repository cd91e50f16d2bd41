# tests/integration/rngtest.mk: rngtest's integration tests.
check_PROGRAMS += tests/integration/gen-input
tests_integration_gen_input_SOURCES = tests/integration/gen-input.c
tests_integration_gen_input_LDADD =

TESTS += \
	tests/integration/rngtest-cli.sh \
	tests/integration/rngtest-man.sh \
	tests/integration/rngtest-peer.sh

EXTRA_DIST += \
	tests/integration/rngtest-cli.sh \
	tests/integration/rngtest-man.sh \
	tests/integration/rngtest-peer.sh \
	tests/integration/rngtest-peer-fetch.sh \
	tests/integration/rngtest-lib.sh

# The cross-check on a million random blocks and more biased data.
.PHONY: check-long-rngtest
check-long-rngtest: rngtest tests/integration/gen-input
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' RNGTEST_LONG=1 \
		$(BASH) $(srcdir)/tests/integration/rngtest-peer.sh
check-long: check-long-rngtest

# rngtest and the gate built with ASan + UBSan; the CLI and peer tests run
# again on it. Sanitizers exit 86, which no rngtest outcome uses.
EXTRA_DIST += tests/integration/rngtest-asan.sh
if HAVE_ASAN
check_PROGRAMS += tests/integration/rngtest_asan
tests_integration_rngtest_asan_SOURCES = $(rngtest_SOURCES) $(FIPS_SOURCES) $(FIPS_HDRS)
tests_integration_rngtest_asan_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tests_integration_rngtest_asan_LDFLAGS = $(SANITIZE_FLAGS)
tests_integration_rngtest_asan_LDADD = $(FIPS_LIBS)
TESTS += tests/integration/rngtest-asan.sh
endif
