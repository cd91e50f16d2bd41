#!/usr/bin/env bash
# Guest scenario for kernel-patches 0002-0004 (IRQF_SAMPLE_DUBIOUS): an e1000
# guest NIC on a QEMU dgram netdev bound to 127.0.0.1 receives raw Ethernet
# frames (EtherType 0x88B5, no IP) from tests/qemu/send-frames, and the guest
# compares its e1000 interrupt count from /proc/interrupts with the random
# core's counters under /proc/sys/kernel/random.
#
# Three boots, all before the pool is ready (random.trust_cpu=off
# random.trust_bootloader=off rng_core.default_quality=0, no virtio-rng, no
# rngd, nothing that blocks on randomness):
#   default: 400 frames/s: dubious_irqs_mixed follows the e1000 interrupts;
#            the pool's credit (entropy_avail, the input pool's credit
#            before it is ready) stays within what the other interrupts
#            can earn; the sysctl kernel.random.credit_dubious_irqs=1 at
#            run time makes irq_credit_bits_dubious grow; once the pool is
#            made ready (blocking getrandom), the counters go on.
#   flood:   frames as fast as the host sends them for 10 s with a trickle
#            of serial-port interrupts: the pool's credit stays within the
#            bound computed from the other interrupts (fails when a flood
#            forces a batch every 1024 interrupts, as patch v1 did).
#   credit:  sysctl.kernel.random.credit_dubious_irqs=1 on the command line
#            makes irq_credit_bits_dubious grow from the start.
# Prints the guest's RESULT lines; exit 0 if all pass, 1 if any fails or the
# guest never finishes, 77 if a prerequisite is missing.
#
# Environment: RNGD_QEMU_KERNEL or RNGD_GUEST_KERNEL (a bzImage; default:
# the one kernel-patches/build-kernel builds or has cached),
# QEMU_TIMEOUT (s per boot, default 240), KEEP_LOGS=1 keeps the temp dir.
set -euo pipefail

scenario=dubious-irqs
qemu_dir=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$qemu_dir/../.." && pwd)
timeout_s=${QEMU_TIMEOUT:-240}

skip() { echo "$scenario: SKIP: $*"; exit 77; }
die() { echo "$scenario: error: $*" >&2; exit 1; }

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 missing"
command -v python3 >/dev/null || skip "python3 missing (send-frames)"
[ -x "$qemu_dir/make-initramfs" ] || skip "tests/qemu/make-initramfs missing"
[ -f "$qemu_dir/guest/init" ] && [ -f "$qemu_dir/guest/lib.sh" ] ||
	skip "tests/qemu/guest/init or lib.sh missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/rngd-$scenario.XXXXXX")
