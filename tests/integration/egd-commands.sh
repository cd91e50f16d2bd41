#!/usr/bin/env bash
# rngd -o none --egd-socket: every command (level, non-blocking read,
# blocking read, pid), a reply read one byte at a time, a client gone
# mid-reply, 0x03 and an unknown command refused while a waiting client is
# unaffected; served bytes are gate-passed bytes, each served once; the
# SIGUSR1 stats show the bytes served per client.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

"$HELPER" gen random 400 "$T/in" > /dev/null || fail gen
"$HELPER" expect "$T/in" "$T/expect" > /dev/null || fail expect
start_rngd -x all -r "$T/in" -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" \
	--egd-rate 100000 --egd-burst 2000
wait_socket

# pid: the daemon's own.
[ "$("$EGD_CLIENT" "$SOCK" pid)" = "pid $RNGD_PID" ] || fail "pid reply is not rngd's pid $RNGD_PID"
# level: bytes held, within the reserve's size.
level=$("$EGD_CLIENT" "$SOCK" level | awk '{print $2}')
[ "$level" -gt 0 ] && [ "$level" -le 16384 ] || fail "level $level"
# One client reads in order: exactly the gate-passed stream from its start.
"$EGD_CLIENT" "$SOCK" get 5000 "$T/c1" > /dev/null || fail "blocking read"
"$EGD_CLIENT" prefix "$T/expect" "$T/c1" > /dev/null || fail "the first client's bytes are not the passing stream"
# Non-blocking read: count then bytes.
out=$("$EGD_CLIENT" "$SOCK" read 200 "$T/c2") || fail "non-blocking read"
[ "$out" = "count 200" ] || fail "non-blocking read: $out"
# A reply read one byte at a time, then a level request in step.
"$EGD_CLIENT" "$SOCK" partial 255 | grep -q "^partial 255 then level " || fail "partial reads"
# A client gone mid-reply (the rate limit keeps rngd mid-reply): rngd
# carries on.
"$EGD_CLIENT" "$SOCK" hangup 8000 10 > /dev/null || fail "hangup client"
wait_log "client [0-9]+ \(pid [0-9]+\) disconnected mid-reply"
# A client waiting for 100000 bytes across refills, while others misbehave.
"$EGD_CLIENT" "$SOCK" get 100000 "$T/c3" > "$T/c3.out" &
waiter=$!
[ "$("$EGD_CLIENT" "$SOCK" raw 0300080102)" = closed ] || fail "0x03 was not refused"
wait_log "sent entropy \(command 0x03\): clients may not write; disconnected"
[ "$("$EGD_CLIENT" "$SOCK" raw 0007)" = closed ] || fail "unknown command 0x07 not refused"
wait_log "sent an unknown command 0x07; disconnected"
[ "$("$EGD_CLIENT" "$SOCK" raw 02 )" = open ] || fail "half a request was dropped at once (the stall time-out is 30 s)"
# A client that connects and sends a bad command in a loop does not
# flood the log: at most 100 connect lines and 100 warnings in 30 s (it
# wrote two for each of its connections, 30000 a second); rngd still
# serves.
before=$(grep -cE "egd: client [0-9]+ \(pid" "$T/log")
warned_before=$(grep -cE "warning: egd: client [0-9]+ \(pid" "$T/log")
python3 - "$SOCK" <<'PY' || fail "the flooding client failed"
import socket, sys
for _ in range(300):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(b"\x07")
    s.recv(1)
    s.close()
PY
lines=$(( $(grep -cE "egd: client [0-9]+ \(pid" "$T/log") - before ))
warned=$(( $(grep -cE "warning: egd: client [0-9]+ \(pid" "$T/log") - warned_before ))
[ "$lines" -le 200 ] && [ "$warned" -le 100 ] && [ "$warned" -ge 1 ] ||
	fail "300 bad clients wrote $lines connect/drop lines, $warned of them warnings (at most 100 of each in 30 s)"
"$EGD_CLIENT" "$SOCK" read 10 "$T/c4" > /dev/null || fail "no read after the flood"
wait "$waiter" || fail "the waiting client was affected"
# Every byte served is a passing byte, none twice (the hung-up client's
# bytes are not served again: they are gone with it).
"$EGD_CLIENT" check "$T/expect" "$T/c1" "$T/c2" "$T/c3" > "$T/check" 2>&1 || fail "check: $(cat "$T/check")"
kill -USR1 "$RNGD_PID"
wait_log "egd: stats: .*clients connected"
wait_log "egd: stats: sharing with sink none: bytes to the reserve [0-9]+"
served=$(egd_field "bytes served")
[ "$served" -ge $(( 5000 + 200 + 255 + 10 + 100000 )) ] || fail "stats: bytes served $served"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
wait_log "egd: summary: "
[ ! -e "$SOCK" ] || fail "the socket was left behind after SIGTERM"
echo "ok: every command; $(cat "$T/check"); $served bytes served; 0x03 and 0x07 refused; mid-reply hang-up; 300 bad clients wrote $lines log lines"
