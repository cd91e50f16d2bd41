#!/usr/bin/env bash
# TPM 2.0 through tss2-esys on the host: swtpm --tpm2 on 127.0.0.1 (started
# with startup-clear, so TPM2_Startup is done), the tpm2 source on the
# swtpm TCTI. Its bytes pass the gate; when swtpm goes away the read fails
# with a reason instead of hanging or returning zeros; rngd -l with the
# TCTI option calls it usable. Missing swtpm fails the test.
. "$top_srcdir/tests/integration/source-lib.sh"
need_tool swtpm python3

port=$(free_port_pair)
[ -n "$port" ] || fail "no free pair of loopback ports"
ctrl=$(( port + 1 ))
mkdir -p "$T/state"
spawn swtpm swtpm socket --tpm2 --tpmstate dir="$T/state" \
	--server type=tcp,port="$port",bindaddr=127.0.0.1 \
	--ctrl type=tcp,port="$ctrl",bindaddr=127.0.0.1 \
	--flags not-need-init,startup-clear
SWTPM_PID=$LAST_PID
wait_port "$port"
TCTI="tcti:swtpm:host=127.0.0.1,port=$port"

"$DUMP" -v -O "$TCTI" -n $(( 4 + 200 * FIPS_BLOCK_BYTES )) tpm2 > "$T/tpm2.bin" 2> "$T/dump.err" || fail "source-dump tpm2 failed"
[ "$(stat -c %s "$T/tpm2.bin")" = $(( 4 + 200 * FIPS_BLOCK_BYTES )) ] || fail "short dump"
read -r bad run rct apt < <(gate_report "$T/tpm2.bin" 200) || fail "rngtest"
[ "$bad" -le 5 ] && [ "$run" -le 2 ] && [ "$rct" = 0 ] && [ "$apt" = 0 ] ||
	fail "gate: $bad failures, longest run $run, RCT $rct, APT $apt in 200 blocks"
rate=$(tail -1 "$T/dump.err" | sed 's/^source-dump: //')

"$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null -l -O "tpm2:$TCTI" > "$T/list.out" 2>&1 || fail "rngd -l failed"
grep -qE '^tpm2 +yes ' "$T/list.out" || fail "rngd -l with the swtpm TCTI: $(grep tpm2 "$T/list.out")"

# A TCTI that cannot connect: rngd's own one line, not tss2's ERROR and
# WARNING lines on stderr at every try; an admin's TSS2_LOG lets them through.
"$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null -l -x all -n tpm2 -O "tpm2:tcti:swtpm:host=127.0.0.1,port=1" > "$T/dead.out" 2> "$T/dead.err"
grep -qE '^tpm2 +no .*unusable' "$T/dead.out" || fail "rngd -l with a dead TCTI: $(grep tpm2 "$T/dead.out")"
! grep -qE '^(ERROR|WARNING):' "$T/dead.err" || fail "tss2's own log lines reached stderr: $(head -2 "$T/dead.err")"
TSS2_LOG=all+warning "$top_srcdir/tests/integration/guard.sh" -- "$top_builddir/rngd/rngd" -c /dev/null -l -x all -n tpm2 -O "tpm2:tcti:swtpm:host=127.0.0.1,port=1" > /dev/null 2> "$T/dead.err"
grep -qE '^(ERROR|WARNING):' "$T/dead.err" || fail "TSS2_LOG=all+warning did not let tss2's own lines through"

# swtpm gone in the middle of a paced dump: a clear failure, never zeros.
"$DUMP" -v -O "$TCTI" -n $(( 1000 * FIPS_BLOCK_BYTES )) -c "$FIPS_BLOCK_BYTES" -d 20 tpm2 > "$T/cut.bin" 2> "$T/cut.err" &
dump_pid=$!
HELPER_PIDS+=("$dump_pid")
sleep 1
stop_pid "$SWTPM_PID"
wait "$dump_pid"
rc=$?
HELPER_PIDS=("${HELPER_PIDS[@]/$dump_pid}")
[ "$rc" = 1 ] || fail "source-dump went on without swtpm (exit $rc)"
grep -qE "read failed after [0-9]+ bytes: .*(lost|reconnect)" "$T/cut.err" || fail "no reason: $(tail -2 "$T/cut.err")"
python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(1 if b"\0" * 16 in d else 0)' "$T/cut.bin" ||
	fail "zeros in the output around the disconnect"
# Named, with its swtpm started after rngd (as when a TPM service comes up
# later at boot): retried, not left out with exit 1, and read once swtpm
# listens.
late=$(free_port_pair)
[ -n "$late" ] || fail "no free pair of loopback ports"
mkdir -p "$T/late-state" "$T/late-tpm"
"$top_srcdir/tests/integration/guard.sh" -p "$T/late.pid" -- "$top_builddir/rngd/rngd" -f -c /dev/null \
	--state-dir="$T/late-state" -x all -n tpm2 -O "tpm2:tcti:swtpm:host=127.0.0.1,port=$late" \
	-o "$T/late.sink" 2> "$T/late.err" &
late_job=$!
HELPER_PIDS+=("$late_job")
for _ in $(seq 100); do [ -s "$T/late.pid" ] && break; sleep 0.05; done
sleep 1.5
kill -0 "$(cat "$T/late.pid" 2>/dev/null)" 2>/dev/null ||
	fail "rngd gave up on a named tpm2 whose swtpm was not listening yet: $(cat "$T/late.err")"
grep -q "tpm2: cannot open yet: TCTI .* unusable.*; will retry" "$T/late.err" ||
	fail "no 'cannot open yet ... will retry': $(cat "$T/late.err")"
spawn swtpm-late swtpm socket --tpm2 --tpmstate dir="$T/late-tpm" \
	--server type=tcp,port="$late",bindaddr=127.0.0.1 \
	--ctrl type=tcp,port=$(( late + 1 )),bindaddr=127.0.0.1 \
	--flags not-need-init,startup-clear
wait_port "$late"
for _ in $(seq 300); do [ -s "$T/late.sink" ] && break; sleep 0.1; done
[ -s "$T/late.sink" ] || fail "nothing read from the swtpm that came later: $(tail -3 "$T/late.err")"
grep -qE "tpm2: opened through 'swtpm:host=127.0.0.1,port=$late' after [0-9]+ failed opens? in [0-9.]+ s, [0-9.]+ entropy bits per bit credited, priority -?[0-9]+" "$T/late.err" ||
	fail "no first 'opened' line naming the TCTI and the credit: $(grep opened "$T/late.err")"
kill -TERM "$(cat "$T/late.pid")"
wait "$late_job"
rc=$?
[ "$rc" = 0 ] || fail "rngd exited $rc: $(tail -3 "$T/late.err")"
# A simulator earns no credit unless given one: its bytes are software's.
grep -qE "tpm2: summary: .*blocks passed [1-9][0-9]*, .*bits credited 0," "$T/late.err" ||
	fail "the swtpm's blocks were credited: $(grep 'tpm2: summary' "$T/late.err")"

echo "ok: tpm2 via swtpm TCTI on 127.0.0.1:$port; $rate; 200 blocks, $bad FIPS failures; cut-off reported: $(grep -o 'read failed.*' "$T/cut.err" | head -1); a swtpm started after rngd is waited for and read"