cleanup() {
	[ -n "${qemu_pid:-}" ] && kill "$qemu_pid" 2>/dev/null || true
	if [ "${KEEP_LOGS:-0}" = 1 ]; then echo "$scenario: logs kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

kernel=${RNGD_QEMU_KERNEL:-${RNGD_GUEST_KERNEL:-}}
if [ -z "$kernel" ]; then
	kernel=$("$top/kernel-patches/build-kernel") || die "build-kernel failed"
fi
[ -f "$kernel" ] || die "no kernel image at $kernel"

# The guest half, run by the guest's /init (busybox sh) with lib.sh sourced.
mkdir -p "$work/guest"
cp "$qemu_dir/guest/init" "$qemu_dir/guest/lib.sh" "$work/guest/"
cat > "$work/guest/$scenario.sh" <<'GUEST'
R=/proc/sys/kernel/random
NIC=eth0
# Interrupts of the NIC's line, summed over CPUs; -1 if it has none.
nic_irqs() {
	awk -v nic="$NIC" '
		{ for (i = 2; i <= NF; i++) if ($i == nic || $i == nic ",") found = 1 }
		found { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s; exit }
		END { if (!found) print -1 }' /proc/interrupts
}
# Interrupts of every other numbered line, summed over CPUs: each of them
# went through add_interrupt_randomness() (an upper bound: a spurious one
# is counted here without being mixed). The LAPIC timer and IPIs have no
# number and never reach the fast pool.
other_irqs() {
	awk -v nic="$NIC" '
		$1 ~ /^[0-9]+:$/ {
			for (i = 2; i <= NF; i++) if ($i == nic || $i == nic ",") next
			for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		}
		END { print s + 0 }' /proc/interrupts
}
counters() { echo "$(nic_irqs) $(cat $R/dubious_irqs_mixed) $(cat $R/irq_credit_bits_dubious) $(cat $R/irq_credit_bits_other) $(entropy_avail) $(other_irqs)"; }
# Let the host send frames for $1 s at $2 frames/s (default 400, 0: as
# fast as it can); returns once they have all arrived.
traffic() {
	echo "HOST send-frames $1 ${2:-400}"
	sleep $(($1 + 2))
}
# A trickle of other interrupts: the serial port's, one short write every
# 200 ms (2-3 interrupts each). Without it a batch rarely holds any other
# interrupt, and a flood could not be seen to earn credit through them.
TRICKLE_PID=
start_trickle() {
	( while :; do echo .; sleep 0.2; done ) &
	TRICKLE_PID=$!
}
stop_trickle() {
	[ -n "$TRICKLE_PID" ] && kill $TRICKLE_PID 2>/dev/null
	wait $TRICKLE_PID 2>/dev/null
	TRICKLE_PID=
}
ceil_s() { awk -v a="$1" 'BEGIN { printf "%d", (a == int(a)) ? a : int(a) + 1 }'; }

if [ ! -r $R/dubious_irqs_mixed ]; then
	result counters FAIL "no $R/dubious_irqs_mixed: kernel without the IRQF_SAMPLE_DUBIOUS patches"
	exit 1
fi
if pool_ready; then
	result pre-ready FAIL "the pool was ready before the test: credit cannot be observed"
else
	result pre-ready PASS "pool not ready at $(uptime_s) s (getrandom EAGAIN)"
fi
if ip link set $NIC up && ip link set $NIC promisc on; then
	:
else
	result nic FAIL "cannot bring $NIC up"
	exit 1
fi
sleep 1

want=0
[ "$VARIANT" = credit ] && want=1
switch=$(cat $R/credit_dubious_irqs)
if [ "$switch" = "$want" ]; then
	result switch PASS "kernel.random.credit_dubious_irqs=$switch on a '$VARIANT' boot"
else
	result switch FAIL "kernel.random.credit_dubious_irqs=$switch, expected $want"
fi

case $VARIANT in
default)
	# One interface for the switch: the sysctl (and sysctl.* at boot).
	if [ -e /sys/module/random/parameters/credit_dubious_irqs ]; then
		result one-knob FAIL "a module parameter duplicates the sysctl: /sys/module/random/parameters/credit_dubious_irqs"
	else
		result one-knob PASS "the sysctl is the only switch (no module parameter)"
	fi
	# What this proves is the file mode: the VFS refuses the write before
	# the handler, which has no write path, is called.
	mode=$(stat -c %a $R/dubious_irqs_mixed 2>/dev/null)
	if [ "$mode" = 444 ] && ! (echo 0 > $R/dubious_irqs_mixed) 2>/dev/null; then
		result counters-mode PASS "dubious_irqs_mixed is mode 0444 and refuses writes"
	else
		result counters-mode FAIL "dubious_irqs_mixed mode '$mode', or a write succeeded"
	fi
	;;
esac

set -- $(counters)
irq0=$1 mixed0=$2 dub0=$3 other0=$4 ent0=$5 oirq0=$6
t0=$(uptime_s)
if [ "$VARIANT" = flood ]; then
	# Pre-ready, as fast as the host can send, with other interrupts
	# trickling in: the case in which a flood used to buy credit.
	start_trickle
	traffic 10 $FLOOD_RATE
else
	traffic 8
fi
set -- $(counters)
t1=$(uptime_s)
stop_trickle
irq1=$1 mixed1=$2 dub1=$3 other1=$4 ent1=$5 oirq1=$6
dirq=$((irq1 - irq0)) dmixed=$((mixed1 - mixed0)) ddub=$((dub1 - dub0)) dother=$((other1 - other0))
dent=$((ent1 - ent0)) doirq=$((oirq1 - oirq0))
secs=$(ceil_s "$(fsub "$t1" "$t0")")
# Credit the other interrupts can earn in $secs s: a bit per 64 of them,
# plus the one-bit minimum of each batch, at most one batch a second
# (+1 for the batch under way) unless 1024 other interrupts force one.
bound=$((doirq / 64 + secs + 1 + doirq / 1024))
figures="in ${secs} s: e1000 irqs +$dirq, other irqs +$doirq, entropy_avail +$dent (bound $bound), dubious_irqs_mixed +$dmixed, irq_credit_bits_dubious +$ddub, irq_credit_bits_other +$dother"
echo "$SCENARIO: $figures"
bench ${VARIANT}-figures "$figures"

