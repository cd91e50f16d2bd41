#!/usr/bin/env bash
# A SIGUSR1 or SIGHUP that arrives while rngd is still starting (parsing
# options, opening sources, dropping privileges) must wait for the loop,
# not kill rngd with the default action. Deterministic form of that race:
# under strace, the handled signals are blocked before rngd reads its
# config file, its first start-up step.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
command -v strace > /dev/null || fail "strace is missing (tools/install-deps installs it)"

head -c $((BLOCK * 8)) /dev/urandom > "$T/src"
: > "$T/conf"
"$GUARD" -- strace -f -qq -o "$T/trace" -e trace=rt_sigprocmask,openat \
	"$RNGD" -f -c "$T/conf" -x all -r "$T/src" -o "$T/sink" > "$T/out" 2> "$T/log" &
GUARD_JOB=$!
for _ in $(seq 200); do
	# guard.sh's background child execs unshare, bash, then strace.
	tracer=$(pgrep -n -x strace -P "$GUARD_JOB" || true)
	[ -n "$tracer" ] && RNGD_PID=$(pgrep -n -x rngd -P "$tracer" || true)
	[ -n "$RNGD_PID" ] && grep -q "opened $T/src" "$T/log" && break
	sleep 0.05
done
[ -n "$RNGD_PID" ] || fail "rngd did not start under strace"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"

block_line=$(grep -nE 'rt_sigprocmask\(SIG_BLOCK, \[[^]]*USR1' "$T/trace" | head -1 | cut -d: -f1)
open_line=$(grep -nF "\"$T/conf\"" "$T/trace" | grep openat | head -1 | cut -d: -f1)
[ -n "$open_line" ] || fail "strace saw no open of the config file"
[ -n "$block_line" ] || fail "rngd never blocked SIGUSR1"
[ "$block_line" -lt "$open_line" ] ||
	fail "SIGUSR1 blocked only at trace line $block_line, after the config file was opened at line $open_line"
echo "ok: signals blocked at trace line $block_line, config opened at line $open_line"
