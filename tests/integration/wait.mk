# tests/integration/wait.mk: what rngd costs while it waits:
# wait-states.sh measures CPU and wake-ups of rngd in each wait state
# (its "pool ready" state runs tests/integration/rngd-mockkernel, built in
# tests/integration/credit.mk).

# idle-memory.sh measures rngd's VmHWM against this do-nothing C program's.
check_PROGRAMS += tests/integration/idle-reference
tests_integration_idle_reference_SOURCES = tests/integration/idle-reference.c
tests_integration_idle_reference_LDADD =

WAIT_INTEGRATION_TESTS = tests/integration/wait-states.sh tests/integration/idle-memory.sh
TESTS += $(WAIT_INTEGRATION_TESTS)
EXTRA_DIST += $(WAIT_INTEGRATION_TESTS) tests/integration/mem-lib.sh
