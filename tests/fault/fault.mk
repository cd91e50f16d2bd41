# tests/fault/: read and write faults and signals at awkward moments, against the real
# rngd under guard.sh. Owned by the hardening work.
# faultshim.so is an LD_PRELOAD library built by an explicit rule (no
# libtool here); listing it in check_SCRIPTS makes make check build it.
check_PROGRAMS += tests/fault/faultcheck
tests_fault_faultcheck_SOURCES = tests/fault/faultcheck.c
tests_fault_faultcheck_LDADD = fips/libfips.a $(FIPS_LIBS)

check_SCRIPTS += tests/fault/faultshim.so
CLEANFILES += tests/fault/faultshim.so
tests/fault/faultshim.so: $(top_srcdir)/tests/fault/faultshim.c
	@$(MKDIR_P) tests/fault
	$(CC) $(AM_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $(top_srcdir)/tests/fault/faultshim.c -ldl -lpthread

TESTS += tests/fault/fault-reads.sh tests/fault/fault-signals.sh tests/fault/fault-sink.sh
EXTRA_DIST += \
	tests/fault/faultshim.c \
	tests/fault/fault-lib.sh \
	tests/fault/fault-reads.sh \
	tests/fault/fault-signals.sh \
	tests/fault/fault-sink.sh
