#!/usr/bin/env bash
# make check: cross-build rngd, rngtest and the unit tests for
# arm64 and 64-bit POWER with Debian's cross compilers and multiarch
# libraries, and run them under qemu-user on a CPU with the instruction
# source and one without:
#   - every unit test passes, with the same number of tests as on this
#     machine (the gate's tests and the sources' fake-instruction tests);
#   - rngtest counts the same results as this machine's rngtest for the
#     same input files (the gate is endianness- and word-size-independent);
#   - rngd -l says the CPU source is usable, or why not;
#   - rngd -f -x all -n SOURCE -o FILE (under guard.sh) writes only blocks
#     that pass the gate, and on the CPU without the instruction refuses
#     with the reason.
# CROSS_ARCHES="aarch64" limits the run. Exit 77 only without root and
# without the packages (tools/install-deps installs them).
set -u
: "${top_builddir:?run from make check}" "${top_srcdir:?run from make check}"
top_builddir=$(cd "$top_builddir" && pwd)
GUARD=$top_srcdir/tests/integration/guard.sh
. "$top_srcdir/tests/lib/fips-constants.sh"
HELPER=$top_builddir/tests/integration/daemon-helper
GEN=$top_builddir/tests/integration/gen-input
W=$top_builddir/tests/cross/work
ARCHES=${CROSS_ARCHES:-aarch64 powerpc64le}
UNIT_TESTS="tests/unit/test_fips_edges tests/unit/test_fips_gate tests/unit/test_fips_cutoffs
	tests/unit/test_fips_kat tests/unit/test_source_rndr tests/unit/test_source_darn
	tests/unit/test_source_rdrand tests/unit/test_source_padlock"
PROGRAMS="rngd/rngd rngtest tests/reference/test_fips_differential $UNIT_TESTS"
T=$(mktemp -d "${TMPDIR:-/tmp}/rngd-cross.XXXXXX")
RNGD_PID=
GUARD_JOB=

cleanup() {
	[ -n "$RNGD_PID" ] && kill -KILL "$RNGD_PID" 2>/dev/null
	[ -n "$GUARD_JOB" ] && wait "$GUARD_JOB" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	[ -f "$T/log" ] && { echo "--- last rngd log" >&2; tail -20 "$T/log" >&2; }
	exit 1
}

triplet_of() {
	case $1 in
	aarch64) echo aarch64-linux-gnu ;;
	powerpc64le) echo powerpc64le-linux-gnu ;;
	esac
}
qemu_of() {
	case $1 in
	aarch64) echo qemu-aarch64 ;;
	powerpc64le) echo qemu-ppc64le ;;
	esac
}
# The CPU with the source's instruction, then one without.
cpus_of() {
	case $1 in
	aarch64) echo "max cortex-a57" ;;
	powerpc64le) echo "power9 power8" ;;
	esac
}
source_of() {
	case $1 in
	aarch64) echo rndr ;;
	powerpc64le) echo darn ;;
	esac
}

# ---- tools ----------------------------------------------------------------
missing=
for arch in $ARCHES; do
	triplet=$(triplet_of "$arch")
	command -v "$triplet-gcc" >/dev/null || missing="$missing $triplet-gcc"
	qemu=$(qemu_of "$arch")
	command -v "$qemu" >/dev/null || missing="$missing $qemu"
	for pc in cmocka; do
		[ -f "/usr/lib/$triplet/pkgconfig/$pc.pc" ] || missing="$missing $pc:$triplet"
	done
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] && fail "missing:$missing (run tools/install-deps)"
	echo "SKIP: missing:$missing (tools/install-deps installs them as root)"
	exit 77
fi
for p in "$HELPER" "$GEN" "$top_builddir/rngtest"; do
	[ -x "$p" ] || fail "no $p: build the native tree first"
done

# ---- 1. Build ----------------------------------------------------------------
# A clean copy of the distributed sources (the tree itself may be configured
# in place, which rules out a VPATH build); cp -p keeps mtimes, so a re-run
# rebuilds only what changed.
mkdir -p "$W"
make -s -C "$top_builddir" distdir distdir="$W/src" > "$T/distdir.log" 2>&1 ||
	{ cat "$T/distdir.log" >&2; fail "make distdir"; }
