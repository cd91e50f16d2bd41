# sources/issue17.mk: the arm64 RNDRRS/RNDR, POWER DARN and PKCS#11
# sources (issue 17). Included right after sources/issue4.mk. Each CPU
# source is in the library only on its architecture; its unit test builds
# it everywhere with a fake instruction (tests/unit/issue17.mk).
if RNGD_CPU_ARM64
sources_libsources_a_SOURCES += sources/rndr.h sources/rndr.c
else
EXTRA_DIST += sources/rndr.h sources/rndr.c
endif

if RNGD_CPU_POWER
sources_libsources_a_SOURCES += sources/darn.h sources/darn.c
else
EXTRA_DIST += sources/darn.h sources/darn.c
endif

if HAVE_P11KIT
sources_libsources_a_SOURCES += sources/pkcs11.h sources/pkcs11.c
sources_libsources_a_CPPFLAGS += $(P11KIT_CFLAGS)
# p11-kit is dlopen()ed by the source: nothing to link.
else
EXTRA_DIST += sources/pkcs11.h sources/pkcs11.c
endif
