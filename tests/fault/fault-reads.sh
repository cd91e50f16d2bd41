#!/usr/bin/env bash
# Read faults under rngd (LD_PRELOAD shim on the source's fd): EIO, EINTR,
# EAGAIN, short reads and sudden EOF at seeded random points. rngd must not
# crash, must hand the sink only whole input blocks that pass the gate (a
# block cut short by a fault is dropped, never completed with other bytes),
# and must read on to the end of the data once the faults stop.
. "$top_srcdir/tests/fault/fault-lib.sh"
skip_unless_guard

"$CHECK" gen 400 "$T/in" || fail gen
"$HELPER" expect "$T/in" "$T/expect" > /dev/null || fail expect
export FAULT_PATH=$T/in FAULT_LOG=$T/faults

# The checker must reject what the tests are meant to catch.
reject() {   # WHAT SINK
	"$CHECK" verify "$T/in" "$2" > /dev/null 2>&1 && fail "the checker accepted $1"
	return 0
}
head -c $(( 10 * BLOCK + 100 )) "$T/expect" > "$T/bad"; reject "a block cut short" "$T/bad"
{ head -c $(( 3 * BLOCK )) "$T/expect"; tail -c +5 "$T/in" | head -c $(( 5 * BLOCK )) | tail -c $BLOCK; } > "$T/bad"
reject "a block failing the gate (input block 4, biased)" "$T/bad"
{ head -c $(( 2 * BLOCK )) "$T/expect"; head -c $BLOCK "$T/expect"; } > "$T/bad"; reject "a block sent twice" "$T/bad"
{ tail -c +$(( BLOCK + 1 )) "$T/expect" | head -c $BLOCK; head -c $BLOCK "$T/expect"; } > "$T/bad"; reject "blocks out of order" "$T/bad"
{ head -c $(( BLOCK - 1 )) "$T/expect"; printf x; } > "$T/bad"; reject "a changed byte" "$T/bad"
"$CHECK" verify "$T/in" "$T/expect" > /dev/null || fail "the checker rejects the gate's own choice"

# 0. Control: the shim loaded, no faults: exactly the passing blocks.
export FAULT_RATE=0
start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
wait_log "exhausted"
stop_rngd TERM
expect_clean_exit "no faults"
cmp "$T/sink" "$T/expect" || fail "without faults the sink differs from the passing blocks"
echo "ok: no faults: $(( $(stat -c %s "$T/sink") / BLOCK )) blocks, identical to the gate's choice"

# 1. Every kind but EOF on a regular file (its EOF means exhausted for good).
run_faults() {   # NAME KINDS RATE MAX SEED
	rm -f "$T/sink" "$T/faults"
	export FAULT_KINDS=$2 FAULT_RATE=$3 FAULT_MAX=$4 FAULT_SEED=$5
	start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
	wait_log "exhausted" 60
	stop_rngd TERM
	expect_clean_exit "$1"
	[ "$(wc -l < "$T/faults")" -eq "$4" ] || fail "$1: the shim injected $(wc -l < "$T/faults") faults, wanted $4"
	for k in ${2//,/ }; do
		[ "$(fault_count "$k")" -gt 0 ] || fail "$1: no $k fault was injected"
	done
	verdict=$("$CHECK" verify "$T/in" "$T/sink" --to-end) || fail "$1: the sink is not whole passing input blocks"
	echo "ok: $1: $(wc -l < "$T/faults") faults ($(sort "$T/faults" | awk '{print $3}' | sort | uniq -c | xargs)), sink $verdict"
}
run_faults "mixed faults" eio,eintr,eagain,short 200 40 7
grep -q "Input/output error; closing, re-opening" "$T/log" || fail "EIO was not logged"
run_faults "short reads then EIO" short,eio 400 60 11
realigned=$(echo "$verdict" | awk '{print $4}')
[ "$realigned" -gt 0 ] || fail "no partial block was ever dropped: the scenario did not cut a block short"

# 2. A FIFO: sudden EOF (and errors) close it; the writer re-opens it.
rm -f "$T/sink" "$T/faults"; mkfifo "$T/fifo"
export FAULT_PATH=$T/fifo FAULT_KINDS=eof,eio,eagain,short FAULT_RATE=200 FAULT_MAX=12 FAULT_SEED=3
start_rngd -x all -r "$T/fifo" -o "$T/sink" --quarantine-after=1000000
wait_log "opened $T/fifo"
"$CHECK" feed "$T/fifo" "$T/in" || fail feed
wait_quiet "$T/sink"
stop_rngd TERM
expect_clean_exit "FIFO with EOF faults"
[ "$(fault_count eof)" -gt 0 ] || fail "no EOF fault was injected"
[ "$(wc -l < "$T/faults")" -eq 12 ] || fail "the FIFO run injected $(wc -l < "$T/faults") faults, wanted 12"
verdict=$("$CHECK" verify "$T/in" "$T/sink" --to-end) || fail "FIFO: the sink is not whole passing input blocks"
echo "ok: FIFO: 12 faults ($(sort "$T/faults" | awk '{print $3}' | sort | uniq -c | xargs)), re-opened $(summary_field file reopens) times, sink $verdict"

# 3. An open that takes longer than --open-wait: the start goes on without
# it, and when it ends its line says what the source is credited, as the
# start's "opened" lines do (it said nothing of credit).
rm -f "$T/sink"
export FAULT_PATH=$T/in FAULT_RATE=0 FAULT_OPEN_DELAY_US=2500000
start_rngd -x all -r "$T/in" -O file:entropy_per_bit:0.5 -o "$T/sink" --open-wait=1 --state-dir="$T/state.slow"
wait_log "file: still opening after 1.0 s" 10
wait_log "file: opened $T/in.* \(the open begun at start\), 0.500 entropy bits per bit credited, priority -?[0-9]+" 20
wait_log "exhausted"
stop_rngd TERM
unset FAULT_OPEN_DELAY_US
expect_clean_exit "a slow open at start"
cmp "$T/sink" "$T/expect" || fail "after a slow open the sink differs from the passing blocks"
echo "ok: an open slower than --open-wait: the start went on, its late line names its credit"
