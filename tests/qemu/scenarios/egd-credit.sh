#!/usr/bin/env bash
# Scenario egd-credit: the guest's credited bits against the
# host's credited bits for the bytes served through the EGD socket.
#
# The host's rngd (-o none, so everything that passes goes to its EGD
# reserve) runs with one source at a time: RDRAND only (credited 1/512 of
# a bit per bit) and an hwrng-like source (the hwrng source on the host's
# /dev/urandom, credited 0.5 as /dev/hwrng is, with a stand-in sysfs
# folder; never this machine's /dev/hwrng). The guest's virtio-rng reads
# it through QEMU's rng-egd; the guest (tests/qemu/guest/egd-credit.sh)
# reports its rng_quality Q and the bytes N it read from the device. From
# the host rngd's exit summary: M, bytes served to EGD clients, and R, the
# credited bits the reserve was made of ("condensed from R credited
# bits"). Every bound must hold:
#   N <= M            the guest cannot read more than was served
#   M * 8 <= R        served bytes <= credited bits / 8
#   N*8*Q/1024 <= R   what the guest credited for what it read (ratio <= 1)
#   M*8*Q/1024 <= R   every byte served, credited at Q (ratio <= 1)
# and R must not exceed what the gate credited the source's passing blocks.
# Negative control: the same guest and the same check against
# tests/integration/raw-egd-server.py, which serves RDRAND-credited
# blocks uncondensed (as the reserve did before the fix): the check must
# report a ratio above 1.
SCENARIO_NAME=egd-credit
. "$(dirname "$0")/../egd-host.sh"
RAW_SERVER=$top_srcdir/tests/integration/raw-egd-server.py
RAW_PID=
trap '[ -n "$RAW_PID" ] && kill "$RAW_PID" 2>/dev/null; stop_host; rm -rf "$scratch"' EXIT

# guest_boot VARIANT: one guest on rng-egd at $SOCK; sets G_Q and G_N from
# its guest-read line. Returns 1 if that line is missing or failed.
guest_boot() {
	local v=$1 out=$scratch/guest.$1.out
	"$qemu_dir/run-scenario" -s egd-credit -v "$v" -r "egd:$SOCK" -T 120 > "$out" || status=1
	cat "$out"
	G_Q=$(sed -n "s/^RESULT egd-credit guest-read-$v PASS rng_quality \([0-9]*\),.*/\1/p" "$out")
	G_N=$(sed -n "s/^RESULT egd-credit guest-read-$v PASS .*, bytes read \([0-9]*\) in .*/\1/p" "$out")
	[ -n "$G_Q" ] && [ -n "$G_N" ]
}

# ratio_check Q N M R: prints the figures on one line; 0 if every bound
# above holds.
ratio_check() {
	awk -v q="$1" -v n="$2" -v m="$3" -v r="$4" 'BEGIN {
		g = n * 8 * q / 1024; s = m * 8 * q / 1024
		ok = (r > 0 && n > 0 && n <= m && m * 8 <= r && g <= r && s <= r)
		if (r > 0)
			rg = sprintf("%.4f", g / r); else rg = "inf"
		if (r > 0)
			rs = sprintf("%.4f", s / r); else rs = "inf"
		printf "guest read %d B at rng_quality %d: %.0f bits credited; host served %d B (%d bits) from %d credited bits; guest/host %s, served-at-quality/host %s\n", n, q, g, m, m * 8, r, rg, rs
		exit !ok
	}'
}

