# tests/integration/credit.mk: that rngd credits exactly what passed:
# quarantine pauses the reader, file offsets persist across restarts, and the
# accounting test with a recording mock of the kernel interface.
CREDIT_INTEGRATION_TESTS = \
	tests/integration/credit-quarantine-pause.sh \
	tests/integration/credit-file-restart.sh \
	tests/integration/credit-stuck-page.sh
TESTS += $(CREDIT_INTEGRATION_TESTS)
EXTRA_DIST += $(CREDIT_INTEGRATION_TESTS)

# rngd with every kernel call replaced by a recording mock of linux 5.18+'s
# input pool (tests/integration/kernel_entropy_mock.c): the accounting test
# compares what rngd says it credited with what the "kernel" received.
check_PROGRAMS += tests/integration/rngd-mockkernel
tests_integration_rngd_mockkernel_SOURCES = rngd/main.c $(RNGD_DAEMON_SOURCES) $(RNGD_CORE_SOURCES) \
	rngd/sink_kernel.c rngd/kernel_entropy.h rngd/hwrng_quality.c rngd/hwrng_quality_state.c rngd/hwrng_quality.h \
	rngd/privs.c rngd/privs.h rngd/notify.c rngd/notify.h $(RNGD_EGD_SOURCES) \
	tests/integration/kernel_entropy_mock.c \
	rngd/startup_watch.c rngd/startup_watch.h $(RNGD_COMPAT_SOURCES)
tests_integration_rngd_mockkernel_LDADD = $(rngd_rngd_LDADD)
TESTS += tests/integration/credit-accounting.sh tests/integration/credit-kernel-generator.sh
EXTRA_DIST += tests/integration/credit-accounting.sh tests/integration/credit-accounting.py \
	tests/integration/fips_env.py tests/integration/credit-kernel-generator.sh
