# Shared helpers for the guest scenario scripts (busybox sh, sourced).
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)

# FIPS_BLOCK_BYTES ... as fips/fips.h defines them (tests/qemu/make-initramfs).
. /etc/rngd-fips-constants

# RESULT <scenario> <check> PASS|FAIL <details>: what the host parses.
result() {
	local check=$1 status=$2
	shift 2
	echo "RESULT $SCENARIO $check $status $*"
	# /init reports the count with DONE, so the host sees lost lines.
	echo "$check" >> /run/results
}
# BENCH <scenario> <name> <details>: a figure, not a verdict.
bench() {
	local name=$1
	shift
	echo "BENCH $SCENARIO $name $*"
}
# ACTION <monitor command>: the host runner sends it to QEMU's monitor.
host_action() {
	echo "ACTION $*"
}
# HOST <words>: the host runner runs its scenario's host helper with these
# words appended (e.g. tests/qemu/send-frames) and waits for it.
host_helper() {
	echo "HOST $*"
}
# The value of rngd.NAME=VALUE on the kernel command line: a setting the
# host scenario passes to its guest half; empty if absent.
boot_arg() {
	local word
	for word in $(cat /proc/cmdline); do
		case $word in
		rngd.$1=*) echo "${word#rngd.$1=}"; return 0 ;;
		esac
	done
}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
# awk does the floating point busybox sh cannot.
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
fdiv() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }
flt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# Kernel timestamp (s since boot) of "crng init done", empty if not yet.
crng_done_at() {
	dmesg | sed -n 's/^\[ *\([0-9.]*\)\] random: crng init done.*/\1/p' | head -n 1
}
pool_ready() { guest-getrandom >/dev/null 2>&1; }
entropy_avail() { cat /proc/sys/kernel/random/entropy_avail; }

HWRNG=/sys/class/misc/hw_random
hwrng_current() { cat $HWRNG/rng_current 2>/dev/null; }
hwrng_quality() { cat $HWRNG/rng_quality 2>/dev/null; }

# Scenarios that need rngd fail clearly when it was not built.
need_rngd() {
	if [ ! -x /usr/sbin/rngd ]; then
		result rngd-present FAIL "rngd is not in the initramfs (not built yet?)"
		return 1
	fi
	return 0
}

RNGD_PID=
RNGD_LOG=/run/rngd.log
# Start rngd in the foreground (backgrounded by the shell), logging to
# $RNGD_LOG; extra arguments are rngd options.
start_rngd() {
	: > $RNGD_LOG
	rngd -f "$@" >>$RNGD_LOG 2>&1 &
	RNGD_PID=$!
	rngd_wait_signals
}
# SIGUSR1 kills a process that has not yet blocked or caught it: wait (up
# to 5 s) until rngd has, so a stats request cannot be mistaken for a crash.
rngd_wait_signals() {
	local i=0 blk cgt
	while [ $i -lt 100 ] && rngd_alive; do
		blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' /proc/$RNGD_PID/status 2>/dev/null)
		cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$RNGD_PID/status 2>/dev/null)
		blk=${blk#${blk%????}} cgt=${cgt#${cgt%????}}
		[ $(( (0x${blk:-0} | 0x${cgt:-0}) & 0x200 )) -ne 0 ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}
# A sink that takes everything and keeps nothing: a FIFO drained into
# /dev/null (a character device would select the kernel sink instead).
SINK_FIFO=/run/sink.fifo
DRAIN_PID=
start_drain() {
	rm -f $SINK_FIFO
	mkfifo $SINK_FIFO
	cat $SINK_FIFO > /dev/null &
	DRAIN_PID=$!
}
rngd_alive() { [ -n "$RNGD_PID" ] && kill -0 "$RNGD_PID" 2>/dev/null; }
stop_rngd() {
	local i=0 t0
	[ -n "$RNGD_PID" ] || return 0
	t0=$(uptime_s)
	kill -TERM "$RNGD_PID" 2>/dev/null
	while rngd_alive && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	RNGD_EXIT_S=$(fsub "$(uptime_s)" "$t0")
	rngd_alive && kill -KILL "$RNGD_PID" 2>/dev/null
	wait "$RNGD_PID" 2>/dev/null
	RNGD_EXIT=$?
	RNGD_PID=
}

# Ask rngd for its counters (SIGUSR1) and wait up to $1 s (default 2) for
# the answer; sets STATS_LINES (the source lines) and SINK_LINE. Returns 1
# if no answer came.
rngd_stats() {
	local limit=${1:-2} before now t0
	before=$(grep -c 'stats: sink' $RNGD_LOG)
	kill -USR1 "$RNGD_PID" 2>/dev/null || return 1
	t0=$(uptime_s)
	while :; do
		now=$(grep -c 'stats: sink' $RNGD_LOG)
		[ "$now" -gt "$before" ] && break
		flt "$(fsub "$(uptime_s)" "$t0")" "$limit" || return 1
		sleep 0.05
	done
	STATS_ANSWER_S=$(fsub "$(uptime_s)" "$t0")
	SINK_LINE=$(grep 'stats: sink' $RNGD_LOG | tail -n 1)
	STATS_LINES=$(grep ': stats: .*blocks passed' $RNGD_LOG | tail -n 8)
	return 0
}
# Sum a counter ("blocks passed", "bits credited", "bytes read", ...) over
# the last stats line of source $1 (a substring of its name).
source_counter() {
	echo "$STATS_LINES" | grep ": $1[^:]*: stats:" | tail -n 1 |
		sed -n "s/.*[ ,]$2 \([0-9]*\).*/\1/p"
}
sink_credited() { echo "$SINK_LINE" | sed -n 's/.*bits credited \([0-9]*\).*/\1/p'; }

# The "credited" check: one SIGUSR1 answer shows blocks of source $1
# passed and bits credited; $2 is added to the PASS line. 0 on PASS.
check_credited() {
	local src=$1 extra=${2:+; $2} passed credited
	if ! rngd_stats 2; then
		result credited FAIL "no answer to SIGUSR1 within 2 s: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
		return 1
	fi
	passed=$(source_counter "$src" "blocks passed")
	credited=$(sink_credited)
	if [ "${passed:-0}" -gt 0 ] && [ "${credited:-0}" -gt 0 ]; then
		result credited PASS "blocks passed $passed, bits credited $credited$extra"
		return 0
	fi
	result credited FAIL "blocks passed '$passed', bits credited '$credited' ($(source_counter "$src" failed) failed): $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 1
}

# After stop_rngd: rngd must have exited 0 on SIGTERM.
check_clean_exit() {
	if [ "$RNGD_EXIT" = 0 ]; then
		result clean-exit${VARIANT:+-$VARIANT} PASS "rngd exited 0 on SIGTERM in $RNGD_EXIT_S s"
	else
		result clean-exit${VARIANT:+-$VARIANT} FAIL "rngd exit status $RNGD_EXIT after $RNGD_EXIT_S s (137: still running after 10 s, killed); log: $(tail -n 4 $RNGD_LOG | tr '\n' '|' | cut -c1-300)"
	fi
}

guest_cleanup() {
	stop_rngd
	[ -n "$DRAIN_PID" ] && kill "$DRAIN_PID" 2>/dev/null
	[ -n "$TCSD_PID" ] && kill "$TCSD_PID" 2>/dev/null
	return 0
}
