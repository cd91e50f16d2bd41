# tests/integration/startup.mk: bad input and signals at start-up (issue
# 18), against the real rngd under guard.sh. The signal test preloads the
# fault shim (tests/fault/fault.mk builds it for make check).
STARTUP_INTEGRATION_TESTS = \
	tests/integration/daemon-startup-input.sh \
	tests/integration/daemon-startup-signals.sh
TESTS += $(STARTUP_INTEGRATION_TESTS)
EXTRA_DIST += $(STARTUP_INTEGRATION_TESTS) tests/integration/silent-server.py

# The same files at the unit level (cmocka): config loader, pid file, -D.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_startup_files
TESTS += tests/unit/test_startup_files
tests_unit_test_startup_files_SOURCES = tests/unit/test_startup_files.c \
	rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c rngd/options.h rngd/privs.c rngd/privs.h rngd/file_kind.h
endif
