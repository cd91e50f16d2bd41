#!/usr/bin/env bash
# Malformed options and config lines: one error line naming the option or
# FILE:LINE, exit 2. -h, -v and -l (unprivileged) exit 0; the command line
# overrides the config file; a second rngd on the same pid file exits 3
# naming the pid that holds it.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

# expect_usage EXPECTED-MESSAGE ARGS...
expect_usage() {
	local want=$1 rc
	shift
	"$GUARD" -- "$RNGD" "$@" > "$T/o" 2> "$T/e"
	rc=$?
	[ "$rc" = 2 ] || fail "rngd $* exited $rc, expected 2 ($(cat "$T/e"))"
	[ "$(wc -l < "$T/e")" = 1 ] || fail "rngd $*: expected one error line, got: $(cat "$T/e")"
	grep -qF -- "$want" "$T/e" || fail "rngd $*: error '$(cat "$T/e")' lacks '$want'"
}

expect_usage "rngd: unknown option '--bogus'" -c /dev/null --bogus
expect_usage "rngd: unknown option '-z'" -c /dev/null -z
expect_usage "option '-r' needs a value" -c /dev/null -r
expect_usage "-W needs a number of bits 0..4096, not 'lots'" -c /dev/null -W lots
expect_usage "-s needs a byte count" -c /dev/null -s 0
expect_usage "--on-fail needs drop or mix, not 'keep'" -c /dev/null --on-fail=keep
expect_usage "-O needs SOURCE:KEY:VALUE, not 'hwrng:device'" -c /dev/null -O hwrng:device
expect_usage "-O nosuch: no source named 'nosuch'" -c /dev/null -O nosuch
expect_usage "no source named 'nosuch'" -c /dev/null -x nosuch
expect_usage "source hwrng: unknown option 'colour' (known: device)" -c /dev/null -O hwrng:colour:red
expect_usage "source hwrng: device 'rel' is not an absolute path" -c /dev/null -O hwrng:device:rel
expect_usage "needs a number 0.0..1.0, not '1.5'" -c /dev/null -O hwrng:entropy_per_bit:1.5
expect_usage "unexpected argument 'extra'" -c /dev/null extra
expect_usage "$T/none: No such file or directory" -c "$T/none"

printf '# comment\n\nforeground = yes\nfrobnicate = 3\n' > "$T/c1"
expect_usage "$T/c1:4: unknown key 'frobnicate'" -c "$T/c1"
printf 'on-fail = maybe\n' > "$T/c2"
expect_usage "$T/c2:1: 'on-fail' needs drop or mix, not 'maybe'" -c "$T/c2"
printf 'quiet = yes\nrng-device\n' > "$T/c3"
expect_usage "$T/c3:2: expected 'key = value'" -c "$T/c3"
printf 'foreground = perhaps\n' > "$T/c4"
expect_usage "$T/c4:1: 'foreground' needs yes or no, not 'perhaps'" -c "$T/c4"
printf 'list = yes\n' > "$T/c5"
expect_usage "$T/c5:1: unknown key 'list'" -c "$T/c5"

"$GUARD" -- "$RNGD" -h > "$T/o" 2>&1 || fail "-h"
grep -q -- "--on-fail=drop|mix" "$T/o" || fail "-h lacks --on-fail"
"$GUARD" -- "$RNGD" -v > "$T/o" 2>&1 || fail "-v"
grep -qE '^rngd [0-9]' "$T/o" || fail "-v prints no version"
"$GUARD" -- setpriv --reuid=65534 --regid=65534 --clear-groups "$RNGD" -c /dev/null -l > "$T/o" 2>&1 || fail "-l as nobody: $(cat "$T/o")"
grep -qE '^hwrng +(yes|no|as-root) ' "$T/o" || fail "-l lacks hwrng"
grep -qE '^file +no .*no file given' "$T/o" || fail "-l does not say why file is unusable"
# No thread to probe with (a process limit; a uid no other process has):
# each source is listed as not probed, none is probed unbounded here.
"$GUARD" -- prlimit --nproc=1:1 setpriv --reuid=54321 --regid=54321 --clear-groups "$RNGD" -c /dev/null -l > "$T/o" 2>&1 ||
	fail "-l with no thread: $(cat "$T/o")"
