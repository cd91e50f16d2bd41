#!/usr/bin/env bash
# --egd-rate: the rate holds per peer uid (SO_PEERCRED): two clients of
# one uid reading at once share it (all bytes served to that uid stay
# within rate x time + one burst, and reach 90 % of rate x time), while a
# client of another uid gets its own rate (measured within 10%).
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

RATE=20000
BURST=4000
chmod 0711 "$T"
start_rngd -x all -r /dev/urandom -O file:entropy_per_bit:1 -o none --egd-socket "$SOCK" \
	--egd-socket-mode 0666 --egd-rate "$RATE" --egd-burst "$BURST"
wait_socket
sleep 0.3                          # the probe's tokens are back
t0=$(date +%s%N)
"$EGD_CLIENT" "$SOCK" rate 3 2000 > "$T/r1" &
p1=$!
"$EGD_CLIENT" "$SOCK" rate 3 2000 > "$T/r2" &
p2=$!
setpriv --reuid=65534 --regid=65534 --clear-groups "$EGD_CLIENT" "$SOCK" rate 3 "$BURST" > "$T/r3" &
p3=$!
wait "$p1" || fail "client 1"
wait "$p2" || fail "client 2"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
wait "$p3" || fail "client 3 (uid 65534)"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
# Bytes served to uid 0: from the log's connect and disconnect lines.
uid0=$(awk '/connected \(uid 0\)/ { sub(/.*client /, ""); root[$1] = 1 }
	/disconnected.*bytes served to it/ { id = $0; sub(/.*client /, "", id); split(id, f, " ")
		n = $0; sub(/ bytes served to it.*/, "", n); sub(/.*; /, "", n); if (root[f[1]]) sum += n }
	END { print sum + 0 }' "$T/log")
max=$(( RATE * ms / 1000 + BURST + RATE / 20 ))
min=$(( RATE * 3 * 9 / 10 ))
[ "$uid0" -le "$max" ] || fail "uid 0 got $uid0 bytes in $ms ms over two connections (rate $RATE, burst $BURST: at most $max)"
[ "$uid0" -ge "$min" ] || fail "uid 0 got only $uid0 bytes in $ms ms (at least $min)"
r3=$(awk '{print $2}' "$T/r3")
[ "$r3" -ge $(( RATE * 9 / 10 )) ] && [ "$r3" -le $(( RATE * 11 / 10 )) ] ||
	fail "a client of another uid got $r3 bytes/s with --egd-rate $RATE"
echo "ok: --egd-rate $RATE: uid 0's two clients got $uid0 bytes in $ms ms (at most $max); another uid's client $r3 bytes/s"
