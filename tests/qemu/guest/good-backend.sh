# Scenario 1: virtio-rng on the host's /dev/urandom, pre-ready boot line.
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# rngd with only the hwrng source and the kernel sink makes the pool ready.
need_rngd || return 0

early=$(guest-getrandom)
if [ "$early" = EAGAIN ] && [ -z "$(crng_done_at)" ]; then
	result pre-ready PASS "getrandom(GRND_NONBLOCK) EAGAIN, rng_quality $(hwrng_quality)"
else
	result pre-ready FAIL "pool already ready before rngd ($early, crng init done at '$(crng_done_at)')"
	return 0
fi

t_start=$(uptime_s)
start_rngd -x all -n hwrng -o /dev/random
out=$(guest-getrandom -w 60)
done_at=$(crng_done_at)
if rngd_alive; then
	result rngd-running PASS "pid $RNGD_PID"
else
	result rngd-running FAIL "rngd exited: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
if [ -n "$done_at" ] && flt "$t_start" "$done_at"; then
	result crng-after-rngd PASS "rngd started at $t_start s, crng init done at $done_at s ($out)"
	bench rngd-crng-ready "$(fsub "$done_at" "$t_start") s from rngd start to crng init done"
else
	result crng-after-rngd FAIL "rngd started at $t_start s, crng init done at '${done_at:-never}' ($out)"
fi

check_credited hwrng
stop_rngd
check_clean_exit

# rngd -r /dev/urandom, old advice for a starved pool: the kernel's own
# output fed back to it. On the real kernel calls (kernel_entropy_linux)
# the sink says it feeds this kernel, so the source earns nothing whatever
# -O says, and the log says why. (Not before the run above: reading
# /dev/urandom makes a 6.x kernel seed itself from CPU jitter at once,
# and once the pool is ready the kernel counts no credit to measure; the
# credit handed to RNDADDENTROPY is checked on the host, daemon-credit-loop.sh.)
start_rngd -x all -r /dev/urandom -O hwrng:entropy_per_bit:1 -o /dev/random
sleep 1
if grep -q "hwrng: opened /dev/urandom, 0.000 entropy bits per bit credited" $RNGD_LOG &&
	grep -q "hwrng: reads this kernel's own generator" $RNGD_LOG; then
	result urandom-not-credited PASS "0 bits per bit, with the warning"
else
	result urandom-not-credited FAIL "$(grep hwrng $RNGD_LOG | head -n 4 | tr '\n' '|' | cut -c1-400)"
fi
stop_rngd
