# tests/integration/daemon.mk: the daemon's host tests. Every test that
# runs rngd runs it through guard.sh (private mount namespace, /dev/random
# covered by a file that must stay empty unless the test means to write).
check_PROGRAMS += tests/integration/daemon-helper
tests_integration_daemon_helper_SOURCES = tests/integration/daemon-helper.c $(TESTS_LIB_SLURP)
tests_integration_daemon_helper_LDADD = fips/libfips.a $(FIPS_LIBS) -lm

DAEMON_INTEGRATION_TESTS = \
	tests/integration/daemon-guard.sh \
	tests/integration/daemon-random.sh \
	tests/integration/daemon-bad-input.sh \
	tests/integration/daemon-quarantine.sh \
	tests/integration/daemon-fifo.sh \
	tests/integration/daemon-signals.sh \
	tests/integration/daemon-reload.sh \
	tests/integration/daemon-early-signals.sh \
	tests/integration/daemon-options.sh \
	tests/integration/daemon-man.sh \
	tests/integration/daemon-hwrng.sh \
	tests/integration/daemon-stall.sh \
	tests/integration/daemon-rng-current.sh \
	tests/integration/daemon-notify.sh
TESTS += $(DAEMON_INTEGRATION_TESTS)
EXTRA_DIST += $(DAEMON_INTEGRATION_TESTS) \
	tests/integration/daemon-lib.sh \
	tests/integration/guard.sh

# A FIFO source's writer through a SIGHUP (never left without a reader) and
# a quarantine (the re-test reads past what the pipe held).
DAEMON_FIFO_TESTS = tests/integration/daemon-fifo-reload.sh tests/integration/daemon-fifo-retest.sh
TESTS += $(DAEMON_FIFO_TESTS)
EXTRA_DIST += $(DAEMON_FIFO_TESTS)
