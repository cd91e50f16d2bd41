# tests/lib/lib.mk: helpers shared by the test programs, listed in their
# _SOURCES (one copy of each instead of one per program).
TESTS_LIB_SLURP = tests/lib/slurp.c tests/lib/slurp.h
# A source made for a test, torn down after it, refusing as it must (cmocka).
TESTS_LIB_SOURCE_FIXTURE = tests/lib/source_fixture.c tests/lib/source_fixture.h
# Fake CPU instructions, x86 CPUID and back-off sleeps for the hardware sources
# (cmocka; link TESTS_LIB_SOURCE_FIXTURE too: its refusal checks use it).
TESTS_LIB_FAKE_HW = tests/lib/fake_hw.c tests/lib/fake_hw.h
# An argv from a NULL-terminated word list (cmocka).
TESTS_LIB_ARGV = tests/lib/test_argv.c tests/lib/test_argv.h

# fips/fips.h's constants for the shell tests (sourced; reads the header).
EXTRA_DIST += tests/lib/fips-constants.sh
# The cmocka tests' one main() (a header: RNGD_TEST_MAIN).
EXTRA_DIST += tests/lib/test_main.h
# Where a test finds its data file (a header: test_data_file()).
EXTRA_DIST += tests/lib/test_data_file.h
# The tests' one seeded generator (a header: the fault shim and the fuzz
# harnesses, built by their own rules, include it too).
EXTRA_DIST += tests/lib/splitmix64.h
