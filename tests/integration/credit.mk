# tests/integration/credit.mk: issue 12 ("credit is exact"): quarantine
# pauses the reader, file offsets persist across restarts, and the
# accounting test with a recording mock of the kernel interface.
CREDIT_INTEGRATION_TESTS = \
	tests/integration/credit-quarantine-pause.sh
TESTS += $(CREDIT_INTEGRATION_TESTS)
EXTRA_DIST += $(CREDIT_INTEGRATION_TESTS)
