# Guest half of tests/qemu/scenarios/virtio-throughput.sh (kernel-patches
# 0004, virtio_rng.buffer_size): raw /dev/hwrng rates with the default
# buffer and with 64-byte requests, the parameter's bounds, partial fills
# under QEMU's rate limit and a reader released by unbinding.
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# From the host: the target ratio, and QEMU's rate limit on the partial boot.
TARGET=$(boot_arg target) MAXB=$(boot_arg max_bytes) PERIOD=$(boot_arg period)
if [ -z "$TARGET" ] || [ -z "$MAXB" ] || [ -z "$PERIOD" ]; then
	result settings FAIL "rngd.target=, rngd.max_bytes= and rngd.period= must be on the kernel command line"
	exit 1
fi
P=/sys/module/virtio_rng/parameters/buffer_size
D=/sys/bus/virtio/drivers/virtio_rng
PAGE=$(getconf PAGESIZE 2>/dev/null || echo 4096)

if [ ! -r $P ]; then
	result buffer-size-param FAIL "no $P: kernel without patch 0004"
	exit 1
fi
DEV=$(ls $D 2>/dev/null | grep '^virtio' | head -n 1)
if [ -z "$DEV" ]; then
	result device FAIL "no device bound to virtio_rng"
	exit 1
fi
# Waits up to 5 s for a virtio hwrng to become current.
wait_current() {
	i=0
	while [ $i -lt 50 ]; do
		case $(hwrng_current) in virtio_rng.*) return 0 ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# rebind SIZE: unbind the device, set the parameter, bind it again.
rebind() {
	echo "$DEV" > $D/unbind
	echo "$1" > $P || return 1
	echo "$DEV" > $D/bind
	wait_current
}
# rate MIB: reads MIB MiB from /dev/hwrng; prints "bytes seconds bytes/s".
rate() {
	t0=$(uptime_s)
	n=$(dd if=/dev/hwrng bs=4096 count=$(($1 * 256)) 2>/dev/null | wc -c)
	t1=$(uptime_s)
	s=$(fsub "$t1" "$t0")
	echo "$n $s $(fdiv "$n" "$s")"
}
mbs() { awk -v r="$1" 'BEGIN { printf "%.2f MB/s", r / 1e6 }'; }

wait_current || { result device FAIL "no virtio hwrng current: $(hwrng_current)"; exit 1; }
default=$(cat $P)
if [ "$default" = "$PAGE" ]; then
	result default-size PASS "virtio_rng.buffer_size defaults to $default (PAGE_SIZE)"
else
	result default-size FAIL "virtio_rng.buffer_size is $default, expected PAGE_SIZE $PAGE"
fi
rejected=
for bad in 0 63 $((PAGE + 1)) 1000000; do
	(echo $bad > $P) 2>/dev/null || rejected="$rejected $bad"
done
if [ "$rejected" = " 0 63 $((PAGE + 1)) 1000000" ] && [ "$(cat $P)" = "$default" ]; then
	result param-bounds PASS "rejected$rejected, value kept at $default"
else
	result param-bounds FAIL "rejected only:$rejected; value now $(cat $P)"
fi

case $VARIANT in
rates)
	set -- $(rate 16)
	a_bytes=$1 a_s=$2 a_rate=$3
	if ! rebind 64; then
		result rebind FAIL "could not rebind $DEV with buffer_size=64"
		exit 1
	fi
	set -- $(rate 2)
	b_bytes=$1 b_s=$2 b_rate=$3
	rebind "$default" || { result rebind FAIL "could not rebind $DEV with buffer_size=$default"; exit 1; }
	set -- $(rate 16)
	c_bytes=$1 c_s=$2 c_rate=$3
	result rebind PASS "$DEV unbound and bound twice, buffer_size 64 then $default"
	bench default-1 "$a_bytes bytes in $a_s s: $(mbs "$a_rate") (buffer_size=$default)"
	bench old-64 "$b_bytes bytes in $b_s s: $(mbs "$b_rate") (buffer_size=64)"
	bench default-2 "$c_bytes bytes in $c_s s: $(mbs "$c_rate") (buffer_size=$default)"
	if [ "$a_bytes" -ne $((16 << 20)) ] || [ "$b_bytes" -ne $((2 << 20)) ] || [ "$c_bytes" -ne $((16 << 20)) ]; then
		result reads FAIL "short reads: $a_bytes, $b_bytes, $c_bytes bytes"
	else
		result reads PASS "16 MiB, 2 MiB and 16 MiB read in full"
	fi
	# The slower of the two default runs against the 64-byte run.
	slow=$(awk -v a="$a_rate" -v c="$c_rate" 'BEGIN { print (a < c) ? a : c }')
	ratio=$(fdiv "$slow" "$b_rate")
	bench ratio "${ratio}x ($(mbs "$slow") / $(mbs "$b_rate"))"
	if flt "$ratio" "$TARGET"; then
		result throughput FAIL "buffer_size=$default reads ${ratio}x the 64-byte rate ($(mbs "$slow") vs $(mbs "$b_rate")), target ${TARGET}x"
	else
		result throughput PASS "buffer_size=$default reads ${ratio}x the 64-byte rate ($(mbs "$slow") vs $(mbs "$b_rate")), target ${TARGET}x"
	fi
	;;
partial)
	# QEMU grants MAXB bytes per PERIOD ms (the timer restarts with the
	# first request after each refill, so a period is a little longer);
	# the guest must get at least 95 % of ten periods' worth in 10 s.
	# dd's 64-byte reads are what the hwrng core asks the driver for.
	rm -f /run/partial
	t0=$(uptime_s)
	dd if=/dev/hwrng of=/run/partial bs=64 2>/dev/null &
	reader=$!
	sleep 10
	kill $reader 2>/dev/null
	wait $reader 2>/dev/null
	s=$(fsub "$(uptime_s)" "$t0")
	n=$(wc -c < /run/partial)
	granted=$((MAXB * 10000 / PERIOD))
	want=$((granted * 95 / 100))
	bench partial-fills "$n bytes in $s s from a device granting $MAXB bytes per $PERIOD ms ($granted in 10 s)"
	if [ "$n" -ge "$want" ]; then
		result partial-fills PASS "$n bytes in $s s, at least 95 % of the $granted QEMU grants in 10 s ($MAXB per $PERIOD ms)"
	else
		result partial-fills FAIL "$n bytes in $s s, less than 95 % ($want) of the $granted QEMU grants in 10 s ($MAXB per $PERIOD ms)"
	fi
	# A reader waiting on the device must be released when it goes away.
	dd if=/dev/hwrng of=/dev/null bs=4096 count=1000 2>/dev/null &
	reader=$!
	sleep 1
	alive_before=no
	kill -0 $reader 2>/dev/null && alive_before=yes
	echo "$DEV" > $D/unbind
	i=0
	while kill -0 $reader 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	if [ $alive_before = no ]; then
		result removal FAIL "the reader had ended before the unbind: nothing was tested"
	elif kill -0 $reader 2>/dev/null; then
		kill $reader
		result removal FAIL "a reader blocked on $DEV was still waiting 5 s after unbind"
	else
		result removal PASS "a blocked reader returned $((i * 100)) ms after unbind"
	fi
	echo "$DEV" > $D/bind
	if wait_current && [ "$(dd if=/dev/hwrng bs=64 count=1 2>/dev/null | wc -c)" -eq 64 ]; then
		result rebind PASS "$DEV bound again and readable"
	else
		result rebind FAIL "$DEV not readable after bind"
	fi
	;;
*)
	result variant FAIL "unknown variant '$VARIANT'"
	;;
esac
