#!/usr/bin/env bash
# Scenario egd-serve: the host's rngd (a file source, -o none) serves its
# EGD socket; the guest's virtio-rng reads it through QEMU's rng-egd and
# the guest's rngd makes the pool ready and credits blocks. The same guest
# run on rng-random over /dev/urandom gives the credited rate beside it.
# The host rngd's statistics show the bytes served to the guest (QEMU).
SCENARIO_NAME=egd-serve
. "$(dirname "$0")/../egd-host.sh"

# A fast source for the host: the guest's rate is QEMU's and the guest's.
start_host /dev/urandom --egd-rate 0 || exit 1
boot -s egd -v egd -P -r "egd:$SOCK" -T 240
kill -USR1 "$HOST_PID"
sleep 0.5
stop_host
log=$scratch/host.1.log
served=$(host_served "$log")
client=$(grep -E "egd: summary: client [0-9]+ \(pid [0-9]+\): bytes served" "$log" | tail -1)
[ -z "$client" ] && client=$(grep -E "egd: client [0-9]+ \(pid [0-9]+\) disconnected.*bytes served to it" "$log" | tail -1)
if [ "${served:-0}" -gt 0 ] && [ "$HOST_RC" = 0 ]; then
	echo "RESULT egd host-served PASS host rngd served $served bytes (${client#*egd: }), exit $HOST_RC"
else
	echo "RESULT egd host-served FAIL bytes served '${served}', exit $HOST_RC: $(tail -5 "$log" | tr '\n' '|')"
	status=1
fi
echo "BENCH egd host-bytes-served $served bytes served by the host rngd to QEMU's rng-egd"
# The same guest on rng-random /dev/urandom: the reference rate.
boot -s egd -v urandom -P -T 240
finish
