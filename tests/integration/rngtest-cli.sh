#!/usr/bin/env bash
# ./rngtest on its own: random and all-zero input, exit codes, bad options,
# pipe mode output, I/O errors, signals and the SP 800-90B lines.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/rngtest-lib.sh"

BLOCK=$FIPS_BLOCK_BYTES

# run NAME ARGS... < input: stderr in $work/NAME.err, stdout in $work/NAME.out, rc in $rc.
run() {
	local name=$1
	shift
	rc=0
	"$ours" "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
}

# ---- random input: about 0.08% of blocks fail some test by chance.
run urandom -c 1000 </dev/urandom
check "-c 1000 < /dev/urandom: exit 0 or 1" [ "$rc" -le 1 ]
check "-c 1000: 1000 blocks tested" [ \
	$(($(value "$work/urandom.err" 'FIPS 140-2 successes') + \
	   $(value "$work/urandom.err" 'FIPS 140-2 failures'))) -eq 1000 ]
check "-c 1000: at most 10 failures" [ "$(value "$work/urandom.err" 'FIPS 140-2 failures')" -le 10 ]
check "-c 1000: reads exactly the seed and 1000 blocks" \
	[ "$(value "$work/urandom.err" 'bits received from input')" -eq $((32 + 1000 * FIPS_BLOCK_BITS)) ]
check "-c 1000: banner and start line" grep -q '^rngtest: starting FIPS tests...$' "$work/urandom.err"
check "-c 1000: speed lines" grep -Eq '^rngtest: FIPS tests speed: \(min=[0-9.]+; avg=[0-9.]+; max=[0-9.]+\)[KMGTPE]?i?bits/s$' "$work/urandom.err"
check "-c 1000: run time line" grep -Eq '^rngtest: Program run time: [0-9]+ microseconds$' "$work/urandom.err"

# ---- zeros: every block fails monobit (and the rest).
rc=0
head -c $(( 100 * BLOCK )) /dev/zero | "$ours" 2>"$work/zeros.err" || rc=$?
check "zeros: exit 1" [ "$rc" = 1 ]
check "zeros: 99 blocks, all failing" [ "$(value "$work/zeros.err" 'FIPS 140-2 failures')" = 99 ]
check "zeros: no success" [ "$(value "$work/zeros.err" 'FIPS 140-2 successes')" = 0 ]
check "zeros: every block fails monobit" [ "$(value "$work/zeros.err" 'FIPS 140-2(2001-10-10) Monobit')" = 99 ]
check "zeros: every block repeats bytes (the first its own)" [ "$(value "$work/zeros.err" 'Repeated block (last 64)')" = 99 ]
check "zeros: bits received counts everything" [ "$(value "$work/zeros.err" 'bits received from input')" = $((100 * FIPS_BLOCK_BITS)) ]
check "zeros: input ran out" grep -q '^rngtest: entropy source exhausted!$' "$work/zeros.err"

# ---- a generator stuck on one 4096-byte buffer: no block equals another
# and each passes the FIPS 140-2 tests, but each repeats bytes already read.
head -c 4096 /dev/urandom > "$work/page"
rc=0
for _ in $(seq 40); do cat "$work/page"; done | "$ours" 2>"$work/page.err" || rc=$?
check "stuck page: exit 1" [ "$rc" = 1 ]
check "stuck page: 65 blocks, at most 2 pass" [ "$(value "$work/page.err" 'FIPS 140-2 successes')" -le 2 ]
check "stuck page: the rest fail as repeats" [ "$(value "$work/page.err" 'Repeated block (last 64)')" -ge 63 ]

