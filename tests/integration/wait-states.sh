#!/usr/bin/env bash
# What rngd costs while it waits: rngd under guard.sh in each
# wait state for WAIT_STATE_SECONDS (default 10), measured from outside:
#   CPU     utime + stime of the whole process, /proc/PID/stat (clock ticks)
#   wakes   voluntary context switches summed over every thread,
#           /proc/PID/task/*/status: each one is a thread going to sleep
#           after it woke, so this counts wake-ups
# Every state must stay under 1 % of one core and under its wake-up bound
# (per minute, from the window), listed with each state below and in the
# README's table. The measuring window starts once the state is reached
# and has settled (1 s), so start-up work is not counted.
#
# States and their wake-up bounds (per minute):
#   device-missing   120  hwrng on a missing device: re-open back-off
#                         0.1 s doubling to 30 s, plus the 10 s status
#   read-fails       120  a file source whose every read fails (EIO from
#                         tests/fault/faultshim.so): the same back-off
#   ends-at-once     120  a device that ends as soon as it is opened
#                         (-r /dev/null, a hung-up serial TRNG): the same
#                         back-off (it was re-opened ten times a second)
#   quarantined      120  a source of zeros, quarantined: re-tests back
#                         off from 1 s, doubling
#   failing-kept     120  the same source with --quarantine-after=0 (never
#                         quarantined): from the third failure in a row
#                         each holds the next block back from 1 s,
#                         doubling (it was read, tested and dropped as
#                         fast as a core goes)
#   exhausted         30  the only source a regular file, read to its end
#   fifo-source       30  a FIFO source nobody opens for writing
#   fifo-sink         30  a file sink on a FIFO whose reader never reads;
#                         then SIGTERM must be answered within 1 s
#   stdout-sink       30  the same with -o - and rngd's stdout the FIFO
#                         (rngd -o - | a reader that stalls): stdout was
#                         written blocking, and SIGTERM went unanswered
#   egd-1, egd-64     30  the EGD server with 1 and 64 clients, each
#                         with a blocking read on an empty reserve
#   egd-hangup        30  an EGD client that filled its request queue and
#                         hung up
#   egd-unread        30  an EGD client that sends blocking reads of 255
#                         and reads none of the replies until they stop
#                         piling up, the reserve full (-r /dev/urandom,
#                         hwrng at 0.5): its socket and the reply buffer are
#                         full, and the server waits for POLLOUT (it
#                         polled with a zero time-out, 100 % of a core)
#   egd-zero-credit   30  the EGD reserve wants bytes (-o none, no client)
#                         and the only source earns no credit (a file
#                         source on /dev/urandom left at 0): none of its
#                         blocks is of use, so none is read beyond its
#                         queue (it was read, tested and dropped as fast as
#                         it came: a full core)
#   kernel-ready      30  the kernel sink after the pool is ready, between
#                         top-ups: rngd-mockkernel, rngd with its kernel
#                         calls answered by kernel_entropy_mock.c (its
#                         pool set ready), as no test may feed this
#                         machine's pool. Measured after the ready-timeout
#                         notice (start-up over) and before the first
#                         top-up (--topup-interval), which must then reach
#                         the mock as an add to the ready pool
# WAIT_STATES="a b" runs only those; WAIT_RNGD / WAIT_MOCKKERNEL measure
# another build (the README's before/after table). WAIT_REPORT=FILE
# appends one line per state: "STATE cpu% wakes/min".
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

SECS=${WAIT_STATE_SECONDS:-10}
RNGD=${WAIT_RNGD:-$RNGD}
EGD_CLIENT=${WAIT_EGD_CLIENT:-$top_builddir/tests/integration/egd-client}
MOCKKERNEL=${WAIT_MOCKKERNEL:-$MOCKKERNEL}
SHIM=$top_builddir/tests/fault/faultshim.so
SOCK=$T/egd.sock
HZ=$(getconf CLK_TCK)
STATES=${WAIT_STATES:-device-missing read-fails ends-at-once quarantined failing-kept exhausted fifo-source fifo-sink stdout-sink egd-1 egd-64 egd-hangup egd-unread egd-zero-credit kernel-ready}
FAILED=0
REAL_RNGD=$RNGD

declare -A BOUND=([device-missing]=120 [read-fails]=120 [ends-at-once]=120 [quarantined]=120 [failing-kept]=120 [exhausted]=30
	[fifo-source]=30 [fifo-sink]=30 [stdout-sink]=30 [egd-1]=30 [egd-64]=30 [egd-hangup]=30 [egd-unread]=30
	[egd-zero-credit]=30 [kernel-ready]=30)

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
wakes() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'; }

