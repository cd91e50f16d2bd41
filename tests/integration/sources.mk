# tests/integration/sources.mk: host tests of the hardware and sysstat
# sources through source-dump (no daemon): RDRAND into rngtest, PadLock's
# honest refusal, sysstat's zero credit and gate behaviour, TPM 1.2 through
# swtpm + tcsd (with a tcsd restart) and TPM 2.0 through swtpm, all on
# 127.0.0.1; and one daemon test, a tpm open that hangs at start.
check_PROGRAMS += tests/integration/source-dump
tests_integration_source_dump_SOURCES = tests/integration/source-dump.c
tests_integration_source_dump_LDADD = sources/libsources.a $(SOURCES_LIBS)

SOURCE_INTEGRATION_TESTS =
# RDRAND and PadLock exist only in x86 builds.
if RNGD_CPU_X86
SOURCE_INTEGRATION_TESTS += \
	tests/integration/source-rdrand.sh \
	tests/integration/source-padlock.sh
endif
if RNGD_SYSSTAT
SOURCE_INTEGRATION_TESTS += tests/integration/source-sysstat.sh
endif
if HAVE_LIBTSPI
SOURCE_INTEGRATION_TESTS += tests/integration/source-tpm12.sh
# A tpm open that hangs at start (a mute tcsd): the start goes on without it.
SOURCE_INTEGRATION_TESTS += tests/integration/source-open-hang.sh
endif
EXTRA_DIST += tests/integration/source-open-hang.sh
if HAVE_TSS2_ESYS
SOURCE_INTEGRATION_TESTS += tests/integration/source-tpm2.sh
endif
# The dlopen()ed libraries: rngd -l names the one that is missing.
SOURCE_INTEGRATION_TESTS += tests/integration/source-missing-lib.sh
TESTS += $(SOURCE_INTEGRATION_TESTS)

EXTRA_DIST += \
	tests/integration/source-lib.sh \
	tests/integration/source-rdrand.sh \
	tests/integration/source-padlock.sh \
	tests/integration/source-sysstat.sh \
	tests/integration/source-tpm12.sh \
	tests/integration/source-tpm2.sh \
	tests/integration/source-missing-lib.sh
