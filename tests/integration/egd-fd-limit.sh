#!/usr/bin/env bash
# --egd-clients against the open-file limit: past it accept() fails and a
# newcomer waits behind idle connections the cap would have evicted. rngd
# raises its soft limit within the hard one (systemd's soft default is
# 1024, --egd-clients allows 4096), and where the hard limit is too low,
# lowers the cap to what fits, saying so.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard
command -v prlimit > /dev/null || { echo "SKIP: no prlimit"; exit 77; }
SOCK=$T/egd.sock

# run SOFT:HARD: rngd serving EGD with --egd-clients 4096 under that limit.
run() {
	RNGD_EXEC_PREFIX="prlimit --nofile=$1" start_rngd -x all -r /dev/urandom -o none \
		--egd-socket "$SOCK" --egd-clients 4096
	wait_log "egd: serving"
}

run 128:128
grep -q "warning: egd: --egd-clients 4096: the open-file limit (RLIMIT_NOFILE 128) leaves room for 64; at most 64 clients" "$T/log" ||
	fail "hard limit 128: no warning"
grep -q "egd: serving .*at most 64 clients" "$T/log" || fail "hard limit 128: the cap was not lowered"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"

run 128:8192
soft=$(awk '/^Max open files/ { print $4 }' "/proc/$RNGD_PID/limits")
[ "$soft" -ge $((4096 + 64)) ] || fail "soft limit $soft: not raised for 4096 clients"
grep -q "open-file limit" "$T/log" && fail "hard limit 8192: warned without cause"
grep -q "egd: serving .*at most 4096 clients" "$T/log" || fail "hard limit 8192: the cap changed"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
echo "ok: hard 128: 64 clients, said; hard 8192: soft raised to $soft, 4096 clients"
