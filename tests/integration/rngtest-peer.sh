#!/usr/bin/env bash
# Cross-check ./rngtest against rng-tools-debian's rngtest (the peer) on
# seeded, reproducible inputs: both must report the same bits received,
# successes, failures and every per-test count, and the same exit code.
# The one intended difference: a block equal to one of the last 64 fails our
# repeated-block test, which the peer does not have; that case is checked
# on its own. If the peer cannot be fetched, this test fails.
# RNGTEST_LONG=1 (make check-long) adds a million random blocks.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/rngtest-lib.sh"

if ! peer=$("$here/rngtest-peer-fetch.sh"); then
	echo "FAIL: cannot fetch rng-tools-debian's rngtest (see above)"
	exit 1
fi
echo "peer: $peer"

MiB=1048576
BLOCK=$FIPS_BLOCK_BYTES

# run_both NAME OPTIONS GEN-ARGS...: feed the generated input to both tools
# with OPTIONS, keep stderr in $work/NAME.{peer,ours}, stdout in
# $work/NAME.{peer,ours}.out and exit codes in rc_*. The input is made twice
# rather than stored: the long run's is 2.5 GB.
run_both() {
	local name=$1 opts=$2 tool
	shift 2
	for tool in peer ours; do
		set +e +o pipefail
		# shellcheck disable=SC2086 # OPTIONS is a word list on purpose
		"$gen" "$@" 2>/dev/null | "${!tool}" $opts >"$work/$name.$tool.out" 2>"$work/$name.$tool"
		eval "rc_$tool=\${PIPESTATUS[1]}"
		set -e -o pipefail
	done
}

# same_counts NAME: every count line of every report identical, same exit code.
same_counts() {
	local name=$1
	if diff <(fips_counts "$work/$name.peer") <(fips_counts "$work/$name.ours") >"$work/$name.diff" &&
		[ "$rc_peer" = "$rc_ours" ] && [ -s "$work/$name.ours" ]; then
		return 0
	fi
	echo "  exit codes: peer $rc_peer, ours $rc_ours"
	sed 's/^/  /' "$work/$name.diff"
	return 1
}

# compare NAME REPEATS OPTIONS GEN-ARGS...: inputs whose repeated blocks
# (REPEATS of them) fail FIPS tests anyway, so every count must match.
compare() {
	local name=$1 repeats=$2
	shift 2
	run_both "$name" "$@"
	check "$name: same counts and exit code as the peer ($(value "$work/$name.peer" 'FIPS 140-2 failures') failures)" \
		same_counts "$name"
	check "$name: $repeats repeated blocks" [ "$(value "$work/$name.ours" 'Repeated block (last 64)')" = "$repeats" ]
}

within() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# The inputs must exercise what they claim, or equal counts prove little.
at_least() { [ "$(value "$work/$1.peer" "$2")" -ge "$3" ]; }

compare random 0 "" -s 1 random $((8 * MiB))
check "random: some blocks tested" at_least random 'FIPS 140-2 successes' 3000

# Zeros repeat inside the first block too (the lagged half sees that);
# a 4-byte pattern with no byte that is an anchor repeats from the second.
compare zeros $(((MiB - 4) / BLOCK)) "" -s 2 zeros $((MiB))
check "zeros: every block fails monobit" at_least zeros 'FIPS 140-2(2001-10-10) Monobit' 419

compare pattern4 $(((MiB - 4) / BLOCK - 1)) "" -s 3 pattern4 $((MiB))
check "pattern4: every block fails the continuous test" \
	at_least pattern4 'FIPS 140-2(2001-10-10) Continuous run' 419

compare p520 0 "" -s 4 biased=520000 $((2 * MiB))
check "P(1)=0.52: monobit failures" at_least p520 'FIPS 140-2(2001-10-10) Monobit' 600
check "P(1)=0.52: poker failures" at_least p520 'FIPS 140-2(2001-10-10) Poker' 100
check "P(1)=0.52: runs failures" at_least p520 'FIPS 140-2(2001-10-10) Runs' 10

compare p505 0 "" -s 5 biased=505000 $((8 * MiB))
check "P(1)=0.505: some monobit failures" at_least p505 'FIPS 140-2(2001-10-10) Monobit' 5
check "P(1)=0.505: some successes" at_least p505 'FIPS 140-2 successes' 3000

