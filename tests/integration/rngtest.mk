# tests/integration/rngtest.mk: rngtest's integration tests (owner: rngtest work).
check_PROGRAMS += tests/integration/gen-input
tests_integration_gen_input_SOURCES = tests/integration/gen-input.c

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
