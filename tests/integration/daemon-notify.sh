#!/usr/bin/env bash
# systemd notification, with a stand-in NOTIFY_SOCKET: READY=1 after the
# first credited block, or after --ready-timeout when nothing is credited;
# STATUS= names the sources and the bits credited; WATCHDOG=1 at half of
# WATCHDOG_USEC; STOPPING=1 on SIGTERM. SIGHUP with a bad config keeps the
# old one and says why; a good one is taken.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
command -v python3 > /dev/null || { echo "SKIP: no python3 for the notify socket"; exit 77; }
"$RNGD" --version > /dev/null
grep -q '^#define RNGD_SD_NOTIFY 1' "$top_builddir/config.h" || { echo "SKIP: built with --disable-systemd"; exit 77; }

listen() {
	python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
t0 = time.monotonic()
with open(sys.argv[2], "a") as out:
    while True:
        msg = s.recv(4096).decode()
        for line in msg.split("\n"):
            out.write("%d %s\n" % ((time.monotonic() - t0) * 1000, line))
        out.flush()
' "$1" "$2" &
	LISTENER=$!
	for _ in $(seq 100); do [ -S "$1" ] && break; sleep 0.02; done
}
wait_notify() {
	local deadline=$(( $(date +%s) + ${2:-10} ))
	until grep -qE "$1" "$T/notify.log" 2>/dev/null; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "no '$1' on the notify socket: $(cat "$T/notify.log" 2>/dev/null)"
		sleep 0.05
	done
}

# 1. Credited data: READY after the first credited block, STATUS, watchdog.
mkfifo "$T/fifo"
listen "$T/sock" "$T/notify.log"
printf 'on-fail = drop\n' > "$T/conf"
NOTIFY_SOCKET=$T/sock WATCHDOG_USEC=400000 start_rngd -x all -r "$T/fifo" -O file:entropy_per_bit:1.0 -o "$T/sink" -c "$T/conf"
wait_log "opened $T/fifo"
"$HELPER" gen random 20 "$T/in" || fail gen
cat "$T/in" > "$T/fifo"
wait_notify '^[0-9]+ READY=1$'
grep -q "first credited block written; ready" "$T/log" || fail "READY without a credited block"
wait_notify 'STATUS=[1-9][0-9]* bits credited; sources: file' 5
sleep 1
pings=$(grep -c 'WATCHDOG=1' "$T/notify.log")
[ "$pings" -ge 3 ] || fail "only $pings watchdog pings in over a second at WATCHDOG_USEC=400000"

# SIGHUP: a bad config is refused and named, the daemon keeps going.
printf 'on-fail = drop\nbogus = 1\n' > "$T/conf"
kill -HUP "$RNGD_PID"
# One line: the cause and what was done (quiet = yes shows only errors).
wait_log "error: rngd: configuration not reloaded [(]$T/conf:2: unknown key 'bogus'[)]; keeping the old one"
kill -0 "$RNGD_PID" || fail "rngd died on a bad config at SIGHUP"
printf 'on-fail = mix\n' > "$T/conf"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
wait_notify 'STOPPING=1' 5
kill "$LISTENER"; wait "$LISTENER" 2>/dev/null

# 2. Nothing credited: READY after --ready-timeout, not before, not never.
rm -f "$T/sock" "$T/notify.log"
listen "$T/sock" "$T/notify.log"
NOTIFY_SOCKET=$T/sock start_rngd -x all -r "$T/fifo" -o "$T/sink2" --ready-timeout=0.8
t0=$(date +%s%N)
wait_notify '^[0-9]+ READY=1$' 5
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$ms" -ge 500 ] || fail "READY after $ms ms, before the 0.8 s ready timeout"
grep -q "no credited block within 0.8 s" "$T/log" || fail "the ready timeout was not logged"
stop_rngd TERM
kill "$LISTENER"; wait "$LISTENER" 2>/dev/null
# 3. The pool becomes ready a few writes after READY (200 bits a block,
# 256 to ready: rngd-mockkernel's 5.18+ pool): STATUS= says so at once,
# not at the next periodic job (10 s on, with no watchdog to wake it).
rm -f "$T/sock" "$T/notify.log"
listen "$T/sock" "$T/notify.log"
export RNGD_MOCK_KERNEL_LOG=$T/kernel.log RNGD_MOCK_KERNEL_STATE=$T/kernel.state
RNGD=$MOCKKERNEL NOTIFY_SOCKET=$T/sock start_rngd -x all -r "$T/fifo" -O file:entropy_per_bit:0.01 -o /dev/null
wait_log "opened $T/fifo"
cat "$T/in" > "$T/fifo"
wait_notify 'STATUS=pool filling: 200 bits credited; sources: file' 5
wait_notify 'STATUS=pool ready: 256 bits credited while filling' 5
stop_rngd TERM
kill "$LISTENER"; wait "$LISTENER" 2>/dev/null

echo "ok: READY on first credit and after the timeout ($ms ms), STATUS, $pings watchdog pings, SIGHUP bad/good config"
