# tests/unit/sink_file_stats.mk: cmocka tests of the file sink
# (rngd/sink_file.c) and the counters' text and Prometheus forms
# (rngd/stats.c).
SINK_FILE_TEST_FILES = tests/unit/test_sink_file.c rngd/sink_file.c rngd/sink.h
STATS_TEST_FILES = tests/unit/test_stats.c rngd/stats.c rngd/stats.h $(TESTS_LIB_SLURP)

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sink_file tests/unit/test_stats
TESTS += tests/unit/test_sink_file tests/unit/test_stats
tests_unit_test_sink_file_SOURCES = $(SINK_FILE_TEST_FILES)
tests_unit_test_stats_SOURCES = $(STATS_TEST_FILES)
tests_unit_test_stats_LDADD = fips/libfips.a $(FIPS_LIBS) $(CMOCKA_LIBS)
endif
