# Shared by tests/integration/source-*.sh (sourced, not run): tool checks
# that fail (never skip), loopback ports, helper processes stopped by PID on
# every exit path, and the rngtest verdict on a dump.
set -u
: "${top_builddir:?run from make check}" "${top_srcdir:?run from make check}"
. "$top_srcdir/tests/lib/fips-constants.sh"
DUMP=$top_builddir/tests/integration/source-dump
RNGTEST=$top_builddir/rngtest
T=$(mktemp -d "${TMPDIR:-/tmp}/rngd-source-test.XXXXXX")
HELPER_PIDS=()

stop_helpers() {
	local pid
	for pid in "${HELPER_PIDS[@]}"; do
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in "${HELPER_PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	HELPER_PIDS=()
}

source_cleanup() {
	stop_helpers
	rm -rf "$T"
}
trap source_cleanup EXIT
trap 'exit 1' TERM INT

fail() {
	echo "FAIL: $*" >&2
	local f
	for f in "$T"/*.log "$T"/*.err; do
		[ -f "$f" ] || continue
		echo "--- $f (last 15 lines)" >&2
		tail -15 "$f" >&2
	done
	exit 1
}

# need_tool NAME...: a missing tool fails the test (tools/install-deps installs them).
need_tool() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || fail "$t not found: run tools/install-deps"
	done
}

# need_root: skipped for a user, as every root-only test is; as root
# (tools/test-all, CI) a skip fails the run instead.
need_root() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (tcsd and swtpm setups, the guard)"; exit 77; }
}

# free_port: a TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# free_port_pair: P such that P and P+1 are both free (the swtpm TCTI
# expects the control channel on the next port). Taken below the kernel's
# ephemeral range: the swtpm TCTI connects once a command, so a test leaves
# thousands of TIME-WAIT connections on the even ephemeral ports, and a
# pair chosen there afterwards was taken one time in two.
free_port_pair() {
	python3 -c '
import random, socket
lo = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
# Below the ephemeral range when it leaves room, else anywhere in 10000-30000.
hi = lo - 1 if lo > 12000 else 30000
for _ in range(200):
    p = random.randrange(10000, hi - 1)
    try:
        a = socket.socket(); a.bind(("127.0.0.1", p))
        b = socket.socket(); b.bind(("127.0.0.1", p + 1))
    except OSError:
        continue
    print(p); break
'
}

# wait_port PORT [SECONDS]: until something accepts on 127.0.0.1:PORT; the
# helper spawned last must stay alive meanwhile. 30 s by default: a loaded
# 2-core machine (parallel make check) has taken more than 10 s to start tcsd.
wait_port() {
	local deadline=$(( $(date +%s) + ${2:-30} ))
	until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do
		if [ -n "${LAST_PID:-}" ] && ! kill -0 "$LAST_PID" 2>/dev/null; then
			wait "$LAST_PID"
			fail "the helper meant to listen on 127.0.0.1:$1 exited (status $?) before it listened"
		fi
		[ "$(date +%s)" -gt "$deadline" ] && fail "nothing listens on 127.0.0.1:$1 after ${2:-30} s"
		sleep 0.1
	done
}

# spawn LOGNAME COMMAND...: start a helper in the background, remember its PID.
spawn() {
	local log=$1
	shift
	"$@" > "$T/$log.log" 2>&1 &
	HELPER_PIDS+=("$!")
	LAST_PID=$!
}

# stop_pid PID: stop one helper and forget it.
stop_pid() {
	local keep=() pid
	kill -TERM "$1" 2>/dev/null
	for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	for pid in "${HELPER_PIDS[@]}"; do [ "$pid" = "$1" ] || keep+=("$pid"); done
	HELPER_PIDS=("${keep[@]}")
}

# fips_failures FILE BLOCKS: runs rngtest on FILE, prints the failure count;
# fails the test unless all BLOCKS blocks were tested.
fips_failures() {
	local out
	[ -x "$RNGTEST" ] || fail "no $RNGTEST"
	out=$("$RNGTEST" -c "$2" < "$1" 2>&1)
	local ok bad
	ok=$(echo "$out" | sed -n 's/.*FIPS 140-2 successes: \([0-9]*\).*/\1/p')
	bad=$(echo "$out" | sed -n 's/.*FIPS 140-2 failures: \([0-9]*\).*/\1/p')
	[ -n "$ok" ] && [ -n "$bad" ] || fail "rngtest printed no counts: $out"
	[ $(( ok + bad )) = "$2" ] || fail "rngtest tested $(( ok + bad )) blocks, not $2"
	echo "$bad"
}

# gate_report FILE BLOCKS: "FAILURES LONGEST_FAILING_RUN RCT APT" for the
# first BLOCKS blocks of FILE (rngtest -b 1 --sp800-90b, cumulative counts).
gate_report() {
	[ -x "$RNGTEST" ] || fail "no $RNGTEST"
	"$RNGTEST" -c "$2" -b 1 --sp800-90b < "$1" 2>&1 | awk -v want="$2" '
		/FIPS 140-2 successes:/ { ok = $NF }
		/FIPS 140-2 failures:/ {
			if ($NF > last) run++; else run = 0
			if (run > worst) worst = run
			last = $NF; n++
		}
		/Repetition count/ { rct = $NF }
		/Adaptive proportion/ { apt = $NF }
		END {
			if (n < want) { print "rngtest tested only " n " blocks" > "/dev/stderr"; exit 1 }
			print last + 0, worst + 0, rct + 0, apt + 0
		}'
}
