#!/usr/bin/env bash
# The hwrng source on a character device (-O hwrng:device:/dev/urandom),
# test mode (-t prints rates), --on-fail=mix, and -D: after the drop every
# thread runs as the user with CAP_SYS_ADMIN as its only capability.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

# hwrng on a character device, file sink: rng_quality must stay untouched.
start_rngd -x all -n hwrng -O hwrng:device:/dev/urandom -O hwrng:entropy_per_bit:1.0 -o "$T/sink"
wait_log "hwrng: opened /dev/urandom"
for _ in $(seq 100); do [ "$(stat -c %s "$T/sink" 2>/dev/null || echo 0)" -ge 250000 ] && break; sleep 0.05; done
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$(stat -c %s "$T/sink")" -ge 250000 ] || fail "hwrng on /dev/urandom delivered too little"
[ $(( $(stat -c %s "$T/sink") % BLOCK )) = 0 ] || fail "the sink holds a partial block"
# A block still pending at SIGTERM is not written and earns nothing.
passed=$(summary_field hwrng "blocks passed")
to_sink=$(summary_field hwrng "bytes to sink")
[ "$to_sink" = "$(stat -c %s "$T/sink")" ] || fail "bytes to sink $to_sink != sink size"
[ "$(summary_field hwrng "bits credited")" = $(( to_sink * 8 )) ] || fail "credit != 8 bits per byte written at entropy_per_bit 1.0"
[ $(( to_sink / BLOCK )) -le "$passed" ] || fail "more blocks written than passed"
! grep -q "rng_quality" "$T/log" || fail "a file sink touched rng_quality"

# A regular file is not a character device for hwrng.
: > "$T/plain"
"$GUARD" -- "$RNGD" -f -c /dev/null -x all -n hwrng -O hwrng:device:"$T/plain" -o "$T/sink2" 2> "$T/log"
rc=$?
[ "$rc" = 1 ] || fail "hwrng on a regular file exited $rc, expected 1"
grep -q "not a character device" "$T/log" || fail "no reason given for refusing a regular file"

# Test mode prints rates and exits 0 on SIGTERM.
start_rngd -t -x all -n hwrng -O hwrng:device:/dev/urandom
sleep 1.5
stop_rngd TERM
[ "$RC" = 0 ] || fail "-t exited $RC"
grep -qE '^hwrng: [1-9][0-9]* passing bytes/s \([0-9]+ blocks passed, [0-9]+ failed' "$T/out" || fail "-t printed no rate: $(cat "$T/out")"

# --on-fail=mix: failing blocks reach the sink, with no credit.
"$HELPER" gen zeros 10 "$T/zeros" || fail gen
rm -f "$T/sink"
start_rngd -x all -r "$T/zeros" -O file:entropy_per_bit:1.0 --on-fail=mix --quarantine-after=1000000 -o "$T/sink"
wait_log "no usable source left"
stop_rngd TERM
[ "$(stat -c %s "$T/sink")" = 25000 ] || fail "mix: $(stat -c %s "$T/sink") bytes in the sink, expected 10 blocks"
[ "$(summary_field file "bits credited")" = 0 ] || fail "mix credited failed blocks"
[ "$(summary_field file "bytes mixed")" = 25000 ] || fail "mix: bytes mixed not counted"

# -D: privileges drop before the reader threads start.
if id nobody > /dev/null 2>&1; then
	group=$(id -gn nobody)
	chmod 755 "$T"
	"$HELPER" gen random 10 "$T/r" && chmod 644 "$T/r"
	mkfifo -m 644 "$T/fifo"
	start_rngd -x all -r "$T/fifo" -o "$T/sink3" -D "nobody:$group"
	wait_log "running as nobody"
	for task in /proc/"$RNGD_PID"/task/*; do
		uid=$(awk '/^Uid:/ {print $2 $3 $4 $5}' "$task/status")
		capeff=$(awk '/^CapEff:/ {print $2}' "$task/status")
		capprm=$(awk '/^CapPrm:/ {print $2}' "$task/status")
		[ "$uid" = "$(id -u nobody)$(id -u nobody)$(id -u nobody)$(id -u nobody)" ] || fail "thread $task runs as uid $uid"
		# The main thread keeps CAP_SYS_ADMIN (RNDADDENTROPY); no thread
		# holds more. The parked start-up watch (rngd/startup_watch.h)
		# lost every capability with setuid() and never needs one.
		if [ "$task" = /proc/"$RNGD_PID"/task/"$RNGD_PID" ]; then
			[ "$capeff" = 0000000000200000 ] && [ "$capprm" = 0000000000200000 ] ||
				fail "main thread has capabilities $capeff/$capprm, expected CAP_SYS_ADMIN only"
		else
			case "$capeff/$capprm" in
			0000000000200000/0000000000200000 | 0000000000000000/0000000000000000) ;;
			*) fail "thread $task has capabilities $capeff/$capprm, expected CAP_SYS_ADMIN at most" ;;
			esac
		fi
	done
	ntasks=$(ls /proc/"$RNGD_PID"/task | wc -l)
	[ "$ntasks" -ge 2 ] || fail "no reader thread"
	stop_rngd TERM
	[ "$RC" = 0 ] || fail "rngd -D exited $RC"
	echo "ok: -D: $ntasks threads, all uid nobody with CAP_SYS_ADMIN only"
fi
echo "ok: hwrng on a character device ($passed blocks), -t rates, --on-fail=mix"
