# Scenario 4: TPM 1.2 (swtpm behind tpm-tis) through TrouSerS. The guest
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# starts tcsd, then rngd with only the TPM 1.2 source on the pre-ready boot
# line: blocks pass and are credited. tcsd is then killed and restarted:
# rngd must reconnect and carry on.
need_rngd || return 0
if [ ! -x /usr/sbin/tcsd ]; then
	result tcsd-present FAIL "tcsd is not in the initramfs"
	return 0
fi
if [ -c /dev/tpm0 ]; then
	result tpm0 PASS "/dev/tpm0 present, rng_available: $(cat $HWRNG/rng_available)"
else
	result tpm0 FAIL "no /dev/tpm0 (tpm_tis did not bind PNP0C31)"
	return 0
fi
chown tss:tss /dev/tpm0
TCSD_PID=
start_tcsd() {
	tcsd -f -c /etc/tcsd.conf >>/run/tcsd.log 2>&1 &
	TCSD_PID=$!
	# Ready once it listens on its port (30003).
	local i=0
	while [ $i -lt 100 ]; do
		netstat -ltn 2>/dev/null | grep -q ':30003 ' && return 0
		kill -0 $TCSD_PID 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
if start_tcsd; then
	result tcsd PASS "tcsd listening on 127.0.0.1:30003"
else
	result tcsd FAIL "tcsd did not start: $(tail -n 3 /run/tcsd.log | tr '\n' '|')"
	return 0
fi
# rngd as users run it, on the pre-ready boot line: the first passing
# block is credited and makes the pool ready.
pre=$(guest-getrandom)
t_start=$(uptime_s)
start_rngd -x all -n tpm -o /dev/random --topup-interval 1 --topup-bytes $FIPS_BLOCK_BYTES
out=$(guest-getrandom -w 20)
if check_credited tpm "pool was $pre before rngd, $out"; then
	done_at=$(crng_done_at)
	[ -n "$done_at" ] && bench tpm12-crng-ready "$(fsub "$done_at" "$t_start") s from rngd start to crng init done"
else
	# Large TPM 1.2 answers through tcsd once came back with zero-filled
	# spans; small requests still let the reconnect check below run.
	stop_rngd
	start_rngd -x all -n tpm -O tpm:chunk:256 -o /dev/random --topup-interval 1 --topup-bytes $FIPS_BLOCK_BYTES
	sleep 3
fi

kill $TCSD_PID
wait $TCSD_PID 2>/dev/null
sleep 2
rngd_stats 2
p0=$(source_counter tpm "blocks passed")
if start_tcsd; then
	result tcsd-restart PASS "tcsd killed and restarted"
else
	result tcsd-restart FAIL "tcsd did not restart: $(tail -n 3 /run/tcsd.log | tr '\n' '|')"
	return 0
fi
i=0 p1=$p0
while [ $i -lt 30 ]; do
	sleep 1
	rngd_stats 2 && p1=$(source_counter tpm "blocks passed")
	[ "${p1:-0}" -gt "${p0:-0}" ] && break
	i=$((i + 1))
done
if rngd_alive && [ "${p1:-0}" -gt "${p0:-0}" ]; then
	result reconnect PASS "blocks passed $p0 -> $p1 after tcsd restarted (reopens $(source_counter tpm reopens), read errors $(source_counter tpm "read errors"))"
else
	result reconnect FAIL "blocks passed $p0 -> $p1 within 30 s of the restart: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
fi
stop_rngd
check_clean_exit
