# Guest half of tests/qemu/scenarios/dubious-irqs.sh (kernel-patches
# 0002-0004, 0007-0008, IRQF_SAMPLE_DUBIOUS): the NIC's interrupt count from
# /proc/interrupts against the random core's counters under
# /proc/sys/kernel/random, while the host sends raw frames to the NIC.
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# Frames per second of the flood boot (rngd.flood_rate=, from the host).
FLOOD_RATE=$(boot_arg flood_rate)
if [ -z "$FLOOD_RATE" ]; then
	result settings FAIL "no rngd.flood_rate= on the kernel command line"
	exit 1
fi
R=/proc/sys/kernel/random
NIC=eth0
# A virtio-* boot has a virtio-net NIC, any other an e1000; MODE is the
# boot without the NIC's prefix. e1000 has one line, named after the
# interface; virtio-net one per virtqueue (virtio0-input.0, ...) with
# MSI-X, or the device's one shared line (virtio0) without; its
# configuration-change line (virtio0-config) is not the NIC's traffic and
# counts among the others.
MODE=${VARIANT#virtio-}
case $VARIANT in
virtio-*)
	NIC_LABEL=virtio-net
	NIC_IRQ_RE='^virtio[0-9]+(-input[.][0-9]+|-output[.][0-9]+|-virtqueues)?,?$'
	;;
*)
	NIC_LABEL=e1000
	NIC_IRQ_RE="^$NIC,?\$"
	;;
esac
# Interrupts of the NIC's lines, summed over lines and CPUs; -1 if it has
# none.
nic_irqs() {
	awk -v re="$NIC_IRQ_RE" '
		$1 ~ /^[0-9]+:$/ {
			for (i = 2; i <= NF; i++) if ($i ~ re) break
			if (i > NF) next
			found = 1
			for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		}
		END { print found ? s : -1 }' /proc/interrupts
}
# Interrupts of every other numbered line, summed over CPUs: each of them
# went through add_interrupt_randomness() (an upper bound: a spurious one
# is counted here without being mixed). The LAPIC timer and IPIs have no
# number and never reach the fast pool.
other_irqs() {
	awk -v re="$NIC_IRQ_RE" '
		$1 ~ /^[0-9]+:$/ {
			for (i = 2; i <= NF; i++) if ($i ~ re) next
			for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		}
		END { print s + 0 }' /proc/interrupts
}
counters() { echo "$(nic_irqs) $(cat $R/dubious_irqs_mixed) $(cat $R/irq_credit_bits_dubious) $(cat $R/irq_credit_bits_other) $(entropy_avail) $(other_irqs)"; }
# Let the host send frames for $1 s at $2 frames/s (default 400, 0: as
# fast as it can); returns once they have all arrived.
traffic() {
	host_helper --seconds "$1" --rate "${2:-400}"
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
[ "$MODE" = credit ] && want=1
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
if [ "$MODE" = flood ]; then
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
figures="in ${secs} s: $NIC_LABEL irqs +$dirq, other irqs +$doirq, entropy_avail +$dent (bound $bound), dubious_irqs_mixed +$dmixed, irq_credit_bits_dubious +$ddub, irq_credit_bits_other +$dother"
echo "$SCENARIO: $figures"
bench ${VARIANT}-figures "$figures"

if [ "$dirq" -ge 100 ]; then
	result nic-irqs PASS "+$dirq $NIC_LABEL ($NIC) interrupts while the host sent frames"
else
	result nic-irqs FAIL "only +$dirq $NIC_LABEL ($NIC) interrupts: the frames did not reach the guest"
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

case $MODE in
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
		result pool-credit-$VARIANT PASS "entropy_avail +$dent <= $bound from +$doirq other interrupts while +$dirq $NIC_LABEL interrupts came; equals irq_credit_bits_other +$dother"
	else
		result pool-credit-$VARIANT FAIL "entropy_avail +$dent, bound $bound from +$doirq other interrupts, irq_credit_bits_other +$dother, +$dirq $NIC_LABEL interrupts"
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
		result sysctl-switch PASS "credit_dubious_irqs=1 at run time: +$d2dub bits from +$d2mixed dubious interrupts (+$d2irq $NIC_LABEL irqs)"
	else
		result sysctl-switch FAIL "credit_dubious_irqs=1 at run time: +$d2dub bits from +$d2mixed dubious interrupts (+$d2irq $NIC_LABEL irqs)"
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
			result counters-after-ready PASS "pool ready ($out): dubious_irqs_mixed +$d3mixed for +$d3irq $NIC_LABEL interrupts"
		else
			result counters-after-ready FAIL "pool ready ($out): dubious_irqs_mixed +$d3mixed for +$d3irq $NIC_LABEL interrupts: the counters stopped"
		fi
	else
		result counters-after-ready FAIL "could not make the pool ready: $out"
	fi
fi
crng=$(crng_done_at)
echo "$SCENARIO: crng init done: ${crng:-not yet} (s)"
