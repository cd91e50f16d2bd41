# sources/: the source interface, the registry and the sources, built into
# one library that rngd (and tests) link. sources/issue4.mk (included right
# after this fragment) adds its files with `sources_libsources_a_SOURCES +=`
# and the libraries they need with `SOURCES_LIBS +=`.
EXTRA_DIST += sources/source.h
noinst_LIBRARIES += sources/libsources.a
sources_libsources_a_SOURCES = \
	sources/source.h \
	sources/registry.c \
	sources/common.c \
	sources/dl.c sources/dl.h \
	sources/sha512.c sources/sha512.h \
	sources/hwrng.c \
	sources/file.c sources/file_offset.c sources/file_offset.h
SOURCES_LIBS =