for arch in $ARCHES; do
	triplet=$(triplet_of "$arch")
	B=$W/build-$arch
	mkdir -p "$B"
	if [ ! -f "$B/config.status" ] || [ "$B/config.status" -ot "$W/src/configure" ]; then
		(cd "$B" && "$W/src/configure" --host="$triplet" \
			--disable-tpm --disable-tpm2 --disable-sysstat --disable-systemd --disable-pkcs11 \
			PKG_CONFIG=pkg-config PKG_CONFIG_LIBDIR="/usr/lib/$triplet/pkgconfig:/usr/share/pkgconfig") \
			> "$B/configure.out" 2>&1 || { tail -30 "$B/configure.out" >&2; fail "$arch: configure"; }
	fi
	grep -q "CPU instruction sources: *$(source_of "$arch")\$" "$B/configure.out" ||
		fail "$arch: configure summary does not list $(source_of "$arch"): $(grep 'CPU instruction' "$B/configure.out")"
	make -C "$B" -j2 $PROGRAMS > "$B/make.out" 2>&1 || { tail -30 "$B/make.out" >&2; fail "$arch: build"; }
	file_out=$(od -An -tx1 -j18 -N2 "$B/rngd/rngd" | tr -d ' ')
	case $arch:$file_out in
	aarch64:b700|powerpc64le:1500) ;;
	*) fail "$arch: rngd/rngd is not an $arch ELF (e_machine $file_out)" ;;
	esac
	echo "ok: $arch: built ($(grep 'CPU instruction' "$B/configure.out" | sed 's/^ *//'))"
done

# ---- 2. Inputs for the gate comparison ----------------------------------------
blocks300=$(( 4 + 300 * FIPS_BLOCK_BYTES ))
blocks200=$(( 4 + 200 * FIPS_BLOCK_BYTES ))
blocks100=$(( 4 + 100 * FIPS_BLOCK_BYTES ))
"$GEN" -s 17 random "$blocks300" > "$T/in.random" || fail "gen-input"
"$GEN" -s 17 biased=502000 "$blocks200" > "$T/in.biased"
"$GEN" -s 17 markov=518000 "$blocks200" > "$T/in.markov"
"$GEN" -s 17 runs "$blocks100" > "$T/in.runs"
"$GEN" -s 17 -P 7 repeat "$blocks100" > "$T/in.repeat"
"$GEN" -s 17 -P 5 zeroblocks "$blocks100" > "$T/in.zeroblocks"
# The counts only: speeds and run time differ by nature.
counts_only() {
	grep -vE 'speed|run time|^rngtest \(|free software|warranty'
}
for f in "$T"/in.*; do
	"$top_builddir/rngtest" --sp800-90b < "$f" 2>&1 | counts_only > "$f.native"
done

# cmocka's "[  PASSED  ] N test(s)." of one run; empty if it failed.
passed_count() {
	sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$1" | tail -1
}

