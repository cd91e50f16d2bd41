#!/usr/bin/env bash
# make check-long-tsan: the daemon's threaded unit tests built with
# ThreadSanitizer, then the integration scripts that start threads in rngd
# against a TSan build of rngd (through daemon-lib.sh's DAEMON_RNGD).
# Any TSan report fails the run: halt_on_error makes the reporting process
# exit 66 (which fails the test that ran it), and every report is also
# written under $W/reports, which must stay empty whatever the tests said.
#   run-tsan.sh --units 'PROGRAMS' --scripts 'SCRIPTS'
# TSAN_SCRIPTS / TSAN_UNITS in the environment narrow the run.
set -u
: "${top_builddir:?run from make check-long-tsan}" "${top_srcdir:?run from make check-long-tsan}"
units= scripts=
while [ $# -gt 0 ]; do
	case $1 in
	--units) units=$2; shift 2 ;;
	--scripts) scripts=$2; shift 2 ;;
	*) echo "run-tsan.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
units=${TSAN_UNITS:-$units}
scripts=${TSAN_SCRIPTS:-$scripts}

W=$(mktemp -d "${TMPDIR:-/tmp}/rngd-tsan.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/reports" "$W/bin" "$W/real"
# Some scripts run rngd as nobody (-l, unreadable files): the wrapper must
# be theirs to run, and nobody's reports theirs to write.
chmod 755 "$W" "$W/bin" "$W/real"
chmod 1777 "$W/reports"
# No blanket suppressions: tests/tsan/tsan.supp names single functions
# outside rngd, each with the reason. atexit_sleep_ms: the runtime waits
# this long in exit() for late races (a reader left inside a source call);
# its default 1 s would break the scripts' 1 s exit bounds.
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:atexit_sleep_ms=200:log_path=$W/reports/tsan:suppressions=$top_srcdir/tests/tsan/tsan.supp"

# The scripts find rngd by name (pgrep -x rngd): the wrapper and the binary
# it runs are both called rngd; exec keeps the pid guard.sh wrote.
ln -s "$top_builddir/tests/tsan/rngd_tsan" "$W/real/rngd"
cat > "$W/bin/rngd" <<WRAP
#!/bin/sh
export TSAN_OPTIONS="$TSAN_OPTIONS"
exec "$W/real/rngd" "\$@"
WRAP
ln -s "$top_builddir/tests/tsan/rngd_mockkernel_tsan" "$W/real/rngd-mockkernel"
chmod 755 "$W/bin/rngd"

failed=0 passed=0 skipped=0 start=$SECONDS

reports() { find "$W/reports" -type f 2>/dev/null | wc -l; }

# verdict NAME RC SECONDS [TOLERATED]: one line per test; a report fails it
# whatever its exit status.
verdict() {
	local name=$1 rc=$2 secs=$3 n
	n=$(reports)
	if [ "$n" -gt 0 ]; then
		echo "FAIL: $name: $n ThreadSanitizer report(s) (${secs} s):"
		cat "$W"/reports/* | sed 's/^/    /'
		rm -f "$W"/reports/*
		failed=$((failed + 1))
	elif [ "$rc" = 0 ]; then
		echo "PASS: $name (${secs} s)"; passed=$((passed + 1))
	elif [ "$rc" = 77 ]; then
		echo "SKIP: $name (${secs} s)"; skipped=$((skipped + 1))
	else
		echo "FAIL: $name: exit $rc (${secs} s); its output:"
		sed 's/^/    /' "$W/out" | tail -40
		failed=$((failed + 1))
	fi
}

for u in $units; do
	t0=$SECONDS
	"$top_builddir/$u" > "$W/out" 2>&1
	verdict "$u" $? $((SECONDS - t0))
done

for s in $scripts; do
	t0=$SECONDS
	# WAIT_STATE_SECONDS: the states are reached and held, 3 s is enough
	# for races; their cost bounds do not hold under TSan (its runtime
	# thread wakes ten times a second, every access costs 5-15 times more),
	# so a bound failure alone is not one here: every other one is.
	DAEMON_RNGD="$W/bin/rngd" DAEMON_MOCKKERNEL="$W/real/rngd-mockkernel" WAIT_STATE_SECONDS=3 \
		"${BASH:-bash}" "$top_srcdir/$s" > "$W/out" 2>&1
	rc=$?
	if [ "$rc" = 1 ] && [ "${s##*/}" = wait-states.sh ] && grep -q '^FAIL: ' "$W/out" &&
	   ! grep '^FAIL: ' "$W/out" | grep -vqE 'wake-ups a minute \(bound|% of a core while waiting'; then
		grep '^FAIL: ' "$W/out" | sed 's/^FAIL/    cost bound not checked under TSan/'
		rc=0
	fi
	verdict "$s" "$rc" $((SECONDS - t0))
done

echo "check-long-tsan: $passed passed, $skipped skipped, $failed failed in $((SECONDS - start)) s"
[ "$failed" = 0 ]
