#!/usr/bin/env bash
# VIA PadLock on this machine: unless the CPU is a VIA/Zhaoxin with its RNG
# enabled, the source refuses with a reason and XSTORE never runs (it would
# kill source-dump with SIGILL). The unit tests drive XSTORE itself on fakes.
. "$top_srcdir/tests/integration/source-lib.sh"

vendor=$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)
"$DUMP" -v -n 25004 padlock > "$T/padlock.bin" 2> "$T/dump.err"
rc=$?
if grep -qw xstore_en /proc/cpuinfo; then
	[ "$rc" = 0 ] || fail "PadLock RNG enabled here but source-dump failed ($rc)"
	read -r bad _ _ _ < <(gate_report "$T/padlock.bin" 10) || fail "rngtest"
	[ "$bad" -le 1 ] || fail "$bad of 10 PadLock blocks failed"
	echo "ok: PadLock RNG read on $vendor"
	exit 0
fi
[ "$rc" = 1 ] || fail "expected exit 1 (unavailable), got $rc"
[ -s "$T/padlock.bin" ] && fail "bytes came out of an unavailable PadLock"
grep -q "padlock: unavailable: " "$T/dump.err" || fail "no reason: $(cat "$T/dump.err")"
case $vendor in
CentaurHauls|*Shanghai*) ;;
*) grep -q "CPU vendor is $vendor" "$T/dump.err" || fail "reason does not name the vendor: $(cat "$T/dump.err")" ;;
esac
# rngd -l tells the same story.
"$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null -l > "$T/list.out" 2>&1 || fail "rngd -l failed"
grep -qE '^padlock +no ' "$T/list.out" || fail "rngd -l does not list padlock as unusable: $(grep padlock "$T/list.out")"
echo "ok: $(sed 's/^source-dump: //' "$T/dump.err")"
