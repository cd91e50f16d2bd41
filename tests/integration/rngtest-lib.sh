# Helpers sourced by the rngtest-*.sh tests.
: "${top_srcdir:?top_srcdir must be set (make check sets it)}"
: "${top_builddir:?top_builddir must be set (make check sets it)}"
. "$top_srcdir/tests/lib/fips-constants.sh"

ours=${RNGTEST:-$top_builddir/rngtest}
gen=$top_builddir/tests/integration/gen-input
[ -x "$ours" ] || { echo "FAIL: $ours is not built"; exit 1; }
[ -x "$gen" ] || { echo "FAIL: $gen is not built"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/rngtest-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

n_pass=0
n_fail=0
ok() { n_pass=$((n_pass + 1)); echo "ok: $*"; }
bad() { n_fail=$((n_fail + 1)); echo "FAIL: $*"; }
# check DESCRIPTION COMMAND...: runs COMMAND as a test condition.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}
finish() {
	echo "$n_pass passed, $n_fail failed"
	[ "$n_fail" -eq 0 ]
}

# value FILE LABEL: the number on the last "rngtest: LABEL: N" line.
value() {
	awk -v l="rngtest: $2: " 'index($0, l) == 1 { v = substr($0, length(l) + 1) } END { print v }' "$1"
}

# The peer's count lines (every report, in order), without speeds or times.
fips_counts() {
	grep -E '^rngtest: (bits received from input|bits sent to output|FIPS 140-2 successes|FIPS 140-2 failures|FIPS 140-2\(2001-10-10\) [A-Za-z ]+): [0-9]+$' "$1"
}
