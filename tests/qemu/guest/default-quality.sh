# Scenario (a): rng_core.default_quality caps virtio-rng's credit.
# Variants: own (no parameter: rng_quality stays 1000), cap0
# (rng_core.default_quality=0: 0), preready (the pre-ready boot line: the
# pool is not ready in /init, and the control time to "crng init done"
# without rngd, capped at 60 s).

# First, before anything else reads the pool.
early=$(guest-getrandom)

dev=$(hwrng_current)
q=$(hwrng_quality)
case $VARIANT in
own) want=1000 ;;
cap0|preready) want=0 ;;
*) result variant FAIL "unknown variant '$VARIANT'"; want=x ;;
esac
if [ "$dev" != virtio_rng.0 ]; then
	result rng-current FAIL "rng_current is '$dev', not virtio_rng.0"
elif [ "$q" = "$want" ]; then
	result rng-quality-$VARIANT PASS "virtio_rng.0 rng_quality $q"
else
	result rng-quality-$VARIANT FAIL "virtio_rng.0 rng_quality $q, want $want"
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
