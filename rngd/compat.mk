# rngd/compat.mk: rng-tools compatibility (issue 13): the personalities'
# tables and Debian's defaults file.
RNGD_COMPAT_SOURCES = rngd/compat.c rngd/compat.h rngd/compat_load.c rngd/compat_sources.c rngd/compat_defaults.c
rngd_rngd_SOURCES += $(RNGD_COMPAT_SOURCES)
