# Scenario idle-peers: what waiting costs once the kernel's pool is ready,
# deps-lint: guest (runs inside the QEMU guest: commands come from its image)
# on a real kernel. rngd as shipped (default sources, kernel sink, top-up
# every 60 s) and then, when tests/qemu/check-qemu could fetch it, Debian's
# jitterentropy-rngd, each alone in this guest: after a settle, over
# $span s (the variant, default 60: one top-up period), CPU time of all
# threads (/proc/PID/stat utime + stime, in ms a minute), wake-ups
# (voluntary context switches summed over /proc/PID/task/*/status: each is
# a thread going back to sleep, a minute) and VmHWM. rngd must stay under
# 1 % of a core and within 30 wake-ups a minute (the bound
# tests/integration/wait-states.sh sets for the states that are not a
# back-off); jitterentropy-rngd's figures are printed beside rngd's, never
# judged. It writes /dev/random itself, so it runs only in this guest.
need_rngd || return 0
span=${VARIANT:-60}
settle=5
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)

ticks() { awk '{ print $14 + $15 }' /proc/$1/stat 2>/dev/null; }
wakes() { cat /proc/$1/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'; }
# idle_figures PID: "CPU_MS_PER_MIN WAKEUPS_PER_MIN VMHWM_KB SECONDS" over $span s.
idle_figures() {
	local c0 w0 t0 c1 w1 t1
	c0=$(ticks $1) w0=$(wakes $1) t0=$(uptime_s)
	sleep $span
	c1=$(ticks $1) w1=$(wakes $1) t1=$(uptime_s)
	[ -n "$c0" ] && [ -n "$c1" ] || return 1
	awk -v c=$((c1 - c0)) -v w=$((w1 - w0)) -v hz="$hz" -v s="$(fsub "$t1" "$t0")" \
		-v m="$(awk '/^VmHWM/ { print $2 }' /proc/$1/status)" \
		'BEGIN { if (s <= 0) s = 1e-9; printf "%.0f %.1f %d %.1f", c * 1000 / hz * 60 / s, w * 60 / s, m, s }'
}

i=0
while ! pool_ready && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
if ! pool_ready; then
	result pool-ready FAIL "the pool is not ready 30 s after boot: nothing to measure idle against"
	return 0
fi

start_rngd
sleep $settle
if ! rngd_alive; then
	result rngd-running FAIL "rngd exited: $(tail -n 3 $RNGD_LOG | tr '\n' '|')"
	return 0
fi
if figures=$(idle_figures $RNGD_PID); then
	set -- $figures
	bench rngd "rngd idle, pool ready, defaults: $1 CPU ms/min, $2 wake-ups/min, VmHWM $3 kB (over $4 s)"
	if awk -v c="$1" -v w="$2" 'BEGIN { exit !(c < 600 && w <= 30) }'; then
		result rngd-idle PASS "$1 CPU ms/min (< 600: 1 % of a core), $2 wake-ups/min (<= 30), VmHWM $3 kB over $4 s"
	else
		result rngd-idle FAIL "$1 CPU ms/min (< 600: 1 % of a core), $2 wake-ups/min (<= 30), VmHWM $3 kB over $4 s"
	fi
else
	result rngd-idle FAIL "rngd's /proc entries vanished while measuring"
fi
stop_rngd
check_clean_exit

if [ ! -x /usr/sbin/jitterentropy-rngd ]; then
	bench jitterentropy-rngd "not measured: not in the initramfs (tests/qemu/fetch-peer-jitterentropy could not fetch it)"
	return 0
fi
rm -f /run/jent.pid
# It seeds the pool with 256 bits, then daemonises and writes its pid.
jitterentropy-rngd -p /run/jent.pid > /run/jent.log 2>&1
i=0
while [ ! -s /run/jent.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
jpid=$(cat /run/jent.pid 2>/dev/null)
if [ -z "$jpid" ] || ! kill -0 "$jpid" 2>/dev/null; then
	bench jitterentropy-rngd "not measured: it did not start ($(tail -n 2 /run/jent.log | tr '\n' '|'))"
	return 0
fi
sleep $settle
if figures=$(idle_figures $jpid); then
	set -- $figures
	bench jitterentropy-rngd "jitterentropy-rngd idle, pool ready, defaults: $1 CPU ms/min, $2 wake-ups/min, VmHWM $3 kB (over $4 s)"
else
	bench jitterentropy-rngd "not measured: it exited while measured"
fi
kill -TERM "$jpid" 2>/dev/null
