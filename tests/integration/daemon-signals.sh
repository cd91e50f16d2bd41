#!/usr/bin/env bash
# Signals: SIGUSR1 logs per-source stats within 1 s, both while the loop
# is busy gating a fast stream and while the only source blocks (a FIFO
# with no writer); SIGHUP re-reads the config and re-opens sources;
# SIGINT and SIGTERM exit 0 with a summary. --stats-file is Prometheus text,
# and a reload turns it on and off (a failed reload keeps it).
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# usr1_latency: ms from kill -USR1 to the stats lines in the log.
usr1_latency() {
	local before t0 t1
	before=$(grep -c "rngd: stats: sink" "$T/log")
	t0=$(now_ms)
	kill -USR1 "$RNGD_PID"
	while [ "$(grep -c "rngd: stats: sink" "$T/log")" -le "$before" ]; do
		[ $(( $(now_ms) - t0 )) -gt 5000 ] && fail "no stats 5 s after SIGUSR1"
		sleep 0.01
	done
	t1=$(now_ms)
	echo $(( t1 - t0 ))
}

# Busy: an endless random stream through the gate into a FIFO sink.
mkfifo "$T/src" "$T/sinkfifo"
cat "$T/sinkfifo" > /dev/null &
reader=$!
head -c 200000000 /dev/urandom > "$T/src" &
writer=$!
start_rngd -x all -r "$T/src" -o "$T/sinkfifo" --stats-file "$T/metrics" --stats-interval 1
wait_log "opened $T/src"
sleep 1
busy=$(usr1_latency)
[ "$busy" -lt 1000 ] || fail "SIGUSR1 took $busy ms while busy"
grep -qE "file: stats: active, bytes read [1-9][0-9]*, blocks passed [1-9]" "$T/log" || fail "stats line lacks per-source counters"
for _ in $(seq 60); do [ -f "$T/metrics" ] && break; sleep 0.05; done
grep -qE '^rngd_source_blocks_passed_total\{source="file"\} [1-9][0-9]*$' "$T/metrics" || fail "stats file lacks blocks passed"
grep -qE '^rngd_source_test_failures_total\{source="file",test="monobit"\} [0-9]+$' "$T/metrics" || fail "stats file lacks per-test failures"
grep -q '^# TYPE rngd_source_bits_credited_total counter$' "$T/metrics" || fail "stats file lacks TYPE lines"
[ ! -e "$T/metrics.tmp" ] || fail "stats file written in place, not renamed"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded" 5
# SIGUSR2 is ignored (it killed rngd, leaving rng_quality at 0).
kill -USR2 "$RNGD_PID"
sleep 0.3
kill -0 "$RNGD_PID" 2>/dev/null || fail "SIGUSR2 killed rngd"
stop_rngd INT
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGINT"
grep -q "SIGINT received; exiting" "$T/log" || fail "no SIGINT message"
grep -q "notice: file: summary:" "$T/log" || fail "no summary after SIGINT"
kill "$writer" "$reader" 2>/dev/null; wait "$writer" "$reader" 2>/dev/null

# Idle: the only source is a FIFO nobody writes to; its reader thread blocks.
rm -f "$T/src"; mkfifo "$T/src"
start_rngd -x all -r "$T/src" -o "$T/sink"
wait_log "opened $T/src"
# No writer yet: the reader waits on the FIFO beside the loop's stop fd.
sleep 0.3
idle=$(usr1_latency)
[ "$idle" -lt 1000 ] || fail "SIGUSR1 took $idle ms while the source blocks"
t0=$(now_ms)
stop_rngd TERM
t1=$(now_ms)
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"
[ $(( t1 - t0 )) -lt 2000 ] || fail "SIGTERM took $(( t1 - t0 )) ms with a blocked source"
# A reload turns the stats file on and off; a failed one keeps it going.
# Each write renames a new file into place, so a changed inode is a write.
inode() { stat -c %i "$T/metrics2" 2>/dev/null || echo none; }
rewritten_within() { # SECONDS: has the stats file been written again?
	local was now end=$(( $(now_ms) + $1 * 1000 ))
	was=$(inode)
	while [ "$(now_ms)" -lt "$end" ]; do
		now=$(inode)
		[ "$now" != none ] && [ "$now" != "$was" ] && return 0
		sleep 0.1
	done
	return 1
}
head -c 500000 /dev/urandom > "$T/src2"
: > "$T/conf"
start_rngd -c "$T/conf" -x all -r "$T/src2" -o "$T/sink2"
wait_log "opened $T/src2"
printf 'stats-file = %s\nstats-interval = 1\n' "$T/metrics2" > "$T/conf"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded" 5
rewritten_within 3 || fail "a reload that adds stats-file wrote no stats file"
printf 'stats-file = %s\nstats-interval = soon\n' "$T/metrics2" > "$T/conf"
kill -HUP "$RNGD_PID"
wait_log "configuration not reloaded [(]" 5
rewritten_within 3 || fail "a failed reload stopped the stats file"
: > "$T/conf"
kill -HUP "$RNGD_PID"
for _ in $(seq 50); do [ "$(grep -c "configuration reloaded" "$T/log")" -ge 2 ] && break; sleep 0.1; done
[ "$(grep -c "configuration reloaded" "$T/log")" -ge 2 ] || fail "the reload that drops stats-file did not happen"
sleep 1.2 # a write already under way when the reload came may still land
! rewritten_within 3 || fail "the stats file is still written after a reload dropped stats-file"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after the stats-file reloads"

echo "ok: SIGUSR1 stats in $busy ms (busy) and $idle ms (blocked source); SIGTERM exit in $(( t1 - t0 )) ms; reloads turn the stats file on and off"
