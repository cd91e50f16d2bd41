#!/usr/bin/env bash
# The PKCS#11 source against SoftHSM2 (token in a temporary folder through
# SOFTHSM2_CONF), through the daemon under guard.sh:
#   1. bytes flow, every block in the sink passes the gate, credit is 0;
#   2. a wrong PIN, a missing token, a missing module, a file that is no
#      module and a world-readable PIN file each give one clear line, the
#      source unusable and a clean exit 1 (no crash);
#   3. the token pulled out mid-run (pkcs11-unplug.so, a wrapper module)
#      is survived and read again once it is back;
#   4. a PIN the token refuses (after a SIGHUP) is not presented again, and
#      the PIN put right is logged in with, without a restart;
#   5. after -D, a SIGHUP re-opens the token with a root-only PIN file.
. "$top_srcdir/tests/integration/daemon-lib.sh"
MODULE=/usr/lib/softhsm/libsofthsm2.so
UNPLUG=$top_builddir/tests/integration/pkcs11-unplug.so
if ! command -v softhsm2-util > /dev/null || [ ! -f "$MODULE" ]; then
	[ "$(id -u)" = 0 ] && fail "softhsm2 is not installed: run tools/install-deps"
	echo "SKIP: softhsm2 not installed (tools/install-deps installs it as root)"
	exit 77
fi
skip_unless_guard
[ -f "$UNPLUG" ] || fail "no $UNPLUG"

mkdir "$T/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$T/tokens" > "$T/softhsm2.conf"
export SOFTHSM2_CONF=$T/softhsm2.conf
softhsm2-util --init-token --free --label rngd-test --pin 123456 --so-pin 654321 > "$T/init.out" 2>&1 ||
	fail "softhsm2-util --init-token: $(cat "$T/init.out")"
printf '123456\n' > "$T/pin"
chmod 600 "$T/pin"

# wait_sink BYTES SECONDS: until the sink holds at least BYTES.
wait_sink() {
	local deadline=$(( $(date +%s) + $2 ))
	while [ "$(stat -c %s "$T/sink" 2>/dev/null || echo 0)" -lt "$1" ]; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "the sink has fewer than $1 bytes after $2 s"
		kill -0 "$RNGD_PID" 2>/dev/null || fail "rngd died"
		sleep 0.1
	done
}

# check_sink: whole blocks only, each one passing this build's gate.
check_sink() {
	local size
	size=$(stat -c %s "$T/sink")
	[ $(( size % BLOCK )) = 0 ] || fail "the sink holds $size bytes, not whole blocks"
	{ head -c 4 /dev/urandom; cat "$T/sink"; } > "$T/replay"
	"$HELPER" expect "$T/replay" "$T/replayed" > /dev/null || fail "daemon-helper expect"
	cmp -s "$T/sink" "$T/replayed" || fail "the sink holds blocks that fail the gate"
}

# ---- 1. Bytes flow ----------------------------------------------------------
P=(-x all -n pkcs11 -O "pkcs11:module:$MODULE" -O pkcs11:token:rngd-test -O "pkcs11:pin-file:$T/pin")
start_rngd "${P[@]}" -O pkcs11:chunk:1000 -o "$T/sink"
wait_sink $(( 40 * BLOCK )) 60
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"
check_sink
grep -qE "pkcs11: opened reading token 'rngd-test' in slot [0-9]+, logged in, 0.000 entropy bits" "$T/log" ||
	fail "no 'opened reading token' line with credit 0"
[ "$(summary_field pkcs11 "bits credited")" = 0 ] || fail "the token's bytes were credited by default"
echo "ok: SoftHSM2 token: $(( $(stat -c %s "$T/sink") / BLOCK )) blocks, all pass the gate, credited 0"

# Without token: or slot:, rngd -l picks the initialised token, not the free slot.
"$GUARD" -- "$RNGD" -l -c /dev/null -O "pkcs11:module:$MODULE" -O "pkcs11:pin-file:$T/pin" > "$T/list" 2>&1 ||
	fail "rngd -l: $(cat "$T/list")"
grep -qE "^pkcs11 +yes .*token 'rngd-test' in slot [0-9]+, logged in" "$T/list" ||
	fail "rngd -l did not pick the initialised token: $(grep pkcs11 "$T/list")"
echo "ok: rngd -l: $(grep -o "C_GenerateRandom from token.*" "$T/list")"

# ---- 2. Configuration errors ------------------------------------------------
# bad_config NAME PATTERN RNGD-ARGS...: rngd exits 1 at once, with exactly one
# "pkcs11: cannot be used:" line, and it matches PATTERN.
bad_config() {
	local name=$1 pattern=$2 rc lines
	shift 2
	timeout 60 "$GUARD" -- "$RNGD" -f -c /dev/null -x all -n pkcs11 "$@" -o "$T/sink.bad" > "$T/out" 2> "$T/log"
	rc=$?
	[ "$rc" = 1 ] || fail "$name: rngd exited $rc, not 1"
	lines=$(grep -c "pkcs11: cannot be used:" "$T/log")
	[ "$lines" = 1 ] || fail "$name: $lines 'cannot be used' lines"
	grep "pkcs11: cannot be used:" "$T/log" | grep -qE "$pattern" || fail "$name: the line does not say '$pattern'"
	echo "ok: $name: $(grep -o 'pkcs11: cannot be used: .*' "$T/log")"
}
printf '654321\n' > "$T/wrong-pin"
chmod 600 "$T/wrong-pin"
bad_config "wrong PIN" "C_Login: CKR_PIN_INCORRECT" \
	-O "pkcs11:module:$MODULE" -O pkcs11:token:rngd-test -O "pkcs11:pin-file:$T/wrong-pin"
