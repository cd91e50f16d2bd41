#!/usr/bin/env bash
# EGD options and config keys: socket mode and group applied; bad values
# and -o none without a socket are one clear line and exit 2; the config
# file's keys work like the options.
. "$top_srcdir/tests/integration/egd-lib.sh"
skip_unless_guard

expect_usage() {
	local out rc
	out=$("$RNGD" -f -c /dev/null "$@" 2>&1)
	rc=$?
	[ "$rc" = 2 ] || fail "rngd $* exited $rc, expected 2"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "rngd $*: not one line: $out"
	grep -q "$EXPECT" <<< "$out" || fail "rngd $*: '$out' does not say '$EXPECT'"
}
EXPECT="needs --egd-socket" expect_usage -o none
EXPECT="egd-rate" expect_usage --egd-socket "$SOCK" --egd-rate -5
EXPECT="egd-burst" expect_usage --egd-socket "$SOCK" --egd-burst 0
EXPECT="egd-clients" expect_usage --egd-socket "$SOCK" --egd-clients 0
EXPECT="egd-socket-mode" expect_usage --egd-socket "$SOCK" --egd-socket-mode 0999
EXPECT="absolute path" expect_usage --egd-socket relative.sock

# Mode and group from the config file.
cat > "$T/conf" <<CONF
egd-socket = $SOCK
egd-socket-mode = 0640
egd-socket-group = 4242
egd-rate = 1000
random-device = none
CONF
"$GUARD" -p "$T/pid" -- "$RNGD" -f -c "$T/conf" -x all -r /dev/urandom -O file:entropy_per_bit:1 \
	> /dev/null 2> "$T/log" &
GUARD_JOB=$!
for _ in $(seq 100); do [ -s "$T/pid" ] && break; sleep 0.05; done
RNGD_PID=$(cat "$T/pid")
wait_socket
[ "$(stat -c %a:%g "$SOCK")" = 640:4242 ] || fail "socket is $(stat -c %a:%g "$SOCK"), expected 640:4242"
grep -q "per uid 1000 bytes/s" "$T/log" || fail "egd-rate from the config file not applied"
# SIGHUP applies new limits from the config file.
sed -i 's/^egd-rate = 1000$/egd-rate = 3000/' "$T/conf"
kill -HUP "$RNGD_PID"
wait_log "egd: limits now: per uid 3000 bytes/s"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
# An unknown group is a runtime error with one clear line.
"$GUARD" -- "$RNGD" -f -c /dev/null -x all -r /dev/urandom -o none --egd-socket "$SOCK" \
	--egd-socket-group no-such-group-egd > /dev/null 2> "$T/log3"
[ $? = 1 ] || fail "an unknown group did not fail"
grep -q "socket group 'no-such-group-egd' does not exist" "$T/log3" || fail "$(cat "$T/log3")"
echo "ok: options and config keys; mode 0640 group 4242 applied; bad values exit 2 with one line"
