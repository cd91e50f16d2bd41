# tests/fault/: read and write faults and signals at awkward moments, against the real
# rngd under guard.sh. Owned by the hardening work.
# faultshim.so is an LD_PRELOAD library built by an explicit rule (no
# libtool here); listing it in check_SCRIPTS makes make check build it.
check_PROGRAMS += tests/fault/faultcheck
tests_fault_faultcheck_SOURCES = tests/fault/faultcheck.c $(TESTS_LIB_SLURP)
tests_fault_faultcheck_LDADD = fips/libfips.a $(FIPS_LIBS)

check_SCRIPTS += tests/fault/faultshim.so
CLEANFILES += tests/fault/faultshim.so
tests/fault/faultshim.so: $(top_srcdir)/tests/fault/faultshim.c $(top_srcdir)/tests/lib/splitmix64.h
	@$(MKDIR_P) tests/fault
	$(CC) $(AM_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $(top_srcdir)/tests/fault/faultshim.c -ldl

TESTS += tests/fault/fault-reads.sh tests/fault/fault-signals.sh tests/fault/fault-sink.sh
EXTRA_DIST += \
	tests/fault/faultshim.c \
	tests/fault/fault-lib.sh \
	tests/fault/fault-reads.sh \
	tests/fault/fault-signals.sh \
	tests/fault/fault-sink.sh \
	tests/fault/lsan.supp

# check-long: the same fault tests against an ASan+UBSan build of rngd, so
# a memory error on an error path fails even when it does not crash.
# Built on demand only (EXTRA_PROGRAMS), from rngd's own source lists.
FAULT_ASAN_RNGD =
if HAVE_ASAN
EXTRA_PROGRAMS = tests/fault/rngd_asan
tests_fault_rngd_asan_SOURCES = $(rngd_rngd_SOURCES) $(sources_libsources_a_SOURCES) \
	$(FIPS_SOURCES) $(FIPS_HDRS)
tests_fault_rngd_asan_CPPFLAGS = $(sources_libsources_a_CPPFLAGS)
tests_fault_rngd_asan_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tests_fault_rngd_asan_LDFLAGS = $(SANITIZE_FLAGS)
tests_fault_rngd_asan_LDADD = $(SOURCES_LIBS) $(FIPS_LIBS)
CLEANFILES += tests/fault/rngd_asan$(EXEEXT)
FAULT_ASAN_RNGD += tests/fault/rngd_asan$(EXEEXT)
endif

.PHONY: check-long-fault
check-long-fault: $(FAULT_ASAN_RNGD) tests/fault/faultcheck$(EXEEXT) \
		tests/fault/faultshim.so tests/integration/daemon-helper$(EXEEXT)
	@if test -z '$(FAULT_ASAN_RNGD)'; then echo "check-long-fault: no ASan here; skipped"; exit 0; fi; \
	for t in fault-reads fault-signals fault-sink; do \
		echo "check-long-fault: $$t.sh on rngd_asan"; \
		top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		FAULT_RNGD='$(abs_top_builddir)/$(FAULT_ASAN_RNGD)' \
		$(BASH) $(top_srcdir)/tests/fault/$$t.sh || exit 1; \
	done
check-long: check-long-fault