# host_case NAME SOURCE [RNGD OPTIONS]: the host rngd with that one source,
# a guest reading it, then the checks.
host_case() {
	local name=$1 src=$2 log m r passed epb detail got=yes
	shift 2
	start_host_with -n "$src" "$@" || {
		echo "RESULT egd-credit ratio-$name FAIL host rngd did not start: $(tail -3 "$scratch/host.$HOST_RUNS.log" | tr '\n' '|')"
		status=1
		return
	}
	guest_boot "$name" || got=no
	stop_host
	log=$scratch/host.$HOST_RUNS.log
	m=$(host_served "$log")
	r=$(sed -n 's/.*egd: summary: sharing with sink .*condensed from \([0-9]*\) credited bits.*/\1/p' "$log" | tail -1)
	passed=$(sed -n "s/.*$src: summary: .*blocks passed \([0-9]*\),.*/\1/p" "$log" | tail -1)
	epb=$(sed -n "s/.*$src: opened.*, \([0-9.]*\) entropy bits per bit credited.*/\1/p" "$log" | head -1)
	if [ "$got" = no ] || [ -z "$m" ] || [ -z "$r" ]; then
		echo "RESULT egd-credit ratio-$name FAIL no figures: guest N '${G_N:-}' Q '${G_Q:-}', host served '$m', reserve credited '$r': $(tail -3 "$log" | tr '\n' '|')"
		status=1
		return
	fi
	if detail=$(ratio_check "$G_Q" "$G_N" "$m" "$r"); then
		echo "RESULT egd-credit ratio-$name PASS $detail"
	else
		echo "RESULT egd-credit ratio-$name FAIL $detail"
		status=1
	fi
	# The reserve holds no more credit than the gate gave the passing
	# blocks: FIPS_BLOCK_BITS each times entropy_per_bit (logged to 3 decimals).
	if [ -n "$passed" ] && [ -n "$epb" ] &&
		awk -v r="$r" -v p="$passed" -v e="$epb" -v b="$FIPS_BLOCK_BITS" 'BEGIN { exit !(r <= p * b * (e + 0.0005)) }'; then
		echo "RESULT egd-credit reserve-credit-$name PASS $r bits in the reserve <= $passed passing $src blocks x $FIPS_BLOCK_BITS x $epb"
	else
		echo "RESULT egd-credit reserve-credit-$name FAIL $r bits in the reserve, $src blocks passed '$passed' at entropy_per_bit '$epb'"
		status=1
	fi
	echo "BENCH egd-credit $name: $detail"
}

# 1. RDRAND only, forced to RDRAND even where RDSEED exists.
if grep -qw rdrand /proc/cpuinfo && [ "$("$HOST_RNGD" -l 2>/dev/null | awk '$1 == "rdrand" { print $2 }')" = yes ]; then
	host_case rdrand rdrand -O rdrand:instruction:rdrand
else
	echo "egd-credit: this host's CPU has no RDRAND (rngd -l: $("$HOST_RNGD" -l 2>/dev/null | grep '^rdrand' | tr -s ' ')): the RDRAND case is skipped" >&2
	echo "BENCH egd-credit rdrand: skipped, no RDRAND on this host"
fi

# 2. An hwrng-like source: the hwrng source on /dev/urandom, its sysfs and
# state folders stand-ins (rngd touches no real rng_quality).
mkdir -p "$scratch/sys" "$scratch/state"
host_case hwrng hwrng -O hwrng:device:/dev/urandom --hwrng-sysfs="$scratch/sys" --state-dir="$scratch/state"

# 3. Negative control: the raw server over-serves; the same check must fail.
rm -f "$SOCK"
FIPS_BLOCK_BYTES=$FIPS_BLOCK_BYTES python3 "$RAW_SERVER" "$SOCK" "$scratch/raw.summary" &
RAW_PID=$!
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.05; done
if [ ! -S "$SOCK" ]; then
	echo "RESULT egd-credit negative-control FAIL the raw EGD server did not start"
	status=1
else
	got=yes
	guest_boot raw || got=no
	kill -TERM "$RAW_PID"
	wait "$RAW_PID"
	RAW_PID=
	m=$(sed -n 's/.*bytes served \([0-9]*\),.*/\1/p' "$scratch/raw.summary" 2>/dev/null)
	r=$(sed -n 's/.*credited bits \([0-9]*\),.*/\1/p' "$scratch/raw.summary" 2>/dev/null)
	if [ "$got" = no ] || [ -z "$m" ] || [ -z "$r" ]; then
		echo "RESULT egd-credit negative-control FAIL no figures: guest N '${G_N:-}', raw server '$(cat "$scratch/raw.summary" 2>/dev/null)'"
		status=1
	elif detail=$(ratio_check "$G_Q" "$G_N" "$m" "$r"); then
		echo "RESULT egd-credit negative-control FAIL the check passed a server that serves raw blocks: $detail"
		status=1
	else
		echo "RESULT egd-credit negative-control PASS the check reports the over-serving raw server: $detail"
		echo "BENCH egd-credit raw (negative control): $detail"
	fi
fi
finish
