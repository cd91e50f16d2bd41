#!/usr/bin/env bash
# A FIFO source's writer outlives reloads: once the kernel pool is ready
# the reader's queue is full and the writer waits in write() on a full
# pipe. A SIGHUP re-opens the source; were the old read end closed before
# the new one is open, the pipe would have no reader for a moment and the
# writer would die of SIGPIPE (`systemctl reload rngd` ending the feeder).
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
RNGD=$MOCKKERNEL
export RNGD_MOCK_KERNEL_LOG=$T/kernel.log RNGD_MOCK_KERNEL_STATE=$T/kernel.state
echo 256 > "$RNGD_MOCK_KERNEL_STATE"   # the pool is ready: top-ups only

mkfifo "$T/fifo"
cat /dev/urandom > "$T/fifo" &
writer=$!
start_rngd -x all -r "$T/fifo" -O file:entropy_per_bit:0.5 -o /dev/null
wait_log "file: opened"
sleep 1
for i in $(seq 12); do
	kill -HUP "$RNGD_PID"
	sleep 0.3
	kill -0 "$writer" 2>/dev/null || { wait "$writer"; fail "the FIFO's writer died (status $?) after SIGHUP $i"; }
done
sleep 0.5
kill -0 "$writer" 2>/dev/null || { wait "$writer"; fail "the FIFO's writer died (status $?)"; }
[ "$(grep -c 'configuration reloaded' "$T/log")" -ge 10 ] || fail "the reloads were not taken"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
echo "ok: the FIFO's writer lived through 12 SIGHUPs"
