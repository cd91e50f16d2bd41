#!/usr/bin/env bash
# SIGTERM (and SIGINT) in every start-up phase: each phase is
# held open by something that does not answer, the signal is sent, and
# rngd must exit 0 within 1 s with its summary, naming the phase:
#   reading the configuration   a config whose read() hangs (fault shim);
#   looking up the -D user      a name service that hangs (fault shim);
#   locking the pid file        (quick: covered by the phases around it);
#   opening the sink            a FIFO sink nobody reads;
#   opening the sources         a tcsd that accepts and never answers;
#   dropping privileges         the drop's own name lookup hangs;
#   waiting for the first       (the loop) a FIFO source that never writes,
#   credited block              and a file source whose read() hangs.
# Nothing may be credited: guard.sh covers /dev/random.
. "$top_srcdir/tests/fault/fault-lib.sh"
skip_unless_guard
command -v python3 > /dev/null || fail "python3 is missing (tools/install-deps installs it)"
# Builtins only while timing (EPOCHREALTIME, read -t on a FIFO held open
# read-write): a fork per poll would add its own delay on a loaded machine.
mkfifo "$T/tick"
exec 7<> "$T/tick"   # fd 7: the ticking FIFO

"$HELPER" gen random 8 "$T/in" || fail gen
: > "$T/conf"
SLOW_US=20000000   # far longer than the test waits

# wait_wchan REGEX: until rngd's main thread sleeps in a kernel function
# matching REGEX (/proc/PID/wchan): it is stuck where the phase holds it.
wait_wchan() {
	local deadline=$(( $(date +%s) + 20 )) w=
	while ! grep -qE "$1" <<< "$w"; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "rngd's main thread never waited in $1 (last: $w)"
		kill -0 "$RNGD_PID" 2>/dev/null || fail "rngd died waiting for $1"
		sleep 0.05
		w=$(cat /proc/"$RNGD_PID"/wchan 2>/dev/null)
	done
}

# stop_in PHASE LOG-PATTERN WCHAN [SIGNAL]: rngd is up (start_rngd); wait
# until it is in the phase (PATTERN in the log, then its main thread
# asleep in WCHAN), signal it, and check exit 0 within 1 s, the phase
# named and a summary with nothing credited.
stop_in() {
	local phase=$1 pattern=$2 wchan=$3 sig=${4:-TERM} t0 took
	[ -z "$pattern" ] || wait_log "$pattern"
	wait_wchan "$wchan"
	kill -0 "$RNGD_PID" 2>/dev/null || fail "$phase: rngd ended before the signal"
	t0=${EPOCHREALTIME/[.,]/}
	kill -"$sig" "$RNGD_PID"
	# Bounded: an rngd that ignores the signal fails here, not hangs.
	while kill -0 "$RNGD_PID" 2>/dev/null && [ $(( ${EPOCHREALTIME/[.,]/} - t0 )) -lt 3000000 ]; do
		read -r -t 0.005 -u 7 _
	done
	took=$(( (${EPOCHREALTIME/[.,]/} - t0) / 1000 ))
	kill -0 "$RNGD_PID" 2>/dev/null && fail "$phase: rngd still runs 3 s after SIG$sig"
	stop_rngd "$sig" 2>/dev/null
	[ "$RC" = 0 ] || fail "$phase: exit $RC after SIG$sig"
	[ "$took" -lt 1000 ] || fail "$phase: SIG$sig took $took ms"
	if [ "$phase" = "waiting for the first credited block" ]; then
		grep -q "notice: rngd: SIG$sig received; exiting" "$T/log" || fail "$phase: no exit message"
	else
		grep -q "notice: rngd: SIG$sig received while $phase; exiting" "$T/log" ||
			fail "$phase: the exit message does not name the phase"
	fi
	grep -qE "notice: rngd: summary: sink [a-z]+: bytes written 0, bits credited 0" "$T/log" ||
		fail "$phase: no summary with nothing credited"
	echo "ok: SIG$sig while $phase: exit 0 in $took ms with the summary"
}

# The config's read() hangs: SIGTERM, then SIGINT.
for sig in TERM INT; do
	FAULT_PATH=$T/conf FAULT_RATE=0 FAULT_DELAY_US=$SLOW_US \
		start_rngd -c "$T/conf" -x all -r "$T/in" -o "$T/sink"
	stop_in "reading the configuration" "" nanosleep $sig
done

# The name service hangs on the -D lookup.
FAULT_NSS_DELAY_US=$SLOW_US start_rngd -x all -r "$T/in" -o "$T/sink" -D nobody
stop_in "looking up the -D user" "" nanosleep

# A FIFO sink nobody reads: open() waits for a reader.
mkfifo "$T/sinkfifo"
start_rngd -x all -r "$T/in" -o "$T/sinkfifo"
stop_in "opening the sink" "" wait_for_partner

# A tcsd that accepts and never answers.
python3 "$top_srcdir/tests/integration/silent-server.py" 60 > "$T/port" &
server=$!
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.05; done
port=$(cat "$T/port")
[ -n "$port" ] || fail "the silent server did not start"
start_rngd -x all -n tpm -O tpm:host:127.0.0.1 -O tpm:port:"$port" -o "$T/sink"
stop_in "opening the sources" "feeding the file sink" "wait|recv|poll|sk_"
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null

# The drop's own lookup hangs (the first one, at start, answers).
FAULT_NSS_DELAY_US=$SLOW_US FAULT_NSS_SKIP=1 start_rngd -x all -r "$T/in" -o "$T/sink" -D nobody
stop_in "dropping privileges" "opened $T/in" nanosleep

# The loop waits for the first credited block: a FIFO source whose writer
# never writes, then a file source whose every read() hangs.
mkfifo "$T/srcfifo"
sleep 30 > "$T/srcfifo" &
holder=$!
start_rngd -x all -r "$T/srcfifo" -o "$T/sink"
stop_in "waiting for the first credited block" "opened $T/srcfifo" "poll"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
FAULT_PATH=$T/in FAULT_RATE=0 FAULT_DELAY_US=$SLOW_US start_rngd -x all -r "$T/in" -o "$T/sink"
stop_in "waiting for the first credited block" "opened $T/in" "poll"
[ ! -s "$T/sink" ] || fail "bytes reached the sink"
echo "ok: SIGTERM and SIGINT answered within 1 s in every start-up phase"
