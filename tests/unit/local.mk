# tests/unit/local.mk: the gate's tests (fips/), owned by the gate work.
# make check also runs each cmocka test under ASan+UBSan (sanitize.mk).
# The differential test of tests/reference/ and the table checks of
# tests/sp800-90b/ are declared here too.

FIPS_TEST_HELPERS = \
	tests/unit/fips_test_blocks.c tests/unit/fips_test_blocks.h \
	tests/reference/fips_reference.c tests/reference/fips_reference.h
FIPS_TEST_LDADD = fips/libfips.a $(CMOCKA_LIBS) $(FIPS_LIBS)

TESTS += tests/sp800-90b/check-cutoffs.sh tests/unit/check-fips-kat.sh
EXTRA_DIST += \
	tests/sp800-90b/check-cutoffs.sh \
	tests/sp800-90b/cutoffs.py \
	tests/sp800-90b/cutoffs.txt \
	tests/unit/check-fips-kat.sh \
	tests/unit/fips-kat.py \
	tests/unit/data/fips-kat.txt

# Fast gate against the bit-by-bit reference: 10^4 blocks here, 10^6 in
# check-long.
check_PROGRAMS += tests/reference/test_fips_differential
TESTS += tests/reference/test_fips_differential
tests_reference_test_fips_differential_SOURCES = \
	tests/reference/test_fips_differential.c $(FIPS_TEST_HELPERS)
tests_reference_test_fips_differential_LDADD = fips/libfips.a $(FIPS_LIBS)

# The same on the portable word loops, which this machine (with VPOPCNTQ)
# would otherwise never run.
check_PROGRAMS += tests/reference/test_fips_differential_portable
TESTS += tests/reference/test_fips_differential_portable
tests_reference_test_fips_differential_portable_SOURCES = \
	$(tests_reference_test_fips_differential_SOURCES) $(FIPS_SOURCES) $(FIPS_HDRS)
tests_reference_test_fips_differential_portable_CPPFLAGS = $(AM_CPPFLAGS) -DFIPS_PORTABLE_ONLY
tests_reference_test_fips_differential_portable_LDADD = $(FIPS_LIBS)

.PHONY: check-long-fips
check-long: check-long-fips
check-long-fips: tests/reference/test_fips_differential$(EXEEXT) \
		tests/reference/test_fips_differential_portable$(EXEEXT)
	tests/reference/test_fips_differential$(EXEEXT) 1000000
	tests/reference/test_fips_differential_portable$(EXEEXT) 200000 7

if HAVE_CMOCKA
FIPS_UNIT_TESTS = \
	tests/unit/test_fips_edges \
	tests/unit/test_fips_gate \
	tests/unit/test_fips_cutoffs \
	tests/unit/test_fips_logmath \
	tests/unit/test_fips_kat
check_PROGRAMS += $(FIPS_UNIT_TESTS)
TESTS += $(FIPS_UNIT_TESTS)

tests_unit_test_fips_edges_SOURCES = tests/unit/test_fips_edges.c $(FIPS_TEST_HELPERS)
tests_unit_test_fips_edges_LDADD = $(FIPS_TEST_LDADD)
tests_unit_test_fips_gate_SOURCES = tests/unit/test_fips_gate.c $(FIPS_TEST_HELPERS)
tests_unit_test_fips_gate_LDADD = $(FIPS_TEST_LDADD)
tests_unit_test_fips_cutoffs_SOURCES = tests/unit/test_fips_cutoffs.c
tests_unit_test_fips_cutoffs_LDADD = $(FIPS_TEST_LDADD)
# libm here only: the reference the libm-free fips/logmath.c is checked against.
tests_unit_test_fips_logmath_SOURCES = tests/unit/test_fips_logmath.c
tests_unit_test_fips_logmath_LDADD = $(FIPS_TEST_LDADD) -lm
tests_unit_test_fips_kat_SOURCES = tests/unit/test_fips_kat.c $(FIPS_TEST_HELPERS)
tests_unit_test_fips_kat_LDADD = $(FIPS_TEST_LDADD)
endif

# fips/byte_load.h, the byte-order loads of the gate and of sources/sha512.c.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_byte_load
TESTS += tests/unit/test_byte_load
tests_unit_test_byte_load_SOURCES = tests/unit/test_byte_load.c fips/byte_load.h
endif
