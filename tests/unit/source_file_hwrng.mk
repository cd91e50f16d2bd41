# tests/unit/source_file_hwrng.mk: cmocka tests of the file source
# (sources/file.c with its offset record) and the hwrng source
# (sources/hwrng.c) on stand-in files and character devices.
SOURCE_FILE_TEST_FILES = tests/unit/test_source_file.c sources/file.c sources/file_offset.c sources/fifo_watch.c \
	sources/file_offset.h sources/common.c sources/source.h $(TESTS_LIB_SOURCE_FIXTURE)
SOURCE_HWRNG_TEST_FILES = tests/unit/test_source_hwrng.c sources/hwrng.c sources/hwrng.h sources/common.c \
	sources/source.h $(TESTS_LIB_SOURCE_FIXTURE)

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_source_file tests/unit/test_source_hwrng
TESTS += tests/unit/test_source_file tests/unit/test_source_hwrng
tests_unit_test_source_file_SOURCES = $(SOURCE_FILE_TEST_FILES)
tests_unit_test_source_hwrng_SOURCES = $(SOURCE_HWRNG_TEST_FILES)
endif
