# tests/integration/startup.mk: bad input and signals at start-up (issue
# 18), against the real rngd under guard.sh. The signal test preloads the
# fault shim (tests/fault/fault.mk builds it for make check).
STARTUP_INTEGRATION_TESTS = \
	tests/integration/daemon-startup-input.sh \
	tests/integration/daemon-startup-signals.sh
TESTS += $(STARTUP_INTEGRATION_TESTS)
EXTRA_DIST += $(STARTUP_INTEGRATION_TESTS) tests/integration/silent-server.py
