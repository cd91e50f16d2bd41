# sources/: the source interface, the registry and the sources, built into
# one library that rngd (and tests) link. A condition here only where a
# build needs a library's headers: the sources that need none (the CPU
# instruction sources of every architecture, each with its instruction
# behind its own #if, and sysstat) are compiled everywhere, so a plain make
# on x86 finds a break in the arm64 or POWER source. What rngd offers is
# sources/registry.c's to say (configure's RNGD_CPU_* and RNGD_SYSSTAT):
# a source it does not name is never linked from the archive. The
# optional stacks (libtspi, tss2, p11-kit) are dlopen()ed by their source
# (sources/dl.h): only their headers are needed here.
EXTRA_DIST += sources/source.h
noinst_LIBRARIES += sources/libsources.a
sources_libsources_a_SOURCES = \
	sources/source.h sources/close_fd.h sources/backoff.h sources/kernel_generator.h \
	sources/registry.c \
	sources/common.c \
	sources/parse_num.c sources/parse_num.h \
	sources/dl.c sources/dl.h \
	sources/sha512.c sources/sha512.h \
	sources/cpu_source.c sources/cpu_source.h \
	sources/cpu_words.c sources/cpu_words.h \
	sources/hwrng.h sources/hwrng.c \
	sources/file.c sources/file_offset.c sources/file_offset.h sources/fifo_watch.c sources/fifo_watch.h
SOURCES_LIBS =
# Header-only: the whole-file reads of sources/sysstat.c, sources/pkcs11.c's
# PIN file and rngd/config.c.
sources_libsources_a_SOURCES += sources/read_full.h

sources_libsources_a_SOURCES += \
	sources/sysstat_parse.h sources/sysstat_parse.c
sources_libsources_a_SOURCES += \
	sources/cpuid.h sources/cpuid.c \
	sources/rdrand.h sources/rdrand.c \
	sources/padlock.h sources/padlock.c \
	sources/rndr.h sources/rndr.c \
	sources/darn.h sources/darn.c \
	sources/sysstat.h sources/sysstat.c
# The dlopen()ed stacks' headers; a stack configure left out has them
# empty (and its source is not built).
sources_libsources_a_CPPFLAGS = $(AM_CPPFLAGS) $(TSS2_CFLAGS) $(P11KIT_CFLAGS)

if HAVE_LIBTSPI
# libtspi is dlopen()ed by the source (sources/dl.h): only its headers are
# needed here, and TSPI_LIBS only by the unit test that calls it directly.
sources_libsources_a_SOURCES += sources/tpm_tss.h sources/tpm_tss.c
endif

if HAVE_TSS2_ESYS
sources_libsources_a_SOURCES += sources/tpm2.c
endif

if HAVE_P11KIT
sources_libsources_a_SOURCES += sources/pkcs11.h sources/pkcs11.c
endif
