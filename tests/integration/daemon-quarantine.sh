#!/usr/bin/env bash
# A source that goes bad midway is quarantined (after 3 failed blocks in a
# row), the run carries on with a second source, and once the first passes
# a re-test it is back in service; the sink holds only passing blocks of
# each source, each source's in its own order.
. "$top_srcdir/tests/integration/daemon-lib.sh"
skip_unless_guard

"$HELPER" gen random 100 "$T/good" || fail gen
"$HELPER" gen zeros 20 "$T/zeros" || fail gen
"$HELPER" gen random 100 "$T/good2" || fail gen
# 100 random blocks, 20 zero blocks, 100 random blocks.
cat "$T/good" <(tail -c +5 "$T/zeros") <(tail -c +5 "$T/good2") > "$T/a"
"$HELPER" gen random 300 "$T/b" || fail gen
"$HELPER" expect "$T/a" "$T/expect_a" > /dev/null || fail expect
read -r _ passed_b _ _ < <("$HELPER" expect "$T/b" "$T/expect_b") || fail expect

start_rngd -x all -r "$T/a" -r "$T/b" -O file:priority:5 -o "$T/sink" --retest-after=0.1 --retest-max=0.2
wait_log "file: quarantined after 3 failed blocks in a row"
wait_log "file.2: exhausted"
wait_log "file: exhausted" 60
wait_log "no usable source left"
stop_rngd TERM
[ "$RC" = 0 ] || fail "rngd exited $RC"
read -r _ got_a _ got_b < <("$HELPER" merge "$T/sink" "$T/expect_a" "$T/expect_b") || fail "the sink holds a block that is not a passing block in order"
[ "$got_b" = "$passed_b" ] || fail "only $got_b of the second source's $passed_b passing blocks reached the sink"
[ "$(summary_field file quarantines)" -ge 1 ] || fail "no quarantine counted"
[ "$(summary_field file "re-tests failed")" -ge 1 ] || fail "the quarantined source was not re-tested"
[ "$(summary_field file "returns to service")" -ge 1 ] || fail "the recovered source did not come back"
[ "$(summary_field file.2 quarantines)" = 0 ] || fail "the second source was quarantined"
[ "$got_a" -ge 180 ] || fail "only $got_a good blocks of the first source reached the sink"
echo "ok: source 1 quarantined, re-tested, back in service ($got_a good blocks in the sink); source 2 delivered all $got_b"
