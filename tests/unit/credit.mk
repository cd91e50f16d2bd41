# tests/unit/credit.mk: the log level read and set across threads (under
# TSan), and tested bytes kept out of core dumps (rngd/secret_mem.c).
# A ThreadSanitizer twin of the log test: the level that SIGHUP changes
# while reader threads log must be read and written atomically.
if HAVE_CMOCKA
if HAVE_TSAN
check_PROGRAMS += tests/unit/test_daemon_log_tsan
TESTS += tests/unit/test_daemon_log_tsan
CREDIT_TSAN_FLAGS = -fsanitize=thread -fno-omit-frame-pointer
tests_unit_test_daemon_log_tsan_SOURCES = $(DAEMON_LOG_TEST_FILES)
tests_unit_test_daemon_log_tsan_CFLAGS = $(AM_CFLAGS) $(CREDIT_TSAN_FLAGS)
tests_unit_test_daemon_log_tsan_LDFLAGS = $(CREDIT_TSAN_FLAGS)
endif
endif

# Tested bytes stay out of core dumps.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_secret_mem
TESTS += tests/unit/test_secret_mem
tests_unit_test_secret_mem_SOURCES = tests/unit/test_secret_mem.c rngd/secret_mem.c rngd/secret_mem.h
endif
