#!/usr/bin/env bash
# Scenario 3: QEMU rate-limits virtio-rng to 1 KiB/s; rngd starved.
#
# Where guard.sh can run (root, unshare -m) the device's bytes come from
# the host's rngd through rng-egd (tests/qemu/egd-host.sh), so the host
# counts every byte QEMU passed on: the sum the guest's readers report
# (its device-reads line: rngd, dd, rngd -t) must not exceed it, and may
# fall short only by what was still in flight when the guest powered off.
# That is exact where the guest's own rate checks, timed by its clock
# against QEMU's, cannot be. Elsewhere the guest runs on rng-random and
# only its own checks apply. The bound on what may go unread assumes the
# guest kernel this suite builds: virtio-rng with patches 0005 (no half
# of a fill dropped) and 0006 (one page-sized buffer); a stock kernel's
# driver drops bytes, which this check would report as unread.
here=$(dirname "$0")
limit=1024
guest=(-s rate-limited -v $limit -R ",max-bytes=$limit,period=1000" -a rng_core.default_quality=0 -T 120)
if ! "${top_srcdir:?run from make check-qemu}/tests/integration/guard.sh" -- true 2>/dev/null; then
	. "$here/common.sh"
	echo "rate-limited: guard.sh cannot run here (needs root and unshare -m): the host does not count the device's bytes" >&2
	boot "${guest[@]}"
	finish
fi
SCENARIO_NAME=rate-limited
. "$here/../egd-host.sh"
# What the host may serve that no reader counts: each rngd's read under
# way when it stops (left uncounted: rngd and rngd -t, up to a block
# each); the driver's buffer (a period's grant) and a request QEMU has in
# flight at power-off; dd's last 64-byte read, the hwrng core's 64-byte
# buffer, and the kernel's 32-byte early read at start.
unread_max=$((2 * FIPS_BLOCK_BYTES + 2 * limit + 64 + 64 + 32))

if ! start_host /dev/urandom --egd-rate 0; then
	echo "RESULT rate-limited host-rngd FAIL host rngd did not start: $(tail -3 "$scratch/host.1.log" | tr '\n' '|')"
	exit 1
fi
out=$scratch/guest.out
boot "${guest[@]}" -r "egd:$SOCK" > "$out"
cat "$out"
stop_host
served=$(host_served "$scratch/host.1.log")
read_sum=$(sed -n 's/^RESULT rate-limited device-reads PASS .*: \([0-9]*\) bytes read from \/dev\/hwrng$/\1/p' "$out")
if [ -z "$served" ] || [ -z "$read_sum" ]; then
	echo "RESULT rate-limited served-vs-read FAIL no figures: host served '$served', guest read '$read_sum': $(tail -3 "$scratch/host.1.log" | tr '\n' '|')"
	status=1
elif [ "$read_sum" -le "$served" ] && [ $((served - read_sum)) -le $unread_max ]; then
	echo "RESULT rate-limited served-vs-read PASS the guest's readers report $read_sum bytes of the $served the host served (unread $((served - read_sum)), at most $unread_max)"
else
	echo "RESULT rate-limited served-vs-read FAIL the guest's readers report $read_sum bytes, the host served $served (a reader over-counts if more; at most $unread_max may go unread)"
	status=1
fi
echo "BENCH rate-limited host-served $served bytes served through rng-egd, $read_sum reported read in the guest"
finish