# ---- options: usage errors exit 10 with one line saying why.
usage_case() {
	run usage "$@" </dev/null
	check "usage error exits 10: $*" [ "$rc" = 10 ]
	check "usage error names the problem: $*" grep -q '^rngtest: ' "$work/usage.err"
	check "usage error writes nothing to stdout: $*" [ ! -s "$work/usage.out" ]
}
usage_case -c x
usage_case -c -1
usage_case -c 1x
usage_case -c 0x10
usage_case -c ''
usage_case -c 99999999999999999999999
usage_case -b
usage_case -t -5
usage_case -x
usage_case --bogus
usage_case --pipe=1
usage_case extra-argument
usage_case --sp800-90b-entropy=0
usage_case --sp800-90b-entropy=nan
usage_case --sp800-90b-entropy=9
usage_case --sp800-90b-sample-bits=3
usage_case --sp800-90b-alpha=5
# Out of range, and too small to represent: the range named at parse time.
for a in -99999 -1e-320 -0.5; do
	usage_case --sp800-90b-alpha="$a"
	check "alpha $a: the range is named" grep -q "expected a number from -1024 to -1" "$work/usage.err"
done
usage_case --sp800
check "--sp800: ambiguous is among the words" grep -q "ambiguous" "$work/usage.err"

for opt in -h -? --help --usage -V --version; do
	run info "$opt" </dev/null
	check "$opt: exit 0" [ "$rc" = 0 ]
	check "$opt: text on stdout" [ -s "$work/info.out" ]
done
run help --help </dev/null
for o in blockcount blockstats timedstats pipe sp800-90b sp800-90b-entropy sp800-90b-sample-bits sp800-90b-alpha; do
	check "--help lists --$o" grep -q -- "--$o" "$work/help.out"
done
run count_long --blockcount=3 <"/dev/urandom"
check "--blockcount=3 tests 3 blocks" [ "$(value "$work/count_long.err" 'bits received from input')" = $((32 + 3 * FIPS_BLOCK_BITS)) ]

# ---- pipe mode: exactly the passing blocks, in order. The first 8 bytes
# are the discarded word and the seed; every 7th block is zeros and fails.
"$gen" -s 21 -H 8 -P 7 zeroblocks $((8 + 40 * BLOCK + 100)) >"$work/mixed.in"
: >"$work/mixed.expect"
for k in $(seq 0 39); do
	[ $((k % 7)) -eq 0 ] && continue
	dd if="$work/mixed.in" bs=$BLOCK iflag=skip_bytes,count_bytes skip=$((8 + k * BLOCK)) \
		count=$BLOCK status=none >>"$work/mixed.expect"
done
run pipe -p <"$work/mixed.in"
check "-p: exit 1 (some blocks failed)" [ "$rc" = 1 ]
check "-p: stdout is exactly the passing blocks" cmp "$work/mixed.expect" "$work/pipe.out"
check "-p: 34 successes, 6 failures" [ "$(value "$work/pipe.err" 'FIPS 140-2 successes')-$(value "$work/pipe.err" 'FIPS 140-2 failures')" = 34-6 ]
check "-p: bits sent to output" [ "$(value "$work/pipe.err" 'bits sent to output')" = $((34 * FIPS_BLOCK_BITS)) ]
check "-p: no banner in pipe mode" [ "$(head -n 1 "$work/pipe.err")" = "rngtest: bits received from input: $(((8 + 40 * BLOCK + 100) * 8))" ]
check "-p: output channel speed" grep -q '^rngtest: output channel speed: ' "$work/pipe.err"
run pipe_count -p -c 5 <"$work/mixed.in"
check "-p -c 5: four good blocks out" [ "$(stat -c %s "$work/pipe_count.out")" = $((4 * BLOCK)) ]

# ---- short input and I/O errors.
run empty </dev/null
check "empty input: exit 1" [ "$rc" = 1 ]
check "empty input: says so" grep -q '^rngtest: entropy source exhausted!$' "$work/empty.err"
printf 'abc' >"$work/three"
run three <"$work/three"
check "3 bytes: exit 1" [ "$rc" = 1 ]
run dir </
check "stdin is a directory: exit 11" [ "$rc" = 11 ]
check "stdin is a directory: one clear line" grep -q '^rngtest: error reading input: Is a directory$' "$work/dir.err"
rc=0
"$ours" -p <"$work/mixed.in" >/dev/full 2>"$work/full.err" || rc=$?
check "-p > /dev/full: exit 11" [ "$rc" = 11 ]
check "-p > /dev/full: one clear line" grep -q '^rngtest: error writing to output: No space left on device$' "$work/full.err"
for o in -h -V --usage; do
	rc=0
	"$ours" "$o" >/dev/full 2>"$work/full.err" || rc=$?
	check "$o > /dev/full: exit 11 with one line" \
		[ "$rc:$(cat "$work/full.err")" = "11:rngtest: error writing to output: No space left on device" ]