# measure STATE: watch $RNGD_PID for SECS seconds, check the bounds.
measure() {
	local state=$1 t0 t1 w0 w1 cpu per_min
	sleep 1
	kill -0 "$RNGD_PID" 2>/dev/null || fail "$state: rngd died before the measurement"
	t0=$(ticks "$RNGD_PID"); w0=$(wakes "$RNGD_PID")
	sleep "$SECS"
	t1=$(ticks "$RNGD_PID"); w1=$(wakes "$RNGD_PID")
	kill -0 "$RNGD_PID" 2>/dev/null || fail "$state: rngd died during the measurement"
	cpu=$(awk -v t=$((t1 - t0)) -v hz="$HZ" -v s="$SECS" 'BEGIN { printf "%.2f", 100 * t / hz / s }')
	per_min=$(awk -v w=$((w1 - w0)) -v s="$SECS" 'BEGIN { printf "%.0f", w * 60 / s }')
	echo "$state: ${cpu}% of a core, $((w1 - w0)) wake-ups in ${SECS} s ($per_min/min; bound ${BOUND[$state]})"
	[ -n "${WAIT_REPORT:-}" ] && echo "$state $cpu $per_min" >> "$WAIT_REPORT"
	if awk -v c="$cpu" 'BEGIN { exit !(c >= 1.0) }'; then
		echo "FAIL: $state: ${cpu}% of a core while waiting (limit 1 %)" >&2
		FAILED=1
	fi
	if [ "$per_min" -gt "${BOUND[$state]}" ]; then
		echo "FAIL: $state: $per_min wake-ups a minute (bound ${BOUND[$state]})" >&2
		FAILED=1
	fi
}

stop() {
	stop_rngd TERM
	[ "$RC" = 0 ] || fail "$1: rngd exited $RC"
}

random_file() { head -c "$2" /dev/urandom > "$1"; }

for state in $STATES; do
	RNGD=$REAL_RNGD
	rm -f "$T/log" "$T/out" "$SOCK"
	case $state in
	device-missing)
		start_rngd -x all -n hwrng -O "hwrng:device:$T/nonexistent" -o "$T/out"
		wait_log "cannot open"
		measure "$state"; stop "$state" ;;
	read-fails)
		[ -f "$SHIM" ] || fail "no $SHIM"
		random_file "$T/dev" 100000
		cat > "$T/rngd-shim" <<WRAP
