#!/usr/bin/env bash
# When the sink wants nothing, nothing is read: a FIFO sink whose reader
# stops reading stalls the loop; the sources stop after filling their small
# queues (no more bytes read), rngd uses next to no CPU, and SIGTERM still
# exits at once with a summary.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

ticks() { awk '{print $14 + $15}' /proc/"$RNGD_PID"/stat; }
rchar() { awk '/^rchar:/ {print $2}' /proc/"$RNGD_PID"/io; }

mkfifo "$T/sink"
start_rngd -x all -n hwrng -O hwrng:device:/dev/urandom -o "$T/sink"
exec 3< "$T/sink"            # a reader that holds the FIFO open and never reads
wait_log "hwrng: opened /dev/urandom"
sleep 1                       # the pipe (64 KiB) and the queues fill
r0=$(rchar); t0=$(ticks)
sleep 3
r1=$(rchar); t1=$(ticks)
hz=$(getconf CLK_TCK)
# Reading /proc, signalfd and eventfd count in rchar too: allow a little.
[ $(( r1 - r0 )) -lt 4096 ] || fail "rngd read $(( r1 - r0 )) bytes in 3 s while the sink wanted nothing"
[ $(( t1 - t0 )) -le $(( hz / 10 )) ] || fail "rngd used $(( t1 - t0 )) ticks of CPU in 3 s while stalled"
kill -USR1 "$RNGD_PID"
wait_log "rngd: stats: sink" 2
start=$(date +%s%N)
stop_rngd TERM
ms=$(( ($(date +%s%N) - start) / 1000000 ))
exec 3<&-
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$ms" -lt 1000 ] || fail "SIGTERM took $ms ms with a stalled sink"
grep -q "notice: hwrng: summary:" "$T/log" || fail "no summary"
echo "ok: stalled sink: $(( r1 - r0 )) bytes read and $(( t1 - t0 )) CPU ticks in 3 s; SIGTERM in $ms ms"
