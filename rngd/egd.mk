# rngd/egd.mk: the EGD server: its sources for rngd, their unit tests
# (run under ASan+UBSan too: tests/unit/sanitize.mk), the host tests and
# their client, and the request parser's fuzz harness (a replay run in
# make check, libFuzzer in check-long when clang is there).
RNGD_EGD_SOURCES = \
	rngd/egd_proto.c rngd/egd_proto.h \
	rngd/egd_reserve.c rngd/egd_reserve.h \
	rngd/egd_server.c rngd/egd_server.h rngd/egd_clients.c rngd/egd_clients.h \
	rngd/egd_share.c rngd/egd_share.h \
	rngd/egd_condense.c rngd/egd_condense.h

rngd_rngd_SOURCES += $(RNGD_EGD_SOURCES)

EGD_RESERVE_TEST_FILES = tests/unit/test_egd_reserve.c rngd/egd_reserve.c rngd/egd_reserve.h
EGD_PROTO_TEST_FILES = tests/unit/test_egd_proto.c rngd/egd_proto.c rngd/egd_proto.h \
	rngd/egd_reserve.c rngd/egd_reserve.h
EGD_SERVER_TEST_FILES = tests/unit/test_egd_server.c rngd/egd_server.c rngd/egd_server.h rngd/egd_clients.c \
	rngd/egd_proto.c rngd/egd_reserve.c rngd/log.c rngd/log.h sources/parse_num.c
EGD_SHARE_TEST_FILES = tests/unit/test_egd_share.c rngd/egd_share.c rngd/egd_share.h \
	rngd/egd_reserve.c rngd/egd_reserve.h rngd/egd_condense.c rngd/egd_condense.h \
	sources/sha512.c sources/sha512.h
EGD_FUZZ_FILES = tests/fuzz/test_egd_fuzz.c rngd/egd_proto.c rngd/egd_proto.h \
	rngd/egd_reserve.c rngd/egd_reserve.h

if HAVE_CMOCKA
EGD_UNIT_TESTS = tests/unit/test_egd_reserve tests/unit/test_egd_proto \
	tests/unit/test_egd_server tests/unit/test_egd_share
check_PROGRAMS += $(EGD_UNIT_TESTS)
TESTS += $(EGD_UNIT_TESTS)
tests_unit_test_egd_reserve_SOURCES = $(EGD_RESERVE_TEST_FILES)
tests_unit_test_egd_proto_SOURCES = $(EGD_PROTO_TEST_FILES)
tests_unit_test_egd_server_SOURCES = $(EGD_SERVER_TEST_FILES)
# The socket permission race: an attacker's symlink swapped in after bind().
tests_unit_test_egd_server_LDFLAGS = -Wl,--wrap=bind
tests_unit_test_egd_share_SOURCES = $(EGD_SHARE_TEST_FILES)
endif

# The fuzz harness: built with ASan+UBSan, it replays a fixed-seed stream
# of inputs (and any files named on its command line) in make check.
check_PROGRAMS += tests/fuzz/test_egd_fuzz
TESTS += tests/fuzz/test_egd_fuzz
tests_fuzz_test_egd_fuzz_SOURCES = $(EGD_FUZZ_FILES)
tests_fuzz_test_egd_fuzz_CFLAGS = $(AM_CFLAGS)
tests_fuzz_test_egd_fuzz_LDADD =
if HAVE_ASAN
tests_fuzz_test_egd_fuzz_CFLAGS += $(SANITIZE_FLAGS)
tests_fuzz_test_egd_fuzz_LDFLAGS = $(SANITIZE_FLAGS)
endif

# libFuzzer for a minute, when clang can link -fsanitize=fuzzer.
check-long: check-long-egd
check-long-egd:
	@if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
	    | clang -x c -fsanitize=fuzzer -o egd-fuzz-probe - 2>/dev/null; then \
		rm -f egd-fuzz-probe; \
		clang -std=gnu11 -g -O1 -DEGD_LIBFUZZER -fsanitize=fuzzer,address,undefined \
			-I$(top_srcdir) -I$(top_builddir) -pthread \
			$(top_srcdir)/tests/fuzz/test_egd_fuzz.c $(top_srcdir)/rngd/egd_proto.c \
			$(top_srcdir)/rngd/egd_reserve.c -o egd-libfuzzer && \
		./egd-libfuzzer -max_total_time=60 -max_len=4096; \
	else \
		echo "check-long-egd: clang cannot link -fsanitize=fuzzer; libFuzzer run skipped"; \
	fi
CLEANFILES += egd-libfuzzer

# Host tests: rngd -o none --egd-socket under guard.sh, and their client.
check_PROGRAMS += tests/integration/egd-client
tests_integration_egd_client_SOURCES = tests/integration/egd-client.c $(TESTS_LIB_SLURP)
tests_integration_egd_client_LDADD =
EGD_INTEGRATION_TESTS = \
	tests/integration/egd-commands.sh \
	tests/integration/egd-many.sh \
	tests/integration/egd-rate.sh \
	tests/integration/egd-bad-source.sh \
	tests/integration/egd-restart.sh \
	tests/integration/egd-options.sh
# --egd-clients against the open-file limit (rngd under prlimit).
EGD_INTEGRATION_TESTS += tests/integration/egd-fd-limit.sh
TESTS += $(EGD_INTEGRATION_TESTS)
EXTRA_DIST += $(EGD_INTEGRATION_TESTS) tests/integration/egd-lib.sh

# QEMU scenarios (make check-qemu): a guest on rng-egd served by the host's
# rngd, beside rng-random; a failing host source; host rngd restarts.
EXTRA_DIST += tests/qemu/egd-host.sh tests/qemu/guest/egd.sh \
	tests/qemu/scenarios/egd-serve.sh tests/qemu/scenarios/egd-bad.sh \
	tests/qemu/scenarios/egd-restart.sh
