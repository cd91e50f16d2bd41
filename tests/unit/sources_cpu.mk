# tests/unit/sources_cpu.mk: cmocka tests of the arm64, POWER and PKCS#11
# sources. The CPU
# sources are built into their tests on every architecture with fake
# instructions (plus the real one where it exists).
SOURCE_RNDR_TEST_FILES = tests/unit/test_source_rndr.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/rndr.c sources/rndr.h \
	$(SOURCE_CPU_COMMON_FILES)
SOURCE_DARN_TEST_FILES = tests/unit/test_source_darn.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/darn.c sources/darn.h \
	$(SOURCE_CPU_COMMON_FILES)
SOURCE_PKCS11_TEST_FILES = tests/unit/test_source_pkcs11.c $(TESTS_LIB_SOURCE_FIXTURE) sources/pkcs11.c sources/pkcs11.h sources/common.c sources/parse_num.c \
	sources/dl.c sources/dl.h
EXTRA_DIST += $(SOURCE_RNDR_TEST_FILES) $(SOURCE_DARN_TEST_FILES) $(SOURCE_PKCS11_TEST_FILES)

if HAVE_CMOCKA
CPU_P11_SOURCE_UNIT_TESTS = tests/unit/test_source_rndr tests/unit/test_source_darn
tests_unit_test_source_rndr_SOURCES = $(SOURCE_RNDR_TEST_FILES)
tests_unit_test_source_darn_SOURCES = $(SOURCE_DARN_TEST_FILES)
if HAVE_P11KIT
CPU_P11_SOURCE_UNIT_TESTS += tests/unit/test_source_pkcs11
tests_unit_test_source_pkcs11_SOURCES = $(SOURCE_PKCS11_TEST_FILES)
# Its headers only: the source dlopen()s p11-kit, the test fakes it.
tests_unit_test_source_pkcs11_CPPFLAGS = $(AM_CPPFLAGS) $(P11KIT_CFLAGS)
endif
check_PROGRAMS += $(CPU_P11_SOURCE_UNIT_TESTS)
TESTS += $(CPU_P11_SOURCE_UNIT_TESTS)
endif
