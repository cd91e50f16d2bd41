# fips/rngtest.mk: the rngtest program and its manual page.
# It sits at the top of the build tree as ./rngtest, like the peer's binary.
bin_PROGRAMS += rngtest
rngtest_SOURCES = fips/rngtest.c fips/rngtest_stats.c fips/rngtest_stats.h
rngtest_LDADD = fips/libfips.a $(FIPS_LIBS)
dist_man_MANS += man/rngtest.1
