# Scenario (a): rng_core.default_quality caps virtio-rng's credit.
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# Variants: own (no parameter: rng_quality stays 1000), cap0
# (rng_core.default_quality=0: 0), cap512 (512: the cap, and what drivers
# that declare none get; with a TPM for such a driver), preready (the pre-ready boot line: the
# pool is not ready in /init, and the control time to "crng init done"
# without rngd, capped at 60 s).

# First, before anything else reads the pool.
early=$(guest-getrandom)

dev=$(hwrng_current)
q=$(hwrng_quality)
# want: virtio-rng's quality (it declares 1000); want_none: a driver that
# declares none (tpm-rng), when a TPM is present.
# 6.1 with patch 0001 keeps each driver's own quality when the parameter
# was never set (virtio-rng 1000, none for tpm-rng); 6.12 has mainline's
# default_quality=1024, a cap, and virtio-rng declares no quality there.
KSERIES=6.1
case $(uname -r) in 6.12.*) KSERIES=6.12 ;; esac
case $VARIANT in
own) if [ $KSERIES = 6.12 ]; then want=1024 want_none=1024; else want=1000 want_none=0; fi ;;
cap0|preready) want=0 want_none=0 ;;
cap512|switch) want=512 want_none=512 ;;
*) result variant FAIL "unknown variant '$VARIANT'"; want=x want_none=x ;;
esac
if [ "$dev" != virtio_rng.0 ]; then
	result rng-current FAIL "rng_current is '$dev', not virtio_rng.0"
elif [ "$q" = "$want" ]; then
	result rng-quality-$VARIANT PASS "virtio_rng.0 rng_quality $q"
else
	result rng-quality-$VARIANT FAIL "virtio_rng.0 rng_quality $q, want $want"
fi

# A driver that declares no quality: tpm-rng gets the parameter when it is
# set, and 0 (no credit) as before when it is not.
if [ "$VARIANT" != switch ] && grep -q tpm-rng-0 $HWRNG/rng_available 2>/dev/null; then
	echo tpm-rng-0 > $HWRNG/rng_current
	q=$(hwrng_quality)
	if [ "$(hwrng_current)" = tpm-rng-0 ] && [ "$q" = "$want_none" ]; then
		result tpm-rng-quality-$VARIANT PASS "tpm-rng-0 (declares none) rng_quality $q"
	else
		result tpm-rng-quality-$VARIANT FAIL "rng_current '$(hwrng_current)', rng_quality $q, want tpm-rng-0 with $want_none"
	fi
fi

if [ "$VARIANT" = preready ]; then
	if [ "$early" = EAGAIN ] && [ -z "$(crng_done_at)" ]; then
		result pre-ready PASS "getrandom(GRND_NONBLOCK) EAGAIN in /init at $(uptime_s) s"
	else
		result pre-ready FAIL "getrandom(GRND_NONBLOCK) said '$early', crng init done at '$(crng_done_at)'"
	fi
	t0=$(uptime_s)
	e0=$(entropy_avail)
	out=$(guest-getrandom -w 60)
	rc=$?
	if [ $rc -le 1 ]; then
		bench control-crng-ready "without rngd: $out (from $t0 s; entropy_avail $e0 -> $(entropy_avail))"
		result control PASS "$out"
	else
		result control FAIL "readiness probe failed: $out"
	fi
fi

PARAM=/sys/module/rng_core/parameters/default_quality
if [ "$VARIANT" = own ] && [ $KSERIES = 6.1 ]; then
	# Never set: reads 0, as it always did.
	v=$(cat $PARAM 2>/dev/null)
	if [ "$v" = 0 ]; then
		result param-unset-reads-0 PASS "$PARAM reads 0 when never set"
	else
		result param-unset-reads-0 FAIL "$PARAM reads '$v' when never set, not 0"
	fi
	# Out of range values are refused and change nothing.
	accepted=
	for bad in 1025 65536 -1 x; do
		(echo "$bad" > $PARAM) 2>/dev/null && accepted="$accepted $bad"
	done
	v=$(cat $PARAM 2>/dev/null)
	if [ -z "$accepted" ] && [ "$v" = 0 ]; then
		result param-range PASS "1025, 65536, -1 and x refused; still 0"
	else
		result param-range FAIL "accepted:${accepted:- none}; now '$v'"
	fi
