# tests/tsan/tsan.mk: ThreadSanitizer builds of the daemon's threaded unit
# tests and the thread-exercising integration tests, run against TSan
# builds (make check-long-tsan, part of make check-long). Any report fails
# the run; tests/tsan/tsan.supp holds only narrow, commented suppressions.
# Built on demand only (EXTRA_PROGRAMS), from the same source lists as the
# plain programs, so a new file in them is covered here too.
TSAN_FLAGS = -fsanitize=thread -fno-omit-frame-pointer -g
TSAN_UNIT_TESTS =
TSAN_BINARIES =
# Built by make check already (tests/unit/credit.mk), run here again.
TSAN_CHECK_UNITS =
if HAVE_TSAN
if HAVE_CMOCKA
# The log level SIGHUP sets while readers log.
TSAN_CHECK_UNITS += tests/unit/test_daemon_log_tsan
# The loop: reader threads, their queues, stop, cancel and timed join.
TSAN_UNIT_TESTS += tests/tsan/test_daemon_loop_tsan
tests_tsan_test_daemon_loop_tsan_SOURCES = $(DAEMON_LOOP_TEST_FILES)
tests_tsan_test_daemon_loop_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_daemon_loop_tsan_LDFLAGS = $(TSAN_FLAGS) $(tests_unit_test_daemon_loop_LDFLAGS)
tests_tsan_test_daemon_loop_tsan_LDADD = $(DAEMON_LOOP_TEST_LIBS)
# A SIGHUP's reload beside a reader that re-opens its source.
TSAN_UNIT_TESTS += tests/tsan/test_daemon_source_set_tsan
tests_tsan_test_daemon_source_set_tsan_SOURCES = $(DAEMON_SOURCE_SET_TEST_FILES)
tests_tsan_test_daemon_source_set_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_daemon_source_set_tsan_LDFLAGS = $(TSAN_FLAGS)
tests_tsan_test_daemon_source_set_tsan_LDADD = $(DAEMON_SOURCE_SET_LIBS)
# The EGD server thread, the reserve it shares with the main loop, the
# sharing sink in front of it.
TSAN_UNIT_TESTS += tests/tsan/test_egd_server_tsan tests/tsan/test_egd_reserve_tsan \
	tests/tsan/test_egd_share_tsan tests/tsan/test_egd_proto_tsan
tests_tsan_test_egd_server_tsan_SOURCES = $(EGD_SERVER_TEST_FILES)
tests_tsan_test_egd_server_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_egd_server_tsan_LDFLAGS = $(TSAN_FLAGS) -Wl,--wrap=bind
tests_tsan_test_egd_reserve_tsan_SOURCES = $(EGD_RESERVE_TEST_FILES)
tests_tsan_test_egd_reserve_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_egd_reserve_tsan_LDFLAGS = $(TSAN_FLAGS)
tests_tsan_test_egd_share_tsan_SOURCES = $(EGD_SHARE_TEST_FILES)
tests_tsan_test_egd_share_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_egd_share_tsan_LDFLAGS = $(TSAN_FLAGS)
tests_tsan_test_egd_proto_tsan_SOURCES = $(EGD_PROTO_TEST_FILES)
tests_tsan_test_egd_proto_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_egd_proto_tsan_LDFLAGS = $(TSAN_FLAGS)
# The device watch (its uevent socket is polled by the main loop while
# the readers wait for a device) and the log the readers write to.
TSAN_UNIT_TESTS += tests/tsan/test_device_watch_tsan
tests_tsan_test_device_watch_tsan_SOURCES = $(DEVWATCH_UNIT_FILES)
tests_tsan_test_device_watch_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_test_device_watch_tsan_LDFLAGS = $(TSAN_FLAGS)
endif
# rngd itself, every source compiled in with TSan (as rngd_asan is with
# ASan): the integration scripts run it through DAEMON_RNGD. The FIPS
# gate is linked as built for rngd: it runs in the main thread only, and
# its target_clones resolvers run before the TSan runtime is up, so an
# instrumented build of them crashes at load.
TSAN_BINARIES += tests/tsan/rngd_tsan tests/tsan/rngd_mockkernel_tsan
# tsan_quiet.c stops the TSan runtime's own thread (see there), so the
# scripts that count rngd's wake-ups or check its threads see rngd's only.
tests_tsan_rngd_tsan_SOURCES = $(rngd_rngd_SOURCES) $(sources_libsources_a_SOURCES) \
	tests/tsan/tsan_quiet.c
