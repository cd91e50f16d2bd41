# Shared by tests/integration/daemon-*.sh (sourced, not run).
# Every rngd run goes through guard.sh: private mount namespace, /dev/random
# and /dev/hwrng covered by empty files, checked afterwards.
set -u
: "${top_builddir:?run from make check}" "${top_srcdir:?run from make check}"
# DAEMON_RNGD: another build of rngd (check-long-tsan runs a TSan one).
RNGD=${DAEMON_RNGD:-$top_builddir/rngd/rngd}
# DAEMON_MOCKKERNEL: the same for rngd-mockkernel, rngd over a recording
# mock of the kernel's input pool (tests/integration/kernel_entropy_mock.c).
MOCKKERNEL=${DAEMON_MOCKKERNEL:-$top_builddir/tests/integration/rngd-mockkernel}
# RNGD_EXEC_PREFIX: a command that execs rngd in its place (same pid), e.g.
# "setarch -R" (idle-memory.sh); split on spaces.
RNGD_EXEC_PREFIX=${RNGD_EXEC_PREFIX:-}
HELPER=$top_builddir/tests/integration/daemon-helper
GUARD=$top_srcdir/tests/integration/guard.sh
. "$top_srcdir/tests/lib/fips-constants.sh"
BLOCK=$FIPS_BLOCK_BYTES
T=$(mktemp -d "${TMPDIR:-/tmp}/rngd-test.XXXXXX")
GUARD_JOB=
RNGD_PID=

cleanup() {
	if [ -n "$RNGD_PID" ] && kill -0 "$RNGD_PID" 2>/dev/null; then
		kill -KILL "$RNGD_PID" 2>/dev/null
	fi
	[ -n "$GUARD_JOB" ] && wait "$GUARD_JOB" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	if [ -f "$T/log" ]; then echo "--- rngd log (last 30 lines)" >&2; tail -30 "$T/log" >&2; fi
	exit 1
}

skip_unless_guard() {
	"$GUARD" -- true 2>/dev/null
	[ $? = 77 ] && { echo "SKIP: guard needs root and unshare -m"; exit 77; }
	return 0
}

# start_rngd [GUARD OPTIONS --] RNGD ARGS...: guarded, in the background,
# logging to $T/log, stdout to $RNGD_STDOUT (default $T/out); sets
# RNGD_PID (rngd itself) and GUARD_JOB.
start_rngd() {
	local gopts=()
	if [ "${1:-}" = -w ]; then gopts=(-w); shift; fi
	rm -f "$T/pid"
	"$GUARD" "${gopts[@]}" -p "$T/pid" -- $RNGD_EXEC_PREFIX "$RNGD" -f -c /dev/null --state-dir="$T/state" "$@" > "${RNGD_STDOUT:-$T/out}" 2> "$T/log" &
	GUARD_JOB=$!
	for _ in $(seq 100); do
		[ -s "$T/pid" ] && break
		sleep 0.05
	done
	[ -s "$T/pid" ] || fail "rngd did not start"
	RNGD_PID=$(cat "$T/pid")
}

# wait_log PATTERN [SECONDS]: until grep -E finds PATTERN in the log.
wait_log() {
	local deadline=$(( $(date +%s) + ${2:-20} ))
	while ! grep -qE "$1" "$T/log"; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "no log line matching '$1' within ${2:-20} s"
		kill -0 "$RNGD_PID" 2>/dev/null || { grep -qE "$1" "$T/log" && return 0; fail "rngd died waiting for '$1'"; }
		sleep 0.05
	done
}

# stop_rngd [SIGNAL]: signal rngd and return its exit status in RC.
stop_rngd() {
	kill -"${1:-TERM}" "$RNGD_PID"
	wait "$GUARD_JOB"
	RC=$?
	GUARD_JOB=
	RNGD_PID=
	[ "$RC" = 99 ] && fail "the guard saw a write to /dev/random"
	return 0
}

# summary_field SOURCE FIELD: a number from the exit summary line of SOURCE.
summary_field() {
	grep -E "notice: $1: summary:" "$T/log" | tail -1 | grep -oE "$2 [0-9]+" | head -1 | awk '{print $NF}'
}
