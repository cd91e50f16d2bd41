#!/usr/bin/env bash
# A FIFO source's re-test block is read after the re-test time, not out of
# what the pipe held while the source was failing (rngd.8, QUARANTINE):
# its writer, blocked on the full pipe during the quarantine, left up to a
# pipe's worth of the failing stream in it. Stuck bytes, then good ones:
# the first re-test must already see good bytes.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$HELPER" gen stuck 20 "$T/stuck" || fail gen
mkfifo "$T/fifo"
{ cat "$T/stuck"; cat /dev/urandom; } > "$T/fifo" 2>/dev/null &
writer=$!
start_rngd -x all -r "$T/fifo" -O file:entropy_per_bit:0.5 -o "$T/sink" \
	--quarantine-after=3 --retest-after=1 --retest-max=1
wait_log "file: quarantined after 3 failed blocks" 20
wait_log "file: passed its re-test; back in service" 30
stop_rngd TERM
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
[ "$RC" = 0 ] || fail "rngd exited $RC"
failed=$(summary_field file "re-tests failed")
[ "${failed:-x}" = 0 ] || fail "$failed re-tests failed on stale bytes of the pipe"
grep -q "file: re-test: dropped [0-9]* bytes the FIFO held" "$T/log" || fail "nothing dropped at the re-test"
echo "ok: $(grep -o 're-test: dropped [0-9]* bytes' "$T/log" | head -1); back in service at the first re-test"
