# rngd/compat.mk: rng-tools compatibility: the personalities' option
# tables and the reader of Debian's defaults file, linked into rngd.
RNGD_COMPAT_SOURCES = rngd/compat.c rngd/compat.h rngd/compat_peers.c rngd/compat_peers.h rngd/compat_load.c rngd/compat_sources.c rngd/compat_defaults.c
rngd_rngd_SOURCES += $(RNGD_COMPAT_SOURCES)