grep -qE '^hwrng +no .*\[not probed: no thread for it' "$T/o" || fail "-l with no thread: $(cat "$T/o")"

# A command that prints and exits, to an output it cannot write (a full
# disk): exit 1 with one line, not 0 with the output lost.
for args in "-c /dev/null -h" "-c /dev/null -v" "-c /dev/null -l" "-c /dev/null -O hwrng" \
	"--compat=rng-tools-debian --help"; do
	rc=0
	# shellcheck disable=SC2086 # the options, split on purpose
	"$GUARD" -- "$RNGD" $args > /dev/full 2> "$T/e" || rc=$?
	[ "$rc" = 1 ] || fail "rngd $args > /dev/full: exit $rc, not 1"
	[ "$(grep -c '' "$T/e")" = 1 ] && grep -q "cannot write to standard output: No space left on device" "$T/e" ||
		fail "rngd $args > /dev/full: $(cat "$T/e")"
	# Closed (>&-): rngd keeps the number taken (so no file it opens lands
	# there) but not writable, so the output is not lost on a /dev/null.
	rc=0
	# shellcheck disable=SC2086 # the options, split on purpose
	"$GUARD" -- "$RNGD" $args >&- 2> "$T/e" || rc=$?
	[ "$rc" = 1 ] || fail "rngd $args >&-: exit $rc, not 1"
	[ "$(grep -c '' "$T/e")" = 1 ] && grep -q "cannot write to standard output: Bad file descriptor" "$T/e" ||
		fail "rngd $args >&-: $(cat "$T/e")"
done
# -o - with standard output closed: the tested bytes would go nowhere.
rc=0
head -c 2500 /dev/urandom > "$T/in_small"
timeout 10 "$GUARD" -- "$RNGD" -f -c /dev/null -x all -r "$T/in_small" -o - >&- 2> "$T/e" || rc=$?
[ "$rc" = 1 ] && grep -q "cannot open the file sink -: Bad file descriptor" "$T/e" ||
	fail "-o - >&-: exit $rc: $(cat "$T/e")"
# -O SOURCE prints and exits like -l: the sink (none here) is not asked for.
"$GUARD" -- "$RNGD" -c /dev/null -O hwrng -o none > "$T/o" 2>&1 || fail "-O hwrng -o none: $(cat "$T/o")"
grep -q "device" "$T/o" || fail "-O hwrng -o none printed no keys: $(cat "$T/o")"
# -l credits as the daemon would: the kernel's own generator feeding its
# kernel earns nothing (-o /dev/urandom: the kernel's random device,
# never opened by -l), into a file sink what the source earns.
"$GUARD" -- "$RNGD" -c /dev/null -l -r /dev/urandom -o /dev/urandom > "$T/o" 2>&1 || fail "-l -r /dev/urandom: $(cat "$T/o")"
grep -qE '^hwrng +yes +0\.000 ' "$T/o" || fail "-l -r /dev/urandom into the kernel: $(grep ^hwrng "$T/o")"
"$GUARD" -- "$RNGD" -c /dev/null -l -r /dev/urandom -o "$T/list-sink" > "$T/o" 2>&1 || fail "-l -o FILE: $(cat "$T/o")"
grep -qE '^hwrng +yes +0\.500 ' "$T/o" || fail "-l -r /dev/urandom into a file: $(grep ^hwrng "$T/o")"
[ ! -e "$T/list-sink" ] || fail "-l created its sink file"