tests_tsan_rngd_tsan_CPPFLAGS = $(sources_libsources_a_CPPFLAGS)
tests_tsan_rngd_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_rngd_tsan_LDFLAGS = $(TSAN_FLAGS)
tests_tsan_rngd_tsan_LDADD = fips/libfips.a $(SOURCES_LIBS) $(FIPS_LIBS)
# rngd-mockkernel's TSan build, as rngd_tsan is rngd's: the accounting
# test and wait-states.sh's kernel-ready state run it (through
# DAEMON_MOCKKERNEL), as only a mocked kernel lets a test see the pool
# ready and what it was handed.
tests_tsan_rngd_mockkernel_tsan_SOURCES = $(tests_integration_rngd_mockkernel_SOURCES) \
	$(sources_libsources_a_SOURCES) tests/tsan/tsan_quiet.c
tests_tsan_rngd_mockkernel_tsan_CPPFLAGS = $(sources_libsources_a_CPPFLAGS)
tests_tsan_rngd_mockkernel_tsan_CFLAGS = $(AM_CFLAGS) $(TSAN_FLAGS)
tests_tsan_rngd_mockkernel_tsan_LDFLAGS = $(TSAN_FLAGS)
tests_tsan_rngd_mockkernel_tsan_LDADD = $(tests_tsan_rngd_tsan_LDADD)
# tests/fault/fault.mk defines EXTRA_PROGRAMS only with ASan.
if !HAVE_ASAN
EXTRA_PROGRAMS =
endif
EXTRA_PROGRAMS += $(TSAN_UNIT_TESTS) $(TSAN_BINARIES)
CLEANFILES += $(TSAN_UNIT_TESTS) $(TSAN_BINARIES)
endif
EXTRA_DIST += tests/tsan/run-tsan.sh tests/tsan/tsan.supp tests/tsan/tsan-sources.sh \
	tests/tsan/tsan_quiet.c

# The integration scripts that start threads in rngd: reader threads
# (daemon-*, credit-*), the EGD server (egd-*), the start-up watch
# (daemon-startup-*), the device watch, the wait states, and the CPU and
# sysstat sources through SIGHUPs (tsan-sources.sh), and the
# fault scripts (signals while a reader is inside a blocking call). Not
# idle-memory.sh: TSan's shadow memory is what it would measure.
TSAN_INTEGRATION_TESTS = \
	$(DAEMON_INTEGRATION_TESTS) \
	$(EGD_INTEGRATION_TESTS) $(STARTUP_INTEGRATION_TESTS) \
	$(DEVWATCH_INTEGRATION_TESTS) $(CREDIT_INTEGRATION_TESTS) tests/integration/credit-accounting.sh \
	tests/integration/wait-states.sh tests/tsan/tsan-sources.sh \
	tests/fault/fault-reads.sh tests/fault/fault-signals.sh tests/fault/fault-sink.sh
# The start's opener, and the reader it becomes when an open hangs.
if HAVE_LIBTSPI
TSAN_INTEGRATION_TESTS += tests/integration/source-open-hang.sh
endif

.PHONY: check-long-tsan
check-long-tsan: $(TSAN_UNIT_TESTS) $(TSAN_CHECK_UNITS) $(TSAN_BINARIES) rngd/rngd$(EXEEXT) \
		tests/integration/daemon-helper$(EXEEXT) tests/integration/egd-client$(EXEEXT) \
		tests/integration/uevent-send$(EXEEXT) \
		tests/fault/faultshim.so tests/fault/faultcheck$(EXEEXT)
	@if test -z '$(TSAN_BINARIES)'; then echo "check-long-tsan: $(CC) cannot link -fsanitize=thread; skipped"; exit 0; fi; \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	$(BASH) $(top_srcdir)/tests/tsan/run-tsan.sh \
		--units '$(TSAN_UNIT_TESTS) $(TSAN_CHECK_UNITS)' --scripts '$(TSAN_INTEGRATION_TESTS)'
check-long: check-long-tsan
