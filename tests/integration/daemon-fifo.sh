#!/usr/bin/env bash
# A FIFO source: end of data (the writer closes) closes the source, and it
# is re-opened for the next writer; the gate state carries on across, so
# the sink equals the passing blocks of both writes in order.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$HELPER" gen random 100 "$T/p1" || fail gen
"$HELPER" gen random 100 "$T/p2x" || fail gen
tail -c +5 "$T/p2x" > "$T/p2"
cat "$T/p1" "$T/p2" > "$T/all"
"$HELPER" expect "$T/all" "$T/expect" > /dev/null || fail expect
mkfifo "$T/fifo"

start_rngd -x all -r "$T/fifo" -o "$T/sink" --quarantine-after=0
wait_log "opened $T/fifo"
cat "$T/p1" > "$T/fifo"
wait_log "file: end of data; closing and re-opening"
cat "$T/p2" > "$T/fifo"
deadline=$(( $(date +%s) + 20 ))
while [ "$(stat -c %s "$T/sink" 2>/dev/null || echo 0)" -lt "$(stat -c %s "$T/expect")" ]; do
	[ "$(date +%s)" -gt "$deadline" ] && fail "the second writer's blocks did not arrive"
	sleep 0.05
done
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
cmp "$T/sink" "$T/expect" || fail "the sink differs from the passing blocks of both writes"
opens=$(summary_field file reopens)
[ "$opens" -ge 2 ] || fail "the FIFO was opened $opens times, expected a re-open"
# A writer that leaves ends the data; it is no read error.
errors=$(summary_field file "read errors")
[ "$errors" = 0 ] || fail "$errors read errors counted for writers that closed the FIFO"
echo "ok: FIFO closed at end of data and re-opened ($opens opens), $(( $(stat -c %s "$T/sink") / BLOCK )) blocks in order"
