# The demo guest: the patched kernel on the pre-ready boot line with
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# virtio-rng and a TPM 2.0, rngd with its default sources feeding the
# kernel, its live statistics on the console, then a clean shutdown.
need_rngd || return 0
echo "demo: rng_available: $(cat $HWRNG/rng_available), rng_current: $(hwrng_current), rng_quality: $(hwrng_quality)"
echo "demo: before rngd: getrandom(GRND_NONBLOCK) says $(guest-getrandom)"
t_start=$(uptime_s)
start_rngd -o /dev/random --topup-interval 2
rounds=${VARIANT:-5}
i=0
while [ $i -lt "$rounds" ]; do
	sleep 2
	if rngd_stats 2; then
		echo "--- rngd statistics at $(uptime_s) s ---"
		echo "$STATS_LINES" | sed -n 's/^rngd: notice: //p' | awk '{ a[$1] = $0 } END { for (k in a) print a[k] }' |
			sed 's/ (monobit[^)]*)//'
		echo "$SINK_LINE" | sed 's/^rngd: notice: //'
	else
		result stats FAIL "no answer to SIGUSR1"
	fi
	i=$((i + 1))
done
done_at=$(crng_done_at)
echo "demo: crng init done at ${done_at:-never} s (rngd started at $t_start s); pool: $(guest-getrandom)"
credited=$(sink_credited)
if [ "${credited:-0}" -gt 0 ] && [ -n "$done_at" ]; then
	result fed PASS "rngd credited $credited bits; crng ready $(fsub "$done_at" "$t_start") s after rngd started"
else
	result fed FAIL "bits credited '${credited}', crng init done '${done_at}'"
fi
stop_rngd
check_clean_exit
echo "demo: shutting down"
