#!/usr/bin/env bash
# TPM 1.2 through TrouSerS on the host, loopback only: swtpm (TPM 1.2) on
# 127.0.0.1, tcsd on its TCP device with its own config, port and state
# file. The tpm source's bytes pass the gate; tcsd is killed mid-dump and
# restarted: the source reconnects and the dump completes. Then rngd with
# only the tpm source feeds a file sink (under guard.sh) across another
# tcsd restart. Missing swtpm/tcsd fails the test: run tools/install-deps.
. "$top_srcdir/tests/integration/source-lib.sh"
need_tool swtpm tcsd python3 unshare
need_root
getent group tss > /dev/null || fail "no tss group (the trousers package creates it)"

swtpm_port=$(free_port)
ctrl_port=$(free_port)
tcsd_port=$(free_port)
while [ "$ctrl_port" = "$swtpm_port" ]; do ctrl_port=$(free_port); done
while [ "$tcsd_port" = "$swtpm_port" ] || [ "$tcsd_port" = "$ctrl_port" ]; do tcsd_port=$(free_port); done

mkdir -p "$T/state" "$T/tcsd"
chmod 0755 "$T"
chown tss:tss "$T/tcsd"
cat > "$T/tcsd.conf" <<CONF
port = $tcsd_port
system_ps_file = $T/tcsd/system.data
CONF
# Debian's tcsd refuses a config not owned root:tss with mode 0640.
chown root:tss "$T/tcsd.conf"
chmod 0640 "$T/tcsd.conf"

spawn swtpm swtpm socket --tpmstate dir="$T/state" \
	--server type=tcp,port="$swtpm_port",bindaddr=127.0.0.1 \
	--ctrl type=tcp,port="$ctrl_port",bindaddr=127.0.0.1 \
	--flags not-need-init,startup-clear
wait_port "$swtpm_port"

start_tcsd() {
	spawn tcsd env TCSD_TCP_DEVICE_HOSTNAME=127.0.0.1 TCSD_TCP_DEVICE_PORT="$swtpm_port" \
		tcsd -e -f -c "$T/tcsd.conf"
	TCSD_PID=$LAST_PID
	wait_port "$tcsd_port"
}
start_tcsd
TPM_OPTS=(-O host:127.0.0.1 -O port:"$tcsd_port")

# 1. Bytes through the gate.
"$DUMP" -v "${TPM_OPTS[@]}" -n $(( 4 + 200 * FIPS_BLOCK_BYTES )) tpm > "$T/tpm.bin" 2> "$T/dump1.err" ||
	fail "source-dump tpm failed"
read -r bad run rct apt < <(gate_report "$T/tpm.bin" 200) || fail "rngtest"
[ "$bad" -le 5 ] && [ "$run" -le 2 ] && [ "$rct" = 0 ] && [ "$apt" = 0 ] ||
	fail "gate: $bad failures, longest run $run, RCT $rct, APT $apt in 200 blocks"
rate=$(tail -1 "$T/dump1.err" | sed 's/^source-dump: //')

# 2. tcsd killed and restarted in the middle of a paced dump (a block every 20 ms).
"$DUMP" -v "${TPM_OPTS[@]}" -n $(( 4 + 200 * FIPS_BLOCK_BYTES )) -c "$FIPS_BLOCK_BYTES" -d 20 tpm > "$T/tpm2.bin" 2> "$T/dump2.err" &
dump_pid=$!
HELPER_PIDS+=("$dump_pid")
sleep 1
stop_pid "$TCSD_PID"
sleep 1.5
kill -0 "$dump_pid" 2>/dev/null || fail "source-dump ended while tcsd was down"
start_tcsd
wait "$dump_pid"
rc=$?
HELPER_PIDS=("${HELPER_PIDS[@]/$dump_pid}")
[ "$rc" = 0 ] || fail "source-dump failed across the tcsd restart ($rc)"
[ "$(stat -c %s "$T/tpm2.bin")" = $(( 4 + 200 * FIPS_BLOCK_BYTES )) ] || fail "short dump across the restart"
grep -q "reconnected to tcsd" "$T/dump2.err" || fail "no reconnection reported"
read -r bad run rct apt < <(gate_report "$T/tpm2.bin" 200) || fail "rngtest"
[ "$bad" -le 5 ] && [ "$rct" = 0 ] && [ "$apt" = 0 ] || fail "after the restart: $bad failures, RCT $rct, APT $apt"
reconnect=$(grep -o "reconnected to tcsd.*" "$T/dump2.err" | head -1)

# 3. rngd with only the tpm source into a file sink, guarded, across a tcsd restart.
GUARD=$top_srcdir/tests/integration/guard.sh
RNGD=$top_builddir/rngd/rngd
[ -x "$RNGD" ] || fail "no $RNGD"
"$GUARD" -p "$T/rngd.pid" -- "$RNGD" -f -c /dev/null -x all -n tpm \
	-O tpm:host:127.0.0.1 -O tpm:port:"$tcsd_port" -o "$T/sink" > "$T/rngd.out" 2> "$T/rngd.log" &
guard_pid=$!
HELPER_PIDS+=("$guard_pid")
sink_at_least() {
	local deadline=$(( $(date +%s) + 20 ))
	while [ "$(stat -c %s "$T/sink" 2>/dev/null || echo 0)" -lt "$1" ]; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "rngd's sink did not reach $1 bytes"
		kill -0 "$guard_pid" 2>/dev/null || fail "rngd exited early"
		sleep 0.1
	done
}
for _ in $(seq 100); do [ -s "$T/rngd.pid" ] && break; sleep 0.05; done
[ -s "$T/rngd.pid" ] || fail "rngd did not start"
rngd_pid=$(cat "$T/rngd.pid")
HELPER_PIDS+=("$rngd_pid")
sink_at_least 25000
stop_pid "$TCSD_PID"
sleep 1.5
before=$(stat -c %s "$T/sink")
start_tcsd
sink_at_least $(( before + 25000 ))
kill -TERM "$rngd_pid"
# SIGTERM while a reader may sit inside libtspi: rngd must still exit, promptly.
for _ in $(seq 100); do kill -0 "$rngd_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$rngd_pid" 2>/dev/null && fail "rngd still running 10 s after SIGTERM"
wait "$guard_pid"
rc=$?
HELPER_PIDS=("${HELPER_PIDS[@]/$guard_pid}")
[ "$rc" = 0 ] || fail "rngd (guarded) exited $rc"
credited=$(grep -E "tpm: summary:" "$T/rngd.log" | tail -1 | grep -oE "bits credited [0-9]+" | awk '{print $NF}')
[ -n "$credited" ] && [ "$credited" -gt 0 ] || fail "rngd credited nothing from the tpm source"
sink_blocks=$(( $(stat -c %s "$T/sink") / FIPS_BLOCK_BYTES ))

echo "ok: tpm 1.2 via tcsd:$tcsd_port -> swtpm:$swtpm_port; $rate; $reconnect; rngd: $sink_blocks blocks to the sink, $credited bits credited, survived a tcsd restart"
