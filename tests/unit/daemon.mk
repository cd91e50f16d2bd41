# tests/unit/daemon.mk: cmocka tests of the daemon's option/config parsing
# and credit policy.
DAEMON_OPTIONS_TEST_FILES = tests/unit/test_daemon_options.c $(TESTS_LIB_ARGV) $(TESTS_LIB_SLURP) \
	rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c rngd/options.h
DAEMON_CREDIT_TEST_FILES = tests/unit/test_daemon_credit.c rngd/credit.c rngd/credit.h
DAEMON_LOG_TEST_FILES = tests/unit/test_daemon_log.c rngd/log.c rngd/log.h
DAEMON_POLICY_TEST_FILES = tests/unit/test_daemon_policy.c rngd/policy.c rngd/policy.h
DAEMON_LOOP_TEST_FILES = tests/unit/test_daemon_loop.c $(TESTS_LIB_SLURP) rngd/loop.c rngd/loop.h rngd/slot.c rngd/slot.h rngd/slow_call.c rngd/file_clash.c rngd/block_flow.c rngd/loop_jobs.c rngd/policy.c rngd/reader.c rngd/reader.h rngd/start_open.c rngd/log.c \
	rngd/credit.c rngd/stats.c rngd/notify.c rngd/hwrng_quality.c rngd/hwrng_quality_state.c rngd/sink_file.c
DAEMON_LOOP_TEST_LIBS = sources/libsources.a fips/libfips.a $(SOURCES_LIBS) $(FIPS_LIBS) \
	$(CMOCKA_LIBS) -lm
DAEMON_SOURCE_SET_TEST_FILES = tests/unit/test_daemon_source_set.c $(TESTS_LIB_ARGV) \
	rngd/source_set.c rngd/source_set.h rngd/slot.c rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c rngd/credit.c
# What a SIGHUP may change: the option and config parsers give it both sides.
RELOAD_CHECK_TEST_FILES = tests/unit/test_reload_check.c $(TESTS_LIB_ARGV) rngd/reload_check.c rngd/reload_check.h \
	rngd/source_set.c rngd/slot.c rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c rngd/credit.c
DAEMON_SOURCE_SET_LIBS = sources/libsources.a fips/libfips.a $(SOURCES_LIBS) $(FIPS_LIBS) $(CMOCKA_LIBS) -lm

# Inline helpers several daemon and source files share (rngd's and the
# sources' _SOURCES list them too).
SHARED_HELPER_HDRS = sources/backoff.h sources/close_fd.h rngd/eventfd.h rngd/every.h rngd/poll_timeout.h
SHARED_HELPERS_TEST_FILES = tests/unit/test_shared_helpers.c $(SHARED_HELPER_HDRS)
# The device watch as the loop drives it, the rest of the loop stubbed.
HWRNG_WATCH_TEST_FILES = tests/unit/test_hwrng_watch.c rngd/hwrng_watch.c rngd/hwrng_watch.h \
	rngd/device_watch.c rngd/device_watch.h rngd/log.c rngd/log.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_shared_helpers tests/unit/test_hwrng_watch tests/unit/test_reload_check
TESTS += tests/unit/test_shared_helpers tests/unit/test_hwrng_watch tests/unit/test_reload_check
tests_unit_test_reload_check_SOURCES = $(RELOAD_CHECK_TEST_FILES)
tests_unit_test_reload_check_LDADD = $(DAEMON_SOURCE_SET_LIBS)
tests_unit_test_shared_helpers_SOURCES = $(SHARED_HELPERS_TEST_FILES)
tests_unit_test_hwrng_watch_SOURCES = $(HWRNG_WATCH_TEST_FILES)
check_PROGRAMS += tests/unit/test_daemon_options tests/unit/test_daemon_credit \
	tests/unit/test_daemon_source_set
TESTS += tests/unit/test_daemon_options tests/unit/test_daemon_credit \
	tests/unit/test_daemon_source_set tests/unit/test_daemon_log
check_PROGRAMS += tests/unit/test_daemon_log tests/unit/test_daemon_loop tests/unit/test_daemon_policy
TESTS += tests/unit/test_daemon_loop tests/unit/test_daemon_policy
tests_unit_test_daemon_policy_SOURCES = $(DAEMON_POLICY_TEST_FILES)
tests_unit_test_daemon_loop_SOURCES = $(DAEMON_LOOP_TEST_FILES)
tests_unit_test_daemon_loop_LDADD = $(DAEMON_LOOP_TEST_LIBS)
# A reader thread that cannot start (test_reader_start_failure_...).
tests_unit_test_daemon_loop_LDFLAGS = -Wl,--wrap=pthread_create
tests_unit_test_daemon_log_SOURCES = $(DAEMON_LOG_TEST_FILES)

tests_unit_test_daemon_options_SOURCES = $(DAEMON_OPTIONS_TEST_FILES)
tests_unit_test_daemon_options_LDADD = $(CMOCKA_LIBS) -lm
tests_unit_test_daemon_credit_SOURCES = $(DAEMON_CREDIT_TEST_FILES)
tests_unit_test_daemon_credit_LDADD = $(CMOCKA_LIBS) -lm
tests_unit_test_daemon_source_set_SOURCES = $(DAEMON_SOURCE_SET_TEST_FILES)
tests_unit_test_daemon_source_set_LDADD = $(DAEMON_SOURCE_SET_LIBS)
endif
