# Scenario egd: the guest's virtio-rng is backed by the host rngd's EGD
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# socket through QEMU's rng-egd (variants egd, restart), or by rng-random
# on /dev/urandom for comparison (variant urandom), or by a host rngd whose
# source fails its gate (variant bad). The guest's rngd gates /dev/hwrng.
#   egd, urandom: the pool becomes ready through rngd; then blocks pass and
#                 are credited; BENCH gives the credited rate.
#   restart:      the host restarts its rngd every few seconds; the guest
#                 must keep receiving (requests re-issued after reconnect).
#   bad:          the guest receives nothing, credits 0, nothing crashes.
need_rngd || return 0
span=8

# Counters of the hwrng source and the sink, via SIGUSR1.
egd_sample() {
	rngd_stats 2 || return 1
	S_READ=$(source_counter hwrng "bytes read")
	S_PASSED=$(source_counter hwrng "blocks passed")
	S_CREDITED=$(sink_credited)
	S_T=$(uptime_s)
	return 0
}

if [ "$VARIANT" = bad ]; then
	start_drain
	start_rngd -x all -n hwrng -o $SINK_FIFO
	sleep $span
	if ! rngd_alive; then
		result rngd-running-bad FAIL "rngd exited: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
		return 0
	fi
	result rngd-running-bad PASS "still running after $span s with nothing to read"
	if egd_sample; then
		if [ "${S_CREDITED:-x}" = 0 ] && [ "${S_PASSED:-x}" = 0 ]; then
			result nothing-credited-bad PASS "bytes read ${S_READ:-0}, blocks passed 0, bits credited 0"
		else
			result nothing-credited-bad FAIL "bytes read '$S_READ', blocks passed '$S_PASSED', bits credited '$S_CREDITED'"
		fi
	else
		result nothing-credited-bad FAIL "no answer to SIGUSR1 within 2 s"
	fi
	stop_rngd
	check_clean_exit
	return 0
fi

if [ "$VARIANT" != restart ]; then
	# The pool made ready by rngd through this backend (pre-ready boot).
	if pool_ready; then
		result pre-ready-$VARIANT FAIL "pool ready before rngd (crng init done at $(crng_done_at))"
		return 0
	fi
	t_start=$(uptime_s)
	start_rngd -x all -n hwrng -o /dev/random
	out=$(guest-getrandom -w 60)
	done_at=$(crng_done_at)
	if [ -n "$done_at" ] && flt "$t_start" "$done_at"; then
		result crng-ready-$VARIANT PASS "rngd started at $t_start s, crng init done at $done_at s ($out)"
	else
		result crng-ready-$VARIANT FAIL "rngd started at $t_start s, crng init done at '${done_at:-never}' ($out)"
	fi
	stop_rngd
fi

# The credited rate into a sink that takes everything.
[ "$VARIANT" = restart ] && span=30
start_drain
start_rngd -x all -n hwrng -o $SINK_FIFO
sleep 1
if ! egd_sample; then
	result credited-$VARIANT FAIL "no answer to SIGUSR1 within 2 s"
	return 0
fi
c0=$S_CREDITED t0=$S_T r0=$S_READ
if [ "$VARIANT" = restart ]; then
	# Sample each second: reading must go on to the end, across restarts.
	last=$r0 stalls=0 longest=0 i=0
	while [ $i -lt $span ]; do
		sleep 1
		egd_sample || break
		if [ "${S_READ:-0}" -gt "$last" ]; then stalls=0; else stalls=$((stalls + 1)); fi
		[ $stalls -gt $longest ] && longest=$stalls
		last=${S_READ:-0}
		i=$((i + 1))
	done
	# Growth in the last 5 s: still receiving at the end.
	r_end=$S_READ
	sleep 5
	egd_sample
	if [ "${S_READ:-0}" -gt "${r_end:-0}" ]; then
		result keeps-receiving PASS "bytes read $r0 -> $S_READ over $span s of host restarts; longest gap ${longest} s"
	else
		result keeps-receiving FAIL "bytes read stuck at ${S_READ:-?} (longest gap ${longest} s)"
	fi
else
	sleep $span
	egd_sample
fi
c1=$S_CREDITED t1=$S_T
secs=$(fsub "$t1" "$t0")
if [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt "$c0" ]; then
	rate=$(awk -v b=$((c1 - c0)) -v s="$secs" 'BEGIN { printf "%.0f", b / 8 / s }')
	result credited-$VARIANT PASS "bits credited $c0 -> $c1 in $secs s, blocks passed ${S_PASSED:-?}"
	bench credited-rate-$VARIANT "$rate credited bytes/s into the guest's rngd from virtio-rng on $VARIANT"
else
	result credited-$VARIANT FAIL "bits credited '$c0' -> '$c1' in $secs s"
fi
stop_rngd
check_clean_exit
