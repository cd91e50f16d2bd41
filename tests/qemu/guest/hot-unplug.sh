# Scenario 6: the virtio-rng device is removed through QEMU's monitor while
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# rngd reads it, then added back. rngd must notice, keep running, and read
# the device again once it is back. Variant "tpm": a TPM 2.0 is present, so
# the kernel switches /dev/hwrng to tpm-rng-0 behind rngd's open fd; rngd
# must see that through rng_current and start a fresh gate for it, and
# again when virtio-rng comes back.
need_rngd || return 0
v=${VARIANT:-plain}

wait_for() { # seconds, then a shell condition
	local n=$(($1 * 10))
	shift
	while [ $n -gt 0 ]; do eval "$*" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
passed_now() { rngd_stats 2 >/dev/null && source_counter hwrng "blocks passed"; }
fresh_gates() { grep -c 'fresh gate' $RNGD_LOG; }

# The kernel sink: rngd watches rng_current only when it takes the kernel's
# credit. A top-up every second keeps it reading once the pool is ready.
start_rngd -x all -n hwrng -o /dev/random --topup-interval 1 --topup-bytes $FIPS_BLOCK_BYTES
if ! wait_for 20 '[ "$(passed_now)" -gt 0 ] 2>/dev/null'; then
	result reading-$v FAIL "no block passed before the unplug: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
before=$(hwrng_current)
result reading-$v PASS "rngd reading $before, blocks passed $(passed_now)"

g0=$(fresh_gates)
host_action device_del rng0
if wait_for 30 '[ "$(hwrng_current)" != "$before" ]'; then
	result unplugged-$v PASS "rng_current went from $before to '$(hwrng_current)'"
else
	result unplugged-$v FAIL "rng_current still '$(hwrng_current)' 30 s after device_del"
	return 0
fi
sleep 3
if rngd_alive; then
	result survives-unplug-$v PASS "rngd running 3 s after the unplug"
else
	result survives-unplug-$v FAIL "rngd exited: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
if [ "$v" = tpm ]; then
	# The kernel moved /dev/hwrng to the TPM: a new device, a fresh gate.
	# rngd looks at rng_current every few seconds; give it 15.
	now=$(hwrng_current)
	if [ "$now" = tpm-rng-0 ] && wait_for 15 '[ "$(fresh_gates)" -gt "$g0" ]' &&
		grep 'fresh gate' $RNGD_LOG | tail -n 1 | grep -q tpm-rng-0; then
		result noticed-$v PASS "$(grep 'fresh gate' $RNGD_LOG | tail -n 1 | cut -c1-160)"
	else
		result noticed-$v FAIL "rng_current '$now', rngd's last gate change: '$(grep 'fresh gate' $RNGD_LOG | tail -n 1)'"
	fi
	p0=$(passed_now)
	if wait_for 30 '[ "$(passed_now)" -gt "${p0:-0}" ] 2>/dev/null'; then
		result reads-tpm-$v PASS "blocks passed $p0 -> $(passed_now) from tpm-rng-0"
	else
		result reads-tpm-$v FAIL "no block from tpm-rng-0 within 30 s"
	fi
elif grep -qi 'rng_current\|No such device\|no hardware rng' $RNGD_LOG; then
	result noticed-$v PASS "$(grep -i 'rng_current\|No such device\|no hardware rng' $RNGD_LOG | tail -n 1 | cut -c1-160)"
else
	result noticed-$v FAIL "rngd logged nothing about the unplug"
fi
p0=$(passed_now)
g1=$(fresh_gates)

host_action device_add virtio-rng-pci,rng=rngobj0,id=rng0
if wait_for 30 'grep -q virtio_rng $HWRNG/rng_available'; then
	result replugged-$v PASS "rng_available: $(cat $HWRNG/rng_available), rng_current: $(hwrng_current)"
else
	result replugged-$v FAIL "no virtio_rng in rng_available 30 s after device_add"
	return 0
fi
if [ "$v" = tpm ]; then
	# Kernel series v2 (0001): default_quality=0 caps virtio-rng at 0 once,
	# at registration, and only a higher effective quality takes over from
	# the current device (tpm-rng-0, 0 as well), as in mainline: the kernel
	# keeps the TPM and rngd keeps reading it. Then the administrator's way
	# back: write rng_current, and rngd must follow with a fresh gate.
	if wait_for 30 '[ "$(passed_now)" -gt "${p0:-0}" ] && [ "$(hwrng_current)" = tpm-rng-0 ]' 2>/dev/null; then
		result keeps-equal-quality-$v PASS "rng_current stays tpm-rng-0, blocks passed $p0 -> $(passed_now)"
	else
		result keeps-equal-quality-$v FAIL "rng_current $(hwrng_current), passed $p0 -> $(passed_now)"
	fi
	p0=$(passed_now)
	vdev=$(grep -o 'virtio_rng[.0-9]*' $HWRNG/rng_available | head -n 1)
	echo "$vdev" > $HWRNG/rng_current
fi
if wait_for 40 '[ "$(passed_now)" -gt "${p0:-0}" ] && hwrng_current | grep -q virtio_rng' 2>/dev/null; then
	result picks-up-again-$v PASS "blocks passed $p0 -> $(passed_now) from $(hwrng_current)"
else
	result picks-up-again-$v FAIL "no new block from virtio within 40 s of device_add (passed $p0 -> $(passed_now), rng_current $(hwrng_current))"
fi
if [ "$v" = tpm ]; then
	if wait_for 15 '[ "$(fresh_gates)" -gt "$g1" ]'; then
		result fresh-gate-again-$v PASS "$(grep 'fresh gate' $RNGD_LOG | tail -n 1 | cut -c1-160)"
	else
		result fresh-gate-again-$v FAIL "no fresh gate logged for the returning virtio device"
	fi
fi
stop_rngd
check_clean_exit
