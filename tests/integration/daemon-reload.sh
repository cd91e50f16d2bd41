#!/usr/bin/env bash
# SIGHUP as users send it: after editing a config that now names what only
# a restart applies (a source left out or unknown, a source's own key, the
# user, the top-up size), while the -r device is unplugged, or with a
# config line in the listing form. Each bad or start-only reload is refused
# whole, in one line naming why, and the credit the kernel receives per
# block stays what the user wrote; a good one applies. The credit is read
# from what the mock kernel received (rngd-mockkernel), never from what
# rngd prints.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
RNGD=$MOCKKERNEL
export RNGD_MOCK_KERNEL_LOG=$T/kernel.log RNGD_MOCK_KERNEL_STATE=$T/kernel.state

# The pool is ready from the start: every add is one top-up block a second.
echo 256 > "$T/kernel.state"
# The Debian user's device, plugged in (a link to a character device).
ln -s /dev/urandom "$T/hwdev"
cat > "$T/rng-tools-debian" <<EOF
HRNGDEVICE=$T/hwdev
RNGDOPTIONS="--exclude=all --rng-entropy=0.1"
EOF
: > "$T/conf"

# credit_per_block_since LINE: the distinct credits of the adds after the
# mock log's LINE-th line, one per line ("2000" = 0.1 of a 2500-byte block).
credit_per_block_since() {
	tail -n +"$(( $1 + 1 ))" "$T/kernel.log" | awk '$1 == "add" && $2 == 2500 {print $3}' | sort -u
}
adds() { awk '$1 == "add" {n++} END {print n + 0}' "$T/kernel.log" 2>/dev/null || echo 0; }
log_lines() { wc -l < "$T/kernel.log"; }
wait_adds() { # N more adds after now
	local want=$(( $(adds) + $1 )) end=$(( $(date +%s) + 20 ))
	while [ "$(adds)" -lt "$want" ]; do
		[ "$(date +%s)" -gt "$end" ] && fail "no top-up within 20 s"
		sleep 0.1
	done
}
refused=0
reload_refused() { # PATTERN: a SIGHUP now is refused with PATTERN in its one line
	refused=$(( refused + 1 ))
	kill -HUP "$RNGD_PID"
	for _ in $(seq 100); do
		[ "$(grep -c 'configuration not reloaded [(]' "$T/log")" -ge "$refused" ] && break
		sleep 0.05
	done
	grep -E "error: rngd: configuration not reloaded [(].*$1.*[)]; keeping the old one" "$T/log" > /dev/null ||
		fail "no refusal naming '$1'"
	kill -0 "$RNGD_PID" || fail "rngd died at a refused reload"
}

start_rngd -c "$T/conf" --compat=rng-tools --defaults-file="$T/rng-tools-debian" -o /dev/null \
	--topup-interval=1 --topup-bytes=2500
wait_log "hwrng: opened"
wait_adds 2
[ "$(credit_per_block_since 0)" = 2000 ] || fail "credit per block at start: $(credit_per_block_since 0), not 2000 (0.1)"

# 1. The device is unplugged, the admin reloads, the device comes back: the
#    -H credit stays on it (was: given to a file source, hwrng back to 0.5).
#    Outside /dev a missing path reads as a file, so the sources differ and
#    the reload is refused; under /dev it reads as the device still to come
#    and the reload applies (test_compat). With the device back, it applies.
mark=$(log_lines)
rm "$T/hwdev"
reload_refused "the sources"
ln -s /dev/urandom "$T/hwdev"
kill -HUP "$RNGD_PID"
wait_log "configuration reloaded" 5
wait_adds 2

