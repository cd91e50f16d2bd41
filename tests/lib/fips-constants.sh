# Sourced by the shell tests: FIPS_BLOCK_BITS, FIPS_BLOCK_BYTES,
# FIPS_SEED_BYTES, FIPS_REPEAT_HISTORY ... as fips/fips.h defines them,
# read from the header itself so that no script retypes 2500.
: "${top_srcdir:?top_srcdir must be set (make check sets it)}"
eval "$(sed -n 's/^#define \(FIPS_[A-Z0-9_]*\) \([0-9A-Z_ ()/*+-]*\)$/\1=$(( \2 ))/p' \
	"$top_srcdir/fips/fips.h")"
: "${FIPS_BLOCK_BYTES:?cannot read FIPS_BLOCK_BYTES from $top_srcdir/fips/fips.h}"
