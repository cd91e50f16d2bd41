# tests/unit/sources.mk: cmocka tests of the sources (fake CPUID, fake
# XSTORE/RDRAND/RDSEED/RNDR/DARN, fake libtspi, tss2 and p11-kit, sample
# /proc texts). The CPU sources are built into their tests on every
# architecture with fake instructions (plus the real one where it exists).
# What the CPU-instruction sources (rdrand, rndr, darn) share, for their tests.
SOURCE_CPU_COMMON_FILES = sources/cpu_source.c sources/cpu_source.h sources/cpu_words.c sources/cpu_words.h \
	sources/common.c

SOURCE_RDRAND_TEST_FILES = tests/unit/test_source_rdrand.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/rdrand.c sources/rdrand.h rngd/credit.c \
	sources/cpuid.c sources/cpuid.h $(SOURCE_CPU_COMMON_FILES)
SOURCE_PADLOCK_TEST_FILES = tests/unit/test_source_padlock.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/padlock.c sources/padlock.h \
	sources/cpuid.c sources/cpuid.h sources/common.c
SOURCE_SYSSTAT_PARSE_TEST_FILES = tests/unit/test_source_sysstat_parse.c \
	sources/sysstat_parse.c sources/sysstat_parse.h
SOURCE_SYSSTAT_TEST_FILES = tests/unit/test_source_sysstat.c sources/sysstat.c sources/sysstat.h rngd/credit.c \
	sources/sysstat_parse.c sources/sysstat_parse.h sources/common.c sources/sha512.c sources/sha512.h
SHA512_TEST_FILES = tests/unit/test_sha512.c sources/sha512.c sources/sha512.h
SOURCE_DL_TEST_FILES = tests/unit/test_source_dl.c sources/dl.c sources/dl.h sources/common.c
SOURCE_COMMON_TEST_FILES = tests/unit/test_source_common.c sources/common.c sources/source.h
SOURCE_TPM_TSS_TEST_FILES = tests/unit/test_source_tpm_tss.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/tpm_tss.c sources/tpm_tss.h \
	sources/common.c sources/parse_num.c sources/dl.c sources/dl.h
SOURCE_TPM2_TEST_FILES = tests/unit/test_source_tpm2.c $(TESTS_LIB_SOURCE_FIXTURE) sources/tpm2.c sources/common.c \
	sources/dl.c sources/dl.h
SOURCE_RNDR_TEST_FILES = tests/unit/test_source_rndr.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/rndr.c sources/rndr.h \
	$(SOURCE_CPU_COMMON_FILES)
SOURCE_DARN_TEST_FILES = tests/unit/test_source_darn.c $(TESTS_LIB_SOURCE_FIXTURE) $(TESTS_LIB_FAKE_HW) sources/darn.c sources/darn.h \
	$(SOURCE_CPU_COMMON_FILES)
SOURCE_PKCS11_TEST_FILES = tests/unit/test_source_pkcs11.c $(TESTS_LIB_SOURCE_FIXTURE) sources/pkcs11.c sources/pkcs11.h sources/common.c sources/parse_num.c \
	sources/dl.c sources/dl.h

EXTRA_DIST += $(SOURCE_RDRAND_TEST_FILES) $(SOURCE_PADLOCK_TEST_FILES) \
	$(SOURCE_SYSSTAT_PARSE_TEST_FILES) $(SOURCE_SYSSTAT_TEST_FILES) \
	$(SOURCE_TPM_TSS_TEST_FILES) $(SOURCE_TPM2_TEST_FILES) $(SHA512_TEST_FILES) \
	$(SOURCE_DL_TEST_FILES) $(SOURCE_COMMON_TEST_FILES) \
	$(SOURCE_RNDR_TEST_FILES) $(SOURCE_DARN_TEST_FILES) $(SOURCE_PKCS11_TEST_FILES)

if HAVE_CMOCKA
SOURCE_UNIT_TESTS = tests/unit/test_source_rdrand tests/unit/test_source_padlock \
	tests/unit/test_source_sysstat_parse tests/unit/test_sha512 tests/unit/test_source_dl \
	tests/unit/test_source_common tests/unit/test_source_rndr tests/unit/test_source_darn \
	tests/unit/test_source_sysstat

tests_unit_test_sha512_SOURCES = $(SHA512_TEST_FILES)
tests_unit_test_source_dl_SOURCES = $(SOURCE_DL_TEST_FILES)
tests_unit_test_source_common_SOURCES = $(SOURCE_COMMON_TEST_FILES)

tests_unit_test_source_rdrand_SOURCES = $(SOURCE_RDRAND_TEST_FILES)
tests_unit_test_source_rdrand_LDADD = $(CMOCKA_LIBS) -lm
tests_unit_test_source_padlock_SOURCES = $(SOURCE_PADLOCK_TEST_FILES)
tests_unit_test_source_sysstat_parse_SOURCES = $(SOURCE_SYSSTAT_PARSE_TEST_FILES)
tests_unit_test_source_rndr_SOURCES = $(SOURCE_RNDR_TEST_FILES)
tests_unit_test_source_darn_SOURCES = $(SOURCE_DARN_TEST_FILES)
tests_unit_test_source_sysstat_SOURCES = $(SOURCE_SYSSTAT_TEST_FILES)
tests_unit_test_source_sysstat_LDADD = $(CMOCKA_LIBS) -lm

if HAVE_LIBTSPI
SOURCE_UNIT_TESTS += tests/unit/test_source_tpm_tss
tests_unit_test_source_tpm_tss_SOURCES = $(SOURCE_TPM_TSS_TEST_FILES)
tests_unit_test_source_tpm_tss_LDADD = $(CMOCKA_LIBS) $(TSPI_LIBS)
endif
# The sources of the dlopen()ed stacks are built with the library's flags:
# their headers only, as each test fakes its library.
if HAVE_TSS2_ESYS
SOURCE_UNIT_TESTS += tests/unit/test_source_tpm2
tests_unit_test_source_tpm2_SOURCES = $(SOURCE_TPM2_TEST_FILES)
tests_unit_test_source_tpm2_CPPFLAGS = $(sources_libsources_a_CPPFLAGS)
endif
if HAVE_P11KIT
SOURCE_UNIT_TESTS += tests/unit/test_source_pkcs11
tests_unit_test_source_pkcs11_SOURCES = $(SOURCE_PKCS11_TEST_FILES)
tests_unit_test_source_pkcs11_CPPFLAGS = $(sources_libsources_a_CPPFLAGS)
endif

check_PROGRAMS += $(SOURCE_UNIT_TESTS)
TESTS += $(SOURCE_UNIT_TESTS)
endif

# sources/read_full.h, the whole-file read of sources/sysstat.c, the PKCS#11
# PIN file and rngd/config.c.
EXTRA_DIST += tests/unit/test_read_full.c
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_read_full
TESTS += tests/unit/test_read_full
tests_unit_test_read_full_SOURCES = tests/unit/test_read_full.c sources/read_full.h
endif
