# fips/: owned by the gate work.
EXTRA_DIST += fips/fips.h
