# shellcheck shell=bash
# Sourced by tests/qemu/scenarios/egd-*.sh: the host's rngd serving an EGD socket
# (-o none) under guard.sh, for a guest whose virtio-rng uses rng-egd.
. "$(dirname "${BASH_SOURCE[0]}")/scenarios/common.sh"
: "${top_builddir:?run from make check-qemu}" "${top_srcdir:?run from make check-qemu}"
HOST_RNGD=$top_builddir/rngd/rngd
GUARD=$top_srcdir/tests/integration/guard.sh
. "$top_srcdir/tests/lib/fips-constants.sh"
SOCK=$scratch/egd.sock
HOST_PID= HOST_JOB= HOST_RUNS=0
[ -x "$HOST_RNGD" ] || { echo "RESULT ${SCENARIO_NAME:-egd} host-rngd FAIL $HOST_RNGD not built"; exit 1; }
"$GUARD" -- true 2>/dev/null
[ $? = 77 ] && { echo "egd scenarios need root and unshare -m for guard.sh; skipping" >&2; exit 77; }

# start_host SOURCE [RNGD OPTIONS]: rngd -o none serving $SOCK from a
# file source credited 1 bit per bit; its log goes to $scratch/host.N.log.
start_host() {
	local src=$1
	shift
	start_host_with -r "$src" -O file:entropy_per_bit:1 "$@"
}
# start_host_with RNGD OPTIONS: rngd -f -c /dev/null -x all -o none serving
# $SOCK, with the sources and options given.
start_host_with() {
	HOST_RUNS=$((HOST_RUNS + 1))
	rm -f "$scratch/host.pid"
	"$GUARD" -p "$scratch/host.pid" -- "$HOST_RNGD" -f -c /dev/null -x all \
		-o none --egd-socket "$SOCK" --egd-socket-mode 0600 "$@" \
		2> "$scratch/host.$HOST_RUNS.log" &
	HOST_JOB=$!
	for _ in $(seq 100); do
		[ -s "$scratch/host.pid" ] && grep -q "serving $SOCK" "$scratch/host.$HOST_RUNS.log" && break
		sleep 0.05
	done
	HOST_PID=$(cat "$scratch/host.pid" 2>/dev/null)
	[ -n "$HOST_PID" ] && [ -S "$SOCK" ] || { echo "host rngd did not start: $(tail -3 "$scratch/host.$HOST_RUNS.log")" >&2; return 1; }
}
stop_host() {
	[ -n "$HOST_PID" ] || return 0
	kill -TERM "$HOST_PID" 2>/dev/null
	wait "$HOST_JOB"
	HOST_RC=$?
	HOST_PID= HOST_JOB=
}
# host_served LOG: bytes served from the exit summary of one host run.
host_served() {
	grep -E "egd: summary: .*clients connected" "$1" | tail -1 | sed -n 's/.*bytes served \([0-9]*\).*/\1/p'
}
trap 'stop_host; rm -rf "$scratch"' EXIT
