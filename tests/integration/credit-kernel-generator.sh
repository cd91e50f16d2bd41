#!/usr/bin/env bash
# rngd -r /dev/urandom (or -O file:path:/dev/urandom, or a link to it),
# old advice for a starved pool, feeds the kernel its own output. On the
# kernel sink of this machine's kernel such a source earns nothing, even
# set to 1 bit per bit: rngd-mockkernel with RNGD_MOCK_KERNEL_IS_THIS=1
# plays that kernel and records the credit of every RNDADDENTROPY. The
# same run against some other kernel (the mock as it is by default, as for
# an EGD client) credits the device, so the check can fail.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
RNGD=$MOCKKERNEL
export RNGD_MOCK_KERNEL_LOG=$T/kernel.log RNGD_MOCK_KERNEL_STATE=$T/kernel.state
ln -s /dev/urandom "$T/trng"

# run NAME MIN ARGS...: until the mock took MIN blocks (at most one a
# second while they carry no credit; one credited block fills its pool),
# then stop; the adds' credits are in $T/NAME.credits, one a line, the log
# in $T/NAME.log.
run() {
	local name=$1 min=$2 n
	shift 2
	rm -f "$RNGD_MOCK_KERNEL_LOG" "$RNGD_MOCK_KERNEL_STATE"
	start_rngd -x all "$@" -o /dev/null
	for _ in $(seq 100); do
		n=$(grep -c '^add ' "$RNGD_MOCK_KERNEL_LOG" 2>/dev/null)
		[ "${n:-0}" -ge "$min" ] && break
		sleep 0.1
	done
	stop_rngd TERM
	[ "$RC" = 0 ] || fail "$name: rngd exited $RC"
	awk '$1 == "add" { print $3 }' "$RNGD_MOCK_KERNEL_LOG" > "$T/$name.credits"
	cp "$T/log" "$T/$name.log"
}

# no_credit NAME SOURCE: every add carried 0, the pool never filled, the
# warning names the source, and blocks did go in.
no_credit() {
	grep -qv '^0$' "$T/$1.credits" && fail "$1: credited $(sort -u "$T/$1.credits" | tr '\n' ' ')to this kernel"
	[ "$(cat "$RNGD_MOCK_KERNEL_STATE" 2>/dev/null || echo 0)" = 0 ] || fail "$1: the pool's count rose"
	grep -q "warning: $2: reads this kernel's own generator" "$T/$1.log" || fail "$1: no warning"
	grep -q "$2: opened .*, 0.000 entropy bits per bit credited" "$T/$1.log" || fail "$1: opened at a credit"
	[ "$(wc -l < "$T/$1.credits")" -ge 2 ] || fail "$1: the mock kernel took fewer than 2 blocks"
	echo "ok: $1: $(wc -l < "$T/$1.credits") blocks, none credited"
}

export RNGD_MOCK_KERNEL_IS_THIS=1
run urandom 2 -r /dev/urandom -O hwrng:entropy_per_bit:1
no_credit urandom hwrng
run link 2 -r "$T/trng"
no_credit link hwrng
run file 2 -n file -O file:path:/dev/urandom -O file:entropy_per_bit:1
no_credit file file
# --egd-socket beside the kernel sink: the host's kernel still takes part.
run egd 2 -r /dev/urandom -O hwrng:entropy_per_bit:1 --egd-socket "$T/egd"
no_credit egd hwrng

# The path moves while blocks read from /dev/urandom wait in the queue:
# first to a directory (the source cannot open), then to a file of known
# bytes. A block is credited by what it was read from, not by what the
# path names when it reaches the gate: no urandom block is credited, the
# file's blocks are.
rm -f "$RNGD_MOCK_KERNEL_LOG" "$RNGD_MOCK_KERNEL_STATE"
ln -s /dev/urandom "$T/moving"
mkdir "$T/dir"
"$HELPER" gen random 20 "$T/known" || fail gen
start_rngd -x all -n file -O file:path:"$T/moving" -O file:entropy_per_bit:1 -o /dev/null
wait_log "file: opened"
sleep 1.5
ln -sfn "$T/dir" "$T/moving"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded"
sleep 1.5
ln -sfn "$T/known" "$T/moving"
kill -HUP "$RNGD_PID"
for _ in $(seq 150); do
	grep -q '^add [0-9]* [1-9]' "$RNGD_MOCK_KERNEL_LOG" && break
	sleep 0.1
done
stop_rngd TERM
[ "$RC" = 0 ] || fail "moving: rngd exited $RC"
python3 - "$RNGD_MOCK_KERNEL_LOG" "$T/known" > "$T/verdict" <<'PY' || fail "moving: $(tail -1 "$T/verdict")"
import sys
known = open(sys.argv[2], "rb").read()
urandom = credited_known = 0
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] != "add":
        continue
    credit, data = int(f[2]), bytes.fromhex(f[-1])
    if data[:64] in known:
        credited_known += credit > 0
    else:
        urandom += 1
        if credit:
            print(f"a block read from /dev/urandom was credited {credit} bits")
            sys.exit(1)
if not urandom or not credited_known:
    print(f"{urandom} urandom blocks, {credited_known} credited file blocks: the case did not happen")
    sys.exit(1)
print(f"ok: moving: {urandom} urandom blocks credited 0 after the path moved, {credited_known} file blocks credited")
PY
cat "$T/verdict"

# Some other kernel: the same device earns its setting, and the warning
# is not given.
unset RNGD_MOCK_KERNEL_IS_THIS
run other 1 -r /dev/urandom -O hwrng:entropy_per_bit:1
grep -q '^[1-9]' "$T/other.credits" || fail "other: the other kernel was credited nothing"
grep -q "own generator" "$T/other.log" && fail "other: warned without cause"
echo "ok: other kernel: credited $(head -1 "$T/other.credits") bits a block"
exit 0
