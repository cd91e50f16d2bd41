#!/usr/bin/env bash
# A FIFO source: end of data (the writer closes) closes the source, and it
# is re-opened for the next writer; the gate state carries on across, so
# the sink equals the passing blocks of both writes in order. A FIFO
# re-created at the path is read, after a SIGHUP and without one.
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
cmp "$T/sink" "$T/expect" || fail "the sink differs from the passing blocks of both writes"
# The usual "rm -f f; mkfifo f; producer > f" while rngd waits on the old
# FIFO for its next writer: a SIGHUP re-opens the path, and the new FIFO's
# writer is read (it blocked for ever: the reader sat in open() or poll()
# on the old one, where the SIGHUP did not reach it).
sleep 1 # re-opened after the second writer: waiting on the old FIFO
rm "$T/fifo"; mkfifo "$T/fifo"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded"
before=$(stat -c %s "$T/sink")
"$HELPER" gen random 20 "$T/p3" || fail gen
timeout 10 sh -c 'cat "$1" > "$2"' sh "$T/p3" "$T/fifo" || fail "the writer of the re-created FIFO was never read"
deadline=$(( $(date +%s) + 20 ))
while [ "$(stat -c %s "$T/sink")" -le "$before" ]; do
	[ "$(date +%s)" -gt "$deadline" ] && fail "nothing of the re-created FIFO reached the sink"
	sleep 0.05
done
# The same without a SIGHUP: the FIFO's own removal ends the wait on it
# (sources/fifo_watch.h), and the path is opened afresh.
sleep 1
rm "$T/fifo"; mkfifo "$T/fifo"
before=$(stat -c %s "$T/sink")
"$HELPER" gen random 20 "$T/p4" || fail gen
timeout 10 sh -c 'cat "$1" > "$2"' sh "$T/p4" "$T/fifo" ||
	fail "the writer of a FIFO re-created without a SIGHUP was never read"
# The re-open says why, not "end of data".
grep -q "file: $T/fifo was removed or replaced; closing and re-opening" "$T/log" ||
	fail "the re-open the FIFO's removal asked for does not say so: $(grep 'closing and re-opening' "$T/log" | tail -2)"
deadline=$(( $(date +%s) + 20 ))
while [ "$(stat -c %s "$T/sink")" -le "$before" ]; do
	[ "$(date +%s)" -gt "$deadline" ] && fail "nothing of the FIFO re-created without a SIGHUP reached the sink"
	sleep 0.05
done
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
opens=$(summary_field file reopens)
[ "$opens" -ge 2 ] || fail "the FIFO was opened $opens times, expected a re-open"
# A writer that leaves ends the data; it is no read error.
errors=$(summary_field file "read errors")
[ "$errors" = 0 ] || fail "$errors read errors counted for writers that closed the FIFO"
echo "ok: FIFO closed at end of data and re-opened ($opens opens), $(( $(stat -c %s "$T/sink") / BLOCK )) blocks in order"