fi

# Two devices, rng_core.default_quality=512: virtio-rng declares 1000 and
# is capped to 512 once, at registration; tpm-rng declares none and gets
# 512. A quality raised through rng_quality must survive a switch away and
# back, and a device registering must compete with its capped quality.
switch_to() {
	echo "$1" > $HWRNG/rng_current && [ "$(hwrng_current)" = "$1" ]
}
wait_available() {
	i=0
	while [ $i -lt 100 ]; do
		grep -q "$1" $HWRNG/rng_available 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
if [ "$VARIANT" = switch ]; then
	VD=/sys/bus/virtio/drivers/virtio_rng
	VDEV=$(ls $VD 2>/dev/null | grep '^virtio' | head -n 1)
	if ! wait_available tpm-rng-0 || [ -z "$VDEV" ]; then
		result two-devices FAIL "need virtio_rng.0 and tpm-rng-0: available '$(cat $HWRNG/rng_available)', virtio device '$VDEV'"
	else
		# 1. Raise virtio-rng above the cap, switch away and back.
		switch_to virtio_rng.0 && echo 700 > $HWRNG/rng_quality
		q_raised=$(hwrng_quality)
		switch_to tpm-rng-0
		q_tpm=$(hwrng_quality)
		switch_to virtio_rng.0
		q_back=$(hwrng_quality)
		if [ "$q_raised" = 700 ] && [ "$q_tpm" = 512 ] && [ "$q_back" = 700 ]; then
			result quality-survives-switch PASS "virtio_rng.0 raised to 700, tpm-rng-0 ($q_tpm) current, back to virtio_rng.0: still $q_back"
		else
			result quality-survives-switch FAIL "virtio_rng.0 raised to '$q_raised', tpm-rng-0 '$q_tpm', back to virtio_rng.0: '$q_back' (want 700, 512, 700)"
		fi
		# 2. Unbind virtio-rng (tpm-rng-0 becomes current), raise the
		# TPM to 700, bind virtio-rng again: it registers with 512
		# (capped), less than 700, so tpm-rng-0 stays current.
		echo "$VDEV" > $VD/unbind
		cur_after_unbind=$(hwrng_current)
		echo 700 > $HWRNG/rng_quality
		q_tpm=$(hwrng_quality)
		echo "$VDEV" > $VD/bind
		wait_available virtio_rng.0
		sleep 0.5
		cur=$(hwrng_current)
		if [ "$cur_after_unbind" = tpm-rng-0 ] && [ "$q_tpm" = 700 ] && [ "$cur" = tpm-rng-0 ]; then
			result register-compares-capped PASS "tpm-rng-0 at 700 stays current when virtio_rng.0 (declares 1000, capped to 512) registers"
		else
			result register-compares-capped FAIL "after unbind '$cur_after_unbind' at '$q_tpm'; after virtio_rng.0 registered, current '$cur' (want tpm-rng-0: 700 beats a capped 512)"
		fi
		# 3. The device with the higher effective quality wins: lower
		# the TPM to 300, and virtio-rng (512) takes over.
		cur=$(hwrng_current)
		if [ "$cur" != tpm-rng-0 ]; then
			result best-effective-wins FAIL "not run: '$cur' is current, not tpm-rng-0 (see register-compares-capped)"
		else
			echo 300 > $HWRNG/rng_quality
			cur=$(hwrng_current)
			q=$(hwrng_quality)
			if [ "$cur" = virtio_rng.0 ] && [ "$q" = 512 ]; then
				result best-effective-wins PASS "tpm-rng-0 lowered to 300: virtio_rng.0 (512) is current"
			else
				result best-effective-wins FAIL "tpm-rng-0 lowered to 300: current '$cur' at '$q' (want virtio_rng.0 at 512)"
			fi
		fi
	fi
fi
