#!/usr/bin/env bash
# rng_quality and rng_current, against a stand-in sysfs folder
# (--hwrng-sysfs): with the kernel sink and the hwrng source, rngd sets
# rng_quality to 0, treats a change of rng_current as a new source (fresh
# gate), and restores the quality at exit only if the same device is still
# current; --no-take-credit leaves it alone.
#
# The kernel sink here is /dev/null inside the guard: the host pool is
# ready, the top-up interval is beyond the run, so nothing is written (the
# summary must say 0 bytes); RNDADDENTROPY on /dev/null would fail anyway.
# rngd notices the change of rng_current through a device event: the test
# runs in a private network namespace and sends a synthetic one
# (tests/integration/uevent-send; daemon-device-events.sh tests the watch).
if [ -z "${RNGD_TEST_NETNS:-}" ]; then
	[ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null || { echo "SKIP: needs root and unshare -n"; exit 77; }
	RNGD_TEST_NETNS=1 exec unshare -n "$BASH" "$0" "$@"
fi
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
[ -r /proc/sys/kernel/random/entropy_avail ] || { echo "SKIP: no random sysctl"; exit 77; }

sys=$T/sys
mkdir "$sys"
# The stand-in folder names its stand-in device, as the real one names
# /dev/hwrng (10:183): rng_quality is taken only for that device.
echo 1:9 > "$sys/dev"
run() {
	start_rngd -x all -n hwrng -O hwrng:device:/dev/urandom -o /dev/null --topup-interval=86400 \
		--hwrng-sysfs="$sys" --state-dir="$T/state" "$@"
	wait_log "feeding the kernel sink /dev/null"
}
sink_written() { grep -oE "sink kernel: bytes written [0-9]+" "$T/log" | awk '{print $NF}'; }

# 1. Same device all along: quality 0 while running, restored at exit.
echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
run
wait_log "hwrng: .*(rng_quality|quality)"
[ "$(cat "$sys/rng_quality")" = 0 ] || fail "rng_quality is $(cat "$sys/rng_quality") while rngd gates hwrng"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$(sink_written)" = 0 ] || fail "the kernel sink wrote $(sink_written) bytes"
[ "$(cat "$sys/rng_quality")" = 1000 ] || fail "rng_quality not restored: $(cat "$sys/rng_quality")"
grep -qE "hwrng: .*restored" "$T/log" || fail "restoring rng_quality was not logged"

# 2. rng_current changes behind rngd: a fresh gate; the old quality is not
#    written over the new device at exit.
echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
run
wait_log "hwrng: .*(rng_quality|quality)"
echo fake1 > "$sys/rng_current"; echo 900 > "$sys/rng_quality"
"$top_builddir/tests/integration/uevent-send" bind virtio /devices/virtio-pci/virtio1 || fail "uevent-send"
wait_log "hwrng: .*a new source with a fresh gate" 2
[ "$(cat "$sys/rng_quality")" = 0 ] || fail "rng_quality of the new device not set to 0"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
grep -qE "fake0" "$T/log" && grep -qE "fake1" "$T/log" || fail "the device change was not logged by name"

# 3. --no-take-credit: untouched.
echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
run --no-take-credit
wait_log "no-take-credit"
stop_rngd TERM
[ "$(cat "$sys/rng_quality")" = 1000 ] || fail "--no-take-credit changed rng_quality"

# 4. An unclean exit (SIGKILL: what the watchdog's SIGABRT amounts to)
#    leaves 0; the next rngd restores the original from the state file,
#    not the 0 it finds, and a clean exit removes the record.
echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
run
wait_log "hwrng: .*(rng_quality|quality)"
[ "$(cat "$T/state/hwrng-quality" 2>/dev/null)" = "rngd hwrng-quality 1
fake0 1000" ] || fail "no state file before rng_quality was set to 0: $(cat "$T/state/hwrng-quality" 2>&1)"
stop_rngd KILL
[ "$(cat "$sys/rng_quality")" = 0 ] || fail "rng_quality is $(cat "$sys/rng_quality") after SIGKILL"
run
wait_log "hwrng: .*(rng_quality|quality)"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
[ "$(cat "$sys/rng_quality")" = 1000 ] || fail "after SIGKILL and restart, rng_quality ended at $(cat "$sys/rng_quality"), not 1000"
grep -qE "hwrng: .*left by an unclean exit: 1000" "$T/log" || fail "the recovered value was not logged"
[ ! -e "$T/state/hwrng-quality" ] || fail "the state file outlived a clean restore"
# 5. Another device read as hwrng (-r /dev/ttyACM0, -r /dev/urandom):
# the kernel's own device keeps its credit, as nobody else reads it.
echo 10:183 > "$sys/dev"
echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
run
wait_log "hwrng: /dev/urandom is not the kernel's hwrng device: its rng_quality left alone"
stop_rngd TERM
[ "$(cat "$sys/rng_quality")" = 1000 ] || fail "another device read as hwrng zeroed the kernel's: rng_quality $(cat "$sys/rng_quality")"
echo 1:9 > "$sys/dev"

# 6. An unclean exit, then an rngd that does not gate the device
# (--no-take-credit, a file sink): nobody else would put the quality
# back, so it restores the recorded one and drops the record.
for how in test-mode --no-take-credit file-sink; do
	echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
	run
	wait_log "hwrng: .*(rng_quality|quality)"
	stop_rngd KILL
	[ "$(cat "$sys/rng_quality")" = 0 ] || fail "rng_quality is $(cat "$sys/rng_quality") after SIGKILL"
	if [ "$how" = test-mode ]; then
		# -t feeds nothing and leaves the kernel's files alone: the 0
		# stays for the next rngd that does not gate to restore.
		start_rngd -t -x all -n hwrng -O hwrng:device:/dev/urandom --hwrng-sysfs="$sys" --state-dir="$T/state"
		wait_log "hwrng: opened"
		sleep 0.3
		stop_rngd TERM
		[ "$(cat "$sys/rng_quality")" = 0 ] || fail "rngd -t wrote rng_quality: $(cat "$sys/rng_quality")"
		! grep -q "restored" "$T/log" || fail "rngd -t restored rng_quality: $(grep restored "$T/log")"
		run --no-take-credit
	elif [ "$how" = file-sink ]; then
		start_rngd -x all -n hwrng -O hwrng:device:/dev/urandom -o "$T/fsink" --hwrng-sysfs="$sys" --state-dir="$T/state"
		wait_log "feeding the file sink"
	else
		run --no-take-credit
	fi
	wait_log "fake0: rng_quality restored to 1000 from the state file"
	stop_rngd TERM
	[ "$(cat "$sys/rng_quality")" = 1000 ] || fail "$how after SIGKILL: rng_quality $(cat "$sys/rng_quality"), not 1000"
	[ ! -e "$T/state/hwrng-quality" ] || fail "$how: the record outlived the restore"
done

# 7. rngd --restore-hwrng-quality (the unit's ExecStopPost=): after a
#    SIGKILL, the record puts the quality back with no rngd to start; a
#    second call, or one after a clean exit, finds nothing to do; it never
#    takes the 0 of an rngd that still runs; a record it cannot act on is
#    one line and exit 1.
restore() {
	"$GUARD" -- timeout -s KILL 20 "$RNGD" -c "${CONF:-/dev/null}" --restore-hwrng-quality --hwrng-sysfs="$sys" \
		--state-dir="$T/state" "$@" > "$T/rout" 2> "$T/rerr"
	RRC=$?
}
echo fake0 > "$sys/rng_current"; echo 1000 > "$sys/rng_quality"
run
wait_log "hwrng: .*(rng_quality|quality)"
restore
[ "$RRC" = 0 ] && [ "$(cat "$sys/rng_quality")" = 0 ] && [ -e "$T/state/hwrng-quality" ] &&
	grep -q "^rngd: hwrng: another rngd holds the rng_quality record in $T/state" "$T/rerr" ||
	fail "--restore-hwrng-quality beside a running rngd: exit $RRC, rng_quality $(cat "$sys/rng_quality"): $(cat "$T/rerr")"
stop_rngd KILL
[ "$(cat "$sys/rng_quality")" = 0 ] || fail "rng_quality is $(cat "$sys/rng_quality") after SIGKILL"
restore
[ "$RRC" = 0 ] || fail "--restore-hwrng-quality exited $RRC: $(cat "$T/rerr")"
[ "$(cat "$sys/rng_quality")" = 1000 ] || fail "--restore-hwrng-quality left rng_quality at $(cat "$sys/rng_quality")"
grep -q "^rngd: hwrng: fake0: rng_quality restored to 1000 from the state file" "$T/rerr" ||
	fail "the restore was not said: $(cat "$T/rerr")"
[ ! -s "$T/rout" ] || fail "--restore-hwrng-quality wrote to stdout: $(cat "$T/rout")"
[ ! -e "$T/state/hwrng-quality" ] || fail "the record outlived --restore-hwrng-quality"
restore
[ "$RRC" = 0 ] && [ ! -s "$T/rerr" ] || fail "nothing to restore: exit $RRC, said: $(cat "$T/rerr")"
run
wait_log "hwrng: .*(rng_quality|quality)"
stop_rngd TERM
restore
[ "$RRC" = 0 ] && [ ! -s "$T/rerr" ] && [ "$(cat "$sys/rng_quality")" = 1000 ] ||
	fail "after a clean exit: exit $RRC, rng_quality $(cat "$sys/rng_quality"), said: $(cat "$T/rerr")"
# A record whose device's rng_quality cannot be read: exit 1, one line.
run
wait_log "hwrng: .*(rng_quality|quality)"
stop_rngd KILL
mv "$sys/rng_quality" "$sys/rng_quality.away"
restore
mv "$sys/rng_quality.away" "$sys/rng_quality"
[ "$RRC" = 1 ] && [ "$(wc -l < "$T/rerr")" = 1 ] &&
	grep -q "^rngd: hwrng: cannot restore rng_quality from the record in $T/state: " "$T/rerr" ||
	fail "an unreadable rng_quality: exit $RRC, said: $(cat "$T/rerr")"
[ -e "$T/state/hwrng-quality" ] || fail "a record that could not be acted on was removed"
restore
[ "$RRC" = 0 ] && [ "$(cat "$sys/rng_quality")" = 1000 ] || fail "the kept record: exit $RRC, rng_quality $(cat "$sys/rng_quality")"
# Another device current now: its line stays, said; restored once current.
run
wait_log "hwrng: .*(rng_quality|quality)"
stop_rngd KILL
echo fake1 > "$sys/rng_current"
restore
[ "$RRC" = 0 ] && [ -e "$T/state/hwrng-quality" ] &&
	grep -q "^rngd: hwrng: the rng_quality record names fake0, not the current fake1: kept for it" "$T/rerr" ||
	fail "a record for another device: exit $RRC, said: $(cat "$T/rerr")"
echo fake0 > "$sys/rng_current"
# A configuration file edited wrong since: said, and the restore goes on.
printf 'no-such-setting = 1\n' > "$T/bad.conf"
CONF=$T/bad.conf restore
[ "$RRC" = 0 ] && [ "$(cat "$sys/rng_quality")" = 1000 ] && grep -q "$T/bad.conf.*goes on without the file" "$T/rerr" ||
	fail "a bad configuration file: exit $RRC, rng_quality $(cat "$sys/rng_quality"), said: $(cat "$T/rerr")"
# -l and -t are modes of their own: a usage error, nothing touched.
for mode in -l -t; do
	echo 0 > "$sys/rng_quality"
	restore "$mode"
	[ "$RRC" = 2 ] && grep -q "restore-hwrng-quality does that alone: not with $mode" "$T/rerr" &&
		[ "$(cat "$sys/rng_quality")" = 0 ] || fail "--restore-hwrng-quality $mode: exit $RRC, said: $(cat "$T/rerr")"
done
echo 1000 > "$sys/rng_quality"

echo "ok: rng_quality taken and restored, rng_current change = fresh gate, --no-take-credit honoured, restored after SIGKILL + restart or --restore-hwrng-quality"
