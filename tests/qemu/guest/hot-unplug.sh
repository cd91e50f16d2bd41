# Scenario 6: the virtio-rng device is removed through QEMU's monitor while
# rngd reads it, then added back. rngd must notice, keep running, and read
# the device again once it is back.
need_rngd || return 0

wait_for() { # seconds, then a shell condition
	n=$(($1 * 10)); shift
	while [ $n -gt 0 ]; do eval "$@" && return 0; sleep 0.1; n=$((n - 1)); done
	return 1
}
passed_now() { rngd_stats 2 >/dev/null && source_counter hwrng "blocks passed"; }

start_rngd -x all -n hwrng -o /run/sink.out
if ! wait_for 20 '[ "$(passed_now)" -gt 0 ] 2>/dev/null'; then
	result reading FAIL "no block passed before the unplug: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
before=$(hwrng_current)
result reading PASS "rngd reading $before, blocks passed $(passed_now)"

host_action device_del rng0
if wait_for 30 '[ "$(hwrng_current)" != "$before" ]'; then
	result unplugged PASS "rng_current went from $before to '$(hwrng_current)'"
else
	result unplugged FAIL "rng_current still '$(hwrng_current)' 30 s after device_del"
	return 0
fi
sleep 3
if rngd_alive; then
	result survives-unplug PASS "rngd running 3 s after the unplug"
else
	result survives-unplug FAIL "rngd exited: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
if grep -qi 'rng_current\|no hardware rng\|hwrng.*\(gone\|changed\|reopen\|ENODEV\|No such device\)' $RNGD_LOG; then
	result noticed PASS "$(grep -i 'rng_current\|hwrng' $RNGD_LOG | tail -n 1 | cut -c1-160)"
else
	result noticed FAIL "rngd logged nothing about the unplug"
fi
p0=$(passed_now)

host_action device_add virtio-rng-pci,rng=rngobj0,id=rng0
if wait_for 30 'grep -q virtio_rng $HWRNG/rng_available'; then
	result replugged PASS "rng_available: $(cat $HWRNG/rng_available), rng_current: $(hwrng_current)"
else
	result replugged FAIL "no virtio_rng in rng_available 30 s after device_add"
	return 0
fi
if wait_for 40 '[ "$(passed_now)" -gt "${p0:-0}" ] 2>/dev/null'; then
	result picks-up-again PASS "blocks passed $p0 -> $(passed_now) from $(hwrng_current)"
else
	result picks-up-again FAIL "no new block within 40 s of device_add (passed $p0 -> $(passed_now))"
fi
stop_rngd
check_clean_exit
