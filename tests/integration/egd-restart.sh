#!/usr/bin/env bash
# Restarts: SIGTERM removes the socket; after kill -9 the stale socket is
# replaced by the next rngd and clients are served again; a second rngd
# does not take a live socket (exit 1, one clear line); a socket put at
# the path after rngd started is not removed by its exit.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

run_one() {
	start_rngd -x all -r /dev/urandom -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" \
		--egd-rate 0
	wait_socket
}
run_one
"$EGD_CLIENT" "$SOCK" get 3000 > /dev/null || fail "first run"
stop_rngd KILL
[ -S "$SOCK" ] || fail "expected a stale socket after kill -9"
run_one
wait_log "removed the stale socket"
"$EGD_CLIENT" "$SOCK" get 3000 > /dev/null || fail "after a restart over a stale socket"
# A second server on the same path: refused, the first keeps serving.
first=$RNGD_PID first_job=$GUARD_JOB
"$GUARD" -- "$RNGD" -f -c /dev/null -x all -r /dev/urandom -o none --egd-socket "$SOCK" > /dev/null 2> "$T/log2"
rc=$?
[ "$rc" = 1 ] || fail "a second rngd on a live socket exited $rc"
grep -q "another server is listening on $SOCK" "$T/log2" || fail "no clear message: $(cat "$T/log2")"
RNGD_PID=$first GUARD_JOB=$first_job
"$EGD_CLIENT" "$SOCK" get 3000 > /dev/null || fail "the first server stopped serving"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ ! -e "$SOCK" ] || fail "SIGTERM left the socket"

# A socket at the path that is not this rngd's (another server's, put
# there after it started) stays when it stops: only its own is removed.
run_one
mv "$SOCK" "$T/moved.sock"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$SOCK"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ -S "$SOCK" ] || fail "rngd removed a socket that was not its own"
rm -f "$SOCK" "$T/moved.sock"
echo "ok: stale socket replaced after kill -9, live socket not taken, removed on SIGTERM, another's socket left"
