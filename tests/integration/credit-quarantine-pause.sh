#!/usr/bin/env bash
# A quarantined source "is not read until its re-test time"
# (rngd.8). The reader pauses at the quarantine; what it had queued is
# dropped; at the re-test time the queue is flushed once more and only a
# block read after that point is the re-test block.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

# 40 zero blocks (3 fail and quarantine it), then random ones.
"$HELPER" gen zeros 40 "$T/zeros" || fail gen
"$HELPER" gen random 40 "$T/good" || fail gen
cat "$T/zeros" <(tail -c +5 "$T/good") > "$T/a"

start_rngd -x all -r "$T/a" -O file:entropy_per_bit:1 -o "$T/sink" --quarantine-after=3 \
	--retest-after=4 --retest-max=4
wait_log "file: quarantined after 3 failed blocks in a row"
sleep 1
kill -USR1 "$RNGD_PID"
wait_log "notice: file: stats:"
read1=$(grep -E "notice: file: stats:" "$T/log" | tail -1 | grep -oE "bytes read [0-9]+" | awk '{print $NF}')
failed1=$(grep -E "notice: file: stats:" "$T/log" | tail -1 | grep -oE "failed [0-9]+" | head -1 | awk '{print $NF}')
sleep 1
kill -USR1 "$RNGD_PID"
for _ in $(seq 100); do [ "$(grep -c 'notice: file: stats:' "$T/log")" -ge 2 ] && break; sleep 0.05; done
read2=$(grep -E "notice: file: stats:" "$T/log" | tail -1 | grep -oE "bytes read [0-9]+" | awk '{print $NF}')
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"

# At quarantine time the reader may have had its queue full (read before
# the quarantine, dropped): seed + (failed + queue) blocks at most.
limit=$(( 4 + BLOCK * (failed1 + 4) ))
[ "$read1" -le "$limit" ] || fail "quarantined source read on: $read1 bytes read with $failed1 blocks failed (limit $limit)"
[ "$read1" = "$read2" ] || fail "quarantined source still being read: $read1 then $read2 bytes"
[ "$(summary_field file "bits credited")" = 0 ] || fail "a zero block was credited"
echo "ok: quarantined after $failed1 failed blocks; $read1 bytes read, none more until the re-test (limit $limit)"
