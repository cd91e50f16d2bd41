# Scenario 3: QEMU limits virtio-rng (variant: the limit in bytes/s). rngd
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# starved of input must not spin, must still answer SIGUSR1 within a
# second, and must see (and report) a rate no higher than the limit.
need_rngd || return 0
limit=${VARIANT:-1024}
span=10

start_rngd -x all -n hwrng -o /dev/random
sleep 1
if ! rngd_alive; then
	result rngd-running FAIL "rngd exited: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
# utime + stime of all threads, in clock ticks (USER_HZ = 100).
cpu_ticks() { awk '{ print $14 + $15 }' /proc/$RNGD_PID/stat; }
rngd_stats 2
read0=$(source_counter hwrng "bytes read")
tick0=$(cpu_ticks)
t0=$(uptime_s)
sleep $span
tick1=$(cpu_ticks)
answered=no
rngd_stats 1 && answered=yes
t1=$(uptime_s)
read1=$(source_counter hwrng "bytes read")
secs=$(fsub "$t1" "$t0")
cpu=$(awk -v t=$((tick1 - tick0)) -v s="$secs" 'BEGIN { printf "%.1f", t / s }')

if flt "$cpu" 5; then
	result no-spin PASS "rngd used ${cpu}% CPU over ${secs} s while starved"
else
	result no-spin FAIL "rngd used ${cpu}% CPU over ${secs} s while starved"
fi
if [ $answered = yes ]; then
	result sigusr1 PASS "stats answered in $STATS_ANSWER_S s"
else
	result sigusr1 FAIL "no answer to SIGUSR1 within 1 s"
fi
stop_rngd
check_clean_exit

# What the device gave a plain reader over the same span, with rngd gone
# (the kernel reads nothing itself: rng_core.default_quality=0), in case
# QEMU's periods run faster than the guest's clock. 64-byte reads: at most
# 64 bytes go uncounted when timeout ends dd.
r0=$(uptime_s)
ref_bytes=$( (timeout -s TERM $span dd if=/dev/hwrng bs=64 2>/dev/null) | wc -c)
ref_secs=$(fsub "$(uptime_s)" "$r0")
ref_rate=$(fdiv "${ref_bytes:-0}" "$ref_secs")
bench starved-reference "dd read $ref_rate bytes/s from /dev/hwrng (QEMU limit $limit bytes/s)"
if [ -n "$read0" ] && [ -n "$read1" ]; then
	rate=$(fdiv $((read1 - read0)) "$secs")
	bench starved-rate "rngd saw $rate bytes/s from hwrng (QEMU limit $limit bytes/s, dd $ref_rate)"
	# rngd counts a read when it returns, and its hwrng reads are whole
	# blocks (FIPS_BLOCK_BYTES), so its count moves in blocks: 12500 or
	# 10000 bytes in a 10 s span of a 1024 bytes/s device (1240 or 994
	# bytes/s, both seen). At most, a span counts what QEMU granted in it
	# (one period more than its length, at the larger of the limit and
	# what dd got), plus what arrived before it: one read under way and
	# one fill (a period's grant) in the driver's buffer. A rngd that
	# counted each read twice shows twice the rate. The exact check of
	# the count is the host's (device-reads below).
	if flt "$ref_rate" "$(awk -v l="$limit" 'BEGIN { print l * 1.5 }')"; then
		allowed=$(awk -v l="$limit" -v r="$ref_rate" -v s="$secs" -v b="$FIPS_BLOCK_BYTES" \
			'BEGIN { m = r > l ? r : l; printf "%.1f", (m * (s + 1) + l + b) / s }')
		if flt 0 "$rate" && flt "$rate" "$allowed"; then
			result rate-seen PASS "$rate bytes/s read by rngd, limit $limit, dd read $ref_rate (allowed $allowed)"
		else
			result rate-seen FAIL "$rate bytes/s read by rngd, limit $limit, dd read $ref_rate (allowed $allowed)"
		fi
	else
		result rate-seen FAIL "dd read $ref_rate bytes/s from /dev/hwrng: QEMU's $limit bytes/s limit is not in force, nothing to judge rngd by"
	fi
else
	result rate-seen FAIL "rngd's stats gave no bytes read ('$read0' -> '$read1')"
fi

# rngd's own report of the rate: test mode (-t) prints each source's
# passing rate and feeds nothing.
rngd -t -x all -n hwrng > /run/rates.out 2>/run/rates.err &
tpid=$!
sleep 8
kill -TERM $tpid 2>/dev/null
wait $tpid 2>/dev/null
line=$(grep 'passing bytes/s' /run/rates.out | tail -n 1)
reported=$(echo "$line" | sed -n 's/^[^:]*: \([0-9.]*\) passing bytes\/s.*/\1/p')
if [ -n "$reported" ] && flt "$reported" "$(awk -v l="$limit" 'BEGIN { print l * 1.5 }')"; then
	# With its failures by test: a failed block of a good device is rare.
	result rate-reported PASS "rngd -t: $line; $(sed -n 's/.*hwrng: summary: .*failed \([0-9]* ([^)]*)\).*/failed \1/p' /run/rates.err | tail -n 1)"
else
	result rate-reported FAIL "rngd -t printed '${line:-nothing}' ($(tail -n 2 /run/rates.err | tr '\n' '|'))"
fi

# Every byte this boot's readers took from /dev/hwrng, each reader's own
# count (rngd's from its exit summary). When the host served the device
# through rng-egd (tests/qemu/scenarios/rate-limited.sh), it checks the
# sum against the bytes it served: no reader may report more than arrived.
summary_bytes_read() { sed -n 's/.*hwrng: summary: .*bytes read \([0-9]*\),.*/\1/p' "$1" | tail -n 1; }
rngd_total=$(summary_bytes_read $RNGD_LOG)
t_total=$(summary_bytes_read /run/rates.err)
if [ -n "$rngd_total" ] && [ -n "$t_total" ] && [ -n "$ref_bytes" ]; then
	# A count, not a check: the host checks it when it serves the device.
	result device-reads PASS "rngd $rngd_total, dd $ref_bytes, rngd -t $t_total: $((rngd_total + ref_bytes + t_total)) bytes read from /dev/hwrng"
else
	result device-reads FAIL "a reader's count is missing: rngd '$rngd_total', dd '$ref_bytes', rngd -t '$t_total'"
fi