done

# ---- a stop signal during a blocked read: report and exit by the blocks.
mkfifo "$work/fifo"
exec 3<>"$work/fifo"
head -c $((4 + 4 * BLOCK)) /dev/urandom >&3
# Only this shell may hold the FIFO's write end, or the tool never sees EOF;
# timeout (-k: SIGKILL 5 s after a TERM that did not end it) keeps a bug
# from hanging the suite. Under rngtest-asan.sh, LeakSanitizer's exit-time
# check is off for this run: once (2026-12-04) its ptrace-based
# stop-the-world deadlocked here after the SIGTERM (the tracer waiting for
# a tracee that spun in sched_yield for 25 min); leaks are still checked in
# every other run of the tool.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	timeout -k 5 20 "$ours" <"$work/fifo" 2>"$work/sig.err" 3>&- &
pid=$!
for _ in $(seq 50); do
	grep -q 'starting FIPS' "$work/sig.err" 2>/dev/null && break
	sleep 0.1
done
sleep 0.3
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
exec 3>&-
check "SIGTERM while blocked in read: exit 0 or 1" [ "$rc" -le 1 ]
check "SIGTERM: report shows the 4 blocks read" [ \
	$(($(value "$work/sig.err" 'FIPS 140-2 successes') + \
	   $(value "$work/sig.err" 'FIPS 140-2 failures'))) -eq 4 ]

# ---- a non-blocking stdin that runs dry now and then (EAGAIN): wait, don't fail.
rc=0
python3 - "$ours" "$BLOCK" >"$work/nonblock.err" 2>&1 <<'PY' || rc=$?
import fcntl, os, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
p = subprocess.Popen([sys.argv[1]], stdin=r, stderr=subprocess.PIPE)
os.close(r)
data = os.urandom(4 + 5 * int(sys.argv[2]))
for i in range(0, len(data), 1000):
    os.write(w, data[i:i + 1000])
    time.sleep(0.02)
os.close(w)
err = p.communicate(timeout=20)[1].decode()
sys.stdout.write(err)
sys.exit(p.returncode)
PY
check "non-blocking stdin: exit 0 or 1" [ "$rc" -le 1 ]
check "non-blocking stdin: all 5 blocks tested" [ \
	$(($(value "$work/nonblock.err" 'FIPS 140-2 successes') + \
	   $(value "$work/nonblock.err" 'FIPS 140-2 failures'))) -eq 5 ]
check "non-blocking stdin: no read error" bash -c "! grep -q 'error reading' '$work/nonblock.err'"

# ---- a stop signal while -p's reader has stalled (systemctl stop on a
# pipeline): the first SIGINT ends it at once, the output whole blocks.
rc=0
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
python3 - "$ours" "$BLOCK" >"$work/stall.out" 2>&1 <<'PY' || rc=$?
import os, signal, subprocess, sys, time
block = int(sys.argv[2])
r, w = os.pipe()
p = subprocess.Popen([sys.argv[1], "-p"], stdin=open("/dev/urandom", "rb"), stdout=w,
                     stderr=subprocess.DEVNULL)
os.close(w)
time.sleep(1.0)              # the pipe fills and rngtest blocks in write()
p.send_signal(signal.SIGINT)
t0 = time.monotonic()
try:
    rc = p.wait(timeout=3)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    print("SIGINT did not end rngtest -p within 3 s")
    sys.exit(1)
out = b""
while chunk := os.read(r, 1 << 16):
    out += chunk