# ---- 3. Per architecture and CPU --------------------------------------------
for arch in $ARCHES; do
	B=$W/build-$arch
	src=$(source_of "$arch")
	have_cpu=1
	for cpu in $(cpus_of "$arch"); do
		qemu=$(qemu_of "$arch")
		tag="$arch -cpu $cpu"
		# QEMU 7.2 traps mffsl on CPUs before ISA 3.0, where real POWER8
		# runs it as mffs, and glibc's long double libm (expl, used by
		# the gate's SP 800-90B cut-offs) has it: on such a model only
		# the source tests and rngd -l can run. Checked, not assumed.
		gate_runs=1
		printf '#include <math.h>\n#include <stdlib.h>\nint main(int c, char **v) { (void)v; return expl(-(long double)c) > 1; }\n' > "$T/expl.c"
		cross_cc="$(triplet_of "$arch")-gcc"
		"$cross_cc" -O0 "$T/expl.c" -o "$T/expl-$arch" -lm || fail "$arch: cannot build the libm probe"
		timeout 60 "$qemu" -cpu "$cpu" "$T/expl-$arch" 2> /dev/null
		if [ $? = 132 ]; then
			gate_runs=0
			echo "note: $tag: this QEMU traps glibc's expl() (mffsl on a pre-ISA 3.0 model): gate tests and the daemon run skipped on it"
		fi
		total=0
		for t in $UNIT_TESTS; do
			case $t in *test_fips_*) [ "$gate_runs" = 1 ] || continue ;; esac
			timeout 600 "$qemu" -cpu "$cpu" "$B/$t" > "$T/unit.out" 2>&1 || { cat "$T/unit.out" >&2; fail "$tag: $t"; }
			"$top_builddir/$t" > "$T/unit.native" 2>&1 || fail "native $t"
			n=$(passed_count "$T/unit.out")
			[ -n "$n" ] && [ "$n" = "$(passed_count "$T/unit.native")" ] ||
				fail "$tag: $t passed ${n:-?} tests, $(passed_count "$T/unit.native") natively"
			total=$(( total + n ))
			case $t in */test_source_$src) native=$(grep -h 'native: ' "$T/unit.out" | sed 's/^.*native: //' | head -1) ;; esac
		done
		echo "ok: $tag: $total unit tests passed, as many as natively; the real instruction: $native"
		if [ "$gate_runs" = 1 ]; then
			timeout 600 "$qemu" -cpu "$cpu" "$B/tests/reference/test_fips_differential" 2000 > "$T/diff.out" 2>&1 ||
				{ tail "$T/diff.out" >&2; fail "$tag: test_fips_differential"; }
			for f in "$T"/in.random "$T"/in.biased "$T"/in.markov "$T"/in.runs "$T"/in.repeat "$T"/in.zeroblocks; do
				timeout 600 "$qemu" -cpu "$cpu" "$B/rngtest" --sp800-90b < "$f" 2>&1 | counts_only > "$f.emu"
				cmp -s "$f.native" "$f.emu" ||
					{ diff "$f.native" "$f.emu" >&2; fail "$tag: rngtest counts differ on $(basename "$f")"; }
			done
			echo "ok: $tag: the differential test passes, rngtest counts identical to this machine's on 6 inputs"
		fi

		timeout 60 "$qemu" -cpu "$cpu" "$B/rngd/rngd" -l > "$T/list" 2>&1 || fail "$tag: rngd -l failed: $(cat "$T/list")"
		line=$(grep "^$src " "$T/list") || fail "$tag: rngd -l does not list $src: $(cat "$T/list")"
		grep -qE '^(rdrand|padlock) ' "$T/list" && fail "$tag: rngd -l lists x86 sources: $(cat "$T/list")"
		if [ "$have_cpu" = 1 ]; then
			echo "$line" | grep -qE "^$src +yes " || fail "$tag: $src not usable: $line"
		else
			echo "$line" | grep -qE "^$src +no .*(lacks FEAT_RNG|lacks DARN)" || fail "$tag: no reason: $line"
		fi
		echo "ok: $tag: rngd -l: $line"

		if [ "$gate_runs" = 0 ]; then
			have_cpu=0
			continue
		fi
		if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
			echo "note: $tag: daemon run skipped (guard needs root and unshare -m)"
			have_cpu=0
			continue
		fi
		rm -f "$T/pid" "$T/sink"
		"$GUARD" -p "$T/pid" -- "$qemu" -cpu "$cpu" "$B/rngd/rngd" -f -c /dev/null -x all -n "$src" \
			-o "$T/sink" > "$T/out" 2> "$T/log" &
		GUARD_JOB=$!
		for _ in $(seq 100); do [ -s "$T/pid" ] && break; sleep 0.05; done
		[ -s "$T/pid" ] || fail "$tag: rngd did not start"
		RNGD_PID=$(cat "$T/pid")
		if [ "$have_cpu" = 1 ]; then
			deadline=$(( $(date +%s) + 120 ))
			while [ "$(stat -c %s "$T/sink" 2>/dev/null || echo 0)" -lt $(( 40 * FIPS_BLOCK_BYTES )) ]; do
				kill -0 "$RNGD_PID" 2>/dev/null || fail "$tag: rngd died"
				[ "$(date +%s)" -gt "$deadline" ] && fail "$tag: fewer than 40 blocks in 120 s"
				sleep 0.2
			done
			kill -TERM "$RNGD_PID"
			wait "$GUARD_JOB"
			rc=$?
			GUARD_JOB= RNGD_PID=
			[ "$rc" = 0 ] || fail "$tag: rngd exited $rc after SIGTERM (99: wrote to /dev/random)"
			size=$(stat -c %s "$T/sink")
			[ $(( size % FIPS_BLOCK_BYTES )) = 0 ] || fail "$tag: the sink holds $size bytes, not whole blocks"
			# Every block in the sink passes this machine's gate: replaying it
			# (after a 4-byte continuous-test seed) keeps every byte.
			{ head -c 4 /dev/urandom; cat "$T/sink"; } > "$T/replay"
			"$HELPER" expect "$T/replay" "$T/replayed" > /dev/null || fail "$tag: daemon-helper expect"
			cmp -s "$T/sink" "$T/replayed" || fail "$tag: the sink holds blocks that fail the gate"
			to_sink=$(grep -E "notice: $src: summary:" "$T/log" | grep -oE 'bytes to sink [0-9]+' | awk '{print $NF}')
			[ "${to_sink:-}" = "$size" ] || fail "$tag: summary says ${to_sink:-no} bytes to the sink, it has $size"
			passed=$(( size / FIPS_BLOCK_BYTES ))
			grep -q "opened reading" "$T/log" || fail "$tag: no 'opened reading ...' line"
			echo "ok: $tag: rngd -n $src: $(grep -o 'opened reading[^,]*' "$T/log"), $passed blocks, all pass the gate"
		else
			wait "$GUARD_JOB"
			rc=$?
			GUARD_JOB= RNGD_PID=
			[ "$rc" != 0 ] || fail "$tag: rngd -n $src ran without the instruction"
			grep -qE "$src: cannot be used: .*(FEAT_RNG|DARN)" "$T/log" ||
				fail "$tag: no reason logged: $(cat "$T/log")"
			echo "ok: $tag: rngd -n $src refused (exit $rc): $(grep -o 'cannot be used: .*' "$T/log")"
		fi
		have_cpu=0
	done
done
echo "check-cross: all passed"
