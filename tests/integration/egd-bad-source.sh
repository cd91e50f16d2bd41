#!/usr/bin/env bash
# A source that fails the gate: EGD clients receive nothing (level 0,
# non-blocking reads count 0, blocking reads wait), nothing crashes, and
# rngd exits 0 with nothing served.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

"$HELPER" gen zeros 50 "$T/in" > /dev/null || fail gen
start_rngd -x all -r "$T/in" -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" --quarantine-after=1000000
wait_socket
wait_log "file: exhausted"
[ "$("$EGD_CLIENT" "$SOCK" level)" = "level 0" ] || fail "level is not 0"
[ "$("$EGD_CLIENT" "$SOCK" read 64)" = "count 0" ] || fail "a non-blocking read got bytes"
EGD_CLIENT_TIMEOUT_MS=2000 "$EGD_CLIENT" "$SOCK" get 64 > /dev/null 2>&1
rc=$?
[ "$rc" = 3 ] || fail "a blocking read did not wait (exit $rc, 3 is the time-out)"
kill -0 "$RNGD_PID" || fail "rngd died"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
served=$(egd_field "bytes served")
[ "$served" = 0 ] || fail "bytes served $served from a failing source"
echo "ok: a failing source: level 0, count 0, blocking read waits, 0 bytes served, exit 0"