print("exit %d after %.0f ms, %d bytes out" % (rc, (time.monotonic() - t0) * 1000, len(out)))
if len(out) % block:
    print("output ends inside a block")
    sys.exit(1)
PY
check "-p, reader stalled: the first SIGINT ends it, whole blocks out ($(tail -1 "$work/stall.out"))" [ "$rc" = 0 ]

# ---- timed and block reports.
run stats -c 25 -b 10 </dev/urandom
check "-b 10 -c 25: three reports" [ "$(grep -c 'bits received' "$work/stats.err")" = 3 ]
# -t 1: three blocks at once, then one more after 1.3 s: a report after the
# fourth block (the first block tested more than a second after the start),
# then the final one when the input ends.
mkfifo "$work/slow"
exec 4<>"$work/slow"
head -c $((4 + 3 * BLOCK)) /dev/urandom >&4
timeout -k 5 20 "$ours" -t 1 <"$work/slow" 2>"$work/timed.err" 4>&- &
pid=$!
sleep 1.3
head -c $BLOCK /dev/urandom >&4
sleep 0.3
exec 4>&-
rc=0
wait "$pid" || rc=$?
check "-t 1: two reports" [ "$(grep -c 'bits received' "$work/timed.err")" = 2 ]
check "-t 1: the timed report came after block 4" \
	[ "$(grep -m 1 'bits received' "$work/timed.err")" = "rngtest: bits received from input: $(((4 + 4 * BLOCK) * 8))" ]

# ---- SP 800-90B.
rc=0
head -c $(( 100 * BLOCK )) /dev/zero | "$ours" --sp800-90b 2>"$work/sp_zero.err" || rc=$?
check "--sp800-90b on zeros: exit 1" [ "$rc" = 1 ]
check "--sp800-90b on zeros: parameters line" grep -Eq '^rngtest: SP 800-90B: 8-bit samples, H=6, alpha=2\^-30, RCT C=[0-9]+, APT W=512 C=[0-9]+$' "$work/sp_zero.err"
check "--sp800-90b on zeros: every block fails the RCT" grep -Eq '^rngtest: SP 800-90B Repetition count \(C=[0-9]+\): 99$' "$work/sp_zero.err"
check "--sp800-90b on zeros: every block fails the APT" grep -Eq '^rngtest: SP 800-90B Adaptive proportion \(W=512; C=[0-9]+\): 99$' "$work/sp_zero.err"
run sp_rand --sp800-90b -c 200 </dev/urandom
check "--sp800-90b on random: no RCT failure" grep -Eq '^rngtest: SP 800-90B Repetition count \(C=[0-9]+\): 0$' "$work/sp_rand.err"
check "--sp800-90b on random: no APT failure" grep -Eq '^rngtest: SP 800-90B Adaptive proportion \(W=512; C=[0-9]+\): 0$' "$work/sp_rand.err"
run sp_bits --sp800-90b-sample-bits=1 --sp800-90b-entropy=0.9 -c 50 </dev/urandom
check "--sp800-90b-sample-bits=1: window 1024" grep -Eq '^rngtest: SP 800-90B Adaptive proportion \(W=1024; C=[0-9]+\): [0-9]+$' "$work/sp_bits.err"
# A -t whose nanoseconds pass 2^64 means "not in this run", not every
# 0.29 s (18446744074 s is 2^64 ns + 0.29 s): blocks 0.4 s apart.
{ head -c $((4 + BLOCK)) /dev/urandom; for _ in 1 2 3 4; do sleep 0.4; head -c "$BLOCK" /dev/urandom; done; } |
	run t_huge -c 5 -t 18446744074
check "-t 18446744074 -c 5: only the final report" [ "$(grep -c 'bits received' "$work/t_huge.err")" = 1 ]
run no_sp -c 5 </dev/urandom
check "without --sp800-90b: no SP 800-90B lines" bash -c "! grep -q 'SP 800-90B' '$work/no_sp.err'"

finish