if [ "$dirq" -ge 100 ]; then
	result e1000-irqs PASS "+$dirq $NIC interrupts while the host sent frames"
else
	result e1000-irqs FAIL "only +$dirq $NIC interrupts: the frames did not reach the guest"
fi
# The fast pool hands its counts over at most once a second (or per 1024
# interrupts), so the counter may lag the NIC by one batch, never lead it.
if [ "$dmixed" -gt 0 ] && [ $((dmixed * 2)) -ge "$dirq" ] && [ "$mixed1" -le "$irq1" ]; then
	result dubious-mixed PASS "$figures"
else
	result dubious-mixed FAIL "$figures"
fi
if pool_ready; then
	result still-pre-ready FAIL "the pool became ready during the traffic (entropy_avail $ent0 -> $ent1): credit ran away"
fi

case $VARIANT in
credit)
	if [ "$ddub" -gt 0 ] && [ "$ddub" -le "$dmixed" ]; then
		result dubious-credited PASS "sysctl.kernel.random.credit_dubious_irqs=1: +$ddub bits from +$dmixed dubious interrupts"
	else
		result dubious-credited FAIL "sysctl.kernel.random.credit_dubious_irqs=1: +$ddub bits from +$dmixed dubious interrupts"
	fi
	;;
default|flood)
	# The pool itself (entropy_avail is the input pool's credit before it
	# is ready) against what the other interrupts alone can earn.
	if [ "$dent" -le "$bound" ] && [ "$dent" -eq "$dother" ]; then
		result pool-credit-$VARIANT PASS "entropy_avail +$dent <= $bound from +$doirq other interrupts while +$dirq e1000 interrupts came; equals irq_credit_bits_other +$dother"
	else
		result pool-credit-$VARIANT FAIL "entropy_avail +$dent, bound $bound from +$doirq other interrupts, irq_credit_bits_other +$dother, +$dirq e1000 interrupts"
	fi
	;;
esac

if [ "$VARIANT" = default ]; then
	# The administrator's switch at run time.
	echo 1 > $R/credit_dubious_irqs
	set -- $(counters)
	irq2=$1 mixed2=$2 dub2=$3
	traffic 6
	set -- $(counters)
	echo 0 > $R/credit_dubious_irqs
	d2irq=$(($1 - irq2)) d2mixed=$(($2 - mixed2)) d2dub=$(($3 - dub2))
	if [ "$d2dub" -gt 0 ] && [ "$d2dub" -le "$d2mixed" ]; then
		result sysctl-switch PASS "credit_dubious_irqs=1 at run time: +$d2dub bits from +$d2mixed dubious interrupts (+$d2irq e1000 irqs)"
	else
		result sysctl-switch FAIL "credit_dubious_irqs=1 at run time: +$d2dub bits from +$d2mixed dubious interrupts (+$d2irq e1000 irqs)"
	fi
	# Once the pool is ready the counters must go on: make it ready the
	# way any blocking reader would (a read of /dev/random makes the
	# kernel seed itself from CPU jitter), on purpose, at the end.
	t=$(uptime_s)
	head -c 1 /dev/random > /dev/null
	out="ready after $(fsub "$(uptime_s)" "$t") s of blocking"
	if pool_ready; then
		set -- $(counters)
		irq3=$1 mixed3=$2
		traffic 4
		set -- $(counters)
		d3irq=$(($1 - irq3)) d3mixed=$(($2 - mixed3))
		if [ "$d3mixed" -gt 0 ] && [ $((d3mixed * 2)) -ge "$d3irq" ]; then
			result counters-after-ready PASS "pool ready ($out): dubious_irqs_mixed +$d3mixed for +$d3irq e1000 interrupts"
		else
			result counters-after-ready FAIL "pool ready ($out): dubious_irqs_mixed +$d3mixed for +$d3irq e1000 interrupts: the counters stopped"
		fi
	else
		result counters-after-ready FAIL "could not make the pool ready: $out"
	fi
