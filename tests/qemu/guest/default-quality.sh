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
case $VARIANT in
own) want=1000 want_none=0 ;;
cap0|preready) want=0 want_none=0 ;;
cap512) want=512 want_none=512 ;;
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
if grep -q tpm-rng-0 $HWRNG/rng_available 2>/dev/null; then
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
