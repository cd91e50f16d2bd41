#!/usr/bin/env bash
# Scenario egd-bad: the host's rngd reads a source that fails its gate
# (zeros): nothing reaches its EGD reserve, the guest on rng-egd receives
# nothing (its rngd waits and credits 0), and neither rngd crashes.
SCENARIO_NAME=egd-bad
. "$(dirname "$0")/../egd-host.sh"

head -c $((FIPS_BLOCK_BYTES * 400)) /dev/zero > "$scratch/zeros"
mkfifo "$scratch/src"
# A FIFO kept fed with zeros: the source stays open and keeps failing.
( while :; do cat "$scratch/zeros" || break; done > "$scratch/src" ) 2>/dev/null &
feeder=$!
start_host "$scratch/src" || exit 1
boot -s egd -v bad -r "egd:$SOCK" -T 180
alive=no
kill -0 "$HOST_PID" 2>/dev/null && alive=yes
stop_host
kill "$feeder" 2>/dev/null
log=$scratch/host.1.log
served=$(host_served "$log")
failed=$(grep -E "file: summary:" "$log" | tail -1 | sed -n 's/.*failed \([0-9]*\).*/\1/p')
if [ "$alive" = yes ] && [ "$HOST_RC" = 0 ] && [ "${served:-x}" = 0 ] && [ "${failed:-0}" -gt 0 ]; then
	echo "RESULT egd host-bad-source PASS host rngd failed $failed blocks, served 0 bytes, exit 0"
else
	echo "RESULT egd host-bad-source FAIL alive $alive, exit $HOST_RC, served '$served', failed '$failed': $(tail -5 "$log" | tr '\n' '|')"
	status=1
fi
finish