fi
crng=$(crng_done_at)
echo "$SCENARIO: crng init done: ${crng:-not yet} (s)"
GUEST
# Frames per second of the flood boot. As fast as the host can send (0)
# yields fewer interrupts than a paced stream: e1000 and NAPI then poll
# many frames per interrupt. DUBIOUS_FLOOD_RATE=0 sends flat out.
sed -i "1i FLOOD_RATE=${DUBIOUS_FLOOD_RATE:-8000}" "$work/guest/$scenario.sh"

getrandom_bin=$work/guest-getrandom
cc -O2 -static -o "$getrandom_bin" "$qemu_dir/guest-getrandom.c" ||
	die "cannot build tests/qemu/guest-getrandom.c statically"
"$qemu_dir/make-initramfs" -o "$work/initrd.gz" -g "$work/guest" -p "$getrandom_bin" 2>/dev/null ||
	die "make-initramfs failed"

# Two free loopback UDP ports: QEMU listens on the first, frames come from
# the second.
read -r port_guest port_host < <(python3 -c '
import socket
socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')

failures=0
# boot <variant> <extra kernel arguments>
boot() {
	local variant=$1 extra=$2 log=$work/$1.log handled=0 line n status
	: > "$log"
	timeout "$timeout_s" qemu-system-x86_64 -accel tcg -cpu qemu64,-rdrand,-rdseed -m 256 -smp 1 \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$kernel" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 quiet rngd.scenario=$scenario rngd.variant=$variant random.trust_cpu=off random.trust_bootloader=off rng_core.default_quality=0 $extra" \
		-netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$port_guest,remote.type=inet,remote.host=127.0.0.1,remote.port=$port_host" \
		-device e1000,netdev=n0 </dev/null >"$log" 2>&1 &
	qemu_pid=$!
	while kill -0 "$qemu_pid" 2>/dev/null; do
		# Every "HOST send-frames N R" line asks for N seconds of frames
		# at R a second (0: as fast as the host can send).
		n=$({ grep -oE 'HOST send-frames [0-9]+ [0-9]+' "$log" || true; } | wc -l)
		while [ "$handled" -lt "$n" ]; do
			handled=$((handled + 1))
			line=$(grep -oE 'HOST send-frames [0-9]+ [0-9]+' "$log" | sed -n "${handled}p")
			set -- $line
			"$qemu_dir/send-frames" --port "$port_guest" --bind-port "$port_host" \
				--seconds "$3" --rate "$4" >>"$work/send-frames.log" || true
		done
		sleep 0.2
	done
	status=0
	wait "$qemu_pid" || status=$?
	qemu_pid=
	tr -d '\r' < "$log" | grep -oE "(RESULT|BENCH|$scenario:) .*" || true
	[ -f "$work/send-frames.log" ] && sed 's/^/  host: /' "$work/send-frames.log" && rm -f "$work/send-frames.log"
	if ! tr -d '\r' < "$log" | grep -q '^DONE'; then
		echo "RESULT $scenario $variant-boot FAIL guest did not finish (qemu status $status); last lines:"
		tr -d '\r' < "$log" | tail -n 15 | sed 's/^/  | /'
		failures=$((failures + 1))
	fi
	if tr -d '\r' < "$log" | grep -q "RESULT $scenario [^ ]* FAIL"; then
		failures=$((failures + 1))
	fi
	if ! tr -d '\r' < "$log" | grep -q "RESULT $scenario [^ ]* PASS"; then
		failures=$((failures + 1))
	fi
}

for b in ${DUBIOUS_BOOTS:-default flood credit}; do
	case $b in
	default|flood) boot "$b" "${BOOT_EXTRA:-}" ;;
	credit) boot credit "sysctl.kernel.random.credit_dubious_irqs=1 ${BOOT_EXTRA:-}" ;;
	*) die "unknown boot '$b' in DUBIOUS_BOOTS" ;;
	esac
done

if [ "$failures" -gt 0 ]; then
	echo "$scenario: FAIL"
	exit 1
fi
echo "$scenario: PASS"
