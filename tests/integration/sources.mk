# tests/integration/sources.mk: host tests of issue 4's sources through
# source-dump (no daemon).
check_PROGRAMS += tests/integration/source-dump
tests_integration_source_dump_SOURCES = tests/integration/source-dump.c
tests_integration_source_dump_LDADD = sources/libsources.a $(SOURCES_LIBS)
