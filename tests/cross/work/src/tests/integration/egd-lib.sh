# Shared by tests/integration/egd-*.sh (sourced, not run): the daemon
# tests' helpers (guard.sh around every rngd) plus the EGD client.
. "$top_srcdir/tests/integration/daemon-lib.sh"
EGD_CLIENT=$top_builddir/tests/integration/egd-client
SOCK=$T/egd.sock

# wait_socket [SECONDS]: until rngd listens on $SOCK.
wait_socket() {
	local deadline=$(( $(date +%s) + ${1:-20} ))
	until [ -S "$SOCK" ] && "$EGD_CLIENT" "$SOCK" level > /dev/null 2>&1; do
		[ "$(date +%s)" -gt "$deadline" ] && fail "rngd did not listen on $SOCK within ${1:-20} s"
		kill -0 "$RNGD_PID" 2>/dev/null || fail "rngd died before listening on $SOCK"
		sleep 0.05
	done
}

# egd_field NAME: a number from the last EGD stats line of the log.
egd_field() {
	grep -E "egd: (stats|summary): " "$T/log" | grep -E "clients connected" | tail -1 |
		grep -oE "$1 [0-9]+" | head -1 | awk '{print $NF}'
}
