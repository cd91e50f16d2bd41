#!/usr/bin/env bash
# Random input, file source -> file sink: every passing block reaches the
# sink byte for byte and in order (in -s 1000 byte writes), no failing block
# does, each passing block earns FIPS_BLOCK_BITS x entropy_per_bit bits, the
# regular file is read once (never re-read after EOF), SIGTERM exits 0 with
# a summary.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$HELPER" gen random 2000 "$T/in" || fail "gen"
read -r _ passed _ failed < <("$HELPER" expect "$T/in" "$T/expect") || fail "expect"
start_rngd -x all -r "$T/in" -O file:entropy_per_bit:0.75 -s 1000 -o "$T/sink" --quarantine-after=0
wait_log "no usable source left"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC after SIGTERM"
cmp "$T/sink" "$T/expect" || fail "the sink differs from the passing blocks of the input"
grep -q "notice: file: summary:" "$T/log" || fail "no summary line on exit"
[ "$(summary_field file "blocks passed")" = "$passed" ] || fail "summary passed != $passed"
[ "$(summary_field file failed)" = "$failed" ] || fail "summary failed != $failed"
[ "$(summary_field file "bytes read")" = "$(stat -c %s "$T/in")" ] || fail "bytes read: the file was not read exactly once"
[ "$(summary_field file "bits credited")" = $(( passed * FIPS_BLOCK_BITS * 3 / 4 )) ] || fail "credit is not 0.75 x $FIPS_BLOCK_BITS bits per passing block"
grep -q "exhausted: .* never re-read" "$T/log" || fail "EOF of a regular file not reported as exhausted"
# Nothing is retried after that, and the log says so (it said "still retrying").
grep -q "no usable source left; every source is exhausted or left out; nothing more will be read" "$T/log" ||
	fail "the last source's exhaustion reads as a retry: $(grep 'no usable source' "$T/log")"
echo "ok: $passed passing blocks in order, $failed failing blocks kept out"