# Bits that flip with P near 0.518 / 0.482: the runs-of-1 counts straddle
# the runs test's upper / lower edge, so an off-by-one in any run count
# changes verdicts (random data is too far from the edges to notice).
for q in 518000 482000; do
	compare "markov$q" 0 "" -s 12 "markov=$q" $((4 * MiB))
	check "markov$q: runs verdicts on the edge" \
		within "$(value "$work/markov$q.peer" 'FIPS 140-2(2001-10-10) Runs')" 300 1400
done

compare runs 0 "" -s 6 runs $((4 * MiB))
# 3 of every 8 blocks hold a whole run of 26; the rest runs of 25 or a run
# of 26 split by a block edge, which pass.
runs_blocks=$(((4 * MiB - 4) / BLOCK))
planted=$((runs_blocks / 8 * 3 + (runs_blocks % 8 > 5 ? 3 : (runs_blocks % 8 > 3 ? 2 : (runs_blocks % 8 > 1 ? 1 : 0)))))
long_runs=$(value "$work/runs.peer" 'FIPS 140-2(2001-10-10) Long run')
# The random background adds the odd natural run of 26 or more.
check "runs 25/26: long-run failures are the planted 26s ($long_runs, $planted planted)" \
	within "$long_runs" "$planted" $((planted + 3))

compare partial 0 "" -s 7 random $((BLOCK * 10 + 4 + 1234))
check "partial block: bits received counts seed and tail" \
	[ "$(value "$work/partial.ours" 'bits received from input')" -eq $(((BLOCK * 10 + 4 + 1234) * 8)) ]

compare short "" "" -s 8 random 3
compare blockstats 0 "-c 100 -b 30" -s 9 runs $((MiB))
check "-b 30 -c 100: four reports" [ "$(grep -c 'bits received' "$work/blockstats.ours")" -eq 4 ]

# Pipe mode: the peer throws the first 32 bits away before the seed. Both
# must pass exactly the same bytes.
compare pipe 0 "-p" -s 10 -H 8 runs $((MiB))
check "-p: same bytes on stdout as the peer" \
	cmp -s "$work/pipe.peer.out" "$work/pipe.ours.out"
check "-p: something was passed" [ -s "$work/pipe.ours.out" ]

# Repeated blocks: 1000 blocks, every PERIOD-th one the same block. The
# peer passes them; we fail every repeat within 64 blocks of the previous.
repeat_case() {
	local period=$1 expect=$2 name=repeat$1
	local peer_fail ours_fail ours_rep
	run_both "$name" "" -s 11 -P "$period" repeat $((4 + 1000 * BLOCK))
	peer_fail=$(value "$work/$name.peer" 'FIPS 140-2 failures')
	ours_fail=$(value "$work/$name.ours" 'FIPS 140-2 failures')
	ours_rep=$(value "$work/$name.ours" 'Repeated block (last 64)')
	check "$name: repeated-block count is $expect" [ "$ours_rep" = "$expect" ]
	check "$name: FIPS 140-2 per-test lines and bits as the peer" diff \
		<(fips_counts "$work/$name.peer" | grep -v 'successes\|failures') \
		<(fips_counts "$work/$name.ours" | grep -v 'successes\|failures')
	check "$name: failures = peer's + repeats" [ "$ours_fail" -eq $((peer_fail + expect)) ]
	check "$name: same block total" [ \
		$(($(value "$work/$name.ours" 'FIPS 140-2 successes') + ours_fail)) -eq \
		$(($(value "$work/$name.peer" 'FIPS 140-2 successes') + peer_fail)) ]
	if [ "$expect" -gt 0 ]; then
		check "$name: peer passes the repeats, we exit 1" [ "$rc_ours" = 1 ]
	else
		check "$name: same exit code" [ "$rc_ours" = "$rc_peer" ]
	fi
}
repeat_case 1 999    # one block over and over
repeat_case 10 99    # one block among random ones
repeat_case 64 15    # repeat exactly 64 blocks later: still remembered
repeat_case 65 0     # 65 blocks later: forgotten, as the peer

if [ "${RNGTEST_LONG:-0}" = 1 ]; then
	compare long_random 0 "" -s 100 random $((4 + 1000000 * BLOCK))
	check "long: a million blocks tested" [ \
		$(($(value "$work/long_random.ours" 'FIPS 140-2 successes') + \
		   $(value "$work/long_random.ours" 'FIPS 140-2 failures'))) -eq 1000000 ]
	rm -f "$work"/long_random.*
	compare long_p505 0 "" -s 101 biased=505000 $((4 + 200000 * BLOCK))
	compare long_p510 0 "" -s 102 biased=510000 $((4 + 200000 * BLOCK))
	compare long_runs 0 "" -s 103 runs $((4 + 200000 * BLOCK))
fi

finish