# 2. What only a restart applies, or what the next start would refuse.
printf 'exclude = hwrng\n' > "$T/conf"
reload_refused "the sources [(]-r, -x, -n, a source's own -O keys[)] changed, which only a restart applies"
printf 'exclude = nosuch\n' > "$T/conf"
reload_refused "the sources"
printf 'option = hwrng:bogus:1\n' > "$T/conf"
reload_refused "the sources"
printf 'drop-privileges = nosuchuser\negd-socket-mode = 0600\n' > "$T/conf"
reload_refused "drop-privileges, egd-socket-mode changed"
# The listing form of -O would make a start print and exit 0.
printf 'option = hwrng\n' > "$T/conf"
reload_refused "$T/conf:1: 'option' needs SOURCE:KEY:VALUE, not 'hwrng'"
# The Debian defaults file's RNGDOPTIONS edited: a value rngd's own parser
# refuses (the reload freed uninitialised options and crashed), or a word
# that makes the next start print and exit.
: > "$T/conf"
cp "$T/rng-tools-debian" "$T/rng-tools-debian.good"
sed -i 's/--rng-entropy=0.1/--rng-entropy=0.1 -s 0/' "$T/rng-tools-debian"
reload_refused "$T/rng-tools-debian: RNGDOPTIONS: --random-step needs a byte count 1..65536, not '0'"
sed -i 's/ -s 0/ --bogus/' "$T/rng-tools-debian"
reload_refused "$T/rng-tools-debian: RNGDOPTIONS: unknown option '--bogus'"
sed -i 's/ --bogus/ -V/' "$T/rng-tools-debian"
reload_refused "the command line prints and exits; nothing to reload"
sed -i 's/ -V/ --list/' "$T/rng-tools-debian"
reload_refused "the command line prints and exits; nothing to reload"
cp "$T/rng-tools-debian.good" "$T/rng-tools-debian"
# A credit line that would raise the Debian credit, after a bad line.
printf 'option = hwrng:entropy_per_bit:0.9\noption = hwrng:colour:red\n' > "$T/conf"
reload_refused "the sources"
wait_adds 2
[ "$(credit_per_block_since "$mark")" = 2000 ] ||
	fail "credit per block after the refused reloads: $(credit_per_block_since "$mark"), not 2000 only"

# 3. A good reload applies: the Debian user lowers -H in the defaults file.
: > "$T/conf"
sed -i 's/--rng-entropy=0.1/--rng-entropy=0.05/' "$T/rng-tools-debian"
# A line rngd does not run, after the assignments: taken with its warning,
# at a reload as at a start.
echo true >> "$T/rng-tools-debian"
kill -HUP "$RNGD_PID"
for _ in $(seq 100); do [ "$(grep -c 'configuration reloaded' "$T/log")" -ge 2 ] && break; sleep 0.05; done
[ "$(grep -c 'configuration reloaded' "$T/log")" -ge 2 ] || fail "the good reload was not applied"
grep -q "warning: rngd: $T/rng-tools-debian:3: not a variable assignment, not run: true" "$T/log" ||
	fail "the reload did not warn of the line it does not run"
# The new credit is said, as a start says it; a refused reload said none.
[ "$(grep -c 'earns .* bits per bit, as written (was' "$T/log")" = 1 ] &&
	grep -qE "notice: [a-z0-9.]+: earns 0\.050 bits per bit, as written \(was 0\.100\)" "$T/log" ||
	fail "the reload's credit change was not said once: $(grep 'earns' "$T/log")"
sleep 1.2
mark=$(log_lines)
wait_adds 2
[ "$(credit_per_block_since "$mark")" = 1000 ] || fail "credit after the good reload: $(credit_per_block_since "$mark"), not 1000 (0.05)"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"

# 4. The listing form at start: exit 2 with the line, not a silent exit 0.
printf 'option = hwrng\n' > "$T/conf"
"$GUARD" -- "$RNGD" -f -c "$T/conf" -x all -o /dev/null > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" = 2 ] || fail "option = hwrng at start: exit $rc, not 2"
grep -q "$T/conf:1: 'option' needs SOURCE:KEY:VALUE" "$T/err" || fail "option = hwrng at start: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "option = hwrng at start printed the keys"

echo "ok: $refused refused reloads kept 0.1 bits a bit (the device unplugged at one reload); a good one applied 0.05"