#!/bin/sh
FAULT_PATH="$T/dev" FAULT_KINDS=eio FAULT_RATE=1000 exec env LD_PRELOAD="$SHIM" "$REAL_RNGD" "\$@"
WRAP
		chmod +x "$T/rngd-shim"
		RNGD=$T/rngd-shim
		start_rngd -x all -r "$T/dev" -o "$T/out"
		wait_log "Input/output error"
		measure "$state"; stop "$state" ;;
	ends-at-once)
		start_rngd -x all -r /dev/null -o "$T/out"
		wait_log "end of data; closing and re-opening"
		measure "$state"; stop "$state"
		errors=$(summary_field hwrng "read errors")
		[ "$errors" = 0 ] || { echo "FAIL: ends-at-once: $errors read errors for a device that only ended" >&2; FAILED=1; } ;;
	quarantined)
		start_rngd -x all -r /dev/zero -o "$T/out"
		wait_log "quarantined after"
		measure "$state"; stop "$state" ;;
	failing-kept)
		start_rngd -x all -r /dev/zero -o "$T/out" --quarantine-after=0
		wait_log "block failed"
		measure "$state"; stop "$state" ;;
	exhausted)
		random_file "$T/small" 30000
		start_rngd -x all -r "$T/small" -o "$T/out"
		wait_log "exhausted"
		measure "$state"; stop "$state" ;;
	fifo-source)
		mkfifo "$T/src.fifo"
		start_rngd -x all -r "$T/src.fifo" -o "$T/out"
		wait_log "feeding"
		measure "$state"; stop "$state"
		rm -f "$T/src.fifo" ;;
	fifo-sink | stdout-sink)
		random_file "$T/big" 500000
		mkfifo "$T/sink.fifo"
		exec 3<> "$T/sink.fifo"        # a reader that never reads
		if [ "$state" = fifo-sink ]; then
			start_rngd -x all -r "$T/big" -o "$T/sink.fifo"
		else
			RNGD_STDOUT=$T/sink.fifo start_rngd -x all -r "$T/big" -o -
		fi
		wait_log "feeding"
		sleep 1
		measure "$state"
		t0=$(date +%s%N)
		kill -TERM "$RNGD_PID"
		for _ in $(seq 100); do kill -0 "$RNGD_PID" 2>/dev/null || break; sleep 0.01; done
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		alive=0; kill -0 "$RNGD_PID" 2>/dev/null && alive=1
		stop_rngd KILL 2>/dev/null
		exec 3<&-
		rm -f "$T/sink.fifo"
		if [ "$alive" = 1 ]; then
			echo "FAIL: $state: SIGTERM not answered within 1 s" >&2; FAILED=1
		else
			echo "$state: SIGTERM answered in $ms ms"
		fi ;;
	egd-unread)
		start_rngd -x all -r /dev/urandom -o none --egd-socket "$SOCK"
		for _ in $(seq 200); do [ -S "$SOCK" ] && break; sleep 0.05; done
		[ -S "$SOCK" ] || fail "$state: rngd did not listen on $SOCK"
		"$EGD_CLIENT" "$SOCK" unread $((SECS + 3)) > "$T/clients" &
		clients=$!
		for _ in $(seq 1200); do grep -q unread "$T/clients" && break; sleep 0.05; done
		grep -q unread "$T/clients" || fail "$state: the client's replies never stopped piling up"
		echo "egd-unread: $(cat "$T/clients") bytes of replies left unread"
		measure "$state"
		wait "$clients"
		stop "$state" ;;
	egd-1 | egd-64 | egd-hangup)
		mkfifo "$T/src.fifo"
		start_rngd -x all -r "$T/src.fifo" -o none --egd-socket "$SOCK"
		for _ in $(seq 200); do [ -S "$SOCK" ] && break; sleep 0.05; done
		[ -S "$SOCK" ] || fail "$state: rngd did not listen on $SOCK"
		if [ "$state" = egd-hangup ]; then
			# 300 blocking reads of 1 byte: the queue (256) is full; then gone.
			"$EGD_CLIENT" "$SOCK" raw 0201 300 > /dev/null
			clients=
		else
			n=${state#egd-}
			"$EGD_CLIENT" "$SOCK" wait "$n" $((SECS + 3)) > "$T/clients" &
			clients=$!
			for _ in $(seq 200); do grep -q waiting "$T/clients" && break; sleep 0.05; done
			grep -q waiting "$T/clients" || fail "$state: the clients did not connect"
		fi
		measure "$state"
		[ -n "$clients" ] && wait "$clients"
		stop "$state"
		rm -f "$T/src.fifo" ;;
	egd-zero-credit)
		start_rngd -x all -n file -O file:path:/dev/urandom -o none --egd-socket "$SOCK"
		for _ in $(seq 200); do [ -S "$SOCK" ] && break; sleep 0.05; done
		[ -S "$SOCK" ] || fail "$state: rngd did not listen on $SOCK"
		measure "$state"
		kill -USR1 "$RNGD_PID"
		wait_log "notice: file: stats:"
		read=$(grep -E "notice: file: stats:" "$T/log" | tail -1 | grep -oE "bytes read [0-9]+" | awk '{print $NF}')
		# The seed, the four queued blocks and the one being read.
		[ "${read:-x}" -le $((4 + 6 * BLOCK)) ] || fail "$state: $read bytes read of a source the reserve cannot use"
		echo "$state: $read bytes read"
		stop "$state" ;;
	kernel-ready)
		random_file "$T/big" 500000
		export RNGD_MOCK_KERNEL_STATE=$T/kernel.state RNGD_MOCK_KERNEL_LOG=$T/kernel.log
		echo 256 > "$RNGD_MOCK_KERNEL_STATE"
		rm -f "$RNGD_MOCK_KERNEL_LOG"
		RNGD=$MOCKKERNEL
		# -o /dev/null: a character device, so the kernel sink (the mock
		# never opens it). The first top-up is due SECS + 10 s after start:
		# 5 s for the ready-timeout notice, 1 s settling and SECS measured
		# come first, with 4 s to spare.
		start_rngd -x all -r "$T/big" -o /dev/null --topup-interval=$((SECS + 10))
		wait_log "telling the service manager we are ready anyway"
		measure "$state"
		# "add LEN CREDIT COUNTED READY_BEFORE HEX": a top-up of the ready pool.
		deadline=$(( $(date +%s) + 20 ))
		until grep -qE '^add [0-9]+ [0-9]+ [0-9]+ 1 ' "$RNGD_MOCK_KERNEL_LOG" 2>/dev/null; do
			[ "$(date +%s)" -le "$deadline" ] || fail "kernel-ready: no add to the ready pool in $RNGD_MOCK_KERNEL_LOG"
			kill -0 "$RNGD_PID" 2>/dev/null || fail "kernel-ready: rngd died waiting for its top-up"
			sleep 0.1
		done
		stop "$state"
		echo "kernel-ready: the mock kernel got $(grep -c '^add ' "$RNGD_MOCK_KERNEL_LOG") add(s)" ;;
	*)
		fail "unknown state $state" ;;
	esac
done
exit $FAILED
