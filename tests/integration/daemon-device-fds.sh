#!/usr/bin/env bash
# With -D, the hwrng source's device fd outlives SIGHUP and read
# errors. The device here is a root-only (0600, in a 0700 folder) node of
# /dev/urandom's numbers, so a re-open as nobody fails with EACCES, as
# /dev/hwrng's does for the rngd user: before the fix rngd lost the device
# for good at the first SIGHUP or read error.
. "$top_srcdir/tests/fault/fault-lib.sh"
skip_unless_guard
id nobody > /dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }
mknod -m 0600 "$T/node" c 1 9 2>/dev/null || { echo "SKIP: mknod not allowed here"; exit 77; }
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# (No FAULT_LOG: after the drop the shim could not write it in $T.)
export FAULT_PATH=$T/node FAULT_RATE=0

# 1. SIGHUP: the source is "re-opened" on the fd it kept.
start_rngd -x all -n hwrng -O hwrng:device:"$T/node" -o "$T/sink" -D nobody
wait_log "running as nobody"
wait_size "$T/sink" 250000
kill -HUP "$RNGD_PID"
wait_log "SIGHUP: re-reading"
sleep 0.5
s=$(size "$T/sink")
wait_size "$T/sink" $((s + 250000)) 10
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
! grep -qE "hwrng: .*Permission denied" "$T/log" || fail "the device was re-opened as nobody"
[ "$(summary_field hwrng "reopens")" -ge 2 ] || fail "SIGHUP did not re-open the source"

# 2. One read error (EIO): closed and re-opened, again on the kept fd.
rm -f "$T/sink"
export FAULT_KINDS=eio FAULT_RATE=1000 FAULT_MAX=1 FAULT_SKIP=200
start_rngd -x all -n hwrng -O hwrng:device:"$T/node" -o "$T/sink" -D nobody
wait_log "running as nobody"
wait_log "hwrng: read: Input/output error" 20
s=$(size "$T/sink")
wait_size "$T/sink" $((s + 250000)) 10
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$(summary_field hwrng "read errors")" = 1 ] || fail "read errors: $(summary_field hwrng "read errors")"
! grep -qE "hwrng: .*Permission denied" "$T/log" || fail "the device was re-opened as nobody"
echo "ok: the hwrng device fd survives SIGHUP and a read error after -D"
