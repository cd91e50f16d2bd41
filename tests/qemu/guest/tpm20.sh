# Scenario 5: TPM 2.0 (swtpm --tpm2 behind tpm-tis): /dev/tpm0, /dev/tpmrm0
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# and tpm-rng-0 appear; rngd's TPM 2.0 source alone, on the pre-ready boot
# line, feeds credited blocks and makes the pool ready.
need_rngd || return 0
missing=
for f in /dev/tpm0 /dev/tpmrm0; do [ -c $f ] || missing="$missing $f"; done
grep -q tpm-rng-0 $HWRNG/rng_available 2>/dev/null || missing="$missing tpm-rng-0"
if [ -z "$missing" ]; then
	result devices PASS "/dev/tpm0 /dev/tpmrm0, rng_available: $(cat $HWRNG/rng_available)"
else
	result devices FAIL "missing:$missing"
	return 0
fi
pre=$(guest-getrandom)
if [ "$pre" = EAGAIN ]; then
	result pre-ready PASS "getrandom(GRND_NONBLOCK) EAGAIN"
else
	result pre-ready FAIL "pool ready before rngd"
fi
t_start=$(uptime_s)
start_rngd -x all -n tpm2 -o /dev/random
out=$(guest-getrandom -w 60)
check_credited tpm2 "$out"
done_at=$(crng_done_at)
if [ -n "$done_at" ] && flt "$t_start" "$done_at"; then
	result crng-after-rngd PASS "crng init done at $done_at s, rngd started at $t_start s"
	bench tpm20-crng-ready "$(fsub "$done_at" "$t_start") s from rngd start to crng init done"
else
	result crng-after-rngd FAIL "crng init done at '${done_at:-never}', rngd started at $t_start s"
fi
stop_rngd
check_clean_exit
