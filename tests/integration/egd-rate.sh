#!/usr/bin/env bash
# --egd-rate: the rate holds per peer uid (SO_PEERCRED): two clients of
# one uid share it (their sum is measured within 10%), a client of another
# uid gets its own (within 10%), each after its burst.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

RATE=20000
chmod 0711 "$T"
start_rngd -x all -r /dev/urandom -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" \
	--egd-socket-mode 0666 --egd-rate "$RATE" --egd-burst 4000
wait_socket
"$EGD_CLIENT" "$SOCK" rate 3 2000 > "$T/r1" &
p1=$!
"$EGD_CLIENT" "$SOCK" rate 3 2000 > "$T/r2" &
p2=$!
setpriv --reuid=65534 --regid=65534 --clear-groups "$EGD_CLIENT" "$SOCK" rate 3 4000 > "$T/r3" &
p3=$!
wait "$p1" || fail "client 1"
wait "$p2" || fail "client 2"
wait "$p3" || fail "client 3 (uid 65534)"
r1=$(awk '{print $2}' "$T/r1"); r2=$(awk '{print $2}' "$T/r2"); r3=$(awk '{print $2}' "$T/r3")
sum=$((r1 + r2))
[ "$sum" -ge $(( RATE * 9 / 10 )) ] && [ "$sum" -le $(( RATE * 11 / 10 )) ] ||
	fail "two clients of one uid got $r1 + $r2 = $sum bytes/s with --egd-rate $RATE"
[ "$r3" -ge $(( RATE * 9 / 10 )) ] && [ "$r3" -le $(( RATE * 11 / 10 )) ] ||
	fail "a client of another uid got $r3 bytes/s with --egd-rate $RATE"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
echo "ok: --egd-rate $RATE: one uid's two clients $r1 + $r2 = $sum bytes/s, another uid's client $r3 bytes/s"