# The command line overrides the config file.
"$HELPER" gen random 20 "$T/in" || fail gen
printf 'exclude = all\nrandom-device = %s\nrng-device = %s\n' "$T/sink_conf" "$T/in" > "$T/c6"
rm -f "$T/pid"
"$GUARD" -p "$T/pid" -- "$RNGD" -f -c "$T/c6" -o "$T/sink_cli" --quarantine-after=0 2> "$T/log" &
GUARD_JOB=$!
for _ in $(seq 100); do [ -s "$T/pid" ] && break; sleep 0.05; done
RNGD_PID=$(cat "$T/pid")
wait_log "no usable source left"
stop_rngd TERM
[ -s "$T/sink_cli" ] && [ ! -e "$T/sink_conf" ] || fail "-o did not override random-device from the config"

# One instance per pid file.
mkfifo "$T/fifo"
start_rngd -x all -r "$T/fifo" -o "$T/sink" -p "$T/rngd.pid"
wait_log "opened $T/fifo"
"$GUARD" -- "$RNGD" -f -c /dev/null -x all -r "$T/fifo" -o "$T/sink2" -p "$T/rngd.pid" > "$T/o" 2> "$T/e"
rc=$?
[ "$rc" = 3 ] || fail "second rngd exited $rc, expected 3"
grep -q "another rngd (pid $RNGD_PID) holds $T/rngd.pid" "$T/e" || fail "second rngd did not name the holder: $(cat "$T/e")"
# The same in the background, as init scripts start it: the exit code is
# the start's, not daemon(3)'s 0 before anything was opened.
"$GUARD" -- "$RNGD" -b -c /dev/null -x all -r "$T/fifo" -o "$T/sink2" -p "$T/rngd.pid" > "$T/o" 2> "$T/e"
rc=$?
[ "$rc" = 3 ] || fail "second rngd -b exited $rc, expected 3"
grep -q "the daemon did not start (exit 3)" "$T/e" || fail "second rngd -b said: $(cat "$T/e")"
mkdir "$T/sinkdir"
"$GUARD" -- "$RNGD" -b -c /dev/null -x all -r "$T/fifo" -o "$T/sinkdir" -p "$T/bg_fail.pid" > "$T/o" 2> "$T/e"
rc=$?
[ "$rc" = 1 ] || fail "rngd -b with a directory for a sink exited $rc, expected 1"
# The failed start had written its pid: it names no process now.
[ -f "$T/bg_fail.pid" ] && [ ! -s "$T/bg_fail.pid" ] || fail "a failed start left its pid file as: $(cat "$T/bg_fail.pid" 2>&1)"
stop_rngd TERM
[ "$RC" = 0 ] || fail "first rngd exited $RC"
# -b: the parent returns 0 once the daemon has started (its pid file is
# written by then), the daemon feeds the sink; SIGTERM stops it.
"$HELPER" gen random 10 "$T/bg_in" || fail gen
"$GUARD" -- "$RNGD" -b -c /dev/null -x all -r "$T/bg_in" -o "$T/bg_sink" -p "$T/bg.pid" 2> "$T/e" ||
	fail "rngd -b returned non-zero: $(cat "$T/e")"
[ -s "$T/bg.pid" ] || fail "rngd -b returned before its daemon wrote the pid file"
for _ in $(seq 100); do [ -s "$T/bg.pid" ] && [ -s "$T/bg_sink" ] && break; sleep 0.05; done
bgpid=$(cat "$T/bg.pid")
[ -n "$bgpid" ] && kill -0 "$bgpid" 2>/dev/null || fail "no daemon behind the pid file"
[ "$(awk '{print $4}' /proc/"$bgpid"/stat)" = 1 ] || [ "$(awk '{print $6}' /proc/"$bgpid"/stat)" = "$bgpid" ] ||
	fail "the daemon is neither re-parented nor a session leader"
[ "$(stat -c %s "$T/bg_sink")" -gt 0 ] || fail "the daemon fed nothing"
kill -TERM "$bgpid"
for _ in $(seq 100); do kill -0 "$bgpid" 2>/dev/null || break; sleep 0.05; done
! kill -0 "$bgpid" 2>/dev/null || fail "the daemon ignored SIGTERM"
# A pid left behind would name some other process once the pid is reused.
[ ! -s "$T/bg.pid" ] || fail "the stopped daemon left its pid in its pid file: $(cat "$T/bg.pid")"

