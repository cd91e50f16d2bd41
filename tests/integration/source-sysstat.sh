#!/usr/bin/env bash
# sysstat: its bytes are never credited (entropy_per_bit 0, which -O cannot
# raise), and its hashed output still goes through the gate like any other:
# about 0.1% of random-looking blocks fail some FIPS test by chance, so only
# 3 failing blocks in a row, or an SP 800-90B RCT/APT alarm, is a sampler bug.
. "$top_srcdir/tests/integration/source-lib.sh"
blocks=400

"$DUMP" -v -n $(( 4 + blocks * 2500 )) sysstat > "$T/sysstat.bin" 2> "$T/dump.err" || fail "source-dump sysstat failed"
grep -q "entropy_per_bit 0.000000" "$T/dump.err" || fail "sysstat opened with a credit: $(head -1 "$T/dump.err")"
read -r bad run rct apt < <(gate_report "$T/sysstat.bin" "$blocks") || fail "rngtest"
[ "$run" -lt 3 ] || fail "$run failing blocks in a row: the sampler's output is not random-looking"
[ "$rct" = 0 ] && [ "$apt" = 0 ] || fail "SP 800-90B alarm: RCT $rct, APT $apt"
[ "$bad" -le 8 ] || fail "$bad of $blocks blocks failed (0.1% expected)"

# -O cannot raise the credit, through source-dump (the source's own keys)...
"$DUMP" -n 16 -O entropy_per_bit:0.5 sysstat > /dev/null 2> "$T/opt.err" && fail "-O entropy_per_bit:0.5 accepted"
grep -q "stays 0" "$T/opt.err" || fail "no reason for refusing the credit: $(cat "$T/opt.err")"
# ...nor through rngd's list, where the credit shows 0.
"$top_builddir/rngd/rngd" -l > "$T/list.out" 2>&1 || fail "rngd -l failed"
grep -qE '^sysstat +yes +0\.000 ' "$T/list.out" || fail "rngd -l: $(grep sysstat "$T/list.out")"
echo "ok: $blocks blocks, $bad FIPS failures (longest run $run), no RCT/APT alarm, credit 0; $(tail -1 "$T/dump.err" | sed 's/^source-dump: //')"
