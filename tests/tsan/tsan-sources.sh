#!/usr/bin/env bash
# The sources' reader threads beside SIGHUP, under ThreadSanitizer (run by
# tests/tsan/run-tsan.sh against rngd_tsan; with the plain rngd it is a
# plain functional test): the CPU and sysstat sources, whose reader threads
# once wrote the credit the main thread reads, beside a FIFO source, through
# SIGHUPs (the main thread re-reads the configuration, re-sets the log level
# and re-opens every source while the readers read and log) and SIGUSR1s
# (counters read).
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

mkfifo "$T/fifo"
head -c 50000000 /dev/urandom > "$T/fifo" &
writer=$!
srcs=(-n sysstat -r "$T/fifo")
grep -qw rdrand /proc/cpuinfo && srcs+=(-n rdrand)
start_rngd -x all "${srcs[@]}" -o "$T/out" -d
wait_log "feeding the file sink"
for _ in 1 2 3 4 5; do
	kill -HUP "$RNGD_PID"; sleep 0.3
	kill -USR1 "$RNGD_PID"; sleep 0.2
done
wait_log "configuration reloaded" 10
stop_rngd TERM
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
[ "$RC" = 0 ] || fail "rngd exited $RC"
for s in sysstat file; do
	grep -q "notice: $s: summary:" "$T/log" || fail "no summary for $s"
done
[ "$(grep -c 'SIGHUP: re-reading' "$T/log")" -ge 5 ] || fail "not every SIGHUP was answered"
echo "ok: ${srcs[*]}: 5 SIGHUP and 5 SIGUSR1 while reading, exit 0"
