#!/usr/bin/env bash
# The guard itself: a write to /dev/random inside it never reaches the
# machine's pool, and fails the guard unless the test asked for it (-w);
# rngd's default sink (/dev/random, here a regular file) gets passing bytes.
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
test -c /dev/random || fail "the guard leaked its mount into the host"

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
