#!/usr/bin/env bash
# The hwrng device watch (issues 19.5 and 12.4), against a stand-in sysfs
# folder (--hwrng-sysfs) and synthetic uevents: rngd and tests/integration/
# uevent-send share a private network namespace (unshare -n), so no real
# device event is triggered and the host's listeners never see these.
#   1. a new current device is zeroed and gets a fresh gate within 1 s of
#      its event (the 5 s poll left up to 5 s of untested kernel credit);
#   2. the same name back at its driver's quality (re-registered) is
#      zeroed again on its event (the name-only watch never noticed);
#   3. events of other subsystems cost no look at sysfs;
#   4. idle after the pool is ready: at most one wake-up in 20 s;
#   5. a second rngd on the same --state-dir leaves rng_quality and the
#      record alone and says why.
if [ -z "${RNGD_TEST_NETNS:-}" ]; then
	[ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null || { echo "SKIP: needs root and unshare -n"; exit 77; }
	RNGD_TEST_NETNS=1 exec unshare -n "$BASH" "$0" "$@"
fi
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
SEND=$top_builddir/tests/integration/uevent-send

sys=$T/sys
mkdir "$sys"
echo 1:9 > "$sys/dev"   # the stand-in device below, as the real folder names 10:183
quality() { cat "$sys/rng_quality"; }
# within SECONDS PATTERN: the log matches within SECONDS (fractions allowed).
within() {
	local end
	end=$(awk -v s="$1" -v n="$(date +%s.%N)" 'BEGIN {printf "%.3f", n + s}')
	while ! grep -qE "$2" "$T/log"; do
		awk -v e="$end" -v n="$(date +%s.%N)" 'BEGIN {exit !(n > e)}' && return 1
		sleep 0.02
	done
}
switches() { cat /proc/"$RNGD_PID"/task/*/status | awk '/^voluntary_ctxt_switches:/ {s += $2} END {print s}'; }
ticks() { awk '{print $14 + $15}' /proc/"$RNGD_PID"/stat; }

echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
start_rngd -d -x all -n hwrng -O hwrng:device:/dev/urandom -o /dev/null --topup-interval=86400 \
	--hwrng-sysfs="$sys" --state-dir="$T/state"
wait_log "hwrng: watching device events"
[ "$(quality)" = 0 ] || fail "rng_quality is $(quality) while rngd gates hwrng"

# 1. A new device becomes current (virtio-rng bound): within 1 s.
echo fake1 > "$sys/rng_current"; echo 900 > "$sys/rng_quality"
"$SEND" bind virtio /devices/pci0000:00/0000:00:04.0/virtio1 || fail "uevent-send failed"
within 1 "hwrng: device event: rng_current changed from fake0 to fake1.*a new source with a fresh gate" ||
	fail "the new current device was not taken within 1 s of its event"
[ "$(quality)" = 0 ] || fail "rng_quality of the new device is $(quality), not 0"
grep -qE "debug: hwrng: device event: bind virtio /devices/pci0000:00/0000:00:04.0/virtio1" "$T/log" ||
	fail "the event was not logged"

# 2. fake1 unregisters and registers again: back at its driver's quality.
sleep 1.5   # past the follow-up look of event 1
echo 900 > "$sys/rng_quality"
"$SEND" add misc /devices/virtual/misc/hw_random || fail "uevent-send failed"
within 1 "hwrng: device event: fake1 is back at rng_quality 900.*a new source with a fresh gate" ||
	fail "the re-registered device was not zeroed again within 1 s"
[ "$(quality)" = 0 ] || fail "rng_quality of the re-registered device is $(quality), not 0"

# 3. Unrelated events (a block device, a network interface) look at nothing.
sleep 1.5
echo 800 > "$sys/rng_quality"
looks=$(grep -c "back at rng_quality" "$T/log")
"$SEND" add block /devices/virtual/block/loop7
"$SEND" add net /devices/virtual/net/dummy0
sleep 1.5
[ "$(quality)" = 800 ] || fail "an unrelated event made rngd look at rng_quality"
[ "$(grep -c "back at rng_quality" "$T/log")" = "$looks" ] || fail "an unrelated event was acted on"
"$SEND" remove tpm /devices/platform/MSFT0101:00/tpm/tpm0
within 1 "fake1 is back at rng_quality 800" || fail "a tpm event was not acted on"

# 4. Idle: the pool is ready (the host's), the top-up is a day away, the
#    queue is full. Nothing should wake rngd but the 5 min safety poll.
wait_log "ready" 10
sleep 2
v0=$(switches); t0=$(ticks)
sleep 20
v1=$(switches); t1=$(ticks)
echo "idle 20 s: $((v1 - v0)) wake-ups, $((t1 - t0)) CPU ticks"
if [ $((v1 - v0)) -gt 1 ]; then
	# Which thread, waiting where: for the post-mortem of a busy rngd.
	for task in /proc/"$RNGD_PID"/task/*; do
		echo "thread ${task##*/} $(cat "$task/comm"): $(awk '/^voluntary_ctxt_switches:/ {print $2}' "$task/status") switches, wchan $(cat "$task/wchan" 2>/dev/null), syscall $(cut -d' ' -f1 "$task/syscall" 2>/dev/null)"
	done
fi
[ $((v1 - v0)) -le 1 ] || fail "idle rngd woke $((v1 - v0)) times in 20 s"
[ $((t1 - t0)) -le 1 ] || fail "idle rngd used $((t1 - t0)) CPU ticks in 20 s"

# 5. A second rngd beside it (by hand, same --state-dir): hands off.
record=$(cat "$T/state/hwrng-quality")
"$GUARD" -- timeout -s TERM 3 "$RNGD" -f -c /dev/null -x all -n hwrng -O hwrng:device:/dev/urandom \
	-o /dev/null --topup-interval=86400 --hwrng-sysfs="$sys" --state-dir="$T/state" 2> "$T/log2"
grep -qE "hwrng: another rngd holds the rng_quality record in $T/state and gates rng_quality: this one leaves rng_quality alone" "$T/log2" ||
	{ cat "$T/log2" >&2; fail "the second rngd did not say why it leaves rng_quality alone"; }
! grep -qE "rng_quality (restored|[0-9]+ -> )" "$T/log2" || fail "the second rngd touched rng_quality"
[ "$(quality)" = 0 ] || fail "rng_quality is $(quality) after the second rngd exited"
[ "$(cat "$T/state/hwrng-quality")" = "$record" ] || fail "the second rngd changed the record"

stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$(quality)" = 900 ] || fail "rng_quality not restored to fake1's 900 at exit: $(quality)"
echo "ok: events taken within 1 s, re-registration zeroed again, unrelated events ignored, idle quiet, second instance hands off"
