#!/usr/bin/env bash
# Signals at awkward moments:
#  - SIGTERM while the sink (a FIFO drained slowly) is full and a block
#    waits to be written: exit 0 at once; the reader gets whole blocks only,
#    a prefix of the passing blocks, and every byte rngd counted as written;
#  - SIGHUP while the source is inside a slow read(): each is answered by a
#    reload, reading goes on, the sink stays whole passing input blocks;
#  - SIGTERM while the source is inside a slow read(): exit 0 within 2 s;
#  - SIGSTOP/SIGCONT: nothing is written while stopped, the flow resumes
#    after, the sink stays whole passing input blocks.
. "$top_srcdir/tests/fault/fault-lib.sh"
skip_unless_guard
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

"$CHECK" gen 400 "$T/in" || fail gen
"$HELPER" expect "$T/in" "$T/expect" > /dev/null || fail expect
export FAULT_PATH=$T/in FAULT_RATE=0 FAULT_LOG=$T/faults

# 1. SIGTERM with a stalled sink.
mkfifo "$T/sinkfifo"
"$CHECK" slowread "$T/sinkfifo" "$T/drained" 20000 &
reader=$!
start_rngd -x all -r "$T/in" -o "$T/sinkfifo" --quarantine-after=1000000
sleep 1.5   # 64 KiB pipe + 30 KB drained: the sink is full, blocks wait
t0=$(now_ms)
stop_rngd TERM
took=$(( $(now_ms) - t0 ))
expect_clean_exit "SIGTERM with a full sink"
[ "$took" -lt 2000 ] || fail "SIGTERM with a full sink took $took ms"
wait "$reader"
read_bytes=$(summary_field file "bytes read")
sunk=$(grep -E "notice: rngd: summary: sink" "$T/log" | grep -oE "bytes written [0-9]+" | awk '{print $3}')
# Unstalled, rngd passes the whole input's passing blocks in well under 1.5 s.
[ "$sunk" -lt $(( $(stat -c %s "$T/expect") / 2 )) ] || fail "the sink never stalled (read $read_bytes, written $sunk)"
got=$("$CHECK" prefix "$T/expect" "$T/drained") || fail "the drained sink is not a prefix of the passing blocks"
[ "$(stat -c %s "$T/drained")" = "$sunk" ] || fail "rngd counted $sunk bytes written, the reader got $(stat -c %s "$T/drained")"
[ "$(echo "$got" | awk '{print $6}')" = 0 ] || fail "a block was cut short at exit: $got"
echo "ok: SIGTERM with a full sink: exit 0 in $took ms, reader got $got (of $read_bytes bytes read)"

# 2. SIGHUP inside slow reads (300 ms each), then SIGTERM inside one.
rm -f "$T/sink"
export FAULT_DELAY_US=300000
start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
wait_log "opened $T/in"
for i in 1 2 3 4 5; do
	sleep 0.45
	kill -HUP "$RNGD_PID"
	for _ in $(seq 100); do
		[ "$(grep -c "configuration reloaded" "$T/log")" -ge $i ] && break
		sleep 0.05
	done
	[ "$(grep -c "configuration reloaded" "$T/log")" -ge $i ] || fail "SIGHUP $i was not answered within 5 s"
done
before=$(stat -c %s "$T/sink" 2>/dev/null || echo 0)
wait_size "$T/sink" $(( before + 2 * BLOCK )) 10
sleep 0.1
t0=$(now_ms)
stop_rngd TERM
took=$(( $(now_ms) - t0 ))
expect_clean_exit "SIGHUP during reads"
[ "$took" -lt 2000 ] || fail "SIGTERM inside a slow read took $took ms"
verdict=$("$CHECK" verify "$T/in" "$T/sink") || fail "after SIGHUPs the sink is not whole passing input blocks"
echo "ok: 5 SIGHUPs inside 300 ms reads answered, reading went on ($verdict); SIGTERM inside a read: exit 0 in $took ms"
unset FAULT_DELAY_US

# 3. SIGSTOP/SIGCONT, reads of 20 ms.
rm -f "$T/sink"
export FAULT_DELAY_US=20000
start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
wait_size "$T/sink" $(( 4 * BLOCK )) 10
kill -STOP "$RNGD_PID"
sleep 0.2
stopped=$(stat -c %s "$T/sink")
sleep 1.5
[ "$(stat -c %s "$T/sink")" = "$stopped" ] || fail "the sink grew while rngd was stopped"
kill -CONT "$RNGD_PID"
wait_size "$T/sink" $(( stopped + 4 * BLOCK )) 10
stop_rngd TERM
expect_clean_exit "SIGSTOP/SIGCONT"
verdict=$("$CHECK" verify "$T/in" "$T/sink") || fail "after SIGSTOP/SIGCONT the sink is not whole passing input blocks"
echo "ok: SIGSTOP held the sink at $stopped bytes for 1.5 s, SIGCONT resumed it ($verdict)"
