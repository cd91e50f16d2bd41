# tests/unit/compat.mk: cmocka test of rngd/compat.c and compat_defaults.c.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_compat
TESTS += tests/unit/test_compat
tests_unit_test_compat_SOURCES = tests/unit/test_compat.c $(TESTS_LIB_ARGV) rngd/compat.c rngd/compat.h rngd/compat_peers.c rngd/compat_load.c rngd/compat_sources.c \
	rngd/compat_defaults.c rngd/slot.c rngd/options.c rngd/options_table.c rngd/argv_scan.c sources/parse_num.c rngd/config.c rngd/options.h
tests_unit_test_compat_LDADD = sources/libsources.a fips/libfips.a $(SOURCES_LIBS) $(FIPS_LIBS) \
	$(CMOCKA_LIBS) -lm
endif
