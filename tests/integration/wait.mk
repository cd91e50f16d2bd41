# tests/integration/wait.mk: what rngd costs while it waits (issue 19):
# wait-states.sh measures CPU and wake-ups of rngd in each wait state;
# wait-ksink drives the loop and the kernel sink over mocked kernel calls
# for the "pool ready" state.
check_PROGRAMS += tests/integration/wait-ksink
tests_integration_wait_ksink_SOURCES = tests/integration/wait-ksink.c \
	rngd/loop.c rngd/loop.h rngd/block_flow.c rngd/loop_jobs.c rngd/policy.c rngd/reader.c rngd/reader.h rngd/log.c rngd/credit.c rngd/stats.c rngd/notify.c \
	rngd/hwrng_quality.c rngd/hwrng_quality_state.c rngd/sink_kernel.c rngd/kernel_entropy.h rngd/sink.h
tests_integration_wait_ksink_CFLAGS = $(AM_CFLAGS) -pthread
tests_integration_wait_ksink_LDADD = sources/libsources.a fips/libfips.a $(SOURCES_LIBS) \
	$(FIPS_LIBS) -lm -lpthread

# idle-memory.sh measures rngd's VmHWM against this do-nothing C program's.
check_PROGRAMS += tests/integration/idle-reference
tests_integration_idle_reference_SOURCES = tests/integration/idle-reference.c

WAIT_INTEGRATION_TESTS = tests/integration/wait-states.sh tests/integration/idle-memory.sh
TESTS += $(WAIT_INTEGRATION_TESTS)
EXTRA_DIST += $(WAIT_INTEGRATION_TESTS) tests/integration/mem-lib.sh
