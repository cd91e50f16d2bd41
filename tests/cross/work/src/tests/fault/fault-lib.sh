# Shared by tests/fault/*.sh (sourced): daemon-lib.sh's guarded rngd, run
# through a wrapper that preloads the fault shim (tests/fault/faultshim.c).
# Set FAULT_* in the environment before start_rngd.
. "$top_srcdir/tests/integration/daemon-lib.sh"
SHIM=$top_builddir/tests/fault/faultshim.so
CHECK=$top_builddir/tests/fault/faultcheck
[ -f "$SHIM" ] || fail "no $SHIM (make check builds it)"
# FAULT_RNGD: another build of rngd (check-long runs an ASan one; ASan
# must accept a preloaded library ahead of its runtime).
real_rngd=${FAULT_RNGD:-$RNGD}
RNGD=$T/rngd-with-faults
cat > "$RNGD" <<WRAP
#!/bin/sh
# use_sigaltstack=0: GCC's ASan reports a false stack-buffer-overflow in
# sigaltstack when a thread cancelled in a syscall exits
# (github.com/google/sanitizers/issues/1399).
ASAN_OPTIONS=verify_asan_link_order=0:use_sigaltstack=0:abort_on_error=1:detect_leaks=1 \\
LSAN_OPTIONS=suppressions="$top_srcdir/tests/fault/lsan.supp" \\
	exec env LD_PRELOAD="$SHIM" "$real_rngd" "\$@"
WRAP
chmod +x "$RNGD"

# fault_count KIND: faults of KIND the shim logged to $FAULT_LOG.
fault_count() {
	grep -c ": $1\$" "$FAULT_LOG" 2>/dev/null || true
}

# wait_size FILE BYTES [SECONDS]
wait_size() {
	local deadline=$(( $(date +%s) + ${3:-20} ))
	while [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "$1 did not reach $2 bytes within ${3:-20} s"
		sleep 0.05
	done
}

# wait_quiet FILE: until FILE has stopped growing for 0.6 s (30 s at most).
wait_quiet() {
	local last=-1 same=0 size deadline=$(( $(date +%s) + 30 ))
	while [ $same -lt 3 ]; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "$1 kept growing for 30 s"
		size=$(stat -c %s "$1" 2>/dev/null || echo 0)
		if [ "$size" = "$last" ]; then same=$((same + 1)); else same=0; last=$size; fi
		sleep 0.2
	done
}

# expect_clean_exit WHAT: the last stop_rngd saw exit 0, no crash, a summary.
expect_clean_exit() {
	[ "$RC" = 0 ] || fail "rngd exited $RC ($1)"
	grep -qE "AddressSanitizer|LeakSanitizer|runtime error|Segmentation|Aborted" "$T/log" && fail "rngd crashed ($1)"
	grep -q "notice: rngd: summary:" "$T/log" || fail "no exit summary ($1)"
	return 0
}
