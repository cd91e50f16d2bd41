# fips/: the gate library (no I/O). Owned by the gate work.
#
# FIPS_SOURCES is exported so that other builds (the ASan builds of rngd
# and rngtest, fuzz harnesses) can compile the gate with their own flags.
FIPS_SOURCES = \
	fips/apt.c \
	fips/block.c \
	fips/continuous.c \
	fips/gate.c \
	fips/lagged.c \
	fips/logmath.c \
	fips/names.c \
	fips/rct.c \
	fips/repeat.c \
	fips/sp800_90b.c \
	fips/verdict.c
FIPS_HDRS = fips/fips.h fips/internal.h
# Byte-order loads, shared with sources/sha512.c (header-only).
FIPS_HDRS += fips/byte_load.h
# No libm: fips/logmath.c (0.45 MB resident in the daemon otherwise).
FIPS_LIBS =

noinst_LIBRARIES += fips/libfips.a
fips_libfips_a_SOURCES = $(FIPS_SOURCES) $(FIPS_HDRS)
