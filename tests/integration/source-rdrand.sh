#!/usr/bin/env bash
# RDSEED/RDRAND on this machine's CPU: 1000 blocks come out of the source
# and pass the gate as random data does (at most 10 chance failures, the
# bound rngtest-cli.sh holds /dev/urandom to; no three in a row; no SP 800-90B
# alarm). On a CPU without either instruction the source must refuse with
# a reason instead.
. "$top_srcdir/tests/integration/source-lib.sh"

if ! grep -qwE 'rdrand|rdseed' /proc/cpuinfo; then
	"$DUMP" -n 16 rdrand > /dev/null 2> "$T/dump.err" && fail "rdrand read bytes on a CPU without RDRAND/RDSEED"
	grep -q "unavailable: .*RDRAND" "$T/dump.err" || fail "no reason given: $(cat "$T/dump.err")"
	echo "ok: no RDRAND/RDSEED here, refused with: $(cat "$T/dump.err")"
	exit 0
fi
"$DUMP" -v -n $(( 4 + 1000 * FIPS_BLOCK_BYTES )) rdrand > "$T/rdrand.bin" 2> "$T/dump.err" || fail "source-dump rdrand failed"
[ "$(stat -c %s "$T/rdrand.bin")" = $(( 4 + 1000 * FIPS_BLOCK_BYTES )) ] || fail "short dump"
read -r bad run rct apt < <(gate_report "$T/rdrand.bin" 1000) || fail "rngtest"
[ "$bad" -le 10 ] && [ "$run" -le 2 ] && [ "$rct" = 0 ] && [ "$apt" = 0 ] ||
	fail "gate: $bad failures, longest run $run, RCT $rct, APT $apt in 1000 blocks"
# The instruction in use is the one the kernel trusts, and says so.
if grep -qw rdseed /proc/cpuinfo; then
	grep -q "reading RDSEED" "$T/dump.err" || fail "RDSEED listed by the kernel but not used"
else
	grep -q "reading RDRAND" "$T/dump.err" || fail "RDRAND not reported in use"
	grep -q "entropy_per_bit 0.001953" "$T/dump.err" || fail "RDRAND credit is not 1/512"
fi
echo "ok: $(grep -o 'reading [A-Z]*' "$T/dump.err"), 1000 blocks, $bad FIPS failures; $(tail -1 "$T/dump.err" | sed 's/^source-dump: //')"
