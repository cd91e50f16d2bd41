# Scenario 7: raw dd from /dev/hwrng versus rngd's passing rate from the
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# same virtio-rng device (a benchmark: the figures and their ratio).
need_rngd || return 0
mib=8

t0=$(uptime_s)
if ! dd if=/dev/hwrng of=/dev/null bs=65536 count=$((mib * 16)) 2>/run/dd.err; then
	result dd FAIL "$(cat /run/dd.err)"
	return 0
fi
t1=$(uptime_s)
dd_rate=$(fdiv $((mib * 1048576)) "$(fsub "$t1" "$t0")")
result dd PASS "$mib MiB in $(fsub "$t1" "$t0") s"

span=6
start_drain
start_rngd -x all -n hwrng -o $SINK_FIFO
sleep 1
rngd_stats 2
p0=$(source_counter hwrng "blocks passed")
t0=$(uptime_s)
sleep $span
rngd_stats 2
p1=$(source_counter hwrng "blocks passed")
t1=$(uptime_s)
stop_rngd
if [ -n "$p0" ] && [ -n "$p1" ] && [ "$p1" -gt "$p0" ]; then
	rngd_rate=$(fdiv $(((p1 - p0) * FIPS_BLOCK_BYTES)) "$(fsub "$t1" "$t0")")
	result rngd PASS "$((p1 - p0)) blocks passed in $(fsub "$t1" "$t0") s"
	bench guest-throughput "dd $(fdiv "$dd_rate" 1000000) MB/s, rngd passing $(fdiv "$rngd_rate" 1000000) MB/s, ratio rngd/dd $(fdiv "$rngd_rate" "$dd_rate")"
else
	result rngd FAIL "blocks passed '$p0' -> '$p1'"
fi
