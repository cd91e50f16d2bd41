#!/usr/bin/env bash
# 64 EGD clients at once (QEMU's 64-byte reads, 4 in flight each): all are
# served, every byte is a gate-passed byte served to one client only.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

"$HELPER" gen random 200 "$T/in" > /dev/null || fail gen
"$HELPER" expect "$T/in" "$T/expect" > /dev/null || fail expect
start_rngd -x all -r "$T/in" -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" --egd-rate 0
wait_socket
mkdir "$T/many"
out=$("$EGD_CLIENT" "$SOCK" many 64 6000 "$T/many") || fail "64 clients: $out"
"$EGD_CLIENT" check "$T/expect" "$T/many"/c.* > "$T/check" 2>&1 || fail "check: $(cat "$T/check")"
grep -q "^bytes $(( 64 * 6000 )) " "$T/check" || fail "not every client got its bytes: $(cat "$T/check")"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
accepted=$(egd_field accepted)
[ "$accepted" -ge 64 ] || fail "accepted $accepted"
echo "ok: $out; $(cat "$T/check")"
