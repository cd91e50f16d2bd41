#!/usr/bin/env bash
# Write faults on a file sink (the shim with FAULT_WRITES=1):
#  - EINTR and short writes are completed: the sink equals the passing
#    blocks exactly, nothing lost, nothing doubled;
#  - EIO, then ENOSPC, after 20 good writes: rngd exits 1 with one error
#    line naming the sink and the cause; no crash; the sink holds exactly
#    the 20 blocks written before, a prefix of the passing blocks.
. "$top_srcdir/tests/fault/fault-lib.sh"
skip_unless_guard

"$CHECK" gen 200 "$T/in" || fail gen
"$HELPER" expect "$T/in" "$T/expect" > /dev/null || fail expect
export FAULT_PATH=$T/sink FAULT_WRITES=1 FAULT_LOG=$T/faults

export FAULT_KINDS=eintr,short FAULT_RATE=300 FAULT_MAX=30 FAULT_SEED=5
start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
wait_log "exhausted"
wait_size "$T/sink" "$(stat -c %s "$T/expect")" 20
stop_rngd TERM
expect_clean_exit "EINTR and short writes"
[ "$(wc -l < "$T/faults")" = 30 ] || fail "the shim injected $(wc -l < "$T/faults") write faults, wanted 30"
[ "$(fault_count short)" -gt 0 ] && [ "$(fault_count eintr)" -gt 0 ] || fail "not both kinds injected"
cmp "$T/sink" "$T/expect" || fail "after EINTR and short writes the sink differs from the passing blocks"
echo "ok: 30 write faults ($(awk '{print $3}' "$T/faults" | sort | uniq -c | xargs)) completed: sink = the $(( $(stat -c %s "$T/sink") / BLOCK )) passing blocks"

for kind in eio eof; do
	rm -f "$T/sink" "$T/faults"
	export FAULT_KINDS=$kind FAULT_RATE=1000 FAULT_MAX=1 FAULT_SKIP=20
	start_rngd -x all -r "$T/in" -o "$T/sink" --quarantine-after=1000000
	for _ in $(seq 200); do kill -0 "$RNGD_PID" 2>/dev/null || break; sleep 0.05; done
	kill -0 "$RNGD_PID" 2>/dev/null && fail "$kind on the sink: rngd still running after 10 s"
	wait "$GUARD_JOB"; RC=$?; GUARD_JOB=; RNGD_PID=
	why=$([ $kind = eio ] && echo "Input/output error" || echo "No space left on device")
	[ "$RC" = 1 ] || fail "$kind on the sink: rngd exited $RC, wanted 1"
	grep -qE "AddressSanitizer|LeakSanitizer|runtime error|Segmentation|Aborted" "$T/log" && fail "rngd crashed ($kind)"
	[ "$(grep -c "error: .*sink.*$why" "$T/log")" = 1 ] || fail "$kind on the sink: no single error line naming the sink and '$why'"
	got=$("$CHECK" prefix "$T/expect" "$T/sink") || fail "$kind: the sink is not a prefix of the passing blocks"
	[ "$got" = "bytes $(( 20 * BLOCK )) blocks 20 rest 0" ] || fail "$kind: sink holds $got, wanted the 20 blocks written before the fault"
	echo "ok: $kind on write 21: exit 1, '$(grep "error: .*sink" "$T/log" | head -1)', sink $got"
done
