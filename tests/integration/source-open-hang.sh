#!/usr/bin/env bash
# A source whose open hangs at start: a "tcsd" on 127.0.0.1 that accepts
# and never answers, so libtspi waits for a reply for ever. rngd waits
# --open-wait (5 s by default) for it, then goes on: the file source
# opens and feeds the sink, the tpm source's reader takes the open over;
# when the listener dies the open fails and is retried; SIGTERM ends rngd
# at once either way, and empties the pid file. Before, the start waited
# on the TPM for ever: no other source, no READY=1; --open-wait=0 still
# does.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

LISTENER=
trap '[ -n "$LISTENER" ] && kill "$LISTENER" 2>/dev/null; cleanup' EXIT
# start_listener: a mute tcsd on a fresh port in $PORT.
start_listener() {
	rm -f "$T/port"
	python3 -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])
' > "$T/port" &
	LISTENER=$!
	for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.05; done
	PORT=$(cat "$T/port")
	[ -n "$PORT" ] || fail "the mute listener did not start"
}
"$HELPER" gen random 40 "$T/in" || fail gen

for case in hangs listener-dies; do
	start_listener
	: > "$T/sink"
	start_rngd -x all -n tpm -O tpm:host:127.0.0.1 -O "tpm:port:$PORT" -r "$T/in" -O file:entropy_per_bit:1 \
		-o "$T/sink" --state-dir="$T/state.$case" --open-wait=2
	wait_log "tpm: still opening after 2.0 s; rngd goes on without it" 20
	wait_log "file: opened" 5
	for _ in $(seq 100); do [ -s "$T/sink" ] && break; sleep 0.05; done
	[ -s "$T/sink" ] || fail "$case: nothing reached the sink while the tpm open hung"
	# The opener, made before -D's drop (whose no_new_privs reaches only
	# the main thread), sets it for itself; without -D no other thread does.
	nnp=$(grep -l "^NoNewPrivs:[[:space:]]*1" /proc/"$RNGD_PID"/task/*/status 2>/dev/null | wc -l)
	[ "$nnp" -ge 1 ] || fail "$case: no thread has no_new_privs: the opener did not set it"
	if [ "$case" = listener-dies ]; then
		kill "$LISTENER"; wait "$LISTENER" 2>/dev/null; LISTENER=
		wait_log "tpm: the open begun at start failed" 15
	fi
	t0=$(date +%s%N)
	stop_rngd TERM
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ "$RC" = 0 ] || fail "$case: rngd exited $RC on SIGTERM"
	[ "$ms" -lt 3000 ] || fail "$case: SIGTERM took $ms ms"
	[ -n "$LISTENER" ] && { kill "$LISTENER" 2>/dev/null; wait "$LISTENER" 2>/dev/null; LISTENER=; }
done
# SIGTERM while the start waits for that open: answered at once, naming
# the phase, with the pid file emptied.
start_listener
start_rngd -x all -n tpm -O tpm:host:127.0.0.1 -O "tpm:port:$PORT" -r "$T/in" -o "$T/sink" --state-dir="$T/state.term" \
	-p "$T/term.pid" --egd-socket "$T/egd.sock"
sleep 1
[ -s "$T/term.pid" ] || fail "no pid in the pid file while starting"
# A socket put at the EGD path since (another server's) is not rngd's to
# remove, also when the start-up's SIGTERM handling removes its own.
[ -S "$T/egd.sock" ] || fail "no EGD socket while starting"
mv "$T/egd.sock" "$T/egd.moved"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/egd.sock"
t0=$(date +%s%N)
stop_rngd TERM
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$RC" = 0 ] || fail "SIGTERM during the open's wait: exit $RC"
[ "$ms" -lt 3000 ] || fail "SIGTERM during the open's wait took $ms ms"
grep -q "SIGTERM received while opening the sources" "$T/log" || fail "SIGTERM during the open's wait: $(tail -3 "$T/log")"
[ -f "$T/term.pid" ] && [ ! -s "$T/term.pid" ] || fail "SIGTERM during the start left the pid file as: $(cat "$T/term.pid" 2>&1)"
[ -S "$T/egd.sock" ] || fail "SIGTERM during the start removed a socket that was not rngd's"
rm -f "$T/egd.sock" "$T/egd.moved"
kill "$LISTENER" 2>/dev/null; wait "$LISTENER" 2>/dev/null; LISTENER=

# --open-wait=0: the start waits as long as the open takes, as before.
start_listener
start_rngd -x all -n tpm -O tpm:host:127.0.0.1 -O "tpm:port:$PORT" -r "$T/in" -o "$T/sink" --state-dir="$T/state.nowait" \
	--open-wait=0
sleep 3
! grep -q "file: opened" "$T/log" || fail "--open-wait=0 went on without the hung open"
kill "$LISTENER"; wait "$LISTENER" 2>/dev/null; LISTENER=
wait_log "file: opened" 15
stop_rngd TERM
[ "$RC" = 0 ] || fail "--open-wait=0: exit $RC"

# rngd -l, which a failed start points at: its probes wait --open-wait
# at most, the hung one is listed as such and the others as usual.
start_listener
t0=$(date +%s%N)
timeout 20 "$RNGD" -l -O tpm:host:127.0.0.1 -O "tpm:port:$PORT" -r "$T/in" --open-wait=1 > "$T/list" 2>&1
rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" = 0 ] || fail "rngd -l with a mute tcsd: exit $rc after $ms ms: $(cat "$T/list")"
[ "$ms" -lt 5000 ] || fail "rngd -l with a mute tcsd took $ms ms"
grep -Eq '^tpm +no +- .*\[the probe gave no answer in 1\.0 s\]$' "$T/list" || fail "rngd -l: no tpm row for the hung probe: $(cat "$T/list")"
grep -Eq '^file +yes ' "$T/list" || fail "rngd -l: the file source's row is missing: $(cat "$T/list")"
[ "$(grep -c '' "$T/list")" -ge 3 ] || fail "rngd -l: rows missing: $(cat "$T/list")"
kill "$LISTENER"; wait "$LISTENER" 2>/dev/null; LISTENER=
echo "ok: a tpm open that hangs at start holds back neither the file source nor the sink; its reader takes it over, retries when it fails; SIGTERM ends rngd at once, also while the start waits (pid file emptied); --open-wait=0 waits; rngd -l lists the hung probe after --open-wait"
