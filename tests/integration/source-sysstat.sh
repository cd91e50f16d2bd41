#!/usr/bin/env bash
# sysstat: its bytes are never credited (entropy_per_bit 0, which -O cannot
# raise), and its hashed output still goes through the gate like any other:
# about 0.1% of random-looking blocks fail some FIPS test by chance, so only
# 3 failing blocks in a row, or an SP 800-90B RCT/APT alarm, is a sampler bug.
. "$top_srcdir/tests/integration/source-lib.sh"
blocks=200

"$DUMP" -v -n $(( 4 + blocks * FIPS_BLOCK_BYTES )) sysstat > "$T/sysstat.bin" 2> "$T/dump.err" || fail "source-dump sysstat failed"
grep -q "entropy_per_bit 0.000000" "$T/dump.err" || fail "sysstat opened with a credit: $(head -1 "$T/dump.err")"
read -r bad run rct apt < <(gate_report "$T/sysstat.bin" "$blocks") || fail "rngtest"
[ "$run" -lt 3 ] || fail "$run failing blocks in a row: the sampler's output is not random-looking"
[ "$rct" = 0 ] && [ "$apt" = 0 ] || fail "SP 800-90B alarm: RCT $rct, APT $apt"
[ "$bad" -le 5 ] || fail "$bad of $blocks blocks failed (0.1% expected)"

# The credit is not the source's to set (source-dump passes -O straight
# to it)...
"$DUMP" -n 16 -O entropy_per_bit:0.5 sysstat > /dev/null 2> "$T/opt.err" && fail "-O entropy_per_bit:0.5 accepted"
grep -q "unknown option 'entropy_per_bit'" "$T/opt.err" || fail "no reason for refusing the key: $(cat "$T/opt.err")"
# ...and rngd's list shows it 0.
"$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null -l > "$T/list.out" 2>&1 || fail "rngd -l failed"
grep -qE '^sysstat +yes +0\.000 ' "$T/list.out" || fail "rngd -l: $(grep sysstat "$T/list.out")"
# rngd refuses to raise sysstat's fixed credit (usage error, exit 2)...
st=0
"$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null -l -O sysstat:entropy_per_bit:0.5 > /dev/null 2> "$T/fixed.err" || st=$?
[ "$st" = 2 ] && grep -q "credit is fixed" "$T/fixed.err" ||
	fail "rngd accepted -O sysstat:entropy_per_bit:0.5 (exit $st): $(cat "$T/fixed.err")"
# ...and rngd with sysstat credits nothing. Needs the guard.
credit_note="rngd run skipped: the guard needs root"
if [ "$(id -u)" = 0 ]; then
	"$top_srcdir/tests/integration/guard.sh" -p "$T/rngd.pid" -- "$top_builddir/rngd/rngd" -f -c /dev/null \
		-x all -n sysstat -o "$T/sink" > /dev/null 2> "$T/rngd.log" &
	guard_pid=$!
	HELPER_PIDS+=("$guard_pid")
	for _ in $(seq 100); do [ -s "$T/sink" ] && break; sleep 0.1; done
	[ -s "$T/rngd.pid" ] && [ -s "$T/sink" ] || fail "rngd with sysstat wrote nothing to its sink"
	kill -TERM "$(cat "$T/rngd.pid")"
	wait "$guard_pid" || fail "rngd exited $? after SIGTERM"
	HELPER_PIDS=()
	summary=$(grep -E "sysstat: summary:" "$T/rngd.log" | tail -1)
	passed=$(echo "$summary" | grep -oE "blocks passed [0-9]+" | awk '{print $NF}')
	credited=$(echo "$summary" | grep -oE "bits credited [0-9]+" | awk '{print $NF}')
	[ -n "$passed" ] && [ "$passed" -gt 0 ] || fail "rngd passed no sysstat block: $summary"
	[ "$credited" = 0 ] || fail "rngd credited $credited bits from sysstat despite its fixed 0"
	credit_note="rngd with sysstat: $passed blocks passed, 0 bits credited"
fi
echo "ok: $credit_note"
echo "ok: $blocks blocks, $bad FIPS failures (longest run $run), no RCT/APT alarm, credit 0; $(tail -1 "$T/dump.err" | sed 's/^source-dump: //')"
