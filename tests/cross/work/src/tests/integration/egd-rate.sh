#!/usr/bin/env bash
# --egd-rate: a client reading as fast as it can is held to the rate
# (measured within 10%) after its burst; two clients each get the rate.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

RATE=20000
start_rngd -x all -r /dev/urandom -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" \
	--egd-rate "$RATE" --egd-burst 4000
wait_socket
"$EGD_CLIENT" "$SOCK" rate 3 4000 > "$T/r1" &
p1=$!
"$EGD_CLIENT" "$SOCK" rate 3 4000 > "$T/r2" &
p2=$!
wait "$p1" || fail "client 1"
wait "$p2" || fail "client 2"
for f in "$T/r1" "$T/r2"; do
	r=$(awk '{print $2}' "$f")
	[ "$r" -ge $(( RATE * 9 / 10 )) ] && [ "$r" -le $(( RATE * 11 / 10 )) ] ||
		fail "measured $r bytes/s with --egd-rate $RATE"
done
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
echo "ok: --egd-rate $RATE: measured $(awk '{print $2}' "$T/r1") and $(awk '{print $2}' "$T/r2") bytes/s (two clients at once)"
