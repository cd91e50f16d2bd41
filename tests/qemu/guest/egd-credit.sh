# Scenario egd-credit: what the guest kernel credits for the bytes a host
# EGD server hands to its virtio-rng (QEMU rng-egd). The host side
# (tests/qemu/scenarios/egd-credit.sh) sets the server: rngd with only
# RDRAND (variant rdrand) or only an hwrng-like source (variant hwrng), or
# the raw test server that over-serves (variant raw, the negative control);
# it compares the figure printed here with its own counters.
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
#
# The guest kernel's hwrng thread credits each read from the current
# device at rng_quality/1024 bits per bit (hwrng_fillfn in 6.1: rc *
# quality * 8 >> 10, the remainder carried). What it credits for N bytes is
# thus N * 8 * rng_quality / 1024. The quality is read first (virtio_rng.0
# declares 1000 in 6.1; this boot has no rng_core.default_quality, so
# nothing caps it), then set to 0: the thread keeps reading, but one
# 64-byte read per reseed interval, credited 0. The bytes read here, N,
# are then counted as the kernel would credit them at that quality. What
# the thread credited before the quality went to 0 is not in N; the host's
# "bytes served" includes it, and the host checks that bound too (every
# byte served credited at rng_quality). Delta entropy_avail would not do:
# it saturates at 256 bits and the kernel stops counting once the pool is
# ready (5.18+).
span=6

cur=$(hwrng_current)
q=$(hwrng_quality)
if [ "$cur" != virtio_rng.0 ] || [ -z "$q" ] || [ "$q" -le 0 ]; then
	result guest-read-$VARIANT FAIL "rng_current '$cur', rng_quality '$q': the kernel credits nothing here, nothing to compare"
	return 0
fi
echo 0 > $HWRNG/rng_quality
q_now=$(hwrng_quality)
if [ "$q_now" != 0 ]; then
	result guest-read-$VARIANT FAIL "could not stop the kernel's hwrng thread: rng_quality $q_now after writing 0"
	return 0
fi
t0=$(uptime_s)
# Small reads: a read of /dev/hwrng returns only once it has all it asked
# for, and timeout's SIGTERM kills the reader with what that read got so
# far; with 64-byte reads at most 64 bytes go uncounted. wc counts what
# reached the pipe.
n=$( (timeout -s TERM $span dd if=/dev/hwrng bs=64 2>/dev/null) | wc -c)
t1=$(uptime_s)
secs=$(fsub "$t1" "$t0")
credited=$(awk -v n="$n" -v q="$q" 'BEGIN { printf "%.0f", n * 8 * q / 1024 }')
# The host parses "rng_quality Q" and "bytes read N" from this line.
if [ "${n:-0}" -gt 0 ]; then
	result guest-read-$VARIANT PASS "rng_quality $q, bytes read $n in $secs s, so $credited bits credited at rng_quality/1024"
else
	result guest-read-$VARIANT FAIL "rng_quality $q, bytes read ${n:-0} in $secs s: nothing arrived from the EGD server"
fi
