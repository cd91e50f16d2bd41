#!/usr/bin/env bash
# The default command lines and config files of Fedora/RHEL, openSUSE,
# Yocto and Debian (tests/compat/shipped.txt, with where each comes from)
# start this rngd as written. /dev/hwrng is a stand-in character device
# (/dev/urandom bound over it by guard.sh -H): each case must read it once,
# as the hwrng source, and feed only gated bytes, credited at the hwrng
# source's own 0.5 (a peer's default of 8 bits a byte never applies).
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
FETCH=$top_srcdir/tests/compat/peer-fetch.sh
debian=$("$FETCH" rng-tools-debian) || fail "cannot fetch rng-tools-debian"
abs_rngd=$(cd "$(dirname "$RNGD")" && pwd)/rngd

# run_case NAME PERSONALITY ARGS...: start, check, stop.
run_case() {
	local name=$1 personality=$2 prog=$abs_rngd
	shift 2
	case $personality in
	debian) ln -sf "$abs_rngd" "$T/rngd-debian"; prog=$T/rngd-debian ;;
	rng-tools5) ln -sf "$abs_rngd" "$T/rngd5"; prog=$T/rngd5 ;;
	esac
	rm -f "$T/pid" "$T/sink"
	"$GUARD" -H /dev/urandom -p "$T/pid" -- "$prog" "$@" -f -o "$T/sink" --config=/dev/null \
		--hwrng-sysfs="$T/sysfs" > "$T/out" 2> "$T/log" &
	GUARD_JOB=$!
	for _ in $(seq 100); do [ -s "$T/pid" ] && break; sleep 0.05; done
	[ -s "$T/pid" ] || fail "$name: rngd did not start: $(cat "$T/log")"
	RNGD_PID=$(cat "$T/pid")
	wait_log "hwrng: opened /dev/hwrng"
	for _ in $(seq 200); do [ "$(stat -c %s "$T/sink" 2>/dev/null || echo 0)" -ge 25000 ] && break; sleep 0.05; done
	stop_rngd TERM
	[ "$RC" = 0 ] || fail "$name: rngd exited $RC"
	[ "$(grep -c "opened /dev/hwrng" "$T/log")" = 1 ] || fail "$name: /dev/hwrng opened $(grep -c "opened /dev/hwrng" "$T/log") times"
	! grep -qE "^[^ ]* ?[a-z]*: file[.0-9]*: opened" "$T/log" || fail "$name: a file source read too"
	! grep -q "file: opened" "$T/log" || fail "$name: a file source read too"
	size=$(stat -c %s "$T/sink")
	to_sink=$(summary_field hwrng "bytes to sink")
	passed=$(summary_field hwrng "blocks passed")
	credited=$(summary_field hwrng "bits credited")
	[ "$size" -ge 25000 ] || fail "$name: only $size bytes fed"
	[ $((size % BLOCK)) = 0 ] || fail "$name: the sink holds a partial block"
	written=$(grep -E "notice: rngd: summary: sink file:" "$T/log" | grep -oE "bytes written [0-9]+" | awk '{print $NF}')
	[ "$written" = "$size" ] || fail "$name: the sink holds $size bytes, rngd says it wrote $written"
	total=0
	for src in $(grep -oE "notice: [a-z0-9.]+: summary: active" "$T/log" | awk '{print $2}' | tr -d :); do
		s_sink=$(summary_field "$src" "bytes to sink")
		s_passed=$(summary_field "$src" "blocks passed")
		[ $((s_sink / BLOCK)) -le "$s_passed" ] || fail "$name: $src fed more blocks than passed the gate"
		total=$((total + s_sink))
	done
	[ "$total" = "$size" ] || fail "$name: sources fed $total bytes, the sink holds $size"
	[ $((to_sink / BLOCK)) -le "$passed" ] || fail "$name: more blocks fed than passed the gate"
	[ "$credited" = $((to_sink * 8 / 2)) ] || fail "$name: $credited bits credited for $to_sink bytes, expected hwrng's 0.5 per bit"
	! grep -q "earns" "$T/log" || fail "$name: a credit changed: $(grep earns "$T/log")"
	echo "ok: $name: /dev/hwrng read once, $((to_sink / BLOCK)) gated blocks fed, $credited bits"
}

mkdir -p "$T/sysfs"
cases=0
while IFS='|' read -r name personality args; do
	case $name in ''|'#'*) continue ;; esac
	args=${args//@PEER@/$debian}
	# shellcheck disable=SC2086 # split as the unit's $RNGD_ARGS is
	run_case "$name" "$personality" $args
	cases=$((cases + 1))
done < "$top_srcdir/tests/compat/shipped.txt"
[ "$cases" -ge 6 ] || fail "only $cases cases in shipped.txt"

# Debian's file with its examples on: HRNGSELECT reaches rng_current before
# the device is read; RNGDOPTIONS are taken; the file is never run.
echo "none" > "$T/sysfs/rng_current"
export RNGD_TEST_DIR=$T
run_case debian-active debian --defaults-file="$top_srcdir/tests/compat/rng-tools-debian.active"
[ "$(cat "$T/sysfs/rng_current")" = virtio_rng.0 ] || fail "HRNGSELECT not written: $(cat "$T/sysfs/rng_current")"
sel=$(grep -n "HRNGSELECT: virtio_rng.0 written" "$T/log" | cut -d: -f1)
opened=$(grep -n "opened /dev/hwrng" "$T/log" | cut -d: -f1)
[ -n "$sel" ] && [ "$sel" -lt "$opened" ] || fail "HRNGSELECT was not written before /dev/hwrng was opened"
grep -q "fill-watermark 90%: 3686 bits" "$T/log" || fail "RNGDOPTIONS' --fill-watermark=90% not taken"
grep -q "not a variable assignment, not run" "$T/log" || fail "the command line in the file was not noted"
[ ! -e "$T/executed" ] || fail "the defaults file was executed"
# A value needing the shell is refused with one line, exit 2.
printf 'RNGDOPTIONS="$(id)"\n' > "$T/bad.default"
"$GUARD" -- "$RNGD" --defaults-file="$T/bad.default" --config=/dev/null > /dev/null 2> "$T/err"
[ $? = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q "bad.default:1: RNGDOPTIONS: needs the shell" "$T/err" ||
	fail "a value needing the shell: $(cat "$T/err")"
echo "ok: $((cases + 1)) shipped configurations"
