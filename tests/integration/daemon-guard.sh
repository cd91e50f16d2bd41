#!/usr/bin/env bash
# The guard itself: a write to /dev/random inside it never reaches the
# machine's pool, and fails the guard unless the test asked for it (-w);
# rngd's default sink (/dev/random, here a regular file) gets passing bytes;
# this machine's hwrng sysfs folder is out of reach (an empty tmpfs).
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$GUARD" -- sh -c 'echo leak > /dev/random' 2> "$T/e"
rc=$?
[ "$rc" = 99 ] || fail "an unasked write to /dev/random gave guard exit $rc, not 99"
grep -q "bytes were written to the guarded /dev/random" "$T/e" || fail "guard did not say why"
"$GUARD" -- sh -c 'test -f /dev/random && ! test -c /dev/random' || fail "/dev/random is not covered in the guard"
if [ -e /dev/hwrng ]; then
	"$GUARD" -- sh -c '! test -c /dev/hwrng' || fail "/dev/hwrng is not covered in the guard"
fi
hw=/sys/class/misc/hw_random
if [ -e "$hw/rng_quality" ]; then
	# rngd with the kernel sink sets rng_quality of the hwrng it gates: in
	# the guard, without --hwrng-sysfs, that must reach an empty folder.
	before=$(cat "$hw/rng_quality")
	"$GUARD" -- sh -c "! test -e $hw/rng_quality && ! test -e $hw/rng_current" ||
		fail "$hw is not covered in the guard"
	start_rngd -x all -n hwrng -O hwrng:device:/dev/urandom -o /dev/null --topup-interval=86400
	wait_log "hwrng: opened"
	sleep 0.5
	[ "$(cat "$hw/rng_quality")" = "$before" ] || fail "rngd in the guard changed this machine's rng_quality"
	stop_rngd TERM
	grep -q "rng_current: " "$T/log" && fail "rngd in the guard read this machine's rng_current: $(grep 'rng_current: ' "$T/log")"
	[ "$(cat "$hw/rng_quality")" = "$before" ] || fail "this machine's rng_quality changed"
fi
test -c /dev/random || fail "the guard leaked its mount into the host"
grep -q ' /sys/devices/virtual/misc/hw_random ' /proc/self/mounts && fail "the guard leaked its hw_random mount into the host"

"$HELPER" gen random 40 "$T/in" || fail gen
"$HELPER" expect "$T/in" "$T/expect" > /dev/null || fail expect
export GUARD_WRITTEN=$T/written
start_rngd -w -x all -r "$T/in" --quarantine-after=0
wait_log "feeding the file sink /dev/random"
wait_log "no usable source left"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$(cat "$T/written")" = "$(stat -c %s "$T/expect")" ] || fail "default sink got $(cat "$T/written") bytes, expected $(stat -c %s "$T/expect")"
echo "ok: guard catches unasked writes; default -o went to the covered /dev/random only"
