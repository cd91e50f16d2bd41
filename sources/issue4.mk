# sources/issue4.mk: the TPM 1.2, TPM 2.0, PadLock, RDRAND/RDSEED and sysstat
# sources (issue 4). Included right after sources/local.mk.
sources_libsources_a_SOURCES += \
	sources/sysstat_parse.h sources/sysstat_parse.c
# x86 only (issue 17): elsewhere the unit tests still build them with fakes.
if RNGD_CPU_X86
sources_libsources_a_SOURCES += \
	sources/cpuid.h sources/cpuid.c \
	sources/rdrand.h sources/rdrand.c \
	sources/padlock.h sources/padlock.c
else
EXTRA_DIST += \
	sources/cpuid.h sources/cpuid.c \
	sources/rdrand.h sources/rdrand.c \
	sources/padlock.h sources/padlock.c
endif
sources_libsources_a_CPPFLAGS = $(AM_CPPFLAGS)

if HAVE_LIBTSPI
# libtspi is dlopen()ed by the source (sources/dl.h): only its headers are
# needed here, and TSPI_LIBS only by the unit test that calls it directly.
sources_libsources_a_SOURCES += sources/tpm_tss.h sources/tpm_tss.c
else
EXTRA_DIST += sources/tpm_tss.h sources/tpm_tss.c
endif

if HAVE_TSS2_ESYS
sources_libsources_a_SOURCES += sources/tpm2.c
sources_libsources_a_CPPFLAGS += $(TSS2_CFLAGS)
# tss2 is dlopen()ed by the source: nothing to link.
else
EXTRA_DIST += sources/tpm2.c
endif

if RNGD_SYSSTAT
sources_libsources_a_SOURCES += sources/sysstat.h sources/sysstat.c
else
EXTRA_DIST += sources/sysstat.h sources/sysstat.c
endif