bad_config "missing token" "no token labelled 'no-such-token'" \
	-O "pkcs11:module:$MODULE" -O pkcs11:token:no-such-token -O "pkcs11:pin-file:$T/pin"
bad_config "token and slot that do not match" "no token labelled 'rngd-test' in slot 4242 \\(token: and slot: must both match\\)" \
	-O "pkcs11:module:$MODULE" -O pkcs11:token:rngd-test -O pkcs11:slot:4242 -O "pkcs11:pin-file:$T/pin"
bad_config "missing module" "module $T/no-such-module.so: No such file or directory" \
	-O "pkcs11:module:$T/no-such-module.so" -O "pkcs11:pin-file:$T/pin"
# A bare name is p11-kit's to find: its reason names the path twice, and
# the cause at its end still reaches the line.
bad_config "module p11-kit cannot find" "no-such-module-rngd-test.so: cannot open shared object file: No such file or directory" \
	-O "pkcs11:module:no-such-module-rngd-test.so" -O pkcs11:token:rngd-test
bad_config "not a module" "module $T/pin: cannot load" \
	-O "pkcs11:module:$T/pin" -O pkcs11:token:rngd-test
cp "$T/pin" "$T/open-pin"
chmod 644 "$T/open-pin"
bad_config "world-readable PIN file" "pin-file $T/open-pin is readable by others" \
	-O "pkcs11:module:$MODULE" -O pkcs11:token:rngd-test -O "pkcs11:pin-file:$T/open-pin"
bad_config "no module" "no module configured" -O pkcs11:token:rngd-test

# ---- 3. The token pulled out and put back ----------------------------------
export PKCS11_UNPLUG_MODULE=$MODULE PKCS11_UNPLUG_FLAG=$T/unplugged
rm -f "$T/sink"
start_rngd -x all -n pkcs11 -O "pkcs11:module:$UNPLUG" -O pkcs11:token:rngd-test -O "pkcs11:pin-file:$T/pin" \
	-o "$T/sink"
wait_sink $(( 10 * BLOCK )) 60
: > "$T/unplugged"
wait_log "pkcs11: C_GenerateRandom: CKR_DEVICE_REMOVED" 20
wait_log "pkcs11: cannot open: no token labelled 'rngd-test'" 20
sleep 1
before=$(stat -c %s "$T/sink")
rm -f "$T/unplugged"
wait_sink $(( before + 10 * BLOCK )) 60
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"
check_sink
reopens=$(summary_field pkcs11 reopens)
[ "${reopens:-0}" -ge 2 ] || fail "the summary shows ${reopens:-no} re-opens"
echo "ok: token pulled at $(( before / BLOCK )) blocks and put back: re-opened ($reopens opens), $(( $(stat -c %s "$T/sink") / BLOCK )) blocks, all pass the gate"

# ---- 4. A refused PIN is never presented again; a new one is ------------
cp "$T/pin" "$T/pin2"
rm -f "$T/sink"
start_rngd "${P[@]/"$T/pin"/"$T/pin2"}" -o "$T/sink"
wait_sink $(( 4 * BLOCK )) 60
printf '654321\n' > "$T/pin2"
kill -HUP "$RNGD_PID"
wait_log "pkcs11: cannot open: C_Login: CKR_PIN_INCORRECT .*not tried again until the file changes" 20
wait_log "pkcs11: cannot open: the token rejected the PIN in $T/pin2 before; not tried again" 20
[ "$(grep -c "C_Login: CKR_PIN_INCORRECT" "$T/log")" = 1 ] || fail "the refused PIN was presented again"
before=$(stat -c %s "$T/sink")
printf '123456\n' > "$T/pin2"
wait_log "pkcs11: opened again reading token 'rngd-test'" 40
wait_sink $(( before + 4 * BLOCK )) 30
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"
echo "ok: a refused PIN is not presented again; the PIN put right is used without a restart"

# ---- 5. -D, then SIGHUP: the root-only PIN file is read as it was opened ----
chmod 711 "$T"
chown -R nobody "$T/tokens"
chmod 644 "$T/softhsm2.conf"
rm -f "$T/sink"
start_rngd "${P[@]}" -D nobody -o "$T/sink"
wait_sink $(( 4 * BLOCK )) 60
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded" 20
sleep 1
before=$(stat -c %s "$T/sink")
wait_sink $(( before + 8 * BLOCK )) 30
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"
! grep -q "pin-file .*Permission denied" "$T/log" || fail "the PIN file was not readable after -D: $(grep -m1 'Permission denied' "$T/log")"
echo "ok: after -D a SIGHUP re-opened the token with the root-only PIN file ($(stat -c %a "$T/pin"))"