# Started with standard input and output closed: the report socket took
# their numbers and the daemon's /dev/null landed on it, so the command
# waited for the daemon's end. It returns at once, the daemon's output
# on /dev/null.
timeout 5 "$GUARD" -- "$RNGD" -b -c /dev/null -x all -r "$T/bg_in" -o "$T/bg_sink2" -p "$T/bg2.pid" <&- >&- 2> "$T/e"
rc=$?
[ "$rc" = 0 ] || fail "rngd -b with stdin and stdout closed: exit $rc (124: it waited): $(cat "$T/e")"
bgpid=$(cat "$T/bg2.pid")
[ "$(readlink /proc/"$bgpid"/fd/1)" = /dev/null ] || fail "the daemon's stdout is $(readlink /proc/"$bgpid"/fd/1)"
kill -TERM "$bgpid"
# A start that waits (a FIFO sink nobody reads): SIGTERM to the command,
# as Ctrl-C or timeout(1) send it, is the start's to answer (it was
# blocked, and the daemon started after a SIGKILL).
mkfifo "$T/bg_fifo"
"$GUARD" -p "$T/bg3.gpid" -- "$RNGD" -b -c /dev/null -x all -r "$T/bg_in" -o "$T/bg_fifo" -p "$T/bg3.pid" 2> "$T/e" &
waiter=$!
sleep 1
kill -TERM "$(cat "$T/bg3.gpid")"
for _ in $(seq 30); do kill -0 "$waiter" 2> /dev/null || break; sleep 0.1; done
if kill -0 "$waiter" 2> /dev/null; then
	pkill -KILL -f "$T/bg3.pid"
	fail "SIGTERM to rngd -b while it starts: still waiting after 3 s"
fi
wait "$waiter"
rc=$?
[ "$rc" = 0 ] || fail "SIGTERM to rngd -b while it starts: exit $rc"
! pgrep -f "$T/bg3.pid" > /dev/null || fail "a daemon started after SIGTERM"

# In the background daemon(3) moves rngd to /: a relative path would name
# another file after the fork and at every SIGHUP. Refused before anything
# opens or forks; with -f the same relative config is read.
cd "$T" || fail "cd $T"
: > rel.conf
for args in "-c rel.conf" "-r relsrc" "-O file:path:relsrc" "-o relsink" "-p rel.pid" "--stats-file=rel.prom"; do
	# shellcheck disable=SC2086 # one option and its value, split on purpose
	"$GUARD" -- "$RNGD" -b $args -x all > "$T/out" 2> "$T/e"
	rc=$?
	[ "$rc" = 2 ] || fail "rngd -b $args: exit $rc, not 2"
	[ "$(wc -l < "$T/e")" = 1 ] && grep -q "a relative path, but rngd in the background works from /" "$T/e" ||
		fail "rngd -b $args: $(cat "$T/e")"
	[ ! -e rel.pid ] && [ ! -e relsink ] || fail "rngd -b $args opened something"
done
# -o - in the background: standard output is /dev/null there.
"$GUARD" -- "$RNGD" -b -c /dev/null -x all -o - > "$T/out" 2> "$T/e"
rc=$?
[ "$rc" = 2 ] && grep -q -- "-o -: standard output, which rngd in the background does not have" "$T/e" ||
	fail "rngd -b -o -: exit $rc, $(cat "$T/e")"
printf 'bogus-key = 1\n' > rel.conf
"$GUARD" -- "$RNGD" -f -c rel.conf -x all > "$T/out" 2> "$T/e"
grep -q "rel.conf:1: unknown key 'bogus-key'" "$T/e" || fail "rngd -f -c rel.conf did not read it: $(cat "$T/e")"
cd - > /dev/null || fail "cd back"

echo "ok: usage and config errors exit 2 with one line; -h -v -l; overrides; pid file lock (exit 3, also with -b) and emptied at exit; -b daemonises and exits with the start's code, closed std fds, SIGTERM while starting; relative paths refused in the background"
