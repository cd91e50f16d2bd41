#!/usr/bin/env bash
# Run every libFuzzer harness for SECONDS each (default 10) from its seed
# corpus, and print the executions reached and the crashes found.
#
#   run-fuzz.sh [SECONDS [MAX_RUNS]]
#
# New corpus entries go to a scratch folder (the source tree may be
# read-only); a crash leaves its input in $top_builddir/tests/fuzz/ and
# fails the run. Exit 77 (skip) when the harnesses could not be built
# (no clang with libFuzzer).
set -u
: "${top_builddir:?run from make}" "${top_srcdir:?run from make}"
. "$top_srcdir/tests/lib/fips-constants.sh"
seconds=${1:-10}
max_runs=${2:-100000000}
fdir=$top_builddir/tests/fuzz
harnesses="fuzz_config fuzz_cli fuzz_gate fuzz_sysstat fuzz_egd"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rngd-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
status=0
total_runs=0
for h in $harnesses; do
	bin=$fdir/$h
	corpus=${h#fuzz_}
	"$bin" -help=1 > /dev/null 2>&1
	rc=$?
	if [ $rc = 77 ]; then
		echo "SKIP: $h was not built (no clang with libFuzzer)"
		exit 77
	fi
	mkdir -p "$scratch/$corpus"
	max_len=4096
	extra=()
	[ "$h" = fuzz_gate ] && max_len=$((4 + 3 + 8 * FIPS_BLOCK_BYTES))
	# Option names and range edges, and comparison operands as feedback,
	# so an off-by-one at a range edge is a mutation or two away.
	case $h in fuzz_config|fuzz_cli)
		extra=(-use_value_profile=1 -dict="$top_srcdir/tests/fuzz/options.dict") ;;
	esac
	"$bin" -max_total_time="$seconds" -runs="$max_runs" -max_len=$max_len \
		-timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$fdir/$h-" "${extra[@]}" \
		"$scratch/$corpus" "$top_srcdir/tests/fuzz/corpus/$corpus" \
		> "$scratch/$h.log" 2>&1
	rc=$?
	runs=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$scratch/$h.log" | awk '{print $2}')
	cov=$(grep -oE 'cov: [0-9]+' "$scratch/$h.log" | tail -1 | awk '{print $2}')
	crashes=0
	if [ $rc != 0 ]; then
		crashes=1
		status=1
		echo "FAIL: $h exited $rc; its log:" >&2
		grep -vE '^#[0-9]+' "$scratch/$h.log" | tail -40 >&2
	fi
	total_runs=$(( total_runs + ${runs:-0} ))
	printf '%-13s %ss: %10s executions, coverage %s edges, corpus %s+%s inputs, crashes %s\n' \
		"$h" "$seconds" "${runs:-?}" "${cov:-?}" \
		"$(ls "$top_srcdir/tests/fuzz/corpus/$corpus" | wc -l)" "$(ls "$scratch/$corpus" | wc -l)" "$crashes"
	[ -n "$runs" ] && [ "$runs" -gt 0 ] || { [ $rc = 0 ] && { echo "FAIL: $h ran no input" >&2; status=1; }; }
done
echo "fuzz: $total_runs executions in all"
exit $status
